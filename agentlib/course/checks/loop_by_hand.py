"""Notebook 01's checks: the exit code the model reads, tool results it accepts, the whole loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...messages import to_dict
from ...offline import call, reply, say
from .scripted import (
    BASH,
    CountingClient,
    RunawayLoop,
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
            return crash(f"{name}({command!r})", e)
        if problem := not_text(f"{name}({command!r})", out[command], printed):
            return Verdict(False, problem)
    problems = []
    if "hi" not in out["echo hi"]:
        problems.append(
            f"`echo hi` should still show its output 'hi'; it gave {out['echo hi']!r:.120}"
        )
    failed = out["echo hi; exit 3"]
    if "hi" not in failed or not has_number(failed, 3):
        problems.append(
            f"`echo hi; exit 3` should keep 'hi' and give the exit code 3; it gave {failed!r:.120}"
        )
    elif failed == out["echo hi"]:
        problems.append(
            "`echo hi; exit 3` reads exactly like `echo hi`: the model cannot tell it failed"
        )
    if not out["true"].strip():
        problems.append(
            "`true` (no output, exit code 0) gave nothing at all: say so, e.g. '(no output)'"
        )
    if not has_number(out["exit 5"], 5) or out["exit 5"] == out["true"]:
        problems.append(
            f"`exit 5` (no output) should give the exit code 5, unlike `true`, which succeeded; "
            f"they gave {out['exit 5']!r:.80} and {out['true']!r:.80}"
        )
    listing = out["ls no-such-file"]
    if "no-such-file" not in listing or not has_number(listing, 2):
        problems.append(
            f"`ls no-such-file` should keep ls's message and give the exit code 2; it gave {listing!r:.120}"
            + (
                " (ls writes its message to stderr: keep r.stderr too)"
                if "no-such-file" not in listing
                else ""
            )
        )
    workdir = run_bash.__globals__.get("WORKDIR") if hasattr(run_bash, "__globals__") else None
    if workdir is not None and str(Path(workdir).resolve()) not in out["pwd"]:
        problems.append(
            f"`pwd` gave {out['pwd']!r:.100}, not the workspace {str(workdir)!r}: run the command "
            "with cwd=WORKDIR, as run_bash does"
        )
    if problems:
        return Verdict(False, "the shell part needs another look.", problems)
    script = {"command": "python3 -c 'import sys; sys.exit(4)'"}
    seen = model_read(run_bash, BASH, script, "The command failed with exit code 4.")
    if not has_number(seen, 4):
        return Verdict(False, f"in the loop, the model read {seen!r}, without the exit code 4.")
    return Verdict(True, f"every case passed, and in the loop the model read {seen!r}.")


SHOUTED = ["echo one | tr a-z A-Z", "echo two | tr a-z A-Z"]  # outputs the commands do not contain


@check
def check_tool_results(tool_results: Callable[[Any], Any]) -> Verdict:
    """Exercise: turn a reply's ``tool_use`` blocks into ``tool_result`` blocks the API accepts."""
    first = reply("Two commands.", *(call("bash", command=c) for c in SHOUTED))
    client, model = scripted(first, say("Both ran."))
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
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        verdict = crash("tool_results(response.content)", e)
        if isinstance(e, AttributeError) and "TextBlock" in str(e):
            verdict.details.append(
                "a text block has no id or input: make a result only for blocks whose type is 'tool_use'"
            )
        return verdict
    not_commands = [a for a in asked if not isinstance(a, str)]
    if not_commands:
        return Verdict(
            False,
            f"run_bash got {not_commands[0]!r:.80}, the whole input dict: pass it the command, "
            "run_bash(block.input['command'])",
        )
    if results is None:
        return Verdict(False, "tool_results returned None: did you forget `return results`?")
    if results is Ellipsis:
        return blank("tool_results returns `...`.")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        return Verdict(
            False, f"tool_results should return a list of dicts; it returned {results!r:.160}"
        )
    calls = [b for b in response.content if b.type == "tool_use"]
    problems = []
    if len(results) != len(calls):
        problems.append(
            f"the reply has {len(calls)} tool_use blocks (and one text block, which needs no result); you returned {len(results)} results"
        )
    if any(r.get("type") != "tool_result" for r in results):
        kinds = sorted({str(r.get("type")) for r in results})
        problems.append(f"each result needs 'type': 'tool_result'; yours have {kinds}")
    ids = [r.get("tool_use_id") for r in results]
    if ids != [c.id for c in calls][: len(ids)]:
        problems.append(
            f"'tool_use_id' must be each block's id, in order ({[c.id for c in calls]}); you gave {ids}"
        )
    outputs = [str(r.get("content", "")) for r in results]
    if len(outputs) == 2 and not ("ONE" in outputs[0] and "TWO" in outputs[1]):
        problems.append(
            f"'content' should be run_bash's output for each command ('ONE', then 'TWO'); you gave {outputs}"
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
        return Verdict(False, "the API accepted it, but:", problems)
    return Verdict(
        True,
        f"two results, paired by id; the API accepted them and the model answered {text_of(answer.content)!r}.",
    )


@check
def check_agent_loop(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the whole loop, run on a scripted three-round conversation with the notebook's own ``run_bash``."""
    counting = CountingClient(
        [
            reply(
                "Two at once.", call("bash", command="echo one"), call("bash", command="echo two")
            ),
            call("bash", command="echo three"),
            say("Done: three commands ran."),
        ]
    )
    messages: list[Any] = [{"role": "user", "content": "Run three commands, then stop"}]
    try:
        with globals_swapped(agent_loop, client=counting, MODEL=counting.model):
            agent_loop(messages)
    except RunawayLoop as e:
        return Verdict(
            False,
            f"{e}, but the model had stopped asking for tools after call 3: the loop must return when stop_reason is not 'tool_use'.",
        )
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        if getattr(e, "status_code", None) and counting.calls:
            return Verdict(
                False,
                f"call {len(counting.calls)}: {api_message(e)}",
                _hints_for_history(counting.calls[-1]["messages"]),
            )
        return crash("agent_loop(messages)", e)
    if len(counting.calls) < counting.limit:
        return Verdict(
            False,
            f"the loop returned after {len(counting.calls)} model call(s); the model was still asking for tools. Loop until stop_reason is not 'tool_use'.",
        )
    return _history_problem(agent_loop, to_dict(messages), counting.calls) or Verdict(
        True,
        f"3 model calls, 6 messages, and the answer {text_of(to_dict(messages)[-1]['content'])!r} is in the history.",
    )


def _history_problem(agent_loop: Any, plain: list[Any], calls: list[dict]) -> Verdict | None:
    """What is wrong with the history the loop left and the requests it sent, or None."""
    roles = [m.get("role") for m in plain if isinstance(m, dict)]
    sent = len(calls[-1]["messages"])
    if len(plain) < sent:
        return Verdict(
            False,
            f"your loop sent a history of {sent} messages, but the list you passed in still holds {len(plain)}: "
            "`messages = messages + [...]` makes a new list; messages.append(...) changes the one you were given.",
        )
    if "user" in roles[1:] and roles[roles.index("user", 1) :][:2] == ["user", "user"]:
        return Verdict(
            False,
            f"the messages are {roles}: the results of one reply go back together, in one user message.",
        )
    if roles != ["user", "assistant"] * 3:
        return Verdict(
            False,
            f"after the run, messages should be user, assistant, user, assistant, user, assistant; they are {roles}.",
            [
                "append the reply, then (if it asked for tools) the results, every round, and the final answer too"
            ],
        )
    asked = [b["id"] for b in plain[1]["content"] if b.get("type") == "tool_use"]
    answered = [b.get("tool_use_id") for b in plain[2]["content"] if isinstance(b, dict)]
    if answered != asked:
        return Verdict(
            False,
            f"the first reply asked for two commands, ids {asked}; your results answer {answered}: "
            "one result per tool_use block, in the order of the blocks.",
        )
    outputs = [str(b.get("content")) for m in plain[2:5:2] for b in m["content"]]
    words = ["one", "two", "three"]
    if len(outputs) != len(words) or not all(
        w in out for w, out in zip(words, outputs, strict=True)
    ):
        return Verdict(
            False, f"the tool results should hold run_bash's output; they hold {outputs}"
        )
    system = getattr(agent_loop, "__globals__", {}).get("SYSTEM")
    if system and any(c.get("system") != system for c in calls):
        return Verdict(
            False,
            "the requests did not carry the system prompt: pass system=SYSTEM to "
            "client.messages.create, so the model knows where it works.",
        )
    return None


def _hints_for_history(messages: list[dict[str, Any]]) -> list[str]:
    roles = [m.get("role") for m in messages]
    hints = [f"the history your loop sent had roles {roles}"]
    if len(roles) >= 2 and roles[-1] == roles[-2] == "user":
        hints.append(
            "the model's reply with its tool_use is missing before the results: append it first"
        )
    if any(
        m.get("role") == "assistant" and not isinstance(m.get("content"), (str, list))
        for m in messages
    ):
        hints.append("append the reply's blocks, response.content, not the whole response")
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
            f"your results answer {strays}, ids no tool_use has: set 'tool_use_id' to the block's own block.id"
        )
    return hints
