"""A time bound on the learner's code while a check runs it, so an endless loop ends in words, not a spinning cell.

A check runs the learner's function, and a ``while`` whose condition never changes (or a tool
that waits on something) would keep the cell busy until the kernel is interrupted, and one
that appends on every pass fills the machine's memory within a minute. Inside the bound, a
timer ticks every ``TICK`` seconds; once ``SECONDS`` have passed, or the process has grown by
``GROWTH_BYTES`` (read from ``/proc/self/statm``, Linux only), it raises ``TookTooLong`` where
the code is, and the check turns that into a verdict naming the line it was running.
``TookTooLong`` is a ``BaseException``, so a learner's ``except Exception`` (the seed's tools
have one) cannot swallow it.

The bound needs ``signal.setitimer`` and the main thread (a notebook's kernel runs cells
there); elsewhere (Windows, a thread) the check runs unbounded.
"""

from __future__ import annotations

import linecache
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..language import pick

SECONDS = 30.0  # far above what any check takes on a busy machine (a few seconds)
GROWTH_BYTES = 1 << 30  # no check's own work grows the kernel by more than a few MB
TICK = 0.25


class TookTooLong(BaseException):
    """Raised in the learner's code when a check's time bound runs out."""


def _can_bound() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_bound(seconds: float | None = None) -> Iterator[None]:
    """Raise ``TookTooLong`` in the code running when ``seconds`` (default ``SECONDS``) have passed."""
    if not _can_bound():
        yield
        return
    limit = SECONDS if seconds is None else seconds
    started, size = time.monotonic(), _resident()

    def tick(_signum: int, _frame: Any) -> None:
        elapsed = time.monotonic() - started
        grown = _resident() - size if size is not None else 0
        if elapsed >= limit or grown >= GROWTH_BYTES:
            signal.setitimer(signal.ITIMER_REAL, 0)
            raise TookTooLong(round(elapsed, 1), grown if grown >= GROWTH_BYTES else 0)

    previous = signal.signal(signal.SIGALRM, tick)
    signal.setitimer(signal.ITIMER_REAL, min(TICK, limit), TICK)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _resident() -> int | None:
    """This process's resident memory in bytes, or None where ``/proc`` cannot tell."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def where(error: BaseException, is_library: Any) -> list[tuple[str, int, str]]:
    """The frames of the learner's own code in ``error``'s traceback, outermost first: function, line number, source."""
    found = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if not is_library(code.co_filename):
            line = linecache.getline(code.co_filename, tb.tb_lineno).strip()
            found.append((code.co_name, tb.tb_lineno, line))
        tb = tb.tb_next
    return found


def _at(frame: tuple[str, int, str]) -> str:
    function, number, line = frame
    if not line:
        return pick(f"line {number} of {function}", f"{function} 的第 {number} 行")
    return pick(f"line {number} of {function}: {line!r}", f"{function} 的第 {number} 行：{line!r}")


def too_long_words(error: TookTooLong, is_library: Any) -> tuple[str, list[str]]:
    """What a check says when the bound stopped the learner's code: the summary and one hint."""
    seconds, grown = (
        error.args
    )  # raised by tick(): the time taken, and the growth that stopped it (or 0)
    if grown:
        summary = pick(
            f"your code took {grown >> 20} MB more memory in {seconds:g} s and was still running, "
            "so the check stopped it.",
            f"你的代码在 {seconds:g} 秒里多占了 {grown >> 20} MB 内存，还在运行，检查把它停下了。",
        )
    else:
        summary = pick(
            f"your code was still running after {seconds:g} s, so the check stopped it.",
            f"你的代码运行了 {seconds:g} 秒还没结束，检查把它停下了。",
        )
    frames = where(error, is_library)
    if not frames:
        return summary, []
    at = _at(frames[0])  # the function the check was given
    called = [f for f in frames[1:] if not f[0].startswith("<")]  # not a comprehension's own frame
    if called:
        at += pick(", in a call to ", "，当时在调用 ") + _at(called[-1])
    return summary, [
        pick(
            f"it was at {at}. An endless loop? Each pass of a loop must change what its condition "
            "tests (a loop over the model must call it again every round); a tool must return, not "
            "wait. Fix it, run your cell, then this check.",
            f"它停在 {at}。是不是死循环？循环每走一遍，都要改变它的条件所检查的东西（围着模型的循环"
            "每一轮都要重新调用模型）；工具要返回，不能一直等。改好之后运行你的单元格，再运行这个检查。",
        )
    ]
