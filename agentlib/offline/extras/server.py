"""Serve the offline model over HTTP on 127.0.0.1, for any Anthropic client (another process, SDK or language)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agentlib.offline.errors import OfflineError
from agentlib.offline.simulator import Offline, error_answer

LOOPBACK = "127.0.0.1"  # never another interface: the server has no authentication


def make_server(offline: Offline | None = None, port: int = 0) -> ThreadingHTTPServer:
    """A server (not yet serving) bound to 127.0.0.1:port; port 0 picks a free one."""
    simulator = offline or Offline()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            path = self.path.split("?")[0]
            try:
                answer = simulator.handle(self.command, path, body)
            except OfflineError as err:
                # in-process this is raised; over HTTP it becomes an error the client will not retry
                answer = error_answer(500, "api_error", str(err), {"x-should-retry": "false"})
            self.send_response(answer.status)
            for key, value in answer.headers.items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args) -> None:
            pass  # keep the terminal for the learner; requests are visible in simulator.requests

    server = ThreadingHTTPServer((LOOPBACK, port), Handler)
    server.daemon_threads = True
    server.simulator = simulator  # type: ignore[attr-defined]
    return server


def serve_in_thread(offline: Offline | None = None, port: int = 0) -> ThreadingHTTPServer:
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
