"""The notebooks' parameters read in one place: ``Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT)``.

EXTRA_TOOLS and SCRIPT are given as ``"module:attribute"`` (or ``"path/to/file.py:NAME"``).
Left empty in the notebook, they are read from ``AGENTLIB_EXTRA_TOOLS`` / ``AGENTLIB_SCRIPT``,
so runners that cannot inject parameters (nbmake, ``jupyter nbconvert --execute``) can set them.
"""

from __future__ import annotations

import copy
import importlib
import os
import runpy
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..tools import Tool, Toolbox, tool
from . import language
from .exercise import check_exercise
from .language import pick

WRITE_A_SCRIPT = (
    "set SCRIPT to 'module:NAME' naming Script(call({name!r}, ...), say('...')) "
    "(README, For instructors), or run with BACKEND='auto' and a key",
    "把 SCRIPT 设为 '模块:名字'，指向 Script(call({name!r}, ...), say('...'))"
    "（README 的 For instructors 一节），或者用 BACKEND='auto' 加一个 key 来运行",
)


def from_env(parameter: str, value: str) -> tuple[str, str]:
    """``(value, label)``: the notebook's value, else ``AGENTLIB_<parameter>`` from the environment."""
    variable = f"AGENTLIB_{parameter}"
    if not (value or "").strip() and os.environ.get(variable, "").strip():
        return os.environ[variable], f"{parameter} (from {variable})"
    return value or "", parameter


class ParameterError(ValueError):
    """A notebook parameter cannot be used; the message names the parameter, the module and why."""


def load_object(spec: str) -> Any:
    """``"package.module:attribute"`` -> the attribute; ``"path/to/file.py:NAME"`` also works."""
    where, sep, attribute = spec.strip().rpartition(":")
    if not sep or not where or not attribute:
        raise ValueError(f"expected 'module:attribute', got {spec!r}")
    if where.endswith(".py"):
        namespace = runpy.run_path(str(Path(where).expanduser()))
        if attribute not in namespace:
            raise ValueError(f"{where} defines no {attribute!r}")
        return namespace[attribute]
    obj = importlib.import_module(where)
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {where!r} has no attribute {attribute!r}")
        obj = getattr(obj, part)
    return obj


def _as_tools(obj: Any) -> list[Tool]:
    if isinstance(obj, Tool):
        return [obj]
    if isinstance(obj, Toolbox):
        return list(obj)
    if isinstance(obj, (list, tuple)):
        return [t for item in obj for t in _as_tools(item)]
    if callable(obj):
        return [tool(obj)]
    raise TypeError(f"not a tool, a toolbox or a typed function: {obj!r}")


def load_tools(spec: str) -> list[Tool]:
    """EXTRA_TOOLS: comma-separated ``module:attribute`` of @tool functions, Toolboxes or lists."""
    return [t for part in spec.split(",") if part.strip() for t in _as_tools(load_object(part))]


def load_script(spec: str):
    """SCRIPT: ``module:attribute`` of an offline ``Script`` or a list of replies; None when empty."""
    from ..offline import Script

    if not spec.strip():
        return None
    obj = load_object(spec)
    if isinstance(obj, Script):
        return obj
    if isinstance(obj, (list, tuple)):
        return Script(*obj)
    raise TypeError(f"SCRIPT must name a Script or a list of replies, got {type(obj).__name__}")


def _loaded(parameter: str, spec: str, load):
    """``load(spec)``, with any failure of the instructor's module said as one ParameterError."""
    try:
        return load(spec)
    except Exception as e:  # whatever the instructor's module raises: name the module and why
        raise ParameterError(f"{parameter}={spec!r}: {type(e).__name__}: {e}") from e


def _tool_problems(label: str, spec: str, extras: list[Tool], course_tools: list[str]) -> list[str]:
    """What is wrong with the instructor's tools, one line each; empty when they are ready."""
    box_problems = []
    names = [t.name for t in extras]
    for name in sorted({n for n in names if names.count(n) > 1}):
        box_problems.append(f"two tools are named {name!r}")
    for name in sorted(set(names) & set(course_tools)):
        box_problems.append(f"{name!r} is already a course tool: give yours another name")
    unique = Toolbox({t.name: t for t in extras}.values())
    for name in unique.names:
        box_problems += check_exercise(unique, name=name)
    return [f"{label}={spec!r}: {problem}" for problem in box_problems]


class Course:
    """One notebook's set-up from its parameters: client, workspace, toolboxes, instructor script.

    Construction checks EXTRA_TOOLS and SCRIPT at once (raising ParameterError naming the
    module) and prints one short line per fact worth saying.
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
        from ..course_tools import s02_tools
        from ..offline.simulator import OFFLINE_BASE_URL
        from ..sandbox import Workspace

        try:
            language.use(lang)  # Course's lines, the checks and expect_error speak it from here on
        except ValueError as e:
            raise ParameterError(str(e)) from e
        self.lang = lang
        self.extra_tools_spec, self.extra_tools_label = from_env("EXTRA_TOOLS", extra_tools)
        self.script_spec, self.script_label = from_env("SCRIPT", script)
        self.extras: list[Tool] = _loaded(self.extra_tools_label, self.extra_tools_spec, load_tools)
        self.script = _loaded(self.script_label, self.script_spec, load_script)
        made = None if workspace else tempfile.mkdtemp(prefix=f"{name}-")
        try:
            self.workspace = Workspace(workspace or made)
            course_tools = s02_tools(self.workspace).names
            problems = _tool_problems(
                self.extra_tools_label, self.extra_tools_spec, self.extras, course_tools
            )
            if problems:
                raise ParameterError("\n".join(problems))
            self.client, self.model = connect(backend=backend)
        except BaseException:
            if made is not None:  # a set-up that fails leaves no temporary folder behind
                shutil.rmtree(made, ignore_errors=True)
            raise
        self.offline = str(self.client.base_url).startswith(OFFLINE_BASE_URL)  # in-process model
        for line in self._facts():
            print(f"agentlib: {line}")

    def _facts(self) -> list[str]:
        if not self.extras:
            return []
        names = ", ".join(t.name for t in self.extras)
        label, spec = self.extra_tools_label, self.script_spec
        facts = [
            pick(
                f"instructor tools {names} ({label}) join every toolbox.",
                f"讲师的工具 {names}（{label}）会加入每一个工具箱。",
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
            how = pick(*WRITE_A_SCRIPT).format(name=self.extras[0].name)
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
        from its first reply, so the cell can be run again.
        """
        from ..loop import agent_loop
        from ..offline import offline_client

        if self.script is None:
            return None
        client, model = offline_client(copy.deepcopy(self.script))
        messages = [{"role": "user", "content": "Instructor's script"}]
        return agent_loop(
            messages, client=client, model=model, tools=self.tools(tools), system=system
        )
