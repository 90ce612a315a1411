"""The plays that change files: make folders, create, append, replace, add a docstring."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from agentlib.offline.conversation import Result
from agentlib.offline.playbook.actions import Actions, Play, failed
from agentlib.offline.playbook.lexicon import RUNNERS


def _all(results: Result | list[Result]) -> list[Result]:
    """The results of an act, as a list even when it made one call."""
    return results if isinstance(results, list) else [results]


def _written(act: Actions, names: str, results: list[Result]) -> None:
    """Stop the play with what the tool said when a file could not be written."""
    bad = [r.text for r in results if failed(r)]
    error = (f"I could not create {names}. The tool said:", f"没能创建 {names}。工具输出：")
    act.stop_if(bool(bad), *error, "\n".join(bad))


def mkdir(act: Actions, paths: list[str], files: int) -> Play:
    """Make folders; with ``files``, the seeds' 'folder with N files' (written, then listed)."""
    if not files:
        quoted = " ".join(map(shlex.quote, paths))
        command = f"mkdir -p -- {quoted} && ls -dp -- {quoted}"
        made = yield act.step("I'll make the folder.", "我来创建文件夹。", act.run(command))
        return act.told(
            made,
            ("I could not make the folder. The tool said:", "文件夹没能创建。工具输出："),
            (
                f"Made {', '.join(p + '/' for p in paths)}. `ls` shows:",
                f"已创建 {'、'.join(p + '/' for p in paths)}。`ls` 显示：",
            ),
        )
    folder = paths[0]
    texts = {
        f"{folder}/file{i}.txt": f"This is file {i} of {files}.\n" for i in range(1, files + 1)
    }
    intro = (
        f"I'll create {folder}/ with {files} files.",
        f"我来创建 {folder}/ 和其中的 {files} 个文件。",
    )
    if act.has("write_file"):
        # write_file creates the folder; all writes go out in one turn, results come back together
        results = yield act.step(*intro, *(act.write(path, text) for path, text in texts.items()))
    else:
        writes = " && ".join(
            f"printf '%s\\n' {shlex.quote(t.strip())} > {shlex.quote(p)}" for p, t in texts.items()
        )
        results = yield act.step(*intro, act.run(f"mkdir -p {shlex.quote(folder)} && {writes}"))
    problems = [result.text for result in _all(results) if failed(result)]
    act.stop_if(
        bool(problems),
        "Some files could not be written. The tools said:",
        "有些文件没能写入。工具输出：",
        "\n".join(problems),
    )
    listing = yield act.step(
        "Let me check what is there now.", "我来看看现在里面有什么。", act.list_dir(folder)
    )
    names = ", ".join(path.rpartition("/")[2] for path in texts)
    return act.said(
        f"Created {folder}/ with {files} files ({names}). Listing it shows:",
        f"已创建 {folder}/，里面有 {files} 个文件（{names}）。列出来是：",
        listing.text,
    )


def create(act: Actions, paths: list[str], **what: Any) -> Play:
    """Write files: given text, a script that prints a message, or a module with one function."""
    if "prints" in what:
        return (yield from _printing_file(act, paths[0], what["prints"], what["run"]))
    if "function" in what:
        function, args, body = what["function"], what["args"], what["body"]
        return (yield from _function_file(act, paths[0], function, args, body))
    content = what["content"]
    kept = []
    if not content and act.has("bash"):  # an empty file never replaces one that is there
        listed = " ".join(map(shlex.quote, paths))
        there = yield act.step(
            "First I'll check which of them exist.",
            "我先看看哪些已经存在。",
            act.run(f'for f in {listed}; do [ -e "$f" ] && echo "$f"; done; true'),
        )
        kept = [p for p in paths if p in there.text.split("\n")]
        paths = [p for p in paths if p not in kept]
        act.stop_if(
            not paths,
            f"{', '.join(kept)} already exists, so I left it as it is.",
            f"{'、'.join(kept)} 已经存在，所以我没有动它。",
        )
    names = ", ".join(paths)
    results = yield act.step(
        f"I'll create {names}.", f"我来创建 {names}。", *(act.write(p, content) for p in paths)
    )
    _written(act, names, _all(results))
    said = "\n".join(r.text for r in _all(results))
    if content:
        return act.said(
            f"Created {names} with the text {content.strip()!r}. The tool said:",
            f"已创建 {names}，内容是 {content.strip()!r}。工具输出：",
            said,
        )
    left = act.tr(
        f" {', '.join(kept)} already existed: left as it is.",
        f"{'、'.join(kept)} 已经存在，没有动它。",
    )
    return act.said(
        f"Created {names} (empty).{left if kept else ''} The tool said:",
        f"已创建 {names}（空文件）。{left if kept else ''}工具输出：",
        said,
    )


