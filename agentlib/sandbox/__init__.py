"""The sandbox: a workspace folder the tools cannot leave, and a bash runner that is bounded and isolated where it can be.

``limits``     Limits: every bound of a tool call in one table, and the per-call cgroup
``workspace``  Workspace: the file tools' behaviour, caps, and the bash entry point
``files``      race-free opening beneath a directory handle (openat2, component walk, or a name check)
``globbing``   glob that never leaves the workspace
``shell``      the bash runner: own session, env allowlist, capped output, timeout kills the group
``isolation``  bubblewrap, else unshare's PID namespace: what is hidden, read-only and unshared
``hardening``  in every mode: the agent non-dumpable, no new privileges, root's capabilities dropped
``seccomp``    the filter on every command: no setuid/setgid bit, file capability or nested namespace
``tree``       walking what a command made: the sweep after each call, and remove_tree
"""

from .limits import Limits
from .tree import remove_tree
from .workspace import Workspace

__all__ = ["Limits", "Workspace", "remove_tree"]
