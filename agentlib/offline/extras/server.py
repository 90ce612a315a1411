"""Serve the offline model over HTTP on 127.0.0.1, for any Anthropic client (another process, SDK or language).

uvicorn (``pip install 'agentlib[server]'``) parses HTTP with h11, bounds header size, holds
connections on one event loop (no thread per connection) and shuts down cleanly. What it
lacks is added here: a deadline for receiving each request (one byte every few seconds must
not hold a connection), a cap on open connections, and its own refusals in the API's JSON shape.
"""

from __future__ import annotations

import asyncio
import errno
import http
import json
import socket
import threading
from typing import Any

from agentlib.offline.extras.asgi import asgi_app
from agentlib.offline.simulator import HTTPAnswer, Offline, error_answer

NEEDS_UVICORN = "The offline server needs uvicorn: pip install 'agentlib[server]'"
try:
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError as missing:
    raise ImportError(NEEDS_UVICORN) from missing

LOOPBACK = "127.0.0.1"  # never another interface: the server has no authentication
BACKLOG = 128  # connections the kernel queues before accept(); a backlog of 5 resets a burst
REQUEST_DEADLINE_S = 30  # the whole request (head and body) must arrive within this
CONNECTION_CAP = 256  # open connections; one more is answered 529 and closed
LINGER_S = 2  # after an answer sent mid-request, how long the rest of the request is read
# an idle connection between two requests is closed after this: longer than the 5 s after which
# the SDK's pool drops one itself, so a client never sends on a connection being closed
KEEP_ALIVE_S = 10


class PortInUse(OSError):
    """The port asked for is taken; the message says what to do instead."""


def raw_answer(answer: HTTPAnswer) -> bytes:
    """An HTTP/1.1 response that closes the connection, for when no request was parsed."""
    try:
        reason = http.HTTPStatus(answer.status).phrase
    except ValueError:  # 529 is the API's own status, not in the standard's list
        reason = "Overloaded"
    head = [f"HTTP/1.1 {answer.status} {reason}"]
    head += [f"{key}: {value}" for key, value in answer.headers.items()]
    head += [f"content-length: {len(answer.body)}", "connection: close", "", ""]
    return "\r\n".join(head).encode("latin-1") + answer.body


class _LingeringClose:
    """The connection's transport, closed so that an answer sent mid-request is still read.

    Closing on a client that is still sending its body (a 413, a 408) makes the kernel reset
    the connection, and a reset can destroy the answer before the client reads it. So the
    answer is followed by an end of stream, what the client still sends is read and dropped,
    and the connection closes when the client closes it or after ``LINGER_S``.
    """

    def __init__(self, transport, protocol: GuardedH11) -> None:
        self._transport, self._protocol = transport, protocol

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def close(self, *, mid_request: bool = False) -> None:
        """Close; linger first when the client may still be sending (``mid_request``: a refusal
        sent before the request's head had arrived, or a body still coming)."""
        cycle, transport = self._protocol.cycle, self._transport
        unread = mid_request or (cycle is not None and cycle.more_body)
        if self._protocol.draining or not unread or transport.is_closing():
            transport.close()
            return
        self._protocol.draining = True
        transport.write_eof()
        transport.resume_reading()  # uvicorn may have paused it while the body waited
        self._protocol.loop.call_later(LINGER_S, transport.close)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol plus a per-request deadline, a connection cap and JSON refusals."""

    _deadline: asyncio.TimerHandle | None = None
    draining = False  # an answer was sent and the stream ended: what still arrives is dropped

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = _LingeringClose(transport, self)
        if len(self.connections) > CONNECTION_CAP:
            message = f"The offline server has {CONNECTION_CAP} connections open: retry shortly."
            self._refuse(error_answer(529, "overloaded_error", message, {"retry-after": "1"}))
            return
        self._arm(None)

    def on_response_complete(self) -> None:
        self._arm(self.cycle)  # before uvicorn starts on a pipelined next request
        super().on_response_complete()

    def data_received(self, data: bytes) -> None:
        if not self.draining:
            super().data_received(data)

    def eof_received(self) -> None:
        if self.draining:  # the client is done sending: nothing is left to wait for
            self.transport.close()
            return
        super().eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        reason = (
            "The request is not valid HTTP/1.1 (request line, headers, or Content-Length, which "
            "must be a number of bytes of at most 20 digits), or its head is over 16 KB"
        )
        self._refuse(error_answer(400, "invalid_request_error", reason))

    def _arm(self, finished_cycle) -> None:
        """Start the clock for the next request: it must have fully arrived in time."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(REQUEST_DEADLINE_S, self._expire, finished_cycle)

    def _expire(self, finished_cycle) -> None:
        cycle = self.cycle
        if cycle is not None and cycle is not finished_cycle and not cycle.more_body:
            return  # the request arrived in time; the simulator is answering it
        if cycle is not None and cycle is not finished_cycle and cycle.response_started:
            self.transport.close()
            return
        message = f"The request did not arrive within {REQUEST_DEADLINE_S} s."
        self._refuse(error_answer(408, "timeout_error", message))

    def _refuse(self, answer: HTTPAnswer) -> None:
        if not self.transport.is_closing():
            self.transport.write(raw_answer(answer))
            cycle = (
                self.cycle
            )  # None: the head has not (all) arrived, so the client may be sending it
            self.transport.close(mid_request=cycle is None or cycle.more_body)


