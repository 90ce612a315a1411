"""Builders for requests that only look, run or talk: show, list, count, search, run, git, sums, chat.

Each takes a rule's match and ``q`` (which restores quoted text) and returns a Part, a Change
to the part before, or None when the match asks for something it cannot do.
"""

from __future__ import annotations

import ast
import re

from agentlib.offline.playbook.request import Part
from agentlib.offline.playbook.words import (
    IT,
    MATH_WORDS,
    RUNNERS,
    Build,
    Change,
    evaluate,
    extensions,
    literal,
    names,
    number,
    quoted,
)


def chat(about: str) -> Build:
    return lambda m, q: Part("chat", {"about": about})


def math(m: re.Match, q) -> Part | None:
    expr = m["expr"]
    for word, symbol in MATH_WORDS:
        expr = expr.replace(word, f" {symbol} ")
    if not re.search(r"\d", expr) or not re.search(r"[-+*/%]", expr) or len(expr) > 120:
        return None
    try:
        value = evaluate(ast.parse(expr.strip(), mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    elif isinstance(value, float):
        value = float(f"{value:.12g}")
    return Part("math", {"expr": " ".join(expr.split()), "value": value})


def git(what: str) -> Build:
    return lambda m, q: Part("git", {"what": what, "n": number(m.groupdict().get("num"), 10)})


def guard(what: str) -> Build:
    def build(m, q):
        if what == "report":
            return Change(lambda part: part.kind == "run")
        found = m.groupdict().get("names")
        return Part("guard", {"no": what, "paths": names(found, q) if found else []})

    return build


def show(m, q) -> Part:
    return Part("show", {"path": q(m["path"])})


def show_it(m, q) -> Part:
    return Part("show", {"path": IT})


def show_part(m, q) -> Part:
    plural = m["lines"].lower().endswith("s") or m["lines"] in ("几行",)
    count = number(m.groupdict().get("num"), 10 if plural and not m.groupdict().get("num") else 1)
    end = "head" if m["which"].lower() in ("first", "top", "前", "开头") else "tail"
    return Part("show", {"path": q(m["path"]), end: count})


def list_files(m, q) -> Part:
    g = m.groupdict()
    folder = g.get("folder")
    hidden = "only" if g.get("hidden") else "also" if g.get("also") else "no"
    skip = g.get("skip")
    ext = extensions(g.get("ext"))
    return Part(
        "list",
        {
            "folder": q(folder).rstrip("/") if folder else None,
            "ext": ext,
            "hidden": hidden,
            "recursive": bool(g.get("rec") or ext or skip),
            "skip": [q(skip).rstrip("/")] if skip else [],
        },
    )


def list_except_ext(m, q) -> Part:
    base = {"folder": None, "ext": None, "hidden": "no", "recursive": True, "skip": []}
    return Part("list", {**base, "not_ext": extensions(m["ext"])})


def list_folder(m, q) -> Part:
    folder = q(m.groupdict().get("folder") or m.groupdict().get("folder2")).rstrip("/")
    return Part(
        "list", {"folder": folder, "ext": None, "hidden": "no", "recursive": False, "skip": []}
    )


def find_name(m, q) -> Part:
    base = {"folder": None, "ext": None, "hidden": "also", "recursive": True, "skip": []}
    return Part("list", {**base, "name": q(m["path"])})


def count_in_files(m, q) -> Part:
    unit = "lines" if m["unit"].lower() in ("lines", "行", "行数") else "words"
    return Part("count", {"unit": unit, "paths": names(m["paths"], q)})


def count_files(m, q) -> Part:
    folder = m.groupdict().get("folder")
    return Part(
        "count",
        {
            "unit": "files",
            "ext": extensions(m.groupdict().get("ext")),
            "folder": q(folder).rstrip("/") if folder else None,
        },
    )


def search(m, q) -> Part | None:
    g = m.groupdict()
    text = literal(g["text"], q, words=3)
    if not text:
        return None
    if text.lower() in ("for", "the", "a", "an", "it", "file", "files", "text", "word", "words"):
        return None
    one_word = re.fullmatch(r"(?:(?:def|class|import|from)\s+)?[\w.-]+[?？!！.。]*", text)
    if not quoted(g["text"]) and not one_word:
        return None  # 'utils twice': only a quoted phrase is searched as it is
    text = text if quoted(g["text"]) else text.rstrip("?？!！.。")
    verb = (g.get("verb") or "").lower()
    imports = verb.startswith("import") or verb in ("导入", "导入了", "引入", "引入了")
    if imports and not re.fullmatch(r"[A-Za-z_][\w.]*", text):
        return None
    folder, skip = g.get("folder"), g.get("skip")
    return Part(
        "search",
        {
            "text": text,
            "imports": imports,
            "ext": extensions(g.get("ext")),
            "folder": q(folder).rstrip("/") if folder else None,
            "skip": [q(skip).rstrip("/")] if skip else [],
        },
    )


def run_file(m, q) -> Part | None:
    path = q(m["path"])
    return Part("run", {"path": path}) if path.rpartition(".")[2].lower() in RUNNERS else None


def run_it(m, q) -> Part:
    return Part("run", {"path": IT})


# commands it will not run for a learner, even when typed out: they destroy, escalate or fetch
UNSAFE_COMMAND = re.compile(
    r"(?:^|[;&|`(]\s*|\s)(?:rm|rmdir|dd|mkfs\S*|chmod|chown|sudo|su|curl|wget|pip3?|apt(?:-get)?|"
    r"kill|pkill|killall|shutdown|reboot|mv|truncate|shred)\b|git\s+(?:push|reset|clean|checkout|"
    r"rebase)|>\s*/|:\(\)"
)


def run_command(m, q) -> Part | None:
    command = q(m["command"]).strip()
    if not command or UNSAFE_COMMAND.search(command):
        return None
    return Part("run", {"command": command})


def skip_folder(m, q) -> Part:
    return Part("skip", {"skip": [q(m["skip"]).rstrip("/")]})


def skip_ext_change(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "list" or part.params.get("ext"):
            return False
        part.params.update(not_ext=extensions(m["ext"]), recursive=True)
        return True

    return Change(apply)


def search_definition(m, q) -> Part:
    base = {"imports": False, "ext": ["py"], "folder": None, "skip": []}
    return Part("search", {**base, "text": f"def {m['text']}", "case": True})


def verify_change(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "show" or set(part.params) != {"path"}:
            return False
        part.params["verify"] = True
        return True

    return Change(apply)


def show_verify(m, q) -> Part:
    return Part("show", {"path": q(m["path"]), "verify": True})


def hidden_change(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "list" or part.params.get("hidden") != "no":
            return False
        part.params["hidden"] = "also"
        return True

    return Change(apply)


def not_hidden_change(m, q) -> Change:
    return Change(
        lambda part: part.kind in ("list", "count") and part.params.get("hidden", "no") == "no"
    )
