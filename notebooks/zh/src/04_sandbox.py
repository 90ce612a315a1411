# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 · 工具使用（下）：工作区沙箱，以及合法的历史
#
# **学完这一节你能：** 说清种子的 `safe_path` 防住了什么、又在哪里失守；真的发动这些攻击；写一个不出工作区的 `glob`；说明 `agentlib` 怎样同时关住文件工具和 bash；并用 `normalize_messages` 让历史始终被 API 接受（种子的版本会失败两次，都是真实的 400）。
#
# **你需要：** 先学完 notebook 03。不需要 API key。
#
# ```
#  model: tool_use read_file {"path": "../../etc/passwd"}
#     ↓
#  dispatch map → run_read(path)
#     ↓
#  safe_path(path):  (WORKDIR / path).resolve()  还在 WORKDIR 里？ ── 否 ──→ "Error: Path escapes workspace"
#     ↓ 是
#  打开文件、读取 → tool_result
# ```
#
# 工作区就是智能体的整个世界：这是最小权限原则在工具层面的实践。

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %% [markdown]
# 准备工作，以及 notebook 01 的 `run_bash`：一份黑名单，完全没有隔离。

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


box = agentlib.s02_tools(ws)  # 课程的五个 s02 工具（notebook 03）
TOOLS = box.TOOLS


# %% [markdown]
# ## 1. 亲手写 `safe_path`
#
# 种子的守卫：把路径和工作区拼接，`resolve()`（去掉 `..` 和 `.`，并跟随符号链接），如果结果不在工作区里就拒绝。

# %%
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


print(safe_path("notes/../config.txt"))
with expect_error(ValueError, why="经典攻击：一个爬出工作区的路径"):
    safe_path("../../etc/passwd")

# %% [markdown]
# ## 2. 五行的 `safe_path` 仍然失守的地方
#
# `safe_path` 在某一刻检查的是一个*名字*；工具稍后打开的是一个*文件*。任何在这期间改变名字指向的东西，或者一个并不像它看上去那样的文件，都能溜过去。下面每个攻击都真的针对种子的读法（`safe_path(path).read_text()`）运行，用一个"外面的"文件代替你的机密。

# %%
OUTSIDE = course.temporary_folder("outside")  # 内核结束时删除
(OUTSIDE / "secret.txt").write_text("工作区外面的机密\n")
print(OUTSIDE, "里有", sorted(p.name for p in OUTSIDE.iterdir()))

# %% [markdown]
# **在检查和打开之间换进来的符号链接。** 检查时 `box` 还是一个真目录，所以通过了。然后一条命令把 `box` 换成一个指向外面的链接（我们在最糟糕的那一刻亲手换；通过 bash 启动的一个后台循环会碰巧撞上那一刻）。打开时跟随了链接：

# %%
run_bash("rm -rf box box.old && mkdir box && echo '工作区里面' > box/secret.txt")
checked = safe_path("box/secret.txt")  # 1. 检查通过
print(checked.read_text(), end="")
run_bash(f"mv box box.old && ln -s {OUTSIDE} box")  # 2. 与此同时，调包
print(checked.read_text())  # 3. 打开时读到了外面的文件

# %% [markdown]
# **硬链接。** *同一个*文件的第二个名字，住在工作区里面，所以 `resolve()` 无链接可跟。读和写都直通外面（硬链接只能在同一个文件系统里建；如果这里 `ln` 失败，说明两个目录在不同的文件系统上）：

# %%
print(run_bash(f"rm -f linked.txt && ln {OUTSIDE}/secret.txt linked.txt && echo 已链接"))
if (WORKDIR / "linked.txt").exists():
    print(safe_path("linked.txt").read_text())
    safe_path("linked.txt").write_text("通过工作区被覆盖了\n")
print("外面的文件现在写着：", (OUTSIDE / "secret.txt").read_text())

# %% [markdown]
# **用绝对路径模式的 `glob`。** 最直接的 `glob` 把模式和工作区拼接，可是 `WORKDIR / "/etc/host*"` *就是* `/etc/host*`：拼接一个绝对路径会丢掉左边。模式里的 `..` 也能走出去：

# %%
import glob as globlib


def naive_glob(pattern: str) -> list[str]:
    return sorted(globlib.glob(str(WORKDIR / pattern), recursive=True))


print(naive_glob("/etc/host*"))
print(len(naive_glob("../*")), "个条目在工作区旁边")

# %% [markdown]
# **FIFO。** `mkfifo` 创建一个命名管道：以读方式打开它会一直阻塞，直到有进程以写方式打开它，所以种子的 `read_file` 会把智能体卡住。我们在一个线程里给它半秒，然后自己以写方式打开管道，把它放出来：

# %%
import threading

