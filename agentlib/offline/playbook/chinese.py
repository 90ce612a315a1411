"""The Chinese clause shapes the playbook understands (spaces next to Chinese text are removed first)."""

from __future__ import annotations

import re

from agentlib.offline.playbook import parts, questions
from agentlib.offline.playbook import words as w

F = w.FILE
N = w.NAME
FL = w.FILE_LIST
NL = w.NAME_LIST
NUM = r"(?P<num>\d+|[一二三四五六七八九十两])"
EXT = r"\.?(?P<ext>python|py|markdown|md|txt|text|json|js|javascript|yaml|yml|csv|sh|html|css|toml)"
DIR = r"(?:目录|文件夹)"
IN = r"(?:里面|里边|里|中|下|内)"
SHOW = r"(?:显示|查看|读取|读|看看|看|打开|输出|cat|展示|给我看|打印)"
MAKE = r"(?:创建|新建|建立|建|写|生成|做|编写|弄)"
CMD = r"(?:ls|pwd|echo|cat|head|tail|wc|python3?|node|git|date|whoami|uname|tree|du|find|grep)\b[^\ue000]*"

START = re.compile(
    r"(?:不|别|但|算了|并|再|然后|接着|也|只|就|还|打印|输出|运行|执行|跑|显示|查看|看|读|"
    r"创建|新建|建|写|删|移|复制|重命名|改|替换|列出|找|搜|统计|数|告诉|在|往|给|把|将|"
    r"里面|其中|内容|第一行|叫|名为|除了|排除|忽略|跳过|确认|验证|检查|应该|要)",
)
FILLER = re.compile(
    r"^(?:请你?|麻烦你?|帮我|帮忙|能不能|能否|可以|可不可以|你能|你可以|给我|我想|我要|我想要|只|就|只是|只要)+|"
    r"(?:吗|吧|呢|啊|呀|好吗|可以吗|行吗|好不好|谢谢|谢谢你|就行|就好|就可以了)+$"
)
JOINS = re.compile(r"\s*([\u4e00-\u9fff，。？！：；、“”（）])\s*")


def normalize(clause: str, drop_filler: bool = True) -> str:
    """Drop filler and the spaces around Chinese characters ('读取 a.txt 文件' -> '读取a.txt文件')."""
    clause = clause.replace("一下", " ").replace("帮我", " ").replace("（", "(").replace("）", ")")
    clause = JOINS.sub(r"\1", " ".join(clause.split()))
    previous = None if drop_filler else clause
    while previous != clause:
        previous, clause = clause, FILLER.sub("", clause).strip()
    return clause


