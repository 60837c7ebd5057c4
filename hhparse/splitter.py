"""Cut hand-history files into one text block per hand, in bounded memory.

Why a separate, grammar-free stage: one corrupt hand must not poison a file, every block must
know its file and first line so errors point at the user's editor line, and a block is the unit
of both multiprocessing and the ``rejects`` table. The only reliable boundary is the header line
(blank lines are not guaranteed in third-party copies), so we cut on it and nothing else.

Decoding is decided per file while streaming: a UTF-16 BOM switches to a UTF-16 text reader
(undecodable bytes replaced); otherwise each line is decoded as UTF-8 until a line fails, after
which the rest of the file is read as cp1252 (PokerStars tournament summaries are cp1252).
Byte-order marks that open a line are dropped: the file's own, and any that concatenating files
(``cat a.txt b.txt``) left inside, which would otherwise hide a header and merge two hands. Lines decoded before
the switch were valid UTF-8, and ASCII is identical in both, so the result equals a whole-file
decision for every real file while never holding more than one hand in memory.

Two paths, one output. Splitting is on the import's critical path, and a Python loop per line
cost ≈10 µs a hand, so :func:`split_stream` normally spends Python on headers only. It decodes
runs of whole lines (each read of ``_READ`` bytes, cut after its last LF); a header contains
``#``, which occurs about twice a hand, so ``str.find`` (a memchr) jumps from one candidate to the
next and the header test runs on that one line; each hand is then sliced out of its run, its line
ends' CRs dropped and its lines counted by C code. That leaves exactly the lines the line-based
path sees, so the two paths agree on every input (``tests/test_splitter_fast.py`` compares them
on the corpus, crafted files, every chunk boundary of a small file and random files). The
line-based path, :func:`split_lines` over ``_decoded_lines``, stays for what the chunked path does
not handle: UTF-16 files, streams whose first read returns under two bytes, and the public
:func:`split_lines` / :func:`split_text`.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

BLOCK_HAND = "hand"
BLOCK_PREAMBLE = "preamble"  # non-blank text before the first header of a file
BLOCK_SUMMARY = "summary"  # a tournament summary file (no hands at all)
BLOCK_BINARY = "binary"  # a file with NUL bytes

#: A hand header: a site word, optional kind words, then ``Hand #123:`` / ``Game #123:``.
#: Restricted to letters/spaces before the ``#`` so a chat line quoting a header never cuts; the
#: one exception is the 2012 Zoom form ``PokerStars Game #PokerStars Zoom Hand #84414134468:``,
#: whose first ``#`` still follows ``Game `` (the chunked path's test below holds).
HEADER_RE = re.compile(r"^[A-Za-z][\w']*(?: Game #[A-Za-z]\w*)?(?: [A-Za-z][A-Za-z' ]*?)? (?:Hand|Game) #\d+: ")
#: The chunked path only tries the pattern on a line whose first ``#`` follows one of these (the
#: words before ``#`` in :data:`HEADER_RE` allow no ``#``): keep the two in step.
_HEADER_TAGS = ("Hand #", "Game #")
_HEADER_TAG_CHARS = "".join(tag[-3] for tag in _HEADER_TAGS)  # the letter two before the ``#``
#: What nearly every header starts with; followed by ``\d+: `` it matches :data:`HEADER_RE`, so the
#: chunked path takes such a line for a header without running the regex engine (≈0.3 µs a hand).
_USUAL_HEADER = "PokerStars Hand #"
#: :data:`HEADER_RE` for one line inside a run: ``^`` matches at the line start given as ``pos``,
#: and ``endpos`` (the line's LF) keeps the pattern from seeing the next line. The line's trailing
#: CRs are still there, which changes nothing: the pattern cannot match a CR.
_HEADER_IN_TEXT = re.compile(HEADER_RE.pattern, HEADER_RE.flags | re.MULTILINE)
SUMMARY_FILE_RE = re.compile(r"^PokerStars Tournament #\d+, ")

_CHUNK = 1 << 16
_PREAMBLE_MAX_LINES = 200  # keep a bounded excerpt of non-hand text, however large the file
_BOM_UTF8 = "\ufeff"
#: Byte-order marks opening a line: the file's own, or one left inside by concatenating files
#: (``cat a.txt b.txt``), which would otherwise hide the next header and merge two hands.
_LINE_BOMS_RE = re.compile("^\ufeff+", re.MULTILINE)


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
        # errors="replace": a truncated or odd-length file (a live one read mid-write) must not
        # abort the import; the damaged hand then fails to parse and is kept as a reject
        text = io.TextIOWrapper(
            io.BufferedReader(_Prefixed(head, stream)), encoding="utf-16", errors="replace", newline=""
        )
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
        if line.startswith(_BOM_UTF8):  # the file's, or a concatenated file's (``cat a b``)
            line = line.lstrip(_BOM_UTF8)
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
    if len(head) < 2 or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16, or too short a first read to rule it out: the line-based path decides
        yield from split_lines(_decoded_lines(_buffered(head, stream)), source)
        return
    yield from _split_texts(_decoded_texts(head, stream), source)


def _decoded_texts(head: bytes, stream: BinaryIO) -> Iterator[str]:
    """The stream from ``head`` on as decoded runs of whole lines, as ``_decoded_lines`` decodes them.

    Each run is whole lines with their LFs (and their CRs: :func:`_split_texts` drops those hand
    by hand), byte-order marks opening a line dropped, a missing final LF supplied, and the
    switch to cp1252 made at the first line that is not UTF-8 (that line included). A line begun in one read and ended in the next is its own short run, so a chunk is
    decoded where it lies (through a memoryview) instead of being copied behind that line first.
    """
    utf8 = True
    first = True  # nothing decoded yet: a BOM may open the next run
    pending: list[bytes] = []  # the start of a line whose LF has not been read yet
    chunk = head
    while chunk:
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            pending.append(chunk)
            chunk = stream.read(_READ)
            continue
        done = 0  # how much of ``chunk`` is decoded
        if pending:
            done = chunk.find(b"\n") + 1
            pending.append(chunk[:done])
            text, utf8 = _decode(b"".join(pending), utf8, first)
            pending = []
            first = False
            yield text
        if done < cut:
            text, utf8 = _decode(memoryview(chunk)[done:cut], utf8, first)
            first = False
            yield text
        if cut < len(chunk):
            pending.append(chunk[cut:])
        chunk = stream.read(_READ)
    if pending:
        pending.append(b"\n")
        text, utf8 = _decode(b"".join(pending), utf8, first)
        yield text


def _decode(data: bytes | memoryview, utf8: bool, first: bool) -> tuple[str, bool]:
    """Whole lines as text, and whether the lines after them are UTF-8.

    The first line that fails UTF-8 is the one holding the decoder's first bad byte: a UTF-8
    sequence never contains LF, so every line before it decodes on its own, as ``_decode_lines``
    tries them.
    """
    if first and data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    if utf8:
        try:
            text = str(data, "utf-8")
        except UnicodeDecodeError as exc:
            raw = bytes(data)
            bad = raw.rfind(b"\n", 0, exc.start) + 1
            text = raw[:bad].decode("utf-8") + raw[bad:].decode("cp1252", errors="replace")
            utf8 = False
    else:
        text = str(data, "cp1252", "replace")
    if _BOM_UTF8 in text:  # (instant on the usual one-byte-per-character text)
        text = _LINE_BOMS_RE.sub("", text)
    return text, utf8


def _strip_crs(text: str) -> str:
    """``text`` (ending with LF) without the CRs that end its lines; a CR inside a line stays.

    The newline decoder turns CRLF into LF in one C pass, in under half the time of
    ``str.replace``, and records whether it met a CR not followed by LF; it turned that one into
    LF as well, so then the slow way is taken.
    """
    if "\r" not in text:
        return text
    decoder = io.IncrementalNewlineDecoder(None, translate=True)
    out: str = decoder.decode(text, final=True)
    return out if decoder.newlines in _NO_LONE_CR else _strip_crs_slowly(text)


def _strip_crs_slowly(text: str) -> str:
    """What the newline decoder cannot do: it would turn a CR inside a line into LF too."""
    text = text.replace("\r\n", "\n")
    if "\r\n" in text:  # lines that ended in several CRs (one regex pass, however many)
        text = _TRAILING_CRS_RE.sub("\n", text)
    return text


#: ``IncrementalNewlineDecoder.newlines`` when every CR it met was followed by LF.
_NO_LONE_CR = frozenset({None, "\n", "\r\n", ("\n", "\r\n")})
_TRAILING_CRS_RE = re.compile(r"\r+\n")


def _split_texts(texts: Iterable[str], source: str) -> Iterator[Block]:
    """:func:`split_lines` over runs of whole LF-terminated lines, jumping from ``#`` to ``#``.

    A line is a header exactly when :func:`split_lines` would say so: its first ``#`` follows
    ``Hand `` or ``Game `` (the words before the ``#`` in :data:`HEADER_RE` allow no other ``#``)
    and the pattern matches that line alone. ``str.find`` of one character is a memchr, and
    ``#`` occurs about twice a hand; the character two before it rules most out at once, and the
    usual header is recognised without the regex engine. A hand's CRs go as it is cut out, by
    :func:`_strip_crs`'s newline decoder: when it met CRLF and nothing else, the CRs it dropped
    are the hand's lines, and the count costs nothing. Text before the first header goes through
    :class:`_Preamble`, line by line as in ``split_lines``. A run's blocks are handed on together
    (a list is cheaper than a generator step per block).
    """
    header = _HEADER_IN_TEXT.match
    tag_chars = _HEADER_TAG_CHARS
    usual = "\n" + _USUAL_HEADER  # with the end of the line before
    at = len(usual) - 1  # from there to its '#'
    new = object.__new__
    set_source, set_line, set_text, set_kind = _BLOCK_SETTERS
    start = 0  # file line of the current hand's header; 0 before the file's first header
    carry: list[str] = []  # the current hand's text from earlier runs
    lines = 0  # file lines before the current run
    preamble = _Preamble()
    decoder = io.IncrementalNewlineDecoder(None, translate=True)
    decode = decoder.decode
    for text in texts:
        crs = "\r" in text  # then each hand loses its CRs as it is cut out (see _strip_crs)
        find = text.find
        startswith = text.startswith
        blocks: list[Block] = []
        append = blocks.append
        pos = 0  # where the current hand (or the preamble) continues in this run
        cut = -1  # the line start of the last header found in this run
        i = find("#")
        while i >= 0:
            if text[i - 2] not in tag_chars:  # (i < 2 wraps around: the pattern decides then)
                i = find("#", i + 1)
                continue
            if (
                i >= at  # (a header opening the run takes the general way)
                and startswith(usual, i - at)
                and (j := find(": ", i)) > i + 1
                and text[i + 1 : j].isdecimal()  # what \d+ matches
            ):
                line_start = i - at + 1
                i = find("#", j)  # (another tag on this line meets ``cut`` below)
            else:
                line_start = text.rfind("\n", 0, i) + 1
                line_end = find("\n", i)  # every run ends with LF
                i = find("#", line_end)  # the pattern sees the whole line: on to the next one
                if line_start == cut or not header(text, line_start, line_end):
                    continue
            cut = line_start
            if carry:
                carry.append(text[:line_start])
                append(Block(source, start, _strip_crs("".join(carry))))
                carry = []
                start = lines + 1 + text.count("\n", 0, line_start)
            elif start:  # the usual case: Block(source, start, text[pos:line_start]), faster
                block = new(Block)
                set_source(block, source)
                set_line(block, start)
                set_kind(block, BLOCK_HAND)
                hand = text[pos:line_start]
                if not crs:
                    start += hand.count("\n")
                else:  # what _strip_crs does, and the lines counted on the way when it can
                    lf_only = decode(hand, True)
                    seen = decoder.newlines  # (the hands since its last reset had CRLF only)
                    if seen == "\r\n":  # one CR before every LF and no other: as many as lines
                        start += len(hand) - len(lf_only)
                        hand = lf_only
                    else:
                        decoder.reset()
                        start += hand.count("\n")
                        hand = lf_only if seen in _NO_LONE_CR else _strip_crs_slowly(hand)
                set_text(block, hand)
                append(block)
            else:
                preamble.feed(_strip_crs(text[:line_start]), lines + 1)
                if preamble.lines:
                    append(preamble.block(source))
                start = lines + 1 + text.count("\n", 0, line_start)
            pos = line_start
        if start:
            carry.append(text[pos:])
        else:
            preamble.feed(_strip_crs(text), lines + 1)
        lines = (lines if cut < 0 else start - 1) + text.count("\n", pos)
        yield from blocks
    if start:
        yield Block(source, start, _strip_crs("".join(carry)))
    elif preamble.lines:
        yield preamble.block(source)


#: The slot setters of Block's fields (source, line, text, kind). A frozen dataclass's ``__init__``
#: calls ``object.__setattr__`` per field from a Python frame, ≈0.25 µs of ≈0.5 a block; the
#: chunked path sets the slots directly (``tests/test_splitter_fast.py`` checks that Block has
#: these fields and no others, and that the blocks equal those ``Block(...)`` makes).
_BLOCK_SETTERS = tuple(getattr(Block, name).__set__ for name in ("source", "line", "text", "kind"))


class _Preamble:
    """The non-blank text before a file's first header, kept as :func:`split_lines` keeps it."""

    __slots__ = ("kept", "lines", "start")

    def __init__(self) -> None:
        self.kept: list[str] = []  # at most _PREAMBLE_MAX_LINES lines, from the first non-blank
        self.lines = 0  # non-blank lines seen (only whether it is 0 matters once ``kept`` is full)
        self.start = 0  # file line of the first non-blank line

    def feed(self, text: str, first_line: int) -> None:
        """Take whole LF-terminated lines (CRs dropped), the first being file line ``first_line``."""
        if len(self.kept) >= _PREAMBLE_MAX_LINES or not text:
            return
        for n, line in enumerate(text.split("\n")[:-1], first_line):
            if line.strip():
                if not self.lines:
                    self.start = n
                self.lines += 1
            elif not self.lines:
                continue
            self.kept.append(line)
            if len(self.kept) >= _PREAMBLE_MAX_LINES:
                return

    def block(self, source: str) -> Block:
        return _preamble(source, self.start, self.kept)


def _buffered(head: bytes, stream: BinaryIO) -> BinaryIO:
    return io.BufferedReader(_Prefixed(head, stream), buffer_size=_CHUNK)


def split_file(path: str | Path) -> Iterator[Block]:
    """Split one file; the path as given is recorded as each block's source."""
    with open(path, "rb") as fh:
        yield from split_stream(fh, str(path))


HISTORY_SUFFIXES = frozenset({".txt"})
"""What the PokerStars client writes; in a folder, other files (READMEs, FPDB companions) are not hands."""


class NotRegularFileError(OSError):
    """A path that is neither a folder nor a regular file (a FIFO, socket or device): opening
    it could block forever, so it is never read."""


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def _not_regular(path: Path, mode: int) -> NotRegularFileError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return NotRegularFileError(None, f"not a regular file ({kind})", str(path))


OnError = Callable[[Path, OSError], None]
"""Called with each path that could not be read (the walk goes on)."""


def iter_files(path: str | Path, on_error: OnError | None = None) -> Iterator[Path]:
    """A file itself (whatever its name), or every ``*.txt`` under a folder (recursive, sorted,
    hidden files and folders skipped; symbolic links to folders not followed).

    Only regular files come out: a FIFO, socket or device is never opened (it could block
    forever). Each problem — an unreadable folder, a broken or looping symbolic link, a
    non-regular file — goes to ``on_error`` with its :class:`OSError` (:class:`NotRegularFileError`
    for a non-regular file) and the walk goes on; without ``on_error`` the first one is raised.
    """

    def report(p: Path, exc: OSError) -> None:
        if on_error is None:
            raise exc
        on_error(p, exc)

    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        report(p, exc)
        return
    if stat.S_ISDIR(st.st_mode):
        yield from _walk(p, report)
    elif stat.S_ISREG(st.st_mode):
        yield p
    else:
        report(p, _not_regular(p, st.st_mode))


def _walk(folder: Path, report: OnError) -> Iterator[Path]:
    """Depth-first with each folder's entries sorted by name: the order of sorting every path."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(folder)
        report(folder, exc)
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        child = folder / entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError as exc:
            report(child, exc)
            continue
        if is_dir:
            yield from _walk(child, report)
            continue
        if Path(entry.name).suffix.lower() not in HISTORY_SUFFIXES:
            continue
        try:
            st = child.stat()
        except OSError as exc:
            report(child, exc)
            continue
        if stat.S_ISREG(st.st_mode):
            yield child
        elif not stat.S_ISDIR(st.st_mode):  # a link to a folder named *.txt is not followed
            report(child, _not_regular(child, st.st_mode))


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
