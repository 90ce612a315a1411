# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 · 工具使用（上）：分发表
#
# **学完这一节你能：** 通过分发表（dispatch map）给智能体配上专用的文件工具（`read_file`、`write_file`、`edit_file`、`glob`），自己注册一个工具，并看到 s01 的循环几乎没变。
#
# **你需要：** 先学完 notebook 01 和 02。不需要 API key。
#
# > "加一个工具, 只加一个 handler"：循环不用动，新工具注册进 dispatch map 就行。
#
# ```
# +--------+      +-------+      +------------------+
# |  User  | ---> |  LLM  | ---> | Tool Dispatch    |
# | prompt |      |       |      | {                |
# +--------+      +---+---+      |   bash: run_bash |
#                     ^          |   read: run_read |
#                     |          |   write: run_wr  |
#                     +----------+   edit: run_edit |
#                     tool_result| }                |
#                                +------------------+
# ```
#
# **分发表**就是一个字典：`{工具名: 处理函数}`。一次查表代替一长串 `if/elif`，外面的循环不变。

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %% [markdown]
# 准备工作，以及 notebook 01 的 `run_bash`，所有分支都在（黑名单、超时、`OSError`、不带 `ANTHROPIC_*` 变量）：

# %%
import os
import subprocess
from pathlib import Path

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


# %% [markdown]
# ## 1. 为什么只有 bash 不够
#
# 只有 bash 时，所有操作都走 shell。种子文档点出了三个问题。
#
# **`cat` 截断不可预测。** 输出在第 50,000 个字符处被截断，不管那里是不是一行的中间，模型也不知道自己漏看了什么：

# %%
run_bash("seq 1 20000 | sed 's/^/line /' > big.txt")
shown = run_bash("cat big.txt").splitlines()
full = (WORKDIR / "big.txt").read_text().splitlines()
print(f"模型看到 {len(shown)} 行（共 {len(full)} 行）；最后一行是 {shown[-1]!r}，")
print(f"但文件的第 {len(shown)} 行其实是 {full[len(shown) - 1]!r}")

# %% [markdown]
# **`sed` 遇到特殊字符就崩。** 替换文本里的 `/` 正好是 `sed` 自己的分隔符，而 `&` 悄悄地表示"匹配到的文本"：

# %%
(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_bash("sed -i 's/old/data/raw/' config.txt"))
print(run_bash("sed -i 's/A/R&D/' config.txt && cat config.txt"))

# %% [markdown]
# 第一次编辑失败了；第二次"成功"了，写进去的却是 `RAD`，不是 `R&D`。
#
# **每次 bash 调用都是不受约束的安全面。** 一条命令能碰到你能碰到的一切。专用工具接收的是一个*路径*，而路径可以在打开任何东西之前先检查（notebook 04 会攻击这个检查，并展示 bash 本身怎样被关起来）。
#
# ## 2. 文件工具
#
# | 工具 | 作用 | 替代的 shell 写法 |
# |---|---|---|
# | `read_file` | 读取文件内容 | `cat file` |
# | `write_file` | 写入 / 覆盖文件 | `echo ... > file` |
# | `edit_file` | 精确修改文件片段 | `sed` / 手动改 |
# | `glob` | 按模式查找文件 | `find` / `ls *.py` |
#
# 每个文件工具都让路径经过种子的 `safe_path`：和工作区拼接，`resolve()`（去掉 `..`、跟随链接），如果结果不在工作区里就拒绝。每个工具都是一个普通函数，出错时以模型读得懂的文字返回。

# %%
def safe_path(p: str) -> Path:
    path = (WORKDIR / p).resolve()
    if not path.is_relative_to(WORKDIR):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


def run_read(path: str, limit: int = None) -> str:
    try:
        text = safe_path(path).read_text()
        lines = text.splitlines()
        if limit and limit < len(lines):
            lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
        return "\n".join(lines)[:50000]
    except Exception as e:
        return f"Error: {e}"


def run_write(path: str, content: str) -> str:
    try:
        fp = safe_path(path)
        fp.parent.mkdir(parents=True, exist_ok=True)
        fp.write_text(content)
        return f"Wrote {len(content)} bytes to {path}"
    except Exception as e:
        return f"Error: {e}"


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


# %% [markdown]
# `read_file` 的 `limit` 让模型只读长文件的开头，并告诉它还剩多少。`write_file` *覆盖*文件（明确的覆盖语义；种子数的是字符数，却叫它 bytes：`é` 在 UTF-8 里占两个字节，一个汉字占三个）。`edit_file` 按字面接收新旧两段文本，所以 `/` 和 `&` 只是普通字符，而且模型必须引用文件里现有的内容：它得先看，再改。

