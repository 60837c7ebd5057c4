"""Bulk import: files → blocks → parse → referee → Arrow batches → the Parquet warehouse.

Design (issue #5), and why:

* **Blocks are the unit of work.** The main process streams files through the splitter and sends
  batches of ``task_hands`` blocks to a process pool; workers parse, referee and build *Arrow
  columns* (≈10× faster to write than Python rows) and return finished tables. At most
  ``2 × jobs`` tasks are in flight, and results are published every ``batch_hands`` hands, so
  memory stays bounded whatever the input size. ``jobs=1`` runs everything in-process.
* **Results are consumed in submission order**, so "blocks processed so far" is always a prefix of
  each file: the manifest can record per-file progress as a block count, published atomically with
  the batch that completes it. A run killed at any moment resumes from the last published batch;
  the uncommitted work is simply redone, so no hand is lost or doubled.
* **Incremental.** A file whose size and mtime match a complete manifest record is skipped without
  reading it. A file that grew is verified (hash of the already-imported prefix) and only its new
  blocks are parsed; a file whose prefix changed is re-read from the start (its hands then show up
  as duplicates or conflicts).
* **Duplicates and conflicts** are decided in the main process against the known
  ``(site, hand_id) → content hash`` index (:class:`~hhparse.known.KnownHands`, 16 bytes a hand,
  so memory stays bounded however large the warehouse), loaded once from the published ``hands``
  table a record batch at a time and kept up to date in memory. Rejects are deduplicated on their
  content hash. A conflict (a stored hand id, another text) keeps the stored hand and goes to
  ``rejects`` with code ``conflict``, text and all: nothing read is lost, and the exit code says so.
* **Workers die with the import** (:mod:`hhparse.workers`): kill -9 of the main process ends the
  forkserver, the workers and the resource tracker, none of which holds the caller's stdout.

* **Live files** (the client appends each hand as it ends). A file's last hand with no blank
  line after it is stored only once it reads whole or the file has stopped changing
  (``settle_seconds``); until then it is *pending* and read by the next import. A half-written
  last hand rejected after its file stopped changing is not committed: if the file grows, it is
  read again and its old reject, now stale, is recorded as superseded (``docs/input.md``).

Nothing about a single hand or file is fatal: unreadable files and folders (and FIFOs or devices,
never opened) become ``imports`` rows with a status and error; unparsable or illegal hands become
``rejects`` rows (one per place read), and a hand the tables cannot hold too.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import multiprocessing
import os
import time
import uuid
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from hhparse.errors import ParseError
from hhparse.failures import ExitCode, UsageError, WarehouseNotFoundError, os_reason
from hhparse.known import KnownHands, hash_value
from hhparse.splitter import (
    BLOCK_BINARY,
    BLOCK_SUMMARY,
    Block,
    Fault,
    NotRegularFileError,
    iter_files,
    split_stream,
)
from hhparse.summaries import SUMMARY_CODE, SUMMARY_MAX_BYTES, parse_summaries, read_summary_text
from hhparse.tables.build import (
    HAND_IDX,
    BatchBuilder,
    HandRef,
    content_hash,
    records_from_pylist,
    strip_hand_idx,
)
from hhparse.tables.store import Warehouse, classify
from hhparse.tables.tourney import event_rows, events_table, summaries_table
from hhparse.workers import die_with_parent, start_helpers, stop_pool, wait_result

DEFAULT_TASK_HANDS = 500
DEFAULT_BATCH_HANDS = 50_000
TASK_BYTES = 16 << 20
"""A task also ends at this much text, so a file of huge (rejected) blocks keeps memory bounded."""
DEFAULT_SETTLE_SECONDS = 10.0
"""A file whose last change (mtime) is at least this old when the import plans it has stopped
changing: its last hand is final even with no blank line after it. The client writes a hand in
one go when it ends, so only a stalled or crashed writer leaves a file half-written for longer.
``import_paths(settle_seconds=...)`` or ``$HHPARSE_SETTLE_SECONDS`` change it."""
ENV_SETTLE_SECONDS = "HHPARSE_SETTLE_SECONDS"
MAX_LISTED_CONFLICTS = 1000
_HASH_CHUNK = 1 << 20


# --------------------------------------------------------------------------------------------
# Worker side
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskResult:
    """What a worker returns for one task: tables (with ``_hand_idx``) and, per block, the
    columns of its :class:`HandRef` (plain lists pickle ≈10× faster than ref objects)."""

    tables: dict[str, pa.Table]
    sites: list[str | None]
    hand_ids: list[str | None]
    hashes: list[str]
    accepted: list[bool]

    @classmethod
    def of(cls, tables: dict[str, pa.Table], refs: Sequence[HandRef]) -> TaskResult:
        """The result of a finished batch."""
        return cls(
            tables,
            [r.site for r in refs],
            [r.hand_id for r in refs],
            [r.content_hash for r in refs],
            [r.accepted for r in refs],
        )

    @property
    def refs(self) -> list[HandRef]:
        """One :class:`HandRef` per block, in block order."""
        return [HandRef(*x) for x in zip(self.sites, self.hand_ids, self.hashes, self.accepted, strict=True)]

    def __reduce__(self) -> tuple[Any, ...]:
        # Arrow IPC streams: cheaper to load in the (busy) main process than pickled tables
        return (
            _result_from_ipc,
            (_tables_to_ipc(self.tables), self.sites, self.hand_ids, self.hashes, self.accepted),
        )


def _tables_to_ipc(tables: dict[str, pa.Table]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name, table in tables.items():
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        out[name] = sink.getvalue().to_pybytes()
    return out


def _result_from_ipc(
    ipc: dict[str, bytes],
    sites: list[str | None],
    hand_ids: list[str | None],
    hashes: list[str],
    accepted: list[bool],
) -> TaskResult:
    tables = {name: pa.ipc.open_stream(data).read_all() for name, data in ipc.items()}
    return TaskResult(tables, sites, hand_ids, hashes, accepted)


def process_blocks(
    blocks: Sequence[Block], open_tails: frozenset[int] = frozenset(), ev: bool = True
) -> TaskResult:
    """Parse, referee, take the all-in EV of (unless ``ev`` is false) and tabulate ``blocks``
    (runs in a worker process, or in-process).

    An exception from the parser or referee on one hand is a bug there, but must not lose the
    batch: it becomes a reject with code ``internal-error`` and the exception's text (and a hand
    the tables cannot hold becomes an ``unstorable-hand`` reject in :meth:`BatchBuilder.finish`).
    ``open_tails`` are the positions of blocks that end their file with no blank line after: such
    a hand whose summary lists fewer seats than its seat lines was cut while being written
    (``truncated-hand``: pending while its file changes, a reject once it has stopped), never a
    valid hand.
    """
    from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]
    from hhparse.ev import safe_hand_ev
    from hhparse.parsing import parse_block

    builder = BatchBuilder()
    tourney = _TourneyRows()
    for i, block in enumerate(blocks):
        try:
            if block.kind == BLOCK_SUMMARY:
                tourney.add_summary(builder, block)
                continue
            parsed = parse_block(block)
            if isinstance(parsed, ParseError):
                builder.add_parse_error(parsed, block.source, block.line, block.text)
                continue
            if i in open_tails and (cut := _truncated(parsed, block)) is not None:
                builder.add_parse_error(cut, block.source, block.line, block.text)
                continue
            result = referee(parsed)
            ref = builder.add_result(result, block.text, ev=safe_hand_ev(result) if ev else None)
            if ref.accepted:
                tourney.add_hand(len(builder.refs) - 1, parsed)
        except Exception as exc:  # one hand's bug must not abort the import
            err = ParseError(
                code="internal-error",
                message=f"{type(exc).__name__}: {str(exc)[:500]}",
                source=block.source,
                line=block.line,
                column=0,
                hand_id=None,
                text="",
                block=block.text,
                block_line=block.line,
            )
            builder.add_parse_error(err, block.source, block.line, block.text)
    tables = builder.finish()  # first: it may set hands apart (refs no longer accepted)
    return TaskResult.of({**tables, **tourney.finish(builder.refs)}, builder.refs)


class _TourneyRows:
    """A batch's ``tournament_events`` (from accepted hands) and ``tournament_summaries`` (from
    summary files: accepted, with no site or hand id, so the merge keeps them apart from hands)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.event_idx: list[int] = []
        self.summaries: list[dict[str, Any]] = []
        self.summary_idx: list[int] = []

    def add_hand(self, idx: int, hand: Any) -> None:
        rows = event_rows(hand)
        self.events.extend(rows)
        self.event_idx.extend([idx] * len(rows))

    def add_summary(self, builder: BatchBuilder, block: Block) -> None:
        # the splitter keeps a bounded excerpt of text that is not hands: read the whole file
        size = os.path.getsize(block.source) if os.path.isfile(block.source) else 0
        if size > SUMMARY_MAX_BYTES:
            problem = (
                f"tournament summary: the file is {size:,} bytes, more than a summary file holds "
                f"({SUMMARY_MAX_BYTES:,}): not read"
            )
            error = ParseError(
                SUMMARY_CODE,
                problem,
                block.source,
                block.line,
                1,
                None,
                "",
                block=block.text,
                block_line=block.line,
            )
            builder.add_parse_error(error, block.source, block.line, block.text)
            return
        text = read_summary_text(block.source) if size else block.text
        parsed = parse_summaries(text, block.source, block.line)
        if isinstance(parsed, ParseError):
            builder.add_parse_error(parsed, block.source, block.line, text)
            return
        chash = content_hash(text)
        idx = len(builder.refs)
        rows = [row for summary in parsed for row in summary.rows(chash)]
        try:  # a file is few rows: proven storable here, so the batch's table cannot fail on it
            summaries_table(rows, [idx] * len(rows))
        except (pa.ArrowException, OverflowError, ValueError, TypeError) as exc:
            problem = f"tournament summary: a value the warehouse cannot hold: {type(exc).__name__}: {str(exc)[:300]}"
            error = ParseError(
                SUMMARY_CODE,
                problem,
                block.source,
                block.line,
                1,
                None,
                "",
                block=text,
                block_line=block.line,
            )
            builder.add_parse_error(error, block.source, block.line, text)
            return
        builder.refs.append(HandRef(None, None, chash, accepted=True))
        self.summaries.extend(rows)
        self.summary_idx.extend([idx] * len(rows))

    def finish(self, refs: Sequence[HandRef]) -> dict[str, pa.Table]:
        """The two tables; the events of a hand the batch builder set apart (``refs``: no longer
        accepted, now a reject) are dropped with it."""
        kept = [i for i, idx in enumerate(self.event_idx) if refs[idx].accepted]
        return {
            "tournament_events": events_table(
                [self.events[i] for i in kept], [self.event_idx[i] for i in kept]
            ),
            "tournament_summaries": summaries_table(self.summaries, self.summary_idx),
        }


