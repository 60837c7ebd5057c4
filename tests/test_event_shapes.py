"""A table event line is tried against a kind's shape only when it holds the text the shape's
lines must hold (:func:`hhparse.parsing._literal_start`): that text must be sure, or a line of
that kind would be told apart as another kind, or as no event at all."""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse import parsing


@pytest.mark.parametrize(
    ("pattern", "start"),
    [
        ("leaves the table", "leaves the table"),
        ('said, "(?P<text>[^\\n]*)"', 'said, "'),
        ("joins the table at seat #(?P<seat>\\d+)", "joins the table at seat #"),
        ("abc?d", "ab"),
        ("abc*", "ab"),
        ("abc{0,2}", "ab"),
        ("abc+", "abc"),
        ("ab\\.c", "ab"),
        ("ab[cd]", "ab"),
        ("abc|abd", ""),
        ("ab(?:c|d)e", "ab"),
        ("[|]x", ""),
        ("(?i)abc", ""),
    ],
)
def test_the_literal_start_is_sure(pattern: str, start: str) -> None:
    assert parsing._literal_start(pattern) == start


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab?*+|()[]{}\\.1,", max_size=12), st.text(alphabet="ab.|[]()\\{}", max_size=8))
def test_every_match_starts_with_the_literal_start(pattern: str, tail: str) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ("possible nested set": "[[" is a valid class today)
            rx = re.compile(pattern)
    except re.error:
        return
    start = parsing._literal_start(pattern)
    for text in (start + tail, tail, pattern, "a" + tail, "ab" + tail):
        m = rx.match(text)
        if m is not None:
            assert m[0].startswith(start) or not start


def test_every_table_event_shape_has_a_text_to_look_for() -> None:
    builder = parsing._builder()
    assert len(builder.event_shapes) == len(parsing._EVENT_SHAPES)
    for (needle, rx, _), (_, sep, _) in zip(builder.event_shapes, parsing._EVENT_SHAPES, strict=True):
        assert len(needle) > len(sep) + 3, rx.pattern
