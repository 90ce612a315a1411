"""Every rule in docs/conformance.md, sent through the real SDK in-process and over the loopback server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anthropic
import httpx2
import pytest

from agentlib.offline import OFFLINE_MODEL, Fallback, Offline
from agentlib.offline.simulator import MAX_REQUEST_BYTES, OFFLINE_OUTPUT_LIMIT
from agentlib.offline.validate import RULES

TABLE = Path(__file__).parent.parent / "docs" / "conformance.md"
BASH = {"name": "bash", "description": "Run a command.", "input_schema": {"type": "object"}}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}
HEADERS = {
    "x-api-key": "any",
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
}


def after_call(*user_blocks, call_blocks=(CALL,)):
    """A history whose last user message follows an assistant message with tool calls."""
    return [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": list(call_blocks)},
        {"role": "user", "content": list(user_blocks)},
    ]


def text(value):
    return {"type": "text", "text": value}


# rule -> (request fields over a valid request, status, error type, words the message contains)
REFUSED = {
    "body-object": ([], 400, "invalid_request_error", ["Input should be a valid dictionary"]),
    "extra-inputs": (
        {"context_management": {"edits": []}},
        400,
        "invalid_request_error",
        ["context_management: Extra inputs are not permitted"],
    ),
    "field-required": (
        {"max_tokens": ...},
        400,
        "invalid_request_error",
        ["max_tokens: Field required"],
    ),
    "field-type": ({"max_tokens": "many"}, 400, "invalid_request_error", ["max_tokens", "integer"]),
    "max-tokens-min": (
        {"max_tokens": 0},
        400,
        "invalid_request_error",
        ["greater than or equal to 1"],
    ),
    "max-tokens-limit": (
        {"max_tokens": OFFLINE_OUTPUT_LIMIT + 1},
        400,
        "invalid_request_error",
        [f"max_tokens: {OFFLINE_OUTPUT_LIMIT + 1} > {OFFLINE_OUTPUT_LIMIT}", "maximum allowed"],
    ),
    "model-known": (
        {"model": "claude-nonexistent"},
        404,
        "not_found_error",
        ["model: claude-nonexistent", OFFLINE_MODEL],
    ),
    "system-text": (
        {"system": [{"type": "image", "source": {}}]},
        400,
        "invalid_request_error",
        ["system.0.type: Input should be 'text'"],
    ),
    "tool-name-pattern": (
        {"tools": [{**BASH, "name": "read file"}]},
        400,
        "invalid_request_error",
        ["tools.0.custom.name: String should match pattern"],
    ),
    "tool-input-schema": (
        {"tools": [{**BASH, "input_schema": {"type": "string"}}]},
        400,
        "invalid_request_error",
        ["tools.0.custom.input_schema.type: Input should be 'object'"],
    ),
    "tool-names-unique": (
        {"tools": [BASH, BASH]},
        400,
        "invalid_request_error",
        ["Tool names must be unique"],
    ),
    "tool-choice-type": (
        {"tools": [BASH], "tool_choice": {"type": "required"}},
        400,
        "invalid_request_error",
        ["tool_choice", "does not match any of the expected tags"],
    ),
    "tool-choice-known": (
        {"tools": [BASH], "tool_choice": {"type": "tool", "name": "glob"}},
        400,
        "invalid_request_error",
        ["Tool 'glob' not found in provided tools"],
    ),
    "tools-defined": (
        {"messages": after_call(RESULT)},
        400,
        "invalid_request_error",
        ["Requests which include `tool_use` or `tool_result` blocks must define tools."],
    ),
    "block-type": (
        {"messages": [{"role": "user", "content": [{"type": "picture", "url": "x"}]}]},
        400,
        "invalid_request_error",
        ["messages.0.content.0", "Input tag 'picture'"],
    ),
    "block-role": (
        {"messages": [{"role": "user", "content": [CALL]}]},
        400,
        "invalid_request_error",
        ["messages.0.content.0", "`tool_use` blocks can only appear in `assistant` messages"],
    ),
    "tool-use-id-pattern": (
        {"messages": after_call(RESULT, call_blocks=[{**CALL, "id": "call 1"}])},
        400,
        "invalid_request_error",
        ["messages.1.content.0.tool_use.id: String should match pattern"],
    ),
    "role": (
        {"messages": [{"role": "tool", "content": "x"}]},
        400,
        "invalid_request_error",
        ["messages.0.role: Input should be 'user' or 'assistant'"],
    ),
    "messages-non-empty": (
        {"messages": []},
        400,
        "invalid_request_error",
        ["at least one message"],
    ),
    "first-user": (
        {"messages": [{"role": "assistant", "content": "hello"}]},
        400,
        "invalid_request_error",
        ['messages: first message must use the "user" role'],
    ),
    "content-non-empty": (
        {"messages": [{"role": "user", "content": []}, {"role": "assistant", "content": "x"}]},
        400,
        "invalid_request_error",
        ["messages.0: all messages must have non-empty content except for the optional final"],
    ),
    "text-non-empty": (
        {"messages": [{"role": "user", "content": [text("")]}]},
        400,
        "invalid_request_error",
        ["messages: text content blocks must be non-empty"],
    ),
    "text-non-whitespace": (
        {"messages": [{"role": "user", "content": [text(" \n")]}]},
        400,
        "invalid_request_error",
        ["messages: text content blocks must contain non-whitespace text"],
    ),
    "prefill-trailing-whitespace": (
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "Sure, "},
            ]
        },
        400,
        "invalid_request_error",
        ["messages: final assistant content cannot end with trailing whitespace"],
    ),
    "tool-use-unique": (
        {"messages": after_call(RESULT, call_blocks=[CALL, CALL])},
        400,
        "invalid_request_error",
        ["messages.1.content.1: `tool_use` ids must be unique"],
    ),
    "tool-use-answered": (
        {"messages": after_call(text("and now?"))},
        400,
        "invalid_request_error",
        [
            "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1"
        ],
    ),
    "tool-result-first": (
        {"messages": after_call(text("here you go"), RESULT)},
        400,
        "invalid_request_error",
        [
            "messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. "
            "Messages following `tool_use` blocks must begin with a matching number of "
            "`tool_result` blocks."
        ],
    ),
    "tool-result-matches-call": (
        # the live 400 the SDK's own test suite recorded: two user messages count as one turn
        {
            "messages": [
                {"role": "user", "content": "weather?"},
                {"role": "user", "content": [RESULT]},
            ]
        },
        400,
        "invalid_request_error",
        ["messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1"],
    ),
}

# rule -> request fields over a valid request that the API answers with 200
ACCEPTED = {
    "same-role-turns-accepted": {
        "messages": [
            {"role": "user", "content": "list the files"},
            {"role": "assistant", "content": [CALL]},
            {"role": "user", "content": [RESULT]},
            {"role": "user", "content": "then count them"},
        ],
        "tools": [BASH],
    },
    "prefill-accepted": {
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Sure,"}]
    },
    "tool-description-optional": {
        "tools": [{k: v for k, v in BASH.items() if k != "description"}],
    },
}

# rules about the HTTP request itself: (headers, body, status, error type, words)
HTTP = {
    "json-valid": (HEADERS, b'{"model": ', 400, "invalid_request_error", ["not valid JSON"]),
    "version-header": (
        {k: v for k, v in HEADERS.items() if k != "anthropic-version"},
        None,
        400,
        "invalid_request_error",
        ["anthropic-version: header is required"],
    ),
    "api-key-header": (
        {k: v for k, v in HEADERS.items() if k != "x-api-key"},
        None,
        401,
        "authentication_error",
        ["x-api-key header is required"],
    ),
}


def valid(**fields):
    request = {
        "model": OFFLINE_MODEL,
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "hi"}],
    }
    request.update(fields)
    return {k: v for k, v in request.items() if v is not ...}


def test_the_table_and_the_simulator_name_the_same_rules():
    named = re.findall(r"^\| `([a-z-]+)` \|", TABLE.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(named) == sorted(RULES)
    assert len(named) == len(set(named))  # one row per rule


def test_every_rule_has_a_test_here():
    assert sorted([*REFUSED, *ACCEPTED, *HTTP, "body-size"]) == sorted(RULES)


@pytest.mark.parametrize("rule", sorted(REFUSED))
def test_refused_as_live(client, rule):
    fields, status, kind, words = REFUSED[rule]
    body = valid(**fields) if isinstance(fields, dict) else fields
    with pytest.raises(anthropic.APIStatusError) as caught:
        client.post("/v1/messages", body=body, cast_to=anthropic.types.Message)
    error = caught.value.body["error"]
    assert (caught.value.status_code, error["type"]) == (status, kind)
    for word in words:
        assert word in error["message"]


@pytest.mark.parametrize("rule", sorted(ACCEPTED))
def test_accepted_as_live(client, rule):
    message = client.messages.create(**valid(**ACCEPTED[rule]))
    assert message.role == "assistant" and message.content


@pytest.mark.parametrize("rule", sorted(HTTP))
def test_http_request_refused_as_live(rule, loopback):
    headers, body, status, kind, words = HTTP[rule]
    body = body if body is not None else json.dumps(valid()).encode()
    in_process = httpx2.Client(transport=Offline([Fallback()]).transport())
    for http, base in ((in_process, "http://offline.invalid"), (httpx2.Client(), loopback)):
        answer = http.post(f"{base}/v1/messages", content=body, headers=headers)
        error = answer.json()["error"]
        assert (answer.status_code, error["type"]) == (status, kind)
        assert all(word in error["message"] for word in words), error


def test_a_body_over_32_mb_is_refused_before_it_is_read(client):
    big = "x" * (MAX_REQUEST_BYTES + 1)
    with pytest.raises(anthropic.APIStatusError) as caught:
        client.messages.create(**valid(messages=[{"role": "user", "content": big}]))
    assert caught.value.status_code == 413
    assert caught.value.body["error"]["type"] == "request_too_large"
