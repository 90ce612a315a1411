"""The course's language: ``Course(..., lang=...)`` sets it; Course's lines, expect_error and the exercise checks speak it."""

from __future__ import annotations

import pytest

from agentlib import s02_tools
from agentlib.course import Course, ParameterError, check_exercise, expect_error, language
from agentlib.course.checks import (
    check_agent_loop,
    check_dispatch_map,
    check_edit_refuses_duplicates,
    check_exit_code,
    check_own_tool,
    check_safe_glob,
    check_stop_reasons,
    check_tool_results,
)
from agentlib.course.checks.verdict import BLANK, BLANK_ZH, NOT_YET_ZH, WORKS, WORKS_ZH, Verdict
from agentlib.course.language import pick, speaking

FORCE_OFFLINE = "AGENTLIB_FORCE_OFFLINE"

SHOUT = '''
from agentlib import tool

@tool(read_only=True)
def shout(text: str) -> str:
    """Return the text in capital letters.

    Args:
        text: The text to shout.
    """
    return text.upper()
'''


@pytest.fixture(autouse=True)
def english_afterwards():
    """A Course that speaks Chinese would go on speaking it in the next test."""
    yield
    language.use("en")


def test_english_is_spoken_until_a_course_says_otherwise(tmp_path, monkeypatch):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    assert language.current() == "en" and pick("yes", "是") == "yes"
    course = Course("offline", tmp_path, name="t", lang="zh")
    assert course.lang == "zh" and language.current() == "zh" and pick("yes", "是") == "是"
    assert Course("offline", tmp_path, name="t").lang == "en" and language.current() == "en"


def test_a_language_the_course_does_not_speak_is_a_parameter_error_and_makes_nothing(
    tmp_path, monkeypatch
):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with pytest.raises(ParameterError, match=r"LANG='fr': the course speaks 'en' or 'zh'"):
        Course("offline", None, name="t", lang="fr")
    assert list(tmp_path.iterdir()) == [] and language.current() == "en"


def test_course_says_its_instructor_lines_in_chinese(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "shouting.py").write_text(SHOUT)
    monkeypatch.syspath_prepend(str(tmp_path / "modules"))  # not the workspace: Course refuses that
    (tmp_path / "ws").mkdir()
    Course("offline", tmp_path / "ws", "shouting:shout", "", name="t", lang="zh")
    printed = capsys.readouterr().out
    assert (
        "agentlib: 讲师的工具 shout（EXTRA_TOOLS）会提供给模型，凡是运行 agentlib.agent_loop 的地方"
        in printed
    )
    assert "离线且没有 SCRIPT 时，不会有谁调用 shout：把 SCRIPT 设为" in printed


@pytest.mark.parametrize(
    ("lang", "head", "why_label"),
    [
        ("en", "Error shown on purpose: ValueError", "Why: "),
        ("zh", "故意展示的错误：ValueError", "原因："),
    ],
)
def test_expect_error_says_its_heads_in_the_course_language(lang, head, why_label, capsys):
    with speaking(lang), expect_error(ValueError, why="路径爬出了工作区"):
        raise ValueError("Path escapes workspace: ../x")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [head, "  Path escapes workspace: ../x", why_label + "路径爬出了工作区"]


def test_a_long_chinese_why_is_wrapped_by_columns_not_characters(capsys):
    with speaking("zh"), expect_error(ValueError, why="一" * 120):
        raise ValueError("x")
    why = capsys.readouterr().out.splitlines()[2:]
    assert len(why) == 3 and all(len(line.strip()) <= 50 for line in why)


@pytest.mark.parametrize(
    ("ok", "blank", "english", "chinese"),
    [
        (True, False, WORKS, WORKS_ZH),
        (False, True, BLANK, BLANK_ZH),
        (False, False, "✘ Not yet:", NOT_YET_ZH),
    ],
)
def test_a_verdict_starts_with_its_head_in_the_course_language(ok, blank, english, chinese):
    verdict = Verdict(ok, "x", blank=blank)
    assert str(verdict).startswith(english)
    with speaking("zh"):
        assert str(verdict).startswith(chinese)


def _untouched(*args, **kwargs):
    raise NotImplementedError("the blank as handed out")


BLANKS = {
    "exit code": lambda tmp: check_exit_code(_untouched),
    "tool results": lambda tmp: check_tool_results(_untouched),
    "agent loop": lambda tmp: check_agent_loop(_untouched),
    "stop reasons": lambda tmp: check_stop_reasons(_untouched),
    "edit": lambda tmp: check_edit_refuses_duplicates(_untouched, tmp),
    "dispatch map": lambda tmp: check_dispatch_map([...], {}),
    "glob": lambda tmp: check_safe_glob(_untouched, tmp),
    "own tool": lambda tmp: check_own_tool([...], {}, name=..., example=...),
}


@pytest.mark.parametrize("what", BLANKS)
def test_every_check_explains_a_blank_in_chinese(what, tmp_path):
    with speaking("zh"):
        said = str(BLANKS[what](tmp_path))
    assert said.startswith(BLANK_ZH), said
    assert "把上面的单元格填好并运行" in said, said
    assert not any(word in said for word in ("still", "Fill in", "raises")), said


def test_every_check_explains_a_blank_in_english_by_default(tmp_path):
    said = [" ".join(str(check(tmp_path)).split()) for check in BLANKS.values()]
    assert all(s.startswith(BLANK) and "Fill in the cell above" in s for s in said), said


def test_the_course_tools_are_unchanged_by_the_language(tmp_path, monkeypatch):
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    course = Course("offline", tmp_path, name="t", lang="zh")
    assert course.tools(s02_tools(course.workspace)).names == s02_tools(course.workspace).names


def test_a_failing_check_says_what_is_wrong_in_chinese():
    with speaking("zh"):
        said = str(check_exit_code(lambda command: ""))
    assert said.startswith(NOT_YET_ZH + " shell 这部分还要再看看。"), said
    assert "什么都没给出" in "".join(said.split()), said


def test_a_passing_check_says_so_in_chinese():
    def run_bash(command: str) -> str:
        import subprocess

        r = subprocess.run(command, shell=True, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        return (
            f"{out}\n(exit code {r.returncode})".strip() if r.returncode else out
        ) or "(no output)"

    with speaking("zh"):
        said = str(check_exit_code(run_bash))
    assert said.startswith(WORKS_ZH + " 每种情况都通过了，在循环里模型读到的是"), said


def test_check_exercise_says_what_is_wrong_in_chinese():
    def char_count_prints(text: str) -> None:
        print(len(text))

    schema = {"name": "char_count", "description": "Count the characters of a text.",
              "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}  # fmt: skip
    with speaking("zh"):
        problems = check_exercise(
            [schema], {"char_count": char_count_prints}, name="char_count", example={"text": "abc"}
        )
        missing = check_exercise([], {}, name="char_count")
    assert problems == [
        "'char_count' 把结果打印出来，而不是返回它：模型永远看不到工具打印的东西（'3'），只看得到它返回的值；"
        "它返回了 None，模型读到的是 '(no output)'。把 print(...) 换成 return ..."
    ]
    assert missing[0].startswith("'char_count' 既不在 TOOLS 里，也不在 TOOL_HANDLERS 里")


def test_a_demonstration_that_stops_failing_says_so_in_chinese():
    with (
        speaking("zh"),
        pytest.raises(
            AssertionError,
            match="这个单元格应该以 ValueError 失败（路径爬出了工作区），却没有出错就运行完了",
        ),
    ):
        with expect_error(ValueError, why="路径爬出了工作区"):
            pass