def _truncated(hand: Any, block: Block) -> ParseError | None:
    """A ``truncated-hand`` error when the file ends among the summary's seat lines of ``hand``
    (the client lists every seat there: a shorter list means the rest is not written yet)."""
    summary = hand.summary
    if summary is None or len(summary.seats) >= len(hand.seats):
        return None
    last = block.line + block.text.rstrip("\n").count("\n")
    return ParseError(
        code="truncated-hand",
        message=(
            f"the file ends after {len(summary.seats)} of the {len(hand.seats)} summary seat lines: "
            "the rest of this hand is not written yet"
        ),
        source=block.source,
        line=last,
        column=0,
        hand_id=hand.header.hand_id,
        text="",
        block=block.text,
        block_line=block.line,
    )


PackedBlocks = list[tuple[str, int, str, str, Fault | None]]
"""Blocks as plain ``(source, line, text, kind, fault)`` tuples: what is pickled to a worker (a
list of tuples pickles much faster than slotted dataclasses, and each file's path only once;
``bench/import.py`` measures it)."""


def pack_blocks(blocks: Sequence[Block]) -> PackedBlocks:
    """The blocks as plain tuples, for a worker."""
    return [(b.source, b.line, b.text, b.kind, b.fault) for b in blocks]


def process_packed(
    packed: PackedBlocks, open_tails: frozenset[int] = frozenset(), ev: bool = True
) -> TaskResult:
    """:func:`process_blocks` of packed blocks (the worker entry point)."""
    return process_blocks([Block(*b) for b in packed], open_tails, ev)


