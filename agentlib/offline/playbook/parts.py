"""Builders for requests that change the workspace: create, write, append, replace, move, copy, delete.

Each takes a rule's match and ``q`` (which restores quoted text) and returns a Part, a Change
to the part before, or None when the match asks for something it cannot do. The read-only
builders are in questions.py; english.py and chinese.py use both.
"""

from __future__ import annotations

import ast
import re

from agentlib.offline.playbook.request import Part
from agentlib.offline.playbook.words import (
    CONFIG_FILES,
    RUNNERS,
    Build,
    Change,
    extensions,
    literal,
    names,
    number,
    quoted,
)


def mkdir(m, q) -> Part:
    return Part("mkdir", {"paths": names(m["names"], q), "files": 0})


def mkdir_with_files(m, q) -> Part:
    return Part("mkdir", {"paths": [q(m["folder"])], "files": min(20, number(m["num"], 3))})


def add_files_to_folder(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "mkdir" or len(part.params["paths"]) != 1 or part.params["files"]:
            return False
        part.params["files"] = min(20, max(1, number(m["num"], 3)))
        return True

    return Change(apply)


def append(m, q) -> Part | None:
    text = literal(m["text"], q, content=True)
    return Part("append", {"path": q(m["path"]), "text": text}) if text else None


def replace(m, q) -> Part | None:
    """Quoted text is replaced exactly; a plain word only as a whole word (not inside others)."""
    old, new = literal(m["old"], q, words=6), literal(m["new"], q, words=6)
    path = q(m["path"])
    if not old or new is None:
        return None
    both_quoted = quoted(m["old"]) and quoted(m["new"])
    # in a config file 'debug to false' means a value, not the text 'debug': only exact quotes
    if path.rpartition(".")[2].lower() in CONFIG_FILES and not both_quoted:
        return None
    whole_words = not quoted(m["old"])
    if whole_words and not re.fullmatch(r"\w+(?: \w+)*", old):
        return None
    first = bool(m.groupdict().get("first"))
    params = {"path": path, "old": old, "new": new, "all": not first, "words": whole_words}
    return Part("replace", params)


def create_printing(m, q) -> Part | None:
    path, text = q(m["path"]), literal(m["text"], q, behaviour=True, words=6)
    if not text or path.rpartition(".")[2].lower() not in RUNNERS:
        return None
    return Part("create", {"paths": [path], "prints": text, "run": True})


FUNCTION_BODIES = {
    ("greet", "hello", "say_hello", "greeting"): 'f"Hello, {%s}!"',
    ("add", "sum", "plus", "add_numbers"): "%s + %s",
    ("subtract", "sub", "minus"): "%s - %s",
    ("multiply", "mul", "times", "product"): "%s * %s",
    ("divide", "div"): "%s / %s",
    ("square",): "%s * %s",
    ("double",): "%s * 2",
}


def function_body(name: str, args: list[str], returns: str | None) -> str | None:
    """The expression the function returns: the one asked for, or the obvious one for its name."""
    if returns:
        try:
            tree = ast.parse(returns, mode="eval").body
        except SyntaxError:
            return None
        allowed = (ast.BinOp, ast.Name, ast.Constant, ast.operator, ast.Load, ast.UnaryOp)
        if not all(
            isinstance(n, allowed) and (not isinstance(n, ast.Name) or n.id in args)
            for n in ast.walk(tree)
        ):
            return None
        return ast.unparse(tree)
    for known, body in FUNCTION_BODIES.items():
        if name.lower() in known and body.count("%s") <= max(len(args), 1):
            fill = args if body.count("%s") == len(args) else [args[0]] * body.count("%s")
            return body % tuple(fill) if args else None
    return None


def create_function(m, q) -> Part | None:
    path = q(m["path"])
    args = [a.strip() for a in m["args"].split(",") if a.strip()]
    if not path.endswith(".py") or not all(a.isidentifier() for a in args):
        return None
    returns = m.groupdict().get("returns")
    body = function_body(m["func"], args, returns)
    if returns and body is None:
        return None
    return Part("create", {"paths": [path], "function": m["func"], "args": args, "body": body})


def create_with_text(m, q) -> Part | None:
    text = literal(m["text"], q, words=12, content=True)
    return Part("create", {"paths": [q(m["path"])], "content": text + "\n"}) if text else None


def write_into(m, q) -> Part | None:
    """'write X into f.txt': X is the text itself, unless it reads like a description of it."""
    text = literal(m["text"], q, words=12, content=True, behaviour=True)
    return Part("create", {"paths": [q(m["path"])], "content": text + "\n"}) if text else None


def create_empty(m, q) -> Part | None:
    paths = names(m["paths"], q)
    if m.groupdict().get("num") and number(m["num"], -1) != len(paths):
        return None  # 'three files a.txt and b.txt': the count and the names disagree
    return Part("create", {"paths": paths, "content": ""})


def _set_text(kind: str, value: str | None) -> Change:
    def apply(part: Part) -> bool:
        p = part.params
        if part.kind != "create" or p.get("content") != "" or len(p["paths"]) != 1 or not value:
            return False
        if kind == "prints":
            if p["paths"][0].rpartition(".")[2].lower() not in RUNNERS:
                return False
            p.pop("content")
            p.update(prints=value, run=True)
        else:
            p["content"] = value + "\n"
        return True

    return Change(apply)


def prints_change(m, q) -> Change:
    return _set_text("prints", literal(m["text"], q, behaviour=True, words=6))


def content_change(m, q) -> Change:
    return _set_text("content", literal(m["text"], q, words=12, content=True))


def function_change(m, q) -> Change:
    args = [a.strip() for a in m["args"].split(",") if a.strip()]
    body = function_body(m["func"], args, None)

    def apply(part: Part) -> bool:
        p = part.params
        if part.kind != "create" or p.get("content") != "" or len(p["paths"]) != 1:
            return False
        if not p["paths"][0].endswith(".py") or not all(a.isidentifier() for a in args):
            return False
        p.pop("content")
        p.update(function=m["func"], args=args, body=body)
        return True

    return Change(apply)


def keep_empty(m, q) -> Change:
    return Change(lambda part: part.kind == "create" and part.params.get("content") == "")


def dont_run(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "create" or "prints" not in part.params:
            return False
        part.params["run"] = False
        return True

    return Change(apply)


def move(into_allowed: bool) -> Build:
    def build(m, q) -> Part | None:
        into = into_allowed and bool(
            m.groupdict().get("into") in ("into", "in") or m.groupdict().get("kind")
        )
        dest = q(m["dest"])
        if into_allowed and not into and "." not in dest and "/" not in dest:
            return None  # 'move x to the trash': not a path it can read
        return Part(
            "move", {"src": q(m["src"]).rstrip("/"), "dest": q(m["dest"]).rstrip("/"), "into": into}
        )

    return build


def copy(m, q) -> Part:
    into = m.groupdict().get("into") in ("into", "in") or bool(m.groupdict().get("kind"))
    return Part(
        "copy", {"src": q(m["src"]).rstrip("/"), "dest": q(m["dest"]).rstrip("/"), "into": into}
    )


def delete(m, q) -> Part | None:
    """Named paths only: a folder when the request says so, else names that look like files."""
    paths = names(m["names"], q)
    said_folder = any(m.groupdict().get(key) for key in ("dir", "dir2"))
    if not said_folder and not all("." in p or "/" in p for p in paths):
        return None
    return Part("delete", {"paths": paths})


def delete_by_ext(m, q) -> Part:
    return Part("delete_ext", {"folder": q(m["folder"]).rstrip("/"), "ext": extensions(m["ext"])})


def edit_intent(m, q) -> Part:
    return Part("edit", {"path": q(m["path"])})


def docstring(m, q) -> Part | Change:
    if m.groupdict().get("path"):
        return Part("docstring", {"path": q(m["path"])})

    def apply(part: Part) -> bool:
        if part.kind != "edit":
            return False
        part.kind = "docstring"
        return True

    return Change(apply)


def copy_to_change(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "copy" or part.params.get("dest"):
            return False
        part.params["dest"] = q(m["dest"]).rstrip("/")
        return True

    return Change(apply)


def copy_without_name(m, q) -> Part:
    return Part("copy", {"src": q(m["src"]).rstrip("/"), "dest": None, "into": False})
