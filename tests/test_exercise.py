"""check_exercise: every way a learner's tool breaks in the loop is said in words, whatever the tool is called."""

from __future__ import annotations

import subprocess
import sys

import anthropic
import pytest

from agentlib import Toolbox, tool
from agentlib.course import check_exercise
from agentlib.offline import offline_client


def schema(**props: str) -> dict:
    return {
        "type": "object",
        "properties": {p: {"type": t} for p, t in props.items()},
        "required": list(props),
    }


def spec(name: str, **props: str) -> dict:
    return {"name": name, "description": "Shout the text back.", "input_schema": schema(**props)}


def shout(text: str) -> str:
    return text.upper()


@tool
def line_count(text: str) -> str:
    """Count the lines of a text.

    Args:
        text: The text to count.
    """
    return str(len(text.splitlines()))


@pytest.mark.parametrize("name", ["shout", "Shout-2", "x", "a" * 128])
def test_a_correct_tool_passes_whatever_its_name(name):
    assert check_exercise([spec(name, text="string")], {name: shout}, name=name, example={"text": "hi"}) == []  # fmt: skip


def test_a_correct_toolbox_tool_passes():
    assert check_exercise(Toolbox([line_count]), name="line_count", example={"text": "a\nb"}) == []


def test_a_handler_that_prints_instead_of_returning():
    def shout_printed(text: str) -> None:
        print(text.upper())

    problems = check_exercise([spec("yell", text="string")], {"yell": shout_printed}, name="yell", example={"text": "hi"})  # fmt: skip
    assert problems == [
        "'yell' prints its result instead of returning it: the model never sees what a tool "
        "prints ('HI'), only what it returns, and it returned None, which the model reads as "
        "'(no output)'. Replace print(...) with return ..."
    ]


def test_a_handler_that_returns_nothing():
    problems = check_exercise([spec("yell", text="string")], {"yell": lambda text: None}, name="yell", example={"text": "hi"})  # fmt: skip
    assert problems == [
        "'yell' returned None, which the model reads as '(no output)': end the function with "
        "return and the result as a string."
    ]


@pytest.mark.parametrize(
    ("value", "shown", "model_reads"),
    [(3, "int 3", "'3'"), ({"words": 3}, "dict {'words': 3}", """'{"words": 3}'"""), (["a"], "list ['a']", """'["a"]'""")],
)  # fmt: skip
def test_a_handler_that_returns_a_non_string(value, shown, model_reads):
    problems = check_exercise([spec("tally", text="string")], {"tally": lambda text: value}, name="tally", example={"text": "a b c"})  # fmt: skip
    assert problems == [
        f"'tally' returned {shown}, not a string: the loop would turn it into the text "
        f"{model_reads} for the model. Return a string yourself (str(...), or json.dumps(...) "
        "for structured data), so you decide what the model reads."
    ]


@pytest.mark.parametrize(
    ("name", "why", "hint"),
    [
        ("word count", "it contains ' '", " (for example 'word_count')"),
        ("count.words!", "it contains '!', '.'", " (for example 'count_words_')"),
        ("zählen", "it contains 'ä'", " (for example 'z_hlen')"),
        ("w" * 129, "it is 129 characters long", ""),
        ("", "it is empty", ""),
    ],
)
def test_a_tool_name_the_api_refuses(name, why, hint):
    problems = check_exercise([spec(name, text="string")], {name: shout}, name=name, example={"text": "hi"})  # fmt: skip
    assert problems == [
        f"the API refuses the tool name {name!r}: {why}. A tool name must match "
        f"^[a-zA-Z0-9_-]{{1,128}}$, so pick another{hint}; until then every request that offers "
        "this tool gets 400 invalid_request_error."
    ]


@pytest.mark.parametrize("name", ["word count", "count.words!", "w" * 129, "line_count\n"])
def test_the_offline_api_refuses_the_names_the_check_refuses(name):
    assert check_exercise([spec(name, text="string")], {name: shout}, name=name) != []
    client, model = offline_client(max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match=r"tools\.0"):
        client.messages.create(
            model=model,
            max_tokens=50,
            messages=[{"role": "user", "content": "hi"}],
            tools=[spec(name, text="string")],
        )


def test_a_handler_missing_an_argument_the_schema_requires():
    problems = check_exercise([spec("grep_text", text="string", pattern="string")], {"grep_text": shout}, name="grep_text", example={"text": "a", "pattern": "a"})  # fmt: skip
    assert problems == ["'grep_text': schema property 'pattern' has no parameter in the handler."]


