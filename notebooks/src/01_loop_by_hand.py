# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s01 · The agent loop, part 1: you are the loop
#
# **You will be able to:** make one model call with a tool, run the command it asks for, send
# the result back, and then write the whole loop that does this for you.
#
# **You need:** notebook 00 (setup). No API key: an offline model answers behind the real
# `anthropic` SDK; only its decisions are scripted.
#
# > "One loop & Bash is all you need": one tool plus one loop makes an agent.
#
# ```
# +--------+      +-------+      +---------+
# |  User  | ---> |  LLM  | ---> |  Tool   |
# | prompt |      |       |      | execute |
# +--------+      +---+---+      +----+----+
#                     ^                |
#                     |   tool_result  |
#                     +----------------+
#                     (loop until stop_reason != "tool_use")
# ```
#
# The question is the first message; the model answers or asks for a tool; the code runs
# the tool and sends the result back, round and round until the model stops asking. The
# code around the model (loop, tools, history) is the **harness**: the model is the brain,
# the harness the body.

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %% [markdown]
# `Course` reads the parameters, connects to the model (`client`, `MODEL`) and gives the
# agent a folder of its own, its *workspace*. One file in it gives the agent something to find.

# %%
import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s01", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
WORKDIR = ws.root
OFFLINE = course.offline  # checks marked `if OFFLINE:` hold for the scripted model only
(WORKDIR / "main.py").write_text('print("main")\n')
print("workspace:", WORKDIR)

# %% [markdown]
# ## 1. A model that can reason but cannot act
#
# Ask a chat model "which Python files are in my folder?" and it cannot know. Unless you run
# `ls *.py`, paste the result into the chat, run the next command... **You are the loop.**
# This notebook makes you that loop on purpose, then replaces you with 19 lines of code.
#
# Everything starts with a list of messages, the question first. One call, without tools:

# %%
messages = [{"role": "user", "content": "List all Python files in this directory"}]
chat = client.messages.create(model=MODEL, max_tokens=1000, messages=messages)
print("stop_reason:", chat.stop_reason)
print(chat.content[0].text[:300])

# %% [markdown]
# What comes back is a `Message`: a list of content blocks, and a `stop_reason` saying why
# the model stopped. `end_turn` means "I am done": with no way to look, the model can only
# talk.
#
# ## 2. The bash tool
#
# A tool definition has three fields: `name` (what the model writes when it asks),
# `description` (how it decides *when* to ask) and `input_schema`, a JSON Schema of the
# arguments, which the model fills in as a contract.

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
SYSTEM = f"You are a coding agent at {WORKDIR}. Use bash to solve tasks. Act, don't explain."

response = client.messages.create(
    model=MODEL, system=SYSTEM, messages=messages,
    tools=TOOLS, max_tokens=8000,
)
print("stop_reason:", response.stop_reason)
for block in response.content:
    print(f"[{block.type}]", block)

# %% [markdown]
# The system prompt has its own `system` field. It names the workspace (or the model may
# assume it is in `/`) and says "act, don't explain".
#
# `stop_reason == "tool_use"`: the model runs nothing; it *asks*, with a `tool_use` block: a
# `name`, an `input` that follows the schema, and an `id` made by the API, which says which
# request a result answers.

# %%
call = next(block for block in response.content if block.type == "tool_use")
print("id:   ", call.id)
print("input:", call.input)
if OFFLINE:
    assert response.stop_reason == "tool_use" and call.name == "bash"

# %% [markdown]
# ## 3. `run_bash`: doing what the model asked
#
# The seed's `run_bash` runs the command with `subprocess.run`:
#
# - `shell=True`: a shell reads the line, so pipes, `>` and `*.py` work (and so does anything
#   else a shell can do: that is the risk);
# - `cwd=WORKDIR`: the command runs in the workspace;
# - stdout and stderr are **merged**: the model needs the errors as much as the output;
# - `timeout=120`: a command that hangs is stopped after two minutes;
# - `OSError` (`FileNotFoundError` is one kind): the shell itself could not start, e.g. a
#   command line too long for the system. A program that does not exist is not one: the
#   shell answers that in text, with exit status 127;
# - `[:50000]`: one command cannot flood the model's context;
# - `"(no output)"`: an empty string would leave the model guessing whether anything ran.
#
# One change from the seed: the command gets no `ANTHROPIC_*` variables, so nothing it runs
# can print your key. (`timeout` is a parameter so the demonstration need not wait.)

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


# %%
print(run_bash("echo to stdout; echo to stderr >&2"))
print(run_bash("true"))
print(len(run_bash("head -c 60000 /dev/zero | tr '\\0' x")), "characters came back of 60000")
print(run_bash("sleep 5", timeout=0.5))
print(run_bash("nosuchprogram"), "| exit status:", subprocess.run("nosuchprogram", shell=True, capture_output=True).returncode)
print(run_bash("echo " + "x" * 200_000))

