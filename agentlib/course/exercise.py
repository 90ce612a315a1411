"""The self-check for the "add your own tool" exercise: what is wrong, said in words."""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
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

    Checks that it is in ``TOOLS`` and ``TOOL_HANDLERS``, that every tool name is one the API
    accepts, that schema and handler agree, that it has a description, and, given ``example``
    input, that a call the way the model's call would run succeeds and returns a string.
    """
    box = TOOLS if isinstance(TOOLS, Toolbox) else None
    if box is not None:
        TOOLS, TOOL_HANDLERS = box.TOOLS, box.TOOL_HANDLERS
    handlers = TOOL_HANDLERS or {}
    not_dicts = [
        f"TOOLS[{i}] is a {type(s).__name__}"
        for i, s in enumerate(TOOLS)
        if not isinstance(s, dict)
    ]
    if not_dicts:
        return [
            f"{'; '.join(not_dicts)}: TOOLS holds one dict per tool, with its name, description "
            "and input_schema (a function goes into TOOL_HANDLERS)."
        ]
    specs = {s.get("name"): s for s in TOOLS}
    if name not in specs and name not in handlers:
        return [_missing(name, box, list(specs), list(handlers))]
    problems = [p for n in specs if (p := name_problem(n))]
    mismatches = check_tools(TOOLS, handlers)
    problems += mismatches
    spec = specs.get(name)
    if spec is not None and (missing := description_problem(name, spec)):
        problems.append(missing)
    if spec is None or name not in handlers or mismatches:
        return problems
    if not callable(handlers[name]):
        kind = type(handlers[name]).__name__
        return [
            *problems,
            f"TOOL_HANDLERS[{name!r}] is a {kind}, not a function: map the name to the function "
            "itself (no quotes, no call).",
        ]
    problems += optional_but_needed(name, spec["input_schema"], handlers[name])
    if example is not None:
        tool = box[name] if box is not None else None
        problems += call_problems(name, spec, handlers[name], example, tool)
    return problems


def _missing(name: str, box: Toolbox | None, specs: list[Any], handlers: list[Any]) -> str:
    if box is not None:
        return (
            f"the toolbox has {', '.join(map(repr, box.names)) or 'no tools'}, but no {name!r}: add "
            "your tool with .add(your_function), named TOOL_NAME (a @tool takes its function's "
            "name unless you write @tool(name=TOOL_NAME))."
        )
    has = "".join(
        f" {label} has {', '.join(map(repr, names))}."
        for label, names in (("TOOLS", specs), ("TOOL_HANDLERS", handlers))
        if names
    )
    return (
        f"{name!r} is in neither TOOLS nor TOOL_HANDLERS: add its schema to TOOLS (what the "
        f"model sees) and its function to TOOL_HANDLERS (what the code runs).{has}"
    )


def description_problem(name: Any, spec: dict[str, Any]) -> str | None:
    """Why a tool's schema needs a description, or None when it has one (the course's rule, in 03 and 05 alike)."""
    if str(spec.get("description") or "").strip():
        return None
    return f"{name!r} has no description: the model decides when to use a tool by reading it."


def name_problem(name: Any) -> str | None:
    """Why the API would refuse ``name`` as a tool name, or None when it accepts it."""
    from ..offline.validate import TOOL_NAME  # the simulator's rule; loads the SDK only when used

    if isinstance(name, str) and TOOL_NAME.fullmatch(name):
        return None
    if not isinstance(name, str):
        return (
            f"the tool name {name!r} is not a string: a tool's name is text, such as 'read_file'."
        )
    refused = sorted({c for c in name if not TOOL_NAME.fullmatch(c)})
    if refused:
        fixed = "".join(c if TOOL_NAME.fullmatch(c) else "_" for c in name)
        why = "it contains " + ", ".join(repr(c) for c in refused)
        hint = f" (for example {fixed!r})"
    else:
        why = f"it is {len(name)} characters long" if name else "it is empty"
        hint = ""
    return (
        f"the API refuses the tool name {name!r}: {why}. A tool name must match "
        f"{TOOL_NAME.pattern}, so pick another{hint}; until then every request that offers "
        "this tool gets 400 invalid_request_error."
    )


def optional_but_needed(
    name: str, schema: dict[str, Any], handler: Callable[..., Any]
) -> list[str]:
    """Parameters the handler cannot do without that the schema lets the model leave out."""
    try:
        params = inspect.signature(handler).parameters
    except (TypeError, ValueError):
        return []
    required = set(schema.get("required", []))
    return [
        f"{name!r}: the handler needs {p!r}, but the schema does not list it in 'required', so "
        f"the model may leave it out and the call would crash: add {p!r} to 'required' (or give "
        "the parameter a default)."
        for p, param in params.items()
        if p in schema.get("properties", {}) and p not in required and param.default is param.empty
    ]


def call_problems(
    name: str,
    spec: dict[str, Any],
    handler: Callable[..., Any],
    example: dict[str, Any],
    tool: Tool | None = None,
) -> list[str]:
    """Call the tool with ``example`` the way the loop would; say what the model would read if it is wrong."""
    seen: dict[str, Any] = {}
    printed = io.StringIO()

    def recorded(**kwargs: Any) -> Any:
        with contextlib.redirect_stdout(printed):
            seen["value"] = handler(**kwargs)
        return seen["value"]

    if tool is None:
        tool = Tool(name, spec.get("description", ""), spec["input_schema"], handler)
    outcome = Toolbox([dataclasses.replace(tool, handler=recorded)]).dispatch(name, example)
    if outcome.is_error:
        return [
            f"calling {name!r} with {example!r} fails, so the model would read an error: "
            f"{outcome.content}"
        ]
    value, output = seen.get("value"), printed.getvalue()
    if value is None and output:
        return [
            f"{name!r} prints its result instead of returning it: the model never sees what a "
            f"tool prints ({output.strip()[:80]!r}), only what it returns, and it returned None, "
            f"which the model reads as {outcome.content!r}. Replace print(...) with return ..."
        ]
    if value is None:
        return [
            f"{name!r} returned None, which the model reads as {outcome.content!r}: end the "
            "function with return and the result as a string."
        ]
    if not isinstance(value, str):
        return [
            f"{name!r} returned {type(value).__name__} {repr(value)[:80]}, not a string: the loop would "
            f"turn it into the text {outcome.content[:80]!r} for the model. Return a string "
            "yourself (str(...), or json.dumps(...) for structured data), so you decide what "
            "the model reads."
        ]
    return []
