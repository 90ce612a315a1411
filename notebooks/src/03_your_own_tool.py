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
# **You will be able to:** add a new tool to the agent, schema and handler, without changing
# one line of the loop, and find out from the checks what is wrong when it does not work.
#
# **You need:** notebooks 01 and 02; `agentlib` installed; no API key (offline by default,
# where *you* play the model's part).
#
# The seeds' exercise after s02: "add a new tool yourself, without changing the main loop".
# Three steps: write the function, describe it in `TOOLS`, register it in `TOOL_HANDLERS`.

# %% tags=["parameters"]
BACKEND = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS = ""  # instructors: "module:attribute" of @tool functions or a Toolbox, comma-separated
SCRIPT = ""  # instructors: "module:attribute" of an offline Script used in the last section

# %%
import agentlib
from agentlib.course import Course, check_exercise

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s03")  # checks the parameters
client, MODEL = course.client, course.model  # from connect(backend=BACKEND)
ws = course.workspace
OFFLINE = "offline" in MODEL  # checks marked `if OFFLINE:` hold for the scripted model only


# %% [markdown]
# ## Step 1: the function
#
# A tool is a plain Python function that takes the model's arguments and returns text (what
# the model will read). The starter below counts words; change it or replace it with your own
# idea. Keep it working: the cells below check it.

# %%
def word_count(text: str) -> str:
    """Count the words in a text (words are separated by whitespace)."""
    return str(len(text.split()))

word_count("One loop and bash is all you need")

# %% [markdown]
# ## Step 2: its schema, by hand
#
# The model never sees your function, only this description: a name, a sentence saying when
# the tool is useful, and a JSON Schema of the arguments.

# %%
WORD_COUNT = {
    "name": "word_count",
    "description": "Count the words in a text. Use it instead of counting yourself.",
    "input_schema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to count."}},
        "required": ["text"],
    },
}

# %% [markdown]
# ## Step 3: register it
#
# Start from s02's tools and add yours to both: the schema to `TOOLS` (the menu the model
# reads), the function to `TOOL_HANDLERS` (what the code runs).

# %%
s02 = agentlib.s02_tools(ws)
TOOLS = s02.TOOLS + [WORD_COUNT]
TOOL_HANDLERS = {**s02.TOOL_HANDLERS, "word_count": word_count}
[tool["name"] for tool in TOOLS]

# %% [markdown]
# ## Check it
#
# `check_exercise` looks for everything that would make the tool fail in the loop, and says
# it in words: missing from `TOOLS`, missing from `TOOL_HANDLERS`, a schema and a function that
# disagree, no description, or a call that fails on an example input.

# %%
problems = check_exercise(TOOLS, TOOL_HANDLERS, name="word_count", example={"text": "a b c"})
print("\n".join(problems) or "All checks pass: the tool is ready for the loop.")
assert not problems

# %% [markdown]
# ## Run the loop, unchanged
#
# `agentlib.agent_loop` is the loop from notebook 01, untouched. It gets a toolbox built from
# your two structures. The offline model does not know your tool, so **you play the model**:
# a `Script` of two turns. The first asks for your tool; the second is a function that reads
# the real tool result from the request and answers with it. With a real model
# (`BACKEND = "auto"` and a key), the real model decides instead.

# %%
from agentlib.offline import Script, call, offline_client, say

QUESTION = 'How many words are in "One loop and bash is all you need"? Use the word_count tool.'

def answer_with_result(request: dict):
    result = request["messages"][-1]["content"][0]["content"]
    return say(f"The sentence has {result} words (counted by word_count).")


# %%
from agentlib.widgets import live

if OFFLINE:
    you_play_the_model = Script(call("word_count", text="One loop and bash is all you need"), answer_with_result)
    model_client, model_name = offline_client(you_play_the_model)
else:
    model_client, model_name = client, MODEL
tools = course.tools(agentlib.Toolbox.from_dicts(TOOLS, TOOL_HANDLERS))
diagram = live(offline=OFFLINE)
state = agentlib.agent_loop([{"role": "user", "content": QUESTION}], client=model_client,
                            model=model_name, tools=tools, on_event=diagram.on_event)

# %%
ran = [event for event in state.events if event.kind == "tool_ran"]
for event in ran:
    print(f"{event.name}({event.input}) -> {event.output!r}")
print(state.messages[-1]["content"][0]["text"])
if OFFLINE:
    assert [(e.name, e.output, e.is_error) for e in ran] == [("word_count", "8", False)]

# %% [markdown]
# The loop did not change: it looked your tool up by name, like any other.
#
# ## The same tool with `@tool`
#
# Writing schemas by hand is where mistakes creep in. `@tool` builds the schema from the
# function itself: the type hints become the JSON Schema, the docstring becomes the
# description, and each `Args:` line describes one argument. The function stays callable.

# %%
from agentlib import tool

@tool
def word_count(text: str) -> str:
    """Count the words in a text. Use it instead of counting yourself.

    Args:
        text: The text to count.
    """
    return str(len(text.split()))

print(word_count("still a plain function"))
word_count.spec

