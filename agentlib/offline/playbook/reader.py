"""read(prompt): the frames a request asks for, in order, or the words it could not place.

Words are looked up in the lexicons (lexicon.py): the same tables for English and Chinese,
Chinese runs cut by the longest phrase the tables know. Names, numbers, quotes and function
signatures are typed by their shape. The prompt is cut into clauses at sentence ends, at
"then"/"然后", and at commas or "and" before a new verb; compose.py reads each clause with
the frames of frames.py, writeframes.py and valueframes.py. Work is bounded: prompts over
MAX_PROMPT_CHARS are not read, and every step is linear.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from agentlib.offline.playbook import lexicon
from agentlib.text import looks_chinese

MAX_PROMPT_CHARS = 2000
MAX_CLAUSES = 12
MARK = "\ue000"  # a private-use character around a quote's number; never kept from the prompt
CJK = re.compile(r"[\u4e00-\u9fff]")
QUOTES = {'"': '"', "“": "”", "‘": "’", "`": "`", "「": "」", "『": "』", "'": "'"}
TOKEN = re.compile(
    r"(?P<quote>\ue000\d+\ue000)"
    r"|(?P<func>[A-Za-z_]\w*\([\w\s,=]*\))"
    r"|(?P<path>~?\.{0,2}/?(?=[\w./-]*[A-Za-z_])(?:[\w-]+/)+[\w.-]*|(?<![\w.])\.?(?=[\w-]*[A-Za-z_])[\w-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9_/])|(?<![\w.])\.[A-Za-z][\w-]*)"
    r"|(?P<cjkpath>(?<![\w.])[\w-]*[\u4e00-\u9fff][\w-]*?\.[A-Za-z][A-Za-z0-9]{0,7}(?![A-Za-z0-9_/]))"
    r"|(?P<dotted>(?<![\d.])\d+(?:\.\d+){2,}(?![\w.]))"  # a version or an address: a word, not a number
    r"|(?P<num>\d+(?:\.\d+)?(?:(?<=1)st|(?<=2)nd|(?<=3)rd|th)?(?![A-Za-z]))"
    r"|(?P<word>[A-Za-z][A-Za-z0-9_']*(?:-[A-Za-z]+)*)"
    r"|(?P<cjk>[\u4e00-\u9fff]+)"
    r"|(?P<op>\S)"
)
PLAIN = re.compile(TOKEN.pattern.replace("(?P<cjkpath>", "(?P<cjkpath>(?!)", 1))
HARD = {";", "；", "。", "!", "！", "?", "？", "\n", "…"}
ENDS = {".", "!", "！", "?", "？"}
# after these the rest of the clause is a new frame, not content: a comma before them splits
FRAME_START = {"verb", "chat", "fact"}
MODIFIER_START = {"correct", "except", "norun", "guard", "report", "if", "prints", "content"}
MODIFIER_START |= {"name", "args", "in_it", "it", "then"}
# an 'if' that turns the condition before it round: it starts its own clause
OTHERWISE = {"otherwise", "else", "or else", "否则", "不然", "不然的话", "要不然"}
OTHERWISE |= {"if not", "if it isn't there", "if not there"}
OTHERWISE |= {"if it's not there", "if there isn't one"}
ABSENT = {"没有", "不存在", "没有的话", "不存在的话"}  # '没有的话就新建一个', '不存在就告诉我'
TURNING = OTHERWISE | ABSENT | {"的话"}


@dataclass
class Item:
    """One word or name of the prompt: its role in the lexicon (or its shape) and where it stands."""

    role: str  # verb noun ext here outside num mark adj fact chat stop | path quote func word op
    value: str
    start: int
    end: int
    text: str
    used: bool = False

    def is_(self, role: str, *values: str) -> bool:
        return self.role == role and (not values or self.value in values)


@dataclass
class Part:
    """One thing the request asks for: its kind (create, show, list...) and its parameters."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    clause: str = ""
    when: tuple[str, bool] | None = None  # only if this path exists (True) or does not (False)


@dataclass
class Request:
    """What the reader understood: every part, or the words it could not place (or a danger)."""

    parts: list[Part]
    chinese: bool
    unclear: str | None = None  # the words (or the reason) that stopped the reading
    danger: str | None = None  # why the request is refused outright


