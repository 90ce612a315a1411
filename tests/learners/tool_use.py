"""Notebook 03: exercise 5 (an edit that refuses duplicates) and 6 (registering glob)."""

from __future__ import annotations

from . import right, wrong

EDIT = """
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    try:
        fp = safe_path(path)
        content = fp.read_text()
        count = content.count(old_text)
        if count == 0:
            return f"Error: Text not found in {path}"
        if count > 1:
            return f"Error: old_text occurs {count} times in {path}; add context to pick one"
        fp.write_text(content.replace(old_text, new_text, 1))
        return f"Edited {path}"
    except Exception as e:
        return f"Error: {e}"
"""


def edit(old: str, new: str) -> str:
    """The solution with one piece changed: a learner's slip."""
    assert old in EDIT, old
    return EDIT.replace(old, new)


EDIT_ONCE = [
    wrong(
        "joins_the_path_without_safe_path",
        "safe_path(path)",
        edit("fp = safe_path(path)", "fp = WORKDIR / path"),
    ),
    wrong(
        "seed_unchanged",
        "two matches was changed",
        edit(
            '        if count > 1:\n            return f"Error: old_text occurs {count} times in {path}; add context to pick one"\n',
            "",
        ),
    ),
    wrong(
        "refuses_without_the_count",
        "how many",
        edit("occurs {count} times in", "occurs more than once in"),
    ),
    wrong(
        "replaces_them_all",
        "two matches was changed",
        edit(
            'return f"Error: old_text occurs {count} times in {path}; add context to pick one"',
            "fp.write_text(content.replace(old_text, new_text))\n"
            '            return f"Error: old_text occurs {count} times in {path}; replaced all"',
        ),
    ),
    wrong(
        "refuses_a_single_match",
        "found once should still be replaced",
        edit("if count > 1:", "if count >= 1:"),
    ),
    wrong(
        "writes_before_counting",
        "two matches was changed",
        edit(
            "content = fp.read_text()\n",
            "content = fp.read_text()\n"
            "        fp.write_text(content.replace(old_text, new_text, 1))\n",
        ),
    ),
    wrong(
        "no_match_reads_as_success",
        "not found at all should still be an error",
        edit('        if count == 0:\n            return f"Error: Text not found in {path}"\n', ""),
    ),
    wrong(
        "raises_instead_of_returning",
        "instead of raising",
        """
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    fp = safe_path(path)
    content = fp.read_text()
    count = content.count(old_text)
    if count != 1:
        raise ValueError(f"old_text occurs {count} times in {path}")
    fp.write_text(content.replace(old_text, new_text))
    return f"Edited {path}"
""",
    ),
    wrong(
        "counts_the_wrong_thing",
        "how many",
        edit("occurs {count} times", "occurs {len(old_text)} times"),
    ),
    wrong(
        "path_not_in_the_workspace", "safe_path", edit("fp = safe_path(path)", "fp = Path(path)")
    ),
    wrong("success_returns_nothing", "text", edit('return f"Edited {path}"', "pass")),
    right(
        "split_counts_and_no_try",
        """
def run_edit_once(path, old_text, new_text):
    try:
        target = safe_path(path)
        text = target.read_text()
    except (OSError, ValueError) as problem:
        return f"Error: {problem}"
    n = len(text.split(old_text)) - 1
    if n != 1:
        return f"Error: expected exactly one match of old_text in {path}, found {n}"
    target.write_text(text.replace(old_text, new_text))
    return f"Edited {path}"
""",
    ),
    right(
        "refusal_worded_without_error",
        edit(
            'return f"Error: old_text occurs {count} times in {path}; add context to pick one"',
            'return f"Refused: {old_text!r} appears {count} times in {path}; quote more lines so it matches once."',
        ),
    ),
    right(
        "with_open",
        """
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    try:
        with open(safe_path(path)) as f:
            before = f.read()
        hits = before.count(old_text)
        if hits > 1:
            return f"Error: ambiguous edit, {hits} matches in {path}"
        if hits == 0:
            return f"Error: Text not found in {path}"
        with open(safe_path(path), "w") as f:
            f.write(before.replace(old_text, new_text, 1))
        return f"Edited {path}"
    except Exception as e:
        return f"Error: {e}"
""",
    ),
]

SCHEMA = (
    '{"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]}'
)


def register(
    schema: str = SCHEMA,
    handler: str = 'lambda **kw: run_glob(kw["pattern"])',
    name: str = "glob",
    description: str = '"Find files matching a glob pattern."',
) -> str:
    return f"""
GLOB_TOOL = {{"name": "{name}", "description": {description},
             "input_schema": {schema}}}
glob_handler = {handler}
"""


REGISTER_GLOB = [
    wrong("name_misspelled", "glob_files", register(name="glob_files")),
    wrong(
        "required_names_a_missing_property",
        "pattern",
        register(schema=SCHEMA.replace('"pattern": {', '"patern": {')),
    ),
    wrong(
        "schema_not_an_object", "type", register(schema=SCHEMA.replace('"type": "object", ', ""))
    ),
    wrong(
        "handler_takes_a_dict", "keyword", register(handler='lambda kw: run_glob(kw["pattern"])')
    ),
    wrong(
        "handler_reads_the_wrong_key", "path", register(handler='lambda **kw: run_glob(kw["path"])')
    ),
    wrong(
        "handler_prints",
        "instead of printing",
        register(handler='lambda **kw: print(run_glob(kw["pattern"]))'),
    ),
    wrong(
        "parameters_not_input_schema",
        "input_schema",
        register().replace('"input_schema"', '"parameters"'),
    ),
    wrong(
        "python_type_name",
        "JSON Schema does not know",
        register(schema=SCHEMA.replace('"string"', '"str"')),
    ),
    wrong("pattern_not_required", "required", register(schema=SCHEMA.replace('["pattern"]', "[]"))),
    wrong("handler_called_not_given", "function", register(handler='run_glob("*")')),
    wrong("no_description", "description", register(description='""')),
    right(
        "run_glob_itself",
        """
GLOB_TOOL = {
    "name": "glob",
    "description": "List the workspace files whose paths match a pattern such as **/*.py.",
    "input_schema": {
        "type": "object",
        "properties": {"pattern": {"type": "string", "description": "A glob pattern, relative."}},
        "required": ["pattern"],
    },
}
glob_handler = run_glob
""",
    ),
    right(
        "def_handler_and_schema_helper",
        """
def glob_handler(**kwargs):
    return run_glob(kwargs["pattern"])


GLOB_TOOL = dict(name="glob", description="Find files by name pattern.", input_schema=schema(pattern="string"))
""",
    ),
    right("lambda_with_named_argument", register(handler="lambda pattern: run_glob(pattern)")),
]

ANSWERS = {"ex5_edit_once": EDIT_ONCE, "ex6_register_glob": REGISTER_GLOB}
