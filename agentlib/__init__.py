"""agentlib: the finished pieces of the course: the s01 loop, the s02 tools, the workspace, the offline model.

Core (read these after the notebooks): ``loop``, ``messages``, ``protocol``, ``tools``, ``events``,
``course_tools`` (the course's five tools) and ``text`` (how long text is cut). Then one
folder per concept: ``sandbox/`` (the workspace and the bash runner), ``offline/`` (the
offline model), ``widgets/`` (the round diagram), ``course/`` (running the notebooks,
checking exercises). ``seed`` keeps the seed's own code as written, for the notebooks to
show where it fails.

Importing it has no side effects: no ``.env`` is read, no client made, nothing printed, and
the anthropic SDK loads only when a client is made.
"""

from .client import connect
from .course_tools import s01_tools, s02_tools
from .errors import ToolError
from .loop import OUT_OF_ROUNDS, agent_loop
from .messages import normalize_messages, to_dict
from .sandbox import Workspace
from .tools import Toolbox, check_tools, tool

# what the notebooks and the README use; everything else is imported from its module
__all__ = [
    "OUT_OF_ROUNDS",
    "ToolError",
    "Toolbox",
    "Workspace",
    "agent_loop",
    "check_tools",
    "connect",
    "normalize_messages",
    "s01_tools",
    "s02_tools",
    "to_dict",
    "tool",
]
