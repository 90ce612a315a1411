"""What an instructor running the course with the project's runner and nbgrader is told."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import nbformat
import pytest

from agentlib.course import run_notebook
from agentlib.course.__main__ import main
from agentlib.course.checks import MODE_VARIABLE

PARAMETERS = 'BACKEND = "offline"\nWORKSPACE = None\nEXTRA_TOOLS = ""\nSCRIPT = ""'


def notebook(folder: Path, *sources: str, parameters: bool = True) -> Path:
    """A notebook in ``folder``: a parameters cell (as the course's), then ``sources``."""
    nb = nbformat.v4.new_notebook()
    if parameters:
        nb.cells.append(nbformat.v4.new_code_cell(PARAMETERS, metadata={"tags": ["parameters"]}))
    nb.cells += [nbformat.v4.new_code_cell(textwrap.dedent(s)) for s in sources]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "lesson.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_parameter_given_two_different_values_is_refused_before_any_kernel(tmp_path, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    path = notebook(tmp_path / "nb", "print('ran')")
    code = main([str(path), "-p", f"WORKSPACE={first}", "-p", f"WORKSPACE={second}"])
    out, err = capsys.readouterr()
    assert code == 2 and "passed" not in out
    assert f"WORKSPACE is given 2 different values (-p WORKSPACE='{first}', " in err
    assert err.strip().endswith("give it once")


def test_the_same_value_given_twice_is_one_value(tmp_path, capsys):
    path = notebook(tmp_path / "nb", "print(BACKEND)")
    assert main([str(path), "-p", "BACKEND=offline", "-p", "BACKEND=offline"]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_a_relative_workspace_is_said_to_be_read_from_the_notebooks_folder(
    tmp_path, capsys, monkeypatch
):
    path = notebook(tmp_path / "notebooks", "print('ran')")
    monkeypatch.chdir(tmp_path)  # the runner runs here; its kernels run in notebooks/
    assert main([str(path.relative_to(tmp_path)), "-p", "WORKSPACE=ws"]) == 2
    err = capsys.readouterr().err
    assert f"read from the kernel's folder ({path.parent}):" in err


def test_a_misspelled_parameter_is_answered_with_the_name_meant(tmp_path, capsys):
    path = notebook(tmp_path, "print('ran')")
    assert main([str(path), "-p", "extra_tools=mytools:make_tools"]) == 2
    err = capsys.readouterr().err
    assert "unknown parameter 'extra_tools' (did you mean 'EXTRA_TOOLS'?)" in err


@pytest.mark.parametrize("mode", ["strict", "friendly"])
def test_a_passing_check_is_graded_by_nbgrader_without_a_warning(tmp_path, caplog, mode):
    from nbgrader.utils import determine_grade

    path = notebook(
        tmp_path,
        "from agentlib.course.checks import check_exit_code",
        """
        import subprocess

        def run_bash(command):
            r = subprocess.run(command, shell=True, capture_output=True, text=True)
            out = (r.stdout + r.stderr).strip()
            return (f"{out}\\n(exit code {r.returncode})" if r.returncode else out) or "(no output)"
        """,
        "check_exit_code(run_bash)",
        parameters=False,
    )
    run = run_notebook(path, env={MODE_VARIABLE: mode}, timeout=120)
    assert run.ok, run.report()
    cell = run.notebook.cells[-1]
    assert "✔ It works" in "".join(o.data["text/plain"] for o in cell.outputs)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "c1", "points": 1, "solution": False}
    log = logging.getLogger("nbgrader-autograde")
    with caplog.at_level(logging.WARNING, logger=log.name):
        assert determine_grade(cell, log) == (1.0, 1.0)
    assert (
        caplog.records == []
    )  # was: "Cell output is ✔ It works ... cannot be converted to a float"


def test_a_mistyped_checks_mode_is_refused_before_any_kernel(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(MODE_VARIABLE, "Strict")
    path = notebook(tmp_path, "print('ran')")
    assert main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert "passed" not in out
    assert "AGENTLIB_CHECKS='Strict' is not a mode the exercise checks know" in err


def test_a_relative_tool_file_not_found_says_where_it_was_looked_for(tmp_path, monkeypatch):
    from agentlib.course.parameters import ParameterError, load_object, load_tool_sources, loaded

    (tmp_path / "mytools.py").write_text("LINES = 3\n")
    kernel = tmp_path / "notebooks"
    kernel.mkdir()
    monkeypatch.chdir(kernel)  # a kernel runs in the notebook's folder, not the caller's
    with pytest.raises(ParameterError) as refused:
        loaded("EXTRA_TOOLS", "mytools.py:make_tools", load_tool_sources)
    assert str(refused.value) == (
        f"EXTRA_TOOLS='mytools.py:make_tools': FileNotFoundError: no file mytools.py, read from "
        f"the kernel's folder {kernel}: give the file's absolute path, or put its folder on "
        "PYTHONPATH and name it 'module:attribute'"
    )
    assert load_object(f"{tmp_path / 'mytools.py'}:LINES") == 3


def test_a_script_that_ends_on_a_tool_call_is_refused_before_it_runs(tmp_path, monkeypatch):
    from agentlib.client import FORCE_OFFLINE
    from agentlib.course import Course, ParameterError

    (tmp_path / "unfinished.py").write_text(
        "from agentlib.offline import Script, call\n"
        "SCRIPT = Script(call('bash', command='ls'))\n"
        "LENIENT = Script(call('bash', command='ls'), strict=False)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    with pytest.raises(ParameterError) as refused:
        Course("offline", None, "", "unfinished:SCRIPT")
    assert str(refused.value) == (
        "SCRIPT='unfinished:SCRIPT': reply 1 calls a tool and is the last: end the script with "
        "say('...') so the run can finish"
    )
    Course("offline", None, "", "unfinished:LENIENT")  # its fallback answers after the call


def test_a_named_workspace_left_full_by_an_earlier_run_is_said_in_the_first_cell(
    tmp_path, monkeypatch, capsys
):
    from agentlib.client import FORCE_OFFLINE
    from agentlib.course import Course

    monkeypatch.setenv(FORCE_OFFLINE, "1")
    Course("offline", str(tmp_path))
    assert "WORKSPACE" not in capsys.readouterr().out  # empty: nothing to say
    for name in ("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"):
        (tmp_path / name).write_text("left by a run\n")
    (tmp_path / "box").symlink_to(tmp_path / "removed-since")  # as notebook 04 leaves it
    Course("offline", str(tmp_path))
    assert (
        f"\nagentlib: WORKSPACE {tmp_path.resolve()} already holds 7 entries (a.txt, b.txt, box, "
        "c.txt, d.txt, ...): the lessons expect an empty folder"
    ) in capsys.readouterr().out
    Course("offline", None)
    assert "WORKSPACE" not in capsys.readouterr().out  # a fresh folder is always empty
