"""For instructors and tests: run notebooks offline with parameters, and check a learner's tool.

``Course`` reads a notebook's parameters (model, workspace, the instructor's tools and script);
``run_notebook`` executes a notebook with nbclient (imported only when called);
``check_exercise`` explains, in words, what is wrong with a tool a learner added;
``expect_error`` wraps a cell that fails on purpose, so it prints a few readable lines;
``language`` is what they all speak: English, or Chinese after ``Course(..., lang="zh")``.
"""

from . import language
from .errors_shown import ExpectedError, expect_error
from .exercise import check_exercise
from .instructor import Course, InstructorRunFailed
from .parameters import ParameterError, load_object, load_script, load_tools
from .runner import CellFailure, NotebookRun, inject_parameters, run_notebook

__all__ = [
    "CellFailure",
    "Course",
    "ExpectedError",
    "InstructorRunFailed",
    "NotebookRun",
    "ParameterError",
    "check_exercise",
    "expect_error",
    "inject_parameters",
    "language",
    "load_object",
    "load_script",
    "load_tools",
    "run_notebook",
]
