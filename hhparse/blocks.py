"""What the splitter hands on: a hand's block of text, where it starts, and what is wrong with it.

Why apart from :mod:`hhparse.splitter`: the splitter is compiled by mypyc (``hatch_build.py``),
and these stay ordinary Python classes. A block travels everywhere (the import's tasks, the
``rejects`` rows, a Dask worker) and is pickled, compared and built by code that is not compiled;
the splitter's chunked path builds it by setting its slots (a frozen dataclass's ``__init__`` is a
Python frame a block). An exception class and an ``io`` stream class cannot be native classes.
:mod:`hhparse.splitter` re-exports every public name, which stays where callers import it from.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

BLOCK_HAND = "hand"
BLOCK_PREAMBLE = "preamble"  # non-blank text before the first header of a file
BLOCK_SUMMARY = "summary"  # a tournament summary file (no hands at all)
BLOCK_BINARY = "binary"  # a file with NUL bytes and no hand header in its first 64 KiB


@dataclass(frozen=True, slots=True)
class Fault:
    """What the splitter already knows is wrong with a block: it is a reject, whatever it holds.

    ``code`` is a stable reject code (``nul-bytes``, ``line-too-long``, ``hand-too-large``),
    ``line`` the file line it concerns.
    """

    code: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Block:
    """One hand's raw text (LF line ends, otherwise untouched) and where it starts in its file.

    ``fault`` is set when the block cannot be a hand whatever the parser would say (NUL bytes, a
    line or a hand too long); a too-long block's ``text`` is then only an excerpt.
    """

    source: str
    line: int  # 1-based file line of the block's first line
    text: str
    kind: str = BLOCK_HAND
    fault: Fault | None = None


class Prefixed(io.RawIOBase):
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
        reader = io.BufferedReader(self, buffer_size=1 << 16)
        yield from reader


class NotRegularFileError(OSError):
    """A path that is neither a folder nor a regular file (a FIFO, socket or device): opening
    it could block forever, so it is never read."""
