"""The honest fallback: says it is the offline model, which part it could not handle, and how to go further."""

from __future__ import annotations

from typing import Any

from agentlib.offline.conversation import last_prompt, offered_tools
from agentlib.offline.playbook.context import advice
from agentlib.offline.playbook.parser import parse
from agentlib.offline.script import Reply, say
from agentlib.text import clip

DECLINED = ("I can't do this offline.", "这个请求离线模型做不了。")
EXAMPLES = (
    '"show notes.txt", "list the Python files", "which files mention utils", '
    '"rename a.txt to b.txt", "run main.py", "create hello.py that prints hi"'
)
EXAMPLES_ZH = "“显示 notes.txt”“列出所有 Python 文件”“哪些文件提到了 utils”“把 a.txt 重命名为 b.txt”“运行 main.py”"


class Fallback:
    """Answers anything: an honest note about the offline model instead of a made-up answer."""

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply:
        """Name the model, the part of the request it could not read, and the way forward."""
        found = last_prompt(request["messages"])
        prompt = found[1] if found else ""
        parsed = parse(prompt)
        zh = parsed.chinese
        chapter = "s01" if offered_tools(request) == {"bash"} else "s02"
        go_live = advice(surface, zh, chapter)
        part = clip(parsed.unclear or prompt, 200)
        if zh:
            return say(
                f"{DECLINED[1]}你问的是：{clip(prompt, 200)!r}。我是 agentlib 的离线模型，不是 Claude："
                f"我只按固定的规则做简单的工作区任务，没能处理这一部分：{part!r}，所以什么都没做。"
                f"可以换个说法，一次只提一个简单任务，例如{EXAMPLES_ZH}；或者使用真实模型。{go_live}"
            )
        return say(
            f"{DECLINED[0]} You asked: {clip(prompt, 200)!r}. I am agentlib's offline model, not "
            "Claude: I follow a fixed playbook of simple workspace tasks, and I could not "
            f"handle this part: {part!r}, so I did nothing. Try rephrasing it as tasks I "
            f"know, e.g. {EXAMPLES}; or use a real model. {go_live}"
        )
