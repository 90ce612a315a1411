"""The Playbook policy: read the request into parts, then play each part against real tool results.

It acts only when the reader (reader.py) understood every part of the request; otherwise it
passes, and the Fallback declines honestly, naming the part it could not read. Once a part's
tool call fails, no later part changes a file or runs one. The plays are in plays.py,
writeplays.py and fileplays.py; what a play is made of is in actions.py.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from functools import partial
from typing import Any

from agentlib.messages import content_blocks
from agentlib.offline.conversation import Round, last_prompt, offered_tools, rounds_since
from agentlib.offline.playbook import fileplays, plays, writeplays
from agentlib.offline.playbook.actions import Act, Actions, MissingTools, Play, Stopped
from agentlib.offline.playbook.clause import MUTATING
from agentlib.offline.playbook.context import advice
from agentlib.offline.playbook.reader import Found, Part, Request, read
from agentlib.offline.script import Reply, call, reply, say

PLAYS: dict[str, Callable[..., Play]] = {
    "chat": plays.chat,
    "math": plays.math,
    "git": plays.git,
    "mkdir": writeplays.mkdir,
    "create": writeplays.create,
    "show": plays.show,
    "run": plays.run,
    "append": writeplays.append,
    "replace": writeplays.replace,
    "docstring": writeplays.docstring,
    "list": fileplays.list_files,
    "count": fileplays.count,
    "search": fileplays.search,
    "move": partial(fileplays.transfer, verb="move"),
    "copy": partial(fileplays.transfer, verb="copy"),
    "delete": fileplays.delete,
    "delete_ext": fileplays.delete_ext,
    "delete_except": fileplays.delete_except,
    "pick": fileplays.pick,
    "sum": fileplays.total,
    "version": plays.version,
    "setting": plays.setting,
}


def perform(act: Actions, request: Request, context: str) -> Play:
    """Play every part in order; the answer joins what each part found."""
    answers = []
    held = None  # whether the condition of the part before held
    failed = False  # a part's tool call failed: nothing after it changes a file
    for n, part in enumerate(request.parts):
        if part.kind == "guard":
            continue  # checked by the reader: nothing left to do
        if failed and part.kind in MUTATING | {"run"}:
            answers.append(act.tr(*_NOT_GONE_ON))  # 'copy a.csv to b.csv, then delete the original'
            break
        params = dict(part.params)
        if part.kind == "chat":
            chapter = "s01" if act.offered == {"bash"} else "s02"
            params["advice"] = advice(context, request.chinese, chapter)
        otherwise = n > 0 and _turned(part.when, request.parts[n - 1].when)
        if otherwise and held:
            continue  # 'if a.txt exists show it, otherwise create it': it existed
        nxt = request.parts[n + 1].when if n + 1 < len(request.parts) else None
        has_otherwise = _turned(part.when, nxt)
        try:
            if part.when and not otherwise:
                held = False
                yield from _check(act, *part.when, quiet=has_otherwise)
            held = True
            answer = yield from PLAYS[part.kind](act, **params)
        except Stopped as stopped:
            answer, failed = str(stopped), held
        if answer and answer not in answers:
            answers.append(answer)
    return "\n\n".join(answers)


def _turned(when: tuple | None, other: tuple | None) -> bool:
    """'…, otherwise …': the other condition is this one turned round, on the same file."""
    return bool(when and other and other == (when[0], not when[1]))


_NOT_GONE_ON = (
    "Because that did not work, I stopped there and did not do the rest of the request.",
    "因为这一步没有成功，我就停在这里，没有继续做后面的部分。",
)


def _check(act: Actions, path: str, exists: bool, quiet: bool = False) -> Play:
    """Stop the part unless the path exists as its condition wants (asked of the workspace).

    ``quiet``: an 'otherwise' part comes next, so only what was found is said, not "I did nothing".
    """
    out = yield act.step(
        f"First I'll check whether {path} exists.",
        f"我先看看 {path} 是否存在。",
        act.run(f"test -e {shlex.quote(path)} && echo exists || echo missing"),
    )
    if ("exists" in out.text.split()) == exists:
        return
    if exists:
        said = (f"{path} does not exist", f"{path} 不存在")
        done = (", so I did nothing.", "，所以我什么都没做。")
    else:
        said = (f"{path} already exists", f"{path} 已经存在")
        done = (", so I left it as it is.", "，所以我没有动它。")
    end = (".", "。") if quiet else done
    raise Stopped(act.tr(said[0] + end[0], said[1] + end[1]))


class Playbook:
    """Does what it fully understood, with the tools the request offers, reacting to results."""

    def match(self, prompt: str) -> list[Part] | None:
        """The parts of the prompt, or None when some word is not understood."""
        request = read(prompt)
        return None if request.unclear or request.danger else request.parts

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply | None:
        """The next turn of the request's play, or None when it is not fully understood."""
        messages = request["messages"]
        found = last_prompt(messages)
        if messages[-1]["role"] != "user" or found is None:
            return None
        index, prompt = found
        parsed = read(prompt, earlier_prompts(messages[:index]))
        if parsed.unclear or parsed.danger:
            return None  # the Fallback declines, naming the words it could not place
        act = Actions(offered_tools(request), parsed.chinese)
        try:
            return _next_turn(perform(act, parsed, surface), rounds_since(messages, index))
        except MissingTools as missing:
            tools = ", ".join(sorted(act.offered))
            offers = act.tr(f"it and this request offers {tools}.", f"而这次请求只提供了 {tools}。")
            if not tools:
                offers = act.tr(
                    "it, and this request offers no tools: send it with tools=[...] "
                    "that include one.",
                    "而这次请求没有提供任何工具：请在 tools=[...] 里加上一个。",
                )
            need = (
                f"I am the offline model. I know this task, but I need a {missing} tool for ",
                f"我是离线模型。这个任务我会做，但需要 {missing} 工具，",
            )
            return say(act.tr(*need) + offers)


def earlier_prompts(messages: list[dict[str, Any]]) -> list[str]:
    """What the user asked before, oldest first: 'it' in a follow-up is the last file named there.

    A turn whose answer listed exactly one file ('which file mentions TODO?') names that file.
    """
    found: list[str] = []
    while (last := last_prompt(messages)) is not None:
        index, prompt = last
        answers = [m for m in messages[index + 1 :] if m.get("role") == "assistant"]
        blocks = content_blocks(answers[-1]["content"]) if answers else []
        text = "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        listed = re.findall(r"^  - (\S+)$|^(?:找到 )?1 个[^：\n]*：(\S+)$", text, re.M)
        found[:0] = [prompt] + ([Found(next(filter(None, listed[0])))] if len(listed) == 1 else [])
        messages = messages[:index]
    return found


def _next_turn(steps: Play, rounds: list[Round]) -> Reply | None:
    """Replay the play over the rounds already in the history; return its next turn."""
    try:
        act: Act = next(steps)
        for past in rounds:
            if [c["name"] for c in act.calls] != [c["name"] for c in past.calls]:
                return None  # this history was not made by this play: let another policy answer
            act = steps.send(past.results if len(past.results) > 1 else past.results[0])
    except StopIteration as finished:
        return say(finished.value or "Done.")
    calls = [call(c["name"], c["input"]) for c in act.calls]
    return reply(*([act.text] if act.text else []), *calls)
