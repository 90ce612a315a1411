"""The static round diagram: HTML and text snapshots per run shape, and hostile strings made inert."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import widget_examples as examples

from agentlib.widgets.static_html import render_html
from agentlib.widgets.static_text import render_text
from agentlib.widgets.trace import Trace

SNAPSHOTS = Path(__file__).parent / "snapshots" / "widgets"
UPDATE = (
    os.environ.get("UPDATE_SNAPSHOTS") == "1"
)  # set to rewrite the files after a deliberate change
VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}


def trace_of(case: str) -> dict:
    return Trace.from_events(examples.CASES[case]()).to_dict()


def check_snapshot(name: str, actual: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), (
        f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 and review the file"
    )
    assert actual == path.read_text(encoding="utf-8")


class TagCheck(HTMLParser):
    """Collects tag names and checks that every opened element is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def parsed(markup: str) -> TagCheck:
    checker = TagCheck()
    checker.feed(markup)
    checker.close()
    assert checker.stack == [], f"unclosed: {checker.stack}"
    return checker


@pytest.mark.parametrize("case", sorted(examples.CASES))
def test_html_matches_snapshot(case):
    check_snapshot(f"{case}.html", render_html(trace_of(case)))


@pytest.mark.parametrize("case", sorted(examples.CASES))
def test_text_matches_snapshot(case):
    check_snapshot(f"{case}.txt", render_text(trace_of(case)))


@pytest.mark.parametrize("case", sorted(examples.CASES))
def test_html_is_balanced_and_has_no_active_content(case):
    tags = set(parsed(render_html(trace_of(case))).tags)
    assert tags & {"script", "style", "svg", "iframe", "object"} == set()
    assert {"table", "thead", "tbody", "tr", "th", "td", "ul", "ol", "li"} <= tags


@pytest.mark.parametrize("case", sorted(examples.CASES))
def test_text_structure_is_ascii(case):
    text = render_text(trace_of(case))
    assert text.replace("…", "").isascii()  # plain ASCII structure; … marks a shortened line
    n = len(trace_of(case)["rounds"])
    assert [f"Round {k} of {n}" in text for k in range(1, n + 1)] == [True] * n


def test_the_first_lane_says_what_the_harness_is():
    html, text = render_html(trace_of("single_tool")), render_text(trace_of("single_tool"))
    assert "  Your code (the harness): Sent 1 message, 1 new" in text
    assert "harness" not in text.replace("your code (the harness)", "").replace(
        "Your code (the harness)", ""
    )
    assert 'title="The harness is your code around the model: the loop that keeps' in html
    assert ">Your code (the harness): what it sent</th>" in html


def test_the_toolbox_is_listed_once_when_known():
    trace = Trace.from_events(examples.single_tool(), tools=["bash", "read_file"]).to_dict()
    for view in (render_text(trace), render_html(trace)):
        assert view.count("Tools offered to the model: bash, read_file") == 1
    assert "Tools offered" not in render_text(trace_of("single_tool"))


def test_tool_error_is_marked_in_words():
    html, text = render_html(trace_of("tool_error")), render_text(trace_of("tool_error"))
    assert ">ERROR</span>" in html and "read_file (toolu_01) ERROR" in text
    assert "ERROR" not in render_text(trace_of("single_tool"))


def test_max_tokens_says_the_tool_call_was_not_run():
    text = render_text(trace_of("max_tokens"))
    assert "NOT RUN: tool_use toolu_01" in text
    assert "stop_reason: max_tokens means the reply hit max_tokens and was cut off." in text
    assert "Round 1: the loop stopped (max_tokens) without running the tools" in text
    assert "messages[1] asks for tool 'write_file' (id toolu_01)" in text
    assert "NOT RUN" in render_html(trace_of("max_tokens"))


