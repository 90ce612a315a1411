"""The diagram's words: one table in two languages, and no view that holds a sentence of its own."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import widget_examples as examples

from agentlib.widgets import show
from agentlib.widgets.static_html import render_html
from agentlib.widgets.static_text import render_text
from agentlib.widgets.trace import Trace
from agentlib.widgets.words import LANGS, WORDS, words

WIDGET_JS = Path(__file__).parents[1] / "agentlib" / "widgets" / "widget.js"
FIELD = re.compile(r"\{(\w+)\}")
LETTERS = re.compile(r"[A-Za-z\u4e00-\u9fff]")
HAN = re.compile(r"[\u4e00-\u9fff]")
OPEN, CLOSE = "⟦", "⟧"
PAGES = [*examples.CASES.values(), examples.hostile_output, examples.long_answer]


def test_every_row_has_both_languages_with_the_same_fields():
    for key, (en, zh) in WORDS.items():
        assert en, key
        if key.endswith("/1"):
            continue  # English's form for a count of 1; Chinese has no plural to make
        assert (zh and HAN.search(zh)) or zh == en, (key, zh)  # code notation stays as it is
        assert set(FIELD.findall(en)) == set(FIELD.findall(zh)), key


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(ValueError, match=r"lang='fr': the diagram speaks 'en' or 'zh'"):
        show(examples.single_tool(), lang="fr")
    assert LANGS == ("en", "zh")


def marked(trace: dict) -> dict:
    """The trace with every word wrapped in ⟦ ⟧, so what a view adds of its own stands out."""
    return {**trace, "words": {k: OPEN + v + CLOSE for k, v in trace["words"].items()}}


def _data_strings(value, found: set[str]) -> set[str]:
    """Every string the run itself brought: texts, names, ids, outputs, dict keys, numbers."""
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(str(k))
            _data_strings(v, found)
    elif isinstance(value, list):
        for v in value:
            _data_strings(v, found)
    elif value is not None:
        found.add(str(value))
    return found


def leftover(shown: str, trace: dict) -> list[str]:
    """The words of ``shown`` that are neither the table's nor the run's own."""
    while OPEN in shown:  # fields are filled inside words: take the innermost first
        shown, n = re.subn(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", shown)
        assert n, shown
    shown = re.sub(r"\\[nrt\\]", " ", shown)  # a one-line preview writes a newline as \n
    shown = re.sub(r"\w*…\w*", " ", shown)  # a text the view cut short: both halves are data
    run = {k: v for k, v in trace.items() if k not in ("words", "lang")}
    data = {w for s in _data_strings(run, set()) for w in re.findall(r"\w+", s)}
    return [w for w in re.findall(r"\w+", shown) if LETTERS.search(w) and w not in data]


class Visible(HTMLParser):
    """The text a reader sees or hears: text nodes and the title / aria-label attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        self.parts += [f" {v} " for k, v in attrs if k in ("title", "aria-label") and v]
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag not in ("span", "code", "strong", "em", "details", "summary"):
            self.parts.append(" ")  # a block or a line break parts words


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("make", PAGES, ids=lambda f: f.__name__)
def test_the_static_views_say_nothing_of_their_own(make, lang):
    trace = marked(Trace.from_events(make(), tools=["bash", "read_file"], lang=lang).to_dict())
    text = render_text(trace)
    page = Visible()
    page.feed(render_html(trace))
    for shown in (text, "".join(page.parts)):  # a cut text and its rest meet again at the …
        assert leftover(shown, trace) == []


# what widget.js may spell out itself: names for the DOM, the model and the protocol, never words
CODE_NAMES = set(
    "button checkbox class code div h4 header height img input keydown label li ol p rect "
    "region section span status strong svg tab tablist text title ul viewBox width x y polite "
    "range role lang on object string true false patch snapshot resend rounds diagram messages "
    "growth protocol tool_use tool_result Arrow ArrowLeft ArrowRight ArrowUp ArrowDown Home End "
    "change:patch change:snapshot msg:custom http://www.w3.org/2000/svg".split()
)


def js_literals(source: str) -> list[str]:
    """The string and template literals of a script (the text parts of a template)."""
    out, i = [], 0
    while i < len(source):
        if source.startswith("//", i):
            i = source.find("\n", i) % (len(source) + 1) or len(source)
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif source[i] in "\"'`":
            quote, j, text = source[i], i + 1, ""
            while source[j] != quote:
                if source[j] == "\\":
                    text, j = text + source[j : j + 2], j + 2
                elif quote == "`" and source.startswith("${", j):
                    depth, j = 1, j + 2
                    while depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    text += " "
                else:
                    text, j = text + source[j], j + 1
            out.append(text)
            i = j + 1
        else:
            i += 1
    return out


def test_every_word_in_widget_js_is_a_key_of_the_table():
    literals = js_literals(WIDGET_JS.read_text(encoding="utf-8"))
    keys = {k.removesuffix("/1") for k in WORDS}
    pieces = {".label", "/1", "_button", "tab."}  # how keys are put together: "tab." + id
    assert "legend" in literals and "lane.harness" in literals  # the scan sees the literals
    for literal in literals:
        if literal in keys or literal in pieces or not LETTERS.search(re.sub(r"\\.", "", literal)):
            continue
        names = literal.split()
        assert all(n in CODE_NAMES or n.startswith(("ad-", "aria-", "data-")) for n in names), (
            f"widget.js spells out {literal!r}: put the words in words.py and say() them"
        )


def test_the_chinese_diagram_speaks_chinese():
    diagram = show(examples.single_tool(), tools=["bash"], lang="zh")
    text, page = diagram.to_text(), diagram.to_html()
    for view in (text, page):
        assert "第 1 轮，共 2 轮" in text and "轮次图" in view and "你的代码（harness）" in view
        assert (
            "工具" in view and "stop_reason: tool_use，意思是模型请求调用一个或多个工具。" in view
        )
        assert "没有工具调用：这条回复就是最终回答" in view
        assert "在第 2 轮后结束：end_turn（模型完成了回答）。" in view
        assert "Round" not in view and "Next:" not in view and "the harness" not in view
    assert 'lang="zh"' in page and "模型：回复" in page and "工具：调用与结果" in page
    assert diagram.trace.to_dict()["words"] == words("zh")
