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
import sysconfig
import tempfile
import threading
import tracemalloc
import uuid
from pathlib import Path

import pytest

from agentlib.errors import PathEscapeError, ToolError
from agentlib.sandbox import files, isolation, remove_tree, seccomp, tree
from agentlib.sandbox.limits import CallCgroup, Limits
from agentlib.sandbox.workspace import Workspace
from agentlib.seed import seed_safe_path

SECRET = "TOP-SECRET-" + uuid.uuid4().hex
HAS_BWRAP, NO_BWRAP_REASON = isolation.probe()
needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason=f"no bubblewrap sandbox: {NO_BWRAP_REASON}")
needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc needed")
NOBODY = 65534
needs_unshare = pytest.mark.skipif(
    not isolation.probe("unshare")[0], reason=f"no unshare: {isolation.probe('unshare')[1]}"
)
ALL_MODES = [
    "none",
    pytest.param("unshare", marks=needs_unshare),
    pytest.param("bwrap", marks=needs_bwrap),
]


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
        assert reason in str(outcome) and path[:40] in str(outcome)  # named, maybe clipped


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
@pytest.mark.parametrize("mode", ALL_MODES)
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


# -- as root and as a normal user: the same guarantees -----------------------------------------
@pytest.fixture(params=["root", "user"])
def caller(request):
    """Who runs the agent: root (Docker, Colab, CI), or a normal user (``nobody`` when we are root)."""
    if request.param == "root" and os.geteuid() != 0:
        pytest.skip("needs root: run the suite as root (CI does) to try the attacks as root")
    return request.param


