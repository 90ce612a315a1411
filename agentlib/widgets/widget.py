"""RoundDiagram: the anywidget view over one run, with the static HTML and text copies beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .diagram import Diagram
from .trace import Trace

HERE = Path(__file__).parent


class RoundDiagram(Diagram, anywidget.AnyWidget):
    """Draws every round of a run; feed it loop events with ``on_event`` to watch it live."""

    _esm = HERE / "widget.js"
    _css = HERE / "widget.css"
    # the trace when the widget was made, words included: a run shown afterwards arrives in one piece
    snapshot = traitlets.Dict().tag(sync=True)
    # the last round that changed: live updates cost one round each, whatever came before
    patch = traitlets.Dict().tag(sync=True)

    def __init__(self, trace: Trace | None = None, **options: Any) -> None:
        """``options`` are Diagram's: ``offline``, ``tools``, ``lang``."""
        Diagram.__init__(self, trace, **options)
        self._seq = 0
        anywidget.AnyWidget.__init__(self, snapshot=self.trace.to_dict())
        self.on_msg(self._answer)

    def _changed(self, index: int) -> None:
        self._seq += 1
        self.patch = {
            "seq": self._seq,
            "meta": self.trace.meta(),
            "round": self.trace.rounds[index - 1],
        }

    def _answer(self, _widget: Any, content: Any, _buffers: Any) -> None:
        # a view that missed rounds (opened late, or mid-run) asks for them once the kernel is idle
        if isinstance(content, dict) and content.get("type") == "resend":
            wanted = {int(k) for k in content.get("rounds", [])}
            rounds = [r for r in self.trace.rounds if r["index"] in wanted]
            self.send({"type": "rounds", **self.trace.meta(), "rounds": rounds})

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict, dict]:
        bundle = anywidget.AnyWidget._repr_mimebundle_(self, **kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        return {**data, **Diagram._repr_mimebundle_(self)}, metadata
