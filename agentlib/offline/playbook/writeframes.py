"""Frames that change the workspace or run something: create, append, replace, move, copy, delete, run.

Same shape as frames.py: each takes a Clause and the parts read so far, and returns a Part, a
list of Parts, a Change to the last part, or None when its slots are not all filled.
"""

from __future__ import annotations

import ast
import itertools
import re

from agentlib.offline.playbook.clause import IT, JOINERS, Clause, _arguments, update, use
from agentlib.offline.playbook.lexicon import CONFIG_FILES, RUNNERS, SHELL
from agentlib.offline.playbook.reader import Part


def create(c: Clause, parts: list[Part]) -> Part | list[Part] | None:
    c.take("verb", "create") or c.take("verb", "add")
    within = None
    if c.find("noun", "folder") and not c.find("mark", "in_it"):
        if c.paths(ext_only=True) and c.find("mark", "in"):
            # 'create todo.txt in the notes folder', '在 notes 文件夹里创建'
            within = c.take_folder()
        if within is None:
            made = _mkdir(c)  # 'build' in '新建文件夹 build' is the folder's name
            c.drop("verb.create", "verb.add")
            return made
    c.drop("verb.create", "verb.add")
    inside = c.take("mark", "in_it")
    paths = c.take_paths()
    if within:
        c.drop("mark.in")
        paths = [f"{within}/{p}" for p in paths]
    c.drop("noun.file", "mark.name")
    if not paths and c.take("mark", "it"):
        paths = [IT]  # 'no wait, make it print bye'
    if not paths and inside and inside.value == "in_it" and parts and parts[-1].kind == "create":
        text = c.plain(c.literal(content=True), "description")  # 'and write hello in it'
        p = parts[-1].params
        if text and p.get("content") == "" and len(p["paths"]) == 1:
            return lambda part: part is parts[-1] and update(part, content=text + "\n")
        return None
    named = next((n for n, i in enumerate(c.items) if i.role == "path" and i.used), len(c.items))
    for kind in [i for i in c.items[:named] if i.role == "ext" and not i.used]:
        kind.used = True  # 'a python script called hi.py' (an ext after the name is content)
        if not paths or paths[0].rpartition(".")[2].lower() != kind.value:
            return None
    if inside and inside.value == "in_it" and parts and parts[-1].kind == "mkdir":
        paths = [f"{parts[-1].params['paths'][-1]}/{p}" for p in paths]
    number = c.find("num")
    if not paths:
        return None
    asked = [c.find("mark", "prints"), c.find("mark", "content"), c.find("mark", "with")]
    asked += [i for i in [c.find("verb", "show")] if i and _prints_word(c, i)]
    what = _content(c)
    if what is None and any(asked):
        return None  # it was told what to write, and that is not text it can take as it is
    to = c.find("mark", "to") if what is None else None  # 'write hello to out.txt'
    text = c.plain(c.literal(before=to, content=True), "description") if to else None
    if text:
        to.used, what = True, {"content": text + "\n"}
    if what is None:
        what = {"content": ""}
        if number and number.used is False and int(number.value) != len(paths):
            return None
    if len(paths) > 1 and set(what) != {"content"}:
        return None
    if paths != [IT] and "prints" in what and paths[0].rpartition(".")[2].lower() not in RUNNERS:
        return None  # only a script it can run prints
    if paths != [IT] and "function" in what and not paths[0].endswith(".py"):
        return None
    return Part("create", {"paths": paths, **what})


def _mkdir(c: Clause) -> Part | list[Part] | None:
    named = c.take("mark", "name")
    after = c.items[c.items.index(named) + 1 : c.items.index(named) + 2] if named else []
    if after and (after[0].role == "verb" or (after[0].role == "word" and not after[0].used)):
        after[0].used = True  # 'a directory named build': any word can be a name
        c.drop("noun.folder")
        return _fill_folder(c, after[0].text)
    names = [c.take_path() or ""] if c.paths() and not c.find("noun", "folder") else []
    folder = c.take_folder() or (names[0] if names else None)
    word = None if folder else c.take("word")
    folder = folder or (word.value if word else None)
    if not folder:
        return None
    c.drop("noun.folder")
    return _fill_folder(c, folder)


def _fill_folder(c: Clause, folder: str) -> Part | list[Part] | None:
    made = Part("mkdir", {"paths": [folder], "files": 0})
    c.take("mark", "with")
    if c.find("noun", "file") and c.find("num"):
        c.drop("noun.file")
        made.params["files"] = min(20, max(1, c.take_number() or 3))
        return made
    inner = c.take_path()
    if not inner:
        return made
    c.drop("mark.in_it")
    what = _content(c) or {"content": ""}
    return [made, Part("create", {"paths": [f"{folder}/{inner}"], **what})]