#: Young-generation threshold while importing (CPython's default is 700). Parsing and refereeing
#: a hand allocates a few thousand container objects, nearly all freed by reference counting
#: (hands, events and facts hold no cycles), so at 700 the collector runs several times per
#: hand for nothing, and every object the batch keeps is scanned again as it ages. Measured
#: with ``bench/import.py``: about 8-10 % of the import's time. Cycles are still collected,
#: just every 50,000 allocations (a few dozen hands) instead of every 700.
GC_THRESHOLD = (50_000, 50, 100)


def _quiet_gc() -> tuple[int, int, int]:
    """Freeze what exists (parser, referee, warehouse state) and raise the young threshold;
    returns the previous thresholds, for :func:`_restore_gc`."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return previous


def _restore_gc(previous: tuple[int, int, int]) -> None:
    gc.set_threshold(*previous)
    gc.unfreeze()


def _worker_init(main_pid: int) -> None:
    """Tie the worker's life to the import's (:func:`hhparse.workers.die_with_parent`), load the
    parser and referee once, then move everything that lives for the whole run out of the
    garbage collector's sight (``gc.freeze``): the collector then only scans the objects of the
    hands being processed."""
    die_with_parent(main_pid)
    from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
    from hhparse.ev import hand_ev  # noqa: F401  (its tables are built at import)
    from hhparse.parsing import _parser

    _parser()
    _quiet_gc()


class Executor(Protocol):
    """Where an import's tasks run: the one thing a local import and a cluster import do not share.

    Planning (:meth:`_Importer.tasks`), merging, de-duplication, conflicts, rejects, live files
    and publishing stay in the importer whatever runs the tasks; an executor only turns each
    :class:`Task` into the :class:`TaskResult` of :func:`process_packed` (parse, referee, all-in
    EV, Arrow tables). It must hand the results back **in submission order** (the manifest records
    each file's progress as a prefix of its blocks) and keep the tasks in flight bounded (memory).
    When the consumer stops early (an error while merging, Ctrl-C) the generator is closed: the
    executor then cancels what is queued and stops its workers, and publishes nothing (it never
    writes to the warehouse). :class:`InProcessExecutor` and :class:`PoolExecutor` run locally;
    :class:`hhparse.cluster.DaskExecutor` on a Dask cluster.
    """

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult]]:
        """Each task with its result, in the order of ``tasks``."""
        ...


class InProcessExecutor:
    """Every task in this process (``--jobs 1``): the parser is built before the collector is
    quietened (:func:`_quiet_gc`), as in a worker — unless ``quiet_gc`` is false (an
    :class:`ImportSession` kept warm did it once for all its imports)."""

    def __init__(self, quiet_gc: bool = True) -> None:
        self.quiet_gc = quiet_gc

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult]]:
        """Each task with its result, in order."""
        from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
        from hhparse.ev import hand_ev  # noqa: F401  (its tables are built at import)
        from hhparse.parsing import _parser

        _parser()  # built before the freeze, like a worker's
        previous = _quiet_gc() if self.quiet_gc else None
        try:
            for task in tasks:
                yield task, process_blocks(task.blocks, task.open_tails, ev)
        finally:
            if previous is not None:
                _restore_gc(previous)


class PoolExecutor:
    """``jobs`` local worker processes (a forkserver pool whose workers die with this process,
    :mod:`hhparse.workers`)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult]]:
        """Each task with its result, in order; at most ``4 × jobs`` tasks in flight."""
        ctx = multiprocessing.get_context("forkserver")
        start_helpers(ctx)
        # Enough tasks in flight that the workers keep going while the importer writes a batch
        # to Parquet (results are still merged, and published, in submission order).
        depth = max(4, 4 * self.jobs)
        pool = ProcessPoolExecutor(
            max_workers=self.jobs, mp_context=ctx, initializer=_worker_init, initargs=(os.getpid(),)
        )
        try:
            window: deque[tuple[Task, Future[TaskResult]]] = deque()
            for task in tasks:
                fut = pool.submit(process_packed, pack_blocks(task.blocks), task.open_tails, ev)
                window.append((task, fut))  # the text stays until merged: a conflict keeps it
                while len(window) > depth:
                    t, f = window.popleft()
                    yield t, wait_result(f)
            while window:
                t, f = window.popleft()
                yield t, wait_result(f)
            pool.shutdown(wait=True)  # (inside: Ctrl-C here must stop the pool too)
        except BaseException:  # (GeneratorExit too: the importer stopped early)
            stop_pool(pool)  # at once: do not wait for the queued tasks
            raise


