"""Tools: ``@tool`` turns a typed function into a schema plus a handler; ``Toolbox`` keeps both in one place."""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import docstring_parser
import pydantic

from .errors import is_tool_error
from .text import as_text
from .tool_checks import check_tools, schema_problems


@dataclass
class Tool:
    """One tool: what the model sees (name, description, schema) and what the code runs (handler)."""

    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[..., Any]
    read_only: bool = False
    input_model: type[pydantic.BaseModel] | None = field(default=None, repr=False)

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


def _strip_titles(schema: Any) -> Any:
    # pydantic adds "title" everywhere; the model does not need it and it doubles the tokens
    if isinstance(schema, dict):
        return {k: _strip_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
    return schema


def _make_tool(fn: Callable[..., Any], name: str | None, read_only: bool) -> Tool:
    sdk_tool = _from_sdk(fn, name, read_only)
    if sdk_tool is not None:
        return sdk_tool
    label = getattr(fn, "__name__", None)
    if label is None or not callable(fn):
        raise TypeError(
            f"not a tool: {fn!r:.80}. A tool is a typed, documented function, a @tool, or an "
            "SDK tool made with @anthropic.beta_tool."
        )
    doc = inspect.getdoc(fn)
    if not doc:
        raise TypeError(f"{label} needs a docstring: it becomes the description the model reads")
    parsed = docstring_parser.parse(doc)  # the parser the SDK's own @beta_tool uses
    description = "\n\n".join(filter(None, [parsed.short_description, parsed.long_description]))
    arg_docs = {param.arg_name: param.description for param in parsed.params}
    fields: dict[str, Any] = {}
    try:  # resolve string annotations (modules using `from __future__ import annotations`)
        signature = inspect.signature(fn, eval_str=True)
    except NameError as e:  # a hint naming what the module never imports: no schema without it
        raise TypeError(
            f"{label}: a type hint names {e.name!r}, which {fn.__module__ or 'its module'} does not "
            "define at run time: import it there (not only under TYPE_CHECKING)"
        ) from e
    for pname, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"{label}: *args/**kwargs cannot be described to the model")
        if param.annotation is inspect.Parameter.empty:
            raise TypeError(f"{label}: parameter {pname!r} needs a type hint")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (param.annotation, pydantic.Field(default, description=arg_docs.get(pname)))
    model = pydantic.create_model(
        f"{label}_input", __config__=pydantic.ConfigDict(extra="forbid"), **fields
    )
    schema = _strip_titles(model.model_json_schema())
    schema.setdefault("properties", {})
    return Tool(name or label, description, schema, _awaited(fn), read_only, model)


def _from_sdk(obj: Any, name: str | None, read_only: bool) -> Tool | None:
    """A tool made by the SDK (``@anthropic.beta_tool``, ``beta_async_tool``) as a Tool; else None."""
    if inspect.isroutine(obj) or type(obj).__module__.partition(".")[0] != "anthropic":
        return None  # not an object of the SDK's: the SDK is never loaded to find that out
    from anthropic.lib.tools import BetaAsyncBuiltinFunctionTool, BetaBuiltinFunctionTool
    from anthropic.lib.tools._beta_functions import BaseFunctionTool

    if isinstance(obj, (BetaBuiltinFunctionTool, BetaAsyncBuiltinFunctionTool)):
        raise TypeError(
            f"{type(obj).__name__} is one of the SDK's built-in tools, with a definition of its "
            "own type; a Toolbox holds custom tools: a name, a description and an input_schema."
        )
    if not isinstance(obj, BaseFunctionTool):
        return None
    spec = obj.to_dict()  # the SDK's schema and description, validated against it on each call
    return Tool(
        name or spec["name"],
        spec.get("description", ""),
        dict(spec["input_schema"]),
        _awaited(obj.func),
        read_only,
    )


def _awaited(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` itself, or for an ``async def`` a function that runs it to its result."""
    if not inspect.iscoroutinefunction(fn):
        return fn

    @functools.wraps(fn)
    def run(**kwargs: Any) -> Any:
        # a notebook's kernel already runs an event loop in this thread: use a thread of its own
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, fn(**kwargs)).result()

    return run


def tool(fn: Callable[..., Any] | None = None, *, name: str | None = None, read_only: bool = False):
    """Make a tool from a typed, documented function: ``@tool`` or ``@tool(read_only=True)``.

    The schema comes from the signature (through pydantic), the description and one line per
    parameter from the docstring's ``Args:`` section (read by ``docstring_parser``, as the
    SDK's ``@beta_tool`` reads it). An ``async def`` is run to its result. A tool the SDK made
    (``@anthropic.beta_tool``) is taken as it is, with its own schema. The result is still
    callable.
    """
    if fn is None:
        return lambda f: _make_tool(f, name, read_only)
    return _make_tool(fn, name, read_only)


@dataclass(frozen=True)
class ToolOutcome:
    """What one call produced: the text the model reads, and whether it is an error."""

    content: str
    is_error: bool = False


def _as_text(value: Any) -> str:
    return "(no output)" if value is None else as_text(value)


class Toolbox:
    """A set of tools. ``TOOLS`` and ``TOOL_HANDLERS`` are views of the same list, so they cannot drift."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any] | Any] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for t in tools:
            self.add(t)

    def add(self, t: Tool | Callable[..., Any] | Any) -> Toolbox:
        """Register a tool: a ``Tool``, a plain typed function or an SDK tool (made a Tool on the way).

        Returns the toolbox, so calls chain.
        """
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
            if t.input_model is not None:
                kwargs = dict(t.input_model.model_validate(tool_input))
            else:
                problems = schema_problems(t.input_schema, tool_input)
                if problems:
                    raise _InvalidInput("; ".join(problems))
                kwargs = dict(tool_input)
        except (pydantic.ValidationError, _InvalidInput) as e:
            return ToolOutcome(f"Error: invalid input for {name}: {_brief(e)}", True)
        try:
            return ToolOutcome(_as_text(t.handler(**kwargs)))
        except Exception as e:  # noqa: BLE001  (a bug in a handler must not end the loop)
            if is_tool_error(e):  # the tool's own message to the model
                return ToolOutcome(f"Error: {e}", True)
            return ToolOutcome(f"Error: {name} failed: {type(e).__name__}: {e}", True)


class _InvalidInput(Exception):
    pass


def _brief(e: Exception) -> str:
    if isinstance(e, pydantic.ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, err['loc'])) or 'input'}: {err['msg']}" for err in e.errors()
        )
    return str(e)
