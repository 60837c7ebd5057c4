"""The chunked path of ``split_stream`` gives exactly the blocks of the line-based splitter.

Two references: :func:`reference` is the splitter as it was before the chunked path (every line
through ``split_lines`` over ``_decoded_lines``; both are still in the module, for UTF-16 and for
other callers), and :func:`spec` decodes a whole file by the documented rules, independently of
either path. Inputs: the real corpus (every file, read in place), crafted files for each odd case
we know of, every chunk boundary of a small file, and random files from a small alphabet of line
pieces read with random chunk sizes and short reads.
"""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse import splitter
from hhparse.splitter import (
    BLOCK_BINARY,
    BLOCK_HAND,
    HEADER_RE,
    Block,
    iter_files,
    split_file,
    split_lines,
    split_path,
    split_stream,
)

# --------------------------------------------------------------------------------------------
# References and streams
# --------------------------------------------------------------------------------------------


def reference(stream: BinaryIO, source: str) -> Iterator[Block]:
    """``split_stream`` without the chunked path: one line at a time through ``split_lines``."""
    head = stream.read(splitter._CHUNK)
    utf16 = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if b"\x00" in head and not utf16 and not splitter._HEADER_BYTES_RE.search(head):
        yield Block(source, 1, head[:200].decode("latin-1"), BLOCK_BINARY)
        return
    yield from split_lines(splitter._decoded_lines(splitter._buffered(head, stream)), source)


