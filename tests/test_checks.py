"""The exercise checks: a blank explains itself, each typical mistake is named in words, a right answer passes, all against the real offline model."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from agentlib import Workspace, s02_tools
from agentlib.course.checks import (
    BASH,
    BLANK,
    NOT_YET,
    WORKS,
    Verdict,
    check_agent_loop,
    check_dispatch_map,
    check_edit_refuses_duplicates,
    check_exit_code,
    check_own_tool,
    check_safe_glob,
    check_stop_reasons,
    check_tool_results,
)


def define(source: str, **names):
    """Run ``source`` in a namespace of its own holding ``names`` (as a notebook's globals would)."""
    namespace = {"subprocess": subprocess, "os": os, "Path": Path, **names}
    exec(textwrap.dedent(source), namespace)
    return namespace


def blank(*_args, **_kwargs):
    raise NotImplementedError("the learner has not written this yet")


def assert_verdict(verdict: Verdict, head: str, *phrases: str) -> None:
    text = " ".join(str(verdict).split())
    assert text.startswith(head), text
    assert verdict.ok == (head == WORKS)
    for phrase in phrases:
        assert phrase in text, (phrase, text)


def bash_in(workdir: Path):
    def run_bash(command: str) -> str:
        r = subprocess.run(
            command, shell=True, cwd=workdir, capture_output=True, text=True, timeout=30
        )
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"

    return run_bash


# --- exit code -----------------------------------------------------------------------------


def test_exit_code_blank_explains(tmp_path):
    assert_verdict(check_exit_code(blank), BLANK, "NotImplementedError", "run this check again")


def test_exit_code_without_the_code_is_named(tmp_path):
    assert_verdict(
        check_exit_code(bash_in(tmp_path)), NOT_YET, "`exit 3` should mention the exit code 3"
    )


def test_exit_code_returning_none_is_named(tmp_path):
    assert_verdict(check_exit_code(lambda command: None), NOT_YET, "returned NoneType, not text")


def test_exit_code_right_answer_reaches_the_model(tmp_path):
    plain = bash_in(tmp_path)

    def with_status(command: str) -> str:
        r = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        if r.returncode:
            out = f"{out}\n(exit code {r.returncode})".strip()
        return out or "(no output)"

    assert plain("true") == "(no output)"
    assert_verdict(check_exit_code(with_status), WORKS, "the model read '(exit code 4)'")


# --- tool_results ------------------------------------------------------------------------


def results_source(body: str) -> str:
    return "def tool_results(content):\n" + textwrap.indent(textwrap.dedent(body), "    ")


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ("results = [{'type': 'tool_result', 'tool_use_id': b.id, 'content': 'x'} for b in content if b.type == 'tool_use']\n",
         "did you forget `return results`"),
        ("return [{'type': 'tool_result', 'tool_use_id': 'toolu_wrong', 'content': run_bash(b.input['command'])} for b in content if b.type == 'tool_use']",
         "'tool_use_id' must be each block's id"),
        ("return [{'type': 'tool_result', 'tool_use_id': getattr(b, 'id', 'x'), 'content': 'x'} for b in content]",
         "you returned 3 results"),
        ("return [{'type': 'tool_result', 'tool_use_id': b.id, 'content': 'same'} for b in content if b.type == 'tool_use']",
         "'content' should be run_bash's output"),
    ],
)  # fmt: skip
def test_tool_results_mistakes_are_named(tmp_path, body, phrase):
    fn = define(results_source(body), run_bash=bash_in(tmp_path))["tool_results"]
    assert_verdict(check_tool_results(fn), NOT_YET, phrase)


def test_tool_results_blank_and_right(tmp_path):
    assert_verdict(check_tool_results(blank), BLANK)
    right = results_source(
        "return [{'type': 'tool_result', 'tool_use_id': b.id, 'content': run_bash(b.input['command'])}\n"
        "        for b in content if b.type == 'tool_use']"
    )
    fn = define(right, run_bash=bash_in(tmp_path))["tool_results"]
    assert_verdict(check_tool_results(fn), WORKS, "the model answered 'Both ran.'")


# --- the loop ------------------------------------------------------------------------------

