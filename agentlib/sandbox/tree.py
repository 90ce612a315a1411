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
_CAPABILITY = "security.capability"  # a file capability: cap_setuid is as good as a setuid bit
_EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


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
    uncapped: list[str] = field(default_factory=list)  # programs whose file capability was removed
    removed: list[str] = field(default_factory=list)  # device nodes, hard links to privileged files


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
        try:  # never through a link: the folder may have been swapped for one since the look
            _chmod_here(parent, name, stat.S_IMODE(mode) | stat.S_IRWXU, folder=True)
        except OSError:  # another user's folder, or now a link: left out
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


def _chmod_here(dir_fd: int, name: str, mode: int, *, folder: bool) -> None:
    """chmod the entry ``name`` of ``dir_fd`` itself; if it is a link now, raise and change nothing.

    Linux's chmod takes no "do not follow" flag before fchmodat2, so the entry is opened as a
    handle (O_PATH, which needs no permission on it) and changed through /proc/self/fd.
    """
    if not hasattr(os, "O_PATH"):  # macOS: no O_PATH, but a chmod that never follows a link
        os.chmod(name, mode, dir_fd=dir_fd, follow_symlinks=False)
        return
    flags = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_DIRECTORY if folder else 0)
    fd = os.open(name, flags, dir_fd=dir_fd)
    try:
        if stat.S_ISLNK(os.fstat(fd).st_mode):
            raise OSError(errno.ELOOP, "replaced by a link while it was checked", name)
        os.chmod(f"/proc/self/fd/{fd}", mode)
    finally:
        os.close(fd)


def _walk(top: Path, on_entry, on_leave, *, restore: bool, on_folder=None) -> None:
    """Call ``on_entry(dir_fd, entry, folder)`` for every non-folder (``folder`` relative to ``top``,
    "" for ``top`` itself), ``on_leave(dir_fd, name)`` after each folder below ``top``, and
    ``on_folder(stat)`` for each folder walked, ``top`` included."""
    fd, top_mode = _open_top(top, restore)
    top_fd = os.dup(fd) if top_mode is not None else None
    try:
        st = os.fstat(fd)
        if on_folder is not None:
            on_folder(st)
        stack = [_Frame((st.st_dev, st.st_ino), "", "", _list(fd, "", on_entry))]
        while stack:
            frame = stack[-1]
            if frame.subdirs:
                name = frame.subdirs.pop()
                child, mode = _open_dir(fd, name, restore=restore)
                if child is None:
                    continue
                st = os.fstat(child)
                if st.st_dev != stack[0].ident[0]:
                    if mode is not None:  # another file system mounted here: never walked into
                        os.fchmod(child, mode)
                    os.close(child)
                    continue
                if on_folder is not None:
                    on_folder(st)
                os.close(fd)
                fd = child
                path = f"{frame.path}{name}/"
                ident = (st.st_dev, st.st_ino)
                stack.append(_Frame(ident, name, path, _list(fd, path, on_entry), mode))
                continue
            stack.pop()
            if not stack:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            if frame.restore is not None:  # the folder itself, not what its name now holds
                os.fchmod(fd, frame.restore)
            os.close(fd)
            fd = parent
            if _ident(fd) != stack[-1].ident:  # a folder was moved meanwhile: stop, never wander
                raise OSError(errno.ESTALE, "the folder changed while it was walked", str(top))
            on_leave(fd, frame.name)
    finally:
        os.close(fd)
        if top_fd is not None:
            os.fchmod(top_fd, top_mode)
            os.close(top_fd)


def _open_top(top: Path, restore: bool) -> tuple[int, int | None]:
    """Open the folder to walk as any folder in it: one its owner closed (a command's
    ``chmod 000 .``) is opened up, and with ``restore`` its mode is given to put back."""
    parent = os.open(top.parent, getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fd, mode = _open_dir(parent, top.name, restore=restore)
    finally:
        os.close(parent)
    if fd is None:
        os.lstat(top)  # FileNotFoundError if it is gone
        raise OSError(errno.ENOTDIR, "not a folder (swapped for a link?)", str(top))
    return fd, mode


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
    user; a device node would open a disk. As root, a program's file capability goes too (only
    root's can raise a host user's rights, and only root may remove one). A hard link to a
    privileged file is deleted rather than changed, since the file is also elsewhere. Also adds
    up the bytes on disk as ``du`` does: folders and links too, a file of many names once.
    """
    found = Sweep()
    as_root = os.geteuid() == 0
    linked: set[tuple[int, int]] = set()  # a file with many names takes its room once

    def count(st: os.stat_result) -> None:
        if st.st_nlink > 1 and not stat.S_ISDIR(st.st_mode):
            if (st.st_dev, st.st_ino) in linked:
                return
            linked.add((st.st_dev, st.st_ino))
        found.disk_bytes += st.st_blocks * 512

    def check(fd: int, entry: os.DirEntry, folder: str) -> None:
        try:
            st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            os.unlink(entry.name, dir_fd=fd)
            found.removed.append(folder + entry.name)
            return
        count(st)  # links and empty files take room too
        if not stat.S_ISREG(st.st_mode):
            return
        if st.st_mode & _PRIVILEGE_BITS:
            if st.st_nlink > 1:  # a link to /usr/bin/su, say: a chmod would change the system's
                os.unlink(entry.name, dir_fd=fd)
                found.removed.append(folder + entry.name)
                return
            _clear_privilege_bits(fd, entry.name, st.st_mode)
            found.cleared.append(folder + entry.name)
        if as_root and st.st_mode & _EXEC_BITS:  # a capability works only on exec
            what = _drop_capability(fd, entry.name)
            if what:
                getattr(found, what).append(folder + entry.name)

    _walk(Path(root), check, lambda fd, name: None, restore=True, on_folder=count)
    return found


def _drop_capability(dir_fd: int, name: str) -> str | None:
    """Remove the file capability of ``name`` (never through a link): "uncapped", "removed" for a
    hard link (deleted, as the file is also elsewhere), None if it had none."""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError:  # gone, or swapped for a link meanwhile
        return None
    try:
        try:
            os.getxattr(fd, _CAPABILITY)
        except OSError:  # ENODATA: none; ENOTSUP: a file system without extended attributes
            return None
        if os.fstat(fd).st_nlink > 1:
            os.unlink(name, dir_fd=dir_fd)
            return "removed"
        os.removexattr(fd, _CAPABILITY)
        return "uncapped"
    finally:
        os.close(fd)


def _clear_privilege_bits(dir_fd: int, name: str, mode: int) -> None:
    """chmod without the setuid/setgid bits, on the file itself, never through a link."""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except PermissionError:  # mode 4111: not readable even by its owner; it was not a link
        _chmod_here(dir_fd, name, stat.S_IMODE(mode) & ~_PRIVILEGE_BITS, folder=False)
        return
    try:
        os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) & ~_PRIVILEGE_BITS)
    finally:
        os.close(fd)
