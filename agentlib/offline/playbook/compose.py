"""build(clauses): each clause to a frame, then the compositions: two tasks, a filter, a correction, 'it'.

A clause is read by the first intent whose slots it fills, or changes the part before it (a
printed text, a name, "but don't run it": changes.py). "except"/"不要"/"除了" filter the part they belong to; a
correction ("actually no", "不对") replaces the part before or one of its names; "it" is the
last file named, in this prompt or an earlier one. The request is done only when every
content word of every clause was used: otherwise the leftover words are what it names.
"""

from __future__ import annotations

import itertools
import re

from agentlib.offline.playbook import changes, clause, frames, valueframes, writeframes
from agentlib.offline.playbook.clause import IT, MUTATING, Change, Clause
from agentlib.offline.playbook.lexicon import PUT
from agentlib.offline.playbook.reader import Found, Item, Part

# when a clause has several verbs, the most specific one says what it is
PRIORITY = ["count", "search", "define", "rename", "replace", "append", "move", "copy", "delete"]
PRIORITY += ["run", "create", "add", "show", "list", "find", "tell", "calc", "bump"]
FLAGS = ("guard", "norun", "verify", "report", "recursive")
WHEN = {"run", "create", "show", "delete", "append", "count", "setting", "version", "replace"}
WHEN |= {"move", "copy"}  # the parts a condition can guard
PLACES = ("head", "tail", "lines")  # where in a file a show part looks


def _the_file(c: Clause) -> None:
    """'show me the file', 'run the script': with no name, the one named before, like 'it'.

    Only when a file was named before: otherwise 'the script' is the one script there is."""
    if c.paths() or c.find("mark", "it"):
        return
    about = c.find("noun", "line") or c.find("noun", "word") or c.find("noun", "content")
    for b in c.items:  # '现在文件里有几行': in Chinese 'the' is not said
        if about and b.is_("noun", "file") and b.text == "文件" and not b.used:
            b.role, b.value = "mark", "it"
            return
    for a, b in itertools.pairwise(c.items):
        if a.text.lower() in ("the", "that", "this") and b.is_("noun", "file") and not b.used:
            if b.text.lower() in ("file", "script", "program"):
                b.role, b.value = "mark", "it"
                at = c.items.index(b) + 1
                if at < len(c.items) and c.items[at].text.lower() == "again":
                    c.items[at].used = True  # 'the file again'
                return


