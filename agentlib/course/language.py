"""The language the course speaks in a kernel: English unless ``Course(..., lang="zh")`` says Chinese.

``Course`` sets it once per notebook; ``Course``'s own lines, ``expect_error`` and the exercise
checks then say their sentences with ``pick(english, chinese)``. The round diagram is told its
language at each call instead (``show(..., lang=course.lang)``), since it is drawn outside courses too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..widgets.words import LANGS

_spoken = {"lang": "en"}


def check_lang(lang: str) -> str:
    """``lang`` itself when the course speaks it; a ValueError naming the choices otherwise."""
    if lang not in LANGS:
        raise ValueError(f"LANG={lang!r}: the course speaks {' or '.join(map(repr, LANGS))}")
    return lang


def use(lang: str) -> None:
    """Speak ``lang`` ("en" or "zh") from now on in this process (``Course`` calls it)."""
    _spoken["lang"] = check_lang(lang)


def current() -> str:
    """The language spoken now: "en" or "zh"."""
    return _spoken["lang"]


def pick(english: str, chinese: str) -> str:
    """The sentence in the language spoken now."""
    return chinese if _spoken["lang"] == "zh" else english


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block, then go back to what was spoken before."""
    before = current()
    use(lang)
    try:
        yield
    finally:
        use(before)
