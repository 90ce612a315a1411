"""Notebook 01's first two checks: the exit code the model reads, and tool results it accepts (the loop: whole_loop.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...offline import call, reply, say
from ..language import pick
from .scripted import (
    BASH,
    globals_swapped,
    has_number,
    model_read,
    not_text,
    returned,
    scripted,
    text_of,
)
from .verdict import Verdict, api_message, blank, check, crash


@check
def check_exit_code(run_bash: Callable[[str], str]) -> Verdict:
    """Exercise: ``run_bash`` keeps the output, reports a failure's exit code, and the model reads it.

    What counts is the meaning, not a wording: the number is there, and a failure reads
    differently from a success with the same output.
    """
    name = "run_bash"  # the notebook says run_bash, whatever the function is called
    commands = ["echo hi", "echo hi; exit 3", "true", "exit 5", "ls no-such-file", "pwd"]
    out: dict[str, str] = {}
    for command in commands:
        try:
            out[command], printed = returned(run_bash, command)
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            verdict = crash(f"{name}({command!r})", e)
            if isinstance(e, FileNotFoundError) and command in str(e):
                verdict.details.append(
                    pick(
                        "the whole command line was taken for a program's name: pass shell=True, "
                        "as run_bash does, so a shell reads it",
                        "整行命令被当成了一个程序的名字：像 run_bash 那样传 shell=True，让 shell 来读它",
                    )
                )
            return verdict
        if problem := not_text(f"{name}({command!r})", out[command], printed):
            hint = (
                pick(
                    " Pass text=True to subprocess.run, as run_bash does, to get str, not bytes.",
                    "像 run_bash 那样给 subprocess.run 传 text=True，得到的就是 str，而不是 bytes。",
                )
                if isinstance(out[command], bytes)
                else ""
            )
            return Verdict(False, problem + hint)
    problems = []
    if "hi" not in out["echo hi"]:
        problems.append(
            pick(
                f"`echo hi` should still show its output 'hi'; it gave {out['echo hi']!r:.120}",
                f"`echo hi` 仍应显示它的输出 'hi'；实际给出的是 {out['echo hi']!r:.120}",
            )
        )
    failed = out["echo hi; exit 3"]
    if "hi" not in failed or not has_number(failed, 3):
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
    if not has_number(out["exit 5"], 5) or out["exit 5"] == out["true"]:
        problems.append(
            pick(
                "`exit 5` (no output) should give the exit code 5, unlike `true`, which succeeded; they gave",
                "`exit 5`（没有输出）应给出退出码 5，和成功了的 `true` 不一样；它们给出的是",
            )
            + f" {out['exit 5']!r:.80} / {out['true']!r:.80}"
        )
    listing = out["ls no-such-file"]
    if "no-such-file" not in listing or not has_number(listing, 2):
        problems.append(
            pick(
                f"`ls no-such-file` should keep ls's message and give the exit code 2; it gave {listing!r:.120}",
                f"`ls no-such-file` 应保留 ls 的消息并给出退出码 2；实际给出的是 {listing!r:.120}",
            )
            + (
                pick(
                    " (ls writes its message to stderr: keep r.stderr too)",
                    "（ls 把它的消息写到 stderr：r.stderr 也要保留）",
                )
                if "no-such-file" not in listing
                else ""
            )
        )
    workdir = run_bash.__globals__.get("WORKDIR") if hasattr(run_bash, "__globals__") else None
    if workdir is not None and str(Path(workdir).resolve()) not in out["pwd"]:
        problems.append(
            pick(
                f"`pwd` gave {out['pwd']!r:.100}, not the workspace {str(workdir)!r}: run the command "
                "with cwd=WORKDIR, as run_bash does",
                f"`pwd` 给出的是 {out['pwd']!r:.100}，不是工作区 {str(workdir)!r}：像 run_bash 那样用 cwd=WORKDIR 运行命令",
            )
        )
    if problems:
        return Verdict(
            False, pick("the shell part needs another look.", "shell 这部分还要再看看。"), problems
        )
    script = {"command": "python3 -c 'import sys; sys.exit(4)'"}
    seen = model_read(run_bash, BASH, script, "The command failed with exit code 4.")
    if not has_number(seen, 4):
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


SHOUTED = ["echo one | tr a-z A-Z", "echo two | tr a-z A-Z"]  # outputs the commands do not contain


@check
def check_tool_results(tool_results: Callable[[Any], Any]) -> Verdict:
    """Exercise: turn a reply's ``tool_use`` blocks into ``tool_result`` blocks the API accepts."""
    first = reply("Two commands.", *(call("bash", command=c) for c in SHOUTED))
    client, model = scripted(first, say(pick("Both ran.", "两条都运行了。")))
    messages: list[Any] = [{"role": "user", "content": "Run two commands"}]
    response = client.messages.create(model=model, max_tokens=1000, tools=[BASH], messages=messages)
    asked: list[Any] = []
    real = getattr(tool_results, "__globals__", {}).get("run_bash")

    def recording_bash(command: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(command)
        return real(command, *args, **kwargs)

    try:
        with globals_swapped(
            tool_results, **({"run_bash": recording_bash} if callable(real) else {})
        ):
            results = tool_results(response.content)
            if isinstance(results, list):
                results = list(results)  # as it was, even if the next call adds to the same list
            again = tool_results(response.content)  # a list kept outside the function grows
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        verdict = crash("tool_results(response.content)", e)
        if isinstance(e, AttributeError) and "TextBlock" in str(e):
            verdict.details.append(
                pick(
                    "a text block has no id or input: make a result only for blocks whose type is 'tool_use'",
                    "文本块没有 id 也没有 input：只为 type 是 'tool_use' 的块生成结果",
                )
            )
        elif isinstance(e, TypeError) and "not subscriptable" in str(e):
            verdict.details.append(
                pick(
                    "the blocks are objects, not dicts: read block.type, block.id and block.input",
                    "这些块是对象，不是字典：要读 block.type、block.id 和 block.input",
                )
            )
        elif isinstance(e, AttributeError) and "'dict' object" in str(e):
            verdict.details.append(
                pick(
                    "block.input is a dict of the tool's arguments: block.input['command']",
                    "block.input 是工具参数组成的字典：block.input['command']",
                )
            )
        return verdict
    not_commands = [a for a in asked if not isinstance(a, str)]
    if not_commands:
        return Verdict(
            False,
            pick(
                f"run_bash got {not_commands[0]!r:.80}, the whole input dict: pass it the command, "
                "run_bash(block.input['command'])",
                f"run_bash 收到的是 {not_commands[0]!r:.80}，整个 input 字典：要传给它命令本身，run_bash(block.input['command'])",
            ),
        )
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
    if isinstance(again, list) and len(again) != len(results):
        problems.append(
            pick(
                f"called a second time on the same reply, tool_results returned {len(again)} results "
                f"(the first time {len(results)}): make the list inside the function (results = [] "
                "in its first line), so each reply starts with an empty one",
                f"对同一条回复再调用一次，tool_results 返回了 {len(again)} 个结果（第一次是 {len(results)} 个）："
                "在函数里面建列表（函数第一行写 results = []），每条回复都从一个空列表开始",
            )
        )
    flagged = [r.get("tool_use_id") for r in results if r.get("is_error")]
    if flagged:
        problems.append(
            pick(
                f"the results for {flagged} say 'is_error': True, but both commands ran fine: the model "
                "would take them for failures. Leave is_error out unless the command failed",
                f"{flagged} 的结果写着 'is_error': True，可两条命令都运行成功了：模型会以为它们失败了。"
                "除非命令失败，否则不要写 is_error",
            )
        )
    outputs = [str(r.get("content", "")) for r in results]
    if len(outputs) == 2 and not ("ONE" in outputs[0] and "TWO" in outputs[1]):
        problems.append(
            pick(
                f"'content' should be run_bash's output for each command ('ONE', then 'TWO'); you gave {outputs}",
                f"'content' 应该是 run_bash 对每条命令的输出（先 'ONE'，再 'TWO'）；你给的是 {outputs}",
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
