"""The import's worker hashes the text the parse cleaned instead of normalising the block again
(:func:`hhparse.parsing.parse_block_hashable`): whenever the parse offers its text, that text
must be exactly what the content hash would normalise the block to, or a duplicate would be
taken for a conflict (and a conflict for a duplicate)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from hhparse import parsing
from hhparse.import_worker import process_blocks
from hhparse.splitter import Block, split_path
from hhparse.tables.build import content_hash, normalise_text

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"

#: Every character either normalising treats apart, and a little text around them.
_TEXTS = st.text(alphabet=" \n\r\t\f\v\ufeff*#xS", max_size=30)


@settings(max_examples=600, deadline=None)
@given(_TEXTS)
@example("\n x\n")
@example(" \nx\n")
@example("\ufeffx \n")
@example("x  \ny\n")
@example("x\f\n")
@example("x \n***********\n")
def test_the_parses_text_is_the_hashs_whenever_it_is_offered(raw: str) -> None:
    text, hashable = parsing._clean(raw)
    assert text.endswith("\n")
    if hashable:
        assert text[:-1] == normalise_text(raw)


def test_real_hands_offer_their_text_and_hash_the_same() -> None:
    blocks = list(split_path(SAMPLES))[:60]
    offered = 0
    for block in blocks:
        hand, norm = parsing.parse_block_hashable(block)
        assert hand == parsing.parse_block(block)
        if norm:
            offered += 1
            assert norm == normalise_text(block.text)
    assert offered >= len(blocks) - 2  # (the fast path is the usual one)
    crlf = Block(blocks[0].source, blocks[0].line, blocks[0].text.replace("\n", " \r\n"))
    assert parsing.parse_block_hashable(crlf)[1] == ""  # (left to the hash's own normalising)
    result = process_blocks([*blocks, crlf], ev=False)
    assert result.hashes == [content_hash(b.text) for b in [*blocks, crlf]]
    assert result.hashes[0] == result.hashes[-1]


_HEADER_WORDS = st.sampled_from(
    ["Hand", "Game", "Zoom Hand", "Home Game Hand", "Game #Mixed Hand", "Game #X1 Game", "Tournament"]
)


@settings(max_examples=400, deadline=None)
@given(
    site=st.sampled_from(["PokerStars", "PokerStars.it", "Stars2", "#1", ""]),
    kind=_HEADER_WORDS,
    hand_id=st.from_regex(r"\d{1,12}", fullmatch=True),
    body=st.sampled_from(
        ["Omaha Pot Limit ($0.10/$0.25 USD)", "Hand #77: x", "Game #5: y", "#9:", "Hold'em - 1"]
    ),
    gap=st.sampled_from([" ", "  ", "", ": "]),
    tail=st.sampled_from(
        [" - 2013/03/29 17:16:11 ET", " - 2013/3/9 7:16:11 CET [2013/03/29 11:16:11 ET]", " - x", ""]
    ),
)
@example(
    site="PokerStars",
    kind="Game #Mixed Hand",
    hand_id="1",
    body="Hand #2: x",
    gap=" ",
    tail=" - 2013/03/29 17:16:11 ET",
)
def test_a_headers_hand_id_is_the_first_one_on_its_line(
    site: str, kind: str, hand_id: str, body: str, gap: str, tail: str
) -> None:
    """:func:`hhparse.parsing._hand_id` takes a whole header's id from its match: it must be the
    first ``Hand #N:`` / ``Game #N:`` of the line, what searching the line finds (and the
    search's answer where the line is not a whole header)."""
    line = f"{site} {kind} #{hand_id}:{gap}{body}{tail}"
    header = parsing._builder().header_re.fullmatch(line)
    found = parsing._HAND_ID_RE.search(line)
    assert parsing._hand_id(line, header) == (found[1] if found else None)


def test_every_corpus_and_sample_header_gives_the_searched_hand_id(corpus_dir: Path) -> None:
    """The same on every block's first line of the samples and the real corpus (damaged files
    included)."""
    lines = [b.text[: b.text.find("\n")] for root in (SAMPLES, corpus_dir) for b in split_path(root)]
    assert len(lines) > 100
    for line in lines:
        found = parsing._HAND_ID_RE.search(line)
        header = parsing._builder().header_re.fullmatch(line)
        assert parsing._hand_id(line, header) == (found[1] if found else None), line
