"""Attacks on the workspace, run for real: traversal corpus, check-then-open race, links, odd files, isolation."""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import os
import socket
import stat
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from agentlib.errors import PathEscapeError, ToolError
from agentlib.sandbox import files, isolation
from agentlib.sandbox.workspace import Workspace
from agentlib.seed import seed_safe_path

SECRET = "TOP-SECRET-" + uuid.uuid4().hex
HAS_BWRAP, NO_BWRAP_REASON = isolation.probe()
needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason=f"no bubblewrap sandbox: {NO_BWRAP_REASON}")
needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc needed")


@pytest.fixture(params=["openat2", "walk"])
def file_layer(request, monkeypatch):
    """Run the attack on both ways of opening: the kernel's openat2, and the O_NOFOLLOW walk
    that older kernels, containers that filter openat2, and macOS use."""
    if request.param == "openat2" and files.METHOD != "openat2":
        pytest.skip(f"openat2 is not available here (using the {files.METHOD})")
    if request.param == "walk":
        monkeypatch.setattr(files, "_openat2", None)  # as on a kernel without openat2
    return request.param


@pytest.fixture
def site(tmp_path, file_layer):
    """A workspace next to an outside folder holding a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    ws = Workspace(tmp_path / "ws", isolation="none")
    return ws, outside


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file()
        else ""
        for p in sorted(folder.rglob("*"))
    }


def _finishes(fn, seconds: float = 10.0):
    """Run ``fn`` in a thread; return (finished, result or exception) so a hang fails the test."""
    box = []
    worker = threading.Thread(target=lambda: box.append(_outcome(fn)), daemon=True)
    worker.start()
    worker.join(seconds)
    return (not worker.is_alive()), (box[0] if box else None)


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the test inspects whatever came out
        return exc


# -- the traversal corpus ----------------------------------------------------------------------
def traversal_corpus(outside: Path) -> list[str]:
    """At least 20,000 path payloads: depths, '..' spellings, absolute paths, separators, ~, NUL, long names."""
    ups = [
        "..",
        "../",
        "..\\",
        "..//",
        "./..",
        "...",
        "....//",
        "%2e%2e",
        "%2e%2e%2f",
        "..%2f",
        "..;",
        "..\x00",
        ". .",
        "\u2025",
        "..\u2215",
        "~",
        "~root",
        "$HOME",
        ".",
        "",
    ]
    seps = ["/", "//", "/./", "\\", "/ "]
    targets = [
        "secret.txt",
        "outside/secret.txt",
        "etc/passwd",
        "link_out/secret.txt",
        "link_rel/secret.txt",
        "hard.txt",
        "sub/../../outside/secret.txt",
        "new_file.txt",
    ]
    starts = ["", "sub/", "./", "link_out/", "a" * 300 + "/", "sub/sub2/"]
    payloads = {
        start + sep.join([up] * depth) + sep + target
        for start, up, sep, target, depth in itertools.product(
            starts, ups, seps, targets, (1, 2, 3, 6, 12)
        )
    }
    payloads |= {
        str(outside / "secret.txt"),
        str(outside),
        "/etc/passwd",
        "/proc/self/environ",
        "~/.bashrc",
        "a\x00b",
        "x" * 5000,
        "a/" * 2500,
        "/" * 5000,
        "",
        ".",
        "..",
        "link_out",
        "link_root/etc/passwd",
        "link_loop",
        "file://etc/passwd",
    }
    return sorted(payloads)


def test_traversal_corpus_never_escapes_through_any_file_tool(site, file_layer):
    ws, outside = site
    (ws.root / "sub/sub2").mkdir(parents=True)
    (ws.root / "sub/inside.txt").write_text("inside")
    os.symlink(outside, ws.root / "link_out")
    os.symlink("../outside", ws.root / "link_rel")
    os.symlink("/", ws.root / "link_root")
    os.symlink("link_loop", ws.root / "link_loop")
    (outside / "hard_target.txt").write_text(SECRET)
    os.link(outside / "hard_target.txt", ws.root / "hard.txt")
    before = _snapshot(outside.parent / "outside")
    neighbours = set(os.listdir(outside.parent))
    payloads = traversal_corpus(outside)
    assert len(payloads) >= 20_000
    if file_layer == "walk" and files.METHOD == "openat2":
        payloads = payloads[::3]  # the full corpus already ran through openat2; keep the run short

    escapes, uncaught = [], []
    for p in payloads:
        for name, call in (
            ("safe_path", lambda p=p: ws.safe_path(p)),
            ("read_file", lambda p=p: ws.read_file(p)),
            ("write_file", lambda p=p: ws.write_file(p, "written")),
            ("edit_file", lambda p=p: ws.edit_file(p, "TOP-SECRET", "PWNED")),
            ("glob", lambda p=p: ws.glob(p)),
        ):
            try:
                result = call()
            except ToolError:
                continue
            except Exception as exc:  # noqa: BLE001 - counting every uncaught kind
                uncaught.append((name, p[:80], repr(exc)[:120]))
                continue
            if name == "safe_path" and not result.is_relative_to(ws.root):
                escapes.append((name, p))
            if SECRET in str(result) or "root:x:0:0" in str(result):
                escapes.append((name, p))
            lines = str(result).splitlines() if name == "glob" else []
            if any(ln.startswith("/") or ".." in ln.split("/") for ln in lines):
                escapes.append((name, p))
    assert uncaught == []
    assert escapes == []
    assert _snapshot(outside) == before
    assert set(os.listdir(outside.parent)) == neighbours
    assert (outside / "hard_target.txt").read_text() == SECRET


# -- the check-then-open race ------------------------------------------------------------------
SWAPPER = """
import os, sys
os.chdir(sys.argv[1])
while True:  # the checked directory and a symlink out trade places, as fast as possible
    os.rename("d", "d_real"); os.rename("d_link", "d")
    os.rename("d", "d_link"); os.rename("d_real", "d")
