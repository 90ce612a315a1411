"""Errors the offline model raises in-process when it cannot answer (not API errors)."""

from __future__ import annotations

import anthropic


class OfflineError(anthropic.AnthropicError):
    """The offline model cannot answer this request; the message says why and what to do.

    It subclasses the SDK's base error so the SDK lets it through unchanged and does not
    retry it (the SDK wraps or retries any other exception a transport raises).
    """


class ScriptExhausted(OfflineError):
    """A Script was asked for more replies than it holds."""


class ReplayDrift(OfflineError):
    """A replayed session received a request that differs from the recorded one."""