def files_into_folder(c: Clause, parts: list[Part]):
    """'and write 3 files in it' after a new folder."""
    if not (parts and parts[-1].kind == "mkdir" and c.find("num") and c.find("noun", "file")):
        return None
    c.drop("verb.create", "verb.add", "mark.content", "mark.in_it", "noun.file")
    files = min(20, max(1, c.take_number() or 3))

    def change(part: Part) -> bool:
        fits = part.kind == "mkdir" and not part.params["files"] and len(part.params["paths"]) == 1
        return fits and update(part, files=files)

    return change


WHERE = ("end", "last", "to", "line", "file")  # 'at the end of', 'as a new line', '末尾'


def append(c: Clause, parts: list[Part]) -> Part | None:
    verb = c.take("verb", "append", "add")
    path = c.take_path_or_it()
    # markers count only next to the name: '成' in '完成' is part of the text
    for _ in range(2):
        words = [i for i in c.items if i.role != "stop"]
        for n, item in enumerate(words):
            near = words[max(0, n - 1) : n] + words[n + 1 : n + 2]
            beside = any(x.used and x.role in ("path", "mark", "verb", "noun") for x in near)
            if beside and item.role in ("mark", "noun") and item.value in WHERE:
                item.used = True
    where = [i for i in c.items if i.is_("noun", "line") or i.is_("mark", "end", "last")]
    said_where = any(i.used for i in where)  # 'as a new line', 'at the end'
    # 'a line saying done', 'the text hi': not the text ('写' in '写周报' is, so English only)
    marker = next(
        (i for i in c.left() if i.is_("mark", "content", "term") and i.text.isascii()), None
    )
    use([marker] if marker else [])
    if marker and len([i for i in c.items if i.role == "path"]) > 1:
        return None  # 'a line saying v1.2 released to CHANGELOG.md': which name is the file?
    quoted = [i.role for i in c.left()] == ["quote"]
    text = c.plain(c.literal(after=marker, content=True), "description")
    if not (verb and path and text):
        return None
    if path != IT and path.rpartition(".")[2].lower() in {*RUNNERS, "html", "css", "json"}:
        if not (quoted or said_where):
            return None  # 'add error handling to main.py': a change to code, not a line of text
    return Part("append", {"path": path, "text": text})


def replace(c: Clause, parts: list[Part]) -> Part | None:
    """'replace A with B in f', 'in f change A to B', '把 f 里的 A 改成 B', 'A should be B'."""
    if c.find("mark", "value"):
        return None  # 'change the value of debug': a setting, not a text to find
    verbs = c.take_all("verb", "replace", "rename")
    verb = verbs[0] if verbs else None
    named = c.paths(ext_only=True)
    inside = [  # the file to edit is the one 'in' names ('in list.md', 'list.md 里')
        i
        for n, i in enumerate(c.items)
        if i in named
        and (
            (n and c.items[n - 1].is_("mark", "in") and c.items[n - 1].text.lower() != "of")
            or (n + 1 < len(c.items) and c.items[n + 1].is_("mark", "in"))
        )
    ]
    if len(named) > 1 and len(inside) != 1:
        return None  # 'change the name of a.txt to b.txt': not an edit of one file
    for other in named:
        if inside and other is not inside[0]:
            other.role = "word"  # 'replace foo.txt with bar.txt in list.md': text, not the file
    path = c.take_path()
    last = parts[-1] if parts else None  # 'edit a.txt, change x to y': the file named before
    if path is None and last and last.kind == "replace" and last.params.get("old") is None:
        path = last.params["path"]
    c.drop("noun.typo")
    symbol = bool(c.take_all("noun", "function") + c.take_all("mark", "term"))
    symbol = symbol or (verb is not None and verb.value == "rename")
    marker = c.take("mark", "to") or c.take("mark", "with") or c.take("mark", "should")
    if path is None:
        return None
    if marker is None:
        return Part("replace", {"path": path, "old": None}) if verb and not c.left() else None
    if any(i.is_("noun", "line") or i.is_("mark", "first", "last", "nth") for i in c.left()):
        return None  # 'change line 2 to x': a place in the file, not a text to find
    at = c.items.index(marker)
    if not any(i.role not in ("stop", "op") and not i.used for i in c.items[:at]):
        return None  # 'change the contents of a.txt to hello': nothing named to find
    old = c.literal(before=marker)
    new = c.literal(after=marker)
    if not old or new is None:
        return None
    both_quoted = old in c.quoted and new in c.quoted
    literal = both_quoted or "=" in old or marker.text.lower() == "with" or old.isdigit()
    if path.rpartition(".")[2].lower() in CONFIG_FILES and not literal:
        return None  # 'debug to false' in a config file is a setting; 'replace 80 with 81' a text
    if symbol and not re.fullmatch(r"\w+", old):
        return None
    return Part("replace", {"path": path, "old": old, "new": new, "all": True, "words": symbol})


