"""Script and Fallback policies, usage estimates, max_tokens cuts and fault injection."""

from __future__ import annotations

import anthropic
import pytest

from agentlib.offline import (
    OFFLINE_MODEL,
    Fallback,
    Fault,
    Script,
    ScriptExhausted,
    call,
    offline_client,
    overloaded,
    rate_limited,
    reply,
    say,
    server_error,
)
from agentlib.offline.usage import estimate_tokens

BASH = {
    "name": "bash",
    "description": "Run a shell command.",
    "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}},
}


def ask(client, text="hi", **extra):
    return client.messages.create(
        model=OFFLINE_MODEL,
        max_tokens=extra.pop("max_tokens", 1000),
        messages=[{"role": "user", "content": text}],
        tools=[BASH],
        **extra,
    )


def test_script_answers_in_order_and_records_requests():
    script = Script(reply("Let me look.", call("bash", command="ls")), say("Done."))
    client, model = offline_client(script)
    first = ask(client, "list files")
    assert model == OFFLINE_MODEL == first.model
    assert [block.type for block in first.content] == ["text", "tool_use"]
    assert first.content[1].name == "bash" and first.content[1].input == {"command": "ls"}
    assert first.content[1].id.startswith("toolu_")
    assert first.stop_reason == "tool_use"
    assert ask(client, "again").content[0].text == "Done."
    assert [r["messages"][0]["content"] for r in script.requests] == ["list files", "again"]
    assert script.remaining == 0


def test_exhausted_script_says_how_many_replies_it_had():
    client, _ = offline_client(Script(say("one"), say("two")))
    ask(client)
    ask(client)
    with pytest.raises(ScriptExhausted, match="ran out after 2 replies: request 3"):
        ask(client)


def test_non_strict_script_hands_over_to_the_next_policy():
    client, _ = offline_client(Script(say("scripted"), strict=False), Fallback())
    assert ask(client).content[0].text == "scripted"
    assert "offline model" in ask(client).content[0].text


def test_script_accepts_strings_and_functions_of_the_request():
    script = Script("plain text", lambda request: say(f"{len(request['messages'])} message(s)"))
    client, _ = offline_client(script)
    assert ask(client).content[0].text == "plain text"
    assert ask(client).content[0].text == "1 message(s)"


def test_explicit_stop_reason_is_reported():
    client, _ = offline_client(Script(say("stop here", stop_reason="stop_sequence")))
    assert ask(client).stop_reason == "stop_sequence"


def test_fallback_is_honest_and_says_how_to_go_live():
    client, _ = offline_client(Fallback())
    text = ask(client, "Write me a poem").content[0].text
    assert "offline model" in text and "not Claude" in text
    assert "'poem'" in text  # the word it could not place
    assert "ANTHROPIC_API_KEY" in text and "MODEL_ID" in text


def test_usage_is_an_estimate_of_four_characters_per_token():
    client, _ = offline_client(Script(say("x" * 40)))
    message = ask(client)
    assert message.usage.output_tokens == 10 == estimate_tokens("x" * 40)
    assert message.usage.input_tokens > 0
    assert message.usage.estimated is True


def test_max_tokens_cuts_the_text_and_says_so():
    client, _ = offline_client(Script(say("word " * 100)))
    message = ask(client, max_tokens=5)
    assert message.stop_reason == "max_tokens"
    assert message.usage.output_tokens == 5
    assert message.content[0].text == ("word " * 100)[:20]


def test_tool_call_cut_by_max_tokens_keeps_no_input():
    client, _ = offline_client(Script(reply("ok", call("bash", command="echo " + "x" * 200))))
    message = ask(client, max_tokens=10)
    assert message.stop_reason == "max_tokens"
    assert message.content[-1].type == "tool_use" and message.content[-1].input == {}


@pytest.mark.parametrize(
    "fault",
    [
        rate_limited(times=2, retry_after=0.01),
        overloaded(times=2, retry_after=0.01),
        server_error(times=2, retry_after=0.01),
    ],
    ids=["429", "529", "500"],
)
def test_transient_faults_are_recovered_by_sdk_retries(fault):
    script = Script(say("made it"))
    client, _ = offline_client(script, faults=[fault], max_retries=2)
    assert ask(client).content[0].text == "made it"
    assert fault.served == 2


@pytest.mark.parametrize(
    "status, error",
    [
        (429, anthropic.RateLimitError),
        (529, anthropic.InternalServerError),
        (500, anthropic.InternalServerError),
    ],
)
def test_persistent_faults_end_with_the_api_error(status, error):
    fault = Fault(status, times=None, retry_after=0.01)
    client, _ = offline_client(Script(say("never")), faults=[fault], max_retries=1)
    with pytest.raises(error) as caught:
        ask(client)
    assert caught.value.status_code == status
    assert "offline fault" in caught.value.message
    assert fault.served == 2  # the first try and one retry


def test_rate_limit_sends_retry_after():
    client, _ = offline_client(
        Script(say("x")), faults=[rate_limited(retry_after=7)], max_retries=0
    )
    with pytest.raises(anthropic.RateLimitError) as caught:
        ask(client)
    assert caught.value.response.headers["retry-after"] == "7"


def test_streaming_request_yields_the_same_message():
    client, model = offline_client(Script(reply("Listing.", call("bash", command="ls"))))
    with client.messages.stream(
        model=model, max_tokens=100, tools=[BASH], messages=[{"role": "user", "content": "ls"}]
    ) as stream:
        message = stream.get_final_message()
    assert [block.type for block in message.content] == ["text", "tool_use"]
    assert message.content[1].input == {"command": "ls"}
    assert message.stop_reason == "tool_use"


def test_count_tokens_and_models_endpoints():
    client, model = offline_client(Fallback())
    counted = client.messages.count_tokens(
        model=model, messages=[{"role": "user", "content": "hi"}]
    )
    assert counted.input_tokens > 0
    assert [entry.id for entry in client.models.list()] == [model]