run_bash("rm -f pipe && mkfifo pipe")
reader = threading.Thread(target=lambda: safe_path("pipe").read_text(), daemon=True)
reader.start()
reader.join(timeout=0.5)
print("0.5 秒后 read_file 还卡着：", reader.is_alive())
open(WORKDIR / "pipe", "w").close()  # 一个写入方打开另一端，什么都不写
reader.join(timeout=5)
print("写入方一打开管道就放出来了：", not reader.is_alive())

# %% [markdown]
# ## 3. `agentlib.Workspace` 怎样堵上它们
#
# `Workspace` 打开每个路径时，都相对于工作区目录的一个句柄，并拒绝跟随指向外面的链接（Linux 上用 `openat2` 加 `RESOLVE_BENEATH`，否则带着 `O_NOFOLLOW` 一层一层地走），所以检查和打开之间没有空隙。它只读普通文件，拒绝有多个硬链接的文件，写入时先写临时文件再改名（这样会替换掉硬链接，而不是穿过它写进去），并让 `glob` 模式保持相对。一次拒绝就是一个 `ToolError`，循环会把它作为错误结果交给模型。同样的攻击：

# %%
attacks = {
    "符号链接调包": lambda: ws.read_file("box/secret.txt"),
    "硬链接（读）": lambda: ws.read_file("linked.txt"),
    "绝对路径 glob": lambda: ws.glob("/etc/host*"),
    "带 .. 的 glob": lambda: ws.glob("../*"),
    "FIFO": lambda: ws.read_file("pipe"),
}
for name, attack in attacks.items():
    try:
        print(f"{name:12} 没有被拒绝：{attack()!r}")
    except agentlib.ToolError as refusal:
        print(f"{name:12} 被拒绝：{refusal}")

# %% [markdown]
# 在循环里，模型读到的就是这次拒绝。一个写好的模型在一条回复里尝试两种逃逸；图上显示两个调用都以错误返回，模型放弃了：

# %%
from agentlib.offline import Script, call, offline_client, reply, say
from agentlib.widgets import show

escape = Script(reply("我去外面看看。", call("read_file", path="box/secret.txt"), call("glob", pattern="../*")),
                say("两次都被拒绝了：我只能访问工作区。"))
escape_client, escape_model = offline_client(escape)
tools = course.tools(agentlib.s02_tools(ws))
state = agentlib.agent_loop([{"role": "user", "content": "读一下工作区旁边的那个机密文件"}],
                            client=escape_client, model=escape_model, tools=tools)
show(state, offline=True, tools=tools, lang=course.lang)

# %% [markdown]
# 现在通过硬链接写入，会替换掉链接，外面的文件不受影响：

# %%
(OUTSIDE / "secret.txt").write_text("工作区外面的机密\n")
print(ws.write_file("linked.txt", "里面的一个新文件\n"))
print("外面的文件写着：", (OUTSIDE / "secret.txt").read_text())
assert (OUTSIDE / "secret.txt").read_text() == "工作区外面的机密\n"

# %% [markdown]
# ### 练习 7：一个不出工作区的 `glob`
#
# 请写 `safe_glob(pattern)`：以文本返回工作区下匹配的文件，每行一个路径，相对于工作区、排好序；对绝对路径模式或含有 `..` 这一段的模式，不去搜索，返回 `"Error: ..."`。（`Path(pattern).is_absolute()` 和 `".." in Path(pattern).parts` 能告诉你；`WORKDIR.glob(pattern)` 负责搜索。）

# %% tags=["exercise"]
def safe_glob(pattern: str) -> str:
    raise NotImplementedError("拒绝绝对路径模式和 '..'，然后用 WORKDIR.glob 搜索")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
#
# ```python
# def safe_glob(pattern: str) -> str:
#     if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
#         return f"Error: pattern must stay inside the workspace: {pattern}"
#     matches = sorted(str(p.relative_to(WORKDIR)) for p in WORKDIR.glob(pattern))
#     return "\n".join(matches) or "(no matches)"
# ```
#
# 先拒绝、再搜索：被拒绝的模式根本不会碰到文件系统。`relative_to(WORKDIR)` 让模型看到的是它自己能再用的相对路径。
#
# </details>

# %%
# 检查在一个小目录里搜索，尝试三种逃逸，然后让离线模型在循环里用你的 glob 查 "/etc/*"，
# 并显示它读回了什么。
from agentlib.course.checks import check_safe_glob

check_safe_glob(safe_glob, WORKDIR)

# %% [markdown]
# 一个诱人的答案是比较字符串：`str((WORKDIR / pattern).resolve()).startswith(str(WORKDIR))`。它会漏。工作区旁边一个名字以工作区名字*开头*的目录能通过；这个单元格造一个 `<workspace>-evil`，最后再删掉：

# %%
import shutil


