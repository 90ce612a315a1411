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
    the instructor's. ``solutions=True`` fills in the exercises instead; ``again`` runs those a
    second time in the workspace the first run left.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.done: dict[tuple[str, bool], tuple] = {}
        self.second: dict[str, object] = {}

    def get(self, name: str, *, solutions: bool = False):
        """``(run, workspace, tools_log)`` for the notebook ``name``."""
        key = (name, solutions)
        if key not in self.done:
            here = self.folder / f"{name}-{'solutions' if solutions else 'handed-out'}"
            workspace, log = here / "workspace", here / "tools.log"
            workspace.mkdir(parents=True)
            self.done[key] = (self._run(name, workspace, log, solutions), workspace, log)
        return self.done[key]

    def again(self, name: str):
        """The second run with the solutions, in the workspace of ``get(name, solutions=True)``.

        It changes that workspace: tests that read what the first run left run before it
        (``pytest_collection_modifyitems`` puts test_notebooks.py first).
        """
        if name not in self.second:
            _, workspace, log = self.get(name, solutions=True)
            self.second[name] = self._run(name, workspace, log, solutions=True)
        return self.second[name]

    @staticmethod
    def _run(name: str, workspace: Path, log: Path, solutions: bool):
        from agentlib.course import run_notebook

        parameters = {"WORKSPACE": str(workspace), **({} if solutions else INSTRUCTOR)}
        pythonpath = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
        env = {"ANTHROPIC_API_KEY": FAKE_KEY, "PYTHONPATH": pythonpath, "RECORDING_TOOLS_LOG": str(log)}  # fmt: skip
        return run_notebook(NOTEBOOKS / f"{name}.ipynb", parameters, env=env, timeout=120, solutions=solutions)  # fmt: skip


@pytest.fixture(scope="session")
def course_runs(tmp_path_factory) -> CourseRuns:
    """The course notebooks, each executed once per session (tests using it share an xdist group)."""
    return CourseRuns(tmp_path_factory.mktemp("course-runs"))


# With -n, xdist hands each worker a group at a time, then single tests in collection order
# (the modules that share a build or the session's runs mark their own xdist group). The modules that
# execute notebooks go first, longest first, so no worker is left alone with a long test at the
# end. test_notebooks.py also goes before test_notebooks_rerun.py in the course runs' group: it
# reads the workspaces of the runs before ``CourseRuns.again`` runs in them.
LONG_FIRST = (
    "test_notebooks.py",
    "test_notebooks_rerun.py",
    "test_notebook_runners.py",
    "test_book.py",
    "test_notebooks_zh.py",
    "test_playbook_corpus.py",
    "test_grading.py",
    "test_widgets_notebook.py",
    "test_browser_widget.py",
)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: index for index, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))  # stable
