# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 00 · 准备工作
#
# **学完这一节你能：** 确认课程需要的一切都已装好，在离线模型和真实模型之间做选择，并看一次智能体的运行被一轮一轮地画出来。
#
# **你需要：** Python 3.10 以上，并装好 `agentlib`（在课程目录里运行 `pip install -e .`）。API key 可有可无：没有 key 时，由一个离线模型来回答。
#
# 这是课程的中文版，和 `notebooks/` 里的英文版是同一套课、同一份代码，只有文字不同。

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %% [markdown]
# `Course` 读取上面这些参数：立刻检查 `EXTRA_TOOLS` 和 `SCRIPT`，连接模型，准备工作区，每做一个选择就用一行说明。

# %%
import agentlib
from agentlib.course import Course

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="setup", lang=LANG)

# %% [markdown]
# ## 术语表
#
# 课程里反复出现的词，中英对照（和种子文档的用词一致）：
#
# | 中文 | 英文 / 代码里的名字 | 意思 |
# |---|---|---|
# | 智能体 | agent | 能自己调用工具、直到完成任务的模型程序 |
# | 智能体循环 | agent loop | 一个 `while True`：调模型 → 跑工具 → 回传结果，直到模型不再要工具 |
# | harness | harness | 包在模型外面的你的代码：循环、工具、历史。模型是脑，harness 是身体 |
# | 消息历史 | `messages` | 不断累积的消息列表，每轮都完整地发给模型 |
# | 工具调用 | `tool_use` | 模型回复里的一个块：要调用哪个工具、参数是什么、`id` 是多少 |
# | 工具结果 | `tool_result` | 工具的输出，作为 user 消息回传，`tool_use_id` 对应请求的 `id` |
# | 停止原因 | `stop_reason` | 模型为什么停下：`"tool_use"` 表示还要调工具，其它值表示这一轮结束 |
# | 轮 / 轮次 | round | 一次模型调用，连同它要求的工具 |
# | 工具定义 | `TOOLS`、schema | 给模型看的"菜单"：名字、描述、参数的 JSON Schema |
# | 分发表 | dispatch map、`TOOL_HANDLERS` | 给代码看的"后厨"：工具名 → 处理函数 |
# | 工作区 | workspace | 智能体自己的目录，文件工具出不去 |
# | 沙箱 | sandbox | 把命令关在工作区里运行的隔离环境（`bwrap`） |
# | 离线模型 | offline model | 没有 key 时替代 Claude 的模拟器，只有"决定"是写好的 |
#
# ## 1. 装了什么
#
# 课程用 `anthropic` SDK（2.x）和模型通信，用 `anywidget` 和 `ipywidgets` 画出运行过程，用 `python-dotenv` 读取 `.env` 文件里的设置。

# %%
import sys
from importlib.metadata import version

print("python", sys.version.split()[0])
for package in ["agentlib", "anthropic", "httpx2", "pydantic", "python-dotenv", "anywidget", "ipywidgets"]:
    print(f"{package:14} {version(package)}")

# %% [markdown]
# ## 2. 用哪个模型：离线还是真实
#
# `connect()` 返回一个客户端和一个模型名，并用一行说明选了哪个后端、为什么。`"offline"` 总是用离线模型；`"auto"` 在配置了 key 时用真实 API（环境变量 `AGENTLIB_BACKEND` 可以强制二选一）；`"anthropic"` 坚持要真实 API。

# %%
client, MODEL = course.client, course.model  # 就是上面 connect(backend=BACKEND) 返回的
OFFLINE = "offline" in MODEL
print(type(client).__module__, type(client).__name__, "| 模型：", MODEL)

# %% [markdown]
# 离线时，`client` 依然是一个真正的 `anthropic.Anthropic`：每个请求都经过 SDK，走 HTTP 传输层，到达一个像 API 那样检查请求的模拟器。只有模型的*决定*是写好的：它认识课程里的示例 prompt，问到别的，它会老实说自己做不了。用中文问，它用中文答：

# %%
reply = client.messages.create(model=MODEL, max_tokens=500,
                               messages=[{"role": "user", "content": "给我写一首关于循环的诗"}])
print(reply.content[0].text)

# %% [markdown]
# `connect()` 找到的设置（key 和 token 的值从不打印，只说它们来自哪里）：

