"""Two tasks in one request: conditions, 'the original' after a copy, a new file put in a folder, a failure.

An 'otherwise' runs only when the condition before it failed, on the same file, however the two
halves are joined ('otherwise', 'else,', 'if not', '没有的话', '不然'). Each case checks the
workspace after the request, not only the words of the answer.
"""

from __future__ import annotations

import pytest
from test_offline_grounding import TOOLBOXES, ask, files_after, plant

CONDITIONS = [
    # (files, prompt, file expected afterwards -> its text or None for absent, words in the answer)
    ({"notes.md": "a\nb\n"}, "if notes.md exists show it otherwise create it", {}, ["a", "b"]),
    ({}, "if notes.md exists show it otherwise create it", {"notes.md": ""}, []),
    ({}, "if todo.md exists show it, otherwise create it with the text hello", {"todo.md": "hello\n"}, []),
    ({"a.txt": "A\n", "b.txt": "B\n"}, "if a.txt exists, show it. else, delete b.txt", {"b.txt": "B\n"}, ["A"]),
    ({"b.txt": "B\n"}, "if a.txt exists, show it. else, delete b.txt", {"b.txt": None}, []),
    ({"a.txt": "A\n"}, "if a.txt exists, show it; otherwise, create b.txt", {"b.txt": None}, ["A"]),
    ({"a.txt": "A\n"}, "show a.txt if it exists, otherwise create b.txt", {"b.txt": None}, ["A"]),
    ({}, "show a.txt if it exists, otherwise create it", {"a.txt": ""}, []),
    ({"n.md": "one\ntwo\n"}, "if n.md exists, print its first line; if not, say so", {}, ["one"]),
    ({}, "如果有 todo.md 就显示它，没有的话，就新建一个", {"todo.md": ""}, []),
    ({"n.md": "1\n2\n"}, "要是 n.md 存在的话就数一下行数，不存在就告诉我", {}, ["2 行"]),
    ({"a.txt": "A\n"}, "如果 a.txt 存在，就删除它，不然，就创建 b.txt", {"a.txt": None, "b.txt": None}, []),
    ({}, "如果 a.txt 存在，就删除它，不然，就创建 b.txt", {"b.txt": ""}, []),
]  # fmt: skip


@TOOLBOXES
@pytest.mark.parametrize("files, prompt, after, said", CONDITIONS)
def test_otherwise_runs_only_when_the_condition_before_it_failed(
    tmp_path, toolbox, files, prompt, after, said
):
    plant(tmp_path, files)
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert files_after(tmp_path, after) == after, answer
    for name, text in files.items():
        if name not in after:
            assert (tmp_path / name).read_text() == text  # nothing else changed
    assert all(word in answer for word in said), answer
    assert "did nothing" not in answer and "什么都没做" not in answer  # the other half ran
    if "first line" in prompt:
        assert "two" not in answer  # only the first line, not the whole file after it


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "copy data.csv to backup.csv and then delete the original",
        "把 data.csv 复制成 backup.csv，然后删掉原来的文件",
    ],
)
def test_the_original_after_a_copy_is_the_file_it_copied(tmp_path, toolbox, prompt):
    plant(tmp_path, {"data.csv": "x,y\n"})
    ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "backup.csv").read_text() == "x,y\n"
    assert not (tmp_path / "data.csv").exists()


