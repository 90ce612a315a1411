"""Builders shared by the English and Chinese clause shapes: a match becomes a Part or a Change.

Free text the learner did not quote (a message to print, text to write or search) is taken only
when it is short and carries no negation or condition; otherwise the clause stays unclear.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from agentlib.offline.request import Part

FILE = (
    r"(?P<path>\ue000\d+\ue000|\.?[A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]{1,8}|\.[A-Za-z][\w-]*)"
)
_FILE = r"(?:\ue000\d+\ue000|\.?[A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]{1,8})"
# a file or folder name; never one of the little words around names
_NAME = r"(?:\ue000\d+\ue000|(?!(?:folder|directory|dir|file|files|and|it|the|to|into|as|in|everything|all|anything|them|these|those)\b)[A-Za-z0-9_.][A-Za-z0-9_./-]*)"
NAME = _NAME
FILE_LIST = rf"{_FILE}(?:(?:\s*[,、和与跟及]\s*|,?\s+and\s+|\s+){_FILE})*"
NAME_LIST = rf"{_NAME}(?:(?:\s*[,、和与跟及]\s*|,?\s+and\s+|\s+){_NAME})*"
MATH = r"[-+*/x×÷^().\d\s]+(?:(?:plus|minus|times|multiplied by|divided by|over|to the power of|乘以|乘|除以|加上|加|减去|减)\s*[-+*/x×÷^().\d\s]+)*"
IT = "\x00it"  # stands for the file the previous part was about
NUMBERS = {
    **{w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())},
    **{c: i for i, c in enumerate("零一二三四五六七八九十")},
    "两": 2,
}
EXTENSIONS = {
    "python": ["py"], "py": ["py"], "markdown": ["md"], "md": ["md"], "text": ["txt"],
    "txt": ["txt"], "javascript": ["js"], "js": ["js"], "yaml": ["yaml", "yml"],
    "yml": ["yaml", "yml"], "shell": ["sh"], "sh": ["sh"], "json": ["json"], "csv": ["csv"],
    "html": ["html"], "css": ["css"], "toml": ["toml"],
}  # fmt: skip
RISKY = re.compile(
    r"\b(?:not|don'?t|never|no|if|unless|except|without|but|instead|only|then|and run|until|"
    r"while|each|every)\b|[不别没如果除非但只每]",
    re.I,
)
DESCRIPTION = re.compile(
    r"\b(?:functions?|class(?:es)?|methods?|program|script|code|tests?|loop|algorithm|app|game|"
    r"docstrings?|comments?|type hints?|imports?|headers?|license|readme|description|summary)\b"
    r"|函数|类|程序|代码|脚本|测试|算法|注释|文档|说明|导入|类型",
    re.I,
)
# words that make an unquoted message a description of behaviour ('hello in red', '3 times')
FILE_NAME_INSIDE = re.compile(r"[A-Za-z0-9_-]\.[A-Za-z]{1,5}\b")
CONFIG_FILES = ("json", "yaml", "yml", "toml", "ini", "cfg", "env", "conf")
BEHAVIOUR = re.compile(
    r"^(?:the|a|an|all|each|every|some|numbers?|current|today|its|my|your|his|her|their|"
    r"whatever|something|anything|what|how|when|which|result|sum|date|time|random)\b|"
    r"\b(?:in|and|with|using|twice|times|forever|after|before|colou?r(?:ed)?|red|green|blue|"
    r"yellow|bold|upper ?case|lower ?case|reversed?|backwards|formatted|input|arguments?|user|"
    r"loop|lines?|each)\b|[并再和保存次遍]|"
    r"\d+\s*(?:to|-|到|至)\s*\d+|当前|今天|日期|时间|结果|所有|每|随机",
    re.I,
)
Build = Callable[[re.Match, Callable[[str | None], str | None]], "Part | Change | None"]


@dataclass
class Change:
    """A clause that changes the part before it ("but don't run it", "with 3 files in it")."""

    apply: Callable[[Part], bool]


def literal(
    value: str | None, q, *, behaviour: bool = False, words: int = 8, content: bool = False
) -> str | None:
    """The text to use verbatim: anything quoted, or short plain text with no hedges in it."""
    if value is None:
        return None
    value = value.strip()
    if re.fullmatch(r"\ue000\d+\ue000", value):
        return q(value)
    if "\ue000" in value or RISKY.search(value) or len(value.split()) > words or not value:
        return None
    if (behaviour and BEHAVIOUR.search(value)) or (content and DESCRIPTION.search(value)):
        return None
    if FILE_NAME_INSIDE.search(value):
        return None  # 'hi and b.txt with bye': another part hides in the text
    return q(value)


def number(text: str | None, default: int) -> int:
    if not text:
        return default
    text = text.strip().lower()
    return int(text) if text.isdigit() else NUMBERS.get(text, default)


def names(text: str, q) -> list[str]:
    """The names in 'a.txt, b.txt and c.txt' (quoted ones restored)."""
    pieces = re.split(r"\s*[,、和与跟及]\s*|,?\s+and\s+|\s+", text.strip())
    return [q(p).rstrip("/") for p in pieces if p]


def extensions(word: str | None) -> list[str] | None:
    if not word:
        return None
    word = word.lower().strip()
    return EXTENSIONS.get(word) or [word.lstrip(".")]


def chat(about: str) -> Build:
    return lambda m, q: Part("chat", {"about": about})


OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Mod: operator.mod,
    ast.USub: operator.neg, ast.UAdd: operator.pos,
}  # fmt: skip
MATH_WORDS = [
    ("to the power of", "**"), ("multiplied by", "*"), ("divided by", "/"), ("times", "*"),
    ("plus", "+"), ("minus", "-"), ("over", "/"), ("乘以", "*"), ("除以", "/"), ("加上", "+"),
    ("减去", "-"), ("乘", "*"), ("加", "+"), ("减", "-"), ("×", "*"), ("÷", "/"), ("^", "**"),
    ("x", "*"),
]  # fmt: skip


def evaluate(node: ast.AST) -> float:
    """Arithmetic only, with small powers: anything else raises ValueError."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = evaluate(node.left), evaluate(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 10**6):
            raise ValueError("power too large")
        return OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](evaluate(node.operand))
    raise ValueError("not arithmetic")


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


