"""The offline API's model ids, and which histories it accepts: the seed's normalize_messages fails where it would live, ours passes."""

from __future__ import annotations

import json

import anthropic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentlib import normalize_messages
from agentlib.offline import OFFLINE_MODEL, Fallback, Offline, Script, call, offline_client, reply
from agentlib.offline.extras.server import serve_in_thread
from agentlib.seed import seed_normalize_messages, seed_run_bash

BASH = {"name": "bash", "description": "Run a command.", "input_schema": {"type": "object"}}
HEADERS = {"x-api-key": "any", "anthropic-version": "2023-06-01"}


def test_models_list_and_retrieve_name_the_ids_it_accepts(client):
    assert [model.id for model in client.models.list()] == [OFFLINE_MODEL]
    assert client.models.retrieve(OFFLINE_MODEL).id == OFFLINE_MODEL
    with pytest.raises(anthropic.NotFoundError) as caught:
        client.models.retrieve("claude-typo")
    assert caught.value.body["error"]["message"].startswith("model: claude-typo")
    assert OFFLINE_MODEL in caught.value.body["error"]["message"]


def test_a_mistyped_model_id_is_a_404_that_says_which_ids_work(client):
    with pytest.raises(anthropic.NotFoundError) as caught:
        client.messages.create(
            model="agentlib-ofline", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
    assert caught.value.status_code == 404
    assert caught.value.body["error"]["type"] == "not_found_error"
    message = caught.value.body["error"]["message"]
    assert message.startswith("model: agentlib-ofline") and OFFLINE_MODEL in message


def interrupted():
    """The user asked something new before the tool call was answered."""
    return [
        {"role": "user", "content": "list the files"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {}}],
        },
        {"role": "user", "content": "never mind: what is 2 + 2?"},
    ]


def with_sdk_blocks(client):
    """A history holding the SDK's own block objects, as the seed's loop appends them."""
    history = [{"role": "user", "content": "list the files"}]
    response = client.messages.create(
        model=OFFLINE_MODEL, max_tokens=100, messages=history, tools=[BASH]
    )
    history.append({"role": "assistant", "content": response.content})
    tool_id = response.content[-1].id
    history.append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "a.py"}],
        }
    )
    return history


def test_the_seed_puts_cancelled_after_the_users_text_and_the_api_refuses_it(client):
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(
            model=OFFLINE_MODEL,
            max_tokens=100,
            tools=[BASH],
            messages=seed_normalize_messages(interrupted()),
        )
    assert caught.value.body["error"]["message"] == (
        "messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. "
        "Messages following `tool_use` blocks must begin with a matching number of "
        "`tool_result` blocks."
    )
    ours = normalize_messages(interrupted())
    assert client.messages.create(model=OFFLINE_MODEL, max_tokens=100, tools=[BASH], messages=ours)


def test_the_seed_drops_sdk_blocks_and_the_api_refuses_the_empty_message():
    offline = Offline(
        [Script(reply("Listing.", call("bash", command="ls")), strict=False), Fallback()]
    )
    client = offline.client(max_retries=0)
    history = with_sdk_blocks(client)
    assert seed_normalize_messages(history)[1]["content"] == []
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(
            model=OFFLINE_MODEL,
            max_tokens=100,
            tools=[BASH],
            messages=seed_normalize_messages(history),
        )
    assert caught.value.body["error"]["message"] == (
        "messages.1: all messages must have non-empty content except for the optional final "
        "assistant message"
    )
    ours = normalize_messages(history)
    assert client.messages.create(model=OFFLINE_MODEL, max_tokens=100, tools=[BASH], messages=ours)


def run_s02_loop(client, normalize, workspace):
    """The seed's s02 loop (normalize, call, append the reply, run the tools), with one bash tool."""
    messages = [{"role": "user", "content": "List all Python files in this directory"}]
    while True:
        response = client.messages.create(
            model=OFFLINE_MODEL, messages=normalize(messages), tools=[BASH], max_tokens=8000
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response
        results = [
            {
                "type": "tool_result",
                "tool_use_id": b.id,
                "content": seed_run_bash(b.input["command"], workspace),
            }
            for b in response.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})


