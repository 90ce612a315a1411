"""Notebook 02: exercise 4 (pause_turn and max_tokens)."""

from __future__ import annotations

from . import right, wrong

CALL = "client.messages.create(model=MODEL, system=SYSTEM, messages=messages, tools=TOOLS, max_tokens=8000)"
APPEND = 'messages.append({"role": "assistant", "content": response.content})'
RUN_TOOLS = """results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": run_bash(block.input["command"])})
        messages.append({"role": "user", "content": results})"""


def loop_v2(decide: str, append: str = APPEND) -> str:
    """``agent_loop_v2`` that calls, appends with ``append``, decides with ``decide``, then runs the tools."""
    return f"""
def agent_loop_v2(messages: list):
    while True:
        response = {CALL}
        {append}
        {decide}
        {RUN_TOOLS}
"""


STOP_REASONS = [
    wrong(
        "a_user_message_to_resume",
        "send the history as it is",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n'
            '            messages.append({"role": "user", "content": "continue"})\n'
            "            continue\n"
            '        if response.stop_reason != "tool_use":\n'
            "            return"
        ),
    ),
    wrong(
        "seed_unchanged",
        "pause_turn",
        loop_v2('if response.stop_reason != "tool_use":\n            return'),
    ),
    wrong(
        "continue_before_appending",
        "append the paused reply",
        loop_v2(
            'if response.stop_reason != "tool_use":\n            return',
            append=f'if response.stop_reason == "pause_turn":\n            continue\n        {APPEND}',
        ),
    ),
    wrong(
        "cut_call_run",
        "max_tokens",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n            continue\n'
            '        if response.stop_reason not in ("tool_use", "max_tokens"):\n            return'
        ),
    ),
    wrong(
        "paused_turn_runs_tools",
        "pause_turn",
        loop_v2('if response.stop_reason not in ("tool_use", "pause_turn"):\n            return'),
    ),
    wrong(
        "cases_swapped",
        "pause_turn",
        loop_v2(
            'if response.stop_reason == "max_tokens":\n            continue\n'
            '        if response.stop_reason != "tool_use":\n            return'
        ),
    ),
    wrong(
        "raises_on_max_tokens",
        "RuntimeError",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n            continue\n'
            '        if response.stop_reason == "max_tokens":\n            raise RuntimeError("reply cut off")\n'
            '        if response.stop_reason != "tool_use":\n            return'
        ),
    ),
    wrong(
        "only_end_turn_returns",
        "max_tokens",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n            continue\n'
            '        if response.stop_reason == "end_turn":\n            return'
        ),
    ),
    wrong(
        "one_pause_only",
        "pause_turn",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n'
            f"            response = {CALL}\n            {APPEND}\n"
            '        if response.stop_reason != "tool_use":\n            return'
        ),
    ),
    right(
        "if_elif_else",
        """
def agent_loop_v2(messages: list):
    while True:
        r = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                   tools=TOOLS, max_tokens=8000)
        messages.append({"role": "assistant", "content": r.content})
        if r.stop_reason == "tool_use":
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": b.id, "content": run_bash(b.input["command"])}
                for b in r.content if b.type == "tool_use"]})
        elif r.stop_reason == "pause_turn":
            continue
        else:
            return r.stop_reason
""",
    ),
    right(
        "match_statement",
        """
def agent_loop_v2(messages: list):
    while True:
        reply = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                       tools=TOOLS, max_tokens=8000)
        messages.append({"role": "assistant", "content": reply.content})
        match reply.stop_reason:
            case "pause_turn":
                pass  # the server resumes the turn on the next call
            case "tool_use":
                results = []
                for call in reply.content:
                    if call.type == "tool_use":
                        results.append({"type": "tool_result", "tool_use_id": call.id,
                                        "content": run_bash(call.input["command"])})
                messages.append({"role": "user", "content": results})
            case _:
                return
""",
    ),
    right(
        "max_tokens_returns_explicitly",
        loop_v2(
            'if response.stop_reason == "pause_turn":\n            continue\n'
            '        if response.stop_reason == "max_tokens":\n            return "cut off: nothing run"\n'
            '        if response.stop_reason != "tool_use":\n            return'
        ),
    ),
]

ANSWERS = {"ex4_stop_reasons": STOP_REASONS}
