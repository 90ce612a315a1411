"""Token estimates (about 4 characters per token, not the real tokenizer) and max_tokens cuts."""

from __future__ import annotations

import math
from typing import Any

from agentlib.text import as_text

CHARS_PER_TOKEN = 4  # a rough average for English text and code; labelled an estimate everywhere


def estimate_tokens(value: Any) -> int:
    """Estimated tokens for a string or any JSON value: its characters divided by 4, rounded up."""
    return max(1, math.ceil(len(as_text(value)) / CHARS_PER_TOKEN))


def input_tokens(body: dict[str, Any]) -> int:
    """Estimated input tokens of a request: system, tools and messages."""
    parts = [body.get("system") or "", body.get("tools") or [], body["messages"]]
    return sum(estimate_tokens(part) for part in parts)


def block_tokens(block: dict[str, Any]) -> int:
    """Estimated output tokens of one content block."""
    if block["type"] == "text":
        return estimate_tokens(block["text"])
    return estimate_tokens({"name": block.get("name"), "input": block.get("input")})


def fit_to_budget(content: list[dict[str, Any]], max_tokens: int) -> tuple[list[dict], int, bool]:
    """Cut content to max_tokens like the API: returns (content, output_tokens, was_cut).

    A text block is cut mid-way; a tool call that does not fit is kept with an empty input,
    as a live reply cut off inside a tool call would be: the loop must not run it.
    """
    kept: list[dict[str, Any]] = []
    used = 0
    for block in content:
        cost = block_tokens(block)
        if used + cost <= max_tokens:
            kept.append(block)
            used += cost
            continue
        room = max_tokens - used
        if block["type"] == "text":
            if room > 0:
                kept.append({**block, "text": block["text"][: room * CHARS_PER_TOKEN]})
        else:
            kept.append({**block, "input": {}})
        return kept, max_tokens, True
    return kept, used, False
