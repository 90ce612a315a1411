"""Notebook 04's check: a ``glob`` that answers inside the workspace and refuses every way out."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .scripted import GLOB, model_read, not_text, remove_folder, returned
from .verdict import Verdict, check, crash

STOLEN = "stolen.txt"
SHUFFLED = ["c.txt", "a.txt", "e.txt", "b.txt", "f.txt", "d.txt"]


def _sibling(root: Path) -> Path | None:
    """A folder next to the workspace whose name starts with the workspace's: ``<ws>-evil``.

    A string-prefix test (``str(path).startswith(str(root))``) takes it for the workspace.
    None when the folder above the workspace is not writable.
    """
    try:
        sibling = root.parent / f"{root.name}-evil"
        sibling.mkdir()
    except FileExistsError:
        sibling = Path(tempfile.mkdtemp(prefix=f"{root.name}-evil-", dir=root.parent))
    except OSError:
        return None
    (sibling / STOLEN).write_text("a file outside the workspace\n")
    return sibling


@check
def check_safe_glob(run_glob: Callable[[str], str], root: str | os.PathLike) -> Verdict:
    """Exercise: a ``glob`` that answers inside the workspace and refuses absolute patterns and ``..``."""
    root = Path(root).resolve()
    sibling = _sibling(root)
    try:
        return _check_glob(run_glob, root, sibling)
    finally:
        remove_folder(root / "glob-check")
        if sibling is not None:
            remove_folder(sibling)


def _check_glob(run_glob: Callable[[str], str], root: Path, sibling: Path | None) -> Verdict:
    (root / "glob-check").mkdir(exist_ok=True)
    for name in SHUFFLED:  # made out of order, so a listing that is not sorted shows it
        (root / "glob-check" / name).write_text(f"{name}\n")
    (root / "glob-check" / "notes.md").write_text("not a .txt\n")
    escapes = ["/etc/host*", "../*", "glob-check/../../*"]
    if sibling is not None:
        escapes.append(f"../{sibling.name}/*")
    name = getattr(run_glob, "__name__", "run_glob").replace("<lambda>", "run_glob")
    outside = {}
    try:
        inside, printed = returned(run_glob, "glob-check/*.txt")
        for pattern in escapes:
            outside[pattern] = run_glob(pattern)
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        if "inside" not in locals():
            return crash(f"{name}('glob-check/*.txt')", e)
        verdict = crash(f"{name}({pattern!r})", e)
        verdict.details.append(
            "refuse such a pattern before searching: return 'Error: ...' for an absolute pattern or one with a '..' part"
        )
        return verdict
    if problem := not_text(f"{name}('glob-check/*.txt')", inside, printed):
        return Verdict(False, f"{problem} One path per line.")
    problems = []
    expected = [f"glob-check/{n}" for n in sorted(SHUFFLED)]
    lines = [line.strip() for line in inside.strip().splitlines()]
    if sorted(lines) == expected and lines != expected:
        problems.append(f"'glob-check/*.txt' gave the right paths, but not sorted: {lines}")
    elif lines != expected:
        problems.append(
            f"'glob-check/*.txt' should give {len(expected)} lines, {expected[0]!r} to {expected[-1]!r} "
            f"(relative to the workspace); it gave {inside!r:.160}"
        )
    for pattern, out in outside.items():
        if str(out).lower().startswith("error"):
            continue
        if sibling is not None and sibling.name in pattern:
            problems.append(
                f"{pattern!r} reaches {sibling.name!r}, a folder beside the workspace whose name starts "
                f"with the workspace's, and returned {str(out)[:100]!r}: a path that starts with the "
                "workspace's text is not inside it. Refuse '..' parts, or compare paths with "
                "Path.is_relative_to, not strings with startswith"
            )
        else:
            problems.append(
                f"{pattern!r} reaches outside the workspace: return an 'Error: ...'; it returned {str(out)[:100]!r}"
            )
    if problems:
        unsafe = any("reaches" in p for p in problems)
        return Verdict(
            False, f"the glob {'is not safe yet' if unsafe else 'needs another look'}.", problems
        )
    seen = model_read(run_glob, GLOB, {"pattern": "/etc/*"}, "That pattern is refused.")
    tried = f"{len(escapes)} escapes" + (
        f" (one into {sibling.name!r} beside it)"
        if sibling
        else " (not the one into a folder beside it: the folder above the workspace is not writable)"
    )
    return Verdict(
        True,
        f"matches come back relative, and {tried} are refused; asked for '/etc/*' in the loop, the model read {seen!r}.",
    )
