# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 附录 · 参考资料：REPL、`.env` 与端点、讲师用法
#
# 这不是一节课：这里讲种子脚本在循环之外做了什么，以及怎样按你自己的方式运行课程。需要哪一节就读哪一节。
#
# **目录：** 1. REPL：跨问题的历史 · 2. 种子的环境设置（`.env`、base URL、`MODEL_ID`）· 3. 讲师专用：参数、你自己的工具、脚本 · 4. s01 的前后对比、工具设计，以及工具接下来往哪里走。

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（第 3 节）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %%
import os

import agentlib
from agentlib.course import Course, expect_error

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="appendix", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
SYSTEM = f"You are a coding agent at {ws.root}. Use bash to solve tasks. Act, don't explain."

# %% [markdown]
# ## 1. REPL：跨问题的历史
#
# 种子的入口在一个循环里读问题（`input("s01 >> ")`），并且所有问题共用**一段**历史，所以第二个问题可以接着第一个问：你第一次说"创建 hello.py"，第二次说"给它加个 main 函数"，智能体记得 hello.py 已经存在。每次运行完，它打印最后一条消息里的文本块（`hasattr(block, "text")` 留下文本块、跳过工具调用）。它的提示符 `"\033[36ms01 >> \033[0m"` 是青色的：`\033` 是 ESC 字符（八进制 33），`[36m` 把终端文字设成青色，`[0m` 重置所有样式，和网页上的 `<span style="color:cyan">` 是同一个概念。在 JupyterLab 里 `input()` 能用（它在单元格下面打开一个输入框），但由程序运行的 notebook（nbclient、papermill、CI）没有人来打字，会报错停下，所以这里直接给循环喂两个问题。在终端里，`python -m agentlib s01` 才是真正的 REPL（notebook 03 用管道往它的孪生兄弟 `python -m agentlib s02` 里送过 prompt）。

# %%
def ask(history: list, query: str) -> None:
    history.append({"role": "user", "content": query})
    state = agentlib.agent_loop(history, client=client, model=MODEL,
                                tools=course.tools(agentlib.s01_tools(ws)), system=SYSTEM)
    for block in state.messages[-1]["content"]:
        if block.get("type") == "text":
            print(block["text"])


history = []
for query in ['创建一个名为 hello.py 的文件，打印 "Hello, World!"',
              "列出当前目录下所有的 Python 文件"]:
    print(f"\033[36ms01 >> \033[0m{query}")
    ask(history, query)
    print(f"        （现在历史里有 {len(history)} 条消息）\n")

# %% [markdown]
# ## 2. 种子的环境设置
#
# 种子的脚本是这样开头的（我们不运行它：`Course` 和 `connect()` 做的是等价的事，而且从不把你的 key 复制进智能体命令能看到的环境）：
#
# ```python
# load_dotenv(override=True)
# if os.getenv("ANTHROPIC_BASE_URL"):
#     os.environ.pop("ANTHROPIC_AUTH_TOKEN", None)
# client = Anthropic(base_url=os.getenv("ANTHROPIC_BASE_URL"))
# MODEL = os.environ["MODEL_ID"]
# ```
#
# **`override=True`**：`.env` 和环境变量不一致时，`.env` 优先，所以不管你的 shell 设了什么，项目的文件说了算。用一个临时文件和一个无害的变量演示：

# %%
from dotenv import load_dotenv

demo_env = course.temporary_folder("env") / ".env"
demo_env.write_text("COURSE_DEMO_COLOUR=from-the-file\n")
os.environ["COURSE_DEMO_COLOUR"] = "from-the-shell"
load_dotenv(demo_env)
print("override=False:", os.environ["COURSE_DEMO_COLOUR"])
load_dotenv(demo_env, override=True)
print("override=True: ", os.environ["COURSE_DEMO_COLOUR"])
del os.environ["COURSE_DEMO_COLOUR"]

# %% [markdown]
# **为什么设置了 base URL 就丢掉 `ANTHROPIC_AUTH_TOKEN`**：这个变量存的是给 Anthropic 自己的 API 用的 bearer token。`ANTHROPIC_BASE_URL` 让 SDK 指向另一台主机（代理或兼容网关），那里要的是你给它的 API key。种子的解读说 SDK 会优先用 token 而不是 key；SDK 2.x 并不这样（两者都设置时 key 优先，并给出警告）。但这一行仍然有用：当 token 是唯一的凭据时，SDK 会把它，一个给 Anthropic 的凭据，发给另一台主机。看看 SDK 会发什么（一个占位 token，不是真的）：

# %%
import anthropic

proxied = anthropic.Anthropic(auth_token="token-meant-for-anthropic", base_url="http://localhost:8080")
print("发给 localhost:8080 的请求头：", proxied.auth_headers)
env = {"ANTHROPIC_BASE_URL": "http://localhost:8080", "ANTHROPIC_AUTH_TOKEN": "placeholder"}
if env.get("ANTHROPIC_BASE_URL"):
    env.pop("ANTHROPIC_AUTH_TOKEN", None)
