"""The offline model reads a name as typed, and a word as what it names here.

Each case once went wrong: the action was not the one asked (a listing of the wrong folder, a
read of a file that is a search term), so these check what was done, not only what was said.
"""

from __future__ import annotations

import subprocess

import pytest

from agentlib import Workspace, agent_loop, s01_tools, s02_tools
from agentlib.offline import offline_client

TOOLBOXES = pytest.mark.parametrize("toolbox", [s01_tools, s02_tools], ids=["s01", "s02"])


def ask(root, toolbox, *prompts: str) -> tuple[str, list[dict]]:
    """Every prompt in turn on one history; the last answer and every tool call made."""
    client, model = offline_client()
    history: list = []
    for prompt in prompts:
        history.append({"role": "user", "content": prompt})
        state = agent_loop(history, client=client, model=model, tools=toolbox(Workspace(root)))
        assert state.stop_reason == "end_turn"
    calls = [
        block["input"]
        for message in history
        if message["role"] == "assistant"
        for block in message["content"]
        if block["type"] == "tool_use"
    ]
    answer = "\n".join(b["text"] for b in history[-1]["content"] if b["type"] == "text")
    return answer, calls


def plant(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def files_after(root, names) -> dict[str, str | None]:
    """Each named file's text after the request, None for one that is not there."""
    return {n: (root / n).read_text() if (root / n).exists() else None for n in names}


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["看看deploy.sh", "打开deploy.sh看一下", "读一下deploy.sh的内容", "帮我看deploy.sh"]
)
def test_a_name_typed_straight_after_a_chinese_verb_is_the_name(tmp_path, toolbox, prompt):
    plant(tmp_path, {"deploy.sh": "echo deploying now\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "echo deploying now" in answer


@TOOLBOXES
def test_a_file_deleted_by_a_glued_chinese_verb_is_that_file(tmp_path, toolbox):
    plant(tmp_path, {"old.log": "x\n", "keep.log": "y\n"})
    ask(tmp_path, toolbox, "删掉old.log")
    assert not (tmp_path / "old.log").exists() and (tmp_path / "keep.log").exists()


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "show the files in the scripts folder",
        "what's in the scripts directory?",
        "scripts 文件夹里有哪些文件",
        "列一下 scripts 目录",
    ],
)
def test_a_folder_named_with_a_word_the_model_knows_is_that_folder(tmp_path, toolbox, prompt):
    plant(tmp_path, {"scripts/build.sh": "b\n", "scripts/clean.sh": "c\n", "top.md": "t\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "build.sh" in answer and "clean.sh" in answer
    assert "top.md" not in answer  # not the top of the workspace


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "which files mention print_report.py?",
        "where does logger.info appear",
        "哪些文件里用到了 logger.info",
        "搜一下 logger.info 出现在哪里",
    ],
)
def test_a_search_for_a_dotted_name_searches_the_text(tmp_path, toolbox, prompt):
    term = "print_report.py" if "print_report" in prompt else "logger.info"
    plant(
        tmp_path,
        {"app/run.py": f"# see {term}\n", "lib/util.py": f"x = 1  # {term}\n", "c.py": "y = 2\n"},
    )
    answer, calls = ask(tmp_path, toolbox, prompt)
    assert "app/run.py" in answer and "lib/util.py" in answer and "c.py" not in answer
    assert all(call.get("path") != term for call in calls)  # never read as a file


