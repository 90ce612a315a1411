"""The round diagram as self-contained HTML: inline styles, tables and lists, every string escaped.

No <script>, <style> or <svg>: this is what GitHub, nbconvert and untrusted notebooks show. A
text cut short opens in place (<details>). Every word comes from the trace's ``words``.
"""

from __future__ import annotations

import html
from typing import Any

from ..text import as_text
from .static_text import CUT, badge, ending, facts, input_text, intro, seconds, sent_line
from .words import fill, say, template

BOX = (
    "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;line-height:1.45;"
    "color:#1f2328;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;"
    "padding:12px 14px;max-width:1100px"
)
TABLE = "border-collapse:collapse;width:100%;margin:8px 0;font-size:inherit"
TH = "text-align:left;padding:6px 8px;border-bottom:2px solid #d0d7de;background:#f6f8fa"
TD = "vertical-align:top;text-align:left;padding:6px 8px;border-bottom:1px solid #eaeef2"
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


def said(w: dict[str, str], key: str, count: int | None = None, **markup: str) -> str:
    """``say()`` for HTML: the words escaped, each field given as ready markup."""
    return fill(html.escape(template(w, key, count), quote=True), {"count": count, **markup})


def _cut(text: Any, limit: int, style: str = "white-space:pre-wrap") -> str:
    """Escaped text that keeps its whitespace; past ``limit`` characters the rest opens on a click."""
    text = as_text(text)
    if len(text) <= limit:
        return f'<span style="{style}">{e(text)}</span>'
    return (
        f'<details style="display:inline"><summary style="{style};cursor:pointer">'
        f'{e(text[: limit - 1])}{CUT}</summary><span style="{style}">{e(text[limit - 1 :])}</span></details>'
    )


def _block(w: dict[str, str], b: dict[str, Any]) -> str:
    kind = b["type"]
    if kind == "tool_use":
        return (
            f'<code style="{CODE}">{e(kind)}</code> <strong>{e(b["name"])}</strong> '
            f'<code style="{CODE}">{_cut(input_text(b["input"]), 160)}</code>'
        )
    if kind == "tool_result":
        err = f' <span style="{ERROR}">{e(say(w, "error"))}</span>' if b.get("is_error") else ""
        where = said(w, "result_for", id=f'<code style="{CODE}">{e(b["tool_use_id"])}</code>')
        return f'<code style="{CODE}">{e(kind)}</code>{err} {where}: {_cut(b["content"], 160)}'
    return f'<code style="{CODE}">{e(kind)}</code> {_cut(b.get("text", ""), 240)}'


def _sent(w: dict[str, str], r: dict[str, Any]) -> str:
    items = "".join(
        f'<li style="{NEW}"><em>{e(say(w, "message", index=i, role=m["role"]))}</em>: '
        f"{'<br>'.join(_block(w, b) for b in m['blocks'])}</li>"
        for i, m in enumerate(r["sent_new"], start=r["sent_start"])
    )
    return f'{e(sent_line(w, r))}<ul style="list-style:none;padding:0;margin:4px 0">{items}</ul>'


def _model(w: dict[str, str], r: dict[str, Any], estimated: bool) -> str:
    blocks = "".join(f"<li>{_block(w, b)}</li>" for b in r["reply"] or [])
    known = facts(w, r, estimated)
    stop = say(w, "stop", reason=r["stop_reason"], meaning=r["meaning"])
    return (
        f'<ol style="margin:0 0 4px 18px;padding:0">{blocks}</ol>'
        f"<div><strong>{e(stop)}</strong><br>{e(say(w, 'next', step=r['next']))}</div>"
        + (f'<div style="color:#59636e">{e(known)}</div>' if known else "")
    )


