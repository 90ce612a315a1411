"""What the words of a request mean, per language, as data: one row is ``role.value: phrase | phrase``.

English and Chinese have the same shape; a new phrasing is a new phrase in a row. Roles:
``verb`` (the intent), ``noun`` (what it is about), ``ext`` (a kind of file), ``here`` (the
workspace itself), ``num`` (a number), ``mark`` (where a slot starts or ends), ``adj`` (a
property to pick files by), ``fact`` (a question a command answers), ``chat`` (talk),
``stop`` (politeness, filler, quantifiers: nothing to do; ``stop.ends`` is filler to every frame
but the line tests, which read 'ends with'). A phrase with ``+`` between roles
(``verb.replace+mark.to``) stands for both. Anything not in a table and not a name, number or
quote is a content word: the request is done only when every content word fills a slot.
"""

from __future__ import annotations

EN = """
verb.list: list | ls | enumerate | list out | what are | which are
verb.show: show | read | cat | open | display | view | print | see | look at | output | check | give | get
verb.find: find | locate | where is | where's | search for files | where | where are
verb.search: appear | appears | mention | mentions | mentioned | contain | contains | use | uses | used | import | imports | imported | reference | references | include | includes | search | search for | grep | look for
verb.search+mark.term: have the word | has the word | that have the word | with the word
verb.define: defined | define | defines | declared
verb.count: count | how many | number of | how much
verb.count+noun.word: word count | wordcount | word-count
verb.count+noun.line: line count | linecount | line-count
verb.create: create | make | touch | generate | build | write | put | save | place
verb.add: add | insert
verb.append: append | tack on
verb.replace: replace | change | substitute | swap | fix | update | edit | modify
verb.bump: bump | increment | increase | raise | bump up
noun.version: version | version number | the version | the version number | version string
level.major: major
level.minor: minor
level.patch: patch
mark.value: value of | the value of | set to | is set to | value | setting | set as
verb.rename: rename | change the name of | change the filename of | rename the file
verb.move: move | mv
verb.copy: copy | cp | duplicate | make a copy of
verb.delete: delete | remove | erase | rm | get rid of | trash
verb.run: run | execute | exec | launch | try | start
verb.tell: tell me | tell | say | let me know | report | show me what happens | tell me what happens | tell me what it prints | and see what happens
noun.file: file | files | ones | script | scripts | program | module | document
noun.folder: folder | folders | directory | directories | dir | subfolder | subfolders
noun.line: line | lines
noun.word: words
noun.times: times | occurrences
noun.function: function | functions | method | class
noun.docstring: docstring | docstrings | doc string
noun.branch: branch | branch name
noun.status: status | anything not committed | not committed | uncommitted | uncommitted changes | git status | untracked files | untracked | untracked changes | uncommitted files | changed files
noun.log: log | history | commits | commit history | git log
noun.commit: commit | commit message | last commit | latest commit | most recent commit | commit's message | commit's description | commit description
noun.git: git | repo | repository
noun.content: contents | content | text
noun.sum: sum | total
noun.numbers: numbers
noun.typo: typo
noun.library: library | package | module name
op.**: to the power of | raised to the power of | to the power
op.*: multiplied by
op./: divided by
ext.py: python | py
ext.md: markdown | md
ext.txt: text | txt
ext.js: javascript | js
ext.sh: shell | sh | bash script
ext.json: json
ext.csv: csv
ext.log: log files
here: here | in here | this folder | this directory | the current folder | the current directory | current directory | current folder | the project | this project | my project | the workspace | this workspace | project | workspace | the repo | this repo | everywhere | in this folder | inside this folder
outside: my computer | the computer | the whole disk | my home folder | the system | my system
num.1: one | a single
num.2: two | both | second
num.3: three | third
num.4: four | fourth
num.5: five | fifth
num.6: six | sixth
num.7: seven | seventh
num.8: eight | eighth
num.9: nine | ninth
num.10: ten | tenth
mark.to: to | into | as | by
mark.in: in | inside | within | under | of | from | on
mark.name: called | named | call it | name it | caled | titled
mark.prints: that prints | which prints | prints | print | printing | that says hello | outputs | that outputs | which outputs | to print | so it prints | says
mark.content: with the text | with the content | with the contents | with the line | containing | that contains | that says | which says | with content | with text | content | saying | content: | contents: | text:
mark.with: with | that has | having | with a | with an | that have | which have | which has
mark.starts: start with | starts with | starting with | begin with | begins with | beginning with
mark.not: don't | doesn't | dont | doesnt
mark.verify: to verify the edit worked | verify the edit worked | to check the edit worked | and check the edit worked | to check that the edit worked | to confirm the edit worked
mark.returns: that returns | which returns | returning | returns
mark.term: the word | the text | the string | word | the phrase
mark.keep_empty: but don't put anything in it | don't put anything in it | leave it empty | and leave it empty | but leave it empty
adj.hidden: hidden | hidden ones | dot files | dotfiles
verb.calc: calculate | compute | evaluate | work out | how much is
mark.in_it: in it | inside it | inside | in there | into it
mark.first: first | top | head | beginning
mark.last: last | bottom | tail | latest | most recent | recent
mark.end: to the end of | at the end of | the end of | end of | onto | at the bottom of
mark.range: to | through | until | -
mark.except: everything but | everything except | all but | all except | except | except for | but not | excluding | without | not | but don't include | but do not include | don't include | do not include | other than | apart from | skip | skipping | ignore | ignoring | leave out | but exclude | exclude | but skip
mark.args: with the argument | with the arguments | with argument | with arguments | as the argument | as argument | as an argument | as its argument | with args | args | arguments | argument
mark.should: should be | must be | should read | instead of
mark.it: it | that | that file | this file | its | them | it again
mark.original: the original | the original file | the original one | the source file
mark.correct: actually no | actually | wait no | no wait | wait | sorry | i mean | i meant | scratch that | no
mark.then: then | and then | after that | afterwards | next | also | and also | and
mark.guard: don't change anything | do not change anything | don't modify anything | don't touch anything | don't edit anything | without changing anything | don't delete anything | do not modify anything | but don't change anything | but do not change anything | read only | and don't change it | don't change it
mark.recursive: recursively | recursive | subfolders included | subfolders too | including subfolders | including subdirectories | subdirectories included | including those in subfolders | including the ones in subfolders | in subfolders too | and subfolders | and all subfolders | in all subfolders | with subfolders
mark.norun: don't run it | do not run it | without running it | but don't run it | don't run it yet
mark.report: what it prints | what it printed | what it outputs | what happens | what happened | and tell me if the tests pass | tell me if the tests pass | if the tests pass | whether the tests pass | and tell me if it works | to see if it works | and see if it works | tell me if it passes | and check the output | and show me the output | and show the output
mark.if: if | only if | otherwise | else | or else | if not | if it isn't there | if it's not there | if there isn't one | if not there
mark.exists: is there | are there | exist | exists | there's | there is | already exist | already exists | doesn't exist | does not exist | doesn't already exist | does not already exist | is missing | it's missing | missing
mark.empty: empty | blank | with nothing in it | with nothing | nothing in it
adj.size_max: biggest | largest | heaviest | big | large
adj.size_min: smallest | tiniest | lightest
adj.mtime_max: changed most recently | modified most recently | newest | most recently changed | most recently modified | last changed | last modified | edited most recently
adj.mtime_min: oldest | least recently changed
fact.python3 --version: python version | version of python | python am i using | python version do i have
fact.node --version: node version | version of node
fact.git --version: git version | version of git
fact.pwd: where am i | current path | working directory
chat.greet: hi | hello | hey | hiya | howdy | yo | good morning | good afternoon | good evening | hi there | hello there
chat.thanks: thanks | thank you | thx | ty | cheers | thank you very much | thanks a lot
chat.about: who are you | what are you | what can you do | what do you do | are you claude | are you real | are you a real model | what model are you | help
stop.ends: ending in | ending with | that end in | that end with | end in | end with | ends in | ends with
stop: but | current | active | please | pls | plz | kindly | ok | okay | so | now | just | can you | could you | would you | will you | can u | i want you to | i'd like you to | i would like you to | i need you to | i want to | help me | go ahead and | let's | quickly | real quick | for me | me | the | a | an | all | all the | every | each | any | some | my | this | these | those | of the | there | are | is | was | be | do | does | did | i | have | has | what | which | what's | whats | what is | what are | please? | thanks! | alright | hey there | currently | right now | on | am | we | us | am i | are we | its | it's | new | also | simply | here is | then | really | whole | entire | project's | workspace's | message | everything | anything | other | others | rest | rest of | contents of | content of | for | at | copy of | with the extension | with extension | there are | found | exactly | already | have in it | where | am i on | on | please | pass | in there | somewhere | anywhere | um | uh | hmm | well | back
"""

