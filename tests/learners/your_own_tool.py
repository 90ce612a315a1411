"""Notebook 05: exercise 8 (your tool by hand) and 9 (the same with @tool)."""

from __future__ import annotations

from . import right, wrong

WORD_COUNT = """
TOOL_NAME = "word_count"
EXAMPLE = {"text": "One loop and bash is all you need"}


def my_tool(text: str) -> str:
    return str(len(text.split()))


MY_TOOL = {
    "name": TOOL_NAME,
    "description": "Count the words in a text. Use it instead of counting yourself.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
"""


def by_hand(old: str, new: str) -> str:
    """The word counter with one slip."""
    assert old in WORD_COUNT, old
    return WORD_COUNT.replace(old, new)


OWN_TOOL = [
    wrong("prints", "print", by_hand("return str(len(text.split()))", "print(len(text.split()))")),
    wrong(
        "returns_an_int",
        "str",
        by_hand("return str(len(text.split()))", "return len(text.split())"),
    ),
    wrong(
        "required_names_a_missing_property",
        "txt",
        by_hand('"required": ["text"]', '"required": ["txt"]'),
    ),
    wrong(
        "name_with_a_space", "name", by_hand('TOOL_NAME = "word_count"', 'TOOL_NAME = "word count"')
    ),
    wrong("schema_name_differs", "wordcount", by_hand('"name": TOOL_NAME', '"name": "wordcount"')),
    wrong(
        "argument_renamed",
        "words",
        by_hand(
            "def my_tool(text: str) -> str:\n    return str(len(text.split()))",
            "def my_tool(words: str) -> str:\n    return str(len(words.split()))",
        ),
    ),
    wrong(
        "raises_on_the_example",
        "ValueError",
        by_hand("return str(len(text.split()))", "return str(int(text))"),
    ),
    wrong(
        "empty_description",
        "description",
        by_hand('"Count the words in a text. Use it instead of counting yourself."', '""'),
    ),
    wrong(
        "example_uses_another_key",
        "EXAMPLE gives 'words'",
        by_hand('EXAMPLE = {"text":', 'EXAMPLE = {"words":'),
    ),
    wrong(
        "schema_not_an_object",
        "object",
        by_hand('{"type": "object", "properties"', '{"properties"'),
    ),
    wrong(
        "python_type_name",
        "JSON Schema does not know",
        by_hand('{"type": "string"}', '{"type": "str"}'),
    ),
    wrong(
        "example_not_a_dict",
        "dict",
        by_hand(
            'EXAMPLE = {"text": "One loop and bash is all you need"}',
            'EXAMPLE = "One loop and bash is all you need"',
        ),
    ),
    wrong(
        "kwargs_reads_the_wrong_key",
        "KeyError",
        by_hand(
            "def my_tool(text: str) -> str:\n    return str(len(text.split()))",
            'def my_tool(**kwargs) -> str:\n    return str(len(kwargs["words"].split()))',
        ),
    ),
    right(
        "celsius_number",
        """
TOOL_NAME = "celsius_to_fahrenheit"
EXAMPLE = {"celsius": 21.5}


def my_tool(celsius: float) -> str:
    return f"{celsius * 9 / 5 + 32:.1f} °F"


MY_TOOL = {
    "name": TOOL_NAME,
    "description": "Convert a temperature from degrees Celsius to degrees Fahrenheit.",
    "input_schema": {"type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]},
}
""",
    ),
    right(
        "reverse_with_an_optional_flag",
        """
TOOL_NAME = "reverse-text"
EXAMPLE = {"text": "loop"}


def my_tool(text, upper=False):
    out = text[::-1]
    return out.upper() if upper else out


MY_TOOL = {"name": TOOL_NAME, "description": "Reverse a string; set upper to get it in capitals.",
           "input_schema": {"type": "object", "required": ["text"],
                            "properties": {"text": {"type": "string"}, "upper": {"type": "boolean"}}}}
""",
    ),
    right(
        "line_count_of_a_workspace_file",
        """
ws.write_file("notes.txt", "one\\ntwo\\nthree\\n")
TOOL_NAME = "line_count"
EXAMPLE = {"path": "notes.txt"}


def my_tool(path: str) -> str:
    return f"{len(ws.read_file(path).splitlines())} lines"


MY_TOOL = {"name": TOOL_NAME, "description": "How many lines a workspace file has.",
           "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}
""",
    ),
    right(
        "kwargs_like_the_blank",
        by_hand(
            "def my_tool(text: str) -> str:\n    return str(len(text.split()))",
            'def my_tool(**kwargs) -> str:\n    return str(len(kwargs["text"].split()))',
        ),
    ),
]

