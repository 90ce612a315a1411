"""The round diagram: draw every round of an agent_loop run, live in JupyterLab, static elsewhere.

show(state, tools=box)       # after a run: the whole diagram
diagram = live(tools=box)    # before a run: an empty diagram that fills in as it runs
agent_loop(messages, ..., tools=box, on_event=diagram.on_event)

``tools`` (the run's Toolbox, its TOOLS list or tool names) is optional: it lets
predict-before-reveal offer every tool the model could pick, not only those it called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .compare import CompareView, compare_view
from .history import trace_from_messages
from .trace import Trace, tool_specs

if TYPE_CHECKING:  # editors see it; at run time anywidget loads only when a diagram is wanted
    from .widget import RoundDiagram

__all__ = ["CompareView", "RoundDiagram", "Trace", "compare_view", "live", "show", "to_trace"]


def to_trace(run: Any, *, offline: bool | None = None, tools: Any = None) -> Trace:
    """A Trace from a LoopState, a list of events, a list of messages, or a Trace."""
    if isinstance(run, Trace):
        trace = run
    elif getattr(run, "events", None):
        trace = Trace.from_events(run.events, offline=offline)
    else:
        items = list(getattr(run, "messages", run))
        if items and all(hasattr(x, "kind") for x in items):
            trace = Trace.from_events(items, offline=offline)
        else:
            trace = trace_from_messages(items, offline=offline)
    if tools is not None:
        trace.toolbox = tool_specs(tools)
    return trace


def show(run: Any, *, offline: bool | None = None, tools: Any = None):
    """A displayable diagram of a finished run (LoopState, events, or messages).

    ``offline`` labels token counts as estimates; by default a model id containing
    "offline" does. ``tools``: the toolbox the run offered the model.
    """
    from .widget import RoundDiagram

    return RoundDiagram(to_trace(run, offline=offline, tools=tools))


def live(*, offline: bool | None = None, tools: Any = None, display: bool = True):
    """An empty diagram, displayed at once, that draws a run while it happens.

    Pass its ``on_event`` to ``agent_loop``. When the run finishes, the static copy saved
    with the notebook is refreshed too.
    """
    from .widget import RoundDiagram

    diagram = RoundDiagram(offline=offline, tools=tools)
    return diagram.show() if display else diagram


def __getattr__(name: str):
    if name == "RoundDiagram":
        from .widget import RoundDiagram

        globals()["RoundDiagram"] = RoundDiagram  # later lookups, dir() and help() see it
        return RoundDiagram
    raise AttributeError(f"module 'agentlib.widgets' has no attribute {name!r}")
