"""agentlib: the finished pieces of the course: the s01 loop, the s02 tools, the workspace, the offline model.

Importing it has no side effects: no ``.env`` is read, no client made, nothing printed.
"""

from .errors import ConfigError, PathEscapeError, ToolError
from .loop import MAX_TURNS, LoopState, agent_loop, run_tool_calls
from .messages import check_history, normalize_messages, to_dict
from .tools import Tool, Toolbox, ToolOutcome, check_tools, tool

__all__ = [
    "MAX_TURNS",
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


def __getattr__(name: str):
    # the workspace, toolboxes and client load on first use, so `import agentlib` stays light
    if name == "Workspace":
        from .workspace import Workspace

        return Workspace
    if name in ("s01_tools", "s02_tools"):
        from . import toolboxes

        return getattr(toolboxes, name)
    if name == "connect":
        from .client import connect

        return connect
    raise AttributeError(f"module 'agentlib' has no attribute {name!r}")
