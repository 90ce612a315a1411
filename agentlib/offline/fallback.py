"""The honest fallback: says it is the offline model, what it can do, and how to use a real one."""

from __future__ import annotations

from typing import Any

from agentlib.offline.conversation import last_prompt
from agentlib.offline.script import Reply, say

TRY_IT_PROMPTS = (
    'Create a file called hello.py that prints "Hello, World!"',
    "List all Python files in this directory",
    "What is the current git branch?",
    "Create a directory called test_output and write 3 files in it",
    "Read the file requirements.txt",
    "Create a file called greet.py with a greet(name) function",
    "Edit greet.py to add a docstring to the function",
    "Read greet.py to verify the edit worked",
    "列出当前目录的 Python 文件",
)

HOW_TO_GO_LIVE = (
    "To talk to a real model, set ANTHROPIC_API_KEY and MODEL_ID (in the environment or a "
    '.env file), then use connect("anthropic") in a notebook or '
    "`python -m agentlib s01 --backend anthropic` in a terminal."
)


class Fallback:
    """Answers anything: an honest note about the offline model instead of a made-up answer."""

    def answer(self, request: dict[str, Any]) -> Reply:
        """A text reply that names the offline model, its try-it prompts and how to go live."""
        found = last_prompt(request["messages"])
        asked = f"You asked: {found[1]!r}. " if found else ""
        prompts = "\n".join(f"  - {prompt}" for prompt in TRY_IT_PROMPTS)
        return say(
            f"{asked}I am agentlib's offline model, not Claude: I follow a fixed playbook and "
            "cannot really understand other requests. I act with the tools you give me "
            f"(bash, or the s02 file tools) on these prompts and close rewordings:\n{prompts}\n"
            + HOW_TO_GO_LIVE
        )
