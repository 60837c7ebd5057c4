"""The plan of an import: which files, which of their bytes, from which block on.

Incremental imports are decided here, before any hand is parsed: a file whose size and mtime
match a complete manifest record is skipped without reading it; a file that grew is verified
(hash of the already-imported prefix) and read from its first new block; a file whose prefix
changed is read from the start. :func:`iter_file_blocks` then reads exactly the bytes that were
hashed, so a file the poker client appends to meanwhile is covered as planned. Live files (a last
hand with no blank line after it) are decided by ``settle_seconds`` (``docs/input.md``).
Nothing here parses, referees or writes the warehouse: the run (:mod:`hhparse.importer`) does.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hhparse import inputs
from hhparse.failures import UsageError, os_reason
from hhparse.splitter import BLOCK_BINARY, HISTORY_SUFFIXES, Block, NotRegularFileError, iter_files

DEFAULT_SETTLE_SECONDS = 10.0
"""A file whose last change (mtime) is at least this old when the import plans it has stopped
changing: its last hand is final even with no blank line after it. The client writes a hand in
one go when it ends, so only a stalled or crashed writer leaves a file half-written for longer.
``import_paths(settle_seconds=...)`` or ``$HHPARSE_SETTLE_SECONDS`` change it."""

_HASH_CHUNK = 1 << 20


def utc_now() -> datetime:
    return datetime.now(UTC)


def hash_prefix(path: Path | str, sizes: Sequence[int]) -> list[str]:
    """BLAKE2b hex digests of the first ``n`` bytes of ``path`` for each ``n`` in ``sizes`` (one read)."""
    want = sorted(set(sizes))
    out: dict[int, str] = {}
    h = hashlib.blake2b(digest_size=16)
    pos = 0
    with inputs.open_binary(path) as fh:
        for n in want:
            while pos < n:
                chunk = fh.read(min(_HASH_CHUNK, n - pos))
                if not chunk:
                    break
                h.update(chunk)
                pos += len(chunk)
            out[n] = h.hexdigest() if pos == n else ""
    return [out[n] for n in sizes]


@dataclass
class FileRun:
    """One file's import in this run: the plan, then the counters (persisted in the manifest)."""

    path: str
    size: int = 0
    mtime_ns: int = 0
    hash: str = ""
    skip_blocks: int = 0  # blocks already committed (resume / grown file)
    resumed_from: int = 0  # bytes imported by earlier runs
    status: str = "ok"  # ok | empty | binary | unreadable | skipped (not a regular file) | error
    error: str | None = None
    started_at: datetime = field(default_factory=utc_now)
    blocks: int = 0  # blocks committed (including skipped ones)
    read: int = 0
    new: int = 0
    duplicate: int = 0
    conflicting: int = 0
    rejected: int = 0
    summaries: int = 0  # tournament summaries stored (not persisted: the CLI's summary only)
    conflicts: list[str] = field(default_factory=list)
    complete: bool = False
    reopened: int = 0  # its last hand was rejected and may have been half written
    in_manifest: bool = True  # False for unreadable files: retried next run
    settled: bool = True  # its mtime is settle_seconds old: its last hand is final
    unterminated: bool = False  # its last line has no line end (known once read)
    pending: int = 0  # its last hand, not read: the file is still being written
    open_tail: list[Any] | None = None  # [line, content hash] of the reopened last hand's reject
    previous_tail: list[Any] | None = None  # the open tail an earlier run left (re-read first)
    superseded: list[list[Any]] = field(default_factory=list)  # [line, hash] of stale rejects

    def progress(self, import_id: str) -> dict[str, Any]:
        """The manifest record (what a rerun needs to resume or skip this file)."""
        return {
            "size": self.size,
            "mtime_ns": self.mtime_ns,
            "hash": self.hash,
            "blocks": self.blocks,
            "complete": self.complete,
            "import_id": import_id,
            "status": self.status,
            "started_at": self.started_at.isoformat(),
            "resumed_from": self.resumed_from,
            "read": self.read,
            "new": self.new,
            "duplicate": self.duplicate,
            "conflicting": self.conflicting,
            "rejected": self.rejected,
            "conflicts": self.conflicts,
            **({"pending": True} if self.pending else {}),
            **({"open_tail": self.open_tail} if self.open_tail else {}),
            **({"superseded": self.superseded} if self.superseded else {}),
        }

    def restore_counters(self, rec: dict[str, Any]) -> None:
        """Continue an interrupted import of this file: keep its counters and start time."""
        for k in ("read", "new", "duplicate", "conflicting", "rejected"):
            setattr(self, k, int(rec.get(k, 0)))
        self.conflicts = list(rec.get("conflicts", []))
        self.resumed_from = int(rec.get("resumed_from", 0))
        if rec.get("status") in ("ok", "binary", "empty"):
            self.status = str(rec["status"])
        if rec.get("started_at"):
            self.started_at = datetime.fromisoformat(rec["started_at"])

    def import_row(self, import_id: str, finished: datetime) -> dict[str, Any]:
        """The ``imports`` table row for this file."""
        return {
            "import_id": import_id,
            "path": self.path,
            "status": self.status,
            "error": self.error,
            "size": self.size,
            "mtime": datetime.fromtimestamp(self.mtime_ns / 1e9, UTC) if self.mtime_ns else None,
            "content_hash": self.hash or None,
            "resumed_from": self.resumed_from,
            "hands_read": self.read,
            "hands_new": self.new,
            "hands_duplicate": self.duplicate,
            "hands_conflicting": self.conflicting,
            "hands_rejected": self.rejected,
            "conflicts": self.conflicts,
            "started_at": self.started_at,
            "finished_at": finished,
        }


