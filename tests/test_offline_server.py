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
from contextlib import contextmanager

import anthropic
import pytest

from agentlib import Workspace, agent_loop, s02_tools
from agentlib.offline import OFFLINE_MODEL, Offline, Script, call, reply, say
from agentlib.offline.extras import server as server_module
from agentlib.offline.extras.asgi import KEPT_REQUESTS
from agentlib.offline.extras.server import serve_in_thread
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


@contextmanager
def serving(offline: Offline):
    server = serve_in_thread(offline)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def address():
    with serving(Offline([Fallback()])) as server:
        yield server.server_address[:2], server


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


def _post(*extra_headers: str) -> bytes:
    lines = ["POST /v1/messages HTTP/1.1", "host: x", "content-type: application/json"]
    lines += [f"{key}: {value}" for key, value in API_HEADERS.items()]
    return "\r\n".join(lines + [line for line in extra_headers if line]).encode()


CLOSE = "connection: close"  # the server closes after its answer: read to the end


@pytest.mark.parametrize(
    ("length_header", "status", "words"),
    [
        ("", 411, "Content-Length header is required"),
        ("content-length: -1", 400, "must be a number of bytes"),
        ("content-length: lots", 400, "must be a number of bytes"),
        ("content-length: " + "9" * 5000, 400, "must be a number of bytes"),
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


def test_a_client_still_sending_a_refused_body_reads_the_whole_answer(address):
    # the SDK sends the whole body before it reads: a close under it resets the connection
    (host, port), _ = address
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(_post(f"content-length: {MAX_REQUEST_BYTES + 1}") + b"\r\n\r\n")
        time.sleep(0.2)  # the 413 is sent and the server is done with this request
        for _ in range(16):
            sock.sendall(b"x" * (1 << 20))  # still sending, as a client that did not look
        answer = _read_all(sock)
    status, error = _error(answer)
    assert (status, error["type"]) == (413, "request_too_large")


def test_deep_json_is_a_bad_request_not_a_dropped_connection(address):
    body = b"[" * 100_000 + b"]" * 100_000
    status, payload = _raw(address[0], _post(f"content-length: {len(body)}"), body)
    assert status == 400
    assert payload["error"]["type"] == "invalid_request_error"
    assert "nested too deeply" in payload["error"]["message"]


def test_a_stalled_body_is_answered_408_at_its_deadline_and_others_are_served(monkeypatch):
    monkeypatch.setattr(server_module, "REQUEST_DEADLINE_S", 1)
    with serving(Offline([Fallback()])) as server:
        address = server.server_address[:2]
        stalled = socket.create_connection(address, timeout=10)
        stalled.sendall(_post("content-length: 100") + b"\r\n\r\n" + b"{")  # 99 bytes never come
        status, _ = _raw(address, _post(f"content-length: {len(ASK)}"), ASK.encode())
        assert status == 200  # served while the other waits
        answer = _read_all(stalled)  # the stalled one is answered at its deadline, then closed
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["type"] == "timeout_error"
        stalled.close()


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


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def _error(answer: bytes) -> tuple[int, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)["error"]


def test_a_lone_surrogate_in_the_model_gets_a_json_answer(address):
    body = ASK.replace('"agentlib-offline"', '"\\ud800"').encode()  # a JSON escape, sent as is
    status, payload = _raw(address[0], _post(f"content-length: {len(body)}"), body)
    assert (status, payload["error"]["type"]) == (404, "not_found_error")
    assert payload["error"]["message"].startswith("model: \ud800")


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
def test_a_reply_that_echoes_a_lone_surrogate_sends_it_as_an_escape(stream):
    ask = json.loads(ASK) | {"stream": stream}
    ask["messages"][0]["content"] = "hi \ud800"
    body = json.dumps(ask).encode()
    echo = Offline([lambda request: say(request["messages"][0]["content"])])
    with serving(echo) as server, socket.create_connection(server.server_address[:2]) as sock:
        sock.sendall(_post(f"content-length: {len(body)}", CLOSE) + b"\r\n\r\n" + body)
        answer = _read_all(sock).decode()
    assert answer.startswith("HTTP/1.1 200 ")
    assert '"text": "hi \\ud800"' in answer or '"text_delta", "text": "hi \\ud800"' in answer


def test_a_header_sent_one_byte_at_a_time_is_cut_off_at_the_deadline(monkeypatch):
    monkeypatch.setattr(server_module, "REQUEST_DEADLINE_S", 1)
    with serving(Offline([Fallback()])) as server:
        with socket.create_connection(server.server_address[:2], timeout=10) as sock:
            sock.settimeout(0.2)
            answer = b""
            for byte in _post(f"content-length: {len(ASK)}")[:25]:  # 5 s of trickling at most
                try:
                    sock.sendall(bytes([byte]))
                    answer = sock.recv(65536)
                except TimeoutError:
                    continue
                except OSError:  # closed under us after the answer
                    break
                if answer:
                    break
            sock.settimeout(10)
            answer += _read_all(sock)
        status, error = _error(answer)
        assert (status, error["type"]) == (408, "timeout_error")


def test_idle_connections_cost_no_thread_and_one_over_the_cap_gets_529(monkeypatch):
    monkeypatch.setattr(server_module, "CONNECTION_CAP", 40)
    with serving(Offline([Fallback()])) as server:
        address = server.server_address[:2]
        status, _ = _raw(address, _post(f"content-length: {len(ASK)}"), ASK.encode())
        assert status == 200  # the server is up and has made whatever threads it needs
        threads = threading.active_count()
        idle = [socket.create_connection(address, timeout=10) for _ in range(40)]
        with socket.create_connection(address, timeout=10) as extra:
            status, error = _error(_read_all(extra))
        assert (status, error["type"]) == (529, "overloaded_error")
        assert threading.active_count() == threads  # forty open connections, no new thread
        for sock in idle:
            sock.close()


def test_bodies_past_the_memory_bound_wait_their_turn(address):
    (host, port), server = address
    server.app.budget.limit = 1000
    padded = (ASK + " " * (800 - len(ASK))).encode()  # JSON allows trailing whitespace
    other = (ASK + " " * (300 - len(ASK))).encode()
    with socket.create_connection((host, port), timeout=10) as holding:
        holding.sendall(_post("content-length: 800", CLOSE) + b"\r\n\r\n" + padded[:10])
        for _ in range(100):  # until the server has reserved the first body's 800 bytes
            if server.app.budget.held == 800:
                break
            time.sleep(0.05)
        with socket.create_connection((host, port), timeout=10) as waiting:
            waiting.sendall(_post("content-length: 300", CLOSE) + b"\r\n\r\n" + other)
            for _ in range(100):  # until the second request waits for room
                if server.app.budget.waiting == 1:
                    break
                time.sleep(0.05)
            assert server.app.budget.waiting == 1 and server.app.budget.held == 800
            holding.sendall(padded[10:])
            assert _read_all(holding).startswith(b"HTTP/1.1 200 ")
            assert _read_all(waiting).startswith(b"HTTP/1.1 200 ")  # then it had its turn
    assert server.app.budget.held == 0


def test_a_malformed_request_line_gets_a_json_400(address):
    status, payload = _raw(address[0], b"NOT HTTP AT ALL")
    assert (status, payload["error"]["type"]) == (400, "invalid_request_error")


def test_a_policy_that_fails_gets_a_json_500_not_a_dropped_connection():
    def broken(request):
        raise ValueError("the policy broke")

    with serving(Offline([broken])) as server:
        address = server.server_address[:2]
        status, payload = _raw(address, _post(f"content-length: {len(ASK)}"), ASK.encode())
        assert (status, payload["error"]["type"]) == (500, "api_error")
        assert "the policy broke" in payload["error"]["message"]


def test_a_busy_port_is_one_line_naming_port_0_and_a_failed_exit():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "agentlib.offline", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--port 0" in done.stderr
    assert done.stderr.startswith(f"agentlib: port {port} on 127.0.0.1 is already in use")


def test_without_uvicorn_the_serve_command_says_which_extra_to_install():
    script = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from agentlib.offline.__main__ import main\n"
        "raise SystemExit(main(['serve', '--port', '0']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == "agentlib: " + server_module.NEEDS_UVICORN + "\n"


def test_the_in_process_client_needs_no_server_extra():
    script = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from agentlib.offline import offline_client, say, Script\n"
        "client, model = offline_client(Script(say('fine')))\n"
        "reply = client.messages.create(model=model, max_tokens=9, "
        "messages=[{'role': 'user', 'content': 'hi'}])\n"
        "print(reply.content[0].text)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "fine\n", done.stderr
