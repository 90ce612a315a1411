"""Read a request's history: the task the user gave, and the tool rounds run for it since."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Result:
    """What one tool call returned, as the model sees it."""

    text: str
    is_error: bool = False


@dataclass(frozen=True)
class Round:
    """One finished tool round: the calls the assistant made and what came back, in order."""

    calls: list[dict[str, Any]]
    results: list[Result]
    text: str  # any text the assistant wrote next to its calls


def content_blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's content as a list of blocks (a plain string becomes one text block)."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def result_text(block: dict[str, Any]) -> str:
    """The text of a tool_result block, whether its content is a string or a list of blocks."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))


def last_prompt(messages: list[dict[str, Any]]) -> tuple[int, str] | None:
    """Index and text of the last user message that asks something (not only tool results)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user":
            continue
        texts = [b["text"] for b in content_blocks(message) if b.get("type") == "text"]
        if texts:
            return index, "\n".join(texts).strip()
    return None


def rounds_since(messages: list[dict[str, Any]], index: int) -> list[Round]:
    """The tool rounds that followed message ``index``: each assistant call set and its results."""
    rounds: list[Round] = []
    for position in range(index + 1, len(messages) - 1):
        message = messages[position]
        if message.get("role") != "assistant":
            continue
        blocks = content_blocks(message)
        calls = [b for b in blocks if b.get("type") == "tool_use"]
        if not calls:
            continue
        answers = {
            b.get("tool_use_id"): Result(result_text(b), bool(b.get("is_error")))
            for b in content_blocks(messages[position + 1])
            if b.get("type") == "tool_result"
        }
        text = "\n".join(b["text"] for b in blocks if b.get("type") == "text")
        rounds.append(Round(calls, [answers.get(c["id"], Result("")) for c in calls], text))
    return rounds


def offered_tools(request: dict[str, Any]) -> set[str]:
    """Names of the tools this request offers the model."""
    return {spec["name"] for spec in request.get("tools") or [] if "name" in spec}
