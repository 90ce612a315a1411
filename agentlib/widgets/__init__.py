"""The round diagram: draw every round of an agent_loop run, live in JupyterLab, static elsewhere.

show(state)                  # after a run: the whole diagram
diagram = live()             # before a run: an empty diagram that fills in as it runs
agent_loop(messages, ..., on_event=diagram.on_event)
"""

from __future__ import annotations

from typing import Any

from .compare import CompareView, compare_view
from .history import trace_from_messages
from .trace import Trace

__all__ = ["CompareView", "RoundDiagram", "Trace", "compare_view", "live", "show", "to_trace"]


def to_trace(run: Any, *, offline: bool | None = None) -> Trace:
    """A Trace from a LoopState, a list of events, a list of messages, or a Trace."""
    if isinstance(run, Trace):
        return run
    events = getattr(run, "events", None)
    if events:
        return Trace.from_events(events, offline=offline)
    messages = getattr(run, "messages", run)
    items = list(messages)
    if items and all(hasattr(x, "kind") for x in items):
        return Trace.from_events(items, offline=offline)
    return trace_from_messages(items, offline=offline)


def show(run: Any, *, offline: bool | None = None):
    """A displayable diagram of a finished run (LoopState, events, or messages).

    ``offline`` labels token counts as estimates; by default a model id containing
    "offline" does.
    """
    from .widget import RoundDiagram

    return RoundDiagram(to_trace(run, offline=offline))


def live(*, offline: bool | None = None, display: bool = True):
    """An empty diagram, displayed at once, that draws a run while it happens.

    Pass its ``on_event`` to ``agent_loop``. When the run finishes, the static copy saved
    with the notebook is refreshed too.
    """
    from .widget import RoundDiagram

    diagram = RoundDiagram(offline=offline)
    return diagram.show() if display else diagram


def __getattr__(name: str):
    if name == "RoundDiagram":  # anywidget loads only when a diagram is wanted
        from .widget import RoundDiagram

        return RoundDiagram
    raise AttributeError(f"module 'agentlib.widgets' has no attribute {name!r}")