"""


@pytest.fixture
def swapper(site):
    ws, outside = site
    (ws.root / "d").mkdir()
    (ws.root / "d/f.txt").write_text("harmless")
    (outside / "f.txt").write_text(SECRET)
    os.symlink(outside, ws.root / "d_link")
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(ws.root)])
    yield ws, outside
    proc.kill()
    proc.wait()


def test_race_seed_safe_path_leaks_and_workspace_does_not(swapper):
    ws, outside = swapper
    seed_leaks = 0
    for _ in range(100_000):  # the seed side stops at the first leak: it shows the attack is real
        try:
            seed_leaks += SECRET in seed_safe_path(ws.root, "d/f.txt").read_text()
        except (OSError, ValueError):
            pass
        if seed_leaks:
            break
    assert seed_leaks >= 1

    leaks, served, refusals = 0, 0, set()
    for i in range(20_000):
        try:
            text = ws.read_file("d/f.txt")
        except ToolError as exc:
            refusals.add(str(exc))
            continue
        served += 1
        leaks += SECRET in text
        if i % 10 == 0:
            try:
                ws.write_file("d/new.txt", "written")
                ws.edit_file("d/f.txt", "harmless", "harmless")
            except ToolError:
                pass
    assert leaks == 0
    assert served > 0  # the race did not simply refuse everything
    # a lost race is explained in words, never as a bare errno text such as "Invalid argument"
    raw = {os.strerror(e) for e in (errno.EINVAL, errno.EAGAIN)}
    assert [m for m in refusals if any(r in m for r in raw)] == []
    assert (outside / "f.txt").read_text() == SECRET
    assert not (outside / "new.txt").exists()


# -- links made by bash ------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_symlinks_made_by_bash_are_refused_by_every_file_tool(site, mode):
    ws, outside = site
    ws = Workspace(ws.root, isolation=mode)
    before = _snapshot(outside)
    ws.bash(
        f"ln -s {outside} link && ln -s {outside}/secret.txt filelink && "
        "ln -s ../outside rel && ln -s / rootlink"
    )
    for path in ["link/secret.txt", "filelink", "rel/secret.txt", "rootlink/etc/passwd"]:
        for call in (
            lambda p=path: ws.read_file(p),
            lambda p=path: ws.write_file(p, "pwned"),
            lambda p=path: ws.edit_file(p, "TOP", "PWNED"),
        ):
            with pytest.raises(PathEscapeError):
                call()
    for pattern in ["link/*", "rel/*", "rootlink/*"]:
        with pytest.raises(PathEscapeError):
            ws.glob(pattern)
    listing = ws.glob("**/*").splitlines()
    assert sorted(listing) == ["filelink", "link/", "rel/", "rootlink/"]
    assert _snapshot(outside) == before


def test_hard_link_to_an_outside_file_is_never_written_through(site):
    ws, outside = site
    target = outside / "target.txt"
    target.write_text("original")
    os.link(target, ws.root / "hard.txt")
    with pytest.raises(PathEscapeError, match="2 hard links"):
        ws.read_file("hard.txt")
    with pytest.raises(PathEscapeError):
        ws.edit_file("hard.txt", "original", "pwned")
    assert target.read_text() == "original"
    assert ws.write_file("hard.txt", "new") == "Wrote 3 bytes to hard.txt"
    assert target.read_text() == "original"
    assert (ws.root / "hard.txt").read_text() == "new"
    assert ws.edit_file("hard.txt", "new", "newer") == "Edited hard.txt"  # now its own file
    assert target.read_text() == "original"


def test_links_that_stay_inside_are_followed(site):
    ws, _ = site
    ws.write_file("sub/inside.txt", "inside")
    os.symlink("sub", ws.root / "alias")
    (ws.root / "x").mkdir()
    os.symlink("../sub/inside.txt", ws.root / "x/link")
    assert ws.read_file("alias/inside.txt") == "inside"
    assert ws.read_file("x/../alias/./inside.txt") == "inside"
    assert ws.read_file("x/link") == "inside"
    ws.write_file("alias/new.txt", "new")
    assert (ws.root / "sub/new.txt").read_text() == "new"
    ws.edit_file("x/link", "inside", "changed")
    assert (ws.root / "sub/inside.txt").read_text() == "changed"
    assert (ws.root / "x/link").is_symlink()


# -- odd files ---------------------------------------------------------------------------------
def _make_odd(root: Path, kind: str) -> str:
    if kind == "fifo":
        os.mkfifo(root / "pipe")
        return "pipe"
    if kind == "device":
        try:
            os.mknod(root / "zero", stat.S_IFCHR | 0o666, os.makedev(1, 5))
        except PermissionError:
            pytest.skip("creating a device node needs CAP_MKNOD")
        return "zero"
    if kind == "loop":
        os.symlink("loop_b", root / "loop_a")
        os.symlink("loop_a", root / "loop_b")
        return "loop_a"
    if kind == "long-name":
        return "a" * 5000
    return "a/" * 2500 + "f"


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("fifo", "FIFO"),
        ("device", "character device"),
        ("loop", "loop"),
        ("long-name", "too long"),
        ("long-path", "too long"),
    ],
)
def test_odd_files_give_a_clear_error_instead_of_hanging(site, kind, reason):
    ws, _ = site
    path = _make_odd(ws.root, kind)
    calls = [lambda: ws.read_file(path), lambda: ws.edit_file(path, "a", "b")]
    if kind not in ("long-name", "long-path"):
        calls.append(lambda: ws.write_file(path, "x"))
    for call in calls:
        finished, outcome = _finishes(call)
        assert finished, f"{kind}: the call hung"
        assert isinstance(outcome, ToolError), repr(outcome)
        assert reason in str(outcome) and path[:50] in str(outcome)


# -- secrets in /proc --------------------------------------------------------------------------
AGENT = r"""
import json, subprocess, sys
from agentlib.sandbox.workspace import Workspace
walk = ('p=$PPID; for i in 1 2 3 4 5 6 7 8; do cat /proc/$p/environ 2>&1 | tr "\\0" "\\n"; '
        'p=$(awk "/^PPid/{print \$2}" /proc/$p/status 2>/dev/null); [ -z "$p" ] && break; '
        '[ "$p" = 0 ] && break; done; env')