def _source(path: str, message: str) -> str:
    kind = path.rpartition(".")[2].lower()
    literal = json.dumps(message, ensure_ascii=False)
    if kind == "js":
        return f"console.log({literal});\n"
    if kind == "sh":
        return f"printf '%s\\n' {shlex.quote(message)}\n"
    return f"print({literal})\n"


def _printing_file(act: Actions, path: str, message: str, run: bool) -> Play:
    wrote = yield act.step(
        f"I'll create {path}.", f"我来创建 {path}。", act.write(path, _source(path, message))
    )
    _written(act, path, [wrote])
    if not run or not act.has("bash"):
        shown = yield act.step(
            "I'll read it back (without running it).",
            "我把它读出来看看（不运行）。",
            act.read(path),
        )
        return act.said(
            f"Created {path} (not run). It contains:",
            f"已创建 {path}（没有运行）。内容：",
            shown.text,
        )
    command = f"{RUNNERS[path.rpartition('.')[2].lower()]} {shlex.quote(path)}"
    ran = yield act.step("Now I'll run it to check.", "现在运行它检查一下。", act.run(command))
    if failed(ran) or message not in ran.text:
        return act.said(
            f"I created {path}, but running it did not print {message!r}. `{command}` said:",
            f"已创建 {path}，但运行后没有输出 {message!r}。`{command}` 的输出：",
            ran.text,
        )
    return act.said(
        f"Created {path}. Running `{command}` printed:",
        f"已创建 {path}。运行 `{command}` 输出：",
        ran.text,
    )


def _function_file(
    act: Actions, path: str, function: str, args: list[str], body: str | None
) -> Play:
    signature = f"{function}({', '.join(args)})"
    is_greeting = body is not None and body.startswith('f"Hello')
    line = (
        f"return {body}" if body else f'raise NotImplementedError("{function} is not written yet")'
    )
    source = f"def {signature}:\n    {line}\n"
    if is_greeting:
        demo = ", ".join('"World"' for _ in args)
        source += f'\n\nif __name__ == "__main__":\n    print({function}({demo}))\n'
    wrote = yield act.step(
        f"I'll write {path} with {function}().",
        f"我来写 {path}，里面有 {function}()。",
        act.write(path, source),
    )
    _written(act, path, [wrote])
    stub = (
        ""
        if body
        else act.tr(
            " Its body is a stub that raises NotImplementedError: the offline model does not "
            "write function bodies it cannot name.",
            " 函数体只是一个会抛出 NotImplementedError 的占位：离线模型不会编写它不认识的函数体。",
        )
    )
    if not act.has("bash"):
        shown = yield act.step(
            "I'll read it back to check.", "我把它读出来检查一下。", act.read(path)
        )
        return act.said(
            f"Created {path} with {signature}.{stub} It contains:",
            f"已创建 {path}，包含 {signature}。{stub}内容：",
            shown.text,
        )
    command = (
        f"python3 {shlex.quote(path)}"
        if is_greeting
        else f"python3 -m py_compile {shlex.quote(path)} && echo compiles"
    )
    ran = yield act.step(
        "Now I'll run it to try the function.", "现在运行它试试这个函数。", act.run(command)
    )
    verdict = (
        act.tr("Running it failed:", "运行失败：") if failed(ran) else act.tr("Running", "运行")
    )
    return act.said(
        f"Created {path} with {signature}.{stub} {verdict} `{command}` printed:",
        f"已创建 {path}，包含 {signature}。{stub}{verdict} `{command}` 输出：",
        ran.text,
    )


