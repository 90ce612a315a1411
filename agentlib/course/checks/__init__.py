"""The notebooks' exercise checks: run the learner's code against the offline model and say, in words, what is wrong or that it works.

Each check takes what the learner wrote and returns a ``Verdict``; it catches whatever their
code raises and reports it, so an untouched blank explains itself and the notebook carries on.
With ``AGENTLIB_CHECKS=strict`` in the environment (for grading), a blank or failing check
raises ``AssertionError`` with the same words instead. One module per notebook.

Importing this package inside IPython starts watching which cells raise (see ``cells``), so a
check can say "your cell raised" rather than "still blank".
"""

from . import cells
from .agent_loop import check_stop_reasons
from .loop_by_hand import check_exit_code, check_tool_results
from .sandbox import check_safe_glob
from .scripted import BASH
from .tool_use import check_dispatch_map, check_edit_refuses_duplicates
from .verdict import BLANK, MODE_VARIABLE, NOT_YET, WORKS, Verdict
from .whole_loop import check_agent_loop
from .your_own_tool import check_own_tool

cells.watch()

__all__ = [
    "BASH",
    "BLANK",
    "MODE_VARIABLE",
    "NOT_YET",
    "WORKS",
    "Verdict",
    "check_agent_loop",
    "check_dispatch_map",
    "check_edit_refuses_duplicates",
    "check_exit_code",
    "check_own_tool",
    "check_safe_glob",
    "check_stop_reasons",
    "check_tool_results",
]
CHECKS = [
    name for name in __all__ if name.startswith("check_")
]  # what a notebook's check cell calls
