"""The Chinese notebooks (notebooks/zh): the same code as their English twins, prose in Chinese, and run offline like them.

A lesson changed in English fails here until its Chinese twin follows: the code cells must be
the same syntax trees once strings and comments are set aside, with the same tags in the same order.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from agentlib.course import run_notebook
from agentlib.course.checks.verdict import BLANK_ZH, NOT_YET_ZH, WORKS_ZH

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ZH = NOTEBOOKS / "zh"
pytestmark = pytest.mark.xdist_group("chinese-runs")  # the session's runs stay on one worker

NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
CHINESE = re.compile(r"[\u4e00-\u9fff]")
FAKE_KEY = "sk-" + "ant-" + "notarealkey0000"  # planted in the kernel's env; must never be printed
WIDGET = "application/vnd.jupyter.widget-view+json"


def read(path: Path):
    return nbformat.read(path, as_version=4)


class _Blanked(ast.NodeTransformer):
    """Every string set aside: a constant becomes "", an f-string keeps only its {fields}."""

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.JoinedStr:
        fields = [self.visit(v) for v in node.values if isinstance(v, ast.FormattedValue)]
        return ast.JoinedStr(values=fields)


def code_shape(source: str) -> str:
    """The cell's syntax tree with its strings blanked (comments never reach the tree)."""
    return ast.dump(_Blanked().visit(ast.parse(source)))


def code_cells(nb) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code"]


def tags_in_order(nb) -> list[tuple[str, list[str]]]:
    return [(c.cell_type, c.metadata.get("tags", [])) for c in nb.cells if c.metadata.get("tags")]


def test_every_english_notebook_has_a_chinese_twin_and_no_more():
    assert NAMES, "no notebooks in notebooks/"
    assert sorted(p.stem for p in ZH.glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_chinese_code_cells_are_the_english_ones_but_for_strings(name):
    english, chinese = read(NOTEBOOKS / f"{name}.ipynb"), read(ZH / f"{name}.ipynb")
    en_cells, zh_cells = code_cells(english), code_cells(chinese)
    for index, (en, zh) in enumerate(zip(en_cells, zh_cells, strict=False)):
        assert code_shape(zh) == code_shape(en), (
            f"code cell {index} of zh/{name} is not its English twin's (strings aside):\n"
            f"--- English ---\n{en}\n--- Chinese ---\n{zh}"
        )
    assert len(zh_cells) == len(en_cells), (
        f"{len(en_cells)} code cells in English, {len(zh_cells)} in zh"
    )
    assert tags_in_order(chinese) == tags_in_order(english)


def test_the_comparison_sees_code_but_not_strings():
    assert code_shape('print("hello", f"{n} rounds")') == code_shape('print("你好", f"共 {n} 轮")')
    assert code_shape("x = 1  # one") == code_shape("x = 1  # 一")
    assert code_shape('print(f"{n} rounds")') != code_shape('print(f"{m} rounds")')
    assert code_shape('show(h, lang="zh")') != code_shape("show(h)")
    assert code_shape("x = 1") != code_shape("x = 2")


@pytest.mark.parametrize("name", NAMES)
def test_chinese_prose_is_chinese_and_the_language_is_zh(name):
    nb = read(ZH / f"{name}.ipynb")
    untranslated = [
        c.source[:80]
        for c in nb.cells
        if c.cell_type == "markdown" and not CHINESE.search(c.source)
    ]
    assert untranslated == []
    parameters = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(parameters) == 1
    assigned = {
        node.target.id: node.value.value
        for node in ast.parse(parameters[0].source).body
        if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Constant)
    }
    assert assigned.get("LANG") == "zh"


def _copy_both_languages(tmp_path: Path) -> Path:
    """notebooks/ as committed (config, sources and notebooks, English and Chinese), under ``tmp_path``."""
    for sub in ("", "zh/"):
        (tmp_path / "notebooks" / sub / "src").mkdir(parents=True, exist_ok=True)
        for path in [*(NOTEBOOKS / sub).glob("*.ipynb"), *(NOTEBOOKS / sub / "src").glob("*.py")]:
            (tmp_path / "notebooks" / path.relative_to(NOTEBOOKS)).write_bytes(path.read_bytes())
    (tmp_path / "notebooks" / "jupytext.toml").write_bytes(
        (NOTEBOOKS / "jupytext.toml").read_bytes()
    )
    return tmp_path / "notebooks"


