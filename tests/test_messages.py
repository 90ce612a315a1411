"""normalize_messages and check_history on the histories a loop really produces, and broken ones."""

import copy
from itertools import pairwise

import anthropic.types as t
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlib import normalize_messages, to_dict
from agentlib.messages import CANCELLED, content_blocks
from agentlib.protocol import check_history


def tool_use(id_, name="bash", **inp):
    return {"type": "tool_use", "id": id_, "name": name, "input": inp}


def result(id_, content="ok"):
    return {"type": "tool_result", "tool_use_id": id_, "content": content}


def test_sdk_blocks_become_dicts_instead_of_being_dropped():
    blocks = [
        t.TextBlock(type="text", text="listing", citations=None),
        t.ToolUseBlock(type="tool_use", id="toolu_1", name="bash", input={"command": "ls"}),
    ]
    history = [
        {"role": "user", "content": "list files"},
        {"role": "assistant", "content": blocks},
        {"role": "user", "content": [result("toolu_1")]},
    ]
    out = normalize_messages(history)
    assert out[1]["content"] == [
        {"type": "text", "text": "listing"},
        {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}},
    ]
    assert check_history(out) == []


def test_underscore_keys_are_stripped_and_input_is_untouched():
    history = [{"role": "user", "content": [{"type": "text", "text": "hi", "_seen_at": 3}]}]
    assert normalize_messages(history) == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    ]
    assert history[0]["content"][0]["_seen_at"] == 3


def test_orphaned_tool_use_gets_cancelled_result_right_after_it():
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [tool_use("a")]},
        {"role": "user", "content": "never mind, something else"},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    ]
    out = normalize_messages(history)
    assert out[2] == {
        "role": "user",
        "content": [
            result("a", CANCELLED),
            {"type": "text", "text": "never mind, something else"},
        ],
    }
    assert check_history(out) == []


def test_orphan_at_the_end_gets_a_new_user_message():
    history = [{"role": "user", "content": "go"}, {"role": "assistant", "content": [tool_use("a")]}]
    out = normalize_messages(history)
    assert out[-1] == {"role": "user", "content": [result("a", CANCELLED)]}


def test_consecutive_same_role_messages_are_merged():
    history = [{"role": "user", "content": "one"}, {"role": "user", "content": "two"}]
    assert normalize_messages(history) == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
        }
    ]


def test_partially_answered_round_only_cancels_the_missing_id():
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [tool_use("a"), tool_use("b")]},
        {"role": "user", "content": [result("a")]},
    ]
    out = normalize_messages(history)
    assert out[2]["content"] == [result("b", CANCELLED), result("a")]
    assert check_history(out) == []


def test_not_a_message_is_a_clear_error():
    with pytest.raises(ValueError, match="role"):
        normalize_messages([{"content": "who am I"}])


@pytest.mark.parametrize(
    ("history", "phrase"),
    [
        ([], "empty"),
        ([{"role": "assistant", "content": "hi"}], "must come from the user"),
        (
            [{"role": "user", "content": "a"}, {"role": "assistant", "content": [tool_use("x")]}],
            "no tool_result for that id",
        ),
        (
            [
                {"role": "user", "content": "a"},
                {"role": "assistant", "content": "b"},
                {"role": "user", "content": [result("ghost")]},
            ],
            "which no tool_use in the assistant message right before it asked for",
        ),
        ([{"role": "system", "content": "x"}], "only 'user' and 'assistant'"),
        (
            [
                {"role": "user", "content": "a"},
                {"role": "assistant", "content": [tool_use("x")]},
                {"role": "user", "content": [{"type": "text", "text": "b"}, result("x")]},
            ],
            "does not begin with its tool_result blocks",
        ),
        (
            [
                {"role": "user", "content": "a"},
                {"role": "assistant", "content": [tool_use("x"), tool_use("x")]},
                {"role": "user", "content": [result("x")]},
            ],
            "reuses the tool_use id x",
        ),
        (
            [{"role": "user", "content": []}, {"role": "assistant", "content": "b"}],
            "messages[0] has empty content",
        ),
        ([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b "}], "prefill"),
    ],
)
def test_check_history_explains_each_violation(history, phrase):
    problems = check_history(history)
    assert any(phrase in p for p in problems), problems


@pytest.mark.parametrize(
    ("calls", "sentence"),
    [
        (1, "its first block must be the tool_result, before any text."),
        (2, "its first 2 blocks must be the tool_result blocks, before any text."),
    ],
)
def test_text_before_the_results_is_explained_in_the_count_it_has(calls, sentence):
    ids = [f"t{i}" for i in range(calls)]
    history = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [tool_use(i) for i in ids]},
        {"role": "user", "content": [{"type": "text", "text": "b"}, *map(result, ids)]},
    ]
    assert any(p.endswith(sentence) for p in check_history(history)), check_history(history)


