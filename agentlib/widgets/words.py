"""Every label and sentence the round diagram and the s01 -> s02 comparison show, in English and Chinese.

One table, one row per key: (English, Chinese). The trace carries one column of it (its
``lang``) and every view, the browser's included, only fills the ``{fields}`` and lays it out.
A key ending in ``/1`` is the English form used when its count is 1 ("1 message").
"""

from __future__ import annotations

import re
from typing import Any

from ..loop import OUT_OF_ROUNDS, WHY_ZH
from .reasons import STOP_REASONS

LANGS = ("en", "zh")

WORDS: dict[str, tuple[str, str]] = {
    # the heading and what is said once above the rounds
    "title": ("Round diagram", "轮次图"),
    "rounds": ("{count} rounds", "共 {count} 轮"),
    "rounds/1": ("1 round", ""),
    "badge.offline": ("OFFLINE model (tokens are estimates)", "离线模型（token 数为估算）"),
    "badge.live": ("LIVE model", "真实模型"),
    "badge.unknown": ("model unknown (drawn from the history alone)", "模型未知（仅根据历史绘制）"),
    "model": ("model {model}", "模型 {model}"),
    "legend": (
        "Each round: your code (the harness) sends the whole history, the model replies, and "
        "your code runs the tools it asked for, sending their results in the next round.",
        "每一轮：你的代码（harness）把完整的历史发给模型，模型回复；你的代码运行模型要求的工具，"
        "并在下一轮把工具的结果发回去。",
    ),
    "harness": (
        "The harness is your code around the model: the loop that keeps the history, sends it "
        "to the model and runs the tools the model asks for",
        "harness 就是包在模型外面的你的代码：它保存历史，把历史发给模型，并运行模型要求的工具",
    ),
    "toolbox": ("Tools offered to the model: {names}", "提供给模型的工具：{names}"),
    "inferred": (
        "Stop reasons are inferred from the history (no loop events were recorded): tool_use "
        "when a reply asks for tools, else end_turn.",
        "stop_reason 是根据历史推断的（没有记录循环事件）：回复请求工具时为 tool_use，"
        "否则为 end_turn。",
    ),
    "keys": (
        "Keys: ← → (or ↑ ↓) previous / next round, Home / End first / last round.",
        "按键：← →（或 ↑ ↓）上一轮 / 下一轮，Home / End 第一轮 / 最后一轮。",
    ),
    # the three lanes (columns of the static copy)
    "col.round": ("Round", "轮"),
    "lane.harness": ("Your code (the harness)", "你的代码（harness）"),
    "col.harness": ("Your code (the harness): what it sent", "你的代码（harness）：发送了什么"),
    "lane.model": ("Model", "模型"),
    "col.model": ("Model: the reply", "模型：回复"),
    "lane.tools": ("Tools", "工具"),
    "col.tools": ("Tools: call and result", "工具：调用与结果"),
    # what the harness sent
    "sent": ("Sent {count} messages, {new} new", "发送了 {count} 条消息，其中 {new} 条是新的"),
    "sent/1": ("Sent 1 message, {new} new", ""),
    "span": ("messages[0..{last}]", "messages[0..{last}]"),
    "span/1": ("messages[0]", "messages[0]"),
    "resent": ("{span} sent again unchanged", "{span} 原样再次发送"),
    "rewritten": (
        "the history was rewritten before sending: all of it is shown",
        "发送前历史被改写过：全部显示",
    ),
    "message": ("messages[{index}] {role}", "messages[{index}] {role}"),
    "new": ("NEW", "新"),
    "result_for": ("for {id}", "对应 {id}"),
    # the model's reply
    "stop": ("stop_reason: {reason} means {meaning}.", "stop_reason: {reason}，意思是{meaning}。"),
    "next": ("Next: {step}.", "下一步：{step}。"),
    "waiting_reply": ("waiting for the reply…", "等待模型回复…"),
    "seconds": ("{seconds} s", "{seconds} 秒"),
    "tokens": ("in {input} / out {output} tokens", "输入 {input} / 输出 {output} 个 token"),
    "tokens.estimated": (
        "in {input} / out {output} tokens (estimated)",
        "输入 {input} / 输出 {output} 个 token（估算）",
    ),
    # the tools lane
    "ok": ("ok", "成功"),
    "error": ("ERROR", "错误"),
    "not_run": ("NOT RUN", "未运行"),
    "not_run.why": ("the loop stopped before running it", "循环在运行它之前就停止了"),
    "no_calls": ("no tool calls", "没有工具调用"),
    "final": (
        "No tool calls: this reply is the final answer, and the loop stops here.",
        "没有工具调用：这条回复就是最终回答，循环到此结束。",
    ),
    "input": ("input:", "输入："),
    "output": ("output:", "输出："),
    "more": ("show all", "展开全部"),
    "less": ("show less", "收起"),
    # how the run ended
    "finished": (
        "Finished after round {round}: {reason} ({why}).",
        "在第 {round} 轮后结束：{reason}（{why}）。",
    ),
    "ended": ("Ended with {reason}.", "以 {reason} 结束。"),
    "unfinished": ("The run has not finished.", "这次运行还没有结束。"),
    "limit_reached": (
        "the round limit was reached (max_rounds): the loop stops here",
        "达到了轮数上限（max_rounds）：循环在这里停止",
    ),
    # context growth
    "growth": ("Context growth", "上下文增长"),
    "growth.caption": (
        "Input tokens per round: the whole history is sent every time, so the context grows.",
        "每一轮的输入 token 数：每次都发送完整的历史，所以上下文不断增长。",
    ),
    "growth.caption.estimated": (
        "Input tokens per round (estimated): the whole history is sent every time, so the "
        "context grows.",
        "每一轮的输入 token 数（估算）：每次都发送完整的历史，所以上下文不断增长。",
    ),
    "growth.round": ("round {round}", "第 {round} 轮"),
    "growth.unknown": ("? (not recorded)", "？（未记录）"),
    "no_tokens": (
        "No token counts recorded for this run, so there is no context growth to draw (a run "
        "drawn from its message history alone has none).",
        "这次运行没有记录 token 数，所以画不出上下文增长（只根据消息历史绘制的运行没有这些数据）。",
    ),
    # the protocol check
    "protocol": ("Protocol check", "协议检查"),
    "protocol.ok": (
        "ok: every tool_use was answered by a tool_result in the next message.",
        "正常：每个 tool_use 都在下一条消息里得到了对应的 tool_result。",
    ),
    "problem": ("PROBLEM", "问题"),
    "problem.round": ("Round {round}: {problem}", "第 {round} 轮：{problem}"),
    "problem.unanswered": (
        "Round {round}: the loop stopped ({reason}) without running the tools, so the history "
        "ends with an unanswered tool_use: {problem} (normalize_messages answers it with "
        "'(cancelled)' before the next call).",
        "第 {round} 轮：循环因 {reason} 停止，没有运行工具，所以历史以一个没有回答的 tool_use "
        "结尾：{problem}（下次调用之前，normalize_messages 会用 '(cancelled)' 回答它）。",
    ),
    # the browser's controls
    "first": ("« First", "« 第一轮"),
    "prev": ("◀ Prev", "◀ 上一轮"),
    "next_button": ("Next ▶", "下一轮 ▶"),
    "last": ("Last »", "最后一轮 »"),
    "first.label": ("First round", "第一轮"),
    "prev.label": ("Previous round", "上一轮"),
    "next.label": ("Next round", "下一轮"),
    "last.label": ("Last round", "最后一轮"),
    "slider": ("Round", "轮次"),
    "position": ("Round {round} of {count}", "第 {round} 轮，共 {count} 轮"),
    "position.finished": (
        "Round {round} of {count} · finished: {reason}",
        "第 {round} 轮，共 {count} 轮 · 结束：{reason}",
    ),
    "no_rounds": ("No rounds yet", "还没有轮次"),
    "waiting_first": ("Waiting for the first round…", "等待第一轮…"),
    "missing_round": ("Round {round} has not arrived yet.", "第 {round} 轮还没有到达。"),
    "missing_earlier": ("Some earlier rounds have not arrived yet.", "前面有几轮还没有到达。"),
    "tab.diagram": ("Diagram", "图解"),
    "tab.messages": ("Messages sent", "发送的消息"),
    "tab.growth": ("Context growth", "上下文增长"),
    "tab.protocol": ("Protocol check", "协议检查"),
    # what the screen reader hears on each step
    "say.missing": (
        "Round {round} of {count}: not received yet",
        "第 {round} 轮（共 {count} 轮）：尚未收到",
    ),
    "say.waiting": (
        "Round {round} of {count}: waiting for the model",
        "第 {round} 轮（共 {count} 轮）：等待模型",
    ),
    "say.asks": (
        "Round {round} of {count}: the model asks for {names}",
        "第 {round} 轮（共 {count} 轮）：模型请求调用 {names}",
    ),
    "say.answers": (
        "Round {round} of {count}: the model answers: {text}",
        "第 {round} 轮（共 {count} 轮）：模型回答：{text}",
    ),
    "say.stop": (
        "{said}; stop_reason {reason}, next: {step}",
        "{said}；stop_reason 为 {reason}，下一步：{step}",
    ),
    "say.predict": (
        "Round {round} of {count}: make your prediction",
        "第 {round} 轮（共 {count} 轮）：请先做出预测",
    ),
    # the messages view
    "sends": ("Round {round} sends {count} messages.", "第 {round} 轮发送了 {count} 条消息。"),
    "sends/1": ("Round {round} sends 1 message.", ""),
    "sends.again": (
        "Round {round} sends {count} messages; round {previous} sent {before}. Unchanged since "
        "round {previous}: {same} of the {count}, because the whole history is sent every time.",
        "第 {round} 轮发送了 {count} 条消息；第 {previous} 轮发送了 {before} 条。其中 {same} 条和第 "
        "{previous} 轮完全相同，因为每一轮都会发送完整的历史。",
    ),
    # predict, then reveal
    "predict": ("Predict before reveal", "先预测，再揭晓"),
    "predict.title": ("Predict round {round}", "预测第 {round} 轮"),
    "predict.question": (
        "The model has this history and these tools. What will it do?",
        "模型拿到了这段历史和这些工具。它会做什么？",
    ),
    "predict.call": ("Call {name}", "调用 {name}"),
    "predict.text": ("Answer in text", "直接用文字回答"),
    "predict.text.title": (
        "reply with text and no tool call: the run ends",
        "只回复文字、不调用工具：这次运行结束",
    ),
    "predict.called_only": (
        "The diagram was not told the toolbox, so only the tools this run called are offered.",
        "这张图没有拿到工具箱，所以只列出了这次运行调用过的工具。",
    ),
    "guess.text": ("answer in text", "用文字回答"),
    "right": (
        "Right: you guessed “{guess}”; the model {actual}.",
        "猜对了：你猜的是“{guess}”；模型{actual}。",
    ),
    "wrong": (
        "Not this time: you guessed “{guess}”; the model {actual}.",
        "这次没猜中：你猜的是“{guess}”；模型{actual}。",
    ),
    "actual.called": ("called {names}", "调用了 {names}"),
    "actual.text": ("answered in text", "用文字作答"),
}

