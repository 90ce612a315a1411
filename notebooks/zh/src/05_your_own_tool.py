# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # s02 之后 · 加一个你自己的工具
#
# **学完这一节你能：** 给智能体加一个你自己选的工具，schema 和处理函数都写好，主循环一行不改；工具不能用时，读懂检查用文字告诉你的问题。
#
# **你需要：** 先学完 notebook 03 和 04。不需要 API key：离线时，模型那部分由*你*来扮演。
#
# 种子在 s02 之后留的练习："在不改主循环的前提下，自己加一个新工具。"
#
# ```
#  1. 函数               def your_tool(...) -> str        （代码运行的东西）
#  2. 它的 schema        {"name", "description", "input_schema"}   （模型读的东西）
#  3. 两个都注册         TOOLS + [schema],  {**TOOL_HANDLERS, name: function}
#                              ↓
#  循环，不变：          模型请求 name → TOOL_HANDLERS[name](**input) → tool_result
# ```

# %% tags=["parameters"]
BACKEND: str = "offline"  # "offline"、"auto"（配置了 key 就用真实模型）或 "anthropic"
WORKSPACE: "Optional[str]" = None  # None：一个新的临时目录。千万不要指向你自己的项目。
EXTRA_TOOLS: str = ""  # 讲师用："模块:属性"，指向工具、Toolbox 或 make_tools(ws) 工厂函数，多个用逗号分隔
SCRIPT: str = ""  # 讲师用："模块:属性"，指向一个离线 Script（见 99_appendix）
LANG: str = "zh"  # 课程打印和绘制时用的语言："en" 或 "zh"

# %%
import agentlib
from agentlib.course import Course
from agentlib.course.checks import check_own_tool

course = Course(BACKEND, WORKSPACE, EXTRA_TOOLS, SCRIPT, name="own-tool", lang=LANG)
client, MODEL = course.client, course.model
ws = course.workspace
OFFLINE = course.offline
s02 = agentlib.s02_tools(ws)  # 课程的五个工具：bash、read_file、write_file、edit_file、glob
print(s02.names)

# %% [markdown]
# ## 练习 8：你的工具，分三步
#
# 挑一件返回文本的小事：数一段文字有几个词、把字符串倒过来、说出工作区里某个文件有几行（`ws.read_file(path)` 能安全地读它）、摄氏度换算成华氏度……然后：
#
# 1. `TOOL_NAME`：它的名字（字母、数字、`_` 或 `-`；不能有空格，也不能用汉字：API 不接受），以及 `EXAMPLE`，一次调用的参数，写成字典，例如 `{"text": "a b c"}`；
# 2. 函数：接收这些参数，**返回**一个字符串（模型读到的就是它；`print` 不会给模型看到任何东西）；
# 3. `MY_TOOL`，它的 schema：`name`，一段说明它什么时候有用的 `description`，以及一个 `input_schema`，其中的 `properties` 和 `required` 要和函数的参数一致。

# %% tags=["exercise"]
TOOL_NAME = ...  # 例如 "word_count"
EXAMPLE = ...  # 例如 {"text": "One loop and bash is all you need"}


def my_tool(**kwargs) -> str:
    raise NotImplementedError("写上你的参数，返回一个字符串")


MY_TOOL = ...  # {"name": TOOL_NAME, "description": "...", "input_schema": {...}}

# %% [markdown] tags=["solution"]
# <details><summary>一种答案（先自己试过再打开）</summary>
#
# ```python
# TOOL_NAME = "word_count"
# EXAMPLE = {"text": "One loop and bash is all you need"}
#
#
# def my_tool(text: str) -> str:
#     """Count the words in a text (separated by whitespace)."""
#     return str(len(text.split()))
#
#
# MY_TOOL = {
#     "name": TOOL_NAME,
#     "description": "Count the words in a text. Use it instead of counting yourself.",
#     "input_schema": {
#         "type": "object",
#         "properties": {"text": {"type": "string", "description": "The text to count."}},
#         "required": ["text"],
#     },
# }
# ```
#
# 函数返回的是字符串 `str(...)`，不是数字；schema 里的 `text` 正是函数的参数名；描述说清了*什么时候*用它。（`split()` 按空白分词，所以中文句子没有空格时只算一个"词"。）
#
# </details>

