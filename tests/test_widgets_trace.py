"""Folding loop events (or a bare history) into the per-round trace the diagram draws."""

from __future__ import annotations

import json

import pytest
import widget_examples as examples

from agentlib import Toolbox
from agentlib.events import Finished, ModelReplied, RoundStarted, ToolRan
from agentlib.loop import WHY
from agentlib.widgets import to_trace
from agentlib.widgets.history import trace_from_messages
from agentlib.widgets.trace import MAX_CHARS, Trace
from agentlib.widgets.words import stop_words, words


def history_of(events) -> list[dict]:
    """The final history a run of these events leaves behind (last sent + last reply)."""
    sent = [e for e in events if isinstance(e, RoundStarted)][-1].messages
    reply = [e for e in events if isinstance(e, ModelReplied)][-1].message
    return [*sent, reply]


def test_each_round_carries_only_the_messages_new_since_the_last():
    trace = Trace.from_events(examples.long_run(5))
    assert [r["sent_count"] for r in trace.rounds] == [1, 3, 5, 7, 9]
    assert [r["sent_start"] for r in trace.rounds] == [0, 1, 3, 5, 7]
    assert [len(r["sent_new"]) for r in trace.rounds] == [1, 2, 2, 2, 2]
    assert [m["role"] for m in trace.rounds[2]["sent_new"]] == ["assistant", "user"]


def test_a_rewritten_history_is_sent_whole():
    first = [{"role": "user", "content": "hi"}]
    rewritten = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "x"}]
    trace = Trace()
    trace.add(RoundStarted(round=1, messages=first))
    trace.add(RoundStarted(round=2, messages=[*rewritten, {"role": "user", "content": "more"}]))
    assert trace.rounds[1]["rewritten"] is True
    assert trace.rounds[1]["sent_start"] == 0 and len(trace.rounds[1]["sent_new"]) == 3


def test_tool_calls_pair_with_results_by_id_not_order():
    events = examples.parallel_tools()
    ran = [e for e in events if isinstance(e, ToolRan)]
    swapped = [e for e in events if not isinstance(e, ToolRan)]
    swapped[2:2] = list(reversed(ran))  # results arrive in the other order
    tools = Trace.from_events(swapped).rounds[0]["tools"]
    assert {t["id"]: t["output"] for t in tools} == {"toolu_01": "alpha", "toolu_02": "beta"}
    assert Trace.from_events(swapped).rounds[0]["unanswered"] == []


def test_max_tokens_leaves_the_call_unanswered_and_explains_it():
    trace = Trace.from_events(examples.max_tokens())
    r = trace.rounds[0]
    assert r["unanswered"] == ["toolu_01"] and r["tools"] == []
    assert r["next"] == "return without running any tool call in the truncated reply"
    assert len(trace.problems) == 1 and "unanswered tool_use" in trace.problems[0]


def test_every_stop_reason_the_loop_explains_is_explained_in_the_diagram():
    for reason, why in WHY.items():
        meaning, next_step = stop_words(words("en"), reason)
        assert meaning and next_step and not meaning.startswith("an unfamiliar")
        assert meaning == why or reason == "max_tokens"  # the loop's own words, one shortened


def test_a_sent_history_with_a_missing_tool_result_is_explained():
    bad = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}],
        },
        {"role": "user", "content": "no result here"},
    ]
    trace = Trace.from_events([RoundStarted(round=1, messages=bad)])
    assert trace.problems and trace.problems[0].startswith(
        "Round 1: messages[1] asks for tool 'bash'"
    )
    more = [*bad, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "go on"}]
    trace.add(RoundStarted(round=2, messages=more))  # the same broken message, sent again
    assert len(trace.problems) == 1


def test_the_turn_fuse_is_named_on_the_last_round():
    events = examples.long_run(3)[:-3]  # drop the final answer round and Finished
    events.append(Finished(round=2, stop_reason="max_rounds", why="the round limit was reached"))
    trace = Trace.from_events(events)
    assert trace.finished["stop_reason"] == "max_rounds"
    assert (
        trace.rounds[-1]["next"] == "the round limit was reached (max_rounds): the loop stops here"
    )