@TOOLBOXES
def test_a_dotted_name_after_in_is_where_to_search(tmp_path, toolbox):
    plant(tmp_path, {"todo.txt": "TODO: tests\nbuy milk\n"})
    answer, _ = ask(tmp_path, toolbox, "search for TODO in todo.txt")
    assert "TODO: tests" in answer and "buy milk" not in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "follow_up, shows",
    [
        ("show me the file", "second entry"),
        ("print the file again", "second entry"),
        ("how many lines does the file have now?", "2"),
    ],
)
def test_the_file_after_a_turn_is_the_file_of_that_turn(tmp_path, toolbox, follow_up, shows):
    plant(tmp_path, {"diary.txt": "first entry\n", "other.txt": "zzz\n"})
    answer, _ = ask(tmp_path, toolbox, "append 'second entry' to diary.txt", follow_up)
    assert shows in answer and "other.txt" not in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, shows, hides",
    [
        ("读一下 历史.txt 的前2行", ["甲", "乙"], ["丙"]),  # a name that is also a word it knows
        ("显示 历史.txt 的第2到第3行", ["乙", "丙"], ["甲", "丁"]),
        ("what are the first two lines of 历史.txt?", ["甲", "乙"], ["丙"]),
    ],
)
def test_lines_of_a_file_are_read_however_they_are_asked(tmp_path, toolbox, prompt, shows, hides):
    plant(tmp_path, {"历史.txt": "甲\n乙\n丙\n丁\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in shows) and not any(h in answer for h in hides)


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, says",
    [("one.txt 和 two.txt 分别有几行", ["2 行", "3 行"]), ("告诉我 two.txt 有几行", ["3 行"])],
)
def test_counts_asked_with_tell_me_or_for_each_file(tmp_path, toolbox, prompt, says):
    plant(tmp_path, {"one.txt": "a\nb\n", "two.txt": "a\nb\nc\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in says)


@TOOLBOXES
def test_the_file_in_a_chinese_follow_up_is_the_file_of_that_turn(tmp_path, toolbox):
    plant(tmp_path, {"todo.txt": "洗衣服\n", "other.txt": "a\nb\nc\nd\n"})
    answer, _ = ask(tmp_path, toolbox, "给 todo.txt 末尾加一行 买菜", "文件现在有几行？")
    assert "todo.txt" in answer and "2 行" in answer


@TOOLBOXES
def test_a_number_in_a_config_file_is_replaced_as_text(tmp_path, toolbox):
    plant(tmp_path, {"settings.json": '{"port": 3000, "retries": 3}\n'})
    ask(tmp_path, toolbox, "in settings.json replace 3000 with 4000")
    assert (tmp_path / "settings.json").read_text() == '{"port": 4000, "retries": 3}\n'


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["运行 greet.py，参数是 李雷", "运行 greet.py，参数给 李雷，告诉我结果"]
)
def test_a_chinese_argument_is_one_argument(tmp_path, toolbox, prompt):
    plant(tmp_path, {"greet.py": "import sys\nprint('hi', '|'.join(sys.argv[1:]))\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "hi 李雷" in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["run shout.py and tell me what it printed", "运行 shout.py，然后告诉我它输出了什么"]
)
def test_what_a_run_printed_is_the_run_not_its_source(tmp_path, toolbox, prompt):
    plant(tmp_path, {"shout.py": "print('LOUD' + '!' * 3)\n"})
    answer, calls = ask(tmp_path, toolbox, prompt)
    assert "LOUD!!!" in answer and "'!' * 3" not in answer
    assert all("path" not in call for call in calls)  # no read of the script


@TOOLBOXES
def test_a_second_count_that_leaves_out_its_unit_counts_the_same(tmp_path, toolbox):
    plant(tmp_path, {"x.txt": "1\n2\n", "y.txt": "1\n2\n3\n4\n"})
    answer, _ = ask(tmp_path, toolbox, "how many lines does x.txt have, and how many does y.txt?")
    assert "x.txt has 2 lines" in answer and "y.txt has 4 lines" in answer


@TOOLBOXES
def test_the_content_of_the_file_just_made_is_shown(tmp_path, toolbox):
    answer, _ = ask(tmp_path, toolbox, "新建 日记.md，写上 今天很好，然后把内容给我看看")
    assert (tmp_path / "日记.md").read_text(encoding="utf-8") == "今天很好\n"
    assert answer.count("今天很好") >= 2  # written, then read back


@TOOLBOXES
@pytest.mark.parametrize("greeting", ["你好", "大家好", "hello"])
def test_content_that_is_a_greeting_is_written_not_answered(tmp_path, toolbox, greeting):
    ask(tmp_path, toolbox, f"创建 hi.txt，内容是 {greeting}")
    assert (tmp_path / "hi.txt").read_text(encoding="utf-8") == f"{greeting}\n"


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, content",
    [
        ('create data.json containing {"retries": 2}', '{"retries": 2}\n'),
        ("create list.txt with [milk, eggs]", "[milk, eggs]\n"),
        ("新建 note.txt，内容是 (待定)", "(待定)\n"),
    ],
)
def test_content_keeps_its_brackets(tmp_path, toolbox, prompt, content):
    ask(tmp_path, toolbox, prompt)
    written = next(p for p in tmp_path.iterdir() if p.is_file())
    assert written.read_text(encoding="utf-8") == content


@TOOLBOXES
@pytest.mark.parametrize("prompt", ["show me docs/", "what's in docs/?", "看看 docs/ 里有什么"])
def test_a_folder_named_with_a_slash_is_listed_not_read(tmp_path, toolbox, prompt):
    plant(tmp_path, {"docs/a.md": "a\n", "docs/b.md": "b\n", "top.txt": "t\n"})
    answer, calls = ask(tmp_path, toolbox, prompt)
    assert "a.md" in answer and "b.md" in answer and "top.txt" not in answer
    assert all(call.get("path") != "docs/" for call in calls)


@TOOLBOXES
@pytest.mark.parametrize("prompt", ["把 notes.md 移到 中文 文件夹", "把 notes.md 移到中文文件夹里"])
def test_a_chinese_folder_name_is_kept_whole_though_part_of_it_is_a_word(tmp_path, toolbox, prompt):
    plant(tmp_path, {"notes.md": "n\n", "中文/keep.md": "k\n"})
    ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "中文" / "notes.md").exists() and not (tmp_path / "文").exists()


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["in menu.txt, change tea to coffee", "在 menu.txt 里，把 tea 改成 coffee"]
)
def test_a_place_named_before_a_comma_belongs_to_the_task_after_it(tmp_path, toolbox, prompt):
    plant(tmp_path, {"menu.txt": "tea\ncake\n"})
    ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "menu.txt").read_text() == "coffee\ncake\n"


