"""Each Messages API rule the offline model checks raises the same SDK error a live call would."""

from __future__ import annotations

import json

import anthropic
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agentlib.offline import Fallback, Offline, offline_client

BASH = {
    "name": "bash",
    "description": "Run a shell command.",
    "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}},
}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.py"}


@pytest.fixture
def client():
    client, _ = offline_client(Fallback(), max_retries=0)
    return client


def send(client, **overrides):
    request = {
        "model": "agentlib-offline",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "hi"}],
    }
    request.update(overrides)
    request = {k: v for k, v in request.items() if v is not ...}
    if {"model", "max_tokens", "messages"} - request.keys():
        # messages.create refuses in Python before sending; the raw post shows the API's answer
        return client.post("/v1/messages", body=request, cast_to=anthropic.types.Message)
    return client.messages.create(**request)


BROKEN = {
    "model missing": ({"model": ...}, "model: Field required"),
    "max_tokens zero": ({"max_tokens": 0}, "greater than or equal to 1"),
    "max_tokens missing": ({"max_tokens": ...}, "max_tokens: Field required"),
    "no messages": ({"messages": []}, "at least one message is required"),
    "system role in messages": (
        {"messages": [{"role": "system", "content": "be nice"}]},
        "messages.0.role: Input should be 'user' or 'assistant'",
    ),
    "first message from assistant": (
        {"messages": [{"role": "assistant", "content": "hello"}]},
        'first message must use the "user" role',
    ),
    "empty text block": (
        {"messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}]},
        "text content blocks must be non-empty",
    ),
    "empty user string": (
        {"messages": [{"role": "user", "content": ""}]},
        "messages.0: all messages must have non-empty content",
    ),
    "empty content list": (
        {"messages": [{"role": "user", "content": []}]},
        "all messages must have non-empty content",
    ),
    "unknown block type": (
        {"messages": [{"role": "user", "content": [{"type": "picture", "url": "x"}]}]},
        "Input tag 'picture' found using 'type'",
    ),
    "unanswered tool_use": (
        {
            "messages": [
                {"role": "user", "content": "list"},
                {"role": "assistant", "content": [CALL]},
                {"role": "user", "content": "and now?"},
            ]
        },
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the "
        "next message.",
    ),
    "tool_result answering nothing": (
        {"messages": [{"role": "user", "content": [RESULT]}]},
        "unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` "
        "block must have a corresponding `tool_use` block in the previous message.",
    ),
    "tool_result with the wrong id": (
        {
            "messages": [
                {"role": "user", "content": "list"},
                {"role": "assistant", "content": [CALL]},
                {"role": "user", "content": [{**RESULT, "tool_use_id": "toolu_2"}]},
            ]
        },
        "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1",
    ),
    "tool_use in a user message": (
        {"messages": [{"role": "user", "content": [CALL]}]},
        "`tool_use` blocks can only appear in `assistant` messages",
    ),
    "bad tool name": ({"tools": [{**BASH, "name": "run bash!"}]}, "String should match pattern"),
    "tool without input_schema": (
        {"tools": [{"name": "bash", "description": "x"}]},
        "tools.0.custom.input_schema: Field required",
    ),
    "input_schema not an object": (
        {"tools": [{**BASH, "input_schema": {"type": "string"}}]},
        "tools.0.custom.input_schema.type: Input should be 'object'",
    ),
    "duplicate tool names": ({"tools": [BASH, BASH]}, "Tool names must be unique."),
    "tool_choice naming a missing tool": (
        {"tools": [BASH], "tool_choice": {"type": "tool", "name": "glob"}},
        "Tool 'glob' not found",
    ),
}


@pytest.mark.parametrize("overrides, message", BROKEN.values(), ids=BROKEN.keys())
def test_broken_request_raises_bad_request_with_api_wording(client, overrides, message):
    with pytest.raises(anthropic.BadRequestError) as caught:
        send(client, **overrides)
    assert caught.value.status_code == 400
    assert caught.value.body["error"]["type"] == "invalid_request_error"
    assert message in caught.value.body["error"]["message"]
    assert caught.value.request_id.startswith("req_offline_")


def test_well_formed_tool_round_is_accepted(client):
    messages = [
        {"role": "user", "content": "list"},
        {"role": "assistant", "content": [{"type": "text", "text": "Listing."}, CALL]},
        {"role": "user", "content": [RESULT]},
    ]
    message = send(client, messages=messages, tools=[BASH], max_tokens=1000)
    assert message.role == "assistant"
    assert message.stop_reason == "end_turn"


def test_sdk_block_objects_are_sent_as_valid_json(client):
    # the SDK serialises its own block objects; the history stays valid when they are reused
    first = send(client)
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": "again"},
    ]
    assert send(client, messages=messages).content[0].type == "text"


# any JSON at all: the answer is the API's error shape (or a reply), never an exception
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["", " ", "user", "assistant", "text", "tool_use", "tool_result", "toolu_1"]),
)
KEYS = st.sampled_from(
    ["type", "text", "id", "name", "input", "tool_use_id", "content", "role", "input_schema"]
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
BODIES = st.fixed_dictionaries(
    {
        "model": st.one_of(st.just("agentlib-offline"), SCALARS),
        "max_tokens": st.one_of(st.just(10), SCALARS),
        "messages": st.lists(
            st.fixed_dictionaries(
                {"role": st.one_of(st.sampled_from(["user", "assistant"]), JSON), "content": JSON}
            ),
            max_size=4,
        ),
    },
    optional={"tools": JSON, "tool_choice": JSON, "system": JSON},
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(BODIES, JSON))
@example(
    {
        "model": "agentlib-offline",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [{"type": []}]}],
    }
)
@example(
    {
        "model": "m",
        "max_tokens": 1,
        "messages": [{"role": "user", "content": "hi"}],
        "tool_choice": {"type": {}},
    }
)
def test_any_json_gets_an_answer_in_the_apis_shape(body):
    answer = Offline([Fallback()]).handle(
        "POST",
        "/v1/messages",
        json.dumps(body).encode(),
        {"x-api-key": "any", "anthropic-version": "2023-06-01"},
    )
    payload = json.loads(answer.body)
    if answer.status != 200:
        assert answer.status in (400, 404)
        assert payload["type"] == "error" and payload["error"]["message"]
