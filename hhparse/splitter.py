"""Cut hand-history files into one text block per hand, in bounded memory.

Why a separate, grammar-free stage: one corrupt hand must not poison a file, every block must
know its file and first line so errors point at the user's editor line, and a block is the unit
of both multiprocessing and the ``rejects`` table. The only reliable boundary is the header line
(blank lines are not guaranteed in third-party copies), so we cut on it — and on the two marks a
crash leaves, below.

**Decoding is decided per line, never for the rest of a file.** A UTF-16 BOM switches to a UTF-16
text reader (undecodable bytes replaced). Otherwise each line is UTF-8 when it is valid UTF-8;
a line that is not keeps its valid UTF-8 sequences and reads every other byte as cp1252, the
client's other encoding (PokerStars writes the euro sign of EUR tables and the names of
tournament summaries in cp1252); the five bytes cp1252 leaves undefined become U+FFFD, which the
parser reports as a warning. One bad byte therefore changes one line, and its neighbours are
read exactly as if it were not there. Byte-order marks that open a line are dropped: the file's
own, and any that concatenating files (``cat a.txt b.txt``) left inside, which would otherwise
hide a header and merge two hands.

**Damage stays where it is.** A hand never holds an empty line (none of the real corpus does), so
a line after an empty line (and any blank ones after it) that is neither blank nor a header
starts a block of its own: the first bytes of the next hand being written, a hand whose header
was damaged, a note between hands — the complete hand before it is not glued to it and stays
valid. A client killed while
appending, or a power loss, leaves a file whose tail is cut anywhere or filled with NUL bytes,
after which the restarted client appends its next hands: so a header may also start right after a
run of NULs (the damaged hand ends there), and a block holding NULs carries a ``nul-bytes``
:class:`Fault`. A file is ``binary`` only when its first 64 KiB hold a NUL and no hand header.

**Bounded memory whatever a line holds.** A physical line longer than ``_LINE_CAP`` bytes is read
through, not kept: its first ``_LINE_CAP`` bytes and its length stand for it. A block with a line
longer than :data:`MAX_LINE` characters, or longer than :data:`MAX_HAND` in all, is not a hand
(no real line or hand comes near): it carries a ``line-too-long`` / ``hand-too-large``
:class:`Fault` and only a bounded excerpt of its text (at most about :data:`KEEP` characters).

Two paths, one output. Splitting is on the import's critical path, and a Python loop per line
costs a noticeable share of a hand's budget (``docs/performance.md``), so :func:`split_stream` normally spends Python on headers only. It decodes
runs of whole lines (each read of ``_READ`` bytes, cut after its last LF); a header contains
``#``, which occurs about twice a hand, so ``str.find`` (a memchr) jumps from one candidate to the
next and the header test runs on that one line; each hand is then sliced out of its run, its line
ends' CRs dropped and its lines counted by C code. A run holding a NUL is cut line by line
instead. That leaves exactly the lines the line-based path sees, so the two paths agree on every
input (``tests/test_splitter_fast.py`` compares them on the corpus, crafted files, every chunk
boundary of a small file and random files). The line-based path, :func:`split_lines` over
``_decoded_lines``, stays for what the chunked path does not handle: UTF-16 files, streams whose
first read returns under two bytes, and the public :func:`split_lines` / :func:`split_text`.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from hhparse.blocks import BLOCK_BINARY as BLOCK_BINARY
from hhparse.blocks import BLOCK_HAND as BLOCK_HAND
from hhparse.blocks import BLOCK_PREAMBLE as BLOCK_PREAMBLE
from hhparse.blocks import BLOCK_SUMMARY as BLOCK_SUMMARY
from hhparse.blocks import Block as Block
from hhparse.blocks import Fault as Fault
from hhparse.blocks import NotRegularFileError as NotRegularFileError
from hhparse.blocks import Prefixed

#: A hand header: a site word, optional kind words, then ``Hand #123:`` / ``Game #123:``.
#: Restricted to letters/spaces before the ``#`` so a chat line quoting a header never cuts; the
#: one exception is the 2012 Zoom form ``PokerStars Game #PokerStars Zoom Hand #84414134468:``,
#: whose first ``#`` still follows ``Game `` (the chunked path's test below holds). The grammar
#: declares the header line and its fields (``HEADER_LINE``, ``HEADER_FIELDS``); this only finds
#: where a hand starts, before the grammar runs and without loading lark.
HEADER_RE = re.compile(
    r"^[A-Za-z][\w']*(?: Game #[A-Za-z]\w*)?(?: [A-Za-z][A-Za-z' ]*?)? (?:Hand|Game) #\d+: "
)
#: The chunked path only tries the pattern on a line whose first ``#`` follows one of these (the
#: words before ``#`` in :data:`HEADER_RE` allow no ``#``): keep the two in step.
_HEADER_TAGS = ("Hand #", "Game #")
_HEADER_TAG_CHARS = "".join(tag[-3] for tag in _HEADER_TAGS)  # the letter two before the ``#``
#: What nearly every header starts with; followed by ``\d+: `` it matches :data:`HEADER_RE`, so the
#: chunked path takes such a line for a header without running the regex engine.
_USUAL_HEADER = "PokerStars Hand #"
#: :data:`HEADER_RE` for one line inside a run: ``^`` matches at the line start given as ``pos``,
#: and ``endpos`` (the line's LF) keeps the pattern from seeing the next line. The line's trailing
#: CRs are still there, which changes nothing: the pattern cannot match a CR.
_HEADER_IN_TEXT = re.compile(HEADER_RE.pattern, HEADER_RE.flags | re.MULTILINE)
#: :data:`HEADER_RE` anywhere (``match`` at a position): a header right after a run of NULs.
_HEADER_AT = re.compile(HEADER_RE.pattern.removeprefix("^"))
_NULS_RE = re.compile("\x00+")
#: An empty line (its LF after the one before): a compiled pattern finds it in about half the
#: time ``str.find("\n\n")`` takes on hand text, where LF is frequent.
_EMPTY_LINE_RE = re.compile("\n\n")
#: What a blank line may hold (what the parser drops at the end of a line): a blank line after an
#: empty one does not start a block; any other character does (U+2028 too: the parser reads it).
_BLANK = " \t\r"
#: A header in raw bytes, at the file start or after a line end or a NUL (optionally after BOMs):
#: a file with NULs is a hand history (damaged) rather than binary as soon as its head holds one.
_HEADER_BYTES_RE = re.compile(
    rb"(?:^|[\n\x00])(?:\xef\xbb\xbf)*[A-Za-z][\w']*(?: [A-Za-z][A-Za-z' ]*?)? (?:Hand|Game) #\d+: "
)
SUMMARY_FILE_RE = re.compile(r"^PokerStars Tournament #\d+, ")
#: The numbered line PokerStars' client writes before each hand of an export (``*********** # 2
#: **************``): counted as a blank line, never as text (see docs/format-conventions.md).
SEPARATOR_RE = re.compile(r"\*{3,} ?# ?\d+ ?\*{3,}[ \t\r]*\Z")
#: What every separator line holds: text without it has none (one ``in`` test a hand).
_SEPARATOR_MARKS = ("* #", "*#")


def is_separator(line: str) -> bool:
    """Whether ``line`` (without its line end) is an export's numbered separator line."""
    return line[:1] == "*" and SEPARATOR_RE.match(line) is not None


