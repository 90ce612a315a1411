"""Check a Messages API request the way the live API does, with the live API's wording.

Every rule has an id (``RULES``); docs/conformance.md lists the same ids with their public
sources. The conversation's shape (roles, empty content, tool_use / tool_result pairing) is
decided by ``agentlib.protocol.protocol_problems``, the code ``check_history`` explains too;
a tool definition by ``agentlib.tool_checks.tool_problems``, the code the course's checks use.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Mapping
from typing import Any

import typing_extensions
from anthropic.types import ToolChoiceParam, ToolParam
from anthropic.types.message_content_param import MessageContentParam
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from anthropic.types.tool_result_block_param import Content as ResultContentParam

from agentlib.protocol import protocol_problems
from agentlib.tool_checks import tool_problems

RULES = {
    # HTTP: agentlib/offline/simulator.py
    "body-size": "a body over 32 MB is refused with 413 request_too_large",
    "json-valid": "the body is valid JSON",
    "version-header": "the anthropic-version header is present",
    "api-key-header": "an x-api-key (or Authorization) header is present",
    "model-known": "the model id exists (else 404 not_found_error)",
    # the request's fields
    "body-object": "the body is a JSON object",
    "extra-inputs": "no field the API does not define, at top level, in a message or in a block",
    "field-required": "required fields are present",
    "field-type": "each field has its type (string, integer, list, object)",
    "max-tokens-min": "max_tokens is at least 1",
    "max-tokens-limit": "max_tokens is at most the model's output limit",
    "system-text": "system is a string or a list of text blocks",
    # a tool definition: agentlib.tool_checks.tool_problems
    "tool-name-pattern": "tool names match ^[a-zA-Z0-9_-]{1,128}$",
    "tool-input-schema": "a tool's input_schema is an object schema",
    "tool-names-unique": "tool names are unique",
    "tool-choice-type": "tool_choice.type is auto, any, tool or none",
    "tool-choice-known": "tool_choice names a tool in tools",
    "tools-defined": "a request whose messages hold tool_use or tool_result blocks defines tools",
    "block-type": "each content block has a known type",
    "block-role": "tool_result / image / document only in user messages; tool_use / thinking "
    "only in assistant messages",
    "tool-use-id-pattern": "tool_use ids match ^[a-zA-Z0-9_-]+$",
    # the conversation's shape: agentlib.protocol.protocol_problems
    "role": "roles are user or assistant",
    "messages-non-empty": "there is at least one message",
    "first-user": "the first message is the user's",
    "content-non-empty": "every message but a final assistant one has content",
    "text-non-empty": "text blocks are not empty",
    "text-non-whitespace": "text blocks are not only whitespace",
    "prefill-trailing-whitespace": "a final assistant message does not end with whitespace",
    "tool-use-unique": "tool_use ids are unique in the request",
    "tool-use-answered": "each tool_use is answered by a tool_result in the next turn",
    "tool-result-first": "the turn after tool_use blocks begins with its tool_result blocks",
    "tool-result-matches-call": "each tool_result answers a tool_use of the turn before",
    # what the API accepts, and the simulator with it
    "same-role-turns-accepted": "consecutive messages of one role are combined, not refused",
    "prefill-accepted": "a final assistant message is a prefill the reply continues",
    "tool-description-optional": "a tool without a description is accepted (the course advises one)",
}

TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
USER_ONLY = {"tool_result", "image", "document", "search_result"}
ASSISTANT_ONLY = {"tool_use", "thinking", "redacted_thinking", "server_tool_use"}


class InvalidRequest(Exception):
    """The request breaks rule ``rule``; the message is the API's explanation."""

    def __init__(self, rule: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.rule = rule
        self.status = status
        self.kind = {404: "not_found_error", 401: "authentication_error"}.get(
            status, "invalid_request_error"
        )


def _keys(typed_dict: Any) -> frozenset[str]:
    return frozenset(typed_dict.__required_keys__ | typed_dict.__optional_keys__)


def _by_type(union: Any) -> dict[str, frozenset[str]]:
    """The fields of each member of a union of the SDK's param TypedDicts, by their ``type``."""
    fields = {}
    for member in typing.get_args(union):
        if not hasattr(member, "__required_keys__"):
            continue  # the SDK's response models, which it also accepts, dump to these shapes
        # typing_extensions strips the SDK's Required[...] wrappers on every Python (typing does not on 3.10)
        (kind,) = typing.get_args(typing_extensions.get_type_hints(member)["type"])
        fields[kind] = _keys(member)
    return fields


# The fields the API defines are the ones the installed SDK's request types declare; the
# sampling fields are added because earlier SDK releases declare them (not every one does).
TOP_FIELDS = (_keys(MessageCreateParamsNonStreaming) | {"temperature", "top_k", "top_p"}) - {
    "user_profile_id",  # these two the SDK sends as headers
    "workspace_id",
}
MESSAGE_FIELDS = frozenset({"role", "content"})
BLOCK_FIELDS = _by_type(typing.get_args(typing.get_args(MessageContentParam)[1])[0])
RESULT_CONTENT_FIELDS = _by_type(ResultContentParam)
TOOL_FIELDS = _keys(ToolParam)
TOOL_CHOICE_FIELDS = _by_type(ToolChoiceParam)


def parse_body(body: bytes) -> Any:
    """The request body as JSON, or InvalidRequest with the API's wording."""
    try:
        return json.loads(body or b"")
    except ValueError as err:
        raise InvalidRequest("json-valid", f"The request body is not valid JSON: {err}") from None
    except RecursionError:
        reason = "The request body is not valid JSON: it is nested too deeply"
        raise InvalidRequest("json-valid", reason) from None


def check_headers(headers: Mapping[str, str]) -> None:
    """Raise InvalidRequest when a header the API needs is missing."""
    names = {name.lower() for name in headers}
    if not names & {"x-api-key", "authorization"}:
        raise InvalidRequest("api-key-header", "x-api-key header is required", 401)
    if "anthropic-version" not in names:
        raise InvalidRequest("version-header", "anthropic-version: header is required")


def validate_request(body: Any, models: Mapping[str, int]) -> None:
    """Raise InvalidRequest for the first rule the request breaks; ``models`` maps id to output limit."""
    if not isinstance(body, dict):
        raise InvalidRequest("body-object", "Input should be a valid dictionary")
    _no_extra(body, TOP_FIELDS, "")
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            raise InvalidRequest("field-required", f"{name}: Field required")
    model, max_tokens = body["model"], body["max_tokens"]
    if not isinstance(model, str):
        raise InvalidRequest("field-type", "model: Input should be a valid string")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool):
        raise InvalidRequest("field-type", "max_tokens: Input should be a valid integer")
    if max_tokens < 1:
        raise InvalidRequest(
            "max-tokens-min", "max_tokens: Input should be greater than or equal to 1"
        )
    _check_system(body.get("system"))
    _check_tool_choice(body.get("tool_choice"), _check_tools(body.get("tools")))
    _check_messages(body["messages"])
    tool_blocks = (
        b.get("type") in ("tool_use", "tool_result")
        for m in body["messages"]
        if isinstance(m["content"], list)
        for b in m["content"]
    )
    if any(tool_blocks) and not body.get("tools"):
        raise InvalidRequest(
            "tools-defined",
            "Requests which include `tool_use` or `tool_result` blocks must define tools.",
        )
    if model not in models:
        raise InvalidRequest("model-known", f"model: {model}", 404)
    if max_tokens > models[model]:
        raise InvalidRequest(
            "max-tokens-limit",
            f"max_tokens: {max_tokens} > {models[model]}, which is the maximum allowed number of "
            f"output tokens for {model}",
        )