# %% [markdown]
# ### The deny-list is not security
#
# `run_bash` refuses commands that *contain* `sudo`, `rm -rf /`, `shutdown`, `reboot` or
# `> /dev/`: a substring check. The shell removes the quotes in `s''udo` before it runs
# anything, so the check sees `s''udo` while the shell runs `sudo` (shown safely with `echo`).
# We test the commands with the seed's check only, never by running them:

# %%
from agentlib.seed import seed_is_dangerous

for command in ["sudo ls", "ls 2> /dev/null", "grep sudo notes.txt", "echo s''udo", "rm -fr /"]:
    print(f"{command!r:24} blocked by the seed's check: {seed_is_dangerous(command)}")
print(run_bash("echo s''udo"))

# %% [markdown]
# The harmless `ls 2> /dev/null` and `grep sudo notes.txt` are blocked; `s''udo` gets
# through, and so does `rm -fr /`, the very command the list means with its flags swapped.
# The real boundary is *where* the command runs: `agentlib`'s `Workspace.bash` runs it in an
# isolated sandbox where the machine allows it (`bwrap`: no network, only the workspace
# writable), and says which isolation it got:

# %%
print("isolation:", ws.isolation)
print(ws.bash("echo s''udo; exit 3"))

# %% [markdown]
# ### Exercise 1: tell the model the exit code
#
# `Workspace.bash` ended its output with the exit code. The seed's `run_bash` does not: a
# failing command that prints nothing looks like success, and `nosuchprogram` gave no
# status. Write `run_bash_with_status`: like
# `run_bash`, but when the exit code (`r.returncode`) is not 0, add a last line such as
# `(exit code 3)`. Keep `(no output)` for a silent success.

# %% tags=["exercise"]
def run_bash_with_status(command: str) -> str:
    raise NotImplementedError("call subprocess.run as run_bash does, then add the exit code")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def run_bash_with_status(command: str) -> str:
#     r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
#                        capture_output=True, text=True, timeout=120)
#     out = (r.stdout + r.stderr).strip()
#     if r.returncode != 0:
#         out = f"{out}\n(exit code {r.returncode})".strip()
#     return out[:50000] if out else "(no output)"
# ```
#
# </details>

# %%
# The check runs your function on four commands, then in a loop where the model runs a
# script that exits with code 4, and says what the model read.
from agentlib.course.checks import check_agent_loop, check_exit_code, check_tool_results

check_exit_code(run_bash_with_status)

# %% [markdown]
# ## 4. You are the loop: sending the result back
#
# Do by hand what the loop will do. Run the command the model asked for:

# %%
output = run_bash(call.input["command"])
print(output)

# %% [markdown]
# The result goes back as a `tool_result` block whose `tool_use_id` is the `id` of the request
# it answers, in a message with role **user**. *Before* it comes the model's own reply: a
# result must answer a `tool_use` in the message just before, and the only copy of that
# request is the reply we received. (Two user messages in a row the API would just merge.)

# %%
history = [
    messages[0],  # the question
    {"role": "assistant", "content": response.content},  # the reply, with its tool_use
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": output}]},
]
len(history)

# %% [markdown]
# The API checks both rules before any model sees the request. Skip the reply, or answer an
# id nobody asked for, and the request is refused with a 400. (`expect_error` prints an error
# shown on purpose in a few lines, and fails the cell if the error stops happening.)

# %%
import anthropic
from agentlib.course import expect_error

without_reply = [history[0], history[2]]
with expect_error(anthropic.BadRequestError, why="a tool_result must answer a tool_use in the message right before it"):
    client.messages.create(model=MODEL, system=SYSTEM, messages=without_reply, tools=TOOLS, max_tokens=8000)

# %%
made_up_id = history[:2] + [{"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_made_up", "content": output},
]}]
with expect_error(anthropic.BadRequestError, why="every tool_use must be answered by its own id"):
    client.messages.create(model=MODEL, system=SYSTEM, messages=made_up_id, tools=TOOLS, max_tokens=8000)

# %% [markdown]
# In the first error, `messages.0.content.1` is the tool result: without the reply between
# them, the API merged the two user messages into one, and then found a result that answers
# nothing. With the right history, the model reads the result and answers:

# %%
answer = client.messages.create(
    model=MODEL, system=SYSTEM, messages=history,
    tools=TOOLS, max_tokens=8000,
)
print("stop_reason:", answer.stop_reason)
print(answer.content[-1].text)
if OFFLINE:
    assert answer.stop_reason == "end_turn" and "main.py" in answer.content[-1].text

