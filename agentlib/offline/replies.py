"""What a policy answers with: a Reply (content blocks and a stop reason) and small constructors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """One assistant turn: content blocks (plain dicts) and the stop reason to report."""

    content: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str | None = None

    def __post_init__(self) -> None:
        if self.stop_reason is None:
            has_call = any(block.get("type") == "tool_use" for block in self.content)
            self.stop_reason = "tool_use" if has_call else "end_turn"


def say(text: str, *, stop_reason: str | None = None) -> Reply:
    """A reply with one text block, e.g. ``say("Done.")``."""
    return Reply([{"type": "text", "text": text}], stop_reason)


def call(name: str, input: dict[str, Any] | None = None, /, **kwargs: Any) -> Reply:
    """A reply asking to run one tool, e.g. ``call("bash", command="ls")``."""
    return Reply([{"type": "tool_use", "name": name, "input": {**(input or {}), **kwargs}}])


def reply(*parts: Reply | str | dict[str, Any], stop_reason: str | None = None) -> Reply:
    """Combine text and tool calls in one turn: ``reply("Listing.", call("bash", command="ls"))``."""
    content: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, Reply):
            content.extend(part.content)
        elif isinstance(part, str):
            content.append({"type": "text", "text": part})
        else:
            content.append(dict(part))
    return Reply(content, stop_reason)
