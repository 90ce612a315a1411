# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s01 · 智能体循环（下）：让循环跑起来
#
# **学完这一节你能：** 用种子的示例 prompt 运行循环，一轮一轮地读懂每次运行；处理每一种 `stop_reason`；说出每一轮的代价；并使用 `agentlib` 的循环：它就是你写的循环，再加一个轮数上限。
#
# **你需要：** 先学完 notebook 01（你在那里写了循环）。不需要 API key。
#
# 一个问题在循环里走一遍（种子文档的数据流向；第 2 节真的运行它）：
#
# ```
# User: "列出当前目录的 Python 文件"
#     ↓
# messages = [用户问题]
#     ↓
# [调用模型] → stop_reason = "tool_use", content = [tool_use bash "ls *.py"]
#     ↓
# messages.append(助手回复)                 # 模型说"我要跑 ls *.py"
#     ↓
# run_bash("ls *.py") → "hello.py\nmain.py"
#     ↓
# messages.append(user: [tool_result "hello.py\nmain.py"])
#     ↓
# [调用模型] → stop_reason = "end_turn", content = [text "当前目录有2个Python文件..."]
#     ↓
# messages.append(助手回答)；stop_reason != "tool_use" → return（循环结束）
# ```

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %% [markdown]
# Notebook 01 的各个部件放进一个单元格：客户端、带着 `main.py` 的工作区、bash 工具的 schema、系统提示和 `run_bash`。

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
TOOLS = agentlib.s01_tools(ws).TOOLS  # bash 工具的 schema，和 notebook 01 里的一样
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
# 这是你在 notebook 01 写的循环（也就是种子自己的循环，一行不差）：

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
# ## 1. 示例 prompt，一轮一轮地画出来
#
# 种子文档给 s01 列了四个示例 prompt，并说明"英文 prompt 对 LLM 效果更好, 也可以用中文"：
#
# 1. `Create a file called hello.py that prints "Hello, World!"`
# 2. `List all Python files in this directory`
# 3. `What is the current git branch?`
# 4. `Create a directory called test_output and write 3 files in it`
#
# 这里用中文问同样的四件事，每个都从一段新的历史开始。`show()` 像 notebook 01 那样画出每次运行：每轮（一次模型调用）一行；用滑块或方向键翻看。

# %%
from agentlib.widgets import show

