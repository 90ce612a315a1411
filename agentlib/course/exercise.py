"""The self-check for the "add your own tool" exercise: what is wrong, said in words."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from collections.abc import Callable
from typing import Any

from ..tool_checks import optional_but_needed, tool_problems
from ..tools import Tool, Toolbox, check_tools
from .language import current, pick


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
        pick(f"TOOLS[{i}] is a {type(s).__name__}", f"TOOLS[{i}] 是一个 {type(s).__name__}")
        for i, s in enumerate(TOOLS)
        if not isinstance(s, dict)
    ]
    if not_dicts:
        return [
            "; ".join(not_dicts)
            + pick(
                ": TOOLS holds one dict per tool, with its name, description "
                "and input_schema (a function goes into TOOL_HANDLERS).",
                "：TOOLS 里每个工具一个字典，带着它的 name、description 和 input_schema"
                "（函数要放进 TOOL_HANDLERS）。",
            )
        ]
    specs = {s.get("name"): s for s in TOOLS}
    if name not in specs and name not in handlers:
        return [_missing(name, box, list(specs), list(handlers))]
    mismatches = check_tools(
        TOOLS, handlers, current()
    )  # what the API refuses (tool_problems), first
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
            pick(
                f"TOOL_HANDLERS[{name!r}] is a {kind}, not a function: map the name to the function "
                "itself (no quotes, no call).",
                f"TOOL_HANDLERS[{name!r}] 是一个 {kind}，不是函数：把名字映射到函数本身"
                "（不加引号，也不调用它）。",
            ),
        ]
    problems += optional_but_needed(name, spec["input_schema"], handlers[name], current())
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
        names = ", ".join(map(repr, box.names))
        return pick(
            f"the toolbox has {names or 'no tools'}, but no {name!r}: add "
            "your tool with .add(your_function), named TOOL_NAME (a @tool takes its function's "
            "name unless you write @tool(name=TOOL_NAME)).",
            f"工具箱里有 {names or '（没有工具）'}，却没有 {name!r}：用 .add(your_function) "
            "加上你的工具，名字是 TOOL_NAME（@tool 用函数的名字，除非你写 @tool(name=TOOL_NAME)）。",
        )
    has = "".join(
        pick(
            f" {label} has {', '.join(map(repr, names))}.",
            f" {label} 里有 {', '.join(map(repr, names))}。",
        )
        for label, names in (("TOOLS", specs), ("TOOL_HANDLERS", handlers))
        if names
    )
    return pick(
        f"{name!r} is in neither TOOLS nor TOOL_HANDLERS: add its schema to TOOLS (what the "
        f"model sees) and its function to TOOL_HANDLERS (what the code runs).{has}",
        f"{name!r} 既不在 TOOLS 里，也不在 TOOL_HANDLERS 里：把它的 schema 加进 TOOLS（模型看到的），"
        f"把它的函数加进 TOOL_HANDLERS（代码运行的）。{has}",
    )


def description_problem(name: Any, spec: dict[str, Any]) -> str | None:
    """Why this tool's schema needs a description, or None when it has one.

    The API accepts a tool without one (``tool_problems`` gives it as advice); the course's
    checks in 03 and 05 alike refuse it, because the model picks a tool by reading it.
    """
    advice = [p for p in tool_problems([spec], current()) if p.rule == "tool-description"]
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
            pick(
                f"calling {name!r} with {example!r} fails, so the model would read an error: ",
                f"用 {example!r} 调用 {name!r} 失败了，模型会读到一个错误：",
            )
            + str(outcome.content)
        ]
    value, output = seen.get("value"), printed.getvalue()
    if value is None and output:
        return [
            pick(
                f"{name!r} prints its result instead of returning it: the model never sees what a "
                f"tool prints ({output.strip()[:80]!r}), only what it returns, and it returned None, "
                f"which the model reads as {outcome.content!r}. Replace print(...) with return ...",
                f"{name!r} 把结果打印出来，而不是返回它：模型永远看不到工具打印的东西"
                f"（{output.strip()[:80]!r}），只看得到它返回的值；它返回了 None，"
                f"模型读到的是 {outcome.content!r}。把 print(...) 换成 return ...",
            )
        ]
    if value is None:
        return [
            pick(
                f"{name!r} returned None, which the model reads as {outcome.content!r}: end the "
                "function with return and the result as a string.",
                f"{name!r} 返回了 None，模型读到的是 {outcome.content!r}：函数最后要 return 一个字符串结果。",
            )
        ]
    if not isinstance(value, str):
        return [
            pick(
                f"{name!r} returned {type(value).__name__} {repr(value)[:80]}, not a string: the loop would "
                f"turn it into the text {outcome.content[:80]!r} for the model. Return a string "
                "yourself (str(...), or json.dumps(...) for structured data), so you decide what "
                "the model reads.",
                f"{name!r} 返回的是 {type(value).__name__} {repr(value)[:80]}，不是字符串：循环会把它"
                f"变成文本 {outcome.content[:80]!r} 交给模型。自己返回一个字符串（str(...)，"
                "结构化数据用 json.dumps(...)），模型读到什么由你决定。",
            )
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
        pick(
            f"{name!r}: 'required' lists {r!r}, which 'properties' does not define (it has {sorted(props)}); "
            "the model is told to send an argument it knows nothing about.",
            f"{name!r}：'required' 里列了 {r!r}，'properties' 却没有定义它（只有 {sorted(props)}）；"
            "模型被要求发送一个它一无所知的参数。",
        )
        for r in schema.get("required") or []
        if r not in props
    ]
    for prop, rule in props.items():
        kind = rule.get("type") if isinstance(rule, dict) else None
        for k in [kind] if isinstance(kind, str) else kind or []:
            if k not in JSON_TYPES:
                better = ""
                if k in PYTHON_NAMES:
                    better = pick(f" (write {PYTHON_NAMES[k]!r})", f"（写 {PYTHON_NAMES[k]!r}）")
                problems.append(
                    pick(
                        f"{name!r}: property {prop!r} has type {k!r}, which JSON Schema does not know{better}.",
                        f"{name!r}：属性 {prop!r} 的类型是 {k!r}，JSON Schema 不认识它{better}。",
                    )
                )
    return problems