def local_executor(jobs: int) -> Executor:
    """The executor of ``--jobs N``: in-process for 1, a pool of ``jobs`` processes otherwise."""
    return InProcessExecutor() if jobs <= 1 else PoolExecutor(jobs)


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def hash_prefix(path: Path, sizes: Sequence[int]) -> list[str]:
    """BLAKE2b hex digests of the first ``n`` bytes of ``path`` for each ``n`` in ``sizes`` (one read)."""
    want = sorted(set(sizes))
    out: dict[int, str] = {}
    h = hashlib.blake2b(digest_size=16)
    pos = 0
    with open(path, "rb") as fh:
        for n in want:
            while pos < n:
                chunk = fh.read(min(_HASH_CHUNK, n - pos))
                if not chunk:
                    break
                h.update(chunk)
                pos += len(chunk)
            out[n] = h.hexdigest() if pos == n else ""
    return [out[n] for n in sizes]


class _Limited(io.RawIOBase):
    """The first ``limit`` bytes of a binary file: the import covers exactly what it hashed,
    even if the poker client appends to the file while we read it."""

    def __init__(self, fh: BinaryIO, limit: int) -> None:
        self._fh = fh
        self._left = limit
        self.last = b""  # the last byte read (whether the file ends with a line end)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)
        n = self._fh.readinto(view[: min(len(view), self._left)])  # type: ignore[attr-defined]
        n = n or 0
        self._left -= n
        if n:
            self.last = bytes(view[n - 1 : n])
        return int(n)


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
    started_at: datetime = field(default_factory=_now)
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
    path: Path,
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
        st = path.stat()
        run.size, run.mtime_ns = st.st_size, st.st_mtime_ns
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


def _with_last(blocks: Iterator[Block]) -> Iterator[tuple[Block, bool]]:
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


def _iter_file_blocks(run: FileRun) -> Iterator[Block]:
    """The file's blocks after the already-committed ones, reading exactly ``run.size`` bytes;
    ``run.unterminated`` is set before the last block comes out (the stream is read to its end
    before the splitter hands on a file's last block)."""
    with open(run.path, "rb") as fh:
        limited = _Limited(fh, run.size)
        stream = io.BufferedReader(limited, buffer_size=1 << 16)
        for n, block in enumerate(split_stream(stream, run.path)):
            if n == 0 and block.kind == BLOCK_BINARY:
                run.status = "binary"
            run.unterminated = limited.last not in (b"\r", b"\n")
            if n >= run.skip_blocks:
                yield block


# --------------------------------------------------------------------------------------------
# Main loop
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Task:
    """A batch of blocks for a worker, with the file (index into the run list) of each block,
    and the files whose last block is in this task or before (they complete with it)."""

    blocks: list[Block]
    files: list[int]
    ends: list[int]
    nbytes: int
    open_tails: frozenset[int] = frozenset()  # positions of last blocks with no blank line after
    lines: list[int] = field(default_factory=list)  # each block's first line
    live: frozenset[int] = frozenset()  # open tails of files still changing: final only if whole
    rereads: dict[int, list[Any]] = field(default_factory=dict)  # position -> [line, hash] of the
    # reject an earlier run stored for a half-written last hand, read again here


class Reporter(Protocol):
    """Progress sink: the CLI shows a rich bar on a terminal and log lines otherwise."""

    def start(self, files: int, total_bytes: int) -> None:
        """Called once the plan is known."""

    def advance(self, stats: ImportStats) -> None:
        """Called after each task's results are merged."""

    def file_done(self, run: FileRun) -> None:
        """Called when a file is finished (or failed)."""


