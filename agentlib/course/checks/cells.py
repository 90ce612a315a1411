"""Which notebook cells raised since the last check, so a check can tell "blank" from "your cell raised".

A cell that raises stops before it assigns anything, so an exercise can still hold its blank
(``...``) although the learner wrote an answer. Inside IPython, the checks watch each cell run
(IPython's ``pre_run_cell`` / ``post_run_cell`` events); elsewhere nothing is watched.
"""

from __future__ import annotations

from typing import Any

_failures: list[tuple[str, BaseException]] = []  # (cell source, error) since the last check
_state = {"shell": None, "check_in_cell": False, "watching_before_cell": False}


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def _before_cell(_info: Any = None) -> None:
    _state["check_in_cell"] = False
    _state["watching_before_cell"] = True


def _after_cell(result: Any) -> None:
    error = result.error_before_exec or result.error_in_exec
    if (
        error is not None and not _state["check_in_cell"]
    ):  # a check's own AssertionError is no learner cell
        _failures.append((result.info.raw_cell, error))


def watch() -> None:
    """Start watching the cells of the running IPython shell (once per shell; nothing outside IPython)."""
    shell = _shell()
    if shell is None or _state["shell"] is shell:
        return
    _failures.clear()
    _state.update(shell=shell, watching_before_cell=False)
    shell.events.register("pre_run_cell", _before_cell)
    shell.events.register("post_run_cell", _after_cell)


def checked() -> None:
    """A check ran in this cell: later checks look only at the cells run after it."""
    _failures.clear()
    _state["check_in_cell"] = True


def last_failure() -> tuple[str, BaseException] | None:
    """The source and error of the last cell that raised since the previous check, or None."""
    shell = _state["shell"]
    if shell is None or shell is not _shell():  # no IPython, or not the shell that was watched
        return None
    if _failures:
        return _failures[-1]
    if _state["watching_before_cell"]:
        return None
    # watching began in this very cell: the cell run just before it is IPython's last result
    result = getattr(shell, "last_execution_result", None)
    error = result and (result.error_before_exec or result.error_in_exec)
    return (result.info.raw_cell, error) if error else None