def _table(text: str) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    rows: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for line in text.strip().splitlines():
        head, _, phrases = line.partition(":")
        meaning = [(r.partition(".")[0], r.partition(".")[2]) for r in head.strip().split("+")]
        for phrase in phrases.split("|"):
            if phrase.strip():
                rows.setdefault(_words(phrase.strip()), meaning)
    return rows


def _cjk_name(token: str) -> str | None:
    """A Chinese file name without the verbs and filler glued before it ('把笔记.txt')."""
    english = re.fullmatch(r"([\u4e00-\u9fff]+)(\w[\x21-\x7e]*)", token, re.ASCII)
    if english and _known(english[1]):
        return english[2]  # '帮我创建一个叫version.txt': every Chinese word before it is known
    rest = token
    for _ in range(3):
        cut = next((n for n in range(min(8, len(rest)), 0, -1) if _glue(rest[:n])), 0)
        rest = rest[cut:]
    opens = CJK.match(rest) and any(rest[:n] in VOCAB for n in range(1, min(8, len(rest)) + 1))
    if rest == token:
        return None if rest.startswith(".") else rest  # '日志.txt' after a space: all of it
    return None if opens or rest.startswith(".") else rest  # '叫说明.txt': where does it start?


def _cut(run: str) -> list[str]:
    """A Chinese run cut into the longest phrases the lexicons know; one character where none is."""
    pieces, i = [], 0
    while i < len(run):
        size = next((n for n in range(min(8, len(run) - i), 1, -1) if run[i : i + n] in VOCAB), 1)
        pieces.append(run[i : i + size])
        i += size
    return pieces


def _known(run: str) -> bool:
    """Every piece of the Chinese run is a word the lexicons know."""
    return all(piece in VOCAB for piece in _cut(run))


def _glue(text: str) -> bool:
    """A verb or filler that may be typed without a space before a name (one character: few)."""
    if not all(CJK.match(c) for c in text):
        return False  # only Chinese is typed without a space: 'start.sh' is a name, not 'start'
    meaning = PHRASES.get((text,), [("", "")])[0][0]
    return meaning in ("verb", "stop", "mark") and (len(text) > 1 or text in lexicon.GLUED)


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(t.text.lower() for t in _shapes(phrase, 0))


def _not_a_name(token: str, at: int) -> list[Item] | None:
    """'src里有几个.py': a folder, known Chinese words and an extension typed together."""
    found = re.fullmatch(r"([A-Za-z][A-Za-z0-9_-]*)([\u4e00-\u9fff]{2,})(\.[A-Za-z]\w*)", token)
    if not found or not _known(found[2]):
        return None  # 'report报告.md', 'my笔记.txt': a name
    word, run, ext = found.groups()
    items = [Item("word", word, at, at + len(word), word)]
    items += _shapes(run, at + len(word), names=False)
    return items + _shapes(ext, at + len(word) + len(run))  # '.py' as if typed apart


def _shapes(text: str, offset: int, names: bool = True) -> list[Item]:
    """Tokens by shape; Chinese runs cut into the longest phrases the lexicons know."""
    out = []
    for found in (TOKEN if names else PLAIN).finditer(text):
        kind, token, at = found.lastgroup, found[0], found.start() + offset
        # '笔记.txt', '把笔记.txt', '看看start.sh': a name, the Chinese words before it cut off
        if kind in ("cjkpath", "path") and (words := _not_a_name(token, at)):
            out += words  # 'src目录里有多少个.py文件': words, not a name
            continue
        if kind == "cjkpath" or (names and kind == "path" and CJK.match(token)):
            name = _cjk_name(token)
            cut = len(token) - len(name or "")
            out += _shapes(token[:cut], at, names=False)
            if name and (words := _not_a_name(name, at + cut)):
                out += words  # '看一下src里的.py文件'
                continue
            out += [Item("path", name, at + cut, at + len(token), name)] if name else []
            continue
        if kind == "word" and token in lexicon.NAMED_FILES:  # 'show me the LICENSE'
            out.append(Item("path", token, at, at + len(token), token))
            continue
        if kind != "cjk":  # a version or an address ('1.2.3') is a word; '5th' is the number 5
            role = "word" if kind == "dotted" else kind
            value = token.rstrip("stndrh") if kind == "num" else token
            out.append(Item(role, value, at, at + len(token), token))
            continue
        for piece in _cut(token):
            out.append(Item("cjk", piece, at, at + len(piece), piece))
            at += len(piece)
    return out


