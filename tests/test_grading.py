"""Grading: strict checks fail their cell, the student's copy holds no solution, and the README's nbgrader recipe scores a blank and a wrong answer 0 and a solution full marks."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_notebooks import EXERCISES

from agentlib.course import run_notebook
from agentlib.course.checks import MODE_VARIABLE, check_exit_code, check_own_tool
from agentlib.course.solutions import EXERCISE_TAG, SOLUTION_TAG, fill_in_solutions
from agentlib.course.student import check_cells, main, student_copy

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def not_written(command: str) -> str:
    raise NotImplementedError("the learner has not written this yet")


def right(command: str) -> str:
    r = subprocess.run(command, shell=True, capture_output=True, text=True)
    out = (r.stdout + r.stderr).strip()
    return (f"{out}\n(exit code {r.returncode})" if r.returncode else out).strip() or "(no output)"


# --- strict and friendly ---------------------------------------------------------------------


def test_strict_checks_raise_with_their_words(monkeypatch):
    monkeypatch.setenv(MODE_VARIABLE, "strict")
    with pytest.raises(
        AssertionError,
        match=r"^… Still blank: run_bash\('echo hi'\) still raises NotImplementedError",
    ):
        check_exit_code(not_written)
    with pytest.raises(
        AssertionError,
        match=r"(?s)^✘ Not yet: .*`exit 5` \(no output\) should give the exit code 5",
    ):
        check_exit_code(lambda command: "(no output)" if "exit" in command else "hi no-such-file 2")
    assert check_exit_code(right).ok  # a passing check returns its verdict, strict or not


@pytest.mark.parametrize("mode", ["", "friendly"])
def test_friendly_checks_return_their_verdict(monkeypatch, mode):
    monkeypatch.setenv(MODE_VARIABLE, mode)
    verdict = check_exit_code(not_written)
    assert not verdict.ok and verdict.blank


def test_a_mistyped_mode_is_refused_before_the_check_runs(monkeypatch):
    monkeypatch.setenv(MODE_VARIABLE, "Strict!")
    ran = []
    with pytest.raises(
        ValueError, match=r"AGENTLIB_CHECKS='Strict!' is not a mode .* use AGENTLIB_CHECKS=strict"
    ):
        check_exit_code(lambda command: ran.append(command) or "")
    assert ran == []


def test_the_runner_fails_a_strict_check(
    tmp_path,
):  # as handed out, test_notebooks runs them friendly
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("from agentlib.course.checks import check_exit_code"),
        nbformat.v4.new_code_cell("def run_bash(command):\n    raise NotImplementedError"),
        nbformat.v4.new_code_cell("check_exit_code(run_bash)"),
    ]
    path = tmp_path / "blank.ipynb"
    nbformat.write(nb, path)
    strict = run_notebook(path, env={MODE_VARIABLE: "strict"}, timeout=60)
    assert not strict.ok and strict.failures[0].index == 2
    assert strict.failures[0].error.startswith("AssertionError: … Still blank: run_bash('echo hi')")


# --- a blank whose cell raised ---------------------------------------------------------------


@pytest.fixture
def shell(monkeypatch):
    """A real IPython shell in this process, as a notebook's kernel runs one."""
    from IPython.core.interactiveshell import InteractiveShell

    monkeypatch.delenv(MODE_VARIABLE, raising=False)
    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()


def test_a_blank_left_by_a_cell_that_raised_is_not_called_blank(shell):
    assert shell.run_cell(
        "from agentlib.course.checks import check_own_tool\ntoolbox = ..."
    ).success
    assert not shell.run_cell(
        "import agentlib\ntoolbox = agentlib.s02_tools(ws).add(my_tool)"
    ).success
    verdict = shell.run_cell(
        "check_own_tool(toolbox, None, name='word_count', example={'text': 'a'})"
    ).result
    text = " ".join(str(verdict).split())
    assert text.startswith(
        "✘ Not yet: a cell you ran before this check raised NameError: name 'ws' is not defined"
    ), text
    assert "that cell starts 'import agentlib'" in text and "Still blank" not in text
    # the next check looks only at the cells run after this one
    again = shell.run_cell(
        "check_own_tool(toolbox, None, name='word_count', example={'text': 'a'})"
    ).result
    assert again.blank and str(again).startswith("… Still blank: the toolbox is still `...`")


def test_a_check_outside_ipython_calls_a_blank_blank():
    assert check_own_tool(..., None, name="word_count", example={"text": "a"}).blank


# --- the student's copy --------------------------------------------------------------------


@pytest.mark.parametrize("name", list(EXERCISES))
def test_student_copy_has_no_solution_and_every_exercise(name):
    source = NOTEBOOKS / f"{name}.ipynb"
    original = nbformat.read(source, as_version=4)
    copy = student_copy(source, nbgrader=True)
    tags = [t for c in copy.cells for t in c.metadata.get("tags", [])]
    assert SOLUTION_TAG not in tags and "(open after trying)" not in str(copy.cells)
    kept = [c.source for c in copy.cells if EXERCISE_TAG in c.metadata.get("tags", [])]
    assert kept == [c.source for c in original.cells if EXERCISE_TAG in c.metadata.get("tags", [])]
    assert len(copy.cells) == len(original.cells) - EXERCISES[name]
    graded = [c.metadata["nbgrader"] for c in check_cells(copy)]
    assert [g["grade_id"] for g in graded] == [
        f"{name}-check-{n}" for n in range(1, EXERCISES[name] + 1)
    ]
    assert all(g["grade"] and g["locked"] and g["points"] == 1 for g in graded)