print("执行种子的那一行之后：       ", env)

# %% [markdown]
# **为什么用 `os.environ["MODEL_ID"]` 而不是 `os.getenv("MODEL_ID")`**：方括号在变量不存在时立刻抛出 `KeyError`，点名原因，快速失败。`getenv` 悄悄地返回 `None`，错误要等到后面才从 API 那里冒出来，说的是一个叫 `None` 的模型。（在一个没有 `MODEL_ID` 的副本上演示，所以你自己的设置在这里不起作用。）

# %%
env = {k: v for k, v in os.environ.items() if k != "MODEL_ID"}
print("getenv 的写法：", env.get("MODEL_ID"))
with expect_error(KeyError, why="缺少 MODEL_ID 会在启动时就失败，并点出变量名"):
    MODEL_FROM_ENV = env["MODEL_ID"]

# %% [markdown]
# 课程自己怎样读取 `.env`、选择后端、连接兼容的端点，见 `00_setup` 第 3 节。
#
# ## 3. 讲师专用：参数、你自己的工具、脚本
#
# 每个 notebook 都有一个带 `parameters` 标签的单元格（与 papermill 兼容），不用改 notebook 就能覆盖：
#
# | 参数 | 默认值 | 含义 |
# |---|---|---|
# | `BACKEND` | `"offline"` | `"auto"`：配置了 key 时用真实模型 |
# | `WORKSPACE` | `None` | 智能体的目录；`None` 是一个新的临时目录 |
# | `EXTRA_TOOLS` | `""` | 逗号分隔的 `模块:属性`，指向 `@tool` 函数或 `Toolbox` |
# | `SCRIPT` | `""` | `模块:属性`，指向一个离线 `Script`（或一个回复列表） |
# | `LANG` | `"zh"`（英文版是 `"en"`） | 课程打印和轮次图用的语言 |
#
# `Course(...)`（notebook 的准备单元格）会立刻导入并检查 `EXTRA_TOOLS` 和 `SCRIPT`，每个运行 `agentlib` 循环的单元格都通过 `course.tools(...)` 加上你的工具。你自己的模块可以是这样：
#
# ```python
# from agentlib import tool
# from agentlib.offline import call, say
#
# @tool
# def run_tests(path: str) -> str:
#     """Run the project's tests in one folder.
#
#     Args:
#         path: Folder with the tests, relative to the workspace.
#     """
#     ...
#
# SCRIPT = [call("run_tests", path="tests"), say("测试跑完了。")]
# ```
#
# 然后 `python -m agentlib.course notebooks/zh/02_agent_loop.ipynb -p EXTRA_TOOLS=mytools:run_tests -p SCRIPT=mytools:SCRIPT`（或 papermill 的 `-p`）就会带着它们运行这个 notebook，每个 notebook 结尾的"讲师专用"一节会用该 notebook 的工具箱加上你的工具来演你的脚本。这里：

# %%
from agentlib.widgets import show

tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))
else:
    print("没有设置 SCRIPT：没有什么要运行的")

# %% [markdown]
# ## 4. s01 的前后对比、工具设计，以及工具接下来往哪里走
#
# s01 给一个聊天模型加了什么（notebook 01 和 02）：
#
# | 组件 | 之前（纯 LLM chat） | s01 |
# |---|---|---|
# | Agent loop | 无（你自己手动循环） | `while True` + `stop_reason` |
# | 工具 | 无 | `bash`（1 个工具） |
# | 消息管理 | 你自己复制粘贴 | `messages` 列表自动累积 |
# | 控制流 | 你决定下一步 | `stop_reason != "tool_use"` 时结束 |
#
# s02 的工具设计教给模型什么（notebook 03 和 04）：专用工具比一个万能的 bash 更能塑造它的工作习惯。`read_file` 的 `limit` 鼓励按需读取；`edit_file` 的 `old_text` 强制先确认当前状态再修改；`write_file` 明确的覆盖语义消除了"创建还是追加？"的歧义；工作区的边界让模型写出的每个路径都能被检查。契约要显式，默认要受限，每个工具都要有超时。
#
# 种子在 s02 的结尾列了一些原则和想法；后面的章节会实现其中一部分。
#
# - **工具设计：** 单一职责；显式的、结构化的输入输出；安全默认（工具默认受限，放开才可用，就像工作区）；每次调用都有记录（循环的事件）；一切都有超时。
# - **消息历史：** 尽早规范化，并且让规范化保持幂等（运行两次结果不变；`agentlib` 的测试检查了这一点）；用户文字、模型回复和工具结果要分得清清楚楚；控制历史的体积（s06 会压缩它）。
# - **性能：** 互不相关的只读调用可以并行（notebook 04）；频繁读取的结果可以缓存。
# - **想法：** 一个工具的多个版本并存；每个工具的使用统计；在智能体运行时加载工具；按角色的权限；按领域给工具分组；调用工具的工具；长时间运行的工具流式返回结果。