@pytest.fixture
def home(caller):
    """A folder the caller owns and can reach (pytest's tmp_path is closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="agentlib-attack-"))
    os.chmod(folder, 0o755)
    if caller == "user" and os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    yield folder
    remove_tree(folder)


def run_as(caller: str, fn, *args):
    """Call ``fn(*args)`` as the caller: here, or in a child that became ``nobody``."""
    if caller == "root" or os.geteuid() != 0:
        return fn(*args)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: give up root for good, then attack
        code = 0
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = {"value": fn(*args)}
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails
            result, code = {"error": repr(exc)}, 1
        with os.fdopen(write_end, "w") as pipe:
            json.dump(result, pipe)
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        result = json.loads(pipe.read() or '{"error": "the child died"}')
    os.waitpid(pid, 0)
    assert "error" not in result, result["error"]
    return result["value"]


def _bash(root: str, mode: str, command: str, limits: dict | None = None) -> str:
    ws = Workspace(root, isolation=mode, limits=Limits(**(limits or {})))
    try:
        return ws.bash(command)
    except ToolError as exc:
        return f"ToolError: {exc}"


@needs_bwrap
def test_bwrap_command_has_no_capabilities_and_is_not_root(caller, home):
    out = run_as(
        caller,
        _bash,
        str(home),
        "bwrap",
        "id -u; grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status",
    )
    uid, *status = out.splitlines()
    assert uid != "0"
    assert [line.split()[1] for line in status] == ["0000000000000000", "0000000000000000", "1"]


@needs_bwrap
def test_bwrap_read_only_binds_stay_read_only_even_for_root(caller, home):
    site = sysconfig.get_paths()["purelib"]
    mark = f"agentlib-{uuid.uuid4().hex}"
    for attack in [
        "mount -o remount,rw /usr",
        "mount -o remount,bind,rw /usr",
        f"mount -o remount,bind,rw {sys.prefix}",
        f"touch /usr/{mark}",
        f"echo 'import os' > {site}/{mark}.pth",
        "mount -t tmpfs none /usr/local",
        # the same value written back: harmless if it ever got through, and a sysctl it would
        # reach is global (kernel.core_pattern would run any program as full root)
        "v=$(cat /proc/sys/kernel/core_uses_pid) && echo $v > /proc/sys/kernel/core_uses_pid",
    ]:
        out = run_as(caller, _bash, str(home), "bwrap", attack)
        assert "[exit code" in out, f"{attack!r} worked: {out}"
    assert not Path("/usr", mark).exists()
    assert not Path(site, f"{mark}.pth").exists()


@needs_bwrap
@pytest.mark.skipif(
    "--disable-userns" not in isolation.bwrap_options(), reason="bwrap too old for --disable-userns"
)
def test_bwrap_denies_nested_user_namespaces(caller, home):
    out = run_as(caller, _bash, str(home), "bwrap", "unshare --user --map-root-user id -u")
    assert "unshare failed" in out and "[exit code 1]" in out


def _cgroup_works() -> bool:
    cgroup = CallCgroup.create(Limits())
    if cgroup is not None:
        cgroup.remove()
    return cgroup is not None


def _needs_a_process_bound(caller):
    if caller == "root" and not _cgroup_works():
        pytest.skip("root without a writable cgroup: the kernel exempts uid 0 from RLIMIT_NPROC")


@pytest.mark.parametrize(
    "mode",
    [
        "none",
        pytest.param("unshare", marks=needs_unshare),
        pytest.param("bwrap", marks=needs_bwrap),
    ],
)
def test_a_fork_bomb_ends_with_the_call_and_names_the_bound(caller, home, mode):
    _needs_a_process_bound(caller)
    bomb = "bomb() { bomb | bomb & }; bomb; sleep 1; echo still-here"
    out = run_as(caller, _bash, str(home), mode, bomb, {"processes": 48, "bash_seconds": 30})
    assert "process bound hit: at most 48 processes" in out
    assert "Limits.processes" in out
    assert _bash(str(home), "none", "echo fine") == "fine"  # the machine still forks


@pytest.mark.parametrize(
    "mode",
    [
        "none",
        pytest.param("unshare", marks=needs_unshare),
        pytest.param("bwrap", marks=needs_bwrap),
    ],
)
def test_a_command_cannot_allocate_past_the_memory_bound(caller, home, mode):
    grab = "python3 -c 'x = bytearray(600 << 20); print(len(x))'"
    out = run_as(caller, _bash, str(home), mode, grab, {"memory_bytes": 256 << 20})
    assert "MemoryError" in out
    assert "memory bound hit: each process may use 256 MB (RLIMIT_AS)" in out


@pytest.mark.skipif(
    not _cgroup_works(), reason="no writable cgroup here (needs root or a delegated cgroup v2)"
)
def test_children_together_cannot_pass_the_memory_bound(tmp_path):
    # each child stays under the per-process bound; the cgroup holds them all together
    grab = "for i in 1 2 3 4; do python3 -c \"x = 'x' * (200 << 20); import time; time.sleep(3)\" & done; wait"
    out = _bash(str(tmp_path), "none", grab, {"memory_bytes": 512 << 20})
    assert "whole call together (cgroup" in out


@needs_bwrap
def test_the_private_tmp_is_bounded(caller, home):
    fill = "head -c 64M /dev/zero > /tmp/fill; stat -c %s /tmp/fill"
    out = run_as(caller, _bash, str(home), "bwrap", fill, {"tmp_bytes": 8 << 20})
    assert "No space left on device" in out
    assert "/tmp and /dev/shm hold 8 MB each (Limits.tmp_bytes)" in out
    assert int(out.splitlines()[1]) <= 8 << 20


def _read_sparse(root: str) -> tuple[str, int]:
    with open(Path(root, "hole.bin"), "wb") as f:
        f.truncate(2 << 30)  # 2 GB that take no disk: a file's size says nothing of its cost
    ws = Workspace(root, isolation="none", limits=Limits(file_bytes=1 << 20))
    tracemalloc.start()
    try:
        text = ws.read_file("hole.bin")
        return text[-120:], tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_read_file_on_a_huge_sparse_file_reads_only_up_to_the_bound(caller, home):
    tail, peak = run_as(caller, _read_sparse, str(home))
    assert "larger than the 1048576-byte read bound (Limits.file_bytes)" in tail
    assert peak < 8 << 20  # a few copies of the 1 MB read, never the 2 GB


def _edit_past_the_bound(root: str) -> dict:
    path = Path(root, "small.txt")
    path.write_text("a\n" * 500_000)  # 1 MB; a 200-fold replace_all would make 200 MB
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    ws = Workspace(root, isolation="none")
    tracemalloc.start()
    try:
        ws.edit_file("small.txt", "a", "b" * 200, replace_all=True)
        error = ""
    except ToolError as exc:
        error = str(exc)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    after = hashlib.sha256(path.read_bytes()).hexdigest()
    return {"error": error, "peak": peak, "same": before == after, "files": os.listdir(root)}


def test_edit_file_that_would_pass_the_bound_is_refused_before_writing(caller, home):
    got = run_as(caller, _edit_past_the_bound, str(home))
    assert got["error"] == (
        "Cannot edit small.txt: the result would be 100500000 bytes, over the 10485760-byte "
        "bound on what a file tool writes (Limits.file_bytes); nothing was changed"
    )
    assert got["same"] and got["files"] == ["small.txt"]  # no temp file left behind
    assert got["peak"] < 16 << 20  # the 200 MB result was never built


def test_write_file_past_the_bound_is_refused_and_writes_nothing(tmp_path):
    ws = Workspace(tmp_path, isolation="none", limits=Limits(file_bytes=1000))
    with pytest.raises(
        ToolError, match=r"1001 bytes, over the 1000-byte bound .*Limits\.file_bytes"
    ):
        ws.write_file("big.txt", "x" * 1001)
    assert os.listdir(tmp_path) == []


def test_glob_with_hundreds_of_stars_over_a_deep_folder_stops_at_its_time_bound(tmp_path):
    deep = tmp_path.joinpath(*["x"] * 200)
    deep.mkdir(parents=True)
    ws = Workspace(tmp_path, isolation="none", limits=Limits(glob_seconds=0.5))
    pattern = "/".join(["**", "x*"] * 300) + "/nothing"
    finished, out = _finishes(lambda: ws.glob(pattern), seconds=60)
    assert finished
    assert "the glob_seconds bound" in out


def test_glob_does_not_descend_past_its_depth_bound(tmp_path):
    tmp_path.joinpath(*["d"] * 40, "deep.txt").parent.mkdir(parents=True)
    tmp_path.joinpath(*["d"] * 40, "deep.txt").write_text("")
    ws = Workspace(tmp_path, isolation="none", limits=Limits(glob_depth=20))
    assert ws.glob("**/deep.txt") == (
        "No files match **/deep.txt\n"
        "(folders deeper than 20 levels, the glob_depth bound, were not searched)"
    )
    deeper = Workspace(tmp_path, isolation="none", limits=Limits(glob_depth=64))
    assert deeper.glob("**/deep.txt") == "/".join(["d"] * 40) + "/deep.txt"


# -- unisolated: what holds, measured ----------------------------------------------------------
def _read_every_environ(root: str, mode: str) -> str:
    scan = (
        "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f 2>/dev/null; done | grep ANTHROPIC"
    )
    return _bash(root, mode, scan)


@pytest.mark.parametrize(
    ("mode", "leaks_as"),
    [
        ("none", {"user"}),  # a normal user's command reads its other processes' environment
        pytest.param("unshare", set(), marks=needs_unshare),
        pytest.param("bwrap", set(), marks=needs_bwrap),
    ],
)
def test_a_key_exported_in_the_launching_shell(caller, home, mode, leaks_as):
    fake = "sk-ant-fake-" + uuid.uuid4().hex
    as_user = {}
    if caller == "user" and os.geteuid() == 0:  # the shell is nobody's too, group included
        as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    shell = subprocess.Popen(
        ["/bin/sh", "-c", "sleep 60"],
        env={"PATH": "/usr/bin:/bin", "ANTHROPIC_API_KEY": fake},
        **as_user,
    )
    try:
        out = run_as(caller, _read_every_environ, str(home), mode)
    finally:
        shell.kill()
        shell.wait()
    assert (fake in out) == (caller in leaks_as), out


@pytest.mark.parametrize(
    ("mode", "readable"),
    [
        ("none", True),
        pytest.param("unshare", True, marks=needs_unshare),
        pytest.param("bwrap", False, marks=needs_bwrap),
    ],
)
def test_the_projects_env_file_outside_the_workspace(caller, home, mode, readable):
    (home / ".env").write_text(f"ANTHROPIC_API_KEY={SECRET}\n")
    if caller == "user" and os.geteuid() == 0:
        os.chown(home / ".env", NOBODY, NOBODY)
    (home / "ws").mkdir()
    if caller == "user" and os.geteuid() == 0:
        os.chown(home / "ws", NOBODY, NOBODY)
    out = run_as(caller, _bash, str(home / "ws"), mode, "cat ../.env")
    assert (SECRET in out) == readable, out


def _survivors(mark: str) -> list[int]:
    """Host processes whose command line carries ``mark``."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            if mark in Path(f"/proc/{name}/cmdline").read_bytes().decode(errors="replace"):
                found.append(int(name))
        except OSError:
            pass
    return found


