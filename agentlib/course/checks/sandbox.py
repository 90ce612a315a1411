"""Notebook 04's check: a ``glob`` that answers inside the workspace and refuses every way out."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..language import pick
from .scripted import GLOB, model_read, remove_folder
from .verdict import Verdict, check, crash

STOLEN = "stolen.txt"


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
    (root / "glob-check" / "a.txt").write_text("a\n")
    escapes = ["/etc/host*", "../*", "glob-check/../../*"]
    if sibling is not None:
        escapes.append(f"../{sibling.name}/*")
    try:
        inside = run_glob("glob-check/*.txt")
        outside = {p: run_glob(p) for p in escapes}
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return crash(getattr(run_glob, "__name__", "run_glob"), e)
    if not isinstance(inside, str):
        return Verdict(
            False,
            pick(
                f"run_glob should return text (one path per line); it returned {type(inside).__name__}.",
                f"run_glob 应返回文本（每行一个路径）；它返回的是 {type(inside).__name__}。",
            ),
        )
    problems = []
    if inside.strip() != "glob-check/a.txt":
        problems.append(
            pick(
                f"'glob-check/*.txt' should give 'glob-check/a.txt' (relative to the workspace); it gave {inside!r}",
                f"'glob-check/*.txt' 应给出 'glob-check/a.txt'（相对于工作区）；实际给出的是 {inside!r}",
            )
        )
    for pattern, out in outside.items():
        if str(out).lower().startswith("error"):
            continue
        if sibling is not None and sibling.name in pattern:
            problems.append(
                pick(
                    f"{pattern!r} reaches {sibling.name!r}, a folder beside the workspace whose name starts "
                    f"with the workspace's, and returned {str(out)[:100]!r}: a path that starts with the "
                    "workspace's text is not inside it. Refuse '..' parts, or compare paths with "
                    "Path.is_relative_to, not strings with startswith",
                    f"{pattern!r} 到了 {sibling.name!r}：工作区旁边一个名字以工作区名字开头的目录，"
                    f"并返回了 {str(out)[:100]!r}：以工作区的文字开头的路径不一定在工作区里。"
                    "要拒绝 '..' 这一段，或者用 Path.is_relative_to 比较路径，而不是用 startswith 比较字符串",
                )
            )
        else:
            problems.append(
                pick(
                    f"{pattern!r} reaches outside the workspace: return an 'Error: ...'; it returned {str(out)[:100]!r}",
                    f"{pattern!r} 到了工作区外面：应返回 'Error: ...'；它返回的是 {str(out)[:100]!r}",
                )
            )
    if problems:
        return Verdict(False, pick("the glob is not safe yet.", "这个 glob 还不安全。"), problems)
    seen = model_read(run_glob, GLOB, {"pattern": "/etc/*"}, "That pattern is refused.")
    tried = pick(f"{len(escapes)} escapes", f"{len(escapes)} 种逃逸") + (
        pick(f" (one into {sibling.name!r} beside it)", f"（其中一种进入旁边的 {sibling.name!r}）")
        if sibling
        else pick(
            " (not the one into a folder beside it: the folder above the workspace is not writable)",
            "（没有试进入旁边目录的那种：工作区上一层的目录不可写）",
        )
    )
    return Verdict(
        True,
        pick(
            f"matches come back relative, and {tried} are refused; asked for '/etc/*' in the loop, the model read {seen!r}.",
            f"匹配结果以相对路径返回，{tried}都被拒绝了；在循环里请求 '/etc/*' 时，模型读到的是 {seen!r}。",
        ),
    )
