# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s01 · 智能体循环（上）：你就是那个循环
#
# **学完这一节你能：** 带着一个工具调用一次模型，运行它要求的命令，把结果发回去；然后亲手写出替你做这件事的整个循环。
#
# **你需要：** 先学完 notebook 00（准备工作）。不需要 API key：离线模型藏在真正的 `anthropic` SDK 后面回答，只有它的决定是写好的。
#
# > "One loop & Bash is all you need"：一个工具 + 一个循环 = 一个智能体。
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
# 用户的问题是第一条消息；模型要么直接回答，要么请求一个工具；代码运行工具，把结果发回去，如此循环，直到模型不再请求工具。模型外面的这层代码（循环、工具、历史）叫 **harness**：模型是脑，harness 是身体。

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %% [markdown]
# `Course` 读取参数，连接模型（`client`、`MODEL`），并给智能体一个自己的目录：它的*工作区*。在里面放一个文件，让智能体有东西可找。

# %%
import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="s01", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
WORKDIR = ws.root
OFFLINE = course.offline  # 写在 `if OFFLINE:` 下的检查只对写好的离线模型成立
(WORKDIR / "main.py").write_text('print("main")\n')
print("工作区：", WORKDIR)

# %% [markdown]
# ## 1. 会推理、却碰不到真实世界的模型
#
# 问一个聊天模型"我的目录里有哪些 Python 文件？"，它不可能知道。除非你自己跑 `ls *.py`，把结果粘贴进聊天框，再跑下一条命令……**你自己就是那个循环。** 这个 notebook 先故意让你当这个循环，再用 19 行代码把你替换掉。
#
# 一切从一个消息列表开始，问题放在第一条。先调用一次，不带工具：

# %%
messages = [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}]
chat = client.messages.create(model=MODEL, max_tokens=1000, messages=messages)
print("stop_reason:", chat.stop_reason)
print(chat.content[0].text[:300])

# %% [markdown]
# 返回的是一个 `Message`：一组内容块（content block），外加一个说明模型为什么停下的 `stop_reason`。`end_turn` 的意思是"我说完了"：没有办法去看，模型只能说话。
#
# ## 2. bash 工具
#
# 工具定义有三个字段：`name`（模型请求时写的名字）、`description`（模型靠它判断*什么时候*该用）和 `input_schema`，参数的 JSON Schema，模型必须按这份契约填写参数。

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
# 系统提示（system prompt）有自己单独的 `system` 字段，不在 messages 里。它告诉模型工作区在哪里（否则模型可能以为自己在 `/`），并要求"直接做，别解释"（Act, don't explain）。工具定义和系统提示照种子原样保留英文：这是给模型看的。
#
# `stop_reason == "tool_use"`：模型什么都没运行，它只是在*请求*，用一个 `tool_use` 块：一个 `name`，一个按 schema 填好的 `input`，以及 API 生成的 `id`，用来说明某个结果回答的是哪个请求。

# %%
call = next(block for block in response.content if block.type == "tool_use")
print("id:   ", call.id)
print("input:", call.input)
if OFFLINE:
    assert response.stop_reason == "tool_use" and call.name == "bash"

# %% [markdown]
# ## 3. `run_bash`：照模型说的去做
#
# 种子代码的 `run_bash` 用 `subprocess.run` 运行命令：
#
# - `shell=True`：由 shell 解释这一行，所以管道、`>` 和 `*.py` 都能用（shell 能做的其它事也都能做：风险就在这里）；
# - `cwd=WORKDIR`：命令在工作区里运行；
# - stdout 和 stderr **合并**：模型既要看到输出，也要看到报错；
# - `timeout=120`：卡住的命令两分钟后被终止；
# - `OSError`（`FileNotFoundError` 是其中一种）：shell 本身没能启动，比如命令行长到系统不接受。不存在的程序不算：那是 shell 用文字回答的，退出码 127；
# - `[:50000]`：一条命令不能把模型的上下文撑爆；
# - `"(no output)"`：空字符串会让模型猜不出命令到底有没有运行。
#
# 和种子有一处不同：命令拿不到 `ANTHROPIC_*` 环境变量，所以它运行的任何东西都打印不出你的 key。（`timeout` 做成参数，是为了演示时不用干等。）

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
print(len(run_bash("head -c 60000 /dev/zero | tr '\\0' x")), "个字符回来了（共 60000 个）")
print(run_bash("sleep 5", timeout=0.5))
print(run_bash("nosuchprogram"), "| 退出码：", subprocess.run("nosuchprogram", shell=True, capture_output=True).returncode)
print(run_bash("echo " + "x" * 200_000))

