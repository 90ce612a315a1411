"""expect_error: a deliberate error prints a few readable lines, and a demonstration that stops failing fails."""

from __future__ import annotations

import anthropic
import nbformat
import pytest

from agentlib.course import expect_error, run_notebook
from agentlib.errors import PathEscapeError
from agentlib.offline import offline_client
from agentlib.sandbox import Workspace

UNANSWERED = [
    {"role": "user", "content": "List the files."},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}}]},
    {"role": "user", "content": "go on"},
]  # fmt: skip
WHY = "every tool_use needs its tool_result in the next user message"


def send_unanswered_history():
    client, model = offline_client(max_retries=0)
    client.messages.create(model=model, max_tokens=100, messages=UNANSWERED)


def test_an_api_error_prints_type_status_message_and_why(capsys):
    with expect_error(anthropic.BadRequestError, why=WHY) as shown:
        send_unanswered_history()
    out = capsys.readouterr().out
    assert isinstance(shown.error, anthropic.BadRequestError)
    lines = out.splitlines()
    assert (
        lines[0]
        == "Error shown on purpose: anthropic.BadRequestError (HTTP 400, invalid_request_error)"
    )
    assert lines[-1] == f"Why: {WHY}"
    message = " ".join(line.strip() for line in lines[1:-1])
    assert (
        message == shown.error.body["error"]["message"]
    )  # the API's own words, not the SDK's dict dump
    assert "Traceback" not in out and "request_id" not in out
    assert out == shown.text + "\n"


def test_a_path_escape_from_a_real_workspace(tmp_path, capsys):
    workspace = Workspace(tmp_path)
    try:
        with expect_error(PathEscapeError, why="safe_path keeps the tools inside the workspace"):
            workspace.read_file("../../etc/passwd")
    finally:
        workspace.close()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Error shown on purpose: agentlib.errors.PathEscapeError"
    assert lines[1].startswith("  Path escapes workspace: ../../etc/passwd")
    assert lines[-1] == "Why: safe_path keeps the tools inside the workspace"


def test_a_block_that_raises_nothing_fails_the_cell(capsys):
    with pytest.raises(
        AssertionError, match="ran without an error: the demonstration no longer shows"
    ):
        with expect_error(anthropic.BadRequestError, why=WHY):
            pass
    assert capsys.readouterr().out == ""


def test_an_error_of_another_type_fails_the_cell_and_keeps_the_original():
    with pytest.raises(AssertionError) as failure:
        with expect_error(PathEscapeError, why="paths stay inside"):
            send_unanswered_history()
    assert str(failure.value).startswith(
        "This cell should fail with agentlib.errors.PathEscapeError (paths stay inside), but it "
        "failed with anthropic.BadRequestError: messages.1: `tool_use` ids were found"
    )
    assert isinstance(failure.value.__cause__, anthropic.BadRequestError)


def test_a_tuple_of_types_accepts_any_of_them(capsys):
    with expect_error((PathEscapeError, anthropic.BadRequestError), why=WHY) as shown:
        send_unanswered_history()
    assert isinstance(shown.error, anthropic.BadRequestError)
    assert shown.expected == "agentlib.errors.PathEscapeError or anthropic.BadRequestError"


@pytest.mark.parametrize(
    "match", ["without `tool_result` blocks", r"messages\.\d+: `tool_use` ids"]
)
def test_match_takes_a_substring_or_a_regex(match, capsys):
    with expect_error(anthropic.BadRequestError, why=WHY, match=match):
        send_unanswered_history()
    assert "Why:" in capsys.readouterr().out


def test_a_message_that_does_not_match_fails_the_cell():
    with pytest.raises(AssertionError, match="its message does not contain 'roles must alternate'"):
        with expect_error(anthropic.BadRequestError, why=WHY, match="roles must alternate"):
            send_unanswered_history()


def test_output_stays_short_whatever_the_message(capsys):
    with expect_error(ValueError, why="a long message is cut, a long why too " * 20):
        raise ValueError("\n".join(f"line {i}: " + "word " * 50 for i in range(200)))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 30
    assert all(len(line) <= 100 for line in lines)
    assert lines[0] == "Error shown on purpose: ValueError"
    assert "more lines left out" in lines[-5]  # the message is cut before the why


def test_keyboard_interrupt_is_never_swallowed():
    with pytest.raises(KeyboardInterrupt):
        with expect_error(Exception, why="anything"):
            raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("types", "why", "says"),
    [("BadRequestError", WHY, "needs an exception class"), (ValueError, " ", "needs why=")],
)
def test_bad_arguments_say_what_is_needed(types, why, says):
    with pytest.raises(TypeError, match=says):
        expect_error(types, why=why)


def test_in_a_notebook_the_cell_has_no_error_output(tmp_path):
    cell = (
        "import anthropic\n"
        "from agentlib.course import expect_error\n"
        "from agentlib.offline import offline_client\n"
        "client, model = offline_client(max_retries=0)\n"
        f"with expect_error(anthropic.BadRequestError, why={WHY!r}):\n"
        f"    client.messages.create(model=model, max_tokens=100, messages={UNANSWERED!r})\n"
    )
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(cell)]
    nbformat.write(nb, tmp_path / "shown.ipynb")
    run = run_notebook(tmp_path / "shown.ipynb", timeout=120)
    assert run.ok, run.report()
    assert run.outputs("error") == []
    assert [o.output_type for o in run.outputs()] == ["stream"]
    assert run.text().startswith("Error shown on purpose: anthropic.BadRequestError (HTTP 400")
    assert len(run.text().splitlines()) <= 30
