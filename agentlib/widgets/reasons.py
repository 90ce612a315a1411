"""What each stop_reason means, and what the loop does next, in English (words.py adds Chinese)."""

from __future__ import annotations

from ..loop import OUT_OF_ROUNDS, WHY

# what the loop does after each stop_reason, in the order notebook 01 lists them
NEXT = {
    "tool_use": "run each tool, send the results back in one user message, call the model again",
    "end_turn": "return: the run is over",
    "max_tokens": "return without running any tool call in the truncated reply",
    "stop_sequence": "return: the run is over",
    "pause_turn": "append the paused reply to the history and call the model again",
    "refusal": "return: the run is over",
    "model_context_window_exceeded": (
        "return without running any tool call in the cut-off reply, as for max_tokens; shorten "
        "the history before asking again"
    ),
    OUT_OF_ROUNDS: "stop the run, even though the model wanted to go on",
}
# the meaning is the loop's own `why`, except for the two reasons the loop goes on after (it
# never explains those) and max_tokens, whose `why` also tells what NEXT says here
_MEANING = {
    "tool_use": "the model asks for one or more tools",
    "pause_turn": "the server paused a long-running turn",
    "max_tokens": "the reply hit max_tokens and was cut off",
}
# stop_reason -> (what it means, what the loop does next)
STOP_REASONS: dict[str, tuple[str, str]] = {
    reason: (_MEANING.get(reason) or WHY[reason], step) for reason, step in NEXT.items()
}