# %%
print(run_read("big.txt", limit=3))
print(run_read("../outside.txt"))
print(run_write("notes/café.txt", "café\n"), "| agentlib：", ws.write_file("notes/café.txt", "café\n"))
(WORKDIR / "config.txt").write_text("data_dir = old\nlabel = A\n")
print(run_edit("config.txt", "= old", "= data/raw"), run_edit("config.txt", "= A", "= R&D"))
print((WORKDIR / "config.txt").read_text())

# %% [markdown]
# ### 一个陷阱，以及练习 5
#
# 当 `old_text` 出现两次时，种子的 `run_edit` 会悄悄改掉第一处：

# %%
(WORKDIR / "twice.txt").write_text("x = 1\nx = 1\n")
print(run_edit("twice.txt", "x = 1", "x = 2"), "->", (WORKDIR / "twice.txt").read_text().split("\n")[:2])

# %% [markdown]
# 模型想改的是其中一处，却无从知道改的是哪一处。请写 `run_edit_once`：和 `run_edit` 一样，但当 `old_text` 出现不止一次时，什么都不改，返回一个错误，说明它出现了几次（`content.count(old_text)`），让模型补充上下文。

# %% tags=["exercise"]
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    raise NotImplementedError("从 run_edit 开始；替换之前先数一数匹配了几处")


# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
#
# ```python
# def run_edit_once(path: str, old_text: str, new_text: str) -> str:
#     try:
#         fp = safe_path(path)
#         content = fp.read_text()
#         count = content.count(old_text)
#         if count == 0:
#             return f"Error: Text not found in {path}"
#         if count > 1:
#             return f"Error: old_text occurs {count} times in {path}; add context to pick one"
#         fp.write_text(content.replace(old_text, new_text, 1))
#         return f"Edited {path}"
#     except Exception as e:
#         return f"Error: {e}"
# ```
#
# 先数再改：0 处和多处都不动文件，错误信息里带上次数，模型就知道要多引用几行上下文。
#
# </details>

# %%
# 检查会编辑三个文件：匹配两处、一处、零处；然后让离线模型在匹配两处的文件上调用你的函数，
# 并显示它读回了什么。
from agentlib.course.checks import check_dispatch_map, check_edit_refuses_duplicates

check_edit_refuses_duplicates(run_edit_once, WORKDIR)

# %% [markdown]
# `agentlib` 的 `edit_file` 也这样拒绝，并说出次数（在一个有两行相同内容的新文件上）：

# %%
(WORKDIR / "twice.txt").write_text("x = 1\nx = 1\n")
with expect_error(agentlib.ToolError, why="有歧义的编辑被拒绝，说明次数，文件原封不动"):
    ws.edit_file("twice.txt", "x = 1", "x = 2")
print((WORKDIR / "twice.txt").read_text().split("\n")[:2])

# %% [markdown]
# 在循环里，`ToolError` 会变成一个带 `is_error: true` 的 `tool_result`：模型读到这条消息，带上更多上下文再试一次。
#
# ## 3. `TOOLS` 与 `TOOL_HANDLERS`：菜单和后厨
#
# `TOOLS` 是给模型看的"菜单"：名字、描述、参数 schema。`TOOL_HANDLERS` 是给程序自己看的"后端逻辑"：名字 → 函数。新增一个工具只要三步：写出函数，把它的 schema 加进 `TOOLS`，把它注册进 `TOOL_HANDLERS`。循环不用动：对扩展开放，对修改封闭（开闭原则）。种子的四个工具：

# %%
def schema(**properties) -> dict:  # 参数都是必填的，除非它的类型以 "?" 结尾
    required = [k for k, v in properties.items() if not v.endswith("?")]
    props = {k: {"type": v.rstrip("?")} for k, v in properties.items()}
    return {"type": "object", "properties": props, "required": required}


TOOLS = [
    {"name": "bash", "description": "Run a shell command.", "input_schema": schema(command="string")},
    {"name": "read_file", "description": "Read file contents.", "input_schema": schema(path="string", limit="integer?")},
    {"name": "write_file", "description": "Write content to file.", "input_schema": schema(path="string", content="string")},
    {"name": "edit_file", "description": "Replace exact text in file.", "input_schema": schema(path="string", old_text="string", new_text="string")},
]
TOOL_HANDLERS = {
    "bash":       lambda **kw: run_bash(kw["command"]),
    "read_file":  lambda **kw: run_read(kw["path"], kw.get("limit")),
    "write_file": lambda **kw: run_write(kw["path"], kw["content"]),
    "edit_file":  lambda **kw: run_edit(kw["path"], kw["old_text"], kw["new_text"]),
}

# %% [markdown]
# 分发就是一次字典查表；不然，循环里就会有一条随着每个新工具变长的链（`if block.name == "bash": ... elif block.name == "read_file": ...`）。一个没人注册过的名字，得到的是种子的回答：

