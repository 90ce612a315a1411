# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 · Tool use, part 1: the dispatch map
#
# **You will be able to:** give the agent dedicated file tools (`read_file`, `write_file`,
# `edit_file`, `glob`) through a dispatch map, register a tool yourself, and see that the
# loop from s01 barely changes.
#
# **You need:** notebooks 01 and 02. No API key.
#
# > "Adding a tool means adding one handler": the loop stays the same; a new tool is
# > registered in the dispatch map.
#
# ```
# +--------+      +-------+      +------------------+
# |  User  | ---> |  LLM  | ---> | Tool Dispatch    |
# | prompt |      |       |      | {                |
# +--------+      +---+---+      |   bash: run_bash |
#                     ^          |   read: run_read |
#                     |          |   write: run_wr  |
#                     +----------+   edit: run_edit |
#                     tool_result| }                |
#                                +------------------+
# ```
#
# The **dispatch map** is a dict, `{tool_name: handler_function}`: one lookup replaces an
# `if/elif` chain, and the loop around it does not change.

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %% [markdown]
# The set-up, and notebook 01's `run_bash` with all its branches (the deny-list, the timeout,
# the `OSError` case, no `ANTHROPIC_*` variables):

# %%
import os
import subprocess
from pathlib import Path

import agentlib
from agentlib.course import Course, expect_error

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s02", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
WORKDIR = ws.root
OFFLINE = course.offline
SAFE_ENV = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}


def run_bash(command: str) -> str:
    dangerous = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]
    if any(d in command for d in dangerous):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"
    except (FileNotFoundError, OSError) as e:
        return f"Error: {e}"
    out = (r.stdout + r.stderr).strip()
    return out[:50000] if out else "(no output)"


# %% [markdown]
# ## 1. Why bash alone is not enough
#
# With only bash, every action goes through the shell. The seeds name three problems.
#
# **`cat` cuts unpredictably.** Output is cut at 50,000 characters wherever that falls, in
# the middle of a line, and the model is not told what it missed:

# %%
run_bash("seq 1 20000 | sed 's/^/line /' > big.txt")
shown = run_bash("cat big.txt").splitlines()
full = (WORKDIR / "big.txt").read_text().splitlines()
print(f"the model sees {len(shown)} of {len(full)} lines; the last one reads {shown[-1]!r},")
print(f"but line {len(shown)} of the file is {full[len(shown) - 1]!r}")

# %% [markdown]
# **`sed` breaks on special characters.** A `/` in the replacement is `sed`'s own separator,
# and `&` silently means "the matched text":

# %%
(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_bash("sed -i 's/old/data/raw/' config.txt"))
print(run_bash("sed -i 's/A/R&D/' config.txt && cat config.txt"))

# %% [markdown]
# The first edit failed; the second "worked" and wrote `RAD`, not `R&D`.
#
# **Every bash call is an unconstrained security surface.** A command can touch anything you
# can. A dedicated tool takes a *path*, and a path can be checked before anything is opened
# (notebook 04 attacks that check and shows how bash itself is confined).
#
# ## 2. The file tools
#
# | tool | does | replaces |
# |---|---|---|
# | `read_file` | read a file | `cat file` |
# | `write_file` | create or overwrite a file | `echo ... > file` |
# | `edit_file` | change an exact piece of a file | `sed`, or editing by hand |
# | `glob` | find files by pattern | `find`, `ls *.py` |
#
# Every file tool passes its path through the seed's `safe_path`: join it to the workspace,
# `resolve()` it (removing `..` and following links) and refuse it unless it is still
# inside. Each tool is a plain function, and errors come back as text the model can read.

# %%
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


def run_read(path: str, limit: int = None) -> str:
    try:
        text = safe_path(path).read_text()
        lines = text.splitlines()
        if limit and limit < len(lines):
            lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
        return "\n".join(lines)[:50000]
    except Exception as e:
        return f"Error: {e}"


def run_write(path: str, content: str) -> str:
    try:
        fp = safe_path(path)
        fp.parent.mkdir(parents=True, exist_ok=True)
        fp.write_text(content)
        return f"Wrote {len(content)} bytes to {path}"
    except Exception as e:
        return f"Error: {e}"


def run_edit(path: str, old_text: str, new_text: str) -> str:
    try:
        fp = safe_path(path)
        content = fp.read_text()
        if old_text not in content:
            return f"Error: Text not found in {path}"
        fp.write_text(content.replace(old_text, new_text, 1))
        return f"Edited {path}"
    except Exception as e:
        return f"Error: {e}"


