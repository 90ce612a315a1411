# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 · Tool use
#
# **You will be able to:** give the agent dedicated file tools (`read_file`, `write_file`,
# `edit_file`, `glob`) through a dispatch map, confine them to a workspace, and see that the
# loop from s01 does not change at all.
#
# **You need:** notebook 01 (the loop); `agentlib` installed; no API key (offline by default).
#
# > "Adding a tool means adding one handler": the loop stays the same; new tools are
# > registered in the dispatch map.

# %% tags=["parameters"]
BACKEND = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS = ""  # instructors: "module:attribute" of @tool functions or a Toolbox, comma-separated
SCRIPT = ""  # instructors: "module:attribute" of an offline Script used in the last section

# %%
import os
import subprocess
import tempfile
from pathlib import Path

import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s02")  # checks the parameters
client, MODEL = course.client, course.model  # from connect(backend=BACKEND)
WORKDIR = course.workspace.root
OFFLINE = "offline" in MODEL  # checks marked `if OFFLINE:` hold for the scripted model only
print("workspace:", WORKDIR, "\nmodel:    ", MODEL)

# %% [markdown]
# s01's `run_bash`, unchanged (commands get no `ANTHROPIC_*` variables):

# %%
SAFE_ENV = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}

def run_bash(command: str) -> str:
    dangerous = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]
    if any(d in command for d in dangerous):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
                           capture_output=True, text=True, timeout=120)
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"


# %% [markdown]
# ## 1. Why bash alone is not enough
#
# With only bash, every action goes through the shell. The seeds give three reasons that hurts:
#
# | tool | does | replaces |
# |---|---|---|
# | `read_file` | read a file | `cat file` |
# | `write_file` | create or overwrite a file | `echo ... > file` |
# | `edit_file` | change an exact piece of a file | `sed`, or editing by hand |
# | `glob` | find files by pattern | `find`, `ls *.py` |
#
# **1. `cat` cuts unpredictably.** Output is cut at 50,000 characters wherever that falls, in
# the middle of a line, and the model is not told what it missed (here, 20,000 lines exist):

# %%
run_bash("seq 1 20000 | sed 's/^/line /' > big.txt")
shown = run_bash("cat big.txt")
print(len(shown), "characters; the last line the model sees:", repr(shown.splitlines()[-1]))

# %% [markdown]
# **2. `sed` breaks on special characters.** Replacing a path needs `/` in the replacement,
# which is `sed`'s own separator; and `&` in a replacement silently means "the matched text":

# %%
(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_bash("sed -i 's/old/data/raw/' config.txt"))
print(run_bash("sed -i 's/A/R&D/' config.txt && cat config.txt"))


# %% [markdown]
# The first edit failed with a message about `sed`'s syntax; the second "worked" and wrote
# `RAD`, not `R&D`. A dedicated `edit_file(path, old_text, new_text)` takes both texts
# literally.
#
# **3. Every bash call is an unconstrained security surface.** A shell command can touch
# anything the user can. A dedicated tool takes a *path*, and a path can be checked at the
# tool level before anything is opened: the workspace sandbox.
#
# ## 2. `safe_path`: the workspace sandbox, by hand
#
# Every file tool passes its path through `safe_path`: join it to the workspace, `resolve()`
# it (which removes `..`, `.` and follows symbolic links), and refuse it unless the result is
# still inside. Least privilege: the model's file tools reach the workspace and nothing else.

# %%
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path

safe_path("notes/../config.txt")

# %% [markdown]
# The classic attack, a path that climbs out, is stopped:

# %% tags=["raises-exception"]
safe_path("../../etc/passwd")

# %% [markdown]
# ## 3. Where the five-line `safe_path` still fails
#
# `safe_path` checks a *name* at one moment; the tool then opens a *file* a moment later.
# Anything that changes what the name points to, or a file that is not what it seems, slips
# through. Each attack below runs for real, against the seed's way of reading
# (`safe_path(path).read_text()`), with an "outside" file standing in for your secrets.

# %%
OUTSIDE = Path(tempfile.mkdtemp(prefix="outside-"))
(OUTSIDE / "secret.txt").write_text("a secret from outside the workspace\n")
run_bash("mkdir -p box && echo 'inside the workspace' > box/secret.txt")
print(safe_path("box/secret.txt").read_text())

