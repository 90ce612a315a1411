"""The checks of notebooks 01 and 02: a blank explains itself, each typical mistake is named in words, a right answer passes, all against the real offline model."""

from __future__ import annotations

import subprocess
import textwrap

import pytest
from verdicts import assert_verdict, bash_in, blank, define, friendly_checks  # noqa: F401

from agentlib.course.checks import (
    BASH,
    BLANK,
    NOT_YET,
    WORKS,
    check_agent_loop,
    check_exit_code,
    check_stop_reasons,
    check_tool_results,
)

# --- exit code -----------------------------------------------------------------------------


def test_exit_code_blank_explains(tmp_path):
    assert_verdict(check_exit_code(blank), BLANK, "NotImplementedError", "run this check again")


def test_exit_code_without_the_code_is_named(tmp_path):
    assert_verdict(
        check_exit_code(bash_in(tmp_path)),
        NOT_YET,
        "`echo hi; exit 3` should keep 'hi' and give the exit code 3",
    )


def test_exit_code_returning_none_is_named(tmp_path):
    assert_verdict(check_exit_code(lambda command: None), NOT_YET, "returned NoneType, not text")


def bash_with(tmp_path, status_line: str, *, only_when_silent: bool = False):
    """A run_bash that reports a non-zero exit code with ``status_line`` (formatted with ``code``)."""

    def run_bash(command: str) -> str:
        r = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        if r.returncode and not (only_when_silent and out):
            out = f"{out}\n{status_line.format(code=r.returncode)}".strip()
        return out or "(no output)"

    return run_bash


@pytest.mark.parametrize(
    "status_line",
    ["(exit code {code})", "[command failed with status {code}]", "exit status: {code}"],
)
def test_exit_code_any_wording_that_keeps_the_number_reaches_the_model(tmp_path, status_line):
    # "[command failed with status 3]" was refused while the check looked for the word "exit"
    verdict = check_exit_code(bash_with(tmp_path, status_line))
    assert_verdict(verdict, WORKS, f"the model read '{status_line.format(code=4)}'")


def test_exit_code_only_for_silent_failures_is_named(tmp_path):
    verdict = check_exit_code(bash_with(tmp_path, "(exit code {code})", only_when_silent=True))
    assert_verdict(verdict, NOT_YET, "`echo hi; exit 3` should keep 'hi' and give the exit code 3")


def test_exit_code_always_the_same_number_is_named(tmp_path):
    verdict = check_exit_code(bash_with(tmp_path, "(exit code 3)"))
    assert_verdict(verdict, NOT_YET, "`exit 5` (no output) should give the exit code 5")


def test_exit_code_failure_that_reads_like_success_is_named(tmp_path):
    def silent_is_fine(command: str) -> str:
        r = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        return (
            out or f"(no output, exit code {r.returncode})"
            if r.returncode
            else out or "(no output, exit code 5)"
        )

    assert_verdict(check_exit_code(silent_is_fine), NOT_YET, "unlike `true`, which succeeded")


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
        check_agent_loop(fn), WORKS, "3 model calls, 6 messages", "'Done: three commands ran.'"
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


def test_stop_reasons_continue_before_appending_the_paused_reply_is_named(tmp_path):
    # this loop passed while the check only looked at the final answer
    source = SEED_LOOP.format(
        append_reply=f'if response.stop_reason == "pause_turn": continue\n        {APPEND}',
        on_stop="return",
    )
    fn = define(
        source, client=None, MODEL=None, SYSTEM="t", TOOLS=[BASH], run_bash=bash_in(tmp_path)
    )["agent_loop"]
    verdict = check_stop_reasons(fn)
    assert_verdict(verdict, NOT_YET, "pause_turn: append the paused reply before calling the model again",
                   "the model lost the 'Still working...'")  # fmt: skip
    assert len(verdict.details) == 1


def test_stop_reasons_right_answer(tmp_path):
    on_stop = 'if response.stop_reason == "pause_turn": continue\n            return'
    verdict = check_stop_reasons(loop(tmp_path, on_stop=on_stop))
    assert_verdict(verdict, WORKS, "left for normalize_messages (notebook 04)")
    assert_verdict(check_stop_reasons(blank), BLANK)


CUT_ANSWERED = """if response.stop_reason == "pause_turn": continue
            if response.stop_reason == "max_tokens":
                messages.append({{"role": "user", "content": [
                    {{"type": "tool_result", "tool_use_id": b.id, "content": "cut off", {is_error}}}
                    for b in response.content if b.type == "tool_use"]}})
            return"""


def test_stop_reasons_cut_calls_answered_with_errors_are_accepted(tmp_path):
    # this answer keeps the history valid; it was refused with "(model calls: 1, tools run: none)"
    verdict = check_stop_reasons(
        loop(tmp_path, on_stop=CUT_ANSWERED.format(is_error='"is_error": True'))
    )
    assert_verdict(verdict, WORKS, "answered with an is_error result, so the history stays valid")


def test_stop_reasons_cut_calls_answered_as_successes_are_named(tmp_path):
    verdict = check_stop_reasons(
        loop(tmp_path, on_stop=CUT_ANSWERED.format(is_error='"is_error": False'))
    )
    assert_verdict(
        verdict,
        NOT_YET,
        "max_tokens: after the cut reply, return",
        "'is_error': True for each cut call",
    )
