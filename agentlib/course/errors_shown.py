"""Cells that show an error on purpose: a few readable lines instead of a traceback, and a failure if the error stops happening."""

from __future__ import annotations

import re
import textwrap
from types import TracebackType

from .language import pick

WIDTH = 100  # columns of the printed message
MAX_MESSAGE_LINES = 20  # with the header and the why (4 lines at most), under 30 lines in all
MAX_WHY_LINES = 4


def error_name(error_type: type[BaseException]) -> str:
    """``anthropic.BadRequestError``, ``agentlib.errors.PathEscapeError``, ``ValueError``."""
    parts = error_type.__module__.split(".")
    public = []
    for part in parts:  # stop at the first private module: the SDK's _exceptions is internal
        if part.startswith("_"):
            break
        public.append(part)
    if not public or public == ["builtins"]:
        return error_type.__qualname__
    return ".".join(public) + "." + error_type.__qualname__


def api_details(error: BaseException) -> tuple[int | None, str | None, str]:
    """(HTTP status, the API's error type, its message) of an SDK error; the status and type are None for other errors."""
    status = getattr(error, "status_code", None)
    body = getattr(error, "body", None)
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict) and isinstance(detail.get("message"), str):
        kind = detail.get("type")
        return status, kind if isinstance(kind, str) else None, detail["message"]
    message = getattr(error, "message", None) if status is not None else None
    return status, None, message if isinstance(message, str) else str(error)


def wrapped(text: str, width: int = WIDTH, max_lines: int = MAX_MESSAGE_LINES) -> list[str]:
    """``text`` wrapped to ``width`` columns, its own line breaks kept, at most ``max_lines`` lines."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        lines += textwrap.wrap(paragraph, width, subsequent_indent="  ") or [""]
    if len(lines) > max_lines:
        left_out = len(lines) - max_lines + 1
        lines = [
            *lines[: max_lines - 1],
            pick(f"… ({left_out} more lines left out)", f"……（还有 {left_out} 行没有显示）"),
        ]
    return lines


def describe(error: BaseException, why: str) -> str:
    """The few lines a learner reads: the error's type, status and message, then the course's why."""
    status, kind, message = api_details(error)
    head = pick("Error shown on purpose: ", "故意展示的错误：") + error_name(type(error))
    if status is not None:
        head += f" (HTTP {status}" + (f", {kind})" if kind else ")")
    lines = [head] + ["  " + line for line in wrapped(message, WIDTH - 2)]
    label = pick("Why: ", "原因：")
    indent = pick(" " * 5, " " * 6)  # under the label: a Chinese character takes two columns
    width = pick(WIDTH - 5, (WIDTH - 6) // 2)  # textwrap counts characters, not columns
    why_lines = wrapped(why, width, MAX_WHY_LINES)
    lines += [(label if i == 0 else indent) + line for i, line in enumerate(why_lines)]
    return "\n".join(lines)


class ExpectedError:
    """The context manager ``expect_error`` returns; after the block, ``error`` is what was caught."""

    def __init__(
        self,
        types: type[BaseException] | tuple[type[BaseException], ...],
        why: str,
        match: str | None = None,
    ) -> None:
        self.types = types if isinstance(types, tuple) else (types,)
        bad = [t for t in self.types if not (isinstance(t, type) and issubclass(t, Exception))]
        if not self.types or bad:
            raise TypeError(
                "expect_error needs an exception class (or a tuple of them), such as "
                f"anthropic.BadRequestError; got {types!r}"
            )
        if not isinstance(why, str) or not why.strip():
            raise TypeError("expect_error needs why=: one line saying what the error teaches")
        self.why = why.strip()
        self.match = match
        self.error: BaseException | None = None
        self.text = ""

    @property
    def expected(self) -> str:
        """The expected types in words: 'anthropic.BadRequestError or ValueError'."""
        return " or ".join(error_name(t) for t in self.types)

    def __enter__(self) -> ExpectedError:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        error: BaseException | None,
        _tb: TracebackType | None,
    ) -> bool:
        if error is None:
            raise AssertionError(
                pick(
                    f"This cell should fail with {self.expected} ({self.why}), but it ran without "
                    "an error: the demonstration no longer shows what the text around it says.",
                    f"这个单元格应该以 {self.expected} 失败（{self.why}），却没有出错就运行完了："
                    "这个演示不再展示周围文字所说的东西。",
                )
            )
        if not isinstance(error, Exception):
            return False  # KeyboardInterrupt, SystemExit: never swallowed
        if not isinstance(error, self.types):
            got = f"{error_name(type(error))}: {api_details(error)[2][:500]}"
            raise AssertionError(
                pick(
                    f"This cell should fail with {self.expected} ({self.why}), but it failed with {got}",
                    f"这个单元格应该以 {self.expected} 失败（{self.why}），实际失败的却是 {got}",
                )
            ) from error
        message = api_details(error)[2]
        if self.match is not None and not _matches(self.match, message):
            raise AssertionError(
                pick(
                    f"This cell failed with {error_name(type(error))} as expected, but its message "
                    f"does not contain {self.match!r}: {message[:500]}",
                    f"这个单元格如预期以 {error_name(type(error))} 失败，但它的消息里没有 "
                    f"{self.match!r}：{message[:500]}",
                )
            ) from error
        self.error = error
        self.text = describe(error, self.why)
        print(self.text)
        return True  # the error is handled: the cell ends normally, with no traceback


def _matches(pattern: str, message: str) -> bool:
    """A plain substring, or else a regular expression searched in the message."""
    if pattern in message:
        return True
    try:
        return re.search(pattern, message) is not None
    except re.error:
        return False


def expect_error(
    types: type[BaseException] | tuple[type[BaseException], ...],
    *,
    why: str,
    match: str | None = None,
) -> ExpectedError:
    """Run a block that must fail with ``types``; print the error compactly, with ``why``.

    The cell then ends normally (papermill, nbmake and nbclient see no error output). If the
    block raises nothing, or another type, or a message without ``match`` (a substring or a
    regular expression), the cell fails with an AssertionError that says so.
    """
    return ExpectedError(types, why, match)
