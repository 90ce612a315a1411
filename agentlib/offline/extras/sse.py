"""A finished message as the server-sent events a streaming request (``stream=True``) receives."""

from __future__ import annotations

import json
from typing import Any


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def message_events(message: dict[str, Any]) -> bytes:
    """The event stream for ``message``: start, one start/delta/stop per block, delta, stop."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 0}}
    parts = [_event("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            empty, delta = {**block, "text": ""}, {"type": "text_delta", "text": block["text"]}
        else:
            empty = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        parts.append(
            _event(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": empty},
            )
        )
        parts.append(
            _event(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        )
        parts.append(_event("content_block_stop", {"type": "content_block_stop", "index": index}))
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    parts.append(
        _event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": delta,
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
    )
    parts.append(_event("message_stop", {"type": "message_stop"}))
    # a lone surrogate (a JSON "\\ud800" escape the request sent) stays an escape, not an error
    return "".join(parts).encode("utf-8", "backslashreplace")
