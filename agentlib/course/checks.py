"""The notebooks' exercise checks: run the learner's code against the offline model and say, in words, what is wrong or that it works.

Each check takes what the learner wrote and returns a ``Verdict``; a check never raises on
the learner's mistakes (it catches whatever their code raises and reports it), so an
untouched blank explains itself and the notebook carries on.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import textwrap
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..messages import content_text, to_dict
from ..tool_checks import tool_problems
from ..tools import Toolbox, check_tools
from .exercise import check_exercise

WORKS = "✔ It works:"
NOT_YET = "✘ Not yet:"
BLANK = "… Still blank:"
BASH = {
    "name": "bash",
    "description": "Run a shell command.",
    "input_schema": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
}


@dataclass
class Verdict:
    """What a check found: ``ok`` and the sentences that say why; shown as text in a notebook."""

    ok: bool
    summary: str
    details: list[str] = field(default_factory=list)
    blank: bool = False

    def __str__(self) -> str:
        head = WORKS if self.ok else BLANK if self.blank else NOT_YET
        lines = textwrap.wrap(
            f"{head} {self.summary}", 96, subsequent_indent="  ", break_on_hyphens=False
        )
        for detail in self.details:
            lines += textwrap.wrap(
                detail, 96, initial_indent="  - ", subsequent_indent="    ", break_on_hyphens=False
            )
        return "\n".join(lines)

    __repr__ = __str__


def _blank(what: str) -> Verdict:
    return Verdict(
        False, f"{what} Fill in the cell above, run it, then run this check again.", blank=True
    )


def _crash(what: str, error: BaseException) -> Verdict:
    if isinstance(error, NotImplementedError):
        return _blank(f"{what} still raises NotImplementedError.")
    return Verdict(False, f"{what} raised {type(error).__name__}: {error}")


def _api_message(error: BaseException) -> str:
    body = getattr(error, "body", None)
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict) and isinstance(detail.get("message"), str):
        return f"the API refused the request (HTTP {getattr(error, 'status_code', '?')}): {detail['message']}"
    return f"{type(error).__name__}: {error}"


def _offline(*replies: Any):
    """A scripted offline client: the API's real checks, the model's replies queued."""
    from ..offline import Script, offline_client

    script = Script(*replies)
    client, model = offline_client(script)
    return client, model, script


class _CountingClient:
    """Stands in for ``client``: forwards ``messages.create`` and stops a loop that never ends."""

    def __init__(self, client: Any, limit: int) -> None:
        self.client, self.limit, self.calls = client, limit, []
        self.messages = self

    def create(self, **request: Any) -> Any:
        self.calls.append(to_dict(request))
        if len(self.calls) > self.limit:
            raise _RunawayLoop(f"the loop called the model {self.limit + 1} times")
        return self.client.messages.create(**request)


class _RunawayLoop(Exception):
    """Raised inside the learner's loop when it calls the model more often than the script allows."""


@contextmanager
def _globals_swapped(fn: Callable[..., Any], **values: Any):
    """Temporarily rebind the notebook globals ``fn`` reads (``client``, ``MODEL``, ``run_bash``...)."""
    namespace = fn.__globals__
    saved = {k: namespace[k] for k in values if k in namespace}
    namespace.update(values)
    try:
        yield
    finally:
        for k in values:
            namespace.pop(k, None)
        namespace.update(saved)


def _text_of(content: Any) -> str:
    return content_text(to_dict(content))


# --- s01 ---------------------------------------------------------------------------------


def check_exit_code(run_bash: Callable[[str], str]) -> Verdict:
    """Exercise: ``run_bash`` reports a non-zero exit code, keeps the rest, and the model reads it."""
    cases = [
        (
            "echo hi",
            lambda out: out.strip() == "hi",
            "`echo hi` (exit code 0) should give just 'hi'",
        ),
        (
            "exit 3",
            lambda out: "3" in out and "exit" in out.lower(),
            "`exit 3` should mention the exit code 3",
        ),
        (
            "ls no-such-file",
            lambda out: "no-such-file" in out and "2" in out,
            "`ls no-such-file` should keep ls's message and say exit code 2",
        ),
        (
            "true",
            lambda out: out == "(no output)",
            "`true` (no output, exit code 0) should still give '(no output)'",
        ),
    ]
    problems = []
    for command, good, expectation in cases:
        try:
            out = run_bash(command)
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            return _crash(f"run_bash({command!r})", e)
        if not isinstance(out, str):
            return Verdict(
                False,
                f"run_bash({command!r}) returned {type(out).__name__}, not text: the model can only read strings.",
            )
        if not good(out):
            problems.append(f"{expectation}; it gave {out!r:.120}")
    if problems:
        return Verdict(False, "the shell part needs another look.", problems)
    from ..offline import call

    failing = call("bash", command="python3 -c 'import sys; sys.exit(4)'")
    client, model, _ = _offline(failing, "The command failed with exit code 4.")
    from ..loop import agent_loop

    state = agent_loop(
        [{"role": "user", "content": "Run the failing script"}],
        client=client,
        model=model,
        tools=Toolbox.from_dicts([BASH], {"bash": run_bash}),
    )
    seen = state.messages[2]["content"][0]["content"]
    if "4" not in seen:
        return Verdict(False, f"in the loop, the model read {seen!r}, without the exit code 4.")
    return Verdict(True, f"every case passed, and in the loop the model read {seen!r}.")