def test_the_seeds_s02_loop_fails_on_its_second_request_as_it_would_live(tmp_path):
    # the playbook answers the seed's try-it prompt with a bash call, as a model would
    server = serve_in_thread(Offline())
    try:
        client = anthropic.Anthropic(
            base_url="http://{}:{}".format(*server.server_address[:2]), api_key="any", max_retries=0
        )
        with pytest.raises(anthropic.BadRequestError) as caught:
            run_s02_loop(client, seed_normalize_messages, tmp_path)
        assert server.simulator.requests[-1]["messages"][1] == {"role": "assistant", "content": []}
        assert caught.value.body["error"]["message"].startswith(
            "messages.1: all messages must have non-empty content"
        )
        assert run_s02_loop(client, normalize_messages, tmp_path).stop_reason == "end_turn"
    finally:
        server.shutdown()
        server.server_close()


# Histories a loop and a learner can make: questions, replies with unique tool calls, results
# (some missing, some late), messages of one role in a row, a reply left unanswered at the end.
words = st.text(alphabet="abcdefgh xyz", min_size=1, max_size=8).map(lambda t: f"w{t}w")


@st.composite
def histories(draw):
    history, open_calls, count = [{"role": "user", "content": draw(words)}], [], 0
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(["question", "reply", "results", "results-then-text"]))
        if kind == "reply":
            calls = []
            for _ in range(draw(st.integers(0, 2))):
                count += 1
                calls.append(
                    {"type": "tool_use", "id": f"toolu_{count}", "name": "bash", "input": {}}
                )
            text = (
                [{"type": "text", "text": draw(words)}] if draw(st.booleans()) or not calls else []
            )
            history.append({"role": "assistant", "content": text + calls})
            open_calls = [c["id"] for c in calls]
        elif kind == "question":
            history.append({"role": "user", "content": draw(words)})
        elif open_calls:
            answered = draw(st.lists(st.sampled_from(open_calls), unique=True))
            results = [{"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in answered]
            text = [{"type": "text", "text": draw(words)}] if kind == "results-then-text" else []
            history.append({"role": "user", "content": results + text})
            open_calls = []
    return history


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_normalize_messages_output_is_always_accepted(history):
    offline = Offline([Fallback()])
    body = {"model": OFFLINE_MODEL, "max_tokens": 100, "tools": [BASH]}
    body["messages"] = normalize_messages(history)
    answer = offline.handle("POST", "/v1/messages", json.dumps(body).encode(), HEADERS)
    assert answer.status == 200, (json.loads(answer.body), body["messages"])


# -- where the replies are read: told by whoever makes the client or the server, never guessed ---
IN_A_NOTEBOOK, IN_THE_REPL = (
    "In a notebook, to use a real model",
    "In the REPL, to use a real model",
)
OVER_HTTP = "You are reaching me over HTTP"
REPL_SYSTEM = "You are a coding agent at /w. Use bash to inspect and change the workspace. Act first, then report clearly."


def _declined(client, **options) -> str:
    ask = {
        "model": OFFLINE_MODEL,
        "max_tokens": 900,
        "messages": [{"role": "user", "content": "a joke?"}],
    }
    return client.messages.create(**ask, **options).content[0].text


def test_the_repl_is_told_it_is_the_repl_even_inside_a_jupyter_kernel_process():
    pytest.importorskip("ipykernel")  # imported: the old guess took this for a notebook
    assert IN_THE_REPL in _declined(offline_client(Fallback(), surface="repl")[0])


def test_a_notebook_sending_the_repls_system_prompt_is_still_a_notebook():
    client, _ = offline_client(Fallback())
    assert IN_A_NOTEBOOK in _declined(client, system=REPL_SYSTEM)


def test_the_server_tells_any_policies_it_serves_that_they_are_read_over_http():
    server = serve_in_thread(Offline([Fallback()]))
    try:
        url = "http://{}:{}".format(*server.server_address[:2])
        client = anthropic.Anthropic(base_url=url, api_key="any", max_retries=0)
        assert OVER_HTTP in _declined(client, system=REPL_SYSTEM)
    finally:
        server.shutdown()
        server.server_close()


def test_an_unknown_surface_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="surface must be one of notebook, repl, http, not 'lab'"):
        offline_client(surface="lab")


def test_no_unread_usage_header_is_sent():
    client, _ = offline_client(Fallback())
    raw = client.messages.with_raw_response.create(
        model=OFFLINE_MODEL, max_tokens=9, messages=[{"role": "user", "content": "hi"}]
    )
    assert "x-agentlib-usage" not in raw.headers  # usage says it is estimated, in the body
    assert raw.parse().usage.estimated is True
