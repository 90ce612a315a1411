"""What an instructor gives a notebook, checked at once: tool factories, scripts, WORKSPACE, the runner's parameters."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from agentlib import s01_tools, s02_tools
from agentlib.client import FORCE_OFFLINE
from agentlib.course import Course, InstructorRunFailed, ParameterError, run_notebook
from agentlib.course.__main__ import main

FACTORY_MODULE = '''
from agentlib import Toolbox, tool
from agentlib.offline import Script, call, say
from agentlib.sandbox import Workspace


def make_tools(ws: Workspace):
    @tool(read_only=True)
    def word_count(path: str) -> str:
        """Count the words of a file in the workspace.

        Args:
            path: The file, relative to the workspace.
        """
        return str(len(ws.read_file(path).split()))

    return [word_count]


def make_box(ws):
    return Toolbox(make_tools(ws))


def make_nothing(ws: Workspace):
    return 42


@tool
def crash(text: str) -> str:
    """Crash on purpose.

    Args:
        text: Anything.
    """
    raise RuntimeError("the instructor's tool has a bug")


@tool(name="字数")
def count_chars(text: str) -> str:
    """Count the characters of a text.

    Args:
        text: The text.
    """
    return str(len(text))


@tool
def as_numbers(text: str) -> dict:
    """Return the lengths of a text as a dict, not as text.

    Args:
        text: The text.
    """
    return {"characters": len(text)}


COUNT = Script(call("word_count", path="notes.txt"), say("Counted."))
AS_NUMBERS = Script(call("as_numbers", text="abc"), call("as_numbers", text="de"), say("Counted."))
MISSPELLED = Script(call("word_cont", path="notes.txt"), say("Counted."))
COUNT_WRONG_ARGUMENT = Script(call("word_count", file="notes.txt"), say("Counted."))
CALLS_NOBODY = Script(call("shout", text="hi"), say("Done."))
CRASHES = Script(call("crash", text="x"), say("Crashed."))
READS_OUTSIDE = Script(call("word_count", path="../secret.txt"), say("Counted."))
TOO_LONG = Script(call("word_count", path="notes.txt"), say("Counted."), say("never asked for"))
CALLS_READ_FILE = Script(call("read_file", path="notes.txt"), say("Read."))
'''


@pytest.fixture
def instructor(tmp_path, monkeypatch):
    """A WORKSPACE holding notes.txt, with the factory module importable as ``factory_tools``."""
    (tmp_path / "factory_tools.py").write_text(FACTORY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("one loop and bash is all you need\n")
    (tmp_path / "secret.txt").write_text("not for the model\n")
    yield workspace
    sys.modules.pop("factory_tools", None)


@pytest.mark.parametrize("factory", ["factory_tools:make_tools", "factory_tools:make_box"])
def test_a_factory_gets_the_course_workspace_and_its_tool_reads_through_it(instructor, factory):
    course = Course("offline", instructor, factory, "factory_tools:COUNT")
    state = course.run_script(s02_tools(course.workspace))
    assert state.messages[2]["content"][0]["content"] == "8"
    assert course.tools(s02_tools(course.workspace)).names[-1] == "word_count"


def test_a_factory_tool_stays_confined_to_the_workspace(instructor):
    course = Course(
        "offline", instructor, "factory_tools:make_tools", "factory_tools:READS_OUTSIDE"
    )
    with pytest.raises(InstructorRunFailed, match=r"word_count\(\{'path': '\.\./secret\.txt'\}\) came back as an error: .*escapes"):  # fmt: skip
        course.run_script(s02_tools(course.workspace))


def test_a_factory_that_returns_no_tools_is_a_parameter_error(instructor):
    with pytest.raises(ParameterError, match=r"make_nothing\(ws\) must return tools"):
        Course("offline", instructor, "factory_tools:make_nothing", "")


@pytest.mark.parametrize(
    ("extra_tools", "script", "says"),
    [
        ("", "factory_tools:CALLS_NOBODY", "SCRIPT='factory_tools:CALLS_NOBODY': reply 1, call('shout', {'text': 'hi'}): no such tool here (tools: bash, read_file, write_file, edit_file, glob)"),
        ("factory_tools:make_tools", "factory_tools:MISSPELLED", "call('word_cont', {'path': 'notes.txt'}): no such tool here (tools: bash, read_file, write_file, edit_file, glob, word_count); did you mean 'word_count'?"),
        ("factory_tools:make_tools", "factory_tools:COUNT_WRONG_ARGUMENT", "reply 1, call('word_count', {'file': 'notes.txt'}): the schema refuses it: path: Field required; file: Extra inputs are not permitted"),
    ],
)  # fmt: skip
def test_a_script_that_calls_what_the_toolbox_cannot_run_is_refused_at_start(
    instructor, extra_tools, script, says, capsys
):
    with pytest.raises(ParameterError) as raised:
        Course("offline", instructor, extra_tools, script)
    assert says in str(raised.value)
    assert capsys.readouterr().out == ""


def test_a_problem_with_one_tool_is_said_once_however_many_tools_come_with_it(instructor):
    tools = "factory_tools:make_tools,factory_tools:crash,factory_tools:count_chars"
    with pytest.raises(ParameterError) as raised:
        Course("offline", instructor, tools, "")
    lines = str(raised.value).splitlines()
    assert len(lines) == 1, lines
    assert "the API refuses the tool name '字数'" in lines[0]


def test_a_tool_that_returns_no_string_is_named_once_with_what_the_model_read(instructor, capsys):
    course = Course("offline", instructor, "factory_tools:as_numbers", "factory_tools:AS_NUMBERS")
    capsys.readouterr()
    assert course.run_script(s02_tools(course.workspace)).stop_reason == "end_turn"
    said = [line for line in capsys.readouterr().out.splitlines() if "as_numbers" in line]
    assert said == [
        "agentlib: as_numbers returned dict, not a string; the model read the text "
        """'{"characters": 3}'. Return a string to choose what it reads."""
    ], said


def test_a_script_is_checked_again_against_the_toolbox_of_the_cell_that_runs_it(instructor):
    course = Course("offline", instructor, "", "factory_tools:CALLS_READ_FILE")
    assert course.run_script(s02_tools(course.workspace)).stop_reason == "end_turn"
    with pytest.raises(
        ParameterError, match=r"call\('read_file', .*no such tool here \(tools: bash\)"
    ):
        course.run_script(s01_tools(course.workspace))  # notebooks 01 and 02 offer bash only


def test_a_tool_that_raised_fails_the_run_even_in_a_later_cell(instructor):
    course = Course("offline", instructor, "factory_tools:crash", "factory_tools:CRASHES")
    with pytest.raises(InstructorRunFailed, match="crash raised RuntimeError: the instructor's tool has a bug"):  # fmt: skip
        course.run_script(s02_tools(course.workspace))
    quiet = Course("offline", instructor, "factory_tools:crash", "")
    box = quiet.tools(s02_tools(quiet.workspace))
    assert box.dispatch("crash", {"text": "x"}).is_error  # the model read an error; the run went on
    with pytest.raises(InstructorRunFailed, match="crash raised RuntimeError"):
        quiet.run_script(box)  # the section 'For instructors' says it, even without a SCRIPT


def test_in_chinese_a_failed_run_is_said_in_chinese(instructor):
    from agentlib.course.language import speaking

    with speaking("en"):  # what this process spoke before comes back at the end
        course = Course(
            "offline", instructor, "factory_tools:crash", "factory_tools:CRASHES", lang="zh"
        )
        with pytest.raises(InstructorRunFailed) as failed:
            course.run_script(s02_tools(course.workspace))
    assert str(failed.value).splitlines() == [
        "讲师的运行失败了：",
        "- crash 抛出了 RuntimeError: the instructor's tool has a bug",
    ], str(failed.value)


def test_a_script_the_run_did_not_follow_to_its_end_fails(instructor):
    course = Course("offline", instructor, "factory_tools:make_tools", "factory_tools:TOO_LONG")
    with pytest.raises(InstructorRunFailed, match="with 1 scripted replies unused"):
        course.run_script(s02_tools(course.workspace))


@pytest.mark.parametrize("where", ["missing", "relative"])
def test_a_workspace_that_does_not_exist_or_is_relative_is_refused_and_never_made(
    where, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    value = str(tmp_path / "no" / "such") if where == "missing" else "ws"
    with pytest.raises(ParameterError, match="WORKSPACE=") as raised:
        Course("offline", value, "", "")
    assert ("relative path" in str(raised.value)) == (where == "relative")
    assert list(tmp_path.iterdir()) == []


def test_a_workspace_where_the_next_start_reads_its_env_is_refused(tmp_path, monkeypatch):
    # the kernel runs in the notebooks' folder: a model writing .env there redirects the next key
    notebooks = tmp_path / "course" / "notebooks"
    notebooks.mkdir(parents=True)
    monkeypatch.chdir(notebooks)
    for named in (notebooks, tmp_path / "course"):
        with pytest.raises(ParameterError, match=r"cannot be used: connect\(\) reads \.env"):
            Course("offline", str(named), "", "")
    (tmp_path / "elsewhere").mkdir()
    Course("offline", str(tmp_path / "elsewhere"), "", "")  # not where the next start reads
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course", "elsewhere"]


def test_a_module_missing_from_a_relative_pythonpath_names_the_kernel_folder_and_sys_path(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", ".")
    with pytest.raises(ParameterError) as raised:
        Course("offline", None, "nowhere_tools:shout", "")
    said = str(raised.value)
    assert f"the kernel runs in {tmp_path}" in said and "sys.path = [" in said
    assert "PYTHONPATH has relative entries ['.']" in said and "absolute path" in said


def test_forced_offline_with_backend_offline_prints_what_a_learner_sees(monkeypatch, capsys):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    Course("offline", None, "", "")
    printed = capsys.readouterr().out
    assert "using the offline model" in printed and FORCE_OFFLINE not in printed
    assert os.environ[FORCE_OFFLINE] == "1"  # still forced for every later connect()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-a-key")  # auto would pick the real API
    monkeypatch.setenv("MODEL_ID", "some-model")
    Course("auto", None, "", "")
    assert f"{FORCE_OFFLINE} is set" in capsys.readouterr().out  # there it changed the choice


HOSTILE = """
import os, sys
from agentlib.course import Course