def prefix_inside(pattern: str) -> bool:  # 那个诱人的检查
    return str((WORKDIR / pattern).resolve()).startswith(str(WORKDIR))


sibling = WORKDIR.parent / f"{WORKDIR.name}-evil"
pattern = f"../{sibling.name}/*.txt"
try:
    sibling.mkdir(exist_ok=True)
    (sibling / "stolen.txt").write_text("工作区外面\n")
    found = [p.name for p in WORKDIR.glob(pattern)]
    print(f"{pattern}：字符串检查说在里面：{prefix_inside(pattern)}；glob 找到了 {found}")
    print("is_relative_to 说在里面：", (WORKDIR / pattern).resolve().is_relative_to(WORKDIR))
finally:
    shutil.rmtree(sibling, ignore_errors=True)

# %% [markdown]
# 字符串比较的是字符，而 `<workspace>-evil` 以 `<workspace>` 的每一个字符开头。`Path.is_relative_to` 比较的是路径的完整分段：名叫 `<workspace>-evil` 的目录不是名叫 `<workspace>` 的目录。路径要当路径来比。

# %% [markdown]
# ## 4. 把 bash 关起来
#
# `safe_path` 只守着文件工具；bash 仍然可以写出任何路径。所以 `agentlib` 在机器允许时把每条命令放进隔离的沙箱里运行（`bwrap`，即 bubblewrap）：一个全新的文件系统视图，其中只有工作区可写，没有网络，`/tmp` 是私有的，时间、内存和进程数都有上限。`ws.isolation` 说明它用的是哪种隔离（`none` 表示普通子进程，课程会告诉你）。种子的 `run_bash` 对比 `ws.bash`，都让它往外面的目录里写：

# %%
print("隔离方式：", ws.isolation)
probe = f"echo pwned > {OUTSIDE}/pwned.txt && echo wrote it"
print("种子的 run_bash：", run_bash(probe))
(OUTSIDE / "pwned.txt").unlink(missing_ok=True)
print("ws.bash：        ", ws.bash(probe))
print("外面的目录现在有：", sorted(p.name for p in OUTSIDE.iterdir()))

# %% [markdown]
# 再看网络：一个在本机回环地址上监听的服务器，两边都去连它。沙箱里的网络是另一个空的网络：有它自己的回环地址，那里什么都没在监听。

# %%
import socket

listener = socket.create_server(("127.0.0.1", 0))
port = listener.getsockname()[1]
probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2); print('connected')\""
print("种子的 run_bash：", run_bash(probe))
print("ws.bash：        ", ws.bash(probe).splitlines()[-2:])
listener.close()

# %% [markdown]
# ## 5. `normalize_messages`：一段 API 接受的历史
#
# 回到循环。它每一轮都发送完整的历史，而 API 对历史很严格：每个 `tool_use` 都必须在下一条消息的*开头*由 `tool_result` 块回答，块里只能带 API 认识的字段。历史很容易坏掉：一个工具调用被打断（像 notebook 02 那样在 `max_tokens` 处截断），用户又问了别的。

# %%
broken = [
    {"role": "user", "content": "读取 config.txt"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "config.txt"}}]},
    {"role": "user", "content": "算了。改成列出所有文本文件吧。"},
]
with expect_error(anthropic.BadRequestError, why="messages[1] 里的 tool_use 一直没有得到回答"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=broken)

# %% [markdown]
# 种子在每次调用前用 `normalize_messages` 清理历史，它有三项工作：去掉以 `_` 开头的字段（harness 自己的备注），用一个 `(cancelled)` 结果回答每个落单的 `tool_use`，把同一角色的连续消息合并。下面是种子写的原样：

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
# **缺陷 1：占位结果落在了用户文字的后面。** `(cancelled)` 结果被追加到历史的*末尾*，然后合并进用户的最后一条消息，排在文字后面。API 要求结果放在最前面：

# %%
for message in seed_normalize_messages(broken):
    print(message)
with expect_error(anthropic.BadRequestError, why="tool_use 之后的那条消息里，tool_result 块必须放在最前面"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=seed_normalize_messages(broken))

# %% [markdown]
# **缺陷 2：模型自己的回复消失了。** 循环追加的是 `response.content`，一个 SDK 对象（`TextBlock`、`ToolUseBlock`）的列表，不是字典；种子只保留字典（`if isinstance(block, dict)`），所以每条助手消息都变成了 `content: []`。带着工具结果的第一轮就失败了：

# %%
history = [{"role": "user", "content": "读取文件 config.txt"}]
response = client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=history)
history.append({"role": "assistant", "content": response.content})
history.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": box.dispatch(b.name, b.input).content}
    for b in response.content if b.type == "tool_use"
]})
print("种子发出的 messages[1]：", seed_normalize_messages(history)[1])
with expect_error(anthropic.BadRequestError, why="SDK 的块被丢掉了，所以回复是空的"):
    client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=seed_normalize_messages(history))

