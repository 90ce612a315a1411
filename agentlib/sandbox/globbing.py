"""Glob inside a workspace through directory handles: no absolute patterns, no '..', no symlinks followed."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import time

from ..errors import PathEscapeError, ToolError
from . import files

MAX_MATCHES = 200
MAX_VISITED = 200_000  # entries looked at before the search gives up
TIME_LIMIT_S = 10.0
_MAGIC = re.compile(r"[*?\[]")


def check_pattern(pattern: str) -> list[str]:
    """Split a pattern into components, refusing what could reach outside the workspace."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise ToolError("glob needs a non-empty pattern such as '**/*.py'")
    if "\x00" in pattern:
        raise ToolError(f"Invalid pattern {pattern!r}: it contains a null byte")
    if pattern.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", pattern):
        raise PathEscapeError(pattern, "glob patterns must be relative to the workspace")
    parts = [p for p in pattern.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PathEscapeError(pattern, "'..' is not allowed in glob patterns")
    if not parts:
        raise ToolError(f"Pattern {pattern!r} matches only the workspace folder itself")
    return parts


def _matches(parts: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    if "**" not in pattern:
        return len(parts) == len(pattern) and all(map(fnmatch.fnmatchcase, parts, pattern))

    @functools.cache
    def match(i: int, j: int) -> bool:
        if j == len(pattern):
            return i == len(parts)
        if pattern[j] == "**":
            return match(i, j + 1) or (i < len(parts) and match(i + 1, j))
        return i < len(parts) and fnmatch.fnmatchcase(parts[i], pattern[j]) and match(i + 1, j + 1)

    return match(0, 0)


def glob(root_fd: int, pattern: str) -> str:
    """Match ``pattern`` below ``root_fd``; return sorted relative paths (dirs end in '/')."""
    parts = check_pattern(pattern)
    literal = []
    while len(parts) > 1 and not _MAGIC.search(parts[0]):
        literal.append(parts.pop(0))  # walk only below the literal prefix, not the whole tree
    rest = tuple(parts)
    prefix = "/".join(literal)
    try:
        start_fd = files.open_beneath(root_fd, prefix or ".", os.O_RDONLY | os.O_DIRECTORY)
    except PathEscapeError:
        raise
    except OSError:
        return f"No files match {pattern}"
    found: list[str] = []
    visited = 0
    stopped = ""
    deadline = time.monotonic() + TIME_LIMIT_S
    max_depth = None if "**" in rest else len(rest)
    try:
        for dirpath, dirnames, filenames, _ in os.fwalk(".", dir_fd=start_fd):
            rel = [] if dirpath == "." else dirpath[2:].split("/")
            for name in dirnames + filenames:
                visited += 1
                if _matches(tuple([*rel, name]), rest):
                    suffix = "/" if name in dirnames else ""
                    found.append("/".join(literal + rel + [name]) + suffix)
            if max_depth is not None and len(rel) + 1 >= max_depth:
                dirnames.clear()  # deeper entries cannot match a pattern without '**'
            if visited > MAX_VISITED or time.monotonic() > deadline:
                stopped = f"(search stopped after {visited} entries; narrow the pattern)"
                break
    finally:
        os.close(start_fd)
    return listing(found, pattern, stopped)


def listing(found: list[str], pattern: str, stopped: str = "") -> str:
    """What the model reads: sorted matches, at most MAX_MATCHES, and why the list is short."""
    if not found:
        return f"No files match {pattern}" + (f"\n{stopped}" if stopped else "")
    found = sorted(found)
    lines = found[:MAX_MATCHES]
    if len(found) > MAX_MATCHES:
        lines.append(f"... ({len(found) - MAX_MATCHES} more matches not shown; narrow the pattern)")
    if stopped:
        lines.append(stopped)
    return "\n".join(lines)
