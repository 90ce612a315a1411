"""The loopback server answers a plain anthropic.Anthropic(base_url=...) over a real socket."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

import anthropic
import pytest

from agentlib import Workspace, agent_loop, s02_tools
from agentlib.offline import OFFLINE_MODEL, Offline, Script, call, reply, say
from agentlib.offline.extras import server as server_module
from agentlib.offline.extras.server import KEPT_REQUESTS, serve_in_thread
from agentlib.offline.fallback import Fallback
from agentlib.offline.simulator import MAX_REQUEST_BYTES


@pytest.fixture
def serve():
    servers = []

    def start(*policies):
        server = serve_in_thread(Offline(policies or None))
        servers.append(server)
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        return anthropic.Anthropic(base_url=f"http://{host}:{port}", api_key="x", max_retries=0)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_plain_client_gets_real_messages_over_loopback(serve):
    client = serve(Script(reply("Listing.", call("bash", command="ls"))))
    message = client.messages.create(
        model=OFFLINE_MODEL,
        max_tokens=100,
        messages=[{"role": "user", "content": "ls"}],
        tools=[{"name": "bash", "input_schema": {"type": "object"}}],
    )
    assert message.model == OFFLINE_MODEL
    assert message.content[1].input == {"command": "ls"}
    assert message.stop_reason == "tool_use"


def test_validation_errors_cross_the_socket_as_bad_requests(serve):
    client = serve(Script(say("unused")))
    with pytest.raises(anthropic.BadRequestError, match="at least one message is required"):
        client.messages.create(model="m", max_tokens=10, messages=[])


def test_exhausted_script_over_http_is_a_clear_unretried_error(serve):
    client = serve(Script(say("one")))
    ask = {
        "model": OFFLINE_MODEL,
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}],
    }
    client.with_options(max_retries=3).messages.create(**ask)
    with pytest.raises(anthropic.InternalServerError, match="ran out after 1 replies"):
        client.with_options(max_retries=3).messages.create(**ask)


def test_agent_loop_runs_the_playbook_through_the_server(serve, tmp_path):
    client = serve()  # default policies: the playbook, then the fallback
    history = [{"role": "user", "content": 'Create a file called hello.py that prints "Hi"'}]
    state = agent_loop(
        history, client=client, model=OFFLINE_MODEL, tools=s02_tools(Workspace(tmp_path))
    )
    assert state.stop_reason == "end_turn"
    assert (tmp_path / "hello.py").read_text() == 'print("Hi")\n'


def test_serve_command_runs_in_another_process():
    server = subprocess.Popen(
        [sys.executable, "-m", "agentlib.offline", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        banner = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", banner)[0]
        client = anthropic.Anthropic(base_url=url, api_key="x", max_retries=0)
        message = client.messages.create(
            model=OFFLINE_MODEL,
            max_tokens=900,
            messages=[{"role": "user", "content": "Tell me a joke"}],
        )
        assert "offline model" in message.content[0].text
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- a server that survives its clients ---------------------------------------------------------
API_HEADERS = {"x-api-key": "any", "anthropic-version": "2023-06-01"}
ASK = json.dumps(
    {"model": OFFLINE_MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
)


@pytest.fixture
def address():
    server = serve_in_thread(Offline([Fallback()]))
    yield server.server_address[:2], server
    server.shutdown()
    server.server_close()


def _raw(address, head: bytes, body: bytes = b"", wait: float = 10) -> tuple[int, dict]:
    """Send bytes as they are; return the status and the JSON error/answer (fails on a hang)."""
    with socket.create_connection(address, timeout=wait) as sock:
        sock.sendall(head + b"\r\n\r\n" + body)
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply) < _expected(reply):
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    head_part, _, rest = reply.partition(b"\r\n\r\n")
    return int(head_part.split()[1]), json.loads(rest)


def _expected(reply: bytes) -> int:
    found = re.search(rb"content-length: (\d+)", reply, re.IGNORECASE)
    return reply.index(b"\r\n\r\n") + 4 + int(found[1]) if found else 1 << 30


def _post(length_header: str) -> bytes:
    lines = ["POST /v1/messages HTTP/1.1", "host: x", "content-type: application/json"]
    lines += [f"{key}: {value}" for key, value in API_HEADERS.items()]
    lines += ["x-api-key: any", "anthropic-version: 2023-06-01"]  # the API needs both
    return "\r\n".join(lines + ([length_header] if length_header else [])).encode()


@pytest.mark.parametrize(
    ("length_header", "status", "words"),
    [
        ("", 411, "Content-Length header is required"),
        ("content-length: -1", 400, "must be a number of bytes"),
        ("content-length: lots", 400, "must be a number of bytes"),
        ("content-length: " + "9" * 5000, 413, "request_too_large"),
        (f"content-length: {10**12}", 413, "request_too_large"),
        (f"content-length: {MAX_REQUEST_BYTES + 1}", 413, "request_too_large"),
    ],
)
def test_bad_content_length_gets_an_answer_at_once(address, length_header, status, words):
    started = time.monotonic()
    got, payload = _raw(address[0], _post(length_header), b'{"a": 1}')
    assert (got, payload["type"]) == (status, "error")
    assert words in json.dumps(payload)
    assert time.monotonic() - started < 5  # answered, not read to the end or left hanging


def test_a_body_over_the_limit_is_refused_before_it_is_read(address):
    (host, port), server = address
    # only the head is sent: an answer that waited for the 32 MB body would never come
    status, payload = _raw((host, port), _post(f"content-length: {MAX_REQUEST_BYTES + 1}"))
    assert (status, payload["error"]["type"]) == (413, "request_too_large")
    assert server.simulator.requests == []


def test_deep_json_is_a_bad_request_not_a_dropped_connection(address):
    body = b"[" * 100_000 + b"]" * 100_000
    status, payload = _raw(address[0], _post(f"content-length: {len(body)}"), body)
    assert status == 400
    assert payload["error"]["type"] == "invalid_request_error"
    assert "nested too deeply" in payload["error"]["message"]


def test_a_stalled_body_frees_its_thread_and_others_are_served(monkeypatch):
    monkeypatch.setattr(server_module, "READ_TIMEOUT_S", 1)
    server = serve_in_thread(Offline([Fallback()]))
    try:
        address = server.server_address[:2]
        stalled = socket.create_connection(address, timeout=10)
        stalled.sendall(_post("content-length: 100") + b"\r\n\r\n" + b"{")  # 99 bytes never come
        status, _ = _raw(address, _post(f"content-length: {len(ASK)}"), ASK.encode())
        assert status == 200  # served while the other waits
        assert stalled.recv(100) == b""  # the stalled one was closed after the read timeout
        stalled.close()
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_keeps_only_the_latest_requests(address):
    (host, port), server = address
    for _ in range(3 * KEPT_REQUESTS):
        assert _raw((host, port), _post(f"content-length: {len(ASK)}"), ASK.encode())[0] == 200
    assert len(server.simulator.requests) == KEPT_REQUESTS


def test_fifty_concurrent_requests_are_all_answered(address):
    (host, port), _ = address
    start = threading.Barrier(50)
    results = []

    def one() -> None:
        start.wait()
        try:
            conn = http.client.HTTPConnection(host, port, timeout=30)
            headers = {"content-type": "application/json", **API_HEADERS}
            conn.request("POST", "/v1/messages", ASK, headers)
            results.append(conn.getresponse().status)
            conn.close()
        except OSError as exc:  # with the stdlib's backlog of 5, some of these are reset
            results.append(repr(exc))

    workers = [threading.Thread(target=one) for _ in range(50)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert results == [200] * 50


@pytest.mark.skipif(shutil.which("ss") is None, reason="needs ss (iproute2) to read the backlog")
def test_the_listen_backlog_holds_a_burst_of_fifty(address):
    port = address[0][1]
    listing = subprocess.run(
        ["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert listing[0] == "LISTEN"
    assert int(listing[2]) >= 50  # Send-Q of a listening socket is its backlog