SEED_LOOP = """
def agent_loop(messages):
    while True:
        response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=8000)
        {append_reply}
        if response.stop_reason != "tool_use":
            {on_stop}
        results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({{"type": "tool_result", "tool_use_id": block.id,
                                 "content": run_bash(block.input["command"])}})
        messages.append({{"role": "user", "content": results}})
"""
APPEND = 'messages.append({"role": "assistant", "content": response.content})'


def loop(tmp_path, append_reply=APPEND, on_stop="return"):
    names = {
        "client": None,
        "MODEL": None,
        "SYSTEM": "test",
        "TOOLS": [BASH],
        "run_bash": bash_in(tmp_path),
    }
    source = SEED_LOOP.format(append_reply=append_reply, on_stop=on_stop)
    return define(source, **names)["agent_loop"]


def test_loop_right_answer_passes_and_globals_are_restored(tmp_path):
    fn = loop(tmp_path)
    assert_verdict(
        check_agent_loop(fn), WORKS, "3 model calls, 6 messages", "'Done: two commands ran.'"
    )
    assert fn.__globals__["client"] is None and fn.__globals__["MODEL"] is None


def test_loop_without_the_reply_gets_the_api_refusal_in_words(tmp_path):
    assert_verdict(check_agent_loop(loop(tmp_path, append_reply="pass")), NOT_YET,
                   "the API refused the request (HTTP 400)", "append it first")  # fmt: skip


def test_loop_that_never_returns_is_stopped(tmp_path):
    assert_verdict(
        check_agent_loop(loop(tmp_path, on_stop="pass")),
        NOT_YET,
        "the loop called the model 4 times",
    )


def test_loop_that_loses_the_answer_is_named(tmp_path):
    fn = loop(tmp_path, append_reply="pass", on_stop="return")
    source = SEED_LOOP.format(append_reply="", on_stop="return").replace(
        "        results = []", f"        {APPEND}\n        results = []"
    )
    fn = define(
        source, client=None, MODEL=None, SYSTEM="t", TOOLS=[BASH], run_bash=bash_in(tmp_path)
    )["agent_loop"]
    assert_verdict(
        check_agent_loop(fn), NOT_YET, "they are ['user', 'assistant', 'user', 'assistant', 'user']"
    )


def test_loop_blank(tmp_path):
    assert_verdict(check_agent_loop(blank), BLANK)


# --- stop reasons --------------------------------------------------------------------------


def test_stop_reasons_seed_loop_fails_pause_turn_only(tmp_path):
    verdict = check_stop_reasons(loop(tmp_path))
    assert_verdict(
        verdict, NOT_YET, "pause_turn: after pause_turn the loop must call the model again"
    )
    assert not any(d.startswith("max_tokens") for d in verdict.details)


def test_stop_reasons_running_a_cut_off_call_is_named(tmp_path):
    on_stop = 'if response.stop_reason == "pause_turn": continue\n            if response.stop_reason != "max_tokens": return'
    assert_verdict(check_stop_reasons(loop(tmp_path, on_stop=on_stop)), NOT_YET, "max_tokens: a reply cut off", "tools run: ['rm half-written']")  # fmt: skip


def test_stop_reasons_right_answer(tmp_path):
    on_stop = 'if response.stop_reason == "pause_turn": continue\n            return'
    assert_verdict(check_stop_reasons(loop(tmp_path, on_stop=on_stop)), WORKS)
    assert_verdict(check_stop_reasons(blank), BLANK)


# --- s02 -----------------------------------------------------------------------------------


@pytest.fixture
def s02(tmp_path):
    ws = Workspace(tmp_path)
    return ws, s02_tools(ws)


def test_dispatch_map_blank_mismatch_broken_and_right(s02):
    ws, box = s02
    four = [t for t in box.TOOLS if t["name"] != "glob"]
    handlers = {k: v for k, v in box.TOOL_HANDLERS.items() if k != "glob"}
    assert_verdict(check_dispatch_map([*four, ...], {**handlers, "glob": ...}), BLANK)
    assert_verdict(
        check_dispatch_map(box.TOOLS, handlers),
        NOT_YET,
        "'glob' is in TOOLS but not in TOOL_HANDLERS",
    )
    swapped = {**box.TOOL_HANDLERS, "edit_file": box.TOOL_HANDLERS["write_file"]}
    assert_verdict(check_dispatch_map(box.TOOLS, swapped), NOT_YET)
    assert_verdict(
        check_dispatch_map(box.TOOLS, box.TOOL_HANDLERS),
        WORKS,
        "write_file, edit_file, read_file, glob, bash",
    )
    assert not list(ws.root.glob("dispatch-check-*"))