ZH = """
verb.list: 列出 | 列 | 列出来 | 罗列 | 看看有哪些 | 有哪些 | 列一下 | 展示一下
verb.show: 显示 | 看一下 | 查看 | 读取 | 读 | 看看 | 看 | 打开 | 展示 | 给我看 | 给我看看 | 看一看 | 瞧瞧 | 输出内容
verb.find: 找 | 找到 | 在哪个文件夹 | 在哪个文件夹里 | 在哪个目录 | 在哪个目录里 | 在哪个目录下 | 找出 | 找出来 | 找找 | 找一找 | 查找 | 寻找 | 在哪 | 在哪里 | 在哪儿 | 哪些地方 | 在哪些地方 | 什么地方 | 在什么地方 | 放在哪 | 放在哪儿 | 放在哪里 | 放在哪儿了 | 在哪儿了
verb.search: 提到 | 提到了 | 用到 | 用到了 | 用了 | 使用 | 使用了 | 包含 | 包含了 | 含有 | 引用 | 引用了 | 导入 | 导入了 | 引入 | 引入了 | 搜索 | 搜 | 出现
verb.define: 定义 | 定义了 | 声明
verb.count: 统计 | 数 | 数一数 | 多少 | 几个 | 几 | 多少个 | 几次 | 多少次 | 计数
verb.create: 创建 | 新建 | 建立 | 建 | 生成 | 做 | 编写 | 弄 | 写一个 | 建一个 | 新增 | 放 | 放进 | 放到 | 放入
verb.add: 加 | 添加 | 加上 | 增加 | 补充
verb.append: 追加 | 加一行 | 添加一行 | 追加一行 | 写一行 | 加上一行
verb.replace: 替换 | 改 | 换 | 修改 | 更改 | 改一下 | 编辑
noun.version: 版本号 | 版本 | 版本号码
verb.bump: 加一 | 升级 | 升一级 | 递增 | 升 | 加1 | 升一个版本
level.major: 主版本
level.minor: 次版本
level.patch: 补丁
mark.value: 的值 | 值 | 设置的是 | 设的是 | 配置的是
verb.replace+mark.to: 改成 | 换成 | 改为 | 替换成 | 替换为 | 换为 | 变成
verb.rename+mark.to: 改名为 | 改名成 | 重命名为 | 重命名成 | 更名为 | 改名叫 | 命名为
verb.rename: 重命名 | 改名 | 更名
verb.move: 移动 | 移 | 挪 | 搬 | 移到
verb.copy: 复制 | 拷贝 | 复制一份 | 备份
verb.delete: 删 | 删除 | 删掉 | 删了 | 移除 | 去掉 | 清除
verb.run: 运行 | 执行 | 跑 | 跑一下 | 运行一下
verb.tell: 告诉我 | 告诉 | 说一下 | 看看结果
noun.file: 文件 | 脚本 | 程序 | 份
noun.folder: 文件夹 | 目录 | 子目录 | 子文件夹
noun.line: 行 | 一行 | 行数
noun.word: 单词 | 词 | 字数 | 英文单词 | 个英文单词 | 英文单词数
noun.times: 次
noun.function: 函数 | 方法 | 类
noun.docstring: 文档字符串 | docstring | 注释文档
noun.branch: 分支 | 分支名 | 哪个分支
noun.status: 状态 | 未提交的改动 | 没提交的改动 | 没有提交的改动 | 没提交的修改 | 没提交的文件 | 未提交的修改 | 未跟踪的文件 | 未跟踪文件 | 未提交的文件 | 改动 | 修改过的文件
noun.log: 日志 | 提交记录 | 提交历史 | 历史记录 | 历史
noun.commit: 提交 | 最近一次提交 | 最后一次提交 | 最新的提交 | 最近的提交 | 上一次提交 | 提交信息 | 提交说明 | 提交的说明 | 提交描述 | 提交的描述
noun.git: 仓库
noun.content: 内容 | 写了什么 | 写的什么 | 写了啥 | 写着什么 | 写的是什么
noun.sum: 和 | 总和 | 加起来 | 之和
noun.numbers: 数字 | 数
noun.typo: 错别字 | 拼写错误
noun.library: 库 | 这个库 | 包 | 模块
ext.py: python | py
here: 这里 | 这儿 | 当前目录 | 当前文件夹 | 这个目录 | 这个文件夹 | 项目 | 这个项目 | 项目里 | 工作区 | 当前 | 此目录 | 本目录 | 整个项目 | 整个项目里 | 整个目录
outside: 电脑上 | 电脑里 | 整个电脑 | 系统里 | 硬盘上 | 我的电脑
num.1: 一
num.2: 两 | 二
num.3: 三
num.4: 四
num.5: 五
num.6: 六
num.7: 七
num.8: 八
num.9: 九
num.10: 十
mark.to: 到 | 成 | 为 | 进 | 至
mark.in: 里 | 里面 | 里的 | 里面的 | 中 | 中的 | 下 | 下的 | 内 | 在 | 之中 | 从
mark.name: 叫 | 叫做 | 名为 | 名叫 | 新文件叫 | 新文件名叫 | 新文件名是 | 新的叫 | 新名字叫 | 新名字是 | 命名 | 文件名改成 | 文件名是 | 文件名叫 | 名字叫 | 名字是
mark.prints: 打印 | 输出 | 打印出 | 让它打印 | 它打印 | 会打印 | 运行后打印 | 显示出
mark.content: 内容是 | 内容为 | 内容写 | 写上 | 写入 | 写 | 写着 | 里面写 | 内容写成 | 第一行写 | 内容： | 内容: | 内容是：
mark.with: 里面有 | 包含一个 | 有一个 | 带有 | 带
mark.edge: 以
mark.not: 不
mark.not+mark.edge: 不是以
mark.verify: 确认修改成功 | 确认修改是否成功 | 看看修改是否成功 | 检查修改是否成功 | 验证修改成功 | 确认修改生效
mark.returns: 返回
mark.term: 这个词 | 这个单词 | 这个字符串 | 这几个字 | 这个字 | 这几个词
mark.keep_empty: 什么都不要写 | 保持为空 | 里面什么都别写
adj.hidden: 隐藏 | 隐藏的 | 隐藏文件
verb.calc: 计算 | 算 | 算一下 | 算算
mark.in_it: 在里面 | 里面 | 其中 | 在其中 | 在它里面 | 进去 | 里去 | 到里面
mark.first: 前 | 开头 | 头
mark.last: 最后 | 后 | 末尾 | 结尾 | 最近
mark.end: 末尾 | 最后 | 结尾 | 最后面 | 后面
mark.range: 到 | 至 | -
mark.nth: 第
mark.except: 除了 | 不要 | 不包括 | 排除 | 去掉 | 除开 | 不含 | 但是不要 | 但不要 | 忽略 | 跳过 | 以外 | 之外
mark.args: 用参数 | 参数 | 参数是 | 参数为 | 参数用 | 传参 | 传入 | 传入参数 | 带参数
mark.should: 应该是 | 应该为 | 应为 | 应该叫 | 应该
mark.it: 它 | 这个文件 | 那个文件 | 刚才那个文件 | 刚才的文件 | 该文件 | 它的
mark.original: 原来的文件 | 原文件 | 原来那个文件 | 原来那个 | 原来的那个 | 原来的那个文件
mark.correct: 不对 | 哦不对 | 等等 | 算了 | 不是 | 错了 | 哦
mark.then: 然后 | 接着 | 之后 | 再 | 并且 | 并 | 随后 | 最后再 | 同时 | 顺便
mark.guard: 别改它 | 不要改它 | 别修改 | 不要修改 | 不要改 | 别改 | 不要动它 | 别动它 | 不要改动 | 只读
mark.recursive: 包括子目录 | 包括子文件夹 | 包含子目录 | 包含子文件夹 | 含子目录 | 含子文件夹 | 递归 | 递归地 | 连同子目录 | 连同子文件夹 | 子目录也算 | 子目录里的也算 | 包括子目录里的 | 包括子文件夹里的 | 包含子文件夹里的 | 包含子目录里的 | 子文件夹里的也算 | 子文件夹也算
mark.norun: 不要运行 | 别运行 | 先别运行 | 不用运行 | 不要执行
mark.report: 结果 | 运行结果 | 输出结果 | 输出了啥 | 输出了什么 | 输出什么 | 打印了什么 | 打印出什么 | 打印了啥 | 看看测试能不能过 | 测试能不能过 | 看看能不能过 | 看测试是否通过 | 测试是否通过 | 能不能通过 | 看看结果 | 看看输出
mark.if: 如果 | 要是 | 假如 | 就 | 否则 | 的话 | 不然 | 不然的话 | 要不然
mark.exists: 存在 | 不存在 | 已经存在 | 没有 | 有的话 | 不存在的话 | 存在的话 | 有没有
mark.empty: 空 | 空的 | 空文件
adj.size_max: 最大 | 最大的
adj.size_min: 最小 | 最小的
adj.mtime_max: 最近改过 | 最近修改 | 最近改动 | 最新 | 最近修改过 | 最后修改
fact.python3 --version: python版本 | python 版本
chat.greet: 你好 | 您好 | 嗨 | 哈喽 | 早上好 | 下午好 | 晚上好 | 在吗 | 你好呀
chat.thanks: 谢谢 | 多谢 | 谢了 | 感谢 | 谢谢你
chat.about: 你是谁 | 你是什么 | 你能做什么 | 你都会些啥 | 你会些啥 | 你会啥 | 你都会什么 | 你能干嘛 | 你能干什么 | 你会干什么 | 你都能做什么 | 你会什么 | 你可以做什么 | 你会做什么 | 你是什么模型 | 你是claude | 帮助 | 是claude吗 | 你都会干啥 | 你会干啥 | 你能干啥 | 你能干什么 | 你会干什么 | 你都能做什么 | 你都会什么 | 你能帮我做什么 | 你能帮我做些什么 | 你有什么功能 | 你能帮我干什么 | 你能干嘛 | 你会干嘛 | 你能干吗 | 你会啥 | 你能干点啥 | 你能干点什么 | 你都能帮我干嘛 | 你能帮我干嘛 | 你有啥用
stop: 请 | 请你 | 但 | 但是 | 怎么样 | 咋样 | 各 | 各自 | 分别 | 麻烦 | 麻烦你 | 帮我 | 帮忙 | 能不能 | 能否 | 可以 | 你能 | 你可以 | 给我 | 我想 | 我要 | 一下 | 吗 | 吧 | 呢 | 啊 | 呀 | 的 | 了 | 都 | 所有 | 所有的 | 全部 | 全部的 | 每个 | 一个 | 个 | 一共 | 总共 | 是 | 有 | 什么 | 哪个 | 哪些 | 哪 | 啥 | 我 | 现在 | 你 | 把 | 将 | 给 | 往 | 向 | 对 | 一份 | 上 | 好 | 好吗 | 谢谢 | 就行 | 就好 | 那个 | 这个 | 其他 | 其他的 | 别的 | 剩下的 | 等于 | 等于多少 | 是多少 | 多大 | 设置 | 设置的 | 刚才 | 出来 | 都有 | 里有 | 也 | 还 | 只 | 先 | 这些 | 那些 | 一些 | 下面 | 底下 | 心 | 过 | 的是 | 即可 | 信息 | 描述 | message | commit | 里边 | 当中 | 是什么 | 我们 | 目前 | 来 | 去 | 新的 | 空白 | 东西 | 一下子 | 有没有 | 是不是 | 嗯 | 呃 | 额 | 请问 | 好的 | 那 | 那么 | 诶 | 喂 | 拜托 | 劳驾 | 些 | 一些
"""

