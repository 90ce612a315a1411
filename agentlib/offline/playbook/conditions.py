"""What a clause says about the part it belongs to: an exception, a flag, or a condition.

"except .md" / "除了 keep.txt" filter a listing, a search, a count or a delete by kind; "but
don't run it", "subfolders included" are flags; "if a.txt exists" / "如果 a.txt 不存在" is a
condition the playbook checks in the real workspace before the part is played.
"""

from __future__ import annotations

from agentlib.offline.playbook.clause import IT, Clause, _exts, _folder
from agentlib.offline.playbook.reader import Item, Part

FILTERED = {"list", "search", "count"}  # the parts an exception filters


def _exclusion(c: Clause) -> dict | None:
    """Cut 'except X' off the clause: the extensions, names or folders it leaves out."""
    marker = c.find("mark", "except")
    if marker is None:
        return None
    marker.used = True
    at = c.items.index(marker)
    tail = Clause(c.items[at + 1 :], c.text, c.quoted)
    c.items = [*c.items[:at], Item("stop", "", 0, 0, "")]
    exts = _exts(tail)
    names = []
    while path := tail.take_path():
        names.append(path)
    folder = _folder(tail)
    bare = [i for i in tail.items if i.role == "word" and not i.used]
    if folder is None and len(bare) == 1 and tail.take_all("mark", "in"):
        folder, bare[0].used = bare[0].value, True  # 'but not in tests'
    tail.drop("noun.file", "noun.folder")
    if tail.left() or not (exts or names or folder):
        return {"bad": " ".join(i.text for i in tail.left()) or marker.text}
    return {"not_ext": exts, "skip": names + ([folder] if folder else [])}


def _flag(part: Part, flags: set[str]) -> bool:
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


def _filter(part: Part, rule: dict) -> bool:
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


def _condition(c: Clause) -> tuple[str, bool] | str | None:
    """Cut 'if there's a setup.py' / '如果 hello.txt 不存在' off the clause: (path, exists).

    "otherwise (just) tell me" is what it does anyway when a condition fails: it is taken as
    read. Returns "else" for such a clause, None when there is no condition.
    """
    marks = [i for i in c.items if i.is_("mark", "if")]
    if not marks:
        return None
    if marks[0].text.lower() in ("otherwise", "else", "or else", "否则") or (
        c.items[0].is_("mark", "exists") and c.items[0].text in ("没有",)
    ):
        for i in c.items:
            if i.role in ("mark", "verb", "stop") and i.value in ("if", "exists", "tell", ""):
                i.used = True
        return "else" if not c.left() else None
    first = marks[0]
    at = c.items.index(first)
    if at == 0 or first.text in ("如果", "要是", "假如"):  # 'if A, B' / '如果 A 就 B'
        end = c.items.index(marks[1]) if len(marks) > 1 else len(c.items)
        span = c.items[at:end]
    else:  # 'B, but only if A'
        span = c.items[at:]
    for i in marks:
        i.used = True
    cond = Clause(span, c.text, c.quoted)
    path = cond.take_path() or (IT if cond.take("mark", "it") else None)
    exists = cond.take_all("mark", "exists")
    cond.drop("noun.file")
    if path is None or cond.left():
        return None
    wanted = not any(any(n in e.text.lower() for n in NEGATIVE) for e in exists)
    return path, wanted
