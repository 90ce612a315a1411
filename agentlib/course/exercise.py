"""The self-check for the "add your own tool" exercise: what is wrong, said in words."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from collections.abc import Callable
from typing import Any

from ..tool_checks import optional_but_needed, tool_problems
from ..tools import Tool, Toolbox, check_tools


def check_exercise(
    TOOLS: list[dict[str, Any]] | Toolbox,
    TOOL_HANDLERS: dict[str, Callable[..., Any]] | None = None,
    *,
    name: str,
    example: dict[str, Any] | None = None,
) -> list[str]:
    """Every reason the tool ``name`` would not work in the loop; an empty list means it is ready.

    Checks that it is in ``TOOLS`` and ``TOOL_HANDLERS``, that the API accepts every tool
    (``tool_problems``), that schema and handler agree, and, given ``example`` input, that a
    call the way the model's call would run succeeds and returns a string. A missing
    description is a reason here though the API accepts it: the model chooses a tool by it.
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
    mismatches = check_tools(TOOLS, handlers)  # what the API refuses (tool_problems), first
    problems = list(mismatches)
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
    problems += schema_shape_problems(name, spec)
    if example is not None:
        tool = box[name] if box is not None else None
        failed = call_problems(name, spec, handlers[name], example, tool)
        properties = spec["input_schema"].get("properties") or {}
        unknown = sorted(set(example) - set(properties), key=str)
        if failed and unknown:
            failed[0] += (
                f" (EXAMPLE gives {', '.join(map(repr, unknown))}, which the schema does not define: "
                f"it has {sorted(properties)}; EXAMPLE is one call's arguments, by the schema's names.)"
            )
        problems += failed
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
    """Why this tool's schema needs a description, or None when it has one.

    The API accepts a tool without one (``tool_problems`` gives it as advice); the course's
    checks in 03 and 05 alike refuse it, because the model picks a tool by reading it.
    """
    advice = [p for p in tool_problems([spec]) if p.rule == "tool-description"]
    return advice[0].words if advice else None


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


JSON_TYPES = ("string", "integer", "number", "boolean", "array", "object", "null")
PYTHON_NAMES = {
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "list": "array",
    "dict": "object",
}


def schema_shape_problems(name: Any, spec: dict[str, Any]) -> list[str]:
    """What in a hand-written input_schema the model would misread: required names it never defines, unknown types."""
    schema = spec.get("input_schema")
    if not isinstance(schema, dict):
        return []  # check_tools says so
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    problems = [
        f"{name!r}: 'required' lists {r!r}, which 'properties' does not define (it has {sorted(props)}); "
        "the model is told to send an argument it knows nothing about."
        for r in schema.get("required") or []
        if r not in props
    ]
    for prop, rule in props.items():
        kind = rule.get("type") if isinstance(rule, dict) else None
        for k in [kind] if isinstance(kind, str) else kind or []:
            if k not in JSON_TYPES:
                better = f" (write {PYTHON_NAMES[k]!r})" if k in PYTHON_NAMES else ""
                problems.append(
                    f"{name!r}: property {prop!r} has type {k!r}, which JSON Schema does not know{better}."
                )
    return problems