history = [{"role": "user", "content": '创建一个名为 hello.py 的文件，打印 "Hello, World!"'}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %%
print(run_bash("python3 hello.py"))
if OFFLINE:
    assert run_bash("python3 hello.py") == "Hello, World!"
history = [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# 第三个 prompt 需要一个 git 仓库；我们把工作区变成一个仓库（分支 `main`）：

# %%
print(run_bash("git init -q -b main && echo 已初始化"))
history = [{"role": "user", "content": "当前的 git 分支是什么？"}]
agent_loop(history)
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %%
history = [{"role": "user", "content": "创建一个名为 test_output 的目录，并在里面写入 3 个文件"}]
agent_loop(history)
made = sorted(p.name for p in (WORKDIR / "test_output").iterdir())
print(made)
if OFFLINE:
    assert len(made) == 3
show(history, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# ## 2. 数据流向，真的跑一遍
#
# 把开头那张图真的运行一次。工作区里有两个 Python 文件，`hello.py` 和 `main.py`，旁边是第四个 prompt 写下的三个文件：

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
# 第 1 轮：模型请求 `bash`；循环追加回复、运行命令、追加结果。第 2 轮：模型读到文件名，给出回答（`end_turn`）。它在第 1 轮没有直接回答，是因为它知道自己不知道：工具结果补上了这个信息缺口。（离线模型运行的是 `find` 而不是 `ls *.py`，还会先说一句它要做什么，真实模型也常常这样。）
#
# ## 3. 为什么先追加回答、再做判断
#
# 循环在查看 `stop_reason` *之前*就把每条回复追加进历史，最后一条也不例外。最后一条回复就是回答：REPL 从 `history[-1]` 把它打印出来，下一个问题也要接着它问。如果循环先返回，回答就丢了，历史会停在工具结果上：

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


lost = [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}]
loop_that_checks_first(lost)
print("最后一条消息：", lost[-1]["role"], [b["type"] for b in lost[-1]["content"]])
print("历史里根本没有回答：", not any(
    m["role"] == "assistant" and any(b.type == "text" and "hello.py" in b.text for b in m["content"])
    for m in lost))

# %% [markdown]
# API 甚至会接受紧跟在后面的下一个问题：两条挨着的 user 消息会被合并成一轮。什么都没有报错；回答只是悄悄不见了，模型再也看不到自己告诉过你什么。

# %%
reply = client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=8000,
                               messages=lost + [{"role": "user", "content": "谢谢。你找到了什么？"}])
print("被接受了：", reply.stop_reason)

# %% [markdown]
# ## 4. 每一种停止原因
#
# 循环唯一依据的就是 `stop_reason`。API 会发来的每一个值、它的意思，以及循环该怎么做：

# %%
from agentlib.widgets.reasons import STOP_REASONS
from agentlib.widgets.words import stop_words, words

for reason in STOP_REASONS:
    meaning, next_step = stop_words(words(course.lang), reason)
    if reason != agentlib.OUT_OF_ROUNDS:
        print(f"{reason:30} {meaning}\n{'':30} -> {next_step}")

# %% [markdown]
# 种子的循环遇到 `tool_use` 以外的一切都返回。对 `end_turn`、`stop_sequence` 和 `refusal` 来说这是对的。有两种情况需要多做一点。`pause_turn` 应该*继续*：追加暂停时的回复（里面是到目前为止的工作），然后再调用一次，服务器会从那里接着做。`max_tokens` 之后回复被截断了，所以写了一半的工具调用不能运行；`model_context_window_exceeded` 是同一种截断，只不过是上下文窗口满了造成的：像 `max_tokens` 一样处理。下面是一条在第 20 个 token 处、正好截在工具调用中间的回复：

# %%
cut_off = [{"role": "user", "content": "创建一个名为 test_output 的目录，并在里面写入 3 个文件"}]
cut = client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=20, messages=cut_off)
print("stop_reason:", cut.stop_reason)
for block in cut.content:
    print(f"[{block.type}]", block.text if block.type == "text" else f"{block.name} {block.input}")

# %% [markdown]
# ### 练习 4：处理 `pause_turn` 和 `max_tokens`
#
# 把上面的循环复制到下面的单元格里，改成：遇到 `pause_turn` 时再调用一次模型（回复照常追加，什么都不运行）；遇到 `max_tokens` 时直接返回，不运行任何工具。其它停止原因仍然返回，`tool_use` 仍然运行工具。

# %% tags=["exercise"]
def agent_loop_v2(messages: list):
    raise NotImplementedError("从上面的 agent_loop 开始，加上 pause_turn 和 max_tokens 两种情况")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
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
#         if response.stop_reason != "tool_use":  # max_tokens 也在这里返回
#             return
#         results = []
#         for block in response.content:
#             if block.type == "tool_use":
#                 output = run_bash(block.input["command"])
#                 results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
#         messages.append({"role": "user", "content": results})
# ```
#
# 只多了两行：`pause_turn` 追加之后 `continue`，带着原样的历史再调一次；`max_tokens` 不等于 `"tool_use"`，本来就走原来的出口，截断的工具调用不会被运行。
#
# </details>

# %%
# 检查用两条写好的回复运行你的循环：一次暂停的回合，然后一个在 max_tokens 处被截断的
# 工具调用（配一个记录自己被要求运行什么的 run_bash）。
from agentlib.course.checks import check_stop_reasons

check_stop_reasons(agent_loop_v2)

# %% [markdown]
# 截断的回复被追加，循环返回：历史保住了，写了一半的东西也没有运行。但现在历史以一个没人回答的 `tool_use` 结尾，下一个问题会被拒绝：

# %%
import anthropic
from agentlib.course import expect_error

cut_off = cut_off[:1] + [{"role": "assistant", "content": cut.content},
                         {"role": "user", "content": "换一个短一点的计划再试一次。"}]
