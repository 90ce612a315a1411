"""The round diagram: draw every round of an agent_loop run, live in JupyterLab, static elsewhere.

show(state, tools=box)       # after a run: the whole diagram
diagram = live(tools=box)    # before a run: an empty diagram that fills in as it runs
agent_loop(messages, ..., tools=box, on_event=diagram.on_event)

``tools`` (the run's Toolbox, its TOOLS list or tool names) is optional: it lets
predict-before-reveal offer every tool the model could pick, not only those it called.
``lang="zh"`` draws the diagram in Chinese (English by default).

Under a runner with no one at the screen (nbclient, papermill, ``nbconvert --execute``) both
give the static copy alone, so the HTML made from the executed notebook shows the diagram.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .compare import CompareView, compare_view
from .diagram import Diagram, widgets_are_drawn
from .history import trace_from_messages
from .trace import Trace, tool_specs

if TYPE_CHECKING:  # editors see it; at run time anywidget loads only when a diagram is wanted
    from .widget import RoundDiagram

__all__ = [
    "CompareView", "Diagram", "RoundDiagram", "Trace", "compare_view", "live", "show", "to_trace"
]  # fmt: skip


def to_trace(
    run: Any, *, offline: bool | None = None, tools: Any = None, lang: str | None = None
) -> Trace:
    """A Trace from a LoopState, a list of events, a list of messages, or a Trace."""
    if isinstance(run, Trace):
        if lang not in (None, run.lang):
            raise ValueError(f"this Trace speaks {run.lang!r}: build it with lang={lang!r}")
        trace = run
    elif getattr(run, "events", None):
        trace = Trace.from_events(run.events, offline=offline, lang=lang or "en")
    else:
        items = list(getattr(run, "messages", run))
        if items and all(hasattr(x, "kind") for x in items):
            trace = Trace.from_events(items, offline=offline, lang=lang or "en")
        else:
            trace = trace_from_messages(items, offline=offline, lang=lang or "en")
    if tools is not None:
        trace.toolbox = tool_specs(tools)
    return trace


def _kind() -> type[Diagram]:
    if not widgets_are_drawn():
        return Diagram
    from .widget import RoundDiagram

    return RoundDiagram


def show(run: Any, *, offline: bool | None = None, tools: Any = None, lang: str | None = None):
    """A displayable diagram of a finished run (LoopState, events, messages, or a Trace).

    ``offline`` labels token counts as estimates; by default a model id containing
    "offline" does. ``tools``: the toolbox the run offered the model. ``lang``: "en" (the
    default) or "zh"; a Trace keeps its own.
    """
    return _kind()(to_trace(run, offline=offline, tools=tools, lang=lang))


def live(*, offline: bool | None = None, tools: Any = None, lang: str = "en", display: bool = True):
    """An empty diagram, displayed at once, that draws a run while it happens.

    Pass its ``on_event`` to ``agent_loop``. When the run finishes, the static copy saved
    with the notebook is refreshed too.
    """
    diagram = _kind()(offline=offline, tools=tools, lang=lang)
    return diagram.show() if display else diagram


def __getattr__(name: str):
    if name == "RoundDiagram":
        from .widget import RoundDiagram

        globals()["RoundDiagram"] = RoundDiagram  # later lookups, dir() and help() see it
        return RoundDiagram
    raise AttributeError(f"module 'agentlib.widgets' has no attribute {name!r}")
