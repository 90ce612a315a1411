"""The notebooks' parameters read in one place: ``Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT)``."""

from __future__ import annotations

import atexit
import contextlib
import copy
import dataclasses
import difflib
import functools
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import is_tool_error
from ..sandbox import remove_tree
from ..tools import Tool, Toolbox
from . import language
from .exercise import check_exercise
from .language import pick
from .parameters import (
    ParameterError,
    from_env,
    load_script,
    load_tool_sources,
    loaded,
    tools_from,
    workspace_problem,
)

WRITE_A_SCRIPT = (
    "set SCRIPT to 'module:NAME' naming Script(call({name!r}, ...), say('...')) "
    "(README, For instructors), or run with BACKEND='auto' and a key"
)
WHERE_OFFERED = (
    "wherever agentlib.agent_loop runs (its toolbox comes from course.tools(...)); the lesson's "
    "hand-written requests send only the lesson's own TOOLS"
)
WRITE_A_SCRIPT_ZH = (  # the same two, when the course speaks Chinese
    "把 SCRIPT 设为 '模块:名字'，指向 Script(call({name!r}, ...), say('...'))"
    "（README 的 For instructors 一节），或者用 BACKEND='auto' 加一个 key 来运行"
)
WHERE_OFFERED_ZH = (
    "凡是运行 agentlib.agent_loop 的地方（它的工具箱来自 course.tools(...)）；"
    "课里手写的请求只发送这一课自己的 TOOLS"
)


def _tool_problems(label: str, spec: str, extras: list[Tool], course_tools: list[str]) -> list[str]:
    """What is wrong with the instructor's tools, one line each; empty when they are ready."""
    box_problems = []
    names = [t.name for t in extras]
    for name in sorted({n for n in names if names.count(n) > 1}):
        box_problems.append(f"two tools are named {name!r}")
    for name in sorted(set(names) & set(course_tools)):
        box_problems.append(f"{name!r} is already a course tool: give yours another name")
    unique = Toolbox({t.name: t for t in extras}.values())
    for name in unique.names:  # a problem of the whole box comes back for every name: said once
        box_problems += check_exercise(unique, name=name)
    return [f"{label}={spec!r}: {problem}" for problem in dict.fromkeys(box_problems)]


def script_problems(script: Any, toolbox: Toolbox) -> list[str]:
    """Each call in ``script`` that ``toolbox`` cannot run: an unknown tool, or input its schema refuses."""
    import pydantic

    from ..offline.script import Reply
    from ..tool_checks import schema_problems
    from ..tools import _brief  # dispatch's own wording of a refused input

    problems = []
    for number, item in enumerate(script.queue, 1):
        blocks = item.content if isinstance(item, Reply) else []  # a function decides at run time
        for block in (b for b in blocks if b.get("type") == "tool_use"):
            called = f"reply {number}, call({block['name']!r}, {block.get('input', {})})"
            if block["name"] not in toolbox.names:
                offered = ", ".join(toolbox.names) or "none"
                close = difflib.get_close_matches(block["name"], toolbox.names, n=1)
                meant = f"; did you mean {close[0]!r}?" if close else ""
                problems.append(f"{called}: no such tool here (tools: {offered}){meant}")
                continue
            t = toolbox[block["name"]]
            if t.input_model is not None:
                try:
                    t.input_model.model_validate(block.get("input", {}))
                except pydantic.ValidationError as e:
                    problems.append(f"{called}: the schema refuses it: {_brief(e)}")
            else:
                found = schema_problems(t.input_schema, block.get("input", {}))
                if found:
                    problems.append(f"{called}: the schema refuses it: {'; '.join(found)}")
    last = script.queue[-1] if script.queue else None
    if script.strict and isinstance(last, Reply) and last.stop_reason == "tool_use":
        problems.append(  # its result goes back to the model, and no reply is left to answer it
            f"reply {len(script.queue)} calls a tool and is the last: end the script with "
            "say('...') so the run can finish"
        )
    return problems


def _left_there(root: Path) -> str | None:
    """A named WORKSPACE that is not empty: said, since the lessons' cells expect a fresh folder."""
    with os.scandir(root) as entries:
        names = sorted(e.name for e in entries)
    if not names:
        return None
    shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
    return pick(
        f"WORKSPACE {root} already holds {len(names)} entries ({shown}): the lessons expect an "
        "empty folder, and what an earlier run left there (a link where a folder was) can make "
        "a cell fail; give an empty folder, or WORKSPACE = None for a fresh one.",
        f"WORKSPACE {root} 里已经有 {len(names)} 个条目（{shown}）：课程需要一个空目录，之前的运行"
        "留下的东西（原来是目录的地方变成了一个链接）可能让某个单元格失败；给一个空目录，"
        "或者用 WORKSPACE = None 得到一个新的。",
    )


