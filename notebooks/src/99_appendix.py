# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Appendix · Reference: the REPL, `.env` and endpoints, instructors
#
# Not a lesson: what the seed's script does around the loop, and how to run the course your
# own way. Read the section you need.
#
# **Contents:** 1. the REPL, history across questions · 2. the seed's environment set-up
# (`.env`, a base URL, `MODEL_ID`) · 3. for instructors: parameters, your own tools, a script
# · 4. s01 before and after, tool design, and where tools go next.

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (section 3)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %%
import os

import agentlib
from agentlib.course import Course, expect_error

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="appendix", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
SYSTEM = f"You are a coding agent at {ws.root}. Use bash to solve tasks. Act, don't explain."

# %% [markdown]
# ## 1. The REPL: history across questions
#
# The seed's entry point asks for questions in a loop (`input("s01 >> ")`) and keeps **one**
# history for all of them, so the second question can build on the first. After each run it
# prints the text blocks of the last message (`hasattr(block, "text")` keeps text blocks and
# skips tool calls). Its prompt, `"\033[36ms01 >> \033[0m"`, is cyan: `\033` is the escape
# character, `[36m` switches the terminal's text to cyan and `[0m` resets it, as a
# `<span style="color:cyan">` would on a web page. In JupyterLab `input()` works (it opens a
# text box under the cell), but a notebook run by a program (nbclient, papermill, CI) has no
# one to type and would stop with an error, so we feed the loop two questions instead. In a
# terminal, `python -m agentlib s01` is the real thing (notebook 03 pipes prompts into its
# twin, `python -m agentlib s02`).

# %%
def ask(history: list, query: str) -> None:
    history.append({"role": "user", "content": query})
    state = agentlib.agent_loop(history, client=client, model=MODEL,
                                tools=course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
    for block in state.messages[-1]["content"]:
        if block.get("type") == "text":
            print(block["text"])


history = []
for query in ['Create a file called hello.py that prints "Hello, World!"',
              "List all Python files in this directory"]:
    print(f"\033[36ms01 >> \033[0m{query}")
    ask(history, query)
    print(f"        ({len(history)} messages in the history now)\n")

# %% [markdown]
# ## 2. The seed's environment set-up
#
# The seed's script starts like this (we do not run it: `Course` and `connect()` do the
# equivalent, and never copy your key into the environment the agent's commands see):
#
# ```python
# load_dotenv(override=True)
# if os.getenv("ANTHROPIC_BASE_URL"):
#     os.environ.pop("ANTHROPIC_AUTH_TOKEN", None)
# client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
# MODEL = os.environ["MODEL_ID"]
# ```
#
# **`override=True`**: when `.env` and the environment disagree, `.env` wins, so the
# project's file decides whatever your shell has set. With a throwaway file and a harmless
# variable:

# %%
from dotenv import load_dotenv

demo_env = course.temporary_folder("env") / ".env"
demo_env.write_text("COURSE_DEMO_COLOUR=from-the-file\n")
os.environ["COURSE_DEMO_COLOUR"] = "from-the-shell"
load_dotenv(demo_env)
print("override=False:", os.environ["COURSE_DEMO_COLOUR"])
load_dotenv(demo_env, override=True)
print("override=True: ", os.environ["COURSE_DEMO_COLOUR"])
del os.environ["COURSE_DEMO_COLOUR"]

# %% [markdown]
# **Why a base URL drops `ANTHROPIC_AUTH_TOKEN`**: that variable holds a bearer token for
# Anthropic's own API. `ANTHROPIC_BASE_URL` points the SDK at another host (a proxy or a
# compatible gateway) that expects the API key you give it. The seed's commentary says the
# SDK would prefer the token over the key; SDK 2.x does not (when both are set the key wins,
# with a warning). The line still earns its place: when the token is the only credential,
# the SDK sends it, a credential meant for Anthropic, to the other host. What the SDK would
# send (a placeholder token, nothing real):

# %%
import anthropic

proxied = anthropic.Anthropic(auth_token="token-meant-for-anthropic", base_url="http://localhost:8080")
print("headers for localhost:8080:", proxied.auth_headers)
env = {"ANTHROPIC_BASE_URL": "http://localhost:8080", "ANTHROPIC_AUTH_TOKEN": "placeholder"}
if env.get("ANTHROPIC_BASE_URL"):
    env.pop("ANTHROPIC_AUTH_TOKEN", None)
print("after the seed's line:     ", env)

# %% [markdown]
# **Why `os.environ["MODEL_ID"]` and not `os.getenv("MODEL_ID")`**: square brackets raise
# `KeyError` at once when the variable is missing, naming the cause. `getenv` quietly returns
# `None`, and the error arrives later, from the API, about a model called `None`. (On a copy
# without `MODEL_ID`, so your own setting does not matter here.)

# %%
env = {k: v for k, v in os.environ.items() if k != "MODEL_ID"}
print("getenv-style:", env.get("MODEL_ID"))
with expect_error(KeyError, why="a missing MODEL_ID fails at start-up, naming the variable"):
    MODEL_FROM_ENV = env["MODEL_ID"]

# %% [markdown]
# How the course itself reads `.env`, picks a backend and talks to a compatible endpoint is
# in `00_setup`, section 3.
#
# ## 3. For instructors: parameters, your own tools, a script
#
# Every notebook has a `parameters`-tagged cell (papermill-compatible) you can override
# without editing the notebook:
#
# | parameter | default | meaning |
# |---|---|---|
# | `BACKEND` | `"offline"` | `"auto"` uses a real model when a key is configured |
# | `WORKSPACE` | `None` | the agent's folder; `None` is a fresh temporary folder |
# | `EXTRA_TOOLS` | `""` | comma-separated `module:attribute` naming `@tool` functions or a `Toolbox` |
# | `SCRIPT` | `""` | `module:attribute` naming an offline `Script` (or a list of replies) |
# | `LANG` | `"en"` | the language the course prints and draws in; `"zh"` in the Chinese notebooks (`notebooks/zh`) |
#
# `Course(...)` (the notebooks' set-up cell) imports and checks `EXTRA_TOOLS` and `SCRIPT`
# at once, and every cell that runs `agentlib`'s loop adds your tools through
# `course.tools(...)`. A module of your own might hold:
#
# ```python
# from agentlib import tool
# from agentlib.offline import call, say
#
# @tool
# def run_tests(path: str) -> str:
#     """Run the project's tests in one folder.
#
#     Args:
#         path: Folder with the tests, relative to the workspace.
#     """
#     ...
#
# SCRIPT = [call("run_tests", path="tests"), say("The tests ran.")]
# ```
#
# Then `python -m agentlib.course notebooks/02_agent_loop.ipynb -p EXTRA_TOOLS=mytools:run_tests
# -p SCRIPT=mytools:SCRIPT` (or papermill's `-p`) runs the notebook with them, and the
# section "For instructors" at the end of each notebook plays your script with the
# notebook's toolbox plus your tools. Here:

# %%
from agentlib.widgets import show

tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))
else:
    print("no SCRIPT set: nothing to run")