# free text it will not take as literal content: it reads as a description of behaviour, a
# condition or a hedge, so writing it verbatim would be a wrong answer
NOT_LITERAL = {
    "hedge": r"\b(?:not|don'?t|never|if|unless|except|without|instead|until|while|each|every|otherwise)\b|[不别没如果除非每]",
    "description": r"\b(?:functions?|class(?:es)?|methods?|program|script|code|tests?|loop|algorithm|app|game|docstrings?|comments?|type hints?|imports?|server|api)\b|函数|类|程序|代码|脚本|测试|算法|注释|文档|服务器",
    "behaviour": r"^(?:the|a|an|all|each|every|some|numbers?|current|today|its|my|your|their|whatever|something|anything|what|how|when|which|result|sum|date|time|random)\b|\b(?:in|and|with|using|twice|times|forever|after|before|colou?r(?:ed)?|red|green|blue|bold|upper ?case|lower ?case|reversed?|backwards|input|arguments?|user|lines?)\b|\d+\s*(?:to|-|到|至)\s*\d+|当前|今天|日期|时间|结果|所有|每|随机|和|并|次|遍",
}

# unquoted text that opens with one of these describes the content ('a poem', 'my todo list')
DESCRIBING = {"a", "an", "the", "my", "your", "our", "some", "this", "that", "new", "another"}

