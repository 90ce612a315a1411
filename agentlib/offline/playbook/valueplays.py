"""Plays that read one value out of a real file: its version number, or one setting's value."""

from __future__ import annotations

import json
import re

from agentlib.offline.playbook.actions import Actions, Play, read_text
from agentlib.offline.playbook.lexicon import KEY_WORDS
from agentlib.offline.playbook.valueframes import VERSION

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