def _has_separator(text: str) -> bool:
    return _SEPARATOR_MARKS[0] in text or _SEPARATOR_MARKS[1] in text


_CHUNK = 1 << 16
_READ = 1 << 20
#: Bytes of one physical line kept while reading (the rest is counted, not kept). Every read is
#: at most this long (``_CHUNK`` <= ``_READ`` <= ``_LINE_CAP``), so a longer line always spans two
#: reads, which is where both paths cut it.
_LINE_CAP = 1 << 20
_PREAMBLE_MAX_LINES = 200  # keep a bounded excerpt of non-hand text, however large the file
_BOM_UTF8 = "\ufeff"
#: Byte-order marks opening a line: the file's own, or one left inside by concatenating files
#: (``cat a.txt b.txt``), which would otherwise hide the next header and merge two hands.
_LINE_BOMS_RE = re.compile("^\ufeff+", re.MULTILINE)

MAX_LINE = 4096
"""Characters of the longest line a hand may have (real lines stay under a few hundred)."""
MAX_HAND = 1 << 18
"""Characters of the longest hand (real hands stay under a few tens of thousands)."""
KEEP = 1 << 16
"""About how many characters of a too-large block are kept as its text (the ``rejects`` row)."""
EXCERPT = 200
"""Characters of a too-long line shown in errors and kept in a too-large block."""
#: How a line cut while reading ends: its first ``_LINE_CAP`` bytes, then this with its length.
_CUT_MARK = "\u2026 [{:,} bytes]"
_CUT_MARK_RE = re.compile(r"\u2026 \[([\d,]+) (bytes|characters)\]\Z")

