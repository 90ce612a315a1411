"""agent_loop on the real SDK over the offline transport, with a scripted model and real tools."""

import threading
import time

import anthropic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentlib import OUT_OF_ROUNDS, Toolbox, Workspace, agent_loop, s01_tools, tool
from agentlib.offline import Reply, Script, call, offline_client, reply, say
from agentlib.protocol import check_history


def run(script, tools, messages=None, **kw):
    client, model = offline_client(script)
    messages = messages if messages is not None else [{"role": "user", "content": "go"}]
    return agent_loop(messages, client=client, model=model, tools=tools, **kw)


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path, isolation="none")


def test_one_tool_round_then_answer(ws):
    script = Script(call("bash", command="echo hello"), say("It printed hello."))
    state = run(script, s01_tools(ws))
    assert state.stop_reason == "end_turn" and state.rounds == 2
    assert [m["role"] for m in state.messages] == ["user", "assistant", "user", "assistant"]
    use = state.messages[1]["content"][0]
    assert state.messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": use["id"], "content": "hello"}
    ]
    assert check_history(state.messages) == []


def test_the_whole_history_is_sent_every_round(ws):
    script = Script(call("bash", command="true"), call("bash", command="true"), say("done"))
    run(script, s01_tools(ws))
    assert [len(r["messages"]) for r in script.requests] == [1, 3, 5]


def test_results_of_a_round_come_back_in_one_message_in_call_order(ws):
    script = Script(
        reply(call("bash", command="echo one"), call("bash", command="echo two")), say("ok")
    )
    state = run(script, s01_tools(ws))
    ids = [b["id"] for b in state.messages[1]["content"]]
    results = state.messages[2]["content"]
    assert [r["tool_use_id"] for r in results] == ids
    assert [r["content"] for r in results] == ["one", "two"]


def test_tool_calls_in_a_max_tokens_reply_are_never_run(ws):
    script = Script(
        Reply(
            [{"type": "tool_use", "name": "bash", "input": {"command": "touch ran"}}],
            stop_reason="max_tokens",
        )
    )
    state = run(script, s01_tools(ws))
    assert state.stop_reason == "max_tokens" and "not run" in state.why
    assert not (ws.root / "ran").exists()


def test_pause_turn_continues(ws):
    script = Script(
        Reply([{"type": "text", "text": "thinking"}], stop_reason="pause_turn"), say("done")
    )
    state = run(script, s01_tools(ws))
    assert (state.rounds, state.stop_reason) == (2, "end_turn")


def test_the_round_limit_ends_a_runaway_loop_and_says_how_many_rounds(ws):
    script = Script(*[call("bash", command="true") for _ in range(5)])
    state = run(script, s01_tools(ws), max_rounds=3)
    assert (state.stop_reason, state.rounds) == (OUT_OF_ROUNDS, 3)
    assert state.why == "the round limit was reached: 3 rounds without a final answer"
    assert check_history(state.messages) == []


def test_unknown_tool_and_bad_input_become_error_results_and_the_loop_goes_on(ws):
    script = Script(reply(call("teleport", to="mars"), call("bash", cmd="ls")), say("I will stop."))
    state = run(script, s01_tools(ws))
    first, second = state.messages[2]["content"]
    assert first["is_error"] and first["content"].startswith("Error: Unknown tool: teleport")
    assert second["is_error"] and "command: Field required" in second["content"]
    assert state.stop_reason == "end_turn"


def test_events_tell_the_story_of_the_run(ws):
    seen = []
    script = Script(call("bash", command="echo hi"), say("done"))
    state = run(script, s01_tools(ws), on_event=seen.append)
    assert [e.kind for e in seen] == [
        "round_started",
        "model_replied",
        "tool_ran",
        "round_started",
        "model_replied",
        "finished",
    ]
    assert seen == state.events
    assert seen[2].round == 1 and seen[2].output == "hi" and not seen[2].is_error
    assert seen[1].usage["input_tokens"] > 0


