"""Cut hand-history files into one text block per hand, in bounded memory.

Why a separate, grammar-free stage: one corrupt hand must not poison a file, every block must
know its file and first line so errors point at the user's editor line, and a block is the unit
of both multiprocessing and the ``rejects`` table. The only reliable boundary is the header line
(blank lines are not guaranteed in third-party copies), so we cut on it and nothing else.

Decoding is decided per file while streaming: a UTF-16 BOM switches to a UTF-16 text reader;
otherwise each line is decoded as UTF-8 (BOM stripped) until a line fails, after which the rest
of the file is read as cp1252 (PokerStars tournament summaries are cp1252). Lines decoded before
the switch were valid UTF-8, and ASCII is identical in both, so the result equals a whole-file
decision for every real file while never holding more than one hand in memory.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

BLOCK_HAND = "hand"
BLOCK_PREAMBLE = "preamble"  # non-blank text before the first header of a file
BLOCK_SUMMARY = "summary"  # a tournament summary file (no hands at all)
BLOCK_BINARY = "binary"  # a file with NUL bytes

#: A hand header: a site word, optional kind words, then ``Hand #123:`` / ``Game #123:``.
#: Restricted to letters/spaces before the ``#`` so a chat line quoting a header never cuts.
HEADER_RE = re.compile(r"^[A-Za-z][\w']*(?: [A-Za-z][A-Za-z' ]*?)? (?:Hand|Game) #\d+: ")
SUMMARY_FILE_RE = re.compile(r"^PokerStars Tournament #\d+, ")

_CHUNK = 1 << 16
_PREAMBLE_MAX_LINES = 200  # keep a bounded excerpt of non-hand text, however large the file
_BOM_UTF8 = "\ufeff"


@dataclass(frozen=True, slots=True)
class Block:
    """One hand's raw text (LF line ends, otherwise untouched) and where it starts in its file."""

    source: str
    line: int  # 1-based file line of the block's first line
    text: str
    kind: str = BLOCK_HAND


def _decoded_lines(stream: BinaryIO) -> Iterator[str]:
    """Yield the lines of a byte stream, decoded, without their line ends.

    Raises nothing for bad bytes: UTF-8 failure switches the rest of the stream to cp1252
    (which maps every byte), so any file yields text.
    """
    head = stream.read(4)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = io.TextIOWrapper(io.BufferedReader(_Prefixed(head, stream)), encoding="utf-16", newline="")
        for line in text:
            yield line.rstrip("\r\n")
        return
    rest = io.BufferedReader(_Prefixed(head, stream), buffer_size=_CHUNK)
    pending = b""  # an incomplete last line, carried to the next chunk
    first = True
    while True:
        chunk = rest.read1(_READ)
        if not chunk:
            break
        data = pending + chunk
        cut = data.rfind(b"\n") + 1
        pending = data[cut:]
        if cut:
            if first:
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data, cut = data[3:], cut - 3
            lines = _utf8_lines(data[:cut])  # the usual case, without a generator level per line
            if lines is not None:
                yield from lines
                continue
            for line in _decode_lines(data[:cut]):
                if line is _CP1252:
                    yield from _cp1252_lines(data[:cut], rest, pending)
                    return
                yield line
    if pending:
        if first and pending.startswith(b"\xef\xbb\xbf"):
            pending = pending[3:]
        yield from _decode_lines(pending + b"\n", final=True)


_READ = 1 << 20
_CP1252 = "\x00cp1252"  # sentinel: the lines from here on are cp1252


