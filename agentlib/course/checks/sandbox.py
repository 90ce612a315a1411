"""Notebook 04's check: a ``glob`` that answers inside the workspace and refuses every way out."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..language import pick
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
            pick(
                "refuse such a pattern before searching: return 'Error: ...' for an absolute pattern or one with a '..' part",
                "搜索之前就拒绝这样的模式：对绝对路径模式或含有 '..' 这一段的模式，返回 'Error: ...'",
            )
        )
        return verdict
    if problem := not_text(f"{name}('glob-check/*.txt')", inside, printed):
        return Verdict(
            False,
            pick(
                f"{problem} One path per line.",
                f"{problem}每行一个路径。",
            ),
        )
    problems = []
    expected = [f"glob-check/{n}" for n in sorted(SHUFFLED)]
    lines = [line.strip() for line in inside.strip().splitlines()]
    if sorted(lines) == expected and lines != expected:
        problems.append(
            pick(
                f"'glob-check/*.txt' gave the right paths, but not sorted: {lines}",
                f"'glob-check/*.txt' 给出的路径对了，但没有排序：{lines}",
            )
        )
    elif lines != expected:
        problems.append(
            pick(
                f"'glob-check/*.txt' should give {len(expected)} lines, {expected[0]!r} to {expected[-1]!r} "
                f"(relative to the workspace); it gave {inside!r:.160}",
                f"'glob-check/*.txt' 应给出 {len(expected)} 行，从 {expected[0]!r} 到 {expected[-1]!r}"
                f"（相对于工作区）；实际给出的是 {inside!r:.160}",
            )
        )
    for pattern, out in outside.items():
        if str(out).lower().startswith("error"):
            continue
        if not _names_a_path(str(out), root):
            problems.append(
                pick(
                    f"{pattern!r} leaves the workspace: refuse it with a text that starts with 'Error:' "
                    f"(it returned {str(out)[:100]!r}), so the model knows it was refused, not searched",
                    f"{pattern!r} 离开了工作区：要用一段以 'Error:' 开头的文本拒绝它（它返回的是 "
                    f"{str(out)[:100]!r}），模型才知道这是被拒绝了，而不是搜索过了",
                )
            )
        elif sibling is not None and sibling.name in pattern:
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
        unsafe = any("reaches" in p or "到了" in p for p in problems)
        return Verdict(
            False,
            pick(
                f"the glob {'is not safe yet' if unsafe else 'needs another look'}.",
                f"这个 glob {'还不安全' if unsafe else '还要再看看'}。",
            ),
            problems,
        )
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


def _names_a_path(out: str, root: Path) -> bool:
    """Whether a line of ``out`` is a path that exists (relative to the workspace, or absolute): a listing, not a refusal."""
    for line in filter(None, (line.strip() for line in out.splitlines())):
        try:
            if (root / line).exists():  # an absolute line replaces root
                return True
        except (OSError, ValueError):
            continue
    return False
