"""Every bound a tool call runs under, in one table; how bash is held to them; what the model reads."""

from __future__ import annotations

import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from .tree import Sweep


@dataclass(frozen=True)
class Limits:
    """The bounds of one tool call; override any of them with ``Workspace(root, limits=Limits(...))``."""

    bash_seconds: float = 120.0  # wall time of a bash call; the whole process tree is killed
    memory_bytes: int = 1 << 30  # each process (RLIMIT_AS); the whole call too where a cgroup works
    processes: int = 256  # processes and threads of one call (pids cgroup, else RLIMIT_NPROC)
    tmp_bytes: int = 256 << 20  # each memory-backed folder under bubblewrap: /tmp and /dev/shm
    disk_bytes: int = 1 << 30  # any one file a command writes (RLIMIT_FSIZE); the workspace's
    # total is measured after each call and named when over it, never enforced by deleting
    output_chars: int = 50_000  # what any tool hands the model (head and tail kept)
    file_bytes: int = 10 << 20  # what read_file reads, and what write_file/edit_file produce
    glob_seconds: float = 10.0  # a glob's search time, checked at every entry
    glob_entries: int = 200_000  # entries a glob may look at
    glob_depth: int = 256  # folder levels a glob descends


DEFAULT_LIMITS = Limits()


def megabytes(n: int) -> str:
    """Bytes as a whole number of MB, for messages."""
    return f"{n / (1 << 20):g} MB"


# -- how bash is held to them, and what the model reads when it hits one -----------------------
def rlimit_preamble(limits: Limits, mode: str) -> str:
    """Shell code that sets the call's rlimits, then runs ``$1`` (inside the namespace, if any)."""
    setup = f"ulimit -v {limits.memory_bytes // 1024} || exit 125; "
    processes = limits.processes
    if mode == "none" and os.getuid() != 0:  # no namespace: NPROC counts all the user's tasks
        processes += _processes_of(os.getuid())  # (root is exempt from NPROC: the cgroup bounds it)
    setup += f"ulimit -u {processes} || exit 125; "
    setup += f"ulimit -f {limits.disk_bytes // 1024} || exit 125; "  # in blocks of 1024 bytes
    return setup + 'exec "$0" -c "$1"'


def _processes_of(uid: int) -> int:
    """How many processes and threads ``uid`` runs now (Linux /proc; 0 where there is none)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    count = 0
    for name in names:
        try:
            if name.isdigit() and os.stat(f"/proc/{name}").st_uid == uid:
                count += len(os.listdir(f"/proc/{name}/task"))
        except OSError:
            pass  # it exited meanwhile
    return count


_MEMORY_SIGNS = (
    "Cannot allocate memory",
    "MemoryError",
    "bad_alloc",
    "xmalloc",
    "out of memory",
    "Could not allocate",  # the JVM reserves its heap and class space up front
    "Could not reserve",
)
_PROCESS_SIGNS = ("fork: retry", "fork: Resource temporarily unavailable", "fork failed")
_FILE_SIZE_SIGNS = ("File size limit exceeded", "File too large")  # SIGXFSZ, or EFBIG if ignored


def named_hits(
    output: str, hits: tuple[bool, bool], limits: Limits, mode: str, cgroup: CallCgroup | None
) -> list[str]:
    """Lines naming each bound the command ran into: the cgroup's counters, else its error text."""
    whole_call = f", and the whole call together ({cgroup.kind})" if cgroup else ""
    found = []
    if hits[0] or any(sign in output for sign in _MEMORY_SIGNS):
        found.append(
            f"\n[memory bound hit: each process may use {megabytes(limits.memory_bytes)} "
            f"(RLIMIT_AS){whole_call}; Limits.memory_bytes]"
        )
    if hits[1] or any(sign in output for sign in _PROCESS_SIGNS):
        how = f"pids limit, {cgroup.kind}" if cgroup else "RLIMIT_NPROC"
        found.append(
            f"\n[process bound hit: at most {limits.processes} processes and threads ({how}); "
            "Limits.processes]"
        )
    if any(sign in output for sign in _FILE_SIZE_SIGNS):
        found.append(
            f"\n[file size bound hit: no file a command writes may pass "
            f"{megabytes(limits.disk_bytes)} (RLIMIT_FSIZE); Limits.disk_bytes]"
        )
    full = [ln for ln in output.splitlines() if "No space left on device" in ln]
    if mode == "bwrap" and any("unshare" not in ln for ln in full):  # unshare: the userns ban
        found.append(
            f"\n[disk full: /tmp and /dev/shm hold {megabytes(limits.tmp_bytes)} each "
            "(Limits.tmp_bytes); if the command wrote to the workspace, its disk is full]"
        )
    return found


