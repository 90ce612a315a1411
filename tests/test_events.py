"""The loop's events: built with keywords; each round reports what it sent, and stores no copy of the history."""

import pytest

from agentlib import Toolbox, agent_loop, tool
from agentlib.events import Finished, ModelReplied, RoundStarted, ToolRan
from agentlib.offline import Reply, Script, call, offline_client, say
from agentlib.widgets.trace import Trace


@tool
def echo(text: str) -> str:
    """Return the text.

    Args:
        text: Anything.
    """
    return text


def run(*replies):
    script = Script(*replies)
    client, model = offline_client(script)
    state = agent_loop(
        [{"role": "user", "content": "go"}], client=client, model=model, tools=Toolbox([echo])
    )
    return state, script


@pytest.mark.parametrize("event", [RoundStarted, ModelReplied, ToolRan, Finished])
def test_events_are_built_with_keywords_only(event):
    with pytest.raises(TypeError):
        event(1, [], "end_turn")


def test_each_round_reports_exactly_what_it_sent():
    state, script = run(*[call("echo", text=f"r{i}") for i in range(4)], say("done"))
    started = [e for e in state.events if isinstance(e, RoundStarted)]
    assert [e.messages for e in started] == [r["messages"] for r in script.requests]
    assert [len(e.messages) for e in started] == [1, 3, 5, 7, 9]


def test_a_round_keeps_what_it_sent_and_stores_each_message_once():
    state, _ = run(*[call("echo", text=f"r{i}") for i in range(6)], say("done"))
    started = [e for e in state.events if isinstance(e, RoundStarted)]
    assert started[0].messages == [{"role": "user", "content": "go"}]  # the run grew on: not this
    every_message = {id(m) for e in started for m in e.messages}
    assert len(every_message) == len(started[-1].messages)  # memory grows with the history only


def test_a_paused_turn_merged_into_the_last_message_keeps_what_earlier_rounds_sent():
    paused = [
        Reply([{"type": "text", "text": f"part {i}"}], stop_reason="pause_turn") for i in (1, 2)
    ]
    state, script = run(*paused, say("done"))
    started = [e for e in state.events if isinstance(e, RoundStarted)]
    assert [e.messages for e in started] == [r["messages"] for r in script.requests]
    assert started[2].messages[1]["content"] == [
        {"type": "text", "text": "part 1"},
        {"type": "text", "text": "part 2"},
    ]


def test_the_diagram_sees_the_same_rounds_from_shared_or_copied_histories():
    paused = [
        Reply([{"type": "text", "text": f"part {i}"}], stop_reason="pause_turn") for i in (1, 2)
    ]
    state, _ = run(call("echo", text="a"), *paused, say("done"))
    copied = [
        RoundStarted(round=e.round, messages=[dict(m) for m in e.messages])
        if isinstance(e, RoundStarted)
        else e
        for e in state.events
    ]
    shared = Trace.from_events(state.events).to_dict()
    assert shared == Trace.from_events(copied).to_dict()
    assert [r["rewritten"] for r in shared["rounds"]] == [False, False, False, True]
