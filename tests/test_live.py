"""The same loop against a real model. Runs only with ANTHROPIC_API_KEY and MODEL_ID configured."""

import os

import pytest

from agentlib import Workspace, agent_loop, s02_tools
from agentlib.protocol import check_history

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        not (os.environ.get("ANTHROPIC_API_KEY") and os.environ.get("MODEL_ID")),
        reason="needs a real ANTHROPIC_API_KEY and MODEL_ID in the environment",
    ),
]


def test_real_model_creates_hello_py(tmp_path):
    from agentlib.client import connect

    client, model = connect("anthropic", quiet=True, env_file=None)
    ws = Workspace(tmp_path)
    messages = [
        {"role": "user", "content": 'Create a file called hello.py that prints "Hello, World!"'}
    ]
    state = agent_loop(
        messages,
        client=client,
        model=model,
        tools=s02_tools(ws),
        system=f"You are a coding agent at {ws.root}. Use tools to solve tasks. Act, don't explain.",
        max_rounds=10,
    )
    assert state.stop_reason == "end_turn"
    assert "Hello, World!" in (tmp_path / "hello.py").read_text()
    assert check_history(state.messages) == []
