"""Frames that look, count or talk: each reads its typed slots from a Clause, or gives None.

A frame is a Part (show, list, count, search, git, math, chat...) or a Change to the part
before it. Frames that change files or run them are in writeframes.py; compose.py picks the
frame for each clause and puts the parts together.
"""

from __future__ import annotations

import ast
import itertools
import operator
import re

from agentlib.offline.playbook.clause import EXT_PATH, IT, Clause, use
from agentlib.offline.playbook.lexicon import MATH
from agentlib.offline.playbook.lineframes import matching_lines, more_tests
from agentlib.offline.playbook.reader import PHRASES, Item, Part


def chat(c: Clause, parts: list[Part]) -> Part | None:
    found = [i for i in c.items if i.role == "chat"]
    if not found or c.find("verb") or c.paths() or c.find("mark", "content"):
        return None  # 'create a.txt with hello in it': the word is content here
    if any(i.role != "chat" for i in c.left()):
        if found[0] is c.left()[0] and found[0].value != "about":
            found[0].used = True  # 'hey, what files do I have?': a greeting before the task
        return None
    use(found)
    return Part("chat", {"about": found[0].value})


OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Mod: operator.mod,
    ast.USub: operator.neg, ast.UAdd: operator.pos,
}  # fmt: skip


def _evaluate(node: ast.AST) -> float:
    """Arithmetic only, with small powers: anything else raises ValueError."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 10**6):
            raise ValueError("power too large")
        return OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](_evaluate(node.operand))
    raise ValueError("not arithmetic")


def _sign(i: Item) -> bool:
    return i.role == "op" and i.value in ("+", "-", "*", "/", "(", ")", "^", "**")


def math(c: Clause, parts: list[Part]) -> Part | None:
    signs = [i for i in c.items if i.role == "num" or i.text.lower() in MATH or _sign(i)]
    out: list[str] = []
    for i in signs:
        if i.value == "*" and out and out[-1] == "*":
            out[-1] = "**"  # '2 ** 10' is typed as two signs
            continue
        sign = MATH.get(i.text.lower(), i.value).replace("^", "**")
        if sign == "" and out:  # '2 的 10 次方': the power is said after both numbers
            out.insert(len(out) - 1, "**")
        elif sign:
            out.append(sign)
    expr = " ".join(out)
    if len(re.findall(r"\d+(?:\.\d+)?", expr)) < 2 or len(expr.split()) < 3:
        return None
    try:
        value = _evaluate(ast.parse(expr, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    use(signs)
    c.drop("verb.calc", "verb.count", "verb.add")
    if isinstance(value, float):
        value = int(value) if value.is_integer() and abs(value) < 1e15 else float(f"{value:.12g}")
    return Part("math", {"expr": expr, "value": value})


def fact(c: Clause, parts: list[Part]) -> Part | None:
    found = c.take("fact")
    if found:
        c.drop("verb.tell", "verb.show", "verb.run")
    return Part("run", {"command": found.value}) if found else None


GIT = {"branch": "branch", "status": "status", "log": "log", "commit": "last"}


def git(c: Clause, parts: list[Part]) -> Part | None:
    nouns = [i for i in c.items if i.role == "noun" and i.value in GIT and not i.used]
    if not nouns or c.paths():
        return None
    what = GIT[nouns[0].value]
    counting = c.find("verb", "count")
    if counting and what in ("log", "last") and not c.find("num"):
        counting.used = True  # 'how many commits are there?', '有几次提交'
        what = "count"
    said = " ".join(i.text.lower() for i in nouns + c.left())
    explicit = re.search(r"last|latest|recent|message|最近|最后|上一次|最新|信息", said)
    if what == "last" and not (explicit or c.find("verb", "show", "tell")) and not counting:
        return None  # 'git commit' asks to commit, not to show the last commit
    use(nouns)
    n = c.take_number() or 10
    if what == "last" and c.find("noun", "log"):
        what = "log"
    c.drop("here", "mark.exists", "mark.range")  # 'git status - any untracked files?'
    c.drop("noun.git", "noun.log", "verb.show", "verb.list", "verb.tell", "verb.find")
    c.drop("mark.in", "mark.last")
    return Part("git", {"what": what, "n": n})


def pick(c: Clause, parts: list[Part]) -> Part | None:
    found = next((i for i in c.items if i.role == "adj" and i.value != "hidden"), None)
    if found:
        found.used = True
    empty = c.find("mark", "empty") if not c.has("verb", "create") else None
    if not found and not (empty and not c.paths()):
        return None
    if empty:
        empty.used = True
    c.drop("noun.file", "here", "verb.show", "verb.find", "verb.list", "verb.tell", "mark.in")
    c.drop("mark.exists")  # '这里有没有空文件'
    return Part("pick", {"by": "empty" if empty else found.value})


def total(c: Clause, parts: list[Part]) -> Part | None:
    if not c.find("noun", "sum") or len(c.paths(ext_only=True)) > 1:
        return None  # 'a.txt 和 b.txt': '和' joins two names
    path = c.take_path()
    if not path:
        return None
    c.drop("noun.sum", "noun.numbers", "noun.content", "verb.calc", "verb.count", "verb.tell")
    return Part("sum", {"path": path})


def show(c: Clause, parts: list[Part]) -> Part | list[Part] | None:
    if made := matching_lines(c):
        return made  # "show the lines of a.txt that don't start with #"
    if not c.find("noun", "line") and len(c.paths(ext_only=True)) > 1:
        paths = c.take_paths()  # 'show me a.txt and b.txt': each one, in turn
        both = c.find("num")
        if both and int(float(both.value)) == len(paths):
            both.used = True  # 'open both a.txt and b.txt'
        c.drop("noun.file", "noun.content", "mark.in", "verb.show", "verb.tell")
        return [Part("show", {"path": path}) for path in paths]
    path = c.take_path_or_it()
    if path is None and not all(
        i.role in ("verb", "stop", "op", "mark") or i.is_("noun", "content") for i in c.left()
    ):
        return None
    path = path or IT  # '再看一下', 'show it again', '把内容给我看看': the file of the last turn
    if path.endswith("/") and not c.find("noun", "line"):  # "what's in notes/": a listing
        c.drop("noun.content", "mark.in", "verb.show", "verb.tell")
        return _listing(folder=path.rstrip("/"))
    params: dict = {"path": path}
    line = c.find("noun", "line")
    if line:
        at = c.items.index(line)
        for other in c.items[at + 1 :]:
            if other.is_("noun", "line"):
                other.used = True  # 'from line 2 to line 4'
        end = c.take("mark", "first", "last")
        nums = [i for i in c.items[max(0, at - 5) : at + 6] if i.role == "num" and not i.used]
        use([*nums, line])
        values = [int(float(i.value)) for i in nums]
        # '5 lines of a.txt', 'a.txt 5行': how many, from the top; 'line 5', '第5行', '5th': which one
        counted = len(nums) == 1 and c.items.index(nums[0]) < at and nums[0].text.isdigit()
        counted = counted and not c.find("mark", "nth", "range", "to")
        if counted and (line.text.lower().endswith("s") or line.text == "行") and not end:
            end = Item("mark", "first", line.start, line.start, "")
        c.drop("mark.nth", "mark.range", "mark.to")
        if end:  # 'the first lines' are ten of them, 'the first line' one
            many = line.text.lower().endswith("s") or line.text == "几行"
            count = values[0] if values else 10 if many else 1
            params["head" if end.value == "first" else "tail"] = count
        elif len(values) in (1, 2):
            params["lines"] = [min(values), max(values)]
        else:
            return None
    c.drop("noun.file", "noun.content", "mark.in", "verb.show", "verb.tell")
    return Part("show", params)


def listing(c: Clause, parts: list[Part]) -> Part | None:
    """List files (by kind, folder, name), or the lines of one file that hold a word."""
    verb = c.take("verb", "list", "find", "show")
    exts = c.take_exts()
    folder = c.take_folder()
    if verb and (named := c.paths(ext_only=True)):
        name = c.take_path()
        c.drop("noun.file", "mark.name", "here")
        finds = c.take_all("verb", "find") + ([verb] if verb.value == "find" else [])
        if any(i.role == "noun" for i in c.left()):
            return None  # 'list all functions in utils.py': a kind of thing, not a word to find
        term = c.literal() if c.left() else None  # "where's readme.md?": the '?' is no term
        if term and not EXT_PATH.search(name.rpartition("/")[2]):
            return None
        if term and not finds:  # 'list the TODOs in notes.txt': the lines that hold the word
            return Part("show", {"path": name, "grep": [["in", term, True]]})
        if term or not finds or len(named) != 1:
            return None
        return _by_name(name)
    if not (c.take_all("noun", "file") or exts or verb or folder or c.find("here")):
        return None
    # 'list the files in src', '列出 docs 里的文件': a folder, or none there
    folder = c.take_bare_folder() if folder is None else folder
    c.drop("here", "mark.in", "noun.folder", "mark.exists")  # 'are there any python files?'
    hidden = c.take("adj", "hidden")
    if hidden:  # 'hidden files' are only those; 'files, hidden ones too' are all of them
        after = c.items[c.items.index(hidden) + 1 : c.items.index(hidden) + 2]
        hidden = "only" if after and after[0].is_("noun", "file") else "also"
    return _listing(folder=folder, ext=exts or None, hidden=hidden or "no", recursive=bool(exts))


def _listing(**params) -> Part:
    """A list part: the top of the workspace unless ``params`` say otherwise."""
    base = {"folder": None, "ext": None, "hidden": "no", "recursive": False, "skip": []}
    return Part("list", {**base, **params})


def _by_name(name: str) -> Part:
    return _listing(hidden="also", recursive=True, name=name)


def find_name(c: Clause) -> Part | None:
    """'is there a file called setup.py?': look for it by name, anywhere below the root."""
    c.drop("noun.file", "here")
    name = c.take_path()
    return _by_name(name) if name else None


def count(c: Clause, parts: list[Part]) -> Part | None:
    if c.find("mark", "value"):
        return None  # 'PORT 设置的是多少': a setting's value, not a count
    if made := matching_lines(c, counting=True):
        return made  # 'how many lines in log.txt contain err': each line counts once
    if c.find("noun", "line") and c.find("verb", "search"):
        return None  # 'how many lines in a.txt contain': not all of its lines
    unit = "lines" if c.take("noun", "line") else "words" if c.take("noun", "word") else None
    asked = c.take_all("noun", "times") + c.take_all("mark", "term") + c.take_all("verb", "count")
    asked = [i for i in asked if i.value != "count" or i.text in ("几次", "多少次")]
    c.drop("verb.search", "verb.tell")  # 'tell me how many lines'
    paths = c.take_paths() or ([IT] if c.take("mark", "it") else [])
    c.take_all("mark", "exists")  # 'how many markdown files are there'
    if unit and not paths:
        return None  # 'count the lines in all python files': not one file it can name
    if paths and unit:
        c.drop("mark.in")
        return Part("count", {"unit": unit, "paths": paths})
    earlier = parts[-1].params.get("unit") if parts and parts[-1].kind == "count" else None
    if paths and not unit and earlier in ("lines", "words") and not c.left():
        return Part("count", {"unit": earlier, "paths": paths})  # '... and how many in b.csv?'
    if len(paths) == 1:
        c.drop("mark.in", "noun.file")
        if any(i.role == "noun" for i in c.left()):
            return None  # 'how many functions are in utils.py': not a word to count
        quoted = [i.role for i in c.left()] == ["quote"]
        term = c.literal()
        if not term or len(term.split()) > 3 or (_filler(term) and not quoted):
            return None  # '了' is no word to count
        if re.fullmatch(r"[A-Za-z]{3,}s", term) and not term.endswith("ss"):
            term = term[:-1]  # 'how many TODOs': each TODO
        if not (asked or quoted or term.isupper()):
            return None  # 'how many characters are in a.txt': a unit it cannot count
        return Part("count", {"unit": "matches", "paths": paths, "term": term})
    exts = c.take_exts()
    folder = c.take_folder() or c.take_bare_folder()
    if not c.take_all("noun", "file") and not exts:
        return None
    c.drop("here", "mark.in")
    return Part("count", {"unit": "files", "ext": exts or None, "folder": folder})


def _filler(text: str) -> bool:
    """Words that only carry the sentence ('了', 'the'): never a text to count or find."""
    return all(PHRASES.get((w.lower(),), [("", "")])[0][0] == "stop" for w in text.split())


def _placed(c: Clause, item) -> bool:
    """The name says where to look ('in notes.txt', 'notes.txt 里'), not what to look for."""
    at = c.items.index(item)
    before, after = c.items[max(0, at - 1) : at], c.items[at + 1 : at + 2]
    return any(i.is_("mark", "in") for i in before + after)


def search(c: Clause, parts: list[Part]) -> Part | None:
    if made := matching_lines(c) or more_tests(c, parts):
        return made  # 'which lines of a.txt mention foo'
    verbs = c.take_all("verb", "search", "define")
    first = next((i for i in c.items if i.role != "stop"), None)
    if first and first.is_("verb", "find", "list", "show", "tell"):
        first.used = True
    defined = any(v.value == "define" for v in verbs)
    imports = any(v.text.lower().startswith(("import", "导入", "引入")) for v in verbs)
    if verbs:  # 'where does X appear', '在哪些地方出现': the search itself, not a file to find
        c.drop("verb.find")
    exts = c.take_exts()
    folder = c.take_folder()
    named = c.paths(ext_only=True)
    placed = bool(named) and _placed(c, named[0])
    inside = c.take_path() if not exts and not folder else None
    c.drop("noun.file", "noun.library", "noun.function", "mark.term", "here", "mark.in")
    c.drop("mark.in_it", "mark.it")
    term_items = c.left()
    nxt = {id(a): b for a, b in itertools.pairwise(c.items)}
    word_ext = [i for i in c.items if i.role == "ext" and i.text.isalpha()]
    kind = nxt.get(id(word_ext[0]), c.items[0]).is_("noun", "file") if word_ext else True
    if not term_items and len(word_ext) == 1 and not kind:
        params = {"text": word_ext[0].text, "imports": imports, "folder": folder, "skip": []}
        return Part("search", {**params, "ext": None})  # 'which files import json?': a term
    quoted = len(term_items) == 1 and term_items[0].role == "quote"
    if any(i.role == "noun" for i in term_items):
        return None  # 'which files have functions': a kind of thing, not a text to search
    term = c.literal() if term_items else None
    if not term and inside and not placed:  # 'which files mention config.py': a text to find
        term, inside = inside, None
    if not term or (not quoted and not re.fullmatch(r"[\w.-]+", term)):
        return None
    if inside and not imports and not defined:  # 'search for TODO in notes.txt': its lines
        return Part("show", {"path": inside, "grep": [["in", term, True]]})
    if inside:
        return None
    params = {"text": term, "imports": imports, "ext": exts or None, "folder": folder, "skip": []}
    if defined:
        if not term.isidentifier():
            return None
        params.update(text=f"def {term}", ext=["py"], case=True)
    return Part("search", params)