@TOOLBOXES
def test_a_copy_whose_new_name_comes_in_its_own_clause(tmp_path, toolbox):
    plant(tmp_path, {"plan.md": "p\n"})
    ask(tmp_path, toolbox, "把 plan.md 复制一份，新文件名叫 plan2.md")
    assert (tmp_path / "plan2.md").read_text() == "p\n" and (tmp_path / "plan.md").exists()


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    ["list the markdown files except the ones in old/", "列出所有 md 文件，除了 old/ 里的"],
)
def test_a_folder_left_out_with_a_slash_is_left_out(tmp_path, toolbox, prompt):
    plant(tmp_path, {"a.md": "a\n", "old/b.md": "b\n", "new/c.md": "c\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "a.md" in answer and "c.md" in answer and "b.md" not in answer


@TOOLBOXES
def test_a_template_of_the_env_file_is_read_and_the_env_file_is_not(tmp_path, toolbox):
    plant(tmp_path, {".env.sample": "PORT=80\n", ".env": "ANTHROPIC_API_KEY=sk-secret\n"})
    answer, _ = ask(tmp_path, toolbox, "show me .env.sample")
    assert "PORT=80" in answer
    answer, calls = ask(tmp_path, toolbox, "show me .env")
    assert calls == [] and "sk-secret" not in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, a, b",
    [
        ("replace red with blue in a.txt, no, in b.txt", "red\n", "blue\n"),
        ("把 a.txt 里的 red 改成 blue，不对，在 b.txt 里", "red\n", "blue\n"),
        ("replace red with blue in a.txt, no, with green", "green\n", "red\n"),
        ("把 a.txt 里的 red 改成 blue，不对，改成 green", "green\n", "red\n"),
    ],
)
def test_a_correction_changes_only_what_it_corrects(tmp_path, toolbox, prompt, a, b):
    plant(tmp_path, {"a.txt": "red\n", "b.txt": "red\n"})
    ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "a.txt").read_text() == a and (tmp_path / "b.txt").read_text() == b


