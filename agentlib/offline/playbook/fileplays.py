"""Plays over many files: list, count, search, move, copy, delete (read from real listings)."""

from __future__ import annotations

import re
import shlex
from typing import Any

from agentlib.offline.playbook.actions import Actions, Play, failed, plural, quote, read_text

NOTES = ("no files", "(", "...", "[exit code", "no such file")


def _paths(output: str) -> list[str]:
    """The path lines of a listing (find, ls -Ap, grep -l or glob), without './' or notes."""
    lines = (line.strip() for line in output.splitlines())
    return [
        line.removeprefix("./")
        for line in lines
        if line and line not in (".", "./") and not line.lower().startswith(NOTES)
    ]


def _keep(path: str, p: dict[str, Any], top: str | None) -> bool:
    """Whether a listed path passes the request's filters (extension, hidden, skipped folders)."""
    inside = path.removeprefix(f"{top}/") if top else path
    parts = inside.rstrip("/").split("/")
    if ".git" in path.split("/"):
        return False
    hidden = any(part.startswith(".") for part in parts)
    mode = p.get("hidden", "no")
    if (mode == "no" and hidden) or (mode == "only" and not hidden):
        return False
    ext = path.rpartition(".")[2].lower() if "." in parts[-1] else ""
    if p.get("ext") and (path.endswith("/") or ext not in p["ext"]):
        return False
    if p.get("not_ext") and ext in p["not_ext"]:
        return False
    if p.get("name") and parts[-1] != p["name"].rpartition("/")[2]:
        return False
    return not any(_skipped(path, s) for s in p.get("skip", []))


def _skipped(path: str, name: str) -> bool:
    """'except x.py', 'not the ones in drafts': that path, what is under it, or (a bare name)
    a file or folder of that name at any depth."""
    parts = path.rstrip("/").split("/")
    under = path == name or path.startswith(f"{name}/")
    return under or ("/" not in name and name in parts)


def _listing(act: Actions, p: dict[str, Any], files_only: bool = False) -> dict[str, Any]:
    """One call that lists what the request is about: glob when it can, else find/ls."""
    folder = p.get("folder")
    if not p.get("recursive") and not files_only:
        if act.has("glob"):
            return act.glob(f"{folder}/*" if folder else "*")
        return act.run(f"ls -Ap {shlex.quote(folder)}" if folder else "ls -Ap")
    simple = p.get("ext") and len(p["ext"]) == 1 and not folder and p.get("hidden", "no") == "no"
    if act.has("glob") and (simple or p.get("name")):
        return act.glob(f"**/{p['name']}" if p.get("name") else f"**/*.{p['ext'][0]}")
    where = shlex.quote(folder) if folder else "."
    return act.run(f"find {where} -type f -not -path '*/.git/*' | sort")


LISTING_FAILED = ("The listing failed. The tool said:", "列出文件失败。工具输出：")


def list_files(act: Actions, **p: Any) -> Play:
    """List files (by folder, extension, name, hidden, recursively, skipping folders)."""
    out = yield act.step("I'll look for the files.", "我来查找文件。", _listing(act, p))
    act.stop_if(failed(out), *LISTING_FAILED, out.text)
    folder = p.get("folder")
    found = [path for path in _paths(out.text) if _keep(path, p, folder)]
    python = p.get("ext") == ["py"] and not folder and not p.get("skip")
    kind = act.tr("Python file", "Python文件") if python else act.tr("file", "文件")
    # quote the tool only when it said something other than paths (the filter removed the rest)
    said = "" if _paths(out.text) else "\n" + quote(out.text)
    folders = 0 if python else sum(path.endswith("/") for path in found)
    if not found and folder and act.has("bash"):  # a word that names no folder is not one
        there = yield act.step(
            f"Let me check that {folder}/ is a folder.",
            f"我看看 {folder}/ 是不是文件夹。",
            act.run(f"test -d {shlex.quote(folder)} && echo folder || echo missing"),
        )
        act.stop_if(
            "folder" not in there.text.split(),
            f"There is no folder called {folder} here, so I listed nothing.",
            f"这里没有叫 {folder} 的文件夹，所以我没有列出任何文件。",
        )
    if act.zh:
        if not found:
            where = f"{folder}/ 里" if folder else "当前目录"
            return f"{where}没有符合条件的{kind}。{said}"
        head = f"当前目录有{len(found)}个{kind}：" if python else f"找到 {len(found)} 个{kind}："
        if folders:
            head = f"找到 {len(found) - folders} 个文件和 {folders} 个文件夹："
        return head + "、".join(found)
    if not found:
        what = "Python files" if python else "matching files"
        where = f"in {folder}/" if folder else "here"
        return f"There are no {what} {where}.{said}"
    listing = "\n".join(f"  - {name}" for name in found)
    if folders:  # 'docs/' is a folder, not a file
        files = plural(len(found) - folders, kind)
        return f"Found {files} and {plural(folders, 'folder')}:\n{listing}"
    return f"Found {plural(len(found), kind)}:\n{listing}"