def test_student_copy_command_writes_a_folder_and_loses_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    assert main([str(NOTEBOOKS), str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(
        p.name for p in NOTEBOOKS.glob("*.ipynb")
    )
    assert "nbgrader" not in (out / "04_sandbox.ipynb").read_text()
    (out / "04_sandbox.ipynb").write_text("a student's work")
    with pytest.raises(
        SystemExit, match=r"04_sandbox\.ipynb already exists: remove them or pass --force"
    ):
        main([str(NOTEBOOKS / "04_sandbox.ipynb"), str(out)])
    assert (out / "04_sandbox.ipynb").read_text() == "a student's work"
    with pytest.raises(SystemExit, match="holds the notebooks themselves"):
        main([str(NOTEBOOKS), str(NOTEBOOKS)])
    with pytest.raises(SystemExit, match=r"neither a folder nor an \.ipynb file"):
        main([str(ROOT / "README.md"), str(out)])


def test_student_copy_is_a_subcommand_of_the_course_runner(tmp_path):
    out = subprocess.run([sys.executable, "-m", "agentlib.course", "student-copy", str(NOTEBOOKS / "02_agent_loop.ipynb"), str(tmp_path)],
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.startswith(f"{tmp_path / '02_agent_loop.ipynb'}: ")


# --- the README's nbgrader recipe ----------------------------------------------------------


def grading_recipe() -> tuple[str, str]:
    """The README's nbgrader commands: those before handing out, and those after collecting."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### Grading") :].split("\n## ", 1)[0]
    recipe = next(b for b in re.findall(r"```bash\n(.*?)```", section, re.S) if "nbgrader" in b)
    before, after = recipe.split("submitted/<student>/lesson02/, then:\n")
    return before, after


# exercise 4 half done: it stops at end_turn only, so it runs the tool call cut off at max_tokens
HALF_DONE = """def agent_loop_v2(messages: list):
    while True:
        response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=8000)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "end_turn":
            return
        results = [{"type": "tool_result", "tool_use_id": b.id, "content": run_bash(b.input["command"])}
                   for b in response.content if b.type == "tool_use"]
        if not results:
            return
        messages.append({"role": "user", "content": results})
"""


def test_the_readme_nbgrader_recipe_grades_a_blank_and_a_wrong_answer_0_and_a_solution_1(tmp_path):
    pytest.importorskip("nbgrader")
    (tmp_path / "notebooks").symlink_to(NOTEBOOKS)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop(MODE_VARIABLE, None)
    before, after = grading_recipe()
    subprocess.run(["bash", "-ec", before], cwd=tmp_path, env=env, check=True, capture_output=True)
    grading = tmp_path / "grading"
    released = grading / "release" / "lesson02" / "02_agent_loop.ipynb"
    answers = [c.source for c in fill_in_solutions(nbformat.read(NOTEBOOKS / "02_agent_loop.ipynb", as_version=4)).cells
               if EXERCISE_TAG in c.metadata.get("tags", [])]  # fmt: skip
    for student, given in (("blank", None), ("wrong", [HALF_DONE]), ("solved", answers)):
        nb = nbformat.read(released, as_version=4)
        exercises = [c for c in nb.cells if EXERCISE_TAG in c.metadata.get("tags", [])]
        for cell, answer in zip(exercises, given or [c.source for c in exercises], strict=True):
            cell.source = answer
        (grading / "submitted" / student / "lesson02").mkdir(parents=True)
        nbformat.write(nb, grading / "submitted" / student / "lesson02" / released.name)
    done = subprocess.run(
        ["bash", "-ec", "cd grading\n" + after],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {
        r["student_id"]: (float(r["score"]), float(r["max_score"]))
        for r in csv.DictReader((grading / "grades.csv").open())
    }
    assert rows == {"blank": (0.0, 1.0), "wrong": (0.0, 1.0), "solved": (1.0, 1.0)}
    # a passing check's words are not a cell result nbgrader would try to read as a score
    assert "cannot be converted to" not in done.stderr


def test_a_strict_check_that_raised_is_not_taken_for_the_learners_cell(shell, monkeypatch):
    monkeypatch.setenv(MODE_VARIABLE, "strict")
    assert shell.run_cell(
        "from agentlib.course.checks import check_own_tool\ntoolbox = ..."
    ).success
    first = shell.run_cell(
        "check_own_tool(toolbox, None, name='word_count', example={'text': 'a'})"
    )
    assert isinstance(first.error_in_exec, AssertionError)
    again = shell.run_cell(
        "check_own_tool(toolbox, None, name='word_count', example={'text': 'a'})"
    )
    assert str(again.error_in_exec).startswith("… Still blank: the toolbox is still `...`")
