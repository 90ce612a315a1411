# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 · Tool use, part 2: the workspace sandbox, and a valid history
#
# **You will be able to:** explain what the seed's `safe_path` protects and where it fails,
# run those attacks for real, write a `glob` that stays inside the workspace, say how
# `agentlib` confines both the file tools and bash, and keep the history the API accepts
# with `normalize_messages` (the seed's version fails twice, with real 400s).
#
# **You need:** notebook 03. No API key.
#
# ```
#  model: tool_use read_file {"path": "../../etc/passwd"}
#     ↓
#  dispatch map → run_read(path)
#     ↓
#  safe_path(path):  (WORKDIR / path).resolve()  inside WORKDIR?  ── no ──→ "Error: Path escapes workspace"
#     ↓ yes
#  open the file, read it → tool_result
# ```
#
# The workspace is the agent's whole world: least privilege, applied at the tool level.

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline", "auto" (real model if a key is configured) or "anthropic"
WORKSPACE: "Optional[str]" = None  # None: a fresh temporary folder. Never point this at your own project.
EXTRA_TOOLS: str = ""  # instructors: "module:attribute" of tools, a Toolbox or a make_tools(ws) factory, comma-separated
SCRIPT: str = ""  # instructors: "module:attribute" of an offline Script (see 99_appendix)
LANG: str = "en"  # the language the course prints and draws in: "en" or "zh"

# %% [markdown]
# The set-up, and notebook 01's `run_bash`: a deny-list, and no isolation at all.

# %%
import os
import subprocess
from pathlib import Path

import anthropic
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


box = agentlib.s02_tools(ws)  # the course's five s02 tools (notebook 03)
TOOLS = box.TOOLS


# %% [markdown]
# ## 1. `safe_path`, by hand
#
# The seed's guard: join the path to the workspace, `resolve()` it (which removes `..` and
# `.` and follows symbolic links), and refuse it unless the result is still inside.

# %%
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


print(safe_path("notes/../config.txt"))
with expect_error(ValueError, why="the classic attack: a path that climbs out of the workspace"):
    safe_path("../../etc/passwd")

# %% [markdown]
# ## 2. Where the five-line `safe_path` still fails
#
# `safe_path` checks a *name* at one moment; the tool opens a *file* a moment later. Anything
# that changes what the name points to, or a file that is not what it seems, slips through.
# Each attack below runs for real against the seed's way of reading
# (`safe_path(path).read_text()`), with an "outside" file standing in for your secrets.

# %%
OUTSIDE = course.temporary_folder("outside")  # removed when the kernel ends
(OUTSIDE / "secret.txt").write_text("a secret from outside the workspace\n")
print(OUTSIDE, "holds", sorted(p.name for p in OUTSIDE.iterdir()))

# %% [markdown]
# **A symlink swapped in between the check and the open.** The check passes while `box` is a
# real folder. Then a command swaps `box` for a link to the outside (we do it by hand at the
# worst moment; a background loop started through bash hits that moment by chance). The open
# follows the link:

# %%
run_bash("rm -rf box box.old && mkdir box && echo 'inside the workspace' > box/secret.txt")
checked = safe_path("box/secret.txt")  # 1. the check passes
print(checked.read_text(), end="")
run_bash(f"mv box box.old && ln -s {OUTSIDE} box")  # 2. meanwhile, the swap
print(checked.read_text())  # 3. the open reads the outside file

# %% [markdown]
# **A hard link.** A second name for the *same* file, living inside the workspace, so
# `resolve()` has nothing to follow. Reading and writing go straight through (hard links only
# work within one filesystem; if `ln` fails here, the two folders are on different ones):

# %%
print(run_bash(f"rm -f linked.txt && ln {OUTSIDE}/secret.txt linked.txt && echo linked"))
if (WORKDIR / "linked.txt").exists():
    print(safe_path("linked.txt").read_text())
    safe_path("linked.txt").write_text("overwritten through the workspace\n")
print("the outside file now says:", (OUTSIDE / "secret.txt").read_text())

# %% [markdown]
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
# **A FIFO.** `mkfifo` makes a named pipe: opening it for reading blocks until some process
# opens it for writing, so the seed's `read_file` would hang the agent. We give it half a
# second in a thread, then open the pipe for writing ourselves to release it:

# %%
import threading

run_bash("rm -f pipe && mkfifo pipe")
reader = threading.Thread(target=lambda: safe_path("pipe").read_text(), daemon=True)
reader.start()
reader.join(timeout=0.5)
print("read_file still blocked after 0.5 s:", reader.is_alive())
open(WORKDIR / "pipe", "w").close()  # a writer opens the other end, and writes nothing
reader.join(timeout=5)
print("released once a writer opened the pipe:", not reader.is_alive())

