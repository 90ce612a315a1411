"""Wall time of executing every notebook offline, against as many empty notebooks on the same kernel.

    python benchmarks/bench_notebooks.py [--repeat N]

The empty notebooks measure the floor: starting a kernel and stopping it. The ratio says how
much the course's own work (imports, the offline model, tools, diagrams) adds. Target: <= 1.5.
It also prints each notebook's first cell (the one that makes the ``Course``) in a fresh
kernel, the wait a learner has before anything is shown. Target: <= 3 s on a quiet 2-core machine.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from agentlib.course import run_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def suite_seconds(paths: list[Path], first_cells: dict[str, list[float]] | None = None) -> float:
    """Execute each notebook once, one after another, in a fresh workspace; total wall time.

    With ``first_cells``, each notebook's first-cell time is appended under its name.
    """
    started = time.perf_counter()
    for path in paths:
        with tempfile.TemporaryDirectory() as workspace:
            run = run_notebook(path, {"WORKSPACE": workspace})
            if not run.ok:
                raise SystemExit(run.report())
        if first_cells is not None:
            first_cells.setdefault(path.stem, []).append(first_cell_seconds(run.notebook))
    return time.perf_counter() - started


def first_cell_seconds(nb) -> float:
    """How long the cell that makes the Course took, from nbclient's timestamps in its metadata."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and "Course(" in c.source)
    times = cell.metadata["execution"]
    start, end = (
        datetime.datetime.fromisoformat(times[key].replace("Z", "+00:00"))
        for key in ("iopub.execute_input", "shell.execute_reply")
    )
    return (end - start).total_seconds()


def main() -> None:
    """Print the median time of the suite, of the empty floor, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    notebooks = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    with tempfile.TemporaryDirectory() as folder:
        empty = stand_ins(notebooks, Path(folder) / "empty", "WORKSPACE = None")
        imports = stand_ins(notebooks, Path(folder) / "imports", IMPORTS_ONLY)
        suite, floor, imported, first = [], [], [], {}
        for _ in range(args.repeat):  # interleaved, so machine load hits all alike
            floor.append(suite_seconds(empty))
            imported.append(suite_seconds(imports))
            suite.append(suite_seconds(notebooks, first))
    s, f, i = (statistics.median(x) for x in (suite, floor, imported))
    print(f"{len(notebooks)} notebooks, median of {args.repeat}: suite {s:.1f} s, "
          f"empty notebooks {f:.1f} s, notebooks that only import and connect {i:.1f} s")  # fmt: skip
    print(f"ratio suite / kernel floor: {s / f:.2f} (target <= 1.5)")
    print(f"ratio suite / kernel + imports floor: {s / i:.2f} (the course's own work)")
    print("first cell (Course) in a fresh kernel, median (target <= 3 s):")
    for name, seconds in first.items():
        print(f"  {name:18} {statistics.median(seconds):.2f} s")


# what every notebook's setup cell pays before teaching anything: the SDK import dominates
IMPORTS_ONLY = """WORKSPACE = None
import agentlib
from agentlib.widgets import show
client, MODEL = agentlib.connect(backend="offline", quiet=True)"""


def stand_ins(notebooks: list[Path], folder: Path, source: str) -> list[Path]:
    """One notebook per real one, with the same kernel, holding only ``source``."""
    folder.mkdir()
    paths = []
    for path in notebooks:
        nb = nbformat.v4.new_notebook()
        nb.metadata = nbformat.read(path, as_version=4).metadata
        nb.cells = [nbformat.v4.new_code_cell(source, metadata={"tags": ["parameters"]})]
        paths.append(folder / path.name)
        nbformat.write(nb, paths[-1])
    return paths


if __name__ == "__main__":
    main()
