"""The self-check for the "add your own tool" exercise: what is wrong, said in words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..tools import Tool, Toolbox, check_tools


def check_exercise(
    TOOLS: list[dict[str, Any]] | Toolbox,
    TOOL_HANDLERS: dict[str, Callable[..., Any]] | None = None,
    *,
    name: str,
    example: dict[str, Any] | None = None,
) -> list[str]:
    """Every reason the tool ``name`` would not work in the loop; an empty list means it is ready.

    Checks that it is in ``TOOLS`` and ``TOOL_HANDLERS``, that schema and handler agree
    (through ``check_tools``), that it has a description, and, given ``example`` input,
    that a call through dispatch succeeds the way the model's call would.
    """
    if isinstance(TOOLS, Toolbox):
        TOOLS, TOOL_HANDLERS = TOOLS.TOOLS, TOOLS.TOOL_HANDLERS
    handlers = TOOL_HANDLERS or {}
    specs = {s.get("name"): s for s in TOOLS}
    if name not in specs and name not in handlers:
        return [
            f"{name!r} is in neither TOOLS nor TOOL_HANDLERS: add its schema to TOOLS (what the "
            "model sees) and its function to TOOL_HANDLERS (what the code runs)."
        ]
    problems = check_tools(TOOLS, handlers)
    spec = specs.get(name)
    if spec is not None and not str(spec.get("description", "")).strip():
        problems.append(
            f"{name!r} has no description: the model decides when to use a tool by reading it."
        )
    if problems or example is None or spec is None:
        return problems
    box = Toolbox([Tool(name, spec.get("description", ""), spec["input_schema"], handlers[name])])
    outcome = box.dispatch(name, example)
    if outcome.is_error:
        problems.append(
            f"calling {name!r} with {example!r} fails, so the model would read an error: "
            f"{outcome.content}"
        )
    return problems
