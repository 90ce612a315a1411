# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 00 · Set up
#
# **You will be able to:** check that everything the course needs is installed, choose between
# the offline model and a real one, and watch one run of an agent drawn round by round.
#
# **You need:** Python 3.10+ with `agentlib` installed (`pip install -e .` in the course
# folder). An API key is optional: without one, an offline model answers.

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %% [markdown]
# `Course` reads these parameters: it checks `EXTRA_TOOLS` and `SCRIPT` at once, connects to
# the model and prepares the workspace, saying in one line each what it chose.

# %%
import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="setup", lang=LANG)

# %% [markdown]
# ## 1. What is installed
#
# The course uses the `anthropic` SDK (2.x) to talk to the model, `anywidget` and `ipywidgets`
# to draw runs, and `python-dotenv` to read settings from a `.env` file.

# %%
import sys
from importlib.metadata import version

print("python", sys.version.split()[0])
for package in ["agentlib", "anthropic", "httpx2", "pydantic", "python-dotenv", "anywidget", "ipywidgets"]:
    print(f"{package:14} {version(package)}")

# %% [markdown]
# ## 2. Which model: offline or real
#
# `connect()` returns a client and a model name, and says in one line which backend it chose
# and why. `"offline"` always picks the offline model; `"auto"` picks the real API when a key
# is configured (`AGENTLIB_BACKEND` can force either); `"anthropic"` insists on the real API.

# %%
client, MODEL = course.client, course.model  # what connect(backend=BACKEND) returned above
OFFLINE = "offline" in MODEL
print(type(client).__module__, type(client).__name__, "| model:", MODEL)

# %% [markdown]
# Offline, `client` is still a real `anthropic.Anthropic`: every request goes through the SDK
# and over an HTTP transport to a simulator that checks it as the API does. Only the model's
# *decisions* are scripted: it knows the course's try-it prompts and says so honestly when
# asked anything else:

# %%
reply = client.messages.create(model=MODEL, max_tokens=500,
                               messages=[{"role": "user", "content": "Write me a poem about loops"}])
print(reply.content[0].text)

# %% [markdown]
# What `connect()` found (values of keys and tokens are never printed, only where they come from):

# %%
from agentlib.client import read_settings

settings = read_settings(lang=course.lang)
for name, (value, where) in settings.items():
    shown = "(set)" if name.endswith(("_KEY", "_TOKEN")) else value
    print(f"{name:22} {shown:30} from {where}")
print("nothing configured: the offline model it is" if not settings else "")

# %% [markdown]
# ## 3. Using a real model
#
# Put your settings in a file named `.env` in the course folder (it is listed in
# `.gitignore`, so it is never committed):
#
# ```
# ANTHROPIC_API_KEY=<your key>
# MODEL_ID=<a model id your key can use>
# ```
#
# then set `BACKEND = "auto"` in a notebook's first cell (or pass
# `-p BACKEND=auto` when running it). `python -m agentlib models` lists the model ids your key
# can use. As in the seeds (`load_dotenv(override=True)`), a value in `.env` wins over the same
# variable in your shell. Unlike the seeds, `agentlib` does not copy `.env` into the
# environment, so the commands the agent runs never inherit your key.
#
# **A compatible endpoint** (a proxy, a gateway, or `python -m agentlib.offline serve`): add
# `ANTHROPIC_BASE_URL=http://...`. With a base URL set, `ANTHROPIC_AUTH_TOKEN` is ignored, so
# only the API key you give the gateway is sent, never a bearer token meant for Anthropic.
#
# `MODEL_ID` is required for the real API: the course never hard-codes a model id. When it is
# missing, `connect()` says so at once instead of failing later. With a real backend, this
# cell sends one tiny request to check the key and the model:

# %%
from agentlib.client import check_connection

if not OFFLINE:
    print(check_connection(client, MODEL))
else:
    print("offline: nothing to check")

# %% [markdown]
# ## 4. The workspace
#
# The agent works in a folder of its own: a fresh temporary one unless `WORKSPACE` names
# another. Its file tools cannot reach outside it, and its shell commands run isolated where
# the machine supports it (`bwrap`); otherwise `none`, and the course says so.

# %%
ws = course.workspace
print(ws.root, "| isolation:", ws.isolation)
ws.write_file("main.py", 'print("main")\n')

# %% [markdown]
# ## 5. One run, drawn
#
# `live()` shows an empty round diagram that fills in while the loop runs: what was sent,
# what the model answered, which tool ran and what it returned, and why the loop stopped. The
# diagram stays in the saved notebook and steps through rounds without a kernel.

# %%
from agentlib.widgets import live

tools = course.tools(agentlib.s02_tools(ws))
diagram = live(offline=OFFLINE, tools=tools, lang=course.lang)
state = agentlib.agent_loop(
    [{"role": "user", "content": "List all Python files in this directory"}],
    client=client, model=MODEL, tools=tools, on_event=diagram.on_event, lang=course.lang,
)
print(f"{state.rounds} rounds; stopped because {state.why}")
if OFFLINE:
    assert state.stop_reason == "end_turn" and "main.py" in state.messages[-1]["content"][0]["text"]

# %% [markdown]
# ## For instructors: your own tools and script
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this runs the loop with the s02 tools plus yours, the
# offline model following your script. By default it does nothing.

# %%
from agentlib.widgets import show

tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## Exercises
#
# 1. In the diagram, step to round 2. Which messages are new, and why is the first one sent again?
# 2. Ask the offline model something it does not know (section 2). What does it say it can do?
# 3. In a terminal, run `python -m agentlib s01` and type one of the try-it prompts.
# 4. If you have a key: set it in `.env`, run this notebook with `BACKEND = "auto"`, and compare
#    the real model's run with the offline one.
#
# Then open `01_loop_by_hand`: the course runs 01 → 05, one sitting each; `99_appendix` is
# reference (the REPL, the seed's `.env` set-up, instructors).
