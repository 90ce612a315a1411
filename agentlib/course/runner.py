"""Execute a notebook with nbclient, papermill-style parameters, offline unless asked otherwise."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..client import FORCE_OFFLINE, SETTINGS

PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"
RAISES_TAG = "raises-exception"


@dataclass
class CellFailure:
    """The cell that stopped a run (or a cell tagged to raise that did not)."""

    index: int
    source: str
    error: str

    def __str__(self) -> str:
        excerpt = "\n".join("    " + line for line in self.source.strip().splitlines()[:8])
        return f"cell {self.index}:\n{excerpt}\n  -> {self.error}"


@dataclass
class NotebookRun:
    """What executing one notebook produced: the executed notebook, its time, its failures."""

    path: Path
    notebook: Any
    duration_s: float
    failures: list[CellFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every cell ran as expected."""
        return not self.failures

    def report(self) -> str:
        """One line per notebook, then each failing cell."""
        head = f"{'PASS' if self.ok else 'FAIL'} {self.path.name} ({self.duration_s:.1f}s)"
        return "\n".join([head, *(str(f) for f in self.failures)])

    def code_cells(self, tag: str | None = None) -> list[Any]:
        """The executed code cells, optionally only those carrying ``tag``."""
        return [
            c
            for c in self.notebook.cells
            if c.cell_type == "code" and (tag is None or tag in c.metadata.get("tags", []))
        ]

    def outputs(self, output_type: str | None = None) -> list[Any]:
        """Every output of every code cell, in order (optionally of one type, e.g. 'error')."""
        return [
            o
            for c in self.code_cells()
            for o in c.get("outputs", [])
            if output_type is None or o.output_type == output_type
        ]

    def text(self) -> str:
        """All printed text and text/plain results, for ``in`` checks.

        Streams are joined as printed (a line split across two stream chunks stays whole);
        each result and error stands on lines of its own.
        """
        parts = []
        for o in self.outputs():
            if o.output_type == "stream":
                parts.append(o.text)
            elif o.output_type in ("execute_result", "display_data"):
                parts.append("\n" + o.get("data", {}).get("text/plain", "") + "\n")
            elif o.output_type == "error":
                parts.append(f"\n{o.ename}: {o.evalue}\n")
        return "".join(parts)


def _literal(value: Any) -> str:
    return repr(str(value)) if isinstance(value, Path) else repr(value)


def inject_parameters(nb: Any, parameters: dict[str, Any]) -> Any:
    """Insert a cell assigning ``parameters`` right after the ``parameters``-tagged cell (papermill style)."""
    import nbformat

    lines = ["# Parameters injected at run time"]
    lines += [f"{name} = {_literal(value)}" for name, value in parameters.items()]
    cell = nbformat.v4.new_code_cell("\n".join(lines), metadata={"tags": [INJECTED_TAG]})
    cells = [c for c in nb.cells if INJECTED_TAG not in c.metadata.get("tags", [])]
    at = next(
        (i + 1 for i, c in enumerate(cells) if PARAMETERS_TAG in c.metadata.get("tags", [])), 0
    )
    cells.insert(at, cell)
    nb.cells = cells
    return nb