_ERRORS = "hhparse-cp1252"


def _cp1252_bytes(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the bytes UTF-8 cannot decode, read as cp1252 (undefined → U+FFFD)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start : exc.end].decode("cp1252", "replace"), exc.end


codecs.register_error(_ERRORS, _cp1252_bytes)


_NUL_MESSAGE = "NUL bytes: the text was damaged (a crash or power loss while it was written leaves NULs)"


# --------------------------------------------------------------------------------------------
# Decoding
# --------------------------------------------------------------------------------------------


def _decode(data: bytes | memoryview, first: bool = False) -> str:
    """Bytes → text, decided line by line: a line that is not UTF-8 keeps its valid sequences and
    reads its other bytes as cp1252. Line-opening byte-order marks are dropped (``first``: the
    data starts the file, whose own BOM goes too).

    One decode in C for the usual run. After a failure the lines before the bad one are valid (a
    UTF-8 sequence never contains LF), the bad line is decoded on its own and the rest of the run
    is tried whole again: linear in the run, however many lines are bad.
    """
    if first and data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    try:
        text = str(data, "utf-8")
    except UnicodeDecodeError as exc:
        text = _decode_mixed(bytes(data), exc.start)
    if _BOM_UTF8 in text:  # (instant on the usual one-byte-per-character text)
        text = _LINE_BOMS_RE.sub("", text)
    return text


def _decode_mixed(raw: bytes, bad: int) -> str:
    """:func:`_decode` of ``raw`` whose first undecodable byte is at ``bad``."""
    out: list[str] = []
    pos = 0
    view = memoryview(raw)
    while True:
        start = raw.rfind(b"\n", pos, bad) + 1 or pos
        end = raw.find(b"\n", bad) + 1 or len(raw)
        out.append(str(view[pos:start], "utf-8"))
        out.append(str(view[start:end], "utf-8", _ERRORS))
        pos = end
        try:
            out.append(str(view[pos:], "utf-8"))
            return "".join(out)
        except UnicodeDecodeError as exc:
            bad = pos + exc.start


def _cut_line(head: bytes | memoryview, size: int, first: bool) -> str:
    """A line of ``size`` bytes (without its LF) of which only ``head`` was kept, with its LF."""
    return _decode(head, first) + _CUT_MARK.format(size) + "\n"


def _byte_lines(stream: BinaryIO) -> Iterator[tuple[bytes, int]]:
    """Each physical line: its bytes without the LF (only the first ``_LINE_CAP`` of a longer
    one) and its length in bytes."""
    while True:
        line = stream.readline(_LINE_CAP + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1], len(line) - 1
            continue
        if len(line) <= _LINE_CAP:
            yield line, len(line)
            return
        size = len(line)
        while True:
            more = stream.readline(_CHUNK)
            if not more or more.endswith(b"\n"):
                size += len(more) - (1 if more else 0)
                yield line[:_LINE_CAP], size
                break
            size += len(more)
        if not more:
            return