def transfer(c: Clause, parts: list[Part]) -> Part | None:
    verb = c.take("verb", "rename", "move", "copy") or c.take("verb", "create")
    kind = {"rename": "move", "copy": "copy"}.get(verb.value, "move") if verb else None
    it, named = c.find("mark", "it"), c.paths()
    if it and named and c.items.index(it) < c.items.index(named[0]):
        src = IT if c.take("mark", "it") else None  # 'copy it to b.txt': b.txt is where to
    else:
        src = c.take_path_or_it()
    into_word = c.take("mark", "to") or c.take("mark", "name")
    folder = c.take_folder()
    if folder is None and parts and parts[-1].kind == "mkdir" and c.take("mark", "in_it"):
        folder = parts[-1].params["paths"][-1]  # 'make a folder x and copy a.txt into it'
    named = c.paths(ext_only=True)
    if named and into_word and c.items.index(named[0]) < c.items.index(into_word):
        return None  # 'move a.txt and b.txt into docs': more than one thing to move
    dest = folder or c.take_path()
    bare = False
    if dest is None and verb and verb.value != "rename":  # 'move a.txt to docs': a folder there
        after = [i for i in c.items if not i.used and i.role not in ("stop", "op")]
        ahead = c.items[c.items.index(into_word) + 1 :] if into_word else after
        word = next((i for i in ahead if i.role not in ("stop", "op")), None)
        if word and word.role == "word" and not word.used and word.value.isidentifier():
            word.used, dest, bare = True, word.value, True
    c.drop("mark.in", "mark.in_it", "noun.file")
    if not src or not kind:
        return None
    if dest is None and kind == "copy" and not into_word:
        return Part("copy", {"src": src, "dest": None, "into": False})
    if dest is None:
        return None
    into = folder is not None or (verb.value == "move" and "." not in dest.rpartition("/")[2])
    into = "existing" if bare else into  # a bare word is a folder only if there is one
    return Part(kind, {"src": src.rstrip("/"), "dest": dest.rstrip("/"), "into": into})


def delete(c: Clause, parts: list[Part], keep: list[str] = ()) -> Part | None:
    c.take("verb", "delete")
    exts = c.take_exts()
    folder = c.take_folder()
    paths = c.take_paths() or ([IT] if c.take("mark", "it") else [])
    c.drop("mark.in", "here")
    files = c.take_all("noun", "file")
    if keep and not paths and not exts:
        return Part("delete_except", {"keep": list(keep), "folder": folder or "."})
    if exts and not paths:
        return Part("delete_ext", {"folder": folder or ".", "ext": exts})
    if folder and not paths and not files:
        return Part("delete", {"paths": [folder]})
    return Part("delete", {"paths": paths}) if paths else None


def run(c: Clause, parts: list[Part]) -> Part | None:
    if typed_command(c):  # 'echo hello', 'python3 square.py 5': run as typed
        command = c.text[c.left()[0].start : c.items[-1].end]
        use(c.items)
        return Part("run", {"command": c.unquote(command).strip()})
    c.take("verb", "run")
    runner = c.take("ext", "py", "sh", "js")  # 'run python square.py 3'
    quote = c.find("quote")
    if quote and not c.paths(ext_only=True):
        quote.used = True
        return Part("run", {"command": c.unquote(quote.value)})
    path = c.take_path_or_it()
    script = c.take("noun", "file")
    args = []
    at = next((n for n, i in enumerate(c.items) if i.role == "path" and i.used), None)
    if at is not None and not c.find("mark", "args"):  # 'run square.py 7', 'run square.py with 7'
        rest = [i for i in c.items[at + 1 :] if i.role != "stop"]
        if rest and rest[0].is_("mark", "with") and len(rest) > 1:
            rest[0].used, rest = True, rest[1:]
        while rest and rest[0].role == "num":
            args.append(rest[0].value)
            rest[0].used, rest = True, rest[1:]
            if len(rest) > 1 and rest[0].text.lower() in JOINERS and rest[1].role == "num":
                rest[0].used, rest = True, rest[1:]  # 'run add.py with 2 and 3'
    if marker := c.take("mark", "args"):
        c.take("mark", "with")
        at = c.items.index(marker)
        near = [i for i in c.items[max(0, at - 3) : at + 6] if i.role in ("num", "word", "quote")]
        args = _arguments([i for i in near if not i.used])
        use(near)
    c.drop("verb.tell", "mark.report", "mark.in")
    ext = path.rpartition(".")[2].lower() if path else None
    if (path is None and script is None) or (path and path != IT and ext not in RUNNERS):
        return None  # nothing named to run, or a kind of file it does not run
    if runner and ext != runner.value:
        return None  # 'run python notes.sh'
    return Part("run", {"path": path, "args": [c.unquote(a) for a in args]})


