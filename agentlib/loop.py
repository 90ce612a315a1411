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
    "model_context_window_exceeded": (
        "the reply was cut off when the context window filled up; its tool calls (if any) were "
        "not run"
    ),
    OUT_OF_ROUNDS: "the round limit was reached without a final answer",
}
WHY_ZH = {  # the same, for agent_loop(..., lang="zh")
    "end_turn": "模型完成了回答",
    "stop_sequence": "模型遇到了停止序列（stop sequence）",
    "max_tokens": "回复在 max_tokens 处被截断了；其中的工具调用（如果有）都没有运行",
    "refusal": "模型拒绝继续",
    "model_context_window_exceeded": "上下文窗口被填满，回复因此被截断；其中的工具调用（如果有）都没有运行",
    OUT_OF_ROUNDS: "达到了轮数上限，仍然没有最终回答",
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
    lang: str = "en",
) -> LoopState:
    """Run the loop until the model stops asking for tools. Appends to ``messages`` as it goes.

    ``lang="zh"`` gives ``state.why`` in Chinese.
    """
    run = _Run(LoopState(messages), on_event, lang)
    extra = {"system": system} if system else {}
    while True:
        if run.state.rounds >= max_rounds:  # the round limit: a runaway loop stops here
            why = f"the round limit was reached: {max_rounds} rounds without a final answer"
            if lang == "zh":
                why = f"达到了轮数上限：{max_rounds} 轮，仍然没有最终回答"
            return run.finish(OUT_OF_ROUNDS, why)
        sent = normalize_messages(messages)
        run.round_started(sent)
        try:
            response = client.messages.create(
                model=model, messages=sent, tools=tools.TOOLS, max_tokens=max_tokens, **extra
            )
        except Exception as error:  # the history is intact: fix the cause and call agent_loop again
            run.failed(error)
            raise
        messages.append({"role": "assistant", "content": to_dict(response.content)})
        run.model_replied(response, messages[-1])
        if response.stop_reason == "pause_turn":
            continue  # the server paused a long turn; sending the history back resumes it
        if response.stop_reason != "tool_use":
            return run.finish(response.stop_reason)
        calls = [b for b in messages[-1]["content"] if b.get("type") == "tool_use"]
        results = _run_tool_calls(calls, tools, on_ran=run.tool_ran)
        messages.append({"role": "user", "content": results})


class _Run:
    """The loop's bookkeeping: count rounds, time the model, record and emit each event."""

    def __init__(
        self, state: LoopState, on_event: Callable[[Event], None] | None, lang: str = "en"
    ) -> None:
        self.state, self.on_event, self.started = state, on_event, 0.0
        self.zh = lang == "zh"

    def emit(self, event: Event) -> None:
        self.state.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def round_started(self, sent: list[dict[str, Any]]) -> None:
        self.state.rounds += 1
        self.emit(RoundStarted(round=self.state.rounds, messages=sent))
        self.started = time.perf_counter()

    def model_replied(self, response: Any, reply: dict[str, Any]) -> None:
        self.emit(
            ModelReplied(
                round=self.state.rounds,
                message=reply,
                stop_reason=response.stop_reason,
                usage=to_dict(response.usage) or {},
                model=response.model,
                duration_s=time.perf_counter() - self.started,
            )
        )

    def tool_ran(self, ran: ToolRan) -> None:
        self.emit(replace(ran, round=self.state.rounds))

    def finish(self, stop_reason: str | None, why: str = "") -> LoopState:
        state = self.state
        state.stop_reason = stop_reason
        if self.zh:
            state.why = why or WHY_ZH.get(stop_reason or "", f"模型停下了（{stop_reason}）")
        else:
            state.why = why or WHY.get(stop_reason or "", f"the model stopped ({stop_reason})")
        self.emit(Finished(round=state.rounds, stop_reason=stop_reason, why=state.why))
        return state

    def failed(self, error: Exception) -> None:
        """Record why the call failed; a bad key or a dead endpoint is re-raised with its fix."""
        failed = "API 调用失败" if self.zh else "the API call failed"
        self.finish(None, f"{failed}: {type(error).__name__}: {error}")
        from .client import config_error_for  # only on failure: the loop never needs the SDK

        clearer = config_error_for(error)
        if clearer is not None:
            raise clearer from error


def _run_tool_calls(
    calls: list[dict[str, Any]],
    tools: Toolbox,
    on_ran: Callable[[ToolRan], None] | None = None,
) -> list[dict[str, Any]]:
    """Run one round's ``tool_use`` blocks; return their ``tool_result`` blocks in the same order.

    Neighbouring calls to read-only tools run at the same time; a call to any other tool
    runs alone, after everything before it, so a read that follows a write sees the write.
    """
    results = []
    for batch in _read_only_batches(calls, tools):
        if len(batch) == 1:
            done = [_run_one(batch[0], tools)]
        else:
            with ThreadPoolExecutor(max_workers=min(8, len(batch))) as pool:
                done = list(pool.map(lambda call: _run_one(call, tools), batch))
        for result, ran in done:
            results.append(result)
            if on_ran is not None:
                on_ran(ran)
    return results


def _read_only_batches(calls: list[dict[str, Any]], tools: Toolbox) -> list[list[dict[str, Any]]]:
    """Split calls, in order, into runs of neighbouring read-only calls and single other calls."""

    def is_read_only(call: dict[str, Any]) -> bool:
        name = call.get("name")
        return name in tools.names and tools[name].read_only

    batches: list[list[dict[str, Any]]] = []
    for call in calls:
        if is_read_only(call) and batches and is_read_only(batches[-1][0]):
            batches[-1].append(call)
        else:
            batches.append([call])
    return batches


def _run_one(call: dict[str, Any], tools: Toolbox) -> tuple[dict[str, Any], ToolRan]:
    started = time.perf_counter()
    outcome = tools.dispatch(call.get("name", ""), call.get("input"))
    ran = ToolRan(
        round=0,  # the loop sets the round when it records the event
        tool_use_id=call["id"],
        name=call.get("name", ""),
        input=call.get("input"),
        output=outcome.content,
        is_error=outcome.is_error,
        duration_s=time.perf_counter() - started,
    )
    result = {"type": "tool_result", "tool_use_id": call["id"], "content": outcome.content}
    if outcome.is_error:
        result["is_error"] = True
    return result, ran
