# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s01 · The agent loop
#
# **You will be able to:** write the whole agent, one `while True` loop around one model call
# and one tool, and explain every line of it.
#
# **You need:** Python 3.10+ with `agentlib` installed. No API key: by default an offline
# model answers, behind the real `anthropic` SDK. Everything except the model's decisions is
# real: the HTTP request, the API's checks and errors, the shell commands and the files.
#
# > "One loop & Bash is all you need": one tool plus one loop makes an agent.

# %% [markdown]
# ## Parameters
#
# Change these to use a real model (`BACKEND = "auto"` picks the real API when a key is
# configured, see `00_setup`). Instructors override them without editing the notebook
# (`python -m agentlib.course notebooks/01_agent_loop.ipynb -p BACKEND=auto`).

# %% tags=["parameters"]
BACKEND = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS = ""  # instructors: "module:attribute" of @tool functions or a Toolbox, comma-separated
SCRIPT = ""  # instructors: "module:attribute" of an offline Script used in the last section

# %% [markdown]
# The agent gets a folder of its own to work in, its *workspace*: a fresh temporary folder
# unless you set `WORKSPACE`. `connect()` gives us a client and a model name; it prints which
# backend it chose. We put one small file in the workspace so the agent has something to find.

# %%
import tempfile
from pathlib import Path

import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s01")  # checks the parameters
client, MODEL = course.client, course.model  # from connect(backend=BACKEND)
WORKDIR = course.workspace.root
OFFLINE = "offline" in MODEL  # checks marked `if OFFLINE:` hold for the scripted model only
(WORKDIR / "main.py").write_text('print("main")\n')
print("workspace:", WORKDIR)
print("model:    ", MODEL)

# %% [markdown]
# ## 1. The problem: a model that can reason but cannot act
#
# A language model can reason about code, but it cannot touch the real world: it cannot read
# a file, run the tests or see an error. Ask a chat model "which Python files are in my
# folder?" and it cannot know. The usual workaround is you: you run `ls *.py` in a terminal,
# paste the result into the chat, read the answer, run the next command... **You are the
# loop.** s01 replaces you with ten lines of code.
#
# Everything starts with a list of messages. The user's question is the first one:

# %%
query = "List all Python files in this directory"
messages = [{"role": "user", "content": query}]
messages

# %% [markdown]
# ## 2. One raw call, no tools
#
# `client.messages.create` sends the whole list to the model. Without tools the model can
# only answer in words. What comes back is a `Message`: a list of content blocks, a
# `stop_reason` saying why the model stopped, and `usage` (tokens in and out).

# %%
response = client.messages.create(model=MODEL, max_tokens=1000, messages=messages)
print("stop_reason:", response.stop_reason)
for block in response.content:
    print(f"[{block.type}]", block.text[:400])

# %%
print("model:", response.model)
print("usage:", response.usage.input_tokens, "tokens in,", response.usage.output_tokens, "out")
if OFFLINE:
    print("(offline model: token counts are estimates, about 4 characters per token)")
    assert response.stop_reason == "end_turn"

# %% [markdown]
# `end_turn` means "I am done". With no way to look, the model can only talk. To let it act,
# we describe a tool.
#
# ## 3. The bash tool's schema
#
# A tool definition has three fields: `name` (what the model writes in its request),
# `description` (how the model decides *when* to use it) and `input_schema`, a JSON Schema of
# the arguments. The model has seen a great deal of JSON Schema, so it fills the arguments in
# as the schema asks: a structured contract instead of a description in prose.

# %%
TOOLS = [{
    "name": "bash",
    "description": "Run a shell command.",
    "input_schema": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
}]

# %% [markdown]
# The system prompt goes in its own `system` field, not in `messages` (section 10 says why it
# names the folder). Now the same question, with the tool on offer:

# %%
SYSTEM = f"You are a coding agent at {WORKDIR}. Use bash to solve tasks. Act, don't explain."

response = client.messages.create(
    model=MODEL, system=SYSTEM, messages=messages,
    tools=TOOLS, max_tokens=8000,
)
print("stop_reason:", response.stop_reason)
for block in response.content:
    print(f"[{block.type}]", block)

# %% [markdown]
# `stop_reason == "tool_use"`: the model does not *want* to run a command; it tells us, through
# this field, that it needs a tool. The request is a `tool_use` block with a `name`, an
# `input` that follows the schema, and an `id` made by the API (like `toolu_01ABC...`; offline
# ids start `toolu_offline_`). The id is how we will say which request a result answers.