# the s01 -> s02 comparison (compare.py)
COMPARE: dict[str, tuple[str, str]] = {
    "cmp.tools": (
        "  tools: {a} has {n_a}, {b} has {n_b}",
        "  工具：{a} 有 {n_a} 个，{b} 有 {n_b} 个",
    ),
    "cmp.only": ("  only in {side}: {names}", "  只在 {side} 里：{names}"),
    "cmp.shared": ("  shared:     {names}", "  共有：      {names}"),
    "cmp.none": ("(none)", "（没有）"),
    "cmp.lines": (
        "  lines of code: {a} {l_a}, {b} {l_b} ({diff})",
        "  代码行数：{a} {l_a} 行，{b} {l_b} 行（{diff}）",
    ),
    "cmp.new": ("  new in {b}:", "  {b} 新增："),
    "cmp.no_new": ("    (no new tools)", "    （没有新工具）"),
    "cmp.loop": ("  the loop: {summary}", "  循环：{summary}"),
    "cmp.no_loop": ("  the loop: not given", "  循环：没有给出"),
    "cmp.unchanged": (
        "unchanged: the same {count} lines drive both",
        "没有变：两边由同样的 {count} 行驱动",
    ),
    "cmp.skeleton": (
        'the same skeleton (while True, one exit on stop_reason != "tool_use")',
        '同样的骨架（while True，唯一的出口是 stop_reason != "tool_use"）',
    ),
    "cmp.other_shape": ("a different shape", "形状不同"),
    "cmp.differ": ("{shape}; {changed} lines differ", "{shape}；有 {changed} 行不同"),
    "cmp.h.only": ("Only in {side}", "只在 {side} 里"),
    "cmp.h.shared": ("Shared", "共有"),
    "cmp.h.lines": ("Lines of code", "代码行数"),
    "cmp.h.counts": ("{a}: {l_a}, {b}: {l_b} ({diff})", "{a}：{l_a} 行，{b}：{l_b} 行（{diff}）"),
    "cmp.h.none": ("(none)", "（没有）"),
    "cmp.h.no_new": ("no new tools", "没有新工具"),
    "cmp.h.no_loop": ("The loop was not given.", "没有给出循环。"),
    "cmp.h.loop_is": (
        "<strong>The loop</strong>: {summary}.",
        "<strong>循环</strong>：{summary}。",
    ),
    "cmp.h.tools": ("{n_a} → {n_b} tools", "{n_a} → {n_b} 个工具"),
    "cmp.h.head": ("Tools and code", "工具与代码"),
    "cmp.h.new": ("New in {b}", "{b} 新增"),
    "cmp.h.loop": ("The loop", "循环"),
}
WORDS.update(COMPARE)

