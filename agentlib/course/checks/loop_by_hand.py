"""Notebook 01's checks: the exit code the model reads, tool results it accepts, the whole loop."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...messages import to_dict
from ...offline import call, reply, say
from ..language import pick
from .scripted import (
    BASH,
    CountingClient,
    RunawayLoop,
    globals_swapped,
    model_read,
    scripted,
    text_of,
)
from .verdict import Verdict, api_message, blank, check, crash


def _has_number(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


@check
def check_exit_code(run_bash: Callable[[str], str]) -> Verdict:
    """Exercise: ``run_bash`` keeps the output, reports a failure's exit code, and the model reads it.

    What counts is the meaning, not a wording: the number is there, and a failure reads
    differently from a success with the same output.
    """
    commands = ["echo hi", "echo hi; exit 3", "true", "exit 5", "ls no-such-file"]
    out: dict[str, str] = {}
    for command in commands:
        try:
            out[command] = run_bash(command)
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            return crash(f"run_bash({command!r})", e)
        if not isinstance(out[command], str):
            return Verdict(
                False,
                pick(
                    f"run_bash({command!r}) returned {type(out[command]).__name__}, not text: the model can only read strings.",
                    f"run_bash({command!r}) 返回的是 {type(out[command]).__name__}，不是文本：模型只能读字符串。",
                ),
            )
    problems = []
    if "hi" not in out["echo hi"]:
        problems.append(
            pick(
                f"`echo hi` should still show its output 'hi'; it gave {out['echo hi']!r:.120}",
                f"`echo hi` 仍应显示它的输出 'hi'；实际给出的是 {out['echo hi']!r:.120}",
            )
        )
    failed = out["echo hi; exit 3"]
    if "hi" not in failed or not _has_number(failed, 3):
        problems.append(
            pick(
                f"`echo hi; exit 3` should keep 'hi' and give the exit code 3; it gave {failed!r:.120}",
                f"`echo hi; exit 3` 应保留 'hi' 并给出退出码 3；实际给出的是 {failed!r:.120}",
            )
        )
    elif failed == out["echo hi"]:
        problems.append(
            pick(
                "`echo hi; exit 3` reads exactly like `echo hi`: the model cannot tell it failed",
                "`echo hi; exit 3` 读起来和 `echo hi` 一模一样：模型看不出它失败了",
            )
        )
    if not out["true"].strip():
        problems.append(
            pick(
                "`true` (no output, exit code 0) gave nothing at all: say so, e.g. '(no output)'",
                "`true`（没有输出，退出码 0）什么都没给出：要说出来，例如 '(no output)'",
            )
        )
    if not _has_number(out["exit 5"], 5) or out["exit 5"] == out["true"]:
        problems.append(
            pick(
                f"`exit 5` (no output) should give the exit code 5, unlike `true`, which succeeded; "
                f"they gave {out['exit 5']!r:.80} and {out['true']!r:.80}",
                f"`exit 5`（没有输出）应给出退出码 5，和成功了的 `true` 不一样；"
                f"它们给出的是 {out['exit 5']!r:.80} 和 {out['true']!r:.80}",
            )
        )
    listing = out["ls no-such-file"]
    if "no-such-file" not in listing or not _has_number(listing, 2):
        problems.append(
            pick(
                f"`ls no-such-file` should keep ls's message and give the exit code 2; it gave {listing!r:.120}",
                f"`ls no-such-file` 应保留 ls 的消息并给出退出码 2；实际给出的是 {listing!r:.120}",
            )
        )
    if problems:
        return Verdict(
            False, pick("the shell part needs another look.", "shell 这部分还要再看看。"), problems
        )
    script = {"command": "python3 -c 'import sys; sys.exit(4)'"}
    seen = model_read(run_bash, BASH, script, "The command failed with exit code 4.")
    if not _has_number(seen, 4):
        return Verdict(
            False,
            pick(
                f"in the loop, the model read {seen!r}, without the exit code 4.",
                f"在循环里，模型读到的是 {seen!r}，没有退出码 4。",
            ),
        )
    return Verdict(
        True,
        pick(
            f"every case passed, and in the loop the model read {seen!r}.",
            f"每种情况都通过了，在循环里模型读到的是 {seen!r}。",
        ),
    )


@check
def check_tool_results(tool_results: Callable[[Any], Any]) -> Verdict:
    """Exercise: turn a reply's ``tool_use`` blocks into ``tool_result`` blocks the API accepts."""
    first = reply(
        "Two commands.", call("bash", command="echo one"), call("bash", command="echo two")
    )
    client, model = scripted(first, say("Both ran."))
    messages: list[Any] = [{"role": "user", "content": "Run echo one, then echo two"}]
    response = client.messages.create(model=model, max_tokens=1000, tools=[BASH], messages=messages)
    try:
        results = tool_results(response.content)
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return crash("tool_results(response.content)", e)
    if results is None:
        return Verdict(
            False,
            pick(
                "tool_results returned None: did you forget `return results`?",
                "tool_results 返回了 None：是不是忘了 `return results`？",
            ),
        )
    if results is Ellipsis:
        return blank(pick("tool_results returns `...`.", "tool_results 返回的还是 `...`。"))
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        return Verdict(
            False,
            pick(
                f"tool_results should return a list of dicts; it returned {results!r:.160}",
                f"tool_results 应返回一个字典列表；它返回的是 {results!r:.160}",
            ),
        )
    calls = [b for b in response.content if b.type == "tool_use"]
    problems = []
    if len(results) != len(calls):
        problems.append(
            pick(
                f"the reply has {len(calls)} tool_use blocks (and one text block, which needs no result); you returned {len(results)} results",
                f"这条回复有 {len(calls)} 个 tool_use 块（还有一个不需要结果的文本块）；你返回了 {len(results)} 个结果",
            )
        )
    if any(r.get("type") != "tool_result" for r in results):
        kinds = sorted({str(r.get("type")) for r in results})
        problems.append(
            pick(
                f"each result needs 'type': 'tool_result'; yours have {kinds}",
                f"每个结果都要有 'type': 'tool_result'；你的是 {kinds}",
            )
        )
    ids = [r.get("tool_use_id") for r in results]
    if ids != [c.id for c in calls][: len(ids)]:
        problems.append(
            pick(
                f"'tool_use_id' must be each block's id, in order ({[c.id for c in calls]}); you gave {ids}",
                f"'tool_use_id' 必须按顺序是每个块的 id（{[c.id for c in calls]}）；你给的是 {ids}",
            )
        )
    outputs = [str(r.get("content", "")) for r in results]
    if len(outputs) == 2 and not ("one" in outputs[0] and "two" in outputs[1]):
        problems.append(
            pick(
                f"'content' should be run_bash's output for each command ('one', then 'two'); you gave {outputs}",
                f"'content' 应该是 run_bash 对每条命令的输出（先 'one'，再 'two'）；你给的是 {outputs}",
            )
        )
    messages += [
        {"role": "assistant", "content": response.content},
        {"role": "user", "content": results},
    ]
    try:
        answer = client.messages.create(
            model=model, max_tokens=1000, tools=[BASH], messages=messages
        )
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return Verdict(False, api_message(e), problems)
    if problems:
        return Verdict(False, pick("the API accepted it, but:", "API 接受了，但是："), problems)
    return Verdict(
        True,
        pick(
            f"two results, paired by id; the API accepted them and the model answered {text_of(answer.content)!r}.",
            f"两个结果，按 id 配对；API 接受了，模型回答 {text_of(answer.content)!r}。",
        ),
    )


