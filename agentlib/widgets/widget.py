"""RoundDiagram: the anywidget view over one run, plus its static HTML and text copies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .static_html import render_html
from .static_text import render_text
from .trace import Trace

HERE = Path(__file__).parent


class RoundDiagram(anywidget.AnyWidget):
    """Draws every round of a run; feed it loop events with ``on_event`` to watch it live."""

    _esm = HERE / "widget.js"
    _css = HERE / "widget.css"
    # the trace when the widget was made: a run shown afterwards arrives in one piece
    snapshot = traitlets.Dict().tag(sync=True)
    # the last round that changed: live updates cost one round each, whatever came before
    patch = traitlets.Dict().tag(sync=True)

    def __init__(
        self, trace: Trace | None = None, *, offline: bool | None = None, tools: Any = None
    ) -> None:
        self.trace = trace if trace is not None else Trace(offline=offline, tools=tools)
        self._seq = 0
        self._display = None
        super().__init__(snapshot=self.trace.to_dict())
        self.on_msg(self._answer)

    def on_event(self, event: Any) -> None:
        """Pass as ``agent_loop(..., on_event=diagram.on_event)``: draws each event as it comes."""
        index = self.trace.add(event)
        self._seq += 1
        self.patch = {
            "seq": self._seq,
            "meta": self.trace.meta(),
            "round": self.trace.rounds[index - 1],
        }
        if event.kind == "finished" and self._display is not None:
            self._display.update(self)  # refresh the static copy kept in the saved notebook

    def _answer(self, _widget: Any, content: Any, _buffers: Any) -> None:
        # a view that missed rounds (opened late, or mid-run) asks for them once the kernel is idle
        if isinstance(content, dict) and content.get("type") == "resend":
            wanted = {int(k) for k in content.get("rounds", [])}
            rounds = [r for r in self.trace.rounds if r["index"] in wanted]
            self.send({"type": "rounds", **self.trace.meta(), "rounds": rounds})

    def show(self) -> RoundDiagram:
        """Display the diagram below the running cell, keeping a handle to refresh its static copy."""
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is None:  # a plain script: nothing to draw into
            return self
        self._display = display(self, display_id=True)
        return self

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict, dict]:
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        trace = self.trace.to_dict()
        return {**data, "text/html": render_html(trace), "text/plain": render_text(trace)}, metadata

    def to_html(self) -> str:
        """The static HTML copy (no script, no style element, everything escaped)."""
        return render_html(self.trace.to_dict())

    def to_text(self) -> str:
        """The plain-text copy."""
        return render_text(self.trace.to_dict())