seed = subprocess.run(walk, shell=True, cwd=sys.argv[1], env={"PATH": "/usr/bin:/bin"},
                      capture_output=True, text=True).stdout
ws = Workspace(sys.argv[1], isolation=sys.argv[2])
print(json.dumps({"seed": seed, "workspace": ws.bash(walk), "isolation": ws.isolation}))
"""


@needs_linux
@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_commands_cannot_read_the_agents_api_key_from_proc(tmp_path, mode):
    fake = "sk-ant-fake-" + uuid.uuid4().hex
    env = {**os.environ, "ANTHROPIC_API_KEY": fake}
    done = subprocess.run(
        [sys.executable, "-c", AGENT, str(tmp_path), mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["isolation"] == mode
    assert fake in result["seed"]  # the attack is real: a clean env alone does not protect
    assert fake not in result["workspace"]
    assert "ANTHROPIC" not in result["workspace"]


# -- under bubblewrap --------------------------------------------------------------------------
@pytest.fixture
def boxed(site):
    ws, outside = site
    return Workspace(ws.root, isolation="bwrap"), outside


@needs_bwrap
def test_isolated_bash_cannot_write_outside_but_can_write_the_workspace(boxed):
    ws, outside = boxed
    mark = f"hostmark-{uuid.uuid4().hex}"
    out = ws.bash(
        f"echo x > {outside}/new.txt; touch /tmp/{mark}; touch /usr/{mark}; "
        f"echo y > {ws.root.parent}/{mark}; echo inside > made.txt"
    )
    assert (
        f"{outside}/new.txt: No such file or directory" in out
    )  # the host's folders are not there
    assert "Read-only file system" in out
    assert not (outside / "new.txt").exists()
    assert not Path("/tmp", mark).exists()
    assert not Path("/usr", mark).exists()
    assert not (ws.root.parent / mark).exists()
    assert (ws.root / "made.txt").read_text() == "inside\n"


@needs_bwrap
def test_isolated_bash_cannot_reach_the_network(boxed):
    ws, _ = boxed
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        port = server.getsockname()[1]
        probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 3)\""
        assert "exit code 1" in ws.bash(probe)
        with pytest.raises(BlockingIOError):
            server.accept()
        plain = Workspace(ws.root, isolation="none")
        assert plain.bash(probe) == "(no output)"  # the same probe works unisolated


@needs_bwrap
def test_isolated_bash_cannot_signal_a_host_process(boxed):
    ws, _ = boxed
    victim = subprocess.Popen(["sleep", "60"])
    try:
        assert Workspace(ws.root, isolation="none").bash(f"kill -0 {victim.pid}") == "(no output)"
        assert "exit code 1" in ws.bash(f"kill -9 {victim.pid}")
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()


@needs_bwrap
def test_isolated_bash_sees_a_minimal_system(boxed):
    ws, _ = boxed
    assert "exit code" in ws.bash("cat /etc/shadow")
    assert "exit code" in ws.bash("ls /root /home /work")
    assert ws.bash("echo $HOME; hostname") == "/tmp\nsandbox"