# %% [markdown]
# **A symlink made by bash, between the check and the open.** The check passes while `box` is a
# real folder. Then a command (here we run it by hand at the worst moment; a background loop
# started through the bash tool hits that moment by chance, often) swaps `box` for a link to
# the outside. The open follows the link:

# %%
checked = safe_path("box/secret.txt")  # 1. the check passes
run_bash(f"mv box box.old && ln -s {OUTSIDE} box")  # 2. meanwhile, the swap
print(checked.read_text())  # 3. the open reads the outside file

# %% [markdown]
# **A hard link.** A hard link is a second name for the *same* file, and it lives inside the
# workspace, so `resolve()` has nothing to follow. Reading and writing go straight through:

# %%
print(run_bash(f"ln {OUTSIDE}/secret.txt linked.txt && echo linked"))
if (WORKDIR / "linked.txt").exists():
    print(safe_path("linked.txt").read_text())
    safe_path("linked.txt").write_text("overwritten through the workspace\n")
print("the outside file now says:", (OUTSIDE / "secret.txt").read_text())

# %% [markdown]
# (Hard links only work within one filesystem; if `ln` failed above, your workspace and the
# temporary folder live on different ones.)
#
# **`glob` with an absolute pattern.** The obvious `glob` joins the pattern to the workspace,
# but `WORKDIR / "/etc/host*"` *is* `/etc/host*`: joining an absolute path discards the left
# side. `..` in a pattern walks out too:

# %%
import glob as globlib

def naive_glob(pattern: str) -> list[str]:
    return sorted(globlib.glob(str(WORKDIR / pattern), recursive=True))

print(naive_glob("/etc/host*"))
print(len(naive_glob("../*")), "entries next to the workspace")

# %% [markdown]
# **A FIFO.** `mkfifo` makes a named pipe: opening it for reading waits until someone writes.
# The seed's `read_file` would hang the agent forever. We give it half a second in a thread, then
# write to the pipe ourselves to release it:

# %%
import threading

run_bash("mkfifo pipe")
reader = threading.Thread(target=lambda: safe_path("pipe").read_text(), daemon=True)
reader.start()
reader.join(timeout=0.5)
print("read_file still blocked after 0.5 s:", reader.is_alive())
with open(WORKDIR / "pipe", "w") as released:
    released.write("bye\n")

# %% [markdown]
# ### How `agentlib.Workspace` closes them
#
# `Workspace` opens every path relative to a handle on the workspace folder and refuses to
# follow links out (Linux `openat2` with `RESOLVE_BENEATH`, else a walk one component at a time
# with `O_NOFOLLOW`), so there is no gap between check and open. It reads only regular files,
# refuses files with more than one hard link, writes through a temporary file and a rename
# (which replaces a hard link instead of writing through it), and keeps `glob` patterns
# relative. The same attacks:

# %%
ws = course.workspace  # agentlib.Workspace(WORKDIR)
attacks = {
    "symlink swap": lambda: ws.read_file("box/secret.txt"),
    "hard link (read)": lambda: ws.read_file("linked.txt"),
    "absolute glob": lambda: ws.glob("/etc/host*"),
    "glob with ..": lambda: ws.glob("../*"),
    "FIFO": lambda: ws.read_file("pipe"),
}
for name, attack in attacks.items():
    try:
        print(f"{name:17} NOT refused: {attack()!r}")
    except agentlib.ToolError as refusal:
        print(f"{name:17} refused: {refusal}")

# %% [markdown]
# A refusal is a `ToolError` (a `PathEscapeError` for escapes): in the loop it becomes a
# `tool_result` with `is_error: true` that the model reads. Writing through the hard link now
# replaces the link and leaves the outside file alone:

# %%
(OUTSIDE / "secret.txt").write_text("a secret from outside the workspace\n")
print(ws.write_file("linked.txt", "a new file inside\n"))
print("the outside file says:", (OUTSIDE / "secret.txt").read_text())
assert (OUTSIDE / "secret.txt").read_text() == "a secret from outside the workspace\n"


# %% [markdown]
# ## 4. The file tools
#
# Each tool is a plain function; errors come back as text the model can read. These are the
# seeds' versions (plus `glob`, which the seeds list but do not write out, in a safe form).
# `read_file` takes an optional `limit`, so the model can ask for the start of a long file and
# is told how much it did not see:

# %%
def run_read(path: str, limit: int = None) -> str:
    try:
        text = safe_path(path).read_text()
        lines = text.splitlines()
        if limit and limit < len(lines):
            lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
        return "\n".join(lines)[:50000]
    except Exception as e:
        return f"Error: {e}"

