"""Answers that never end: a loop whose condition never changes, a tool that waits. The check must stop them."""

from __future__ import annotations

from . import wrong

ENDLESS = {
    "ex3_agent_loop": wrong(
        "model_called_once_before_the_loop",
        "of agent_loop",
        """
def agent_loop(messages: list):
    response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                      tools=TOOLS, max_tokens=8000)
    while True:
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": run_bash(b.input["command"])}
            for b in response.content if b.type == "tool_use"]})
""",
    ),
    "ex5_edit_once": wrong(
        "a_while_that_never_changes_its_count",
        "of run_edit_once",
        """
def run_edit_once(path: str, old_text: str, new_text: str) -> str:
    fp = safe_path(path)
    content = fp.read_text()
    count = content.count(old_text)
    while count > 1:
        content = content.replace(old_text, old_text, 1)
    fp.write_text(content.replace(old_text, new_text, 1))
    return f"Edited {path}"
""",
    ),
    "ex8_own_tool_waits": wrong(
        "a_tool_that_waits_on_a_command",
        "of my_tool",
        """
TOOL_NAME = "wait_for_it"
EXAMPLE = {"seconds": 47}


def my_tool(seconds: int) -> str:
    return ws.bash(f"sleep {seconds}; echo done-{seconds}")


MY_TOOL = {"name": TOOL_NAME, "description": "Wait, then say done.",
           "input_schema": {"type": "object", "properties": {"seconds": {"type": "integer"}},
                            "required": ["seconds"]}}
""",
    ),
    "ex8_own_tool": wrong(
        "a_countdown_that_never_counts_down",
        "of my_tool",
        """
TOOL_NAME = "countdown"
EXAMPLE = {"n": 3}


def my_tool(n: int) -> str:
    said = []
    while n > 0:
        said.append(str(n))
    return " ".join(said)


MY_TOOL = {"name": TOOL_NAME, "description": "Count down from n to 1.",
           "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}
""",
    ),
}
