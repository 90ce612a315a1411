"""Notebook 01's last check: the whole loop the learner wrote, run on a scripted conversation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...messages import to_dict
from ...offline import call, reply, say
from ..language import pick
from .scripted import (
    CountingClient,
    RunawayLoop,
    globals_swapped,
    text_of,
)
from .verdict import Verdict, api_message, check, crash


@check
def check_agent_loop(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the whole loop, run on a scripted three-round conversation with the notebook's own ``run_bash``."""
    counting = CountingClient(
        [
            reply(
                "Two at once.", call("bash", command="echo one"), call("bash", command="echo two")
            ),
            call("bash", command="echo three"),
            say(pick("Done: three commands ran.", "完成了：三条命令都运行了。")),
        ]
    )
    messages: list[Any] = [{"role": "user", "content": "Run three commands, then stop"}]
    try:
        with globals_swapped(agent_loop, client=counting, MODEL=counting.model):
            agent_loop(messages)
    except RunawayLoop as e:
        return Verdict(
            False,
            pick(
                f"{e}, but the model had stopped asking for tools after call 3: the loop must return when stop_reason is not 'tool_use'.",
                f"{e}，可是模型在第 3 次调用之后就不再请求工具了：stop_reason 不是 'tool_use' 时，循环必须返回。",
            ),
        )
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        if getattr(e, "status_code", None) and counting.calls:
            return Verdict(
                False,
                pick("call", "第")
                + f" {len(counting.calls)}"
                + pick(": ", " 次调用：")
                + api_message(e),
                _hints_for_history(counting.calls[-1]["messages"]),
            )
        verdict = crash("agent_loop(messages)", e)
        if isinstance(e, KeyError) and e.args and e.args[0] != "command":
            verdict.details.append(
                pick(
                    "block.input holds the arguments by the schema's names: the bash tool's is "
                    f"'command', not {e.args[0]!r}",
                    f"block.input 里的参数用的是 schema 里的名字：bash 工具的参数是 'command'，不是 {e.args[0]!r}",
                )
            )
        return verdict
    if len(counting.calls) < counting.limit:
        return Verdict(
            False,
            pick(
                f"the loop returned after {len(counting.calls)} model call(s); the model was still asking for tools. Loop until stop_reason is not 'tool_use'.",
                f"循环在 {len(counting.calls)} 次模型调用后就返回了；模型还在请求工具。要一直循环，直到 stop_reason 不是 'tool_use'。",
            ),
        )
    return (
        _history_problem(agent_loop, to_dict(messages), counting.calls)
        or _goes_on_after(agent_loop, "max_tokens")
        or Verdict(
            True,
            pick(
                f"3 model calls, 6 messages, and the answer {text_of(to_dict(messages)[-1]['content'])!r} is in the history.",
                f"3 次模型调用，6 条消息，回答 {text_of(to_dict(messages)[-1]['content'])!r} 也在历史里。",
            ),
        )
    )


def _goes_on_after(agent_loop: Any, stop_reason: str) -> Verdict | None:
    """Why the loop did not return after a reply that asked for no tool and stopped with ``stop_reason``, or None."""
    counting = CountingClient([say(pick("Cut short", "被截断了"), stop_reason=stop_reason)])
    try:
        with globals_swapped(agent_loop, client=counting, MODEL=counting.model):
            agent_loop([{"role": "user", "content": "Say something long"}])
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        went_on = pick(
            "it called the model again" if isinstance(e, RunawayLoop) else f"then {api_message(e)}",
            "它又调用了模型" if isinstance(e, RunawayLoop) else f"然后 {api_message(e)}",
        )
        return Verdict(
            False,
            pick(
                f"a reply that asked for no tool and stopped with stop_reason {stop_reason!r} did not "
                f"end the loop ({went_on}): return whenever stop_reason is not 'tool_use', not only "
                "on 'end_turn'.",
                f"一条没有请求工具、stop_reason 为 {stop_reason!r} 的回复没有让循环结束（{went_on}）："
                "只要 stop_reason 不是 'tool_use' 就返回，而不只是 'end_turn' 的时候。",
            ),
        )
    return None


