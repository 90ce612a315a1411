"""The message history: plain dicts from SDK objects, normalisation before each call, and a protocol check."""

from __future__ import annotations

from typing import Any

CANCELLED = "(cancelled)"


def to_dict(obj: Any) -> Any:
    """Turn an SDK object (a Message, a ToolUseBlock, ...) into plain JSON-able data.

    Dicts and lists are walked, so a history that mixes SDK blocks and dicts comes out
    all dicts. Fields the SDK fills with ``None`` are dropped: the API never needs them.
    """
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", exclude_none=True)
    if isinstance(obj, dict):
        return {k: to_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    return obj


def _clean_content(content: Any) -> Any:
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    blocks = []
    for block in to_dict(list(content)):
        if isinstance(block, dict):
            # keys starting with "_" are the harness's own notes, not part of the API
            blocks.append({k: v for k, v in block.items() if not k.startswith("_")})
    return blocks


def _as_blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, list):
        return content
    return [{"type": "text", "text": str(content)}] if content else []


def _answered_ids(message: dict[str, Any] | None) -> set[str]:
    if message is None or message["role"] != "user":
        return set()
    return {
        b.get("tool_use_id")
        for b in _as_blocks(message["content"])
        if b.get("type") == "tool_result"
    }


def normalize_messages(messages: list[Any]) -> list[dict[str, Any]]:
    """Clean a history before it is sent: the seed's three jobs, done so the API accepts the result.

    1. SDK objects become dicts and ``_``-prefixed keys are stripped.
    2. Consecutive messages with the same role are merged (the API wants alternation).
    3. A ``tool_use`` with no ``tool_result`` in the next message gets a ``(cancelled)``
       result placed right after it, so the history is valid again.

    The input list is not changed.
    """
    cleaned = []
    for msg in messages:
        msg = to_dict(msg)
        if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
            raise ValueError(f"not a message (needs role 'user' or 'assistant'): {msg!r:.120}")
        cleaned.append({"role": msg["role"], "content": _clean_content(msg.get("content"))})

    merged: list[dict[str, Any]] = []
    for msg in cleaned:
        if merged and merged[-1]["role"] == msg["role"]:
            prev = merged[-1]
            prev["content"] = _as_blocks(prev["content"]) + _as_blocks(msg["content"])
        else:
            merged.append(msg)

    result: list[dict[str, Any]] = []
    for i, msg in enumerate(merged):
        result.append(msg)
        if msg["role"] != "assistant":
            continue
        nxt = merged[i + 1] if i + 1 < len(merged) else None
        answered = _answered_ids(nxt)
        missing = [
            b["id"]
            for b in _as_blocks(msg["content"])
            if b.get("type") == "tool_use" and b.get("id") not in answered
        ]
        if not missing:
            continue
        placeholders = [
            {"type": "tool_result", "tool_use_id": tid, "content": CANCELLED} for tid in missing
        ]
        if nxt is not None and nxt["role"] == "user":
            # tool_result blocks must come first in the user message
            nxt["content"] = placeholders + _as_blocks(nxt["content"])
        else:
            result.append({"role": "user", "content": placeholders})
    return result


def check_history(messages: list[Any]) -> list[str]:
    """Explain, in words, every way this history breaks the Messages API's protocol.

    An empty list means the API will accept the shape of the conversation.
    """
    problems = []
    msgs = [to_dict(m) for m in messages]
    if not msgs:
        return ["The history is empty: the first message must be the user's question."]
    if msgs[0].get("role") != "user":
        problems.append("messages[0] must come from the user; it comes from the assistant.")
    for i, msg in enumerate(msgs):
        role = msg.get("role")
        if role not in ("user", "assistant"):
            problems.append(f"messages[{i}] has role {role!r}; only 'user' and 'assistant' exist.")
            continue
        if i and msgs[i - 1].get("role") == role:
            problems.append(
                f"messages[{i - 1}] and messages[{i}] are both from the {role}; roles must alternate "
                "(normalize_messages merges them)."
            )
        blocks = _as_blocks(msg.get("content"))
        if role == "assistant":
            nxt = msgs[i + 1] if i + 1 < len(msgs) else None
            answered = _answered_ids(nxt) if nxt and nxt.get("role") == "user" else set()
            for b in blocks:
                if b.get("type") == "tool_use" and b.get("id") not in answered:
                    where = "the next message" if nxt else "a next message (there is none yet)"
                    problems.append(
                        f"messages[{i}] asks for tool {b.get('name')!r} (id {b.get('id')}), but "
                        f"{where} carries no tool_result for that id: the API will refuse the "
                        "history until the tool's result is sent back."
                    )
        else:
            prev = msgs[i - 1] if i else None
            asked = {
                b.get("id")
                for b in (_as_blocks(prev.get("content")) if prev else [])
                if b.get("type") == "tool_use"
            }
            for b in blocks:
                if b.get("type") == "tool_result" and b.get("tool_use_id") not in asked:
                    problems.append(
                        f"messages[{i}] returns a result for id {b.get('tool_use_id')}, which no "
                        "tool_use in the previous message asked for."
                    )
    return problems