@needs_linux
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_setsid_child_outlives_the_call_only_unisolated_without_a_cgroup(caller, home, mode):
    seconds = f"300.{uuid.uuid4().int % 10**9}"  # a sleep we can find again by its argument
    run_as(caller, _bash, str(home), mode, f"setsid sleep {seconds} > /dev/null 2>&1 & sleep 0.5")
    left = _survivors(f"sleep\0{seconds}")
    for pid in left:
        os.kill(pid, 9)
    cgroup = caller == "root" and _cgroup_works()  # a user gets no cgroup of its own here
    assert bool(left) == (mode == "none" and not cgroup)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_which_modes_see_and_signal_host_processes(caller, home, mode):
    victim = subprocess.Popen(["sleep", "60"])
    try:
        out = run_as(caller, _bash, str(home), mode, f"kill -0 {victim.pid} && echo seen")
    finally:
        victim.kill()
        victim.wait()
    # unisolated, a command sees every process and signals only its user's: the victim is root's
    # when root runs the suite (nobody may not signal it), the caller's own when a user runs it
    own = caller == "root" or os.geteuid() != 0
    expected = {"none": "seen" if own else "Operation not permitted"}
    assert expected.get(mode, "No such process") in out


@pytest.mark.parametrize("mode", ALL_MODES)
def test_which_modes_write_outside_the_workspace(caller, home, mode):
    (home / "ws").mkdir()
    if caller == "user" and os.geteuid() == 0:
        os.chown(home / "ws", NOBODY, NOBODY)
    run_as(caller, _bash, str(home / "ws"), mode, "echo written > ../outside.txt")
    assert (home / "outside.txt").exists() == (mode != "bwrap")


