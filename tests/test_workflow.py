"""The instructors' CI template, .github/workflows/course.yml: every command it runs exists here."""

from __future__ import annotations

import glob
import importlib.util
import re
import shlex
from pathlib import Path

import nbformat
import pytest

from agentlib.course.parameters import load_object
from agentlib.course.runner import parameter_problems

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "course.yml"
SYSTEM = {"sudo", "mkdir"}  # the runner's own programs, not the course's


@pytest.fixture(scope="module")
def workflow() -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with jupytext (the test extra)")
    return yaml.safe_load(WORKFLOW.read_text())


def commands(workflow: dict) -> list[list[str]]:
    """Each command line of every ``run:`` step, split into words, ``VAR=value`` prefixes dropped."""
    found = []
    for step in workflow["jobs"]["notebooks"]["steps"]:
        for line in step.get("run", "").splitlines():
            words = shlex.split(line)
            while words and re.match(r"^[A-Z_]+=", words[0]):
                words.pop(0)
            if words:
                found.append(words)
    return found


def test_it_installs_runs_every_notebook_with_the_tools_and_keeps_what_it_made(workflow):
    job = workflow["jobs"]["notebooks"]
    runs = [" ".join(words) for words in commands(workflow)]
    assert any("pip install" in r and ".[docs]" in r for r in runs)
    course = [r for r in runs if r.startswith("python -m agentlib.course notebooks/*.ipynb")]
    assert any("-p EXTRA_TOOLS=$TOOLS" in r and "-p SCRIPT=$SCRIPT" in r for r in course)
    kept = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact"))
    assert kept["if"] == "always()"  # a failing run keeps its notebooks: that is when they matter
    pages = next(s for s in job["steps"] if "sphinx" in s.get("run", ""))
    assert pages["if"] == "${{ !cancelled() }}"  # the pages do not depend on the instructor's run
    assert (
        "notebooks/zh/*.ipynb --output-dir docs/course/zh/executed" in pages["run"]
    )  # both languages
    assert {"executed/", "docs/course/_build/html/"} <= set(kept["with"]["path"].split())
    assert "unprivileged" in WORKFLOW.read_text() and "bwrap" in WORKFLOW.read_text()


def test_every_module_extra_and_file_it_names_exists(workflow, tmp_path, monkeypatch):
    project = (ROOT / "pyproject.toml").read_text()
    for words in commands(workflow):
        if words[0] in SYSTEM:
            continue
        assert words[0] == "python", words  # the course's commands run through the interpreter
        module = words[words.index("-m") + 1]
        assert importlib.util.find_spec(module) is not None, module
        for word in words:
            if word.startswith(".["):
                extra = word.strip('.[]"')
                assert re.search(rf"^{extra} = \[", project, re.M), f"no extra {extra!r}"
            elif "/" in word and not word.startswith(("-", "$")):
                found = glob.glob(str(ROOT / word))
                made = word.startswith(
                    (
                        "executed",
                        "docs/course/executed",
                        "docs/course/zh/executed",
                        "docs/course/_build",
                    )
                )
                assert found or made, f"{word} does not exist"
    env = workflow["jobs"]["notebooks"]["env"]
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("RECORDING_TOOLS_LOG", str(tmp_path / "tools.log"))
    for name in ("TOOLS", "SCRIPT"):
        assert load_object(env[name].split("#")[0].strip()) is not None


def test_every_notebook_takes_the_parameters_it_passes():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert parameter_problems(nb, {"EXTRA_TOOLS": "", "SCRIPT": ""}) == [], path.name
