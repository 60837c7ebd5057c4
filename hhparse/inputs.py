"""Where an import's bytes come from: a local path, or any ``fsspec`` URL (issue #18).

An input is named by a string: a path on this machine (or on a file system every worker mounts
at the same place), or a URL with a scheme (``file://``, ``s3://``, ``memory://``...) that
``fsspec`` opens with whatever driver the user has installed. The plan (sizes, mtimes, prefix
hashes), the client's reads and a cluster worker's reads all go through this module, so the same
name means the same bytes wherever it is read. ``fsspec`` is imported only for a URL: the default
install does not need it (it comes with the ``cluster`` extra).

:func:`read_blocks` reads exactly the ``size`` bytes the plan hashed (a file the poker client
appends to meanwhile is covered as planned) and can hash them as it goes, so a reader elsewhere
(a worker) can prove it read the bytes the client planned.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Generator, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from hhparse.splitter import Block, split_stream

_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
INSTALL_HINT = "pip install fsspec (it comes with 'hhparse[cluster]')"


def is_url(name: str | Path) -> bool:
    """Whether ``name`` is an fsspec URL (``scheme://...``) rather than a path."""
    return isinstance(name, str) and _URL_RE.match(name) is not None


def _fs(url: str) -> tuple[Any, str]:
    try:
        import fsspec.core
    except ImportError:
        raise OSError(f"{url}: reading a URL needs fsspec, which is not installed: {INSTALL_HINT}") from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:  # no driver for the scheme
        raise OSError(f"{url}: no fsspec driver for this URL ({exc})") from None
    return fs, str(path)


def _mtime_ns(info: dict[str, Any]) -> int:
    """An fsspec ``info`` record's modification time (each driver names it its own way); 0 when
    the driver gives none (the file is then hashed on every import, never skipped on its mtime)."""
    for key in ("mtime", "LastModified", "last_modified", "updated", "modified", "created"):
        value = info.get(key)
        if isinstance(value, datetime):
            return int(value.timestamp() * 1e9)
        if isinstance(value, int | float):
            return int(value * 1e9)
        if isinstance(value, str):
            try:
                return int(datetime.fromisoformat(value).timestamp() * 1e9)
            except ValueError:
                continue
    return 0


def stat(name: str | Path) -> tuple[int, int]:
    """``(size, mtime_ns)`` of an input. Raises ``OSError`` (a URL's driver errors included)."""
    if not is_url(name):
        st = Path(name).stat()
        return st.st_size, st.st_mtime_ns
    fs, path = _fs(str(name))
    try:
        info = fs.info(path)
    except OSError:
        raise
    except Exception as exc:  # drivers raise their own errors for "not found", "denied"
        raise OSError(f"{name}: {type(exc).__name__}: {exc}") from None
    if info.get("type") == "directory":
        raise IsADirectoryError(21, "Is a directory", str(name))
    return int(info.get("size") or 0), _mtime_ns(info)


def open_binary(name: str | Path) -> BinaryIO:
    """The input opened for reading bytes. Raises ``OSError``."""
    if not is_url(name):
        return open(name, "rb")
    fs, path = _fs(str(name))
    try:
        fh: BinaryIO = fs.open(path, "rb")
    except OSError:
        raise
    except Exception as exc:
        raise OSError(f"{name}: {type(exc).__name__}: {exc}") from None
    return fh


def list_url(url: str, suffixes: frozenset[str]) -> list[str] | None:
    """The history files under a URL (``None``: nothing there): the URL itself when it names a
    file, else every file below it whose name ends with one of ``suffixes``, sorted."""
    fs, path = _fs(url)
    try:
        if not fs.exists(path):
            return None
        if not fs.isdir(path):
            return [url]
        found = sorted(str(p) for p in fs.find(path) if Path(str(p)).suffix.lower() in suffixes)
    except OSError:
        raise
    except Exception as exc:
        raise OSError(f"{url}: {type(exc).__name__}: {exc}") from None
    return [fs.unstrip_protocol(p) for p in found]


class Limited(io.RawIOBase):
    """The first ``limit`` bytes of a binary file, hashed on the way if ``hasher`` is given: the
    import covers exactly what the plan hashed, even if the poker client appends meanwhile."""

    def __init__(self, fh: BinaryIO, limit: int, hasher: Any = None) -> None:
        self._fh = fh
        self._left = limit
        self._hasher = hasher
        self.last = b""  # the last byte read (whether the file ends with a line end)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)
        want = min(len(view), self._left)
        readinto = getattr(self._fh, "readinto", None)
        if readinto is not None:
            n = readinto(view[:want]) or 0
        else:  # (some fsspec files have no readinto)
            data = self._fh.read(want)
            n = len(data)
            view[:n] = data
        self._left -= n
        if n:
            self.last = bytes(view[n - 1 : n])
            if self._hasher is not None:
                self._hasher.update(view[:n])
        return int(n)


def read_blocks(
    name: str,
    size: int,
    skip: int,
    *,
    hasher: Any = None,
    on_block: Callable[[int, Block, bytes], None] | None = None,
) -> Generator[Block]:
    """The blocks of the first ``size`` bytes of ``name`` after the first ``skip`` ones (each block's
    source is ``name``). ``on_block(n, block, last_byte)`` sees every block first, skipped ones
    included, with the last byte read so far (the stream is read to its end before the splitter
    hands on a file's last block, so for that block it is the file's last byte)."""
    with open_binary(name) as fh:
        limited = Limited(fh, size, hasher)
        stream = io.BufferedReader(limited, buffer_size=1 << 16)
        for n, block in enumerate(split_stream(stream, name)):
            if on_block is not None:
                on_block(n, block, limited.last)
            if n >= skip:
                yield block
        if hasher is not None:  # the rest of what was planned, if the splitter stopped early (binary)
            while limited.read(1 << 16):
                pass


def with_last(blocks: Iterator[Block]) -> Iterator[tuple[Block, bool]]:
    """Each block with whether it is the file's last one (a read error ends the file early: the
    block read before it is then not the last, and still comes out before the error)."""
    previous: Block | None = None
    try:
        for block in blocks:
            if previous is not None:
                yield previous, False
            previous = block
    except OSError:
        if previous is not None:
            yield previous, False
        raise
    if previous is not None:
        yield previous, True
