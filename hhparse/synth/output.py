"""Writing generated hands as the PokerStars client writes them.

The client appends each table's hands to one file per table and day, UTF-8, CRLF on Windows, with
three blank lines after every hand; 2017+ exports start with a BOM (and only the first hand has
it). Hands are rendered one at a time through :func:`hhparse.render.render` (the one formatter)
and written immediately, so memory stays flat however many hands are generated.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import IO

from hhparse.model import Hand
from hhparse.render import render

__all__ = ["FileStyle", "HandWriter", "style_for"]

_BOM = "\ufeff"


class FileStyle:
    """Line ending and BOM of one output file (decided from its name, so it is deterministic)."""

    __slots__ = ("bom", "newline")

    def __init__(self, newline: str, bom: bool) -> None:
        self.newline = newline
        self.bom = bom


def style_for(file_name: str) -> FileStyle:
    """2017+ files get a BOM like real exports; most files are CRLF, some LF (FPDB-normalised)."""
    year = int(file_name[2:6]) if file_name[2:6].isdigit() else 2013
    crlf = zlib.crc32(file_name.encode()) % 5 != 0
    return FileStyle("\r\n" if crlf else "\n", year >= 2017)


def hand_text(hand: Hand, newline: str) -> str:
    """The rendered hand followed by three blank lines, with the requested line ends."""
    text = render(hand) + "\n\n\n"
    return text if newline == "\n" else text.replace("\n", newline)


class HandWriter:
    """Streams hands to one stream, or to per-table/day files in a directory."""

    def __init__(
        self, directory: Path | None = None, stream: IO[str] | None = None, style: FileStyle | None = None
    ) -> None:
        self.directory = directory
        self.stream = stream
        self._name: str | None = None
        self._file: IO[str] | None = None
        self._style = style or FileStyle("\n", False)
        self._first = True
        self.files: list[Path] = []
        self._seen: set[Path] = set()  # = set(self.files): a list scan per file is quadratic

    def write(self, file_name: str, hand: Hand) -> None:
        if self.directory is None:
            assert self.stream is not None
            if self._first and self._style.bom:
                self.stream.write(_BOM)
            self._first = False
            self.stream.write(hand_text(hand, self._style.newline))
            return
        if file_name != self._name:
            self._open(file_name)
        assert self._file is not None
        if self._first and self._style.bom:
            self._file.write(_BOM)
        self._first = False
        self._file.write(hand_text(hand, self._style.newline))

    def _open(self, file_name: str) -> None:
        if self._file is not None:
            self._file.close()
        assert self.directory is not None
        path = self.directory / file_name
        self._name = file_name
        self._style = style_for(file_name)
        self._first = not path.exists() or path.stat().st_size == 0
        # newline="" so our own "\r\n" is written as is on every platform
        self._file = path.open("a", encoding="utf-8", newline="")
        if path not in self._seen:
            self._seen.add(path)
            self.files.append(path)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
