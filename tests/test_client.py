"""connect(): offline without a key, the real SDK configured from .env and the environment."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import pytest

from agentlib import connect
from agentlib.client import (
    SETTINGS,
    check_connection,
    config_error_for,
    is_offline,
    list_models,
    next_start_problems,
    read_settings,
)
from agentlib.errors import ConfigError
from agentlib.offline import OFFLINE_MODEL, Offline
from agentlib.offline.extras.server import serve_in_thread

KEY = "sk-ant-test-0000-not-a-real-key"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No configuration leaks in from the machine running the tests."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_no_key_means_offline_with_one_line_saying_why(capsys):
    client, model = connect()
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert "offline model" in out and "no ANTHROPIC_API_KEY" in out
    assert model == OFFLINE_MODEL
    reply = client.messages.create(
        model=model, max_tokens=900, messages=[{"role": "user", "content": "hello?"}]
    )
    assert "offline model" in reply.content[0].text


def test_key_in_dotenv_selects_the_api_without_printing_the_key(tmp_path, capsys):
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={KEY}\nMODEL_ID=my-model\n")
    client, model = connect()
    out = capsys.readouterr().out
    assert isinstance(client, anthropic.Anthropic) and client.api_key == KEY
    assert model == "my-model"
    assert KEY not in out and "ANTHROPIC_API_KEY found in" in out and ".env" in out


def test_dotenv_wins_over_the_environment_and_is_not_copied_into_it(tmp_path, monkeypatch):
    monkeypatch.setenv("MODEL_ID", "from-environment")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-environment")
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={KEY}\nMODEL_ID=from-dotenv\n")
    client, model = connect(quiet=True)
    assert (client.api_key, model) == (KEY, "from-dotenv")
    import os

    assert os.environ["ANTHROPIC_API_KEY"] == "sk-ant-environment"


def test_dotenv_in_a_parent_folder_is_found(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={KEY}\nMODEL_ID=m\n")
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")
    assert connect(quiet=True)[0].api_key == KEY


def test_agentlib_backend_can_force_offline(monkeypatch, capsys):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("AGENTLIB_BACKEND", "offline")
    _, model = connect()
    assert model == OFFLINE_MODEL
    assert "AGENTLIB_BACKEND=offline" in capsys.readouterr().out


def test_explicit_backend_overrides_agentlib_backend(monkeypatch):
    monkeypatch.setenv("AGENTLIB_BACKEND", "anthropic")
    assert connect("offline", quiet=True)[1] == OFFLINE_MODEL


def test_base_url_drops_the_auth_token(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "oauth-token")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("MODEL_ID", "m")
    client, _ = connect("anthropic", quiet=True)
    assert client.auth_token is None and client.api_key == KEY
    assert str(client.base_url).startswith("http://127.0.0.1:9")


def test_auth_token_alone_with_base_url_explains_itself(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "oauth-token")
    monkeypatch.setenv("MODEL_ID", "m")
    with pytest.raises(
        ConfigError, match="ANTHROPIC_AUTH_TOKEN is ignored when ANTHROPIC_BASE_URL"
    ):
        connect("anthropic", quiet=True)


def test_missing_model_id_says_how_to_set_it(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with pytest.raises(ConfigError, match=r"MODEL_ID is not set\. Put a line MODEL_ID=") as caught:
        connect(quiet=True)
    assert KEY not in str(caught.value)


@pytest.mark.parametrize(
    ("surface", "lang", "offline"),
    [
        ("notebook", "en", 'BACKEND = "offline"'),
        ("repl", "en", "--backend offline"),
        ("repl", "zh", "--backend offline"),
    ],
)
def test_a_key_without_model_id_says_where_the_key_was_found_and_how_to_stay_offline(
    tmp_path, surface, lang, offline
):
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={KEY}\n")  # a stray .env, no MODEL_ID
    with pytest.raises(ConfigError) as caught:
        connect(quiet=True, surface=surface, lang=lang)
    message = str(caught.value)
    assert str((tmp_path / ".env").resolve()) in message and offline in message
    assert ("之所以选了真实的 API" in message) == (lang == "zh")
    assert "MODEL_ID" in message and KEY not in message


def test_missing_key_for_the_api_says_how_to_set_it(monkeypatch):
    monkeypatch.setenv("MODEL_ID", "m")
    with pytest.raises(ConfigError, match="No API key: put a line ANTHROPIC_API_KEY="):
        connect("anthropic", quiet=True)


def test_unknown_backend_is_refused():
    with pytest.raises(ConfigError, match="Unknown backend 'claude'"):
        connect("claude")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dead_endpoint_is_explained_not_a_traceback(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    client, model = connect("anthropic", model="m", max_retries=0, quiet=True)  # no network yet
    with pytest.raises(ConfigError, match=r"Cannot reach the API at http://127\.0\.0\.1:\d+/"):
        check_connection(client, model)


class Rejecting(BaseHTTPRequestHandler):
    """A stand-in for the remote API that rejects every key, as api.anthropic.com does a bad one."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        body = b'{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST

    def log_message(self, *args):
        pass


