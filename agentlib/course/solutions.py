"""A notebook's solutions: filled into its exercises (a run shows every check passes), or taken out (the student's copy)."""

from __future__ import annotations

import re
from typing import Any

EXERCISE_TAG = "exercise"
SOLUTION_TAG = "solution"
CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def solution_code(markdown: str) -> str:
    """The first ```python block of a solution cell; a clear error when there is none."""
    found = CODE_BLOCK.search(markdown)
    if found is None:
        raise ValueError(
            f"a cell tagged {SOLUTION_TAG!r} holds no ```python block: {markdown[:80]!r}"
        )
    return found.group(1).rstrip() + "\n"


def fill_in_solutions(nb: Any) -> Any:
    """Replace each ``exercise`` cell's code with the ``solution`` cell that follows it.

    Every exercise needs its own solution before the next exercise: a missing one is an
    error naming the exercise, so a notebook cannot quietly skip a solution.
    """
    cells = nb.cells
    for index, cell in enumerate(cells):
        if EXERCISE_TAG not in cell.metadata.get("tags", []):
            continue
        for later in cells[index + 1 :]:
            tags = later.metadata.get("tags", [])
            if EXERCISE_TAG in tags:
                break
            if SOLUTION_TAG in tags:
                cell.source = solution_code(later.source)
                break
        else:
            later = None
        if cell.source and SOLUTION_TAG not in (later.metadata.get("tags", []) if later else []):
            raise ValueError(
                f"exercise cell {index} has no solution cell after it: {cell.source[:80]!r}"
            )
    return nb


def without_solutions(nb: Any) -> Any:
    """Remove every ``solution`` cell; the ``exercise`` cells keep their blanks."""
    nb.cells = [c for c in nb.cells if SOLUTION_TAG not in c.metadata.get("tags", [])]
    return nb
