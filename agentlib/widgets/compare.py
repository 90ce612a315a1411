"""The s01 -> s02 comparison: which tools each side has, how much code, what is new, the loop unchanged.

Its words are the ``cmp.*`` rows of words.py; this module only lays them out.
"""

from __future__ import annotations

import difflib
import html
import inspect
from typing import Any

from .static_html import BOX, CODE, PRE, TABLE, TD, TH
from .trace import tool_specs
from .words import say, words


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
                 left_loop: Any = None, right_loop: Any = None, lang: str = "en") -> None:  # fmt: skip
        self.words = words(lang)  # refuses an unknown language at once
        self.lang = lang
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
        w = self.words
        if self.loop_unchanged:
            return say(w, "cmp.unchanged", code_lines(self.loops[0]))
        changed = sum(
            1 for line in self.loop_diff() if line[:1] in "+-" and line[:3] not in ("+++", "---")
        )
        shape = say(w, "cmp.skeleton" if self.same_skeleton else "cmp.other_shape")
        return say(w, "cmp.differ", shape=shape, changed=changed)

    def loop_diff(self) -> list[str]:
        """A unified diff of the two loops (empty when unchanged)."""
        a, b = (s.splitlines() for s in self.loops)
        return list(difflib.unified_diff(a, b, *self.labels, lineterm=""))

    def _counts(self) -> dict[str, Any]:
        (a, b), (la, lb), (na, nb) = self.labels, self.lines, self.tool_counts
        return {"a": a, "b": b, "l_a": la, "l_b": lb, "diff": f"{lb - la:+d}", "n_a": na, "n_b": nb}

    def to_text(self) -> str:
        """The comparison as plain text."""
        w, c = self.words, self._counts()
        a, b = self.labels

        def names(items: Any) -> str:
            return ", ".join(items) or say(w, "cmp.none")

        out = [
            f"{a} -> {b}",
            say(w, "cmp.tools", **c),
            say(w, "cmp.only", side=a, names=names(self.only_left)),
            say(w, "cmp.shared", names=names(self.shared)),
            say(w, "cmp.only", side=b, names=names(self.only_right)),
            say(w, "cmp.lines", **c),
            say(w, "cmp.new", b=b),
        ]
        out += [f"    + {n}: {d}" for n, d in self.only_right.items()] or [say(w, "cmp.no_new")]
        if not any(self.loops):
            out.append(say(w, "cmp.no_loop"))
        else:
            out.append(say(w, "cmp.loop", summary=self.loop_summary()))
            out += [f"    {line}" for line in self.loop_diff()]
        return "\n".join(out)

    def to_html(self) -> str:
        """The comparison as self-contained HTML (inline styles, escaped, no script)."""
        e, w = html.escape, self.words
        c = {k: e(str(v)) for k, v in self._counts().items()}
        a, b = c["a"], c["b"]

        def names(items: Any) -> str:
            shown = ", ".join(f'<code style="{CODE}">{e(n)}</code>' for n in items)
            return shown or e(say(w, "cmp.h.none"))

        def row(head: str, cell: str) -> str:
            return f'<tr><th scope="row" style="{TD}">{head}</th><td style="{TD}">{cell}</td></tr>'

        rows = (
            row(say(w, "cmp.h.only", side=a), names(self.only_left))
            + row(e(say(w, "cmp.h.shared")), names(self.shared))
            + row(say(w, "cmp.h.only", side=b), names(self.only_right))
            + row(e(say(w, "cmp.h.lines")), say(w, "cmp.h.counts", **c))
        )
        new = (
            "".join(
                f'<li><code style="{CODE}">{e(n)}</code>: {e(d)}</li>'
                for n, d in self.only_right.items()
            )
            or f"<li>{e(say(w, 'cmp.h.no_new'))}</li>"
        )
        if not any(self.loops):
            loop = f"<p>{e(say(w, 'cmp.h.no_loop'))}</p>"
        else:
            shown = self.loops[0] if self.loop_unchanged else "\n".join(self.loop_diff())
            loop = (
                f"<p>{say(w, 'cmp.h.loop_is', summary=e(self.loop_summary()))}</p>"
                f'<pre style="{PRE}">{e(shown)}</pre>'
            )
        said_in = "" if self.lang == "en" else f' lang="{self.lang}"'
        return (
            f'<div style="{BOX}"{said_in}><p><strong>{a} → {b}</strong>: '
            f'{say(w, "cmp.h.tools", **c)}</p><table style="{TABLE}"><thead><tr><th style="{TH}">'
            f'</th><th style="{TH}">{e(say(w, "cmp.h.head"))}</th></tr></thead><tbody>{rows}</tbody>'
            f"</table><h4>{say(w, 'cmp.h.new', b=b)}</h4><ul>{new}</ul>"
            f"<h4>{e(say(w, 'cmp.h.loop'))}</h4>{loop}</div>"
        )

    def _repr_mimebundle_(self, **_kwargs: Any) -> dict[str, str]:
        return {"text/html": self.to_html(), "text/plain": self.to_text()}


def compare_view(left_tools: Any, right_tools: Any, **kwargs: Any) -> CompareView:
    """Compare two stages: tools only left / shared / only right, lines of code, the loop.

    ``lang="zh"`` says it in Chinese (English by default).
    """
    return CompareView(left_tools, right_tools, **kwargs)
