"""Notebook 03's checks: the dispatch map reaches every tool, and ``run_edit`` refuses an ambiguous edit."""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...offline import call, say
from ...tools import Toolbox, check_tools
from ..exercise import description_problem, schema_shape_problems
from ..language import current, pick
from .scripted import EDIT_FILE, has_number, model_read, not_text, remove_folder, returned, run_loop
from .verdict import Verdict, blank, check, crash


def _input_dict_problems(
    TOOLS: list[dict], TOOL_HANDLERS: dict[str, Callable[..., Any]]
) -> list[str]:
    """Handlers written ``lambda kw: ...``: one parameter, no ``**kwargs``, named after no argument of the schema."""
    problems = []
    for spec in TOOLS:
        tool, handler = spec.get("name"), TOOL_HANDLERS.get(spec.get("name"))
        try:
            params = list(inspect.signature(handler).parameters.values())
        except (TypeError, ValueError):
            continue
        wanted = sorted((spec.get("input_schema") or {}).get("properties") or {})
        if (
            len(params) == 1
            and params[0].kind is not params[0].VAR_KEYWORD
            and params[0].name not in wanted
        ):
            problems.append(
                pick(
                    f"TOOL_HANDLERS[{tool!r}] takes one argument, {params[0].name!r}, which the schema does not "
                    f"have (it has {wanted}): dispatch calls handler(**input), each argument as a keyword, so "
                    "write `lambda **kw: ...` or name the parameter as the schema does.",
                    f"TOOL_HANDLERS[{tool!r}] 只接收一个参数 {params[0].name!r}，schema 里却没有它"
                    f"（schema 里是 {wanted}）：分发时调用的是 handler(**input)，每个参数都以关键字传入，"
                    "所以要写 `lambda **kw: ...`，或者按 schema 给参数起名。",
                )
            )
    return problems


def _shape_problem(TOOLS: Any, TOOL_HANDLERS: Any) -> Verdict | None:
    """A blank, or structures of the wrong kind, said before anything runs."""
    if not isinstance(TOOL_HANDLERS, dict):
        return Verdict(
            False,
            pick(
                f"TOOL_HANDLERS should be a dict (name -> function); it is {type(TOOL_HANDLERS).__name__}.",
                f"TOOL_HANDLERS 应该是一个字典（名字 -> 函数）；它是 {type(TOOL_HANDLERS).__name__}。",
            ),
        )
    if any(t is Ellipsis for t in TOOLS) or any(h is Ellipsis for h in TOOL_HANDLERS.values()):
        return blank(
            pick("a schema or a handler is still `...`.", "还有 schema 或处理函数是 `...`。")
        )
    not_dicts = [t for t in TOOLS if not isinstance(t, dict)]
    if not_dicts:
        return Verdict(
            False,
            pick(
                f"every entry of TOOLS must be a dict (name, description, input_schema); one is {not_dicts[0]!r:.100}",
                f"TOOLS 的每一项都必须是字典（name、description、input_schema）；有一项是 {not_dicts[0]!r:.100}",
            ),
        )
    not_callable = [n for n, h in TOOL_HANDLERS.items() if not callable(h)]
    if not_callable:
        return Verdict(
            False,
            pick(
                f"TOOL_HANDLERS[{not_callable[0]!r}] must be a function; it is {TOOL_HANDLERS[not_callable[0]]!r:.100}",
                f"TOOL_HANDLERS[{not_callable[0]!r}] 必须是一个函数；它是 {TOOL_HANDLERS[not_callable[0]]!r:.100}",
            ),
        )
    missing = [t.get("name") for t in TOOLS if t.get("name") not in TOOL_HANDLERS]
    if missing and len(TOOL_HANDLERS) <= 1:
        return blank(
            pick("TOOL_HANDLERS has no entry yet for", "TOOL_HANDLERS 里还没有这一项：")
            + f" {', '.join(map(str, missing))}."
        )
    return None


