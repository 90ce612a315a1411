"""The errors agentlib raises, each one a message a learner or a model can act on."""

from __future__ import annotations

from anthropic.lib.tools import ToolError

# A tool failed at its job (file missing, command timed out, ...). This is the SDK's own
# ``ToolError``, so a tool written for the SDK's tool runner raises the same error here.
# Dispatch turns it into a ``tool_result`` with ``is_error: true``; its message is what the
# model reads, so it says what went wrong and what to try instead.
__all__ = ["ConfigError", "PathEscapeError", "ToolError"]


class PathEscapeError(ToolError, ValueError):
    """A path points outside the workspace. The message names the path."""

    def __init__(self, path: object, reason: str = "it escapes the workspace") -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"Path escapes workspace: {path} ({reason})")


class ConfigError(RuntimeError):
    """The model backend cannot be set up: says what is missing and how to fix it."""