def _no_extra(data: dict, known: frozenset[str], where: str) -> None:
    for key in data:
        if key not in known:
            raise InvalidRequest("extra-inputs", f"{where}{key}: Extra inputs are not permitted")


def _check_system(system: Any) -> None:
    if system is None or isinstance(system, str):
        return
    if not isinstance(system, list):
        raise InvalidRequest("system-text", "system: Input should be a valid string or list")
    for j, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text":
            raise InvalidRequest("system-text", f"system.{j}.type: Input should be 'text'")
        _no_extra(block, BLOCK_FIELDS["text"], f"system.{j}.")
        if not isinstance(block.get("text"), str):
            raise InvalidRequest("field-required", f"system.{j}.text: Field required")
        if not block["text"]:
            raise InvalidRequest("text-non-empty", "system: text content blocks must be non-empty")


def _check_tools(tools: Any) -> set[str]:
    if tools is None:
        return set()
    if not isinstance(tools, list):
        raise InvalidRequest("field-type", "tools: Input should be a valid list")
    for i, spec in enumerate(tools):
        if isinstance(spec, dict) and spec.get("type") in (None, "custom"):
            _no_extra(spec, TOOL_FIELDS, f"tools.{i}.custom.")
    refused = [p for p in tool_problems(tools) if p.api is not None]
    if refused:
        raise InvalidRequest(refused[0].rule, refused[0].api)
    return {spec.get("name", "") for spec in tools}


