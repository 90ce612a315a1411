"""Text for people and for the model: any value as text, and the one way long text is cut."""

from __future__ import annotations

import json
from typing import Any


def as_text(value: Any) -> str:
    """A string as it is; anything else as JSON (or ``str()`` when JSON cannot hold it)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # e.g. a structure that contains itself
        return str(value)


def looks_chinese(text: str) -> bool:
    """Whether ``text`` has a Chinese character: the offline model answers it, and the REPL speaks, in Chinese."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def cut_marker(what: str) -> str:
    """What stands where text was cut, e.g. ``[… 1234 of 5000 characters cut …]``."""
    return f"[… {what} cut …]"


def clip(text: str, limit: int, *, keep_end: bool = False) -> str:
    """``text`` if it has at most ``limit`` characters; else its start (and end) around a cut marker.

    The result, marker included, is at most ``limit`` characters long (unless ``limit`` is
    shorter than the marker itself). ``keep_end`` keeps the end as well as the start, as a
    command's output needs: its last lines usually say how it ended.
    """
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    while True:  # the marker's own length decides how much is cut; a digit more or less
        marker = cut_marker(f"{cut} of {len(text)} characters")
        kept = max(limit - len(marker), 0)
        if len(text) - kept == cut:
            break
        cut = len(text) - kept
    if not keep_end:
        return text[:kept] + marker
    head = kept - kept // 2
    return text[:head] + marker + text[len(text) - kept // 2 :]