DECORATED = '''
TOOL_NAME = "word_count"
EXAMPLE = {"text": "One loop and bash is all you need"}

from agentlib import tool


@tool(name=TOOL_NAME)
def my_tool_again(text: str) -> str:
    """Count the words in a text. Use it instead of counting yourself.

    Args:
        text: The text to count.
    """
    return str(len(text.split()))


toolbox = agentlib.s02_tools(ws).add(my_tool_again)
'''


def decorated(old: str, new: str) -> str:
    assert old in DECORATED, old
    return DECORATED.replace(old, new)


OWN_TOOL_DECORATED = [
    wrong(
        "function_name_is_not_the_tool_name",
        "word_count",
        decorated("@tool(name=TOOL_NAME)", "@tool"),
    ),
    wrong(
        "no_docstring",
        "description",
        decorated(
            '"""Count the words in a text. Use it instead of counting yourself.\n\n    Args:\n        text: The text to count.\n    """\n',
            "",
        ),
    ),
    wrong(
        "prints", "print", decorated("return str(len(text.split()))", "print(len(text.split()))")
    ),
    wrong(
        "wrong_type_hint",
        "integer",
        decorated("def my_tool_again(text: str)", "def my_tool_again(text: int)"),
    ),
    wrong("not_added", "word_count", decorated(".add(my_tool_again)", "")),
    wrong(
        "returns_an_int",
        "str",
        decorated("return str(len(text.split()))", "return len(text.split())"),
    ),
    wrong(
        "the_function_not_a_toolbox",
        "toolbox",
        decorated("toolbox = agentlib.s02_tools(ws).add(my_tool_again)", "toolbox = my_tool_again"),
    ),
    wrong(
        "raises_on_the_example",
        "ValueError",
        decorated("return str(len(text.split()))", "return str(int(text))"),
    ),
    wrong(
        "argument_named_unlike_the_example",
        "text",
        decorated("def my_tool_again(text: str) -> str:", "def my_tool_again(words: str) -> str:")
        .replace("return str(len(text.split()))", "return str(len(words.split()))")
        .replace("text: The text", "words: The text"),
    ),
    right(
        "function_named_like_the_tool",
        '''
TOOL_NAME = "word_count"
EXAMPLE = {"text": "One loop and bash is all you need"}

from agentlib import tool


@tool
def word_count(text: str) -> str:
    """Count the words of a text, split on whitespace."""
    return str(len(text.split()))


toolbox = agentlib.s02_tools(ws).add(word_count)
''',
    ),
    right(
        "celsius_added_to_the_setup_toolbox",
        '''
TOOL_NAME = "celsius_to_fahrenheit"
EXAMPLE = {"celsius": 21.5}

from agentlib import tool


@tool(name=TOOL_NAME)
def convert(celsius: float) -> str:
    """Convert degrees Celsius to degrees Fahrenheit.

    Args:
        celsius: The temperature in degrees Celsius.
    """
    return f"{celsius * 9 / 5 + 32:.1f} °F"


toolbox = s02.add(convert)
''',
    ),
    right(
        "plain_typed_function_added",
        decorated("@tool(name=TOOL_NAME)\ndef my_tool_again", "def word_count").replace(
            ".add(my_tool_again)", ".add(word_count)"
        ),
    ),
]

ANSWERS = {"ex8_own_tool": OWN_TOOL, "ex9_own_tool_decorated": OWN_TOOL_DECORATED}