@dataclass
class ImportStats:
    """Running totals of one ``import`` run."""

    files_total: int = 0
    files_skipped: int = 0
    files_done: int = 0
    bytes_total: int = 0
    bytes_done: int = 0
    read: int = 0
    new: int = 0
    duplicate: int = 0
    conflicting: int = 0
    rejected: int = 0
    summaries: int = 0  # tournament summary files stored
    reopened: int = 0  # rejected last hands that may have been half written (read again if the file grows)
    pending: int = 0  # last hands not read: their file is still being written (read next run)
    superseded: int = 0  # earlier rejects of half-written hands, now read whole (gone from rejects)
    batches: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.started

    @property
    def hands_per_second(self) -> float:
        """Blocks read per second so far."""
        return self.read / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class ImportResult:
    """Outcome of :func:`import_paths`: totals, per-file runs, and the conflicting hand ids."""

    import_id: str
    warehouse: Path
    stats: ImportStats
    files: list[FileRun]
    conflicts: list[tuple[str, str]]  # (path, hand_id)

    notes: list[str] = field(default_factory=list)  # what opening the warehouse did (adoption...)
    settle_seconds: float = DEFAULT_SETTLE_SECONDS  # what decided which last hands are pending

    @property
    def failed_files(self) -> list[FileRun]:
        """Inputs (files or folders) that could not be read, wholly or in part."""
        return [f for f in self.files if f.status in ("unreadable", "error", "skipped")]

    @property
    def exit_code(self) -> int:
        """:class:`~hhparse.failures.ExitCode`: 2 when an input could not be read (the rest was
        imported), else 1 when hands were rejected or conflicting, else 0."""
        if self.failed_files:
            return ExitCode.USAGE
        if self.stats.rejected or self.stats.conflicting:
            return ExitCode.REJECTED
        return ExitCode.OK


class _NullReporter:
    def start(self, files: int, total_bytes: int) -> None:
        pass

    def advance(self, stats: ImportStats) -> None:
        pass

    def file_done(self, run: FileRun) -> None:
        pass


CONFLICT_CODE = "conflict"
"""``rejects.code`` of a hand whose id is already stored with another text (the stored one stays)."""


def _conflict_row(
    block: Block, site: str, hand_id: str, chash: str, result: TaskResult, idx: int
) -> dict[str, Any]:
    """The ``rejects`` row that keeps a conflicting hand's text (nothing read is lost)."""
    hands = result.tables.get("hands")
    game = None
    if hands is not None and hands.num_rows:
        positions = hands[HAND_IDX].to_pylist()
        if idx in positions:
            game = hands["game_label"][positions.index(idx)].as_py()
    message = (
        f"hand #{hand_id} is already stored with a different text; the stored hand is kept and "
        "this text is kept here"
    )
    return {
        "site": site,
        "hand_id": hand_id,
        "source": block.source,
        "line": block.line,
        "status": CONFLICT_CODE,
        "code": CONFLICT_CODE,
        "message": message,
        "error_line": block.line,
        "game": game,
        "errors": [{"code": CONFLICT_CODE, "message": message, "line": block.line}],
        "raw_text": block.text,
        "content_hash": chash,
    }


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


def _unreadable_run(path: Path, exc: OSError) -> FileRun:
    """An input that could not be read at all: reported, counted (an ``imports`` row), retried
    next run (never recorded as done in the manifest)."""
    skipped = isinstance(exc, NotRegularFileError)
    run = FileRun(str(path), status="skipped" if skipped else "unreadable", in_manifest=False)
    run.error = os_reason(exc)
    run.complete = True
    return run


def _load_known(wh: Warehouse) -> tuple[KnownHands, set[tuple[str, int, str]], set[str]]:
    """The stored hands' index, read a record batch at a time (memory stays flat); where each
    stored reject was read: a reject is a duplicate only at the same place of the same file (the
    same bad text at two places is two rejects: both places are kept); and the content hashes of
    the stored tournament summaries (a summary file is stored once wherever it is found)."""
    known = KnownHands()
    for batch in wh.iter_batches("hands", ["site", "hand_id", "content_hash"]):
        cols = batch.to_pydict()
        known.extend(zip(cols["site"], cols["hand_id"], cols["content_hash"], strict=True))
    rejects = wh.read_table("rejects", columns=["source", "line", "content_hash"]).to_pydict()
    summaries = wh.read_table("tournament_summaries", columns=["content_hash"]).to_pydict()
    return (
        known,
        set(zip(rejects["source"], rejects["line"], rejects["content_hash"], strict=True)),
        set(summaries["content_hash"]),
    )


