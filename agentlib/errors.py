"""The errors agentlib raises, each one a message a learner or a model can act on."""

from __future__ import annotations

import sys


class ToolError(Exception):
    """A tool failed at its job (file missing, command timed out, ...).

    Dispatch turns it into a ``tool_result`` with ``is_error: true``; its message is
    what the model reads, so it says what went wrong and what to try instead. The SDK's
    own ``anthropic.lib.tools.ToolError`` does the same job and dispatch treats it alike
    (see ``is_tool_error``); agentlib keeps its own class so that ``import agentlib``
    does not load the SDK.
    """


def is_tool_error(exc: BaseException) -> bool:
    """True for a tool's message to the model: agentlib's ``ToolError`` or the SDK's.

    An instance of the SDK's class means its module is loaded already, so it is looked up
    in ``sys.modules`` and never imported here.
    """
    if isinstance(exc, ToolError):
        return True
    sdk_tools = sys.modules.get("anthropic.lib.tools")
    return sdk_tools is not None and isinstance(exc, sdk_tools.ToolError)


class PathEscapeError(ToolError, ValueError):
    """A path points outside the workspace. The message names the path."""

    def __init__(self, path: object, reason: str = "it escapes the workspace") -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"Path escapes workspace: {path} ({reason})")


class ConfigError(RuntimeError):
    """The model backend cannot be set up: says what is missing and how to fix it."""