def test_a_handler_needing_an_argument_the_schema_never_asks_for():
    def grep_text(text: str, pattern: str) -> str:
        return text if pattern in text else ""

    problems = check_exercise([spec("grep_text", text="string")], {"grep_text": grep_text}, name="grep_text", example={"text": "a"})  # fmt: skip
    assert problems == [
        "'grep_text': the handler needs 'pattern', which the schema never asks for."
    ]


def test_a_handler_needing_an_argument_the_schema_makes_optional():
    optional = {**spec("shout", text="string"), "input_schema": {**schema(text="string"), "required": []}}  # fmt: skip
    problems = check_exercise([optional], {"shout": shout}, name="shout", example={"text": "hi"})
    assert problems == [
        "'shout': the handler needs 'text', but the schema does not list it in 'required', so "
        "the model may leave it out and the call would crash: add 'text' to 'required' (or give "
        "the parameter a default)."
    ]


def test_a_crash_on_the_example_input():
    def average_length(text: str) -> str:
        words = text.split()
        return str(sum(map(len, words)) / len(words))

    problems = check_exercise([spec("average_length", text="string")], {"average_length": average_length}, name="average_length", example={"text": ""})  # fmt: skip
    assert problems == [
        "calling 'average_length' with {'text': ''} fails, so the model would read an error: "
        "Error: average_length failed: ZeroDivisionError: division by zero"
    ]


def test_an_example_that_does_not_fit_the_schema():
    problems = check_exercise(Toolbox([line_count]), name="line_count", example={"lines": "a"})
    assert len(problems) == 1
    assert problems[0].startswith(
        "calling 'line_count' with {'lines': 'a'} fails, so the model would read an error: "
        "Error: invalid input for line_count:"
    )


def test_the_example_call_leaves_stdout_alone(capsys):
    def noisy(text: str) -> None:
        print("shown to nobody")

    check_exercise([spec("noisy", text="string")], {"noisy": noisy}, name="noisy", example={"text": "x"})  # fmt: skip
    assert capsys.readouterr().out == ""  # captured for the check, not printed into the cell


def test_a_function_put_into_tools_is_named():
    problems = check_exercise([spec("shout", text="string"), shout], {"shout": shout}, name="shout")
    assert problems == [
        "TOOLS[1] is a function: TOOLS holds one dict per tool, with its name, description and "
        "input_schema (a function goes into TOOL_HANDLERS)."
    ]


@pytest.mark.parametrize(("handler", "kind"), [("shout", "str"), (shout("hi"), "str"), (3, "int")])
def test_a_handler_that_is_not_a_function(handler, kind):
    problems = check_exercise([spec("shout", text="string")], {"shout": handler}, name="shout", example={"text": "hi"})  # fmt: skip
    assert problems == [
        f"TOOL_HANDLERS['shout'] is a {kind}, not a function: map the name to the function "
        "itself (no quotes, no call)."
    ]


def test_a_schema_without_a_name_is_named():
    nameless = {"description": "Shout.", "input_schema": schema(text="string")}
    problems = check_exercise([nameless], {"shout": shout}, name="shout")
    assert problems[0] == (
        "the tool name None is not a string: a tool's name is text, such as 'read_file'."
    )


def test_importing_the_course_helpers_loads_no_sdk():
    code = "import sys, agentlib.course; print(sorted({'anthropic', 'agentlib.offline'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"  # the tool-name rule is read from the simulator only when checked


def test_a_tool_missing_from_a_toolbox_lists_the_names_it_has():
    # a @tool named after its function, not TOOL_NAME, was only "in neither TOOLS nor TOOL_HANDLERS"
    problems = check_exercise(Toolbox([line_count]), name="lines", example={"text": "a"})
    assert problems == [
        "the toolbox has 'line_count', but no 'lines': add your tool with .add(your_function), named "
        "TOOL_NAME (a @tool takes its function's name unless you write @tool(name=TOOL_NAME))."
    ]


def test_a_tool_missing_from_the_two_structures_lists_what_they_hold():
    problems = check_exercise([spec("shout", text="string")], {"shout": shout}, name="yell")
    assert problems[0].endswith("TOOLS has 'shout'. TOOL_HANDLERS has 'shout'.")
