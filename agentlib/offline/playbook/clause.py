"""A clause's items and its typed slots: names, numbers, kinds of file, folders and literal text.

Each frame (frames.py, writeframes.py) takes from a Clause the items its slots need; an item
taken is used, and whatever content word no slot used is left over. Literal text is taken as
typed between the slot markers (spaces kept), and never when it reads as a description.

A clause may also say something about the part it belongs to: "except .md" / "除了 keep.txt"
filter a listing, a search, a count or a delete by kind; "but don't run it", "subfolders
included" are flags; "if a.txt exists" / "如果 a.txt 不存在" is a condition the playbook checks
in the real workspace before the part is played.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from agentlib.offline.playbook.lexicon import DESCRIBING, NOT_LITERAL
from agentlib.offline.playbook.reader import ABSENT, CJK, FRAME_START, OTHERWISE, Item, Part

IT = "\x00it"  # the file the previous part (or the previous prompt) was about
Change = Callable[[Part], bool]
MUTATING = {"create", "mkdir", "append", "replace", "move", "copy", "delete", "delete_ext"}
MUTATING |= {"docstring", "delete_except", "version"}
EXT_PATH = re.compile(r"\.[A-Za-z0-9]{1,8}")
JOINERS = ("and", "和", "与", "及", "、", ",", "，")  # between two names


def update(part: Part, **params: object) -> bool:
    """Give the part before these parameters: a Change that is made."""
    part.params.update(params)
    return True


def use(items: list[Item]) -> None:
    """Mark these items read: no slot takes them again, and they are not left over."""
    for i in items:
        i.used = True


class Clause:
    """The items of one clause, and which of them a slot has used."""

    def __init__(self, items: list[Item], text: str, quoted: list[str]) -> None:
        self.items, self.text, self.quoted = items, text, quoted

    def find(self, role: str, *values: str) -> Item | None:
        return next((i for i in self.items if not i.used and i.is_(role, *values)), None)

    def take(self, role: str, *values: str) -> Item | None:
        found = self.find(role, *values)
        use([found] if found else [])
        return found

    def take_all(self, role: str, *values: str) -> list[Item]:
        found = [i for i in self.items if not i.used and i.is_(role, *values)]
        use(found)
        return found

    def drop(self, *specs: str) -> None:
        """Use up every item of these kinds ('noun.file', 'here'): words the frame has read."""
        for spec in specs:
            role, _, value = spec.partition(".")
            self.take_all(role, *([value] if value else []))

    def has(self, role: str, *values: str) -> bool:
        return any(i.is_(role, *values) for i in self.items)

    def left(self) -> list[Item]:
        return [i for i in self.items if not i.used and i.role not in ("stop", "op")]

    def unquote(self, value: str, full: bool = False) -> str:
        """The text a quote marker stands for; ``full`` keeps the quote marks (inside other text)."""

        def found(m: re.Match) -> str:
            text = self.quoted[int(m[1])]
            return getattr(text, "full", text) if full else text

        return re.sub("\ue000(\\d+)\ue000", found, value)

    def paths(self, ext_only: bool = False) -> list[Item]:
        found = [i for i in self.items if not i.used and i.role in ("path", "quote")]
        if ext_only:
            found = [i for i in found if not EXT_PATH.fullmatch(i.value)]
        return [i for i in found if i.role == "path" or _pathlike(self.unquote(i.value))]

    def take_paths(self) -> list[str]:
        """Every name left, with the 'and' or comma between two of them."""
        found = []
        while (path := self.take_path(join=True)) is not None:
            found.append(path)
        return found

    def take_path_or_it(self) -> str | None:
        """A name, or 'it': the file the part before (or the prompt before) was about."""
        return self.take_path() or (IT if self.take("mark", "it") else None)

    def take_path(self, join: bool = False) -> str | None:
        found = self.paths(ext_only=True)
        if not found:
            return None
        found[0].used = True
        at = self.items.index(found[0])
        use([i for i in self.items[max(0, at - 1) : at + 2] if i.is_("mark", "in")])  # 'in a.txt'
        joined = self.items[at + 1 : at + 3]  # 'a.txt and b.txt', 'a.txt、b.txt'
        if join and len(joined) == 2 and joined[0].text.lower() in JOINERS:
            if joined[1].role in ("path", "quote") and not joined[1].used:
                joined[0].used = True
        return self.unquote(found[0].value)

    def literal(
        self, after: Item | None = None, before: Item | None = None, content: bool = False
    ) -> str | None:
        """The unused words between two items, as typed: a quote exactly, else plain words.

        Content to write must not open with 'a'/'the'/'my' unless quoted: that describes it.
        """
        lo = self.items.index(after) + 1 if after else 0
        hi = self.items.index(before) if before else len(self.items)
        span = [i for i in self.items[lo:hi] if not i.used]
        nxt = {id(a): b for a, b in itertools.pairwise(self.items)}
        opening = [i for i in span if i.role != "op" and not nxt.get(id(i), i).used][:1]
        quote = [i for i in span if i.role not in ("stop", "op")]
        quote = len(quote) == 1 and quote[0].role == "quote"
        if content and opening and opening[0].text.lower() in DESCRIBING and not quote:
            return None
        # a bracket belongs to the text: '{"debug": false}', '(x)'
        edge = lambda i: (i.role in ("stop", "op") and i.text not in "#()[]{}") or i.text in ("-",)  # noqa: E731
        # after a colon the rest is the text itself, its closing "!" or "." included
        verbatim = bool(span) and span[0].text in (":", "：")
        while len(span) > 1 and edge(span[0]):
            span[0].used, span = True, span[1:]
        glued = lambda a, b: a.end == b.start and CJK.match(a.text[-1]) and CJK.match(b.text)  # noqa: E731
        while len(span) > 1 and (
            (
                edge(span[-1])
                and not (verbatim and span[-1].text in "?？!！.")
                and not glued(*span[-2:])
            )
            or (not verbatim and span[-1].role == "op" and span[-1].text in "?？!！.")
        ):
            span[-1].used, span = True, span[:-1]
        if not span or any(
            i.used for i in self.items[self.items.index(span[0]) : self.items.index(span[-1])]
        ):
            return None
        glued = [i for i in self.items[lo:hi] if i.used and CJK.fullmatch(i.text)]
        if any(i.end == span[0].start or i.start == span[-1].end for i in glued):
            return None  # '完成': a one-character marker glued to the text may be part of a word
        quotes = [i for i in span if i.role == "quote"]
        if len(quotes) == 1 and [i for i in span if i.role not in ("stop", "op", "mark")] == quotes:
            span = quotes  # "add 'requests' as a new line": the quote, and words around it
        words = self.text[span[0].start : span[-1].end]
        if len(span) == 1 and span[0].role == "quote":
            words = self.unquote(span[0].value)
        elif re.search(NOT_LITERAL["hedge"], words, re.I) or len(words.split()) > 12:
            return None
        for i in self.items[lo:hi] if quotes and span == quotes else span:
            i.used = i.used or i.role in ("stop", "op", "mark") or i in span
        return words if len(span) == 1 and span[0].role == "quote" else self.unquote(words, True)

    def plain(self, text: str | None, kind: str) -> str | None:
        """The text as content to write, unless it reads as a description (a quote never does)."""
        if text is None or "\ue000" in text:
            return None
        if text in self.quoted:
            return text
        return None if re.search(NOT_LITERAL[kind], text, re.I) else text

    def take_number(self) -> int | None:
        found = self.take("num")
        return int(float(found.value)) if found else None

    def take_exts(self) -> list[str]:
        """Kinds of file: 'python', or '.txt' next to 'files' ('.git folder' is a name)."""
        found = [i.value for i in self.take_all("ext")]
        words = [i for i in self.items if i.role != "stop"]
        for n, i in enumerate(words):
            near = words[max(0, n - 1) : n] + words[n + 1 : n + 2]
            if i.used or i.role != "path" or not EXT_PATH.fullmatch(i.value):
                continue
            beside = {x.value for x in near if x.role == "noun"}
            if "file" in beside or (self.find("noun", "file") is None and "folder" not in beside):
                i.used = True
                found.append(i.value[1:].lower())
        return found

    def take_folder(self) -> str | None:
        """A folder named next to a folder word ('the docs folder', 'docs 文件夹', 'in src/')."""
        noun = self.find("noun", "folder")
        if noun:
            at = self.items.index(noun)
            for near in (self.items[at - 1 : at], self.items[at + 1 : at + 2]):
                if near and not near[0].used and _names(near[0]):
                    run = self._typed_with(near[0], noun)
                    use([noun, *run])
                    return self.unquote("".join(i.text for i in run)).rstrip("/")
        for i in self.items:
            if not i.used and i.role == "path" and i.value.endswith("/"):
                i.used = True
                return i.value.rstrip("/")
        return None

    def _typed_with(self, item: Item, noun: Item) -> list[Item]:
        """The Chinese name an item was cut from: '中文 文件夹' is one name, though '中' is a word."""
        run = [item]
        if not CJK.match(item.text):
            return run
        at = self.items.index(item)
        for step in (-1, 1):
            n = at + step
            while 0 <= n < len(self.items):
                other = self.items[n]
                edge = run[0].start if step < 0 else run[-1].end
                if other is noun or other.used or other.role == "verb" or not CJK.match(other.text):
                    break
                if (other.end if step < 0 else other.start) != edge:
                    break
                run.insert(0, other) if step < 0 else run.append(other)
                n += step
        return run

    def take_bare_folder(self) -> str | None:
        """A plain word right after 'in' (or right before '里'), when it is the only one."""
        pairs = list(itertools.pairwise(self.items))
        # 'in src', 'src 里'
        after_in = [b for a, b in pairs if a.is_("mark", "in") and a.text.isascii()]
        before_in = [a for a, b in pairs if b.is_("mark", "in") and not b.text.isascii()]
        found = [i for i in after_in + before_in if i.role == "word" and not i.used]
        if len(found) != 1:
            return None
        found[0].used = True
        return found[0].value


def _names(item: Item) -> bool:
    """A word that can name a folder: 'the build folder', and 'scripts 目录' (English nouns too)."""
    if item.role in ("word", "path", "quote", "verb"):
        return True
    return item.role == "noun" and item.value != "folder" and item.text.isascii()


def _pathlike(text: str) -> bool:
    return bool(re.fullmatch(r"[\w./-]+", text)) and ("." in text or "/" in text)


# what a clause says about the part it belongs to
FILTERED = {"list", "search", "count"}  # the parts an exception filters


def exclusion(c: Clause) -> dict | None:
    """Cut 'except X' off the clause: the extensions, names or folders it leaves out."""
    marker = c.find("mark", "except")
    if marker is None or (c.find("noun", "line") and c.paths(ext_only=True)):
        return None  # "the lines of a.txt but not those with #": a test of each line
    marker.used = True
    at = c.items.index(marker)
    tail = Clause(c.items[at + 1 :], c.text, c.quoted)
    c.items = [*c.items[:at], Item("stop", "", 0, 0, "")]
    exts = tail.take_exts()
    names = []
    while path := tail.take_path():
        names.append(path)
    folder = tail.take_folder()
    bare = [i for i in tail.items if i.role == "word" and not i.used]
    if folder is None and len(bare) == 1 and tail.take_all("mark", "in"):
        folder, bare[0].used = bare[0].value, True  # 'but not in tests'
    tail.drop("noun.file", "noun.folder")
    if tail.left() or not (exts or names or folder):
        return {"bad": " ".join(i.text for i in tail.left()) or marker.text}
    skip = [name.rstrip("/") for name in names + ([folder] if folder else [])]  # 'drafts/'
    return {"not_ext": exts, "skip": skip}


def apply_flags(part: Part, flags: set[str]) -> bool:
    """'but don't run it', 'to verify the edit worked', 'and tell me if the tests pass'."""
    if "norun" in flags:
        if part.kind != "create" or "prints" not in part.params:
            return False
        part.params["run"] = False
    if "verify" in flags:
        if part.kind != "show":
            return False
        part.params["verify"] = True
    if "recursive" in flags:  # 'subfolders included', '包括子目录'
        if part.kind not in FILTERED:
            return False
        part.params["recursive"] = True
    return "report" not in flags or part.kind == "run"


