"""A check's answer in words (``Verdict``), and the one rule that makes a failing check fail a graded run."""

from __future__ import annotations

import functools
import os
import sysconfig
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..language import pick
from . import bound, cells

WORKS = "✔ It works:"
NOT_YET = "✘ Not yet:"
BLANK = "… Still blank:"
WORKS_ZH, NOT_YET_ZH, BLANK_ZH = (
    "✔ 成功了：",
    "✘ 还不对：",
    "… 还空着：",
)  # when the course speaks Chinese
MODE_VARIABLE = "AGENTLIB_CHECKS"
MODES = ("friendly", "strict")  # friendly: a verdict is shown; strict: one that is not ok raises


@dataclass
class Verdict:
    """What a check found: ``ok`` and the sentences that say why; shown as text in a notebook."""

    ok: bool
    summary: str
    details: list[str] = field(default_factory=list)
    blank: bool = False

    def __str__(self) -> str:
        if self.ok:
            head = pick(WORKS, WORKS_ZH)
        else:
            head = pick(BLANK, BLANK_ZH) if self.blank else pick(NOT_YET, NOT_YET_ZH)
        width = pick(96, 64)  # textwrap counts characters; a Chinese one takes two columns
        lines = textwrap.wrap(
            f"{head} {self.summary}", width, subsequent_indent="  ", break_on_hyphens=False
        )
        for detail in self.details:
            lines += textwrap.wrap(
                detail,
                width,
                initial_indent="  - ",
                subsequent_indent="    ",
                break_on_hyphens=False,
            )
        return "\n".join(lines)

    __repr__ = __str__

    def _ipython_display_(self) -> None:
        # shown as display_data, never as a cell's result: nbgrader reads a graded cell's
        # execute_result as a partial score and warns on every passing check ("cannot be
        # converted to a float ... may treat as error")
        from IPython.display import display

        display({"text/plain": str(self)}, raw=True)


def blank(what: str) -> Verdict:
    then = pick(
        " Fill in the cell above, run it, then run this check again.",
        "把上面的单元格填好并运行，然后再运行这个检查。",
    )
    return Verdict(False, f"{what}{then}", blank=True)


_LIBRARY = tuple(  # folders, with their separator: /lib/python3 is no prefix of /lib/python3-notes
    os.path.join(folder, "")
    for folder in {sysconfig.get_path(p) for p in ("stdlib", "platstdlib", "purelib", "platlib")}
    | {str(Path(__file__).parents[2])}
)


def is_blank(error: BaseException) -> bool:
    """A ``NotImplementedError`` raised by the learner's own cell (the untouched blank), not one a library raised.

    ``Path.glob("/etc/*")`` raises ``NotImplementedError`` too; that is an answer that needs work.
    """
    if not isinstance(error, NotImplementedError):
        return False
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is None or not in_library(tb.tb_frame.f_code.co_filename)


def in_library(filename: str) -> bool:
    """Whether code from ``filename`` is Python's, an installed package's or agentlib's, not the learner's."""
    return filename.startswith(_LIBRARY)


def still_blank(what: str) -> Verdict:
    """The verdict on an untouched blank: ``what`` still raises its ``NotImplementedError``."""
    return blank(
        pick(f"{what} still raises NotImplementedError.", f"{what} 仍然抛出 NotImplementedError。")
    )


def crash(what: str, error: BaseException) -> Verdict:
    """The learner's code raised: the untouched blank's ``NotImplementedError``, or a mistake."""
    if is_blank(error):
        return still_blank(what)
    return Verdict(
        False, pick(f"{what} raised", f"{what} 抛出了") + f" {type(error).__name__}: {error}"
    )


def api_message(error: BaseException) -> str:
    body = getattr(error, "body", None)
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict) and isinstance(detail.get("message"), str):
        status = getattr(error, "status_code", "?")
        return pick(
            f"the API refused the request (HTTP {status}): {detail['message']}",
            f"API 拒绝了这个请求（HTTP {status}）：{detail['message']}",
        )
    return f"{type(error).__name__}: {error}"


def strict() -> bool:
    """Whether ``AGENTLIB_CHECKS=strict``: graders (nbgrader, nbmake, papermill, the runner) then see a failing check fail its cell."""
    mode = os.environ.get(MODE_VARIABLE, "").strip() or "friendly"
    if mode not in MODES:
        raise ValueError(
            f"{MODE_VARIABLE}={mode!r} is not a mode the exercise checks know: use "
            f"{MODE_VARIABLE}=strict (a blank or failing check raises AssertionError) or leave it "
            "unset (checks explain and the notebook carries on)."
        )
    return mode == "strict"


def _cell_raised(verdict: Verdict) -> Verdict:
    """A cell that raised since the last check: a blank is that error, and any other verdict says it ran on what was there before."""
    failed = cells.last_failure()
    if failed is None:
        return verdict
    source, error = failed
    first_line = next((line for line in source.splitlines() if line.strip()), "")
    raised = f" {type(error).__name__}: {error}"
    if not verdict.blank:
        verdict.details.insert(
            0,
            pick(
                f"a cell you ran before this check raised{raised} (it starts {first_line.strip()[:80]!r}): "
                "what it was to define keeps its old value, and this check ran on that. Fix the "
                "error and run that cell again.",
                f"在这个检查之前你运行的一个单元格抛出了{raised}（它的开头是 {first_line.strip()[:80]!r}）："
                "它本该定义的东西还是旧的值，这个检查用的就是旧的值。改掉错误，重新运行那个单元格。",
            ),
        )
        return verdict
    return Verdict(
        False,
        pick("a cell you ran before this check raised", "在这个检查之前你运行的一个单元格抛出了")
        + raised,
        [
            pick(
                f"that cell starts {first_line.strip()[:80]!r}; a cell that raises stops there, so "
                "what it was to define keeps its old value. Fix the error, run that cell again, "
                f"then this check (until then: {verdict.summary})",
                f"那个单元格的开头是 {first_line.strip()[:80]!r}；抛出异常的单元格会在那里停下，"
                "它本该定义的东西还是旧的值。改掉错误，重新运行那个单元格，再运行这个检查"
                f"（在那之前：{verdict.summary}）",
            )
        ],
    )


Check = TypeVar("Check", bound=Callable[..., Verdict])


def check(fn: Check) -> Check:
    """An exercise check: returns its ``Verdict``; with ``AGENTLIB_CHECKS=strict`` one that is not ok raises ``AssertionError``."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Verdict:
        is_strict = strict()  # a mistyped mode is refused before anything runs
        cells.watch()
        try:
            with bound.time_bound():
                verdict = fn(*args, **kwargs)
        except bound.TookTooLong as stopped:
            verdict = Verdict(False, *bound.too_long_words(stopped, in_library))
        verdict = _cell_raised(verdict)
        cells.checked()
        if is_strict and not verdict.ok:
            raise AssertionError(str(verdict))
        return verdict

    return run  # type: ignore[return-value]
