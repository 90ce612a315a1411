"""The offline model: a Messages API simulator behind the real anthropic SDK, driven by policies."""

from __future__ import annotations

from agentlib.offline.errors import OfflineError, ReplayDrift, ScriptExhausted
from agentlib.offline.extras.faults import Fault, overloaded, rate_limited, server_error
from agentlib.offline.extras.replay import Recorder, Replay, recording_http_client
from agentlib.offline.fallback import Fallback
from agentlib.offline.playbook import Playbook
from agentlib.offline.script import Reply, Script, call, reply, say
from agentlib.offline.simulator import OFFLINE_MODEL, Offline, OfflineTransport

__all__ = [
    "OFFLINE_MODEL",
    "Fallback",
    "Fault",
    "Offline",
    "OfflineError",
    "OfflineTransport",
    "Playbook",
    "Recorder",
    "Replay",
    "ReplayDrift",
    "Reply",
    "Script",
    "ScriptExhausted",
    "call",
    "offline_client",
    "overloaded",
    "rate_limited",
    "recording_http_client",
    "reply",
    "say",
    "server_error",
]


def offline_client(*policies, faults=(), max_retries: int = 2, surface: str = "notebook"):
    """``(client, model)`` for the offline model; with no policies: the playbook, then the fallback.

    ``surface``: where the replies are read, "notebook" or "repl", for advice that fits there.
    """
    offline = Offline(policies or None, faults=faults)
    return offline.client(max_retries=max_retries, surface=surface), offline.model