def _spec_line(raw: bytes) -> str:
    """The documented decoding of one line: UTF-8, else its valid UTF-8 sequences kept and every
    other byte read as cp1252 (U+FFFD for the five bytes cp1252 leaves undefined)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = []
    i = 0
    while i < len(raw):
        for n in (4, 3, 2, 1):  # the longest valid UTF-8 sequence starting here
            try:
                out.append(raw[i : i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(raw[i : i + 1].decode("cp1252", errors="replace"))
            i += 1
    return "".join(out)


def spec(data: bytes, source: str) -> list[Block]:
    """The documented decoding of a whole UTF-8/cp1252 file (no UTF-16, no NUL in its head, no
    line over the cap), line by line, then ``split_lines``."""
    raws = data.split(b"\n")
    if raws[-1] == b"":
        raws.pop()
    lines = []
    for n, raw in enumerate(raws):
        size = len(raw)  # a line over the cap: its first bytes (the file's BOM counts), its size
        if n == 0:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if size > splitter._LINE_CAP:
            lines.append(
                _spec_line(raw[: splitter._LINE_CAP - (size - len(raw))]) + f"\u2026 [{size:,} bytes]"
            )
        else:
            lines.append(_spec_line(raw.rstrip(b"\r")))
    return list(split_lines(lines, source))


class ShortReads(io.RawIOBase):
    """A non-seekable stream (stdin, a pipe) whose reads return 1..``most`` bytes at random."""

    def __init__(self, data: bytes, seed: int, most: int = 97, first: int | None = None) -> None:
        self._data = memoryview(data)
        self._pos = 0
        self._rng = random.Random(seed)
        self._most = most
        self._first = first  # the size of the first read, if given
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = self._rng.randint(1, self._most) if self._first is None else self._first
        self._first = None
        n = min(len(buffer), n, len(self._data) - self._pos)
        buffer[:n] = self._data[self._pos : self._pos + n]
        self._pos += n
        self.served += n
        return n


@contextmanager
def sizes(read: int | None = None, chunk: int | None = None) -> Iterator[None]:
    """Small ``_READ`` / ``_CHUNK`` so that chunk boundaries fall everywhere (hypothesis-safe)."""
    saved = splitter._READ, splitter._CHUNK
    try:
        if read is not None:
            splitter._READ = min(read, splitter._LINE_CAP)
        if chunk is not None:
            splitter._CHUNK = min(chunk, splitter._LINE_CAP)
        yield
    finally:
        splitter._READ, splitter._CHUNK = saved


@contextmanager
def limits(line: int, hand: int, keep: int, cap: int) -> Iterator[None]:
    """Small line and hand limits, so that too-long lines and hands are cheap to build."""
    names = ("MAX_LINE", "MAX_HAND", "KEEP", "_LINE_CAP", "_READ", "_CHUNK")
    saved = [getattr(splitter, n) for n in names]
    try:
        splitter.MAX_LINE, splitter.MAX_HAND, splitter.KEEP, splitter._LINE_CAP = line, hand, keep, cap
        splitter._READ, splitter._CHUNK = min(splitter._READ, cap), min(splitter._CHUNK, cap)
        yield
    finally:
        for n, v in zip(names, saved, strict=True):
            setattr(splitter, n, v)


def _outcome(blocks: Iterable[Block]) -> list[Block] | type[BaseException]:
    try:
        return list(blocks)
    except Exception as exc:  # UTF-16 decoding errors: both paths must fail alike
        return type(exc)


def _stream(data: bytes, seed: int | None) -> BinaryIO:
    return cast(BinaryIO, io.BytesIO(data) if seed is None else ShortReads(data, seed))


def check(data: bytes, *, read: int | None = None, chunk: int | None = None, seed: int | None = None) -> None:
    """The chunked path equals the reference (and the spec where it applies) on ``data``.

    ``seed`` reads through :class:`ShortReads`, bare (stdin) and wrapped as the importer does.
    """
    with sizes(read, chunk):
        expected = _outcome(reference(_stream(data, seed), "src"))
        got = _outcome(split_stream(_stream(data, seed), "src"))
        assert got == expected
        if seed is not None:
            wrapped = [io.BufferedReader(ShortReads(data, seed), buffer_size=splitter._CHUNK) for _ in "ab"]
            expected_wrapped = _outcome(reference(cast(BinaryIO, wrapped[0]), "src"))
            assert _outcome(split_stream(cast(BinaryIO, wrapped[1]), "src")) == expected_wrapped
        head = _stream(data, seed).read(splitter._CHUNK)
        if b"\x00" not in head and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            assert got == spec(data, "src")


# --------------------------------------------------------------------------------------------
# The real corpus
# --------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_file_splits_as_before(corpus_dir: Path) -> None:
    files = sorted(p for p in corpus_dir.parent.rglob("*") if p.is_file())
    assert files
    for path in files:
        data = path.read_bytes()
        for read, chunk in [(None, None), (4096, 4096), (997, 61), (61, 7)]:
            check(data, read=read, chunk=chunk)
        check(data, seed=len(data))


@pytest.mark.corpus
def test_split_file_and_split_path_on_the_corpus(corpus_dir: Path) -> None:
    expected: list[Block] = []
    for path in iter_files(corpus_dir):
        with open(path, "rb") as fh:
            blocks = list(reference(fh, str(path)))
        assert list(split_file(path)) == blocks
        expected += blocks
    assert list(split_path(corpus_dir)) == expected
    assert sum(b.kind == BLOCK_HAND for b in expected) > 400


# --------------------------------------------------------------------------------------------
# Crafted files
# --------------------------------------------------------------------------------------------

H1 = b"PokerStars Hand #1001: Omaha Hi/Lo Pot Limit ($0.01/$0.02 USD) - 2013/01/03 14:42:29 ET"
H2 = b"PokerStars Game #2002: Courchevel Hi/Lo Pot Limit ($0.25/$0.50) - 2009/01/01 1:00:00 ET"
H3 = b"PokerStars Zoom Hand #3003: Omaha Pot Limit ($0.05/$0.10 USD) - 2015/05/05 5:05:05 ET"
H4 = b"PokerStars Hand #4004: Tournament #55, $1+$0.10 USD Omaha Pot Limit - Level I (10/20)"
SEAT = b"Table 'Vindemiatrix VII' 6-max Seat #5 is the button"
BODY = [SEAT, b"Seat 1: Hero ($2 in chips)", b"Hero: folds", b"*** SUMMARY ***", b"Total pot $0.05"]


def hand(header: bytes, eol: bytes = b"\n", extra: list[bytes] | None = None) -> bytes:
    return eol.join([header, *BODY, *(extra or [])]) + eol


CRAFTED: dict[str, bytes] = {
    "empty": b"",
    "one byte": b"x",
    "only a hash": b"#",
    "blank lines only": b"\n\n\r\n \n",
    "lf": hand(H1) + hand(H2) + hand(H3),
    "crlf": hand(H1, b"\r\n") + hand(H2, b"\r\n"),
    "mixed crlf and lf": hand(H1, b"\r\n") + hand(H2) + hand(H3, b"\r\n"),
    "lone cr inside a line": hand(H1, extra=[b'Hero said, "a\rb"']) + hand(H2, b"\r\n", [b"x\ry"]),
    "several trailing crs": hand(H1, b"\r\r\n") + hand(H2, b"\r\n", [b"z\r\r\r"]),
    "cr at the very end": hand(H1) + b"\r",
    "crs only (old Mac)": hand(H1, b"\r") + hand(H2, b"\r"),
    "bom": b"\xef\xbb\xbf" + hand(H1, b"\r\n") + hand(H2, b"\r\n"),
    "two boms": b"\xef\xbb\xbf\xef\xbb\xbf" + hand(H1),
    "bom only": b"\xef\xbb\xbf",
    "bom and no lf": b"\xef\xbb\xbf" + H1,
    "bom mid-file (concatenated files)": hand(H1) + b"\xef\xbb\xbf" + hand(H2),
    "no final lf": hand(H1) + hand(H2).rstrip(b"\n"),
    "no final lf, crlf": hand(H1, b"\r\n") + hand(H2, b"\r\n").rstrip(b"\r\n"),
    "single line, no lf": H1,
    "preamble": b"some notes\n\nmore\n\n\n" + hand(H1) + hand(H2),
    "blank lines before and between hands": b"\n\n \n" + hand(H1) + b"\n\n\n" + hand(H2) + b"\n\n",
    "unicode blanks in the preamble": b"\x0c\n\xe3\x80\x80\n\xc2\x85\nabc\n\x1c\n" + hand(H1),
    "long preamble": b"".join(b"line %d\n\n" % n for n in range(400)) + hand(H1),
    "preamble only": b"".join(b"note %d\r\n" % n for n in range(300)),
    "export separators": b"*********** # 1 **************\r\n"
    + hand(H1, b"\r\n")
    + b"\r\n\r\n"
    + b"*********** # 2 **************\r\n"
    + hand(H2, b"\r\n")
    + b"*** # 3 ***\n"
    + hand(H3)
    + b"\n*********** # 4 **************\nstray\n"
    + hand(H4),
    "separator only": b"*********** # 1 **************\n\n",
    "summary": b"PokerStars Tournament #447493868, No Limit Omaha Hi/Lo\r\nBuy-In: $1.08\r\n\r\n",
    "chat quoting a header": hand(H1, extra=[b'Hero said, "PokerStars Hand #123: hi"', b"Hand #5: x"]),
    "header words but not at a line start": hand(
        H1, extra=[b" PokerStars Hand #7: x", b"xPokerStars Hand #8: y"]
    ),
    "two tags on a header line": hand(b"PokerStars Hand #1: Game #2: Hand #3: x") + hand(H2),
    "hash at the line start": b"#\n##\n# Hand #1: \n" + hand(H1) + b"#\n",
    "header variants": hand(b"A Hand #1: ")
    + hand(b"Pok\xc3\xa9r Hand #2: ")
    + hand(b"PokerStars Hand #: x")
    + hand(b"PokerStars Hand #3:x")
    + hand(b"PokerStars Hand #4 : x")
    + hand(b"Poker Stars Home Game Hand #5: x")
    + hand(b"PokerStars Hand #\xd9\xa1\xd9\xa2: arabic digits")
    + hand(b"PokerStars  Hand #6: ")
    + hand(b"PokerStars Hand #7: ")
    + hand(b"PokerStars Hand #8:\r: ")
    + hand(b"PokerStars Hand #9"),
    "tournament headers": hand(H4, b"\r\n") + hand(H4, b"\r\n"),
    "joins at seat #": hand(H1, extra=[b"Villain joins the table at seat #3"]) + hand(H2),
    "non-ascii utf-8": hand(H1, extra=["Seat 2: Jørgen Æbelø (€2) 🂡".encode()]) + hand(H2),
    "cp1252 after utf-8 hands": hand(H1, extra=["Raúl".encode()])
    + hand(H2, extra=["P0CK€T Raúl".encode("cp1252")])
    + hand(H3, extra=["Raúl".encode()]),
    "cp1252 from the first line": hand(H1, extra=["€".encode("cp1252")]),
    "cp1252 in the header line": hand(H1) + hand(b"Pok\xe9r Hand #2: x") + hand(H3),
    "cp1252 undefined bytes": hand(H1, extra=[b"\x81\x8d\x8f\x90\x9d"]),
    "invalid utf-8 in the last line": hand(H1) + b"x\xff",
    "truncated utf-8 sequence": hand(H1, extra=[b"\xc3"]) + hand(H2),
    "utf-8 surrogate": hand(H1, extra=[b"\xed\xa0\x80"]),
    "line separators inside lines": hand(H1, extra=["a\u2028b\x0bc\x1cd\x85e".encode()]),
    "nul after the head": hand(H1) * 2000 + b"\x00\n" + hand(H2),
    "nul binary": b"\x00\x01abc",
    "nul binary with crlf": b"ab\r\ncd\x00" * 50,
    "utf-16": ("\r\n".join(["PokerStars Hand #1: x", "Raúl", "PokerStars Hand #2: y", "a\rb", ""])).encode(
        "utf-16"
    ),
    "utf-16-be": b"\xfe\xff" + "PokerStars Hand #1: x\ny\n".encode("utf-16-be"),
    "utf-16 truncated": "PokerStars Hand #1: x\n".encode("utf-16") + b"\x00",
    "utf-32": hand(H1).decode().encode("utf-32"),
    # what a crash leaves: NULs in place of the text, then the restarted client's next hands
    "nul tail after a complete hand": hand(H1) + b"\n\n" + b"\x00" * 512,
    "nul line after a complete hand": hand(H1) + b"\n" + b"\x00" * 100 + b"\n" + hand(H2),
    "nul line inside a hand": hand(H1, extra=[b"\x00\x00", b"after"]) + hand(H2),
    "crash then the client appends": hand(H1) + hand(H2)[:70] + b"\x00" * 300 + hand(H3) + hand(H4),
    "crash at a line start then appends": hand(H1) + hand(H2)[:62] + b"\x00" * 30 + hand(H3),
    "crash after a blank line then appends": hand(H1) + b"\r\n" + b"\x00" * 30 + hand(H3, b"\r\n"),
    "nuls before the first header": b"\x00" * 50 + hand(H1) + hand(H2),
    "nul inside a line": hand(H1, extra=[b"a\x00b", b"\x00PokerStars Hand #: x"]) + hand(H2),
    "two headers after nuls on one line": hand(H1) + b"x\x00" + H2 + b"\x00\x00" + hand(H3),
    "nul binary with a header after the head": b"\x00" + b"x" * 70_000 + b"\n" + hand(H1),
    # the first bytes of the next hand, still being written
    "partial header after a blank line": hand(H1) + b"\n\nPokerStars Hand #12",
    "partial header after a blank crlf line": hand(H1, b"\r\n") + b"\r\nPok",
    "partial header without a blank line": hand(H1) + b"PokerStars Hand #12",
    "unterminated blank last line": hand(H1) + b"\n \t",
    "text after an empty then a blank line": hand(H1) + b"\n \n\t\nstray\n" + hand(H2),
    "text after an empty then a blank crlf line": hand(H1, b"\r\n")
    + b"\r\n \r\nSeat 2: x\r\n"
    + hand(H2, b"\r\n"),
    "header after an empty then a blank line": hand(H1) + b"\n \n" + hand(H2) + b"\n\t\n",
    "unterminated last line after a blank header-only hand": H1 + b"\n\nx",
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_files(name: str) -> None:
    data = CRAFTED[name]
    check(data)
    for read, chunk in [(1, 2), (2, 3), (3, 2), (5, 64), (64, 5), (100, 100), (1 << 20, 4)]:
        check(data, read=read, chunk=chunk)
    for seed in range(3):
        check(data, seed=seed)


def test_every_chunk_boundary() -> None:
    """A header, a '#', a CRLF, a BOM, a UTF-8 sequence and a cp1252 switch across every boundary."""
    data = (
        b"\xef\xbb\xbf"
        + hand(H1, b"\r\n", ["Jørgen".encode()])
        + b"note #1\r\n"
        + hand(H2, b"\r\n", [b"a\rb"])
        + hand(H3, extra=[b"x\xe9y"])
        + hand(H4)
    )
    for read in range(1, len(data) + 2):
        for chunk in (2, 3, 17, len(data)):
            check(data, read=read, chunk=chunk)


def test_split_file_and_path(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    files = {
        "a.txt": CRAFTED["crlf"],
        "sub/b.txt": CRAFTED["cp1252 after utf-8 hands"],
        "c.txt": CRAFTED["preamble"],
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    expected = []
    for path in iter_files(tmp_path):
        blocks = list(reference(_stream(path.read_bytes(), None), str(path)))
        assert list(split_file(path)) == blocks
        expected += blocks
    assert list(split_path(tmp_path)) == expected


def test_at_the_real_chunk_boundaries() -> None:
    """With the real sizes (a 64 KiB head, then 1 MiB reads), headers land across both boundaries."""
    hands = hand(H1, b"\r\n", ["Jørgen".encode()]) + hand(H2) + hand(H4, b"\r\n")
    body = hands * ((splitter._CHUNK + splitter._READ) // len(hands) + 2)
    for shift in (0, 1, 5, 17, 40, 77, 150, 301):
        check(b"x" * shift + b"\n" + body)


@pytest.mark.parametrize("name", ["utf-16", "utf-16-be", "bom", "lf", "one byte", "empty"])
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_tiny_first_read(name: str, first: int) -> None:
    """A first read of under two bytes cannot tell UTF-16: the line-based path decides, as before."""
    data = CRAFTED[name]
    expected = _outcome(reference(cast(BinaryIO, ShortReads(data, seed=3, first=first)), "src"))
    assert _outcome(split_stream(cast(BinaryIO, ShortReads(data, seed=3, first=first)), "src")) == expected


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    data = CRAFTED["cp1252 after utf-8 hands"] * 3
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(cast(BinaryIO, ShortReads(data, seed=7))))
    expected = list(reference(cast(BinaryIO, ShortReads(data, seed=7)), "<stdin>"))
    assert list(split_path("-")) == expected and len(expected) == 9


def test_memory_stays_bounded() -> None:
    """Blocks come out while the stream is read: never more than a head, a chunk and a hand ahead."""
    one = hand(H1, b"\r\n")
    data = one * (6 * (1 << 20) // len(one))
    stream = ShortReads(data, seed=1, most=1 << 20)
    consumed = 0
    for n, block in enumerate(split_stream(cast(BinaryIO, stream), "big")):
        consumed += len(block.text) + block.text.count("\n")  # the CRs were dropped
        assert stream.served - consumed <= splitter._CHUNK + splitter._READ + len(one)
        assert block.line == 1 + n * (len(BODY) + 1)
    assert consumed == len(data)


def test_fast_blocks_are_real_blocks() -> None:
    """The chunked path builds blocks without ``Block.__init__``: they must be indistinguishable."""
    assert [f.name for f in dataclasses.fields(Block)] == ["source", "line", "text", "kind", "fault"]
    assert not hasattr(Block, "__post_init__")
    got = list(split_stream(_stream(hand(H1) * 3, None), "s"))
    made = Block("s", 7, hand(H1).decode())
    assert got[1] == made and hash(got[1]) == hash(made) and repr(got[1]) == repr(made)
    assert type(got[1]) is Block and got[1].kind == BLOCK_HAND
    with pytest.raises(dataclasses.FrozenInstanceError):
        got[1].line = 2  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# What the chunked path assumes of HEADER_RE
# --------------------------------------------------------------------------------------------


@given(st.from_regex(HEADER_RE, fullmatch=True))
@settings(max_examples=500, deadline=None)
def test_header_pattern_assumptions(line: str) -> None:
    """Every header's first '#' follows a tag, and the pattern never reads a line end."""
    i = line.index("#")
    assert line[i - 5 : i + 1] in splitter._HEADER_TAGS
    assert line[i - 2] in splitter._HEADER_TAG_CHARS
    assert "\n" not in line and "\r" not in line
    text = f"x\n{line}\r\r\nnext\n"
    assert splitter._HEADER_IN_TEXT.match(text, 2, text.index("\n", 2))


