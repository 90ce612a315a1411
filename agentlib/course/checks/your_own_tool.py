"""Notebook 05's check: the learner's own tool, whatever its name, passes ``check_exercise`` and runs in the loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...offline import call, say
from ...tools import Tool, Toolbox
from ..exercise import check_exercise
from ..language import pick
from .scripted import run_loop, text_of
from .verdict import Verdict, blank, check, is_blank, still_blank


def _not_a_toolbox(TOOLS: Any) -> Verdict | None:
    """``TOOLS`` is neither a list of schema dicts nor a ``Toolbox``: say what to write instead."""
    if isinstance(TOOLS, (Toolbox, list, tuple)):
        return None
    if isinstance(TOOLS, Tool) or callable(TOOLS):
        function = TOOLS.handler if isinstance(TOOLS, Tool) else TOOLS
        fn = getattr(function, "__name__", "your_function")
        what = f"{TOOLS.name!r}" if isinstance(TOOLS, Tool) else f"{fn!r}"
        return Verdict(
            False,
            pick(
                f"this is the {'tool' if isinstance(TOOLS, Tool) else 'function'} {what} alone, not a "
                f"toolbox: add it to the course's toolbox, `toolbox = agentlib.s02_tools(ws).add({fn})`.",
                f"这只是{'工具' if isinstance(TOOLS, Tool) else '函数'} {what} 本身，不是工具箱："
                f"把它加进课程的工具箱，`toolbox = agentlib.s02_tools(ws).add({fn})`。",
            ),
        )
    if isinstance(TOOLS, dict):
        return Verdict(
            False,
            pick(
                "this is one schema dict, not a list of them: TOOLS is the course's list plus yours, "
                "`TOOLS = s02.TOOLS + [MY_TOOL]`.",
                "这是一个 schema 字典，不是它们的列表：TOOLS 是课程的列表再加上你的，"
                "`TOOLS = s02.TOOLS + [MY_TOOL]`。",
            ),
        )
    return Verdict(
        False,
        pick(
            f"TOOLS should be a list of schema dicts or a Toolbox; it is {type(TOOLS).__name__} {TOOLS!r:.80}.",
            f"TOOLS 应该是 schema 字典的列表或一个 Toolbox；它是 {type(TOOLS).__name__} {TOOLS!r:.80}。",
        ),
    )


@check
def check_own_tool(
    TOOLS: list[dict] | Toolbox,
    TOOL_HANDLERS: dict[str, Callable[..., Any]] | None,
    *,
    name: Any,
    example: Any,
) -> Verdict:
    """Exercise: the learner's own tool, whatever its name, passes ``check_exercise`` and runs in the loop."""
    if name is Ellipsis or example is Ellipsis or not name:
        return blank(
            pick("TOOL_NAME or EXAMPLE is still `...`.", "TOOL_NAME 或 EXAMPLE 还是 `...`。")
        )
    if TOOLS is Ellipsis:
        return blank(pick("the toolbox is still `...`.", "工具箱还是 `...`。"))
    wrong_kind = _not_a_toolbox(TOOLS)
    if wrong_kind is not None:
        return wrong_kind
    if not isinstance(TOOLS, Toolbox) and any(t is Ellipsis for t in TOOLS):
        return blank(pick("the schema is still `...`.", "schema 还是 `...`。"))
    if not isinstance(example, dict):
        return Verdict(
            False,
            pick(
                f"EXAMPLE should be a dict of arguments, like {{'text': 'a b c'}}; it is {example!r}.",
                f"EXAMPLE 应该是一个参数字典，比如 {{'text': 'a b c'}}；它是 {example!r}。",
            ),
        )
    handlers = TOOLS.TOOL_HANDLERS if isinstance(TOOLS, Toolbox) else (TOOL_HANDLERS or {})
    if callable(handlers.get(name)):
        try:
            handlers[name](**example)
        except NotImplementedError as e:
            if is_blank(e):
                return still_blank(name)
        except Exception:  # noqa: BLE001 - check_exercise below reports the failure in words
            pass
    problems = check_exercise(TOOLS, TOOL_HANDLERS, name=name, example=example)
    if problems:
        return Verdict(
            False,
            pick(f"{name!r} is not ready for the loop.", f"{name!r} 还不能放进循环。"),
            problems,
        )
    box = (
        TOOLS
        if isinstance(TOOLS, Toolbox)
        else Toolbox.from_dicts(list(TOOLS), TOOL_HANDLERS or {})
    )

    def answer(request: dict) -> Any:
        result = request["messages"][-1]["content"][0]
        return say(pick(f"{name} answered: ", f"{name} 的回答：") + str(result.get("content")))

    state = run_loop(box, f"Use the {name} tool on {example}", call(name, **example), answer)
    ran = [e for e in state.events if e.kind == "tool_ran"]
    if not ran or ran[0].is_error:
        return Verdict(
            False,
            pick("in the loop the call came back as an error: ", "在循环里，这次调用返回了错误：")
            + (ran[0].output if ran else pick("no call ran", "没有运行任何调用")),
        )
    return Verdict(
        True,
        pick(
            f"the loop looked {name!r} up by name and ran it: {name}({example}) -> {ran[0].output!r}; "
            f"the model answered {text_of(state.messages[-1]['content'])!r}.",
            f"循环按名字查到了 {name!r} 并运行了它：{name}({example}) -> {ran[0].output!r}；"
            f"模型回答 {text_of(state.messages[-1]['content'])!r}。",
        ),
    )
