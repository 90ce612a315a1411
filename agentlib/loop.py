"""The s01 agent loop: call the model with the whole history, run the tools it asks for, repeat."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from .events import Event, Finished, ModelReplied, RoundStarted, ToolRan
from .messages import normalize_messages, to_dict
from .tools import Toolbox

OUT_OF_ROUNDS = "max_rounds"  # the stop_reason recorded when the round limit ends a run

WHY = {
    "end_turn": "the model finished its answer",
    "stop_sequence": "the model hit a stop sequence",
    "max_tokens": "the reply was cut off at max_tokens; its tool calls (if any) were not run",
    "refusal": "the model declined to continue",
    "model_context_window_exceeded": "the history no longer fits the model's context window",
    OUT_OF_ROUNDS: "the round limit blew: max_rounds rounds without a final answer",
}


@dataclass
class LoopState:
    """What a run leaves behind: the history, how many model calls, and why it stopped."""

    messages: list[dict[str, Any]]
    rounds: int = 0
    stop_reason: str | None = None
    why: str = ""
    events: list[Event] = field(default_factory=list)


def agent_loop(
    messages: list[dict[str, Any]],
    *,
    client: Any,
    model: str,
    tools: Toolbox,
    system: str | None = None,
    max_tokens: int = 8000,
    max_rounds: int = 50,
    on_event: Callable[[Event], None] | None = None,
) -> LoopState:
    """Run the loop until the model stops asking for tools. Appends to ``messages`` as it goes."""
    state = LoopState(messages)

    def emit(event: Event) -> None:
        state.events.append(event)
        if on_event is not None:
            on_event(event)

    extra = {"system": system} if system else {}
    while True:
        if state.rounds >= max_rounds:
            return _finish(state, emit, OUT_OF_ROUNDS)
        state.rounds += 1
        sent = normalize_messages(messages)
        emit(RoundStarted(state.rounds, sent))
        started = time.perf_counter()
        try:
            response = client.messages.create(
                model=model, messages=sent, tools=tools.TOOLS, max_tokens=max_tokens, **extra
            )
        except Exception as e:  # the history is intact: fix the cause and call agent_loop again
            _fail(state, emit, e)
            raise
        reply = {"role": "assistant", "content": to_dict(response.content)}
        messages.append(reply)
        emit(
            ModelReplied(
                state.rounds,
                reply,
                response.stop_reason,
                to_dict(response.usage) or {},
                response.model,
                time.perf_counter() - started,
            )
        )
        if response.stop_reason == "pause_turn":
            continue  # the server paused a long turn; sending the history back resumes it
        if response.stop_reason != "tool_use":
            return _finish(state, emit, response.stop_reason)
        calls = [b for b in reply["content"] if b.get("type") == "tool_use"]
        results = run_tool_calls(calls, tools, lambda e: emit(replace(e, round=state.rounds)))
        messages.append({"role": "user", "content": results})


def _finish(
    state: LoopState, emit: Callable[[Event], None], stop_reason: str | None, why: str = ""
) -> LoopState:
    state.stop_reason = stop_reason
    state.why = why or WHY.get(stop_reason or "", f"the model stopped ({stop_reason})")
    emit(Finished(state.rounds, stop_reason, state.why))
    return state


def _fail(state: LoopState, emit: Callable[[Event], None], error: Exception) -> None:
    """Record why the call failed; a bad key or a dead endpoint is re-raised with its fix."""
    _finish(state, emit, None, f"the API call failed: {type(error).__name__}: {error}")
    from .client import (
        config_error_for,  # loaded only on failure: the loop itself never needs the SDK
    )

    clearer = config_error_for(error)
    if clearer is not None:
        raise clearer from error


def run_tool_calls(
    calls: list[dict[str, Any]],
    tools: Toolbox,
    on_ran: Callable[[ToolRan], None] | None = None,
) -> list[dict[str, Any]]:
    """Run one round's ``tool_use`` blocks; return their ``tool_result`` blocks in the same order.

    Neighbouring calls to read-only tools run at the same time; a call to any other tool
    runs alone, after everything before it, so a read that follows a write sees the write.
    """

    def run(call: dict[str, Any]) -> tuple[dict[str, Any], ToolRan]:
        started = time.perf_counter()
        outcome = tools.dispatch(call.get("name", ""), call.get("input"))
        ran = ToolRan(
            0,
            call["id"],
            call.get("name", ""),
            call.get("input"),
            outcome.content,
            outcome.is_error,
            time.perf_counter() - started,
        )
        result = {"type": "tool_result", "tool_use_id": call["id"], "content": outcome.content}
        if outcome.is_error:
            result["is_error"] = True
        return result, ran

    def is_read_only(call: dict[str, Any]) -> bool:
        name = call.get("name")
        return name in tools.names and tools[name].read_only

    batches: list[list[dict[str, Any]]] = []
    for call in calls:
        if is_read_only(call) and batches and is_read_only(batches[-1][0]):
            batches[-1].append(call)
        else:
            batches.append([call])

    results = []
    for batch in batches:
        if len(batch) == 1:
            done = [run(batch[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(8, len(batch))) as pool:
                done = list(pool.map(run, batch))
        for result, ran in done:
            results.append(result)
            if on_ran is not None:
                on_ran(ran)
    return results