def _arguments(items: list[Item]) -> list[str]:
    """A script's arguments; Chinese characters typed together are one ('小明' cut into two)."""
    runs: list[list[Item]] = []
    for item in items:
        last = runs[-1][-1] if runs else None
        if last and last.end == item.start and CJK.match(item.text) and CJK.match(last.text[-1]):
            runs[-1].append(item)
        else:
            runs.append([item])
    return [run[0].value if len(run) == 1 else "".join(i.text for i in run) for run in runs]


def apply_filter(part: Part, rule: dict) -> bool:
    p = part.params
    if part.kind in FILTERED:
        if rule["not_ext"]:
            p["not_ext"] = rule["not_ext"]
        p["skip"] = p.get("skip", []) + rule["skip"]
        p["recursive"] = True
        return True
    if part.kind == "delete_ext" and p["folder"] == "." and not rule["not_ext"]:
        p["skip"] = p.get("skip", []) + rule["skip"]  # 'delete the .txt files except c.txt'
        return True
    return False


NEGATIVE = ("n't", "not", "missing", "不", "没")


def condition(c: Clause) -> tuple[str, bool] | str | None:
    """Cut 'if there's a setup.py' / '如果 hello.txt 不存在' off the clause: (path, exists).

    "otherwise (just) tell me" is what it does anyway when a condition fails: it is taken as
    read. Returns "else" for such a clause, "else-do" for "otherwise <a task>", None when there
    is no condition.
    """
    marks = [i for i in c.items if i.is_("mark", "if")]
    if not marks:
        return None
    otherwise = marks[0].text.lower() in OTHERWISE
    if otherwise or (c.items[0].is_("mark", "exists") and c.items[0].text in ABSENT):
        said = [i for i in c.items if i.role in ("mark", "verb", "stop")]
        use([i for i in said if i.value in ("if", "exists", "tell", "")])  # 'otherwise tell me'
        return "else" if not c.left() else "else-do"  # '否则创建它': the other way round
    first = marks[0]
    at = c.items.index(first)
    leads = at == 0 or first.text in ("如果", "要是", "假如")  # 'if A, B' / '如果 A 就 B'
    end = c.items.index(marks[1]) if leads and len(marks) > 1 else len(c.items)  # 'B, if A'
    checked = (
        n for n in range(at, end) if c.items[n].is_("mark", "exists") or c.items[n].role == "path"
    )
    said = next(checked, end)  # the file or the 'exists' the condition is about
    task = next((n for n in range(said, end) if c.items[n].role in FRAME_START), end)
    span = c.items[at : task if leads else end]  # 'if a.txt exists show it': the task follows
    use(marks)
    if said == end:
        return None  # '就删除它': a 就 that names nothing to check, and 'it' stays the task's
    cond = Clause(span, c.text, c.quoted)
    path = cond.take_path_or_it()
    exists = cond.take_all("mark", "exists")
    cond.drop("noun.file")
    if path is None or cond.left():
        return None
    wanted = not any(any(n in e.text.lower() for n in NEGATIVE) for e in exists)
    return path, wanted