# %% [markdown]
# ## 4. s01 before and after, tool design, and where tools go next
#
# What s01 adds to a chat model (notebooks 01 and 02):
#
# | | before (a chat model) | s01 |
# |---|---|---|
# | agent loop | none: you loop by hand | `while True` + `stop_reason` |
# | tools | none | `bash` (one tool) |
# | messages | you copy and paste | a list that accumulates |
# | control flow | you decide the next step | `stop_reason != "tool_use"` ends it |
#
# What the tool design of s02 teaches the model (notebooks 03 and 04): dedicated tools shape
# its habits more than a general bash does. `read_file`'s `limit` invites reading only what
# is needed; `edit_file`'s `old_text` forces a look at the current state first;
# `write_file`'s explicit overwrite removes the "create or append?" question; and a
# workspace boundary makes every path the model writes checkable. Keep the contracts
# explicit, the defaults restrictive, and give every tool a timeout.
#
# The seeds end s02 with principles and ideas; later chapters build some of them.
#
# - **Tool design:** one job per tool; explicit, structured inputs and outputs; restrictive
#   defaults (a tool is limited until opened up, as the workspace is); every call logged
#   (the loop's events); a timeout on everything.
# - **The history:** normalise it early, and make normalising idempotent (running it twice
#   changes nothing; `agentlib`'s tests check this); keep user text, the model's replies and
#   tool results clearly apart; keep its size under control (s06 compresses it).
# - **Performance:** independent read-only calls can run in parallel (notebook 04); results
#   read often can be cached.
# - **Ideas:** several versions of a tool side by side; usage statistics per tool; loading
#   tools while the agent runs; permissions per role; grouping tools by domain; tools that
#   call tools; streaming results from long-running tools.
