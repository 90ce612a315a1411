"""OS isolation for the bash tool: a bubblewrap sandbox where it works, process hardening everywhere."""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from ..errors import ConfigError

# passed through to commands; everything else (API keys above all) stays behind
ENV_ALLOWLIST = (
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "TZ",
    "USER",
    "LOGNAME",
    "SHELL",
    "TMPDIR",
)
_SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# the parts of /etc that ordinary tools need; no shadow files, keys or host configuration
_ETC_ENTRIES = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "localtime",
    "mime.types",
    "bash.bashrc",
    "profile",
    "inputrc",
    "python3",
    f"python{sys.version_info[0]}.{sys.version_info[1]}",
)
_PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS, _PR_CAP_AMBIENT = 4, 24, 38, 47
_warned = False


def child_env(isolated: bool) -> dict[str, str]:
    """The environment a command gets: the allowlist only, never an ``ANTHROPIC_*`` value."""
    env = {k: v for k, v in os.environ.items() if k in ENV_ALLOWLIST}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("LANG", "C.UTF-8")
    if isolated:
        prefixes = [p for p in dict.fromkeys((sys.prefix, sys.base_prefix)) if _outside_usr(p)]
        env["PATH"] = ":".join(
            [f"{p}/bin" for p in prefixes] + ["/usr/local/bin", "/usr/bin", "/bin"]
        )
        env["HOME"] = env["TMPDIR"] = "/tmp"
    return env


def _outside_usr(path: str) -> bool:
    return not Path(path).resolve().is_relative_to("/usr")


def bwrap_argv(workdir: Path, env: dict[str, str], argv: list[str]) -> list[str]:
    """The bubblewrap command line: read-only system, private /tmp, only ``workdir`` writable."""
    args = [
        "bwrap",
        "--die-with-parent",
        "--new-session",
        "--unshare-user-try",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "sandbox",
        "--clearenv",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for top in _SYSTEM_DIRS:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for name in _ETC_ENTRIES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        if _outside_usr(prefix):  # so `python` in the sandbox is the course's interpreter
            args += ["--ro-bind-try", prefix, prefix]
    args += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return [*args, "--", *argv]


@functools.lru_cache(maxsize=1)
def probe() -> tuple[bool, str]:
    """Try bubblewrap once per process: (works, reason it does not)."""
    if not sys.platform.startswith("linux"):
        return False, f"bubblewrap is Linux-only (this is {sys.platform})"
    if shutil.which("bwrap") is None:
        return False, "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    with tempfile.TemporaryDirectory() as tmp:
        argv = bwrap_argv(Path(tmp), child_env(True), ["/bin/sh", "-c", "true"])
        try:
            done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"bubblewrap could not start: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip() or f"exit code {done.returncode}"
        return False, f"bubblewrap does not work here ({why})"
    return True, ""


def choose(requested: str) -> str:
    """Pick the active isolation for ``requested`` ("auto" or "bwrap"): "bwrap" or "none"."""
    global _warned
    works, why = probe()
    if works:
        return "bwrap"
    if requested == "bwrap":
        raise ConfigError(
            f"isolation='bwrap' was requested but {why}; use isolation='auto' or 'none'"
        )
    if not _warned:
        _warned = True
        warnings.warn(f"bash runs without OS isolation: {why}", RuntimeWarning, stacklevel=3)
    return "none"


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc() if sys.platform.startswith("linux") else None


@functools.lru_cache(maxsize=1)
def make_non_dumpable() -> bool:
    """Mark this process non-dumpable so same-user children cannot read /proc/<pid>/environ.

    It applies to the whole Python process for the rest of its life: no core dumps, and
    debuggers attaching by pid need CAP_SYS_PTRACE. Commands it starts are unaffected.
    """
    if _LIBC is None:
        return False
    return _LIBC.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _last_cap() -> int:
    try:
        return int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    except (OSError, ValueError):
        return 40


_LAST_CAP = _last_cap() if _LIBC is not None else 0


def drop_privileges() -> None:
    """Run in the child before exec: no new privileges, and root loses every capability.

    Without CAP_SYS_PTRACE even a root command cannot read a non-dumpable parent's environ.
    """
    if _LIBC is None:
        return
    _LIBC.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if os.geteuid() != 0:
        return
    for cap in range(_LAST_CAP + 1):
        _LIBC.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    _LIBC.prctl(_PR_CAP_AMBIENT, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    if _LIBC.capset(ctypes.byref(header), data) != 0:
        os._exit(126)  # never run a command with privileges we meant to drop
