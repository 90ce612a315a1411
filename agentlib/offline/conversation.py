"""Read a request's history: the task the user gave, and the tool rounds run for it since."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentlib.messages import content_blocks, content_text


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


def last_prompt(messages: list[dict[str, Any]]) -> tuple[int, str] | None:
    """Index and text of the last user message that asks something (not only tool results)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user":
            continue
        texts = [
            b["text"] for b in content_blocks(message.get("content")) if b.get("type") == "text"
        ]
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
        blocks = content_blocks(message.get("content"))
        calls = [b for b in blocks if b.get("type") == "tool_use"]
        if not calls:
            continue
        answers = {
            b.get("tool_use_id"): Result(content_text(b.get("content")), bool(b.get("is_error")))
            for b in content_blocks(messages[position + 1].get("content"))
            if b.get("type") == "tool_result"
        }
        text = "\n".join(b["text"] for b in blocks if b.get("type") == "text")
        rounds.append(Round(calls, [answers.get(c["id"], Result("")) for c in calls], text))
    return rounds


def offered_tools(request: dict[str, Any]) -> set[str]:
    """Names of the tools this request offers the model."""
    return {spec["name"] for spec in request.get("tools") or [] if "name" in spec}