def _readme_sync(tmp_path: Path, newer: str) -> None:
    """The README's one command, with the ``newer`` side ("py" or "ipynb") the most recently changed."""
    jupytext = Path(sys.executable).parent / "jupytext"
    if not jupytext.exists():
        pytest.skip("jupytext is not installed (it comes with the test extra)")
    for path in (tmp_path / "notebooks").rglob("*.*"):
        age = 0 if path.suffix == f".{newer}" else 60
        os.utime(path, (path.stat().st_mtime - age, path.stat().st_mtime - age))
    command = (
        f"{jupytext} --sync notebooks/src/*.py notebooks/zh/src/*.py"  # a shell expands the globs
    )
    done = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_one_jupytext_command_builds_every_chinese_notebook_from_its_source(tmp_path):
    folder = _copy_both_languages(tmp_path)
    _readme_sync(tmp_path, newer="py")
    stale = [
        n
        for n in NAMES
        if (folder / "zh" / f"{n}.ipynb").read_bytes() != (ZH / f"{n}.ipynb").read_bytes()
    ]
    assert stale == [], (
        f"out of date with notebooks/zh/src: {stale}; run the README's jupytext command"
    )
    changed = [
        n
        for n in NAMES
        if (folder / f"{n}.ipynb").read_bytes() != (NOTEBOOKS / f"{n}.ipynb").read_bytes()
    ]
    assert changed == [], f"the same command also rebuilt English notebooks: {changed}"


def test_the_sources_are_what_jupytext_writes_back_from_the_chinese_notebooks(tmp_path):
    folder = _copy_both_languages(tmp_path)
    _readme_sync(tmp_path, newer="ipynb")
    changed = [
        n
        for n in NAMES
        if (folder / "zh/src" / f"{n}.py").read_bytes() != (ZH / "src" / f"{n}.py").read_bytes()
    ]
    assert changed == [], f"jupytext would rewrite these sources: {changed}"


@pytest.mark.parametrize("name", NAMES)
def test_chinese_notebook_is_committed_clean(name):
    nb = read(ZH / f"{name}.ipynb")
    nbformat.validate(nb)
    assert (
        nb.metadata.get("kernelspec", {}).get("name") == "python3" and "widgets" not in nb.metadata
    )
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]


