"""An instructor's tool module for the runner tests: it records being imported and called.

Each event is one line ``<kernel pid> <event>`` appended to the file RECORDING_TOOLS_LOG names,
so a test can tell which notebook's kernel imported the module and called the tool.
"""

import os
from pathlib import Path

from agentlib import tool
from agentlib.offline import Script, call, say

LOG = Path(
    os.environ["RECORDING_TOOLS_LOG"]
)  # no log named: fail loudly rather than record nothing


def record(event: str) -> None:
    """Append one event line to the log."""
    with LOG.open("a", encoding="utf-8") as log:
        log.write(f"{os.getpid()} {event}\n")


record("imported")


@tool(read_only=True)
def shout(text: str) -> str:
    """Return the text in capital letters.

    Args:
        text: The text to shout.
    """
    record(f"called shout({text!r})")
    return text.upper()


SCRIPT = Script(call("shout", text="hello from the instructor"), say("It shouted back."))


@tool
def crash(text: str) -> str:
    """Fail with a bug, the way an instructor's tool might.

    Args:
        text: Anything.
    """
    record("called crash")
    raise RuntimeError("a bug in the instructor's tool")


CRASH = Script(call("crash", text="x"), say("It crashed, and the run went on."))