# what each stop_reason means and what the loop does next. English from reasons.py; in Chinese,
# as there, the meaning is the loop's own `why` (loop.WHY_ZH) but for the three reasons below
_MEANING_ZH = {
    "tool_use": "模型请求调用一个或多个工具",
    "pause_turn": "服务器暂停了一个耗时较长的回合",
    "max_tokens": "回复达到了 max_tokens，被截断了",
}
_NEXT_ZH = {
    "tool_use": "运行每个工具，把所有结果放进一条 user 消息发回去，再次调用模型",
    "end_turn": "返回：这次运行结束",
    "max_tokens": "返回，不运行被截断的回复里的任何工具调用",
    "stop_sequence": "返回：这次运行结束",
    "pause_turn": "把暂停的回复追加到历史里，再次调用模型",
    "refusal": "返回：这次运行结束",
    "model_context_window_exceeded": (
        "和 max_tokens 一样返回，不运行被截断的回复里的任何工具调用；再提问之前先缩短历史"
    ),
    OUT_OF_ROUNDS: "停止运行，即使模型还想继续",
}
for _reason, (_meaning, _step) in STOP_REASONS.items():
    WORDS[f"means.{_reason}"] = (_meaning, _MEANING_ZH.get(_reason) or WHY_ZH[_reason])
    WORDS[f"then.{_reason}"] = (_step, _NEXT_ZH[_reason])