# %%
call = next(block for block in response.content if block.type == "tool_use")
print("id:   ", call.id)
print("name: ", call.name)
print("input:", call.input)
if OFFLINE:
    assert response.stop_reason == "tool_use" and call.name == "bash"

# %% [markdown]
# ## 4. `run_bash`: doing what the model asked
#
# The seed's `run_bash` runs the command with `subprocess.run`:
#
# - `shell=True`: a shell interprets the line, so pipes, `>` and `*.py` work (and so does
#   anything else a shell can do: that is the risk);
# - `cwd=WORKDIR`: the command runs in the workspace, where the model thinks it is;
# - `capture_output=True, text=True`: stdout and stderr come back as strings, and we **merge**
#   them, because the model needs the errors as much as the output;
# - `timeout=120`: a command that hangs is stopped after two minutes;
# - `[:50000]`: the output is cut so one command cannot flood the model's context;
# - `"(no output)"`: an empty string would leave the model guessing whether anything ran.
#
# One change from the seed, on purpose: the command gets an environment *without* your
# `ANTHROPIC_*` variables, so nothing the model runs can print your key. (`timeout` is a
# parameter here only so we can demonstrate it without waiting two minutes.)

# %%
import os
import subprocess

SAFE_ENV = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}

def run_bash(command: str, timeout: float = 120) -> str:
    dangerous = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]
    if any(d in command for d in dangerous):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"Error: Timeout ({timeout}s)"
    except (FileNotFoundError, OSError) as e:
        return f"Error: {e}"
    out = (r.stdout + r.stderr).strip()
    return out[:50000] if out else "(no output)"


# %% [markdown]
# Each behaviour, shown: merged output, an empty result, a cut, a timeout.

# %%
print(run_bash("echo to stdout; echo to stderr >&2; ls no-such-file"))
print(run_bash("true"))
print(len(run_bash("head -c 60000 /dev/zero | tr '\\0' x")), "characters came back of 60000")
print(run_bash("sleep 5", timeout=0.5))

# %% [markdown]
# ### The deny-list is not security
#
# `run_bash` refuses commands that *contain* `sudo`, `rm -rf /`, `shutdown`, `reboot` or
# `> /dev/`. It is a substring check, so it blocks harmless commands and misses dangerous ones.
# The shell removes the quotes in `s''udo` before it runs anything, so the check sees
# `s''udo` while the shell runs `sudo`. We demonstrate that safely with `echo`, which only
# prints the word:

# %%
from agentlib.seed import seed_is_dangerous

for command in ["sudo ls", "ls 2> /dev/null", "grep sudo notes.txt", "echo s''udo", "rm -fr /tmp/x"]:
    print(f"{command!r:24} blocked by the seed's check: {seed_is_dangerous(command)}")
print(run_bash("echo s''udo"))

# %% [markdown]
# The harmless `ls 2> /dev/null` and `grep sudo notes.txt` are blocked; `s''udo` and
# `rm -fr /` (flags swapped) get through. A list of bad words cannot describe what a shell
# can do: the only real boundary is *where* the command runs. `agentlib`'s `Workspace.bash`
# keeps the seed's list only as a courtesy check and runs commands in an isolated sandbox
# where the machine allows it (no network, only the workspace writable; see s02):

# %%
ws = course.workspace  # agentlib.Workspace(WORKDIR)
print("isolation:", ws.isolation)
print(ws.bash("echo s''udo; exit 3"))

# %% [markdown]
# ## 5. You are the loop: sending the result back
#
# Now do by hand what the loop will do. Run the command the model asked for:

# %%
output = run_bash(call.input["command"])
print(output)

# %% [markdown]
# The result goes back as a `tool_result` block whose `tool_use_id` is the `id` of the request
# it answers. It travels in a message with role **user**: in the Messages API, tool results are
# information the user's side provides. First the assistant's reply is appended, so the
# history alternates user → assistant (with `tool_use`) → user (with `tool_result`).

# %%
messages.append({"role": "assistant", "content": response.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": call.id, "content": output},
]})
len(messages)

# %% [markdown]
# The pairing is checked by the API. Answer with an id that no `tool_use` asked for and the
# request is refused with a 400 (`anthropic.BadRequestError`), before any model sees it:

# %% tags=["raises-exception"]
wrong = messages[:-1] + [{"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_made_up", "content": output},
]}]
client.messages.create(model=MODEL, system=SYSTEM, messages=wrong, tools=TOOLS, max_tokens=8000)

# %% [markdown]
# With the right id, the model reads the result and answers:

