"""Record a real session into a JSON cassette (secrets scrubbed), and replay it with drift detection."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import httpx2

from agentlib.messages import content_blocks
from agentlib.offline.errors import ReplayDrift
from agentlib.offline.script import Reply

FORMAT = "agentlib-cassette/1"
RECORD_HOW = 'connect("anthropic", record=PATH)'  # how a learner makes a cassette
RECORDED_MODEL = "MODEL_ID"  # model ids are replaced: cassettes must not pin a dated model
SECRET = re.compile(r"sk-ant-[A-Za-z0-9_-]+|(?i:bearer\s+)[A-Za-z0-9._-]{16,}")


def scrub(value: Any) -> Any:
    """A copy of a JSON value with anything that looks like a key replaced."""
    if isinstance(value, str):
        return SECRET.sub("<scrubbed>", value)
    if isinstance(value, list):
        return [scrub(item) for item in value]
    if isinstance(value, dict):
        return {key: scrub(item) for key, item in value.items()}
    return value


def for_cassette(body: dict[str, Any]) -> dict[str, Any]:
    """A request or response body ready to store: scrubbed, its model id replaced."""
    return {**scrub(body), "model": RECORDED_MODEL}


class Recorder(httpx2.BaseTransport):
    """Wraps a real transport and appends each successful Messages call to a cassette file.

    Only request and response bodies are kept (never headers, where the key travels).
    """

    def __init__(self, path: str | os.PathLike, inner: httpx2.BaseTransport | None = None) -> None:
        self.path = Path(path)
        self.inner = inner or httpx2.HTTPTransport()
        self.exchanges: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send the request on, record it when it is a successful Messages call."""
        response = self.inner.handle_request(request)
        body = response.read()
        if request.url.path.rstrip("/").endswith("/v1/messages") and response.status_code == 200:
            with self._lock:
                self.exchanges.append(
                    {
                        "request": for_cassette(json.loads(request.content)),
                        "response": for_cassette(json.loads(body)),
                    }
                )
                self.save()
        headers = [
            (k, v)
            for k, v in response.headers.items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx2.Response(response.status_code, headers=headers, content=body)

    def save(self) -> None:
        """Write the cassette (replacing the file in one step)."""
        partial = self.path.with_suffix(self.path.suffix + ".partial")
        cassette = {"format": FORMAT, "exchanges": self.exchanges}
        partial.write_text(json.dumps(cassette, indent=1, ensure_ascii=False) + "\n")
        partial.replace(self.path)

    def close(self) -> None:
        """Close the wrapped transport."""
        self.inner.close()


def recording_http_client(path: str | os.PathLike, inner: httpx2.BaseTransport | None = None):
    """An http client for anthropic.Anthropic that records to ``path`` (SDK default timeouts)."""
    import anthropic

    return anthropic.DefaultHttpxClient(transport=Recorder(path, inner))


def skeleton(request: dict[str, Any]) -> dict[str, Any]:
    """The structure replay compares: tool names, roles, block types, ids, and what the user typed.

    Tool outputs are left out: they may differ run to run (dates, sizes) without the
    conversation changing shape.
    """

    def block(b: dict[str, Any], role: str) -> dict[str, Any]:
        kept = {"type": b.get("type")}
        if b.get("type") == "text" and role == "user":
            kept["text"] = b.get("text")
        if b.get("type") == "tool_use":
            kept.update(id=b.get("id"), name=b.get("name"))
        if b.get("type") == "tool_result":
            kept.update(tool_use_id=b.get("tool_use_id"), is_error=bool(b.get("is_error")))
        return kept

    messages = [
        {
            "role": m.get("role"),
            "content": [block(b, m.get("role")) for b in content_blocks(m.get("content"))],
        }
        for m in request["messages"]
    ]
    return {"tools": [t.get("name") for t in request.get("tools") or []], "messages": messages}


def first_difference(recorded: Any, received: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, e.g. ``messages[2].content[0].type: recorded .., got ..``."""
    if isinstance(recorded, dict) and isinstance(received, dict):
        for key in list(recorded) + [k for k in received if k not in recorded]:
            where = f"{path}.{key}" if path else key
            if key not in received or key not in recorded:
                return f"{where}: recorded {recorded.get(key)!r}, got {received.get(key)!r}"
            found = first_difference(recorded[key], received[key], where)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(received, list):
        for index, (a, b) in enumerate(zip(recorded, received, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        shorter = min(len(recorded), len(received))
        if len(recorded) > shorter:
            return f"{path}[{shorter}]: recorded {recorded[shorter]!r}, got nothing"
        if len(received) > shorter:
            return f"{path}[{shorter}]: recorded nothing, got {received[shorter]!r}"
        return None
    return None if recorded == received else f"{path}: recorded {recorded!r}, got {received!r}"


class Replay:
    """Answer with a cassette's recorded replies, in order, checking each request still matches."""

    def __init__(self, cassette: str | os.PathLike | dict[str, Any]) -> None:
        data = cassette if isinstance(cassette, dict) else json.loads(Path(cassette).read_text())
        if data.get("format") != FORMAT:
            raise ValueError(
                f"Not an agentlib cassette: format {data.get('format')!r}, expected {FORMAT!r}. "
                f"Record one with {RECORD_HOW}."
            )
        self.exchanges = data["exchanges"]
        self.position = 0

    def answer(self, request: dict[str, Any], surface: str = "notebook") -> Reply:
        """The next recorded reply; ReplayDrift naming the first difference when the request drifted."""
        number = self.position + 1
        if self.position >= len(self.exchanges):
            raise ReplayDrift(
                f"The cassette holds {len(self.exchanges)} exchanges; request {number} was never "
                "recorded (the run went further than the recorded session). "
                f"Record it again with {RECORD_HOW}."
            )
        recorded = self.exchanges[self.position]
        drift = first_difference(skeleton(recorded["request"]), skeleton(scrub(request)))
        if drift:
            raise ReplayDrift(
                f"Request {number} drifted from the recording at {drift}. If the change is "
                f"intended, record the session again with {RECORD_HOW}."
            )
        self.position += 1
        response = recorded["response"]
        return Reply(response["content"], response.get("stop_reason"))
