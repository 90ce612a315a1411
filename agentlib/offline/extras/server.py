"""Serve the offline model over HTTP on 127.0.0.1, for any Anthropic client (another process, SDK or language)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agentlib.offline.errors import OfflineError
from agentlib.offline.simulator import (
    MAX_REQUEST_BYTES,
    HTTPAnswer,
    Offline,
    error_answer,
    too_large_answer,
)

LOOPBACK = "127.0.0.1"  # never another interface: the server has no authentication
BACKLOG = 128  # connections the kernel queues before accept(); the stdlib's 5 resets a burst
READ_TIMEOUT_S = 30  # a client that stops sending mid-request frees its thread after this
KEPT_REQUESTS = 8  # simulator.requests keeps only the latest ones while serving


class OfflineHTTPServer(ThreadingHTTPServer):
    """One thread per connection, a real listen backlog, threads that never block shutdown."""

    request_queue_size = BACKLOG
    daemon_threads = True


def make_server(offline: Offline | None = None, port: int = 0) -> OfflineHTTPServer:
    """A server (not yet serving) bound to 127.0.0.1:port; port 0 picks a free one."""
    simulator = offline or Offline()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = READ_TIMEOUT_S

        def _answer(self) -> None:
            body, refusal = self._read_body()
            if refusal is not None:
                self.close_connection = (
                    True  # an unread body must not be taken for the next request
                )
                self._send(refusal)
                return
            path = self.path.split("?")[0]
            try:
                answer = simulator.handle(self.command, path, body, dict(self.headers))
            except OfflineError as err:
                # in-process this is raised; over HTTP it becomes an error the client will not retry
                answer = error_answer(500, "api_error", str(err), {"x-should-retry": "false"})
            except RecursionError:
                reason = "Request body is nested too deeply (JSON arrays and objects)"
                answer = error_answer(400, "invalid_request_error", reason)
            # bounded memory: no body is kept for the server's lifetime (one atomic list operation)
            del simulator.requests[:-KEPT_REQUESTS]
            self._send(answer)

        def _read_body(self) -> tuple[bytes, HTTPAnswer | None]:
            """The request body, or the answer refusing it before a byte of it is read."""
            if self.command == "GET":
                return b"", None
            if "chunked" in (self.headers.get("transfer-encoding") or "").lower():
                reason = "Send the body with a Content-Length header (chunked is not accepted)"
                return b"", error_answer(411, "invalid_request_error", reason)
            given = self.headers.get("content-length")
            if given is None:
                reason = "A Content-Length header is required"
                return b"", error_answer(411, "invalid_request_error", reason)
            digits = given.strip()
            if not (digits.isascii() and digits.isdigit()):
                reason = f"Content-Length must be a number of bytes, not {given[:40]!r}"
                return b"", error_answer(400, "invalid_request_error", reason)
            if len(digits) > len(str(MAX_REQUEST_BYTES)) or int(digits) > MAX_REQUEST_BYTES:
                return b"", too_large_answer(int(digits) if len(digits) < 100 else None)
            length = int(digits)
            body = self.rfile.read(length)
            if len(body) < length:
                reason = f"The body ended after {len(body)} of {length} bytes"
                return b"", error_answer(400, "invalid_request_error", reason)
            return body, None

        def _send(self, answer: HTTPAnswer) -> None:
            self.send_response(answer.status)
            for key, value in answer.headers.items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(answer.body)))
            if self.close_connection:
                self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(answer.body)

        def _serve(self) -> None:
            try:
                self._answer()
            except (TimeoutError, ConnectionError):
                self.close_connection = True  # a stalled or vanished client: drop it quietly

        do_GET = do_POST = _serve

        def log_message(self, format: str, *args) -> None:
            pass  # keep the terminal for the learner; requests are visible in simulator.requests

    server = OfflineHTTPServer((LOOPBACK, port), Handler)
    server.simulator = simulator  # type: ignore[attr-defined]
    return server


def serve_in_thread(offline: Offline | None = None, port: int = 0) -> OfflineHTTPServer:
    """Start serving in a background thread; returns the server (``.server_address``, ``.shutdown()``)."""
    server = make_server(offline, port)
    threading.Thread(target=server.serve_forever, name="agentlib-offline", daemon=True).start()
    return server


def describe(server: ThreadingHTTPServer) -> str:
    """How to point a client at the server, in one paragraph."""
    host, port = server.server_address[:2]
    example = json.dumps(
        {"ANTHROPIC_BASE_URL": f"http://{host}:{port}", "MODEL_ID": "agentlib-offline"}
    )
    return (
        f"agentlib offline model serving on http://{host}:{port} (loopback only). Point any "
        f"Anthropic client at it, any API key works: {example}"
    )
