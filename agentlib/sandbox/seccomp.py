"""A seccomp filter on every command: no setuid or setgid bit, no file capability, no nested user namespace.

As root a command's files are root's on the host (uid 1000 inside bubblewrap is root outside), so
``chmod 4755`` would hand every local user a root shell for as long as the call runs. The filter
makes each way of setting the bit fail with EPERM: chmod, fchmod, fchmodat(2), mknod(at), creat,
and open/openat with O_CREAT or O_TMPFILE. Calls whose mode it cannot read (openat2's struct,
io_uring) answer ENOSYS, as on a kernel without them. A setgid folder cannot be made either (one
made inside a setgid folder still inherits the bit, as on any Linux; a file never does).
Setting an extended attribute answers EOPNOTSUPP, as on a file system without them: one named
``security.capability`` is a file capability, ``cap_setuid`` as good as a setuid bit.

A user namespace made inside the sandbox would give the command every capability over the files
its uid owns, and as root those are root's on the host: an overlay mount's copy-up then writes
a setuid file, or a capability, without any call the filter reads. So ``unshare``/``clone`` with
CLONE_NEWUSER and ``setns`` fail with EPERM and ``clone3`` answers ENOSYS (the C library falls
back to ``clone``); under util-linux ``unshare``, which makes its namespaces after the filter is
loaded, a limit of the outer namespace refuses a new one instead (isolation.unshare_argv).

Compiled once by libseccomp (present wherever systemd is) and loaded by bubblewrap, or in the
child before exec. A call newer than the installed libseccomp is added by its number.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import platform
import stat
import sys

_ALLOW = 0x7FFF0000
_MASKED_EQ = 7  # SCMP_CMP_MASKED_EQ: (arg & mask) == datum
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_BITS = (stat.S_ISUID, stat.S_ISGID)
_CREATING = (os.O_CREAT, getattr(os, "O_TMPFILE", 0) & ~os.O_DIRECTORY)
# the syscall, the argument holding the mode, and the one holding open's flags (None: always)
_MODE_ARGS = {
    "chmod": (1, None),
    "fchmod": (1, None),
    "fchmodat": (2, None),
    "fchmodat2": (2, None),
    "mknod": (1, None),
    "mknodat": (2, None),
    "creat": (1, None),
    "open": (2, 1),
    "openat": (3, 2),
}
_ENOSYS = ("openat2", "io_uring_setup")  # the mode is in a struct or a ring the filter cannot read
_XATTR_WRITES = ("setxattr", "lsetxattr", "fsetxattr", "setxattrat")
_CLONE_NEWUSER = 0x10000000
# where the flags of unshare and clone are; s390 passes clone's stack first
_NEW_USERNS_ARG = {"unshare": 0, "clone": 1 if platform.machine().startswith("s390") else 0}
# calls newer than some libseccomp still in use (2.5.4 upstream lacks fchmodat2): their numbers
# on x86_64 and every architecture of the unified table (alpha and mips add an offset)
_NUMBERS = {
    "io_uring_setup": 425,
    "clone3": 435,
    "openat2": 437,
    "fchmodat2": 452,
    "setxattrat": 463,
}
_SHARED_TABLE = not platform.machine().startswith(("alpha", "mips"))


class _ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


def _errno_action(code: int) -> int:
    return 0x00050000 | code  # SCMP_ACT_ERRNO


def _masked(arg: int, mask: int) -> _ArgCmp:
    return _ArgCmp(arg, _MASKED_EQ, mask, mask)


def _resolve(lib, call: str) -> int:
    """The number libseccomp knows for ``call`` on this architecture, negative if none."""
    return lib.seccomp_syscall_resolve_name(call.encode())


def _number(lib, call: str) -> int:
    """The syscall's number here, from libseccomp, else from _NUMBERS; negative if there is none."""
    number = _resolve(lib, call)
    if number < 0 and _SHARED_TABLE:
        return _NUMBERS.get(call, number)
    return number


def _rules(close_namespaces: bool):
    """(syscall, errno, [(argument, mask)]): refused when every argument has every bit of its mask."""
    for call, (mode_arg, flags_arg) in _MODE_ARGS.items():
        for bit in _BITS:
            for flag in (None,) if flags_arg is None else _CREATING:
                masks = [(mode_arg, bit)] + ([] if flag is None else [(flags_arg, flag)])
                yield call, errno.EPERM, masks
    for call in _ENOSYS:
        yield call, errno.ENOSYS, []
    for call in _XATTR_WRITES:
        yield call, errno.EOPNOTSUPP, []
    yield "setns", errno.EPERM, []  # joining a namespace (util-linux unshare makes, never joins)
    if close_namespaces:
        for call, arg in _NEW_USERNS_ARG.items():
            yield call, errno.EPERM, [(arg, _CLONE_NEWUSER)]
        yield "clone3", errno.ENOSYS, []


@functools.lru_cache(maxsize=2)
def program(close_namespaces: bool = True) -> bytes | None:
    """The compiled filter (classic BPF), or None where libseccomp is missing (the sweep remains).

    ``close_namespaces=False`` leaves user namespaces open, for util-linux ``unshare`` to make its own.
    """
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(_ALLOW)
    if not ctx:
        return None
    try:
        for call, code, masks in _rules(close_namespaces):
            number = _number(lib, call)
            if number < 0:  # not on this architecture (open, creat on arm64)
                continue
            array = (_ArgCmp * len(masks))(*(_masked(arg, mask) for arg, mask in masks))
            if lib.seccomp_rule_add_array(ctx, _errno_action(code), number, len(masks), array):
                return None
        read_end, write_end = os.pipe()
        try:
            if lib.seccomp_export_bpf(ctx, write_end):
                return None
            os.close(write_end)
            write_end = -1
            with os.fdopen(read_end, "rb") as pipe:
                read_end = -1
                return pipe.read()
        finally:
            for fd in (read_end, write_end):
                if fd >= 0:
                    os.close(fd)
    finally:
        lib.seccomp_release(ctx)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def prepare(close_namespaces: bool) -> None:
    """Compile the filter now, in the parent, so a forked child never calls libseccomp."""
    _prepared(close_namespaces)


@functools.lru_cache(maxsize=2)
def _prepared(close_namespaces: bool) -> tuple[_SockFprog, ctypes.Array] | None:
    """The filter in memory ready for prctl, made in the parent so the child only makes one call."""
    code = program(close_namespaces)
    if code is None:
        return None
    buffer = ctypes.create_string_buffer(code, len(code))
    return _SockFprog(len(code) // 8, ctypes.addressof(buffer)), buffer


_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def load_in_child(close_namespaces: bool) -> None:
    """Run in the child before exec, after no-new-privileges: install the filter, or never run."""
    prepared = _prepared(close_namespaces)
    if prepared is None or _LIBC is None:
        return
    if _LIBC.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prepared[0]), 0, 0) != 0:
        os._exit(126)


def pipe_for_bwrap() -> int | None:
    """A pipe holding the filter, for ``bwrap --seccomp FD`` (None where there is no filter)."""
    code = program()
    if code is None:
        return None
    read_end, write_end = os.pipe()
    os.write(write_end, code)  # a few hundred bytes: far under a pipe's buffer
    os.close(write_end)
    return read_end
