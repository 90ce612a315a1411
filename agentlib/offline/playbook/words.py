"""What the words of a request mean: name and list patterns, numbers, extensions, and which text is safe to take verbatim.

Free text the learner did not quote (a message to print, text to write or search) is taken only
when it is short and carries no negation, condition or description; otherwise the clause stays
unclear. Shared by the English and Chinese clause shapes and by the builders in parts.py and
questions.py.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from agentlib.offline.playbook.request import Part

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


def quoted(value: str) -> bool:
    return re.fullmatch(r"\s*\ue000\d+\ue000\s*", value) is not None


# the program that runs a script of each kind: the only kinds it writes or runs
RUNNERS = {"py": "python3", "js": "node", "sh": "bash"}
