# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # After s02 · Add a tool of your own
#
# **You will be able to:** add a tool of your own choosing to the agent, schema and
# handler, without changing one line of the loop, and read what the checks say when it does
# not work.
#
# **You need:** notebooks 03 and 04. No API key: offline, *you* play the model's part.
#
# The seeds' exercise after s02: "add a new tool yourself, without changing the main loop".
#
# ```
#  1. the function        def your_tool(...) -> str        (what the code runs)
#  2. its schema          {"name", "description", "input_schema"}   (what the model reads)
#  3. register both       TOOLS + [schema],  {**TOOL_HANDLERS, name: function}
#                              ↓
#  the loop, unchanged:   model asks for name → TOOL_HANDLERS[name](**input) → tool_result
# ```

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %%
import agentlib
from agentlib.course import Course
from agentlib.course.checks import check_own_tool

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="own-tool", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
OFFLINE = course.offline
s02 = agentlib.s02_tools(ws)  # the course's five tools: bash, read_file, write_file, edit_file, glob
print(s02.names)

# %% [markdown]
# ## Exercise 8: your tool, in three steps
#
# Pick something small that returns text: count the words of a text, reverse a string, say
# how many lines a workspace file has (`ws.read_file(path)` reads it safely), convert
# Celsius to Fahrenheit... Then:
#
# 1. `TOOL_NAME`: its name (letters, digits, `_` or `-`; no spaces) and `EXAMPLE`, the
#    arguments of one call, as a dict, e.g. `{"text": "a b c"}`;
# 2. the function: takes those arguments, **returns** a string (what the model reads;
#    `print` would show nothing to the model);
# 3. `MY_TOOL`, its schema: `name`, a `description` saying when it is useful, and an
#    `input_schema` whose `properties` and `required` match the function's arguments.

# %% tags=["exercise"]
TOOL_NAME = ...  # e.g. "word_count"
EXAMPLE = ...  # e.g. {"text": "One loop and bash is all you need"}


def my_tool(**kwargs) -> str:
    raise NotImplementedError("give it your arguments and return a string")


MY_TOOL = ...  # {"name": TOOL_NAME, "description": "...", "input_schema": {...}}

# %% [markdown] tags=["solution"]
# <details><summary>One solution (open after trying)</summary>
#
# ```python
# TOOL_NAME = "word_count"
# EXAMPLE = {"text": "One loop and bash is all you need"}
#
#
# def my_tool(text: str) -> str:
#     """Count the words in a text (separated by whitespace)."""
#     return str(len(text.split()))
#
#
# MY_TOOL = {
#     "name": TOOL_NAME,
#     "description": "Count the words in a text. Use it instead of counting yourself.",
#     "input_schema": {
#         "type": "object",
#         "properties": {"text": {"type": "string", "description": "The text to count."}},
#         "required": ["text"],
#     },
# }
# ```
#
# </details>

# %% [markdown]
# Register both: the schema joins the menu, the function the dispatch map.

# %%
TOOLS = s02.TOOLS + [MY_TOOL]
TOOL_HANDLERS = {**s02.TOOL_HANDLERS, TOOL_NAME: my_tool}

# %% [markdown]
# ## Check it
#
# The check looks for everything that would make the tool fail in the loop and says it in
# words: missing from `TOOLS` or `TOOL_HANDLERS`, a name the API refuses, a schema and a
# function that disagree, no description, a call on `EXAMPLE` that raises or returns
# something other than a string. Then it runs the loop once, with a scripted model that
# calls your tool on `EXAMPLE`.

# %%
verdict = check_own_tool(TOOLS, TOOL_HANDLERS, name=TOOL_NAME, example=EXAMPLE)
verdict

# %% [markdown]
# ## Run the loop, unchanged
#
# `agentlib.agent_loop` is the loop from notebook 02, untouched; it gets a toolbox built from
# your two structures (`Toolbox.from_dicts`). The offline model does not know your tool, so
# **you play the model**: a `Script` of two replies. The first asks for your tool on
# `EXAMPLE`; the second is a function that reads the real result from the request and answers
# with it. With a real model (`BACKEND = "auto"` and a key), the real model decides instead.

# %%
from agentlib.offline import Script, call, offline_client, say
from agentlib.widgets import live

QUESTION = f"Please use the {TOOL_NAME} tool on {EXAMPLE}."


def answer_with_result(request: dict):
    result = request["messages"][-1]["content"][0]["content"]
    return say(f"{TOOL_NAME} says: {result}")


if not verdict.ok:
    print("This cell runs your tool in the loop once the check above says it works.")
else:
    if OFFLINE:
        model_client, model_name = offline_client(Script(call(TOOL_NAME, **EXAMPLE), answer_with_result))
    else:
        model_client, model_name = client, MODEL
    tools = course.tools(agentlib.Toolbox.from_dicts(TOOLS, TOOL_HANDLERS))
    diagram = live(offline=OFFLINE, tools=tools, lang=course.lang)
    state = agentlib.agent_loop([{"role": "user", "content": QUESTION}], client=model_client,
                                model=model_name, tools=tools, on_event=diagram.on_event)
    for event in state.events:
        if event.kind == "tool_ran":
            print(f"{event.name}({event.input}) -> {event.output!r}")
    print(state.messages[-1]["content"][0]["text"])