def _history_problem(agent_loop: Any, plain: list[Any], calls: list[dict]) -> Verdict | None:
    """What is wrong with the history the loop left and the requests it sent, or None."""
    roles = [m.get("role") for m in plain if isinstance(m, dict)]
    sent = len(calls[-1]["messages"])
    if len(plain) < sent:
        return Verdict(
            False,
            pick(
                f"your loop sent a history of {sent} messages, but the list you passed in still holds {len(plain)}: "
                "`messages = messages + [...]` makes a new list; messages.append(...) changes the one you were given.",
                f"你的循环发出的历史有 {sent} 条消息，可传进来的列表里仍然只有 {len(plain)} 条："
                "`messages = messages + [...]` 造了一个新列表；messages.append(...) 才会修改传给你的那个。",
            ),
        )
    if "user" in roles[1:] and roles[roles.index("user", 1) :][:2] == ["user", "user"]:
        return Verdict(
            False,
            pick(
                f"the messages are {roles}: the results of one reply go back together, in one user message.",
                f"messages 是 {roles}：同一条回复的结果要放在一起，装进一条 user 消息发回去。",
            ),
        )
    if roles != ["user", "assistant"] * 3:
        return Verdict(
            False,
            pick(
                f"after the run, messages should be user, assistant, user, assistant, user, assistant; they are {roles}.",
                f"运行之后，messages 应该是 user、assistant、user、assistant、user、assistant；实际是 {roles}。",
            ),
            [
                pick(
                    "append the reply, then (if it asked for tools) the results, every round, and the final answer too",
                    "每一轮都先追加回复，再（如果它请求了工具）追加结果，最后的回答也要追加",
                )
            ],
        )
    asked = [b["id"] for b in plain[1]["content"] if b.get("type") == "tool_use"]
    answered = [b.get("tool_use_id") for b in plain[2]["content"] if isinstance(b, dict)]
    if answered != asked:
        return Verdict(
            False,
            pick(
                f"the first reply asked for two commands, ids {asked}; your results answer {answered}: "
                "one result per tool_use block, in the order of the blocks.",
                f"第一条回复请求了两条命令，id 是 {asked}；你的结果回答的是 {answered}："
                "每个 tool_use 块一个结果，按块的顺序。",
            ),
        )
    outputs = [str(b.get("content")) for m in plain[2:5:2] for b in m["content"]]
    words = ["one", "two", "three"]
    if len(outputs) != len(words) or not all(
        w in out for w, out in zip(words, outputs, strict=True)
    ):
        return Verdict(
            False,
            pick(
                f"the tool results should hold run_bash's output; they hold {outputs}",
                f"工具结果里应该是 run_bash 的输出；实际是 {outputs}",
            ),
        )
    system = getattr(agent_loop, "__globals__", {}).get("SYSTEM")
    if system and any(c.get("system") != system for c in calls):
        return Verdict(
            False,
            pick(
                "the requests did not carry the system prompt: pass system=SYSTEM to "
                "client.messages.create, so the model knows where it works.",
                "请求里没有带系统提示：把 system=SYSTEM 传给 client.messages.create，模型才知道自己在哪里工作。",
            ),
        )
    return None


def _hints_for_history(messages: list[dict[str, Any]]) -> list[str]:
    roles = [m.get("role") for m in messages]
    hints = [
        pick("the history your loop sent had roles", "你的循环发出的历史，角色依次是") + f" {roles}"
    ]
    if len(roles) >= 2 and roles[-1] == roles[-2] == "user":
        hints.append(
            pick(
                "the model's reply with its tool_use is missing before the results: append it first",
                "结果前面缺了模型带着 tool_use 的那条回复：要先追加它",
            )
        )
    if any(
        m.get("role") == "assistant" and not isinstance(m.get("content"), (str, list))
        for m in messages
    ):
        hints.append(
            pick(
                "append the reply's blocks, response.content, not the whole response",
                "追加回复的块 response.content，而不是整个 response",
            )
        )
    asked = {
        b.get("id")
        for m in messages
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_use"
    }
    strays = [
        b.get("tool_use_id")
        for m in messages
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if isinstance(b, dict)
        and b.get("type") == "tool_result"
        and b.get("tool_use_id") not in asked
    ]
    if strays:
        hints.append(
            pick(
                f"your results answer {strays}, ids no tool_use has: set 'tool_use_id' to the block's own block.id",
                f"你的结果回答的是 {strays}，没有哪个 tool_use 有这些 id：把 'tool_use_id' 设为块自己的 block.id",
            )
        )
    return hints