@pytest.mark.parametrize("mode", ALL_MODES)
def test_which_modes_reach_the_network(home, mode):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 3)\""
        out = _bash(str(home), mode, probe)
    assert (out == "(no output)") == (mode != "bwrap"), out


@pytest.mark.parametrize("mode", ALL_MODES)
def test_who_a_command_runs_as(caller, home, mode):
    out = run_as(
        caller, _bash, str(home), mode, "id -u; grep -E '^(CapEff|NoNewPrivs)' /proc/self/status"
    )
    uid, caps, no_new_privs = out.splitlines()
    mine = "0" if caller == "root" else str(os.geteuid() or NOBODY)
    inside = mine if mode == "none" else (mine if mine != "0" else str(isolation.SANDBOX_ID))
    assert uid == inside  # unisolated root stays uid 0: it still owns every root-owned file
    assert caps.split()[1] == "0000000000000000"
    assert no_new_privs.split()[1] == "1"


# -- what a call leaves behind: privileged files, device nodes, deep trees, the disk -----------
PLANT = {  # every way of setting the bit a command has, and what each prints when refused
    "chmod 4755 prog": "Operation not permitted",
    "chmod g+s prog": "Operation not permitted",
    "python3 -c 'import os; os.chmod(\"prog\", 0o6755)'": "PermissionError",
    "python3 -c 'import os; os.open(\"new\", os.O_CREAT | os.O_WRONLY, 0o4755)'": "PermissionError",
    "python3 -c 'import os; os.open(\".\", os.O_TMPFILE | os.O_WRONLY, 0o4755)'": "PermissionError",
    "python3 -c 'import os, stat; os.mknod(\"node\", stat.S_IFREG | 0o4755)'": "PermissionError",
    "mknod disk b 8 0": "Operation not permitted",
    "mknod mem c 1 1": "Operation not permitted",
}