def _check_tool_choice(choice: Any, tool_names: set[str]) -> None:
    if choice is None:
        return
    kind = choice.get("type") if isinstance(choice, dict) else None
    if not isinstance(kind, str) or kind not in TOOL_CHOICE_FIELDS:
        expected = ", ".join(f"'{t}'" for t in TOOL_CHOICE_FIELDS)
        raise InvalidRequest(
            "tool-choice-type",
            "tool_choice: Input tag found using 'type' does not match any of the expected tags: "
            + expected,
        )
    _no_extra(choice, TOOL_CHOICE_FIELDS[kind], f"tool_choice.{kind}.")
    if kind == "tool" and choice.get("name") not in tool_names:
        raise InvalidRequest(
            "tool-choice-known", f"Tool '{choice.get('name')}' not found in provided tools"
        )


def _check_messages(messages: Any) -> None:
    if not isinstance(messages, list):
        raise InvalidRequest("field-type", "messages: Input should be a valid list")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise InvalidRequest("field-type", f"messages.{i}: Input should be a valid dictionary")
        _no_extra(message, MESSAGE_FIELDS, f"messages.{i}.")
        for name in ("role", "content"):
            if name not in message:
                raise InvalidRequest("field-required", f"messages.{i}.{name}: Field required")
        content = message["content"]
        if isinstance(content, list):
            for j, block in enumerate(content):
                _check_block(block, message["role"], f"messages.{i}.content.{j}")
        elif not isinstance(content, str):
            raise InvalidRequest(
                "field-type", f"messages.{i}.content: Input should be a valid string or list"
            )
    problems = protocol_problems(messages)
    if problems:
        raise InvalidRequest(problems[0].rule, problems[0].api)


def _check_block(block: Any, role: Any, where: str) -> None:
    if not isinstance(block, dict):
        raise InvalidRequest("field-type", f"{where}: Input should be a valid dictionary")
    kind = block.get("type")
    if kind is None:
        raise InvalidRequest("field-required", f"{where}.type: Field required")
    _known_type(kind, BLOCK_FIELDS, where)
    _no_extra(block, BLOCK_FIELDS[kind], f"{where}.{kind}.")
    if role == "assistant" and kind in USER_ONLY:
        raise InvalidRequest(
            "block-role", f"{where}: `{kind}` blocks can only appear in `user` messages"
        )
    if role == "user" and kind in ASSISTANT_ONLY:
        raise InvalidRequest(
            "block-role", f"{where}: `{kind}` blocks can only appear in `assistant` messages"
        )
    required = {
        "text": ("text",),
        "tool_use": ("id", "name", "input"),
        "tool_result": ("tool_use_id",),
    }
    for name in required.get(kind, ()):
        if name not in block:
            raise InvalidRequest("field-required", f"{where}.{kind}.{name}: Field required")
    if kind == "text" and not isinstance(block["text"], str):
        raise InvalidRequest("field-type", f"{where}.text.text: Input should be a valid string")
    if kind == "tool_use":
        if not isinstance(block["id"], str) or not TOOL_USE_ID.fullmatch(block["id"]):
            raise InvalidRequest(
                "tool-use-id-pattern",
                f"{where}.tool_use.id: String should match pattern '{TOOL_USE_ID.pattern}'",
            )
        if not isinstance(block["input"], dict):
            raise InvalidRequest(
                "field-type", f"{where}.tool_use.input: Input should be a valid dictionary"
            )
    if kind == "tool_result":
        _check_result_content(block.get("content", ""), f"{where}.tool_result.content")


def _known_type(kind: Any, known: dict[str, frozenset[str]], where: str) -> None:
    if not isinstance(kind, str) or kind not in known:
        expected = ", ".join(f"'{t}'" for t in known)
        raise InvalidRequest(
            "block-type",
            f"{where}: Input tag '{kind}' found using 'type' does not match any of the "
            f"expected tags: {expected}",
        )


def _check_result_content(content: Any, where: str) -> None:
    if isinstance(content, str):
        return
    if not isinstance(content, list):
        raise InvalidRequest("field-type", f"{where}: Input should be a valid string or list")
    for k, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        _known_type(kind, RESULT_CONTENT_FIELDS, f"{where}.{k}")
        _no_extra(part, RESULT_CONTENT_FIELDS[kind], f"{where}.{k}.{kind}.")
        if kind == "text" and not part.get("text"):
            raise InvalidRequest(
                "text-non-empty", "messages: text content blocks must be non-empty"
            )
