"""The round diagram as self-contained HTML: inline styles, tables and lists, every string escaped.

No <script>, <style> or <svg>: this is what GitHub, nbconvert and untrusted notebooks show.
"""

from __future__ import annotations

import html
from typing import Any

from ..text import as_text, clip
from .static_text import HARNESS, NO_TOKENS, badge, intro, plural, preview, seconds, tokens

BOX = (
    "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;line-height:1.45;"
    "color:#1f2328;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;"
    "padding:12px 14px;max-width:1100px"
)
TABLE = "border-collapse:collapse;width:100%;margin:8px 0;font-size:inherit"
TH = "text-align:left;padding:6px 8px;border-bottom:2px solid #d0d7de;background:#f6f8fa"
TD = "vertical-align:top;padding:6px 8px;border-bottom:1px solid #eaeef2"
NEW = "background:#fff8c5;border-left:3px solid #d4a72c;padding:1px 4px;margin:2px 0"
CODE = "font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px"
PRE = (
    CODE
    + ";white-space:pre-wrap;word-break:break-word;margin:2px 0;background:#f6f8fa;padding:3px 5px"
)
ERROR = "color:#a40e26;font-weight:bold"
BADGE_OFF = "background:#ddf4ff;color:#0a3069;border:1px solid #54aeff"
BADGE_LIVE = "background:#dafbe1;color:#116329;border:1px solid #4ac26b"


def e(value: Any) -> str:
    """Escape anything for HTML (JSON for non-strings)."""
    return html.escape(as_text(value), quote=True)


def _lines(text: Any, limit: int) -> str:
    """Escaped text that keeps its line breaks, cut to ``limit`` characters."""
    return f'<span style="white-space:pre-wrap">{e(clip(as_text(text), limit))}</span>'


def _block(b: dict[str, Any]) -> str:
    kind = b["type"]
    if kind == "tool_use":
        return (
            f'<code style="{CODE}">tool_use</code> <strong>{e(b["name"])}</strong> '
            f'<code style="{CODE}">{e(preview(b["input"], 160))}</code>'
        )
    if kind == "tool_result":
        err = f' <span style="{ERROR}">ERROR</span>' if b.get("is_error") else ""
        return (
            f'<code style="{CODE}">tool_result</code>{err} for <code style="{CODE}">'
            f"{e(b['tool_use_id'])}</code>: {_lines(b['content'], 160)}"
        )
    return f'<code style="{CODE}">{e(kind)}</code> {_lines(b.get("text", ""), 240)}'


def _sent(r: dict[str, Any]) -> str:
    new = len(r["sent_new"])
    head = f"<strong>{plural(r['sent_count'], 'message')}</strong> sent, <strong>{new}</strong> new"
    if r["sent_start"]:
        earlier = "messages[0]" if r["sent_start"] == 1 else f"messages[0..{r['sent_start'] - 1}]"
        head += f" ({earlier} sent again unchanged)"
    if r["rewritten"]:
        head += " (the history was rewritten before sending: all shown)"
    items = "".join(
        f'<li style="{NEW}"><em>messages[{i}] {e(m["role"])}</em>: {"<br>".join(map(_block, m["blocks"]))}</li>'
        for i, m in enumerate(r["sent_new"], start=r["sent_start"])
    )
    return f'{head}<ul style="list-style:none;padding:0;margin:4px 0">{items}</ul>'


def _model(r: dict[str, Any], estimated: bool) -> str:
    blocks = "".join(f"<li>{_block(b)}</li>" for b in r["reply"] or [])
    facts = ", ".join(x for x in (seconds(r["duration_s"]), tokens(r["usage"], estimated)) if x)
    return (
        f'<ol style="margin:0 0 4px 18px;padding:0">{blocks}</ol>'
        f'<div><code style="{CODE};font-weight:bold">stop_reason: {e(r["stop_reason"])}</code>'
        f" means {e(r['meaning'])}.<br><strong>Next:</strong> {e(r['next'])}.</div>"
        + (f'<div style="color:#59636e">{e(facts)}</div>' if facts else "")
    )