def kernel_env(env: dict[str, str] | None = None, *, live: bool = False) -> dict[str, str]:
    """The kernel's environment: ours without ANTHROPIC_* secrets, then ``env``; forced offline.

    Unless ``live``, ``AGENTLIB_FORCE_OFFLINE=1`` makes ``connect()`` pick the offline model
    whatever ``.env``, ``env`` or a notebook's ``BACKEND`` say, and the caller's model
    settings (``MODEL_ID``, ``AGENTLIB_BACKEND``) are dropped.
    """
    base = dict(os.environ)
    base.pop(FORCE_OFFLINE, None)  # a live run is live even when started from a forced one
    if not live:  # the forced offline alone decides; the kernel shows no setting the learner lacks
        base = {k: v for k, v in base.items() if not k.startswith("ANTHROPIC_")}
        base = {k: v for k, v in base.items() if k not in SETTINGS}
    base.update(env or {})
    if not live:
        base[FORCE_OFFLINE] = "1"
    # kernels start in the notebook's folder: a relative PYTHONPATH entry (".") means the
    # caller's folder, where the instructor's tool module lives
    if base.get("PYTHONPATH"):
        parts = base["PYTHONPATH"].split(os.pathsep)
        base["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) if p else p for p in parts)
    return base


def published(nb: Any, tmpdir: str) -> Any:
    """``nb`` with each temporary folder the run made under ``tmpdir`` written as ``<purpose>``.

    Course names its folders ``<notebook>-<purpose>-<8 random characters>`` (``setup-workspace-
    k2j4x9ab``): a page shows ``<workspace>/hello.py``, not one machine's temporary path. What
    is left of ``tmpdir`` (a path cut short for display) is written as ``<tmp>``.
    """
    import re

    made = re.compile(re.escape(tmpdir.rstrip("/")) + r"/(?:[\w-]*?-)?(\w+)-[a-z0-9_]{8}(?![\w-])")

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return made.sub(r"<\1>", value).replace(tmpdir.rstrip("/"), "<tmp>")
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return type(value)({k: rewrite(v) for k, v in value.items()})
        return value

    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = rewrite(cell.outputs)
    return nb


def parameter_names(nb: Any) -> list[str]:
    """The names the ``parameters``-tagged cell assigns, in order (empty without such a cell)."""
    import ast

    cell = next((c for c in nb.cells if PARAMETERS_TAG in c.metadata.get("tags", [])), None)
    if cell is None:
        return []
    names = []
    for node in ast.parse(cell.source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def parameter_problems(
    nb: Any, parameters: dict[str, Any], kernel_folder: str | os.PathLike[str] | None = None
) -> list[str]:
    """Why ``parameters`` cannot be given to ``nb``: names its parameters cell lacks, a bad WORKSPACE.

    ``kernel_folder``: where the kernel will run, named when a relative WORKSPACE is refused.
    """
    import difflib

    from .parameters import workspace_problem

    known = parameter_names(nb)
    problems = []
    for name in (n for n in parameters if n not in known):
        close = difflib.get_close_matches(name.upper(), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        problems.append(
            f"unknown parameter {name!r}{hint}: this notebook's parameters are "
            f"{', '.join(known) or 'none'}"
        )
    problem = workspace_problem(parameters.get("WORKSPACE"), kernel_folder)
    return problems + ([problem] if problem else [])


def _failures(nb: Any, error: Exception | None, timeout: int) -> list[CellFailure]:
    from nbclient.exceptions import CellTimeoutError

    failures = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.get("outputs", []) if o.output_type == "error"]
        expects = RAISES_TAG in cell.metadata.get("tags", [])
        if errors and not expects:
            said = f"{errors[0].ename}: {errors[0].evalue}"
            if isinstance(error, CellTimeoutError) and errors[0].ename == "KeyboardInterrupt":
                said = f"cell {index} timed out after {timeout} s"  # nbclient interrupted it
            failures.append(CellFailure(index, cell.source, said))
        elif expects and not errors and cell.get("execution_count") is not None:
            failures.append(
                CellFailure(index, cell.source, "tagged raises-exception but raised nothing")
            )
    if error is not None and not failures:
        said = f"{type(error).__name__}: {error}"
        if isinstance(error, CellTimeoutError):
            ran = [i for i, c in enumerate(nb.cells) if c.get("execution_count") is not None]
            index = ran[-1] if ran else -1
            said = f"cell {index} timed out after {timeout} s"
            return [CellFailure(index, nb.cells[index].source if ran else "", said)]
        failures.append(CellFailure(-1, "", said))
    return failures


def _never_started(error: Exception | None, nb) -> bool:
    """The kernel died before its first reply, so no cell ran (another process took a port
    jupyter_client had picked for it before the kernel bound it): starting again is safe."""
    ran = any(cell.get("execution_count") for cell in nb.cells if cell.cell_type == "code")
    return isinstance(error, RuntimeError) and "before replying" in str(error) and not ran


def run_notebook(
    path: str | os.PathLike[str],
    parameters: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    *,
    timeout: int = 300,
    live: bool = False,
    kernel_name: str = "python3",
    cwd: str | os.PathLike[str] | None = None,
    solutions: bool = False,
) -> NotebookRun:
    """Execute a notebook top to bottom and return what it produced.

    Offline by default: the kernel gets no ``ANTHROPIC_*`` variables and is forced offline
    (``live=True`` keeps the caller's environment). ``env`` is added to the kernel's
    environment but cannot lift the forced offline. ``timeout`` is per cell, in seconds. The kernel runs in the notebook's folder
    unless ``cwd`` says otherwise, with the interpreter running this function.
    ``solutions=True`` runs each ``exercise`` cell with its ``solution`` cell's code instead.
    Raises ``ParameterError``, before any kernel starts, for a parameter the notebook's
    ``parameters`` cell does not assign or a WORKSPACE that is relative or does not exist.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if solutions:
        from .solutions import fill_in_solutions

        fill_in_solutions(nb)
    if parameters:
        from .parameters import ParameterError

        problems = parameter_problems(nb, parameters, Path(cwd or path.parent).resolve())
        if problems:
            raise ParameterError(f"{path.name}: " + "; ".join(problems))
        inject_parameters(nb, parameters)
    started = time.perf_counter()
    error: Exception | None = None
    for attempt in range(3):
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name=kernel_name,
            resources={"metadata": {"path": str(cwd or path.parent)}},
            store_widget_state=False,
        )
        try:
            client.execute(env=kernel_env(env, live=live))
        except (CellExecutionError, CellTimeoutError, DeadKernelError, RuntimeError) as e:
            error = e
        if not _never_started(error, nb) or attempt == 2:
            break
        error = None  # the kernel's ports were taken before it bound them: a new kernel
    duration = time.perf_counter() - started
    return NotebookRun(path, nb, duration, _failures(nb, error, timeout))