@given(st.text(st.characters(categories=["Nd"]), min_size=1), st.text(max_size=5))
@settings(deadline=None)  # a loaded CI machine exceeded hypothesis's default deadline here
def test_usual_header_shortcut_is_a_header(digits: str, rest: str) -> None:
    """What the chunked path takes for a header without the regex engine is one."""
    assert digits.isdecimal()
    assert HEADER_RE.match(f"{splitter._USUAL_HEADER}{digits}: {rest}")


# --------------------------------------------------------------------------------------------
# Random files
# --------------------------------------------------------------------------------------------

_PIECES = [
    H1,
    H2,
    H3,
    H4,
    b"A Hand #1: ",
    b"PokerStars Hand #12:x",
    b"PokerStars Hand #",
    b"Pok\xc3\xa9r Hand #5: ",
    b"Pok\xe9r Hand #6: ",
    b"PokerStars Hand #\xd9\xa1: ",
    b"PokerStars Tournament #1, x",
    SEAT,
    b'Hero said, "PokerStars Hand #9: hi"',
    b"#",
    b"##",
    b"Hand #",
    b"Game #",
    b"d #",
    b"Seat #3: ",
    b"Hero: folds",
    b" ",
    b"\t",
    b"\x0c",
    b"\xe3\x80\x80",
    b"\xe2\x80\xa8",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x82\xa1",
    b"\xff",
    b"\x80",
    b"\xc3",
    b"\x81",
    b"\r",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\x00\x00\x00",
    b"x" * 60,
    b"*********** # 2 **************",
    b"***#7***",
    b"* #",
    b"*** ",
]
_ENDS = [b"\n", b"\n", b"\n", b"\r\n", b"\r\n", b"\r\n", b"\r", b"\r\r\n", b"\n\n", b""]
_STARTS = [b"", b"", b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\x00", b"\xff\xfe", b"\xfe\xff"]


@st.composite
def files(draw: st.DrawFn) -> bytes:
    """Lines of a few pieces each (headers, '#', CRs, non-ASCII, bad bytes) with mixed line ends."""
    lines = draw(
        st.lists(
            st.tuples(st.lists(st.sampled_from(_PIECES), max_size=4), st.sampled_from(_ENDS)),
            max_size=40,
        )
    )
    return draw(st.sampled_from(_STARTS)) + b"".join(b"".join(pieces) + end for pieces, end in lines)


@st.composite
def soups(draw: st.DrawFn) -> bytes:
    """Pieces and line ends in any order (a line end inside a header, a CR before a '#', ...)."""
    data = b"".join(draw(st.lists(st.sampled_from(_PIECES + _ENDS), max_size=80)))
    return draw(st.sampled_from(_STARTS)) + data


@given(
    st.one_of(files(), soups()),
    st.integers(1, 300),
    st.integers(2, 300),
    st.one_of(st.none(), st.integers(0, 10**6)),
)
@settings(max_examples=800, deadline=None)
def test_random_files(data: bytes, read: int, chunk: int, seed: int | None) -> None:
    check(data, read=read, chunk=chunk, seed=seed)


@given(st.one_of(files(), soups()))
@settings(max_examples=200, deadline=None)
def test_random_files_default_sizes(data: bytes) -> None:
    check(data)


# --------------------------------------------------------------------------------------------
# Too-long lines and hands (small limits: the same code, cheap inputs)
# --------------------------------------------------------------------------------------------

LONG: dict[str, bytes] = {
    "a long line": hand(H1, extra=[b"x" * 80]) + hand(H2),
    "a long line read through": hand(H1, extra=[b"y" * 500]) + hand(H2),
    "a long header": H1 + b"z" * 300 + b"\n" + hand(H2),
    "a long last line without lf": hand(H1) + hand(H2, extra=[b"w" * 400]).rstrip(b"\n"),
    "a long crlf line": hand(H1, b"\r\n", [b"v" * 200]) + hand(H2, b"\r\n"),
    "a long non-utf-8 line": hand(H1, extra=[b"\xe9" * 300 + "é".encode() * 50]) + hand(H2),
    "a long line with a bom": b"\xef\xbb\xbf" + b"u" * 300 + b"\n" + hand(H1),
    "a long hand": hand(H1, extra=[b"line %d" % n for n in range(200)]) + hand(H2),
    "a long hand across runs": hand(H1, b"\r\n", [b"l %d" % n for n in range(150)]) + hand(H3),
    "a long preamble line": b"p" * 500 + b"\n" + hand(H1),
    "a long line and nuls": hand(H1, extra=[b"\x00" * 90]) + hand(H2, extra=[b"q" * 90]),
    "a long last hand": hand(H1) + hand(H2, extra=[b"k %d" % n for n in range(300)]),
}


@pytest.mark.parametrize("name", sorted(LONG))
def test_too_long_lines_and_hands(name: str) -> None:
    data = LONG[name]
    with limits(line=50, hand=600, keep=200, cap=150):
        check(data)
        for read, chunk in [(1, 2), (7, 3), (64, 5), (149, 149), (150, 100)]:
            check(data, read=read, chunk=chunk)
        check(data, seed=1)
        blocks = list(split_stream(_stream(data, None), "src"))
    faulty = [b for b in blocks if b.fault is not None]
    assert faulty, "each of these files holds a too-long line or hand"
    for b in faulty:
        assert b.fault is not None
        assert len(b.text) <= 200 + 50 + 200 + 30  # KEEP, the excerpt of the long line, its note
        assert b.fault.line >= b.line


@given(st.one_of(files(), soups()), st.integers(1, 300), st.integers(2, 300))
@settings(max_examples=300, deadline=None)
def test_random_files_with_small_limits(data: bytes, read: int, chunk: int) -> None:
    with limits(line=40, hand=300, keep=120, cap=100):
        check(data, read=read, chunk=chunk)