def _decoded_lines(stream: BinaryIO) -> Iterator[str]:
    """Yield the lines of a byte stream, decoded, without their line ends (the line-based path).

    Raises nothing for bad bytes. A line longer than ``_LINE_CAP`` bytes is read through and
    stands as its first ``_LINE_CAP`` bytes and its length, as in the chunked path.
    """
    head = stream.read(4)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # errors="replace": a truncated or odd-length file (a live one read mid-write) must not
        # abort the import; the damaged hand then fails to parse and is kept as a reject
        text = io.TextIOWrapper(
            io.BufferedReader(Prefixed(head, stream)), encoding="utf-16", errors="replace", newline=""
        )
        while line := text.readline(_LINE_CAP + 1):
            if line.endswith(("\n", "\r")) or len(line) <= _LINE_CAP:
                yield line.rstrip("\r\n")
                continue
            size = len(line)
            while (more := text.readline(_CHUNK)) and not more.endswith("\n"):
                size += len(more)
            size += len(more) - (1 if more else 0)
            yield line[:_LINE_CAP] + _CUT_MARK.format(size).replace("bytes", "characters")
        return
    rest = io.BufferedReader(Prefixed(head, stream), buffer_size=_CHUNK)
    first = True
    for raw, size in _byte_lines(rest):
        if size > _LINE_CAP:
            yield _cut_line(raw, size, first)[:-1]
        else:
            yield _decode(raw.rstrip(b"\r"), first)
        first = False


# --------------------------------------------------------------------------------------------
# Blocks: what both paths do with a block's text
# --------------------------------------------------------------------------------------------


def _nul_cut(line: str) -> int:
    """Where a header starts right after a run of NULs in ``line``, or -1."""
    for m in _NULS_RE.finditer(line):
        if _HEADER_AT.match(line, m.end()):
            return m.end()
    return -1


def _excerpt(line: str) -> str:
    """The first :data:`EXCERPT` characters of a too-long line and how long it is."""
    m = _CUT_MARK_RE.search(line)
    if m is not None:
        return line[: min(m.start(), EXCERPT)] + m[0]
    return line[:EXCERPT] + f"\u2026 ({len(line):,} characters)"


def _size(line: str) -> str:
    m = _CUT_MARK_RE.search(line)
    return f"{m[1]} {m[2]}" if m else f"{len(line):,} characters"


def _finish(source: str, start: int, text: str, total: int) -> Block:
    """The block of a hand whose text has ``total`` characters (LF line ends).

    ``text`` may hold less than ``total`` characters but holds every line that starts in the
    first :data:`MAX_HAND` (the readers stop keeping lines there); nothing after that is looked
    at, so both paths build the same block.
    """
    if total > MAX_LINE:
        block = _oversize(source, start, text, total)
        if block is not None:
            return block
    if "\x00" in text:
        line = start + text.count("\n", 0, text.index("\x00"))
        return Block(source, start, text, BLOCK_HAND, Fault("nul-bytes", line, _NUL_MESSAGE))
    return Block(source, start, text)


def _oversize(source: str, start: int, text: str, total: int) -> Block | None:
    """A block for a hand with a line over :data:`MAX_LINE` or over :data:`MAX_HAND` in all (an
    excerpt and a :class:`Fault`), or None when it is neither."""
    lines = text.split("\n")
    lines.pop()  # after the last LF
    offset = 0
    long = -1
    for i, line in enumerate(lines):
        if offset >= MAX_HAND:
            break
        if len(line) > MAX_LINE:
            long = i
            break
        offset += len(line) + 1
    if long < 0 and total <= MAX_HAND:
        return None
    kept: list[str] = []
    size = 0
    for line in lines[: long if long >= 0 else len(lines)]:
        if size + len(line) + 1 > KEEP:
            break
        kept.append(line)
        size += len(line) + 1
    if long >= 0:
        if len(kept) == long:  # the excerpt of the long line stays at its own line
            kept.append(_excerpt(lines[long]))
        fault = Fault(
            "line-too-long",
            start + long,
            f"a line of {_size(lines[long])}: a hand's lines have at most {MAX_LINE:,} characters "
            "(only an excerpt is kept)",
        )
    else:
        fault = Fault(
            "hand-too-large",
            start,
            f"{total:,} characters without another hand header: a hand has at most {MAX_HAND:,} "
            f"(only the first {size:,} are kept)",
        )
    return Block(source, start, "\n".join(kept) + "\n", BLOCK_HAND, fault)


