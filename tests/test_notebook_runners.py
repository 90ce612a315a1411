"""The course as instructors run it: papermill, nbmake, nbconvert, testbook, a live run (the project's runner is in test_notebooks.py).

Each run swaps in ``tests/recording_tools.py`` (an instructor's tool module that logs being
imported and called, one line per kernel) and checks that every notebook's kernel imported it
and called its tool, that the run exits 0, and that the executed notebooks show no error.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import nbformat
import pytest

from agentlib.course import run_notebook

TESTS = Path(__file__).resolve().parent
NOTEBOOKS = sorted((TESTS.parent / "notebooks").glob("*.ipynb"))
EXTRA_TOOLS, SCRIPT = "recording_tools:shout", "recording_tools:SCRIPT"
USED = ["imported", "called shout('hello from the instructor')"]
FAKE_KEY = "sk-" + "ant-" + "api03-notarealkey"


def instructor_env(log: Path, **extra: str) -> dict[str, str]:
    """Our environment without model settings, with the tool module importable and its log named."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "AGENTLIB_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    env["RECORDING_TOOLS_LOG"] = str(log)
    return {**env, **extra}


def events_by_kernel(log: Path) -> list[list[str]]:
    """What the tool module recorded, grouped by the kernel process that recorded it."""
    by_pid: dict[str, list[str]] = defaultdict(list)
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        pid, event = line.split(" ", 1)
        by_pid[pid].append(event)
    return list(by_pid.values())


def false_alarms(path: Path) -> list[str]:
    """Errors an executed notebook shows: error outputs, tracebacks on stderr, papermill's banner."""
    nb = nbformat.read(path, as_version=4)
    found = []
    if nb.metadata.get("papermill", {}).get("exception"):
        found.append("papermill recorded an exception")
    for index, cell in enumerate(nb.cells):
        if "papermill-error-cell" in cell.source or "An Exception was encountered" in cell.source:
            found.append(f"cell {index}: papermill's error banner")
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                found.append(f"cell {index}: {out.ename}: {out.evalue}")
            elif out.output_type == "stream" and out.name == "stderr" and "Traceback" in out.text:
                found.append(f"cell {index}: a traceback on stderr")
    return found


