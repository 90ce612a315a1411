"""The s01 -> s02 comparison view: tool sets, counted lines, what is new, the loop unchanged."""

from __future__ import annotations

import inspect
import re

from agentlib import Toolbox, agent_loop, tool
from agentlib.widgets import compare_view
from agentlib.widgets.compare import code_lines


@tool
def bash(command: str) -> str:
    """Run a shell command.

    Args:
        command: the command line
    """
    return command


@tool(read_only=True)
def read_file(path: str) -> str:
    """Read a file <of text>.

    Args:
        path: where the file is
    """
    return path


def s01_only() -> str:
    # a comment line does not count
    return "bash"


def s02_only() -> str:
    x = 1

    return str(x)


def test_tools_split_into_only_left_shared_only_right():
    view = compare_view([bash.spec, "legacy"], Toolbox([bash, read_file]))
    assert view.only_left == ["legacy"]
    assert view.shared == ["bash"]
    assert view.only_right == {"read_file": "Read a file <of text>."}


def test_lines_are_counted_from_the_given_code():
    assert code_lines("a = 1\n\n   # note\nb = 2\n") == 2
    view = compare_view(
        Toolbox([bash]),
        Toolbox([bash, read_file]),
        left_source=s01_only,
        right_source=[s02_only, bash],
    )
    bash_lines = code_lines(inspect.getsource(bash.handler))
    assert bash_lines >= 7  # decorator, def, docstring lines, return
    assert view.lines == (2, 3 + bash_lines)
    assert f"lines of code: s01 2, s02 {3 + bash_lines} (+{1 + bash_lines})" in view.to_text()


def test_a_toolbox_counts_the_code_of_its_tools():
    one, two = Toolbox([bash]), Toolbox([bash, read_file])
    view = compare_view(one, two, left_source=one, right_source=two)
    assert view.lines[1] - view.lines[0] == code_lines(inspect.getsource(read_file.handler))


def test_the_same_loop_is_shown_unchanged():
    view = compare_view(Toolbox([bash]), Toolbox([bash, read_file]), left_loop=agent_loop)
    assert view.loop_unchanged and view.loop_diff() == []
    assert "the loop: unchanged" in view.to_text()
    assert "unchanged: the same" in view.to_html() and "def agent_loop" in view.to_html()


def test_a_changed_loop_is_shown_as_a_diff():
    view = compare_view(
        [], [], left_loop="while True:\n    call()\n", right_loop="while True:\n    call2()\n"
    )
    assert not view.loop_unchanged
    assert "-    call()" in view.to_text() and "+    call2()" in view.to_text()
    assert "a different shape; 2 lines differ" in view.to_text()


def test_the_seed_loops_keep_their_skeleton_and_the_changed_lines_are_counted():
    s01 = 'while True:\n    r = create(messages=messages)\n    if r.stop_reason != "tool_use":\n        return\n    out = run_bash(b)\n'
    s02 = 'while True:\n    r = create(messages=normalize_messages(messages))\n    if r.stop_reason != "tool_use":\n        return\n    out = TOOL_HANDLERS[b.name](**b.input)\n'
    view = compare_view([], [], left_loop=s01, right_loop=s02)
    assert view.same_skeleton
    assert (
        'the same skeleton (while True, one exit on stop_reason != "tool_use"); 4 lines differ'
        in view.to_text()
    )


def test_html_is_escaped_and_static():
    view = compare_view(Toolbox([bash]), Toolbox([bash, read_file]), right_label="<s02>")
    html = view.to_html()
    assert "&lt;s02&gt;" in html and "Read a file &lt;of text&gt;." in html
    assert not re.search(r"<\s*(script|style|svg)", html)
    assert set(view._repr_mimebundle_()) == {"text/html", "text/plain"}