@pytest.mark.parametrize(
    "history",
    [
        # the API combines consecutive messages of one role: no need to alternate
        [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
        [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": [tool_use("x")]},
            {"role": "user", "content": [result("x")]},
            {"role": "user", "content": "and then?"},
        ],
        # a final assistant message is a prefill, and may be empty
        [{"role": "user", "content": "a"}, {"role": "assistant", "content": ""}],
    ],
)
def test_check_history_accepts_what_the_api_accepts(history):
    assert check_history(history) == []


def test_check_history_explains_content_that_is_not_content():
    assert check_history(
        [{"role": "user", "content": 42}, {"role": "assistant", "content": "x"}]
    ) == ["messages[0] has empty content; only a final assistant message (a prefill) may be empty."]


def test_to_dict_walks_nested_sdk_objects():
    msg = {"role": "assistant", "content": [t.TextBlock(type="text", text="x", citations=None)]}
    assert to_dict(msg) == {"role": "assistant", "content": [{"type": "text", "text": "x"}]}


ids = st.sampled_from(["a", "b", "c"])
blocks = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, st.text(min_size=1, max_size=5)),
    st.builds(lambda i: tool_use(i), ids),
    st.builds(lambda i: result(i), ids),
)
histories = st.lists(
    st.builds(
        lambda role, content: {"role": role, "content": content},
        st.sampled_from(["user", "assistant"]),
        st.one_of(st.text(min_size=1, max_size=5), st.lists(blocks, min_size=1, max_size=3)),
    ),
    max_size=6,
)


def answers_every_tool_use(history):
    """What normalize_messages promises: each tool_use is answered in the very next message."""
    for i, msg in enumerate(history):
        if msg["role"] != "assistant" or not isinstance(msg["content"], list):
            continue
        asked = {b["id"] for b in msg["content"] if b.get("type") == "tool_use"}
        nxt = history[i + 1]["content"] if i + 1 < len(history) else []
        answered = {b.get("tool_use_id") for b in nxt if isinstance(b, dict)}
        if not asked <= answered:
            return False
    return True


@settings(max_examples=300, deadline=None)
@given(histories)
def test_normalize_is_idempotent_alternates_roles_and_answers_every_tool_use(history):
    once = normalize_messages(history)
    assert normalize_messages(once) == once
    assert all(a["role"] != b["role"] for a, b in pairwise(once))
    assert answers_every_tool_use(once)


@settings(max_examples=300, deadline=None)
@given(histories)
def test_the_input_is_never_changed_and_sharing_changes_no_value(history):
    original = copy.deepcopy(history)
    out = normalize_messages(history)
    assert history == original
    assert out == normalize_messages(copy.deepcopy(history))


def test_a_clean_message_is_sent_as_it_is_and_one_with_notes_is_a_new_dict():
    question = {"role": "user", "content": "go"}
    noted = {"role": "assistant", "content": [{"type": "text", "text": "hi", "_meta": 1}]}
    out = normalize_messages([question, noted])
    assert out[0] is question  # nothing to clean: not copied again every round
    assert out[1] == {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}
    assert noted["content"][0]["_meta"] == 1  # the caller's history keeps its notes


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": "go", "extra": 1},  # a key the API does not know
        {"role": "user", "content": None},
        {"role": "user", "content": [{"type": "text", "text": "a"}, "not a block"]},
        {"role": "user", "content": [{"type": "text", "text": t.TextBlock(type="text", text="x")}]},
        {"role": "user", "content": ({"type": "text", "text": "a"},)},
    ],
)
def test_a_message_with_anything_to_clean_is_copied_clean(message):
    (out,) = normalize_messages([message])
    assert out is not message and set(out) == {"role", "content"}
    assert out == to_dict(normalize_messages([to_dict(message)])[0])


@pytest.mark.parametrize(
    ("content", "blocks"),
    [
        ("hi", [{"type": "text", "text": "hi"}]),
        ("", []),
        (None, []),
        ([{"type": "text", "text": "a"}, "not a block"], [{"type": "text", "text": "a"}]),
    ],
)
def test_content_blocks_reads_a_string_or_a_list_one_way(content, blocks):
    assert content_blocks(content) == blocks


def test_a_question_merged_before_the_results_moves_the_results_first():
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [tool_use("a")]},
        {"role": "user", "content": "and then?"},
        {"role": "user", "content": [result("a")]},
    ]
    out = normalize_messages(history)
    assert out[2]["content"] == [result("a"), {"type": "text", "text": "and then?"}]
    assert check_history(out) == []
