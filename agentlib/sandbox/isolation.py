"""OS isolation for the bash tool: bubblewrap where it works, else unshare's PID namespace, else none."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from ..errors import ConfigError
from .hardening import no_new_privileges

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
SANDBOX_ID = 1000  # the uid and gid a root caller's commands get inside their user namespace
MODES = ("bwrap", "unshare", "none")  # strongest first; "auto" takes the first that works
_warned = False


def child_env(isolated: bool) -> dict[str, str]:
    """The environment a command gets: the allowlist only, never an ``ANTHROPIC_*`` value."""
    env = {k: v for k, v in os.environ.items() if k in ENV_ALLOWLIST}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("LANG", "C.UTF-8")
    if isolated:
        env["PATH"] = ":".join(
            [f"{p}/bin" for p in _python_prefixes()] + ["/usr/local/bin", "/usr/bin", "/bin"]
        )
        env["HOME"] = env["TMPDIR"] = "/tmp"
    return env


def _outside_usr(path: str) -> bool:
    return not Path(path).resolve().is_relative_to("/usr")


def inner_ids() -> tuple[int, int]:
    """The uid and gid a command has inside its namespace: yours, or SANDBOX_ID instead of root's 0."""
    uid, gid = os.getuid(), os.getgid()
    return (uid or SANDBOX_ID), (gid if uid else SANDBOX_ID)


@functools.lru_cache(maxsize=1)
def bwrap_options() -> frozenset[str]:
    """The options the installed bwrap lists in its help (``--disable-userns`` and ``--size`` are recent)."""
    try:
        done = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(w for w in (done.stdout + done.stderr).split() if w.startswith("--"))


def bwrap_argv(
    workdir: Path,
    env: dict[str, str],
    argv: list[str],
    tmp_bytes: int,
    filter_fd: int | None = None,
) -> list[str]:
    """The bubblewrap command line: no capabilities, your uid (never 0), read-only system, small /tmp.

    ``filter_fd`` is a pipe holding the seccomp filter that bwrap loads before the command runs.
    """
    uid, gid = inner_ids()
    options = bwrap_options()
    args = ["bwrap", "--die-with-parent", "--new-session", "--unshare-user"]
    # root outside must not be root inside: bwrap would keep nearly every capability
    args += ["--uid", str(uid), "--gid", str(gid), "--cap-drop", "ALL"]
    if "--disable-userns" in options:  # no nested namespace in which to become root again
        args.append("--disable-userns")
    args += [
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
    # read-only /proc: the command's uid is root's on the host, and sysctls trust the owner bit
    args += ["--proc", "/proc", "--remount-ro", "/proc", "--dev", "/dev"]
    # every writable memory-backed folder is sized; the others (/, /dev, /etc ...) go read-only
    for folder in ("/tmp", "/dev/shm"):
        args += ["--size", str(tmp_bytes)] if "--size" in options else []
        args += ["--tmpfs", folder]
    for prefix in _python_prefixes():  # so `python` in the sandbox is the course's interpreter
        args += ["--ro-bind", prefix, prefix]
    args += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    if filter_fd is not None:
        args += ["--seccomp", str(filter_fd)]
    return [*args, "--", *argv]


def _python_prefixes() -> list[str]:
    """sys.prefix and base_prefix outside /usr that this user can enter (root's ~ is closed to others)."""
    prefixes = dict.fromkeys((sys.prefix, sys.base_prefix))
    return [p for p in prefixes if _outside_usr(p) and os.access(p, os.R_OK | os.X_OK)]


def unshare_argv(argv: list[str]) -> list[str]:
    """util-linux unshare: own user and PID namespaces and /proc, so host processes are out of sight.

    Two user namespaces: the outer one allows a single user namespace below it, the command's, so
    none can be made inside (as root it would own root's files on the host with every capability).
    """
    uid, gid = inner_ids()
    inner = ["unshare", "--user", f"--map-user={uid}", f"--map-group={gid}", "--", *argv]
    limit = 'echo 1 > /proc/sys/user/max_user_namespaces || exit 125; exec "$@"'
    return [
        "unshare",
        "--user",
        "--map-root-user",
        "--pid",
        "--fork",
        "--mount-proc",
        "--kill-child",
        "--",
        "/bin/sh",
        "-c",
        limit,
        "sh",
        *inner,
    ]


def probe(mode: str = "bwrap") -> tuple[bool, str]:
    """Try ``mode`` ("bwrap" or "unshare") once per process and user: (works, reason it does not)."""
    return _probe(mode, os.geteuid())


@functools.lru_cache(maxsize=8)
def _probe(mode: str, euid: int) -> tuple[bool, str]:
    if not sys.platform.startswith("linux"):
        return False, f"{mode} is Linux-only (this is {sys.platform})"
    if shutil.which(mode) is None:
        package = "bubblewrap" if mode == "bwrap" else "util-linux"
        return False, f"{mode} is not installed (Debian/Ubuntu: apt-get install {package})"
    with tempfile.TemporaryDirectory() as tmp:
        command = ["/bin/sh", "-c", "true"]
        if mode == "bwrap":
            argv = bwrap_argv(Path(tmp), child_env(True), command, 1 << 20)
        else:
            argv = unshare_argv(command)
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                timeout=20,
                stdin=subprocess.DEVNULL,
                preexec_fn=no_new_privileges,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"{mode} could not start: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip() or f"exit code {done.returncode}"
        return False, f"{mode} does not work here ({why})"
    return True, ""


# what each fallback leaves open, said in the "auto" warning (the README's table measures it)
_WHAT_HOLDS = {
    "unshare": "its own PID namespace hides your other processes, but it can read and write any "
    "file you can (the project's .env included) and reach the network",
    "none": "it can read the environment of your other processes (the shell that started "
    "Python, with any key exported there) and trace them (ptrace), read any file you can (the "
    "project's .env included), and reach the network",
    # root's command keeps uid 0: no capabilities, but the owner of every root-owned file
    "none-root": "it runs as uid 0 without capabilities, so it can read and write every "
    "root-owned file (the project's .env included), and reach the network",
}


# measured: a command of root's writes its pid into the parent cgroup's cgroup.procs (root owns it)
_ROOT_WITHOUT_BWRAP = (
    "and as root it can move itself out of its cgroup, so Limits.processes and the whole call's "
    "memory bound do not hold, and what it moved out outlives the call"
)


def choose(requested: str) -> str:
    """The active isolation for ``requested`` ("auto" or a mode); "auto" warns once when it falls back."""
    global _warned
    if requested == "none":
        return "none"
    if requested != "auto":
        works, why = probe(requested)
        if not works:
            raise ConfigError(
                f"isolation={requested!r} was requested but {why}; use isolation='auto' or 'none'"
            )
        return requested
    reasons = []
    for mode in MODES[:-1]:
        works, why = probe(mode)
        if works:
            break
        reasons.append(why)
    else:
        mode = "none"
    if mode != "bwrap" and not _warned:
        _warned = True
        root = os.geteuid() == 0
        what = _WHAT_HOLDS[f"{mode}-root" if root and mode == "none" else mode]
        message = f"bash runs without bubblewrap ({reasons[0]}): {what}"
        if root:
            message += f"; {_ROOT_WITHOUT_BWRAP}"
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    return mode
