"""agentlib: the finished pieces of the course: the s01 loop, the s02 tools, the workspace, the offline model.

Core (read these after the notebooks): ``loop``, ``messages``, ``tools``, ``events``, and
``course_tools`` (the course's five tools). Then one folder per concept: ``sandbox/`` (the
workspace and the bash runner), ``offline/`` (the offline model), ``widgets/`` (the round
diagram), ``course/`` (running the notebooks, checking exercises). ``seed`` keeps the seed's
own code as written, for the notebooks to show where it fails.

Importing it has no side effects: no ``.env`` is read, no client made, nothing printed, and
the anthropic SDK loads only when a client is made.
"""

from .client import connect
from .course_tools import s01_tools, s02_tools
from .errors import ConfigError, PathEscapeError, ToolError
from .loop import OUT_OF_ROUNDS, LoopState, agent_loop, run_tool_calls
from .messages import check_history, normalize_messages, to_dict
from .sandbox import Workspace
from .tools import Tool, Toolbox, ToolOutcome, check_tools, tool

__all__ = [
    "OUT_OF_ROUNDS",
    "ConfigError",
    "LoopState",
    "PathEscapeError",
    "Tool",
    "ToolError",
    "ToolOutcome",
    "Toolbox",
    "Workspace",
    "agent_loop",
    "check_history",
    "check_tools",
    "connect",
    "normalize_messages",
    "run_tool_calls",
    "s01_tools",
    "s02_tools",
    "to_dict",
    "tool",
]