class _Preamble:
    """The non-blank text before a file's first header: at most ``_PREAMBLE_MAX_LINES`` lines, from
    the first non-blank one, each cut to an excerpt if longer than :data:`MAX_LINE`."""

    __slots__ = ("kept", "lines", "start")

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.lines = 0  # non-blank lines seen (only whether it is 0 matters once ``kept`` is full)
        self.start = 0  # file line of the first non-blank line

    def feed(self, text: str, first_line: int) -> None:
        """Take whole LF-terminated lines (CRs dropped), the first being file line ``first_line``."""
        if len(self.kept) >= _PREAMBLE_MAX_LINES or not text:
            return
        for n, line in enumerate(text.split("\n")[:-1], first_line):
            self.feed_line(line, n)
            if len(self.kept) >= _PREAMBLE_MAX_LINES:
                return

    def feed_line(self, line: str, n: int) -> None:
        """Take file line ``n``."""
        if len(self.kept) >= _PREAMBLE_MAX_LINES:
            return
        if line.strip() and not is_separator(line):
            if not self.lines:
                self.start = n
            self.lines += 1
        elif not self.lines:
            return
        self.kept.append(line if len(line) <= MAX_LINE else _excerpt(line))

    def block(self, source: str) -> Block:
        lines = self.kept
        while lines and not lines[-1].strip():
            lines.pop()
        text = "\n".join(lines) + "\n"
        kind = BLOCK_SUMMARY if SUMMARY_FILE_RE.match(lines[0]) else BLOCK_PREAMBLE
        fault = None
        if "\x00" in text:
            fault = Fault("nul-bytes", self.start + text.count("\n", 0, text.index("\x00")), _NUL_MESSAGE)
        return Block(source, self.start, text, kind, fault)


class _LineSplitter:
    """Cut decoded lines into blocks, one line at a time: the reference the chunked path must
    equal, and what the chunked path itself does with a run holding a NUL."""

    __slots__ = ("current", "empty", "in_hand", "lineno", "preamble", "size", "source", "start")

    def __init__(self, source: str, first_line: int = 1, preamble: _Preamble | None = None) -> None:
        self.source = source
        self.lineno = first_line - 1
        self.in_hand = False
        self.start = 0  # file line of the current hand's header
        self.current: list[str] = []  # its lines (those starting in its first MAX_HAND characters)
        self.size = 0  # characters of the current hand, all of it
        self.empty = False  # the last line is empty
        self.preamble = preamble if preamble is not None else _Preamble()

    def feed(self, line: str, out: list[Block]) -> None:
        """Take the next line (without its line end); completed blocks go to ``out``."""
        self.lineno += 1
        if line.startswith(_BOM_UTF8):  # the file's, or a concatenated file's (``cat a b``)
            line = line.lstrip(_BOM_UTF8)
        if "\x00" in line:
            cut = _nul_cut(line)
            if cut > 0:  # the damaged text ends at the NULs, a header follows on the same line
                self._piece(line[:cut], out)
                line = line[cut:]
        self._piece(line, out)

    def _piece(self, piece: str, out: list[Block]) -> None:
        if ("#" in piece and HEADER_RE.match(piece)) or (
            self.in_hand and self.empty and piece.strip(_BLANK) and not is_separator(piece)
        ):
            self._emit(out)
            self.in_hand = True
            self.start = self.lineno
            self.current = [piece]
            self.size = len(piece) + 1
        elif self.in_hand:
            if self.size < MAX_HAND:
                self.current.append(piece)
            self.size += len(piece) + 1
        else:
            self.preamble.feed_line(piece, self.lineno)
        # a blank line after an empty one keeps the state: the next text line still starts a block
        self.empty = not piece or is_separator(piece) or (self.empty and not piece.strip(_BLANK))

    def _emit(self, out: list[Block]) -> None:
        if self.in_hand:
            out.append(_finish(self.source, self.start, "\n".join(self.current) + "\n", self.size))
        elif self.preamble.lines:
            out.append(self.preamble.block(self.source))

    def finish(self, out: list[Block]) -> None:
        """The end of the stream: the last block."""
        self._emit(out)


