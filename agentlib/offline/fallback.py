"""The honest fallback: says it is the offline model, which words it could not place, and how to go further."""

from __future__ import annotations

from typing import Any

from agentlib.offline.conversation import last_prompt, offered_tools
from agentlib.offline.playbook.context import advice, context_of
from agentlib.offline.playbook.reader import read
from agentlib.offline.script import Reply, say

DECLINED = ("I can't do this offline.", "这个请求离线模型做不了。")
MAX_DECLINE = 300  # characters: what it could not do, one thing it can, how to go further
EXAMPLE = ('I can, e.g., "list the Python files".', "我能做的例如：“列出所有 Python 文件”。")
DANGER = {
    "outside": ("it reaches outside the workspace", "它会访问工作区以外的地方"),
    "wipe": ("it would destroy files", "它会毁掉文件"),
    "network": ("it runs code fetched from the network", "它会运行从网络下载的代码"),
    "secrets": ("it would show secrets (keys, the environment)", "它会泄露密钥或环境变量"),
    "escalate": ("it asks for powers over the machine", "它要求控制整台机器"),
}


class Fallback:
    """Answers anything: an honest note about the offline model instead of a made-up answer."""

    def answer(self, request: dict[str, Any]) -> Reply:
        """Name the words it could not place, one thing it can do, and the way to a real model."""
        found = last_prompt(request["messages"])
        prompt = found[1] if found else ""
        parsed = read(prompt)
        zh = parsed.chinese
        if parsed.danger:
            why = DANGER[parsed.danger][zh]
            return say(
                f"我不会这样做：这很危险，{why}。我只在这个工作区里做简单任务，例如列出或查看这里的文件。"
                if zh
                else f"I won't do that: it is dangerous ({why}). I only do simple tasks inside "
                "this workspace, such as listing or reading the files here."
            )
        chapter = "s01" if offered_tools(request) == {"bash"} else "s02"
        go_live = advice(context_of(request), zh, chapter)
        if not parsed.unclear:  # understood, but the history holds a run it did not make
            return say(
                f"{DECLINED[1]}我是离线模型：这段对话里的工具调用不是我做的，我没法接着做。请把这个请求作为新的对话重新发送。{go_live}"
                if zh
                else f"{DECLINED[0]} I am the offline model: the tool calls in this history are not "
                f"mine, so I cannot go on from them. Send the request again in a new history. {go_live}"
            )
        if zh:
            head = f"{DECLINED[1]}我是离线模型，没能理解："
            rest = f"。{EXAMPLE[1]}{go_live}"
        else:
            head = f"{DECLINED[0]} The offline model did not understand: "
            rest = f". {EXAMPLE[0]} {go_live}"
        room = max(20, MAX_DECLINE - len(head) - len(rest) - 2)
        words = " ".join(parsed.unclear.split())
        if len(words) > room:
            words = words[: room - 1] + "…"
        return say(f"{head}“{words}”{rest}" if zh else f"{head}'{words}'{rest}")
