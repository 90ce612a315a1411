"""The round diagram as plain text, for terminals and text/plain outputs.

Every word comes from the trace's ``words`` (see words.py); this module only lays them out.
"""

from __future__ import annotations

from typing import Any

from ..text import as_text
from .words import say

CUT = "…"  # what stands where a view shortened a text; the trace holds the whole of it


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when something was cut."""
    return text if len(text) <= limit else text[: limit - 1] + CUT


def preview(value: Any, limit: int = 100) -> str:
    """One line: newlines shown as \\n, cut to ``limit`` characters.

    Backslashes are doubled only when there is a newline, tab or carriage return to show, so a
    JSON input (already one line, its own escapes in place) is shown as it is.
    """
    text = as_text(value)
    if any(c in text for c in "\n\r\t"):
        text = (
            text.replace("\\", "\\\\")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
            .replace("\t", "\\t")
        )
    return shorten(text, limit)


def input_text(value: Any) -> str:
    """A tool call's input as people read it: JSON on one line, unless a value has several lines.

    Then each field gets its own line, and a many-line value follows on the lines below its
    name, each line indented by two spaces more: its own indentation is kept, so an edit's new
    text reads as the code it is.
    """
    if not isinstance(value, dict):
        return as_text(value)
    if not any(isinstance(v, str) and "\n" in v for v in value.values()):
        return as_text(value)
    lines = []
    for key, v in value.items():
        if isinstance(v, str) and "\n" in v:
            lines += [f"{key}:", *("  " + line for line in v.splitlines())]
        else:
            lines.append(f"{key}: {as_text(v)}")
    return "\n".join(lines)


def seconds(w: dict[str, str], value: float | None) -> str:
    """A duration for people, or '' when not recorded (a run rebuilt from its history)."""
    return "" if value is None else say(w, "seconds", seconds=f"{value:.2f}")


def tokens(w: dict[str, str], usage: dict[str, Any] | None, estimated: bool) -> str:
    """'in 120 / out 30 tokens (estimated)', or '' when the round has no usage."""
    if not usage or "input_tokens" not in usage:
        return ""
    key = "tokens.estimated" if estimated else "tokens"
    return say(w, key, input=usage["input_tokens"], output=usage.get("output_tokens", "?"))


def facts(w: dict[str, str], r: dict[str, Any], estimated: bool) -> str:
    """A round's duration and tokens, the ones recorded."""
    known = (seconds(w, r["duration_s"]), tokens(w, r["usage"], estimated))
    return ", ".join(x for x in known if x)


def block_line(w: dict[str, str], block: dict[str, Any]) -> str:
    """A content block in one line."""
    kind = block["type"]
    if kind == "tool_use":
        return f"{kind} {block['name']} {preview(input_text(block['input']))} ({block['id']})"
    if kind == "tool_result":
        error = f" {say(w, 'error')}" if block.get("is_error") else ""
        where = say(w, "result_for", id=block["tool_use_id"])
        return f"{kind}{error} {where}: {preview(block['content'])}"
    return f"{kind}: {preview(block.get('text', ''))}"


def badge(trace: dict[str, Any]) -> str:
    """Which model answered: offline (tokens estimated), live, or unknown for a bare history."""
    if not trace.get("backend_known", True):
        return say(trace["words"], "badge.unknown")
    return say(trace["words"], "badge.offline" if trace["offline"] else "badge.live")


def intro(trace: dict[str, Any]) -> list[str]:
    """The lines said once, above the rounds: the legend, the tools offered, inferred stops."""
    w = trace["words"]
    lines = [say(w, "legend")]
    if trace.get("toolbox"):
        names = ", ".join(t["name"] for t in trace["toolbox"])
        lines.append(say(w, "toolbox", names=names))
    if trace.get("stops_inferred"):
        lines.append(say(w, "inferred"))
    return lines


def ending(trace: dict[str, Any]) -> str:
    """How the run ended: finished after round k, ended with a stop_reason, or not finished."""
    w, fin = trace["words"], trace["finished"]
    if fin:
        return say(w, "finished", round=fin["round"], reason=fin["stop_reason"], why=fin["why"])
    last = trace["rounds"][-1]["stop_reason"] if trace["rounds"] else None
    return say(w, "unfinished") if last in (None, "tool_use") else say(w, "ended", reason=last)