def _tools(r: dict[str, Any]) -> str:
    if not r["tools"] and not r["unanswered"]:
        return '<span style="color:#59636e">no tool calls</span>'
    items = []
    for t in r["tools"]:
        status = f'<span style="{ERROR}">ERROR</span>' if t["is_error"] else "ok"
        items.append(
            f'<li><strong>{e(t["name"])}</strong> <code style="{CODE}">{e(t["id"])}</code> {status}'
            + (f", {e(seconds(t['duration_s']))}" if t["duration_s"] is not None else "")
            + f'<pre style="{PRE}">input: {e(preview(t["input"], 200))}</pre>'
            f'<pre style="{PRE}">{e(clip(t["output"], 300))}</pre></li>'
        )
    for tool_id in r["unanswered"]:
        items.append(
            f'<li><span style="{ERROR}">NOT RUN</span>: <code style="{CODE}">{e(tool_id)}</code> '
            "(the loop stopped before running it)</li>"
        )
    return f'<ul style="margin:0;padding-left:16px">{"".join(items)}</ul>'


def _growth(trace: dict[str, Any]) -> str:
    sizes = [(r["usage"] or {}).get("input_tokens") for r in trace["rounds"]]
    top = max((s for s in sizes if s), default=0)
    if not top:
        return f"<p>{e(NO_TOKENS)}</p>"
    label = " (estimated)" if trace["offline"] else ""
    rows = "".join(
        f'<tr><td style="{TD};width:4em">{i}</td><td style="{TD}"><div style="background:#54aeff;'
        f'height:10px;width:{100 * (s or 0) / top:.1f}%;min-width:2px"></div></td>'
        f'<td style="{TD};width:9em">{s if s else "?"}{label}</td></tr>'
        for i, s in enumerate(sizes, start=1)
    )
    return (
        f'<table style="{TABLE}"><caption style="text-align:left">Input tokens per round: '
        f"the whole history is sent every time</caption>{rows}</table>"
    )


def render_html(trace: dict[str, Any]) -> str:
    """The whole trace as one self-contained HTML fragment."""
    n = len(trace["rounds"])
    style = BADGE_OFF if trace["offline"] else BADGE_LIVE
    head = (
        f'<p style="margin:0 0 6px 0"><strong>Round diagram</strong>: {plural(n, "round")}'
        f' <span style="{style};border-radius:10px;padding:0 8px;font-size:12px">{e(badge(trace))}</span>'
        + (f' model <code style="{CODE}">{e(trace["model"])}</code>' if trace["model"] else "")
        + "</p>"
        + "".join(
            f'<p style="margin:0 0 4px 0;color:#59636e">{e(line)}</p>' for line in intro(trace)
        )
    )
    rows = "".join(
        f'<tr><th scope="row" style="{TD}">{r["index"]}</th><td style="{TD}">{_sent(r)}</td>'
        f'<td style="{TD}">{_model(r, trace["offline"])}</td><td style="{TD}">{_tools(r)}</td></tr>'
        for r in trace["rounds"]
    )
    table = (
        f'<table style="{TABLE}"><thead><tr><th style="{TH}">Round</th>'
        f'<th style="{TH}" title="{e(HARNESS)}">Your code (the harness): what it sent</th>'
        f'<th style="{TH}">Model: the reply</th>'
        f'<th style="{TH}">Tools: call and result</th></tr></thead><tbody>{rows}</tbody></table>'
    )
    fin = trace["finished"]
    last = trace["rounds"][-1]["stop_reason"] if trace["rounds"] else None
    unfinished = (
        f'<p>Ended with <code style="{CODE}">{e(last)}</code>.</p>'
        if last not in (None, "tool_use")
        else "<p>The run has not finished.</p>"
    )
    end = (
        f'<p>Finished after round {fin["round"]}: <code style="{CODE}">{e(fin["stop_reason"])}</code>'
        f" ({e(fin['why'])}).</p>"
        if fin
        else unfinished
    )
    problems = "".join(f"<li>{e(p)}</li>" for p in trace["problems"]) or (
        "<li>ok: every tool_use was answered by a tool_result in the next message.</li>"
    )
    return (
        f'<div style="{BOX}" class="agentlib-round-diagram">{head}{table}{end}'
        f'<h4 style="margin:10px 0 2px 0">Context growth</h4>{_growth(trace)}'
        f'<h4 style="margin:10px 0 2px 0">Protocol check</h4><ul>{problems}</ul></div>'
    )