# %% [markdown]
# Compared with the hand-written schema, it also forbids arguments the function does not take
# (`additionalProperties: false`). A `Toolbox` keeps schema and function together, so they
# cannot fall out of sync. The same checks pass:

# %%
toolbox = agentlib.s02_tools(ws).add(word_count)
problems = check_exercise(toolbox, name="word_count", example={"text": "a b c"})
print("\n".join(problems) or "All checks pass.")
assert not problems and word_count.input_schema["properties"].keys() == WORD_COUNT["input_schema"]["properties"].keys()

# %% [markdown]
# ## When it goes wrong
#
# Each copy below is broken on purpose, the way tools usually break. Read what the check says.
# **Missing from `TOOLS`**: the model is never told the tool exists.

# %%
print(check_exercise(s02.TOOLS, TOOL_HANDLERS, name="word_count"))

# %% [markdown]
# **Missing from `TOOL_HANDLERS`**: the model calls it, and the loop finds no function.

# %%
print(check_exercise(TOOLS, s02.TOOL_HANDLERS, name="word_count"))


# %% [markdown]
# **The schema and the function disagree**: the schema says `text`, the function wants `words`.

# %%
def word_count_renamed(words: str) -> str:
    return str(len(words.split()))

print(check_exercise(TOOLS, {**TOOL_HANDLERS, "word_count": word_count_renamed}, name="word_count"))


# %% [markdown]
# **The function raises**: here it tries to turn the text into a number.

# %%
def word_count_crashes(text: str) -> str:
    return str(int(text))

print(check_exercise(TOOLS, {**TOOL_HANDLERS, "word_count": word_count_crashes}, name="word_count", example={"text": "a b c"}))

# %% [markdown]
# A toolbox refuses to be built from structures that disagree, and says why:

# %% tags=["raises-exception"]
agentlib.Toolbox.from_dicts(TOOLS, s02.TOOL_HANDLERS)

# %% [markdown]
# A function that raises does not crash the loop: the exception becomes a `tool_result` with
# `is_error: true`, and the model reads the message (and can try something else). Drawn:

# %%
from agentlib.widgets import show

crashing = agentlib.Toolbox.from_dicts(TOOLS, {**TOOL_HANDLERS, "word_count": word_count_crashes})
script_client, script_model = offline_client(Script(call("word_count", text="a b c"), say("The tool failed.")))
failed = agentlib.agent_loop([{"role": "user", "content": QUESTION}], client=script_client,
                             model=script_model, tools=crashing)
print(failed.messages[2]["content"][0])
show(failed, offline=True)

# %% [markdown]
# ## For instructors: your own tools and script
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this runs the loop with the s02 tools, `word_count`
# and your tools, the offline model following your script. By default it does nothing.

# %%
run = course.run_script(course.tools(agentlib.s02_tools(ws).add(word_count)))
if run:
    display(show(run, offline=True))

# %% [markdown]
# ## Exercises
#
# 1. **A read-only tool.** Write `line_count(path: str) -> str` that returns how many lines a
#    workspace file has, using `ws.read_file`. Mark it `@tool(read_only=True)`. Check it with
#    `check_exercise(..., example={"path": ...})` after writing a file to count.
# 2. **An option.** Give `word_count` a `unique: bool = False` argument that counts distinct
#    words instead. What happens to `required` in the schema?
# 3. **Play the model.** Write a `Script` in which the model calls `line_count` on a missing
#    file. What does it read back? Draw the run with `show(state, offline=True)`.
# 4. **Break it yourself.** Remove the docstring from your `@tool` function. What does `@tool`
#    say, and why is it right to refuse?
#
# <details><summary>Solution 1 (open after trying)</summary>
#
# ```python
# @tool(read_only=True)
# def line_count(path: str) -> str:
#     """Count the lines of a text file in the workspace.
#
#     Args:
#         path: File path relative to the workspace root.
#     """
#     return str(len(ws.read_file(path).splitlines()))
#
# ws.write_file("poem.txt", "one\ntwo\nthree\n")
# box = agentlib.s02_tools(ws).add(line_count)
# print(check_exercise(box, name="line_count", example={"path": "poem.txt"}))  # []
# ```
#
# </details>
#
# <details><summary>Solution 2</summary>
#
# ```python
# @tool
# def word_count(text: str, unique: bool = False) -> str:
#     """Count the words in a text.
#
#     Args:
#         text: The text to count.
#         unique: Count each distinct word once.
#     """
#     words = text.split()
#     return str(len(set(words)) if unique else len(words))
# ```
#
# `unique` has a default, so it is not in `required`: the model may leave it out.
#
# </details>
#
# <details><summary>Solution 3</summary>
#
# ```python
# script = Script(call("line_count", path="missing.txt"), say("That file does not exist."))
# c, m = offline_client(script)
# state = agentlib.agent_loop([{"role": "user", "content": "Count the lines of missing.txt"}],
#                             client=c, model=m, tools=box)
# print(state.messages[2]["content"][0])  # is_error: True, and the message names the file
# show(state, offline=True)
# ```
#
# </details>
#
# <details><summary>Solution 4</summary>
#
# `@tool` raises `TypeError: line_count needs a docstring: it becomes the description the
# model reads`. Without a description the model cannot know when the tool is useful.
#
# </details>
