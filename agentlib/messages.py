"""The message history: plain dicts from SDK objects, and the normalisation before each call (the rules it keeps: ``protocol``)."""

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


def content_blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as a list of blocks, whether it is a string or already a list.

    A non-empty string is one text block; ``""`` and ``None`` are no blocks at all (the API
    refuses an empty text block, so there is nothing to keep). Items of a list that are not
    dicts are not blocks and are left out.
    """
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [b for b in content or () if isinstance(b, dict)]


def content_text(content: Any) -> str:
    """The text a content carries: its text blocks' text, one per line."""
    return "\n".join(b.get("text", "") for b in content_blocks(content) if b.get("type") == "text")


def _clean(message: Any) -> dict[str, Any]:
    if _sendable(message):
        return message  # already what the API reads: sent as it is, not copied each round
    msg = message if isinstance(message, dict) else to_dict(message)
    if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
        raise ValueError(f"not a message (needs role 'user' or 'assistant'): {msg!r:.120}")
    content = msg.get("content")
    if isinstance(content, str) or content is None:
        return {"role": msg["role"], "content": content or ""}
    blocks = [b for b in to_dict(list(content)) if isinstance(b, dict)]
    # keys starting with "_" are the harness's own notes, not part of the API
    blocks = [{k: v for k, v in b.items() if not k.startswith("_")} for b in blocks]
    return {"role": msg["role"], "content": blocks}


def _sendable(message: Any) -> bool:
    # a plain dict of role and content whose blocks are plain dicts with no "_" notes
    if type(message) is not dict or message.keys() != {"role", "content"}:
        return False
    content = message["content"]
    if message["role"] not in ("user", "assistant") or not isinstance(content, (str, list)):
        return False
    return isinstance(content, str) or all(
        type(b) is dict and not any(k.startswith("_") for k in b) and _plain(b) for b in content
    )


def _plain(value: Any) -> bool:
    # JSON data already: nothing in it that to_dict would turn into something else
    if type(value) is dict:
        return all(_plain(v) for v in value.values())
    if type(value) is list:
        return all(_plain(v) for v in value)
    return not isinstance(value, tuple) and not hasattr(value, "model_dump")


def normalize_messages(messages: list[Any]) -> list[dict[str, Any]]:
    """Clean a history before it is sent: the seed's three jobs, done so the API accepts the result.

    1. SDK objects become dicts and ``_``-prefixed keys are stripped.
    2. Consecutive messages with the same role are merged (the API would combine them too).
    3. A ``tool_use`` with no ``tool_result`` in the next message gets a ``(cancelled)``
       result placed right after it, so the history is valid again; results that follow
       other blocks in that message move to its front, where the API wants them.

    The input is not changed. What has nothing to clean (a message of plain JSON, or such a
    message's blocks when it is merged) is passed on as it is, so a history is not copied
    every round; what is cleaned is new.
    """
    merged: list[dict[str, Any]] = []
    for msg in map(_clean, messages):  # may raise on a message that is not one: nothing sent
        if merged and merged[-1]["role"] == msg["role"]:
            blocks = content_blocks(merged[-1]["content"]) + content_blocks(msg["content"])
            merged[-1] = {"role": msg["role"], "content": blocks}
        else:
            merged.append(msg)
    out: list[dict[str, Any]] = []
    for i, msg in enumerate(merged):
        asked = _asked_ids(merged[i - 1]) if i and msg["role"] == "user" else []
        out.append(_answers_first(msg, asked) if asked else msg)
        if msg["role"] == "assistant" and i + 1 == len(merged) and _asked_ids(msg):
            out.append({"role": "user", "content": _cancelled(_asked_ids(msg))})
    return out


def _asked_ids(turn: dict[str, Any]) -> list[Any]:
    return [b.get("id") for b in content_blocks(turn["content"]) if b.get("type") == "tool_use"]


def _cancelled(ids: list[Any]) -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": tid, "content": CANCELLED} for tid in ids]


def _answers_first(turn: dict[str, Any], asked: list[Any]) -> dict[str, Any]:
    # the user turn after tool_use blocks begins with a tool_result for each: its own answers
    # move to the front, and a (cancelled) result stands in for each missing one
    blocks = content_blocks(turn["content"])
    answers = [
        b for b in blocks if b.get("type") == "tool_result" and b.get("tool_use_id") in asked
    ]
    answered = {b.get("tool_use_id") for b in answers}
    missing = [tid for tid in asked if tid not in answered]
    if not missing and blocks[: len(answers)] == answers:
        return turn
    moved = {id(b) for b in answers}
    rest = [b for b in blocks if id(b) not in moved]
    return {"role": "user", "content": _cancelled(missing) + answers + rest}
