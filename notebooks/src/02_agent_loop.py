# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s01 · The agent loop, part 2: the loop at work
#
# **You will be able to:** run the loop on the seed's prompts and read each run round by
# round, handle every `stop_reason`, say what each round costs, and use `agentlib`'s loop,
# which is yours plus a round limit.
#
# **You need:** notebook 01 (you wrote the loop there). No API key.
#
# One question, traced through the loop (the seeds' walkthrough; we run it in section 2):
#
# ```
# User: "列出当前目录的 Python 文件"  (list the Python files here)
#     ↓
# messages = [user question]
#     ↓
# [model call] → stop_reason = "tool_use", content = [tool_use bash "ls *.py"]
#     ↓
# messages.append(assistant reply)          # "I want to run ls *.py"
#     ↓
# run_bash("ls *.py") → "hello.py\nmain.py"
#     ↓
# messages.append(user: [tool_result "hello.py\nmain.py"])
#     ↓
# [model call] → stop_reason = "end_turn", content = [text "2 Python files..."]
#     ↓
# messages.append(assistant answer); stop_reason != "tool_use" → return
# ```

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %% [markdown]
# Notebook 01's pieces in one cell: the client, the workspace with its `main.py`, the bash
# tool's schema, the system prompt and `run_bash`.

# %%
import os
import subprocess

import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s01", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
WORKDIR = ws.root
OFFLINE = course.offline
(WORKDIR / "main.py").write_text('print("main")\n')
TOOLS = agentlib.s01_tools(ws).TOOLS  # the bash tool's schema, as in notebook 01
SYSTEM = f"You are a coding agent at {WORKDIR}. Use bash to solve tasks. Act, don't explain."

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
# The loop, as you wrote it in notebook 01 (the seed's own, line for line):

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
# ## 1. The try-it prompts, drawn round by round
#
# The seeds' four prompts, each on a fresh history. `show()` draws each run as in notebook
# 01: one row per round (one model call); step through with the slider or the arrow keys.

# %%
from agentlib.widgets import show

history = [{"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %%
print(run_bash("python3 hello.py"))
if OFFLINE:
    assert run_bash("python3 hello.py") == "Hello, World!"
history = [{"role": "user", "content": "List all Python files in this directory"}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# The third prompt needs a git repository; we make the workspace one (branch `main`):

# %%
print(run_bash("git init -q -b main && echo initialised"))
history = [{"role": "user", "content": "What is the current git branch?"}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %%
history = [{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}]
agent_loop(history)
made = sorted(p.name for p in (WORKDIR / "test_output").iterdir())
print(made)
if OFFLINE:
    assert len(made) == 3
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# ## 2. The walkthrough, as a real run
#
# The picture at the top, run. The workspace holds two Python files, `hello.py` and `main.py`,
# next to the three files the fourth prompt wrote:

# %%
history = [{"role": "user", "content": "列出当前目录的 Python 文件"}]
agent_loop(history)
for i, message in enumerate(agentlib.to_dict(history)):
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for block in blocks:
        detail = block.get("text") or block.get("input") or block.get("content")
        print(f"messages[{i}] {message['role']:9} {block['type']:11} {detail!r}")

# %% [markdown]
# Round 1: the model asks for `bash`; the loop appends the reply, runs the command, appends
# the result. Round 2: the model reads the names and answers (`end_turn`). It did not answer
# in round 1 because it knew it did not know: the tool filled the gap. (The offline model
# runs `find`, not `ls *.py`, and says what it is about to do, as real models often do.)
#
# ## 3. Why the answer is appended before the check
#
# The loop appends every reply *before* it looks at `stop_reason`, the last one included.
# The last reply is the answer: the REPL prints it from `history[-1]`, and the next question
# builds on it. A loop that returned first would lose it, and the history would end with the
# tool results:

# %%
def loop_that_checks_first(messages: list):
    while True:
        response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                          tools=TOOLS, max_tokens=8000)
        if response.stop_reason != "tool_use":
            return
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": run_bash(b.input["command"])}
            for b in response.content if b.type == "tool_use"
        ]})


lost = [{"role": "user", "content": "List all Python files in this directory"}]
loop_that_checks_first(lost)
print("last message:", lost[-1]["role"], [b["type"] for b in lost[-1]["content"]])
print("the answer is nowhere in the history:", not any(
    m["role"] == "assistant" and any(b.type == "text" and "hello.py" in b.text for b in m["content"])
    for m in lost))

# %% [markdown]
# The API would even accept the next question after it: two user messages in a row are
# merged into one turn. Nothing fails; the answer is simply gone, and the model never sees
# what it told you.

# %%
reply = client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=8000,
                               messages=lost + [{"role": "user", "content": "Thanks. What did you find?"}])
print("accepted:", reply.stop_reason)

# %% [markdown]
# ## 4. Every stop reason
#
# `stop_reason` is the only thing the loop branches on. Every value the API sends, what it
# means and what a loop should do:

# %%
from agentlib.widgets.reasons import STOP_REASONS
from agentlib.widgets.words import stop_words, words

