"""agentlib.course: parameters injected papermill-style, offline kernels, failures reported with their cell."""

from __future__ import annotations

import sys
import tempfile

import nbformat
import pytest

from agentlib import connect, s02_tools, tool
from agentlib.client import FORCE_OFFLINE
from agentlib.course import (
    Course,
    ParameterError,
    check_exercise,
    inject_parameters,
    load_script,
    load_tools,
    run_notebook,
)
from agentlib.course.__main__ import main, parse_parameter
from agentlib.course.instructor import WHERE_OFFERED
from agentlib.course.runner import INJECTED_TAG, kernel_env
from agentlib.offline import OFFLINE_MODEL, Script


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
    monkeypatch.setenv("MODEL_ID", "some-model")
    monkeypatch.setenv(FORCE_OFFLINE, "1")  # as if started from a forced-offline kernel
    env = kernel_env()
    assert not {"ANTHROPIC_API_KEY", "AGENTLIB_BACKEND", "MODEL_ID"} & set(env)
    assert env[FORCE_OFFLINE] == "1"
    lifted = kernel_env({"AGENTLIB_BACKEND": "auto", FORCE_OFFLINE: ""})
    assert lifted["AGENTLIB_BACKEND"] == "auto" and lifted[FORCE_OFFLINE] == "1"
    live = kernel_env(live=True)
    assert live["ANTHROPIC_API_KEY"] == "placeholder" and live["AGENTLIB_BACKEND"] == "anthropic"
    assert FORCE_OFFLINE not in live


def test_forced_offline_wins_over_dotenv_and_the_backend_argument(tmp_path, monkeypatch, capsys):
    (tmp_path / ".env").write_text(
        "AGENTLIB_BACKEND=anthropic\nANTHROPIC_API_KEY=placeholder\nMODEL_ID=some-model\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(FORCE_OFFLINE, raising=False)
    assert connect("auto", quiet=True)[1] == "some-model"  # the .env alone would go live
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    for backend in ("auto", "anthropic"):
        _, model = connect(backend)
        assert model == OFFLINE_MODEL
    assert f"{FORCE_OFFLINE} is set" in capsys.readouterr().out


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
        ("import os\nprint(GREETING, os.environ.get('AGENTLIB_FORCE_OFFLINE'), 'ANTHROPIC_API_KEY' in os.environ)", []),
        ("1 / 0", ["raises-exception"]),
        ("x = 1", ["raises-exception"]),
        ("undefined_name", []),
        ("print('never runs')", []),
    )  # fmt: skip
    run = run_notebook(write(tmp_path / "t.ipynb", nb), {"GREETING": "hello"})
    assert not run.ok
    assert "hello 1 False" in run.text()
    assert [(f.index, f.error) for f in run.failures] == [
        (4, "tagged raises-exception but raised nothing"),
        (5, "NameError: name 'undefined_name' is not defined"),
    ]
    report = run.report()
    assert report.startswith("FAIL t.ipynb (") and "undefined_name" in report
    assert [o.ename for o in run.outputs("error")] == ["ZeroDivisionError", "NameError"]


FLAKY_KERNEL = """
import os, sys
marker = sys.argv.pop(1)
if not os.path.exists(marker):  # the first start dies before it replies, as when a port was taken
    open(marker, "w").close()
    sys.exit(1)
from ipykernel.kernelapp import launch_new_instance
launch_new_instance()
"""