@check
def check_dispatch_map(TOOLS: list[dict], TOOL_HANDLERS: dict[str, Callable[..., Any]]) -> Verdict:
    """Exercise: fill in the dispatch map; every tool the menu offers is reachable and works in the loop."""
    shape = _shape_problem(TOOLS, TOOL_HANDLERS)
    if shape is not None:
        return shape
    problems = check_tools(TOOLS, TOOL_HANDLERS, current())
    problems += [p for s in TOOLS if (p := description_problem(s.get("name"), s))]
    problems += [p for s in TOOLS for p in schema_shape_problems(s.get("name"), s)]
    problems += _input_dict_problems(TOOLS, TOOL_HANDLERS)
    name = f"dispatch-check-{os.getpid()}.txt"
    steps = {
        "write_file": {"path": name, "content": "alpha\n"},
        "edit_file": {"path": name, "old_text": "alpha", "new_text": "beta"},
        "read_file": {"path": name},
        "glob": {"pattern": "dispatch-check-*.txt"},
        "bash": {"command": f"rm {name}"},
    }
    if not problems:
        problems = _optional_but_needed(TOOLS, TOOL_HANDLERS, steps)
    if problems:
        return Verdict(
            False,
            pick(
                "TOOLS and TOOL_HANDLERS are not ready for the model.",
                "TOOLS 和 TOOL_HANDLERS 还不能交给模型。",
            ),
            problems,
        )
    answers: dict[str, tuple[Any, str]] = {}
    state = run_loop(
        Toolbox.from_dicts(TOOLS, _recording(TOOL_HANDLERS, answers)),
        "Use every tool once",
        *(call(tool, **arguments) for tool, arguments in steps.items()),
        say(pick("All five tools answered.", "五个工具都回答了。")),
    )
    seen = [e for e in state.events if e.kind == "tool_ran"]
    bad = [
        f"{e.name}({e.input}) -> {e.output!r:.120}"
        for e in seen
        if e.is_error or str(e.output).startswith("Error")
    ]
    bad += [
        p for tool, (value, printed) in answers.items() if (p := not_text(tool, value, printed))
    ]
    listed = any(name in str(e.output) for e in seen if e.name == "glob")
    if not listed and not any(b.startswith("glob") for b in bad):
        bad.append(
            pick(
                f"glob({steps['glob']}) should list {name!r}: is glob wired to run_glob with the pattern?",
                f"glob({steps['glob']}) 应列出 {name!r}：glob 有没有带着 pattern 接到 run_glob 上？",
            )
        )
    if not any("beta" in str(e.output) for e in seen if e.name == "read_file"):
        bad.append(
            pick(
                "read_file after the edit should show 'beta': is edit_file wired to run_edit with old_text and new_text?",
                "编辑之后 read_file 应显示 'beta'：edit_file 有没有带着 old_text 和 new_text 接到 run_edit 上？",
            )
        )
    if bad:
        return Verdict(
            False,
            pick(
                "in the loop, some tools did not answer as they should:",
                "在循环里，有些工具没有给出应有的回答：",
            ),
            bad,
        )
    return Verdict(
        True,
        pick(
            "the model called all five tools by name, and each reached its function: ",
            "模型按名字调用了全部五个工具，每个都到达了它的函数：",
        )
        + ", ".join(e.name for e in seen)
        + pick(".", "。"),
    )