def intent(c: Clause, parts: list[Part]) -> Part | list[Part] | Change | None:
    """The frame of one clause: the first intent whose slots it fills."""
    if writeframes.typed_command(c):
        return writeframes.run(c, parts)  # 'echo hello', 'python3 square.py 5'
    if parts and parts[-1].kind == "run" and c.find("verb", "tell"):
        said = ("verb.tell", "verb.show", "mark.it", "mark.prints", "mark.report", "noun.content")
        if all(any(i.is_(*s.split(".")) for s in said) for i in c.left()):
            c.drop(*said)  # 'run a.py and tell me what it prints': the run reports it
            return lambda part: True
    for read in (changes.modifier, frames.chat, frames.math, frames.fact):
        if (made := read(c, parts)) is not None:
            return made
    verbs = sorted({i.value for i in c.items if i.role == "verb"}, key=PRIORITY.index)
    if parts and (c.find("mark", "name", "should") or verbs == ["rename"]):
        if (made := changes.renamed(c, parts)) is not None:
            return made
    if c.find("noun", "docstring"):
        return docstring(c, parts)
    if c.find("mark", "term") and set(verbs) <= {"find", "show", "list", "search", "tell"}:
        return frames.search(c, parts)  # 'find the word bank in notes.txt'
    if c.find("mark", "exists") and not verbs and c.paths(ext_only=True):
        c.take_all("mark", "exists")  # 'is there a file called setup.py?', 'does main.py exist?'
        c.drop("mark.name", "mark.it")  # '有没有 readme.md 这个文件'
        return frames.find_name(c)
    if c.find("noun", "version") and c.paths(ext_only=True) + c.take_all("mark", "it")[:0]:
        return valueframes.version(c, parts)  # 'change the version in a.txt to 2.0': not a text
    if "count" in verbs and not c.find("noun", "log", "commit"):
        return frames.count(c, parts)
    if "search" in verbs or "define" in verbs:
        return frames.search(c, parts)
    for read in (frames.git, frames.pick, frames.total, writeframes.files_into_folder):
        if (made := read(c, parts)) is not None:
            return made
    printed, named = c.find("verb", "show"), c.paths(ext_only=True)
    if printed and printed.text.lower() in ("print", "output", "prints", "outputs") and named:
        if c.items.index(printed) > c.items.index(named[0]) and not c.find("verb", "create"):
            printed.used = True  # 'what does a.py print?'
            return writeframes.run(c, parts)
    first = verbs[0] if verbs else None
    bare = all(
        i.role in ("verb", "stop", "op") or i.is_("mark", "then") or i.is_("noun", "content")
        for i in c.left()
    )  # '再看一下', '把内容给我看看': the file of the part before
    if first in ("show", "tell") and (c.paths(ext_only=True) or c.find("mark", "it") or bare):
        return frames.show(c, parts)
    inside = c.paths(ext_only=True) and c.find("mark", "in")  # "what's in the file a.py"
    if first in ("list", "find") and c.find("noun", "line") and c.paths(ext_only=True):
        c.take_all("verb", "list", "find")
        return frames.show(c, parts)  # 'what are the last two lines of a.txt?'
    nothing_but_files = first is None and (c.find("noun", "file", "folder") or c.find("here"))
    if first in ("show", "list", "find", "tell") or (nothing_but_files and not inside):
        return frames.listing(c, parts)
    at_end = c.find("mark", "end") or (first == "add" and c.find("mark", "to"))  # 'add x to a.txt'
    if first in ("add", "create") and at_end:
        return writeframes.append(c, parts)
    if first == "rename" and (c.find("mark", "in") or len(c.paths(ext_only=True)) < 2):
        return writeframes.replace(c, parts)
    put = c.find("verb", "create")
    named = c.paths(ext_only=True)
    if put and put.text.lower() in PUT and named and not c.find("mark", "content"):
        between = c.items[c.items.index(put) + 1 : c.items.index(named[0])]
        new = any(i.text.lower() in ("a", "an", "new", "一个", "新", "新的") for i in between)
        if not new and (c.find("noun", "folder") or c.find("mark", "in_it", "in")):
            return writeframes.transfer(c, parts)  # 'put a.txt in the docs folder': a move
    handler = {
        "create": writeframes.create, "add": writeframes.create, "append": writeframes.append,
        "replace": writeframes.replace, "rename": writeframes.transfer,
        "move": writeframes.transfer, "copy": writeframes.transfer, "run": writeframes.run,
        "delete": writeframes.delete,
    }.get(first)  # fmt: skip
    if handler:
        return handler(c, parts)
    if c.find("mark", "should"):
        return writeframes.replace(c, parts)
    place = c.find("mark", "in") or c.find("noun", "content", "line")
    if place and (c.paths(ext_only=True) or c.find("mark", "it")):
        return frames.show(c, parts)  # "what's inside notes.txt?", "log.txt 第二行"
    return changes.renamed(c, parts)


def docstring(c: Clause, parts: list[Part]) -> Part | Change | None:
    path = c.take_path()
    c.drop("noun.docstring", "noun.function", "mark.to", "mark.in")
    c.drop("verb.replace", "verb.add", "verb.create")
    if path:
        return Part("docstring", {"path": path})

    def change(part: Part) -> bool:  # '编辑 greet.py，给函数加上文档字符串'
        if part.kind != "replace" or part.params.get("old") is not None:
            return False
        part.kind, part.params = "docstring", {"path": part.params["path"]}
        return True

    return change


def _places_joined(clauses: list[list[Item]]) -> list[list[Item]]:
    """'in notes.txt, change cat to dog', '在 a.txt 里，…': a place alone belongs to what follows."""
    joined: list[list[Item]] = []
    carry: list[Item] = []
    for items in clauses:
        words = [i for i in items if i.role not in ("stop", "op")]
        paths = [i for i in words if i.role == "path"]
        if (
            len(paths) == 1
            and len(words) > 1
            and all(i.is_("mark", "in") for i in words if i not in paths)
        ):
            carry += items
            continue
        joined.append(carry + items)
        carry = []
    return joined + ([carry] if carry else [])