@TOOLBOXES
@pytest.mark.parametrize("prompt", ["run add.py with 4 and 5", "运行 add.py，参数是 4 和 5"])
def test_arguments_joined_by_and_are_each_an_argument(tmp_path, toolbox, prompt):
    plant(tmp_path, {"add.py": "import sys\nprint(sum(int(a) for a in sys.argv[1:]))\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "9" in answer


@TOOLBOXES
def test_it_before_the_new_name_is_the_file_made_before(tmp_path, toolbox):
    ask(tmp_path, toolbox, "create notes.txt with hello, then copy it to backup.txt")
    assert (tmp_path / "backup.txt").read_text() == "hello\n"
    assert (tmp_path / "notes.txt").read_text() == "hello\n"


@TOOLBOXES
@pytest.mark.parametrize("there", [True, False], ids=["there", "missing"])
@pytest.mark.parametrize(
    "prompt",
    ["如果 todo.md 存在就显示它，否则创建它", "如果有 todo.md 就给我看看，没有的话就新建一个"],
)
def test_otherwise_does_the_other_branch_and_never_both(tmp_path, toolbox, prompt, there):
    plant(tmp_path, {"todo.md": "keep me\n"} if there else {"other.md": "o\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    if there:
        assert (tmp_path / "todo.md").read_text() == "keep me\n" and "keep me" in answer
    else:
        assert (tmp_path / "todo.md").exists() and (tmp_path / "todo.md").read_text() == ""


# id: (the project, the request, what the answer names, what it must not name)
ANSWERS = {
    "the-script-with-no-file-named-before-is-the-one-script-there": (
        {"cube.py": "import sys\nprint(int(sys.argv[1]) ** 3)\n", "notes.md": "n\n"},
        "run the script with 3 as the argument",
        ["27"],
        [],
    ),
    "whats-in-the-file-with-its-name": (
        {"config.ini": "[main]\nport = 80\n", "b.txt": "b\n"},
        "what's in the file config.ini?",
        ["port = 80"],
        ["b.txt"],
    ),
    "find-out-every-file-of-a-kind": (
        {"docs/a.md": "a\n", "b.md": "b\n", "c.txt": "c\n"},
        "帮我找出所有 md 文件",
        ["docs/a.md", "b.md"],
        ["c.txt"],
    ),
    "a-file-named-without-an-extension": (
        {"Makefile": "all:\n\techo build\n", "a.txt": "a\n"},
        "show me the first line of the Makefile",
        ["all:"],
        ["echo build"],
    ),
    "which-folder-a-file-is-in": (
        {"lib/deep/tool.py": "t\n", "other.py": "o\n"},
        "tool.py 在哪个目录里？",
        ["lib/deep/tool.py"],
        ["other.py"],
    ),
    "a-quoted-term-followed-by-these-characters": (
        {"log.txt": "err 404\nok 200\n"},
        "在 log.txt 里搜索“err”这几个字",
        ["err 404"],
        ["ok 200"],
    ),
    "where-a-file-was-put": (
        {"src/utils.py": "x\n", "top.py": "t\n"},
        "utils.py 放在哪儿了",
        ["src/utils.py"],
        ["top.py"],
    ),
    "what-is-written-in-a-file-is-the-file": (
        {"run.sh": "echo ok\n", "b.txt": "bye\n"},
        "run.sh 里写了什么",
        ["echo ok"],
        ["b.txt"],
    ),
    "english-words-counted-in-chinese": (
        {"a.txt": "hello world hello\nbye\n"},
        "a.txt 有多少个英文单词",
        ["4"],
        ["3 行"],
    ),
    "what-it-can-do-asked-colloquially": ({}, "你能干点啥", ["离线"], ["没能理解"]),
    "the-whole-project-asked-for-politely-with-subfolders": (
        {"top.txt": "t\n", "sub/deep.txt": "d\n"},
        "请帮我把整个项目的文件都列出来，包括子文件夹里的，谢谢🙏",
        ["top.txt", "sub/deep.txt"],
        ["没能理解"],
    ),
    "a-search-for-the-word-password-is-a-search": (
        {"db.ini": "密码=1\n", "readme.txt": "hi\n"},
        "哪些文件里提到了 密码",
        ["db.ini"],
        ["readme.txt"],
    ),
}


@TOOLBOXES
@pytest.mark.parametrize("case", list(ANSWERS))
def test_the_answer_names_what_was_asked_and_nothing_else(tmp_path, toolbox, case):
    files, prompt, shows, hides = ANSWERS[case]
    plant(tmp_path, files)
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in shows) and not any(h in answer for h in hides), answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    ["what was the last commit's description?", "最近一次提交的描述是什么", "最后一次提交的描述"],
)
def test_the_last_commit_asked_for_by_its_description(tmp_path, toolbox, prompt):
    git = ["git", "-c", "user.name=L", "-c", "user.email=l@example.com"]
    plant(tmp_path, {"a.txt": "a\n"})
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "Add the first notes"], cwd=tmp_path, check=True)
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "Add the first notes" in answer