def _quoted(value: str) -> bool:
    return re.fullmatch(r"\s*\ue000\d+\ue000\s*", value) is not None


def replace(m, q) -> Part | None:
    """Quoted text is replaced exactly; a plain word only as a whole word (not inside others)."""
    old, new = literal(m["old"], q, words=6), literal(m["new"], q, words=6)
    path = q(m["path"])
    if not old or new is None:
        return None
    quoted = _quoted(m["old"]) and _quoted(m["new"])
    # in a config file 'debug to false' means a value, not the text 'debug': only exact quotes
    if path.rpartition(".")[2].lower() in CONFIG_FILES and not quoted:
        return None
    whole_words = not _quoted(m["old"])
    if whole_words and not re.fullmatch(r"\w+(?: \w+)*", old):
        return None
    first = bool(m.groupdict().get("first"))
    params = {"path": path, "old": old, "new": new, "all": not first, "words": whole_words}
    return Part("replace", params)


PRINTERS = {"py": "python", "js": "node", "sh": "bash"}


def create_printing(m, q) -> Part | None:
    path, text = q(m["path"]), literal(m["text"], q, behaviour=True, words=6)
    if not text or path.rpartition(".")[2].lower() not in PRINTERS:
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
            if p["paths"][0].rpartition(".")[2].lower() not in PRINTERS:
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
    if not _quoted(g["text"]) and not one_word:
        return None  # 'utils twice': only a quoted phrase is searched as it is
    text = text if _quoted(g["text"]) else text.rstrip("?？!！.。")
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
    return Part("run", {"path": path}) if path.rpartition(".")[2].lower() in PRINTERS else None


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


def copy_to_change(m, q) -> Change:
    def apply(part: Part) -> bool:
        if part.kind != "copy" or part.params.get("dest"):
            return False
        part.params["dest"] = q(m["dest"]).rstrip("/")
        return True

    return Change(apply)


def copy_without_name(m, q) -> Part:
    return Part("copy", {"src": q(m["src"]).rstrip("/"), "dest": None, "into": False})
