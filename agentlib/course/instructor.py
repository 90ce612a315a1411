"""Read the notebooks' instructor parameters: EXTRA_TOOLS and SCRIPT, given as "module:attribute"."""

from __future__ import annotations

import importlib
import runpy
from pathlib import Path
from typing import Any

from ..tools import Tool, Toolbox, tool


def load_object(spec: str) -> Any:
    """``"package.module:attribute"`` -> the attribute; ``"path/to/file.py:NAME"`` also works."""
    where, sep, attribute = spec.strip().rpartition(":")
    if not sep or not where or not attribute:
        raise ValueError(f"expected 'module:attribute', got {spec!r}")
    if where.endswith(".py"):
        namespace = runpy.run_path(str(Path(where).expanduser()))
        if attribute not in namespace:
            raise ValueError(f"{where} defines no {attribute!r}")
        return namespace[attribute]
    obj = importlib.import_module(where)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


def _as_tools(obj: Any) -> list[Tool]:
    if isinstance(obj, Tool):
        return [obj]
    if isinstance(obj, Toolbox):
        return list(obj)
    if isinstance(obj, (list, tuple)):
        return [t for item in obj for t in _as_tools(item)]
    if callable(obj):
        return [tool(obj)]
    raise TypeError(f"not a tool, a toolbox or a typed function: {obj!r}")


def load_tools(spec: str) -> list[Tool]:
    """EXTRA_TOOLS: comma-separated ``module:attribute`` of @tool functions, Toolboxes or lists."""
    return [t for part in spec.split(",") if part.strip() for t in _as_tools(load_object(part))]


def load_script(spec: str):
    """SCRIPT: ``module:attribute`` of an offline ``Script`` or a list of replies; None when empty."""
    from ..offline import Script

    if not spec.strip():
        return None
    obj = load_object(spec)
    if isinstance(obj, Script):
        return obj
    if isinstance(obj, (list, tuple)):
        return Script(*obj)
    raise TypeError(f"SCRIPT must name a Script or a list of replies, got {type(obj).__name__}")


def run_instructor_script(
    script: str, extra_tools: str, tools: Toolbox, *, system: str | None = None
):
    """The notebooks' instructor cell: run SCRIPT on the offline model with ``tools`` + EXTRA_TOOLS.

    Returns the loop's state, or None when no script is set (the default: nothing runs).
    """
    from ..loop import agent_loop
    from ..offline import offline_client

    if not script.strip():
        return None
    for extra in load_tools(extra_tools):
        tools.add(extra)
    client, model = offline_client(load_script(script))
    messages = [{"role": "user", "content": "Instructor's script"}]
    return agent_loop(messages, client=client, model=model, tools=tools, system=system)