# %%
def dispatch(name: str, tool_input: dict) -> str:
    handler = TOOL_HANDLERS.get(name)
    return handler(**tool_input) if handler else f"Unknown tool: {name}"


print(dispatch("read_file", {"path": "config.txt"}))
print(dispatch("delete_everything", {}))

# %% [markdown]
# ### 练习 6：注册 `glob`
#
# 种子列出了第四个新工具 `glob`，却没有写出它。它的函数在下面；由你来注册。填好 `GLOB_TOOL`（schema：名字 `"glob"`、一段描述、一个必填的字符串参数 `pattern`）和 `glob_handler`（像上面的 lambda 那样以关键字接收参数，调用 `run_glob`）。

# %%
def run_glob(pattern: str) -> str:
    try:
        return ws.glob(pattern)
    except agentlib.ToolError as e:
        return f"Error: {e}"


# %% tags=["exercise"]
GLOB_TOOL = ...  # 模型读到的 schema 字典
glob_handler = ...  # 分发表调用的函数

# %% [markdown] tags=["solution"]
# <details><summary>参考答案（先自己试过再打开）</summary>
#
# ```python
# GLOB_TOOL = {"name": "glob", "description": "Find files matching a glob pattern.",
#              "input_schema": schema(pattern="string")}
# glob_handler = lambda **kw: run_glob(kw["pattern"])
# ```
#
# 描述写给模型看，所以用英文，和其它工具一致；`schema(pattern="string")` 让 `pattern` 成为必填参数。
#
# </details>

# %%
# 检查把五个工具交给一个写好的模型，它每个工具各调用一次（写、改、读、glob、bash），
# 并报告每次返回了什么。
check_dispatch_map(TOOLS + [GLOB_TOOL], {**TOOL_HANDLERS, "glob": glob_handler})

# %% [markdown]
# ### 两者不同步的时候
#
# `TOOLS` 与 `TOOL_HANDLERS` 必须一一对应。`check_tools` 会指出每一处不匹配：只在 `TOOLS` 里的工具，模型会去调用，代码却找不到它；只在 `TOOL_HANDLERS` 里的，永远不会被调用，因为模型根本不知道有这个工具。

# %%
from agentlib import check_tools

menu_only = TOOLS + [{"name": "delete_file", "description": "Delete a file.", "input_schema": schema(path="string")}]
kitchen_only = {**TOOL_HANDLERS, "word_count": lambda **kw: str(len(kw["text"].split()))}
for problem in check_tools(menu_only, TOOL_HANDLERS, course.lang) + check_tools(TOOLS, kitchen_only, course.lang):
    print("-", problem)

# %% [markdown]
# `agentlib` 不会不同步：`Toolbox` 把每个 schema 和它的处理函数放在一起，它的 `TOOLS` 和 `TOOL_HANDLERS` 是同一个列表的两个视图。`s02_tools(ws)` 就是课程在工作区上的五个工具。它的分发还会把未知的名字、错误的输入或崩溃的处理函数变成一个模型能据此行动的错误结果：

# %%
box = agentlib.s02_tools(ws)
print(box.names)
print(box.dispatch("delete_file", {"path": "config.txt"}))
print(box.dispatch("read_file", {"path": 42}))

# %% [markdown]
# ## 4. 循环，不变
#
# s02 的循环。骨架还是 s01 的：同样的 `while True`，同样唯一的出口，同样的追加。变了的是：`run_bash(...)` 变成了查分发表，历史在每次调用前先经过 `normalize_messages` 清理（去掉 API 不认识的字段、补上没人回答的工具调用；notebook 04 会展示种子的版本和它造成的 400）。

# %%
from agentlib import normalize_messages

SYSTEM = f"You are a coding agent at {WORKDIR}. Use tools to solve tasks. Act, don't explain."


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


# %% [markdown]
# notebook 01 的 s01 循环和这一个对比（`inspect.getsource` 读取的就是上面那个单元格）：

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
s02_loop = inspect.getsource(agent_loop)
diff = list(difflib.unified_diff(S01_LOOP.splitlines(), s02_loop.splitlines(), "s01", "s02", lineterm="", n=0))
print("\n".join(diff))
changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
print(f"\n变了 {len(changed)} 行（共 {len(S01_LOOP.splitlines())} 行）：发送的历史，以及工具调用怎么运行")

# %% [markdown]
# ## 5. 示例 prompt，画出来
#
# 种子给 s02 列的四个示例 prompt 是：`Read the file requirements.txt`、`Create a file called greet.py with a greet(name) function`、`Edit greet.py to add a docstring to the function`、`Read greet.py to verify the edit worked`。这里用中文一个接一个地问，放在同一段历史里，就像在种子的 REPL 里那样。种子的项目目录里有一个 `requirements.txt`；我们也给工作区放一个。