def count(act: Actions, unit: str, paths: list[str] | None = None, **p: Any) -> Play:
    """Count lines, words or a word's occurrences in files, or files themselves (a listing)."""
    if unit == "matches":
        text = yield from read_text(act, paths[0])
        n = text.lower().count(p["term"].lower())
        return act.tr(
            f"{p['term']!r} appears {plural(n, 'time')} in {paths[0]} (ignoring case).",
            f"{p['term']!r} 在 {paths[0]} 里出现了 {n} 次（不区分大小写）。",
        )
    if unit != "files":
        command = f"wc {'-l' if unit == 'lines' else '-w'} -- " + " ".join(map(shlex.quote, paths))
        out = yield act.step(
            f"I'll count with `{command}`.", f"我用 `{command}` 来统计。", act.run(command)
        )
        error = ("Counting failed. The tool said:", "统计失败。工具输出：")
        act.stop_if(failed(out), *error, out.text)
        rows = [line.split(None, 1) for line in out.text.splitlines() if line.strip()]
        word = act.tr(unit, "行" if unit == "lines" else "个单词")
        said = [
            act.tr(f"{name} has {number} {word}.", f"{name} 有 {number} {word}。")
            for number, name in (r for r in rows if len(r) == 2)
            if name != "total"
        ]
        return " ".join(said) + quote(out.text)
    p = {"hidden": "no", "recursive": True, **p}
    out = yield act.step(
        "I'll list the files to count them.",
        "我先列出文件再数。",
        _listing(act, p, files_only=True),
    )
    act.stop_if(failed(out), *LISTING_FAILED, out.text)
    found = [path for path in _paths(out.text) if _keep(path, p, p.get("folder"))]
    found = [path for path in found if not path.endswith("/")]
    kind = f".{'/.'.join(p['ext'])} " if p.get("ext") else ""
    where = act.tr(f" in {p['folder']}/", f"{p['folder']}/ 里") if p.get("folder") else ""
    head = act.tr(
        f"There {'is' if len(found) == 1 else 'are'} {plural(len(found), kind + 'file')}{where} "
        "(not counting hidden ones):",
        f"{where}一共有 {len(found)} 个{kind}文件（不算隐藏文件）：",
    )
    return head + "\n" + "\n".join(f"  - {name}" for name in found)


def search(act: Actions, text: str, imports: bool, **p: Any) -> Play:
    """Which files contain (or import) some text, from grep's real answer, filtered as asked."""
    where = shlex.quote(p["folder"]) if p.get("folder") else "."
    if imports:
        pattern = rf"^\s*(import|from)\s+{text.replace('.', '[.]')}\b"
        command = f"grep -rlE --include='*.py' -- {shlex.quote(pattern)} {where}"
    else:
        case = "" if p.get("case") else "i"
        command = f"grep -rlI{case}F --exclude-dir=.git -- {shlex.quote(text)} {where}"
    out = yield act.step(
        f"I'll search with `{command}`.", f"我用 `{command}` 来搜索。", act.run(command)
    )
    nothing = out.text.strip().endswith("[exit code 1]") and not _paths(out.text)
    error = ("The search failed. The tool said:", "搜索失败。工具输出：")
    act.stop_if(failed(out) and not nothing, *error, out.text)
    found = sorted(path for path in _paths(out.text) if _keep(path, {**p, "hidden": "also"}, None))
    verb = (
        act.tr(f"import {text}", f"导入了 {text}")
        if imports
        else act.tr(
            f"contain {text!r}" + ("" if p.get("case") else " (ignoring case)"),
            f"包含 {text!r}" + ("" if p.get("case") else "（不区分大小写）"),
        )
    )
    if not found:
        return act.said(f"No files {verb}.", f"没有文件{verb}。", out.text)
    if act.zh:
        return f"{len(found)} 个文件{verb}：" + "、".join(found)
    if len(found) == 1:
        verb = verb.replace("import ", "imports ", 1).replace("contain ", "contains ", 1)
    return f"{plural(len(found), 'file')} {verb}:\n" + "\n".join(f"  - {name}" for name in found)


