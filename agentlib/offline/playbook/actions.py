"""Tool calls the playbook can make, each built from whichever tools the request offers."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from agentlib.offline.conversation import Result
from agentlib.text import clip

# how failures show up in tool output: a non-zero exit code, an error line, a traceback
FAILED = re.compile(
    r"exit (code|status)\D{0,3}[1-9]|^error\b|^fatal:|^traceback|no such file|command not found",
    re.I | re.M,
)


class MissingTools(Exception):
    """The request does not offer any tool that could do this step."""

    def __init__(self, *names: str) -> None:
        self.names = names
        super().__init__(" or ".join(names))


@dataclass
class Act:
    """One model turn of a play: optional text, then tool calls (all sent in one reply)."""

    calls: list[dict[str, Any]]
    text: str | None = None


@dataclass
class Actions:
    """Builds calls for the offered tools: s02's file tools when present, else bash."""

    offered: set[str] = field(default_factory=set)

    def has(self, name: str) -> bool:
        """Whether the request offers a tool with this name."""
        return name in self.offered

    def _pick(self, *names: str) -> str:
        for name in names:
            if name in self.offered:
                return name
        raise MissingTools(*names)

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
            return {
                "name": "edit_file",
                "input": {"path": path, "old_text": old, "new_text": new, **flag},
            }
        return self.write(path, whole_new_text)

    def glob(self, pattern: str) -> dict[str, Any]:
        """Find paths matching a glob pattern (needs glob)."""
        return {"name": self._pick("glob"), "input": {"pattern": pattern}}

    def find(self, pattern: str) -> dict[str, Any]:
        """Find files by name pattern anywhere below the root: glob, else find."""
        if self._pick("glob", "bash") == "glob":
            return {"name": "glob", "input": {"pattern": f"**/{pattern}"}}
        return self.run(f"find . -name {shlex.quote(pattern)} -not -path '*/.*' | sort")

    def list_dir(self, folder: str) -> dict[str, Any]:
        """List a folder: bash ls -l when present (shows sizes), else glob."""
        if self._pick("bash", "glob") == "bash":
            return self.run(f"ls -l {shlex.quote(folder)}")
        return {"name": "glob", "input": {"pattern": f"{folder}/*"}}


def failed(result: Result) -> bool:
    """Whether a tool result reports a failure (an error result, or an error in the output)."""
    return result.is_error or bool(FAILED.search(result.text))


def tr(zh: bool, english: str, chinese: str) -> str:
    """The sentence in the language of the request."""
    return chinese if zh else english


def told(result: Result, zh: bool, failure: tuple[str, str], success: tuple[str, str]) -> str:
    """What went wrong or what was done (English, Chinese), then what the tool said below it."""
    english, chinese = failure if failed(result) else success
    return tr(zh, english, chinese) + quote(result.text)


def quote(text: str, limit: int = 1500) -> str:
    """Tool output as an indented block on the lines below a sentence of the answer, cut if long."""
    text = text.rstrip() or "(no output)"
    text = clip(text, limit)
    return "".join("\n    " + line for line in text.splitlines())