def _privileged_or_devices(folder: Path) -> list[str]:
    found = []
    for dirpath, _, names in os.walk(folder):
        for name in names:
            mode = os.lstat(Path(dirpath, name)).st_mode
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or mode & (stat.S_ISUID | stat.S_ISGID):
                found.append(f"{name} {stat.filemode(mode)}")
    return found


@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_command_cannot_set_a_setuid_or_setgid_bit_or_make_a_device(caller, home, mode):
    if seccomp.program() is None:
        pytest.skip("no libseccomp here: only the sweep after the call holds")
    (home / "prog").write_bytes(Path("/bin/true").read_bytes())
    (home / "prog").chmod(0o755)
    if caller == "user" and os.geteuid() == 0:
        os.chown(home / "prog", NOBODY, NOBODY)
    for attack, refusal in PLANT.items():
        out = run_as(caller, _bash, str(home), mode, attack)
        assert refusal in out, (attack, out)
    assert _privileged_or_devices(home) == []
    assert run_as(caller, _bash, str(home), mode, "chmod 0700 prog && echo ok") == "ok"
    # the calls whose mode the filter cannot read answer "not implemented" (ENOSYS, 38)
    unreadable = "import ctypes; c = ctypes.CDLL(None, use_errno=True); c.syscall({}, 0, 0, 0, 0)"
    unreadable += "; print(ctypes.get_errno())"
    for number in (425, 437):  # io_uring_setup, openat2: the same on every architecture
        out = run_as(caller, _bash, str(home), mode, f'python3 -c "{unreadable.format(number)}"')
        assert out == "38", out


def _plant_setuid(root: str) -> None:
    """What a learner's own files, or a command the filter missed, could leave: a setuid file
    in a folder its owner cannot read but others can enter (0311)."""
    for rel, mode in (("rootsh", 0o4755), ("gsh", 0o2755), ("hid/den/both", 0o6755)):
        Path(root, rel).parent.mkdir(parents=True, exist_ok=True)
        Path(root, rel).write_bytes(b"#!/bin/sh\n")
        Path(root, rel).chmod(mode)
    Path(root, "hid").chmod(0o311)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_no_setuid_file_is_left_after_a_call(caller, home, mode):
    run_as(caller, _plant_setuid, str(home))
    out = run_as(caller, _bash, str(home), mode, "true")
    assert "setuid/setgid bit removed from 3 file(s)" in out and "hid/den/both" in out
    assert _privileged_or_devices(home) == []
    assert stat.S_IMODE(os.lstat(home / "hid").st_mode) == 0o311  # opened to look, then put back
    assert os.access(home / "rootsh", os.X_OK)  # the program itself is kept


def test_a_hard_link_to_a_setuid_file_is_deleted_not_changed(tmp_path):
    outside = tmp_path / "system"
    outside.mkdir()
    (outside / "su").write_text("#!/bin/sh\n")
    (outside / "su").chmod(0o4755)
    (tmp_path / "ws").mkdir()
    os.link(outside / "su", tmp_path / "ws" / "su")
    out = _bash(str(tmp_path / "ws"), "none", "true")
    assert "deleted su" in out
    assert not (tmp_path / "ws" / "su").exists()
    assert stat.S_IMODE((outside / "su").stat().st_mode) == 0o4755  # the system's copy untouched


def test_a_device_node_in_the_workspace_is_deleted_after_a_call(tmp_path):
    try:
        os.mknod(tmp_path / "disk", stat.S_IFBLK | 0o666, os.makedev(8, 0))
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    out = _bash(str(tmp_path), "none", "true")
    assert "deleted disk: no device node" in out
    assert not (tmp_path / "disk").exists()


def _write_over_setuid(root: str) -> int:
    path = Path(root, "prog")
    path.write_text("#!/bin/sh\n")
    path.chmod(0o6755)
    Workspace(root, isolation="none").write_file("prog", "#!/bin/sh\necho new\n")
    return stat.S_IMODE(path.stat().st_mode)


def test_write_file_over_a_setuid_file_drops_the_bit(caller, home):
    assert run_as(caller, _write_over_setuid, str(home)) == 0o755


