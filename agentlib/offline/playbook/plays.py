"""The plays that look, run or talk, or read one value (a version, a setting) out of a real file."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from agentlib.offline.playbook.actions import Actions, Play, failed, plural, read_text
from agentlib.offline.playbook.lexicon import KEY_WORDS, RUNNERS
from agentlib.offline.playbook.valueframes import VERSION


def chat(act: Actions, about: str, advice: str) -> Play:
    """Greetings, thanks and questions about the model itself: answered without a tool."""
    if about == "thanks":
        return act.tr("You're welcome! (This is the offline model.)", "不客气！（我是离线模型。）")
    intro = act.tr("Hello! ", "你好！") if about == "greet" else ""
    return intro + act.tr(
        "I am agentlib's offline model, not Claude: a fixed playbook that does simple workspace "
        "tasks with real tools (create, show, list, count, search, rename, copy, delete files, "
        "run scripts, git branch/status/log, small sums) and says so when it cannot. " + advice,
        "我是 agentlib 的离线模型，不是 Claude：我按固定的规则用真实的工具做简单的工作区任务"
        "（创建、查看、列出、统计、搜索、重命名、复制、删除文件，运行脚本，git 分支/状态/日志，"
        "简单计算），做不到时会直说。" + advice,
    )
    yield  # pragma: no cover - makes this a generator like the other plays


def math(act: Actions, expr: str, value: Any) -> Play:
    """A small sum, worked out exactly (no tool needed)."""
    return act.tr(f"{expr} = {value}", f"计算结果：{expr} = {value}")
    yield  # pragma: no cover


def git(act: Actions, what: str, n: int) -> Play:
    """The branch, the status or the log, as git itself reports them."""
    if what == "branch" and not act.has("bash"):
        head = yield act.step("I'll read .git/HEAD.", "我来读取 .git/HEAD。", act.read(".git/HEAD"))
        ref = re.search(r"ref: refs/heads/(\S+)", head.text)
        none = (
            "I could not find a branch in .git/HEAD. The tool said:",
            "在 .git/HEAD 里没找到分支。工具输出：",
        )
        act.stop_if(failed(head) or not ref, *none, head.text)
        return act.tr(
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
    out = yield act.step("I'll ask git.", "我来问 git。", act.run(command))
    error = (f"git reported an error. `{command}` said:", f"git 报错了。`{command}` 输出：")
    act.stop_if(failed(out), *error, out.text)
    text = out.text.strip()
    if what == "count" and text.isdigit():
        return act.tr(
            f"This repository has {plural(int(text), 'commit')}.", f"这个仓库一共有 {text} 次提交。"
        )
    if what != "branch":
        return act.said(f"`{command}` says:", f"`{command}` 的输出：", text)
    if not text or text == "(no output)":
        return act.tr(
            f"`{command}` printed no branch name: HEAD is detached (no branch is checked out).",
            f"`{command}` 没有输出分支名：HEAD 处于分离状态（没有检出任何分支）。",
        )
    branch = text.splitlines()[0]
    return act.tr(f"The current git branch is `{branch}`.", f"当前 git 分支是 `{branch}`。")


def _lines(n: int) -> str:
    """'line' for one (the first line), '3 lines' for more."""
    return "line" if n == 1 else f"{n} lines"


def _which(act: Actions, path: str, head, tail, lines) -> str:
    """Which part of the file an answer shows, in words."""
    if head:
        return act.tr(f"the first {_lines(head)} of {path}", f"{path} 的前 {head} 行")
    if tail:
        return act.tr(f"the last {_lines(tail)} of {path}", f"{path} 的最后 {tail} 行")
    if lines and lines[0] == lines[1]:
        return act.tr(f"line {lines[0]} of {path}", f"{path} 的第 {lines[0]} 行")
    if lines:
        return act.tr(
            f"lines {lines[0]}-{lines[1]} of {path}", f"{path} 的第 {lines[0]}-{lines[1]} 行"
        )
    return path


# how a line is tested, and how the test is said: in English (for many lines, for one), in Chinese
LINE_TESTS = {
    "in": (str.__contains__, "contain {}", "contains {}", "包含 {}"),
    "start": (str.startswith, "start with {}", "starts with {}", "以 {} 开头"),
    "end": (str.endswith, "end with {}", "ends with {}", "以 {} 结尾"),
}
CUT = re.compile(r"\[… .* cut …\]|\.\.\. \[cut: ")  # what stands where a read was cut short


def _passes(line: str, tests: list[list]) -> bool:
    """Whether a line passes every test, as fixed text ignoring case ('err' finds 'ERR')."""
    low = line.lower()
    return all(LINE_TESTS[how][0](low, text.lower()) == keep for how, text, keep in tests)


def _said(act: Actions, tests: list[list], one: bool) -> str:
    """ "contain 'err' and don't start with '#'", "包含 'err'、不以 '#' 开头"."""
    words = []
    for how, text, keep in tests:
        _, many, single, chinese = LINE_TESTS[how]
        english = (single if one and keep else many).format(repr(text))
        english = english if keep else ("doesn't " if one else "don't ") + english
        words.append(act.tr(english, ("" if keep else "不") + chinese.format(repr(text))))
    return act.tr(" and ", "、").join(words)


def matching(act: Actions, path: str, text: str, tests: list[list], counting: bool) -> str:
    """The lines that pass the tests, numbered; how many when that was asked (each line once)."""
    act.stop_if(
        bool(CUT.search(text)),
        f"{path} is too long to read whole here, so I can't say which lines match.",
        f"{path} 太长，这里读不全，所以我没法说哪些行符合。",
    )
    found = [(n, line) for n, line in enumerate(text.splitlines(), 1) if _passes(line, tests)]
    case = any(char.isalpha() for _, term, _ in tests for char in term)
    note = act.tr(" (ignoring case)", "（不区分大小写）") if case else ""
    if not found:
        return act.tr(
            f"No line of {path} {_said(act, tests, True)}{note}.",
            f"{path} 里没有{_said(act, tests, True)}的行{note}。",
        )
    shown = "\n".join(f"{n}: {line}" for n, line in found)
    one = len(found) == 1
    if counting:
        return act.said(
            f"{plural(len(found), 'line')} of {path} {_said(act, tests, one)}{note}:",
            f"{path} 里有 {len(found)} 行{_said(act, tests, one)}{note}：",
            shown,
        )
    return act.said(
        f"Here {'is the line' if one else 'are the lines'} of {path} that "
        f"{_said(act, tests, one)}{note}:",
        f"这是 {path} 里{_said(act, tests, one)}的行{note}：",
        shown,
    )


def show(
    act: Actions,
    path: str,
    head: int | None = None,
    tail: int | None = None,
    verify: bool = False,
    lines: list[int] | None = None,
    grep: list[list] | None = None,
    count: bool = False,
) -> Play:
    """Show a file, or its first/last lines, or the lines that pass ``grep``'s tests (or how
    many do); when asked to verify an edit, look for a docstring."""
    text = yield from read_text(act, path, head, tail)
    if grep:
        return matching(act, path, text, grep, count)
    if tail and act.has("read_file"):
        text = "\n".join(text.rstrip("\n").splitlines()[-tail:])
    if lines:
        numbered = [(n, x) for n, x in enumerate(text.splitlines(), 1) if lines[0] <= n <= lines[1]]
        total = len(text.splitlines())
        act.stop_if(
            not numbered,
            f"{path} has no such line: it has {plural(total, 'line')}.",
            f"{path} 没有这一行：它一共 {total} 行。",
        )
        text = "\n".join(f"{n}: {line}" for n, line in numbered)
    which = _which(act, path, head, tail, lines)
    plural_ = (head or tail or 1) > 1 or bool(lines and lines[0] != lines[1])
    answer = act.said(f"Here {'are' if plural_ else 'is'} {which}:", f"这是 {which}：", text)
    if not verify:
        return answer
    if re.search(r"def \w+\(.*\).*:\s*\n\s*(\"\"\"|''')", text):
        return answer + act.tr(
            "\nThe edit worked: the function has a docstring.", "\n修改成功：函数有文档字符串了。"
        )
    return answer + act.tr(
        "\nI see no docstring under the function, so the edit is not there.",
        "\n函数下面没有文档字符串，修改没有生效。",
    )


def run(act: Actions, path: str | None = None, command: str | None = None, args=()) -> Play:
    """Run a script (the only one there is, if unnamed) or a command; report what it printed."""
    if command is None and path is None:
        kinds = " -o ".join(f"-name '*.{kind}'" for kind in RUNNERS)
        found = yield act.step(
            "I'll look for the script.",
            "我先找一下脚本。",
            act.run(f"find . -type f \\( {kinds} \\) -not -path './.git/*' | sort"),
        )
        scripts = [line.removeprefix("./") for line in found.text.splitlines() if "." in line]
        scripts = [s for s in scripts if not s.startswith(("[", "("))]
        act.stop_if(
            len(scripts) != 1,
            f"I can't do this offline: which script? I found {plural(len(scripts), 'script')}"
            f"{': ' + ', '.join(scripts) if scripts else ''}. Name the one to run.",
            f"这个请求离线模型做不了：要运行哪个脚本？我找到 {len(scripts)} 个"
            f"{'：' + '、'.join(scripts) if scripts else ''}。请说出文件名。",
        )
        path = scripts[0]
    if command is None:
        line = " ".join(shlex.quote(a) for a in (path, *args))
        command = f"{RUNNERS[path.rpartition('.')[2].lower()]} {line}"
    out = yield act.step(f"I'll run `{command}`.", f"我来运行 `{command}`。", act.run(command))
    return act.told(
        out,
        (f"`{command}` failed. It printed:", f"`{command}` 运行出错，输出："),
        (f"`{command}` printed:", f"`{command}` 输出："),
    )


LEVELS = {"major": 0, "minor": 1}  # any other level is the last number


def bumped(old: str, level: str) -> str:
    """The next version at this level: '1.4.2' patch -> '1.4.3', minor -> '1.5.0'."""
    numbers = [int(n) for n in old.split(".")]
    at = min(LEVELS.get(level, len(numbers) - 1), len(numbers) - 1)
    numbers[at] += 1
    numbers[at + 1 :] = [0] * (len(numbers) - at - 1)
    return ".".join(map(str, numbers))


def version(act: Actions, path: str, to: str | None, bump: str | None) -> Play:
    """Say the version number a file holds, or change just that number (bumped or as given)."""
    text = yield from read_text(act, path)
    found = VERSION.findall(text)
    act.stop_if(
        len(set(found)) != 1,
        f"I found {'more than one' if found else 'no'} version number in {path}, "
        "so I changed nothing:",
        f"{path} 里{'不止一个' if found else '没有'}版本号，所以我什么都没改：",
        text,
    )
    old = found[0]
    if to is None and bump is None:
        return act.tr(f"The version in {path} is {old}.", f"{path} 里的版本号是 {old}。")
    new = to or bumped(old, bump)
    edited = yield act.step(
        f"It is {old}; I'll change it to {new}.",
        f"现在是 {old}，我把它改成 {new}。",
        act.edit(path, old, new, text.replace(old, new), replace_all=True),
    )
    return act.told(
        edited,
        ("I could not change the version. The tool said:", "没能修改版本号。工具输出："),
        (
            f"Changed the version in {path} from {old} to {new}. The tool said:",
            f"已把 {path} 里的版本号从 {old} 改成 {new}。工具输出：",
        ),
    )


def _lookup(text: str, key: str) -> tuple[str, str] | None:
    """The value of ``key`` (any case) and the line that sets it: JSON keys, else 'key = value'."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for name, value in node.items():
                if name.lower() == key.lower() and not isinstance(value, (dict, list)):
                    shown = value if isinstance(value, str) else json.dumps(value)
                    return shown, f"{json.dumps(name)}: {json.dumps(value)}"
            stack += list(node.values())
    line = re.search(
        rf"^\s*(?:export\s+)?[\"']?{re.escape(key)}[\"']?\s*[:=]\s*(.*?)\s*[,;]?\s*$",
        text,
        re.I | re.M,
    )
    return (line[1].strip("\"'"), line[0].strip()) if line and line[1] else None


def setting(act: Actions, path: str, key: str) -> Play:
    """The value one key has in a config file, as the file says it; a decline when it has none."""
    text = yield from read_text(act, path)
    for name in dict.fromkeys([key, KEY_WORDS.get(key, key)]):
        if found := _lookup(text, name):
            value, line = found
            return act.said(
                f"In {path}, {name} is {value}:", f"{path} 里 {name} 的值是 {value}：", line
            )
    return act.tr(
        f"I can't do this offline: I found no setting called {key!r} in {path} (I changed nothing).",
        f"这个请求离线模型做不了。{path} 里没有找到叫 {key!r} 的设置（我什么都没改）。",
    )