def split_lines(lines: Iterable[str], source: str, first_line: int = 1) -> Iterator[Block]:
    """Group decoded lines into blocks, cutting on header lines (and where damage ends a hand).

    Non-blank text before the first header becomes a ``preamble`` (or ``summary``) block so the
    parser can report it; trailing blank lines stay in the hand's block (the parser ignores them).
    """
    splitter = _LineSplitter(source, first_line)
    out: list[Block] = []
    for line in lines:
        splitter.feed(line, out)
        if out:
            yield from out
            out.clear()
    splitter.finish(out)
    yield from out


# --------------------------------------------------------------------------------------------
# The chunked path
# --------------------------------------------------------------------------------------------


def split_stream(stream: BinaryIO, source: str) -> Iterator[Block]:
    """Split a binary stream (a file or stdin) into hand blocks."""
    head = stream.read(_CHUNK)
    utf16 = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if not utf16 and b"\x00" in head and _HEADER_BYTES_RE.search(head) is None:
        yield Block(source, 1, head[:200].decode("latin-1"), BLOCK_BINARY)
        return
    if len(head) < 2 or utf16:
        # UTF-16, or too short a first read to rule it out: the line-based path decides
        yield from split_lines(_decoded_lines(_buffered(head, stream)), source)
        return
    yield from _split_texts(_decoded_texts(head, stream), source)


