"""Plays that read one value out of a real file: its version number, or one setting's value."""

from __future__ import annotations

import json
import re

from agentlib.offline.playbook.actions import Act, Actions, quote, told, tr
from agentlib.offline.playbook.lexicon import KEY_WORDS
from agentlib.offline.playbook.plays import Play, _read_failed
from agentlib.offline.playbook.valueframes import VERSION

LEVELS = {"major": 0, "minor": 1}  # any other level is the last number


def _read(act: Actions, zh: bool, path: str) -> Play:
    shown = yield Act([act.read(path)], tr(zh, f"I'll read {path}.", f"我来读取 {path}。"))
    if _read_failed(act, shown):
        return None, tr(
            zh, f"I could not read {path}. The tool said:", f"没能读取 {path}。工具输出："
        ) + quote(shown.text)
    return shown.text, ""


def bumped(old: str, level: str) -> str:
    """The next version at this level: '1.4.2' patch -> '1.4.3', minor -> '1.5.0'."""
    numbers = [int(n) for n in old.split(".")]
    at = min(LEVELS.get(level, len(numbers) - 1), len(numbers) - 1)
    numbers[at] += 1
    numbers[at + 1 :] = [0] * (len(numbers) - at - 1)
    return ".".join(map(str, numbers))


def version(act: Actions, zh: bool, path: str, to: str | None, bump: str | None) -> Play:
    """Say the version number a file holds, or change just that number (bumped or as given)."""
    text, failure = yield from _read(act, zh, path)
    if text is None:
        return failure
    found = VERSION.findall(text)
    if len(set(found)) != 1:
        return tr(
            zh,
            f"I found {'no' if not found else 'more than one'} version number in {path}, so I changed nothing:",
            f"{path} 里{'没有' if not found else '不止一个'}版本号，所以我什么都没改：",
        ) + quote(text)
    old = found[0]
    if to is None and bump is None:
        return tr(zh, f"The version in {path} is {old}.", f"{path} 里的版本号是 {old}。")
    new = to or bumped(old, bump)
    edited = yield Act(
        [act.edit(path, old, new, text.replace(old, new), replace_all=True)],
        tr(zh, f"It is {old}; I'll change it to {new}.", f"现在是 {old}，我把它改成 {new}。"),
    )
    return told(
        edited,
        zh,
        ("I could not change the version. The tool said:", "没能修改版本号。工具输出："),
        (
            f"Changed the version in {path} from {old} to {new}. The tool said:",
            f"已把 {path} 里的版本号从 {old} 改成 {new}。工具输出：",
        ),
    )


def _lookup(text: str, key: str) -> tuple[str, str] | None:
    """The value of ``key`` (any case) and the line that sets it: JSON keys, else 'key = value' lines."""
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


def setting(act: Actions, zh: bool, path: str, key: str) -> Play:
    """The value one key has in a config file, as the file says it; a decline when it has none."""
    text, failure = yield from _read(act, zh, path)
    if text is None:
        return failure
    for name in dict.fromkeys([key, KEY_WORDS.get(key, key)]):
        if found := _lookup(text, name):
            value, line = found
            return tr(
                zh, f"In {path}, {name} is {value}:", f"{path} 里 {name} 的值是 {value}："
            ) + quote(line)
    return tr(
        zh,
        f"I can't do this offline: I found no setting called {key!r} in {path} (I changed nothing).",
        f"这个请求离线模型做不了。{path} 里没有找到叫 {key!r} 的设置（我什么都没改）。",
    )
