"""A round diagram as static HTML and text, and how a run decides whether its widget is drawn."""

from __future__ import annotations

from typing import Any

from .static_html import render_html
from .static_text import render_text
from .trace import Trace


def widgets_are_drawn() -> bool:
    """False in a kernel whose cells a runner executes with no one at the screen.

    nbclient, papermill, ``nbconvert --execute``, nbmake and testbook send each cell with
    ``allow_stdin: false``. A widget made there is stored in the notebook's widget state, and
    nbconvert's HTML then draws the widget (with JavaScript from a CDN) instead of the static
    copy: an empty box offline. JupyterLab, Notebook 7 and VS Code allow input, and draw widgets.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return True
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return True  # a plain script or terminal: nothing is stored, the widget costs nothing
    request = kernel.get_parent() or {}
    return request.get("content", {}).get("allow_stdin", True) is not False


class Diagram:
    """The diagram without a widget: its static HTML and text, refreshed when the run finishes."""

    def __init__(
        self,
        trace: Trace | None = None,
        *,
        offline: bool | None = None,
        tools: Any = None,
        lang: str = "en",
    ) -> None:
        self.trace = trace if trace is not None else Trace(offline=offline, tools=tools, lang=lang)
        self._display: Any = None

    def on_event(self, event: Any) -> None:
        """Pass as ``agent_loop(..., on_event=diagram.on_event)``: draws each event as it comes."""
        index = self.trace.add(event)
        self._changed(index)
        if event.kind == "finished" and self._display is not None:
            self._display.update(self)  # refresh the static copy kept in the saved notebook

    def _changed(self, index: int) -> None:
        """Round ``index`` changed: nothing to send without a widget."""

    def show(self) -> Diagram:
        """Display the diagram below the running cell, keeping a handle to refresh its static copy."""
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is None:  # a plain script: nothing to draw into
            return self
        self._display = display(self, display_id=True)
        return self

    def _repr_mimebundle_(self, **_kwargs: Any) -> dict[str, str]:
        trace = self.trace.to_dict()
        return {"text/html": render_html(trace), "text/plain": render_text(trace)}

    def to_html(self) -> str:
        """The static HTML copy (no script, no style element, everything escaped)."""
        return render_html(self.trace.to_dict())

    def to_text(self) -> str:
        """The plain-text copy."""
        return render_text(self.trace.to_dict())
