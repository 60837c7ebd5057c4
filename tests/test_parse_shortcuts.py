"""The builder's shortcuts (:mod:`hhparse.parsing`) read exactly as the steps they stand for.

A street line's brackets read without the regex when they are in a plain form, seat and pot
numbers looked up instead of parsed, the table line's words remembered: each must give what the
step it replaces gives, on random texts and on every real line, or a hand would change.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from hhparse import parsing
from hhparse.splitter import split_path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"

#: Texts a street line's board may hold: brackets, cards, blanks and a little else.
_REST = st.text(alphabet="[] AhKd2c\tx", max_size=24)


def _brackets_by_regex(rest: str) -> tuple[list[str], bool]:
    """The reference: the regex's groups, and whether ``rest`` is their plain form (as
    ``read_street`` tells it when the brackets' shortcut does not)."""
    groups: list[str] = parsing._BRACKET_RE.findall(rest)
    if len(groups) == 1:
        return groups, rest == f"[{groups[0]}]"
    if len(groups) == 2:
        return groups, rest == f"[{groups[0]}] [{groups[1]}]"
    return groups, False


@settings(max_examples=1500, deadline=None)
@given(_REST)
@example("[Ah Kd 2c]")
@example("[Ah Kd 2c] [3d]")
@example("[Ah] [Kd 2c]")
@example("[]")
@example("[] []")
@example("[a[b] [c]")
@example("[a] [b[c]")
@example("[a]b]")
@example("[a]] [b]")
@example("[a] [b] [c]")
@example("[a]  [b]")
@example("]")
@example("[")
@example("")
def test_a_street_lines_brackets_read_as_the_regex_reads_them(rest: str) -> None:
    """:func:`hhparse.parsing._brackets` gives the regex's groups for every text; where it says
    the text is their plain form, it is."""
    groups, plain = parsing._brackets(rest)
    expected, expected_plain = _brackets_by_regex(rest)
    assert groups == expected
    if plain:
        assert expected_plain


def test_every_sample_and_corpus_street_line_reads_its_brackets_without_the_regex(corpus_dir: Path) -> None:
    """On real boards (the 2016 client's mangled forms and damaged files included) the shortcut
    gives the regex's groups, and takes the plain ones itself."""
    street = re.compile(r"^\*\*\* (?:(?:FIRST|SECOND) )?(?:FLOP|TURN|RIVER) \*\*\* (\[.*\])$")
    rests = [
        m[1]
        for root in (SAMPLES, corpus_dir)
        for b in split_path(root)
        for line in b.text.splitlines()
        if (m := street.match(line.rstrip())) is not None
    ]
    assert len(rests) > 100
    shortcut = 0
    for rest in rests:
        groups, plain = parsing._brackets(rest)
        expected, expected_plain = _brackets_by_regex(rest)
        assert groups == expected, rest
        assert plain <= expected_plain, rest
        shortcut += plain
    assert shortcut >= len(rests) * 9 // 10  # (the shortcut is the usual way)


@settings(deadline=None)  # (the first example builds the parser)
@given(st.text(alphabet="0123456789\u0663 +-_", max_size=8))
@example("07")
@example("00")
@example("0")
@example("1")
@example("99")
@example("100")
@example("\u0663")
def test_a_seat_or_pot_number_reads_as_int_reads_it(text: str) -> None:
    """The looked-up numbers (:data:`hhparse.parsing._SMALL_NUMBERS`) are ``int`` of their text;
    any other text (a leading zero, a non-ASCII digit, no number) is read by ``int`` as before."""
    known = parsing._SMALL_NUMBERS.get(text)
    if known is not None:
        assert known == int(text) and str(known) == text
    try:
        expected = int(text) if len(text) <= 6 else parsing.SMALL_LIMIT
    except ValueError:
        assert known is None
        return
    builder = parsing._builder()
    builder.begin("<text>", 0)
    got = builder._small(text, 1)
    if expected < parsing.SMALL_LIMIT:
        assert got == expected and not builder.problems
    else:
        assert got == 0 and builder.problems


def test_a_table_lines_words_read_alike_remembered_or_not() -> None:
    """The table line's words (``TABLE_WORDS``) are read from a remembered match when the same
    words come again: every sample hand parses the same with the memo empty and full."""
    blocks = list(split_path(SAMPLES))[:80]
    parsing._WORDS.clear()
    first = [parsing.parse_block(b) for b in blocks]
    assert parsing._WORDS
    again = [parsing.parse_block(b) for b in blocks]
    assert again == first
    parsing._WORDS.clear()
    assert [parsing.parse_block(b) for b in reversed(blocks)] == list(reversed(first))