def sent_line(w: dict[str, str], r: dict[str, Any]) -> str:
    """'Sent 3 messages, 2 new (messages[0] sent again unchanged)'."""
    line = say(w, "sent", r["sent_count"], new=len(r["sent_new"]))
    if r["sent_start"]:
        span = say(w, "span", r["sent_start"], last=r["sent_start"] - 1)
        line += f" ({say(w, 'resent', span=span)})"
    if r["rewritten"]:
        line += f" ({say(w, 'rewritten')})"
    return line


def _indented(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.splitlines() or [""]]


def render_text(trace: dict[str, Any]) -> str:
    """The whole trace as text."""
    w, n = trace["words"], len(trace["rounds"])
    model = f", {say(w, 'model', model=trace['model'])}" if trace["model"] else ""
    out = [f"{say(w, 'title')}: {say(w, 'rounds', n)}, {badge(trace)}{model}", *intro(trace)]
    for r in trace["rounds"]:
        out += ["", f"== {say(w, 'position', n, round=r['index'])} " + "=" * 40]
        out.append(f"  {say(w, 'lane.harness')}: {sent_line(w, r)}")
        for i, m in enumerate(r["sent_new"], start=r["sent_start"]):
            for b in m["blocks"]:
                where = say(w, "message", index=i, role=m["role"])
                out.append(f"    + {where}: {block_line(w, b)}")
        out.append(f"  {say(w, 'lane.model')}: {facts(w, r, trace['offline'])}".rstrip())
        for i, b in enumerate(r["reply"] or [], start=1):
            out.append(f"    {i}. {block_line(w, b)}")
        out.append(f"    {say(w, 'stop', reason=r['stop_reason'], meaning=r['meaning'])}")
        out.append(f"    {say(w, 'next', step=r['next'])}")
        out += _tool_lines(w, r)
    out += ["", ending(trace), "", f"{say(w, 'growth')}:"]
    out += growth_lines(trace)
    out += ["", f"{say(w, 'protocol')}:"]
    out += [f"  - {p}" for p in trace["problems"]] or [f"  {say(w, 'protocol.ok')}"]
    return "\n".join(out)


def _tool_lines(w: dict[str, str], r: dict[str, Any]) -> list[str]:
    head = f"  {say(w, 'lane.tools')}:"
    if not r["tools"] and not r["unanswered"]:
        return [f"{head} {say(w, 'final' if r['final'] else 'no_calls')}"]
    out = [head]
    for t in r["tools"]:
        status = say(w, "error" if t["is_error"] else "ok")
        took = f", {seconds(w, t['duration_s'])}" if t["duration_s"] is not None else ""
        out.append(f"    {t['name']} ({t['id']}) {status}{took}")
        shown = input_text(t["input"])
        if "\n" in shown:
            out += [f"      {say(w, 'input')}", *_indented(shown, "        ")]
        else:
            out.append(f"      {say(w, 'input')} {preview(shown)}")
        out.append(f"      {say(w, 'output')} {preview(t['output'])}")
    for tool_id in r["unanswered"]:
        out.append(f"    {say(w, 'not_run')}: tool_use {tool_id} ({say(w, 'not_run.why')})")
    return out


def growth_lines(trace: dict[str, Any], width: int = 40) -> list[str]:
    """One bar of # per round, scaled to the largest input."""
    w = trace["words"]
    sizes = [(r["usage"] or {}).get("input_tokens") for r in trace["rounds"]]
    top = max((s for s in sizes if s), default=0)
    if not top:
        return ["  " + say(w, "no_tokens")]
    lines = [f"  {say(w, 'growth.caption.estimated' if trace['offline'] else 'growth.caption')}"]
    return lines + [
        f"  {i:>3} | {'#' * max(1, round(width * s / top)) if s else '':<{width}} | {s if s else '?'}"
        for i, s in enumerate(sizes, start=1)
    ]
