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
