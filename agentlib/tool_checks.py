"""Checks of tools: the API's rules for a tool definition, TOOLS against TOOL_HANDLERS, input against a schema."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from .protocol import Problem

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")  # the API's pattern for a tool's name

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


def _in(lang: str, english: str, chinese: str) -> str:
    """The words for the learner in ``lang`` ("en" or "zh"); the API's own wording stays English."""
    return chinese if lang == "zh" else english


def tool_problems(TOOLS: Any, lang: str = "en") -> list[Problem]:
    """Every rule of the API these tool definitions break, then what the course advises.

    A problem with an ``api`` message is one the API refuses (400 invalid_request_error, that
    message); ``api is None`` is advice: the API accepts the tool, but the model reads less
    (a tool with no description). The offline API, ``check_tools``, ``@tool`` and the course's
    exercise checks all read this one list. Server tools (a ``type`` other than ``custom``)
    have shapes of their own and are not checked.
    """
    problems: list[Problem] = []
    advice: list[Problem] = []
    names: list[Any] = []
    for i, spec in enumerate(TOOLS):
        if not isinstance(spec, dict):
            problems.append(
                Problem(
                    "field-type",
                    f"tools.{i}: Input should be a valid dictionary",
                    _in(
                        lang,
                        f"TOOLS[{i}] is a {type(spec).__name__}: TOOLS holds one dict per tool, "
                        "with its name, description and input_schema (a function goes into "
                        "TOOL_HANDLERS).",
                        f"TOOLS[{i}] 是一个 {type(spec).__name__}：TOOLS 里每个工具一个字典，带着它的 "
                        "name、description 和 input_schema（函数要放进 TOOL_HANDLERS）。",
                    ),
                )
            )
            continue
        names.append(spec.get("name"))
        if spec.get("type") not in (None, "custom"):
            continue
        problems += _spec_problems(i, spec, lang)
        description = spec.get("description")
        if description is None or (isinstance(description, str) and not description.strip()):
            advice.append(
                Problem(
                    "tool-description",
                    None,
                    _in(
                        lang,
                        f"{spec.get('name')!r} has no description: the API accepts it, but the "
                        "model decides when to use a tool by reading its description.",
                        f"{spec.get('name')!r} 没有 description：API 接受它，但模型是读了工具的"
                        "描述才决定什么时候用它的。",
                    ),
                )
            )
    for n in sorted({n for n in names if names.count(n) > 1}, key=str):
        problems.append(
            Problem(
                "tool-names-unique",
                "tools: Tool names must be unique.",
                _in(
                    lang,
                    f"{n!r} appears {names.count(n)} times in TOOLS; tool names must be unique.",
                    f"{n!r} 在 TOOLS 里出现了 {names.count(n)} 次；工具名必须唯一。",
                ),
            )
        )
    return problems + advice


def _spec_problems(i: int, spec: dict[str, Any], lang: str = "en") -> list[Problem]:
    where = f"tools.{i}.custom."
    name = spec.get("name")
    if "name" not in spec:
        return [Problem("field-required", f"{where}name: Field required", _name_words(None, lang))]
    if not isinstance(name, str) or not TOOL_NAME.fullmatch(name):
        api = f"{where}name: String should match pattern '{TOOL_NAME.pattern}'"
        if not isinstance(name, str):
            api = f"{where}name: Input should be a valid string"
        return [Problem("tool-name-pattern", api, _name_words(name, lang))]
    if "input_schema" not in spec:
        return [
            Problem(
                "field-required",
                f"{where}input_schema: Field required",
                _in(
                    lang,
                    f"{name!r} has no input_schema: every tool needs a JSON schema of type 'object'.",
                    f"{name!r} 没有 input_schema：每个工具都需要一个 type 为 'object' 的 JSON schema。",
                ),
            )
        ]
    problems = []
    if "description" in spec and not isinstance(spec["description"], str):
        problems.append(
            Problem(
                "field-type",
                f"{where}description: Input should be a valid string",
                _in(
                    lang,
                    f"{name!r}: the description must be a string.",
                    f"{name!r}：description 必须是字符串。",
                ),
            )
        )
    schema = spec["input_schema"]
    if not isinstance(schema, dict) or schema.get("type") != "object":
        api = f"{where}input_schema.type: Input should be 'object'"
        if not isinstance(schema, dict):
            api = f"{where}input_schema: Input should be a valid dictionary"
        words = _in(
            lang,
            f"{name!r}: input_schema must be a JSON schema of type 'object'.",
            f"{name!r}：input_schema 必须是一个 type 为 'object' 的 JSON schema。",
        )
        problems.append(Problem("tool-input-schema", api, words))
    return problems


