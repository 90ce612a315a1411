"""The playbook's plays: one generator per try-it task, yielding tool calls and reading real results.

A play yields an ``Act`` (tool calls) and receives what the tools returned (one ``Result``, or a
list when the act made several calls); its return value is the final answer. The playbook
replays a play against the history in each request, so the server itself keeps no state.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Generator
from typing import Any

from agentlib.offline.actions import Act, Actions, failed, quote

Play = Generator[Act, Any, str]


def create_printing_file(act: Actions, path: str, message: str) -> Play:
    """Write a one-line script that prints ``message``, then run it (or read it back)."""
    source = f"print({json.dumps(message, ensure_ascii=False)})\n"
    wrote = yield Act([act.write(path, source)], f"I'll create {path}.")
    if failed(wrote):
        return f"I could not create {path}. The tool said:\n{quote(wrote.text)}"
    if not act.has("bash"):
        shown = yield Act([act.read(path)], "I have no bash tool to run it, so I'll read it back.")
        return f"Created {path}. It contains:\n{quote(shown.text)}"
    command = f"python3 {shlex.quote(path)}"
    ran = yield Act([act.run(command)], "Now I'll run it to check.")
    if failed(ran) or message not in ran.text:
        return (
            f"I created {path}, but running it did not print {message!r}. "
            f"`{command}` said:\n{quote(ran.text)}"
        )
    return f"Created {path}. Running `{command}` printed:\n{quote(ran.text)}"


def list_python_files(act: Actions, chinese: bool) -> Play:
    """Find the .py files and name them, in the language of the question."""
    intro = "我来查找 Python 文件。" if chinese else "I'll look for Python files."
    found = yield Act([act.find("*.py")], intro)
    if failed(found):
        head = "查找失败，工具输出：" if chinese else "The search failed. The tool said:"
        return f"{head}\n{quote(found.text)}"
    lines = (line.strip() for line in found.text.splitlines())
    # keep path lines only: the glob tool also writes notes such as "No files match **/*.py"
    files = [
        line.removeprefix("./")
        for line in lines
        if line.endswith(".py") and not line.lower().startswith(("no files", "("))
    ]
    if chinese:
        if not files:
            return f"当前目录没有 Python 文件。工具输出：\n{quote(found.text)}"
        return f"当前目录有{len(files)}个Python文件：{'、'.join(files)}"
    if not files:
        return f"There are no Python files here. The search returned:\n{quote(found.text)}"
    plural = "" if len(files) == 1 else "s"
    listing = "\n".join(f"  - {name}" for name in files)
    return f"Found {len(files)} Python file{plural}:\n{listing}"


def current_git_branch(act: Actions) -> Play:
    """Ask git for the branch (or read .git/HEAD when there is no bash)."""
    if not act.has("bash"):
        head = yield Act([act.read(".git/HEAD")], "I'll read .git/HEAD.")
        ref = re.search(r"ref: refs/heads/(\S+)", head.text)
        if failed(head) or not ref:
            return f"I could not find a branch in .git/HEAD. The tool said:\n{quote(head.text)}"
        return f"The current git branch is `{ref[1]}` (from .git/HEAD)."
    command = "git branch --show-current"
    out = yield Act([act.run(command)], "I'll ask git.")
    if failed(out):
        return f"git reported an error, so I cannot tell the branch. `{command}` said:\n{quote(out.text)}"
    name = out.text.strip()
    if not name or name == "(no output)":
        return f"`{command}` printed no branch name: HEAD is detached (no branch is checked out)."
    return f"The current git branch is `{name.splitlines()[0]}`."


def create_files_in_folder(act: Actions, folder: str, count: int) -> Play:
    """Create ``folder`` holding ``count`` small text files, then list it."""
    files = {
        f"{folder}/file{i}.txt": f"This is file {i} of {count}.\n" for i in range(1, count + 1)
    }
    intro = f"I'll create {folder}/ with {count} files."
    if act.has("write_file"):
        # write_file creates the folder; all writes go out in one turn, results come back together
        results = yield Act([act.write(path, text) for path, text in files.items()], intro)
        results = results if isinstance(results, list) else [results]
    else:
        writes = " && ".join(
            f"printf '%s\\n' {shlex.quote(text.strip())} > {shlex.quote(path)}"
            for path, text in files.items()
        )
        results = [(yield Act([act.run(f"mkdir -p {shlex.quote(folder)} && {writes}")], intro))]
    problems = [result.text for result in results if failed(result)]
    if problems:
        return f"Some files could not be written. The tools said:\n{quote(chr(10).join(problems))}"
    listing = yield Act([act.list_dir(folder)], "Let me check what is there now.")
    names = ", ".join(path.rpartition("/")[2] for path in files)
    return (
        f"Created {folder}/ with {count} files ({names}). Listing it shows:\n{quote(listing.text)}"
    )


def read_file(act: Actions, path: str, verify_docstring: bool) -> Play:
    """Read a file and show it; when asked to verify an edit, say whether a docstring is there."""
    shown = yield Act([act.read(path)], f"I'll read {path}.")
    if failed(shown):
        return f"I could not read {path}. The tool said:\n{quote(shown.text)}"
    answer = f"Here is {path}:\n{quote(shown.text)}"
    if verify_docstring:
        has_docstring = re.search(r"def \w+\(.*\).*:\s*\n\s*(\"\"\"|''')", shown.text)
        answer += (
            "\nThe edit worked: the function has a docstring."
            if has_docstring
            else "\nI see no docstring under the function, so the edit is not there."
        )
    return answer


def create_function_file(act: Actions, path: str, function: str, params: str) -> Play:
    """Write a module with the requested function and a demo, then run it (or read it back)."""
    args = [name.strip() for name in params.split(",") if name.strip()] or ["name"]
    body = f'f"Hello, {{{args[0]}}}!"' if "greet" in function or "hello" in function else args[0]
    demo = ", ".join('"World"' for _ in args)
    source = (
        f"def {function}({', '.join(args)}):\n    return {body}\n\n\n"
        f'if __name__ == "__main__":\n    print({function}({demo}))\n'
    )
    wrote = yield Act([act.write(path, source)], f"I'll write {path} with {function}().")
    if failed(wrote):
        return f"I could not create {path}. The tool said:\n{quote(wrote.text)}"
    if not act.has("bash"):
        shown = yield Act([act.read(path)], "I'll read it back to check.")
        return (
            f"Created {path} with {function}({', '.join(args)}). It contains:\n{quote(shown.text)}"
        )
    command = f"python3 {shlex.quote(path)}"
    ran = yield Act([act.run(command)], "Now I'll run it to try the function.")
    verdict = "Running it failed:" if failed(ran) else "Running"
    return (
        f"Created {path} with {function}({', '.join(args)}). {verdict} `{command}` printed:\n"
        f"{quote(ran.text)}"
    )


def add_docstring(act: Actions, path: str) -> Play:
    """Read the file, then add a docstring under its first function with the smallest edit."""
    shown = yield Act([act.read(path)], f"I'll read {path} first.")
    if failed(shown):
        return (
            f"I could not read {path}, so I cannot edit it. The tool said:\n{quote(shown.text)}\n"
            f"Create it first, e.g. 'Create a file called {path} with a greet(name) function'."
        )
    source = shown.text
    found = re.search(r"^([ \t]*)def (\w+)\((.*?)\)[^\n]*:[ \t]*$", source, re.M)
    if not found:
        return f"{path} has no function I could document. It contains:\n{quote(source)}"
    indent, name, params = found[1] + "    ", found[2], found[3]
    after = source[found.end() :].lstrip("\n").lstrip()
    if after.startswith(('"""', "'''")):
        return f"{name}() in {path} already has a docstring:\n{quote(source)}"
    first = (params.split(",")[0].split(":")[0].split("=")[0].strip()) or "the caller"
    summary = f"Return a friendly greeting for {first}." if "greet" in name else f"Run {name}."
    old = found[0]
    new = f'{old}\n{indent}"""{summary}"""'
    edit = act.edit(path, old, new, source.replace(old, new, 1))
    edited = yield Act([edit], f"Now I'll add a docstring to {name}().")
    if failed(edited):
        return f"The edit failed. The tool said:\n{quote(edited.text)}"
    done = f'Added the docstring """{summary}""" to {name}() in {path}.'
    return f"{done} The tool said:\n{quote(edited.text)}"