def build(
    clauses: list[list[Item]], text: str, quoted: list[str], earlier
) -> tuple[list[Part], str | None]:
    parts: list[Part] = []
    correcting, pending, when = False, None, None
    named_before = _last_named(earlier) if earlier else None  # read once: it re-reads each prompt
    for items in _places_joined(clauses):
        c = Clause(items, text, quoted)
        whole = c.unquote(text[items[0].start : items[-1].end])  # the clause as typed
        correcting = bool(c.take_all("mark", "correct")) or correcting
        cond = clause.condition(c)
        if cond == "else" and parts and parts[-1].when:
            continue
        if cond == "else-do":  # 'if a.txt exists show it, otherwise create it'
            if not (parts and parts[-1].when):
                return parts, whole  # 'otherwise' with no condition before it
            path, wanted = parts[-1].when
            if path == IT:  # 'show a.txt if it exists, otherwise …': the file before, now
                path = next((n for n in _names(parts[-1]) if n != IT), IT)
                parts[-1].when = (path, wanted)
            when = (path, not wanted)
            _on_the_condition(c)
        if isinstance(cond, tuple):
            only_if = any(i.text.lower() == "only if" for i in items)
            after = only_if or not c.items[0].is_("mark", "if")  # 'B, if A': A guards B
            if not c.left() and after and parts and parts[-1].kind in WHEN and not parts[-1].when:
                parts[-1].when = cond  # 'create hello.txt, but only if it doesn't exist'
                continue
            when = cond
            if not c.left():
                continue  # 'if there's a setup.py,': the part it guards comes next
            _on_the_condition(c)  # '就创建一个', 'if a.txt exists, count the lines'
        elif c.find("mark", "if"):
            return parts, " ".join(i.text for i in c.left())
        rule = clause.exclusion(c)
        if rule and "bad" in rule:
            return parts, rule["bad"]
        if rule and not c.left():
            if parts and clause.apply_filter(parts[-1], rule):
                continue  # '列出所有文件，但是不要 .pyc 文件': the filter of the part before
            pending = rule  # '除了 keep.txt，其他文件全部删掉': the filter comes first
            continue
        flags = {flag for flag in FLAGS if c.take_all("mark", flag)}
        if flags and not c.left():
            if not parts or not clause.apply_flags(parts[-1], flags):
                return parts, whole
            parts += [Part("guard", {})] if "guard" in flags else []
            continue
        rule = rule or pending
        if not c.left() and correcting:
            continue  # 'actually no,' on its own: the correction is in the next clause
        if correcting and parts and not c.paths() and c.find("noun", "line"):
            c.items.append(Item("mark", "it", items[-1].end, items[-1].end, ""))  # '不对，第3行'
        if correcting and parts and [i.role for i in c.left()] == ["path"]:
            c.items.insert(0, Item("mark", "should", items[0].start, items[0].start, ""))
        if correcting and parts and changes.new_place(c, parts[-1]):
            correcting = False
            continue  # 'count the lines in a.txt, no, in b.txt': the same task, another file
        if correcting and parts and parts[-1].kind == "replace" and changes.new_text(c, parts[-1]):
            correcting = False
            continue  # 'replace cat with dog in a.txt, no, with cow': only the new text changes
        if (
            correcting
            and parts
            and (changes.new_dest(c, parts[-1]) or changes.new_content(c, parts[-1]))
        ):
            correcting = False
            continue  # 'rename a.txt to b.txt, no, to c.txt'; 'create a.txt with hi, no, with hello'
        if parts or named_before:
            _the_file(c)
        if (original := c.find("mark", "original")) and not _source(original, parts):
            return parts, original.text  # 'delete the original' with nothing copied before
        read_so_far = [(i.used, i.role) for i in c.items]
        deleting = rule and c.find("verb", "delete")
        made = writeframes.delete(c, parts, rule["skip"]) if deleting else intent(c, parts)
        left = c.left()
        if made is None or left:  # a value in a file ('bump the version', 'what port is set')
            made, left = _value(c, parts, read_so_far) or (made, left)
        if made is None or left:
            gaps = [" " if n and left[n - 1].end != i.start else "" for n, i in enumerate(left)]
            words = "".join(gap + i.text for gap, i in zip(gaps, left, strict=True))
            return parts, c.unquote(words) or whole
        new = []
        if callable(made):
            if not parts or not made(parts[-1]):
                return parts, whole
        else:
            new = made if isinstance(made, list) else [made]
            for part in new:
                part.clause = whole
            if correcting and parts and new[0].kind == parts[-1].kind:
                old = parts.pop()
                if any(k in new[0].params for k in PLACES):  # 'first 2 lines, no, line 3'
                    old.params = {k: v for k, v in old.params.items() if k not in PLACES}
                if IT in (new[0].params.get("paths") or [new[0].params.get("path")]):
                    mine = {k: v for k, v in new[0].params.items() if k not in ("path", "paths")}
                    new[0].params = {**old.params, **mine}
            elif correcting and parts and parts[-1].kind in MUTATING and not _too(whole):
                _name_it(new[0], parts.pop())  # 'delete a.txt, no, show it': not deleted
            parts += new
        if rule and parts and parts[-1].kind != "delete_except":
            if not clause.apply_filter(parts[-1], rule):
                return parts, "except"  # an exception the part cannot take: never act without it
        if flags and not clause.apply_flags(parts[-1], flags):
            return parts, whole
        parts += [Part("guard", {})] if "guard" in flags else []
        if when:
            if len(new if not callable(made) else [parts[-1]]) != 1 or parts[-1].kind not in WHEN:
                return parts, "if"
            parts[-1].when, when = when, None
        correcting, pending = False, None
    if when:
        return parts, "if"
    if pending:
        return parts, "except"  # an exception that no part took: never act without it
    return parts, _check(parts, earlier)


