"""Notebook 02's check: the loop resumes after ``pause_turn`` and runs nothing from a reply cut at ``max_tokens``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...messages import to_dict
from ...offline import call, reply, say
from ..language import pick
from .scripted import CountingClient, RunawayLoop, globals_swapped, text_of
from .verdict import Verdict, api_message, blank, check

PAUSED, FINISHED = "Still working...", "Finished after the pause."
RUNAWAY = {
    "pause_turn": "the reply after the pause is the final answer: return there",
    "max_tokens": "a reply cut off at max_tokens must not have its tool calls run: append it and return",
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
        return f"no tool was asked for, yet the loop ran {ran}"
    if len(counting.calls) < 2:
        return "after pause_turn the loop must call the model again; it returned after the paused reply"
    resent = counting.calls[1]["messages"][-1]
    if resent.get("role") != "assistant" or PAUSED not in text_of(resent.get("content")):
        return (
            f"append the paused reply before calling the model again: the second request ended with a "
            f"{resent.get('role')} message {text_of(resent.get('content'))!r:.60}, so the model lost "
            f"the {PAUSED!r} it had said (a `continue` before `messages.append(...)` does this)"
        )
    if not text_of(messages[-1].get("content")).endswith(FINISHED):
        return "after the second call the loop should append the final answer and stop"
    return None


def _after_cut(messages: list[dict], ran: list[str]) -> tuple[str | None, str]:
    """Why the loop mishandled a reply cut at ``max_tokens`` (or None), and how it kept the history."""
    if ran:
        return (
            f"a reply cut off at max_tokens must not have its tool calls run; tools run: {ran}",
            "",
        )
    if len(messages) < 2 or messages[1].get("role") != "assistant":
        return (
            "append the cut reply to the history before returning: what the model said is part of it",
            "",
        )
    calls = [
        b["id"]
        for b in messages[1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_use"
    ]
    if len(messages) == 2:
        return None, "its unanswered call is left for normalize_messages (notebook 04) to answer"
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
                "its cut call is answered with an is_error result, so the history stays valid",
            )
    return (
        "after the cut reply, return; the history may then end with it, or with one user message holding a "
        f"tool_result with 'is_error': True for each cut call ({calls}); it holds {len(messages)} messages",
        "",
    )


@check
def check_stop_reasons(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the loop continues after ``pause_turn`` and runs no tool from a reply cut at ``max_tokens``."""
    name = getattr(agent_loop, "__name__", "agent_loop")
    problems, kept = [], ""
    scenarios = {
        "pause_turn": [say(PAUSED, stop_reason="pause_turn"), say(FINISHED)],
        "max_tokens": [
            reply("Removing it.", call("bash", command="rm half-written"), stop_reason="max_tokens")
        ],
    }
    for stop_reason, replies in scenarios.items():
        ran: list[str] = []
        try:
            messages, counting = _run(agent_loop, replies, ran)
        except NotImplementedError:
            return blank(
                pick(
                    f"{name} still raises NotImplementedError.",
                    f"{name} 仍然抛出 NotImplementedError。",
                )
            )
        except RunawayLoop:
            problems.append(
                f"{stop_reason}: {RUNAWAY[stop_reason]} (the loop kept calling the model after it; tools run: {ran or 'none'})"
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
        return Verdict(False, "not every stop reason is handled yet.", problems)
    return Verdict(
        True,
        "pause_turn resumed the turn, and the cut-off tool call was never run: the paused reply "
        f"went back with the history, and {kept}.",
    )