def swept(found: Sweep, limits: Limits) -> list[str]:
    """Lines saying what the sweep after the call took away, and a workspace over its disk bound."""
    lines = []
    if found.cleared:
        lines.append(
            f"\n[setuid/setgid bit removed from {len(found.cleared)} file(s) "
            f"({', '.join(found.cleared[:5])}): a command may not leave privileged programs]"
        )
    if found.uncapped:
        lines.append(
            f"\n[file capabilities removed from {len(found.uncapped)} file(s) "
            f"({', '.join(found.uncapped[:5])}): a command may not leave privileged programs]"
        )
    if found.removed:
        lines.append(
            f"\n[deleted {', '.join(found.removed[:5])}: no device node, and no link to a setuid "
            "file or one with file capabilities, may stay in the workspace]"
        )
    if found.disk_bytes > limits.disk_bytes:
        lines.append(
            f"\n[workspace over its disk bound: its files take {megabytes(found.disk_bytes)}, "
            f"more than {megabytes(limits.disk_bytes)} (Limits.disk_bytes); nothing was deleted: "
            "remove what is not needed]"
        )
    return lines


# -- cgroups: the only bound on a root caller's processes (the kernel exempts uid 0 from NPROC) --
_V1 = Path("/sys/fs/cgroup")


def _own_cgroups() -> dict[str, str]:
    """controller -> this process's cgroup path, from /proc/self/cgroup ("" for cgroup v2)."""
    found = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            found[name] = path
    return found


class CallCgroup:
    """A fresh cgroup for one call, with pids and memory caps; ``kind`` says which hierarchy."""

    def __init__(self, dirs: dict[str, Path], kind: str) -> None:
        self.dirs, self.kind = dirs, kind

    @classmethod
    def create(cls, limits: Limits) -> CallCgroup | None:
        """Make the cgroup where this process may (root, or a delegated v2 subtree); else None."""
        mine = _own_cgroups()
        name = f"agentlib-{secrets.token_hex(6)}"
        if "pids" in mine and "memory" in mine:  # cgroup v1: one folder per controller
            parents = {c: _V1 / c / mine[c].lstrip("/") for c in ("pids", "memory")}
            caps = {"pids": ("pids.max", limits.processes)}
            caps["memory"] = ("memory.limit_in_bytes", limits.memory_bytes)
            kind = "cgroup v1"
        elif "" in mine and (_V1 / "cgroup.controllers").exists():
            parents = {"v2": _V1 / mine[""].lstrip("/")}
            kind = "cgroup v2"
        else:
            return None
        dirs: dict[str, Path] = {}
        try:
            for controller, parent in parents.items():
                dirs[controller] = parent / name
                dirs[controller].mkdir()
            if kind == "cgroup v2":
                caps = {"v2": ("pids.max", limits.processes)}
                (dirs["v2"] / "memory.max").write_text(str(limits.memory_bytes))
            for controller, (knob, value) in caps.items():
                (dirs[controller] / knob).write_text(str(value))
        except OSError:  # read-only, not delegated, or the controller is not enabled
            cls(dirs, kind).remove()
            return None
        return cls(dirs, kind)

    def joining_argv(self, argv: list[str]) -> list[str]:
        """``argv`` run by a shell that first moves itself into the cgroup: nothing forks outside it."""
        join = 'for f; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift'
        procs = [str(folder / "cgroup.procs") for folder in self.dirs.values()]
        return ["/bin/sh", "-c", join + '; exec "$@"', "sh", *procs, "--", *argv]

    def hits(self) -> tuple[bool, bool]:
        """(memory cap hit, process cap hit) during the call, from the kernel's counters."""
        pids = self.dirs.get("pids") or self.dirs["v2"]
        memory = self.dirs.get("memory") or self.dirs["v2"]
        pid_hit = _counter(pids / "pids.events", "max") > 0
        events = "memory.oom_control" if self.kind == "cgroup v1" else "memory.events"
        return _counter(memory / events, "oom_kill") > 0, pid_hit

    def remove(self) -> None:
        """Kill whatever is left in the cgroup, then delete it."""
        for folder in self.dirs.values():
            for _ in range(500):
                try:
                    pids = (folder / "cgroup.procs").read_text().split()
                except OSError:
                    break
                for pid in pids:
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)  # killed processes take a moment to leave


def _counter(path: Path, key: str) -> int:
    """The number on the line of a cgroup file that starts with ``key`` (0 if absent)."""
    try:
        text = path.read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    return 0
