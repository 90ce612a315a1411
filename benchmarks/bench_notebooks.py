"""Wall time of executing every notebook offline, against as many empty notebooks on the same kernel.

    python benchmarks/bench_notebooks.py [--repeat N]

The empty notebooks measure the floor: starting a kernel and stopping it. The ratio says how
much the course's own work (imports, the offline model, tools, diagrams) adds. Target: <= 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from agentlib.testing import run_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def suite_seconds(paths: list[Path]) -> float:
    """Execute each notebook once, one after another, in a fresh workspace; total wall time."""
    started = time.perf_counter()
    for path in paths:
        with tempfile.TemporaryDirectory() as workspace:
            run = run_notebook(path, {"WORKSPACE": workspace})
            if not run.ok:
                raise SystemExit(run.report())
    return time.perf_counter() - started


def main() -> None:
    """Print the median time of the suite, of the empty floor, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    notebooks = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    with tempfile.TemporaryDirectory() as folder:
        empties = []
        for path in notebooks:
            empty = nbformat.v4.new_notebook()
            empty.metadata = nbformat.read(path, as_version=4).metadata
            empty.cells = [
                nbformat.v4.new_code_cell("WORKSPACE = None", metadata={"tags": ["parameters"]})
            ]
            empties.append(Path(folder) / path.name)
            nbformat.write(empty, empties[-1])
        suite, floor = [], []
        for _ in range(args.repeat):  # interleaved, so machine load hits both alike
            floor.append(suite_seconds(empties))
            suite.append(suite_seconds(notebooks))
    s, f = statistics.median(suite), statistics.median(floor)
    print(f"{len(notebooks)} notebooks: suite {s:.1f} s, empty notebooks {f:.1f} s "
          f"(median of {args.repeat})")  # fmt: skip
    print(f"ratio suite / kernel floor: {s / f:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
