"""The anywidget view: its output bundle, live updates of one round each, and catching up a late view."""

from __future__ import annotations

import json
from typing import ClassVar

import comm
import pytest
import widget_examples as examples

from agentlib.widgets import RoundDiagram, live, show
from agentlib.widgets.trace import Trace

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class RecordingComm(comm.DummyComm):
    """A comm that keeps every message it would send to the front end."""

    sent: ClassVar[list[dict]] = []

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        RecordingComm.sent.append({"msg_type": msg_type, "data": data})


@pytest.fixture
def front_end(monkeypatch):
    RecordingComm.sent = []
    monkeypatch.setattr(comm, "create_comm", lambda *a, **k: RecordingComm(*a, **k))
    return RecordingComm.sent


def test_bundle_has_widget_view_html_and_text():
    data, _metadata = show(examples.tool_error())._repr_mimebundle_()
    assert set(data) == {WIDGET_MIME, "text/html", "text/plain"}
    assert "ERROR" in data["text/html"] and "Round 2 of 2" in data["text/plain"]
    assert data[WIDGET_MIME]["model_id"]


def test_live_diagram_sends_one_round_per_event(front_end):
    diagram = live(display=False)
    front_end.clear()
    events = examples.long_run(30)
    for event in events:
        diagram.on_event(event)
    updates = [m["data"]["state"] for m in front_end if m["data"].get("method") == "update"]
    assert len(updates) == len(events)
    assert all(set(u) == {"patch"} for u in updates)  # the snapshot is never resent
    assert [u["patch"]["round"]["index"] for u in updates] == [e.round for e in events]
    sizes = [len(json.dumps(u)) for u in updates if u["patch"]["round"]["index"] in (5, 25)]
    assert max(sizes) < 1.3 * min(sizes)  # round 25 costs what round 5 did
    assert diagram.trace.to_dict() == Trace.from_events(events).to_dict()


def test_static_copy_follows_the_run():
    diagram = live(display=False)
    for event in examples.single_tool():
        diagram.on_event(event)
    data, _ = diagram._repr_mimebundle_()
    assert "Round 2 of 2" in data["text/plain"] and "a.txt" in data["text/html"]


def test_a_late_view_gets_the_rounds_it_asks_for(front_end):
    diagram = RoundDiagram()
    for event in examples.long_run(6):
        diagram.on_event(event)
    front_end.clear()
    request = {"method": "custom", "content": {"type": "resend", "rounds": [2, 4]}}
    diagram._handle_msg({"content": {"data": request}, "buffers": []})
    (answer,) = [m["data"] for m in front_end]
    assert answer["method"] == "custom"
    assert [r["index"] for r in answer["content"]["rounds"]] == [2, 4]
    assert answer["content"]["round_count"] == 6


def test_the_toolbox_reaches_every_patch(front_end):
    offered = ["bash", "read_file", "glob"]
    diagram = live(display=False, tools=offered)
    for event in examples.single_tool():
        diagram.on_event(event)
    patches = [json.dumps(m["data"]) for m in front_end if "patch" in json.dumps(m["data"])]
    assert patches and all('"toolbox": [{"name": "bash"' in p for p in patches)
    snapshot = show(examples.single_tool(), tools=offered).snapshot
    assert [t["name"] for t in snapshot["toolbox"]] == offered


def test_offline_flag_labels_tokens():
    assert "estimated" in show(examples.no_tools()).to_text()
    assert "estimated" not in show(examples.no_tools(), offline=False).to_text()


def test_real_offline_loop_is_drawn():
    offline = pytest.importorskip(
        "agentlib.offline", reason="the offline model is not in this tree yet"
    )
    from agentlib import Toolbox, agent_loop, tool

    @tool(read_only=True)
    def shout(text: str) -> str:
        """Return the text in capitals.

        Args:
            text: what to shout
        """
        return text.upper()

    script = offline.Script(
        offline.reply("Shouting.", offline.call("shout", text="<b>hi</b>")), "It says HI."
    )
    client, model = offline.offline_client(script)
    diagram = live(display=False)
    state = agent_loop(
        [{"role": "user", "content": "shout hi"}],
        client=client,
        model=model,
        tools=Toolbox([shout]),
        on_event=diagram.on_event,
    )
    text = diagram.to_text()
    assert state.stop_reason == "end_turn"
    assert "shout (toolu_" in text and "output: <B>HI</B>" in text and "(estimated)" in text
    assert "&lt;B&gt;HI&lt;/B&gt;" in diagram.to_html()
    assert show(state).trace.to_dict() == diagram.trace.to_dict()


def test_the_widget_carries_the_words_of_its_language_once():
    from agentlib.widgets.words import words

    diagram = live(display=False, lang="zh")
    assert diagram.snapshot["words"] == words("zh") and diagram.snapshot["lang"] == "zh"
    for event in examples.single_tool():
        diagram.on_event(event)
    assert "words" not in diagram.patch["meta"]  # a live round does not carry them again
    assert diagram.trace.rounds[0]["next"].startswith("运行每个工具")


def test_a_trace_keeps_its_language():
    trace = Trace.from_events(examples.no_tools(), lang="zh")
    assert show(trace).trace is trace
    with pytest.raises(ValueError, match="this Trace speaks 'zh': build it with lang='en'"):
        show(trace, lang="en")
