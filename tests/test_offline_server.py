"""The loopback server answers a plain anthropic.Anthropic(base_url=...) over a real socket."""

from __future__ import annotations

import re
import subprocess
import sys

import anthropic
import pytest

from agentlib import Workspace, agent_loop, s02_tools
from agentlib.offline import OFFLINE_MODEL, Offline, Script, call, reply, say
from agentlib.offline.extras.server import serve_in_thread


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
        model="anything",
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
    ask = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
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
            model="m", max_tokens=900, messages=[{"role": "user", "content": "Tell me a joke"}]
        )
        assert "offline model" in message.content[0].text
    finally:
        server.terminate()
        server.wait(timeout=10)
