"""Where a request comes from (notebook, REPL, or an HTTP client of the server), for advice that fits.

Read from what the request carries: the HTTP headers the simulator saw (a Host other than the
in-process transport's means a client of the loopback server), then the system prompt (the
REPL's own wording), then whether a Jupyter kernel runs this process.
"""

from __future__ import annotations

import sys
from contextvars import ContextVar
from typing import Any

# set by the simulator around each answer: the headers of the HTTP request being answered
REQUEST_HEADERS: ContextVar[dict[str, str] | None] = ContextVar("request_headers", default=None)
IN_PROCESS_HOST = "offline.agentlib.invalid"  # simulator.OFFLINE_BASE_URL's host
REPL_SYSTEM_ENDINGS = ("Act first, then report clearly.",)


def context_of(request: dict[str, Any]) -> str:
    """'http', 'repl' or 'notebook' (anything in-process that is not the REPL)."""
    given = REQUEST_HEADERS.get()  # None: asked directly, not through an HTTP request
    if given is not None:
        host = {k.lower(): v for k, v in given.items()}.get("host", "").split(":")[0]
        if host != IN_PROCESS_HOST:
            return "http"
    system = request.get("system")
    if isinstance(system, list):
        system = " ".join(b.get("text", "") for b in system if isinstance(b, dict))
    if isinstance(system, str) and system.endswith(REPL_SYSTEM_ENDINGS):
        return "repl"
    if "ipykernel" in sys.modules:
        return "notebook"
    return (
        "repl"
        if isinstance(system, str) and system.startswith("You are a coding agent")
        else "notebook"
    )


def advice(context: str, zh: bool, chapter: str = "s02") -> str:
    """How to reach a real model from where the learner is."""
    if context == "http":
        return (
            "你是通过 HTTP（离线服务器）访问我的：要用真实模型，请把 ANTHROPIC_BASE_URL 指向真实的端点"
            "（或删掉它），并设置 ANTHROPIC_API_KEY 和 MODEL_ID，再重新启动你的客户端脚本。"
            if zh
            else "You are reaching me over HTTP (the loopback server): to use a real model, point "
            "ANTHROPIC_BASE_URL at a real endpoint (or unset it), set ANTHROPIC_API_KEY and "
            "MODEL_ID, and start your client script again."
        )
    if context == "repl":
        return (
            f"在 REPL 里要用真实模型：把 ANTHROPIC_API_KEY 和 MODEL_ID 写进 .env 文件，"
            f"再运行 `python -m agentlib {chapter}`。"
            if zh
            else "In the REPL, to use a real model: put ANTHROPIC_API_KEY and MODEL_ID in a .env "
            f"file, then run `python -m agentlib {chapter}` again."
        )
    return (
        "在 notebook 里要用真实模型：设置 ANTHROPIC_API_KEY 和 MODEL_ID（或写进 .env），"
        '把开头的 BACKEND 改成 "auto" 再运行，或者用 connect("anthropic")。'
        if zh
        else "In a notebook, to use a real model: set ANTHROPIC_API_KEY and MODEL_ID (or put them "
        'in a .env file), then set BACKEND = "auto" at the top and run again, or call '
        'connect("anthropic").'
    )