# %%
response = client.messages.create(
    model=MODEL, system=SYSTEM, messages=messages,
    tools=TOOLS, max_tokens=8000,
)
print("stop_reason:", response.stop_reason)
print("\n".join(block.text for block in response.content if block.type == "text"))
if OFFLINE:
    assert response.stop_reason == "end_turn" and "main.py" in response.content[0].text


# %% [markdown]
# ## 6. The whole loop
#
# You just were the loop: call the model, append its reply, stop unless it asked for a tool,
# run each tool, append the results, call again. Written down, it is the seed's loop, line
# for line:

# %%
def agent_loop(messages: list):
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


# %% [markdown]
# One exit: `stop_reason != "tool_use"`. `max_tokens=8000` caps each *reply* (tool requests
# count too), so one answer cannot run away. The loop has no rules about safety, permissions
# or planning: those are layered on in later chapters; the loop itself never changes.
#
# ## 7. The try-it prompts, drawn round by round
#
# The seeds suggest four prompts. Each runs the loop above on a fresh history; `show()` draws
# the run: one row per round, what was sent, what the model answered, which tool ran and what
# it returned (the drawing works in the browser without the kernel; use the arrows to step).

# %%
from agentlib.widgets import show

history = [{"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'}]
agent_loop(history)
show(history, offline=OFFLINE)

# %%
print(run_bash("python3 hello.py"))
if OFFLINE:
    assert run_bash("python3 hello.py") == "Hello, World!"

# %%
history = [{"role": "user", "content": "List all Python files in this directory"}]
agent_loop(history)
show(history, offline=OFFLINE)

# %% [markdown]
# The third prompt needs a git repository; we make the workspace one (an empty repository on
# branch `main`), then ask.

# %%
print(run_bash("git init -q -b main && echo initialised"))
history = [{"role": "user", "content": "What is the current git branch?"}]
agent_loop(history)
show(history, offline=OFFLINE)

# %%
history = [{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}]
agent_loop(history)
show(history, offline=OFFLINE)

# %%
made = sorted(p.name for p in (WORKDIR / "test_output").iterdir())
print(made)
if OFFLINE:
    assert len(made) == 3

# %% [markdown]
# ## 8. Every stop reason, and what a loop should do with it
#
# `stop_reason` is the only thing the loop branches on. These are all the values the API
# sends (plus `max_rounds`, which is ours: a fuse, see below):

# %%
from agentlib.widgets.reasons import STOP_REASONS

for reason, (meaning, next_step) in STOP_REASONS.items():
    print(f"{reason:30} {meaning}\n{'':30} -> {next_step}")

# %% [markdown]
# The seed's loop returns on everything except `tool_use`. That is right for `end_turn`,
# `stop_sequence` and `refusal`. Two cases deserve more: `pause_turn` should *continue* (send
# the history back and the server resumes), and after `max_tokens` the reply is cut off, so a
# half-written tool call must not be run. Watch a reply being cut at 5 tokens:

# %%
cut = client.messages.create(
    model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=5,
    messages=[{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}],
)
print("stop_reason:", cut.stop_reason)
print(cut.content)

# %% [markdown]
# `agentlib.agent_loop` is the same loop with those cases handled: it continues on
# `pause_turn`, never runs a tool call from a cut-off reply, and has a fuse, `max_rounds`, that
# ends a loop that never stops asking for tools. Its state says why it stopped. (The seed's
# full s01 script keeps the same facts in a small `LoopState`: `messages`, `turn_count` and
# `transition_reason`. `agentlib.LoopState` keeps `messages`, `rounds` (the seed calls a round a turn), `stop_reason`,
# `why` and the events of the run.)

# %%
task = [{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=course.tools(agentlib.s01_tools(ws)),
                            system=SYSTEM, max_tokens=5)
print(state.stop_reason, "->", state.why)
task = [{"role": "user", "content": "List all Python files in this directory"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=course.tools(agentlib.s01_tools(ws)),
                            system=SYSTEM, max_rounds=1)
print(state.stop_reason, "->", state.why)

# %% [markdown]
# ## 9. Why the reply is appended *before* the check
#
# Even when the model stops calling tools, its last reply (the answer) belongs in the history:
# the REPL below reads it from `history[-1]`, and the next question must follow an assistant
# message. Had the loop returned before appending, the history would end with the tool
# results, and the next question would make two user messages in a row. `check_history`
# explains, in words, what the API would refuse:

# %%
from agentlib import check_history

print("appended first:", check_history(history + [{"role": "user", "content": "next question"}]))
lost_answer = history[:-1] + [{"role": "user", "content": "next question"}]
for problem in check_history(lost_answer):
    print("checked first: ", problem)

# %% [markdown]
# ## 10. The history grows every round, and you pay for all of it
#
# Each call sends the *whole* list, not the new part. Round 10 resends rounds 1 to 9. The
# model has a complete memory; the price is input tokens that grow with every round. The
# events `agentlib.agent_loop` records show it, from each reply's `usage`:

# %%
task = [{"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
total = 0
for event in state.events:
    if event.kind == "round_started":
        sent = len(event.messages)
    if event.kind == "model_replied":
        total += event.usage["input_tokens"]
        print(f"round {event.round}: {sent} messages sent, {event.usage['input_tokens']} input tokens")
print("input tokens paid for the whole run:", total, "(estimates)" if OFFLINE else "")

# %% [markdown]
# Later chapters (s06) compress the history to keep this cost down.
#
# ## 11. The system prompt names the working directory
#
# `system` is not one of the `messages`: the API keeps it apart from the user/assistant
# alternation and sends it with every call. Ours says where the agent is. Without it the model
# may assume it is in `/` or somewhere random, and reach for paths that do not exist. "Act,
# don't explain" pushes the model to *do* the task rather than describe what it would do.

# %%
print(SYSTEM)
assert str(WORKDIR) in SYSTEM

# %% [markdown]
# ## 12. Setting up the environment, as the seed does
#
# The seed's script starts like this (we do not run it here: `connect()` did the equivalent):
#
# ```python
# load_dotenv(override=True)
# if os.getenv("ANTHROPIC_BASE_URL"):
#     os.environ.pop("ANTHROPIC_AUTH_TOKEN", None)
# client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
# MODEL = os.environ["MODEL_ID"]
# ```
#
# **`override=True`**: when `.env` and the environment disagree, `.env` wins, so the project's
# file decides whatever your shell has set. Shown with a throwaway file and a harmless variable:

# %%
from dotenv import load_dotenv

demo_env = Path(tempfile.mkdtemp()) / ".env"
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
# compatible gateway) that expects the API key you give it. The seed's commentary says the SDK
# would prefer the token over the key; SDK 2.x no longer does (when both are set the key wins,
# with a warning). The line still earns its place: when the token is the only credential, the
# SDK sends it, a credential meant for Anthropic, to the other host. The SDK shows what it
# would send (a placeholder token, nothing real):

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
# `KeyError` at once when the variable is missing: a failure at the start, naming the cause.
# `getenv` quietly returns `None`, and the error arrives later, from the API, about a model
# called `None`. (On a copy without `MODEL_ID`, so your own setting does not matter here.)

# %%
env = {k: v for k, v in os.environ.items() if k != "MODEL_ID"}
print("getenv-style:", env.get("MODEL_ID"))

# %% tags=["raises-exception"]
MODEL_FROM_ENV = env["MODEL_ID"]


# %% [markdown]
# ## 13. The REPL: history across questions
#
# The seed's entry point asks for questions in a loop (`input("s01 >> ")`) and keeps **one**
# history for all of them, so the second question can build on the first. After each run it
# prints the text blocks of the last message (`hasattr(block, "text")` keeps text blocks and
# skips tool calls). Its prompt, `"\033[36ms01 >> \033[0m"`, is cyan: `\033` is the escape
# character, `[36m` switches the terminal's text colour to cyan and `[0m` resets it, as a
# `<span style="color:cyan">` would on a web page. `input()` cannot run here, so we feed it two
# questions in a row; in a terminal, `python -m agentlib s01` is the real thing.

# %%
def ask(history: list, query: str) -> None:
    history.append({"role": "user", "content": query})
    agent_loop(history)
    response_content = history[-1]["content"]
    if isinstance(response_content, list):
        for block in response_content:
            if hasattr(block, "text"):
                print(block.text)


# %%
history = []
for query in ['Create a file called hello.py that prints "Hello, World!"',
              "List all Python files in this directory"]:
    print(f"s01 >> {query}")
    ask(history, query)
    print(f"        ({len(history)} messages in the history now)\n")

# %% [markdown]
# ## 14. The seeds' walkthrough, as a real run
#
# The seeds trace one question through the loop: "列出当前目录的 Python 文件" ("list the
# Python files in the current directory") in a folder holding `hello.py` and `main.py`. Ours
# holds exactly those two:

# %%
python_files = sorted(p.name for p in WORKDIR.glob("*.py"))
assert python_files == ["hello.py", "main.py"], f"{python_files}: run section 7 first"
history = [{"role": "user", "content": "列出当前目录的 Python 文件"}]
agent_loop(history)

# %% [markdown]
# Round 1: the model answers `tool_use` with a `bash` call; the loop appends the reply, runs
# the command and appends the `tool_result` (3 messages). Round 2: the model sees the file
# names and answers `end_turn`; the loop appends the answer and returns. The model did not
# answer in round 1 because it knew it did not know: the tool filled the gap. (The seeds'
# model ran `ls *.py`; the offline model runs `find`, which also looks in subfolders. It says
# what it is about to do in a text block next to the call, as real models often do.)

# %%
for i, message in enumerate(agentlib.to_dict(history)):
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for block in blocks:
        detail = block.get("text") or block.get("input") or block.get("content")
        print(f"messages[{i}] {message['role']:9} {block['type']:11} {detail!r}")

# %%
if OFFLINE:
    assert [b.type for b in history[1]["content"]] == ["text", "tool_use"]
    assert history[2]["content"][0]["content"] == "./hello.py\n./main.py"
    assert history[3]["content"][0].text == "当前目录有2个Python文件：hello.py、main.py"
show(history, offline=OFFLINE)

# %% [markdown]
# ## 15. Your loop and `agentlib.agent_loop`: the same transcript
#
# `agentlib`'s loop is yours plus the fuse, the events and the stop-reason handling. To show
# that nothing else differs, both run the same scripted conversation (always offline: a real
# model would not answer twice the same) with the same `run_bash`, and we compare the
# transcripts. `Script` queues the model's replies; `call` and `say` build them.

# %%
from agentlib.offline import Script, call, offline_client, say

def same_script():
    return Script(call("bash", command="ls *.py"), call("bash", command="python3 hello.py"),
                  say("Two Python files; hello.py prints Hello, World!"))

question = "List the Python files, then run hello.py"

# %%
saved = client, MODEL
client, MODEL = offline_client(same_script())  # the hand-built loop reads the globals
by_hand = [{"role": "user", "content": question}]
agent_loop(by_hand)
client, MODEL = saved

# %% [markdown]
# The library's loop, drawn *while it runs* with `live()`, using your `TOOLS` and `run_bash`:

# %%
from agentlib.widgets import live

diagram = live()
script_client, script_model = offline_client(same_script())
state = agentlib.agent_loop(
    [{"role": "user", "content": question}], client=script_client, model=script_model,
    tools=agentlib.Toolbox.from_dicts(TOOLS, {"bash": run_bash}), system=SYSTEM,
    on_event=diagram.on_event,
)

# %%
assert agentlib.to_dict(by_hand) == state.messages
print(f"same transcript: {len(state.messages)} messages, stopped on {state.stop_reason!r}")

# %% [markdown]
# ## What to take away
#
# - The smallest agent is a loop: the model keeps calling tools until it decides the task is
#   done. `while True` → call the model → return if `stop_reason != "tool_use"` → otherwise
#   run the tools, send the results back, go round again.
# - Tool results go back as `tool_result` blocks in a user message; the history only grows.
# - The loop itself has no rules about safety, permissions or planning: those are layered on
#   in later chapters (s02 starts with the workspace), and the loop stays as it is.
# - Easy to confuse: a model that can *think* is not a system that can *act*. What lets it act
#   is the loop: watch how `messages`, `tool_use` and `tool_result` close the circle.
#
# ## For instructors: your own tools and script
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this cell runs the library loop with the s01 toolbox
# plus your tools, the offline model following your script, and draws it. By default it does
# nothing.

# %%
run = course.run_script(course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
if run:
    display(show(run, offline=True))

# %% [markdown]
# ## Exercises
#
# 1. Ask your own question: `h = [{"role": "user", "content": "..."}]; agent_loop(h); show(h)`.
#    Offline, anything outside the try-it prompts gets an honest "I am the offline model"
#    answer; with a key (`BACKEND = "auto"`), a real one.
# 2. Make `run_bash` report a non-zero exit code (`r.returncode`) the way `Workspace.bash` does.
#    Why does the model need it, when the output is already there?
# 3. Write a `Script` whose second reply calls a tool that does not exist, and run your loop
#    on it. What happens, and where would you fix it? (s02 answers this.)
# 4. Change your loop so it continues on `pause_turn` and never runs tools after `max_tokens`.
#    Compare with `agentlib/loop.py`.
# 5. Find another command the deny-list misses or wrongly blocks, and test it with
#    `seed_is_dangerous` (not by running it).
