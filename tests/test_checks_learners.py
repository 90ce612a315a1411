"""Learners' answers to the nine exercises, wrong and right, each run through its check as the notebook's check cell runs it.

Each answer is the source of the exercise cell, run in a real IPython shell set up by the
notebook's own cells (its parameters, pointed at ``tmp_path``, the cells that define what the
exercise uses, the imports above it, the blank); then the cells after the exercise run, up to
and including the check cell.
A wrong answer must be refused with a message that names its mistake; a right one, written
differently from the solution, must pass.
"""

from __future__ import annotations

import ast
import re
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from learners import ANSWERS, Answer
from learners.endless import ENDLESS
from verdicts import friendly_checks  # noqa: F401

from agentlib.course.checks import Verdict, bound, cells
from agentlib.course.language import speaking

SOURCES = Path(__file__).parents[1] / "notebooks" / "src"


@dataclass(frozen=True)
class Exercise:
    notebook: str
    number: int  # the how-many-th exercise cell of the notebook, from 0
    setup: tuple[str, ...]  # how the code cells the exercise needs begin


EXERCISES = {
    "ex1_exit_code": Exercise("01_loop_by_hand", 0, ("import agentlib", "messages = [", "TOOLS = [", "import os")),
    "ex2_tool_results": Exercise("01_loop_by_hand", 1, ("import agentlib", "messages = [", "TOOLS = [", "import os")),
    "ex3_agent_loop": Exercise("01_loop_by_hand", 2, ("import agentlib", "messages = [", "TOOLS = [", "import os")),
    "ex4_stop_reasons": Exercise("02_agent_loop", 0, ("import os",)),
    "ex5_edit_once": Exercise("03_tool_use", 0, ("import os", "def safe_path")),
    "ex6_register_glob": Exercise("03_tool_use", 1, ("import os", "def safe_path", "def schema", "def run_glob")),
    "ex7_safe_glob": Exercise("04_sandbox", 0, ("import os",)),
    "ex8_own_tool": Exercise("05_your_own_tool", 0, ("import agentlib",)),
    "ex9_own_tool_decorated": Exercise("05_your_own_tool", 1, ("import agentlib",)),
}  # fmt: skip


def notebook_cells(notebook: str) -> list[tuple[str, str]]:
    """``(marker, source)`` of every cell of a jupytext percent-format notebook source."""
    text = (SOURCES / f"{notebook}.py").read_text()
    parts = re.split(r"^# %%(.*)$", text, flags=re.M)
    return [
        (marker.strip(), body.strip("\n"))
        for marker, body in zip(parts[1::2], parts[2::2], strict=True)
    ]


def code(marker: str) -> bool:
    return "[markdown]" not in marker


def after_exercise(exercise: Exercise) -> list[str]:
    """The code cells after the exercise cell, up to and including its check cell."""
    all_cells = notebook_cells(exercise.notebook)
    exercise_at = [i for i, (m, _) in enumerate(all_cells) if '"exercise"' in m][exercise.number]
    following = []
    for marker, body in all_cells[exercise_at + 1 :]:
        if code(marker):
            following.append(body)
            if re.search(r"\bcheck_\w+\(", body):
                return following
    raise LookupError(f"no check cell after exercise {exercise.number} of {exercise.notebook}")


def imports(source: str) -> str:
    """The import statements of a cell: what a learner who ran the cells above has imported."""
    return "\n".join(
        ast.unparse(node)
        for node in ast.parse(source).body
        if isinstance(node, (ast.Import, ast.ImportFrom))
    )


@pytest.fixture
def shell():
    """A real IPython shell, as a notebook's kernel runs one: the checks watch which of its cells raised."""
    from IPython.core.interactiveshell import InteractiveShell

    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()


def learner_verdict(
    shell, exercise: Exercise, answer: Answer, workspace: Path, lang: str = "en"
) -> Verdict:
    """The notebook's cells around the exercise, with the learner's answer in its place; the check's verdict."""
    all_cells = notebook_cells(exercise.notebook)
    exercise_at = [i for i, (m, _) in enumerate(all_cells) if '"exercise"' in m][exercise.number]
    parameters = next(body for marker, body in all_cells if '"parameters"' in marker)
    workspace.mkdir(exist_ok=True)  # the course uses a WORKSPACE you name, and never makes one
    shell.run_cell(f"{parameters}\nWORKSPACE = {str(workspace)!r}\nLANG = {lang!r}")
    for start in exercise.setup:
        assert shell.run_cell(
            next(b for m, b in all_cells if code(m) and b.startswith(start))
        ).success
    for _, body in filter(lambda cell: code(cell[0]), all_cells[:exercise_at]):
        assert shell.run_cell(imports(body)).success
    cells.watch()  # a fresh kernel starts watching when it first imports the checks; this process did earlier
    shell.run_cell(all_cells[exercise_at][1])  # the blank, as the learner got it
    shell.run_cell(textwrap.dedent(answer.source))  # it may raise, as a learner's cell may
    *between, check_cell = after_exercise(exercise)
    for body in between:
        shell.run_cell(body)
    shown = shell.run_cell(check_cell).result
    return shown if isinstance(shown, Verdict) else shell.user_ns["verdict"]


