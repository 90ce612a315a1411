"""Rebuild a trace from a message history alone, when no loop events were recorded."""

from __future__ import annotations

from typing import Any

from ..events import ModelReplied, RoundStarted, ToolRan
from ..messages import to_dict
from .trace import Trace, message_summary


def trace_from_messages(
    messages: list[Any], *, offline: bool | None = None, lang: str = "en"
) -> Trace:
    """Rebuild rounds from a history alone: each assistant message is one round's reply.

    Durations and usage are unknown; stop reasons are inferred (tool_use if the reply asks for
    tools, else end_turn) and marked as such.
    """
    msgs = [to_dict(m) for m in messages]
    trace = Trace(offline=offline, lang=lang)
    n = 0
    for i, msg in enumerate(msgs):
        if msg.get("role") != "assistant":
            continue
        n += 1
        trace.add(RoundStarted(round=n, messages=msgs[:i]))
        blocks = message_summary(msg)["blocks"]
        asks = [b for b in blocks if b["type"] == "tool_use"]
        stop = "tool_use" if asks else "end_turn"
        trace.add(
            ModelReplied(round=n, message=msg, stop_reason=stop, usage={}, model="", duration_s=0.0)
        )
        r = trace.round(n)
        r["duration_s"] = None
        trace.stops_inferred = True  # said once by the views, not on every stop line
        nxt = msgs[i + 1] if i + 1 < len(msgs) else {}
        results = {b.get("tool_use_id"): b for b in message_summary(nxt)["blocks"] if nxt}
        for call in asks:
            if call["id"] in results:
                res = results[call["id"]]
                ran = ToolRan(
                    round=n,
                    tool_use_id=call["id"],
                    name=call["name"],
                    input=call["input"],
                    output=res.get("content", ""),
                    is_error=bool(res.get("is_error")),
                    duration_s=0.0,
                )
                trace.add(ran)
                r["tools"][-1]["duration_s"] = None
    return trace
