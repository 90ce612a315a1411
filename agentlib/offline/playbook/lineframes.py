"""The lines of one file that pass a test: they contain a text, start or end with it, or do not.

'how many lines in log.txt contain err', "show the lines of a.txt that don't start with #",
'containing hello but not world', 'a.txt 里不是以 # 开头的行有哪些'. The count, search and show
frames (frames.py) ask here first; the part is a show part whose ``grep`` holds each test as
[how, text, keep], played by plays.show against the file's real text.
"""

from __future__ import annotations

import itertools
import re

from agentlib.offline.playbook.clause import IT, Change, Clause, update, use
from agentlib.offline.playbook.lexicon import DESCRIBING, SHELL
from agentlib.offline.playbook.reader import Item, Part

# what says how a line is tested: it holds the text, starts or ends with it ('以 # 开头/结尾')
LINE_TESTS = {"verb.search": "in", "mark.content": "in", "mark.with": "in", "mark.starts": "start"}
LINE_TESTS |= {"stop.ends": "end", "mark.edge": "edge"}
EDGES = {"first": "start", "last": "end", "end": "end"}  # the word after '以 #': 开头, 结尾
HAS = ("有", "里有", "have", "has")  # 'a.txt 里有 WARN 的行': 'has' when nothing else says it
SEARCHING = ("search", "search for", "grep", "look for", "搜索", "搜")  # across files, not a test


def _test(i: Item) -> str | None:
    return LINE_TESTS.get(f"{i.role}.{i.value}") if not i.used else None


def _negates(i: Item) -> bool:
    return i.is_("mark", "except") or i.is_("mark", "not")


def _names_it(i: Item) -> bool:
    """'it', 'in it', 'that file', '它': the file named before ('lines that contain': not it)."""
    return (i.is_("mark", "it") and i.text.lower() != "that") or bool(
        re.search(r"\bit\b|它", i.text)
    )


def matching_lines(c: Clause, counting: bool = False) -> Part | None:
    """The lines of one file that pass a test: 'that contain err', "that don't start with #",
    'containing hello but not world', '不以 # 开头的行'; each test is [how, text, keep]."""
    imports = [
        i
        for i in c.items
        if i.role == "verb" and i.text.lower().startswith(("import", "导入", "引入"))
    ]
    if not c.find("noun", "line") or imports:
        return None  # 'which lines of a.py import os': the search of imports reads that
    read_before = [i.used for i in c.items]
    found = _line_tests(c)
    if not found:
        for i, used in zip(c.items, read_before, strict=True):
            i.used = used  # not a line test: the other frames read the clause as it was
        return None
    c.take_all("noun", "line")
    c.drop("mark.in", "mark.it", "mark.then", "verb.show", "verb.list", "verb.find", "verb.tell")
    c.drop("verb.count", "noun.file", "mark.exists")  # 'are there lines in a.txt with ...'
    return Part("show", {"path": found[0], "grep": found[1], "count": counting})


def more_tests(c: Clause, parts: list[Part]) -> Change | None:
    """After 'and', one more test: "how many lines of a.txt don't start with # and contain hi"."""
    before = parts[-1].params.get("grep") if parts and parts[-1].kind == "show" else None
    first = next((i for i in c.items if i.role not in ("stop", "op")), None)
    if not before or first is None or c.paths() or c.find("noun", "line"):
        return None
    if first.text.lower() in SEARCHING or not (_test(first) or _negates(first)):
        return None
    found = _line_tests(c, more=True)
    return (lambda part: update(part, grep=before + found[1])) if found else None


def _line_tests(c: Clause, more: bool = False) -> tuple[str, list[list]] | None:
    heads = [i for i in c.items if _test(i) or _negates(i)]
    heads = heads or [i for i in c.items if i.role == "stop" and i.text.lower() in HAS]
    words = [i for i in c.items if not i.is_("stop", "") or i in heads]
    nxt = {id(a): b for a, b in itertools.pairwise(words)}
    named = [i for i in c.paths(ext_only=True) if not any(nxt.get(id(h)) is i for h in heads)]
    if not named and not more:  # 'how many lines in it contain err': the file named before
        named = [i for i in c.items if i.is_("mark", "it", "in_it") and _names_it(i)][:1]
    if not heads or not (named or more):
        return None
    use(named[:1])  # the file; a name right after 'contain' is the text to look for
    ends = [i for i in words if i.is_("noun", "line") or i.is_("mark", "in", "it", "then")]
    ends += [*named[:1], *heads]
    tests, keep, previous = [], True, None
    for head in heads:
        how = _test(head) or ("in" if head.role == "stop" else None)
        head.used = True
        c.drop("mark.term")  # 'with the word err'
        after = nxt.get(id(head))
        if _negates(head):
            keep = False
            if after is not None and (_test(after) or _negates(after)):
                continue  # "don't start with", '不包含'
            how = previous or "in"  # 'containing hello but not world', 'lines without #'
        at = c.items.index(head) + 1
        stop = next(
            (i for i in c.items[at:] if i in ends or (how == "edge" and i.is_("mark", *EDGES))),
            None,
        )
        span = c.items[at : c.items.index(stop) if stop else len(c.items)]
        said = [i for i in span if not (i.is_("stop", "") or i.is_("verb", "count"))]
        if not said and how != "edge" and keep:
            continue  # 'search for lines containing err', 'how many lines does a.txt have'
        if how == "edge":  # '以 # 开头': the word after the text says which edge
            how = EDGES.get(stop.value) if stop is not None and stop.role == "mark" else None
            use([stop] if how else [])
        text = _term(c, span) if how else None
        if text is None or (text.isdigit() and _negates(head)):
            return None  # 'all lines except 3': a line number, not a text
        if head.is_("mark", "with") and text.lower() in SHELL:
            return None  # 'count the lines of a.txt with wc': how to count, not what
        tests.append([how, text, keep])
        keep, previous = True, how
    path = (IT if named[0].role == "mark" else c.unquote(named[0].value)) if named else None
    return (path, tests) if tests and keep else None


def _term(c: Clause, span: list[Item]) -> str | None:
    """The text a line is tested for: a quote as typed, else one run of text with no space in it
    ('err', 'a.b', '#', '错误'); filler after it ('的', 'please', '?') is not part of it, and
    'a', 'the', 'my' before it make it a description."""
    while span and (span[-1].is_("stop", "") or span[-1].text in "?？"):
        span = span[:-1]
    while span and span[0].used:
        span = span[1:]  # 'the word' in 'contain the word print'
    if span and span[0].text.lower() in DESCRIBING:
        return None  # 'lines that have a comment': a kind of line, not the text 'comment'
    if len(span) == 1 and span[0].role == "quote":
        use(span)
        return c.unquote(span[0].value)
    text = c.text[span[0].start : span[-1].end] if span else ""
    if not text or re.search(r"\s", text) or "\ue000" in text:
        return None  # 'lines with more than 80 characters': a description, not a text
    word = len(span) == 1 and span[0].text.isascii() and not span[0].is_("verb", "count")
    kinds = ("noun", "adj", "mark") if word else ("noun", "adj", "mark", "verb")
    if any(i.used or (i.role in kinds and re.search(r"\w", i.text)) for i in span):
        return None  # 'lines with the most words'; one word alone is the text: 'contain print'
    use(span)
    return text