def _recording(
    handlers: dict[str, Callable[..., Any]], answers: dict[str, tuple[Any, str]]
) -> dict[str, Callable[..., Any]]:
    """The handlers, each keeping what it last returned and printed in ``answers``."""

    def recorded(tool: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(handler)
        def run(*args: Any, **kwargs: Any) -> Any:
            answers[tool] = returned(lambda: handler(*args, **kwargs))
            return answers[tool][0]

        return run

    return {tool: recorded(tool, handler) for tool, handler in handlers.items()}


def _optional_but_needed(
    TOOLS: list[dict], TOOL_HANDLERS: dict[str, Callable[..., Any]], steps: dict[str, dict]
) -> list[str]:
    """Arguments the schema lets the model leave out, yet the handler fails without."""
    problems = []
    for spec in TOOLS:
        tool, schema = spec.get("name"), spec["input_schema"]
        required = set(schema.get("required") or [])
        left_out = sorted(set(steps.get(tool, {})) - required)
        if not left_out or set(schema.get("properties") or {}) - set(left_out) - required:
            continue
        try:
            TOOL_HANDLERS[tool](**{k: v for k, v in steps[tool].items() if k in required})
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            problems.append(
                pick(
                    f"{tool!r}: the schema lets the model leave out {', '.join(map(repr, left_out))}, but the "
                    f"handler fails without it ({type(e).__name__}: {e}): list it in 'required'.",
                    f"{tool!r}：schema 允许模型不传 {', '.join(map(repr, left_out))}，处理函数没有它却会失败"
                    f"（{type(e).__name__}: {e}）：把它列进 'required'。",
                )
            )
    return problems


@check
def check_edit_refuses_duplicates(run_edit: Callable[..., str], root: str | os.PathLike) -> Verdict:
    """Exercise: ``run_edit`` refuses an ``old_text`` found more than once, names the count, and changes nothing."""
    folder = Path(tempfile.mkdtemp(prefix="edit-check-", dir=root))
    try:
        return _check_edit(run_edit, Path(root).resolve(), folder)
    finally:
        remove_folder(folder)  # leave the learner's workspace as it was


def _check_edit(run_edit: Callable[..., str], root: Path, folder: Path) -> Verdict:
    rel = folder.relative_to(root) if folder.is_relative_to(root) else folder
    twice, once = str(rel / "twice.py"), str(rel / "once.py")
    (folder / "twice.py").write_text("x = 1\nx = 1\ny = 2\n")
    (folder / "once.py").write_text("x = 1\n")
    try:
        refused = run_edit(twice, "x = 1", "x = 9")
        done = run_edit(once, "x = 1", "x = 2")
        missing = run_edit(once, "zzz", "x")
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        verdict = crash(getattr(run_edit, "__name__", "run_edit"), e)
        if not verdict.blank:
            verdict.details.append(
                pick(
                    "a tool answers the model in text: return 'Error: ...' instead of raising "
                    "(run_edit's try/except does)",
                    "工具用文本回答模型：返回 'Error: ...'，而不是抛出异常（run_edit 的 try/except 就是这样做的）",
                )
            )
        return verdict
    name = getattr(run_edit, "__name__", "run_edit")
    for answer in (refused, done, missing):
        if problem := not_text(name, answer, ""):
            return Verdict(
                False,
                pick(
                    f"{problem} Return text for every case, e.g. 'Edited {once}'.",
                    f"{problem}每种情况都要返回文本，例如 'Edited {once}'。",
                ),
            )
    # the folder's random name may hold any digit: read the answers without their paths
    refusal, success = str(refused).replace(twice, "<path>"), str(done).replace(once, "<path>")
    problems = []
    if (folder / "twice.py").read_text() != "x = 1\nx = 1\ny = 2\n":
        problems.append(
            pick(
                f"the file with two matches was changed to {(folder / 'twice.py').read_text()!r}; refuse before writing",
                f"匹配两处的文件被改成了 {(folder / 'twice.py').read_text()!r}；要在写入之前拒绝",
            )
        )
    if not has_number(refusal, 2) or refusal == success:
        problems.append(
            pick(
                f"for two matches, refuse with an error that says how many (2); it returned {refused!r}",
                f"匹配两处时，要用一个说明次数（2）的错误拒绝；它返回的是 {refused!r}",
            )
        )
    if (folder / "once.py").read_text() != "x = 2\n":
        hint = (
            pick(
                " (open it with safe_path(path): the path is relative to the workspace)",
                "（用 safe_path(path) 打开它：路径是相对于工作区的）",
            )
            if "No such file" in str(done)
            else ""
        )
        problems.append(
            pick(
                f"a text found once should still be replaced; the file reads {(folder / 'once.py').read_text()!r} ({done!r}){hint}",
                f"只出现一次的文本仍应被替换；文件内容是 {(folder / 'once.py').read_text()!r}（{done!r}）{hint}",
            )
        )
    elif str(missing).replace(once, "<path>") == success:
        problems.append(
            pick(
                f"a text not found at all should still be an error; it returned {missing!r}, as for a success",
                f"根本找不到的文本仍应是一个错误；它返回的是 {missing!r}，和成功时一样",
            )
        )
    if (escaped := _edits_outside(run_edit, root)) is not None:
        problems.append(escaped)
    if problems:
        return Verdict(
            False,
            pick(
                f"{name} is not there yet.",
                f"{name} 还没写好。",
            ),
            problems,
        )
    edit = {"path": twice, "old_text": "x = 1", "new_text": "x = 9"}
    seen = model_read(run_edit, EDIT_FILE, edit, "It matched twice; I will add context.")
    return Verdict(
        True,
        pick(
            f"two matches are refused with the count, one is replaced; in the loop the model read {seen!r}.",
            f"匹配两处时被拒绝并说出了次数，匹配一处时被替换；在循环里模型读到的是 {seen!r}。",
        ),
    )


def _edits_outside(run_edit: Callable[..., str], root: Path) -> str | None:
    """Why ``run_edit`` is unsafe, when it edits a file beside the workspace through ``../``; else None."""
    try:
        handle, name = tempfile.mkstemp(
            prefix=f"{root.name}-outside-", suffix=".py", dir=root.parent
        )
    except OSError:
        return None  # the folder above the workspace is not writable: nothing to try
    outside = Path(name)
    try:
        os.write(handle, b"x = 1\n")
        os.close(handle)
        with contextlib.suppress(Exception):  # raising is a refusal too: the loop reports it
            run_edit(f"../{outside.name}", "x = 1", "x = 9")
        if outside.read_text() == "x = 1\n":
            return None
        return pick(
            f"run on '../{outside.name}', a file beside the workspace, it changed that file: open "
            "the path with safe_path(path), as run_edit does, so the model cannot edit outside",
            f"对工作区旁边的文件 '../{outside.name}' 调用时，它改动了那个文件：像 run_edit 那样用 "
            "safe_path(path) 打开路径，模型才改不到外面的文件",
        )
    finally:
        outside.unlink(missing_ok=True)
