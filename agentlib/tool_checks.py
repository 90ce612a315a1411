"""Checks a learner's hand-written tools need: TOOLS against TOOL_HANDLERS, and input against a schema."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def schema_problems(schema: dict[str, Any], data: Any) -> list[str]:
    """A small check of hand-written schemas: required keys, basic types, unknown keys."""
    if not isinstance(data, dict):
        return [f"input must be a JSON object, got {type(data).__name__}"]
    props = schema.get("properties", {})
    problems = [
        f"missing required field {k!r}" for k in schema.get("required", []) if k not in data
    ]
    for key, value in data.items():
        if key not in props:
            if schema.get("additionalProperties") is False:
                problems.append(f"unknown field {key!r}")
            continue
        expected = props[key].get("type")
        kinds = [expected] if isinstance(expected, str) else (expected or [])
        ok = [t for t in kinds if t in _JSON_TYPES and isinstance(value, _JSON_TYPES[t])]
        bool_as_number = isinstance(value, bool) and not any(t == "boolean" for t in kinds)
        if kinds and (not ok or bool_as_number):
            problems.append(
                f"field {key!r} must be {' or '.join(kinds)}, got {type(value).__name__}"
            )
    return problems


def check_tools(
    TOOLS: list[dict[str, Any]], TOOL_HANDLERS: dict[str, Callable[..., Any]]
) -> list[str]:
    """Name every mismatch between a ``TOOLS`` list and a ``TOOL_HANDLERS`` dict, in words."""
    problems = []
    names = [s.get("name") for s in TOOLS]
    for n in sorted({n for n in names if names.count(n) > 1}, key=str):
        problems.append(
            f"{n!r} appears {names.count(n)} times in TOOLS; tool names must be unique."
        )
    for n in names:
        if n not in TOOL_HANDLERS:
            problems.append(
                f"{n!r} is in TOOLS but not in TOOL_HANDLERS: the model will call it and get "
                "'Unknown tool'."
            )
    for n in TOOL_HANDLERS:
        if n not in names:
            problems.append(
                f"{n!r} is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists."
            )
    for s in TOOLS:
        handler = TOOL_HANDLERS.get(s.get("name"))
        schema = s.get("input_schema", {})
        if not isinstance(schema, dict) or schema.get("type") != "object":
            problems.append(
                f"{s.get('name')!r}: input_schema must be a JSON schema of type 'object'."
            )
            continue
        if handler is None:
            continue
        problems += _signature_problems(s["name"], schema, handler)
    return problems


def _signature_problems(
    name: str, schema: dict[str, Any], handler: Callable[..., Any]
) -> list[str]:
    try:
        params = inspect.signature(handler).parameters
    except (TypeError, ValueError):
        return []
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return []  # a **kw lambda, as in the seed: nothing to compare
    props = set(schema.get("properties", {}))
    problems = [
        f"{name!r}: schema property {p!r} has no parameter in the handler."
        for p in sorted(props - set(params))
    ]
    for pname, p in params.items():
        if p.kind in (p.VAR_POSITIONAL,):
            continue
        if pname not in props and p.default is p.empty:
            problems.append(
                f"{name!r}: the handler needs {pname!r}, which the schema never asks for."
            )
    return problems
