"""The honest fallback: says it is the offline model, which words it could not place, and how to go further."""

from __future__ import annotations

from typing import Any

from agentlib.messages import content_blocks
from agentlib.offline.conversation import last_prompt, offered_tools
from agentlib.offline.playbook.context import advice
from agentlib.offline.playbook.reader import read
from agentlib.offline.script import Reply, say

DECLINED = ("I can't do this offline.", "这个请求离线模型做不了。")
MAX_DECLINE = 300  # characters: what it could not do, one thing it can, how to go further
EXAMPLE = ('I can "list the files".', "我能做的例如：“列出所有文件”。")
# ways to say it, longest first; the first whose words still fit in MAX_DECLINE is used
FORMS = (
    (
        f"{DECLINED[0]} I am agentlib's offline model, not Claude, and did not understand: '{{}}'.",
        f"{DECLINED[1]}我是 agentlib 的离线模型，不是 Claude，没能理解：“{{}}”。",
    ),
    (
        "I am agentlib's offline model, not Claude. I can't do this offline: '{}'.",
        f"{DECLINED[1]}离线模型没能理解：“{{}}”。",
    ),
    (f"{DECLINED[0]} The offline model did not understand: '{{}}'.", f"{DECLINED[1]}“{{}}”。"),
)


def is_decline(text: str) -> bool:
    """Whether a reply is this fallback's decline (it says "I can't do this offline" up front)."""
    return any(sentence in text[:80] for sentence in ("I can't do this offline", DECLINED[1]))


DANGER = {
    "outside": ("it reaches outside the workspace", "它会访问工作区以外的地方"),
    "wipe": ("it would destroy files", "它会毁掉文件"),
    "network": ("it runs code fetched from the network", "它会运行从网络下载的代码"),
    "secrets": ("it would show secrets (keys, the environment)", "它会泄露密钥或环境变量"),
    "escalate": ("it asks for powers over the machine", "它要求控制整台机器"),
}


class Fallback:
    """Answers anything: an honest note about the offline model instead of a made-up answer."""

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply:
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
        go_live = advice(surface, zh, chapter)
        if not parsed.unclear:  # understood, but the policies before it chose not to act
            mine = any(
                block.get("type") == "tool_use"
                for message in request["messages"]
                for block in content_blocks(message.get("content"))
            )
            if mine:
                return say(
                    f"{DECLINED[1]}这段对话里的工具调用不是我做的：请在新的对话里重新提问。{go_live}"
                    if zh
                    else f"{DECLINED[0]} These tool calls are not mine: ask again in a new "
                    f"history. {go_live}"
                )
            return say(
                f"{DECLINED[1]}我是离线模型：这个客户端没有启用会做这件事的规则。{go_live}"
                if zh
                else f"{DECLINED[0]} I am the offline model, and this client has no playbook "
                f"that acts on it. {go_live}"
            )
        words = " ".join(parsed.unclear.split())
        rest = f"{EXAMPLE[zh]}{go_live}" if zh else f" {EXAMPLE[zh]} {go_live}"
        for form in FORMS:
            room = MAX_DECLINE - len(form[zh].format("")) - len(rest)
            if room >= min(len(words), 16):
                break
        if len(words) > room:
            words = words[: max(room - 1, 1)] + "…"
        return say(form[zh].format(words) + rest)
