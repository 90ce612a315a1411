"""Record a session into a cassette, replay it, and name the first difference when it drifts."""

from __future__ import annotations

import json

import pytest

from agentlib import Workspace, agent_loop, s01_tools, s02_tools
from agentlib.offline import (
    Offline,
    Playbook,
    Recorder,
    Replay,
    ReplayDrift,
    Script,
    offline_client,
    say,
)
from agentlib.offline.simulator import client_for

HELLO = 'Create a file called hello.py that prints "Hello, World!"'


def record_session(cassette, workspace, toolbox, prompt=HELLO):
    """Run a prompt through a recording client (the playbook stands in for the live API)."""
    client = client_for(Recorder(cassette, inner=Offline([Playbook()]).transport()))
    history = [{"role": "user", "content": prompt}]
    agent_loop(history, client=client, model="agentlib-offline", tools=toolbox(workspace))
    return history


def replay_session(cassette, workspace, toolbox, prompt=HELLO):
    client, model = offline_client(Replay(cassette))
    history = [{"role": "user", "content": prompt}]
    agent_loop(history, client=client, model=model, tools=toolbox(workspace))
    return history


def test_record_then_replay_round_trips(tmp_path):
    cassette = tmp_path / "hello.json"
    recorded = record_session(cassette, Workspace(tmp_path / "a", isolation="none"), s02_tools)
    replayed = replay_session(cassette, Workspace(tmp_path / "b", isolation="none"), s02_tools)
    assert replayed == recorded  # same calls, same ids, same tool results, same final text
    assert (tmp_path / "b" / "hello.py").read_text() == 'print("Hello, World!")\n'
    saved = json.loads(cassette.read_text())
    assert saved["format"] == "agentlib-cassette/1"
    assert len(saved["exchanges"]) == 3
    assert {e["request"]["model"] for e in saved["exchanges"]} == {"MODEL_ID"}


def test_recorder_scrubs_keys_and_keeps_no_headers(tmp_path):
    cassette = tmp_path / "secret.json"
    client = client_for(Recorder(cassette, inner=Offline([Script(say("ok"))]).transport()))
    client.api_key = "sk-ant-api03-abcdefSECRET"
    client.messages.create(
        model="agentlib-offline",
        max_tokens=50,
        messages=[{"role": "user", "content": "my key is sk-ant-api03-abcdefSECRET, keep it"}],
    )
    text = cassette.read_text()
    assert "SECRET" not in text
    assert "my key is <scrubbed>, keep it" in text
    assert "authorization" not in text.lower()


def test_drift_names_the_first_structural_difference(tmp_path):
    cassette = tmp_path / "hello.json"
    record_session(cassette, Workspace(tmp_path / "a", isolation="none"), s02_tools)
    with pytest.raises(ReplayDrift) as caught:
        replay_session(cassette, Workspace(tmp_path / "b", isolation="none"), s01_tools)
    assert str(caught.value).startswith("Request 1 drifted from the recording at tools[1]: ")
    assert "recorded 'read_file'" in str(caught.value)
    assert str(caught.value).endswith(
        'record the session again with connect("anthropic", record=PATH).'
    )


def test_drift_in_the_prompt_is_reported_with_both_texts(tmp_path):
    cassette = tmp_path / "hello.json"
    record_session(cassette, Workspace(tmp_path / "a", isolation="none"), s02_tools)
    with pytest.raises(ReplayDrift, match=r"messages\[0\]\.content\[0\]\.text: recorded '.*hello"):
        replay_session(
            cassette, Workspace(tmp_path / "b", isolation="none"), s02_tools, prompt="List files"
        )


def test_running_past_the_recording_is_reported(tmp_path):
    cassette = tmp_path / "one.json"
    client = client_for(Recorder(cassette, inner=Offline([Script(say("ok"))]).transport()))
    ask = {
        "model": "agentlib-offline",
        "max_tokens": 9,
        "messages": [{"role": "user", "content": "hi"}],
    }
    client.messages.create(**ask)
    replaying, _ = offline_client(Replay(cassette))
    assert replaying.messages.create(**ask).content[0].text == "ok"
    with pytest.raises(ReplayDrift, match="holds 1 exchanges; request 2 was never recorded"):
        replaying.messages.create(**ask)
