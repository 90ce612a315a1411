"""The playbook runs each try-it prompt end to end through agent_loop, with real tools."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys

import pytest

from agentlib import Workspace, agent_loop, s01_tools, s02_tools
from agentlib.offline import OFFLINE_MODEL, Fallback, Script, offline_client, say
from agentlib.offline.fallback import is_decline
from agentlib.offline.playbook import Playbook
from agentlib.offline.playbook.reader import read as parse

TOOLBOXES = pytest.mark.parametrize("toolbox", [s01_tools, s02_tools], ids=["s01", "s02"])


def run(workspace, toolbox, *prompts, history=None):
    """Ask each prompt in turn (one history, like the REPL); return the final texts and state."""
    client, model = offline_client()
    history = [] if history is None else history
    answers, state = [], None
    for prompt in prompts:
        history.append({"role": "user", "content": prompt})
        state = agent_loop(history, client=client, model=model, tools=toolbox(workspace))
        assert state.stop_reason == "end_turn"
        texts = [b["text"] for b in history[-1]["content"] if b["type"] == "text"]
        answers.append("\n".join(texts))
    return answers, state


def tools_used(state):
    return [event.name for event in state.events if event.kind == "tool_ran"]


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path)


@TOOLBOXES
def test_hello_py_is_created_and_prints_hello_world(ws, toolbox):
    (answer,), state = run(ws, toolbox, 'Create a file called hello.py that prints "Hello, World!"')
    printed = subprocess.run(
        [sys.executable, "hello.py"], cwd=ws.root, capture_output=True, text=True, check=True
    )
    assert printed.stdout == "Hello, World!\n"
    assert "Hello, World!" in answer
    expected_write = "write_file" if toolbox is s02_tools else "bash"
    assert tools_used(state)[0] == expected_write


@TOOLBOXES
def test_reworded_print_prompt_uses_the_requested_name_and_text(ws, toolbox):
    run(ws, toolbox, "please make a script named hi.py which prints 'Hi there'")
    printed = subprocess.run([sys.executable, "hi.py"], cwd=ws.root, capture_output=True, text=True)
    assert printed.stdout == "Hi there\n"


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["List all Python files in this directory", "列出当前目录的 Python 文件"]
)
def test_listing_python_files_names_the_real_files(ws, toolbox, prompt):
    (ws.root / "main.py").write_text("print(1)\n")
    (ws.root / "pkg").mkdir()
    (ws.root / "pkg" / "util.py").write_text("")
    (ws.root / "notes.txt").write_text("not python")
    (answer,), _ = run(ws, toolbox, prompt)
    if prompt.isascii():
        assert answer.startswith("Found 2 Python files:")
    else:
        assert answer.startswith("当前目录有2个Python文件")
    assert "main.py" in answer and "pkg/util.py" in answer and "notes.txt" not in answer


@TOOLBOXES
def test_listing_in_an_empty_workspace_says_there_are_none(ws, toolbox):
    (answer,), _ = run(ws, toolbox, "List all Python files in this directory")
    assert answer.startswith("There are no Python files here.")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@TOOLBOXES
def test_git_branch_is_read_from_git(ws, toolbox):
    subprocess.run(["git", "-c", "init.defaultBranch=trunk", "init", "-q"], cwd=ws.root, check=True)
    (answer,), state = run(ws, toolbox, "What is the current git branch?")
    assert answer == "The current git branch is `trunk`."
    assert tools_used(state) == ["bash"]


@TOOLBOXES
def test_git_branch_outside_a_repository_quotes_gits_error(ws, toolbox):
    (answer,), _ = run(ws, toolbox, "What is the current git branch?")
    assert "git reported an error" in answer
    assert "not a git repository" in answer


@TOOLBOXES
def test_test_output_gets_three_files(ws, toolbox):
    (answer,), _ = run(ws, toolbox, "Create a directory called test_output and write 3 files in it")
    files = sorted(p.name for p in (ws.root / "test_output").iterdir())
    assert files == ["file1.txt", "file2.txt", "file3.txt"]
    assert (ws.root / "test_output" / "file2.txt").read_text() == "This is file 2 of 3.\n"
    assert all(name in answer for name in files)  # quoted from the real listing


def test_s02_writes_the_three_files_in_one_round(ws):
    _, state = run(ws, s02_tools, "Create a directory called test_output and write 3 files in it")
    rounds = [e.round for e in state.events if e.kind == "tool_ran" and e.name == "write_file"]
    assert rounds == [1, 1, 1]


@TOOLBOXES
def test_reading_requirements_quotes_the_file(ws, toolbox):
    (ws.root / "requirements.txt").write_text("anthropic>=2\npython-dotenv\n")
    (answer,), _ = run(ws, toolbox, "Read the file requirements.txt")
    assert "anthropic>=2" in answer and "python-dotenv" in answer


@TOOLBOXES
def test_reading_a_missing_file_quotes_the_error(ws, toolbox):
    (answer,), state = run(ws, toolbox, "Read the file requirements.txt")
    error = next(event.output for event in state.events if event.kind == "tool_ran")
    assert answer.startswith("I could not read requirements.txt")
    assert error.splitlines()[0] in answer


@TOOLBOXES
def test_greet_create_edit_verify_sequence(ws, toolbox):
    answers, _ = run(
        ws,
        toolbox,
        "Create a file called greet.py with a greet(name) function",
        "Edit greet.py to add a docstring to the function",
        "Read greet.py to verify the edit worked",
    )
    source = (ws.root / "greet.py").read_text()
    namespace: dict = {}
    exec(compile(source, "greet.py", "exec"), namespace)
    assert namespace["greet"]("Ada") == "Hello, Ada!"
    assert namespace["greet"].__doc__ == "Return a friendly greeting for name."
    assert "Hello, World!" in answers[0]  # the real output of running it
    assert answers[2].endswith("The edit worked: the function has a docstring.")


@TOOLBOXES
def test_docstring_edit_without_the_file_says_to_create_it_first(ws, toolbox):
    (answer,), _ = run(ws, toolbox, "Edit greet.py to add a docstring to the function")
    assert answer.startswith("I could not read greet.py, so I cannot edit it.")
    assert not (ws.root / "greet.py").exists()


def test_whole_seed_session_keeps_history_across_questions(ws):
    history: list = []
    run(ws, s01_tools, 'Create a file called hello.py that prints "Hello, World!"', history=history)
    (answer,), _ = run(ws, s01_tools, "List all Python files in this directory", history=history)
    assert answer == "Found 1 Python file:\n  - hello.py"
    assert [m["content"] for m in history if isinstance(m["content"], str)] == [
        'Create a file called hello.py that prints "Hello, World!"',
        "List all Python files in this directory",
    ]


def test_playbook_uses_only_offered_tools_and_says_what_is_missing():
    client, model = offline_client(Playbook())
    only_glob = [{"name": "glob", "input_schema": {"type": "object"}}]
    message = client.messages.create(
        model=model,
        max_tokens=500,
        tools=only_glob,
        messages=[{"role": "user", "content": "Create a file called hello.py that prints hi"}],
    )
    assert message.model == OFFLINE_MODEL
    assert message.content[0].text.startswith("I am the offline model. I know this task")
    assert "write_file or bash" in message.content[0].text


def test_unknown_prompt_goes_to_the_next_policy():
    client, model = offline_client(Playbook(), Script(say("scripted")))
    message = client.messages.create(
        model=model, max_tokens=50, messages=[{"role": "user", "content": "Tell me a joke"}]
    )
    assert message.content[0].text == "scripted"


def test_history_not_made_by_the_play_is_left_to_the_next_policy():
    # the first round used glob, which the hello play would never do: it must not pretend
    history = [
        {"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_x", "name": "glob", "input": {"pattern": "*"}}
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_x", "content": "(no matches)"}
            ],
        },
    ]
    tools = [{"name": name, "input_schema": {"type": "object"}} for name in ("bash", "write_file")]
    client, model = offline_client(Playbook(), Fallback())
    message = client.messages.create(model=model, max_tokens=900, messages=history, tools=tools)
    assert is_decline(message.content[0].text)
    assert "These tool calls are not mine" in message.content[0].text


@pytest.mark.parametrize(
    "prompt, parts",
    [
        (
            "Write hello.py which prints 'Hello, World!'",
            [("create", {"paths": ["hello.py"], "prints": "Hello, World!", "run": True})],
        ),
        (
            "Could you list the Python files here?",
            [
                (
                    "list",
                    {"folder": None, "ext": ["py"], "hidden": "no", "recursive": True, "skip": []},
                )
            ],
        ),
        ("which branch am I on in git?", [("git", {"what": "branch", "n": 10})]),
        (
            "make a folder named out and put five files in it",
            [("mkdir", {"paths": ["out"], "files": 5})],
        ),
        ("Please read requirements.txt", [("show", {"path": "requirements.txt"})]),
        ("add a docstring to greet.py", [("docstring", {"path": "greet.py"})]),
        (
            "Write a module called hi.py with a hello(who) function",
            [
                (
                    "create",
                    {
                        "paths": ["hi.py"],
                        "function": "hello",
                        "args": ["who"],
                        "body": 'f"Hello, {who}!"',
                    },
                )
            ],
        ),
        (
            "把 notes.txt 重命名为 todo.txt",
            [("move", {"src": "notes.txt", "dest": "todo.txt", "into": False})],
        ),
        ("Tell me a joke", None),
        ("summarize README.md", None),
    ],
)
def test_small_rewordings_are_read_into_the_right_parts(prompt, parts):
    found = Playbook().match(prompt)
    assert (None if found is None else [(p.kind, p.params) for p in found]) == parts


@pytest.mark.parametrize(
    "prompt, unclear",
    [
        ("create a.txt and then summarize it", "summarize"),
        ("explain what utils.py does", "explain"),
        ("把 main.py 重构成面向对象的写法", "重构 面 象 写法"),
        ("x" * 60_000, "a 60,000-character prompt (I read at most 2,000)"),
    ],
)
def test_the_part_it_cannot_read_is_named(prompt, unclear):
    assert parse(prompt).unclear == unclear


@pytest.mark.parametrize(
    "prompt, parts",
    [
        (
            "Create hello.py that prints hi. No wait, make it print bye",
            [("create", {"paths": ["hello.py"], "prints": "bye", "run": True})],
        ),
        ("创建 a.txt，不对，应该叫 b.txt", [("create", {"paths": ["b.txt"], "content": ""})]),
        ("delete a.txt, wait no, delete b.txt", [("delete", {"paths": ["b.txt"]})]),
    ],
)
def test_a_correction_replaces_what_it_corrects(prompt, parts):
    assert [(p.kind, p.params) for p in parse(prompt).parts] == parts


@pytest.mark.parametrize(
    "prompt, files, answer",
    [
        ("create hello.py that prints hi if it does not exist", {}, "Created hello.py"),
        (
            "create hello.py that prints hi if it does not exist",
            {"hello.py": "x = 1\n"},
            "hello.py already exists, so I left it as it is.",
        ),
        ("if there's a setup.py, run it; otherwise tell me", {}, "setup.py does not exist"),
        ("如果 a.txt 存在就删掉它", {"a.txt": "a\n"}, "已删除 a.txt"),
    ],
)
def test_a_condition_is_checked_in_the_workspace_first(ws, prompt, files, answer):
    for name, text in files.items():
        (ws.root / name).write_text(text)
    (said,), state = run(ws, s02_tools, prompt)
    assert said.startswith(answer)
    first = next(event for event in state.events if event.kind == "tool_ran")
    assert first.input["command"].startswith("test -e")
    if "left it as it is" in answer:
        assert (ws.root / "hello.py").read_text() == "x = 1\n"


@pytest.mark.parametrize(
    "prompt, words", [("Summarize README.md", "'Summarize'"), ("总结一下 README.md", "“总结”")]
)
def test_decline_names_the_leftover_words_in_the_prompts_language(ws, prompt, words):
    (answer,), state = run(ws, s02_tools, prompt)
    assert is_decline(answer)
    assert tools_used(state) == []
    assert ("离线模型" in answer) == (not prompt.isascii())
    assert words in answer and len(answer) <= 300


@pytest.mark.parametrize("prompt", ["rm -rf /", "read ~/.ssh/id_rsa", "打印所有环境变量"])
def test_a_dangerous_request_is_declined_as_dangerous_without_a_tool(ws, prompt):
    (answer,), state = run(ws, s02_tools, prompt)
    assert tools_used(state) == []
    assert "dangerous" in answer or "危险" in answer
    assert "ANTHROPIC_API_KEY" not in answer and not is_decline(answer)


@pytest.mark.parametrize(
    "prompt, answer",
    [
        ("What files are in this folder?", "Found 1 file:\n  - notes.txt"),
        ("ok, show me line 2 of notes.txt 🙏", "Here is line 2 of notes.txt:\n    2: b"),
        ("how many lines are in notes.txt?", "notes.txt has 2 lines."),
        ("Which files mention b?", "1 file contains 'b' (ignoring case):\n  - notes.txt"),
    ],
)
def test_deictics_filler_and_counts_read_right(ws, prompt, answer):
    (ws.root / "notes.txt").write_text("a\nb\n")
    (said,), _ = run(ws, s02_tools, prompt)
    assert said.startswith(answer)


def test_a_raw_call_without_tools_names_no_toolbox():
    client, model = offline_client()
    message = client.messages.create(
        model=model,
        max_tokens=500,
        messages=[{"role": "user", "content": "List all Python files in this directory"}],
    )
    text = message.content[0].text
    assert text.startswith("I am the offline model. I know this task")
    assert "toolbox" not in text and "s02_tools" not in text and "tools=" in text


@TOOLBOXES
def test_a_file_that_says_error_is_shown_not_taken_for_a_failed_read(ws, toolbox):
    (ws.root / "log.txt").write_text("Error: disk full\nTraceback (most recent call last):\n")
    (answer,), _ = run(ws, toolbox, "show log.txt")
    assert answer.startswith("Here is log.txt:") and "Error: disk full" in answer


def test_the_reader_never_raises_on_pieces_of_learner_prompts():
    from playbook_corpus import CORPUS, HELD_OUT, load

    prompts = [entry["p"] for entry in load(CORPUS) + load(HELD_OUT)]
    words = " ".join(prompts).split()
    pieces = [" ".join(words[i : i + n]) for n in (1, 2, 3, 5, 8) for i in range(0, len(words), 7)]
    pairs = [
        f"{a}{join}{b}" for a, b in itertools.pairwise(prompts) for join in (", then ", "，然后")
    ]
    for prompt in prompts + pieces + pairs:
        found = parse(prompt)
        assert found.parts or found.unclear or found.danger, prompt


@pytest.mark.parametrize(
    "prompt, parts",
    [
        ("在 notes.txt 末尾追加一行 完成", [("append", {"path": "notes.txt", "text": "完成"})]),
        ("创建 a.txt，内容是 中文", [("create", {"paths": ["a.txt"], "content": "中文\n"})]),
        (
            "列出 docs 里的文件",
            [
                (
                    "list",
                    {"folder": "docs", "ext": None, "hidden": "no", "recursive": False, "skip": []},
                )
            ],
        ),
        ("delete the build folder", [("delete", {"paths": ["build"]})]),
        (
            "create a js file hello.js that prints hello from js",
            [("create", {"paths": ["hello.js"], "prints": "hello from js", "run": True})],
        ),
        (
            "update a.txt: replace alpha with omega",
            [
                (
                    "replace",
                    {"path": "a.txt", "old": "alpha", "new": "omega", "all": True, "words": False},
                )
            ],
        ),
        ("add a new line to notes.txt", None),
        ("move a.txt and b.txt into docs", None),
        ("write a poem to a.txt", None),
        ("create notes.txt with my todo list", None),
        ("what's 10% of 50?", None),
        ("count lines in all python files", None),
    ],
)
def test_words_that_name_nothing_never_become_slots(prompt, parts):
    found = Playbook().match(prompt)
    assert (None if found is None else [(p.kind, p.params) for p in found]) == parts


@pytest.mark.parametrize(
    "prompt",
    [
        "how many characters are in notes.txt",  # a unit, not a word to count
        "how many functions does utils.py have",
        "list all functions in utils.py",
        "change line 2 of a.txt to hi",  # a place in the file, not a text to find
        "git commit",  # asks to commit, not to show the last commit
        "change the contents of a.txt to hello",  # names nothing to find
        "replace foo.txt with bar.txt and baz.txt",
        "add error handling to main.py",  # a change to code, not a line of text
        "how many rows are in data.csv?",  # with or without the header?
        "show me everything but the .git folder",
    ],
)
def test_a_kind_of_thing_is_not_taken_for_a_word_to_find(prompt):
    assert Playbook().match(prompt) is None


@pytest.mark.parametrize("prompt", ["ls ..", "ls /tmp", "cat /etc/passwd", "read ../notes.txt"])
def test_a_path_outside_the_workspace_is_refused_before_any_tool(prompt):
    assert parse(prompt).danger == "outside"


def test_a_dotenv_file_is_a_secret():
    assert parse("show me the .env file").danger == "secrets"


@pytest.mark.parametrize(
    "prompt, parts",
    [
        (
            'write print("hi") to test.py',
            [("create", {"paths": ["test.py"], "content": 'print("hi")\n'})],
        ),
        (
            "create empty.txt with nothing in it",
            [("create", {"paths": ["empty.txt"], "content": ""})],
        ),
        (
            "make script.py print hello",
            [("create", {"paths": ["script.py"], "prints": "hello", "run": True})],
        ),
    ],
)
def test_code_nothing_and_printed_words_are_told_apart(prompt, parts):
    assert [(p.kind, p.params) for p in parse(prompt).parts] == parts


def test_quoted_text_is_written_as_it_is():
    assert [(p.kind, p.params) for p in parse("add 'import os' to main.py").parts] == [
        ("append", {"path": "main.py", "text": "import os"})
    ]


@pytest.mark.parametrize("prompt, value", [("what is 10 / 2", 5), ("what is 3/4", 0.75)])
def test_a_slash_between_numbers_is_division(prompt, value):
    assert [(p.kind, p.params["value"]) for p in parse(prompt).parts] == [("math", value)]


@TOOLBOXES
def test_an_empty_file_never_replaces_one_that_is_there(ws, toolbox):
    (ws.root / "a.txt").write_text("keep me\n")
    (answer,), _ = run(ws, toolbox, "create a.txt and b.txt")
    assert (ws.root / "a.txt").read_text() == "keep me\n"
    assert (ws.root / "b.txt").read_text() == ""
    assert "a.txt already existed: left as it is." in answer


def test_change_the_name_of_a_file_renames_it():
    assert [(p.kind, p.params) for p in parse("change the name of a.txt to b.txt").parts] == [
        ("move", {"src": "a.txt", "dest": "b.txt", "into": False})
    ]


@pytest.mark.parametrize(
    "first, then, answer",
    [
        ("show me notes.txt", "how many lines did it have?", "notes.txt has 2 lines."),
        ("显示 notes.txt", "再看一下", "这是 notes.txt："),
        ("看看 notes.txt", "刚才那个文件有几行？", "notes.txt 有 2 行。"),
        ("rename notes.txt to todo.txt", "now show me it", "Here is todo.txt:"),
    ],
)
def test_a_follow_up_finds_its_file_in_the_last_turn(ws, first, then, answer):
    (ws.root / "notes.txt").write_text("a\nb\n")
    history: list = []
    run(ws, s02_tools, first, history=history)
    (said,), _ = run(ws, s02_tools, then, history=history)
    assert said.startswith(answer)


def test_a_follow_up_with_nothing_before_declines():
    assert parse("show it").unclear == "it (no file was named before)"


@pytest.mark.parametrize(
    ("prompt", "content"),
    [
        ("make todo.md containing: Ship it!", "Ship it!\n"),  # after a colon the text is its own
        ("make todo.md with the text: Done.", "Done.\n"),
        ("make todo.md containing Ship it!", "Ship it\n"),  # no colon: the request's own "!"
    ],
)
def test_text_after_a_colon_keeps_its_closing_punctuation(prompt, content):
    (part,) = parse(prompt).parts
    assert (part.kind, part.params["content"]) == ("create", content)


@pytest.mark.parametrize(("prompt", "unit"), [("word count for essay.txt?", "words"), ("line count of data.csv", "lines")])  # fmt: skip
def test_a_word_count_or_line_count_counts_words_or_lines(prompt, unit):
    (part,) = parse(prompt).parts
    assert (part.kind, part.params["unit"]) == ("count", unit)


@pytest.mark.parametrize("prompt", ["帮我看看 abc.txt 里写了什么", "abc.txt 里写的是什么？"])
def test_what_is_written_in_a_file_is_a_question_about_it_not_a_write(prompt):
    (part,) = parse(prompt).parts
    assert (part.kind, part.params) == ("show", {"path": "abc.txt"})


@pytest.mark.parametrize(
    "prompt",
    ["show the second line of log.txt", "read the 2nd line of log.txt", "log.txt 的第二行是什么"],
)
def test_an_ordinal_names_one_line(prompt):
    (part,) = parse(prompt).parts
    assert (part.kind, part.params) == ("show", {"path": "log.txt", "lines": [2, 2]})


@pytest.mark.parametrize(
    "prompt",
    [
        "show me a.txt and b.txt",
        "open both a.txt and b.txt",
        "cat a.txt b.txt",
        "看一下 a.txt 和 b.txt",
    ],
)
def test_two_files_named_together_are_both_shown(ws, prompt):
    (ws.root / "a.txt").write_text("alpha\n")
    (ws.root / "b.txt").write_text("beta\n")
    (ws.root / "c.txt").write_text("gamma\n")
    (said,), _ = run(ws, s02_tools, prompt)
    assert "alpha" in said and "beta" in said and "gamma" not in said


@pytest.mark.parametrize(
    "prompt",
    ["list all files, subfolders included", "列出所有文件，包括子目录", "list files recursively"],
)
def test_subfolders_included_lists_recursively_and_names_no_folder(ws, prompt):
    (ws.root / "src").mkdir()
    (ws.root / "src" / "b.py").write_text("y\n")
    (ws.root / "a.py").write_text("x\n")
    (said,), _ = run(ws, s02_tools, prompt)
    assert "a.py" in said and "src/b.py" in said


@TOOLBOXES
def test_a_folder_that_is_not_there_is_said_to_be_missing_not_empty(ws, toolbox):
    (ws.root / "a.py").write_text("x\n")
    (said,), _ = run(ws, toolbox, "list the files in stuff")
    assert "no folder called stuff" in said or "No such file" in said  # s01's ls says so
    assert "There are no" not in said


@pytest.mark.parametrize(
    "prompt",
    [
        "move a.txt to docs",
        "put a.txt in the docs folder",
        "把 a.txt 放进 docs 里",
        "mv a.txt docs",
    ],
)
def test_a_file_moves_into_a_folder_named_without_a_slash(ws, prompt):
    (ws.root / "docs").mkdir()
    (ws.root / "a.txt").write_text("alpha\n")
    run(ws, s02_tools, prompt)
    assert (ws.root / "docs" / "a.txt").read_text() == "alpha\n" and not (
        ws.root / "a.txt"
    ).exists()


@TOOLBOXES
def test_a_bare_word_that_names_no_folder_moves_nothing(ws, toolbox):
    (ws.root / "a.txt").write_text("alpha\n")
    (said,), _ = run(ws, toolbox, "move a.txt to docs")
    assert (ws.root / "a.txt").read_text() == "alpha\n" and not (ws.root / "docs").exists()
    assert "there is no folder docs" in said


@pytest.mark.parametrize(
    ("prompt", "parts"),
    [
        ("2 的 10 次方是多少", [("math", {"expr": "2 ** 10", "value": 1024})]),
        ("what's 3 squared", [("math", {"expr": "3 ** 2", "value": 9})]),
        ("运行 square.py，参数是 7", [("run", {"path": "square.py", "args": ["7"]})]),
        ("看看 笔记.txt", [("show", {"path": "笔记.txt"})]),
        ("把笔记.txt 删了", [("delete", {"paths": ["笔记.txt"]})]),
        ("新建文件夹 build", [("mkdir", {"paths": ["build"], "files": 0})]),
        ("嗯，看看 notes.txt", [("show", {"path": "notes.txt"})]),
        ("git status - are there any untracked files?", [("git", {"what": "status", "n": 10})]),
        (
            "在 notes 文件夹里创建 todo.txt，内容是 买牛奶",
            [("create", {"paths": ["notes/todo.txt"], "content": "买牛奶\n"})],
        ),
        (
            "新建 todo.txt，内容：买牛奶，买面包",
            [("create", {"paths": ["todo.txt"], "content": "买牛奶，买面包\n"})],
        ),
        (
            "in hosts.txt replace 10.0.0.1 with 10.0.0.2",
            [
                (
                    "replace",
                    {
                        "path": "hosts.txt",
                        "old": "10.0.0.1",
                        "new": "10.0.0.2",
                        "all": True,
                        "words": False,
                    },
                )
            ],
        ),
    ],
)
def test_chinese_names_filler_powers_and_dotted_numbers_are_read(prompt, parts):
    assert [(p.kind, p.params) for p in parse(prompt).parts] == parts


def test_a_chinese_name_is_cut_from_the_words_glued_before_it_or_not_guessed():
    (part,) = parse("创建一个叫说明.txt的文件").parts
    assert (part.kind, part.params["paths"]) == ("create", ["说明.txt"])
    assert parse("看看数据.csv").unclear  # glued, and '数' is a word too: no name is guessed
    (part,) = parse("看看 数据.csv").parts  # after a space the whole of it is the name
    assert (part.kind, part.params) == ("show", {"path": "数据.csv"})


@TOOLBOXES
@pytest.mark.parametrize(
    ("prompt", "after", "said"),
    [
        ("bump the version in version.txt", "1.4.10\n", "from 1.4.9 to 1.4.10"),
        ("bump the minor version in version.txt", "1.5.0\n", "from 1.4.9 to 1.5.0"),
        ("把 version.txt 的版本号加一", "1.4.10\n", "从 1.4.9 改成 1.4.10"),
        ("change the version in version.txt to 2.0.0", "2.0.0\n", "from 1.4.9 to 2.0.0"),
        ("what version is in version.txt?", "1.4.9\n", "The version in version.txt is 1.4.9."),
    ],
)
def test_a_version_number_is_read_and_changed_in_the_file(ws, toolbox, prompt, after, said):
    (ws.root / "version.txt").write_text("1.4.9\n")
    (answer,), _ = run(ws, toolbox, prompt)
    assert (ws.root / "version.txt").read_text() == after and said in answer


@pytest.mark.parametrize(
    ("prompt", "said"),
    [
        ("what port is in config.json?", "In config.json, port is 8080:"),
        ("config.json 里的端口是多少", "config.json 里 port 的值是 8080："),
        ("what is the value of debug in config.json?", "In config.json, debug is true:"),
        ("what is the timeout in config.json?", "I can't do this offline: I found no setting"),
    ],
)
def test_a_setting_is_read_from_the_config_file_or_declined(ws, prompt, said):
    (ws.root / "config.json").write_text('{"debug": true, "server": {"port": 8080}}\n')
    (answer,), _ = run(ws, s02_tools, prompt)
    assert answer.startswith(said)
    assert (ws.root / "config.json").read_text() == '{"debug": true, "server": {"port": 8080}}\n'


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt", ["删掉所有 txt 文件，除了 c.txt", "delete all .txt files except c.txt"]
)
def test_an_exception_after_a_delete_by_kind_keeps_that_file(ws, toolbox, prompt):
    for name in ("a.txt", "b.txt", "c.txt"):
        (ws.root / name).write_text("x\n")
    run(ws, toolbox, prompt)
    assert sorted(p.name for p in ws.root.iterdir()) == ["c.txt"]


def test_an_exception_no_part_can_take_stops_the_request():
    assert parse("创建 a.txt，除了 b.txt").unclear == "except"


@pytest.mark.parametrize(
    ("prompt", "parts"),
    [
        ("2 ** 10", [("math", {"expr": "2 ** 10", "value": 1024})]),
        ("看 log.txt 第2行，不对，第3行", [("show", {"path": "log.txt", "lines": [3, 3]})]),
        ("删除 a.txt，不对，是 b.txt", [("delete", {"paths": ["b.txt"]})]),
        ("这里有没有空文件", [("pick", {"by": "empty"})]),
        ("如果 log.txt 存在，数一下它有几行", [("count", {"unit": "lines", "paths": ["log.txt"]})]),
        (
            "先看一下 version.txt 里的版本号，再把它改成 1.0.1",
            [
                ("version", {"path": "version.txt", "to": None, "bump": None}),
                ("version", {"path": "version.txt", "to": "1.0.1", "bump": None}),
            ],
        ),
    ],
)
def test_corrections_conditions_and_follow_ups_of_the_new_frames(prompt, parts):
    assert [(p.kind, p.params) for p in parse(prompt).parts] == parts


@pytest.mark.parametrize("prompt", ["where's readme.md?", "有没有 readme.md 这个文件"])
def test_where_is_a_file_finds_it_below_the_root(ws, prompt):
    (ws.root / "docs").mkdir()
    (ws.root / "docs" / "readme.md").write_text("# docs\n")
    (said,), _ = run(ws, s02_tools, prompt)
    assert "docs/readme.md" in said


@pytest.mark.parametrize(
    ("first", "then"),
    [("which file mentions TODO?", "delete it"), ("哪些文件提到了 TODO", "嗯，把它删了")],
)
def test_it_is_the_one_file_the_last_answer_found(ws, first, then):
    (ws.root / "notes.txt").write_text("TODO: x\n")
    (ws.root / "keep.txt").write_text("nothing\n")
    history: list = []
    run(ws, s02_tools, first, history=history)
    run(ws, s02_tools, then, history=history)
    assert sorted(p.name for p in ws.root.iterdir()) == ["keep.txt"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("prompt", ["how many commits are there?", "有几次提交"])
def test_the_number_of_commits_is_counted_by_git(ws, prompt):
    subprocess.run(["git", "init", "-q"], cwd=ws.root, check=True)
    for n in (1, 2):
        subprocess.run(
            [
                "git",
                "-c",
                "user.name=L",
                "-c",
                "user.email=l@x",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                f"c{n}",
            ],
            cwd=ws.root,
            check=True,
        )
    (said,), _ = run(ws, s02_tools, prompt)
    assert said in ("This repository has 2 commits.", "这个仓库一共有 2 次提交。")


@pytest.mark.parametrize(
    ("prompt", "command"),
    [("tail log.txt", "tail log.txt"), ("head -n 3 log.txt", "head -n 3 log.txt")],
)
def test_head_and_tail_typed_as_commands_run_as_typed(prompt, command):
    assert [(p.kind, p.params) for p in parse(prompt).parts] == [("run", {"command": command})]
    assert parse("head of log.txt").unclear  # not a command line: nothing is guessed