# requests declined as dangerous, whatever else they say: they reach outside the workspace,
# destroy it, run code from the network or show secrets
DANGER = {
    "wipe": r"\brm\s+-\w*[rf]\w*\s+(?:/|~|\*|\.(?:\s|$))|\brm\s+-\w*\s+--no-preserve-root|\bmkfs|\bdd\s+if=|:\(\)\s*\{",
    "network": r"\b(?:curl|wget)\b[^|]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b",
    "secrets": r"\b(?:env(?:ironment)?\s+var(?:iable)?s?|printenv|api[ _-]?keys?|credentials|environ|getenv)\b|(?:^|[\s'\"/])\.env(?!\.(?:example|sample|template)\b)\b|环境变量|密钥|令牌|API\s*key",
    "escalate": r"\bsudo\b|\bchmod\s+-R\s+777\b|\bshutdown\b|\breboot\b",
    "outside": r"(?:^|[\s'\"`(=])(?:~|\$HOME|/(?=[A-Za-z_.~*]|\s*$)|\.\.(?:/|\s|$))|\.ssh\b|id_rsa|\.\./",
}

# words and signs of arithmetic, as Python writes them
MATH = {
    "plus": "+", "minus": "-", "times": "*", "multiplied by": "*", "divided by": "/", "over": "/",
    "x": "*", "×": "*", "÷": "/", "^": "**", "to the power of": "**", "mod": "%",
    "加": "+", "加上": "+", "减": "-", "减去": "-", "乘": "*", "乘以": "*", "除以": "/",
    "squared": "** 2", "cubed": "** 3", "平方": "** 2", "立方": "** 3", "次方": "",
}  # fmt: skip

