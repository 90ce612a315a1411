"""The playbook's plays that look, run or talk: one generator per kind of part, reading real tool results.

A play yields an ``Act`` (tool calls) and receives what the tools returned (one ``Result``, or a
list when the act made several calls); its return value is its part of the final answer. The
playbook replays the plays against the history in each request, so the server keeps no state.
Every play takes ``zh`` (answer in Chinese) and words its text through ``tr``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Generator
from typing import Any

from agentlib.offline.conversation import Result
from agentlib.offline.playbook.actions import Act, Actions, failed, quote, tr
from agentlib.offline.playbook.lexicon import RUNNERS

Play = Generator[Act, Any, str]  # yields tool calls, receives their results, returns the answer


def chat(act: Actions, zh: bool, about: str, advice: str) -> Play:
    """Greetings, thanks and questions about the model itself: answered without a tool."""
    if about == "thanks":
        return tr(zh, "You're welcome! (This is the offline model.)", "不客气！（我是离线模型。）")
    intro = tr(zh, "Hello! " if about == "greet" else "", "你好！" if about == "greet" else "")
    return intro + tr(
        zh,
        "I am agentlib's offline model, not Claude: a fixed playbook that does simple workspace "
        "tasks with real tools (create, show, list, count, search, rename, copy, delete files, "
        "run scripts, git branch/status/log, small sums) and says so when it cannot. " + advice,
        "我是 agentlib 的离线模型，不是 Claude：我按固定的规则用真实的工具做简单的工作区任务"
        "（创建、查看、列出、统计、搜索、重命名、复制、删除文件，运行脚本，git 分支/状态/日志，"
        "简单计算），做不到时会直说。" + advice,
    )
    yield  # pragma: no cover - makes this a generator like the other plays


def math(act: Actions, zh: bool, expr: str, value: Any) -> Play:
    """A small sum, worked out exactly (no tool needed)."""
    return tr(zh, f"{expr} = {value}", f"计算结果：{expr} = {value}")
    yield  # pragma: no cover


def git(act: Actions, zh: bool, what: str, n: int) -> Play:
    """The branch, the status or the log, as git itself reports them."""
    if what == "branch" and not act.has("bash"):
        head = yield Act(
            [act.read(".git/HEAD")], tr(zh, "I'll read .git/HEAD.", "我来读取 .git/HEAD。")
        )
        ref = re.search(r"ref: refs/heads/(\S+)", head.text)
        if failed(head) or not ref:
            return tr(
                zh,
                "I could not find a branch in .git/HEAD. The tool said:",
                "在 .git/HEAD 里没找到分支。工具输出：",
            ) + quote(head.text)
        return tr(
            zh,
            f"The current git branch is `{ref[1]}` (from .git/HEAD).",
            f"当前 git 分支是 `{ref[1]}`（读自 .git/HEAD）。",
        )
    command = {
        "branch": "git branch --show-current",
        "status": "git status",
        "log": f"git log --oneline -n {max(1, min(n, 50))}",
        "last": "git log -1 --format='%h %s (%an, %ar)'",
        "count": "git rev-list --count HEAD",
    }[what]
    out = yield Act([act.run(command)], tr(zh, "I'll ask git.", "我来问 git。"))
    if failed(out):
        return tr(
            zh, f"git reported an error. `{command}` said:", f"git 报错了。`{command}` 输出："
        ) + quote(out.text)
    text = out.text.strip()
    if what == "count" and text.isdigit():
        return tr(
            zh,
            f"This repository has {_count(int(text), 'commit')}.",
            f"这个仓库一共有 {text} 次提交。",
        )
    if what != "branch":
        return tr(zh, f"`{command}` says:", f"`{command}` 的输出：") + quote(text)
    if not text or text == "(no output)":
        return tr(
            zh,
            f"`{command}` printed no branch name: HEAD is detached (no branch is checked out).",
            f"`{command}` 没有输出分支名：HEAD 处于分离状态（没有检出任何分支）。",
        )
    return tr(
        zh,
        f"The current git branch is `{text.splitlines()[0]}`.",
        f"当前 git 分支是 `{text.splitlines()[0]}`。",
    )


def show(
    act: Actions,
    zh: bool,
    path: str,
    head: int | None = None,
    tail: int | None = None,
    verify: bool = False,
    lines: list[int] | None = None,
    grep: str | None = None,
) -> Play:
    """Show a file, or its first/last lines; when asked to verify an edit, look for a docstring."""
    shown = yield Act(
        [act.read(path, head=head, tail=tail)], tr(zh, f"I'll read {path}.", f"我来读取 {path}。")
    )
    # a file may itself hold 'Error:' or a traceback: only the tool's own failure counts here
    if _read_failed(act, shown):
        return tr(
            zh, f"I could not read {path}. The tool said:", f"没能读取 {path}。工具输出："
        ) + quote(shown.text)
    text = shown.text
    if tail and act.has("read_file"):
        text = "\n".join(text.rstrip("\n").splitlines()[-tail:])
    if lines or grep:
        numbered = list(enumerate(text.splitlines(), 1))
        if lines:
            numbered = [(n, line) for n, line in numbered if lines[0] <= n <= lines[1]]
        else:
            numbered = [(n, line) for n, line in numbered if grep.lower() in line.lower()]
        if not numbered:
            return tr(
                zh,
                f"{path} has no such line: it has {_count(len(text.splitlines()), 'line')}."
                if lines
                else f"No line of {path} contains {grep!r}.",
                f"{path} 没有这一行：它一共 {len(text.splitlines())} 行。"
                if lines
                else f"{path} 里没有包含 {grep!r} 的行。",
            )
        text = "\n".join(f"{n}: {line}" for n, line in numbered)
    which = (
        tr(zh, f"the first {_lines(head)} of {path}", f"{path} 的前 {head} 行")
        if head
        else tr(zh, f"the last {_lines(tail)} of {path}", f"{path} 的最后 {tail} 行")
        if tail
        else tr(zh, f"line {lines[0]} of {path}", f"{path} 的第 {lines[0]} 行")
        if lines and lines[0] == lines[1]
        else tr(
            zh, f"lines {lines[0]}-{lines[1]} of {path}", f"{path} 的第 {lines[0]}-{lines[1]} 行"
        )
        if lines
        else tr(zh, f"the lines of {path} that contain {grep!r}", f"{path} 里包含 {grep!r} 的行")
        if grep
        else path
    )
    plural = (head or tail or 1) > 1 or bool(grep) or bool(lines and lines[0] != lines[1])
    answer = tr(zh, f"Here {'are' if plural else 'is'} {which}:", f"这是 {which}：") + quote(text)
    if verify:
        has_docstring = re.search(r"def \w+\(.*\).*:\s*\n\s*(\"\"\"|''')", text)
        answer += (
            tr(
                zh,
                "\nThe edit worked: the function has a docstring.",
                "\n修改成功：函数有文档字符串了。",
            )
            if has_docstring
            else tr(
                zh,
                "\nI see no docstring under the function, so the edit is not there.",
                "\n函数下面没有文档字符串，修改没有生效。",
            )
        )
    return answer


def run(
    act: Actions, zh: bool, path: str | None = None, command: str | None = None, args=()
) -> Play:
    """Run a script (the only one there is, if unnamed) or a command; report what it printed."""
    if command is None and path is None:
        kinds = " -o ".join(f"-name '*.{kind}'" for kind in RUNNERS)
        found = yield Act(
            [act.run(f"find . -type f \\( {kinds} \\) -not -path './.git/*' | sort")],
            tr(zh, "I'll look for the script.", "我先找一下脚本。"),
        )
        scripts = [line.removeprefix("./") for line in found.text.splitlines() if "." in line]
        scripts = [s for s in scripts if not s.startswith(("[", "("))]
        if len(scripts) != 1:
            return tr(
                zh,
                f"I can't do this offline: which script? I found {_count(len(scripts), 'script')}"
                f"{': ' + ', '.join(scripts) if scripts else ''}. Name the one to run.",
                f"这个请求离线模型做不了：要运行哪个脚本？我找到 {len(scripts)} 个"
                f"{'：' + '、'.join(scripts) if scripts else ''}。请说出文件名。",
            )
        path = scripts[0]
    if command is None:
        line = " ".join(shlex.quote(a) for a in (path, *args))
        command = f"{RUNNERS[path.rpartition('.')[2].lower()]} {line}"
    out = yield Act([act.run(command)], tr(zh, f"I'll run `{command}`.", f"我来运行 `{command}`。"))
    if failed(out):
        return tr(zh, f"`{command}` failed. It printed:", f"`{command}` 运行出错，输出：") + quote(
            out.text
        )
    return tr(zh, f"`{command}` printed:", f"`{command}` 输出：") + quote(out.text)


def _count(n: int, noun: str) -> str:
    """'1 file', '2 files': a count that reads right."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _lines(n: int) -> str:
    """'line' for one (the first line), '3 lines' for more."""
    return "line" if n == 1 else f"{n} lines"


def _read_failed(act: Actions, shown: Result) -> bool:
    """read_file says so itself; cat/head/tail fail with their own name or a non-zero exit code."""
    if act.has("read_file") or shown.is_error:
        return shown.is_error
    return bool(re.search(r"\[exit code [1-9]\d*\]\s*$|^(?:cat|head|tail): ", shown.text))