# %% [markdown]
# ### Exercise 2: results for every call in a reply
#
# A reply can hold several `tool_use` blocks (and text blocks next to them). Write
# `tool_results(content)`: for each `tool_use` block in `content`, run
# `run_bash(block.input["command"])` and make a `tool_result` block for it; return the list,
# in order. Text blocks get no result.

# %% tags=["exercise"]
def tool_results(content: list) -> list[dict]:
    raise NotImplementedError("loop over content; for each tool_use block, run it and build a tool_result")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def tool_results(content: list) -> list[dict]:
#     results = []
#     for block in content:
#         if block.type == "tool_use":
#             output = run_bash(block.input["command"])
#             results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
#     return results
# ```
#
# </details>

# %%
# The check asks the offline model for a reply with a text block and two bash calls, feeds
# it to your function, and sends the history with your results back to the API.
check_tool_results(tool_results)

# %% [markdown]
# ## 5. Exercise 3: the whole loop
#
# You just were the loop: call the model with the whole history, append its reply, return
# unless `stop_reason` is `"tool_use"`, run each tool, append the results as a user message,
# call again. Write `agent_loop(messages)`: it uses `client`, `MODEL`, `SYSTEM`, `TOOLS` and
# `run_bash` from above, `max_tokens=8000`, and changes `messages` in place (the seed's: 19 lines).

# %% tags=["exercise"]
def agent_loop(messages: list):
    raise NotImplementedError("while True: call the model, append, check stop_reason, run tools, append")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def agent_loop(messages: list):
#     while True:
#         response = client.messages.create(
#             model=MODEL, system=SYSTEM, messages=messages,
#             tools=TOOLS, max_tokens=8000,
#         )
#         messages.append({"role": "assistant", "content": response.content})
#         if response.stop_reason != "tool_use":
#             return
#         results = []
#         for block in response.content:
#             if block.type == "tool_use":
#                 output = run_bash(block.input["command"])
#                 results.append({
#                     "type": "tool_result",
#                     "tool_use_id": block.id,
#                     "content": output,
#                 })
#         messages.append({"role": "user", "content": results})
# ```
#
# </details>

# %%
# The check swaps in a scripted model for the length of one run (two bash calls, then an
# answer), runs your loop, and reads the history it left.
verdict = check_agent_loop(agent_loop)
verdict

# %% [markdown]
# Your loop, drawn: once the check says it works, this cell runs it on section 1's question
# and `show()` draws the history it left, one row per round (what was sent, what the model
# answered, which tool ran, why the loop stopped). Step through it with the arrow keys.

# %%
from agentlib.widgets import show

drawn = [{"role": "user", "content": "List all Python files in this directory"}]
if verdict.ok:
    agent_loop(drawn)
    display(show(drawn, offline=OFFLINE, tools=TOOLS, lang=course.lang))
else:
    print("This cell draws your loop once the check above says it works.")

# %% [markdown]
# One exit, `stop_reason != "tool_use"`; `max_tokens=8000` caps each reply (a tool request
# counts too). The loop has no rules about safety, permissions or planning: later chapters
# add them, and the loop stays as it is. Notebook 02 runs it on the seed's prompts.


# %% [markdown]
# ## For instructors
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this cell runs the library loop with the s01 tools
# plus yours (see `99_appendix`). By default it does nothing.

# %%
tools = course.tools(agentlib.s01_tools(ws))
run = course.run_script(tools, system=SYSTEM)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## Quiz
#
# Answer in your head, then click.

# %% [markdown] tags=["quiz"]
# **1.** The model's reply has `stop_reason == "tool_use"`. Who runs the command?
#
# <details><summary>Answer</summary>Your code (the harness). The model only asks, with a
# <code>tool_use</code> block; nothing runs unless the loop runs it.</details>
#
# **2.** Which role carries a `tool_result`, and what ties it to its request?
#
# <details><summary>Answer</summary>Role <code>user</code>; its <code>tool_use_id</code> equals the <code>id</code> of the
# <code>tool_use</code> block it answers (a made-up id gets a 400).</details>
#
# **3.** Why append the assistant's reply *before* the results?
#
# <details><summary>Answer</summary>A result must answer a <code>tool_use</code> in the message right
# before it, and the reply is the only copy of that request (two user messages in a row
# alone would just be merged).</details>
#
# **4.** Why does `run_bash` merge stderr into the output and say `(no output)`?
#
# <details><summary>Answer</summary>The model learns from errors as much as from output, and
# an empty string would leave it guessing whether the command ran.</details>
#
# **5.** Does the deny-list stop `rm -fr /`?
#
# <details><summary>Answer</summary>No: it looks for the substring <code>rm -rf /</code>. Only
# isolation (where a command runs) is a boundary.</details>

