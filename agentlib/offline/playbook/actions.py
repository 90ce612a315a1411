"""What a play is made of: the tool calls it can make, and the sentences it says in either language.

A play is a generator: it yields an ``Act`` (tool calls) and receives what the tools returned (one
``Result``, or a list when the act made several calls); its return value is its part of the final
answer. A step that fails ends the play early through ``Actions.stop_if``. The playbook replays
the plays against the history in each request, so the server keeps no state.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from agentlib.offline.conversation import Result
from agentlib.text import clip

# how failures show up in tool output: a non-zero exit code, an error line, a traceback
FAILED = re.compile(
    r"exit (code|status)\D{0,3}[1-9]|^error\b|^fatal:|^traceback|no such file|command not found",
    re.I | re.M,
)


@dataclass
class Act:
    """One model turn of a play: optional text, then tool calls (all sent in one reply)."""

    calls: list[dict[str, Any]]
    text: str | None = None


Play = Generator[Act, Any, str]  # yields tool calls, receives their results, returns the answer


class MissingTools(Exception):
    """The request does not offer any tool that could do this step (the message names them)."""


class Stopped(Exception):
    """A play ends before its last step; the message is its part of the final answer."""


@dataclass
class Actions:
    """Builds calls for the offered tools (s02's file tools when present, else bash), and words
    every sentence of a play in the language of the request."""

    offered: set[str] = field(default_factory=set)
    zh: bool = False

    def tr(self, english: str, chinese: str) -> str:
        """The sentence in the language of the request."""
        return chinese if self.zh else english

    def said(self, english: str, chinese: str, output: str) -> str:
        """A sentence of the answer, then what the tool said below it."""
        return self.tr(english, chinese) + quote(output)

    def told(self, result: Result, failure: tuple[str, str], success: tuple[str, str]) -> str:
        """What went wrong or what was done (English, Chinese), then what the tool said below it."""
        return self.said(*(failure if failed(result) else success), result.text)

    def step(self, english: str, chinese: str, *calls: dict[str, Any]) -> Act:
        """One turn of a play: what it is about to do, then the calls that do it."""
        return Act(list(calls), self.tr(english, chinese))

    def stop_if(self, stop: bool, english: str, chinese: str, output: str | None = None) -> None:
        """End the play here when ``stop`` holds: this sentence, then any tool output below it."""
        if stop:
            answer = self.tr(english, chinese)
            raise Stopped(answer if output is None else answer + quote(output))

    def has(self, name: str) -> bool:
        """Whether the request offers a tool with this name."""
        return name in self.offered

    def _pick(self, *names: str) -> str:
        for name in names:
            if name in self.offered:
                return name
        raise MissingTools(" or ".join(names))

    def run(self, command: str) -> dict[str, Any]:
        """Run a shell command (needs bash)."""
        return {"name": self._pick("bash"), "input": {"command": command}}

    def write(self, path: str, content: str) -> dict[str, Any]:
        """Write a file: write_file, else a bash heredoc (no shell expansion inside it)."""
        if self._pick("write_file", "bash") == "write_file":
            return {"name": "write_file", "input": {"path": path, "content": content}}
        folder = path.rpartition("/")[0]
        mkdir = f"mkdir -p {shlex.quote(folder)} && " if folder else ""
        if not content:
            return self.run(f"{mkdir}: > {shlex.quote(path)}")
        body = content if content.endswith("\n") else content + "\n"
        return self.run(f"{mkdir}cat > {shlex.quote(path)} <<'AGENTLIB_EOF'\n{body}AGENTLIB_EOF")

    def read(self, path: str, head: int | None = None, tail: int | None = None) -> dict[str, Any]:
        """Read a file (or its first/last lines): read_file, else cat, head or tail."""
        if self._pick("read_file", "bash") == "read_file":
            return {
                "name": "read_file",
                "input": {"path": path, **({"limit": head} if head else {})},
            }
        if head or tail:
            return self.run(
                f"{'head' if head else 'tail'} -n {head or tail} -- {shlex.quote(path)}"
            )
        return self.run(f"cat -- {shlex.quote(path)}")

    def edit(
        self, path: str, old: str, new: str, whole_new_text: str | None, replace_all: bool = False
    ) -> dict[str, Any]:
        """Replace ``old`` by ``new``: edit_file, else rewrite the whole file through bash."""
        if self._pick("edit_file", "bash") == "edit_file" or whole_new_text is None:
            flag = {"replace_all": True} if replace_all else {}
            inputs = {"path": path, "old_text": old, "new_text": new, **flag}
            return {"name": "edit_file", "input": inputs}
        return self.write(path, whole_new_text)

    def glob(self, pattern: str) -> dict[str, Any]:
        """Find paths matching a glob pattern (needs glob)."""
        return {"name": self._pick("glob"), "input": {"pattern": pattern}}

    def list_dir(self, folder: str) -> dict[str, Any]:
        """List a folder: bash ls -l when present (shows sizes), else glob."""
        if self._pick("bash", "glob") == "bash":
            return self.run(f"ls -l {shlex.quote(folder)}")
        return {"name": "glob", "input": {"pattern": f"{folder}/*"}}


def read_text(act: Actions, path: str, head: int | None = None, tail: int | None = None) -> Play:
    """Read a file and return its text; the play stops with the tool's own words if it can't."""
    shown = yield act.step(f"I'll read {path}.", f"我来读取 {path}。", act.read(path, head, tail))
    # a file may itself hold 'Error:' or a traceback: only the tool's own failure counts here
    if act.has("read_file") or shown.is_error:
        unread = shown.is_error
    else:  # cat/head/tail fail with their own name or a non-zero exit code
        unread = bool(re.search(r"\[exit code [1-9]\d*\]\s*$|^(?:cat|head|tail): ", shown.text))
    act.stop_if(
        unread,
        f"I could not read {path}. The tool said:",
        f"没能读取 {path}。工具输出：",
        shown.text,
    )
    return shown.text


def failed(result: Result) -> bool:
    """Whether a tool result reports a failure (an error result, or an error in the output)."""
    return result.is_error or bool(FAILED.search(result.text))


def plural(n: int, noun: str) -> str:
    """'1 file', '2 files': a count that reads right."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def quote(text: str, limit: int = 1500) -> str:
    """Tool output as an indented block on the lines below a sentence of the answer, cut if long."""
    text = clip(text.rstrip() or "(no output)", limit)
    return "".join("\n    " + line for line in text.splitlines())
