"""Check a Messages API request the way the live API does, with the live API's wording."""

from __future__ import annotations

import re
from typing import Any

from agentlib.offline.conversation import content_blocks

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
BLOCK_TYPES = ("text", "image", "document", "tool_use", "tool_result", "thinking")
USER_ONLY = {"tool_result", "image", "document"}
ASSISTANT_ONLY = {"tool_use", "thinking"}


class InvalidRequest(Exception):
    """The request breaks a rule of the Messages API; the message is the API's explanation."""


def validate_request(body: Any) -> None:
    """Raise InvalidRequest with the live API's message for the first rule the request breaks."""
    if not isinstance(body, dict):
        raise InvalidRequest("Input should be a valid dictionary")
    for field in ("model", "max_tokens", "messages"):
        if field not in body:
            raise InvalidRequest(f"{field}: Field required")
    if not isinstance(body["model"], str) or not body["model"]:
        raise InvalidRequest("model: Input should be a non-empty string")
    max_tokens = body["max_tokens"]
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool):
        raise InvalidRequest("max_tokens: Input should be a valid integer")
    if max_tokens < 1:
        raise InvalidRequest("max_tokens: Input should be greater than or equal to 1")
    _check_system(body.get("system"))
    tool_names = _check_tools(body.get("tools"))
    _check_tool_choice(body.get("tool_choice"), tool_names)
    _check_messages(body["messages"])


def _check_system(system: Any) -> None:
    if system is None or isinstance(system, str):
        return
    if not isinstance(system, list):
        raise InvalidRequest("system: Input should be a valid string or a list of text blocks")
    for j, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text":
            raise InvalidRequest(f"system.{j}.type: Input should be 'text'")
        _check_text(block, f"system.{j}")


def _check_tools(tools: Any) -> set[str]:
    if tools is None:
        return set()
    if not isinstance(tools, list):
        raise InvalidRequest("tools: Input should be a valid list")
    names: list[str] = []
    for i, spec in enumerate(tools):
        where = f"tools.{i}.custom"
        if not isinstance(spec, dict):
            raise InvalidRequest(f"tools.{i}: Input should be a valid dictionary")
        if "type" in spec and spec["type"] not in ("custom", None):
            continue  # server tools (web search, ...) have their own shape; not simulated
        name = spec.get("name")
        if name is None:
            raise InvalidRequest(f"{where}.name: Field required")
        if not isinstance(name, str) or not TOOL_NAME.fullmatch(name):
            raise InvalidRequest(f"{where}.name: String should match pattern '{TOOL_NAME.pattern}'")
        if "description" in spec and not isinstance(spec["description"], str):
            raise InvalidRequest(f"{where}.description: Input should be a valid string")
        schema = spec.get("input_schema")
        if schema is None:
            raise InvalidRequest(f"{where}.input_schema: Field required")
        if not isinstance(schema, dict):
            raise InvalidRequest(f"{where}.input_schema: Input should be a valid dictionary")
        if schema.get("type") != "object":
            raise InvalidRequest(f"{where}.input_schema.type: Input should be 'object'")
        names.append(name)
    if len(set(names)) != len(names):
        raise InvalidRequest("tools: Tool names must be unique.")
    return set(names)


def _check_tool_choice(choice: Any, tool_names: set[str]) -> None:
    if choice is None:
        return
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind not in ("auto", "any", "tool", "none"):
        raise InvalidRequest(
            "tool_choice.type: Input tag found using 'type' does not match any of the "
            "expected tags: 'auto', 'any', 'tool', 'none'"
        )
    if kind == "tool" and choice.get("name") not in tool_names:
        raise InvalidRequest(f"Tool '{choice.get('name')}' not found in provided tools")


def _check_text(block: dict, where: str) -> None:
    text = block.get("text")
    if not isinstance(text, str):
        raise InvalidRequest(f"{where}.text: Field required")
    if not text:
        raise InvalidRequest(f"{where}: text content blocks must be non-empty")
    if not text.strip():
        raise InvalidRequest(f"{where}: text content blocks must contain non-whitespace text")


def _check_messages(messages: Any) -> None:
    if not isinstance(messages, list):
        raise InvalidRequest("messages: Input should be a valid list")
    if not messages:
        raise InvalidRequest("messages: at least one message is required")
    for i, message in enumerate(messages):
        _check_message(i, message, is_last=i == len(messages) - 1)
    if messages[0]["role"] != "user":
        raise InvalidRequest('messages: first message must use the "user" role')
    _check_tool_pairing(messages)