def printed(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return "".join(
        o.get("text", "")
        for c in nb.cells
        for o in c.get("outputs", [])
        if o.output_type == "stream"
    )


def _needs_module(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (it comes with the test extra)")


def test_the_course_has_notebooks():
    assert len(NOTEBOOKS) >= 4, NOTEBOOKS


FAILING = {
    "a tool that raised": ("recording_tools:crash", "recording_tools:CRASH", "crash raised RuntimeError: a bug in the instructor's tool"),
    "a script calling a tool nobody offered": ("", SCRIPT, "call('shout', {'text': 'hello from the instructor'}): no such tool here"),
}  # fmt: skip


@pytest.mark.parametrize("runner", ["project", "papermill", "nbmake"])
@pytest.mark.parametrize("case", list(FAILING))
def test_a_run_whose_instructor_tool_raised_or_whose_script_drifted_fails(runner, case, tmp_path):
    _needs_module(runner if runner != "project" else "nbclient")
    extra_tools, script, says = FAILING[case]
    notebook, out = NOTEBOOKS[0], tmp_path / "out.ipynb"
    env = instructor_env(tmp_path / "tools.log")
    if runner == "project":
        command = ["-m", "agentlib.course", str(notebook), "-p", f"EXTRA_TOOLS={extra_tools}", "-p", f"SCRIPT={script}"]  # fmt: skip
    elif runner == "papermill":
        command = ["-m", "papermill", str(notebook), str(out), "--cwd", str(notebook.parent),
                   "-p", "EXTRA_TOOLS", extra_tools, "-p", "SCRIPT", script]  # fmt: skip
    else:
        env.update(AGENTLIB_EXTRA_TOOLS=extra_tools, AGENTLIB_SCRIPT=script)
        command = ["-m", "pytest", "--nbmake", "-p", "no:cacheprovider", "-q", str(notebook)]
    done = subprocess.run([sys.executable, *command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode != 0
    assert says in done.stdout + done.stderr + (out.read_text() if out.exists() else "")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_papermill_exits_0_and_uses_the_instructor_tools(notebook, tmp_path):
    _needs_module("papermill")
    log, out, workspace = tmp_path / "tools.log", tmp_path / notebook.name, tmp_path / "ws"
    workspace.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "papermill", str(notebook), str(out), "--cwd", str(notebook.parent),
         "-p", "WORKSPACE", str(workspace), "-p", "EXTRA_TOOLS", EXTRA_TOOLS, "-p", "SCRIPT", SCRIPT],
        env=instructor_env(log), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    assert false_alarms(out) == []
    assert events_by_kernel(log) == [USED]
    executed = nbformat.read(out, as_version=4)
    injected = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1 and EXTRA_TOOLS in injected[0].source
    assert "instructor tools shout (EXTRA_TOOLS) are offered wherever" in printed(out)


def test_nbmake_runs_every_notebook_with_the_tools_from_the_environment(tmp_path):
    _needs_module("nbmake")
    log = tmp_path / "tools.log"
    env = instructor_env(log, AGENTLIB_EXTRA_TOOLS=EXTRA_TOOLS, AGENTLIB_SCRIPT=SCRIPT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbmake", "-p", "no:cacheprovider", "-q",
         "--nbmake-timeout=600", *map(str, NOTEBOOKS)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:]
    assert f"{len(NOTEBOOKS)} passed" in done.stdout
    assert events_by_kernel(log) == [USED] * len(NOTEBOOKS)


def test_nbconvert_execute_runs_every_notebook_with_the_tools_from_the_environment(tmp_path):
    _needs_module("nbconvert")
    log, out = tmp_path / "tools.log", tmp_path / "executed"
    env = instructor_env(log, AGENTLIB_EXTRA_TOOLS=EXTRA_TOOLS, AGENTLIB_SCRIPT=SCRIPT)
    done = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
         "--output-dir", str(out), *map(str, NOTEBOOKS)],
        env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    assert events_by_kernel(log) == [USED] * len(NOTEBOOKS)
    for path in NOTEBOOKS:
        assert false_alarms(out / path.name) == [], path.name
        assert "(EXTRA_TOOLS (from AGENTLIB_EXTRA_TOOLS)) are offered" in printed(out / path.name)


# Records, in every Python process started with this folder on PYTHONPATH, each attempt to
# resolve a host name or open a connection: the kernel cannot open a socket unnoticed.
SOCKET_AUDIT = """
import os
import sys

_LOG = os.environ.get("SOCKET_AUDIT_LOG")
_WATCHED = {"socket.connect", "socket.getaddrinfo", "socket.sendto", "socket.sendmsg"}


def _audit(event, args):
    if _LOG and event in _WATCHED:
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {event} {args[1:] if event == 'socket.connect' else args}\\n")


sys.addaudithook(_audit)
"""


@pytest.fixture
def listener():
    """``(port, accepted)``: a loopback port a leaked request would reach, and who connected."""
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    accepted = []

    def drain() -> int:
        while True:
            try:
                accepted.append(server.accept()[0])
            except BlockingIOError:
                return len(accepted)

    yield server.getsockname()[1], drain
    for conn in accepted:
        conn.close()
    server.close()


def test_runner_without_live_opens_no_socket_whatever_dotenv_says(tmp_path, listener):
    port, accepted = listener
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(NOTEBOOKS[0], course)
    (course / ".env").write_text(
        f"AGENTLIB_BACKEND=anthropic\nANTHROPIC_API_KEY={FAKE_KEY}\n"
        f"ANTHROPIC_BASE_URL=http://127.0.0.1:{port}\nMODEL_ID=some-model\n"
    )
    audit = tmp_path / "audit"
    audit.mkdir()
    (audit / "sitecustomize.py").write_text(SOCKET_AUDIT)
    log = tmp_path / "sockets.log"
    env = {"PYTHONPATH": str(audit), "SOCKET_AUDIT_LOG": str(log), "AGENTLIB_BACKEND": "anthropic"}

    # the check can fail: a kernel that does open a connection is recorded and reaches the port
    probe = nbformat.v4.new_notebook()
    probe.cells = [nbformat.v4.new_code_cell(f"import socket\nsocket.create_connection(('127.0.0.1', {port})).close()")]  # fmt: skip
    nbformat.write(probe, course / "probe.ipynb")
    assert run_notebook(course / "probe.ipynb", env=env, timeout=60).ok
    assert accepted() == 1 and f"socket.connect (('127.0.0.1', {port}),)" in log.read_text()
    log.unlink()

    run = run_notebook(course / NOTEBOOKS[0].name, {"BACKEND": "auto"}, env=env, timeout=300)
    assert run.ok, run.report()
    assert "using the offline model" in run.text() and "AGENTLIB_FORCE_OFFLINE is set" in run.text()
    assert FAKE_KEY not in run.text()
    assert not log.exists(), log.read_text()  # no lookup, no connection, from any kernel process
    assert accepted() == 1  # only the probe's


# Measured with the loopback server standing in for the API: per notebook, how many requests
# offer tools, and how many of those offer the instructor's. The rest are the lesson's own
# hand-written requests and loops, which send the lesson's TOOLS (README, For instructors).
OFFERED = {"00_setup": (2, 2), "01_loop_by_hand": (0, 4), "02_agent_loop": (6, 25), "03_tool_use": (0, 15),
           "04_sandbox": (0, 6), "05_your_own_tool": (0, 0), "99_appendix": (5, 5)}  # fmt: skip


def test_auto_with_a_key_offers_the_instructor_tools_wherever_the_library_loop_runs(tmp_path):
    from agentlib.offline.extras.server import serve_in_thread

    server = serve_in_thread()  # stands in for the real API: same HTTP, any key accepted
    host, port = server.server_address[:2]
    env = instructor_env(
        tmp_path / "tools.log",
        ANTHROPIC_API_KEY=FAKE_KEY,
        ANTHROPIC_BASE_URL=f"http://{host}:{port}",
        MODEL_ID="agentlib-offline",
    )
    parameters = {"BACKEND": "auto", "EXTRA_TOOLS": EXTRA_TOOLS}
    offered: list[list[str]] = []  # per request, the tools it offers (the server keeps only 8)
    answer = server.simulator.handle

    def recording(method, path, body, headers=None, **where):
        if path.startswith("/v1/messages") and not path.endswith("count_tokens"):
            offered.append([t.get("name") for t in json.loads(body).get("tools", [])])
        return answer(method, path, body, headers, **where)

    server.simulator.handle = recording
    measured = {}
    try:
        for path in NOTEBOOKS:  # cwd: no .env of this checkout may redirect the run
            run = run_notebook(path, parameters, env=env, live=True, cwd=tmp_path)
            assert run.ok, run.report()
            assert f"using http://{host}:{port} with model agentlib-offline" in run.text()
            assert "instructor tools shout (EXTRA_TOOLS) are offered wherever" in run.text()
            # the endpoint is the offline model (its replies say so): no SCRIPT, no call of shout
            assert "offline without SCRIPT nothing will call shout" in run.text()
            with_tools = [names for names in offered if names]
            measured[path.stem] = (sum("shout" in n for n in with_tools), len(with_tools))
            offered.clear()
    finally:
        server.shutdown()
    assert measured == OFFERED


def test_testbook_sees_the_instructor_tools_from_the_environment(tmp_path, monkeypatch):
    testbook = pytest.importorskip("testbook", reason="testbook comes with the test extra").testbook
    log = tmp_path / "tools.log"
    for name in [k for k in os.environ if k.startswith(("ANTHROPIC_", "AGENTLIB_"))]:
        monkeypatch.delenv(name)
    env = instructor_env(log, AGENTLIB_EXTRA_TOOLS=EXTRA_TOOLS, AGENTLIB_SCRIPT=SCRIPT)
    for name, value in env.items():
        monkeypatch.setenv(name, value)  # the kernel testbook starts inherits this environment
    with testbook(str(NOTEBOOKS[0]), execute=True, timeout=300) as tb:
        assert tb.ref("course.tools(agentlib.Toolbox()).names") == ["shout"]
    assert events_by_kernel(log) == [USED]