@needs_bwrap
def test_every_writable_memory_backed_folder_in_bwrap_is_sized(caller, home):
    fill = "head -c 64M /dev/zero | dd of={} 2>&1 | grep -m1 'No space'; stat -c %s {}"
    attack = "; ".join(fill.format(f, f) for f in ("/dev/shm/fill", "/tmp/fill"))
    attack += "; for f in /x /etc/x /root/x /dev/x; do touch $f; done"
    out = run_as(caller, _bash, str(home), "bwrap", attack, {"tmp_bytes": 8 << 20})
    sizes = [int(line) for line in out.splitlines() if line.isdigit()]
    assert len(sizes) == 2 and max(sizes) <= 8 << 20, out
    assert out.count("cannot touch") == 4 and "Read-only file system" in out, out
    assert "/tmp and /dev/shm hold 8 MB each (Limits.tmp_bytes)" in out
    mounts = run_as(caller, _bash, str(home), "bwrap", "cat /proc/self/mounts").splitlines()
    fields = [m.split() for m in mounts]
    writable = [f for f in fields if f[2] == "tmpfs" and "rw" in f[3].split(",")]
    assert sorted(m[1] for m in writable) == ["/dev/shm", "/tmp"]  # every other tmpfs read-only
    assert all("size=" in m[3] for m in writable), writable


@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_file_a_command_writes_is_held_to_the_disk_bound(caller, home, mode):
    attack = (
        "fallocate -l 64M big; head -c 64M /dev/zero > big2; "
        "python3 -c \"open('big3', 'wb').write(b'x' * (64 << 20))\"; "
        "for f in a b c; do head -c 3M /dev/zero > small_$f; done"
    )
    out = run_as(caller, _bash, str(home), mode, attack, {"disk_bytes": 8 << 20})
    sizes = {p.name: p.stat().st_size for p in home.iterdir()}
    assert max(sizes.values()) <= 8 << 20, sizes
    assert "file size bound hit: no file a command writes may pass 8 MB" in out
    # the total is measured, named, and nothing of the learner's is deleted to meet it
    assert "workspace over its disk bound" in out and "nothing was deleted" in out
    assert {"small_a", "small_b", "small_c"} <= set(sizes)


DEEP = """
import os
for i in range(3000):
    os.mkdir("d"); os.chdir("d"); open("f", "w").close()
for i in range(3000):  # some folders left with no permission at all, on the way back up
    os.chdir("..")
    if i % 700 == 0:
        os.chmod("d", 0)
    elif i % 700 == 350:
        os.chmod("d", 0o500)  # readable, but nothing in it can be deleted
"""


def _deep_tree_then_remove(root: str) -> tuple[str, bool]:
    out = _bash(root, "none", f"python3 -c '{DEEP}'")
    remove_tree(root)
    return out, os.path.exists(root)


def test_a_3000_deep_tree_made_by_a_command_is_swept_and_removed(caller, home):
    out, left = run_as(caller, _deep_tree_then_remove, str(home / "ws"))
    assert out == "(no output)"  # the sweep after the call walked it without an error
    assert not left


def test_remove_tree_on_what_is_not_there_or_a_file(tmp_path):
    remove_tree(tmp_path / "missing")
    (tmp_path / "file").write_text("x")
    remove_tree(tmp_path / "file")
    assert os.listdir(tmp_path) == []


# -- the terminal, the cgroup, other processes: what holds where -------------------------------
TERMINAL_AGENT = r"""
import os, sys
from agentlib.sandbox.workspace import Workspace
own = os.ttyname(0)  # this agent's terminal by its name: only it, never another test's or user's
if sys.argv[3] == "user" and os.geteuid() == 0:  # a login of nobody: its terminal is its own
    os.fchown(0, 65534, -1); os.setgroups([]); os.setgid(65534); os.setuid(65534)
command = f'm=MA; printf "${{m}}RK-tty" > /dev/tty; t={own}; printf "${{m}}RK-pts" > $t'
out = Workspace(sys.argv[1], isolation=sys.argv[2]).bash(command + " 2>/dev/null; true")
print("DONE", out.replace("MARK", "mark"))
"""


