"""Read a learner's request into parts (action, object, filters, counts), or say which part is unclear.

The playbook acts only when every clause of the prompt matched a rule in full; one clause that
matches nothing makes the whole request unclear, so nothing is half done. The work is bounded:
prompts longer than MAX_PROMPT_CHARS are not parsed, clauses longer than MAX_CLAUSE_CHARS are
unclear, and every pattern is anchored and free of nested repetition, so time grows linearly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_PROMPT_CHARS = 2000
MAX_CLAUSE_CHARS = 300
MAX_CLAUSES = 12
MARK = "\ue000"  # a private-use character around a quote's number; never kept from the prompt
CJK = re.compile(r"[\u4e00-\u9fff]")
QUOTES = {'"': '"', "“": "”", "‘": "’", "`": "`", "「": "」", "『": "』", "'": "'"}
# a ! or ? ends a sentence only when more follows: at the end it may belong to a message
OPENING = re.compile("|".join(map(re.escape, QUOTES)))
HARD_BREAK = re.compile(r"[;；。\n]+|[!?！？]+(?=\s*\S)|\.(?=\s)|\.$|……|…")
# a soft break splits only when a new action (or but/not/then...) follows it
SOFT_BREAK = re.compile(
    r"\s*(?:,\s+and then\s+|,\s+then\s+|\s+and then\s+|\s+then\s+|,?\s+and\s+|,\s+"
    r"|，\s*(?:然后|接着|之后|并且|并|再|但是|但)?|然后|接着|之后|并且|并|再)\s*",
    re.I,
)
WORD = re.compile(r"(?<![A-Za-z0-9_./-])[A-Za-z]{4,}(?![A-Za-z0-9_./(-])")


@dataclass
class Part:
    """One thing the request asks for: its kind (create, show, list...) and its parameters."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    clause: str = ""


@dataclass
class Request:
    """What the playbook understood: every part, or the first clause it could not read."""

    parts: list[Part]
    chinese: bool
    unclear: str | None = None  # the clause (or reason) that stopped the reading


class Unclear(Exception):
    """A clause matched a rule's shape but asks for something the offline model cannot do."""


def protect_quotes(text: str) -> tuple[str, list[str]]:
    """Replace each quoted span by a numbered marker (so its commas and 'and's are not breaks)."""
    out: list[str] = []
    quoted: list[str] = []
    i, n = 0, len(text)
    while (found := OPENING.search(text, i)) is not None:
        start, char = found.start(), found[0]
        close = QUOTES[char]
        end = -1
        if char != "'" or start == 0 or not text[start - 1].isalnum():
            end = text.find(close, start + 1)
            # an apostrophe (don't) is not a quote: a closing ' must not be followed by a letter
            while char == "'" and end != -1 and end + 1 < n and text[end + 1].isalnum():
                end = text.find(close, end + 1)
        if end > start:
            out += [text[i:start], f"{MARK}{len(quoted)}{MARK}"]
            quoted.append(text[start + 1 : end])
            i = end + 1
        else:
            out.append(text[i : start + 1])
            i = start + 1
    out.append(text[i:])
    return "".join(out), quoted


def split_clauses(text: str, starts: re.Pattern) -> list[str]:
    """Cut the prompt at sentence ends, and at commas/'and'/'then' that a new action follows."""
    clauses: list[str] = []
    for sentence in HARD_BREAK.split(text):
        start = 0
        for brk in SOFT_BREAK.finditer(sentence):
            rest = sentence[brk.end() : brk.end() + 24]
            if brk.start() > start and ("，" in brk[0] or starts.match(rest)):
                clauses.append(sentence[start : brk.start()])
                start = brk.end()
        clauses.append(sentence[start:])
    return [c.strip(" .,，、~") for c in clauses if c.strip(" .,，、~")]


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class Speller:
    """Fixes one-letter typos (missing, extra, wrong or swapped letter) in known words."""

    def __init__(self, targets: set[str], known: set[str]) -> None:
        self.words = targets
        self.known = known | targets
        self.by_delete: dict[str, set[str]] = {}
        for word in targets:
            for short in _deletes(word):
                self.by_delete.setdefault(short, set()).add(word)

    def fix_word(self, word: str) -> str:
        low = word.lower()
        if low in self.known:
            return word
        found = set(self.by_delete.get(low, ()))  # a letter missing
        for short in _deletes(low):
            if short in self.words:  # a letter too many
                found.add(short)
            found |= self.by_delete.get(short, set())  # a wrong letter
        for i in range(len(low) - 1):  # two letters swapped
            swapped = low[:i] + low[i + 1] + low[i] + low[i + 2 :]
            if swapped in self.words:
                found.add(swapped)
        return found.pop() if len(found) == 1 else word

    def fix(self, text: str) -> str:
        return WORD.sub(lambda m: self.fix_word(m[0]), text)


def unquote(value: str | None, quoted: list[str]) -> str | None:
    """The text a quote marker stands for (markers inside a longer value are restored too)."""
    if value is None:
        return None
    return re.sub(r"\ue000(\d+)\ue000", lambda m: quoted[int(m[1])], value)