print(run_read("big.txt", limit=3))


# %% [markdown]
# `write_file` creates parent folders and *replaces* the file: an explicit overwrite, no
# "append or replace?" ambiguity. (The seed counts characters and calls them bytes; `é` is two
# bytes in UTF-8. `agentlib` reports bytes.)

# %%
def run_write(path: str, content: str) -> str:
    try:
        fp = safe_path(path)
        fp.parent.mkdir(parents=True, exist_ok=True)
        fp.write_text(content)
        return f"Wrote {len(content)} bytes to {path}"
    except Exception as e:
        return f"Error: {e}"

print(run_write("notes/café.txt", "café\n"), "|", ws.write_file("notes/café.txt", "café\n"))


# %% [markdown]
# `edit_file` replaces an exact `old_text`. The model must quote what is there now, so it has
# to look before it edits. Special characters are just characters:

# %%
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

(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_edit("config.txt", "= old", "= data/raw"), run_edit("config.txt", "= A", "= R&D"))
print((WORKDIR / "config.txt").read_text())

# %% [markdown]
# One trap: when `old_text` occurs twice, the seed silently edits the first. `agentlib`'s
# `edit_file` refuses and says how many matches it found, so the model adds context (or asks
# for `replace_all`):

# %%
(WORKDIR / "twice.txt").write_text("x = 1\nx = 1\n")
print(run_edit("twice.txt", "x = 1", "x = 2"), "->", (WORKDIR / "twice.txt").read_text().split())
try:
    ws.edit_file("twice.txt", "x = 2", "x = 3")
except agentlib.ToolError as refusal:
    print(refusal)


# %% [markdown]
# `glob` finds files by pattern, inside the workspace only (relative patterns, no `..`), sorted:

# %%
def run_glob(pattern: str) -> str:
    try:
        return ws.glob(pattern)
    except agentlib.ToolError as e:
        return f"Error: {e}"

print(run_glob("**/*.txt"))
print(run_glob("/etc/*"))


# %% [markdown]
# ## 5. `TOOLS` and `TOOL_HANDLERS`: the menu and the kitchen
#
# `TOOLS` is what the model sees: names, descriptions, argument schemas. `TOOL_HANDLERS` is
# what the code runs: name → function. A new tool is three steps: write the function, add
# its schema to `TOOLS`, add it to `TOOL_HANDLERS`. The loop is not touched: open for
# extension, closed for modification (the open–closed principle).

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
    {"name": "glob", "description": "Find files matching a glob pattern.", "input_schema": schema(pattern="string")},
]

# %%
TOOL_HANDLERS = {
    "bash":       lambda **kw: run_bash(kw["command"]),
    "read_file":  lambda **kw: run_read(kw["path"], kw.get("limit")),
    "write_file": lambda **kw: run_write(kw["path"], kw["content"]),
    "edit_file":  lambda **kw: run_edit(kw["path"], kw["old_text"], kw["new_text"]),
    "glob":       lambda **kw: run_glob(kw["pattern"]),
}


# %% [markdown]
# Dispatch is one dictionary lookup where there would otherwise be a growing chain:
#
# ```python
# if block.name == "bash":         output = run_bash(block.input["command"])
# elif block.name == "read_file":  output = run_read(block.input["path"], ...)
# elif ...                         # one more branch for every tool, inside the loop
# ```

# %%
def dispatch(name: str, tool_input: dict) -> str:
    handler = TOOL_HANDLERS.get(name)
    return handler(**tool_input) if handler else f"Unknown tool: {name}"

print(dispatch("read_file", {"path": "config.txt"}))
print(dispatch("delete_everything", {}))

# %% [markdown]
# ### When the two fall out of sync
#
# They must list the same tools. `check_tools` names every mismatch. A tool only in `TOOLS`:
# the model calls it, and the lookup finds nothing. A handler only in `TOOL_HANDLERS`: the
# model never learns the tool exists, so it is never called.

# %%
from agentlib import check_tools

print(check_tools(TOOLS, TOOL_HANDLERS))
menu_only = TOOLS + [{"name": "delete_file", "description": "Delete a file.", "input_schema": schema(path="string")}]
kitchen_only = {**TOOL_HANDLERS, "word_count": lambda **kw: str(len(kw["text"].split()))}
for problem in check_tools(menu_only, TOOL_HANDLERS) + check_tools(TOOLS, kitchen_only):
    print("-", problem)