def _name_words(name: Any, lang: str = "en") -> str:
    if not isinstance(name, str):
        return _in(
            lang,
            f"the tool name {name!r} is not a string: a tool's name is text, such as 'read_file'.",
            f"工具名 {name!r} 不是字符串：工具的名字是文本，例如 'read_file'。",
        )
    refused = sorted({c for c in name if not TOOL_NAME.fullmatch(c)})
    fixed = "".join(c if TOOL_NAME.fullmatch(c) else "_" for c in name)
    if not fixed.strip("_-"):  # a name with no ASCII letter at all (a Chinese one): no example
        fixed = None
    if lang == "zh":
        why = (
            "它包含 " + "、".join(repr(c) for c in refused)
            if refused
            else (f"它有 {len(name)} 个字符" if name else "它是空的")
        )
        hint = f"（例如 {fixed!r}）" if refused and fixed else ""
        return (
            f"API 不接受工具名 {name!r}：{why}。工具名必须匹配 {TOOL_NAME.pattern}，所以换一个"
            f"{hint}；在那之前，每个提供这个工具的请求都会得到 400 invalid_request_error。"
        )
    if refused:
        why = "it contains " + ", ".join(repr(c) for c in refused)
        hint = f" (for example {fixed!r})" if fixed else ""
    else:
        why = f"it is {len(name)} characters long" if name else "it is empty"
        hint = ""
    return (
        f"the API refuses the tool name {name!r}: {why}. A tool name must match "
        f"{TOOL_NAME.pattern}, so pick another{hint}; until then every request that offers "
        "this tool gets 400 invalid_request_error."
    )


def check_tools(
    TOOLS: list[dict[str, Any]],
    TOOL_HANDLERS: dict[str, Callable[..., Any]],
    lang: str = "en",
) -> list[str]:
    """Name every mismatch between a ``TOOLS`` list and a ``TOOL_HANDLERS`` dict, in words.

    First every definition the API would refuse (``tool_problems``; its advice is left out:
    the API accepts those tools), then the mismatches between the two structures. ``lang``
    "zh" says them in Chinese.
    """
    problems = [p.words for p in tool_problems(TOOLS, lang) if p.api is not None]
    specs = [s for s in TOOLS if isinstance(s, dict)]
    names = [s.get("name") for s in specs]
    for n in names:
        if n not in TOOL_HANDLERS:
            problems.append(
                _in(
                    lang,
                    f"{n!r} is in TOOLS but not in TOOL_HANDLERS: the model will call it and get "
                    "'Unknown tool'.",
                    f"{n!r} 在 TOOLS 里，却不在 TOOL_HANDLERS 里：模型会调用它，得到 'Unknown tool'。",
                )
            )
    for n in TOOL_HANDLERS:
        if n not in names:
            problems.append(
                _in(
                    lang,
                    f"{n!r} is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists.",
                    f"{n!r} 在 TOOL_HANDLERS 里，却不在 TOOLS 里：模型永远不知道它的存在。",
                )
            )
    for s in specs:
        handler = TOOL_HANDLERS.get(s.get("name"))
        schema = s.get("input_schema")
        if handler is not None and isinstance(schema, dict) and schema.get("type") == "object":
            problems += _signature_problems(s.get("name"), schema, handler, lang)
    return problems


def _parameters(handler: Callable[..., Any]) -> dict[str, inspect.Parameter] | None:
    # None when there is nothing to compare: no signature to read, or a **kw lambda (the seed's)
    try:
        params = inspect.signature(handler).parameters
    except (TypeError, ValueError):  # not callable, or a builtin without a signature
        return None
    return None if any(p.kind is p.VAR_KEYWORD for p in params.values()) else dict(params)


def _signature_problems(
    name: str, schema: dict[str, Any], handler: Callable[..., Any], lang: str = "en"
) -> list[str]:
    params = _parameters(handler)
    if params is None:
        return []
    props = set(schema.get("properties", {}))
    problems = [
        _in(
            lang,
            f"{name!r}: schema property {p!r} has no parameter in the handler.",
            f"{name!r}：schema 的属性 {p!r} 在处理函数里没有对应的参数。",
        )
        for p in sorted(props - set(params))
    ]
    for pname, p in params.items():
        if p.kind in (p.VAR_POSITIONAL,):
            continue
        if pname not in props and p.default is p.empty:
            problems.append(
                _in(
                    lang,
                    f"{name!r}: the handler needs {pname!r}, which the schema never asks for.",
                    f"{name!r}：处理函数需要 {pname!r}，schema 却从来不要它。",
                )
            )
    return problems


def optional_but_needed(
    name: str, schema: dict[str, Any], handler: Callable[..., Any], lang: str = "en"
) -> list[str]:
    """Parameters the handler cannot do without that the schema lets the model leave out."""
    required = set(schema.get("required", []))
    return [
        _in(
            lang,
            f"{name!r}: the handler needs {p!r}, but the schema does not list it in 'required', "
            f"so the model may leave it out and the call would crash: add {p!r} to 'required' "
            "(or give the parameter a default).",
            f"{name!r}：处理函数需要 {p!r}，但 schema 没有把它列进 'required'，所以模型可能不传它，"
            f"调用就会崩溃：把 {p!r} 加进 'required'（或者给这个参数一个默认值）。",
        )
        for p, param in (_parameters(handler) or {}).items()
        if p in schema.get("properties", {}) and p not in required and param.default is param.empty
    ]
