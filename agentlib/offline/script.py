"""A Script: a queue of replies for walkthroughs and tests, with a record of what it received."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from agentlib.offline.errors import ScriptExhausted
from agentlib.offline.replies import Reply, say


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

    def answer(self, request: dict[str, Any]) -> Reply | None:
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
