"""The checks of notebooks 03 to 05 (the dispatch map, the edit, the glob, your own tool): mistakes named, right answers passed."""

from __future__ import annotations

from pathlib import Path

import pytest
from verdicts import assert_verdict, blank, friendly_checks  # noqa: F401

from agentlib import Workspace, s02_tools, tool
from agentlib.course.checks import (
    BLANK,
    NOT_YET,
    WORKS,
    check_dispatch_map,
    check_edit_refuses_duplicates,
    check_own_tool,
    check_safe_glob,
)

# --- s02 -----------------------------------------------------------------------------------


@pytest.fixture
def s02(tmp_path):
    ws = Workspace(tmp_path)
    return ws, s02_tools(ws)


def test_dispatch_map_blank_mismatch_broken_and_right(s02):
    ws, box = s02
    four = [t for t in box.TOOLS if t["name"] != "glob"]
    handlers = {k: v for k, v in box.TOOL_HANDLERS.items() if k != "glob"}
    assert_verdict(check_dispatch_map([*four, ...], {**handlers, "glob": ...}), BLANK)
    assert_verdict(
        check_dispatch_map(box.TOOLS, handlers),
        NOT_YET,
        "'glob' is in TOOLS but not in TOOL_HANDLERS",
    )
    swapped = {**box.TOOL_HANDLERS, "edit_file": box.TOOL_HANDLERS["write_file"]}
    assert_verdict(check_dispatch_map(box.TOOLS, swapped), NOT_YET)
    assert_verdict(
        check_dispatch_map(box.TOOLS, box.TOOL_HANDLERS),
        WORKS,
        "write_file, edit_file, read_file, glob, bash",
    )
    assert not list(ws.root.glob("dispatch-check-*"))


def seed_edit(root: Path, refuse_duplicates: bool, confined: bool = True):
    def run_edit(path: str, old_text: str, new_text: str) -> str:
        fp = (root / path).resolve()
        if confined and not fp.is_relative_to(root.resolve()):  # the seed's safe_path
            return f"Error: Path escapes workspace: {path}"
        content = fp.read_text()
        count = content.count(old_text)
        if count == 0:
            return f"Error: Text not found in {path}"
        if refuse_duplicates and count > 1:
            return f"Error: found {count} times"
        fp.write_text(content.replace(old_text, new_text, 1))
        return f"Edited {path}"

    return run_edit


def test_edit_check(tmp_path):
    assert_verdict(check_edit_refuses_duplicates(blank, tmp_path), BLANK)
    assert_verdict(check_edit_refuses_duplicates(seed_edit(tmp_path, False), tmp_path), NOT_YET,
                   "the file with two matches was changed", "that says how many (2)")  # fmt: skip
    assert_verdict(check_edit_refuses_duplicates(seed_edit(tmp_path, True), tmp_path), WORKS, "'Error: found 2 times'")  # fmt: skip
    assert_verdict(check_edit_refuses_duplicates(seed_edit(tmp_path, True, confined=False), tmp_path), NOT_YET, "a file beside the workspace", "safe_path(path)")  # fmt: skip
    assert list(tmp_path.iterdir()) == []  # the check leaves the workspace as it found it


def test_safe_glob_check(tmp_path):
    root = tmp_path.resolve()

    def naive(pattern: str) -> str:
        import glob

        return "\n".join(sorted(glob.glob(str(root / pattern))))

    def safe(pattern: str) -> str:
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            return "Error: outside"
        return "\n".join(sorted(str(p.relative_to(root)) for p in root.glob(pattern)))

    assert_verdict(check_safe_glob(blank, tmp_path), BLANK)
    assert_verdict(check_safe_glob(naive, tmp_path), NOT_YET, "(relative to the workspace)", "'/etc/host*' reaches outside")  # fmt: skip
    assert_verdict(check_safe_glob(safe, tmp_path), WORKS, "the model read 'Error: outside'")
    assert not (tmp_path / "glob-check").exists()


def glob_confined_by(root: Path, inside):
    """A glob that refuses a pattern unless ``inside(resolved, root)``; matches relative to ``root``."""

    def run_glob(pattern: str) -> str:
        if not inside((root / pattern).resolve(), root):
            return "Error: outside the workspace"
        return "\n".join(sorted(str(p.relative_to(root)) for p in root.glob(pattern)))

    return run_glob


def test_safe_glob_string_prefix_leaks_into_a_sibling_folder(tmp_path):
    # this answer got "It works ... escapes are refused", and it returns ../<ws>-evil/stolen.txt
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    prefix = glob_confined_by(root, lambda path, root: str(path).startswith(str(root)))
    verdict = check_safe_glob(prefix, root)
    assert_verdict(verdict, NOT_YET, "'../ws-evil/*' reaches 'ws-evil', a folder beside the workspace",
                   "compare paths with Path.is_relative_to, not strings with startswith")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]  # the sibling is gone again


