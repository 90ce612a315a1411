"""Process hardening on Linux, in every isolation mode: non-dumpable agent, no new privileges, no capabilities."""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from pathlib import Path

_PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS, _PR_CAP_AMBIENT = 4, 24, 38, 47


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


def no_new_privileges() -> None:
    """Run in the child before exec: setuid files and file capabilities stop working for good."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def drop_privileges() -> None:
    """Run in the child before exec: no new privileges, and root loses every capability.

    Without CAP_SYS_PTRACE even a root command cannot read a non-dumpable parent's environ.
    """
    if _LIBC is None:
        return
    no_new_privileges()
    if os.geteuid() != 0:
        return
    for cap in range(_LAST_CAP + 1):
        _LIBC.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    _LIBC.prctl(_PR_CAP_AMBIENT, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    if _LIBC.capset(ctypes.byref(header), data) != 0:
        os._exit(126)  # never run a command with privileges we meant to drop