# %% [markdown]
# 两个都注册：schema 加进菜单，函数加进分发表。

# %%
TOOLS = s02.TOOLS + [MY_TOOL]
TOOL_HANDLERS = {**s02.TOOL_HANDLERS, TOOL_NAME: my_tool}

# %% [markdown]
# ## 检查一下
#
# 检查会找出一切会让工具在循环里失败的问题，并用文字说出来：不在 `TOOLS` 或 `TOOL_HANDLERS` 里、API 不接受的名字、schema 和函数对不上、没有描述、用 `EXAMPLE` 调用时抛出异常或返回的不是字符串。然后它运行一次循环，让一个写好的模型用 `EXAMPLE` 调用你的工具。

# %%
verdict = check_own_tool(TOOLS, TOOL_HANDLERS, name=TOOL_NAME, example=EXAMPLE)
verdict

# %% [markdown]
# ## 运行循环，一行不改
#
# `agentlib.agent_loop` 就是 notebook 02 的循环，原封不动；它拿到一个用你的两个结构造出来的工具箱（`Toolbox.from_dicts`）。离线模型不认识你的工具，所以**由你来扮演模型**：一个有两条回复的 `Script`。第一条用 `EXAMPLE` 请求你的工具；第二条是一个函数，从请求里读出真实的结果，再用它来回答。用真实模型时（`BACKEND = "auto"` 加 key），由真实模型来决定。

# %%
from agentlib.offline import Script, call, offline_client, say
from agentlib.widgets import live

QUESTION = f"请用 {TOOL_NAME} 工具处理 {EXAMPLE}。"


def answer_with_result(request: dict):
    result = request["messages"][-1]["content"][0]["content"]
    return say(f"{TOOL_NAME} 的结果：{result}")


if not verdict.ok:
    print("等上面的检查说你的工具能用了，这个单元格就会在循环里运行它。")
else:
    if OFFLINE:
        model_client, model_name = offline_client(Script(call(TOOL_NAME, **EXAMPLE), answer_with_result))
    else:
        model_client, model_name = client, MODEL
    tools = course.tools(agentlib.Toolbox.from_dicts(TOOLS, TOOL_HANDLERS))
    diagram = live(offline=OFFLINE, tools=tools, lang=course.lang)
    state = agentlib.agent_loop([{"role": "user", "content": QUESTION}], client=model_client,
                                model=model_name, tools=tools, on_event=diagram.on_event)
    for event in state.events:
        if event.kind == "tool_ran":
            print(f"{event.name}({event.input}) -> {event.output!r}")
    print(state.messages[-1]["content"][0]["text"])

# %% [markdown]
# 循环按名字查到了你的工具，和查其它工具一样。
#
# ## 练习 9：用 `@tool` 写同一个工具
#
# 手写 schema 最容易出错。`@tool` 从函数本身生成 schema：类型注解变成 JSON Schema，docstring 的第一行变成描述，每一行 `Args:` 描述一个参数。用 `@tool` 重写你的工具（名字不变：函数名就是工具名，或者传 `@tool(name=TOOL_NAME)`），并把它加进课程的工具箱。

# %% tags=["exercise"]
from agentlib import tool  # noqa: F401 - 给你的 @tool 函数用

toolbox = ...  # agentlib.s02_tools(ws).add(你的 @tool 函数)

# %% [markdown] tags=["solution"]
# <details><summary>一种答案（先自己试过再打开）</summary>
#
# ```python
# from agentlib import tool
#
#
# @tool(name=TOOL_NAME)
# def my_tool_again(text: str) -> str:
#     """Count the words in a text. Use it instead of counting yourself.
#
#     Args:
#         text: The text to count.
#     """
#     return str(len(text.split()))
#
#
# toolbox = agentlib.s02_tools(ws).add(my_tool_again)
# ```
#
# 类型注解 `text: str` 变成 `{"type": "string"}`，docstring 的第一行变成描述，`Args:` 那一行变成参数的描述：不用再手写 schema。
#
# </details>