def seed_edit(root: Path, refuse_duplicates: bool):
    def run_edit(path: str, old_text: str, new_text: str) -> str:
        fp = (root / path).resolve()
        content = fp.read_text()
        count = content.count(old_text)
        if count == 0:
            return f"Error: Text not found in {path}"
        if refuse_duplicates and count > 1:
            return f"Error: found {count} times"
        fp.write_text(content.replace(old_text, new_text, 1))
        return f"Edited {path}"

    return run_edit


def test_edit_check(tmp_path):
    assert_verdict(check_edit_refuses_duplicates(blank, tmp_path), BLANK)
    assert_verdict(check_edit_refuses_duplicates(seed_edit(tmp_path, False), tmp_path), NOT_YET,
                   "the file with two matches was changed", "that says how many (2)")  # fmt: skip
    assert_verdict(check_edit_refuses_duplicates(seed_edit(tmp_path, True), tmp_path), WORKS, "'Error: found 2 times'")  # fmt: skip
    assert list(tmp_path.iterdir()) == []  # the check leaves the workspace as it found it


def test_safe_glob_check(tmp_path):
    root = tmp_path.resolve()

    def naive(pattern: str) -> str:
        import glob

        return "\n".join(sorted(glob.glob(str(root / pattern))))

    def safe(pattern: str) -> str:
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            return "Error: outside"
        return "\n".join(sorted(str(p.relative_to(root)) for p in root.glob(pattern)))

    assert_verdict(check_safe_glob(blank, tmp_path), BLANK)
    assert_verdict(check_safe_glob(naive, tmp_path), NOT_YET, "(relative to the workspace)", "'/etc/host*' reaches outside")  # fmt: skip
    assert_verdict(check_safe_glob(safe, tmp_path), WORKS, "the model read 'Error: outside'")
    assert not (tmp_path / "glob-check").exists()


# --- your own tool -------------------------------------------------------------------------


def schema_for(name: str, arg: str = "text") -> dict:
    return {"name": name, "description": "Does one small thing.",
            "input_schema": {"type": "object", "properties": {arg: {"type": "string"}}, "required": [arg]}}  # fmt: skip


@pytest.mark.parametrize("name", ["word_count", "reverse-it", "c2f"])
def test_own_tool_works_for_any_name(s02, name):
    _, box = s02
    verdict = check_own_tool([*box.TOOLS, schema_for(name)], {**box.TOOL_HANDLERS, name: lambda text: text[::-1]},
                             name=name, example={"text": "abc"})  # fmt: skip
    assert_verdict(verdict, WORKS, f"{name}({{'text': 'abc'}}) -> 'cba'", f"'{name} answered: cba'")


def test_own_tool_mistakes_are_named(s02):
    _, box = s02
    tools = [*box.TOOLS, schema_for("shout")]
    assert_verdict(check_own_tool(tools, {**box.TOOL_HANDLERS, "shout": blank}, name="shout", example={"text": "a"}), BLANK)  # fmt: skip
    assert_verdict(
        check_own_tool([*box.TOOLS, ...], box.TOOL_HANDLERS, name=..., example=...), BLANK
    )
    prints = check_own_tool(
        tools,
        {**box.TOOL_HANDLERS, "shout": lambda text: print(text)},
        name="shout",
        example={"text": "a"},
    )
    assert_verdict(prints, NOT_YET, "prints its result instead of returning it")
    spaced = [*box.TOOLS, schema_for("shout it")]
    assert_verdict(check_own_tool(spaced, {**box.TOOL_HANDLERS, "shout it": str.upper}, name="shout it", example={"text": "a"}), NOT_YET)  # fmt: skip
    assert_verdict(check_own_tool(tools, box.TOOL_HANDLERS, name="shout", example="a"), NOT_YET, "EXAMPLE should be a dict")  # fmt: skip
