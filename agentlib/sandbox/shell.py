"""The bash tool: a hardened command runner, plus the seed's deny-list kept as a teaching guard rail."""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

from ..errors import ToolError
from . import isolation

MAX_OUTPUT_CHARS = 50_000
_KEEP_BYTES = 4 * MAX_OUTPUT_CHARS  # enough bytes for the kept head (and tail) in any UTF-8 text
_EXIT_GRACE_S = 0.2  # after the shell exits, how long to wait for output its children still write
_SEPARATORS = {";", ";;", "&", "&&", "|", "||", "|&", "(", ")", "{", "}", "!"}
_REDIRECTS = {">", ">>", ">|", "&>", "&>>", ">&"}
_HARMLESS_DEVICES = {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"}
_SHELL = shutil.which("bash") or "/bin/sh"


def is_dangerous(command: str) -> str | None:
    """The seed's deny-list matched on parsed shell words; names the rule hit, else None.

    A courtesy check that catches the obvious typing of a risky command. It is NOT a security
    boundary: quoting tricks, variables and ``base64 | sh`` all get past it.
    """
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quotes: bash itself will refuse to run it
        return None
    at_start = True
    for i, word in enumerate(words):
        if word in _SEPARATORS:
            at_start = True
        elif word in _REDIRECTS:
            target = words[i + 1] if i + 1 < len(words) else ""
            if target.startswith("/dev/") and target not in _HARMLESS_DEVICES:
                if not target.startswith("/dev/fd/"):
                    return f"> {target}"
        elif at_start and "=" in word and not word.startswith("="):
            continue  # VAR=value before the command name
        elif at_start:
            at_start = False
            name = os.path.basename(word)
            if name in ("sudo", "shutdown", "reboot"):
                return name
            if name == "rm" and _removes_root(words[i + 1 :]):
                return "rm -rf /"
    return None


def _removes_root(args: list[str]) -> bool:
    recursive, targets = False, []
    for arg in args:
        if arg in _SEPARATORS or arg in _REDIRECTS:
            break
        if arg in ("--recursive", "-r", "-R") or (
            arg[:1] == "-" and arg[1:2] != "-" and "r" in arg.lower()
        ):
            recursive = True
        elif not arg.startswith("-"):
            targets.append(arg)
    return recursive and any(t.rstrip("/*") == "" for t in targets)


class _Capture:
    """Keeps the first and last bytes of a stream of any size in bounded memory."""

    def __init__(self) -> None:
        self.head, self.tail, self.total = bytearray(), bytearray(), 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = _KEEP_BYTES - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > _KEEP_BYTES:
                del self.tail[: len(self.tail) - _KEEP_BYTES]

    def text(self, budget: int) -> str:
        """Decode (bad bytes replaced) and cut to ``budget`` characters, head and tail kept."""
        dropped = self.total - len(self.head) - len(self.tail)
        if dropped == 0:
            whole = (self.head + self.tail).decode("utf-8", "replace").strip()
            if len(whole) <= budget:
                return whole
            head, tail = whole, whole
        else:
            head = self.head.decode("utf-8", "replace").lstrip()
            tail = self.tail.decode("utf-8", "replace").rstrip()
        marker = f"\n\n... [output cut: {self.total} bytes in total; the start and the end are shown] ...\n\n"
        half = (budget - len(marker)) // 2
        return head[:half] + marker + tail[-half:]


def run_command(
    command: str, *, cwd: str | os.PathLike, timeout: float = 120, isolated: bool = False
) -> str:
    """Run ``command`` with bash in ``cwd``; return its combined output (raises ToolError on refusal/timeout)."""
    if not isinstance(command, str) or not command.strip():
        raise ToolError("command is empty; give a shell command to run")
    if "\x00" in command:
        raise ToolError("command contains a null byte")
    rule = is_dangerous(command)
    if rule:
        raise ToolError(
            f"Dangerous command blocked: `{rule}` is on the deny-list "
            "(a guard rail from the course, not a security boundary)"
        )
    isolation.make_non_dumpable()
    env = isolation.child_env(isolated)
    argv = [_SHELL, "-c", command]
    if isolated:
        argv = isolation.bwrap_argv(Path(cwd), env, argv)
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own group: one kill stops all
            preexec_fn=None if isolated else isolation.drop_privileges,
        )
    except OSError as exc:
        raise ToolError(f"Could not start the shell: {exc}") from None
    capture = _Capture()
    deadline = time.monotonic() + timeout
    timed_out = _pump(proc, capture, deadline)
    if not timed_out:  # EOF can come before the exit (coreutils close stdout first)
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # nothing the command started outlives the call
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    proc.stdout.close()
    if timed_out:
        partial = capture.text(MAX_OUTPUT_CHARS - 200) or "(no output)"
        raise ToolError(
            f"Timeout ({timeout:g}s): the command and everything it started were "
            f"stopped. Output so far:\n{partial}"
        )
    status = f"\n[exit code {proc.returncode}]" if proc.returncode else ""
    out = capture.text(MAX_OUTPUT_CHARS - len(status)) or "(no output)"
    return out + status


def _pump(proc: subprocess.Popen, capture: _Capture, deadline: float) -> bool:
    """Read output as it comes until EOF (or the shell has exited); True if the deadline passed."""
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    exited_at = None
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            now = time.monotonic()
            if now >= deadline:
                return True
            if exited_at is None and proc.poll() is not None:
                exited_at = now  # background children may hold the pipe open: do not wait for them
            if exited_at is not None and now - exited_at > _EXIT_GRACE_S:
                return False
            if sel.select(min(deadline - now, 0.05 if exited_at else 0.1)):
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    return False
                capture.add(chunk)