class LoopbackServer:
    """The offline model served by uvicorn on 127.0.0.1; ``serve_forever()`` until ``shutdown()``."""

    def __init__(self, simulator: Offline, port: int) -> None:
        self.simulator = simulator
        self.socket = _bind(port)
        self.server_address = self.socket.getsockname()
        self.app = asgi_app(simulator)
        config = uvicorn.Config(
            self.app,
            http=GuardedH11,
            ws="none",
            lifespan="off",
            backlog=BACKLOG,
            timeout_keep_alive=KEEP_ALIVE_S,
            timeout_graceful_shutdown=5,
            access_log=False,
            server_header=False,  # keep the terminal for the learner: see simulator.requests
            log_config=None,
            log_level="error",
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    def serve_forever(self) -> None:
        """Serve until shutdown() (or Ctrl-C in the main thread)."""
        self._server.run(sockets=[self.socket])

    def shutdown(self) -> None:
        """Stop serving and wait for the server to finish (its thread, if it has one)."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def server_close(self) -> None:
        """Close the listening socket (shutdown() already does)."""
        self.socket.close()


def _bind(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((LOOPBACK, port))
    except OSError as err:
        listener.close()
        if err.errno == errno.EADDRINUSE:
            raise PortInUse(
                f"port {port} on {LOOPBACK} is already in use: choose another with --port N, "
                "or --port 0 for any free port"
            ) from None
        raise
    listener.listen(BACKLOG)  # clients queue from now on, before the event loop starts
    return listener


def make_server(offline: Offline | None = None, port: int = 0) -> LoopbackServer:
    """A server (not yet serving) bound to 127.0.0.1:port; port 0 picks a free one."""
    return LoopbackServer(offline or Offline(), port)


def serve_in_thread(offline: Offline | None = None, port: int = 0) -> LoopbackServer:
    """Start serving in a background thread; returns the server (``.server_address``, ``.shutdown()``)."""
    server = make_server(offline, port)
    server._thread = threading.Thread(
        target=server.serve_forever, name="agentlib-offline", daemon=True
    )
    server._thread.start()
    return server


def describe(server: LoopbackServer) -> str:
    """How to point a client at the server, in one paragraph."""
    host, port = server.server_address[:2]
    example = json.dumps(
        {"ANTHROPIC_BASE_URL": f"http://{host}:{port}", "MODEL_ID": "agentlib-offline"}
    )
    return (
        f"agentlib offline model serving on http://{host}:{port} (loopback only). Point any "
        f"Anthropic client at it, any API key works: {example}"
    )
