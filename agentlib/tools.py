"""Tools: ``@tool`` turns a typed function into a schema plus a handler; ``Toolbox`` keeps both in one place."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pydantic

from .errors import ToolError


@dataclass
class Tool:
    """One tool: what the model sees (name, description, schema) and what the code runs (handler)."""

    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[..., Any]
    read_only: bool = False
    model: type[pydantic.BaseModel] | None = field(default=None, repr=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.handler(*args, **kwargs)

    @property
    def spec(self) -> dict[str, Any]:
        """The dict that goes into ``TOOLS``."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        }


_ARG_LINE = re.compile(r"^\s{2,}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _split_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Description for the model, and one line per argument from an ``Args:`` section."""
    text, _, args_part = inspect.cleandoc(doc).partition("\nArgs:")
    args: dict[str, str] = {}
    current = None
    for line in args_part.splitlines():
        m = _ARG_LINE.match(line)
        if m:
            current = m.group(1)
            args[current] = m.group(2).strip()
        elif current and line.strip() and line.startswith(" " * 6):
            args[current] += " " + line.strip()
        elif line.strip() and not line.startswith(" "):
            break  # a following section such as "Returns:"
    return text.strip(), args


def _strip_titles(schema: Any) -> Any:
    # pydantic adds "title" everywhere; the model does not need it and it doubles the tokens
    if isinstance(schema, dict):
        return {k: _strip_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
    return schema


def _make_tool(fn: Callable[..., Any], name: str | None, read_only: bool) -> Tool:
    doc = inspect.getdoc(fn)
    if not doc:
        raise TypeError(
            f"{fn.__name__} needs a docstring: it becomes the description the model reads"
        )
    description, arg_docs = _split_docstring(doc)
    fields: dict[str, Any] = {}
    try:  # resolve string annotations (modules using `from __future__ import annotations`)
        signature = inspect.signature(fn, eval_str=True)
    except NameError:
        signature = inspect.signature(fn)
    for pname, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"{fn.__name__}: *args/**kwargs cannot be described to the model")
        if param.annotation is inspect.Parameter.empty:
            raise TypeError(f"{fn.__name__}: parameter {pname!r} needs a type hint")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (param.annotation, pydantic.Field(default, description=arg_docs.get(pname)))
    model = pydantic.create_model(
        f"{fn.__name__}_input", __config__=pydantic.ConfigDict(extra="forbid"), **fields
    )
    schema = _strip_titles(model.model_json_schema())
    schema.setdefault("properties", {})
    return Tool(name or fn.__name__, description, schema, fn, read_only, model)


def tool(fn: Callable[..., Any] | None = None, *, name: str | None = None, read_only: bool = False):
    """Make a tool from a typed, documented function: ``@tool`` or ``@tool(read_only=True)``.

    The schema comes from the signature (through pydantic), the description from the
    docstring, one ``Args:`` line per parameter. The result is still callable.
    """
    if fn is None:
        return lambda f: _make_tool(f, name, read_only)
    return _make_tool(fn, name, read_only)


@dataclass(frozen=True)
class ToolOutcome:
    """What one call produced: the text the model reads, and whether it is an error."""

    content: str
    is_error: bool = False


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _schema_problems(schema: dict[str, Any], data: Any) -> list[str]:
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


def _as_text(value: Any) -> str:
    if value is None:
        return "(no output)"
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


class Toolbox:
    """A set of tools. ``TOOLS`` and ``TOOL_HANDLERS`` are views of the same list, so they cannot drift."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for t in tools:
            self.add(t)

    def add(self, t: Tool | Callable[..., Any]) -> Toolbox:
        """Register a tool (or a plain typed function, made a tool on the way). Returns the toolbox."""
        t = t if isinstance(t, Tool) else tool(t)
        if t.name in self._tools:
            raise ValueError(f"a tool named {t.name!r} is already in this toolbox")
        self._tools[t.name] = t
        return self

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    @property
    def TOOLS(self) -> list[dict[str, Any]]:  # the seed's name, kept on purpose
        """The schemas the model sees."""
        return [t.spec for t in self._tools.values()]

    @property
    def TOOL_HANDLERS(self) -> dict[str, Callable[..., Any]]:
        """Tool name -> the function the code runs."""
        return {name: t.handler for name, t in self._tools.items()}

    @classmethod
    def from_dicts(
        cls, TOOLS: list[dict[str, Any]], TOOL_HANDLERS: dict[str, Callable[..., Any]]
    ) -> Toolbox:
        """Build a toolbox from a hand-written ``TOOLS`` list and ``TOOL_HANDLERS`` dict.

        Raises ``ValueError`` naming every mismatch, because a mismatch is a bug the model
        would otherwise find for you.
        """
        problems = check_tools(TOOLS, TOOL_HANDLERS)
        if problems:
            raise ValueError("TOOLS and TOOL_HANDLERS disagree:\n- " + "\n- ".join(problems))
        return cls(
            Tool(s["name"], s.get("description", ""), s["input_schema"], TOOL_HANDLERS[s["name"]])
            for s in TOOLS
        )

    def dispatch(self, name: str, tool_input: Any) -> ToolOutcome:
        """Run one tool call. Never raises: every failure becomes an error the model can read."""
        t = self._tools.get(name)
        if t is None:
            known = ", ".join(self._tools) or "none"
            return ToolOutcome(f"Error: Unknown tool: {name}. Available tools: {known}.", True)
        try:
            if t.model is not None:
                kwargs = dict(t.model.model_validate(tool_input))
            else:
                problems = _schema_problems(t.input_schema, tool_input)
                if problems:
                    raise _InvalidInput("; ".join(problems))
                kwargs = dict(tool_input)
        except (pydantic.ValidationError, _InvalidInput) as e:
            return ToolOutcome(f"Error: invalid input for {name}: {_brief(e)}", True)
        try:
            return ToolOutcome(_as_text(t.handler(**kwargs)))
        except ToolError as e:
            return ToolOutcome(f"Error: {e}", True)
        except Exception as e:  # noqa: BLE001  (a bug in a handler must not end the loop)
            return ToolOutcome(f"Error: {name} failed: {type(e).__name__}: {e}", True)


class _InvalidInput(Exception):
    pass


def _brief(e: Exception) -> str:
    if isinstance(e, pydantic.ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, err['loc'])) or 'input'}: {err['msg']}" for err in e.errors()
        )
    return str(e)


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
