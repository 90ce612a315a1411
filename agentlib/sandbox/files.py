"""Open paths beneath a directory handle without following links out of it (no check-then-open race)."""

from __future__ import annotations

import ctypes
import errno
import os
import secrets
import stat
import sys

from ..errors import PathEscapeError, ToolError

MAX_SYMLINKS = 40  # the kernel's own limit for one path lookup
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_BENEATH = 0x08
_SYS_OPENAT2 = 437  # the same number on every Linux architecture (unified syscall table)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
HAS_DIR_FD = os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd and bool(_NOFOLLOW)


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


def _load_openat2():
    """Return a callable for openat2(2), or None when this kernel or platform lacks it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long

    def openat2(dir_fd: int, path: str, flags: int, mode: int) -> int:
        mode = mode if flags & os.O_CREAT else 0  # openat2 rejects a mode it would not use
        how = _OpenHow(flags | _CLOEXEC, mode, _RESOLVE_BENEATH | _RESOLVE_NO_MAGICLINKS)
        for _ in range(8):  # EAGAIN: a concurrent rename made the kernel unsure; try again
            fd = syscall(
                ctypes.c_long(_SYS_OPENAT2),
                ctypes.c_int(dir_fd),
                ctypes.c_char_p(os.fsencode(path)),
                ctypes.byref(how),
                ctypes.c_size_t(ctypes.sizeof(how)),
            )
            if fd >= 0:
                return fd
            err = ctypes.get_errno()
            if err != errno.EAGAIN:
                raise OSError(err, os.strerror(err), path)
        raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN), path)

    root_fd = os.open("/", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:  # probe once: seccomp filters and old kernels answer ENOSYS or EPERM
        os.close(openat2(root_fd, ".", os.O_RDONLY, 0))
    except OSError:
        return None
    finally:
        os.close(root_fd)
    return openat2


_openat2 = _load_openat2()
METHOD = "openat2" if _openat2 else ("component walk" if HAS_DIR_FD else "check then open")


def _is_symlink(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def resolve_by_components(
    root_fd: int,
    path: str,
    *,
    flags: int = 0,
    mode: int = 0o600,
    parent: bool = False,
    create_dirs: bool = False,
):
    """Resolve ``path`` one component at a time below ``root_fd``, never via the kernel's ``..``.

    Returns an open fd for the final component, or with ``parent=True`` a tuple
    ``(dir_fd, name)`` for the directory holding it (the caller closes the fd).
    """
    stack = [os.dup(root_fd)]
    pending = path.split("/")
    links = 0
    try:
        while True:
            while pending and pending[0] in ("", "."):
                pending.pop(0)
            if not pending:
                if parent:
                    raise ToolError(f"{path} names the workspace folder itself, not a file")
                return os.dup(stack[-1])
            name = pending.pop(0)
            if name == "..":
                if len(stack) == 1:
                    raise PathEscapeError(path, "'..' climbs above the workspace root")
                os.close(stack.pop())
                continue
            last = not any(p not in ("", ".") for p in pending)
            if last and parent:
                if not _is_symlink(name, stack[-1]):
                    return os.dup(stack[-1]), name
                fd = None
            else:
                want = flags if last else os.O_RDONLY | _DIRECTORY
                try:
                    fd = os.open(name, want | _NOFOLLOW | _CLOEXEC, mode, dir_fd=stack[-1])
                except OSError as exc:
                    if exc.errno == errno.ENOENT and create_dirs and not last:
                        try:
                            os.mkdir(name, 0o777, dir_fd=stack[-1])
                        except FileExistsError:
                            pass  # made meanwhile by someone else: open it on the next pass
                        pending.insert(0, name)
                        continue
                    if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                        raise
                    if not _is_symlink(name, stack[-1]):
                        raise
                    fd = None
            if fd is not None:
                if last:
                    return fd
                stack.append(fd)
                continue
            # a symlink: expand it ourselves so '..' inside it is checked like any other
            links += 1
            if links > MAX_SYMLINKS:
                raise OSError(errno.ELOOP, "Too many levels of symbolic links", path)
            target = os.readlink(name, dir_fd=stack[-1])  # EINVAL: replaced since the check
            if target.startswith("/"):
                raise PathEscapeError(
                    path, f"symlink {name!r} points to the absolute path {target}"
                )
            pending = target.split("/") + pending
    finally:
        for fd in stack:
            os.close(fd)


def open_beneath(root_fd: int, path: str, flags: int, mode: int = 0o600) -> int:
    """Open ``path`` (relative) below ``root_fd``; anything that leads outside raises PathEscapeError."""
    if _openat2 is not None:
        try:
            return _openat2(root_fd, path, flags, mode)
        except OSError as exc:
            if exc.errno == errno.EXDEV:
                reason = "it leads outside the workspace ('..' or a symlink)"
                raise PathEscapeError(path, reason) from None
            if exc.errno != errno.ELOOP:
                raise
            # ELOOP: a loop or a magic link; the walk tells the two apart
    return resolve_by_components(root_fd, path, flags=flags, mode=mode)


def replace_beneath(root_fd: int, rel: str, data: bytes, *, path: str, create_dirs: bool) -> None:
    """Write through a temp file and a rename in the same folder: links are replaced, never followed."""
    dir_fd, name = resolve_by_components(root_fd, rel, parent=True, create_dirs=create_dirs)
    try:
        try:
            old = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            kind = describe_mode(old.st_mode)
            raise ToolError(f"Cannot write {path}: it is {kind}; only regular files are allowed")
        tmp = f".agentlib-{secrets.token_hex(8)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o666, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                if old is not None:  # its permissions, never its setuid/setgid bits
                    os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode) & 0o777)
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            os.unlink(tmp, dir_fd=dir_fd)
            raise
    finally:
        os.close(dir_fd)


def describe_mode(mode: int) -> str:
    """Name the kind of file a stat mode describes, in words."""
    kinds = [
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symlink"),
    ]
    return next((label for test, label in kinds if test(mode)), "not a regular file")


_CHANGED = "the path changed while it was being opened (a part of it was renamed); try again"


def explain_oserror(path: str, exc: OSError) -> ToolError:
    """Turn an OSError from the file layer into a ToolError that names the path and the reason."""
    reasons = {
        errno.ENOENT: "no such file or directory",
        errno.ENOTDIR: "a part of the path is not a directory",
        errno.EISDIR: "it is a directory",
        errno.ELOOP: "symlink loop (too many levels of symbolic links)",
        errno.ENAMETOOLONG: "the path or one of its names is too long",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
        errno.ENOSPC: "no space left on the device",
        errno.EROFS: "the file system is read-only",
        errno.EXDEV: "it leads outside the workspace",
        # EINVAL here only comes from readlink() on a part that stopped being a symlink
        # between two looks at it (in our walk or in Path.resolve): a rename raced the lookup
        errno.EINVAL: _CHANGED,
        errno.EAGAIN: _CHANGED,
    }
    reason = reasons.get(exc.errno, exc.strerror or str(exc))
    return ToolError(f"Cannot access {path}: {reason}")