def _transfer(verb: str, src: str, dest: str, into: bool | str) -> str:
    """A shell line that moves or copies without overwriting, and says where the thing went.

    ``into`` True makes the folder; "existing" wants one that is there (a bare word names one).
    """
    tool = "mv" if verb == "move" else "cp -R"
    make = f"mkdir -p -- {shlex.quote(dest)} && " if into is True else ""
    if into is False and "/" in dest.rstrip("/"):  # 'copy a.md to backup/a.md': make backup/
        parent = shlex.quote(dest.rstrip("/").rpartition("/")[0])
        make = f"[ -e {shlex.quote(src)} ] && mkdir -p -- {parent}; "  # not for a missing file
    if into == "existing":
        make = f'[ -d {shlex.quote(dest)} ] || {{ echo "error: there is no folder {dest}"; exit 1; }}; '
    return (
        f"{make}src={shlex.quote(src)}; dest={shlex.quote(dest)}; "
        '[ -d "$dest" ] && dest="$dest/$(basename "$src")"; '
        '[ -e "$dest" ] && { echo "error: $dest already exists, not overwriting it"; exit 1; }; '
        f'{tool} -- "$src" "$dest" && echo "$src -> $dest"'
    )


def _safe(paths: list[str]) -> bool:
    return all(
        p
        and p not in (".", "..", "/", "*")
        and not p.startswith(("/", "~"))
        and ".." not in p.split("/")
        for p in paths
    )


def transfer(act: Actions, verb: str, src: str, dest: str, into: bool | str) -> Play:
    """Move (rename) or copy a file or folder."""
    act.stop_if(
        not _safe([src, dest]),
        f"I won't {verb} {src!r} to {dest!r}: paths must stay inside the workspace.",
        f"我不会处理 {src!r} → {dest!r}：路径必须在工作区内。",
    )
    moving = verb == "move"
    out = yield act.step(
        f"I'll {verb} {src}.",
        f"我来{'移动' if moving else '复制'} {src}。",
        act.run(_transfer(verb, src, dest, into)),
    )
    act.stop_if(
        failed(out),
        f"I could not {verb} {src}. The tool said:",
        f"没能{'移动' if moving else '复制'} {src}。工具输出：",
        out.text,
    )
    done = act.tr("Moved" if moving else "Copied", "已移动" if moving else "已复制")
    return act.said(f"{done}:", f"{done}：", out.text)


def delete(act: Actions, paths: list[str]) -> Play:
    """Delete files or folders (folders with everything in them)."""
    act.stop_if(
        not _safe(paths),
        "I won't delete that: only named paths inside the workspace.",
        "我不会删除它：只删除工作区内明确给出的路径。",
    )
    names = " ".join(map(shlex.quote, paths))
    out = yield act.step(
        f"I'll delete {', '.join(paths)}.",
        f"我来删除 {'、'.join(paths)}。",
        act.run(f"rm -r -- {names} && echo deleted: {names}"),
    )
    return act.told(
        out,
        ("I could not delete it. The tool said:", "没能删除。工具输出："),
        (f"Deleted {', '.join(paths)}.", f"已删除 {'、'.join(paths)}。"),
    )