class _Importer:
    """State of one run: the plan, the executor, the write buffer and the known-hand index."""

    def __init__(
        self,
        wh: Warehouse,
        runs: list[FileRun],
        *,
        executor: Executor,
        task_hands: int,
        batch_hands: int,
        reporter: Reporter,
        import_id: str,
        stats: ImportStats,
        ev: bool = True,
        index: tuple[KnownHands, set[tuple[str, int, str]], set[str]] | None = None,
    ) -> None:
        self.wh = wh
        self.ev = ev
        self.runs = runs
        self.executor = executor
        self.task_hands = task_hands
        self.batch_hands = batch_hands
        self.reporter = reporter
        self.import_id = import_id
        self.stats = stats
        self.known, self.reject_keys, self.summary_hashes = index if index is not None else _load_known(wh)
        self.buffer: dict[str, list[pa.Table]] = {}
        self.buffered_hands = 0
        self.dirty: set[int] = set()  # runs whose progress changed since the last publish
        self.finished: list[int] = []  # runs completed since the last publish (→ imports rows)
        self.conflicts: list[tuple[str, str]] = []

    # -- task generation -------------------------------------------------------------------

    def tasks(self) -> Iterator[Task]:
        """The blocks to read, in tasks.

        A file's last block with no blank line after it (an *open tail*) may be a hand the
        client is still writing. While the file is still changing it is final only if it reads
        as a whole hand (:meth:`merge` decides, on the worker's verdict); if its last line has
        no line end it is not even read (``pending``). Once the file has settled it is final,
        and a failure is rejected but not committed (``reopened``).
        """
        blocks: list[Block] = []
        files: list[int] = []
        ends: list[int] = []
        tails: set[int] = set()
        live: set[int] = set()
        rereads: dict[int, list[Any]] = {}
        lines: list[int] = []
        nbytes = 0
        for i, run in enumerate(self.runs):
            if run.status in ("unreadable", "skipped"):
                ends.append(i)
                continue
            first = True
            try:
                for block, last in _with_last(_iter_file_blocks(run)):
                    open_tail = last and block.kind != BLOCK_BINARY and not block.text.endswith("\n\n")
                    if open_tail and not run.settled and run.unterminated:
                        run.pending += 1  # cut inside a line: the client is writing it
                        self.stats.pending += 1
                        break
                    n = len(blocks)
                    if first and run.previous_tail is not None:
                        rereads[n] = run.previous_tail
                        run.previous_tail = None
                    first = False
                    if open_tail:
                        tails.add(n)
                        if not run.settled:
                            live.add(n)
                    blocks.append(block)
                    files.append(i)
                    lines.append(block.line)
                    nbytes += len(block.text)
                    if n + 1 >= self.task_hands or nbytes >= TASK_BYTES:
                        yield Task(
                            blocks, files, ends, nbytes, frozenset(tails), lines, frozenset(live), rereads
                        )
                        blocks, files, ends, tails, lines, nbytes = [], [], [], set(), [], 0
                        live, rereads = set(), {}
            except OSError as exc:
                run.status, run.error = "error", os_reason(exc)
            if first:  # the reject of the hand an earlier run left open stays until that hand is read
                run.open_tail = run.previous_tail
            ends.append(i)
        if blocks or ends:
            yield Task(blocks, files, ends, nbytes, frozenset(tails), lines, frozenset(live), rereads)

    # -- merging ---------------------------------------------------------------------------

    def merge(self, task: Task, result: TaskResult) -> None:
        s = self.stats
        keep: list[int] = []
        runs = self.runs
        known = self.known
        reject_keys = self.reject_keys
        summary_hashes = self.summary_hashes
        new = duplicate = conflicting = rejected = reopened = pending = 0
        conflict_rows: list[dict[str, Any]] = []
        n = len(result.hashes)
        for idx, (site, hand_id, chash, accepted, fi, line) in enumerate(
            zip(
                result.sites,
                result.hand_ids,
                result.hashes,
                result.accepted,
                task.files,
                task.lines,
                strict=True,
            )
        ):
            run = runs[fi]
            previous = task.rereads.get(idx)
            if idx in task.open_tails and not accepted:
                if idx in task.live:
                    # The file is still being written and this last hand does not read whole: it
                    # is neither stored nor rejected now, but read again by the next import.
                    run.pending += 1
                    pending += 1
                    if previous is not None:
                        run.open_tail = previous  # its reject stays until the hand is read whole
                    continue
                # The client appends each hand as it ends: a failing last hand with no blank line
                # after it may be half written. It is rejected as it stands, but not committed, so
                # if the file grows the next run reads it again (a duplicate reject if unchanged,
                # and the reject superseded if it now reads differently).
                run.reopened += 1
                reopened += 1
                run.open_tail = [line, chash]
            else:
                run.blocks += 1
            run.read += 1
            if previous is not None and previous[1] != chash:
                run.superseded.append(list(previous))
                s.superseded += 1
            if accepted and site is not None and hand_id is not None:
                value = hash_value(chash)
                old = known.get(site, hand_id)
                if old is None:
                    known.add(site, hand_id, value)
                    run.new += 1
                    new += 1
                    keep.append(idx)
                elif old == value or (run.path, line, chash) in reject_keys:  # the same text, or conflict
                    run.duplicate += 1
                    duplicate += 1
                else:
                    run.conflicting += 1
                    conflicting += 1
                    if len(run.conflicts) < MAX_LISTED_CONFLICTS:
                        run.conflicts.append(hand_id)
                    self.conflicts.append((run.path, hand_id))
                    reject_keys.add((run.path, line, chash))
                    conflict_rows.append(_conflict_row(task.blocks[idx], site, hand_id, chash, result, idx))
            elif (run.path, line, chash) in reject_keys or (accepted and chash in summary_hashes):
                # this text at this place is a stored reject, or this summary file is stored already
                run.duplicate += 1
                duplicate += 1
            elif accepted:  # a tournament summary file (no site, no hand id), new
                summary_hashes.add(chash)
                run.summaries += 1
                self.stats.summaries += 1
                keep.append(idx)
            else:
                reject_keys.add((run.path, line, chash))
                run.rejected += 1
                rejected += 1
                keep.append(idx)
        self.dirty.update(task.files)
        s.read += n - pending
        s.pending += pending
        s.new += new
        s.duplicate += duplicate
        s.conflicting += conflicting
        s.rejected += rejected
        s.reopened += reopened
        self._buffer(result.tables, keep, n)
        if conflict_rows:
            self.buffer.setdefault("rejects", []).append(records_from_pylist("rejects", conflict_rows))
        for fi in task.ends:
            run = self.runs[fi]
            # a read error mid-file leaves the record incomplete: the next run resumes it
            run.complete = run.status != "error"
            s.files_done += 1
            self.dirty.add(fi)
            self.finished.append(fi)
        s.bytes_done += task.nbytes
        self.reporter.advance(s)
        for fi in task.ends:
            self.reporter.file_done(self.runs[fi])
        if self.buffered_hands >= self.batch_hands:
            self.publish()

    def _buffer(self, tables: dict[str, pa.Table], keep: list[int], n: int) -> None:
        everything = len(keep) == n
        keep_arr = pa.array(keep, type=pa.int32())
        for name, table in tables.items():
            if table.num_rows == 0:
                continue
            if not everything:
                table = table.filter(pc.is_in(table[HAND_IDX], value_set=keep_arr))
                if table.num_rows == 0:
                    continue
            self.buffer.setdefault(name, []).append(strip_hand_idx(table))
        self.buffered_hands += len(keep)

    def publish(self) -> None:
        """Write the buffered rows and the progress they complete, atomically."""
        if not self.buffer and not self.dirty:
            return
        tables = {name: pa.concat_tables(parts) for name, parts in self.buffer.items()}
        finished_at = _now()
        rows = [self.runs[fi].import_row(self.import_id, finished_at) for fi in self.finished]
        if rows:
            tables["imports"] = records_from_pylist("imports", rows)
        progress = {
            self.runs[fi].path: self.runs[fi].progress(self.import_id)
            for fi in sorted(self.dirty)
            if self.runs[fi].in_manifest
        }
        self.wh.publish(tables, progress)
        self.stats.batches += 1
        self.buffer.clear()
        self.buffered_hands = 0
        self.dirty.clear()
        self.finished.clear()

    # -- running ---------------------------------------------------------------------------

    def run(self) -> None:
        # closing(): an error or Ctrl-C while merging reaches the executor at once (GeneratorExit
        # at its ``yield``), so it stops its workers instead of finishing the queued tasks
        with contextlib.closing(self.executor.results(self.tasks(), self.ev)) as results:
            for task, result in results:
                self.merge(task, result)
        self.publish()