# %% [markdown]
# `read_file`'s `limit` lets the model read the start of a long file and tells it how much is
# left. `write_file` *replaces* the file (an explicit overwrite; the seed counts characters
# and calls them bytes: `é` is two bytes in UTF-8). `edit_file` takes both texts literally, so `/` and `&` are just
# characters, and the model must quote what is there now: it has to look before it edits.

# %%
print(run_read("big.txt", limit=3))
print(run_read("../outside.txt"))
print(run_write("notes/café.txt", "café\n"), "| agentlib:", ws.write_file("notes/café.txt", "café\n"))
(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_edit("config.txt", "= old", "= data/raw"), run_edit("config.txt", "= A", "= R&D"))
print((WORKDIR / "config.txt").read_text())

# %% [markdown]
# ### One trap, and Exercise 5
#
# When `old_text` occurs twice, the seed's `run_edit` silently edits the first:

# %%
(WORKDIR / "twice.txt").write_text("x = 1\nx = 1\n")
print(run_edit("twice.txt", "x = 1", "x = 2"), "->", (WORKDIR / "twice.txt").read_text().split("\n")[:2])

# %% [markdown]
# The model meant one of them and cannot know which changed. Write `run_edit_once`: like
# `run_edit`, but when `old_text` occurs more than once, change nothing and return an error
# that says how many times it occurs (`content.count(old_text)`), so the model can add context.

# %% tags=["exercise"]
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    raise NotImplementedError("start from run_edit; count the matches before replacing")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def run_edit_once(path: str, old_text: str, new_text: str) -> str:
#     try:
#         fp = safe_path(path)
#         content = fp.read_text()
#         count = content.count(old_text)
#         if count == 0:
#             return f"Error: Text not found in {path}"
#         if count > 1:
#             return f"Error: old_text occurs {count} times in {path}; add context to pick one"
#         fp.write_text(content.replace(old_text, new_text, 1))
#         return f"Edited {path}"
#     except Exception as e:
#         return f"Error: {e}"
# ```
#
# </details>

# %%
# The check edits files with two matches, one match and none, then lets the offline model
# call your function on the two-match file and shows what it read back.
from agentlib.course.checks import check_dispatch_map, check_edit_refuses_duplicates

check_edit_refuses_duplicates(run_edit_once, WORKDIR)

# %% [markdown]
# `agentlib`'s `edit_file` refuses the same way, naming the count (on a fresh file with the
# line twice):

# %%
(WORKDIR / "twice.txt").write_text("x = 1\nx = 1\n")
with expect_error(agentlib.ToolError, why="an ambiguous edit is refused, with the count, and the file is left alone"):
    ws.edit_file("twice.txt", "x = 1", "x = 2")
print((WORKDIR / "twice.txt").read_text().split("\n")[:2])

# %% [markdown]
# In the loop, a `ToolError` becomes a `tool_result` with `is_error: true`: the model reads
# the message and tries again with more context.
#
# ## 3. `TOOLS` and `TOOL_HANDLERS`: the menu and the kitchen
#
# `TOOLS` is what the model sees: names, descriptions, argument schemas. `TOOL_HANDLERS` is
# what the code runs: name → function. A new tool is three steps: write the function, add its
# schema to `TOOLS`, add it to `TOOL_HANDLERS`. The loop is not touched: open for extension,
# closed for modification (the open–closed principle). The seed's four tools:

# %%
def schema(**properties) -> dict:  # every argument is required unless its type ends with "?"
    required = [k for k, v in properties.items() if not v.endswith("?")]
    props = {k: {"type": v.rstrip("?")} for k, v in properties.items()}
    return {"type": "object", "properties": props, "required": required}


TOOLS = [
    {"name": "bash", "description": "Run a shell command.", "input_schema": schema(command="string")},
    {"name": "read_file", "description": "Read file contents.", "input_schema": schema(path="string", limit="integer?")},
    {"name": "write_file", "description": "Write content to file.", "input_schema": schema(path="string", content="string")},
    {"name": "edit_file", "description": "Replace exact text in file.", "input_schema": schema(path="string", old_text="string", new_text="string")},
]
TOOL_HANDLERS = {
    "bash":       lambda **kw: run_bash(kw["command"]),
    "read_file":  lambda **kw: run_read(kw["path"], kw.get("limit")),
    "write_file": lambda **kw: run_write(kw["path"], kw["content"]),
    "edit_file":  lambda **kw: run_edit(kw["path"], kw["old_text"], kw["new_text"]),
}

# %% [markdown]
# Dispatch is one dictionary lookup, where there would otherwise be a chain that grows inside
# the loop with every tool (`if block.name == "bash": ... elif block.name == "read_file": ...`).
# A name nobody registered gets the seed's answer:

