"""hhparse's cache folder: where what a process builds once is kept for the next ones.

Why a module of its own: the parser's build (:mod:`hhparse.larkglue`: the saved lark parser, the
driver's tables) and the all-in EV's kernel tables (:mod:`hhparse.rules.equity`) both keep files
there, and the rules may not import the text side (``tests/test_layering.py``). Nothing here
knows what a file holds: each owner names its files by a hash of what they are built from, and
checks what it reads (a file that does not fit is built again and replaced).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_dir", "read_checked", "write_atomic", "write_checked"]

#: Where hhparse keeps its caches (see :func:`cache_dir`); set to an empty value: no cache.
CACHE_ENV = "HHPARSE_CACHE_DIR"


def cache_dir() -> Path | None:
    """The folder of hhparse's own caches: ``$HHPARSE_CACHE_DIR`` (empty: none), else the
    platform's per-user cache folder (``%LOCALAPPDATA%\\hhparse\\Cache``,
    ``~/Library/Caches/hhparse``, ``$XDG_CACHE_HOME/hhparse`` or ``~/.cache/hhparse``)."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured).expanduser() if configured.strip() else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "hhparse" / "Cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "hhparse"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "hhparse"


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` under a temporary name, then rename it (processes starting
    together never read half a file): False if the folder cannot be written (no cache then)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False
    return True


def write_checked(path: Path, magic: bytes, payload: bytes) -> bool:
    """Keep ``payload`` at ``path`` (:func:`write_atomic`) after ``magic`` and its SHA-256, so that
    :func:`read_checked` knows a damaged or foreign file from a good one."""
    return write_atomic(path, magic + hashlib.sha256(payload).digest() + payload)


def read_checked(path: Path, magic: bytes) -> memoryview | None:
    """The payload :func:`write_checked` kept at ``path``, or None: no file, another owner's
    (another ``magic``) or a damaged one (its checksum does not fit)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(magic)
    payload = memoryview(data)[head + 32 :]
    if not data.startswith(magic) or hashlib.sha256(payload).digest() != data[head : head + 32]:
        return None
    return payload