def check_tool_results(tool_results: Callable[[Any], Any]) -> Verdict:
    """Exercise: turn a reply's ``tool_use`` blocks into ``tool_result`` blocks the API accepts."""
    from ..offline import call, reply, say

    first = reply(
        "Two commands.", call("bash", command="echo one"), call("bash", command="echo two")
    )
    client, model, _ = _offline(first, say("Both ran."))
    messages: list[Any] = [{"role": "user", "content": "Run echo one, then echo two"}]
    response = client.messages.create(model=model, max_tokens=1000, tools=[BASH], messages=messages)
    try:
        results = tool_results(response.content)
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return _crash("tool_results(response.content)", e)
    if results is None:
        return Verdict(False, "tool_results returned None: did you forget `return results`?")
    if results is Ellipsis:
        return _blank("tool_results returns `...`.")
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
    for result in results:
        if result.get("type") != "tool_result":
            problems.append(
                f"each result needs 'type': 'tool_result'; one has {result.get('type')!r}"
            )
            break
    ids = [r.get("tool_use_id") for r in results]
    if ids != [c.id for c in calls][: len(ids)]:
        problems.append(
            f"'tool_use_id' must be each block's id, in order ({[c.id for c in calls]}); you gave {ids}"
        )
    outputs = [str(r.get("content", "")) for r in results]
    if len(outputs) == 2 and not ("one" in outputs[0] and "two" in outputs[1]):
        problems.append(
            f"'content' should be run_bash's output for each command ('one', then 'two'); you gave {outputs}"
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
        return Verdict(False, _api_message(e), problems)
    if problems:
        return Verdict(False, "the API accepted it, but:", problems)
    return Verdict(
        True,
        f"two results, paired by id; the API accepted them and the model answered {_text_of(answer.content)!r}.",
    )


def check_agent_loop(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the whole loop, run on a scripted three-round conversation with the notebook's own ``run_bash``."""
    from ..offline import call, say

    replies = [
        call("bash", command="echo round one"),
        call("bash", command="echo round two"),
        say("Done: two commands ran."),
    ]
    client, model, _ = _offline(*replies)
    counting = _CountingClient(client, limit=len(replies))
    messages: list[Any] = [{"role": "user", "content": "Run two commands, then stop"}]
    try:
        with _globals_swapped(agent_loop, client=counting, MODEL=model):
            agent_loop(messages)
    except _RunawayLoop as e:
        return Verdict(
            False,
            f"{e}, but the model had stopped asking for tools after call 3: the loop must return when stop_reason is not 'tool_use'.",
        )
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        if type(e).__name__.endswith("Error") and getattr(e, "status_code", None):
            return Verdict(
                False,
                f"call {len(counting.calls)}: {_api_message(e)}",
                _hints_for_history(counting.calls[-1]["messages"]),
            )
        return _crash("agent_loop(messages)", e)
    plain = to_dict(messages)
    roles = [m.get("role") for m in plain if isinstance(m, dict)]
    if len(counting.calls) < len(replies):
        return Verdict(
            False,
            f"the loop returned after {len(counting.calls)} model call(s); the model was still asking for tools. Loop until stop_reason is not 'tool_use'.",
        )
    if roles != ["user", "assistant", "user", "assistant", "user", "assistant"]:
        return Verdict(
            False,
            f"after the run, messages should be user, assistant, user, assistant, user, assistant; they are {roles}.",
            [
                "append the reply, then (if it asked for tools) the results, every round, and the final answer too"
            ],
        )
    outputs = [str(b.get("content")) for m in plain[2:5:2] for b in m["content"]]
    if not ("round one" in outputs[0] and "round two" in outputs[1]):
        return Verdict(
            False, f"the tool results should hold run_bash's output; they hold {outputs}"
        )
    return Verdict(
        True,
        f"3 model calls, 6 messages, and the answer {_text_of(plain[-1]['content'])!r} is in the history.",
    )


def _hints_for_history(messages: list[dict[str, Any]]) -> list[str]:
    roles = [m.get("role") for m in messages]
    hints = [f"the history your loop sent had roles {roles}"]
    if len(roles) >= 2 and roles[-1] == roles[-2] == "user":
        hints.append(
            "the model's reply with its tool_use is missing before the results: append it first"
        )
    return hints


def check_stop_reasons(agent_loop: Callable[[list], Any]) -> Verdict:
    """Exercise: the loop continues after ``pause_turn`` and runs no tool from a reply cut at ``max_tokens``."""
    from ..offline import call, reply, say

    ran: list[str] = []

    def recording_bash(command: str) -> str:
        ran.append(command)
        return "ok"

    scenarios = [
        (
            "pause_turn",
            [say("Still working...", stop_reason="pause_turn"), say("Finished after the pause.")],
            lambda msgs: (
                _text_of(msgs[-1]["content"]).endswith("Finished after the pause.") and not ran
            ),
            "after pause_turn the loop must call the model again (with the history as it is) and stop on its final answer",
        ),
        (
            "max_tokens",
            [reply(call("bash", command="rm half-written"), stop_reason="max_tokens")],
            lambda msgs: not ran and len(msgs) == 2,
            "a reply cut off at max_tokens must not have its tool calls run: append it and return",
        ),
    ]
    problems = []
    for name, replies, good, rule in scenarios:
        ran.clear()
        client, model, _ = _offline(*replies)
        counting = _CountingClient(client, limit=len(replies))
        messages: list[Any] = [{"role": "user", "content": f"Scenario {name}"}]
        try:
            with _globals_swapped(
                agent_loop, client=counting, MODEL=model, run_bash=recording_bash
            ):
                agent_loop(messages)
        except NotImplementedError:
            return _blank(
                f"{getattr(agent_loop, '__name__', 'agent_loop')} still raises NotImplementedError."
            )
        except _RunawayLoop:
            problems.append(
                f"{name}: {rule} (the loop kept calling the model after its last reply; tools run: {ran or 'none'})"
            )
            continue
        except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
            problems.append(f"{name}: {_api_message(e)}")
            continue
        if not good(to_dict(messages)):
            problems.append(
                f"{name}: {rule} (model calls: {len(counting.calls)}, tools run: {ran or 'none'})"
            )
    if problems:
        return Verdict(False, "not every stop reason is handled yet.", problems)
    return Verdict(True, "pause_turn resumed the turn, and the cut-off tool call was never run.")


# --- s02 ---------------------------------------------------------------------------------


def check_dispatch_map(TOOLS: list[dict], TOOL_HANDLERS: dict[str, Callable[..., Any]]) -> Verdict:
    """Exercise: fill in the dispatch map; every tool the menu offers is reachable and works in the loop."""
    if not isinstance(TOOL_HANDLERS, dict):
        return Verdict(
            False,
            f"TOOL_HANDLERS should be a dict (name -> function); it is {type(TOOL_HANDLERS).__name__}.",
        )
    if any(t is Ellipsis for t in TOOLS) or any(h is Ellipsis for h in TOOL_HANDLERS.values()):
        return _blank("a schema or a handler is still `...`.")
    not_dicts = [t for t in TOOLS if not isinstance(t, dict)]
    if not_dicts:
        return Verdict(
            False,
            f"every entry of TOOLS must be a dict (name, description, input_schema); one is {not_dicts[0]!r:.100}",
        )
    not_callable = [n for n, h in TOOL_HANDLERS.items() if not callable(h)]
    if not_callable:
        return Verdict(
            False,
            f"TOOL_HANDLERS[{not_callable[0]!r}] must be a function; it is {TOOL_HANDLERS[not_callable[0]]!r:.100}",
        )
    missing = [t.get("name") for t in TOOLS if t.get("name") not in TOOL_HANDLERS]
    if missing and len(TOOL_HANDLERS) <= 1:
        return _blank(f"TOOL_HANDLERS has no entry yet for {', '.join(missing)}.")
    problems = check_tools(TOOLS, TOOL_HANDLERS)
    if problems:
        return Verdict(False, "TOOLS and TOOL_HANDLERS do not match.", problems)
    from ..offline import call, say

    name = f"dispatch-check-{os.getpid()}.txt"
    steps = [
        call("write_file", path=name, content="alpha\n"),
        call("edit_file", path=name, old_text="alpha", new_text="beta"),
        call("read_file", path=name),
        call("glob", pattern="dispatch-check-*.txt"),
        call("bash", command=f"rm {name}"),
    ]
    client, model, _ = _offline(*steps, say("All five tools answered."))
    from ..loop import agent_loop

    try:
        box = Toolbox.from_dicts(TOOLS, TOOL_HANDLERS)
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return Verdict(False, str(e))
    state = agent_loop(
        [{"role": "user", "content": "Use every tool once"}], client=client, model=model, tools=box
    )
    seen = [e for e in state.events if e.kind == "tool_ran"]
    bad = [
        f"{e.name}({e.input}) -> {e.output!r:.120}"
        for e in seen
        if e.is_error or str(e.output).startswith("Error")
    ]
    if not any("beta" in str(e.output) for e in seen if e.name == "read_file"):
        bad.append(
            "read_file after the edit should show 'beta': is edit_file wired to run_edit with old_text and new_text?"
        )
    if bad:
        return Verdict(False, "in the loop, some calls came back as errors:", bad)
    return Verdict(
        True,
        "the model called all five tools by name, and each reached its function: "
        + ", ".join(e.name for e in seen)
        + ".",
        [p.words for p in tool_problems(TOOLS) if p.api is None],  # advice: accepted anyway
    )


def check_edit_refuses_duplicates(run_edit: Callable[..., str], root: str | os.PathLike) -> Verdict:
    """Exercise: ``run_edit`` refuses an ``old_text`` found more than once, names the count, and changes nothing."""
    folder = Path(tempfile.mkdtemp(prefix="edit-check-", dir=root))
    try:
        return _check_edit(run_edit, root, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # leave the learner's workspace as it was


def _check_edit(run_edit: Callable[..., str], root: str | os.PathLike, folder: Path) -> Verdict:
    rel = (
        folder.relative_to(Path(root).resolve())
        if folder.is_relative_to(Path(root).resolve())
        else folder
    )
    twice, once = str(rel / "twice.py"), str(rel / "once.py")
    (folder / "twice.py").write_text("x = 1\nx = 1\ny = 2\n")
    (folder / "once.py").write_text("x = 1\n")
    try:
        refused = run_edit(twice, "x = 1", "x = 9")
        done = run_edit(once, "x = 1", "x = 2")
        missing = run_edit(once, "zzz", "x")
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return _crash(getattr(run_edit, "__name__", "run_edit"), e)
    problems = []
    if (folder / "twice.py").read_text() != "x = 1\nx = 1\ny = 2\n":
        problems.append(
            f"the file with two matches was changed to {(folder / 'twice.py').read_text()!r}; refuse before writing"
        )
    if "2" not in str(refused) or not str(refused).lower().startswith("error"):
        problems.append(
            f"for two matches, return an 'Error: ...' that says how many (2); it returned {refused!r}"
        )
    if (folder / "once.py").read_text() != "x = 2\n":
        problems.append(
            f"a text found once should still be replaced; the file reads {(folder / 'once.py').read_text()!r} ({done!r})"
        )
    if not str(missing).lower().startswith("error"):
        problems.append(
            f"a text not found at all should still be an error; it returned {missing!r}"
        )
    if problems:
        return Verdict(False, "run_edit is not there yet.", problems)
    from ..offline import call, say

    client, model, _ = _offline(
        call("edit_file", path=twice, old_text="x = 1", new_text="x = 9"),
        say("It matched twice; I will add context."),
    )
    from ..loop import agent_loop

    edit_schema = {
        "name": "edit_file",
        "description": "Replace exact text in file.",
        "input_schema": {
            "type": "object",
            "properties": {k: {"type": "string"} for k in ("path", "old_text", "new_text")},
            "required": ["path", "old_text", "new_text"],
        },
    }
    state = agent_loop(
        [{"role": "user", "content": "Change x to 9"}],
        client=client,
        model=model,
        tools=Toolbox.from_dicts([edit_schema], {"edit_file": run_edit}),
    )
    seen = state.messages[2]["content"][0]["content"]
    return Verdict(
        True,
        f"two matches are refused with the count, one is replaced; in the loop the model read {seen!r}.",
    )


def check_safe_glob(run_glob: Callable[[str], str], root: str | os.PathLike) -> Verdict:
    """Exercise: a ``glob`` that answers inside the workspace and refuses absolute patterns and ``..``."""
    try:
        return _check_glob(run_glob, Path(root).resolve())
    finally:
        shutil.rmtree(Path(root) / "glob-check", ignore_errors=True)


def _check_glob(run_glob: Callable[[str], str], root: Path) -> Verdict:
    (root / "glob-check").mkdir(exist_ok=True)
    (root / "glob-check" / "a.txt").write_text("a\n")
    problems = []
    try:
        inside = run_glob("glob-check/*.txt")
        outside = {p: run_glob(p) for p in ("/etc/host*", "../*", "glob-check/../../*")}
    except Exception as e:  # noqa: BLE001 - learner code may raise anything; we report it
        return _crash(getattr(run_glob, "__name__", "run_glob"), e)
    if not isinstance(inside, str):
        return Verdict(
            False,
            f"run_glob should return text (one path per line); it returned {type(inside).__name__}.",
        )
    if inside.strip() != "glob-check/a.txt":
        problems.append(
            f"'glob-check/*.txt' should give 'glob-check/a.txt' (relative to the workspace); it gave {inside!r}"
        )
    for pattern, out in outside.items():
        if not str(out).lower().startswith("error"):
            problems.append(
                f"{pattern!r} reaches outside the workspace: return an 'Error: ...'; it returned {str(out)[:100]!r}"
            )
    if problems:
        return Verdict(False, "the glob is not safe yet.", problems)
    from ..offline import call, say

    client, model, _ = _offline(call("glob", pattern="/etc/*"), say("That pattern is refused."))
    from ..loop import agent_loop

    glob_schema = {
        "name": "glob",
        "description": "Find files matching a glob pattern.",
        "input_schema": {
            "type": "object",
            "properties": {"pattern": {"type": "string"}},
            "required": ["pattern"],
        },
    }
    state = agent_loop(
        [{"role": "user", "content": "List /etc"}],
        client=client,
        model=model,
        tools=Toolbox.from_dicts([glob_schema], {"glob": run_glob}),
    )
    seen = state.messages[2]["content"][0]["content"]
    return Verdict(
        True,
        f"matches come back relative, and escapes are refused; asked for '/etc/*' in the loop, the model read {seen!r}.",
    )


def check_own_tool(
    TOOLS: list[dict] | Toolbox,
    TOOL_HANDLERS: dict[str, Callable[..., Any]] | None,
    *,
    name: Any,
    example: Any,
) -> Verdict:
    """Exercise: the learner's own tool, whatever its name, passes ``check_exercise`` and runs in the loop."""
    if name is Ellipsis or example is Ellipsis or not name:
        return _blank("TOOL_NAME or EXAMPLE is still `...`.")
    if TOOLS is Ellipsis:
        return _blank("the toolbox is still `...`.")
    if not isinstance(TOOLS, Toolbox) and any(t is Ellipsis for t in TOOLS):
        return _blank("the schema is still `...`.")
    if not isinstance(example, dict):
        return Verdict(
            False,
            f"EXAMPLE should be a dict of arguments, like {{'text': 'a b c'}}; it is {example!r}.",
        )
    handlers = TOOLS.TOOL_HANDLERS if isinstance(TOOLS, Toolbox) else (TOOL_HANDLERS or {})
    if callable(handlers.get(name)):
        try:
            handlers[name](**example)
        except NotImplementedError:
            return _blank(f"{name} still raises NotImplementedError.")
        except Exception:  # noqa: BLE001 - check_exercise below reports the failure in words
            pass
    problems = check_exercise(TOOLS, TOOL_HANDLERS, name=name, example=example)
    if problems:
        return Verdict(False, f"{name!r} is not ready for the loop.", problems)
    box = TOOLS if isinstance(TOOLS, Toolbox) else Toolbox.from_dicts(TOOLS, TOOL_HANDLERS or {})
    from ..loop import agent_loop
    from ..offline import call, say

    def answer(request: dict) -> Any:
        result = request["messages"][-1]["content"][0]
        return say(f"{name} answered: {result.get('content')}")

    client, model, _ = _offline(call(name, **example), answer)
    state = agent_loop(
        [{"role": "user", "content": f"Use the {name} tool on {example}"}],
        client=client,
        model=model,
        tools=box,
    )
    ran = [e for e in state.events if e.kind == "tool_ran"]
    if not ran or ran[0].is_error:
        return Verdict(
            False,
            f"in the loop the call came back as an error: {ran[0].output if ran else 'no call ran'}",
        )
    return Verdict(
        True,
        f"the loop looked {name!r} up by name and ran it: {name}({example}) -> {ran[0].output!r}; the model answered {_text_of(state.messages[-1]['content'])!r}.",
        [p.words for p in tool_problems(box.TOOLS) if p.api is None],  # advice: accepted anyway
    )
