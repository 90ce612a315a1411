"""The Playbook policy: recognise a try-it prompt, then play it against the real tool results."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agentlib.offline import plays
from agentlib.offline.actions import Actions, MissingTools
from agentlib.offline.conversation import Round, last_prompt, offered_tools, rounds_since
from agentlib.offline.script import Reply, call, reply, say

NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
FILENAME = re.compile(r"((?:[\w-]+/)*[\w-]+\.(?:py|txt|md|json|toml|cfg|ini|yaml|yml|csv|sh))\b")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _has(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.I) is not None


def _filename(prompt: str, default: str) -> str:
    found = FILENAME.search(prompt)
    return found[1] if found else default


def match_folder_of_files(prompt: str) -> dict | None:
    """'a directory called X with 3 files': the folder and how many files (at most 20)."""
    count = re.search(rf"\b(\d+|{'|'.join(NUMBERS)})\s+(?:\w+\s+)?files?\b", prompt, re.I)
    if not (count and _has(r"\b(directory|folder|dir)\b", prompt)):
        return None
    named = re.search(
        r"\b(?:directory|folder|dir)\s+(?:called\s+|named\s+)?[`'\"]?([\w.-]+)", prompt
    )
    folder = named[1] if named and named[1].lower() not in ("and", "with") else "test_output"
    number = count[1].lower()
    return {"folder": folder, "count": min(20, max(1, int(NUMBERS.get(number, number))))}


def match_function_file(prompt: str) -> dict | None:
    """'create greet.py with a greet(name) function': the file, the function and its parameters."""
    found = re.search(r"\b(\w+)\s*\(([^)]*)\)\s*function|\bfunction\s+(\w+)\s*\(([^)]*)\)", prompt)
    if not (found and _has(r"\b(create|write|make)\b", prompt)):
        return None
    function, params = (found[1], found[2]) if found[1] else (found[3], found[4])
    return {"path": _filename(prompt, f"{function}.py"), "function": function, "params": params}


def match_printing_file(prompt: str) -> dict | None:
    """'create hello.py that prints "..."': the file and the message it prints."""
    if not _has(r"\b(create|write|make)\b", prompt):
        return None
    said = re.search(r"\bprints?\s+[\"'“`](.+?)[\"'”`]", prompt)
    if not (said or _has(r"hello\.py|hello,? world", prompt)):
        return None
    return {"path": _filename(prompt, "hello.py"), "message": said[1] if said else "Hello, World!"}


def match_docstring(prompt: str) -> dict | None:
    """'add a docstring to greet.py' (not a request to read or verify one): the file."""
    if not _has(r"\bdocstrings?\b", prompt) or _has(r"^\s*(read|show|check|verify)\b", prompt):
        return None
    return {"path": _filename(prompt, "greet.py")}


def match_read(prompt: str) -> dict | None:
    """'read requirements.txt', 'show x.py': the file, and whether to verify an edit."""
    asks = _has(r"^\s*(please\s+)?(read|show|cat|open|display|view)\b|contents? of", prompt)
    if not (asks and FILENAME.search(prompt)):
        return None
    verify = _has(r"\b(verify|check|confirm)\b", prompt)
    return {"path": _filename(prompt, ""), "verify_docstring": verify}


def match_git_branch(prompt: str) -> dict | None:
    """Any question about the current git branch, in English or Chinese."""
    if _has(r"\bgit\b.*\bbranch\b|\bbranch\b.*\bgit\b|current branch|分支", prompt):
        return {}
    return None


def match_python_files(prompt: str) -> dict | None:
    """'list the Python files', '*.py', or the Chinese question: which language to answer in."""
    english = _has(r"\b(list|show|find|which|what|get)\b.*\bpython\s+(files?|scripts?)\b", prompt)
    chinese = _has(r"python", prompt) and "文件" in prompt
    if english or chinese or _has(r"\*\.py\b", prompt):
        return {"chinese": bool(CJK.search(prompt))}
    return None


# order matters: the more specific prompt shapes come first
RULES: list[tuple[Callable[[str], dict | None], Callable[..., plays.Play]]] = [
    (match_folder_of_files, plays.create_files_in_folder),
    (match_function_file, plays.create_function_file),
    (match_printing_file, plays.create_printing_file),
    (match_docstring, plays.add_docstring),
    (match_read, plays.read_file),
    (match_git_branch, plays.current_git_branch),
    (match_python_files, plays.list_python_files),
]


class Playbook:
    """Handles the seeds' try-it prompts with the tools the request offers, reacting to results."""

    def __init__(self, rules=None) -> None:
        self.rules = list(RULES if rules is None else rules)

    def match(self, prompt: str) -> tuple[Callable[..., plays.Play], dict] | None:
        """The first play whose rule fits the prompt, with the parameters read from it."""
        for matcher, play in self.rules:
            params = matcher(prompt)
            if params is not None:
                return play, params
        return None

    def answer(self, request: dict[str, Any]) -> Reply | None:
        """The next turn of the matching play, or None when no play fits this conversation."""
        messages = request["messages"]
        found = last_prompt(messages)
        if messages[-1]["role"] != "user" or found is None:
            return None
        index, prompt = found
        matched = self.match(prompt)
        if matched is None:
            return None
        play, params = matched
        offered = offered_tools(request)
        try:
            return _next_turn(play(Actions(offered), **params), rounds_since(messages, index))
        except MissingTools as missing:
            tools = ", ".join(sorted(offered)) or "no tools"
            return say(
                f"I am the offline model. I know this task, but I need a {missing} tool for it "
                f"and this request offers {tools}. Pass a toolbox that has one (e.g. s02_tools)."
            )


def _next_turn(steps: plays.Play, rounds: list[Round]) -> Reply | None:
    """Replay the play over the rounds already in the history; return its next turn."""
    try:
        act = next(steps)
        for past in rounds:
            if [c["name"] for c in act.calls] != [c["name"] for c in past.calls]:
                return None  # this history was not made by this play: let another policy answer
            act = steps.send(past.results if len(past.results) > 1 else past.results[0])
    except StopIteration as finished:
        return say(finished.value)
    calls = [call(c["name"], c["input"]) for c in act.calls]
    return reply(*([act.text] if act.text else []), *calls)