# %% [markdown]
# ## 3. How `agentlib.Workspace` closes them
#
# `Workspace` opens every path relative to a handle on the workspace folder and refuses to
# follow links out (Linux `openat2` with `RESOLVE_BENEATH`, else one component at a time with
# `O_NOFOLLOW`), so there is no gap between check and open. It reads only regular files,
# refuses files with more than one hard link, writes through a temporary file and a rename
# (which replaces a hard link instead of writing through it), and keeps `glob` patterns
# relative. A refusal is a `ToolError`, which the loop hands the model as an error result.
# The same attacks:

# %%
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
# In the loop, a refusal is what the model reads. A scripted model tries two of the escapes in
# one reply; the diagram shows both calls come back as errors, and the model gives up:

# %%
from agentlib.offline import Script, call, offline_client, reply, say
from agentlib.widgets import show

escape = Script(reply("I'll look outside.", call("read_file", path="box/secret.txt"), call("glob", pattern="../*")),
                say("Both were refused: I can only reach the workspace."))
escape_client, escape_model = offline_client(escape)
tools = course.tools(agentlib.s02_tools(ws))
state = agentlib.agent_loop([{"role": "user", "content": "Read the secret next to the workspace"}],
                            client=escape_client, model=escape_model, tools=tools)
show(state, offline=True, tools=tools, lang=course.lang)

# %% [markdown]
# Writing through the hard link now replaces the link and leaves the outside file alone:

# %%
(OUTSIDE / "secret.txt").write_text("a secret from outside the workspace\n")
print(ws.write_file("linked.txt", "a new file inside\n"))
print("the outside file says:", (OUTSIDE / "secret.txt").read_text())
assert (OUTSIDE / "secret.txt").read_text() == "a secret from outside the workspace\n"

# %% [markdown]
# ### Exercise 7: a `glob` that stays inside
#
# Write `safe_glob(pattern)`: return the matching files under the workspace as text, one path
# per line, relative to the workspace and sorted; for an absolute pattern or one with a `..`
# part, return `"Error: ..."` instead of searching. (`Path(pattern).is_absolute()` and
# `".." in Path(pattern).parts` tell you; `WORKDIR.glob(pattern)` searches.)

# %% tags=["exercise"]
def safe_glob(pattern: str) -> str:
    raise NotImplementedError("refuse absolute patterns and '..', then search with WORKDIR.glob")


# %% [markdown] tags=["solution"]
# <details><summary>Solution (open after trying)</summary>
#
# ```python
# def safe_glob(pattern: str) -> str:
#     if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
#         return f"Error: pattern must stay inside the workspace: {pattern}"
#     matches = sorted(str(p.relative_to(WORKDIR)) for p in WORKDIR.glob(pattern))
#     return "\n".join(matches) or "(no matches)"
# ```
#
# </details>

# %%
# The check searches a small folder, tries three escapes, then lets the offline model ask
# your glob for "/etc/*" in a loop and shows what it read back.
from agentlib.course.checks import check_safe_glob

check_safe_glob(safe_glob, WORKDIR)

# %% [markdown]
# A tempting answer compares strings: `str((WORKDIR / pattern).resolve()).startswith(str(WORKDIR))`.
# It leaks. A folder next to the workspace whose name *begins* with the workspace's name
# passes; this cell makes one, `<workspace>-evil`, and removes it at the end:

# %%
import shutil


def prefix_inside(pattern: str) -> bool:  # the tempting check
    return str((WORKDIR / pattern).resolve()).startswith(str(WORKDIR))


sibling = WORKDIR.parent / f"{WORKDIR.name}-evil"
pattern = f"../{sibling.name}/*.txt"
try:
    sibling.mkdir(exist_ok=True)
    (sibling / "stolen.txt").write_text("outside the workspace\n")
    found = [p.name for p in WORKDIR.glob(pattern)]
    print(f"{pattern}: the string check says inside: {prefix_inside(pattern)}; the glob finds {found}")
    print("is_relative_to says inside:", (WORKDIR / pattern).resolve().is_relative_to(WORKDIR))
finally:
    shutil.rmtree(sibling, ignore_errors=True)

# %% [markdown]
# A string compares characters, and `<workspace>-evil` begins with every character of
# `<workspace>`. `Path.is_relative_to` compares whole parts of the path: the folder named
# `<workspace>-evil` is not the folder named `<workspace>`. Compare paths as paths.

# %% [markdown]
# ## 4. Confining bash
#
# `safe_path` guards the file tools only; bash can still name any path. So `agentlib` runs
# each command in an isolated sandbox where the machine allows it (`bwrap`, bubblewrap): a
# fresh view of the filesystem in which only the workspace is writable, no network, a
# private `/tmp`, and limits on time, memory and processes. `ws.isolation` says which
# isolation it got (`none` means plain subprocesses, and the course says so). The seed's
# `run_bash` against `ws.bash`, asked to write into the outside folder:

