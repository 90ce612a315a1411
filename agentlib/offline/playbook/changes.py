"""Clauses that change the part before them instead of adding one.

'call it ideas.md' renames what the part before makes, '参数是 7' gives a run its arguments,
'with the text hi' fills an empty create, and a correction ('no, in b.txt', '不对，改成 cow')
changes the one file or the new text of the part before. Each gives a Change (a function
that makes the change on the part and says whether it could) or True/False when it made it.
"""

from __future__ import annotations

from agentlib.offline.playbook import clause
from agentlib.offline.playbook.clause import Change, Clause, _arguments, use
from agentlib.offline.playbook.lexicon import RUNNERS
from agentlib.offline.playbook.reader import Part
from agentlib.offline.playbook.writeframes import _content


def modifier(c: Clause, parts: list[Part]) -> Change | Part | None:
    """A clause that only adds to the part before it."""
    if c.find("mark", "args") and not c.find("verb") and parts and parts[-1].kind == "run":
        c.take("mark", "args")  # '运行 square.py，参数是 7', '参数是 2 和 3'
        use([i for i in c.left() if i.text.lower() in clause.JOINERS])
        given = [i for i in c.left() if i.role in ("num", "word", "quote")]
        args = [c.unquote(a) for a in _arguments(given)]
        if given and len(given) == len(c.left()) and not parts[-1].params.get("args"):
            c.take_all("num"), c.take_all("word"), c.take_all("quote")
            return lambda part: part.kind == "run" and clause.update(part, args=args)
        return None
    if c.find("verb") is None and not c.paths() and parts and parts[-1].kind == "create":
        c.drop("mark.it")
        what = _content(c)
        if what is not None:
            return lambda part: part.kind == "create" and _fill(part, what)
    return None


def _fill(part: Part, what: dict) -> bool:
    p = part.params
    if len(p["paths"]) != 1 or (p.get("content") != "" and "prints" not in what):
        return False
    p.pop("content", None)
    p.update(what)
    return "prints" not in what or p["paths"][0].rpartition(".")[2].lower() in RUNNERS


def renamed(c: Clause, parts: list[Part]) -> Change | None:
    """'call it ideas.md', '命名为 x.py', '应该是 b.txt': a new name for the part before."""
    if c.find("verb", "create", "delete", "run", "show", "list", "copy", "move"):
        return None
    marker = c.take("mark", "name") or c.take("mark", "should") or c.take("verb", "rename")
    c.drop("mark.to", "noun.file", "mark.it")
    path = c.take_path()
    if not (marker and path) or not parts:
        return None

    def change(part: Part) -> bool:
        p = part.params
        if part.kind == "copy" and p.get("dest") is None:
            p["dest"] = path
        elif "paths" in p and len(p["paths"]) == 1:
            p["paths"] = [path]
        elif "path" in p:
            p["path"] = path
        else:
            return False
        return True

    return change


def new_place(c: Clause, part: Part) -> bool:
    """'no, in b.txt', '不对，是 b.txt 里': a correction of the one file a part works on."""
    left = c.left()
    paths = [i for i in left if i.role == "path"]
    marks = [i for i in left if i not in paths]
    if len(paths) != 1 or not marks or not all(i.is_("mark", "in", "to") for i in marks):
        return False
    name = c.unquote(paths[0].value)
    if "path" in part.params:
        part.params["path"] = name
    elif len(part.params.get("paths", [])) == 1:
        part.params["paths"] = [name]
    else:
        return False
    use(left)
    return True


def new_text(c: Clause, part: Part) -> bool:
    """'no, with cow', '不对，改成 cow': a correction of what a replace writes, taken into it."""
    markers = [i for i in c.left() if i.is_("verb", "replace") or i.is_("mark", "with", "to")]
    rest = [i for i in c.left() if i not in markers]
    if not markers or not rest or any(i.role in ("verb", "path", "noun", "mark") for i in rest):
        return False
    new = c.literal(after=markers[-1])
    if new is None or [i for i in c.left() if i not in markers]:
        return False
    use(markers)
    part.params["new"] = new
    return True


def new_dest(c: Clause, part: Part) -> bool:
    """'rename a.txt to b.txt, no, to c.txt', '不对，改成 c.txt': another name for a move or copy."""
    left = c.left()
    paths = [i for i in left if i.role == "path"]
    said = [i for i in left if i not in paths]
    marks = all(
        i.is_("mark", "to", "name", "should", "it") or i.is_("verb", "replace", "rename")
        for i in said
    )
    if part.kind not in ("move", "copy") or len(paths) != 1 or not marks:
        return False
    part.params["dest"] = c.unquote(paths[0].value).rstrip("/")
    use(left)
    return True


def new_content(c: Clause, part: Part) -> bool:
    """'create a.txt with hi, no, with hello', '不对，内容是 hello': what a create writes instead."""
    if part.kind != "create" or "content" not in part.params or len(part.params["paths"]) != 1:
        return False
    before = [(i.used, i.role) for i in c.items]
    c.drop("verb.create")
    what = _content(c)
    if what is None or "content" not in what or c.left():
        for item, (used, role) in zip(c.items, before, strict=True):
            item.used, item.role = used, role  # not a new text: the clause is read afresh
        return False
    part.params["content"] = what["content"]
    return True
