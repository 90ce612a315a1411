"""What each stop_reason means, and what the loop does next: one line each, for the diagram."""

from __future__ import annotations

# stop_reason -> (what it means, what the loop does next)
STOP_REASONS: dict[str, tuple[str, str]] = {
    "tool_use": (
        "the model asks for one or more tools",
        "run each tool, send the results back in one user message, call the model again",
    ),
    "end_turn": ("the model finished its answer", "return: the run is over"),
    "max_tokens": (
        "the reply hit max_tokens and was cut off",
        "return without running any tool call in the truncated reply",
    ),
    "stop_sequence": ("the reply reached a stop sequence", "return: the run is over"),
    "pause_turn": (
        "the server paused a long-running turn",
        "send the history back unchanged and call the model again",
    ),
    "refusal": ("the model declined to continue", "return: the run is over"),
    "model_context_window_exceeded": (
        "the history no longer fits the model's context window",
        "return: shorten the history before calling again",
    ),
    "max_turns": (
        "the turn fuse blew: too many rounds without a final answer",
        "stop the run, even though the model wanted to go on",
    ),
}


def explain(stop_reason: str | None) -> tuple[str, str]:
    """Return (meaning, next step) for a stop_reason, with a plain answer for unknown ones."""
    if stop_reason in STOP_REASONS:
        return STOP_REASONS[stop_reason]
    if stop_reason is None:
        return ("the round has no reply yet", "wait for the model")
    return (
        f"an unfamiliar stop_reason ({stop_reason})",
        "return: the loop only continues on tool_use and pause_turn",
    )
