"""Walking a folder a command made: no recursion, no link followed, any depth, any permissions.

A command can leave a tree 3,000 folders deep (``shutil.rmtree`` recurses and fails), folders
with no permissions at all, and paths longer than PATH_MAX. The walk below holds one directory
handle at a time, climbs back with ``..`` and checks it arrived where it came from. It stays on
the folder's own file system: a mount point inside is neither entered nor emptied.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_PRIVILEGE_BITS = stat.S_ISUID | stat.S_ISGID


@dataclass
class _Frame:
    ident: tuple[int, int]  # (st_dev, st_ino): where ``..`` must lead back to
    name: str  # its name in the folder above
    path: str  # relative to the top, for messages
    subdirs: list[str]
    restore: int | None = None  # the mode it had, when the walk had to open it up


@dataclass
class Sweep:
    """What a sweep of the workspace found: bytes on disk, and what it took away."""

    disk_bytes: int = 0
    cleared: list[str] = field(default_factory=list)  # files whose setuid/setgid bit was removed
    removed: list[str] = field(default_factory=list)  # device nodes, hard links to setuid files


def _ident(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


def _open_dir(parent: int, name: str, *, restore: bool) -> tuple[int | None, int | None]:
    """Open a sub-folder without following a link; one we may not enter is opened up (u+rwx).

    Returns the handle (None if it is gone or no longer a folder) and, with ``restore``, the
    mode to put back on leaving it.
    """
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # swapped for a link or a file meanwhile
            return None, None
        if exc.errno not in (errno.EACCES, errno.EPERM):
            raise
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        if not stat.S_ISDIR(mode):
            return None, None
        try:
            os.chmod(name, stat.S_IMODE(mode) | stat.S_IRWXU, dir_fd=parent)  # not a link: checked
        except PermissionError:  # another user's folder: left out (removing its parent fails)
            return None, None
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
        return fd, (stat.S_IMODE(mode) if restore else None)
    mode = stat.S_IMODE(os.fstat(fd).st_mode)
    if mode & stat.S_IRWXU == stat.S_IRWXU or os.geteuid() == 0:  # root needs no mode bits
        return fd, None
    try:  # readable but not writable or not searchable (0500, 0300): its entries are out of reach
        os.fchmod(fd, mode | stat.S_IRWXU)
    except PermissionError:  # another user's folder: what fails in it is reported
        return fd, None
    return fd, (mode if restore else None)


def _walk(top: Path, on_entry, on_leave, *, restore: bool) -> None:
    """Call ``on_entry(dir_fd, entry, folder)`` for every non-folder (``folder`` relative to ``top``,
    "" for ``top`` itself), and ``on_leave(dir_fd, name)`` after each folder below ``top``."""
    fd = os.open(top, _DIR_FLAGS)
    try:
        stack = [_Frame(_ident(fd), "", "", _list(fd, "", on_entry))]
        while stack:
            frame = stack[-1]
            if frame.subdirs:
                name = frame.subdirs.pop()
                child, mode = _open_dir(fd, name, restore=restore)
                if child is not None and os.fstat(child).st_dev != stack[0].ident[0]:
                    os.close(child)  # another file system mounted here: never walked into
                    if mode is not None:
                        os.chmod(name, mode, dir_fd=fd)
                    continue
                if child is not None:
                    os.close(fd)
                    fd = child
                    path = f"{frame.path}{name}/"
                    stack.append(_Frame(_ident(fd), name, path, _list(fd, path, on_entry), mode))
                continue
            stack.pop()
            if not stack:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            if _ident(fd) != stack[-1].ident:  # a folder was moved meanwhile: stop, never wander
                raise OSError(errno.ESTALE, "the folder changed while it was walked", str(top))
            if frame.restore is not None:
                os.chmod(frame.name, frame.restore, dir_fd=fd)
            on_leave(fd, frame.name)
    finally:
        os.close(fd)


def _list(fd: int, folder: str, on_entry) -> list[str]:
    """The sub-folders of ``fd`` (links to folders are not folders); everything else to ``on_entry``."""
    subdirs = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                subdirs.append(entry.name)
            else:
                on_entry(fd, entry, folder)
    return subdirs


def remove_tree(path: str | os.PathLike) -> None:
    """Delete ``path`` and everything under it, whatever its depth or its folders' permissions.

    Use it instead of ``shutil.rmtree`` on anything a command made. A missing ``path`` is fine;
    what cannot be removed (a file of another user, a mount point) raises the first OSError
    once everything else is gone.
    """
    top = Path(path)
    try:
        if not stat.S_ISDIR(os.lstat(top).st_mode):
            top.unlink()
            return
    except FileNotFoundError:
        return
    if not os.access(top, os.R_OK | os.W_OK | os.X_OK):  # a folder left with no permissions
        os.chmod(top, stat.S_IRWXU)
    errors: list[OSError] = []

    def unlink(fd: int, entry: os.DirEntry, folder: str) -> None:
        _collect(errors, os.unlink, entry.name, dir_fd=fd)

    def rmdir(fd: int, name: str) -> None:
        _collect(errors, os.rmdir, name, dir_fd=fd)

    _walk(top, unlink, rmdir, restore=False)
    _collect(errors, os.rmdir, top)
    if errors:
        raise errors[0]


def _collect(errors: list[OSError], fn, *args, **kwargs) -> None:
    try:
        fn(*args, **kwargs)
    except FileNotFoundError:
        pass
    except OSError as exc:
        errors.append(exc)


def sweep(root: str | os.PathLike) -> Sweep:
    """After a command: drop every setuid/setgid bit and delete every device node under ``root``.

    A setuid file (as root, one owned by root) would run with its owner's rights for any local
    user; a device node would open a disk. A hard link to a setuid file is deleted rather than
    changed, since the file is also elsewhere. Also adds up the bytes on disk.
    """
    found = Sweep()

    def check(fd: int, entry: os.DirEntry, folder: str) -> None:
        try:
            st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            os.unlink(entry.name, dir_fd=fd)
            found.removed.append(folder + entry.name)
        elif stat.S_ISREG(st.st_mode):
            found.disk_bytes += st.st_blocks * 512
            if not st.st_mode & _PRIVILEGE_BITS:
                return
            if st.st_nlink > 1:  # a link to /usr/bin/su, say: a chmod would change the system's
                os.unlink(entry.name, dir_fd=fd)
                found.removed.append(folder + entry.name)
            else:
                _clear_privilege_bits(fd, entry.name, st.st_mode)
                found.cleared.append(folder + entry.name)

    _walk(Path(root), check, lambda fd, name: None, restore=True)
    return found


def _clear_privilege_bits(dir_fd: int, name: str, mode: int) -> None:
    """chmod without the setuid/setgid bits, on the file itself, never through a link."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY, dir_fd=dir_fd)
    except PermissionError:  # mode 4111: not readable even by its owner; it is not a link
        os.chmod(name, stat.S_IMODE(mode) & ~_PRIVILEGE_BITS, dir_fd=dir_fd)
        return
    try:
        os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) & ~_PRIVILEGE_BITS)
    finally:
        os.close(fd)
