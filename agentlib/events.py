"""What the loop reports while it runs. Views (the widget, the REPL) subscribe; the loop imports none of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, kw_only=True)
class RoundStarted:
    """The loop is about to call the model with ``messages``: the history as sent (plain dicts).

    It is ``normalize_messages(history)``, so a message with nothing to clean is the
    history's own dict, not a copy: the rounds of a run store each message once.
    """

    round: int
    messages: list[dict[str, Any]]
    kind: str = field(default="round_started", init=False)


@dataclass(frozen=True, kw_only=True)
class ModelReplied:
    """The model answered. ``message`` is the assistant message as a plain dict."""

    round: int
    message: dict[str, Any]
    stop_reason: str | None
    usage: dict[str, Any]
    model: str
    duration_s: float
    kind: str = field(default="model_replied", init=False)


@dataclass(frozen=True, kw_only=True)
class ToolRan:
    """One tool call finished; ``output`` is what goes back to the model."""

    round: int
    tool_use_id: str
    name: str
    input: Any
    output: str
    is_error: bool
    duration_s: float
    kind: str = field(default="tool_ran", init=False)


@dataclass(frozen=True, kw_only=True)
class Finished:
    """The loop returned. ``stop_reason`` is the model's, or ``"max_rounds"`` when the round limit was reached."""

    round: int
    stop_reason: str | None
    why: str
    kind: str = field(default="finished", init=False)


Event = RoundStarted | ModelReplied | ToolRan | Finished
