"""The course's two toolboxes: s01 (bash only) and s02 (bash plus the file tools), bound to a workspace."""

from __future__ import annotations

from .sandbox import Workspace
from .sandbox.limits import megabytes
from .tools import Toolbox, tool


def _stating_limits(ws: Workspace, **options):
    """``tool`` for a function whose docstring names this workspace's limits ({seconds}, ...)."""
    limits = ws.limits
    facts = {
        "seconds": f"{limits.bash_seconds:g}",
        "memory": megabytes(limits.memory_bytes),
        "processes": limits.processes,
        "tmp": megabytes(limits.tmp_bytes),
        "chars": f"{limits.output_chars:,}",
        "file": megabytes(limits.file_bytes),
        "glob_seconds": f"{limits.glob_seconds:g}",
    }

    def make(fn):
        fn.__doc__ = fn.__doc__.format(**facts)
        return tool(fn, **options)

    return make


def _bash(ws: Workspace):
    @_stating_limits(ws)
    def bash(command: str) -> str:
        """Run a shell command in the workspace and return its output (stdout and stderr merged).

        Limits: {seconds} s, then everything it started is stopped; {memory} of memory per
        process; {processes} processes; output cut to {chars} characters (head and tail kept).
        A non-zero exit code and any limit hit are reported at the end. Prefer the file tools
        for reading and writing files when you have them.

        Args:
            command: The shell command line to run, e.g. `ls *.py`.
        """
        return ws.bash(command)

    return bash


def s01_tools(ws: Workspace) -> Toolbox:
    """s01's toolbox: one tool, bash."""
    return Toolbox([_bash(ws)])


def s02_tools(ws: Workspace) -> Toolbox:
    """s02's toolbox: bash plus read_file, write_file, edit_file and glob, all confined to ``ws``."""

    @_stating_limits(ws, read_only=True)
    def read_file(path: str, limit: int | None = None) -> str:
        """Read a text file in the workspace.

        Reads at most the first {file} of the file; output is capped at {chars} characters.
        With `limit`, only the first `limit` lines come back, followed by a line saying how
        many more there are.

        Args:
            path: File path relative to the workspace root.
            limit: Read at most this many lines (omit to read the whole file).
        """
        return ws.read_file(path, limit)

    @_stating_limits(ws)
    def write_file(path: str, content: str) -> str:
        """Create or overwrite a file in the workspace with exactly `content`.

        Parent folders are created. An existing file is replaced entirely, not appended to.
        Content over {file} is refused.

        Args:
            path: File path relative to the workspace root.
            content: The complete new contents of the file.
        """
        return ws.write_file(path, content)

    @_stating_limits(ws)
    def edit_file(path: str, old_text: str, new_text: str, replace_all: bool = False) -> str:
        """Replace an exact piece of text in a file.

        `old_text` must appear exactly once (read the file first and copy enough context to
        make it unique), unless `replace_all` is true. The file's line endings are kept.
        An edit whose result would be over {file} is refused and changes nothing.

        Args:
            path: File path relative to the workspace root.
            old_text: The exact text to find, including whitespace.
            new_text: The text to put in its place.
            replace_all: Replace every occurrence instead of requiring exactly one.
        """
        return ws.edit_file(path, old_text, new_text, replace_all)

    @_stating_limits(ws, read_only=True)
    def glob(pattern: str) -> str:
        """Find files in the workspace whose paths match a glob pattern, sorted, at most 200.

        The search stops after {glob_seconds} s and says so; symlinks are listed, not followed.

        Args:
            pattern: A relative pattern such as `*.py` or `src/**/*.py`.
        """
        return ws.glob(pattern)

    return Toolbox([_bash(ws), read_file, write_file, edit_file, glob])