def solution(exercise: Exercise) -> Answer:
    """The notebook's own solution to the exercise (from its collapsed cell), as an answer."""
    all_cells = notebook_cells(exercise.notebook)
    exercise_at = [i for i, (m, _) in enumerate(all_cells) if '"exercise"' in m][exercise.number]
    text = next(b for m, b in all_cells[exercise_at:] if '"solution"' in m)
    lines = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in text.splitlines()]
    source = "\n".join(lines).split("```python\n")[1].split("```")[0]
    if exercise.number and exercise.notebook == "05_your_own_tool":  # exercise 9 builds on 8
        source = solution(Exercise(exercise.notebook, 0, ())).source + source
    return Answer("the_notebooks_solution", source)


CASES = [
    pytest.param(exercise, answer, id=f"{key}-{'right' if answer.right else 'wrong'}-{answer.name}")
    for key, exercise in EXERCISES.items()
    for answer in [solution(exercise), *ANSWERS[key]]
]


@pytest.mark.parametrize(("exercise", "answer"), CASES)
def test_learner_answer_gets_the_right_verdict(shell, exercise, answer, tmp_path):
    verdict = learner_verdict(shell, exercise, answer, tmp_path / "workspace")
    words = " ".join(str(verdict).split())
    if answer.right:
        assert verdict.ok, words
    else:
        assert not verdict.ok, words
        assert answer.phrase in words, (answer.phrase, words)


@pytest.mark.parametrize(("key", "answer"), ENDLESS.items(), ids=lambda v: getattr(v, "name", v))
def test_an_answer_that_never_ends_is_stopped_and_the_line_it_ran_is_named(
    shell, key, answer, tmp_path, monkeypatch
):
    monkeypatch.setattr(bound, "SECONDS", 3.0)
    exercise = EXERCISES[key.removesuffix("_waits")]
    verdict = learner_verdict(shell, exercise, answer, tmp_path / "workspace")
    words = " ".join(str(verdict).split())
    assert not verdict.ok, words
    assert "still running" in words and answer.phrase in words, (answer.phrase, words)
    if key.endswith("_waits"):  # only this answer starts it: the others may run meanwhile
        left = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        assert "sleep 47" not in left  # a command the stopped code started does not outlive it
    fixed = learner_verdict(shell, exercise, solution(exercise), tmp_path / "again")
    assert fixed.ok, " ".join(str(fixed).split())  # the kernel is as usable as before


def test_in_chinese_the_stopped_line_is_quoted_as_written(shell, tmp_path, monkeypatch):
    monkeypatch.setattr(bound, "SECONDS", 3.0)
    answer = ENDLESS["ex8_own_tool"]
    looping = answer.source.replace("said.append(str(n))", 'said.append({"n": n})')
    with speaking("en"):  # the language this process spoke before comes back at the end
        verdict = learner_verdict(
            shell, EXERCISES["ex8_own_tool"], Answer("zh", looping), tmp_path, "zh"
        )
        words = " ".join(str(verdict).split())
    assert "还在运行" in words or "还没结束" in words, words
    assert "'said.append({\"n\": n})'" in words, words  # the source's ': ' is not made Chinese


def test_a_check_after_a_cell_that_raised_says_it_ran_on_the_old_value(shell, tmp_path):
    exercise = EXERCISES["ex9_own_tool_decorated"]
    first = solution(exercise)
    assert learner_verdict(shell, exercise, first, tmp_path).ok
    retry = first.source.replace("def my_tool_again(text: str)", "def my_tool_again(text)")
    assert retry != first.source
    shell.run_cell(retry)  # the learner's next try, which @tool refuses: no type hint
    shown = shell.run_cell(after_exercise(exercise)[-1])
    words = " ".join(str(shell.user_ns["verdict"]).split())
    assert shown.success, words
    assert "a cell you ran before this check raised TypeError" in words, words
    assert "needs a type hint" in words and "ran on that" in words, words


def test_every_exercise_has_five_wrong_and_two_right_answers():
    assert set(ANSWERS) == set(EXERCISES)
    for key, answers in ANSWERS.items():
        assert sum(not a.right for a in answers) >= 5, key
        assert sum(a.right for a in answers) >= 2, key
