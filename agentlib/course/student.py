"""``python -m agentlib.course student-copy NOTEBOOK_OR_FOLDER... OUT``: the notebooks a student gets, without solutions.

``--nbgrader`` also marks each exercise check cell as an nbgrader autograder test (one point,
locked), so ``nbgrader generate_assignment`` / ``autograde`` grade it; with
``AGENTLIB_CHECKS=strict`` a check that is not passed raises, and nbgrader scores it 0.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from .solutions import without_solutions


def _calls_a_check() -> re.Pattern[str]:
    from .checks import CHECKS  # the names a notebook's check cell calls

    return re.compile(rf"\b(?:{'|'.join(CHECKS)})\(")


def check_cells(nb: Any) -> list[Any]:
    """The code cells that run an exercise check."""
    calls = _calls_a_check()
    return [c for c in nb.cells if c.cell_type == "code" and calls.search(c.source)]


def mark_for_nbgrader(nb: Any, stem: str) -> Any:
    """Make each check cell an nbgrader autograder test worth one point; nbgrader restores it before grading."""
    for number, cell in enumerate(check_cells(nb), start=1):
        cell.metadata["nbgrader"] = {
            "grade": True,
            "grade_id": f"{stem}-check-{number}",
            "locked": True,
            "points": 1,
            "schema_version": 3,
            "solution": False,
            "task": False,
        }
    return nb


def student_copy(source: Path, *, nbgrader: bool = False) -> Any:
    """``source`` as a student gets it: no solution cells, no outputs (and, for nbgrader, graded check cells)."""
    import nbformat

    nb = without_solutions(nbformat.read(source, as_version=4))
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    if nbgrader:
        mark_for_nbgrader(nb, source.stem)
    nbformat.validate(nb)
    return nb


def _sources(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        if path.is_dir():
            found += sorted(path.glob("*.ipynb"))
        elif path.suffix == ".ipynb" and path.is_file():
            found.append(path)
        else:
            raise SystemExit(f"student-copy: {path} is neither a folder nor an .ipynb file")
    if not found:
        raise SystemExit(f"student-copy: no .ipynb notebook in {', '.join(map(str, paths))}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Write each notebook's student copy into the output folder; refuse to overwrite anything."""
    parser = argparse.ArgumentParser(
        prog="python -m agentlib.course student-copy",
        description="Copy notebooks without their solution cells, for students.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="NOTEBOOK_OR_FOLDER... OUT")
    parser.add_argument(
        "--nbgrader", action="store_true", help="mark each check cell as a graded nbgrader test"
    )
    parser.add_argument("--force", action="store_true", help="overwrite notebooks already in OUT")
    args = parser.parse_args(argv)
    if len(args.paths) < 2:
        parser.error("give the notebooks (or their folder), then the output folder")
    *inputs, out = args.paths
    sources = _sources(inputs)
    taken = [out / s.name for s in sources if (out / s.name).exists()]
    if any(s.resolve().parent == out.resolve() for s in sources):
        raise SystemExit(
            f"student-copy: {out} holds the notebooks themselves: choose another output folder"
        )
    if taken and not args.force:
        raise SystemExit(
            f"student-copy: {', '.join(map(str, taken))} already {'exists' if len(taken) == 1 else 'exist'}: "
            "remove them or pass --force"
        )
    import nbformat

    out.mkdir(parents=True, exist_ok=True)
    for source in sources:
        nb = student_copy(source, nbgrader=args.nbgrader)
        nbformat.write(nb, out / source.name)
        graded = f", {len(check_cells(nb))} graded checks" if args.nbgrader else ""
        print(f"{out / source.name}: {len(nb.cells)} cells{graded}")
    return 0
