"""Exit codes and the expected failures that map to them.

Why a module of its own: every command must answer an ordinary failure (a missing path, a full
disk, a damaged warehouse) with one sentence and a documented exit code, never a traceback, and
scripts must be able to tell "some hands were rejected" from "your disk is full". The library
raises the exceptions below (or a plain :class:`OSError`); the CLI's single error boundary
(``hhparse.cli.common.guarded``) turns them into a sentence and :class:`ExitCode`.
"""

from __future__ import annotations

import errno
import os
from enum import IntEnum
from typing import ClassVar


class ExitCode(IntEnum):
    """What every ``hhparse`` command returns (README, ``--help``). When several apply, the
    highest of 1-3 wins: e.g. an unreadable input file (2) beside rejected hands (1) gives 2."""

    OK = 0
    """Everything was read and every hand accepted (or already stored)."""
    REJECTED = 1
    """Some hands were rejected, invalid or conflicting (they are kept in ``rejects``)."""
    USAGE = 2
    """Usage or environment error: bad option, missing or unreadable input, not a warehouse,
    warehouse locked or of another version, permission denied, disk full."""
    DAMAGED = 3
    """The warehouse is damaged: its manifest or a Parquet file it lists is missing or corrupt."""
    INTERNAL = 4
    """A bug in hhparse: the traceback was written to a log file, whose path is printed."""
    INTERRUPTED = 130
    """Interrupted (Ctrl-C / SIGINT); everything published before is kept, run it again to resume."""


class HhparseError(Exception):
    """An expected failure: ``str(exc)`` is one sentence that names the path and what to do."""

    exit_code: ClassVar[int] = ExitCode.USAGE


class UsageError(HhparseError, ValueError):
    """A problem with the command line itself (missing path, bad value): exit code 2."""


class WarehouseError(HhparseError):
    """A problem with the warehouse folder (exit code 2 unless a subclass says otherwise)."""


class NotAWarehouseError(WarehouseError, ValueError):
    """The folder is not an hhparse warehouse (a file, or a non-empty folder hhparse did not
    create): hhparse refuses to write into it, so it can never mix with or delete a user's files."""


class WarehouseNotFoundError(WarehouseError, FileNotFoundError):
    """Nothing to read: the folder given as a warehouse does not hold one."""


class WarehouseLockedError(WarehouseError, RuntimeError):
    """Another process is writing to the same warehouse."""


class WarehouseVersionError(WarehouseError, ValueError):
    """The warehouse was written by another schema or format version."""


class WarehouseDamagedError(WarehouseError):
    """The manifest, the marker or a Parquet file the manifest lists is missing or corrupt."""

    exit_code: ClassVar[int] = ExitCode.DAMAGED


_REASONS: dict[int, str] = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "the file system is read-only",
    errno.ENOENT: "no such file or folder",
    errno.ELOOP: "symbolic link loop",
    errno.ENOTDIR: "a path component is a file, not a folder",
    errno.EISDIR: "is a folder, not a file",
    errno.EEXIST: "already exists",
    errno.EIO: "input/output error (a failing disk or a lost network share?)",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.EMFILE: "too many open files",
    errno.ENOMEM: "out of memory",
}

_ADVICE: dict[int, str] = {
    errno.ENOSPC: "free some space and run the command again (everything published before is kept)",
    errno.EDQUOT: "free some space and run the command again (everything published before is kept)",
    errno.EACCES: "check the permissions, or choose another path",
    errno.EPERM: "check the permissions, or choose another path",
    errno.EROFS: "choose a writable folder",
    errno.ELOOP: "fix or remove the symbolic link",
    errno.EIO: "check the disk or the connection, then run the command again",
}


def os_reason(exc: OSError) -> str:
    """A short, stable reason for an :class:`OSError` (``"permission denied"``), without the
    ``[Errno N]`` noise of ``str(exc)``."""
    if exc.errno is not None and exc.errno in _REASONS:
        return _REASONS[exc.errno]
    if exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


def describe_os_error(exc: OSError, doing: str = "") -> str:
    """One sentence for an :class:`OSError`: the path, the reason and what to do.

    ``doing`` is what was attempted (``"writing the warehouse"``), for the case where the
    exception carries no file name.
    """
    path = exc.filename if exc.filename is not None else None
    where = os.fsdecode(path) if path is not None else ""
    reason = os_reason(exc)
    text = f"{where}: {reason}" if where else reason
    if doing:
        text = f"{doing}: {text}"
    advice = _ADVICE.get(exc.errno or 0)
    return f"{text}; {advice}" if advice else text