# %% [markdown]
# ### 黑名单不是安全机制
#
# `run_bash` 拒绝*包含* `sudo`、`rm -rf /`、`shutdown`、`reboot` 或 `> /dev/` 的命令：这是子串匹配。shell 在运行之前会去掉 `s''udo` 里的引号，于是检查看到的是 `s''udo`，shell 运行的却是 `sudo`（这里用 `echo` 安全地演示）。下面只用种子的检查函数判断这些命令，一条都不真的运行：

# %%
from agentlib.seed import seed_is_dangerous

for command in ["sudo ls", "ls 2> /dev/null", "grep sudo notes.txt", "echo s''udo", "rm -fr /"]:
    print(f"{command!r:24} 被种子的检查拦下：{seed_is_dangerous(command)}")
print(run_bash("echo s''udo"))

# %% [markdown]
# 无害的 `ls 2> /dev/null` 和 `grep sudo notes.txt` 被拦下了；`s''udo` 却通过了，`rm -fr /` 也通过了，它正是黑名单想拦的那条命令，只是把参数顺序换了一下。真正的边界在于命令*在哪里*运行：`agentlib` 的 `Workspace.bash` 在机器允许时把命令放进隔离的沙箱（`bwrap`：没有网络，只有工作区可写），并说明它用的是哪种隔离：

# %%
print("隔离方式：", ws.isolation)
print(ws.bash("echo s''udo; exit 3"))

# %% [markdown]
# ### 练习 1：把退出码告诉模型
#
# `Workspace.bash` 在输出的最后写上了退出码。种子的 `run_bash` 没有：一个失败了却什么都不打印的命令看起来就像成功了，`nosuchprogram` 也没给出退出码。请写 `run_bash_with_status`：和 `run_bash` 一样，但当退出码（`r.returncode`）不是 0 时，在最后加一行，比如 `(exit code 3)`。安静成功的命令仍然返回 `(no output)`。

# %% tags=["exercise"]
def run_bash_with_status(command: str) -> str:
    raise NotImplementedError("像 run_bash 那样调用 subprocess.run，再加上退出码")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
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
# 只在退出码不是 0 时才加那一行，所以安静的成功仍然是 `(no output)`；`.strip()` 让一个什么都没打印的失败只剩 `(exit code N)` 这一行。
#
# </details>

# %%
# 检查会在四条命令上运行你的函数，再把它放进一个循环：模型运行一个以退出码 4 结束的脚本，
# 检查会告诉你模型读到了什么。
from agentlib.course.checks import check_agent_loop, check_exit_code, check_tool_results

check_exit_code(run_bash_with_status)

# %% [markdown]
# ## 4. 你就是那个循环：把结果发回去
#
# 亲手做一遍循环将要做的事。先运行模型要求的命令：

# %%
output = run_bash(call.input["command"])
print(output)

# %% [markdown]
# 结果以一个 `tool_result` 块发回去，它的 `tool_use_id` 就是它所回答的请求的 `id`，放在一条角色为 **user** 的消息里。在它*之前*，要先放模型自己的回复：一个结果必须回答紧挨着的上一条消息里的 `tool_use`，而那个请求唯一的副本，就是我们收到的这条回复。（两条 user 消息挨在一起，API 只会把它们合并。）

# %%
history = [
    messages[0],  # 问题
    {"role": "assistant", "content": response.content},  # 模型的回复，含它的 tool_use
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": output}]},
]
len(history)

# %% [markdown]
# 在任何模型看到请求之前，API 就会检查这两条规则。漏掉回复，或者回答一个没人请求过的 id，请求都会被 400 拒绝。（`expect_error` 用几行打印一个故意展示的错误；如果这个错误不再发生，它会让单元格失败。）

# %%
import anthropic
from agentlib.course import expect_error

without_reply = [history[0], history[2]]
with expect_error(anthropic.BadRequestError, why="tool_result 必须回答紧挨着的上一条消息里的 tool_use"):
    client.messages.create(model=MODEL, system=SYSTEM, messages=without_reply, tools=TOOLS, max_tokens=8000)

# %%
made_up_id = history[:2] + [{"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_made_up", "content": output},
]}]
with expect_error(anthropic.BadRequestError, why="每个 tool_use 都要用它自己的 id 来回答"):
    client.messages.create(model=MODEL, system=SYSTEM, messages=made_up_id, tools=TOOLS, max_tokens=8000)

