"""agentlib.course: parameters injected papermill-style, offline kernels, failures reported with their cell."""

from __future__ import annotations

import nbformat
import pytest

from agentlib import tool
from agentlib.course import (
    check_exercise,
    inject_parameters,
    load_script,
    load_tools,
    run_notebook,
)
from agentlib.course.__main__ import main, parse_parameter
from agentlib.course.runner import INJECTED_TAG, kernel_env
from agentlib.offline import Script


def notebook(*cells: tuple[str, list[str]]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(src, metadata={"tags": tags}) for src, tags in cells]
    return nb


def write(path, nb) -> str:
    nbformat.write(nb, path)
    return str(path)


def test_parameters_go_right_after_the_tagged_cell_and_replace_an_earlier_injection():
    nb = notebook(("import os", []), ("X = 1", ["parameters"]), ("print(X)", []))
    inject_parameters(nb, {"X": 2, "NAME": "a b"})
    inject_parameters(nb, {"X": 3})
    sources = [c.source for c in nb.cells]
    assert sources[:2] == ["import os", "X = 1"]
    assert sources[2] == "# Parameters injected at run time\nX = 3"
    assert nb.cells[2].metadata["tags"] == [INJECTED_TAG]
    assert len(nb.cells) == 4
    nbformat.validate(nb)


def test_parameters_go_first_when_no_cell_is_tagged():
    nb = notebook(("print(X)", []))
    inject_parameters(nb, {"X": None})
    assert nb.cells[0].source.endswith("X = None")


def test_kernel_env_is_offline_without_anthropic_secrets_unless_live(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "placeholder")
    monkeypatch.setenv("AGENTLIB_BACKEND", "anthropic")
    env = kernel_env()
    assert "ANTHROPIC_API_KEY" not in env and env["AGENTLIB_BACKEND"] == "offline"
    assert kernel_env({"AGENTLIB_BACKEND": "auto"})["AGENTLIB_BACKEND"] == "auto"
    live = kernel_env(live=True)
    assert live["ANTHROPIC_API_KEY"] == "placeholder" and live["AGENTLIB_BACKEND"] == "anthropic"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("N=3", ("N", 3)), ("BACKEND=auto", ("BACKEND", "auto")), ("P='x y'", ("P", "x y")),
     ("W=/tmp/a:b", ("W", "/tmp/a:b")), ("L=[1, 2]", ("L", [1, 2]))],
)  # fmt: skip
def test_cli_parameters_are_literals_when_they_can_be(text, expected):
    assert parse_parameter(text) == expected


def test_a_run_reports_the_failing_cell_and_a_tagged_cell_that_did_not_raise(tmp_path):
    nb = notebook(
        ("GREETING = 'hi'", ["parameters"]),
        ("import os\nprint(GREETING, os.environ.get('AGENTLIB_BACKEND'), 'ANTHROPIC_API_KEY' in os.environ)", []),
        ("1 / 0", ["raises-exception"]),
        ("x = 1", ["raises-exception"]),
        ("undefined_name", []),
        ("print('never runs')", []),
    )  # fmt: skip
    run = run_notebook(write(tmp_path / "t.ipynb", nb), {"GREETING": "hello"})
    assert not run.ok
    assert "hello offline False" in run.text()
    assert [(f.index, f.error) for f in run.failures] == [
        (4, "tagged raises-exception but raised nothing"),
        (5, "NameError: name 'undefined_name' is not defined"),
    ]
    report = run.report()
    assert report.startswith("FAIL t.ipynb (") and "undefined_name" in report
    assert [o.ename for o in run.outputs("error")] == ["ZeroDivisionError", "NameError"]


def test_cli_prints_each_notebook_and_exits_nonzero_on_failure(tmp_path, capsys):
    good = write(
        tmp_path / "good.ipynb", notebook(("N = 1", ["parameters"]), ("assert N == 2", []))
    )
    bad = write(tmp_path / "bad.ipynb", notebook(("raise RuntimeError('boom')", [])))
    assert main([good, "-p", "N=2", "--output-dir", str(tmp_path / "out")]) == 0
    assert (
        nbformat.read(tmp_path / "out" / "good.ipynb", as_version=4)
        .cells[1]
        .source.endswith("N = 2")
    )
    assert main([good, bad, "-p", "N=2"]) == 1
    printed = capsys.readouterr().out
    assert "PASS good.ipynb" in printed and "FAIL bad.ipynb" in printed
    assert "RuntimeError: boom" in printed and "1 passed, 1 failed" in printed


MODULE = '''
from agentlib import Toolbox, tool
from agentlib.offline import call, say

@tool
def shout(text: str) -> str:
    """Shout.

    Args:
        text: What to shout.
    """
    return text.upper()

def whisper(text: str) -> str:
    """Whisper.

    Args:
        text: What to whisper.
    """
    return text.lower()

BOX = Toolbox([whisper])
REPLIES = [call("shout", text="hi"), say("done")]
'''


def test_extra_tools_and_scripts_load_from_module_attributes(tmp_path, monkeypatch):
    (tmp_path / "course_extras.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    tools = load_tools("course_extras:shout, course_extras:BOX,course_extras:whisper")
    assert [t.name for t in tools] == ["shout", "whisper", "whisper"]
    assert load_tools("") == [] and load_script("") is None
    script = load_script("course_extras:REPLIES")
    assert isinstance(script, Script) and script.remaining == 2
    assert load_tools(f"{tmp_path / 'course_extras.py'}:shout")[0]("a") == "A"
    with pytest.raises(ValueError, match="module:attribute"):
        load_tools("no_colon_here")


@tool
def word_count(text: str) -> str:
    """Count words.

    Args:
        text: The text.
    """
    return str(len(text.split()))


@pytest.mark.parametrize(
    ("tools", "handlers", "expected"),
    [
        ([word_count.spec], {"word_count": word_count}, []),
        ([word_count.spec], {}, ["'word_count' is in TOOLS but not in TOOL_HANDLERS: the model will call it and get 'Unknown tool'."]),
        ([], {"word_count": word_count}, ["'word_count' is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists."]),
        ([], {}, ["'word_count' is in neither TOOLS nor TOOL_HANDLERS: add its schema to TOOLS (what the model sees) and its function to TOOL_HANDLERS (what the code runs)."]),
        ([{**word_count.spec, "description": " "}], {"word_count": word_count}, ["'word_count' has no description: the model decides when to use a tool by reading it."]),
        ([word_count.spec], {"word_count": lambda words: words}, ["'word_count': schema property 'text' has no parameter in the handler.", "'word_count': the handler needs 'words', which the schema never asks for."]),
        ([word_count.spec], {"word_count": lambda text: int(text)}, ["calling 'word_count' with {'text': 'a b'} fails, so the model would read an error: Error: word_count failed: ValueError: invalid literal for int() with base 10: 'a b'"]),
    ],
)  # fmt: skip
def test_check_exercise_says_what_is_wrong(tools, handlers, expected):
    assert check_exercise(tools, handlers, name="word_count", example={"text": "a b"}) == expected