@check
def check_agent_loop(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the whole loop, run on a scripted three-round conversation with the notebook's own ``run_bash``."""
    counting = CountingClient(
        [
            call("bash", command="echo round one"),
            call("bash", command="echo round two"),
            say("Done: two commands ran."),
        ]
    )
    messages: list[Any] = [{"role": "user", "content": "Run two commands, then stop"}]
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
        return crash("agent_loop(messages)", e)
    plain = to_dict(messages)
    roles = [m.get("role") for m in plain if isinstance(m, dict)]
    if len(counting.calls) < counting.limit:
        return Verdict(
            False,
            pick(
                f"the loop returned after {len(counting.calls)} model call(s); the model was still asking for tools. Loop until stop_reason is not 'tool_use'.",
                f"循环在 {len(counting.calls)} 次模型调用后就返回了；模型还在请求工具。要一直循环，直到 stop_reason 不是 'tool_use'。",
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
    outputs = [str(b.get("content")) for m in plain[2:5:2] for b in m["content"]]
    if not ("round one" in outputs[0] and "round two" in outputs[1]):
        return Verdict(
            False,
            pick(
                f"the tool results should hold run_bash's output; they hold {outputs}",
                f"工具结果里应该是 run_bash 的输出；实际是 {outputs}",
            ),
        )
    return Verdict(
        True,
        pick(
            f"3 model calls, 6 messages, and the answer {text_of(plain[-1]['content'])!r} is in the history.",
            f"3 次模型调用，6 条消息，回答 {text_of(plain[-1]['content'])!r} 也在历史里。",
        ),
    )


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
    return hints
