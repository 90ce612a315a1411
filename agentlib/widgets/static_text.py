"""The round diagram as plain text: ASCII structure, for terminals and text/plain outputs."""

from __future__ import annotations

from typing import Any

from ..text import as_text, clip


def preview(value: Any, limit: int = 100) -> str:
    """One line: newlines shown as \\n, cut to ``limit`` characters."""
    text = as_text(value)
    text = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return clip(text, limit)


def plural(n: int, word: str) -> str:
    """'1 message', '3 messages'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def seconds(value: float | None) -> str:
    """A duration for people: '0.12 s', or '' when not recorded (a run rebuilt from its history)."""
    return "" if value is None else f"{value:.2f} s"


def tokens(usage: dict[str, Any] | None, estimated: bool) -> str:
    """'in 120 / out 30 tokens (estimated)', or '' when the round has no usage."""
    if not usage or "input_tokens" not in usage:
        return ""
    label = " (estimated)" if estimated else ""
    return f"in {usage['input_tokens']} / out {usage.get('output_tokens', '?')} tokens{label}"


def block_line(block: dict[str, Any]) -> str:
    """A content block in one line."""
    kind = block["type"]
    if kind == "tool_use":
        return f"tool_use {block['name']} {preview(block['input'])} (id {block['id']})"
    if kind == "tool_result":
        error = " ERROR" if block.get("is_error") else ""
        return f"tool_result{error} for {block['tool_use_id']}: {preview(block['content'])}"
    return f"{kind}: {preview(block.get('text', ''))}"


def badge(trace: dict[str, Any]) -> str:
    """'OFFLINE model (tokens are estimates)', 'LIVE model', or unknown for a bare history."""
    if not trace.get("backend_known", True):
        return "model unknown (drawn from the history alone)"
    return "OFFLINE model (tokens are estimates)" if trace["offline"] else "LIVE model"


# "harness" is the course's word for the code around the model: say it in plain words once
HARNESS = (
    "The harness is your code around the model: the loop that keeps the history, sends it to "
    "the model and runs the tools the model asks for"
)
LEGEND = (
    "Each round: your code (the harness) sends the whole history, the model replies, and your "
    "code runs the tools it asked for, sending their results in the next round."
)
INFERRED = (
    "Stop reasons are inferred from the history (no loop events were recorded): tool_use when "
    "a reply asks for tools, else end_turn."
)
NO_TOKENS = (
    "No token counts recorded for this run, so there is no context growth to draw (a run drawn "
    "from its message history alone has none)."
)


def intro(trace: dict[str, Any]) -> list[str]:
    """The lines said once, above the rounds: the legend, the tools offered, inferred stops."""
    lines = [LEGEND]
    if trace.get("toolbox"):
        lines.append(
            "Tools offered to the model: " + ", ".join(t["name"] for t in trace["toolbox"])
        )
    if trace.get("stops_inferred"):
        lines.append(INFERRED)
    return lines


def render_text(trace: dict[str, Any]) -> str:
    """The whole trace as ASCII-structured text."""
    n = len(trace["rounds"])
    model = f", model {trace['model']}" if trace["model"] else ""
    out = [f"Round diagram: {plural(n, 'round')}, {badge(trace)}{model}", *intro(trace)]
    for r in trace["rounds"]:
        out += ["", f"== Round {r['index']} of {n} " + "=" * 40]
        new = len(r["sent_new"])
        note = " (history rewritten before sending)" if r["rewritten"] else ""
        sent = f"sent {plural(r['sent_count'], 'message')}, {new} new{note}"
        out.append(f"  your code (the harness): {sent}")
        for i, m in enumerate(r["sent_new"], start=r["sent_start"]):
            for b in m["blocks"]:
                out.append(f"    + messages[{i}] {m['role']}: {block_line(b)}")
        facts = ", ".join(
            x for x in (seconds(r["duration_s"]), tokens(r["usage"], trace["offline"])) if x
        )
        out.append(f"  model: {facts}")
        for i, b in enumerate(r["reply"] or [], start=1):
            out.append(f"    {i}. {block_line(b)}")
        out.append(f"    stop_reason: {r['stop_reason']} - {r['meaning']}")
        out.append(f"    next: {r['next']}")
        if r["tools"] or r["unanswered"]:
            out.append("  tools:")
        for t in r["tools"]:
            status = "ERROR" if t["is_error"] else "ok"
            took = f" in {seconds(t['duration_s'])}" if t["duration_s"] is not None else ""
            out.append(f"    {t['name']} (id {t['id']}) {status}{took}")
            out.append(f"      input:  {preview(t['input'])}")
            out.append(f"      output: {preview(t['output'])}")
        for tool_id in r["unanswered"]:
            out.append(f"    NOT RUN: tool_use {tool_id} (the loop did not run it)")
    if trace["finished"]:
        f = trace["finished"]
        out += ["", f"Finished after round {f['round']}: {f['stop_reason']} - {f['why']}"]
    out += ["", "Context growth (input tokens per round):"]
    out += growth_lines(trace)
    out += ["", "Protocol check:"]
    out += [f"  - {p}" for p in trace["problems"]] or [
        "  ok: every tool_use was answered by a tool_result in the next message"
    ]
    return "\n".join(out)


def growth_lines(trace: dict[str, Any], width: int = 40) -> list[str]:
    """One ASCII bar per round, scaled to the largest input."""
    sizes = [(r["usage"] or {}).get("input_tokens") for r in trace["rounds"]]
    top = max((s for s in sizes if s), default=0)
    if not top:
        return ["  " + NO_TOKENS]
    label = " (estimated)" if trace["offline"] else ""
    return [
        f"  {i:>3} | {'#' * max(1, round(width * s / top)) if s else '':<{width}} | {s if s else '?'}{label}"
        for i, s in enumerate(sizes, start=1)
    ]