def _too(said: str) -> bool:
    """'no, also show it', '不对，顺便也看看': a correction that adds a task, not one instead."""
    return bool(re.search(r"\b(?:also|too|as well)\b|顺便|也|还要", said, re.I))


def _name_it(new: Part, old: Part) -> None:
    """The part a correction replaces names the file its 'it' means."""
    named = next((n for n in _names(old) if n != IT), None)
    for key in ("path", "src"):
        if named and new.params.get(key) == IT:
            new.params[key] = named
    if named and IT in new.params.get("paths", []):
        new.params["paths"] = [named if n == IT else n for n in new.params["paths"]]


def _source(original: Item, parts: list[Part]) -> bool:
    """'copy a.csv to b.csv, then delete the original': the file the last copy read.

    After a move there is no original left to name: the request is declined."""
    src = next((p.params["src"] for p in reversed(parts) if p.kind == "copy"), None)
    if src is not None:
        original.role, original.value = "path", src
    return src is not None


ON_ONE_FILE = ("create", "show", "count", "delete", "append", "run", "copy", "move", "rename")


def _on_the_condition(c: Clause) -> None:
    """A task after 'if a.txt exists' that names no file is about a.txt: it gets an 'it'."""
    if c.find("verb", *ON_ONE_FILE) and not (c.paths() or c.find("mark", "it")):
        if not c.find("noun", "folder") and not c.find("verb", "list", "find"):
            end = c.items[-1].end
            c.items.append(Item("mark", "it", end, end, ""))


def _value(c: Clause, parts: list[Part], read_so_far: list) -> tuple[Part, list] | None:
    """The clause read again, as it was before intent(), by the frames that read one value."""
    for frame in valueframes.FRAMES:
        for item, (used, role) in zip(c.items, read_so_far, strict=True):
            item.used, item.role = used, role
        made = frame(c, parts)
        if made is not None and not c.left():
            return made, []
    return None


def _names(part: Part) -> list[str]:
    p = part.params
    return [n for n in [p.get("path"), p.get("src"), p.get("dest"), *p.get("paths", [])] if n]


def _check(parts: list[Part], earlier) -> str | None:
    """Resolve 'it'; refuse names outside the workspace and guards that another part breaks."""
    if not parts:
        return "(an empty request)"
    last = None
    for part in parts:
        if part.when:  # 'if it exists': the part's own file
            if part.when[0] == IT:
                named = [n for n in _names(part) if n != IT] or [last or _last_named(earlier)]
                if named[0] is None:
                    return "it (no file was named before)"
                part.when = (named[0], part.when[1])
            last = part.when[0]
        for key in ("path", "src"):
            if part.params.get(key) == IT:
                part.params[key] = last = last or _last_named(earlier)
                if last is None:
                    return "it (no file was named before)"
        if IT in part.params.get("paths", []):
            part.params["paths"] = [last or _last_named(earlier)]
            if part.params["paths"] == [None]:
                return "it (no file was named before)"
        if part.kind == "copy" and not part.params.get("dest"):
            return "copy to where"
        if part.kind == "replace" and part.params.get("old") is None:
            return part.clause or "what to change"
        names = [n for n in _names(part) if n != IT]
        if any(n.startswith(("/", "~")) or ".." in n.split("/") for n in names):
            return names[0]
        last = (names or [last])[-1] if part.kind != "move" else part.params["dest"]
    for before, after in list(itertools.pairwise(parts)):
        if (before.kind, before.params) == (after.kind, after.params) and before.when is None:
            parts.remove(after)  # "what's the git status? anything not committed?": one answer
            continue
        ran = before.kind == "create" and before.params.get("run")
        if ran and after.kind == "run" and not after.params.get("args"):
            if after.params.get("path") == before.params["paths"][0]:
                parts.remove(after)  # 'create hello.py that prints hi and run it': it runs once
    if any(p.kind == "guard" for p in parts) and any(p.kind in MUTATING for p in parts):
        return "don't change anything"
    return None


def _last_named(earlier) -> str | None:
    from agentlib.offline.playbook.reader import read

    for prompt in reversed(list(earlier)):
        if isinstance(prompt, Found):
            return str(prompt)
        names = [n for part in read(prompt).parts for n in _names(part) if n != IT]
        if names:
            return names[-1]
    return None