def plan_file(
    path: Path | str,
    manifest_files: dict[str, dict[str, Any]],
    touched: dict[str, dict[str, Any]] | None = None,
    *,
    settle_seconds: float = DEFAULT_SETTLE_SECONDS,
    now_ns: int | None = None,
) -> FileRun | None:
    """Decide what to do with one file; ``None`` means unchanged, skip it.

    Unchanged = a complete record with the same size and mtime (no read needed), or the same
    content hash. A file that is longer than its record and starts with the recorded bytes
    resumes after the recorded blocks; anything else is read from the start. An unchanged file
    whose mtime moved (copied, synced, touched) gets its record with the new mtime in
    ``touched``: once that is in the manifest, the next run skips it without reading it. A file
    whose last hand was left pending (the file was still being written) is never skipped: that
    hand is read again, from where the record ends. ``run.settled`` says whether the file has
    stopped changing (mtime at least ``settle_seconds`` before ``now_ns``).
    """
    key = str(path)
    run = FileRun(key)
    try:
        run.size, run.mtime_ns = inputs.stat(path)
        now = time.time_ns() if now_ns is None else now_ns
        run.settled = now - run.mtime_ns >= settle_seconds * 1e9
        rec = manifest_files.get(key)
        if rec:
            run.superseded = [list(x) for x in rec.get("superseded", [])]
            run.previous_tail = rec.get("open_tail")
        pending = bool(rec and rec.get("pending"))
        if (
            rec
            and rec.get("complete")
            and not pending
            and rec["size"] == run.size
            and rec["mtime_ns"] == run.mtime_ns
        ):
            return None
        old_size = int(rec["size"]) if rec else -1
        sizes = [run.size] + ([old_size] if 0 <= old_size <= run.size else [])
        hashes = hash_prefix(path, sizes)
        run.hash = hashes[0]
        if rec and len(hashes) == 2 and hashes[1] == rec["hash"]:
            if rec.get("complete"):
                if old_size == run.size and not pending:
                    if touched is not None:
                        touched[key] = {**rec, "mtime_ns": run.mtime_ns}
                    return None  # touched, not changed
                run.skip_blocks = int(rec["blocks"])
                run.resumed_from = old_size
            else:
                run.restore_counters(rec)
                run.skip_blocks = int(rec["blocks"])  # same import, even if it grew meanwhile
        else:
            run.previous_tail = None  # read from the start: block positions mean nothing now
    except OSError as exc:
        run.status, run.error, run.in_manifest = "unreadable", os_reason(exc), False
        run.complete = True
        return run
    run.blocks = run.skip_blocks
    if run.size == 0:
        run.status = "empty"
    return run


def iter_file_blocks(run: FileRun) -> Iterator[Block]:
    """The file's blocks after the already-committed ones, reading exactly ``run.size`` bytes;
    ``run.unterminated`` is set before the last block comes out (the stream is read to its end
    before the splitter hands on a file's last block)."""

    def seen(n: int, block: Block, last: bytes) -> None:
        if n == 0 and block.kind == BLOCK_BINARY:
            run.status = "binary"
        run.unterminated = last not in (b"\r", b"\n")

    yield from inputs.read_blocks(run.path, run.size, run.skip_blocks, on_block=seen)


def expand_paths(
    paths: Sequence[Path | str],
    exclude: Path | None = None,
    problems: list[tuple[Path, OSError]] | None = None,
) -> list[Path]:
    """Absolute file paths (folders expanded, recursive, sorted), each once, in argument order.

    Files under ``exclude`` are left out. Raises :class:`UsageError` for a path that does not
    exist. Inputs that cannot be read (an unreadable folder, a symbolic link loop, a FIFO or
    device) are appended to ``problems`` (raised when it is ``None``) and the rest goes on.
    """
    out: dict[Path, None] = {}
    skip = exclude.resolve() if exclude is not None else None

    def problem(path: Path, exc: OSError) -> None:
        if problems is None:
            raise exc
        problems.append((path.absolute(), exc))

    for p in paths:
        path = Path(p)
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"no such file or folder: {p}")
        for f in iter_files(path, problem):
            if skip is not None and f.absolute().resolve().is_relative_to(skip):
                continue
            out[f.absolute()] = None
    return list(out)


def expand_inputs(
    paths: Sequence[Path | str], problems: list[tuple[Path, OSError]] | None = None
) -> list[Path | str]:
    """:func:`expand_paths`, where an fsspec URL (``scheme://...``, :mod:`hhparse.inputs`) stays a
    URL: the file it names, or the history files below it (sorted). A URL with nothing there is a
    :class:`UsageError`, as a missing path is."""
    out: dict[Path | str, None] = {}
    for p in paths:
        if not inputs.is_url(p):
            out.update(dict.fromkeys(expand_paths([p], problems=problems)))
            continue
        try:
            found = inputs.list_url(str(p), HISTORY_SUFFIXES)
        except OSError as exc:
            raise UsageError(f"cannot read {p}: {exc}") from None
        if found is None:
            raise UsageError(f"no such file or folder: {p}")
        out.update(dict.fromkeys(found))
    return list(out)


def unreadable_run(path: Path | str, exc: OSError) -> FileRun:
    """An input that could not be read at all: reported, counted (an ``imports`` row), retried
    next run (never recorded as done in the manifest)."""
    skipped = isinstance(exc, NotRegularFileError)
    run = FileRun(str(path), status="skipped" if skipped else "unreadable", in_manifest=False)
    run.error = os_reason(exc)
    run.complete = True
    return run
