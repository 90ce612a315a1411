"""@tool, Toolbox and dispatch: schemas from signatures, and every failure as an error result."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlib import Toolbox, ToolError, check_tools, tool


@tool(read_only=True)
def word_count(text: str, unique: bool = False) -> int:
    """Count the words in a piece of text.

    Args:
        text: The text to count.
        unique: Count each distinct word once.
    """
    words = text.split()
    return len(set(words)) if unique else len(words)


@tool
def explode(reason: str) -> str:
    """Always fail, as a handler with a bug does.

    Args:
        reason: What to say.
    """
    raise RuntimeError(reason)


@tool
def refuse(path: str) -> str:
    """Fail at the job, as a tool does when a file is missing.

    Args:
        path: A path.
    """
    raise ToolError(f"File not found: {path}")


def test_schema_comes_from_signature_and_docstring():
    assert word_count.spec == {
        "name": "word_count",
        "description": "Count the words in a piece of text.",
        "input_schema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The text to count."},
                "unique": {
                    "type": "boolean",
                    "default": False,
                    "description": "Count each distinct word once.",
                },
            },
            "required": ["text"],
            "additionalProperties": False,
        },
    }


def test_a_tool_stays_callable():
    assert word_count("a b a") == 3
    assert word_count("a b a", unique=True) == 2


def test_tools_and_handlers_are_views_of_one_list():
    box = Toolbox([word_count])
    assert [s["name"] for s in box.TOOLS] == list(box.TOOL_HANDLERS) == ["word_count"]
    box.add(explode)
    assert [s["name"] for s in box.TOOLS] == list(box.TOOL_HANDLERS) == ["word_count", "explode"]


def test_a_plain_typed_function_can_be_added():
    def shout(text: str) -> str:
        """Upper-case the text.

        Args:
            text: What to shout.
        """
        return text.upper()

    box = Toolbox().add(shout)
    assert box.dispatch("shout", {"text": "hi"}).content == "HI"


@pytest.mark.parametrize(
    ("fn_src", "message"),
    [
        ("def f(x: int) -> int:\n    return x\n", "needs a docstring"),
        ("def f(x) -> int:\n    '''Doc.'''\n    return x\n", "needs a type hint"),
        ("def f(**kw: int) -> int:\n    '''Doc.'''\n    return 1\n", "cannot be described"),
    ],
)
def test_undescribable_functions_are_refused_with_a_reason(fn_src, message):
    ns: dict = {}
    exec(fn_src, ns)
    with pytest.raises(TypeError, match=message):
        tool(ns["f"])


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="already"):
        Toolbox([word_count, word_count])


@pytest.mark.parametrize(
    ("name", "tool_input", "expected"),
    [
        ("word_count", {"text": "a b"}, ("2", False)),
        (
            "nope",
            {},
            ("Error: Unknown tool: nope. Available tools: word_count, explode, refuse.", True),
        ),
        ("word_count", {}, ("Error: invalid input for word_count: text: Field required", True)),
        (
            "word_count",
            {"text": "a", "colour": "red"},
            ("Error: invalid input for word_count: colour: Extra inputs are not permitted", True),
        ),
        ("explode", {"reason": "bug"}, ("Error: explode failed: RuntimeError: bug", True)),
        ("refuse", {"path": "x.txt"}, ("Error: File not found: x.txt", True)),
    ],
)
def test_dispatch_turns_every_failure_into_an_error_result(name, tool_input, expected):
    box = Toolbox([word_count, explode, refuse])
    outcome = box.dispatch(name, tool_input)
    assert (outcome.content, outcome.is_error) == expected


def bash_handler(command):
    return f"ran {command}"


SEED_TOOLS = [
    {
        "name": "bash",
        "description": "Run a shell command.",
        "input_schema": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    }
]


def test_hand_written_tools_are_checked_against_their_schema():
    box = Toolbox.from_dicts(SEED_TOOLS, {"bash": bash_handler})
    assert box.dispatch("bash", {"command": "ls"}).content == "ran ls"
    assert box.dispatch("bash", {}).content == (
        "Error: invalid input for bash: missing required field 'command'"
    )
    assert box.dispatch("bash", {"command": 3}).content == (
        "Error: invalid input for bash: field 'command' must be string, got int"
    )


def test_check_tools_names_every_mismatch():
    tools = [*SEED_TOOLS, {"name": "read_file", "input_schema": {"type": "object"}}]
    handlers = {"bash": lambda path: path, "glob": lambda pattern: pattern}
    assert check_tools(tools, handlers) == [
        "'read_file' is in TOOLS but not in TOOL_HANDLERS: the model will call it and get 'Unknown tool'.",
        "'glob' is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists.",
        "'bash': schema property 'command' has no parameter in the handler.",
        "'bash': the handler needs 'path', which the schema never asks for.",
    ]


def test_check_tools_accepts_the_seeds_kw_lambdas():
    assert check_tools(SEED_TOOLS, {"bash": lambda **kw: kw["command"]}) == []


def test_from_dicts_refuses_a_mismatch_with_every_reason():
    with pytest.raises(ValueError, match="not in TOOL_HANDLERS"):
        Toolbox.from_dicts(SEED_TOOLS, {})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["word_count", "explode", "refuse", "bash", "", "x" * 70]),
    data=json_values,
)
def test_dispatch_never_raises_whatever_the_model_sends(name, data):
    box = Toolbox([word_count, explode, refuse])
    box.add(Toolbox.from_dicts(SEED_TOOLS, {"bash": bash_handler})["bash"])
    outcome = box.dispatch(name, data)
    assert isinstance(outcome.content, str) and outcome.content
    if outcome.is_error:
        assert outcome.content.startswith("Error: ")


BAD_SPECS = [
    ({**SEED_TOOLS[0], "name": "run bash"}, "tool-name-pattern"),
    ({**SEED_TOOLS[0], "name": 7}, "tool-name-pattern"),
    ({k: v for k, v in SEED_TOOLS[0].items() if k != "name"}, "field-required"),
    ({k: v for k, v in SEED_TOOLS[0].items() if k != "input_schema"}, "field-required"),
    ({**SEED_TOOLS[0], "description": 3}, "field-type"),
    ({**SEED_TOOLS[0], "input_schema": {"type": "string"}}, "tool-input-schema"),
    ({**SEED_TOOLS[0], "input_schema": []}, "tool-input-schema"),
]


@pytest.mark.parametrize(("spec", "rule"), BAD_SPECS)
def test_the_offline_api_and_check_tools_refuse_a_tool_by_the_same_rule(spec, rule):
    import anthropic

    from agentlib.offline import offline_client
    from agentlib.tool_checks import tool_problems

    (problem,) = tool_problems([spec])
    assert problem.rule == rule and problem.api
    assert problem.words in check_tools([spec], {spec.get("name"): lambda command: command})
    client, model = offline_client(max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.create(
            model=model, max_tokens=50, messages=[{"role": "user", "content": "hi"}], tools=[spec]
        )
    assert refused.value.body["error"]["message"] == problem.api


def test_two_tools_of_one_name_are_refused_once():
    from agentlib.tool_checks import tool_problems

    problems = tool_problems(SEED_TOOLS * 2)
    assert [p.rule for p in problems] == ["tool-names-unique"]
    assert check_tools(SEED_TOOLS * 2, {"bash": lambda command: command}) == [
        "'bash' appears 2 times in TOOLS; tool names must be unique."
    ]


def test_a_tool_without_description_is_accepted_by_the_api_with_advice():
    from agentlib.course import check_exercise
    from agentlib.offline import offline_client
    from agentlib.tool_checks import tool_problems

    bare = {k: v for k, v in SEED_TOOLS[0].items() if k != "description"}
    (advice,) = tool_problems([bare])
    assert advice.api is None and "no description" in advice.words
    assert check_tools([bare], {"bash": lambda command: command}) == []  # no API rule broken
    # the course's exercise checks (03 and 05) refuse it, in the same words
    assert check_exercise([bare], {"bash": lambda command: command}, name="bash") == [advice.words]
    client, model = offline_client(max_retries=0)
    client.messages.create(
        model=model, max_tokens=50, messages=[{"role": "user", "content": "hi"}], tools=[bare]
    )  # the API accepts it: no BadRequestError


def test_a_function_in_tools_is_named_instead_of_crashing_check_tools():
    assert check_tools([*SEED_TOOLS, word_count.handler], {"bash": lambda command: command}) == [
        "TOOLS[1] is a function: TOOLS holds one dict per tool, with its name, description and "
        "input_schema (a function goes into TOOL_HANDLERS)."
    ]


def test_tool_reads_the_docstring_as_the_sdk_does():
    import anthropic

    def grep_text(text: str, pattern: str = "a") -> str:
        """Find lines that contain a pattern.

        Returns:
            The matching lines.

        Arguments:
            text: The text to search,
                one line or many.
            pattern: What to look for.
        """
        return "\n".join(line for line in text.splitlines() if pattern in line)

    ours, sdks = tool(grep_text).spec, anthropic.beta_tool(grep_text).to_dict()
    assert ours["description"] == sdks["description"] == "Find lines that contain a pattern."
    for arg in ("text", "pattern"):
        described = sdks["input_schema"]["properties"][arg]["description"]
        assert ours["input_schema"]["properties"][arg]["description"] == described


def test_an_sdk_tool_joins_a_toolbox_and_runs_through_dispatch():
    import anthropic

    @anthropic.beta_tool
    def add(a: int, b: int) -> str:
        """Add two numbers.

        Args:
            a: The first.
            b: The second.
        """
        return str(a + b)

    box = Toolbox([add, word_count])
    assert box.TOOLS[0] == {k: add.to_dict()[k] for k in ("name", "description", "input_schema")}
    assert box.dispatch("add", {"a": 2, "b": 3}).content == "5"
    outcome = box.dispatch("add", {"a": "two"})
    assert outcome.is_error and "invalid input for add" in outcome.content
    assert check_tools(box.TOOLS, box.TOOL_HANDLERS) == []


def test_the_sdks_tool_error_is_a_tools_message_to_the_model_like_the_courses():
    from anthropic.lib.tools import ToolError as SdkToolError

    @tool
    def disk_check(path: str) -> str:
        """Say whether the disk holding a path has room.

        Args:
            path: Any path on the disk.
        """
        raise SdkToolError([{"type": "text", "text": f"the disk holding {path} is full"}])

    outcome = Toolbox([disk_check]).dispatch("disk_check", {"path": "/tmp"})
    assert outcome.is_error
    assert outcome.content == "Error: the disk holding /tmp is full"


def test_async_tools_from_the_sdk_or_async_def_run_to_their_result():
    import asyncio

    import anthropic

    @anthropic.beta_async_tool
    async def later(text: str) -> str:
        """Answer after a pause.

        Args:
            text: What to answer.
        """
        await asyncio.sleep(0)
        return text.upper()

    @tool
    async def soon(text: str) -> str:
        """Answer after a pause.

        Args:
            text: What to answer.
        """
        return text[::-1]

    box = Toolbox([later, soon])
    assert box.dispatch("later", {"text": "hi"}).content == "HI"
    assert box.dispatch("soon", {"text": "hi"}).content == "ih"

    async def inside_a_running_loop():  # as in a notebook's kernel
        return box.dispatch("soon", {"text": "ab"}).content

    assert asyncio.run(inside_a_running_loop()) == "ba"


def test_an_instructors_sdk_tool_is_loaded_from_extra_tools(tmp_path, monkeypatch):
    from agentlib.course.parameters import load_tools

    (tmp_path / "sdktools.py").write_text(
        "import anthropic\n\n"
        "@anthropic.beta_tool\n"
        "def shout(text: str) -> str:\n"
        '    """Shout it.\n\n    Args:\n        text: The text.\n    """\n'
        "    return text.upper()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (loaded,) = load_tools("sdktools:shout")
    assert Toolbox([loaded]).dispatch("shout", {"text": "hey"}).content == "HEY"


def test_not_a_tool_is_a_clear_error():
    with pytest.raises(TypeError, match="not a tool: 3"):
        Toolbox([3])


def test_a_type_hint_naming_nothing_is_said_in_words():
    namespace: dict = {}
    exec(  # a module with postponed annotations whose hint names nothing it imports
        "from __future__ import annotations\n"
        "def lookup(key: Missing) -> str:\n"
        '    """Look a key up.\n\n    Args:\n        key: The key.\n    """\n'
        "    return ''\n",
        namespace,
    )
    with pytest.raises(TypeError, match="lookup: a type hint names 'Missing'"):
        tool(namespace["lookup"])


def test_the_exercise_checks_refuse_a_tool_without_description_in_the_shared_words():
    from agentlib.course.checks import check_own_tool
    from agentlib.tool_checks import tool_problems

    bare = {"name": "shout", "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}  # fmt: skip
    verdict = check_own_tool([bare], {"shout": lambda text: text.upper()}, name="shout", example={"text": "hi"})  # fmt: skip
    assert not verdict.ok, verdict
    assert [p.words for p in tool_problems([bare])] == [
        "'shout' has no description: the API accepts it, but the model decides when to use a "
        "tool by reading its description."
    ]
    assert "the model decides when to use a tool by reading its description" in " ".join(
        str(verdict).split()
    )