# %% [markdown]
# `agentlib.normalize_messages` 做同样的三项工作，先把 SDK 对象变成字典，并把每个 `(cancelled)` 结果放在它的 `tool_use` 之后、用户文字之前。两段历史都被接受了：

# %%
from agentlib import normalize_messages

print(normalize_messages(broken)[2])
for name, h in [("被打断的", broken), ("SDK 块", history)]:
    reply = client.messages.create(model=MODEL, max_tokens=1000, tools=TOOLS, messages=normalize_messages(h))
    print(f"{name}：被接受了，{reply.stop_reason}")

# %% [markdown]
# 第一项工作，演示一下：一个带着 harness 自己备注 `_meta` 的块会被拒绝；规范化之后，它不带备注地发出去：

# %%
noted = [{"role": "user", "content": [{"type": "text", "text": "2 + 2 等于几？", "_meta": {"typed_at": "09:14"}}]}]
with expect_error(anthropic.BadRequestError, why="块里只能带 API 认识的字段"):
    client.messages.create(model=MODEL, max_tokens=100, messages=noted)
print(normalize_messages(noted))
print("被接受了：", client.messages.create(model=MODEL, max_tokens=100, messages=normalize_messages(noted)).stop_reason)

# %% [markdown]
# （种子的 docstring 说 API "requires strict alternation"（要求严格交替）。其实不要求：它自己会合并同一角色的连续消息。）

# %% [markdown]
# ## 6. 只读工具同时运行
#
# 当模型在一条回复里请求好几个工具时，只*读*的工具可以同时运行；会改变东西的工具按顺序一个一个运行，这样写之后的读能看到写的结果。种子把 `read_file` 标为可以并发运行；`agentlib` 从 `@tool(read_only=True)` 读取这个标记（`@tool` 把一个带类型注解和文档的函数变成工具；notebook 05 会用到它）。一轮里的两次慢读，两种方式各来一次：

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
# 一条回复里同样的两个调用，一次标为只读，一次不标：

# %%
(WORKDIR / "a.txt").write_text("a\n")
for read_only in (True, False):
    two_reads = Script(reply(call("slow_read", path="a.txt"), call("slow_read", path="a.txt")), say("两次都读完了。"))
    c, m = offline_client(two_reads)
    started = time.perf_counter()
    agentlib.agent_loop([{"role": "user", "content": "把 a.txt 读两遍"}], client=c, model=m, tools=slow_toolbox(read_only))
    print(f"read_only={read_only!s:5}：两次 0.15 秒的读取用了 {time.perf_counter() - started:.2f} 秒")

# %% [markdown]
# （耗时因机器而异；大约是 0.15 秒对 0.3 秒。）工具设计教给模型什么，以及工具接下来往哪里走：见 `99_appendix` 第 4 节。
#
# ## 讲师专用
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s02 的工具加上你的工具运行库里的循环（见 `99_appendix`）。默认什么都不做。

# %%
tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 小测验：s02
#
# 先在心里回答，再点开看。

# %% [markdown] tags=["quiz"]
# **1.** `safe_path` 里的 `resolve()` 做了什么？为什么需要它？
#
# <details><summary>答案</summary>它去掉 <code>..</code> 和 <code>.</code>，并跟随链接，让检查看到路径真正通向哪里，而不是它怎么拼写。</details>
#
# **2.** `safe_path` 批准了一个路径，读出来的却是外面的文件。怎么回事？
#
# <details><summary>答案</summary>名字在检查和打开之间变了（换进来一个符号链接），或者它是一个硬链接：检查的是名字，打开的是文件。</details>
#
# **3.** 为什么在 `glob` 里 `WORKDIR / "/etc/hosts"` 很危险？
#
# <details><summary>答案</summary>拼接一个绝对路径会丢掉左边：结果就是 <code>/etc/hosts</code>。要拒绝绝对路径模式和 <code>..</code>。</details>
#
# **4.** `safe_path` 能保护你免受 bash 命令的伤害吗？
#
# <details><summary>答案</summary>不能：它只守着文件工具。bash 需要操作系统层面的隔离（一个只有工作区可写的沙箱）。</details>
#
# **5.** 种子的 `normalize_messages` 碰到 SDK 对象时出了什么问题？
#
# <details><summary>答案</summary>它只保留字典形式的块，所以模型的回复（SDK 对象）变成了空的，API 以 400 拒绝了这段历史。</details>
#
# **6.** API 要求 user 和 assistant 的回合严格交替吗？
#
# <details><summary>答案</summary>不要求：它会合并同一角色的连续消息。它要求的是：每个 <code>tool_use</code> 都要在下一条消息的开头由 <code>tool_result</code> 块回答。</details>
