"""The instructor's parameters read and checked: ``EXTRA_TOOLS``, ``SCRIPT`` and ``WORKSPACE``.

EXTRA_TOOLS and SCRIPT are given as ``"module:attribute"`` (or ``"path/to/file.py:NAME"``).
Left empty in the notebook, they are read from ``AGENTLIB_EXTRA_TOOLS`` / ``AGENTLIB_SCRIPT``,
so runners that cannot inject parameters (nbmake, ``jupyter nbconvert --execute``) can set them.
"""

from __future__ import annotations

import importlib
import inspect
import os
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..tools import Tool, Toolbox, tool


class ParameterError(ValueError):
    """A notebook parameter cannot be used; the message names the parameter, the module and why."""


def from_env(parameter: str, value: str) -> tuple[str, str]:
    """``(value, label)``: the notebook's value, else ``AGENTLIB_<parameter>`` from the environment."""
    variable = f"AGENTLIB_{parameter}"
    if not (value or "").strip() and os.environ.get(variable, "").strip():
        return os.environ[variable], f"{parameter} (from {variable})"
    return value or "", parameter


def workspace_problem(
    value: Any, kernel_folder: str | os.PathLike[str] | None = None
) -> str | None:
    """Why ``WORKSPACE`` cannot be used, or None: it must be None or an existing absolute folder.

    ``kernel_folder`` is where the kernel runs (a runner checking before it starts one: the
    notebook's folder); by default this process's own folder, which is the kernel's inside it.
    """
    if value is None or value == "":
        return None
    path = Path(os.path.expanduser(str(value)))
    if not path.is_absolute():
        return (
            f"WORKSPACE={str(value)!r} is a relative path, which would be read from the kernel's "
            f"folder ({kernel_folder or os.getcwd()}): give an absolute path, or None for a fresh temporary folder"
        )
    if not path.is_dir():
        return (
            f"WORKSPACE={str(value)!r} is not an existing folder: make it first (the course never "
            "creates a WORKSPACE you name), or leave WORKSPACE = None for a fresh temporary folder"
        )
    return None


def _import(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module.split(".")[0]:
            raise  # the instructor's module was found and failed inside: its own error says it
        relative = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        relative = [p for p in relative if not os.path.isabs(p)]
        hint = (
            f"; PYTHONPATH has relative entries {relative}, read from the kernel's folder: "
            "give PYTHONPATH as an absolute path"
            if relative
            else ""
        )
        raise ModuleNotFoundError(
            f"No module named {e.name!r}; the kernel runs in {os.getcwd()} and looks in "
            f"sys.path = {sys.path}{hint}",
            name=e.name,
        ) from None


def load_object(spec: str) -> Any:
    """``"package.module:attribute"`` -> the attribute; ``"path/to/file.py:NAME"`` also works."""
    where, sep, attribute = spec.strip().rpartition(":")
    if not sep or not where or not attribute:
        raise ValueError(f"expected 'module:attribute', got {spec!r}")
    if where.endswith(".py"):
        file = Path(where).expanduser()
        if not file.is_file():
            read_from = (
                "" if file.is_absolute() else f", read from the kernel's folder {os.getcwd()}"
            )
            raise FileNotFoundError(
                f"no file {where}{read_from}: give the file's absolute path, or put its folder on "
                "PYTHONPATH and name it 'module:attribute'"
            )
        namespace = runpy.run_path(str(file))
        if attribute not in namespace:
            raise ValueError(f"{where} defines no {attribute!r}")
        return namespace[attribute]
    obj = _import(where)
    for part in attribute.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {where!r} has no attribute {attribute!r}")
        obj = getattr(obj, part)
    return obj


def is_factory(obj: Any) -> bool:
    """Whether ``obj`` makes tools from a workspace: a function whose one parameter is a Workspace.

    It is one when that parameter is annotated ``Workspace`` or, unannotated, named ``ws`` or
    ``workspace`` (a tool's parameters always carry a type hint, so the two cannot be confused).
    """
    if isinstance(obj, (Tool, Toolbox)) or not callable(obj) or inspect.isclass(obj):
        return False
    try:
        parameters = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return False
    if len(parameters) != 1:
        return False
    annotation = parameters[0].annotation
    if annotation is inspect.Parameter.empty:
        return parameters[0].name in ("ws", "workspace")
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return name.rsplit(".", 1)[-1] == "Workspace"


def as_tools(obj: Any) -> list[Tool]:
    """A tool, a toolbox, a typed function, or a list of them, as a list of tools."""
    if isinstance(obj, Tool):
        return [obj]
    if isinstance(obj, Toolbox):
        return list(obj)
    if isinstance(obj, (list, tuple)):
        return [t for item in obj for t in as_tools(item)]
    if callable(obj):
        return [tool(obj)]
    raise TypeError(f"not a tool, a toolbox or a typed function: {obj!r}")


def load_tool_sources(spec: str) -> list[Any]:
    """EXTRA_TOOLS: each comma-separated ``module:attribute``, loaded (factories not yet called)."""
    return [load_object(part) for part in spec.split(",") if part.strip()]


def load_tools(spec: str, workspace: Any = None) -> list[Tool]:
    """EXTRA_TOOLS as tools: @tool functions, Toolboxes, lists, or factories called with ``workspace``."""
    return tools_from(load_tool_sources(spec), workspace)


def tools_from(sources: list[Any], workspace: Any) -> list[Tool]:
    """The tools ``sources`` name, each factory called with ``workspace``."""
    tools = []
    for source in sources:
        if is_factory(source):
            if workspace is None:
                raise TypeError(f"{_name(source)} makes tools from a workspace: pass one")
            made = source(workspace)
            try:
                tools += as_tools(made)
            except TypeError as e:
                raise TypeError(
                    f"{_name(source)}(ws) must return tools, a Toolbox or a list of them: {e}"
                ) from None
        else:
            tools += as_tools(source)
    return tools


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


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


def loaded(parameter: str, spec: str, load: Callable[..., Any], *args: Any) -> Any:
    """``load(spec, *args)``, with any failure of the instructor's module said as one ParameterError."""
    try:
        return load(spec, *args)
    except Exception as e:  # whatever the instructor's module raises: name the module and why
        raise ParameterError(f"{parameter}={spec!r}: {type(e).__name__}: {e}") from e