def test_safe_glob_is_relative_to_passes_and_a_taken_sibling_name_is_left_alone(tmp_path):
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    (tmp_path / "ws-evil").mkdir()
    (tmp_path / "ws-evil" / "mine.txt").write_text("not the check's\n")
    relative = glob_confined_by(root, lambda path, root: path.is_relative_to(root))
    assert_verdict(check_safe_glob(relative, root), WORKS, "4 escapes (one into 'ws-evil-")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws", "ws-evil"]
    assert (tmp_path / "ws-evil" / "mine.txt").read_text() == "not the check's\n"


# --- your own tool -------------------------------------------------------------------------


def schema_for(name: str, arg: str = "text") -> dict:
    return {"name": name, "description": "Does one small thing.",
            "input_schema": {"type": "object", "properties": {arg: {"type": "string"}}, "required": [arg]}}  # fmt: skip


@pytest.mark.parametrize("name", ["word_count", "reverse-it", "c2f"])
def test_own_tool_works_for_any_name(s02, name):
    _, box = s02
    verdict = check_own_tool([*box.TOOLS, schema_for(name)], {**box.TOOL_HANDLERS, name: lambda text: text[::-1]},
                             name=name, example={"text": "abc"})  # fmt: skip
    assert_verdict(verdict, WORKS, f"{name}({{'text': 'abc'}}) -> 'cba'", f"'{name} answered: cba'")


def test_own_tool_mistakes_are_named(s02):
    _, box = s02
    tools = [*box.TOOLS, schema_for("shout")]
    assert_verdict(check_own_tool(tools, {**box.TOOL_HANDLERS, "shout": blank}, name="shout", example={"text": "a"}), BLANK)  # fmt: skip
    assert_verdict(
        check_own_tool([*box.TOOLS, ...], box.TOOL_HANDLERS, name=..., example=...), BLANK
    )
    prints = check_own_tool(
        tools,
        {**box.TOOL_HANDLERS, "shout": lambda text: print(text)},
        name="shout",
        example={"text": "a"},
    )
    assert_verdict(prints, NOT_YET, "prints its result instead of returning it")
    spaced = [*box.TOOLS, schema_for("shout it")]
    assert_verdict(check_own_tool(spaced, {**box.TOOL_HANDLERS, "shout it": str.upper}, name="shout it", example={"text": "a"}), NOT_YET)  # fmt: skip
    assert_verdict(check_own_tool(tools, box.TOOL_HANDLERS, name="shout", example="a"), NOT_YET, "EXAMPLE should be a dict")  # fmt: skip


@tool
def word_count(text: str) -> str:
    """Count the words in a text.

    Args:
        text: The text to count.
    """
    return str(len(text.split()))


def test_own_tool_a_tool_alone_says_what_to_write(s02):
    # `toolbox = my_tool` (forgot .add) crashed the check cell with TypeError: 'Tool' object is not iterable
    for alone in (word_count, word_count.handler):
        verdict = check_own_tool(alone, None, name="word_count", example={"text": "a b"})
        assert_verdict(
            verdict,
            NOT_YET,
            "alone, not a toolbox",
            "`toolbox = agentlib.s02_tools(ws).add(word_count)`",
        )
    _, box = s02
    assert_verdict(
        check_own_tool(box.TOOLS[0], None, name="bash", example={}),
        NOT_YET,
        "`TOOLS = s02.TOOLS + [MY_TOOL]`",
    )
    box.add(word_count)
    assert_verdict(
        check_own_tool(box, None, name="word_count", example={"text": "a b"}), WORKS, "-> '2'"
    )


def test_own_tool_missing_from_the_toolbox_lists_the_names_it_has(s02):
    _, box = s02
    verdict = check_own_tool(box.add(word_count), None, name="words", example={"text": "a b"})
    assert_verdict(verdict, NOT_YET, "the toolbox has 'bash', 'read_file', 'write_file', 'edit_file', 'glob', 'word_count', but no 'words'",
                   "@tool(name=TOOL_NAME)")  # fmt: skip


def test_a_schema_without_description_is_refused_in_03_and_05_alike(s02):
    # 03 accepted it and 05 refused it
    _, box = s02
    bare = {**schema_for("shout"), "description": ""}
    handlers = {**box.TOOL_HANDLERS, "shout": str.upper}
    dispatch = check_dispatch_map([*box.TOOLS, bare], handlers)
    own = check_own_tool([*box.TOOLS, bare], handlers, name="shout", example={"text": "a"})
    rule = "'shout' has no description: the API accepts it, but the model decides when to use a tool by reading its description."
    assert_verdict(dispatch, NOT_YET, rule)
    assert_verdict(own, NOT_YET, rule)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_with_no_ascii_letter_gets_no_example_made_of_underscores(lang):
    from agentlib.tool_checks import tool_problems

    spec = {"name": "字数", "description": "数字数。", "input_schema": {"type": "object"}}
    words = " ".join(p.words for p in tool_problems([spec], lang))
    assert "字数" in words and "'__'" not in words, words