def _check_message(i: int, message: Any, *, is_last: bool) -> None:
    if not isinstance(message, dict):
        raise InvalidRequest(f"messages.{i}: Input should be a valid dictionary")
    role = message.get("role")
    if role is None:
        raise InvalidRequest(f"messages.{i}.role: Field required")
    if role not in ("user", "assistant"):
        raise InvalidRequest(f"messages.{i}.role: Input should be 'user' or 'assistant'")
    if "content" not in message:
        raise InvalidRequest(f"messages.{i}.content: Field required")
    content = message["content"]
    allowed_empty = is_last and role == "assistant"
    if isinstance(content, str):
        if not content and not allowed_empty:
            raise InvalidRequest(f"messages.{i}: text content blocks must be non-empty")
        if is_last and role == "assistant" and content != content.rstrip():
            raise InvalidRequest("final assistant content cannot end with trailing whitespace")
        return
    if not isinstance(content, list):
        raise InvalidRequest(f"messages.{i}.content: Input should be a valid string or list")
    if not content and not allowed_empty:
        raise InvalidRequest(
            f"messages.{i}: all messages must have non-empty content except for the "
            "optional final assistant message"
        )
    for j, block in enumerate(content):
        _check_block(block, role, f"messages.{i}.content.{j}")


def _check_block(block: Any, role: str, where: str) -> None:
    if not isinstance(block, dict):
        raise InvalidRequest(f"{where}: Input should be a valid dictionary")
    kind = block.get("type")
    if kind is None:
        raise InvalidRequest(f"{where}.type: Field required")
    if kind not in BLOCK_TYPES:
        expected = ", ".join(f"'{t}'" for t in BLOCK_TYPES)
        raise InvalidRequest(
            f"{where}: Input tag '{kind}' found using 'type' does not match any of the "
            f"expected tags: {expected}"
        )
    if role == "assistant" and kind in USER_ONLY:
        raise InvalidRequest(f"{where}: `{kind}` blocks can only appear in `user` messages")
    if role == "user" and kind in ASSISTANT_ONLY:
        raise InvalidRequest(f"{where}: `{kind}` blocks can only appear in `assistant` messages")
    if kind == "text":
        _check_text(block, where)
    elif kind == "tool_use":
        for field in ("id", "name", "input"):
            if field not in block:
                raise InvalidRequest(f"{where}.{field}: Field required")
        if not isinstance(block["input"], dict):
            raise InvalidRequest(f"{where}.input: Input should be a valid dictionary")
    elif kind == "tool_result":
        if not isinstance(block.get("tool_use_id"), str):
            raise InvalidRequest(f"{where}.tool_use_id: Field required")
        inner = block.get("content", "")
        if isinstance(inner, list):
            for k, part in enumerate(inner):
                if isinstance(part, dict) and part.get("type") == "text":
                    _check_text(part, f"{where}.content.{k}")
                elif not isinstance(part, dict) or part.get("type") not in ("image", "document"):
                    raise InvalidRequest(
                        f"{where}.content.{k}: tool_result content blocks must be text, "
                        "image or document blocks"
                    )
        elif not isinstance(inner, str):
            raise InvalidRequest(f"{where}.content: Input should be a valid string or list")


def _ids(message: dict | None, role: str, kind: str, key: str) -> list[str]:
    """``key`` of each ``kind`` block in ``message``, when there is one and it has ``role``."""
    if message is None or message["role"] != role:
        return []
    return [b[key] for b in content_blocks(message) if b["type"] == kind]


def _check_tool_pairing(messages: list[dict]) -> None:
    for i, message in enumerate(messages):
        before = messages[i - 1] if i > 0 else None
        after = messages[i + 1] if i + 1 < len(messages) else None
        if message["role"] == "user":
            offered = _ids(before, "assistant", "tool_use", "id")
            results = _ids(message, "user", "tool_result", "tool_use_id")
            stray = [tool_id for tool_id in results if tool_id not in offered]
            if stray:
                raise InvalidRequest(
                    f"messages.{i}.content.0: unexpected `tool_use_id` found in `tool_result` "
                    f"blocks: {', '.join(stray)}. Each `tool_result` block must have a "
                    "corresponding `tool_use` block in the previous message."
                )
        else:
            answered = _ids(after, "user", "tool_result", "tool_use_id")
            calls = _ids(message, "assistant", "tool_use", "id")
            missing = [tool_id for tool_id in calls if tool_id not in answered]
            if missing:
                raise InvalidRequest(
                    f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
                    f"immediately after: {', '.join(missing)}. Each `tool_use` block must have "
                    "a corresponding `tool_result` block in the next message."
                )
