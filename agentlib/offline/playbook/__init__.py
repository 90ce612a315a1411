"""The Playbook policy: read the request into parts, then play every part against the real tool results.

It acts only when it understood every part of the request (see parser.py); otherwise it
passes, and the Fallback declines honestly, naming the part it could not read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentlib.offline.conversation import Round, last_prompt, offered_tools, rounds_since
from agentlib.offline.playbook import fileplays, plays, writeplays
from agentlib.offline.playbook.actions import Act, Actions, MissingTools, tr
from agentlib.offline.playbook.context import advice
from agentlib.offline.playbook.parser import parse
from agentlib.offline.playbook.request import Part, Request
from agentlib.offline.script import Reply, call, reply, say


def _transfer(verb: str) -> Callable[..., plays.Play]:
    return lambda act, zh, **p: fileplays.transfer(act, zh, verb, **p)


def _nothing(act: Actions, zh: bool, **params: Any) -> plays.Play:
    return ""
    yield  # pragma: no cover


PLAYS: dict[str, Callable[..., plays.Play]] = {
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
    "move": _transfer("move"),
    "copy": _transfer("copy"),
    "delete": fileplays.delete,
    "delete_ext": fileplays.delete_ext,
    "guard": _nothing,  # checked by the parser: nothing left to do
    "skip": _nothing,  # merged into the part it filters
}


def perform(act: Actions, request: Request, context: str) -> plays.Play:
    """Play every part in order; the answer joins what each part found."""
    answers = []
    for part in request.parts:
        params = dict(part.params)
        if part.kind == "chat":
            chapter = "s01" if act.offered == {"bash"} else "s02"
            params["advice"] = advice(context, request.chinese, chapter)
        answers.append((yield from PLAYS[part.kind](act, request.chinese, **params)))
    return "\n\n".join(answer for answer in answers if answer)


class Playbook:
    """Does what it fully understood, with the tools the request offers, reacting to results."""

    def match(self, prompt: str) -> list[Part] | None:
        """The parts of the prompt, or None when some part is not understood."""
        request = parse(prompt)
        return None if request.unclear else request.parts

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply | None:
        """The next turn of the request's play, or None when it is not fully understood."""
        messages = request["messages"]
        found = last_prompt(messages)
        if messages[-1]["role"] != "user" or found is None:
            return None
        index, prompt = found
        parsed = parse(prompt)
        if parsed.unclear:
            return None  # the Fallback declines, naming the part it could not read
        offered = offered_tools(request)
        context = surface
        try:
            steps = perform(Actions(offered), parsed, context)
            return _next_turn(steps, rounds_since(messages, index))
        except MissingTools as missing:
            tools = ", ".join(sorted(offered)) or "no tools"
            return say(
                tr(
                    parsed.chinese,
                    f"I am the offline model. I know this task, but I need a {missing} tool for it "
                    f"and this request offers {tools}. Pass a toolbox that has one (e.g. s02_tools).",
                    f"我是离线模型。这个任务我会做，但需要 {missing} 工具，而这次请求只提供了 {tools}。"
                    "请传入带有这个工具的工具箱（例如 s02_tools）。",
                )
            )


def _next_turn(steps: plays.Play, rounds: list[Round]) -> Reply | None:
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