# %% [markdown]
# The loop looked your tool up by name, like any other.
#
# ## Exercise 9: the same tool with `@tool`
#
# Writing schemas by hand is where mistakes creep in. `@tool` builds the schema from the
# function: the type hints become the JSON Schema, the docstring's first line the
# description, and each `Args:` line describes one argument. Rewrite your tool with `@tool`
# (keep the name: the function's name becomes the tool's name, or pass
# `@tool(name=TOOL_NAME)`), and add it to the course's toolbox.

# %% tags=["exercise"]
from agentlib import tool  # noqa: F401 - for your @tool function

toolbox = ...  # agentlib.s02_tools(ws).add(your @tool function)

# %% [markdown] tags=["solution"]
# <details><summary>One solution (open after trying)</summary>
#
# ```python
# from agentlib import tool
#
#
# @tool(name=TOOL_NAME)
# def my_tool_again(text: str) -> str:
#     """Count the words in a text. Use it instead of counting yourself.
#
#     Args:
#         text: The text to count.
#     """
#     return str(len(text.split()))
#
#
# toolbox = agentlib.s02_tools(ws).add(my_tool_again)
# ```
#
# </details>

# %%
# The same check, on the toolbox; then the schema @tool built for you.
verdict = check_own_tool(toolbox, None, name=TOOL_NAME, example=EXAMPLE)
print(verdict)
if verdict.ok:
    print(toolbox[TOOL_NAME].spec)

# %% [markdown]
# `@tool` also forbids arguments the function does not take (`additionalProperties: false`),
# and a `Toolbox` keeps schema and function together, so they cannot fall out of sync.
#
# ## When it goes wrong
#
# Each copy below is broken on purpose, the way tools usually break, on a small tool of the
# notebook's own (`char_count`). Read what `check_exercise` says.

# %%
from agentlib.course import check_exercise


def char_count(text: str) -> str:
    return str(len(text))


CHAR_COUNT = {"name": "char_count", "description": "Count the characters of a text.",
              "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
good_tools, good_handlers = s02.TOOLS + [CHAR_COUNT], {**s02.TOOL_HANDLERS, "char_count": char_count}
print(check_exercise(good_tools, good_handlers, name="char_count", example={"text": "abc"}) or "the good copy passes")

# %% [markdown]
# Four broken copies, and what the check says about each:

# %%
def char_count_prints(text: str) -> None:
    print(len(text))


def char_count_renamed(words: str) -> str:
    return str(len(words))


def char_count_crashes(text: str) -> str:
    return str(int(text))


broken = {
    "missing from TOOLS": (s02.TOOLS, good_handlers),
    "missing from TOOL_HANDLERS": (good_tools, s02.TOOL_HANDLERS),
    "prints instead of returning": (good_tools, {**good_handlers, "char_count": char_count_prints}),
    "schema says text, function wants words": (good_tools, {**good_handlers, "char_count": char_count_renamed}),
    "raises on the example": (good_tools, {**good_handlers, "char_count": char_count_crashes}),
}
for what, (tools_, handlers_) in broken.items():
    print(f"\n{what}:")
    for problem in check_exercise(tools_, handlers_, name="char_count", example={"text": "abc"}):
        print("  -", problem)

# %% [markdown]
# A function that raises does not crash the loop: the exception becomes a `tool_result` with
# `is_error: true`, and the model reads the message (and can try something else):

# %%
from agentlib.widgets import show

crashing = course.tools(agentlib.Toolbox.from_dicts(good_tools, {**good_handlers, "char_count": char_count_crashes}))
script_client, script_model = offline_client(Script(call("char_count", text="abc"), say("The tool failed.")))
failed = agentlib.agent_loop([{"role": "user", "content": "Count the characters of abc"}],
                             client=script_client, model=script_model, tools=crashing)
print(failed.messages[2]["content"][0])
show(failed, offline=True, tools=crashing, lang=course.lang)

# %% [markdown]
# ## For instructors
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this cell runs the library loop with the s02 tools
# plus yours (see `99_appendix`). By default it does nothing.

# %%
tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## Quiz
#
# Answer in your head, then click.

# %% [markdown] tags=["quiz"]
# **1.** Which line of the loop did you change to add your tool?
#
# <details><summary>Answer</summary>None: the loop looks every tool up by name in the
# dispatch map.</details>
#
# **2.** Your handler `print`s its answer instead of returning it. What does the model read?
#
# <details><summary>Answer</summary>Nothing useful: the model only reads what the function
# returns, and <code>None</code> is not a tool result.</details>
#
# **3.** The schema's `required` lists `text`, the function takes `words`. When does it fail?
#
# <details><summary>Answer</summary>On the first call: the model sends <code>text</code>,
# and the function gets an argument it does not take.</details>
#
# **4.** Why must the description say *when* the tool is useful?
#
# <details><summary>Answer</summary>The model never sees your code; it picks tools by
# reading their names and descriptions.</details>