def import_paths(
    paths: Sequence[Path | str],
    warehouse: Path | str,
    *,
    jobs: int | None = None,
    task_hands: int = DEFAULT_TASK_HANDS,
    batch_hands: int = DEFAULT_BATCH_HANDS,
    reporter: Reporter | None = None,
    ev: bool = True,
    settle_seconds: float | None = None,
    executor: Executor | None = None,
) -> ImportResult:
    """Import every hand-history file under ``paths`` into the warehouse at ``warehouse``.

    Args:
        paths: files and/or folders (recursive). A missing path raises :class:`UsageError`
            before anything is written.
        warehouse: the warehouse folder (created if missing).
        jobs: worker processes; ``None`` = all cores, ``1`` = in-process.
        task_hands: blocks per worker task.
        batch_hands: hands buffered before a batch is published (bounds memory, sets the
            granularity of crash recovery).
        reporter: progress sink.
        ev: take the all-in EV of each hand (:mod:`hhparse.ev`); without it ``allin_ev`` is the
            net (for benchmarks; ``hhparse ev --recompute`` fills it in later).
        settle_seconds: how long a file must have been left unchanged for its last hand to count
            as final with no blank line after it (default ``$HHPARSE_SETTLE_SECONDS``, else
            :data:`DEFAULT_SETTLE_SECONDS`); until then that hand is ``pending``, read next run.
        executor: where the tasks run (:class:`Executor`), e.g. a Dask cluster
            (:class:`hhparse.cluster.DaskExecutor`); ``None`` = :func:`local_executor` of ``jobs``.
            Everything else (planning, merging, publishing) is the same whatever runs them.
    """
    problems: list[tuple[Path, OSError]] = []
    _settle_seconds(settle_seconds)  # a bad value is a usage error before anything is read
    files = expand_paths(paths, problems=problems)
    with ImportSession(
        warehouse,
        jobs=jobs,
        task_hands=task_hands,
        batch_hands=batch_hands,
        ev=ev,
        settle_seconds=settle_seconds,
        executor=executor,
    ) as session:
        return session.import_files(files, problems, reporter=reporter)


# --------------------------------------------------------------------------------------------
# A series of imports into one open warehouse (``hhparse import --watch``, issue #19)
# --------------------------------------------------------------------------------------------

POOL_MIN_BYTES = 8 << 20
"""A session's import reads less text than this in-process: starting a pool (a forkserver, then
workers that each build the parser) costs more than parsing a few thousand hands."""


