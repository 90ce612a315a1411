"""Where the offline model's replies are read (a notebook, the REPL, or an HTTP client of the server), for advice that fits.

Told, never guessed: the in-process transport says "notebook" or "repl" (whoever makes the
client chooses: the REPL says "repl"), and the loopback server says "http".
"""

from __future__ import annotations

SURFACES = ("notebook", "repl", "http")


def check_surface(surface: str) -> str:
    """``surface`` itself, or ValueError naming the choices."""
    if surface not in SURFACES:
        raise ValueError(f"surface must be one of {', '.join(SURFACES)}, not {surface!r}")
    return surface


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