course = Course("offline", None, "", "", name="litter")
outside = course.temporary_folder("outside")
(outside / "secret.txt").write_text("x")
deep = str(course.workspace.root)
fd = os.open(deep, os.O_RDONLY)
for _ in range(3000):  # deeper than any path the kernel could name
    os.mkdir("d", dir_fd=fd)
    inner = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = inner
os.close(fd)
locked = course.workspace.root / "locked"
locked.mkdir()
(locked / "file").write_text("x")
os.chmod(locked / "file", 0)
os.chmod(locked, 0)
print(len(os.listdir(os.environ["TMPDIR"])))
"""


def test_the_course_removes_what_it_made_when_the_process_ends_whatever_was_left_there(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), FORCE_OFFLINE: "1"}
    done = subprocess.run(
        [sys.executable, "-c", HOSTILE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "2"  # the workspace and the outside folder existed
    assert list(temp.iterdir()) == [], done.stderr


def test_a_named_workspace_is_never_removed(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    code = f"from agentlib.course import Course\nCourse('offline', {str(tmp_path)!r}, '', '')"
    env = {**os.environ, FORCE_OFFLINE: "1"}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def parameters_notebook(tmp_path, body: str = "print(BACKEND)"):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}  # fmt: skip
    nb.cells = [
        nbformat.v4.new_code_cell(
            'BACKEND: str = "offline"\nWORKSPACE = None', metadata={"tags": ["parameters"]}
        ),
        nbformat.v4.new_code_cell(body),
    ]
    path = tmp_path / "p.ipynb"
    nbformat.write(nb, path)
    return str(path)


@pytest.mark.parametrize(
    ("parameter", "says"),
    [
        ("EXTRA_TOOL=mytools:shout", "p.ipynb: unknown parameter 'EXTRA_TOOL': this notebook's parameters are BACKEND, WORKSPACE"),
        ("WORKSPACE=relative/ws", "p.ipynb: WORKSPACE='relative/ws' is a relative path"),
        ("WORKSPACE=/nonexistent/dir", "p.ipynb: WORKSPACE='/nonexistent/dir' is not an existing folder"),
    ],
)  # fmt: skip
def test_the_runner_refuses_bad_parameters_before_any_kernel_starts(
    parameter, says, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    path = parameters_notebook(tmp_path)
    assert main([path, "-p", parameter]) == 2
    assert says in capsys.readouterr().err
    assert not os.path.exists("/nonexistent") and not (tmp_path / "relative").exists()
    with pytest.raises(ParameterError, match=r"p\.ipynb: "):
        run_notebook(path, dict([parameter.split("=", 1)]))


def test_a_cell_timeout_names_the_cell_and_the_limit(tmp_path):
    path = parameters_notebook(tmp_path, textwrap.dedent("import time\ntime.sleep(30)"))
    run = run_notebook(path, timeout=2)
    assert [(f.index, f.error) for f in run.failures] == [(1, "cell 1 timed out after 2 s")]
    assert "KeyboardInterrupt" not in run.report()


def test_saved_notebooks_show_the_folders_a_run_made_by_purpose_and_leave_none(
    tmp_path, monkeypatch
):
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    body = textwrap.dedent("""
        from agentlib.course import Course
        course = Course(BACKEND, WORKSPACE, "", "", name="own-tool")
        print(course.workspace.root / "hello.py", course.temporary_folder("outside"))
    """)
    path = parameters_notebook(tmp_path, body)
    assert main([path, "--output-dir", str(tmp_path / "out")]) == 0
    saved = nbformat.read(tmp_path / "out" / "p.ipynb", as_version=4)
    assert saved.cells[1].outputs[-1].text.endswith("\n<workspace>/hello.py <outside>\n")
    assert list(temp.iterdir()) == []


def test_the_readme_factory_and_script_run_in_every_notebook_toolbox(tmp_path, monkeypatch):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    module = readme.split("# mytools.py, in the folder you run from\n", 1)[1].split("```", 1)[0]
    (tmp_path / "readme_tools.py").write_text(module)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    try:
        course = Course("offline", None, "readme_tools:make_tools", "readme_tools:SCRIPT")
        for toolbox in (s01_tools, s02_tools):  # 01 and 02 offer bash only, the rest all five
            state = course.run_script(toolbox(course.workspace))
            assert state.messages[4]["content"][0]["content"] == "6"
    finally:
        sys.modules.pop("readme_tools", None)
