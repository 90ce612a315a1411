"""Glob inside a workspace through directory handles: no absolute patterns, no '..', no symlinks followed."""

from __future__ import annotations

import fnmatch
import os
import re
import time

from ..errors import PathEscapeError, ToolError
from ..text import clip
from . import files
from .limits import DEFAULT_LIMITS, Limits

MAX_MATCHES = 200
MAX_PATTERN_BYTES = 4096  # as long as a path can be
_MAGIC = re.compile(r"[*?\[]")


def check_pattern(pattern: str) -> list[str]:
    """Split a pattern into components, refusing what could reach outside the workspace."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise ToolError("glob needs a non-empty pattern such as '**/*.py'")
    if "\x00" in pattern:
        raise ToolError(f"Invalid pattern {pattern!r}: it contains a null byte")
    if len(pattern.encode("utf-8", "surrogateescape")) > MAX_PATTERN_BYTES:
        raise ToolError(f"Pattern {clip(pattern, 80)} is too long (over {MAX_PATTERN_BYTES} bytes)")
    if pattern.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", pattern):
        raise PathEscapeError(pattern, "glob patterns must be relative to the workspace")
    parts = [p for p in pattern.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PathEscapeError(pattern, "'..' is not allowed in glob patterns")
    if not parts:
        raise ToolError(f"Pattern {pattern!r} matches only the workspace folder itself")
    return parts


def _matches(parts: list[str], pattern: tuple[str, ...]) -> bool:
    """Match path components against pattern components; ``**`` takes any number of them.

    The set of pattern positions still alive is carried along the path, so a pattern with
    many ``**`` costs len(parts) * len(pattern) steps, never a backtracking explosion.
    """
    alive = _past_stars({0}, pattern)
    for part in parts:
        step = set()
        for j in alive:
            if j == len(pattern):
                continue
            if pattern[j] == "**":
                step.add(j)
            elif fnmatch.fnmatchcase(part, pattern[j]):
                step.add(j + 1)
        alive = _past_stars(step, pattern)
        if not alive:
            return False
    return len(pattern) in alive


def _past_stars(positions: set[int], pattern: tuple[str, ...]) -> set[int]:
    """Add the positions reached by letting each ``**`` match nothing."""
    todo, seen = list(positions), set(positions)
    while todo:
        j = todo.pop()
        if j < len(pattern) and pattern[j] == "**" and j + 1 not in seen:
            seen.add(j + 1)
            todo.append(j + 1)
    return seen


def glob(root_fd: int, pattern: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """Match ``pattern`` below ``root_fd``; return sorted relative paths (dirs end in '/')."""
    parts = check_pattern(pattern)
    literal = []
    while len(parts) > 1 and not _MAGIC.search(parts[0]):
        literal.append(parts.pop(0))  # walk only below the literal prefix, not the whole tree
    rest = tuple(p for i, p in enumerate(parts) if p != "**" or parts[i - 1 : i] != ["**"])
    prefix = "/".join(literal)
    try:
        start_fd = files.open_beneath(root_fd, prefix or ".", os.O_RDONLY | os.O_DIRECTORY)
    except PathEscapeError:
        raise
    except OSError:
        return f"No files match {pattern}"
    max_depth = limits.glob_depth if "**" in rest else min(len(rest), limits.glob_depth)
    found: list[str] = []
    stopped = _walk(
        start_fd, rest, max_depth, limits, lambda rel: found.append("/".join(literal + rel))
    )
    return listing(found, pattern, stopped)


def _walk(start_fd: int, pattern: tuple[str, ...], max_depth: int, limits: Limits, found) -> str:
    """Visit entries one at a time through directory handles; return why it stopped early, if it did."""
    deadline = time.monotonic() + limits.glob_seconds
    visited, too_deep = 0, False
    # one (handle, listing, path) per open level: handles stay open only along the current path
    stack = [(start_fd, os.scandir(start_fd), [])]
    try:
        while stack:
            fd, entries, rel = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                entries.close()
                os.close(fd)
                continue
            visited += 1
            if visited > limits.glob_entries:
                return f"(search stopped after {limits.glob_entries} entries, the glob_entries bound; narrow the pattern)"
            if time.monotonic() > deadline:
                return f"(search stopped after {limits.glob_seconds:g}s, the glob_seconds bound, and {visited} entries; narrow the pattern)"
            path = [*rel, entry.name]
            if _matches(path, pattern):  # a link to a folder shows as one, but is not entered
                found([*path[:-1], entry.name + ("/" if _is_dir(entry, True) else "")])
            if not _is_dir(entry, False):
                continue
            if len(path) >= max_depth:
                too_deep = too_deep or "**" in pattern
                continue
            try:
                sub = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError:
                continue  # removed or replaced meanwhile, or not readable: leave it out
            try:
                stack.append((sub, os.scandir(sub), path))
            except OSError:
                os.close(sub)
    finally:
        for fd, entries, _ in stack:
            entries.close()
            os.close(fd)
    if too_deep:
        return f"(folders deeper than {max_depth} levels, the glob_depth bound, were not searched)"
    return ""


def _is_dir(entry: os.DirEntry, follow_symlinks: bool) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow_symlinks)
    except OSError:
        return False


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