class ImportSession:
    """A warehouse held open for a series of imports: the writer lock, the index of stored hands
    and, with ``keep_warm``, the parser and referee live across them, so that each import costs
    only what it reads (``hhparse import --watch`` imports every few seconds for hours).
    :func:`import_paths` is one import in a session of its own.

    Raises what :class:`~hhparse.tables.store.Warehouse` raises on opening, and
    :class:`UsageError` for a bad job count, task or batch size or settle time.
    """

    def __init__(
        self,
        warehouse: Path | str,
        *,
        jobs: int | None = None,
        task_hands: int = DEFAULT_TASK_HANDS,
        batch_hands: int = DEFAULT_BATCH_HANDS,
        ev: bool = True,
        settle_seconds: float | None = None,
        holder: str = "hhparse import",
        keep_warm: bool = False,
        executor: Executor | None = None,
    ) -> None:
        self.settle_seconds = _settle_seconds(settle_seconds)
        self.jobs = jobs if jobs is not None else (os.cpu_count() or 1)
        if self.jobs < 1 or task_hands < 1 or batch_hands < 1:
            raise UsageError("jobs, task size and batch size must be at least 1")
        self.task_hands = task_hands
        self.batch_hands = batch_hands
        self.ev = ev
        self.executor = executor  # None: this machine's (local_executor of jobs)
        self.wh = Warehouse(warehouse, holder=holder)
        self._index: tuple[KnownHands, set[tuple[str, int, str]], set[str]] | None = None
        self._gc_previous: tuple[int, int, int] | None = None
        self._stale = False  # an import failed part-way: manifest and index are re-read first
        if keep_warm:
            try:
                self._warm()
            except BaseException:
                self.wh.close()
                raise

    def _warm(self) -> None:
        """Load the parser, referee and EV tables once, then freeze them out of the collector's
        sight for the whole session (as a worker does, :func:`_worker_init`)."""
        from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
        from hhparse.ev import hand_ev  # noqa: F401  (its tables are built at import)
        from hhparse.parsing import _parser

        _parser()
        self._index = _load_known(self.wh)
        self._gc_previous = _quiet_gc()

    def __enter__(self) -> ImportSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the warehouse (and the collector's settings)."""
        if self._gc_previous is not None:
            _restore_gc(self._gc_previous)
            self._gc_previous = None
        self.wh.close()

    def import_files(
        self,
        files: Sequence[Path],
        problems: Sequence[tuple[Path, OSError]] = (),
        *,
        reporter: Reporter | None = None,
        pool_min_bytes: int = 0,
    ) -> ImportResult:
        """Import ``files`` (already expanded: :func:`expand_paths`); ``problems`` are inputs
        that could not be read, reported as such. The pool runs only when ``jobs`` > 1 and the
        files have at least ``pool_min_bytes`` of new text (:data:`POOL_MIN_BYTES` for a
        session's small imports), else the import runs in this process.

        A failure part-way (a full disk...) leaves the warehouse as its last commit left it; the
        session then reads its manifest and index again, so that its next import goes on from
        there."""
        reporter = reporter or _NullReporter()
        import_id = f"{_now():%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}"
        stats = ImportStats()
        wh = self.wh
        if self._stale:
            wh.reload()
            self._index = None
            self._stale = False
        runs: list[FileRun] = [_unreadable_run(path, exc) for path, exc in problems]
        touched: dict[str, dict[str, Any]] = {}
        now_ns = time.time_ns()
        for f in files:
            run = plan_file(f, wh.manifest.files, touched, settle_seconds=self.settle_seconds, now_ns=now_ns)
            if run is None:
                stats.files_skipped += 1
            else:
                runs.append(run)
        try:
            if touched:  # new mtimes only: no rows, no batch
                wh.publish({}, touched)
            stats.files_total = len(files) + len(problems)
            stats.bytes_total = sum(r.size - r.resumed_from for r in runs)
            reporter.start(len(runs), stats.bytes_total)
            if self._index is None:
                self._index = _load_known(wh)
            imp = _Importer(
                wh,
                runs,
                executor=self._executor(stats.bytes_total >= pool_min_bytes),
                task_hands=self.task_hands,
                batch_hands=self.batch_hands,
                reporter=reporter,
                import_id=import_id,
                stats=stats,
                ev=self.ev,
                index=self._index,
            )
            imp.run()
            if stats.superseded:  # gone from the view already; now from the files outside readers glob
                wh.drop_superseded_rejects()
        except BaseException:
            self._stale = True  # merged hands may not have been published: re-read before going on
            raise
        notes = list(wh.notes)
        wh.notes.clear()
        return ImportResult(import_id, wh.root, stats, runs, imp.conflicts, notes, self.settle_seconds)

    def _executor(self, large: bool) -> Executor:
        """The session's executor; on this machine a pool only for a large enough import, and the
        collector quietened per import unless the session did it once for all."""
        if self.executor is not None:
            return self.executor
        if large and self.jobs > 1:
            return PoolExecutor(self.jobs)
        return InProcessExecutor(quiet_gc=self._gc_previous is None)


def _settle_seconds(given: float | None) -> float:
    if given is None:
        env = os.environ.get(ENV_SETTLE_SECONDS)
        try:
            given = float(env) if env else DEFAULT_SETTLE_SECONDS
        except ValueError:
            raise UsageError(f"${ENV_SETTLE_SECONDS} must be a number of seconds, not {env!r}") from None
    if not given >= 0:  # (NaN too)
        raise UsageError(f"settle seconds must be 0 or more, not {given}")
    return given


def compact(
    warehouse: Path | str, target_rows: int = 2_000_000, notes: list[str] | None = None
) -> dict[str, tuple[int, int]]:
    """Merge the warehouse's small batch files (rows and order unchanged); see ``Warehouse.compact``.
    What a user should know besides (an adopted warehouse...) is appended to ``notes``."""
    root = Path(warehouse)
    if classify(root) in ("missing", "empty"):
        raise WarehouseNotFoundError(f"no warehouse at {root.absolute()}: nothing to compact")
    with Warehouse(root, holder="hhparse compact") as wh:
        try:
            return wh.compact(target_rows)
        finally:
            if notes is not None:
                notes.extend(wh.notes)
