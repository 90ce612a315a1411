"""Shared fixtures: the offline API in-process and over loopback; the course notebooks, each executed once per session."""

from __future__ import annotations

import os
from pathlib import Path

import anthropic
import pytest

from agentlib.offline import Fallback, Offline
from agentlib.offline.extras.server import serve_in_thread


@pytest.fixture(scope="module")
def loopback():
    """The offline model served on 127.0.0.1; its base URL."""
    server = serve_in_thread(Offline([Fallback()]))
    yield "http://{}:{}".format(*server.server_address[:2])
    server.shutdown()
    server.server_close()


@pytest.fixture(params=["in-process", "loopback"])
def client(request, loopback):
    """A real SDK client of the offline model: once in-process, once over loopback HTTP."""
    if request.param == "in-process":
        return Offline([Fallback()]).client(max_retries=0)
    return anthropic.Anthropic(base_url=loopback, api_key="any", max_retries=0)


TESTS = Path(__file__).resolve().parent
NOTEBOOKS = TESTS.parent / "notebooks"
FAKE_KEY = "sk-" + "ant-" + "notarealkey0000"  # planted in the kernel's env; must never be printed
INSTRUCTOR = {"EXTRA_TOOLS": "recording_tools:shout", "SCRIPT": "recording_tools:SCRIPT"}


class CourseRuns:
    """Each course notebook executed at most once per session and way, by the project's runner.

    As handed out, a run also carries an instructor's tools and script (``tests/recording_tools.py``,
    which logs being imported and called), so one execution answers both the lesson's checks and
    the instructor's. ``solutions=True`` fills in the exercises instead.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.done: dict[tuple[str, bool], tuple] = {}

    def get(self, name: str, *, solutions: bool = False):
        """``(run, workspace, tools_log)`` for the notebook ``name``."""
        from agentlib.course import run_notebook

        key = (name, solutions)
        if key not in self.done:
            here = self.folder / f"{name}-{'solutions' if solutions else 'handed-out'}"
            workspace, log = here / "workspace", here / "tools.log"
            workspace.mkdir(parents=True)
            parameters = {"WORKSPACE": str(workspace), **({} if solutions else INSTRUCTOR)}
            pythonpath = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
            env = {"ANTHROPIC_API_KEY": FAKE_KEY, "PYTHONPATH": pythonpath, "RECORDING_TOOLS_LOG": str(log)}  # fmt: skip
            run = run_notebook(NOTEBOOKS / f"{name}.ipynb", parameters, env=env, timeout=120, solutions=solutions)  # fmt: skip
            self.done[key] = (run, workspace, log)
        return self.done[key]


@pytest.fixture(scope="session")
def course_runs(tmp_path_factory) -> CourseRuns:
    """The course notebooks, each executed once per session (tests using it share an xdist group)."""
    return CourseRuns(tmp_path_factory.mktemp("course-runs"))