# %%
from agentlib.client import read_settings

settings = read_settings(lang=course.lang)
for name, (value, where) in settings.items():
    shown = "（已设置）" if name.endswith(("_KEY", "_TOKEN")) else value
    print(f"{name:22} {shown:30} 来自 {where}")
print("什么都没配置：那就用离线模型" if not settings else "")

# %% [markdown]
# ## 3. 使用真实模型
#
# 把设置写进课程目录里一个名为 `.env` 的文件（它列在 `.gitignore` 里，不会被提交）：
#
# ```
# ANTHROPIC_API_KEY=<你的 key>
# MODEL_ID=<你的 key 能用的模型 id>
# ```
#
# 然后在 notebook 的参数单元格里设 `BACKEND = "auto"`（或运行时传 `-p BACKEND=auto`）。`python -m agentlib models` 会列出你的 key 能用的模型 id。和种子代码一样（`load_dotenv(override=True)`），`.env` 里的值优先于 shell 里的同名变量。和种子不同的是，`agentlib` 不会把 `.env` 复制进环境变量，所以智能体运行的命令永远继承不到你的 key。
#
# **兼容的端点**（代理、网关，或 `python -m agentlib.offline serve`）：加上 `ANTHROPIC_BASE_URL=http://...`。设置了 base URL 时，`ANTHROPIC_AUTH_TOKEN` 会被忽略，只发送你给网关的 API key，绝不发送给 Anthropic 用的 bearer token。
#
# 真实 API 必须有 `MODEL_ID`：课程从不把模型 id 写死。缺了它，`connect()` 会立刻说明，而不是等到后面才出错。用真实后端时，下面这个单元格会发一个很小的请求，检查 key 和模型：

# %%
from agentlib.client import check_connection

if not OFFLINE:
    print(check_connection(client, MODEL))
else:
    print("离线：没有什么要检查的")

# %% [markdown]
# ## 4. 工作区
#
# 智能体在自己的目录里工作：默认是一个新的临时目录，除非 `WORKSPACE` 指定了别的。它的文件工具出不了这个目录；在机器支持的地方（`bwrap`），它的 shell 命令在沙箱里隔离运行；否则隔离方式是 `none`，课程会告诉你。

# %%
ws = course.workspace
print(ws.root, "| 隔离方式：", ws.isolation)
ws.write_file("main.py", 'print("main")\n')

# %% [markdown]
# ## 5. 画出一次运行
#
# `live()` 先显示一张空的轮次图，循环运行时逐步填满：发了什么、模型答了什么、跑了哪个工具、返回了什么、循环为什么停下。图会保存在 notebook 里，没有内核也能一轮一轮地翻看。

# %%
from agentlib.widgets import live

tools = course.tools(agentlib.s02_tools(ws))
diagram = live(offline=OFFLINE, tools=tools, lang=course.lang)
state = agentlib.agent_loop(
    [{"role": "user", "content": "列出当前目录下所有的 Python 文件"}],
    client=client, model=MODEL, tools=tools, on_event=diagram.on_event, lang=course.lang,
)
print(f"共 {state.rounds} 轮；停止原因：{state.why}")
if OFFLINE:
    assert state.stop_reason == "end_turn" and "main.py" in state.messages[-1]["content"][0]["text"]

# %% [markdown]
# ## 讲师专用：你自己的工具和脚本
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s02 的工具加上你的工具运行循环，离线模型照你的脚本走。默认什么都不做。

# %%
from agentlib.widgets import show

tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 练习
#
# 1. 在轮次图里翻到第 2 轮。哪些消息是新的？为什么第一条消息又被发了一遍？
# 2. 问离线模型一个它不会的问题（第 2 节）。它说自己能做什么？
# 3. 在终端里运行 `python -m agentlib s01`，输入一个示例 prompt，比如 `列出当前目录下所有的 Python 文件`。
# 4. 如果你有 key：写进 `.env`，用 `BACKEND = "auto"` 运行这个 notebook，把真实模型的运行和离线的比一比。
#
# 然后打开 `01_loop_by_hand`：课程按 01 → 05 的顺序，每节一次坐下来学完；`99_appendix` 是参考资料（REPL、种子代码的 `.env` 设置、讲师用法）。