# %% [markdown]
# What the model meets when it calls the menu-only tool: a scripted offline model (`Script`,
# `call`, `say`) asks for `delete_file`, and our dispatch answers with the seed's message:

# %%
from agentlib.offline import Script, call, offline_client, say

script_client, script_model = offline_client(Script(call("delete_file", path="config.txt"), say("It failed.")))
reply = script_client.messages.create(model=script_model, max_tokens=1000, tools=menu_only,
                                      messages=[{"role": "user", "content": "Delete config.txt"}])
for block in reply.content:
    print(block.name, "->", dispatch(block.name, block.input))

# %% [markdown]
# `agentlib` cannot drift: a `Toolbox` keeps each schema with its handler, and `TOOLS` and
# `TOOL_HANDLERS` are two views of that one list. Its dispatch also turns an unknown name, bad
# input and a crashing handler into an error result the model can act on:

# %%
box = agentlib.s02_tools(ws)
print(box.names)
print(box.dispatch("delete_file", {"path": "config.txt"}))
print(box.dispatch("read_file", {"path": 42}))

# %% [markdown]
# ## 6. `normalize_messages`: the 400 it prevents
#
# The API is strict about the history: every `tool_use` must be answered by a `tool_result` in
# the very next message, roles alternate, no unknown fields. A history breaks easily, for
# example when a tool call is interrupted and the user asks something else. The offline API
# checks the same rules, so this is the error you would get live:

# %%
broken = [
    {"role": "user", "content": "Read config.txt"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "config.txt"}}]},
    {"role": "user", "content": "Never mind. List the text files instead.", "_interrupted": True},
]
for problem in agentlib.check_history(broken):
    print(problem)

# %% tags=["raises-exception"]
client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=broken)

# %% [markdown]
# `normalize_messages` does the seed's three jobs before each call: strip fields starting with
# `_` (the harness's own notes), answer every orphaned `tool_use` with a `(cancelled)` result,
# and merge consecutive messages of the same role. It also turns SDK objects into dicts (the
# seed's version drops them, which itself causes a 400). Cleaned, the same history is accepted:

# %%
from agentlib import normalize_messages

for message in normalize_messages(broken):
    print(message)
reply = client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=normalize_messages(broken))
print("accepted:", reply.stop_reason)


# %% [markdown]
# ## 7. The loop, unchanged
#
# Here is s02's loop. The shape is s01's: the same `while True`, the same single exit, the same
# appends. Two lines s01 had hard-wired changed: the history goes through `normalize_messages`,
# and `run_bash(...)` became the dispatch lookup. From now on, adding a tool never touches the
# loop again.

# %%
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

SYSTEM = f"You are a coding agent at {WORKDIR}. Use tools to solve tasks. Act, don't explain."

# %% [markdown]
# The s01 loop, as written in notebook 01, against this one (`inspect.getsource` reads the
# cell above):

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

# %%
s02_loop = inspect.getsource(agent_loop)
diff = list(difflib.unified_diff(S01_LOOP.splitlines(), s02_loop.splitlines(), "s01", "s02", lineterm="", n=1))
print("\n".join(diff))
changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
print(f"\n{len(changed)} changed lines: the history sent, and how a tool call is run")

# %% [markdown]
# ## 8. Read-only tools run at the same time
#
# When the model asks for several tools in one round, tools that only *read* can run
# concurrently; tools that change things run one at a time, in order, so a read after a write
# sees the write. The seed marks `read_file` as concurrency-safe; `agentlib` reads the mark
# from `@tool(read_only=True)`. Two slow readers, in one round, both ways:

# %%
import time
from agentlib import Toolbox, tool

def slow_toolbox(read_only: bool) -> Toolbox:
    @tool(read_only=read_only)
    def slow_read(path: str) -> str:
        """Read a file slowly (a stand-in for a slow disk or network).

        Args:
            path: File path relative to the workspace.
        """
        time.sleep(0.15)
        return ws.read_file(path)
    return Toolbox([slow_read])


# %%
for read_only in (True, False):
    both = agentlib.offline.reply(call("slow_read", path="config.txt"), call("slow_read", path="big.txt"))
    two_reads = Script(both, say("Read both."))
    c, m = offline_client(two_reads)
    started = time.perf_counter()
    agentlib.agent_loop([{"role": "user", "content": "Read both files"}], client=c, model=m, tools=slow_toolbox(read_only))
    print(f"read_only={read_only!s:5}: two 0.15 s reads took {time.perf_counter() - started:.2f} s")