def _tools(w: dict[str, str], r: dict[str, Any]) -> str:
    if not r["tools"] and not r["unanswered"]:
        return (
            f'<span style="color:#59636e">{e(say(w, "final" if r["final"] else "no_calls"))}</span>'
        )
    items = []
    for t in r["tools"]:
        status = (
            f'<span style="{ERROR}">{e(say(w, "error"))}</span>'
            if t["is_error"]
            else e(say(w, "ok"))
        )
        took = f", {e(seconds(w, t['duration_s']))}" if t["duration_s"] is not None else ""
        items.append(
            f'<li><strong>{e(t["name"])}</strong> <code style="{CODE}">{e(t["id"])}</code> {status}{took}'
            f'<div style="{PRE}">{e(say(w, "input"))} {_cut(input_text(t["input"]), 400)}</div>'
            f'<div style="{PRE}">{_cut(t["output"], 300)}</div></li>'
        )
    for tool_id in r["unanswered"]:
        items.append(
            f'<li><span style="{ERROR}">{e(say(w, "not_run"))}</span>: <code style="{CODE}">{e(tool_id)}</code> '
            f"({e(say(w, 'not_run.why'))})</li>"
        )
    return f'<ul style="margin:0;padding-left:16px">{"".join(items)}</ul>'


def _growth(trace: dict[str, Any]) -> str:
    w = trace["words"]
    sizes = [(r["usage"] or {}).get("input_tokens") for r in trace["rounds"]]
    top = max((s for s in sizes if s), default=0)
    if not top:
        return f"<p>{e(say(w, 'no_tokens'))}</p>"
    rows = "".join(
        f'<tr><td style="{TD};width:4em">{i}</td><td style="{TD}"><div style="background:#54aeff;'
        f'height:10px;width:{100 * (s or 0) / top:.1f}%;min-width:2px"></div></td>'
        f'<td style="{TD};width:9em">{s if s else "?"}</td></tr>'
        for i, s in enumerate(sizes, start=1)
    )
    caption = say(w, "growth.caption.estimated" if trace["offline"] else "growth.caption")
    return f'<table style="{TABLE}"><caption style="text-align:left">{e(caption)}</caption>{rows}</table>'


def render_html(trace: dict[str, Any]) -> str:
    """The whole trace as one self-contained HTML fragment."""
    w, n = trace["words"], len(trace["rounds"])
    style = BADGE_OFF if trace["offline"] else BADGE_LIVE
    model = said(w, "model", model=f'<code style="{CODE}">{e(trace["model"])}</code>')
    head = (
        f'<p style="margin:0 0 6px 0"><strong>{e(say(w, "title"))}</strong>: {e(say(w, "rounds", n))}'
        f' <span style="{style};border-radius:10px;padding:0 8px;font-size:12px">{e(badge(trace))}</span>'
        + (f" {model}" if trace["model"] else "")
        + "</p>"
        + "".join(
            f'<p style="margin:0 0 4px 0;color:#59636e">{e(line)}</p>' for line in intro(trace)
        )
    )
    rows = "".join(
        f'<tr><th scope="row" style="{TD}">{r["index"]}</th><td style="{TD}">{_sent(w, r)}</td>'
        f'<td style="{TD}">{_model(w, r, trace["offline"])}</td><td style="{TD}">{_tools(w, r)}</td></tr>'
        for r in trace["rounds"]
    )
    table = (
        f'<table style="{TABLE}"><thead><tr><th style="{TH};width:3em">{e(say(w, "col.round"))}</th>'
        f'<th style="{TH}" title="{e(say(w, "harness"))}">{e(say(w, "col.harness"))}</th>'
        f'<th style="{TH}">{e(say(w, "col.model"))}</th>'
        f'<th style="{TH}">{e(say(w, "col.tools"))}</th></tr></thead><tbody>{rows}</tbody></table>'
    )
    problems = "".join(f"<li>{e(p)}</li>" for p in trace["problems"]) or (
        f"<li>{e(say(w, 'protocol.ok'))}</li>"
    )
    return (
        f'<div style="{BOX}" class="agentlib-round-diagram" lang="{e(trace["lang"])}">{head}{table}'
        f"<p>{e(ending(trace))}</p>"
        f'<h4 style="margin:10px 0 2px 0">{e(say(w, "growth"))}</h4>{_growth(trace)}'
        f'<h4 style="margin:10px 0 2px 0">{e(say(w, "protocol"))}</h4><ul>{problems}</ul></div>'
    )