# %%
print("isolation:", ws.isolation)
probe = f"echo pwned > {OUTSIDE}/pwned.txt && echo wrote it"
print("seed run_bash:", run_bash(probe))
(OUTSIDE / "pwned.txt").unlink(missing_ok=True)
print("ws.bash:      ", ws.bash(probe))
print("outside folder now holds:", sorted(p.name for p in OUTSIDE.iterdir()))

# %% [markdown]
# And the network: a server listening on this machine's loopback address, which both try to
# reach. Inside the sandbox the network is a separate, empty one: its own loopback, where
# nothing listens.

# %%
import socket

listener = socket.create_server(("127.0.0.1", 0))
port = listener.getsockname()[1]
probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2); print('connected')\""
print("seed run_bash:", run_bash(probe))
print("ws.bash:      ", ws.bash(probe).splitlines()[-2:])
listener.close()

# %% [markdown]
# ## 5. `normalize_messages`: a history the API accepts
#
# Back to the loop. It sends the whole history every round, and the API is strict about it:
# every `tool_use` must be answered by `tool_result` blocks at the *start* of the next message, and blocks may carry only the fields the API
# knows. A history breaks easily: a tool call is interrupted (cut at `max_tokens`, as in
# notebook 02), and the user asks something else.

# %%
broken = [
    {"role": "user", "content": "Read config.txt"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "config.txt"}}]},
    {"role": "user", "content": "Never mind. List the text files instead."},
]
with expect_error(anthropic.BadRequestError, why="the tool_use in messages[1] was never answered"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=broken)

# %% [markdown]
# The seed cleans the history before every call with `normalize_messages`, which has three
# jobs: strip fields starting with `_` (the harness's own notes), answer every orphaned
# `tool_use` with a `(cancelled)` result, and merge consecutive messages of the same role.
# Here it is as the seed writes it:

# %%
def seed_normalize_messages(messages: list) -> list:
    cleaned = []
    for msg in messages:
        clean = {"role": msg["role"]}
        if isinstance(msg.get("content"), str):
            clean["content"] = msg["content"]
        elif isinstance(msg.get("content"), list):
            clean["content"] = [
                {k: v for k, v in block.items() if not k.startswith("_")}
                for block in msg["content"]
                if isinstance(block, dict)
            ]
        else:
            clean["content"] = msg.get("content", "")
        cleaned.append(clean)

    existing_results = set()
    for msg in cleaned:
        if isinstance(msg.get("content"), list):
            for block in msg["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    existing_results.add(block.get("tool_use_id"))

    for msg in cleaned:
        if msg["role"] != "assistant" or not isinstance(msg.get("content"), list):
            continue
        for block in msg["content"]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("id") not in existing_results:
                cleaned.append({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": block["id"], "content": "(cancelled)"}
                ]})

    if not cleaned:
        return cleaned
    merged = [cleaned[0]]
    for msg in cleaned[1:]:
        if msg["role"] == merged[-1]["role"]:
            prev = merged[-1]
            prev_c = prev["content"] if isinstance(prev["content"], list) \
                else [{"type": "text", "text": str(prev["content"])}]
            curr_c = msg["content"] if isinstance(msg["content"], list) \
                else [{"type": "text", "text": str(msg["content"])}]
            prev["content"] = prev_c + curr_c
        else:
            merged.append(msg)
    return merged


# %% [markdown]
# **Bug 1: the placeholder lands after the user's text.** The `(cancelled)` result is appended
# at the *end* of the history, then merged into the user's last message, behind the text. The
# API wants the results first:

# %%
for message in seed_normalize_messages(broken):
    print(message)
with expect_error(anthropic.BadRequestError, why="tool_result blocks must come first in the message after a tool_use"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=seed_normalize_messages(broken))

# %% [markdown]
# **Bug 2: the model's own replies disappear.** The loop appends `response.content`, a list of
# SDK objects (`TextBlock`, `ToolUseBlock`), not dicts; the seed keeps only dicts
# (`if isinstance(block, dict)`), so every assistant message becomes `content: []`. The very
# first round with a tool result fails:

# %%
history = [{"role": "user", "content": "Read the file config.txt"}]
response = client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=history)
history.append({"role": "assistant", "content": response.content})
history.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": box.dispatch(b.name, b.input).content}
    for b in response.content if b.type == "tool_use"
]})
print("what the seed sends as messages[1]:", seed_normalize_messages(history)[1])
with expect_error(anthropic.BadRequestError, why="the SDK blocks were dropped, so the reply is empty"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=seed_normalize_messages(history))