VOCAB = set(re.findall(r"[\u4e00-\u9fff]+", lexicon.ZH + lexicon.EN))
VOCAB |= set(lexicon.MATH) | set(lexicon.KEY_WORDS)
PHRASES = {**_table(lexicon.ZH), **_table(lexicon.EN)}
LONGEST = max(len(key) for key in PHRASES)
FIRST_WORDS = {key[0] for key in PHRASES}  # a phrase is looked for only where one can start
# a typo is fixed only into a word that does something: never into filler, which would hide it
SPELLING = {
    w[0]
    for w, meaning in PHRASES.items()
    if len(w) == 1 and len(w[0]) >= 4 and w[0].isalpha() and meaning[0][0] != "stop"
}


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


SHORTER: dict[str, set[str]] = {}
for _word in SPELLING:
    for _short in _deletes(_word):
        SHORTER.setdefault(_short, set()).add(_word)


def fix_typo(word: str) -> str:
    """A known word one letter away: swapped, missing, extra, then wrong letter; only if unique."""
    low = word.lower()
    if not 4 <= len(low) <= 20 or (low,) in PHRASES:
        return word
    tiers = (
        {low[:i] + low[i + 1] + low[i] + low[i + 2 :] for i in range(len(low) - 1)} & SPELLING,
        set(SHORTER.get(low, ())),
        _deletes(low) & SPELLING,
        {w for short in _deletes(low) for w in SHORTER.get(short, ())},
    )
    for found in tiers:
        if found:
            return found.pop() if len(found) == 1 else word
    return word


def classify(text: str, typos: bool = False) -> list[Item]:
    """Every token of the text with its role: the longest lexicon phrase wins."""
    tokens = _shapes(text, 0)
    for t in tokens if typos else []:
        if t.role == "word":
            t.text = fix_typo(t.text)
    items: list[Item] = []
    i = 0
    while i < len(tokens):
        # a phrase is looked for only where one can start
        longest = min(LONGEST, len(tokens) - i) if tokens[i].text.lower() in FIRST_WORDS else 0
        for n in range(longest, 0, -1):
            key = tuple(t.text.lower() for t in tokens[i : i + n])
            if key in PHRASES and all(t.role in ("word", "cjk", "op") for t in tokens[i : i + n]):
                start, end = tokens[i].start, tokens[i + n - 1].end
                items += [Item(r, v, start, end, text[start:end]) for r, v in PHRASES[key]]
                i += n
                break
        else:
            t = tokens[i]  # in no table: a name, a number, a sign or a content word
            value = t.value if t.role == "num" else t.text
            items.append(Item("word" if t.role == "cjk" else t.role, value, t.start, t.end, t.text))
            i += 1
    return _placed(items)


def _placed(items: list[Item]) -> list[Item]:
    """'在待办.txt末尾', '从日志.txt里', '往清单.md追加': a place word typed against a Chinese name
    is not part of it, when the place is said after the name (里, 末尾) or a verb follows 往/向."""
    for n, item in enumerate(items):
        glued = re.fullmatch(r"([A-Za-z0-9_-]+)([在从])([^\u4e00-\u9fff]+)", item.value)
        if item.role == "path" and glued:  # 'hello在a.txt里出现了几次': a word, a place, a name
            word, place, name = glued.groups()
            at = item.start + len(word)
            items[n : n + 1] = [
                Item("word", word, item.start, at, word),
                Item("mark", "in", at, at + 1, place),
                Item("path", name, at + 1, item.end, name),
            ]
    for item, after in itertools.pairwise(items):
        name = item.value
        if item.role != "path" or name[:1] not in "在往从向" or not CJK.match(name[1:2]):
            continue
        said = after.role == "mark" and after.value in ("in", "last", "first")
        if said or (name[0] in "往向" and after.role == "verb"):
            item.value, item.text, item.start = name[1:], item.text[1:], item.start + 1
    return items


class Found(str):
    """A file an earlier answer found (the one file a search or a listing gave): 'it' next."""


class Quoted(str):
    """The text inside a quote; ``full`` is the quote as typed, marks and all."""

    full = ""