def delete_ext(act: Actions, folder: str, ext: list[str], skip: tuple = ()) -> Play:
    """Delete the files with some extension inside one folder, listing each.

    With exceptions, the files are listed first and every exception must name one of them:
    otherwise nothing is deleted (a kept file the listing does not show is not kept by luck)."""
    act.stop_if(
        folder != "." and not _safe([folder]),
        "I won't delete outside a named folder of the workspace.",
        "我只删除工作区内指定文件夹里的文件。",
    )
    names = " -o ".join(f"-name {shlex.quote('*.' + e)}" for e in ext)
    find = f"find {shlex.quote(folder)} -type f \\( {names} \\) -not -path './.git/*'"
    error = ("I could not delete them. The tool said:", "没能删除。工具输出：")
    if not skip:
        out = yield act.step(
            f"I'll delete the .{ext[0]} files in {folder}/.",
            f"我来删除 {folder}/ 里的 .{ext[0]} 文件。",
            act.run(f"{find} -print -delete"),
        )
        act.stop_if(failed(out), *error, out.text)
        if not _paths(out.text):
            return act.tr(f"There were no .{ext[0]} files to delete.", f"没有 .{ext[0]} 文件可删。")
        return act.said("Deleted these files:", "已删除这些文件：", out.text)
    out = yield act.step("I'll list them first.", "我先把它们列出来。", act.run(f"{find} | sort"))
    act.stop_if(failed(out), *LISTING_FAILED, out.text)
    found = _paths(out.text)
    missing = [k for k in skip if not any(_skipped(path, k) for path in found)]
    act.stop_if(
        bool(missing),
        f"{', '.join(missing)} is not among the .{ext[0]} files here, so I deleted nothing.",
        f"{'、'.join(missing)} 不在这些 .{ext[0]} 文件里，所以我什么都没删。",
    )
    gone = [path for path in found if not any(_skipped(path, k) for k in skip)]
    if not gone:
        return act.tr(
            "Every one of them is an exception: nothing to delete.", "它们都在例外里：没有要删的。"
        )
    listed = " ".join(map(shlex.quote, gone))
    out = yield act.step(
        f"I'll delete all but {', '.join(skip)}.",
        f"除了 {'、'.join(skip)}，其余的我来删除。",
        act.run(f"rm -- {listed} && printf '%s\\n' {listed}"),
    )
    act.stop_if(failed(out), *error, out.text)
    return act.said("Deleted these files:", "已删除这些文件：", out.text)


def delete_except(act: Actions, keep: list[str], folder: str) -> Play:
    """Delete every file but the ones named (listed first, then removed by name)."""
    out = yield act.step(
        "I'll list the files first.",
        "我先列出所有文件。",
        act.run("find . -type f -not -path './.git/*' | sort"),
    )
    missing = [k for k in keep if k not in _paths(out.text)]
    act.stop_if(
        failed(out) or bool(missing),
        f"I can't do this offline: {', '.join(missing) or 'the listing'} is not there, "
        "so I deleted nothing.",
        f"这个请求离线模型做不了：没有找到 {'、'.join(missing) or '文件列表'}，所以什么都没删。",
    )
    found = [path for path in _paths(out.text) if path not in keep]
    if not found:
        return act.tr("There is nothing else to delete.", "没有别的文件可删。")
    return (yield from delete(act, found))


LISTING = "find . -type f -not -path './.git/*' -printf '%s\\t%T@\\t%P\\n'"
PICKS = {  # the column it compares (size, time), which end, and what the answer calls that file
    "size_max": (0, max, "the biggest file", "最大的文件"),
    "size_min": (0, min, "the smallest file", "最小的文件"),
    "mtime_max": (1, max, "the file changed most recently", "最近修改的文件"),
    "mtime_min": (1, min, "the file changed least recently", "最早修改的文件"),
}


def pick(act: Actions, by: str) -> Play:
    """The biggest, smallest, newest or oldest file, or the empty ones, from a real listing."""
    out = yield act.step(
        "I'll list the files with their sizes and times.",
        "我来列出文件的大小和修改时间。",
        act.run(LISTING),
    )
    rows = [line.split("\t") for line in out.text.splitlines() if line.count("\t") == 2]
    error = ("I found no files. The tool said:", "没有找到文件。工具输出：")
    act.stop_if(failed(out) or not rows, *error, out.text)
    if by == "empty":
        empty = [name for size, _, name in rows if size == "0"]
        act.stop_if(not empty, "No file here is empty.", "这里没有空文件。")
        listed = ", ".join(empty)
        return act.tr(f"{plural(len(empty), 'empty file')}: ", f"{len(empty)} 个空文件：") + listed
    column, most, english, chinese = PICKS[by]
    size, _, name = most(rows, key=lambda row: float(row[column]))
    return act.tr(f"{name} is {english} ({size} bytes).", f"{chinese}是 {name}（{size} 字节）。")


def total(act: Actions, path: str) -> Play:
    """The sum of the numbers written in a file."""
    shown = yield act.step(f"I'll read {path}.", f"我来读取 {path}。", act.read(path))
    numbers = re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", shown.text)
    none = (f"I found no numbers in {path}. The tool said:", f"{path} 里没有找到数字。工具输出：")
    act.stop_if(shown.is_error or not numbers, *none, shown.text)
    value = sum(float(n) for n in numbers)
    value = int(value) if value.is_integer() else round(value, 10)
    return act.tr(
        f"The {plural(len(numbers), 'number')} in {path} add up to {value}.",
        f"{path} 里的 {len(numbers)} 个数字加起来是 {value}。",
    )