# %% [markdown]
# `agentlib.normalize_messages` does the same three jobs, turns SDK objects into dicts first,
# and puts each `(cancelled)` result right after its `tool_use`, ahead of the user's text. Both
# histories are accepted:

# %%
from agentlib import normalize_messages

print(normalize_messages(broken)[2])
for name, h in [("interrupted", broken), ("SDK blocks", history)]:
    reply = client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=normalize_messages(h))
    print(f"{name}: accepted, {reply.stop_reason}")

# %% [markdown]
# The first job, shown: a block carrying a note of the harness's own, `_meta`, is refused;
# normalised, it goes without the note:

# %%
noted = [{"role": "user", "content": [{"type": "text", "text": "What is 2 + 2?", "_meta": {"typed_at": "09:14"}}]}]
with expect_error(anthropic.BadRequestError, why="a block may carry only the fields the API knows"):
    client.messages.create(model=MODEL, max_tokens=100, messages=noted)
print(normalize_messages(noted))
print("accepted:", client.messages.create(model=MODEL, max_tokens=100, messages=normalize_messages(noted)).stop_reason)

# %% [markdown]
# (The seed's docstring says the API "requires strict alternation". It does not: it merges
# consecutive same-role messages itself.)

# %% [markdown]
# ## 6. Read-only tools run at the same time
#
# When the model asks for several tools in one reply, tools that only *read* can run at the
# same time; tools that change things run one at a time, in order, so a read after a write
# sees the write. The seed marks `read_file` as safe to run concurrently; `agentlib` reads
# the mark from `@tool(read_only=True)` (`@tool` turns a typed, documented function into a
# tool; notebook 05 uses it). Two slow reads in one round, both ways:

# %%
import time

from agentlib import Toolbox, tool
from agentlib.offline import Script, call, offline_client, reply, say


def slow_toolbox(read_only: bool) -> Toolbox:
    @tool(read_only=read_only)
    def slow_read(path: str) -> str:
        """Read a file slowly (a stand-in for a slow disk or network).

        Args:
            path: File path relative to the workspace.
        """
        time.sleep(0.15)
        return ws.read_file(path)
    return course.tools(Toolbox([slow_read]))


# %% [markdown]
# The same two calls in one reply, once marked read-only and once not:

# %%
(WORKDIR / "a.txt").write_text("a\n")
for read_only in (True, False):
    two_reads = Script(reply(call("slow_read", path="a.txt"), call("slow_read", path="a.txt")), say("Read both."))
    c, m = offline_client(two_reads)
    started = time.perf_counter()
    agentlib.agent_loop([{"role": "user", "content": "Read a.txt twice"}], client=c, model=m, tools=slow_toolbox(read_only))
    print(f"read_only={read_only!s:5}: two 0.15 s reads took {time.perf_counter() - started:.2f} s")

# %% [markdown]
# (Timings vary with the machine; expect about 0.15 s against 0.3 s.) What the tool design
# teaches the model, and where tools go next: `99_appendix`, section 4.
#
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
# ## Quiz: s02
#
# Answer in your head, then click.

# %% [markdown] tags=["quiz"]
# **1.** What does `resolve()` do in `safe_path`, and why is it needed?
#
# <details><summary>Answer</summary>It removes <code>..</code> and <code>.</code> and
# follows links, so the check sees where the path really leads, not how it is
# spelled.</details>
#
# **2.** `safe_path` approved a path, yet the read returned an outside file. How?
#
# <details><summary>Answer</summary>The name changed between the check and the open (a
# symlink swapped in), or it was a hard link: the check is on a name, the open on a
# file.</details>
#
# **3.** Why is `WORKDIR / "/etc/hosts"` dangerous in a `glob`?
#
# <details><summary>Answer</summary>Joining an absolute path discards the left side: it is
# just <code>/etc/hosts</code>. Refuse absolute patterns and <code>..</code>.</details>
#
# **4.** Does `safe_path` protect you from a bash command?
#
# <details><summary>Answer</summary>No: it guards the file tools only. Bash needs OS
# isolation (a sandbox where only the workspace is writable).</details>
#
# **5.** What went wrong with the seed's `normalize_messages` and SDK objects?
#
# <details><summary>Answer</summary>It keeps only dict blocks, so the model's replies
# (SDK objects) became empty, and the API refused the history with a 400.</details>
#
# **6.** Does the API require user and assistant turns to alternate?
#
# <details><summary>Answer</summary>No: it merges consecutive same-role messages. What it
# requires is that each <code>tool_use</code> is answered by <code>tool_result</code>
# blocks at the start of the next message.</details>