def _decoded_texts(head: bytes, stream: BinaryIO) -> Iterator[str]:
    """The stream from ``head`` on as decoded runs of whole lines, as ``_decoded_lines`` decodes them.

    Each run is whole lines with their LFs (and their CRs: :func:`_split_texts` drops those hand
    by hand), byte-order marks opening a line dropped and a missing final LF supplied. A line begun in one read and ended in the next is its own short run,
    so a chunk is decoded where it lies (through a memoryview) instead of being copied behind that
    line first; a line longer than ``_LINE_CAP`` bytes is read through, only its start kept.
    """
    first = True  # nothing decoded yet: the file's BOM may open the next run
    pending: list[bytes] = []  # the start of a line whose LF has not been read yet
    waiting = 0  # its length in bytes (more than _LINE_CAP: only the start is kept)
    chunk = head
    while chunk:
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            if waiting <= _LINE_CAP:
                pending.append(chunk)
            waiting += len(chunk)
            chunk = stream.read(_READ)
            continue
        done = 0  # how much of ``chunk`` is decoded
        if pending:
            done = chunk.find(b"\n") + 1
            size = waiting + done - 1
            if size > _LINE_CAP:
                start = b"".join(pending)
                if len(start) < _LINE_CAP:
                    start += chunk[: min(done - 1, _LINE_CAP - len(start))]
                text = _cut_line(start[:_LINE_CAP], size, first)
            else:
                pending.append(chunk[:done])
                text = _decode(b"".join(pending), first)
            pending = []
            waiting = 0
            first = False
            yield text
        if done < cut:
            text = _decode(memoryview(chunk)[done:cut], first)
            first = False
            yield text
        if cut < len(chunk):
            pending.append(chunk[cut:])
            waiting = len(chunk) - cut
        chunk = stream.read(_READ)
    if pending:
        if waiting > _LINE_CAP:
            yield _cut_line(b"".join(pending)[:_LINE_CAP], waiting, first)
        else:
            pending.append(b"\n")
            yield _decode(b"".join(pending), first)


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
    :class:`_Preamble`, line by line as in ``split_lines``.

    The rarer cuts of :class:`_LineSplitter` (after a NUL run, before a line that follows an empty
    line) are found without a pass of their own: a run holding a NUL, or a piece of hand with a
    line other than an empty one after an empty line (:func:`_fragment`: one ``find`` a hand, its
    empty lines being those at its end), is cut again line by line by :class:`_LineSplitter`
    from the state the run started with. A run's blocks are handed on together (a list is
    cheaper than a generator step per block).
    """
    header = _HEADER_IN_TEXT.match
    tag_chars = _HEADER_TAG_CHARS
    usual = "\n" + _USUAL_HEADER  # with the end of the line before
    at = len(usual) - 1  # from there to its '#'
    new = object.__new__
    set_source, set_line, set_text, set_kind, set_fault = _BLOCK_SETTERS
    start = 0  # file line of the current hand's header; 0 before the file's first header
    carry: list[str] = []  # the current hand's text from earlier runs (CRs dropped)
    carried = 0  # its length (only what starts in its first MAX_HAND characters is kept)
    lines = 0  # file lines before the current run
    empty = False  # the last line before the current run is empty
    preamble = _Preamble()
    decoder = io.IncrementalNewlineDecoder(None, translate=True)
    decode = decoder.decode
    empty_line = _EMPTY_LINE_RE.search
    for text in texts:
        slow = "\x00" in text or (empty and start > 0 and not _after_empty_ok(text, 0))
        if not slow:
            was = start, carry, carried  # to cut the run again, line by line, if need be
            carry = carry[:]
            before = None if start else (preamble.kept[:], preamble.lines, preamble.start)
            crs = "\r" in text  # then each hand loses its CRs as it is cut out (see _strip_crs)
            find = text.find
            startswith = text.startswith
            blocks: list[Block] = []
            append = blocks.append
            pos = 0  # where the current hand (or the preamble) continues in this run
            cut = -1  # the line start of the last header found in this run
            separator = False  # a '#' after a '*' since the last cut: the hand may hold a separator line
            i = find("#")
            while i >= 0:
                if text[i - 2] not in tag_chars:  # (i < 2 wraps around: the pattern decides then)
                    if text[i - 1] == "*" or text[i - 2] == "*":
                        separator = True
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
                    piece = _strip_crs(text[:line_start])
                    if _fragment(piece):
                        slow = True
                        break
                    if carried < MAX_HAND:
                        carry.append(piece)
                    carried += len(piece)
                    append(_finish(source, start, "".join(carry), carried))
                    carry = []
                    start = lines + 1 + text.count("\n", 0, line_start)
                elif start:  # the usual case: Block(source, start, text[pos:line_start]), faster
                    block = new(Block)
                    set_source(block, source)
                    set_line(block, start)
                    set_kind(block, BLOCK_HAND)
                    set_fault(block, None)
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
                    m = empty_line(hand)  # its empty lines: those at its end, usually
                    if (m is not None and hand.count("\n", m.start()) != len(hand) - m.start()) or separator:
                        if _fragment(hand):
                            slow = True
                            break
                        separator = False
                    if len(hand) > MAX_LINE:  # (a long hand: is it too long, or a line of it?)
                        block = _finish(source, block.line, hand, len(hand))
                    else:
                        set_text(block, hand)
                    append(block)
                else:
                    preamble.feed(_strip_crs(text[:line_start]), lines + 1)
                    if preamble.lines:
                        append(preamble.block(source))
                    start = lines + 1 + text.count("\n", 0, line_start)
                    carried = 0
                pos = line_start
            if not slow:
                if start:
                    if not carry:
                        carried = 0
                    piece = _strip_crs(text[pos:])
                    if _fragment(piece):
                        slow = True
                    else:
                        if carried < MAX_HAND:
                            carry.append(piece)
                        carried += len(piece)
                else:
                    preamble.feed(_strip_crs(text), lines + 1)
            if slow:
                start, carry, carried = was
                if before is not None:
                    preamble.kept, preamble.lines, preamble.start = before
        if slow:
            blocks = []
            splitter = _LineSplitter(source, lines + 1, preamble)
            if start:
                splitter.in_hand, splitter.start, splitter.size = True, start, carried
                splitter.current = "".join(carry).split("\n")[:-1]
            splitter.empty = empty
            for line in _strip_crs(text).split("\n")[:-1]:
                splitter.feed(line, blocks)
            start = splitter.start if splitter.in_hand else 0
            carry = ["\n".join(splitter.current) + "\n"] if start else []
            carried = splitter.size
            lines = splitter.lineno
            empty = splitter.empty
        else:
            lines = (lines if cut < 0 else start - 1) + text.count("\n", pos)
            empty = _ends_empty(text, empty)
        yield from blocks
    if start:
        yield _finish(source, start, "".join(carry), carried)
    elif preamble.lines:
        yield preamble.block(source)


def _fragment(piece: str) -> bool:
    """Whether a piece of hand (whole lines, CRs gone, no header in it) has a line other than an
    empty one after an empty line (or first, when it starts with an empty line): a block must
    start there, or the line is blank (then the slow path finds that out). An export's separator
    lines count as empty ones (a hand ends with them before the next header)."""
    if piece[:1] == "\n":
        k = 0
    else:
        m = _EMPTY_LINE_RE.search(piece)
        k = len(piece) if m is None else m.start()
    if piece.count("\n", k) == len(piece) - k and not _has_separator(piece):
        return False
    # the exact question, line by line: after an empty or separator line, only blank ones follow
    after = piece[:1] == "\n"
    for line in piece.split("\n")[:-1]:
        if after and line.strip(_BLANK) and not is_separator(line):
            return True
        after = after or not line or is_separator(line)
    return False


def _ends_empty(text: str, empty: bool) -> bool:
    """The line splitter's ``empty`` after a run of whole lines (``empty``: before it): whether its
    last line is empty or a separator, or blank after such a line."""
    end = len(text) - 1
    while end >= 0:
        j = text.rfind("\n", 0, end)
        last = text[j + 1 : end].rstrip("\r")
        if not last or is_separator(last):
            return True
        if last.strip(_BLANK):
            return False
        end = j
    return empty


def _after_empty_ok(text: str, k: int) -> bool:
    """Whether the lines from ``k`` (after an empty line) may stay where they are: blank ones,
    then a header or the end of the run (a blank line after an empty one keeps the state)."""
    while (end := text.find("\n", k)) >= 0 and not text[k:end].strip(_BLANK):
        k = end + 1
    if end < 0:
        return True
    n = len(_USUAL_HEADER)
    if text.startswith(_USUAL_HEADER, k):
        j = text.find(": ", k + n)
        if j > k + n and text[k + n : j].isdecimal():
            return True
    return _HEADER_IN_TEXT.match(text, k) is not None


#: The slot setters of Block's fields (source, line, text, kind, fault). A frozen dataclass's
#: ``__init__`` calls ``object.__setattr__`` per field from a Python frame, half of what making a
#: block costs; the chunked path sets the slots directly (``tests/test_splitter_fast.py`` checks that
#: Block has these fields and no others, and that the blocks equal those ``Block(...)`` makes).
_BLOCK_SETTERS = tuple(getattr(Block, name).__set__ for name in ("source", "line", "text", "kind", "fault"))


def _buffered(head: bytes, stream: BinaryIO) -> BinaryIO:
    return io.BufferedReader(Prefixed(head, stream), buffer_size=_CHUNK)


def split_file(path: str | Path) -> Iterator[Block]:
    """Split one file; the path as given is recorded as each block's source."""
    with open(path, "rb") as fh:
        yield from split_stream(fh, str(path))


HISTORY_SUFFIXES = frozenset({".txt"})
"""What the PokerStars client writes; in a folder, other files (READMEs, FPDB companions) are not hands."""


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


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
