"""The one clipper: at most ``limit`` characters, and the marker says exactly how many were cut."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlib.text import as_text, clip, cut_marker

MARKER = re.compile(r"\[… (\d+) of (\d+) characters cut …\]")


def test_short_text_is_left_as_it_is():
    assert clip("hello", 5) == "hello"


def test_the_start_is_kept_and_the_marker_counts_what_was_cut():
    text = "0123456789" * 10
    out = clip(text, 40)
    kept = out.partition("[…")[0]
    assert out == kept + cut_marker(f"{len(text) - len(kept)} of {len(text)} characters")
    assert len(out) == 40 and text.startswith(kept)


def test_keep_end_keeps_the_start_and_the_end():
    text = "".join(f"line {i}\n" for i in range(1000))
    out = clip(text, 200, keep_end=True)
    assert out.startswith("line 0\n") and out.endswith("line 999\n") and len(out) == 200


# the limit starts where the longest marker for these texts fits: clip documents that a limit
# shorter than its marker ("[… 300 of 300 characters cut …]", 31 characters) is exceeded
@given(st.text(max_size=300), st.integers(min_value=31, max_value=200), st.booleans())
def test_clip_never_exceeds_the_limit_and_accounts_for_every_character(text, limit, keep_end):
    out = clip(text, limit, keep_end=keep_end)
    assert len(out) <= limit
    if len(text) <= limit:
        assert out == text
        return
    marker = MARKER.search(out)
    assert marker is not None
    head, tail = out[: marker.start()], out[marker.end() :]
    assert len(head) + len(tail) + int(marker.group(1)) == int(marker.group(2)) == len(text)
    assert text.startswith(head) and text.endswith(tail) and (keep_end or tail == "")


@pytest.mark.parametrize(
    ("value", "text"), [("é", "é"), ({"a": [1]}, '{"a": [1]}'), (None, "null")]
)
def test_as_text_keeps_strings_and_writes_the_rest_as_json(value, text):
    assert as_text(value) == text


def test_as_text_falls_back_to_str_when_json_cannot_hold_the_value():
    loop: list = []
    loop.append(loop)
    assert as_text(loop) == "[[...]]"


def test_a_limit_shorter_than_the_marker_gives_the_marker_alone():
    # 31 characters, as documented
    assert clip("0" * 100, 30) == cut_marker("100 of 100 characters")
