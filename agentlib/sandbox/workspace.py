"""The workspace: file tools confined to one folder, and the bash tool that runs inside it."""

from __future__ import annotations

import dataclasses
import os
import secrets
import stat
from pathlib import Path

from ..errors import PathEscapeError, ToolError
from ..text import clip
from . import files, globbing, isolation, shell
from .limits import DEFAULT_LIMITS, Limits

_CHUNK_BYTES = 1 << 20  # read_file never asks the OS for more at once, whatever the file's size
MAX_PATH_BYTES = 4096  # PATH_MAX on Linux
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_READ_FLAGS |= getattr(os, "O_BINARY", 0)


class Workspace:
    """A folder the agent may work in; every file tool stays inside it, bash runs with it as cwd."""

    def __init__(
        self,
        root: str | os.PathLike,
        *,
        isolation: str = "auto",
        limits: Limits = DEFAULT_LIMITS,
    ):
        given = Path(root).expanduser().absolute()
        _refuse_system_folder(given.resolve())
        given.mkdir(parents=True, exist_ok=True)
        self.root = given.resolve()
        self._given = given
        self.limits = limits
        self.isolation = _choose_isolation(isolation)
        self._root_fd = None
        if files.HAS_DIR_FD:  # a handle on the root: later renames of paths cannot move it
            self._root_fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r}, isolation={self.isolation!r})"

    def close(self) -> None:
        """Release the directory handle on the root."""
        if self._root_fd is not None:
            os.close(self._root_fd)
            self._root_fd = None

    def __del__(self) -> None:
        if getattr(self, "_root_fd", None) is not None:
            self.close()

    # -- paths ---------------------------------------------------------------------------
    def safe_path(self, p: str) -> Path:
        """Resolve ``p`` inside the workspace (the seed's rule); raise PathEscapeError if outside."""
        if not isinstance(p, str) or not p:
            raise ToolError(f"Invalid path {p!r}: give a file path relative to the workspace")
        if "\x00" in p:
            raise ToolError(f"Invalid path {p!r}: it contains a null byte")
        try:
            path = (self.root / p).resolve()
        except RuntimeError:
            raise ToolError(f"Cannot access {p}: symlink loop") from None
        except OSError as exc:
            raise files.explain_oserror(p, exc) from None
        if not path.is_relative_to(self.root):
            raise PathEscapeError(p, f"it resolves to {path}, outside {self.root}")
        return path

    def _stays_inside(self, p: str) -> bool:
        try:
            self.safe_path(p)
        except ToolError:  # a match reached through a link out is left out, not an error
            return False
        return True

    def _relative(self, p: str) -> str:
        """Check ``p`` with safe_path, then give the form the handle-based layer opens."""
        self.safe_path(p)
        # without this cap the component walk would create folders nested without end
        if len(os.fsencode(p)) >= MAX_PATH_BYTES:
            raise ToolError(
                f"Cannot access {clip(p, 80)}: the path is too long ({len(p)} characters)"
            )
        if not os.path.isabs(p):
            return p
        for base in (str(self.root), str(self._given)):
            if p == base or p.startswith(base.rstrip("/") + "/"):
                return p[len(base) :].lstrip("/") or "."
        raise PathEscapeError(p, "absolute paths must lie inside the workspace")

    def _root(self) -> int:
        if self._root_fd is None:
            raise ToolError("This workspace was closed; create a new Workspace")
        if os.fstat(self._root_fd).st_nlink == 0:
            raise ToolError(f"The workspace folder {self.root} was deleted; create a new Workspace")
        return self._root_fd

    def _check_regular(self, path: str, fd: int) -> os.stat_result:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = files.describe_mode(st.st_mode)
            raise ToolError(f"Cannot open {path}: it is {kind}; only regular files are allowed")
        if st.st_nlink > 1:
            reason = f"it has {st.st_nlink} hard links, so it may be a file outside the workspace"
            raise PathEscapeError(path, reason)
        return st

    def _open_for_read(self, path: str) -> int:
        rel = self._relative(path)
        if not files.HAS_DIR_FD:  # Windows: no directory handles, only the name check
            return os.open(self.safe_path(path), _READ_FLAGS)
        return files.open_beneath(self._root(), rel, _READ_FLAGS)

    def _read_bytes(self, path: str, fd: int) -> tuple[bytes, bool]:
        """At most file_bytes, in bounded chunks (a sparse file's size says nothing of its cost)."""
        self._check_regular(path, fd)
        cap = self.limits.file_bytes
        data = bytearray()
        while len(data) <= cap:  # one byte past the cap tells that there is more
            chunk = os.read(fd, min(_CHUNK_BYTES, cap + 1 - len(data)))
            if not chunk:
                break
            data += chunk
        return bytes(data[:cap]), len(data) > cap

    # -- file tools ----------------------------------------------------------------------
    def _read_all(self, path: str) -> tuple[bytes, bool]:
        fd = self._open_for_read(path)
        try:
            return self._read_bytes(path, fd)
        finally:
            os.close(fd)

    def read_file(self, path: str, limit: int | None = None) -> str:
        """Read a text file; with ``limit``, the first lines plus a count of the rest."""
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise ToolError(f"limit must be a positive number of lines, not {limit!r}")
        try:
            data, cut = self._read_all(path)
        except OSError as exc:
            raise files.explain_oserror(path, exc) from None
        lines = data.decode("utf-8", "replace").splitlines()
        if limit and limit < len(lines):
            more = len(lines) - limit
            lines = [*lines[:limit], f"... ({more} more {'line' if more == 1 else 'lines'})"]
        text = "\n".join(lines)
        note = ""
        if cut:  # said last and never cut away: the model must know it saw only the start
            note = (
                f"\n... [cut: {path} is larger than the {self.limits.file_bytes}-byte read "
                "bound (Limits.file_bytes); read the rest with bash]"
            )
        return clip(text, self.limits.output_chars - len(note)) + note

    def write_file(self, path: str, content: str) -> str:
        """Create or replace a file atomically, making parent folders; report the bytes written."""
        if not isinstance(content, str):
            raise ToolError("content must be a string")
        data = content.encode("utf-8", "surrogateescape")
        self._check_size(path, "write", len(data))
        try:
            self._replace(path, data, create_dirs=True)
        except OSError as exc:
            raise files.explain_oserror(path, exc) from None
        return f"Wrote {len(data)} bytes to {path}"

    def edit_file(self, path: str, old_text: str, new_text: str, replace_all: bool = False) -> str:
        """Replace exact text in a file: once (it must be unique) or, with replace_all, everywhere."""
        if not old_text:
            raise ToolError("old_text is empty; give the exact text to replace")
        try:
            data, cut = self._read_all(path)
            if cut:
                raise ToolError(
                    f"Cannot edit {path}: it is larger than the {self.limits.file_bytes}-byte "
                    "bound on what a file tool reads (Limits.file_bytes); use bash"
                )
            content = data.decode("utf-8", "surrogateescape")
            old, new = _match_line_endings(content, old_text, new_text)
            count = content.count(old)
            if count == 0:
                raise ToolError(f"Text not found in {path}")
            if count > 1 and not replace_all:
                raise ToolError(
                    f"old_text occurs {count} times in {path}; include more surrounding lines "
                    "so it is unique, or set replace_all to replace every occurrence"
                )
            # the size of the result, known before it is built: nothing is written past the bound
            growth = len(_encode(new)) - len(_encode(old))
            self._check_size(path, "edit", len(data) + (count if replace_all else 1) * growth)
            updated = content.replace(old, new) if replace_all else content.replace(old, new, 1)
            self._replace(path, _encode(updated), create_dirs=False)
        except OSError as exc:
            raise files.explain_oserror(path, exc) from None
        return f"Edited {path}" + (f" ({count} replacements)" if replace_all and count > 1 else "")

    def _check_size(self, path: str, verb: str, size: int) -> None:
        if size > self.limits.file_bytes:
            raise ToolError(
                f"Cannot {verb} {path}: the result would be {size} bytes, over the "
                f"{self.limits.file_bytes}-byte "
                "bound on what a file tool writes (Limits.file_bytes); nothing was changed"
            )

    def glob(self, pattern: str) -> str:
        """List workspace paths matching ``pattern`` (``**`` for any depth), sorted, at most 200."""
        if not files.HAS_DIR_FD:
            globbing.check_pattern(pattern)
            found = (p.relative_to(self.root).as_posix() for p in self.root.glob(pattern))
            return globbing.listing([p for p in found if self._stays_inside(p)], pattern)
        return globbing.glob(self._root(), pattern, self.limits)

    def bash(self, command: str, timeout: float | None = None) -> str:
        """Run a shell command in the workspace (isolated where the machine allows it)."""
        limits = self.limits
        if timeout is not None:
            limits = dataclasses.replace(limits, bash_seconds=timeout)
        return shell.run_command(command, cwd=self.root, mode=self.isolation, limits=limits)

    def _replace(self, path: str, data: bytes, *, create_dirs: bool) -> None:
        """Write through a temp file and a rename in the same folder: links are replaced, never followed."""
        rel = self._relative(path)
        if not files.HAS_DIR_FD:
            target = self.safe_path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{secrets.token_hex(6)}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
            return
        files.replace_beneath(self._root(), rel, data, path=path, create_dirs=create_dirs)


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _match_line_endings(content: str, old: str, new: str) -> tuple[str, str]:
    """Use CRLF in old/new text when the file has CRLF endings and the model sent plain LF."""
    if old in content or "\r\n" not in content or "\n" not in old or "\r" in old:
        return old, new
    crlf_old = old.replace("\n", "\r\n")
    if crlf_old not in content:
        return old, new
    return crlf_old, new.replace("\r\n", "\n").replace("\n", "\r\n")


# a workspace holding one of these would let the tools (and the sweep after each call) reach the system
_SYSTEM_FOLDERS = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/proc",
    "/sbin",
    "/sys",
    "/usr",
    "/var",
)


def _refuse_system_folder(root: Path) -> None:
    for folder in _SYSTEM_FOLDERS:
        if os.path.exists(folder) and Path(folder).resolve().is_relative_to(root):
            raise ValueError(
                f"{root} holds the system folder {folder}: give the workspace a folder of its "
                "own, such as a new folder in your home"
            )


def _choose_isolation(requested: str) -> str:
    if requested != "auto" and requested not in isolation.MODES:
        names = ", ".join(repr(m) for m in ("auto", *isolation.MODES))
        raise ValueError(f"isolation must be one of {names}, not {requested!r}")
    return isolation.choose(requested)
