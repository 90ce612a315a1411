"""The notebooks run again where they already ran: twice in one workspace, all of them in one shared workspace, and from a cell downwards again in the same kernel."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from agentlib.course import inject_parameters, run_notebook
from agentlib.course.runner import kernel_env
from agentlib.course.solutions import fill_in_solutions

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
TIMEOUT = 120  # seconds per cell
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def run_in(workspace: Path, name: str):
    """One fresh kernel running ``name`` top to bottom, with the solutions filled in."""
    return run_notebook(
        NOTEBOOKS / f"{name}.ipynb", {"WORKSPACE": str(workspace)}, timeout=TIMEOUT, solutions=True
    )


@pytest.mark.xdist_group("course-runs")  # its first run is the session's
@pytest.mark.parametrize("name", NAMES)
def test_notebook_passes_twice_in_a_row_in_one_workspace(name, course_runs):
    """Each in a fresh kernel: the session's run with the solutions, then one more in its workspace."""
    first, workspace, _ = course_runs.get(name, solutions=True)
    assert first.ok, f"first run in {workspace}:\n{first.report()}"
    second = course_runs.again(name)
    assert second.ok, f"second run in {workspace}:\n{second.report()}"


def test_every_notebook_passes_in_one_shared_workspace(tmp_path):
    failed = [run.report() for run in (run_in(tmp_path, name) for name in NAMES) if not run.ok]
    assert failed == [], "\n".join(failed)


def cells_below_the_parameters(nb) -> list[int]:
    """Every code cell a learner might select for "Run Selected Cell and All Below"."""
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    injected = next(
        i for i in code if "injected-parameters" in nb.cells[i].metadata.get("tags", [])
    )
    return [i for i in code if i > injected]


@pytest.mark.parametrize("name", NAMES)
def test_run_selected_cell_and_all_below_in_the_same_kernel(name, tmp_path):
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    inject_parameters(fill_in_solutions(nb), {"WORKSPACE": str(tmp_path)})
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
        store_widget_state=False,
    )
    with client.setup_kernel(env=kernel_env()):
        for index in code:  # Run All
            client.execute_cell(nb.cells[index], index)
        below = cells_below_the_parameters(nb)
        for start in below:  # each one selected in turn, after everything already ran
            for index in (i for i in below if i >= start):
                failure = rerun_failure(client, nb, index)
                if failure:
                    pytest.fail(f"re-run from cell {start}: {failure}", pytrace=False)


def rerun_failure(client, nb, index: int) -> str:
    """Run one cell again in the client's kernel; what failed, in one line and the cell's start."""
    from nbclient.exceptions import CellExecutionError

    try:
        client.execute_cell(nb.cells[index], index)
    except CellExecutionError as error:
        return f"cell {index} raised {COLOUR.sub('', f'{error.ename}: {error.evalue}')}\n{nb.cells[index].source[:400]}"
    return ""