def typed_command(c: Clause) -> bool:
    """A command typed out ('ls -la', 'tail -n 2 log.txt'); 'head' or 'tail' only before its arguments."""
    first = c.left()[:1]
    if not first or first[0].text.lower() not in SHELL:
        return False
    items = c.items[c.items.index(first[0]) :]
    if items[0].role == "word":
        return True
    # 'tail -n 2 log.txt': after the command, only options ('-n'), numbers and names
    options = [b for a, b in itertools.pairwise(items) if a.text == "-" and b.role == "word"]
    rest = [i for i in items[1:] if i not in options]
    arguments = all(i.role in ("path", "num", "op") or i.text == "-" for i in rest)
    return items[0].role == "mark" and arguments


def _prints_word(c: Clause, verb) -> bool:
    """'make script.py print hello': the verb 'print' before plain words says what it prints."""
    after = c.items[c.items.index(verb) + 1 :][:1]
    plain = after and after[0].role in ("word", "quote", "chat", "num")
    return verb.text.lower() in ("print", "prints") and bool(plain)


def _content(c: Clause) -> dict | None:
    """What a new file holds: printed text, given text, a function, or nothing."""
    verb = c.find("verb", "show")
    if verb and not _prints_word(c, verb):
        verb = None  # 'write print("hi") to test.py': code to write, not a text to print
    if mark := c.take("mark", "prints") or (verb and c.take("verb", "show")):
        text = c.plain(c.literal(after=mark, content=True), "behaviour")
        return {"prints": text, "run": True} if text else None
    func = next((i for i in c.items if i.role == "func" and not i.used), None)
    if func:
        func.used = True
        c.drop("noun.function", "mark.with", "mark.in_it")
        c.take_all("mark", "content")  # '里面写一个 greet(name) 函数'
        name, _, args = func.value.partition("(")
        args = [a.strip() for a in args.rstrip(")").split(",") if a.strip()]
        returns = c.take("mark", "returns")
        body = _body(name, args, c.literal(after=returns) if returns else None)
        if (returns and body is None) or not all(a.isidentifier() for a in args):
            return None
        return {"function": name, "args": args, "body": body}
    if c.take("mark", "empty") or c.take("mark", "keep_empty"):
        return {"content": ""}
    mark = c.take("mark", "content") or c.take("mark", "with")
    if not mark:
        return None
    strict = "description" if mark.value == "with" else "hedge"
    c.drop("mark.in_it")
    wanted = c.take_number() if c.take("noun", "line") else None  # 'with 3 lines: a, b and c'
    text = c.plain(c.literal(after=mark, content=True), strict)
    if text is None:
        return None
    if wanted:
        pieces = [p.strip() for p in re.split(r",|、|，|\band\b|和", text) if p.strip()]
        if len(pieces) != wanted:
            return None
        text = "\n".join(pieces)
    return {"content": text + "\n"}


FUNCTION_BODIES = {
    ("greet", "hello", "say_hello", "greeting"): 'f"Hello, {%s}!"',
    ("add", "sum", "plus", "add_numbers"): "%s + %s",
    ("subtract", "sub", "minus"): "%s - %s",
    ("multiply", "mul", "times", "product"): "%s * %s",
    ("divide", "div"): "%s / %s",
    ("square",): "%s * %s",
    ("double",): "%s * 2",
}


def _body(name: str, args: list[str], returns: str | None) -> str | None:
    """The expression the function returns: the one asked for, or the obvious one for its name."""
    if returns:
        try:
            tree = ast.parse(returns, mode="eval").body
        except SyntaxError:
            return None
        allowed = (ast.BinOp, ast.Name, ast.Constant, ast.operator, ast.Load, ast.UnaryOp)
        names_ok = all(not isinstance(n, ast.Name) or n.id in args for n in ast.walk(tree))
        plain = names_ok and all(isinstance(n, allowed) for n in ast.walk(tree))
        return ast.unparse(tree) if plain else None
    for known, body in FUNCTION_BODIES.items():
        if name.lower() in known and args and body.count("%s") <= max(len(args), 1):
            fill = args if body.count("%s") == len(args) else [args[0]] * body.count("%s")
            return body % tuple(fill)
    return None