# %%
def dispatch(name: str, tool_input: dict) -> str:
    handler = TOOL_HANDLERS.get(name)
    return handler(**tool_input) if handler else f"Unknown tool: {name}"


print(dispatch("read_file", {"path": "config.txt"}))
print(dispatch("delete_everything", {}))

# %% [markdown]
# ### Exercise 6: register `glob`
#
# The seeds list a fourth new tool, `glob`, but do not write it. Here is its function; you
# register it. Fill in `GLOB_TOOL` (the schema: name `"glob"`, a description, one required
# string argument `pattern`) and `glob_handler` (takes the arguments as keywords, like the
# lambdas above, and calls `run_glob`).

# %%
def run_glob(pattern: str) -> str:
    try:
        return ws.glob(pattern)
    except agentlib.ToolError as e:
        return f"Error: {e}"


# %% tags=["exercise"]
GLOB_TOOL = ...  # the schema dict the model reads
glob_handler = ...  # the function the dispatch map calls

# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# GLOB_TOOL = {"name": "glob", "description": "Find files matching a glob pattern.",
#              "input_schema": schema(pattern="string")}
# glob_handler = lambda **kw: run_glob(kw["pattern"])
# ```
#
# </details>

# %%
# The check offers the five tools to a scripted model that calls each once (write, edit,
# read, glob, bash) and reports what came back.
check_dispatch_map(TOOLS + [GLOB_TOOL], {**TOOL_HANDLERS, "glob": glob_handler})

# %% [markdown]
# ### When the two fall out of sync
#
# The two structures must list the same tools. `check_tools` names every mismatch: a tool
# only in `TOOLS` is called by the model and found by nobody; a handler only in
# `TOOL_HANDLERS` is never called, because the model never learns it exists.

# %%
from agentlib import check_tools

menu_only = TOOLS + [{"name": "delete_file", "description": "Delete a file.", "input_schema": schema(path="string")}]
kitchen_only = {**TOOL_HANDLERS, "word_count": lambda **kw: str(len(kw["text"].split()))}
for problem in check_tools(menu_only, TOOL_HANDLERS, course.lang) + check_tools(TOOLS, kitchen_only, course.lang):
    print("-", problem)

# %% [markdown]
# `agentlib` cannot drift: a `Toolbox` keeps each schema with its handler, and its `TOOLS` and
# `TOOL_HANDLERS` are two views of one list. `s02_tools(ws)` is the course's five tools on the
# workspace. Its dispatch also turns an unknown name, bad input or a crashing handler into an
# error result the model can act on:

# %%
box = agentlib.s02_tools(ws)
print(box.names)
print(box.dispatch("delete_file", {"path": "config.txt"}))
print(box.dispatch("read_file", {"path": 42}))

# %% [markdown]
# ## 4. The loop, unchanged
#
# s02's loop. The skeleton is s01's: the same `while True`, the same single exit, the same
# appends. What changed: `run_bash(...)` became the dispatch lookup, and the history goes
# through `normalize_messages`, which cleans it before each call (fields the API does not
# know, tool calls never answered; notebook 04 shows the seed's version and the 400s it
# causes).

# %%
from agentlib import normalize_messages

SYSTEM = f"You are a coding agent at {WORKDIR}. Use tools to solve tasks. Act, don't explain."