for reason in STOP_REASONS:
    meaning, next_step = stop_words(words(course.lang), reason)
    if reason != agentlib.OUT_OF_ROUNDS:
        print(f"{reason:30} {meaning}\n{'':30} -> {next_step}")

# %% [markdown]
# The seed's loop returns on everything except `tool_use`. That is right for `end_turn`,
# `stop_sequence` and `refusal`. Two cases need more. `pause_turn` should *continue*: append
# the paused reply (it holds the work so far), then call again, and the server resumes from
# it. After `max_tokens` the reply is cut off, so a half-written tool call must not be run;
# `model_context_window_exceeded` is the same cut, made by a full context window instead:
# handle it like `max_tokens`. A reply cut at 20 tokens, inside its tool call:

# %%
cut_off = [{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}]
cut = client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=20, messages=cut_off)
print("stop_reason:", cut.stop_reason)
for block in cut.content:
    print(f"[{block.type}]", block.text if block.type == "text" else f"{block.name} {block.input}")

# %% [markdown]
# ### Exercise 4: handle `pause_turn` and `max_tokens`
#
# Copy the loop above into the cell below and change it so that after `pause_turn` it calls
# the model again (the reply is appended, nothing is run), and after `max_tokens` it returns
# without running any tool. Every other stop reason still returns, and `tool_use` still runs
# the tools.

# %% tags=["exercise"]
def agent_loop_v2(messages: list):
    raise NotImplementedError("start from agent_loop above; add the pause_turn and max_tokens cases")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def agent_loop_v2(messages: list):
#     while True:
#         response = client.messages.create(
#             model=MODEL, system=SYSTEM, messages=messages,
#             tools=TOOLS, max_tokens=8000,
#         )
#         messages.append({"role": "assistant", "content": response.content})
#         if response.stop_reason == "pause_turn":
#             continue
#         if response.stop_reason != "tool_use":  # max_tokens returns here too
#             return
#         results = []
#         for block in response.content:
#             if block.type == "tool_use":
#                 output = run_bash(block.input["command"])
#                 results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
#         messages.append({"role": "user", "content": results})
# ```
#
# </details>

# %%
# The check runs your loop on two scripted replies: one paused turn, then one tool call cut
# off at max_tokens (with a run_bash that records what it is asked to run).
from agentlib.course.checks import check_stop_reasons

check_stop_reasons(agent_loop_v2)

# %% [markdown]
# The cut reply is appended and the loop returns: the history is kept, and nothing half-written
# ran. But the history now ends with a `tool_use` nobody answered, and the next question is
# refused:

# %%
import anthropic
from agentlib.course import expect_error

cut_off = cut_off[:1] + [{"role": "assistant", "content": cut.content},
                         {"role": "user", "content": "Try again with a shorter plan."}]
with expect_error(anthropic.BadRequestError, why="the cut-off tool_use was never answered"):
    client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=8000, messages=cut_off)

# %% [markdown]
# Before the next call, the cut call needs a `tool_result` of its own. Notebook 04 builds
# `normalize_messages`, which adds one; `agentlib.agent_loop` runs it before every call, so
# the same history goes through:

# %%
state = agentlib.agent_loop(cut_off, client=client, model=MODEL, tools=course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
print("agentlib.agent_loop on that history: accepted, stop_reason", repr(state.stop_reason))

# %% [markdown]
# ## 5. `agentlib.agent_loop`: your loop, plus a round limit
#
# `agentlib.agent_loop` is the same loop with the stop reasons handled as in exercise 4,
# plus a **round limit**, `max_rounds` (a round is one model call): a loop that never stops
# asking for tools ends there. It takes the client, model and tools as arguments, and returns
# a `LoopState`: the `messages`, the number of `rounds`, the `stop_reason` and `why` (the
# seed's `LoopState` has `messages`, `turn_count`, `transition_reason`).
#
# Its tools come as a `Toolbox`: schemas and functions kept together. `s01_tools(ws)` is the
# course's s01 toolbox, one `bash` tool running in the workspace; `course.tools(...)` adds
# any tools an instructor configured.

# %%
tools = course.tools(agentlib.s01_tools(ws))
task = [{"role": "user", "content": "List all Python files in this directory"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM, max_rounds=1)
asked = [b["name"] for b in state.messages[1]["content"] if b["type"] == "tool_use"]
print(state.rounds, "round:", state.stop_reason, "-> the round limit ended the run; round 1 had asked for", asked)
task = [{"role": "user", "content": "Create a directory called test_output and write 3 files in it"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM, max_tokens=20, lang=course.lang)
print(state.rounds, "round:", state.stop_reason, "->", state.why)

# %% [markdown]
# ## 6. The history grows, and every round pays for all of it
#
# Each call sends the *whole* list: round 10 resends rounds 1 to 9. The model has a complete
# memory; the price is input tokens that grow every round. `agentlib.agent_loop` records
# **events** as it runs (`round_started` with the messages sent, `model_replied` with the
# token `usage`, `tool_ran`, `finished`). They show the growth:

# %%
task = [{"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM)
total = 0
for event in state.events:
    if event.kind == "round_started":
        sent = len(event.messages)
    if event.kind == "model_replied":
        total += event.usage["input_tokens"]
        print(f"round {event.round}: {sent} messages sent, {event.usage['input_tokens']} input tokens")
print("input tokens for the whole run:", total, "(estimates: about 4 characters a token)" if OFFLINE else "")

# %% [markdown]
# Later chapters (s06) compress the history to keep this down.
#
# ## 7. Your loop and `agentlib.agent_loop`: the same transcript
#
# Both loops run the same conversation with the same `run_bash`, and we compare the
# histories. A real model would not answer the same way twice, so we write the model's part:
# a `Script` is a queue of replies; `call("bash", command=...)` asks for a tool, `say("...")`
# answers in text. `offline_client(script)` gives a client that answers from it, through the
# same API checks.

# %%
from agentlib.offline import Script, call, offline_client, say


def same_script():
    return Script(call("bash", command="ls *.py"), call("bash", command="python3 hello.py"),
                  say("Two Python files; hello.py prints Hello, World!"))


question = "List the Python files, then run hello.py"
saved = client, MODEL
client, MODEL = offline_client(same_script())  # your loop reads the globals
by_hand = [{"role": "user", "content": question}]
agent_loop(by_hand)
client, MODEL = saved

# %% [markdown]
# The library's loop, drawn *while it runs* with `live()`, on your `TOOLS` and `run_bash`:
# `Toolbox.from_dicts(TOOLS, {"bash": run_bash})` builds a toolbox from the seed's two
# structures, the schema list and the name-to-function dict.

# %%
from agentlib.widgets import live

tools = course.tools(agentlib.Toolbox.from_dicts(TOOLS, {"bash": run_bash}))
diagram = live(offline=True, tools=tools, lang=course.lang)
script_client, script_model = offline_client(same_script())
state = agentlib.agent_loop(
    [{"role": "user", "content": question}], client=script_client, model=script_model,
    tools=tools, system=SYSTEM, on_event=diagram.on_event,
)
assert agentlib.to_dict(by_hand) == state.messages
print(f"same transcript: {len(state.messages)} messages, stopped on {state.stop_reason!r}")

# %% [markdown]
# ## 8. Ask your own question
#
# Change `my_question` and run the cell. Offline, the model is a fixed playbook, not Claude: it
# does simple workspace tasks, in English or Chinese (create or show a file, list files, find
# a word, rename, run a script, ask git), from the real tool results. Anything else it
# declines, naming the part it did not understand. With a key and `BACKEND = "auto"`, a real
# model answers.

# %%
my_question = "Create a file called notes.txt containing hello"
mine = [{"role": "user", "content": my_question}]
agent_loop(mine)
show(mine, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# ## What to take away
#
# - The smallest agent is a loop: the model keeps calling tools until it decides the task is
#   done. `while True` → call the model → return if `stop_reason != "tool_use"` → else run
#   the tools, send the results back, go round again.
# - Tool results go back as `tool_result` blocks in a user message; the history only grows,
#   and every round resends all of it.
# - The loop has no rules about safety, permissions or planning; later chapters add them
#   (s02 starts with the workspace) and the loop stays as it is.
# - Easy to confuse: a model that can *think* is not a system that can *act*. The loop is
#   what lets it act: the loop gives it persistence, the tools its hands, the messages its
#   memory. The Messages API was built for this circle (`stop_reason`, `tool_use`,
#   `tool_result`), which is why so little code is enough. (`99_appendix` has s01's
#   before-and-after table.)
#
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
# ## Quiz: s01
#
# Answer in your head, then click.

# %% [markdown] tags=["quiz"]
# **1.** What is the loop's only exit in the seed's version?
#
# <details><summary>Answer</summary><code>stop_reason != "tool_use"</code>: the model decides
# when the task is done; the loop just stops when it no longer asks for a tool.</details>
#
# **2.** A reply ends with `max_tokens` and contains a `tool_use` block. Run it?
#
# <details><summary>Answer</summary>No: the reply was cut off, so the call may be
# half-written. Append the reply and stop; before the next call, answer the cut call with a
# <code>tool_result</code> (<code>normalize_messages</code>, notebook 04), or the API
# refuses the history with a 400.</details>
#
# **3.** What should the loop do on `pause_turn`?
#
# <details><summary>Answer</summary>Append the reply and call the model again with the
# history as it is: the server paused a long turn and resumes it.</details>
#
# **4.** Round 5 of a run: how much of the history is sent?
#
# <details><summary>Answer</summary>All of it, every message since the question: the model
# has no memory between calls, so input tokens grow every round.</details>
#
# **5.** Why append the final answer to the history, when the loop is about to return?
#
# <details><summary>Answer</summary>Otherwise it is lost: the REPL reads it from
# <code>history[-1]</code>, and the next question should build on it.</details>
#
# **6.** What does `max_rounds` add to your loop?
#
# <details><summary>Answer</summary>A round limit: a model that never stops asking for
# tools ends the run after that many model calls, with stop reason
# <code>max_rounds</code>.</details>