@pytest.mark.parametrize("case", sorted(examples.CASES))
def test_a_history_alone_gives_the_same_rounds(case):
    events = examples.CASES[case]()
    full, bare = Trace.from_events(events), trace_from_messages(history_of(events))
    keys = ("sent_count", "sent_start", "sent_new", "reply")
    assert [[r[k] for k in keys] for r in bare.rounds] == [
        [r[k] for k in keys] for r in full.rounds
    ]
    outputs = [[(t["id"], t["output"], t["is_error"]) for t in r["tools"]] for r in bare.rounds]
    assert outputs == [
        [(t["id"], t["output"], t["is_error"]) for t in r["tools"]] for r in full.rounds
    ]
    assert bare.stops_inferred and not full.stops_inferred  # said once by the views
    assert all("inferred" not in r["meaning"] and r["duration_s"] is None for r in bare.rounds)


def test_to_trace_accepts_events_messages_and_state_like_objects():
    events = examples.single_tool()

    class State:  # the shape of LoopState: .events and .messages
        def __init__(self, events, messages):
            self.events, self.messages = events, messages

    assert to_trace(events).to_dict() == Trace.from_events(events).to_dict()
    assert to_trace(State(events, [])).to_dict() == Trace.from_events(events).to_dict()
    assert len(to_trace(State([], history_of(events))).rounds) == 2
    assert len(to_trace(history_of(events)).rounds) == 2


TOOLBOX = [
    {"name": "bash", "description": "Run it.\n\nArgs: ...", "input_schema": {"type": "object"}},
    {"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}},
    {"name": "write_file", "description": "", "input_schema": {"type": "object"}},
]
OFFERED = [
    {"name": "bash", "description": "Run it."},
    {"name": "read_file", "description": "Read a file."},
    {"name": "write_file", "description": ""},
]


@pytest.mark.parametrize("run", ["events", "history"])
def test_the_toolbox_offered_travels_with_the_trace(run):
    events = examples.single_tool()  # it calls bash only
    source = events if run == "events" else history_of(events)
    assert to_trace(source, tools=TOOLBOX).to_dict()["toolbox"] == OFFERED
    names = [t["name"] for t in OFFERED]
    assert [t["name"] for t in to_trace(source, tools=names).meta()["toolbox"]] == names
    assert to_trace(source).meta()["toolbox"] == []  # not told: the views fall back on the calls
    box = Toolbox.from_dicts(TOOLBOX, {t["name"]: lambda: "" for t in TOOLBOX})
    assert to_trace(source, tools=box).meta()["toolbox"] == OFFERED
    assert to_trace(source, tools=list(box)).meta()["toolbox"] == OFFERED


def test_long_strings_are_clipped_and_say_so():
    big = "x" * (MAX_CHARS + 500)
    trace = Trace.from_events([RoundStarted(round=1, messages=[{"role": "user", "content": big}])])
    text = trace.rounds[0]["sent_new"][0]["blocks"][0]["text"]
    kept = text.partition("[…")[0]
    assert kept == "x" * len(kept) and len(text) == MAX_CHARS
    assert text.endswith(f"[… {len(big) - len(kept)} of {len(big)} characters cut …]")


def test_offline_is_read_from_the_model_id_unless_given():
    assert Trace.from_events(examples.no_tools()).offline is True
    assert Trace.from_events(examples.no_tools(), offline=False).offline is False
    live = [
        ModelReplied(
            round=1,
            message={"role": "assistant", "content": []},
            stop_reason="end_turn",
            usage={},
            model="some-model",
            duration_s=0.1,
        )
    ]
    assert Trace.from_events(live).offline is False


def test_the_trace_is_json():
    trace = Trace.from_events(examples.hostile_output()).to_dict()
    assert json.loads(json.dumps(trace)) == trace
