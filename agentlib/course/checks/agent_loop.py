"""Notebook 02's check: the loop resumes after ``pause_turn`` and runs nothing from a reply cut at ``max_tokens``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...messages import to_dict
from ...offline import call, reply, say
from ..language import pick
from .scripted import CountingClient, RunawayLoop, globals_swapped, text_of
from .verdict import Verdict, api_message, check, is_blank, still_blank

PAUSED, FINISHED = (
    ("Still working...", "还在做……"),
    ("Finished after the pause.", "暂停之后做完了。"),
)
RUNAWAY = {
    "pause_turn": (
        "the reply after the pause is the final answer: return there",
        "暂停之后的那条回复就是最终回答：在那里返回",
    ),
    "max_tokens": (
        "a reply cut off at max_tokens must not have its tool calls run: append it and return",
        "在 max_tokens 处被截断的回复，它的工具调用不能运行：追加它，然后返回",
    ),
}


def _run(
    agent_loop: Callable[[list], Any], replies: list[Any], ran: list[str]
) -> tuple[list[dict], CountingClient]:
    def recording_bash(command: str) -> str:
        ran.append(command)
        return "ok"

    counting = CountingClient(replies)
    messages: list[Any] = [{"role": "user", "content": "Go on"}]
    with globals_swapped(
        agent_loop, client=counting, MODEL=counting.model, run_bash=recording_bash
    ):
        agent_loop(messages)
    return to_dict(messages), counting


def _after_pause(messages: list[dict], counting: CountingClient, ran: list[str]) -> str | None:
    """Why the loop mishandled ``pause_turn``, or None."""
    if ran:
        return pick(
            f"no tool was asked for, yet the loop ran {ran}",
            f"没有请求任何工具，循环却运行了 {ran}",
        )
    if len(counting.calls) < 2:
        return pick(
            "after pause_turn the loop must call the model again; it returned after the paused reply",
            "pause_turn 之后循环必须再调用一次模型；它却在暂停的回复之后就返回了",
        )
    if len(counting.calls) < 3:
        return pick(
            "the turn paused twice in a row, and the loop returned after the second pause: call the "
            "model again after every pause_turn (a `continue` in the loop), not once",
            "回合连续暂停了两次，循环却在第二次暂停后返回了：每次 pause_turn 之后都要再调用模型（循环里的 `continue`），不只一次",
        )
    *before, resent = counting.calls[1]["messages"]
    paused_then_user = (
        resent.get("role") == "user"
        and before
        and before[-1].get("role") == "assistant"
        and pick(*PAUSED) in text_of(before[-1].get("content"))
    )
    if paused_then_user:
        return pick(
            f"after the paused reply the loop added a user message {text_of(resent.get('content'))!r:.60}: "
            "send the history as it is, ending with the paused reply, and the server resumes that "
            "same turn (a new user message starts another one)",
            f"暂停的回复之后，循环又加了一条 user 消息 {text_of(resent.get('content'))!r:.60}："
            "历史原样发回去、以暂停的回复结尾，服务器就会接着同一个回合做下去（新的 user 消息会开始另一个回合）",
        )
    if resent.get("role") != "assistant" or pick(*PAUSED) not in text_of(resent.get("content")):
        return pick(
            f"append the paused reply before calling the model again: the second request ended with a "
            f"{resent.get('role')} message {text_of(resent.get('content'))!r:.60}, so the model lost "
            f"the {pick(*PAUSED)!r} it had said (a `continue` before `messages.append(...)` does this)",
            f"再次调用模型之前，要先追加暂停时的回复：第二次请求以一条 {resent.get('role')} 消息 "
            f"{text_of(resent.get('content'))!r:.60} 结尾，模型就丢了它说过的 {pick(*PAUSED)!r}"
            "（把 `continue` 放在 `messages.append(...)` 之前就会这样）",
        )
    if not text_of(messages[-1].get("content")).endswith(pick(*FINISHED)):
        return pick(
            "after the last call the loop should append the final answer and stop",
            "最后一次调用之后，循环应追加最终回答，然后停下",
        )
    return None


def _after_cut(messages: list[dict], ran: list[str]) -> tuple[str | None, str]:
    """Why the loop mishandled a reply cut at ``max_tokens`` (or None), and how it kept the history."""
    if ran:
        return (
            pick(
                f"a reply cut off at max_tokens must not have its tool calls run; tools run: {ran}",
                f"在 max_tokens 处被截断的回复，它的工具调用不能运行；运行了的工具：{ran}",
            ),
            "",
        )
    if len(messages) < 2 or messages[1].get("role") != "assistant":
        return (
            pick(
                "append the cut reply to the history before returning: what the model said is part of it",
                "返回之前把截断的回复追加进历史：模型说过的话也是历史的一部分",
            ),
            "",
        )
    calls = [
        b["id"]
        for b in messages[1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_use"
    ]
    if len(messages) == 2:
        return None, pick(
            "its unanswered call is left for normalize_messages (notebook 04) to answer",
            "它没有得到回答的调用留给 normalize_messages（notebook 04）去回答",
        )
    results = messages[2].get("content") if messages[2].get("role") == "user" else None
    if len(messages) == 3 and isinstance(results, list):
        answered = {
            b.get("tool_use_id")
            for b in results
            if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("is_error")
        }
        if answered >= set(calls):
            return (
                None,
                pick(
                    "its cut call is answered with an is_error result, so the history stays valid",
                    "它被截断的调用得到了一个 is_error 结果，所以历史仍然合法",
                ),
            )
    return (
        pick(
            "after the cut reply, return; the history may then end with it, or with one user message holding a "
            f"tool_result with 'is_error': True for each cut call ({calls}); it holds {len(messages)} messages",
            "截断的回复之后就返回；历史可以以它结尾，或以一条 user 消息结尾，其中为每个被截断的调用"
            f"（{calls}）放一个 'is_error': True 的 tool_result；现在历史里有 {len(messages)} 条消息",
        ),
        "",
    )


@check
def check_stop_reasons(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the loop continues after ``pause_turn`` and runs no tool from a reply cut at ``max_tokens``."""
    name = getattr(agent_loop, "__name__", "agent_loop")
    problems, kept = [], ""
    scenarios = {
        "pause_turn": [
            say(pick(*PAUSED), stop_reason="pause_turn"),
            say(
                pick(*PAUSED), stop_reason="pause_turn"
            ),  # a server may pause a turn more than once
            say(pick(*FINISHED)),
        ],
        "max_tokens": [
            reply(
                pick("Removing it.", "这就删掉它。"),
                call("bash", command="rm half-written"),
                stop_reason="max_tokens",
            )
        ],
    }
    for stop_reason, replies in scenarios.items():
        ran: list[str] = []
        try:
            messages, counting = _run(agent_loop, replies, ran)
        except NotImplementedError as e:
            if is_blank(e):
                return still_blank(name)
            problems.append(f"{stop_reason}: {name} raised NotImplementedError: {e}")
            continue
        except RunawayLoop:
            problems.append(
                f"{stop_reason}: {pick(*RUNAWAY[stop_reason])}"
                + pick(
                    f" (the loop kept calling the model after it; tools run: {ran or 'none'})",
                    f"（循环在那之后还在调用模型；运行了的工具：{ran or '无'}）",
                )
            )
            continue
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            problems.append(f"{stop_reason}: {api_message(e)}")
            continue
        if stop_reason == "pause_turn":
            problem = _after_pause(messages, counting, ran)
        else:
            problem, kept = _after_cut(messages, ran)
        if problem:
            problems.append(f"{stop_reason}: {problem}")
    if problems:
        return Verdict(
            False,
            pick("not every stop reason is handled yet.", "还有停止原因没有处理好。"),
            problems,
        )
    return Verdict(
        True,
        pick(
            "pause_turn resumed the turn, and the cut-off tool call was never run: the paused reply "
            f"went back with the history, and {kept}.",
            f"pause_turn 让回合继续了，截断的工具调用一次都没运行：暂停时的回复随历史发了回去，而且{kept}。",
        ),
    )