def test_bad_key_is_explained(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Rejecting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}")
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        client, model = connect("anthropic", model="m", quiet=True)
        with pytest.raises(ConfigError, match=r"rejected the key \(401") as caught:
            check_connection(client, model)
        assert KEY not in str(caught.value)
        with pytest.raises(ConfigError, match="401"):
            list_models(client)
    finally:
        server.shutdown()
        server.server_close()


def test_check_connection_and_models_work_offline():
    client, model = connect("offline", quiet=True)
    assert check_connection(client, model) == OFFLINE_MODEL
    assert list_models(client) == [OFFLINE_MODEL]


def test_config_error_for_leaves_other_errors_alone():
    assert config_error_for(ValueError("x")) is None


@pytest.mark.parametrize("where", ["absolute", "nested", "none"])
def test_env_file_is_read_from_where_it_is_named(tmp_path, monkeypatch, where):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "keys.env").write_text(f"ANTHROPIC_API_KEY={KEY}\nMODEL_ID=m\n")
    monkeypatch.chdir(tmp_path / "config")  # the nested name is found from a parent folder too
    env_file = {"absolute": tmp_path / "config" / "keys.env", "nested": "config/keys.env"}
    settings = read_settings(env_file.get(where))
    if where == "none":
        assert settings == {}
    else:
        assert settings["ANTHROPIC_API_KEY"] == (KEY, str(tmp_path / "config" / "keys.env"))


# -- "is this run offline?": connect() decides, then the model id says it everywhere --------------
def test_offline_is_one_answer_in_process_and_over_the_loopback_server(tmp_path, monkeypatch):
    from agentlib.course import Course
    from agentlib.widgets.trace import Trace

    assert is_offline(connect("offline", quiet=True)[1])
    server = serve_in_thread(Offline())
    try:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://{}:{}".format(*server.server_address[:2]))
        monkeypatch.setenv("ANTHROPIC_API_KEY", "any")
        monkeypatch.setenv("MODEL_ID", OFFLINE_MODEL)
        (tmp_path / "work").mkdir()
        course = Course("auto", tmp_path / "work")
        reply = course.client.messages.create(
            model=course.model, max_tokens=50, messages=[{"role": "user", "content": "hi"}]
        )
    finally:
        server.shutdown()
        server.server_close()
    assert course.offline  # the course's own checks hold for the offline model over HTTP too
    assert reply.usage.estimated is True
    assert Trace.from_events([]).offline is False and not is_offline("a-real-model")


def test_a_workspace_holding_a_named_env_file_connect_would_read_is_a_problem(tmp_path):
    (tmp_path / "my-config").mkdir()  # the cwd is tmp_path (clean_env)
    problems = next_start_problems(tmp_path / "my-config", env_file="my-config/keys.env")
    assert len(problems) == 1 and problems[0].startswith("connect() reads my-config/keys.env from")
    assert next_start_problems(tmp_path / "my-config", env_file=None) == []