@TOOLBOXES
def test_the_original_after_a_move_is_declined_and_nothing_moves(tmp_path, toolbox):
    plant(tmp_path, {"a.txt": "A\n"})
    answer, calls = ask(tmp_path, toolbox, "rename a.txt to b.txt and show the original")
    assert calls == [] and (tmp_path / "a.txt").exists() and "original" in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "copy data.csv to backup.csv and then delete the original",
        "copy data.csv to b.csv, then delete keep.txt",
    ],
)
def test_after_a_step_fails_nothing_more_is_changed(tmp_path, toolbox, prompt):
    plant(tmp_path, {"keep.txt": "k\n", "sub/data.csv": "elsewhere\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "keep.txt").read_text() == "k\n"
    assert "did not do the rest" in answer


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt",
    [
        "create a folder named src, then put a file main.py in it",
        "make a folder src and put a new file main.py in it",
        "建一个 src 文件夹，在里面放一个 main.py",
    ],
)
def test_a_file_put_in_a_new_folder_with_an_article_is_a_new_file(tmp_path, toolbox, prompt):
    plant(tmp_path, {"main.py": "print('top')\n"})
    ask(tmp_path, toolbox, prompt)
    assert (tmp_path / "src" / "main.py").read_text() == ""  # made there, empty
    assert (tmp_path / "main.py").read_text() == "print('top')\n"  # not moved


@TOOLBOXES
def test_a_named_file_put_in_a_folder_is_still_moved(tmp_path, toolbox):
    plant(tmp_path, {"a.txt": "A\n"})
    ask(tmp_path, toolbox, "make a docs folder and put a.txt in it")
    assert (tmp_path / "docs" / "a.txt").read_text() == "A\n" and not (tmp_path / "a.txt").exists()


CORRECTIONS = [
    # (prompt, files afterwards: text, or None for absent)
    ("delete a.txt, no, show it", {"a.txt": "A\n"}),
    ("删除 a.txt，不对，给我看看它", {"a.txt": "A\n"}),
    ("rename a.txt to b.txt, no wait, to c.txt", {"a.txt": None, "b.txt": None, "c.txt": "A\n"}),
    ("把 a.txt 改名为 b.txt，不对，改成 c.txt", {"a.txt": None, "b.txt": None, "c.txt": "A\n"}),
    ("把 a.txt 重命名为 b.txt，哦不对，叫 c.txt", {"b.txt": None, "c.txt": "A\n"}),
    ("create n.txt with the text hi, actually no, with hello", {"n.txt": "hello\n"}),
    ("创建 n.txt，内容是 hi，不对，内容是 hello", {"n.txt": "hello\n"}),
]


@TOOLBOXES
@pytest.mark.parametrize("prompt, after", CORRECTIONS)
def test_a_correction_replaces_what_it_corrects(tmp_path, toolbox, prompt, after):
    plant(tmp_path, {"a.txt": "A\n"})
    ask(tmp_path, toolbox, prompt)
    assert files_after(tmp_path, after) == after


@TOOLBOXES
@pytest.mark.parametrize(
    "prompt, shows, hides",
    [
        ("show 2 lines of a.txt", ["one", "two"], ["three"]),
        ("show the first 3 lines of a.txt, no, 2 lines", ["one", "two"], ["three"]),
        ("a.txt 2行", ["one", "two"], ["three"]),
        ("show line 2 of a.txt", ["two"], ["one", "three"]),
        ("a.txt 第2行", ["two"], ["one", "three"]),
    ],
)
def test_n_lines_are_the_first_n_and_line_n_is_one_line(tmp_path, toolbox, prompt, shows, hides):
    plant(tmp_path, {"a.txt": "one\ntwo\nthree\nfour\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all(s in answer for s in shows) and not any(h in answer for h in hides), answer


@TOOLBOXES
@pytest.mark.parametrize("prompt", ["如果它存在就删掉它", "if it exists show it"])
def test_a_condition_on_it_with_no_file_named_before_is_declined(tmp_path, toolbox, prompt):
    plant(tmp_path, {"a.txt": "A\n"})
    answer, calls = ask(tmp_path, toolbox, prompt)
    assert calls == [] and (tmp_path / "a.txt").exists(), answer


EXCEPTIONS = [
    # (prompt, files that must stay, files that must go)
    ("delete all python files except x.py", ["src/x.py"], ["src/y.py", "top.py"]),
    ("删除所有 py 文件，除了 x.py", ["src/x.py"], ["src/y.py", "top.py"]),
    ("delete the .py files but not the ones in src", ["src/x.py", "src/y.py"], ["top.py"]),
    ("delete all python files except nothere.py", ["src/x.py", "src/y.py", "top.py"], []),
]


@TOOLBOXES
@pytest.mark.parametrize("prompt, kept, gone", EXCEPTIONS)
def test_an_exception_keeps_the_file_it_names_at_any_depth(tmp_path, toolbox, prompt, kept, gone):
    plant(tmp_path, {"src/x.py": "x\n", "src/y.py": "y\n", "top.py": "t\n", "a.txt": "a\n"})
    answer, _ = ask(tmp_path, toolbox, prompt)
    assert all((tmp_path / k).exists() for k in [*kept, "a.txt"]), answer
    assert not any((tmp_path / g).exists() for g in gone), answer


@TOOLBOXES
def test_a_listing_leaves_out_a_named_file_at_any_depth(tmp_path, toolbox):
    plant(tmp_path, {"src/x.py": "x\n", "src/y.py": "y\n"})
    answer, _ = ask(tmp_path, toolbox, "list the python files except x.py")
    assert "src/y.py" in answer and "x.py" not in answer.replace("except x.py", "")


@TOOLBOXES
def test_a_copy_into_a_folder_not_there_yet_makes_it_first(tmp_path, toolbox):
    plant(tmp_path, {"notes.md": "n\n"})
    ask(tmp_path, toolbox, "copy notes.md to backup/notes.md and then delete the original")
    assert (tmp_path / "backup" / "notes.md").read_text() == "n\n"
    assert not (tmp_path / "notes.md").exists()


@TOOLBOXES
def test_a_move_of_a_missing_file_makes_no_folder(tmp_path, toolbox):
    plant(tmp_path, {"a.txt": "a\n"})
    answer, _ = ask(tmp_path, toolbox, "move gone.txt to old/gone.txt")
    assert not (tmp_path / "old").exists() and "gone.txt" in answer