with expect_error(anthropic.BadRequestError, why="被截断的 tool_use 一直没有得到回答"):
    client.messages.create(model=MODEL, system=SYSTEM, tools=TOOLS, max_tokens=8000, messages=cut_off)

# %% [markdown]
# 下次调用之前，被截断的调用需要一个自己的 `tool_result`。Notebook 04 会写出 `normalize_messages`，它会补上一个；`agentlib.agent_loop` 每次调用前都运行它，所以同样的历史能通过：

# %%
state = agentlib.agent_loop(cut_off, client=client, model=MODEL, tools=course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
print("agentlib.agent_loop 处理这段历史：被接受了，stop_reason", repr(state.stop_reason))

# %% [markdown]
# ## 5. `agentlib.agent_loop`：你的循环，再加一个轮数上限
#
# `agentlib.agent_loop` 是同一个循环，停止原因的处理和练习 4 一样，再加一个**轮数上限** `max_rounds`（一轮就是一次模型调用）：一个不停请求工具的循环会在这里结束。它把客户端、模型和工具作为参数，返回一个 `LoopState`：`messages`、轮数 `rounds`、`stop_reason` 和 `why`（种子的 `LoopState` 有 `messages`、`turn_count`、`transition_reason`）。
#
# 它的工具以一个 `Toolbox` 传入：schema 和函数放在一起。`s01_tools(ws)` 是课程的 s01 工具箱，只有一个在工作区里运行的 `bash`；`course.tools(...)` 会加上讲师配置的工具。

# %%
tools = course.tools(agentlib.s01_tools(ws))
task = [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM, max_rounds=1)
asked = [b["name"] for b in state.messages[1]["content"] if b["type"] == "tool_use"]
print(state.rounds, "轮：", state.stop_reason, "-> 轮数上限结束了这次运行；第 1 轮请求了", asked)
task = [{"role": "user", "content": "创建一个名为 test_output 的目录，并在里面写入 3 个文件"}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM, max_tokens=20, lang=course.lang)
print(state.rounds, "轮：", state.stop_reason, "->", state.why)

# %% [markdown]
# ## 6. 历史不断增长，每一轮都要为全部历史付费
#
# 每次调用都发送*完整的*列表：第 10 轮会把第 1 到 9 轮重新发一遍。模型拥有完整的"记忆"，代价是输入 token 每轮都在增长。`agentlib.agent_loop` 运行时会记录**事件**（`round_started` 带着发出的消息，`model_replied` 带着 token 用量 `usage`，`tool_ran`，`finished`）。用它们就能看到增长：

# %%
task = [{"role": "user", "content": '创建一个名为 hello.py 的文件，打印 "Hello, World!"'}]
state = agentlib.agent_loop(task, client=client, model=MODEL, tools=tools, system=SYSTEM)
total = 0
for event in state.events:
    if event.kind == "round_started":
        sent = len(event.messages)
    if event.kind == "model_replied":
        total += event.usage["input_tokens"]
        print(f"第 {event.round} 轮：发送 {sent} 条消息，{event.usage['input_tokens']} 个输入 token")
print("整次运行的输入 token：", total, "（估算：大约 4 个字符算一个 token）" if OFFLINE else "")

# %% [markdown]
# 后面的章节（s06）会压缩历史，把这个数字压下来。
#
# ## 7. 你的循环和 `agentlib.agent_loop`：同一份对话记录
#
# 两个循环用同一个 `run_bash` 跑同一段对话，然后比较历史。真实模型不会两次答得一模一样，所以模型那部分由我们来写：`Script` 是一个回复队列；`call("bash", command=...)` 请求一个工具，`say("...")` 用文字回答。`offline_client(script)` 给出一个按脚本回答的客户端，经过的是同样的 API 检查。

# %%
from agentlib.offline import Script, call, offline_client, say


def same_script():
    return Script(call("bash", command="ls *.py"), call("bash", command="python3 hello.py"),
                  say("两个 Python 文件；hello.py 打印 Hello, World!"))


question = "列出 Python 文件，然后运行 hello.py"
saved = client, MODEL
client, MODEL = offline_client(same_script())  # 你的循环读取的是全局变量
by_hand = [{"role": "user", "content": question}]
agent_loop(by_hand)
client, MODEL = saved

# %% [markdown]
# 库里的循环，用 `live()` 在它*运行的同时*画出来，用的是你的 `TOOLS` 和 `run_bash`：`Toolbox.from_dicts(TOOLS, {"bash": run_bash})` 用种子的两个结构（schema 列表和"名字 → 函数"字典）造出一个工具箱。

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
print(f"对话记录相同：{len(state.messages)} 条消息，停止原因 {state.stop_reason!r}")

# %% [markdown]
# ## 8. 问你自己的问题
#
# 改一下 `my_question`，运行这个单元格。离线时，模型是一套固定的规则（playbook），不是 Claude：它能根据真实的工具结果，做简单的工作区任务，中文英文都行（创建或显示文件、列出文件、查找某个词、重命名、运行脚本、问 git）。别的它会拒绝，并指出它没看懂的那部分。有 key 并设 `BACKEND = "auto"` 时，由真实模型来回答。

# %%
my_question = "创建一个名为 notes.txt 的文件，内容为 hello"
mine = [{"role": "user", "content": my_question}]
agent_loop(mine)
show(mine, offline=OFFLINE, tools=TOOLS, lang=course.lang)

# %% [markdown]
# ## 要点回顾
#
# - 最小智能体 = 一个循环：LLM 不断调用工具，直到自行判断任务完成。`while True` → 调用模型 → 若 `stop_reason != "tool_use"` 则返回 → 否则执行工具、结果回传、进入下一轮。
# - 工具结果以 `tool_result` 块放在一条 user 消息里回传；历史只增不减，每一轮都把它全部重发一遍。
# - 核心循环本身不含任何安全、权限或规划方面的约束；约束在后续章节逐步叠加（s02 从工作区开始），循环始终不变。
# - 最容易混：不要把"模型会思考"和"系统能行动"混成一回事，真正让它能行动的是循环：循环给它持续行动的能力，工具给它手，messages 给它记忆。Messages API 本来就是为这个闭环设计的（`stop_reason`、`tool_use`、`tool_result`），所以这么少的代码就够了。（`99_appendix` 有 s01 的前后对比表。）
#
# ## 讲师专用
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s01 的工具加上你的工具运行库里的循环（见 `99_appendix`）。默认什么都不做。

# %%
tools = course.tools(agentlib.s01_tools(ws))
run = course.run_script(tools, system=SYSTEM)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 小测验：s01
#
# 先在心里回答，再点开看。

# %% [markdown] tags=["quiz"]
# **1.** 在种子的版本里，循环唯一的出口是什么？
#
# <details><summary>答案</summary><code>stop_reason != "tool_use"</code>：任务什么时候完成由模型决定；模型不再请求工具时，循环就停下。</details>
#
# **2.** 一条回复以 `max_tokens` 结束，里面有一个 `tool_use` 块。要运行它吗？
#
# <details><summary>答案</summary>不要：回复被截断了，这个调用可能只写了一半。追加回复然后停下；下次调用之前，用一个 <code>tool_result</code> 回答这个被截断的调用（<code>normalize_messages</code>，notebook 04），否则 API 会以 400 拒绝这段历史。</details>
#
# **3.** 遇到 `pause_turn`，循环该怎么做？
#
# <details><summary>答案</summary>追加回复，带着原样的历史再调用一次模型：服务器暂停了一个很长的回合，会接着做下去。</details>
#
# **4.** 一次运行的第 5 轮：发送多少历史？
#
# <details><summary>答案</summary>全部，从问题开始的每一条消息：模型在两次调用之间没有记忆，所以输入 token 每轮都在增长。</details>
#
# **5.** 循环马上就要返回了，为什么还要把最后的回答追加进历史？
#
# <details><summary>答案</summary>否则它就丢了：REPL 从 <code>history[-1]</code> 读它，下一个问题也应该接着它问。</details>
#
# **6.** `max_rounds` 给你的循环加了什么？
#
# <details><summary>答案</summary>一个轮数上限：一个不停请求工具的模型，在这么多次模型调用之后结束运行，停止原因是 <code>max_rounds</code>。</details>