def test_system_prompt_and_max_tokens_reach_the_api(ws):
    script = Script(say("ok"))
    run(script, s01_tools(ws), system="You are a coding agent at /x.", max_tokens=123)
    request = script.requests[0]
    assert request["system"] == "You are a coding agent at /x." and request["max_tokens"] == 123
    assert request["tools"][0]["name"] == "bash"


def test_broken_history_is_a_clear_api_error_and_nothing_is_lost(ws):
    history = [{"role": "assistant", "content": "I speak first"}]
    with pytest.raises(anthropic.BadRequestError, match="first message"):
        run(Script(say("never")), s01_tools(ws), messages=history)
    assert history == [{"role": "assistant", "content": "I speak first"}]


def test_a_cut_off_tool_use_is_cancelled_on_the_next_question(ws):
    cut = Reply(
        [{"type": "tool_use", "name": "bash", "input": {"command": "ls"}}], stop_reason="max_tokens"
    )
    script = Script(cut, say("fresh answer"))
    history = [{"role": "user", "content": "one"}]
    run(script, s01_tools(ws), messages=history)
    history.append({"role": "user", "content": "two"})
    state = run(script, s01_tools(ws), messages=history)
    assert state.stop_reason == "end_turn"
    assert script.requests[1]["messages"][2]["content"][0]["content"] == "(cancelled)"


def test_read_only_calls_of_one_round_run_concurrently_and_writes_in_order():
    active, peak, order = [0], [0], []
    lock = threading.Lock()

    def slow(label):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.2)
        with lock:
            active[0] -= 1
            order.append(label)
        return label

    @tool(read_only=True)
    def peek(label: str) -> str:
        """Read something slowly.

        Args:
            label: A name for the call.
        """
        return slow(label)

    @tool
    def poke(label: str) -> str:
        """Change something slowly.

        Args:
            label: A name for the call.
        """
        return slow(label)

    calls = [call("peek", label=f"r{i}") for i in range(3)] + [
        call("poke", label="w1"),
        call("poke", label="w2"),
    ]
    state = run(Script(reply(*calls), say("ok")), Toolbox([peek, poke]))
    assert peak[0] == 3  # the three reads overlapped
    assert order[3:] == ["w1", "w2"]  # the writes ran alone, after the reads, in order
    assert [r["content"] for r in state.messages[2]["content"]] == ["r0", "r1", "r2", "w1", "w2"]


tool_inputs = st.dictionaries(
    st.sampled_from(["command", "cmd", "path", ""]),
    st.none() | st.integers() | st.text(max_size=20) | st.lists(st.integers(), max_size=2),
    max_size=3,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    calls=st.lists(
        st.tuples(st.sampled_from(["bash", "nope", "read_file"]), tool_inputs),
        min_size=1,
        max_size=3,
    )
)
def test_whatever_the_model_sends_the_history_stays_valid(tmp_path, calls):
    ws = Workspace(tmp_path, isolation="none")
    safe = [
        (n, {k: v for k, v in i.items() if k != "command"}) for n, i in calls
    ]  # never run commands
    script = Script(reply(*[call(n, i) for n, i in safe]), say("done"))
    state = run(script, s01_tools(ws))
    assert state.stop_reason == "end_turn"
    assert check_history(state.messages) == []
    assert all(r.get("is_error") for r in state.messages[2]["content"])


def test_a_dead_endpoint_is_a_clear_config_error_and_the_history_is_kept(ws):
    import socket

    from agentlib.errors import ConfigError

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = anthropic.Anthropic(
        api_key="placeholder", base_url=f"http://127.0.0.1:{port}", max_retries=0
    )
    history = [{"role": "user", "content": "hi"}]
    with pytest.raises(ConfigError, match=r"Cannot reach the API .*ANTHROPIC_BASE_URL"):
        agent_loop(history, client=client, model="any", tools=s01_tools(ws))
    assert history == [{"role": "user", "content": "hi"}]