def test_a_kernel_that_died_before_its_first_reply_is_started_again(tmp_path, monkeypatch):
    import json

    spec = tmp_path / "kernels" / "flaky"
    spec.mkdir(parents=True)
    (tmp_path / "flaky.py").write_text(FLAKY_KERNEL)
    argv = [sys.executable, str(tmp_path / "flaky.py"), str(tmp_path / "died-once")]
    spec.joinpath("kernel.json").write_text(
        json.dumps(
            {
                "argv": [*argv, "-f", "{connection_file}"],
                "language": "python",
                "display_name": "flaky",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    nb = notebook(("print(6 * 7)", []))
    run = run_notebook(write(tmp_path / "t.ipynb", nb), kernel_name="flaky", timeout=60)
    assert (tmp_path / "died-once").exists()  # the first kernel did die
    assert run.ok, run.report()
    assert "42" in str(run.notebook.cells[0].outputs)


def test_cli_prints_each_notebook_and_exits_nonzero_on_failure(tmp_path, capsys):
    good = write(
        tmp_path / "good.ipynb", notebook(("N = 1", ["parameters"]), ("assert N == 2", []))
    )
    bad = write(
        tmp_path / "bad.ipynb",
        notebook(("N = 1", ["parameters"]), ("raise RuntimeError('boom')", [])),
    )
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
        ([{**word_count.spec, "description": " "}], {"word_count": word_count}, ["'word_count' has no description: the API accepts it, but the model decides when to use a tool by reading its description."]),  # the course refuses what the API accepts
        ([word_count.spec], {"word_count": lambda words: words}, ["'word_count': schema property 'text' has no parameter in the handler.", "'word_count': the handler needs 'words', which the schema never asks for."]),
        ([word_count.spec], {"word_count": lambda text: int(text)}, ["calling 'word_count' with {'text': 'a b'} fails, so the model would read an error: Error: word_count failed: ValueError: invalid literal for int() with base 10: 'a b'"]),
    ],
)  # fmt: skip
def test_check_exercise_says_what_is_wrong(tools, handlers, expected):
    assert check_exercise(tools, handlers, name="word_count", example={"text": "a b"}) == expected


RECORDING_MODULE = '''
"""An instructor's tool module that records being imported and called."""
from pathlib import Path

from agentlib import tool
from agentlib.offline import call, say

LOG = Path(__file__).with_suffix(".log")
with LOG.open("a") as log:
    log.write("imported\\n")

@tool(read_only=True)
def shout(text: str) -> str:
    """Return the text in capital letters.

    Args:
        text: The text to shout.
    """
    with LOG.open("a") as log:
        log.write(f"called shout({text!r})\\n")
    return text.upper()

SCRIPT = [call("shout", text="hello"), say("It shouted back.")]
'''


@pytest.fixture
def instructor_module(tmp_path, monkeypatch):
    """The path of the module's log; the module itself is importable as ``recording_tools``."""
    (tmp_path / "recording_tools.py").write_text(RECORDING_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")  # no .env on this machine may take these tests live
    yield tmp_path / "recording_tools.log"
    import sys

    sys.modules.pop("recording_tools", None)


def test_course_without_script_adds_the_tools_and_says_nothing_will_call_them(
    instructor_module, tmp_path, capsys
):
    (tmp_path / "ws").mkdir()
    course = Course("offline", tmp_path / "ws", "recording_tools:shout", "", name="t")
    assert instructor_module.read_text() == "imported\n"
    printed = capsys.readouterr().out
    assert f"instructor tools shout (EXTRA_TOOLS) are offered {WHERE_OFFERED}." in printed
    assert "offline without SCRIPT nothing will call shout: set SCRIPT" in printed
    assert course.workspace.root == (tmp_path / "ws").resolve()
    box = course.tools(s02_tools(course.workspace))
    assert box.names[-1] == "shout" and "shout" in [s["name"] for s in box.TOOLS]
    assert course.tools(box) is box and box.names.count("shout") == 1
    assert course.run_script(box) is None
    assert "called" not in instructor_module.read_text()


def test_course_runs_the_script_with_the_tools_each_time_it_is_asked(
    instructor_module, tmp_path, capsys
):
    course = Course("offline", None, "recording_tools:shout", "recording_tools:SCRIPT")
    assert "SCRIPT='recording_tools:SCRIPT' runs" in capsys.readouterr().out
    for _ in range(2):  # re-running the cell replays the script from its start
        state = course.run_script(course.tools(s02_tools(course.workspace)))
        assert state.stop_reason == "end_turn"
        assert state.messages[2]["content"][0]["content"] == "HELLO"
    assert instructor_module.read_text() == "imported\n" + "called shout('hello')\n" * 2


def test_course_without_extra_tools_prints_only_the_backend(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    course = Course("offline", tmp_path, "", "", name="t")
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and printed[0].startswith("agentlib: using the offline model")
    assert course.extras == [] and course.run_script(s02_tools(course.workspace)) is None


BROKEN_MODULE = '''
from agentlib import tool

@tool
def bash(command: str) -> str:
    """Shadow the course's bash.

    Args:
        command: A command.
    """
    return command

def untyped(x):
    """No type hints."""
    return x

def silent(text: str) -> str:
    return text

NOT_A_SCRIPT = 42
'''


@pytest.mark.parametrize(
    ("extra_tools", "script", "says"),
    [
        ("no_such_module:shout", "", "EXTRA_TOOLS='no_such_module:shout': ModuleNotFoundError: No module named 'no_such_module'"),
        ("broken_tools:missing", "", "EXTRA_TOOLS='broken_tools:missing': ValueError: module 'broken_tools' has no attribute 'missing'"),
        ("broken_tools", "", "EXTRA_TOOLS='broken_tools': ValueError: expected 'module:attribute', got 'broken_tools'"),
        ("broken_tools:bash", "", "EXTRA_TOOLS='broken_tools:bash': 'bash' is already a course tool: give yours another name"),
        ("broken_tools:untyped", "", "EXTRA_TOOLS='broken_tools:untyped': TypeError:"),
        ("broken_tools:silent", "", "EXTRA_TOOLS='broken_tools:silent': TypeError: silent needs a docstring"),
        ("", "broken_tools:NOT_A_SCRIPT", "SCRIPT='broken_tools:NOT_A_SCRIPT': TypeError: SCRIPT must name a Script or a list of replies, got int"),
    ],
)  # fmt: skip
def test_course_names_the_parameter_the_module_and_the_problem(
    extra_tools, script, says, tmp_path, monkeypatch, capsys
):
    (tmp_path / "broken_tools.py").write_text(BROKEN_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    (tmp_path / "ws").mkdir()  # the tools' folder is on the import path: never the workspace
    with pytest.raises(ParameterError) as raised:
        Course("offline", tmp_path / "ws", extra_tools, script)
    assert says in str(raised.value)
    assert capsys.readouterr().out == ""  # nothing connected or announced before the error


def test_empty_parameters_are_read_from_the_environment(instructor_module, monkeypatch, capsys):
    monkeypatch.setenv("AGENTLIB_EXTRA_TOOLS", "recording_tools:shout")
    monkeypatch.setenv("AGENTLIB_SCRIPT", "recording_tools:SCRIPT")
    course = Course("offline", None, "", "")
    printed = capsys.readouterr().out
    assert "shout (EXTRA_TOOLS (from AGENTLIB_EXTRA_TOOLS)) are offered" in printed
    assert "SCRIPT (from AGENTLIB_SCRIPT)='recording_tools:SCRIPT' runs" in printed
    assert course.run_script(course.tools(s02_tools(course.workspace))).stop_reason == "end_turn"
    monkeypatch.setenv("AGENTLIB_EXTRA_TOOLS", "no_such_module:x")
    with pytest.raises(ParameterError, match=r"^EXTRA_TOOLS \(from AGENTLIB_EXTRA_TOOLS\)="):
        Course("offline", None, "", "")
    assert Course("offline", None, "recording_tools:shout", "").extra_tools_label == "EXTRA_TOOLS"


def test_a_course_that_fails_to_set_up_leaves_no_temporary_folder(tmp_path, monkeypatch):
    (tmp_path / "broken_tools.py").write_text(BROKEN_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with pytest.raises(ParameterError):
        Course("offline", None, "broken_tools:bash", "", name="failing")
    assert list(temp.iterdir()) == []
    Course("offline", None, "", "", name="working")
    assert [p.name.startswith("working-") for p in temp.iterdir()] == [True]


REFUSING_MODULE = '''
from anthropic.lib.tools import ToolError
from agentlib.offline import call, say


def lookup(key: str) -> str:
    """Look a key up.

    Args:
        key: The key.
    """
    if key == "missing":
        raise ToolError(f"no key {key!r}; try 'present'")  # the SDK's: a message to the model
    raise KeyError(key)  # a bug: the run must fail


SCRIPT = [call("lookup", key="missing"), call("lookup", key="broken"), say("Done.")]
'''


def test_the_sdks_tool_error_is_the_tools_message_and_only_a_real_raise_fails_the_run(
    tmp_path, monkeypatch
):
    from agentlib.course.instructor import InstructorRunFailed

    (tmp_path / "refusing_tools.py").write_text(REFUSING_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    try:
        course = Course("offline", None, "refusing_tools:lookup", "refusing_tools:SCRIPT")
        box = course.tools(s02_tools(course.workspace))
        assert box.dispatch("lookup", {"key": "missing"}).content == (
            "Error: no key 'missing'; try 'present'"
        )
        assert course.tool_failures == []  # the SDK's ToolError is the tool's message, no crash
        with pytest.raises(InstructorRunFailed) as failed:
            course.run_script(box)
    finally:
        sys.modules.pop("refusing_tools", None)
    assert failed.value.failures == ["lookup raised KeyError: 'broken'"]