def _utf8_lines(data: bytes) -> list[str] | None:
    """Whole LF-terminated lines of ``data`` as UTF-8 (CR stripped), or None if it is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    lines.pop()  # after the last LF
    if "\r" in text:
        lines = [line.rstrip("\r") for line in lines]
    return lines


def _decode_lines(data: bytes, final: bool = False) -> Iterator[str]:
    """Complete lines (``data`` ends with LF) decoded as UTF-8, without their line ends.

    Decoding the whole run at once gives the same text as line by line (a UTF-8 sequence never
    contains LF) for a fraction of the cost. When it fails, the lines before the first bad one
    are yielded, then the sentinel ``_CP1252`` (unless ``final``, where the rest is decoded here).
    """
    lines = _utf8_lines(data)
    if lines is not None:
        yield from lines
        return
    raws = data.split(b"\n")
    raws.pop()
    for i, raw in enumerate(raws):
        try:
            yield raw.rstrip(b"\r").decode("utf-8")
        except UnicodeDecodeError:
            if not final:
                yield _CP1252
                return
            for r in raws[i:]:
                yield r.rstrip(b"\r").decode("cp1252", errors="replace")
            return


def _cp1252_lines(data: bytes, rest: BinaryIO, pending: bytes) -> Iterator[str]:
    """From the first line that is not UTF-8 in ``data`` to the end of the stream, as cp1252."""
    raws = data.split(b"\n")
    raws.pop()
    started = False
    for raw in raws:
        raw = raw.rstrip(b"\r")
        if not started:
            try:
                raw.decode("utf-8")
                continue  # already yielded by _decode_lines
            except UnicodeDecodeError:
                started = True
        yield raw.decode("cp1252", errors="replace")
    for raw in _raw_lines(pending, rest):
        yield raw.rstrip(b"\r\n").decode("cp1252", errors="replace")


def _raw_lines(pending: bytes, rest: BinaryIO) -> Iterator[bytes]:
    if pending:
        line = pending + rest.readline()
        yield line
    yield from rest


class _Prefixed(io.RawIOBase):
    """A readable binary stream that first returns ``head`` then the rest of ``stream``.

    Lets us sniff a BOM on stdin (not seekable) without buffering the whole input.
    """

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self._head = head
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._stream.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n

    def __iter__(self) -> Iterator[bytes]:
        reader = io.BufferedReader(self, buffer_size=_CHUNK)
        yield from reader


def split_lines(lines: Iterable[str], source: str, first_line: int = 1) -> Iterator[Block]:
    """Group decoded lines into blocks, cutting on header lines.

    Non-blank text before the first header becomes a ``preamble`` (or ``summary``) block so the
    parser can report it; trailing blank lines stay in the hand's block (the parser ignores them).
    """
    current: list[str] = []
    start = first_line
    in_hand = False
    preamble_lines = 0
    preamble_start = 0
    lineno = first_line - 1
    header = HEADER_RE.match
    for line in lines:
        lineno += 1
        if lineno == first_line and line.startswith(_BOM_UTF8):
            line = line[1:]
        if "#" in line and header(line):  # (the '#' test is the cheap half of the regex)
            if in_hand:
                yield Block(source, start, "\n".join(current) + "\n")
            elif preamble_lines:
                yield _preamble(source, preamble_start, current)
            current = [line]
            start = lineno
            in_hand = True
            continue
        if in_hand:
            current.append(line)
        elif line.strip():
            if not preamble_lines:
                preamble_start = lineno
                current = []
            preamble_lines += 1
            if len(current) < _PREAMBLE_MAX_LINES:
                current.append(line)
        elif preamble_lines and len(current) < _PREAMBLE_MAX_LINES:
            current.append(line)
    if in_hand:
        yield Block(source, start, "\n".join(current) + "\n")
    elif preamble_lines:
        yield _preamble(source, preamble_start, current)


def _preamble(source: str, line: int, lines: list[str]) -> Block:
    while lines and not lines[-1].strip():
        lines.pop()
    kind = BLOCK_SUMMARY if SUMMARY_FILE_RE.match(lines[0]) else BLOCK_PREAMBLE
    return Block(source, line, "\n".join(lines) + "\n", kind)


def split_stream(stream: BinaryIO, source: str) -> Iterator[Block]:
    """Split a binary stream (a file or stdin) into hand blocks."""
    head = stream.read(_CHUNK)
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        yield Block(source, 1, head[:200].decode("latin-1"), BLOCK_BINARY)
        return
    yield from split_lines(_decoded_lines(_buffered(head, stream)), source)


def _buffered(head: bytes, stream: BinaryIO) -> BinaryIO:
    return io.BufferedReader(_Prefixed(head, stream), buffer_size=_CHUNK)


def split_file(path: str | Path) -> Iterator[Block]:
    """Split one file; the path as given is recorded as each block's source."""
    with open(path, "rb") as fh:
        yield from split_stream(fh, str(path))


HISTORY_SUFFIXES = frozenset({".txt"})
"""What the PokerStars client writes; in a folder, other files (READMEs, FPDB companions) are not hands."""


def iter_files(path: str | Path) -> Iterator[Path]:
    """A file itself (whatever its name), or every ``*.txt`` under a folder (recursive, sorted,
    hidden files and folders skipped)."""
    p = Path(path)
    if p.is_dir():
        for child in sorted(p.rglob("*")):
            rel = child.relative_to(p).parts
            if (
                child.suffix.lower() in HISTORY_SUFFIXES
                and not any(part.startswith(".") for part in rel)
                and child.is_file()
            ):
                yield child
    else:
        yield p


def split_path(path: str | Path) -> Iterator[Block]:
    """Blocks of a file, of every file in a folder (recursive, sorted), or of stdin for ``"-"``."""
    if str(path) == "-":
        yield from split_stream(sys.stdin.buffer, "<stdin>")
        return
    for file in iter_files(path):
        yield from split_file(file)


def split_text(text: str, source: str = "<text>", first_line: int = 1) -> Iterator[Block]:
    """Split already-decoded text (any line ends)."""
    return split_lines(_text_lines(text), source, first_line)


_EOL_RE = re.compile(r"\r\n|\r|\n")


def _text_lines(text: str) -> Iterator[str]:
    # not str.splitlines(): it also splits on \x0b, \x1c, \u2028..., which a chat line may contain
    lines = _EOL_RE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    yield from lines
