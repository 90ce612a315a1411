"""The s01 -> s02 comparison: which tools each side has, how much code, what is new, the loop unchanged."""

from __future__ import annotations

import difflib
import html
import inspect
from typing import Any

from .static_html import BOX, CODE, PRE, TABLE, TD, TH
from .trace import tool_specs


def source_text(source: Any) -> str:
    """Source code from a string, a function/class/module, a Tool, a Toolbox, or a list of them."""
    if source is None:
        return ""
    if isinstance(source, str):
        return source
    if hasattr(source, "TOOLS"):  # a Toolbox: the code of its tools' handlers
        source = list(source)
    if isinstance(source, (list, tuple)):
        return "\n".join(source_text(s) for s in source)
    source = getattr(source, "handler", source)  # a Tool: the function behind it
    return inspect.getsource(getattr(source, "__wrapped__", source))


def code_lines(text: str) -> int:
    """Lines that hold code: not blank, not only a comment."""
    return sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))


class CompareView:
    """Two stages of the agent side by side; displays as HTML and plain text."""

    def __init__(self, left_tools: Any, right_tools: Any, *, left_label: str = "s01",
                 right_label: str = "s02", left_source: Any = None, right_source: Any = None,
                 left_loop: Any = None, right_loop: Any = None) -> None:  # fmt: skip
        self.labels = (left_label, right_label)
        left, right = tool_specs(left_tools), tool_specs(right_tools)
        self.only_left = [n for n in left if n not in right]
        self.shared = [n for n in left if n in right]
        self.only_right = {n: right[n] for n in right if n not in left}
        self.lines = (code_lines(source_text(left_source)), code_lines(source_text(right_source)))
        self.loops = (source_text(left_loop), source_text(right_loop or left_loop))
        self.tool_counts = (len(left), len(right))

    @property
    def loop_unchanged(self) -> bool:
        """True when both sides run the very same loop code."""
        return self.loops[0] == self.loops[1]

    @property
    def same_skeleton(self) -> bool:
        """Both loops keep the seed's skeleton: ``while True`` and the one exit on stop_reason."""
        return all(
            "while True" in loop and 'stop_reason != "tool_use"' in loop for loop in self.loops
        )

    def loop_summary(self) -> str:
        """One sentence on the loop: unchanged, or how many lines differ and whether the shape held."""
        if self.loop_unchanged:
            return f"unchanged: the same {code_lines(self.loops[0])} lines drive both"
        changed = sum(
            1 for line in self.loop_diff() if line[:1] in "+-" and line[:3] not in ("+++", "---")
        )
        shape = (
            'the same skeleton (while True, one exit on stop_reason != "tool_use")'
            if self.same_skeleton
            else "a different shape"
        )
        return f"{shape}; {changed} lines differ"

    def loop_diff(self) -> list[str]:
        """A unified diff of the two loops (empty when unchanged)."""
        a, b = (s.splitlines() for s in self.loops)
        return list(difflib.unified_diff(a, b, *self.labels, lineterm=""))

    def to_text(self) -> str:
        """The comparison as plain text."""
        (a, b), (la, lb) = self.labels, self.lines
        out = [
            f"{a} -> {b}",
            f"  tools: {a} has {self.tool_counts[0]}, {b} has {self.tool_counts[1]}",
            f"  only in {a}: {', '.join(self.only_left) or '(none)'}",
            f"  shared:     {', '.join(self.shared) or '(none)'}",
            f"  only in {b}: {', '.join(self.only_right) or '(none)'}",
            f"  lines of code: {a} {la}, {b} {lb} ({lb - la:+d})",
            f"  new in {b}:",
        ]
        out += [f"    + {n}: {d}" for n, d in self.only_right.items()] or ["    (no new tools)"]
        if not any(self.loops):
            out.append("  the loop: not given")
        else:
            out.append(f"  the loop: {self.loop_summary()}")
            out += [f"    {line}" for line in self.loop_diff()]
        return "\n".join(out)

    def to_html(self) -> str:
        """The comparison as self-contained HTML (inline styles, escaped, no script)."""
        e = html.escape
        (a, b), (la, lb) = self.labels, self.lines

        def names(items: Any) -> str:
            return ", ".join(f'<code style="{CODE}">{e(n)}</code>' for n in items) or "(none)"

        rows = (
            f'<tr><th scope="row" style="{TD}">Only in {e(a)}</th><td style="{TD}">{names(self.only_left)}</td></tr>'
            f'<tr><th scope="row" style="{TD}">Shared</th><td style="{TD}">{names(self.shared)}</td></tr>'
            f'<tr><th scope="row" style="{TD}">Only in {e(b)}</th><td style="{TD}">{names(self.only_right)}</td></tr>'
            f'<tr><th scope="row" style="{TD}">Lines of code</th><td style="{TD}">{e(a)}: {la}, '
            f"{e(b)}: {lb} ({lb - la:+d})</td></tr>"
        )
        new = (
            "".join(
                f'<li><code style="{CODE}">{e(n)}</code>: {e(d)}</li>'
                for n, d in self.only_right.items()
            )
            or "<li>no new tools</li>"
        )
        if not any(self.loops):
            loop = "<p>The loop was not given.</p>"
        else:
            shown = self.loops[0] if self.loop_unchanged else "\n".join(self.loop_diff())
            loop = (
                f"<p><strong>The loop</strong>: {e(self.loop_summary())}.</p>"
                f'<pre style="{PRE}">{e(shown)}</pre>'
            )
        return (
            f'<div style="{BOX}"><p><strong>{e(a)} → {e(b)}</strong>: {self.tool_counts[0]} → '
            f'{self.tool_counts[1]} tools</p><table style="{TABLE}"><thead><tr><th style="{TH}">'
            f'</th><th style="{TH}">Tools and code</th></tr></thead><tbody>{rows}</tbody></table>'
            f"<h4>New in {e(b)}</h4><ul>{new}</ul><h4>The loop</h4>{loop}</div>"
        )

    def _repr_mimebundle_(self, **_kwargs: Any) -> dict[str, str]:
        return {"text/html": self.to_html(), "text/plain": self.to_text()}


def compare_view(left_tools: Any, right_tools: Any, **kwargs: Any) -> CompareView:
    """Compare two stages: tools only left / shared / only right, lines of code, the loop."""
    return CompareView(left_tools, right_tools, **kwargs)
