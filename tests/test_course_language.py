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


# ---- the language as an argument: connect, the loop, the REPL, the tool checks, the comparison ----


def test_connect_says_its_line_in_chinese_when_asked_and_in_english_by_default(capsys):
    from agentlib import connect

    connect("offline", lang="zh", env_file=None)
    assert capsys.readouterr().out == (
        "agentlib：使用离线模型 agentlib-offline（backend='offline'）；回复是写好的。\n"
    )
    connect("offline", env_file=None)
    assert capsys.readouterr().out == (
        "agentlib: using the offline model agentlib-offline (backend='offline'); replies are scripted.\n"
    )


def test_connect_says_why_it_chose_offline_in_chinese(capsys, monkeypatch, tmp_path):
    from agentlib import connect

    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "AGENTLIB_BACKEND", FORCE_OFFLINE):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    connect("auto", lang="zh", env_file=None)
    assert "（环境变量和 .env 里都没有 ANTHROPIC_API_KEY）" in capsys.readouterr().out
    monkeypatch.setenv(FORCE_OFFLINE, "1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-a-key")
    connect("auto", lang="zh", env_file=None)
    assert f"（设置了 {FORCE_OFFLINE}：课程的运行器离线运行）" in capsys.readouterr().out


def _loop(lang: str | None, *replies, **options):
    from agentlib import agent_loop
    from agentlib.offline import Script, offline_client

    client, model = offline_client(Script(*replies))
    extra = {} if lang is None else {"lang": lang}
    from agentlib import Workspace

    box = s02_tools(Workspace(options.pop("ws")))
    messages = [{"role": "user", "content": "go"}]
    return agent_loop(messages, client=client, model=model, tools=box, **extra, **options)


def test_the_loop_says_why_it_stopped_in_chinese_when_asked(tmp_path):
    from agentlib.offline import call, say

    assert _loop("zh", say("好了"), ws=tmp_path).why == "模型完成了回答"
    assert _loop(None, say("done"), ws=tmp_path).why == "the model finished its answer"
    capped = _loop("zh", call("glob", pattern="*"), say("x"), ws=tmp_path, max_rounds=1)
    assert capped.why == "达到了轮数上限：1 轮，仍然没有最终回答"


def test_the_diagrams_chinese_meaning_is_the_loops_chinese_why():
    from agentlib.loop import WHY_ZH
    from agentlib.widgets.words import stop_words, words

    for reason in ("end_turn", "refusal", "model_context_window_exceeded", "max_rounds"):
        assert stop_words(words("zh"), reason)[0] == WHY_ZH[reason]
    assert stop_words(words("zh"), "tool_use")[0] == "模型请求调用一个或多个工具"


def test_the_repl_says_its_own_lines_in_chinese_when_asked(tmp_path):
    import io

    from agentlib.repl import run

    out = io.StringIO()
    code = run("s02", prompt="列出所有文件", workspace=str(tmp_path / "w"), backend="offline",
               out=out, lang="zh")  # fmt: skip
    said = out.getvalue()
    assert code == 0 and f"工作区： {(tmp_path / 'w').resolve()}\n" in said
    assert said.rstrip().endswith("（估算）；模型完成了回答）"), said
    out = io.StringIO()
    run("s02", prompt="list all files", workspace=str(tmp_path / "e"), backend="offline", out=out)
    assert out.getvalue().rstrip().endswith("estimated; the model finished its answer)")


def test_check_tools_names_mismatches_in_chinese_when_asked():
    from agentlib import check_tools

    def count(words: str) -> str:
        return words

    tools = [{"name": "count", "description": "d", "input_schema": {"type": "object",
              "properties": {"text": {"type": "string"}}}}, {"name": "bad name", "input_schema": {}}]  # fmt: skip
    handlers = {"count": count, "extra": count}
    said = check_tools(tools, handlers, "zh")
    assert said == [
        "API 不接受工具名 'bad name'：它包含 ' '。工具名必须匹配 ^[a-zA-Z0-9_-]{1,128}$，所以换一个"
        "（例如 'bad_name'）；在那之前，每个提供这个工具的请求都会得到 400 invalid_request_error。",
        "'bad name' 在 TOOLS 里，却不在 TOOL_HANDLERS 里：模型会调用它，得到 'Unknown tool'。",
        "'extra' 在 TOOL_HANDLERS 里，却不在 TOOLS 里：模型永远不知道它的存在。",
        "'count'：schema 的属性 'text' 在处理函数里没有对应的参数。",
        "'count'：处理函数需要 'words'，schema 却从来不要它。",
    ]
    english = check_tools(tools, handlers)
    assert len(english) == len(said) and english[2] == (
        "'extra' is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists."
    )
    with speaking("zh"):  # the exercise check says them in the course's language
        assert check_exercise(tools[:1], {"count": count}, name="count") == said[3:]


def test_the_comparison_speaks_chinese_when_asked_and_refuses_a_language_it_lacks(tmp_path):
    from agentlib import Workspace, s01_tools
    from agentlib.widgets import compare_view

    ws = Workspace(tmp_path)
    loop = 'def agent_loop(m):\n    while True:\n        if r.stop_reason != "tool_use":\n            return\n'
    view = compare_view(s01_tools(ws), s02_tools(ws), left_loop=loop, lang="zh")
    text, html = view.to_text(), view.to_html()
    assert "  工具：s01 有 1 个，s02 有 5 个" in text and "  只在 s01 里：（没有）" in text
    assert "  循环：没有变：两边由同样的 4 行驱动" in text
    assert 'lang="zh"' in html and "只在 s02 里" in html and "<strong>循环</strong>：没有变" in html
    assert "tools" not in text.replace("s01_tools", "") and "The loop" not in html
    with pytest.raises(ValueError, match="lang='fr'"):
        compare_view(s01_tools(ws), s02_tools(ws), lang="fr")


def test_the_checks_scripted_model_answers_in_the_course_language():
    from agentlib.course.checks import check_own_tool

    def reverse(text: str) -> str:
        return text[::-1]

    schema = {"name": "reverse", "description": "Reverse a text.", "input_schema": {"type": "object",
              "properties": {"text": {"type": "string"}}, "required": ["text"]}}  # fmt: skip
    with speaking("zh"):
        said = str(
            check_own_tool([schema], {"reverse": reverse}, name="reverse", example={"text": "abc"})
        )
    assert "模型回答 'reverse 的回答：cba'" in said, said


def test_the_settings_and_a_real_connection_are_said_in_chinese(capsys, monkeypatch, tmp_path):
    from agentlib import connect
    from agentlib.client import read_settings

    for key in ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "AGENTLIB_BACKEND", FORCE_OFFLINE):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "not-a-key")
    monkeypatch.setenv("MODEL_ID", "some-model")
    monkeypatch.chdir(tmp_path)
    assert read_settings(None, lang="zh")["MODEL_ID"] == ("some-model", "环境变量")
    assert read_settings(None)["MODEL_ID"] == ("some-model", "the environment")
    connect("auto", lang="zh", env_file=None)  # makes the client, sends nothing
    assert capsys.readouterr().out == (
        "agentlib：使用 Anthropic API，模型 some-model（在 环境变量 里找到了 ANTHROPIC_API_KEY）。\n"
    )
    connect("auto", env_file=None)
    assert capsys.readouterr().out == (
        "agentlib: using the Anthropic API with model some-model "
        "(ANTHROPIC_API_KEY found in the environment).\n"
    )