# %%
# 同样的检查，这次对着工具箱；然后看 @tool 替你生成的 schema。
verdict = check_own_tool(toolbox, None, name=TOOL_NAME, example=EXAMPLE)
print(verdict)
if verdict.ok:
    print(toolbox[TOOL_NAME].spec)

# %% [markdown]
# `@tool` 还禁止函数不接受的参数（`additionalProperties: false`），而 `Toolbox` 把 schema 和函数放在一起，它们不会不同步。
#
# ## 出错的时候
#
# 下面每一份都是故意弄坏的，坏法就是工具平常坏掉的样子，用的是 notebook 自己的一个小工具（`char_count`）。读一读 `check_exercise` 说了什么。

# %%
from agentlib.course import check_exercise


def char_count(text: str) -> str:
    return str(len(text))


CHAR_COUNT = {"name": "char_count", "description": "Count the characters of a text.",
              "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
good_tools, good_handlers = s02.TOOLS + [CHAR_COUNT], {**s02.TOOL_HANDLERS, "char_count": char_count}
print(check_exercise(good_tools, good_handlers, name="char_count", example={"text": "abc"}) or "好的那份通过了")

# %% [markdown]
# 四份坏掉的副本，以及检查对每一份说了什么：

# %%
def char_count_prints(text: str) -> None:
    print(len(text))


def char_count_renamed(words: str) -> str:
    return str(len(words))


def char_count_crashes(text: str) -> str:
    return str(int(text))


broken = {
    "不在 TOOLS 里": (s02.TOOLS, good_handlers),
    "不在 TOOL_HANDLERS 里": (good_tools, s02.TOOL_HANDLERS),
    "打印而不是返回": (good_tools, {**good_handlers, "char_count": char_count_prints}),
    "schema 说 text，函数要 words": (good_tools, {**good_handlers, "char_count": char_count_renamed}),
    "用示例调用时抛出异常": (good_tools, {**good_handlers, "char_count": char_count_crashes}),
}
for what, (tools_, handlers_) in broken.items():
    print(f"\n{what}：")
    for problem in check_exercise(tools_, handlers_, name="char_count", example={"text": "abc"}):
        print("  -", problem)

# %% [markdown]
# 一个抛出异常的函数不会让循环崩溃：异常变成一个带 `is_error: true` 的 `tool_result`，模型读到这条消息（还可以换个办法再试）：

# %%
from agentlib.widgets import show

crashing = course.tools(agentlib.Toolbox.from_dicts(good_tools, {**good_handlers, "char_count": char_count_crashes}))
script_client, script_model = offline_client(Script(call("char_count", text="abc"), say("工具失败了。")))
failed = agentlib.agent_loop([{"role": "user", "content": "数一下 abc 有几个字符"}],
                             client=script_client, model=script_model, tools=crashing)
print(failed.messages[2]["content"][0])
show(failed, offline=True, tools=crashing, lang=course.lang)

# %% [markdown]
# ## 讲师专用
#
# 设置了 `EXTRA_TOOLS` 和 `SCRIPT` 时，这个单元格用 s02 的工具加上你的工具运行库里的循环（见 `99_appendix`）。默认什么都不做。

# %%
tools = course.tools(agentlib.s02_tools(ws))
run = course.run_script(tools)
if run:
    display(show(run, offline=True, tools=tools, lang=course.lang))

# %% [markdown]
# ## 小测验
#
# 先在心里回答，再点开看。

# %% [markdown] tags=["quiz"]
# **1.** 为了加你的工具，你改了循环的哪一行？
#
# <details><summary>答案</summary>一行都没改：循环按名字在分发表里查每一个工具。</details>
#
# **2.** 你的处理函数把答案 `print` 出来，而不是返回它。模型读到了什么？
#
# <details><summary>答案</summary>没有用的东西：模型只读函数返回的值，而 <code>None</code> 不是工具结果。</details>
#
# **3.** schema 的 `required` 写的是 `text`，函数接收的是 `words`。什么时候会失败？
#
# <details><summary>答案</summary>第一次调用时：模型发来 <code>text</code>，函数收到一个它不接受的参数。</details>
#
# **4.** 为什么描述里要说清工具*什么时候*有用？
#
# <details><summary>答案</summary>模型永远看不到你的代码；它靠读工具的名字和描述来挑工具。</details>