# %%
from agentlib.widgets import show

(WORKDIR / "requirements.txt").write_text("anthropic>=2\npython-dotenv\n")
history = []


def ask(query: str):
    start = len(history)
    history.append({"role": "user", "content": query})
    agent_loop(history)
    return show(history[start:], offline=OFFLINE, tools=TOOLS, lang=course.lang)


ask("读取文件 requirements.txt")

# %%
ask("创建一个名为 greet.py 的文件，里面有一个 greet(name) 函数")

# %%
ask("编辑 greet.py，给这个函数加上文档字符串")

# %%
ask("读取 greet.py，检查修改是否成功")

# %%
greet = (WORKDIR / "greet.py").read_text()
print(greet)
print(run_bash("python3 -c 'from greet import greet; print(greet(\"s02\"))'"))
if OFFLINE:
    assert "def greet(name)" in greet and '"""' in greet

# %% [markdown]
# 模型写完会读回来：它不假设写操作一定成功。它也先读再改，因为 `edit_file` 需要准确的 `old_text`。
#
# 种子在它的 REPL（`python agents/s02_tool_use.py`）里输入这些 prompt。我们的 REPL 是 `python -m agentlib s02`：终端里的同一个循环，多个问题共用一段历史，`q` 退出。这里用一个单元格把两个 prompt 通过管道送进去，在工作区的一个子目录里运行：

# %%
import shutil
import sys

repl_folder = WORKDIR / "repl"
shutil.rmtree(repl_folder, ignore_errors=True)  # 每次运行都从一个空目录开始
prompts = "创建一个名为 greet.py 的文件，里面有一个 greet(name) 函数\n读取 greet.py\nq\n"
repl = subprocess.run([sys.executable, "-m", "agentlib", "s02", "--backend", BACKEND, "--workspace", str(repl_folder), "--lang", course.lang],
                      input=prompts, capture_output=True, text=True, timeout=120)
print(repl.stdout)

# %% [markdown]
# ## 6. s01 → s02 一览
#
# 每一章有哪些工具、各有多少代码（循环加上这些 notebook 里写的工具函数）、新增了什么，以及两个循环并排对照。在 `agentlib` 里，两章用的是同一个 `agent_loop`，只有传给它的工具箱不同。

# %%
from agentlib.widgets import compare_view

compare_view(
    agentlib.s01_tools(ws), TOOLS, left_loop=S01_LOOP, right_loop=s02_loop,
    left_source=[S01_LOOP, run_bash],
    right_source=[s02_loop, run_bash, safe_path, run_read, run_write, run_edit, dispatch],
    lang=course.lang,
)

# %% [markdown]
# 参考教程数的是两个完整脚本：s01 130 行，s02 169 行（+39）；工具从 1 个到 4 个，新增 3 个、共有 1 个。**从 s01 带走：** 没有循环，就没有 agent。**s02 新引入：** 工具 schema 不是执行函数本身；一个是给模型看的说明，一个是代码里的处理器。**本章先盯住：** `TOOLS`、`TOOL_HANDLERS` 和 `tool_result` 怎样靠名字和 id 对应起来。**学完 s02 要会：** 在不改主循环的前提下，自己加一个新工具：notebook 05。
#
# ## 讲师专用
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s02 的工具加上你的工具运行库里的循环（见 `99_appendix`）。默认什么都不做。

# %%
tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools, system=SYSTEM)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 小测验
#
# 先在心里回答，再点开看。

# %% [markdown] tags=["quiz"]
# **1.** 加一个工具要哪三步？哪一步要改循环？
#
# <details><summary>答案</summary>写出函数，把它的 schema 加进 <code>TOOLS</code>，把它注册进 <code>TOOL_HANDLERS</code>。没有一步要改循环：分发是按名字查表。</details>
#
# **2.** 一个工具在 `TOOLS` 里，却不在 `TOOL_HANDLERS` 里。会怎样？
#
# <details><summary>答案</summary>模型会调用它；查表什么都找不到，模型读到 <code>Unknown tool: ...</code>。反过来：模型永远不会调用它。</details>
#
# **3.** 为什么 `edit_file` 要求准确的 `old_text`？
#
# <details><summary>答案</summary>模型必须先看当前的文件再改它，而且特殊字符都按字面处理（不像 <code>sed</code>）。</details>
#
# **4.** 为什么分发是一个字典，而不是一串 `if/elif`？
#
# <details><summary>答案</summary>按名字查一次表就能服务每一个工具；一条链会随着每个新工具在循环里变长，循环每次都得改。</details>
#
# **5.** 循环的 diff 显示改了几行？是哪几行？
#
# <details><summary>答案</summary>十九行里改了五行：发送的历史（经过 <code>normalize_messages</code>）和工具调用（查表代替 <code>run_bash</code>）。</details>
