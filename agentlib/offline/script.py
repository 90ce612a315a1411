"""What a policy answers with (a Reply and its constructors), and a Script: a queue of replies with a record of what it received."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentlib.offline.errors import ScriptExhausted


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


class Script:
    """Answer requests with the queued replies, in order; ``strict=False`` passes on when empty."""

    def __init__(
        self, *replies: Reply | str | Callable[[dict], Reply], strict: bool = True
    ) -> None:
        self.queue: deque = deque(replies)
        self.strict = strict
        self.requests: list[dict[str, Any]] = []  # what the script was asked, in order

    def add(self, *replies: Reply | str | Callable[[dict], Reply]) -> Script:
        """Queue more replies (returns the script, so calls chain)."""
        self.queue.extend(replies)
        return self

    @property
    def remaining(self) -> int:
        """How many replies are still queued."""
        return len(self.queue)

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply | None:
        """The next queued reply; a clear ScriptExhausted error when there is none."""
        if not self.queue and not self.strict:
            return None
        self.requests.append(request)
        if not self.queue:
            answered = len(self.requests) - 1  # every earlier request took one reply
            raise ScriptExhausted(
                f"The offline script ran out after {answered} replies: request "
                f"{len(self.requests)} has no reply queued. Queue more with "
                "Script(...).add(say(...)), or pass strict=False and put Fallback() after it."
            )
        item = self.queue.popleft()
        if isinstance(item, str):
            return say(item)
        return item if isinstance(item, Reply) else item(request)