def _remove_at_exit(path: str) -> None:
    with contextlib.suppress(OSError):  # the kernel is ending: nothing left to tell
        remove_tree(path)


class Course:
    """One notebook's set-up from its parameters: client, workspace, toolboxes, instructor script.

    Construction checks WORKSPACE, EXTRA_TOOLS and SCRIPT at once (raising ParameterError naming
    the parameter and the module) and prints one short line per fact worth saying. A workspace
    it makes (WORKSPACE=None) and the folders ``temporary_folder`` makes are removed when the
    kernel ends; a WORKSPACE you name is never removed.
    """

    def __init__(
        self,
        backend: str = "offline",
        workspace: str | Path | None = None,
        extra_tools: str = "",
        script: str = "",
        *,
        name: str = "course",
        lang: str = "en",
    ) -> None:
        from .. import connect
        from ..client import is_offline, next_start_problems
        from ..course_tools import s02_tools
        from ..sandbox import Workspace

        try:
            language.use(lang)  # Course's lines, the checks and expect_error speak it from here on
        except ValueError as e:
            raise ParameterError(str(e)) from e
        self.lang = lang
        problem = workspace_problem(workspace)
        if problem:
            raise ParameterError(problem)
        if workspace and (risks := next_start_problems(workspace)):
            # the kernel's .env and import path are outside the sandbox: the model must not write them
            raise ParameterError(
                f"WORKSPACE={str(workspace)!r} cannot be used: " + "; ".join(risks)
            )
        self.extra_tools_spec, self.extra_tools_label = from_env("EXTRA_TOOLS", extra_tools)
        self.script_spec, self.script_label = from_env("SCRIPT", script)
        sources = loaded(self.extra_tools_label, self.extra_tools_spec, load_tool_sources)
        self.script = loaded(self.script_label, self.script_spec, load_script)
        self.tool_failures: list[str] = []  # what the instructor's tools raised, in order
        self.tool_notes: dict[str, str] = {}  # a tool that returned something other than text
        self._made: list[str] = []
        self._name = name
        root = (
            os.path.expanduser(str(workspace)) if workspace else self.temporary_folder("workspace")
        )
        try:
            self.workspace = Workspace(root)
            made = loaded(
                self.extra_tools_label,
                self.extra_tools_spec,
                lambda _: tools_from(sources, self.workspace),
            )
            self.extras: list[Tool] = [self._recording(t) for t in made]
            course_tools = s02_tools(self.workspace)
            problems = _tool_problems(
                self.extra_tools_label, self.extra_tools_spec, self.extras, course_tools.names
            )
            if self.script is not None and not problems:
                widest = Toolbox([*course_tools, *self.extras])
                problems += [
                    f"{self.script_label}={self.script_spec!r}: {p}"
                    for p in script_problems(self.script, widest)
                ]
            if problems:
                raise ParameterError("\n".join(problems))
            self.client, self.model = connect(backend=backend, lang=lang)
        except BaseException:
            self.remove_temporary_folders()  # a set-up that fails leaves no temporary folder behind
            raise
        self.offline = is_offline(self.model)
        facts = [_left_there(self.workspace.root)] if workspace else []
        for line in [*filter(None, facts), *self._facts()]:
            print(f"agentlib: {line}")

    def temporary_folder(self, purpose: str) -> Path:
        """A fresh temporary folder, removed when the kernel ends (e.g. an 'outside' folder for an attack)."""
        prefix = f"{self._name}-{purpose}-"  # published pages show it as <purpose> (runner.py)
        path = tempfile.mkdtemp(prefix=prefix)
        if not self._made:
            atexit.register(self.remove_temporary_folders)
        self._made.append(path)
        return Path(path)

    def remove_temporary_folders(self) -> None:
        """Remove the workspace and folders this course made (never a WORKSPACE you named)."""
        while self._made:
            _remove_at_exit(self._made.pop())

    def _recording(self, extra: Tool) -> Tool:
        """``extra`` with a handler that notes what it raised, so a run that hid a crash still fails."""

        @functools.wraps(extra.handler)
        def handler(*args: Any, **kwargs: Any) -> Any:
            try:
                value = extra.handler(*args, **kwargs)
            except Exception as e:
                if not is_tool_error(e):  # a tool's message to the model is its job, not a crash
                    raised = f"{type(e).__name__}: {e}"
                    self.tool_failures.append(
                        pick(f"{extra.name} raised {raised}", f"{extra.name} 抛出了 {raised}")
                    )
                raise
            if not isinstance(value, str):  # the loop makes it text: say so, once per tool
                self.tool_notes.setdefault(extra.name, _not_text(extra.name, value))
            return value

        return dataclasses.replace(extra, handler=handler)

    def _facts(self) -> list[str]:
        if not self.extras:
            return []
        names = ", ".join(t.name for t in self.extras)
        label, spec, where = (
            self.extra_tools_label,
            self.script_spec,
            pick(WHERE_OFFERED, WHERE_OFFERED_ZH),
        )
        facts = [
            pick(
                f"instructor tools {names} ({label}) are offered {where}.",
                f"讲师的工具 {names}（{label}）会提供给模型，{where}。",
            )
        ]
        if self.script is not None:
            facts.append(
                pick(
                    f"{self.script_label}={spec!r} runs in the section 'For instructors'.",
                    f"{self.script_label}={spec!r} 会在“讲师专用”一节里运行。",
                )
            )
        elif self.offline:
            how = pick(WRITE_A_SCRIPT, WRITE_A_SCRIPT_ZH).format(name=self.extras[0].name)
            facts.append(
                pick(
                    f"offline without SCRIPT nothing will call {names}: {how}.",
                    f"离线且没有 SCRIPT 时，不会有谁调用 {names}：{how}。",
                )
            )
        return facts

    def tools(self, toolbox: Toolbox) -> Toolbox:
        """``toolbox`` with the instructor's EXTRA_TOOLS added (returned, for chaining)."""
        for extra in self.extras:
            if extra.name in toolbox.names and toolbox[extra.name] is extra:
                continue  # already added: calling tools() twice on one toolbox is harmless
            try:
                toolbox.add(extra)
            except ValueError as e:
                raise ParameterError(
                    f"{self.extra_tools_label}={self.extra_tools_spec!r}: {e}"
                ) from e
        return toolbox

    def run_script(self, tools: Toolbox, *, system: str | None = None):
        """The instructor section: run SCRIPT on the offline model with ``tools`` + EXTRA_TOOLS.

        Returns the loop's state, or None when no SCRIPT is set. Each call starts the script
        from its first reply, so the cell can be run again. Raises ``InstructorRunFailed`` when
        an instructor's tool raised (here or in an earlier cell), a call in the script came back
        as an error, or the run did not follow the script to its end.
        """
        from ..loop import agent_loop
        from ..offline import offline_client

        failures = list(self.tool_failures)
        if self.script is None:
            if failures:
                raise InstructorRunFailed(failures)
            return None
        box = self.tools(tools)
        problems = script_problems(self.script, box)
        if problems:
            raise ParameterError(
                "\n".join(f"{self.script_label}={self.script_spec!r}: {p}" for p in problems)
            )
        script = copy.deepcopy(self.script)
        client, model = offline_client(script)
        messages = [{"role": "user", "content": "Instructor's script"}]
        state = agent_loop(messages, client=client, model=model, tools=box, system=system)
        failures = list(self.tool_failures)
        failures += [
            pick(
                f"{e.name}({e.input}) came back as an error: {e.output}",
                f"{e.name}({e.input}) 返回了错误：{e.output}",
            )
            for e in state.events
            if e.kind == "tool_ran" and e.is_error and not any(e.name in f for f in failures)
        ]
        if state.stop_reason != "end_turn" or script.remaining:
            failures.append(
                pick(
                    f"the run stopped ({state.why}) with {script.remaining} scripted replies unused",
                    f"运行停下了（{state.why}），还有 {script.remaining} 条写好的回复没有用上",
                )
            )
        for note in self.tool_notes.values():
            print(f"agentlib: {note}")
        if failures:
            raise InstructorRunFailed(failures)
        return state


def _not_text(name: str, value: Any) -> str:
    from ..tools import _as_text  # what the loop sends the model in its place

    read = _as_text(value)[:80]
    return pick(
        f"{name} returned {type(value).__name__}, not a string; the model read the text {read!r}. "
        "Return a string to choose what it reads.",
        f"{name} 返回的是 {type(value).__name__}，不是字符串；模型读到的是文本 {read!r}。"
        "返回一个字符串，模型读到什么就由你决定。",
    )


class InstructorRunFailed(RuntimeError):
    """The instructor's run did not go as written: a tool raised, a call failed, the script drifted."""

    def __init__(self, failures: list[str]) -> None:
        self.failures = failures
        head = pick("the instructor's run failed:", "讲师的运行失败了：")
        super().__init__(head + "\n- " + "\n- ".join(failures))