RULES = [
    (r"你好|您好|嗨|哈喽|早上好|下午好|晚上好|在吗", questions.chat("greet")),
    (r"谢谢|多谢|谢了|感谢|谢谢你", questions.chat("thanks")),
    (
        r"你是谁|你是什么|你能做什么|你会什么|你可以做什么|你会做什么|你是什么模型|你是claude|帮助",
        questions.chat("about"),
    ),
    (
        rf"(?:计算|算算|算)?(?P<expr>{w.MATH})(?:等于多少|等于几|是多少|得多少|等于|是几)?",
        questions.math,
    ),
    # git
    (
        r"这是哪个(?:git)?分支|(?:当前|现在|目前)?的?(?:git)?分支(?:名|名字|名称)?是(?:什么|哪个|哪一个|啥)|(?:我|我们)?(?:现在|当前|目前)?在哪个(?:git)?分支上?|(?:查看|显示|看看|告诉我)?(?:当前|现在)的?(?:git)?分支(?:名|名字|名称)?|git\s*branch",
        questions.git("branch"),
    ),
    (
        r"git\s*status|(?:查看|看看|显示)?(?:git|仓库)的?状态(?:怎么样|如何|是什么)?|有没有未提交的(?:改动|修改|更改)",
        questions.git("status"),
    ),
    (
        r"(?:看|查看|显示)?git\s*log|(?:查看|看看|显示|列出)?(?:git)?的?(?:提交记录|提交历史|日志|历史记录|commit记录)",
        questions.git("log"),
    ),
    (rf"(?:显示|查看|列出)?最近的?{NUM}(?:次|个|条)提交(?:记录)?", questions.git("log")),
    (
        r"最近一次的?提交是(?:什么|哪个)|最后一次提交是(?:什么|哪个)|最新的提交(?:是什么)?",
        questions.git("last"),
    ),
    # folders
    (rf"{MAKE}(?:一个|个)?(?:新的?)?{DIR}(?:叫做?|名为|名叫)?(?P<names>{NL})", parts.mkdir),
    (
        rf"{MAKE}(?:一个)?(?:叫做?|名为|名叫)?(?P<names>{NL})(?:的|这个|两个|这两个|三个|这些)?{DIR}",
        parts.mkdir,
    ),
    (
        rf"(?:在)?(?:里面|其中|里边|{DIR}里)(?:写|放|创建|新建|建)(?:入|上)?{NUM}个(?:新的?)?(?:文本)?文件",
        parts.add_files_to_folder,
    ),
    # writing files
    (
        rf"(?:在|往|给|向){F}(?:的)?(?:末尾|最后|结尾|后面|{IN})?(?:加上?|添加|追加|增加|写入|补充)(?:一行)?(?:：|:)?(?P<text>.+)",
        parts.append,
    ),
    (
        rf"(?:把|将)?{F}{IN}?的?(?P<old>.+?)(?:全部|都)?(?:替换|改|换)(?:成|为)(?P<new>.+)",
        parts.replace,
    ),
    (
        rf"{MAKE}(?:一个)?(?:python|js)?(?:文件|脚本|程序)?(?:叫做?|名为|名叫)?{F}的?(?:文件|脚本|程序)?(?:，)?(?:它|用来|来|运行后|运行时|会)?(?:打印|输出|显示|print)出?(?P<text>.+)",
        parts.create_printing,
    ),
    (
        rf"{MAKE}(?:一个)?(?:文件)?(?:叫做?|名为)?{F}(?:文件)?(?:，)?(?:内容是|内容为|写上|写入|里面写|第一行写|写着)(?:：|:)?(?P<text>.+)",
        parts.create_with_text,
    ),
    (rf"(?:把|将)(?P<text>.+?)写(?:入|进|到){F}(?:里|中|文件)?", parts.write_into),
    (
        r"(?:在)?(?:里面|其中)?(?:有|包含|定义|写)(?:一个)?(?P<func>[A-Za-z_]\w*)\((?P<args>[A-Za-z0-9_\s,]*)\)(?:函数|方法)?",
        parts.function_change,
    ),
    (
        rf"{MAKE}(?:一个|{NUM}个)?(?:空的?|新的?)?(?:文件|空文件|脚本)?(?:叫做?|名为)?(?P<paths>{FL})的?(?:两个|这两个)?(?:文件|空文件|脚本)?",
        parts.create_empty,
    ),
    (
        rf"(?:在)?(?:里面|其中)(?:创建|新建|建|写)(?:一个)?(?:文件)?(?P<paths>{FL})",
        parts.create_empty,
    ),
    (r"(?:运行后|运行时|它会|会)?(?:打印|输出|显示)出?(?P<text>.+)", parts.prints_change),
    (
        r"(?:文件)?(?:内容是|内容为|第一行写|里面写|写上|写入)(?:：|:)?(?P<text>.+)",
        parts.content_change,
    ),
    (r"(?:但|但是)?(?:不要|别|先别|不用|无需)(?:运行|执行)(?:它)?", parts.dont_run),
    (
        r"(?:也)?(?:包括|包含|连同|也显示)隐藏(?:的|文件)?(?:也要|也算|在内)?",
        questions.hidden_change,
    ),
    (r"(?:里面)?(?:什么都|啥都)?(?:不要|别)写(?:任何东西|东西)?|保持为?空", parts.keep_empty),
    # moving things around
    (
        rf"(?:把|将)?(?:文件|{DIR})?(?P<src>{N})(?:文件|{DIR})?(?:重命名|改名|更名)(?:为|成|叫)(?P<dest>{N})",
        parts.move(False),
    ),
    (
        rf"(?:把|将)?(?P<src>{N})(?:文件|{DIR})?(?:移动|移|挪|搬)(?:到|进|至)(?P<dest>{N})(?P<kind>{DIR})?{IN}?",
        parts.move(True),
    ),
    (
        rf"(?:把|将)?(?P<src>{N})(?:文件|{DIR})?复制(?:一份)?(?:到|为|成|叫)(?P<dest>{N})(?P<kind>{DIR})?{IN}?",
        parts.copy,
    ),
    (rf"复制(?P<src>{N})(?:文件|{DIR})?(?:到|为|成)(?P<dest>{N})(?P<kind>{DIR})?{IN}?", parts.copy),
    (rf"(?:把|将)(?P<src>{N})(?:文件|{DIR})?复制一份", parts.copy_without_name),
    (rf"复制一份(?P<src>{N})(?:文件|{DIR})?", parts.copy_without_name),
    (rf"(?:叫|叫做|命名为|名为|取名为?)(?P<dest>{N})", parts.copy_to_change),
    (
        rf"(?:删除|删掉|删|移除|去掉)(?P<folder>{N}){DIR}{IN}?的?(?:所有|全部)的?{EXT}文件",
        parts.delete_by_ext,
    ),
    (
        rf"(?:删除|删掉|删|移除|去掉)(?:文件|(?P<dir>{DIR}))?(?P<names>{NL})(?:文件|(?P<dir2>{DIR})|这个文件)?",
        parts.delete,
    ),
    (
        r"(?:不要|别)(?:删除|删|修改|改|动)任何(?:东西|文件)|什么都(?:别|不要)(?:删|动|改)",
        questions.guard("mutate"),
    ),
    (rf"(?:不要|别)(?:显示|看|读|打开)(?P<names>{FL})", questions.guard("not")),
    (r"(?:告诉我|看看|看|显示)(?:它)?(?:输出了?什么|的?输出|结果|输出)", questions.guard("report")),
    # reading files
    (
        rf"{SHOW}?{F}的?(?P<which>前|最后|后|末尾)(?:的)?{NUM}?(?P<lines>行|几行)(?:内容)?(?:是什么|是啥)?",
        questions.show_part,
    ),
    (
        rf"{SHOW}(?:文件)?{F}(?:文件)?(?:的)?(?:内容|里的内容|全文|全部内容|所有内容|完整内容)?(?:看看)?",
        questions.show,
    ),
    (rf"{SHOW}?{F}{IN}?(?:写了|有|是)(?:什么|啥)(?:内容)?", questions.show),
    (r"(?:显示|查看|看看|读)(?:它|这个文件)的?(?:内容)?", questions.show_it),
    # finding files
    (
        rf"(?:列出|显示|查找|找出|找|列举|看看|查看)?(?:当前|这个)?(?:目录|文件夹|项目)?{IN}?(?:的)?(?:所有|全部)?(?:的)?{EXT}文件",
        questions.list_files,
    ),
    (rf"(?:当前|这个)?(?:目录|文件夹|项目)?{IN}?有(?:哪些|什么){EXT}文件", questions.list_files),
    (
        rf"(?:列出|显示|找出)?除了(?P<skip>{N}){DIR}?(?:以外|之外)的?(?:所有|全部)?的?{EXT}文件",
        questions.list_files,
    ),
    (r"(?P<rec>递归)地?(?:列出|显示)(?:所有|全部)?的?文件", questions.list_files),
    (
        r"(?:列出|显示|查看|看看)(?:当前目录|这个目录|目录|项目)?(?:下|里|中)?的?(?:所有|全部)?的?(?P<hidden>隐藏)?文件(?:和文件夹|和目录)?",
        questions.list_files,
    ),
    (rf"(?:这个|当前)(?:目录|文件夹){IN}?有(?:什么|哪些)文件", questions.list_files),
    (rf"(?P<folder>{N}){DIR}?{IN}都?有(?:哪些|什么)(?:文件|东西)?", questions.list_folder),
    (rf"(?:列出|显示|查看|看看)(?P<folder>{N}){DIR}", questions.list_folder),
    (
        rf"(?:项目|目录|当前目录|这个目录)?{IN}?(?:所有|全部)?的?{EXT}文件(?:有哪些|都有哪些|是哪些)",
        questions.list_files,
    ),
    (
        rf"(?:列出|显示|找出|找)?(?P<skip>{N}){DIR}?(?:以外|之外)的?(?:所有|全部)?的?{EXT}文件",
        questions.list_files,
    ),
    (
        rf"(?:列出|显示|查看|看看)(?P<folder>{N}){DIR}?{IN}的?(?:所有|全部)?的?(?:文件|东西)",
        questions.list_folder,
    ),
    (rf"(?:找|查找|搜索)?{F}在哪(?:里|儿)?", questions.find_name),
    (rf"(?:但)?(?:除了|不包括|不要|排除){EXT}文件(?:以外|之外)?", questions.skip_ext_change),
    (
        rf"(?:但)?(?:不包括|不包含|排除|除去|去掉|除了|跳过|忽略)(?P<skip>{N}){DIR}?(?:以外|之外)?的?",
        questions.skip_folder,
    ),
    (
        rf"(?P<paths>{FL})(?:文件)?(?:一共|总共)?有?(?:多少|几)(?P<unit>行)",
        questions.count_in_files,
    ),
    (rf"(?P<folder>{N}){DIR}?{IN}(?:一共)?有(?:多少|几)个?{EXT}文件", questions.count_files),
    (
        rf"(?:统计|数|计算)?(?P<paths>{FL})(?:文件)?(?:的|有多少个?|有几个)(?P<unit>行数|行|单词数|单词|词数)",
        questions.count_in_files,
    ),
    (rf"(?:一共|总共)?有(?:几个|多少个?){EXT}?文件", questions.count_files),
    (rf"(?P<folder>{N}){DIR}?{IN}(?:一共)?有(?:多少|几)个?文件", questions.count_files),
    # searching text
    (
        rf"(?:哪些|哪个|哪几个)(?:{EXT})?文件{IN}?(?P<verb>导入了?|引入了?|import了?|包含了?|提到了?|提及了?|用到了?|使用了?|引用了?|有)(?P<text>.+?)(?:这个词|这个字符串|这个模块|这个单词)?",
        questions.search,
    ),
    (r"有没有(?:文件|哪个文件)(?P<verb>提到|包含|导入|用到)了?(?P<text>.+)", questions.search),
    (r"(?:搜索|查找|搜|找)(?:所有)?(?:包含|含有)(?P<text>.+?)的文件", questions.search),
    (rf"在(?:所有)?的?{EXT}文件{IN}(?:搜索|查找|找)(?P<text>.+)", questions.search),
    (
        r"(?:在(?:项目|代码|整个项目|所有文件)(?:里|中)?)?(?:搜索|查找|grep)(?P<text>.+)",
        questions.search,
    ),
    (
        rf"哪个文件{IN}?定义了(?P<text>[A-Za-z_][A-Za-z0-9_]*)(?:函数|方法|类)?",
        questions.search_definition,
    ),
    # running things
    (
        rf"(?:运行|执行|跑|启动|试试|测试)(?:脚本|文件|程序)?{F}(?:脚本|文件)?(?:看看(?:输出|结果)?|试试)?",
        questions.run_file,
    ),
    (r"(?:运行|执行|跑)(?:它|这个文件|一下它)", questions.run_it),
    (r"(?:运行|执行|跑)(?:命令)?(?P<command>\ue000\d+\ue000)", questions.run_command),
    (rf"(?:运行|执行|跑)(?:命令)?(?P<command>{CMD})", questions.run_command),
    (r"(?P<command>(?:ls|pwd|cat|head|tail|wc)\b[^\ue000]*)", questions.run_command),
    # the seeds' docstring task
    (rf"(?:编辑|修改){F}", parts.edit_intent),
    (
        rf"(?:给|为)(?:{F}的?)?(?:函数|它的函数|里面的函数|这个函数)(?:加上|添加|加|增加|写)(?:一个)?(?:文档字符串|docstring)",
        parts.docstring,
    ),
    (
        r"(?:确认|验证|检查)(?:修改|编辑|改动)(?:是否)?(?:成功|生效|有效)了?",
        questions.verify_change,
    ),
]
RULES = [(re.compile(pattern, re.I), build) for pattern, build in RULES]
