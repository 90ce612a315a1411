"""For instructors and tests: run notebooks offline with parameters, and check a learner's tool.

``run_notebook`` executes a notebook with nbclient (imported only when called);
``check_exercise`` explains, in words, what is wrong with a tool a learner added.
"""

from .exercise import check_exercise
from .instructor import Course, ParameterError, load_object, load_script, load_tools
from .runner import CellFailure, NotebookRun, inject_parameters, run_notebook

__all__ = [
    "CellFailure",
    "Course",
    "NotebookRun",
    "ParameterError",
    "check_exercise",
    "inject_parameters",
    "load_object",
    "load_script",
    "load_tools",
    "run_notebook",
]
