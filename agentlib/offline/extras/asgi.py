"""The offline model as an ASGI app: each HTTP request handed to the simulator, every refusal in the API's JSON shape.

Any ASGI server can run it; ``server.py`` runs it behind uvicorn on 127.0.0.1. A request body
is read only once it fits in a shared bound (until then the client waits, its upload held back
by TCP), so the memory the server holds stays bounded however many clients send at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from agentlib.offline.errors import OfflineError
from agentlib.offline.simulator import (
    MAX_REQUEST_BYTES,
    HTTPAnswer,
    Offline,
    error_answer,
    too_large_answer,
)

# request bodies held at once, counted by their Content-Length: past it a request waits its turn
BODY_BUDGET_BYTES = 2 * MAX_REQUEST_BYTES
KEPT_REQUESTS = 8  # simulator.requests keeps only the latest ones while serving

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class BodyBudget:
    """Bytes of request bodies being held; a request reserves its Content-Length before it is read."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self.waiting = 0
        self._room = asyncio.Condition()

    async def take(self, size: int) -> None:
        """Reserve ``size`` bytes, waiting until they fit (alone, a body may use the whole bound)."""
        async with self._room:
            self.waiting += 1
            try:
                await self._room.wait_for(lambda: not self.held or self.held + size <= self.limit)
            finally:
                self.waiting -= 1
            self.held += size

    async def give_back(self, size: int) -> None:
        """Release what take() reserved, and wake the requests waiting for room."""
        async with self._room:
            self.held -= size
            self._room.notify_all()


def refusal(method: str, headers: Mapping[str, str]) -> HTTPAnswer | None:
    """The answer refusing a request before its body is read, or None to read it."""
    if method == "GET":
        return None
    if "chunked" in headers.get("transfer-encoding", "").lower():
        reason = "Send the body with a Content-Length header (chunked is not accepted)"
        return error_answer(411, "invalid_request_error", reason)
    if "content-length" not in headers:
        return error_answer(411, "invalid_request_error", "A Content-Length header is required")
    size = int(headers["content-length"])  # the HTTP parser has checked it is digits
    return too_large_answer(size) if size > MAX_REQUEST_BYTES else None


def answer_in_thread(
    simulator: Offline, method: str, path: str, body: bytes, headers: Mapping[str, str]
) -> HTTPAnswer:
    """The simulator's answer; any failure becomes an API error, never a dropped connection."""
    try:
        return simulator.handle(method, path, body, headers, surface="http")
    except OfflineError as err:
        # in-process this is raised; over HTTP it becomes an error the client will not retry
        return error_answer(500, "api_error", str(err), {"x-should-retry": "false"})
    except RecursionError:
        reason = "Request body is nested too deeply (JSON arrays and objects)"
        return error_answer(400, "invalid_request_error", reason)
    except Exception as err:  # noqa: BLE001 - the client gets the API's error shape, whatever failed
        return error_answer(500, "api_error", f"The offline model failed: {err!r}")
    finally:
        # bounded memory: no body is kept for the server's lifetime (one atomic list operation)
        del simulator.requests[:-KEPT_REQUESTS]


async def read_body(receive: Receive) -> bytearray | None:
    """The whole request body, or None when the client went away first."""
    body = bytearray()  # grown in place: no second copy of a large body
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if not message.get("more_body", False):
            return body


def asgi_app(simulator: Offline, budget_bytes: int | None = None):
    """An ASGI app serving ``simulator`` (the Messages and Models endpoints); ``.budget`` is its bound."""
    budget = BodyBudget(BODY_BUDGET_BYTES if budget_bytes is None else budget_bytes)

    async def answer(scope: dict[str, Any], receive: Receive) -> tuple[HTTPAnswer | None, bool]:
        """The answer (None: the client left) and whether the whole request was read."""
        method, path = scope["method"], scope["raw_path"].decode("latin-1")
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refused = refusal(method, headers)
        if refused is not None:
            return refused, False
        size = int(headers.get("content-length", 0))
        await budget.take(size)  # the request's deadline (server.py) bounds the wait
        try:
            body = b"" if method == "GET" else await read_body(receive)
            if body is None:
                return None, False
            work = (simulator, method, path, body, headers)
            return await asyncio.to_thread(answer_in_thread, *work), True
        finally:
            await budget.give_back(size)

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        reply, whole = await answer(scope, receive)
        if reply is None:
            return
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers.items()]
        headers.append((b"content-length", str(len(reply.body)).encode()))
        if not whole:  # an unread body must not be taken for the next request
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": reply.body})

    app.budget = budget  # type: ignore[attr-defined]
    return app