def test_parallel_tools_are_paired_by_id():
    text = render_text(trace_of("parallel_tools"))
    assert (
        'read_file (toolu_01) ok, 0.01 s\n      input: {"path": "a.txt"}\n      output: alpha'
        in text
    )
    assert (
        'read_file (toolu_02) ok, 0.01 s\n      input: {"path": "b.txt"}\n      output: beta'
        in text
    )


def test_live_model_has_no_estimate_label():
    trace = Trace.from_events(examples.single_tool(), offline=False).to_dict()
    assert "estimated" not in render_text(trace) + render_html(trace)
    assert "LIVE model" in render_html(trace)


def test_hostile_strings_come_out_inert():
    trace = Trace.from_events(examples.hostile_output()).to_dict()
    html = render_html(trace)
    checker = parsed(html)
    assert set(checker.tags) & {"script", "style", "svg"} == set()
    assert not re.search(r"<\s*(script|style|svg)", html, re.IGNORECASE)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;style&gt;" in html
    assert "toolu_&lt;b&gt;" in html  # ids are escaped too, not only outputs
    assert "<script>alert(1)</script><style>" in render_text(trace)  # text/plain is inert by nature


def test_a_bare_history_is_drawn_without_inventing_facts():
    from agentlib.widgets.history import trace_from_messages

    history = [
        {"role": "user", "content": "List files"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py\nb.py"}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Two files:\n- a.py\n- b.py"}]},
    ]
    trace = trace_from_messages(history).to_dict()
    page, text = render_html(trace), render_text(trace)
    assert "model unknown" in page and "model unknown" in text and "LIVE" not in page
    assert "Ended with" in page and "inferred from the history" in page
    assert page.count("inferred") == 1 and text.count("inferred") == 1  # said once, not per round
    assert "No token counts recorded for this run" in page + text and "| 0" not in text
    assert "has not finished" not in page and ", ?" not in page and ">?<" not in page
    assert "Two files:\n- a.py" in page  # line breaks kept, not shown as \n


def test_an_edit_keeps_the_indentation_of_its_new_text():
    trace = trace_of("edit")
    text = render_text(trace)
    assert (
        "        new_text:\n          def greet(name):\n              if name:\n"
        "                  return f'hi {name}'\n              return 'hi'\n      output: Edited"
    ) in text
    page = render_html(trace)
    assert (
        "new_text:\n  def greet(name):\n      if name:\n          return f&#x27;hi {name}&#x27;"
        in page
    )
    assert page.count("white-space:pre-wrap") > 4  # every text keeps its spaces in a browser


def test_only_the_last_round_says_its_reply_is_the_final_answer():
    for render in (render_text, render_html):
        shown = render(trace_of("single_tool"))
        assert shown.count("No tool calls: this reply is the final answer") == 1
        assert "no tool calls" not in shown
    paused = Trace.from_events(examples.long_run(2))
    paused.rounds[0]["tools"] = []  # a round without tool calls that is not the last
    assert "no tool calls" in render_text(paused.to_dict())


def test_a_long_reply_opens_in_place_in_the_static_html():
    page = render_html(Trace.from_events(examples.long_answer()).to_dict())
    (details,) = re.findall(r"<details.*?</details>", page)
    summary = re.search(r"<summary[^>]*>(.*?)</summary>", details).group(1)
    rest = re.search(r"</summary><span[^>]*>(.*?)</span>", details).group(1)
    assert summary.endswith("…") and summary[:-1] + rest == examples.LONG_ANSWER
    assert "file_119.txt." in rest and "[…" not in page  # the whole answer, no cut marker


def test_a_backslash_in_a_tool_input_is_shown_once_as_json_shows_it():
    from agentlib.widgets.history import trace_from_messages

    command = "printf 'a\\nb'"  # a backslash and an n, not a line break
    history = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": command}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a\nb"}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
    ]
    text = render_text(trace_from_messages(history).to_dict())
    assert '{"command": "printf \'a\\\\nb\'"}' in text  # JSON's own escape, not doubled again
    assert "\\\\\\\\n" not in text
