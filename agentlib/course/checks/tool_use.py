"""Notebook 03's checks: the dispatch map reaches every tool, and ``run_edit`` refuses an ambiguous edit."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...offline import call, say
from ...tools import Toolbox, check_tools
from ..exercise import description_problem
from ..language import pick
from .scripted import EDIT_FILE, model_read, remove_folder, run_loop
from .verdict import Verdict, blank, check, crash


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
    problems = check_tools(TOOLS, TOOL_HANDLERS)
    problems += [p for s in TOOLS if (p := description_problem(s.get("name"), s))]
    if problems:
        return Verdict(
            False,
            pick(
                "TOOLS and TOOL_HANDLERS are not ready for the model.",
                "TOOLS 和 TOOL_HANDLERS 还不能交给模型。",
            ),
            problems,
        )
    name = f"dispatch-check-{os.getpid()}.txt"
    steps = [
        call("write_file", path=name, content="alpha\n"),
        call("edit_file", path=name, old_text="alpha", new_text="beta"),
        call("read_file", path=name),
        call("glob", pattern="dispatch-check-*.txt"),
        call("bash", command=f"rm {name}"),
    ]
    state = run_loop(
        Toolbox.from_dicts(TOOLS, TOOL_HANDLERS),
        "Use every tool once",
        *steps,
        say("All five tools answered."),
    )
    seen = [e for e in state.events if e.kind == "tool_ran"]
    bad = [
        f"{e.name}({e.input}) -> {e.output!r:.120}"
        for e in seen
        if e.is_error or str(e.output).startswith("Error")
    ]
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
            pick("in the loop, some calls came back as errors:", "在循环里，有些调用返回了错误："),
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
        return crash(getattr(run_edit, "__name__", "run_edit"), e)
    problems = []
    if (folder / "twice.py").read_text() != "x = 1\nx = 1\ny = 2\n":
        problems.append(
            pick(
                f"the file with two matches was changed to {(folder / 'twice.py').read_text()!r}; refuse before writing",
                f"匹配两处的文件被改成了 {(folder / 'twice.py').read_text()!r}；要在写入之前拒绝",
            )
        )
    if "2" not in str(refused) or not str(refused).lower().startswith("error"):
        problems.append(
            pick(
                f"for two matches, return an 'Error: ...' that says how many (2); it returned {refused!r}",
                f"匹配两处时，要返回一个说明次数（2）的 'Error: ...'；它返回的是 {refused!r}",
            )
        )
    if (folder / "once.py").read_text() != "x = 2\n":
        problems.append(
            pick(
                f"a text found once should still be replaced; the file reads {(folder / 'once.py').read_text()!r} ({done!r})",
                f"只出现一次的文本仍应被替换；文件内容是 {(folder / 'once.py').read_text()!r}（{done!r}）",
            )
        )
    if not str(missing).lower().startswith("error"):
        problems.append(
            pick(
                f"a text not found at all should still be an error; it returned {missing!r}",
                f"根本找不到的文本仍应是一个错误；它返回的是 {missing!r}",
            )
        )
    if problems:
        return Verdict(False, pick("run_edit is not there yet.", "run_edit 还没写好。"), problems)
    edit = {"path": twice, "old_text": "x = 1", "new_text": "x = 9"}
    seen = model_read(run_edit, EDIT_FILE, edit, "It matched twice; I will add context.")
    return Verdict(
        True,
        pick(
            f"two matches are refused with the count, one is replaced; in the loop the model read {seen!r}.",
            f"匹配两处时被拒绝并说出了次数，匹配一处时被替换；在循环里模型读到的是 {seen!r}。",
        ),
    )