# one-character words a name may be glued to ('把笔记.txt'); longer verbs and filler always are
GLUED = set("把将给看读删跑用请再先只就叫")

# what a setting is called, when it is asked for in Chinese
KEY_WORDS = {"端口": "port", "主机": "host", "地址": "host", "调试": "debug", "名字": "name",
             "名称": "name", "版本": "version", "超时": "timeout", "用户名": "user"}  # fmt: skip

# 'put a.txt in docs': said of a file already named, these create verbs move it
PUT = {"put", "place", "放", "放进", "放到", "放入"}

# commands typed out as they are: run verbatim (after the danger check)
SHELL = set("ls pwd echo head tail wc date whoami uname tree du df python3 python node".split())

# what each kind of script is run with: the only kinds it writes or runs
RUNNERS = {"py": "python3", "js": "node", "sh": "bash"}

# files whose 'key to value' is a setting, not text: only quoted text is replaced in them
CONFIG_FILES = ("json", "yaml", "yml", "toml", "ini", "cfg", "env", "conf")

# files that have no extension but are named the same everywhere: as typed, they are names
NAMED_FILES = set(
    "LICENSE Makefile makefile Dockerfile Procfile Gemfile Rakefile Jenkinsfile".split()
)
NAMED_FILES |= set("Vagrantfile CHANGELOG NOTICE AUTHORS COPYING CODEOWNERS".split())
