"""The bash tool: a hardened command runner, plus the seed's deny-list kept as a teaching guard rail."""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

from ..errors import ToolError
from ..text import clip, cut_marker
from . import hardening, isolation, seccomp, tree
from . import limits as limits_module
from .limits import DEFAULT_LIMITS, CallCgroup, Limits

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

    def __init__(self, keep: int) -> None:
        self.head, self.tail, self.total, self.keep = bytearray(), bytearray(), 0, keep

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.keep:
                del self.tail[: len(self.tail) - self.keep]

    def text(self, budget: int) -> str:
        """Decode (bad bytes replaced) and cut to ``budget`` characters, head and tail kept."""
        dropped = self.total - len(self.head) - len(self.tail)
        if dropped == 0:
            whole = (self.head + self.tail).decode("utf-8", "replace").strip()
            return clip(whole, budget, keep_end=True)
        head = self.head.decode("utf-8", "replace").lstrip()
        tail = self.tail.decode("utf-8", "replace").rstrip()
        marker = cut_marker(f"the middle of {self.total} bytes of output")
        half = (budget - len(marker)) // 2
        return head[:half] + marker + tail[-half:]


def run_command(
    command: str,
    *,
    cwd: str | os.PathLike,
    mode: str = "none",
    limits: Limits = DEFAULT_LIMITS,
) -> str:
    """Run ``command`` with bash in ``cwd`` under ``mode``'s isolation and ``limits``; return its output.

    Raises ToolError on refusal or timeout; a bound that was hit is named at the end of the output.
    """
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
    hardening.make_non_dumpable()
    env = isolation.child_env(mode == "bwrap")
    argv = [_SHELL, "-c", limits_module.rlimit_preamble(limits, mode), _SHELL, command]
    filter_fd = seccomp.pipe_for_bwrap() if mode == "bwrap" else None
    if mode == "bwrap":
        argv = isolation.bwrap_argv(Path(cwd), env, argv, limits.tmp_bytes, filter_fd)
    elif mode == "unshare":
        argv = isolation.unshare_argv(argv)
    cgroup = CallCgroup.create(limits)
    if cgroup is not None:
        argv = cgroup.joining_argv(argv)
    # bwrap sets no-new-privileges and loads the filter itself, so it spawns without Python code
    # in the child (faster); root keeps its capabilities only as long as bwrap/unshare need them
    harden = {"none": _harden_unisolated, "unshare": _harden_for_unshare}.get(mode)
    seccomp.prepare(mode != "unshare")  # in the parent: the child only makes the one prctl call

    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own group: one kill stops all
            preexec_fn=harden,
            pass_fds=() if filter_fd is None else (filter_fd,),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        if cgroup is not None:
            cgroup.remove()
        raise ToolError(f"Could not start the shell: {exc}") from None
    finally:
        if filter_fd is not None:
            os.close(filter_fd)
    capture = _Capture(4 * limits.output_chars)  # bytes enough for the kept chars in any UTF-8
    deadline = time.monotonic() + limits.bash_seconds
    try:
        timed_out = _pump(proc, capture, deadline)
        if not timed_out:  # EOF can come before the exit (coreutils close stdout first)
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True
    except BaseException:  # interrupted (Ctrl-C, a check's time bound): the command stops too
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        if cgroup is not None:
            cgroup.remove()
        raise
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # nothing the command started outlives the call
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    proc.stdout.close()
    hits = cgroup.hits() if cgroup is not None else (False, False)
    if cgroup is not None:
        cgroup.remove()
    after = "".join(_sweep(Path(cwd), limits))  # once nothing of the call runs any more
    if timed_out:
        partial = capture.text(limits.output_chars - 200 - len(after)) or "(no output)"
        raise ToolError(
            f"Timeout ({limits.bash_seconds:g}s): the command and everything it started were "
            f"stopped. Output so far:\n{partial}{after}"
        )
    status = f"\n[exit code {proc.returncode}]" if proc.returncode else ""
    head = capture.text(4000)  # the bound messages appear early in a failing command's output
    tail = capture.text(limits.output_chars)[-4000:]
    status += "".join(limits_module.named_hits(head + tail, hits, limits, mode, cgroup)) + after
    out = capture.text(limits.output_chars - len(status)) or "(no output)"
    return out + status


def _harden_unisolated() -> None:
    hardening.drop_privileges()
    seccomp.load_in_child(close_namespaces=True)


def _harden_for_unshare() -> None:
    hardening.no_new_privileges()
    seccomp.load_in_child(close_namespaces=False)  # unshare makes its namespaces after this


def _sweep(root: Path, limits: Limits) -> list[str]:
    """No setuid/setgid file and no device node stays in the workspace after a call."""
    try:
        return limits_module.swept(tree.sweep(root), limits)
    except FileNotFoundError:  # the command deleted the workspace: nothing is left in it
        return []
    except OSError as exc:  # changed while it was checked
        return [f"\n[the workspace could not be checked for setuid files: {exc}]"]


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