def append(act: Actions, path: str, text: str) -> Play:
    """Add a line at the end of a file (starting a new line if the file does not end with one)."""
    target = shlex.quote(path)
    # the file must be there: appending to a name that names nothing would create it
    command = (
        f'[ -f {target} ] || {{ echo "error: {path} does not exist"; exit 1; }}; '
        f'[ -s {target} ] && [ -n "$(tail -c1 {target})" ] && echo >> {target}; '
        f"printf '%s\\n' {shlex.quote(text)} >> {target} && tail -n 3 {target}"
    )
    out = yield act.step(
        f"I'll append the line to {path}.", f"我来在 {path} 末尾追加这一行。", act.run(command)
    )
    return act.told(
        out,
        (f"I could not append to {path}. The tool said:", f"没能追加到 {path}。工具输出："),
        (
            f"Appended {text!r} to {path}. Its last lines are now:",
            f"已在 {path} 末尾追加 {text!r}。现在最后几行是：",
        ),
    )


def replace_command(path: str, old: str, new: str, every: bool, words: bool) -> str:
    """A python3 one-off that replaces text (whole words only, if asked) and says how often."""
    find = rf"\b{re.escape(old)}\b" if words else re.escape(old)
    script = (
        "import re\nfrom pathlib import Path\n"
        f"p = Path({json.dumps(path)}); find = re.compile({json.dumps(find)})\n"
        "text = p.read_text(encoding='utf-8'); n = len(find.findall(text))\n"
        f"if not n: raise SystemExit('error: ' + {json.dumps(repr(old))} + f' not found in {{p}}')\n"
        f"p.write_text(find.sub(lambda m: {json.dumps(new)}, text, count={0 if every else 1}), encoding='utf-8')\n"
        f"print(f'replaced {{n if {every} else 1}} of {{n}} occurrence(s) in {{p}}')\n"
    )
    return f"python3 - <<'AGENTLIB_EOF'\n{script}AGENTLIB_EOF"


def replace(act: Actions, path: str, old: str, new: str, all: bool, words: bool) -> Play:
    """Replace text in a file: every occurrence unless told 'only the first'; plain words whole."""
    if all and not words and act.has("edit_file"):
        edit = act.edit(path, old, new, None, replace_all=True)
    else:
        edit = act.run(replace_command(path, old, new, all, words))
    edited = yield act.step(
        f"I'll replace {old!r} with {new!r} in {path}.",
        f"我来把 {path} 里的 {old!r} 替换成 {new!r}。",
        edit,
    )
    return act.told(
        edited,
        ("I could not replace the text. The tool said:", "没能替换。工具输出："),
        (
            f"Replaced {old!r} with {new!r} in {path}. The tool said:",
            f"已把 {path} 里的 {old!r} 替换成 {new!r}。工具输出：",
        ),
    )


def docstring(act: Actions, path: str) -> Play:
    """Read the file, then add a docstring under its first function with the smallest edit."""
    shown = yield act.step(f"I'll read {path} first.", f"我先读取 {path}。", act.read(path))
    if failed(shown):
        unread = act.said(
            f"I could not read {path}, so I cannot edit it. The tool said:",
            f"没能读取 {path}，所以无法修改。工具输出：",
            shown.text,
        )
        return f"{unread}\n" + act.tr(
            f"Create it first, e.g. 'Create a file called {path} with a greet(name) function'.",
            f"请先创建它，例如“创建 {path}，里面有一个 greet(name) 函数”。",
        )
    source = shown.text
    found = re.search(r"^([ \t]*)def (\w+)\((.*?)\)[^\n]*:[ \t]*$", source, re.M)
    act.stop_if(
        not found,
        f"{path} has no function I could document. It contains:",
        f"{path} 里没有可以加文档字符串的函数。内容：",
        source,
    )
    indent, name, params = found[1] + "    ", found[2], found[3]
    act.stop_if(
        source[found.end() :].lstrip().startswith(('"""', "'''")),
        f"{name}() in {path} already has a docstring:",
        f"{path} 里的 {name}() 已经有文档字符串：",
        source,
    )
    first = params.split(",")[0].split(":")[0].split("=")[0].strip() or "the caller"
    summary = f"Return a friendly greeting for {first}." if "greet" in name else f"Run {name}."
    old = found[0]
    new = f'{old}\n{indent}"""{summary}"""'
    edited = yield act.step(
        f"Now I'll add a docstring to {name}().",
        f"现在给 {name}() 加上文档字符串。",
        act.edit(path, old, new, source.replace(old, new, 1)),
    )
    return act.told(
        edited,
        ("The edit failed. The tool said:", "修改失败。工具输出："),
        (
            f'Added the docstring """{summary}""" to {name}() in {path}. The tool said:',
            f'已给 {path} 里的 {name}() 加上文档字符串 """{summary}"""。工具输出：',
        ),
    )