# %% [markdown]
# (Timings vary with the machine; expect about 0.15 s against 0.3 s.)
#
# ## 9. The try-it prompts, drawn
#
# The seeds' four s02 prompts, asked one after another in one history, as the REPL would. The
# seeds ran them in their project folder, which has a `requirements.txt`; we give our
# workspace one. Each run is drawn after it finishes.

# %%
from agentlib.widgets import show

(WORKDIR / "requirements.txt").write_text("anthropic>=2\npython-dotenv\n")
history = []

def ask(query: str):
    start = len(history)
    history.append({"role": "user", "content": query})
    agent_loop(history)
    return show(history[start:], offline=OFFLINE)


# %%
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
if OFFLINE:
    assert "def greet(name)" in greet and '"""' in greet
print(run_bash("python3 -c 'from greet import greet; print(greet(\"s02\"))'"))

# %% [markdown]
# The model writes, then reads back to check: it does not assume a write worked. And it reads
# before it edits, because `edit_file` needs the exact `old_text`.
#
# ## 10. s01 → s02 at a glance
#
# Which tools each chapter has, how much code each has (the loop plus the tool functions
# written in these notebooks), what is new, and the loop: the same skeleton, with only the
# lines that send the history and run a tool changed. In `agentlib` one `agent_loop` runs both
# chapters: only the toolbox passed to it differs.

# %%
from agentlib.widgets import compare_view

s01_toolbox = agentlib.s01_tools(ws)
compare_view(
    s01_toolbox, TOOLS, left_loop=S01_LOOP, right_loop=s02_loop,
    left_source=[S01_LOOP, run_bash],
    right_source=[s02_loop, run_bash, safe_path, run_read, run_write, run_edit, run_glob, dispatch],
)

# %% [markdown]
# The reference tutorial's own comparison page counts its two whole scripts: s01 130 lines,
# s02 169 (+39); 1 tool, then 4 (its s02 has no `glob`; ours adds it), so 3 new and 1 shared.
# The counts above are smaller because they cover only the loop and the tool functions
# written in these notebooks, not the REPL and the set-up.
#
# **Carry from s01:** without the loop there is no agent; `messages`, `tool_use` and
# `tool_result` close the circle. **New in s02:** a tool's schema is not its handler: one is a
# description for the model, the other the code that runs. **Watch first:** how a tool's
# schema (`TOOLS`), its dispatch entry (`TOOL_HANDLERS`) and the `tool_result` it produces
# line up by name and id. **After s02 you can:** add a tool of your own without touching the
# loop: that is notebook 03.
#
# ## 11. What the tool design teaches the model
#
# Dedicated tools shape the model's habits more than a general-purpose bash does:
#
# - `read_file`'s **`limit`** invites reading only what is needed, and says how much is left;
# - `edit_file`'s **`old_text`** forces the model to look at the current state before changing it;
# - `write_file`'s **explicit overwrite** removes the "create or append?" ambiguity.
#
# Ideas for extending it (pointers; later chapters build some of them): tool versions side by
# side; usage statistics per tool; loading tools at run time; permissions per role; grouping
# tools by domain; tools that call tools; streaming results from long-running tools. Keep the
# tool contracts explicit, the defaults restrictive, every execution logged, and give every
# tool a timeout.
#
# ## For instructors: your own tools and script
#
# With `EXTRA_TOOLS` and `SCRIPT` set, this runs the library loop with the s02 toolbox plus
# your tools, the offline model following your script. By default it does nothing.

# %%
run = course.run_script(course.tools(agentlib.s02_tools(ws)), system=SYSTEM)
if run:
    display(show(run, offline=True))

# %% [markdown]
# ## Exercises
#
# 1. Add `limit` handling to `run_glob` (at most N matches, then "... (M more)"). Why does the
#    model need to be told that results were cut?
# 2. Make `run_edit` refuse an `old_text` that occurs more than once, naming the count.
# 3. Run the race from section 3 for real: a background `bash` loop swapping `box` while the
#    seed's read runs 1,000 times. Count the leaks. Then do the same with `ws.read_file`.
# 4. Remove `"glob"` from `TOOL_HANDLERS` only, and ask "List all Python files in this
#    directory" (offline, the model uses glob when it is offered). What does the model read?
# 5. Notebook 03: add a tool of your own without changing the loop.