def agent_loop(messages: list):
    while True:
        response = client.messages.create(
            model=MODEL, system=SYSTEM, messages=normalize_messages(messages),
            tools=TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                handler = TOOL_HANDLERS.get(block.name)
                output = handler(**block.input) if handler else f"Unknown tool: {block.name}"
                results.append({
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": output,
                })
        messages.append({"role": "user", "content": results})


# %% [markdown]
# The s01 loop from notebook 01 against this one (`inspect.getsource` reads the cell above):

# %%
import difflib
import inspect

S01_LOOP = '''def agent_loop(messages: list):
    while True:
        response = client.messages.create(
            model=MODEL, system=SYSTEM, messages=messages,
            tools=TOOLS, max_tokens=8000,
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = run_bash(block.input["command"])
                results.append({
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": output,
                })
        messages.append({"role": "user", "content": results})
'''
s02_loop = inspect.getsource(agent_loop)
diff = list(difflib.unified_diff(S01_LOOP.splitlines(), s02_loop.splitlines(), "s01", "s02", lineterm="", n=0))
print("\n".join(diff))
changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
print(f"\n{len(changed)} changed lines of {len(S01_LOOP.splitlines())}: the history sent, and how a tool call is run")

# %% [markdown]
# ## 5. The try-it prompts, drawn
#
# The seeds' four s02 prompts, asked one after another in one history, as their REPL would.
# Their project folder has a `requirements.txt`; we give our workspace one.

# %%
from agentlib.widgets import show

(WORKDIR / "requirements.txt").write_text("anthropic>=2\npython-dotenv\n")
history = []


def ask(query: str):
    start = len(history)
    history.append({"role": "user", "content": query})
    agent_loop(history)
    return show(history[start:], offline=OFFLINE, tools=TOOLS, lang=course.lang)


ask("Read the file requirements.txt")

# %%
ask("Create a file called greet.py with a greet(name) function")

# %%
ask("Edit greet.py to add a docstring to the function")

# %%
ask("Read greet.py to verify the edit worked")

# %%
greet = (WORKDIR / "greet.py").read_text()
print(greet)
print(run_bash("python3 -c 'from greet import greet; print(greet(\"s02\"))'"))
if OFFLINE:
    assert "def greet(name)" in greet and '"""' in greet

# %% [markdown]
# The model writes, then reads back: it does not assume a write worked. And it reads before it
# edits, because `edit_file` needs the exact `old_text`.
#
# The seeds type these prompts into their REPL (`python agents/s02_tool_use.py`). Ours is
# `python -m agentlib s02`: the same loop in a terminal, one history across questions, `q`
# to quit. Here a cell pipes two prompts into it, in a folder of the workspace:

# %%
import shutil
import sys

repl_folder = WORKDIR / "repl"
shutil.rmtree(repl_folder, ignore_errors=True)  # each run starts in an empty folder
prompts = "Create a file called greet.py with a greet(name) function\nRead greet.py\nq\n"
repl = subprocess.run([sys.executable, "-m", "agentlib", "s02", "--backend", BACKEND, "--workspace", str(repl_folder), "--lang", course.lang],
                      input=prompts, capture_output=True, text=True, timeout=120)
print(repl.stdout)

# %% [markdown]
# ## 6. s01 → s02 at a glance
#
# The tools each chapter has, how much code each has (the loop plus the tool functions
# written in these notebooks), what is new, and the two loops side by side. In `agentlib`,
# one `agent_loop` runs both chapters; only the toolbox passed to it differs.

# %%
from agentlib.widgets import compare_view

compare_view(
    agentlib.s01_tools(ws), TOOLS, left_loop=S01_LOOP, right_loop=s02_loop,
    left_source=[S01_LOOP, run_bash],
    right_source=[s02_loop, run_bash, safe_path, run_read, run_write, run_edit, dispatch],
    lang=course.lang,
)

# %% [markdown]
# The reference tutorial counts its two whole scripts: s01 130 lines, s02 169 (+39); 1 tool,
# then 4, so 3 new and 1 shared. **Carry from s01:** without the loop there is no agent.
# **New in s02:** a tool's schema is not its handler: one is a description for the model,
# the other the code that runs. **Watch first:** how `TOOLS`, `TOOL_HANDLERS` and the
# `tool_result` line up by name and id. **After s02 you can** add a tool without touching
# the loop: notebook 05.
#
# ## For instructors
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this cell runs the library loop with the s02 tools
# plus yours (see `99_appendix`). By default it does nothing.

# %%
tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools, system=SYSTEM)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## Quiz
#
# Answer in your head, then click.

# %% [markdown] tags=["quiz"]
# **1.** What are the three steps to add a tool, and which of them touch the loop?
#
# <details><summary>Answer</summary>Write the function, add its schema to
# <code>TOOLS</code>, add it to <code>TOOL_HANDLERS</code>. None touches the loop: dispatch
# is a lookup by name.</details>
#
# **2.** A tool is in `TOOLS` but not in `TOOL_HANDLERS`. What happens?
#
# <details><summary>Answer</summary>The model calls it; the lookup finds nothing, and the
# model reads <code>Unknown tool: ...</code>. The reverse: the model never calls it.</details>
#
# **3.** Why does `edit_file` ask for the exact `old_text`?
#
# <details><summary>Answer</summary>The model must look at the current file before it
# changes it, and special characters are taken literally (unlike <code>sed</code>).</details>
#
# **4.** Why is dispatch a dictionary and not an `if/elif` chain?
#
# <details><summary>Answer</summary>One lookup by name serves every tool; a chain would grow
# inside the loop with each new tool, and the loop would change every time.</details>
#
# **5.** The loop diff shows how many changed lines, and which?
#
# <details><summary>Answer</summary>Five of nineteen: the history sent (through
# <code>normalize_messages</code>) and the tool call (a lookup instead of
# <code>run_bash</code>).</details>