WORDS.update(
    {
        "means.none": ("the round has no reply yet", "这一轮还没有回复"),
        "then.none": ("wait for the model", "等待模型"),
        "means.unknown": (
            "an unfamiliar stop_reason ({reason})",
            "一个不熟悉的 stop_reason（{reason}）",
        ),
        "then.unknown": (
            "return: the loop only continues on tool_use and pause_turn",
            "返回：循环只在 tool_use 和 pause_turn 时继续",
        ),
    }
)

_FIELD = re.compile(r"\{(\w+)\}")


def words(lang: str = "en") -> dict[str, str]:
    """One language's column of the table; a ``/1`` form only where the language has one."""
    if lang not in LANGS:
        raise ValueError(f"lang={lang!r}: the diagram speaks {' or '.join(map(repr, LANGS))}")
    column = LANGS.index(lang)
    return {key: row[column] for key, row in WORDS.items() if row[column]}


def template(column: dict[str, str], key: str, count: int | None = None) -> str:
    """The words of ``key``, its ``/1`` form when ``count`` is 1 and the language has one."""
    return (column.get(f"{key}/1") if count == 1 else None) or column[key]


def fill(text: str, fields: dict[str, Any]) -> str:
    """``text`` with each ``{name}`` replaced by ``fields[name]``."""
    return _FIELD.sub(lambda m: str(fields[m.group(1)]), text)


def say(column: dict[str, str], key: str, count: int | None = None, **fields: Any) -> str:
    """The sentence ``key`` with its ``{fields}`` filled (``count`` picks the ``/1`` form)."""
    return fill(template(column, key, count), {"count": count, **fields})


def stop_words(column: dict[str, str], stop_reason: str | None) -> tuple[str, str]:
    """(what ``stop_reason`` means, what the loop does next), in the column's language."""
    key = "none" if stop_reason is None else stop_reason
    if f"means.{key}" not in column:
        key = "unknown"
    return say(column, f"means.{key}", reason=stop_reason), say(column, f"then.{key}")