def protect_quotes(text: str) -> tuple[str, list[str]]:
    """Replace each quoted span by a numbered marker (so its commas and 'and's are not breaks)."""
    out, quoted, i = [], [], 0
    while i < len(text):
        char = text[i]
        close = QUOTES.get(char)
        end = -1
        if close and (char != "'" or i == 0 or not text[i - 1].isalnum()):
            end = text.find(close, i + 1)
            while char == "'" and end != -1 and end + 1 < len(text) and text[end + 1].isalnum():
                end = text.find(close, end + 1)  # an apostrophe (don't) does not close a quote
        if end > i:
            out.append(f"{MARK}{len(quoted)}{MARK}")
            quoted.append(Quoted(text[i + 1 : end]))
            quoted[-1].full = text[i : end + 1]
            i = end + 1
        else:
            out.append(char)
            i += 1
    return "".join(out), quoted


def _next_role(items: list[Item], at: int) -> Item | None:
    return next((items[n] for n in range(at, len(items)) if items[n].role != "stop"), None)


def split(items: list[Item]) -> list[list[Item]]:
    """Clauses: cut at sentence ends, at 'then', and at a comma or 'and' before a new frame."""
    clauses: list[list[Item]] = [[]]
    verbatim = False  # after 'content:' / '内容：' the text runs to the sentence's end, commas too
    for n, it in enumerate(items):
        after = _next_role(items, n + 1)
        if verbatim and not (it.role == "op" and it.value in HARD):
            clauses[-1].append(it)
            continue
        before = clauses[-1][-1] if clauses[-1] else None
        verbatim = it.text.endswith((":", "：")) and (
            it.role == "mark" or (before is not None and before.is_("noun", "content"))
        )
        new_frame = after is not None and (
            after.role in FRAME_START or (after.role == "mark" and after.value in MODIFIER_START)
        )
        # a sentence's closing ".", "!" or "?" stays with it: after a colon it may be the text's own
        sentence = it.value in HARD - ENDS or (it.value in ENDS and after is not None)
        # 'otherwise, create it', '没有的话，就新建一个': the comma does not cut off the task
        turned = bool(clauses[-1]) and all(i.text.lower() in TURNING for i in clauses[-1])
        comma = it.value in ",，" and (new_frame or it.value == "，") and not turned
        then = it.text.lower() not in ("and", "also", "并", "同时") or new_frame  # 'and' may join
        if (it.role == "op" and (sentence or comma)) or (it.is_("mark", "then") and then):
            clauses.append([])
        elif it.is_("mark", "correct") or (it.is_("mark", "if") and it.text.lower() in OTHERWISE):
            clauses.append([it])  # 'no, in b.txt'; 'show it otherwise create it'
        else:
            clauses[-1].append(it)
    return [c for c in clauses if any(it.role not in ("stop", "op") for it in c)]


def danger(prompt: str, items: list[Item]) -> str | None:
    """Why the request is refused as dangerous, if it is."""
    for why, pattern in lexicon.DANGER.items():
        if re.search(pattern, prompt, re.I):
            return why
    return "outside" if any(it.role == "outside" for it in items) else None


def read(prompt: str, earlier: list[str] = ()) -> Request:
    """Read the whole prompt into frames; ``earlier`` prompts resolve 'it' in a follow-up."""
    from agentlib.offline.playbook.compose import build

    zh = looks_chinese(prompt[:MAX_PROMPT_CHARS])
    if len(prompt) > MAX_PROMPT_CHARS:
        note = f"a {len(prompt):,}-character prompt (I read at most {MAX_PROMPT_CHARS:,})"
        return Request([], zh, note)
    text, quoted = protect_quotes(prompt.strip().replace(MARK, " "))
    first = classify(text)
    if why := danger(prompt, first):
        return Request([], zh, None, why)
    best = None
    for items in (first, classify(text, typos=True)):
        clauses = split(items)
        if len(clauses) > MAX_CLAUSES:
            return Request([], zh, f"{len(clauses)} requests in one prompt (at most {MAX_CLAUSES})")
        parts, unclear = build(clauses, text, quoted, earlier)
        if unclear is None:
            return Request(parts, zh)
        best = best or Request(parts, zh, unclear)
    return best