LOG = {"log.txt": "err: disk err\nok\nERR again\n"}
NOTES = {"a.txt": "# title\nhello world\nhello there\n# note\nbye\n"}
SIGNS = {"calc.py": "x = a.b\ny = axb\nz = a*b\nw = (x)\nv = cost$\n"}
# id: (the project, the request, what the answer names, what it must not name)
LINES = {
    "lines-that-contain-a-text-counted-each-once": (
        LOG, "how many lines in log.txt contain err?", ["2 lines", "1: err: disk err", "3: ERR"], ["ok"]
    ),
    "one-line-reads-as-one": (LOG, "how many lines of log.txt mention disk", ["1 line of"], ["2 lines"]),
    "lines-that-contain-shown": (LOG, "show lines in log.txt that contain err", ["1: err", "3: ERR"], ["ok"]),
    "lines-that-do-not-start-with": (
        NOTES, "show the lines of a.txt that don't start with #", ["hello world", "bye"], ["# title", "# note"]
    ),
    "lines-containing-one-text-but-not-another": (
        NOTES, "show me lines in a.txt containing hello but not world", ["hello there"], ["hello world", "bye"]
    ),
    "lines-that-end-with": (NOTES, "which lines of a.txt end with e", ["# title", "hello there"], ["hello world"]),
    "two-tests-joined-by-and": (
        NOTES, "how many lines in a.txt don't start with # and contain hello", ["2 lines"], ["bye", "file"]
    ),
    "no-line-matches": (NOTES, "how many lines in a.txt contain zzz", ["No line of a.txt contains 'zzz'"], ["1 line"]),
    "zh-lines-that-contain-counted": (LOG, "log.txt 里有几行包含 err", ["2 行", "3: ERR"], ["ok"]),
    "zh-count-asked-first": (NOTES, "数一下 a.txt 里有多少行包含 hello", ["2 行"], ["bye"]),
    "zh-lines-that-do-not-start-with": (
        NOTES, "a.txt 里不是以 # 开头的行有哪些", ["hello world", "bye"], ["# title", "# note"]
    ),
    "zh-lines-that-end-with": (NOTES, "a.txt 中以 e 结尾的行", ["# title", "bye"], ["hello world"]),
    "zh-contains-but-not": (NOTES, "a.txt 里包含 hello 但不包含 world 的行", ["hello there"], ["hello world"]),
    "zh-no-line-matches": (NOTES, "a.txt 里有几行包含 zzz", ["没有包含 'zzz'"], ["1 行"]),
    "a-dot-is-a-dot": (SIGNS, 'how many lines in calc.py contain "a.b"', ["1 line", "a.b"], ["axb"]),
    "a-star-is-a-star": (SIGNS, "how many lines of calc.py contain 'a*b'?", ["1 line", "a*b"], ["axb"]),
    "brackets-are-brackets": (SIGNS, 'which lines of calc.py contain "(x)"', ["w = (x)"], ["a.b"]),
    "a-dollar-is-a-dollar": (SIGNS, 'calc.py 里以 "$" 结尾的行', ["cost$"], ["a.b"]),
    "a-command-word-is-a-text-too": (
        {"a.py": "print(1)\nx = 2\n"}, "which lines of a.py contain print", ["1: print(1)"], ["x = 2"]
    ),
    "a-missing-file-is-the-tools-error": (
        LOG, "how many lines in missing.txt contain err", ["such file or directory"], ["line of", "lines of"]
    ),
    # what must not change: all the lines of a file, a search of every file
    "how-many-lines-a-file-has-is-all-its-lines": (NOTES, "how many lines does a.txt have", ["5 lines"], ["hello"]),
    "a-search-with-no-file-searches-every-file": (
        {"a.txt": "err\n", "b.txt": "err\n", "c.txt": "x\n"}, "search err", ["a.txt", "b.txt"], ["c.txt"]
    ),
}  # fmt: skip


@TOOLBOXES
@pytest.mark.parametrize("case", list(LINES))
def test_the_lines_of_a_file_that_pass_a_test_are_shown_or_counted(tmp_path, toolbox, case):
    files, prompt, shows, hides = LINES[case]
    plant(tmp_path, files)
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in shows) and not any(h in answer for h in hides), answer
    assert {name: (tmp_path / name).read_text() for name in files} == files  # nothing changed


@TOOLBOXES
@pytest.mark.parametrize(
    "follow_up, says",
    [("how many lines in it contain hello", "2 lines of a.txt"), ("它里面有几行包含 bye", "1 行")],
)
def test_a_line_test_on_it_is_on_the_file_named_before(tmp_path, toolbox, follow_up, says):
    plant(tmp_path, {**NOTES, "b.txt": "hello\nhello\nhello\n"})
    answer, _ = ask(tmp_path, toolbox, "show me a.txt", follow_up)
    assert says in answer and "b.txt" not in answer, answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "how many lines in a.txt contain",  # no text to look for: not all its lines
        # and, as before, what is not a test of each line's text
        "count the lines in a.txt with more than 3 words",  # a description, not a text
        "delete the lines in a.txt that contain hello",
        "count the lines in a.txt with wc",  # how to count, not what
        "which lines of a.txt have a comment",  # a kind of line, not the text 'comment'
        "how many lines in a.txt are not empty",
    ],
)
def test_a_line_test_it_cannot_read_is_declined_without_a_tool(tmp_path, toolbox, prompt):
    plant(tmp_path, NOTES)
    answer, calls = ask(tmp_path, toolbox, prompt)
    assert calls == [] and "offline" in answer
    assert (tmp_path / "a.txt").read_text() == NOTES["a.txt"]