# %% [markdown]
# 第一个错误里的 `messages.0.content.1` 就是那个工具结果：中间没有模型的回复，API 把两条 user 消息合并成了一条，然后发现一个什么都没回答的结果。历史正确时，模型读到结果，给出回答：

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
# ### 练习 2：为一条回复里的每个调用生成结果
#
# 一条回复可以包含好几个 `tool_use` 块（旁边还可以有文本块）。请写 `tool_results(content)`：对 `content` 里的每个 `tool_use` 块，运行 `run_bash(block.input["command"])`，为它生成一个 `tool_result` 块；按顺序返回这个列表。文本块不生成结果。

# %% tags=["exercise"]
def tool_results(content: list) -> list[dict]:
    raise NotImplementedError("遍历 content；每遇到一个 tool_use 块，就运行它并生成一个 tool_result")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
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
# 每个结果都带着自己请求的 `block.id`，顺序和请求一致；文本块被 `if` 跳过。
#
# </details>

# %%
# 检查会让离线模型给出一条回复：一个文本块加两个 bash 调用；把它交给你的函数，
# 再把带着你的结果的历史发回 API。
check_tool_results(tool_results)

# %% [markdown]
# ## 5. 练习 3：整个循环
#
# 你刚才就是那个循环：带着完整的历史调用模型，追加它的回复，如果 `stop_reason` 不是 `"tool_use"` 就返回，否则运行每个工具，把结果作为一条 user 消息追加，再调用一次。请写 `agent_loop(messages)`：它使用上面的 `client`、`MODEL`、`SYSTEM`、`TOOLS` 和 `run_bash`，`max_tokens=8000`，并且原地修改 `messages`（种子的版本：19 行）。

# %% tags=["exercise"]
def agent_loop(messages: list):
    raise NotImplementedError("while True：调用模型、追加回复、检查 stop_reason、运行工具、追加结果")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
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
# 先追加回复再判断 `stop_reason`，最后的回答才会留在历史里；唯一的出口是 `stop_reason != "tool_use"`。
#
# </details>

# %%
# 检查会在一次运行的时间里换上一个写好的模型（两次 bash 调用，然后一个回答），
# 运行你的循环，再读它留下的历史。
verdict = check_agent_loop(agent_loop)
verdict

# %% [markdown]
# 把你的循环画出来：检查一说它能用，这个单元格就用第 1 节的问题运行它，`show()` 把它留下的历史画成图，每轮一行（发了什么、模型答了什么、跑了哪个工具、循环为什么停下）。用方向键一轮一轮地翻看。

# %%
from agentlib.widgets import show

drawn = [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}]
if verdict.ok:
    agent_loop(drawn)
    display(show(drawn, offline=OFFLINE, tools=TOOLS, lang=course.lang))
else:
    print("等上面的检查说你的循环能用了，这个单元格就会把它画出来。")

# %% [markdown]
# 只有一个出口：`stop_reason != "tool_use"`；`max_tokens=8000` 限制每条回复的长度（工具调用请求本身也计入这个额度）。循环本身不含任何安全、权限或规划方面的约束：后面的章节会一层层加上，循环始终不变。Notebook 02 用种子的示例 prompt 来运行它。


# %% [markdown]
# ## 讲师专用
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s01 的工具加上你的工具运行库里的循环（见 `99_appendix`）。默认什么都不做。

# %%
tools = course.tools(agentlib.s01_tools(ws))
run = course.run_script(tools, system=SYSTEM)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 小测验
#
# 先在心里回答，再点开看。

# %% [markdown] tags=["quiz"]
# **1.** 模型回复的 `stop_reason == "tool_use"`。命令由谁来运行？
#
# <details><summary>答案</summary>你的代码（harness）。模型只是用一个 <code>tool_use</code> 块提出请求；循环不运行，就什么都不会运行。</details>
#
# **2.** `tool_result` 放在哪个角色的消息里？是什么把它和请求对应起来？
#
# <details><summary>答案</summary>角色 <code>user</code>；它的 <code>tool_use_id</code> 等于它所回答的 <code>tool_use</code> 块的 <code>id</code>（编造的 id 会得到 400）。</details>
#
# **3.** 为什么要在结果*之前*追加模型的回复？
#
# <details><summary>答案</summary>结果必须回答紧挨着的上一条消息里的 <code>tool_use</code>，而这条回复是那个请求唯一的副本（只有两条挨着的 user 消息的话，它们只会被合并）。</details>
#
# **4.** 为什么 `run_bash` 要把 stderr 合并进输出，还要返回 `(no output)`？
#
# <details><summary>答案</summary>模型从报错中学到的和从输出中学到的一样多；而空字符串会让它猜不出命令有没有运行。</details>
#
# **5.** 黑名单拦得住 `rm -fr /` 吗？
#
# <details><summary>答案</summary>拦不住：它只找子串 <code>rm -rf /</code>。只有隔离（命令在哪里运行）才是真正的边界。</details>
