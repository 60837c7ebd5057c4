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


def _clean_searching_first(raw: str) -> tuple[str, bool]:
    """:func:`hhparse.parsing._clean` as it was written before its steps were made to read the
    text once (a search before the replace, the last line end always copied): the reference."""
    hashable = True
    if "\r" in raw or "\t" in raw:
        raw = parsing._TRAILING_WS_RE.sub("", raw)
        hashable = False
    elif " \n" in raw or raw[-1:] == " ":
        raw = raw.replace(" \n", "\n")
        if " \n" in raw:
            raw = parsing._TRAILING_WS_RE.sub("", raw)
            hashable = False
        raw = raw.rstrip(" ")
    text = raw.rstrip("\n") + "\n"
    if text[text.rfind("\n", 0, len(text) - 1) + 1 : -1][:1] == "*":
        cut = parsing._without_separators(text)
        hashable = hashable and cut is text
        text = cut
    if hashable and (text[:1] == "\n" or text[:1] == "\ufeff" or "\f" in text or "\v" in text):
        hashable = False
    return text, hashable


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=" \n\r\t\f\v\ufeff*#xS", max_size=40))
@example("")
@example("\n")
@example("x")
@example("x \n")
@example("x\n\n")
@example("x  \n*********** # 2 ***\n")
@example("x\n***********\n\n")
def test_the_one_read_steps_clean_as_the_searching_ones(raw: str) -> None:
    """Reading the text once (no search before the replace, no copy of a text already ending in
    one line end) changes neither the text the grammar reads nor whether it is offered for the
    hash (separator lines and blanks before line ends in every combination)."""
    assert parsing._clean(raw) == _clean_searching_first(raw)


def test_the_one_read_steps_clean_every_sample_and_corpus_block_alike(corpus_dir: Path) -> None:
    blocks = [b for root in (SAMPLES, corpus_dir) for b in split_path(root)]
    assert len(blocks) > 100
    for block in blocks:
        assert parsing._clean(block.text) == _clean_searching_first(block.text), block.line