@TOOLBOXES
def test_chinese_typed_straight_after_a_name_ends_the_name(tmp_path, toolbox):
    plant(tmp_path, {"a.txt": "1\n2\n3\n"})
    answer, _ = ask(tmp_path, toolbox, "a.txt里有几行")
    assert "3 行" in answer


@TOOLBOXES
def test_a_word_glued_before_a_place_and_a_name_is_not_the_name(tmp_path, toolbox):
    plant(tmp_path, {"a.txt": "hello world hello\n"})
    _, calls = ask(tmp_path, toolbox, "hello在a.txt里出现了几次")
    assert not any("hello在" in str(call) for call in calls)  # no file of that name is read


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, shows",
    [
        ("src目录里有多少个.py文件", ["2"]),
        ("看一下src里的.py文件", ["src/a.py", "src/b.py"]),
        ("tests文件夹里有几个.py文件", ["1"]),
        ("report报告.md 有几行", ["3 行"]),  # a name that mixes English and Chinese stays a name
    ],
)
def test_a_folder_typed_against_chinese_words_and_an_extension_is_not_one_name(
    tmp_path, toolbox, prompt, shows
):
    plant(tmp_path, {"src/a.py": "a\n", "src/b.py": "b\n", "tests/t.py": "t\n"})
    plant(tmp_path, {"src/c.txt": "c\n", "report报告.md": "1\n2\n3\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in shows) and "src/c.txt" not in answer, answer


@TOOLBOXES
@pytest.mark.parametrize("prompt", ["a.txt里world出现了几次", "a.txt 里world 出现了几次"])
def test_a_word_that_only_carries_the_sentence_is_never_the_term_counted(tmp_path, toolbox, prompt):
    plant(tmp_path, {"a.txt": "world 了 world\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert "'了'" not in answer, answer  # it counted '了' once


@TOOLBOXES
def test_a_line_that_names_a_version_is_not_read_as_the_file(tmp_path, toolbox):
    plant(tmp_path, {"CHANGELOG.md": "# Changelog\n"})
    _, calls = ask(tmp_path, toolbox, "append a line saying v1.2 released to CHANGELOG.md")
    assert not any("v1.2 does not exist" in str(c) or c.get("path") == "v1.2" for c in calls)


TODO = {"待办.txt": "写作业\n"}
START = {"a.txt": "start\n"}
DONE = {"a.txt": "start\ndone\n"}
# id: (the project, the request, each file's text afterwards: None for one that is not there)
WRITES = {
    "a-place-word-before-a-chinese-name-at": (TODO, "在待办.txt末尾加一行 买牛奶", {"待办.txt": "写作业\n买牛奶\n", "在待办.txt": None}),
    "a-place-word-before-a-chinese-name-into": (TODO, "往待办.txt里加一行 买牛奶", {"待办.txt": "写作业\n买牛奶\n", "往待办.txt": None}),
    "a-place-word-before-a-chinese-name-toward": (TODO, "向待办.txt追加一行 买牛奶", {"待办.txt": "写作业\n买牛奶\n", "向待办.txt": None}),
    "a-line-saying": (START, "append a line saying done to a.txt", DONE),
    "a-line-that-says": (START, "add a line that says done to a.txt", DONE),
    "the-text": (START, "add the text done to a.txt", DONE),
    "a-line-saying-under-a-condition": (START, "if a.txt exists, append a line saying done to it", DONE),
    "a-line-after-a-colon": (START, "在 a.txt 末尾加一行：done", DONE),
    "a-chinese-line-that-starts-with-a-writing-word": ({"todo.txt": "买菜\n"}, "在 todo.txt 末尾加一行：写周报", {"todo.txt": "买菜\n写周报\n"}),
}  # fmt: skip


@TOOLBOXES
@pytest.mark.parametrize("case", list(WRITES))
def test_the_files_afterwards_are_what_was_asked(tmp_path, toolbox, case):
    files, prompt, after = WRITES[case]
    plant(tmp_path, files)
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert files_after(tmp_path, after) == after, answer
