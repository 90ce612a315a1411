"""Wall time of executing every notebook offline, against as many empty notebooks on the same kernel.

    python benchmarks/bench_notebooks.py [--repeat N]
    python benchmarks/bench_notebooks.py --cells N

The empty notebooks measure the floor: starting a kernel and stopping it. The ratio says how
much the course's own work (imports, the offline model, tools, diagrams) adds. Target: <= 1.5.
It also prints each notebook's first cell (the one that makes the ``Course``) in a fresh
kernel, the wait a learner has before anything is shown. Target: <= 3 s on a quiet 2-core machine.

``--cells N`` runs each notebook once with the solutions, as tests/test_notebooks_rerun.py does,
and prints its N slowest cells and what re-running from every code cell to the end costs there:
each cell once per start at or above it, so a slow cell near the end costs the most.
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


def cell_seconds(nb) -> list[tuple[int, float, str]]:
    """``(index, seconds, first line)`` of every code cell that ran, from nbclient's timestamps."""
    timed = []
    for index, cell in enumerate(nb.cells):
        times = cell.metadata.get("execution", {}) if cell.cell_type == "code" else {}
        if "iopub.execute_input" in times and "shell.execute_reply" in times:
            start, end = (
                datetime.datetime.fromisoformat(times[key].replace("Z", "+00:00"))
                for key in ("iopub.execute_input", "shell.execute_reply")
            )
            line = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
            timed.append((index, (end - start).total_seconds(), line))
    return timed


def print_cells(paths: list[Path], slowest: int) -> None:
    """Each notebook's slowest cells, and the cost of running from every cell below the parameters."""
    for path in paths:
        with tempfile.TemporaryDirectory() as workspace:
            run = run_notebook(path, {"WORKSPACE": workspace}, solutions=True)
        if not run.ok:
            raise SystemExit(run.report())
        timed = cell_seconds(run.notebook)
        injected = next(i for i, c in enumerate(run.notebook.cells) if "injected-parameters" in c.metadata.get("tags", []))  # fmt: skip
        below = [(index, seconds) for index, seconds, _ in timed if index > injected]
        rerun = sum(seconds * (rank + 1) for rank, (_, seconds) in enumerate(below))
        total = sum(seconds for _, seconds, _ in timed)
        print(
            f"{path.stem}: {total:.1f} s in its cells; every start to the end again: {rerun:.1f} s"
        )
        for index, seconds, line in sorted(timed, key=lambda t: -t[1])[:slowest]:
            starts = sum(1 for i, _ in below if i <= index)
            print(f"  cell {index:3} {seconds:5.2f} s, run again by {starts:2} starts: {line}")


def main() -> None:
    """Print the median time of the suite, of the empty floor, and their ratio (or, with --cells, each cell's)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--cells", type=int, metavar="N", help="the N slowest cells of each notebook"
    )
    args = parser.parse_args()
    notebooks = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if args.cells:
        return print_cells(notebooks, args.cells)
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