def _printed(nb) -> str:
    parts = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                parts.append(o.text)
            elif o.output_type in ("execute_result", "display_data"):
                parts.append(o.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def _verdicts(nb) -> list[str]:
    """The first line of every exercise check's verdict, in order."""
    heads = (WORKS_ZH, NOT_YET_ZH, BLANK_ZH)
    return [line for line in _printed(nb).splitlines() if line.startswith(heads)]


def _exercises(nb) -> int:
    return len([c for c in nb.cells if "exercise" in c.metadata.get("tags", [])])


def _diagrams(nb) -> list[dict]:
    return [
        o.data
        for cell in nb.cells
        for o in cell.get("outputs", [])
        if o.output_type in ("display_data", "execute_result") and WIDGET in o.get("data", {})
    ]


class ChineseRuns:
    """Each Chinese notebook executed at most once per session and way: with the solutions (by
    the project's runner, twice in one workspace) and as handed out (by papermill)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.done = folder, {}

    def solved(self, name: str):
        if ("solved", name) not in self.done:
            workspace = self.folder / f"{name}-workspace"
            workspace.mkdir()
            for _ in range(2):  # the second run finds what the first left in the workspace
                run = run_notebook(ZH / f"{name}.ipynb", {"WORKSPACE": str(workspace)}, env={"ANTHROPIC_API_KEY": FAKE_KEY},
                                   timeout=120, solutions=True)  # fmt: skip
                assert run.ok, run.report()
            self.done["solved", name] = run.notebook
        return self.done["solved", name]

    def handed_out(self, name: str):
        if ("papermill", name) not in self.done:
            pytest.importorskip("papermill")
            notebook, out = ZH / f"{name}.ipynb", self.folder / f"{name}.papermill.ipynb"
            workspace = self.folder / f"{name}-papermill-workspace"
            workspace.mkdir()
            done = subprocess.run(
                [sys.executable, "-m", "papermill", str(notebook), str(out), "--cwd", str(notebook.parent),
                 "-p", "WORKSPACE", str(workspace)],
                capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr[-4000:]
            self.done["papermill", name] = read(out)
        return self.done["papermill", name]


@pytest.fixture(scope="session")
def chinese_runs(tmp_path_factory) -> ChineseRuns:
    """The Chinese notebooks, each executed once per session and way (one xdist group)."""
    return ChineseRuns(tmp_path_factory.mktemp("chinese-runs"))


@pytest.mark.parametrize("name", NAMES)
def test_chinese_notebook_runs_offline_with_the_solutions_twice_in_one_workspace(
    name, chinese_runs
):
    notebook = chinese_runs.solved(name)
    everything = json.dumps([c.get("outputs", []) for c in notebook.cells], ensure_ascii=False)
    assert "sk-ant-" not in everything
    diagrams = _diagrams(notebook)
    assert all(d["text/plain"].startswith("轮次图") for d in diagrams), [
        d["text/plain"][:40] for d in diagrams
    ]
    verdicts = _verdicts(notebook)
    assert len(verdicts) == _exercises(notebook) and all(
        v.startswith(WORKS_ZH) for v in verdicts
    ), verdicts
    assert "It works" not in _printed(notebook)


@pytest.mark.parametrize("name", NAMES)
def test_papermill_runs_the_chinese_notebook_as_handed_out(name, chinese_runs):
    executed = chinese_runs.handed_out(name)
    assert not executed.metadata.get("papermill", {}).get("exception")
    assert not [o for c in executed.cells for o in c.get("outputs", []) if o.output_type == "error"]
    verdicts = _verdicts(executed)  # as handed out, every check explains its blank, in Chinese
    assert len(verdicts) == _exercises(executed) and all(
        v.startswith(BLANK_ZH) for v in verdicts
    ), verdicts


# ---- what the Chinese learner reads holds no English sentence --------------------------------
# A sentence is three or more plain English words in a row ("the model finished its answer").
# Identifiers never count as words (stop_reason, read_file, `tool_use`, s01, main.py), so code
# names, tool names and stop_reason values pass without being listed.
_WORD = r"[A-Za-z][a-z]*(?:'[a-z]+)?"
SENTENCE = re.compile(rf"(?<![\w./\-`'\"]){_WORD}(?:,? {_WORD}){{2,}}(?![\w/\-(`]|\.\w)")
# Set aside before reading, because they are data or code and not the course speaking:
# HTML's code and tool I/O (monospace), dict and JSON reprs (tool inputs, schemas, messages),
# a diagram block's input or content, the diagram's tool input and output lines:
_MONOSPACE = re.compile(r"<(code|pre|div)\b[^>]*monospace[^>]*>.*?</\1>", re.S)
_TAG = re.compile(r"<[^>]+>")
_LITERAL = re.compile(r"\{[^{}]*\}")
_BLOCK_PAYLOAD = re.compile(r"((?:tool_use \S+|tool_result[^:\n]*:)) .*")
_TOOL_IO = ("输入：", "输出：")
_SHOWN_ERROR = "故意展示的错误："  # expect_error: the error as raised (API bodies verbatim) ...
_SHOWN_ERROR_END = "原因："  # ... until the line that explains it in Chinese
_DIFF = re.compile(r"^\s*--- \S+$")  # a unified diff of code: it runs to the next blank line
# English the course quotes and does not write: each phrase with where it comes from.
ALLOWED = {
    # what the tools return: the model reads it, and both courses offer the same tools
    "tool results": [
        r"Path escapes workspace", r"it resolves to", r"hard links, so it may be a file outside the workspace",
        r"glob patterns must be relative to the workspace", r"'\.\.' is not allowed in glob patterns",
        r"Cannot open pipe: it is a FIFO \(named pipe\); only regular files are allowed",
        r"Wrote \d+ bytes to", r"Input should be a valid string",
        r"invalid input for",
    ],
    # the lesson's own tool solutions, as the learner's code writes them (the model reads them)
    "the solutions' tool results": [r"old_text occurs \d+ times in \S+ add context to pick one",
                                    r"pattern must stay inside the workspace"],
    # what programs print: the shell, sed, the OS and Python, in their own words
    "program output": [
        r"unknown option to `s'", r"No such file or directory", r"Argument list too long",
        r"invalid literal for int\(\) with base 10", r"Connection refused",
    ],
    # the seed's s02 TOOLS descriptions: code, which the Chinese seed writes in English too
    "the seed's tool descriptions": [r"Read file contents\.", r"Write content to file\.", r"Replace exact text in file\."],
    # file contents the offline model writes (a docstring in code)
    "file contents": [r'"""Return a friendly greeting for name\."""'],
}  # fmt: skip
_ALLOWED = re.compile(
    "|".join(p.replace(" ", r"\s+") for phrases in ALLOWED.values() for p in phrases)
)


def _readable(text: str) -> str:
    """``text`` without what is data or code (see above), line by line."""
    kept, skipping, in_diff = [], False, False
    while _LITERAL.search(text):  # a repr may wrap over lines (a check's verdict)
        text = _LITERAL.sub("", text)
    for line in text.splitlines():
        if line.lstrip().startswith(_SHOWN_ERROR):
            skipping = True
            continue
        if skipping and line.startswith(_SHOWN_ERROR_END):
            skipping = False
        if in_diff or _DIFF.match(line):
            in_diff = bool(line.strip())
            continue
        if skipping or line.lstrip().startswith(_TOOL_IO):
            continue
        kept.append(_BLOCK_PAYLOAD.sub(r"\1", line))
    return "\n".join(kept)


def _texts(nb):
    """(cell index, text) for everything the learner reads: streams, plain text, HTML as text."""
    for index, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                yield index, o.text
            elif o.output_type in ("execute_result", "display_data"):
                data = o.get("data", {})
                yield index, data.get("text/plain", "")
                if "text/html" in data:
                    shown = _TAG.sub(" ", _MONOSPACE.sub(" ", data["text/html"]))
                    yield index, html.unescape(shown)


def english_sentences(nb) -> list[tuple[int, str, str]]:
    """(cell, sentence, its line) for every English sentence not quoted from ALLOWED's sources."""
    found = []
    for index, text in _texts(nb):
        readable = _readable(text)
        allowed = [m.span() for m in _ALLOWED.finditer(readable)]
        for m in SENTENCE.finditer(readable):
            if not any(a <= m.start() and m.end() <= b for a, b in allowed):
                line = readable[readable.rfind("\n", 0, m.start()) + 1 :].split("\n", 1)[0]
                found.append((index, m.group(0), line.strip()[:160]))
    return found


@pytest.mark.parametrize("way", ["solved", "handed_out"])
@pytest.mark.parametrize("name", NAMES)
def test_a_chinese_learner_reads_no_english_sentence(name, way, chinese_runs):
    notebook = getattr(chinese_runs, way)(name)
    found = english_sentences(notebook)
    assert found == [], f"English in zh/{name} ({way}):\n" + "\n".join(
        f"  cell {cell}: {sentence!r} in {line!r}" for cell, sentence, line in found
    )


def test_the_english_finder_finds_sentences_and_passes_code_and_quoted_tools():
    def cell(text: str):
        return nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("stream", text=text)])]
        )

    assert [
        s for _, s, _ in english_sentences(cell("共 2 轮；停止原因：the model finished its answer"))
    ] == ["the model finished its answer"]
    assert (
        english_sentences(cell("stop_reason: end_turn，read_file, write_file 和 s01 -> s02")) == []
    )
    assert english_sentences(cell("被拒绝：Path escapes workspace: ../x")) == []
    assert (
        english_sentences(cell("故意展示的错误：X\n  all messages must have content\n原因：中文"))
        == []
    )
    assert english_sentences(cell("{'text': 'One loop and bash is all you need'}")) == []
    assert english_sentences(cell("模型回答 'Both of them ran.'"))  # a quote is no hiding place


def test_every_allowed_phrase_is_still_quoted_somewhere(chinese_runs):
    """The allow-list stays short: a phrase no Chinese notebook shows any more is taken off it."""
    shown = "\n".join(
        _readable(text)
        for name in NAMES
        for nb in (chinese_runs.solved(name), chinese_runs.handed_out(name))
        for _, text in _texts(nb)
    )
    unused = [
        p for ps in ALLOWED.values() for p in ps if not re.search(p.replace(" ", r"\s+"), shown)
    ]
    assert unused == []
