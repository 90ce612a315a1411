"""The notebooks: clean as committed, and executed top to bottom offline, checking what the cells produce."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from agentlib.course import run_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["00_setup", "01_agent_loop", "02_tool_use", "03_your_own_tool"]
DATED_MODEL = re.compile(r"claude-[a-z0-9.-]*-20\d{6}")
FAKE_KEY = "sk-" + "ant-" + "notarealkey0000"  # planted in the kernel's env; must never be printed
WIDGET = "application/vnd.jupyter.widget-view+json"


def execute(name: str, tmp_path: Path, **parameters):
    """Run one notebook offline in ``tmp_path/workspace`` with a fake key in the kernel's env."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    env = {"ANTHROPIC_API_KEY": FAKE_KEY, **parameters.pop("env", {})}
    run = run_notebook(NOTEBOOKS / f"{name}.ipynb", {"WORKSPACE": str(workspace), **parameters},
                       env=env, timeout=120)  # fmt: skip
    assert run.ok, run.report()
    everything = json.dumps([c.get("outputs", []) for c in run.code_cells()], ensure_ascii=False)
    assert "sk-ant-" not in everything
    assert not DATED_MODEL.search(everything)
    return run, workspace


def errors(run) -> list[str]:
    return [
        o.ename
        for c in run.code_cells("raises-exception")
        for o in c.outputs
        if o.output_type == "error"
    ]


def widget_bundles(run) -> list[dict]:
    return [
        o.data
        for o in run.outputs()
        if o.output_type in ("display_data", "execute_result") and WIDGET in o.data
    ]


def assert_static_diagrams(run, at_least: int) -> None:
    bundles = widget_bundles(run)
    assert len(bundles) >= at_least
    for data in bundles:
        assert data["text/html"].strip() and "<script" not in data["text/html"].lower()
        assert data["text/plain"].startswith("Round diagram")


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_clean(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    assert "widgets" not in nb.metadata
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]
    first_code = next(c for c in nb.cells if c.cell_type == "code")
    assert first_code.metadata.get("tags") == ["parameters"]
    for parameter in ("BACKEND", "WORKSPACE", "EXTRA_TOOLS", "SCRIPT"):
        assert re.search(rf"^{parameter} = ", first_code.source, re.M)
    text = (NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8")
    assert not DATED_MODEL.search(text) and "sk-ant-" not in text
    assert nb.cells[0].source.startswith("# ") and "Exercises" in nb.cells[-1].source


# the committed notebooks match their sources: tests/test_notebook_sources.py


def test_00_setup_runs_offline_and_draws_one_run(tmp_path):
    run, workspace = execute("00_setup", tmp_path)
    text = run.text()
    assert "using the offline model agentlib-offline" in text
    assert "I am agentlib's offline model, not Claude" in text
    assert "ANTHROPIC_API_KEY      (set)" in text  # named, never shown
    assert (workspace / "main.py").read_text() == 'print("main")\n'
    assert_static_diagrams(run, 1)
    assert "tool_use glob" in widget_bundles(run)[0]["text/plain"]


def test_01_agent_loop_runs_the_try_it_prompts_and_matches_the_library(tmp_path):
    run, workspace = execute("01_agent_loop", tmp_path)
    text = run.text()
    hello = subprocess.run(
        [sys.executable, "hello.py"], cwd=workspace, capture_output=True, text=True
    )
    assert hello.stdout == "Hello, World!\n"
    assert sorted(p.name for p in (workspace / "test_output").iterdir()) == [
        "file1.txt", "file2.txt", "file3.txt"]  # fmt: skip
    assert errors(run) == ["BadRequestError", "KeyError"]
    assert "tool_use` ids were found without `tool_result` blocks" in text
    assert "\"echo s''udo\"            blocked by the seed's check: False" in text
    assert "Error: Timeout (0.5s)" in text and "(no output)" in text
    assert "The current git branch is `main`." in text
    assert "当前目录有2个Python文件：hello.py、main.py" in text
    assert "max_rounds -> the round limit blew" in text
    assert "same transcript: 6 messages, stopped on 'end_turn'" in text
    assert_static_diagrams(run, 6)
    assert all("OFFLINE model" in data["text/plain"] for data in widget_bundles(run))


def test_02_tool_use_shows_the_attacks_refused_and_the_prompts_done(tmp_path):
    run, workspace = execute("02_tool_use", tmp_path)
    text = run.text()
    assert errors(run) == ["ValueError", "BadRequestError"]
    for attack in ("symlink swap", "hard link (read)", "absolute glob", "glob with ..", "FIFO"):
        assert re.search(rf"^{re.escape(attack)}\s+refused: ", text, re.M), attack
    assert "read_file still blocked after 0.5 s: True" in text
    assert "delete_file -> Unknown tool: delete_file" in text
    assert "'delete_file' is in TOOLS but not in TOOL_HANDLERS" in text
    assert "accepted: end_turn" in text
    greet = (workspace / "greet.py").read_text()
    assert "def greet(name):" in greet and '"""' in greet
    assert "Hello, s02!" in text
    compare = [
        o.data
        for o in run.outputs("execute_result")
        if "s01 -> s02" in o.data.get("text/plain", "")
    ]
    assert compare and "read_file" in compare[0]["text/html"]
    assert_static_diagrams(run, 4)


def test_03_your_own_tool_checks_pass_on_the_starter_and_fail_in_words(tmp_path):
    run, _ = execute("03_your_own_tool", tmp_path)
    text = run.text()
    assert "All checks pass: the tool is ready for the loop." in text
    assert "word_count({'text': 'One loop and bash is all you need'}) -> '8'" in text
    assert "the model never learns it exists" in text
    assert "the model will call it and get 'Unknown tool'" in text
    assert "the handler needs 'words', which the schema never asks for" in text
    assert "fails, so the model would read an error" in text
    assert errors(run) == ["ValueError"]
    assert_static_diagrams(run, 2)
    source = "\n".join(c.source for c in run.code_cells())
    assert "line_count" not in source  # solutions stay in collapsed markdown


INSTRUCTOR_MODULE = '''
"""An instructor's tool and script, swapped into the notebooks through parameters."""
from pathlib import Path

from agentlib import tool
from agentlib.offline import call, say

@tool
def shout(text: str) -> str:
    """Return the text in capitals.

    Args:
        text: What to shout.
    """
    Path({marker!r}).write_text(text)
    return text.upper()

SCRIPT = [call("shout", text="hello from the instructor"), say("Shouted.")]
'''


@pytest.mark.parametrize("name", NAMES)
def test_instructor_tool_is_swapped_in_and_called(name, tmp_path):
    marker = tmp_path / "shout-was-called.txt"
    module = tmp_path / "instructor_tools.py"
    module.write_text(textwrap.dedent(INSTRUCTOR_MODULE.format(marker=str(marker))))
    run, _ = execute(name, tmp_path, EXTRA_TOOLS="instructor_tools:shout",
                     SCRIPT="instructor_tools:SCRIPT", env={"PYTHONPATH": str(tmp_path)})  # fmt: skip
    assert marker.read_text() == "hello from the instructor"
    injected = run.code_cells("injected-parameters")
    assert len(injected) == 1 and "instructor_tools:shout" in injected[0].source
    assert "HELLO FROM THE INSTRUCTOR" in widget_bundles(run)[-1]["text/plain"]