def _in_a_terminal(root: Path, mode: str, caller: str) -> str:
    """What reaches the terminal of an agent that runs in one (a pty made here)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", TERMINAL_AGENT, str(root), mode, caller])
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the agent exited
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    os.close(fd)
    return seen.decode(errors="replace")


@needs_linux
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_command_has_no_controlling_terminal(caller, home, mode):
    seen = _in_a_terminal(home, mode, caller)
    assert "DONE" in seen, seen
    assert "MARK-tty" not in seen  # a new session and stdin from /dev/null: /dev/tty is not there
    # the terminal opened by its name is reachable wherever /dev is the host's (the README says so)
    assert ("MARK-pts" in seen) == (mode != "bwrap"), seen


ESCAPE = (
    "echo $$ > /sys/fs/cgroup/pids/cgroup.procs && echo moved; "
    "m=$(awk -F: '$2 == \"memory\" {print $3}' /proc/self/cgroup); "
    "echo $$ > /sys/fs/cgroup/memory${m%/*}/cgroup.procs && echo moved-memory; "
    "for i in $(seq 40); do sleep 3 & done; jobs -p | wc -l; "
    "setsid sleep {seconds} > /dev/null 2>&1 &"
)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_root_leaves_its_cgroup_only_without_bubblewrap(tmp_path, mode):
    v1_pids = "pids" in Path("/proc/self/cgroup").read_text()
    if os.geteuid() != 0 or not _cgroup_works() or not v1_pids:
        pytest.skip("needs root and a cgroup v1 pids hierarchy (a user gets no cgroup to leave)")
    seconds = f"300.{uuid.uuid4().int % 10**9}"
    out = _bash(str(tmp_path), mode, ESCAPE.replace("{seconds}", seconds), {"processes": 16})
    left = _survivors(f"sleep\0{seconds}")
    for pid in left:
        os.kill(pid, 9)
    escaped = mode != "bwrap"  # bwrap: /sys is not there
    assert ("moved" in out.split(), "moved-memory" in out.split()) == (escaped, escaped), out
    assert ("40" in out.splitlines()) == escaped, out  # out of its cgroup, nothing bounds root
    assert bool(left) == (mode == "none"), out  # unshare: the PID namespace still dies
    if escaped:  # and the fallback warning says exactly that
        assert "move itself out of its cgroup" in isolation._ROOT_WITHOUT_BWRAP


TRACE = (
    'python3 -c "import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); '
    "print('attached' if libc.ptrace(16, int(sys.argv[1]), 0, 0) == 0 else 'refused')\" {pid}"
)


@needs_linux
@pytest.mark.parametrize("mode", ALL_MODES)
def test_which_modes_trace_your_other_processes(caller, home, mode):
    as_user = {}
    if caller == "user" and os.geteuid() == 0:
        as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    victim = subprocess.Popen(["sleep", "60"], **as_user)
    try:
        out = run_as(caller, _bash, str(home), mode, TRACE.format(pid=victim.pid))
    finally:
        victim.kill()
        victim.wait()
    # unisolated, a normal user's command may ptrace its other processes (root's lost the right)
    assert ("attached" in out) == (mode == "none" and caller == "user"), out


@needs_linux
def test_the_sweep_and_remove_tree_never_enter_another_file_system(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "mounted"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "none", str(mount)]).returncode:
        pytest.skip("mount -t tmpfs is not allowed here")
    try:
        (mount / "kept").write_text("not ours")
        (mount / "prog").write_text("")
        (mount / "prog").chmod(0o4755)
        with pytest.raises(OSError):  # the mount point itself cannot be removed
            remove_tree(tmp_path)
        assert (mount / "kept").read_text() == "not ours"
        assert tree.sweep(tmp_path).cleared == []  # not walked into
    finally:
        subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_without_the_filter_the_sweep_clears_what_a_command_set(caller, home, mode, monkeypatch):
    monkeypatch.setattr(seccomp, "program", lambda *close: None)  # as where libseccomp is missing
    monkeypatch.setattr(seccomp, "_prepared", lambda *close: None)
    out = run_as(caller, _bash, str(home), mode, "cp /bin/true sh && chmod 4755 sh && ls -l sh")
    assert "-rws" in out  # the bit was set during the call
    assert "setuid/setgid bit removed from 1 file(s) (sh)" in out
    assert _privileged_or_devices(home) == []
