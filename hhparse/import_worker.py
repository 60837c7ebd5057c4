"""The worker side of an import: one task's blocks → parse → referee → all-in EV → Arrow tables.

What runs in a worker process (a local pool's, a Dask worker's) or in the importing process for
``--jobs 1``; nothing here knows the warehouse, the manifest or the other tasks (the run,
:mod:`hhparse.importer`, merges and publishes). Results travel as Arrow IPC streams
(:class:`TaskResult`), blocks as plain tuples (:func:`pack_blocks`): both are what the importing
process, the busy one, decodes fastest (``bench/import.py``, ``docs/performance.md``).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from hhparse.errors import ParseError
from hhparse.facts import HandEvFacts, RefereeResult
from hhparse.failures import os_reason
from hhparse.inputs import read_blocks, with_last
from hhparse.model import Hand
from hhparse.splitter import BLOCK_BINARY, BLOCK_SUMMARY, Block, Fault
from hhparse.summaries import SUMMARY_CODE, SUMMARY_MAX_BYTES, parse_summaries, read_summary_text
from hhparse.tables.build import BatchBuilder, HandRef, content_hash, normalised_hash
from hhparse.tables.tourney import event_rows, events_table, summaries_table
from hhparse.workers import die_with_parent, release_std_streams


@dataclass(frozen=True, slots=True)
class TaskResult:
    """What a worker returns for one task: tables (with ``_hand_idx``) and, per block, the
    columns of its :class:`HandRef` (plain lists pickle much faster than
    ref objects: ``docs/performance.md``)."""

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

    hand_ev = ev_stage() if ev else None
    builder = BatchBuilder()
    tourney = _TourneyRows()
    for start in range(0, len(blocks), PARSE_AHEAD):
        chunk = blocks[start : start + PARSE_AHEAD]
        hands, normalised = _parse_chunk(chunk)
        # each later stage over the whole chunk too: a stage's code stays in the caches
        outcomes = _referee_chunk(referee, chunk, hands, start, open_tails)
        evs = _ev_chunk(hand_ev, chunk, outcomes) if hand_ev is not None else [None] * len(chunk)
        for block, hand, outcome, hand_ev_facts, norm in zip(
            chunk, hands, outcomes, evs, normalised, strict=True
        ):
            try:
                if outcome is None:  # a tournament summary file
                    tourney.add_summary(builder, block)
                elif isinstance(outcome, ParseError):
                    builder.add_parse_error(outcome, block.source, block.line, block.text)
                else:
                    chash = normalised_hash(norm) if norm else None
                    ref = builder.add_result(outcome, block.text, chash, ev=hand_ev_facts)
                    if ref.accepted:
                        tourney.add_hand(len(builder.refs) - 1, hand)
            except Exception as exc:  # one hand's bug must not abort the import
                builder.add_parse_error(_internal_error(exc, block), block.source, block.line, block.text)
    tables = builder.finish()  # first: it may set hands apart (refs no longer accepted)
    return TaskResult.of({**tables, **tourney.finish(builder.refs)}, builder.refs)


PARSE_AHEAD = 50
"""Blocks a task takes through each stage (parse, referee, EV, rows) before the next stage. A
few dozen hands parsed, then refereed, then tabulated cost less CPU a hand than each hand taken
through every stage in turn: a stage's code and tables stay in the processor's caches for many
hands instead of being evicted by the other stages' at every hand (``docs/performance.md``).
Few enough that the hands held at once stay small whatever the task's size."""


def _parse_chunk(blocks: Sequence[Block]) -> tuple[list[Hand | ParseError | None], list[str]]:
    """Each block parsed (None for a tournament summary file, read by its own reader), and each
    block's text as the content hash reads it where the parse made it on its way, else ""
    (:func:`hhparse.parsing.parse_block_hashable`: the rows do not normalise the text again);
    a parser exception becomes that block's ``internal-error``, as in :func:`process_blocks`."""
    from hhparse.parsing import parse_block_hashable

    out: list[Hand | ParseError | None] = []
    normalised: list[str] = []
    for block in blocks:
        norm = ""
        if block.kind == BLOCK_SUMMARY:
            out.append(None)
        else:
            try:
                hand, norm = parse_block_hashable(block)
                out.append(hand)
            except Exception as exc:  # one hand's bug must not abort the import
                out.append(_internal_error(exc, block))
        normalised.append(norm)
    return out, normalised


def _referee_chunk(
    referee: Callable[[Hand], RefereeResult],
    blocks: Sequence[Block],
    hands: Sequence[Hand | ParseError | None],
    start: int,
    open_tails: frozenset[int],
) -> list[RefereeResult | ParseError | None]:
    """Each parsed hand refereed (a summary file's None and a parse error kept as they are); a
    hand cut in its file's open tail becomes its ``truncated-hand`` error, a referee exception
    its ``internal-error``, as in :func:`process_blocks`."""
    out: list[RefereeResult | ParseError | None] = []
    for i, (block, hand) in enumerate(zip(blocks, hands, strict=True), start):
        if not isinstance(hand, Hand):
            out.append(hand)
            continue
        try:
            if i in open_tails and (cut := _truncated(hand, block)) is not None:
                out.append(cut)
            else:
                out.append(referee(hand))
        except Exception as exc:  # one hand's bug must not abort the import
            out.append(_internal_error(exc, block))
    return out


def _ev_chunk(
    hand_ev: Callable[[RefereeResult], HandEvFacts | None],
    blocks: Sequence[Block],
    outcomes: list[RefereeResult | ParseError | None],
) -> list[HandEvFacts | None]:
    """The EV of each refereed hand; an exception (a bug) turns that block's outcome into its
    ``internal-error`` (in ``outcomes``), as in :func:`process_blocks`."""
    out: list[HandEvFacts | None] = []
    for k, (block, outcome) in enumerate(zip(blocks, outcomes, strict=True)):
        facts = None
        if isinstance(outcome, RefereeResult):
            try:
                facts = hand_ev(outcome)
            except Exception as exc:  # one hand's bug must not abort the import
                outcomes[k] = _internal_error(exc, block)
        out.append(facts)
    return out


def _internal_error(exc: Exception, block: Block) -> ParseError:
    """The reject of a block on which the parser, referee or table builder raised (a bug there)."""
    return ParseError(
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


def ev_stage() -> Callable[[RefereeResult], HandEvFacts | None]:
    """The all-in EV stage (:func:`hhparse.ev.safe_hand_ev`), imported only by an import that takes
    the EV: its module builds its tables as it is imported."""
    from hhparse.ev import safe_hand_ev

    return safe_hand_ev


def _summary_reject(builder: BatchBuilder, block: Block, problem: str, text: str) -> None:
    """A tournament summary file the warehouse cannot take, kept as a reject with its text."""
    error = ParseError(
        SUMMARY_CODE, problem, block.source, block.line, 1, None, "", block=text, block_line=block.line
    )
    builder.add_parse_error(error, block.source, block.line, text)


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
            _summary_reject(builder, block, problem, block.text)
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
            _summary_reject(builder, block, problem, text)
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


Segment = tuple[str, int, int, bool, str]
"""One file of a task whose worker reads its inputs (issue #18): ``(name, size, skip, settled,
hash)`` — the path or fsspec URL, the bytes the plan covers, the blocks already committed, whether
the file has stopped changing, and the BLAKE2b of its ``size`` bytes as the client planned them."""

FileOutcome = tuple[str, str | None, int, bool]
"""What reading one segment found: ``(status, error, pending, unterminated)``; status ``ok``,
``binary`` or ``error`` (the file could not be read where the task ran, or its bytes were not
the planned ones: none of its hands is in the result, and its record stays incomplete)."""

SAME_BYTES_ERROR = (
    "read other bytes than the import planned (the file changed after planning, or this worker "
    "sees another file under this name): not imported, read again by the next import"
)


@dataclass(frozen=True, slots=True)
class FilesResult:
    """What a worker returns for a task of whole files it read itself: the tables of every block
    read, and where each block came from (the client has no blocks of its own to match)."""

    result: TaskResult
    segments: list[int]  # each block's segment (position in the task's segment list)
    lines: list[int]  # each block's first line
    open_tails: list[int]  # blocks that end their file with no blank line after
    live: list[int]  # open tails of files still changing: final only if whole
    outcomes: list[FileOutcome]  # one per segment
    nbytes: int  # text read (progress)


def read_segment(
    segment: Segment,
) -> tuple[list[Block], list[int], list[int], FileOutcome]:
    """The blocks to process of one file, read here, with the positions (in the list) of its open
    tail and live tail, as :meth:`hhparse.importer._Importer.tasks` cuts a file the client reads:
    a last block with no blank line after it and no line end, in a file still changing, is not
    read (``pending``)."""
    name, size, skip, settled, expected = segment
    state = {"status": "ok", "unterminated": False}

    def seen(n: int, block: Block, last: bytes) -> None:
        if n == 0 and block.kind == BLOCK_BINARY:
            state["status"] = "binary"
        state["unterminated"] = last not in (b"\r", b"\n")

    hasher = hashlib.blake2b(digest_size=16) if expected else None
    blocks: list[Block] = []
    tails: list[int] = []
    live: list[int] = []
    pending = 0
    try:
        reader = read_blocks(name, size, skip, hasher=hasher, on_block=seen)
        for block, last in with_last(reader):
            open_tail = last and block.kind != BLOCK_BINARY and not block.text.endswith("\n\n")
            if open_tail and not settled and state["unterminated"]:
                pending += 1  # cut inside a line: the client is writing it
                break
            if open_tail:
                tails.append(len(blocks))
                if not settled:
                    live.append(len(blocks))
            blocks.append(block)
        reader.close()
    except OSError as exc:
        where = f"the worker on {socket.gethostname()}"
        return [], [], [], ("error", f"{where} cannot read {name}: {os_reason(exc)}", 0, False)
    if hasher is not None and hasher.hexdigest() != expected:
        return [], [], [], ("error", SAME_BYTES_ERROR, 0, False)
    return blocks, tails, live, (str(state["status"]), None, pending, bool(state["unterminated"]))


def process_files(segments: Sequence[Segment], ev: bool = True) -> FilesResult:
    """Read each file of the task here (a path every worker sees, or an fsspec URL: the client
    ships names, not text) and :func:`process_blocks` them (the cluster worker's entry point)."""
    blocks: list[Block] = []
    seg_of: list[int] = []
    tails: list[int] = []
    live: list[int] = []
    outcomes: list[FileOutcome] = []
    for si, segment in enumerate(segments):
        got, seg_tails, seg_live, outcome = read_segment(segment)
        base = len(blocks)
        tails.extend(base + i for i in seg_tails)
        live.extend(base + i for i in seg_live)
        blocks.extend(got)
        seg_of.extend([si] * len(got))
        outcomes.append(outcome)
    result = process_blocks(blocks, frozenset(tails), ev)
    return FilesResult(
        result,
        seg_of,
        [b.line for b in blocks],
        tails,
        live,
        outcomes,
        sum(len(b.text) for b in blocks),
    )


#: Young-generation threshold while importing (CPython's default is 700). Parsing and refereeing
#: a hand allocates a few thousand container objects, nearly all freed by reference counting
#: (hands, events and facts hold no cycles), so at 700 the collector runs several times per
#: hand for nothing, and every object the batch keeps is scanned again as it ages. Measured
#: with ``bench/import.py`` (``docs/performance.md``). Cycles are still collected,
#: just every 50,000 allocations (a few dozen hands) instead of every 700.
GC_THRESHOLD = (50_000, 50, 100)


@dataclass(frozen=True)
class QuietGC:
    """What :func:`quiet_gc` changed, for :func:`restore_gc` to undo exactly that."""

    threshold: tuple[int, int, int]
    froze: bool


def quiet_gc() -> QuietGC:
    """Freeze what exists (parser, referee, warehouse state) and raise the young threshold.

    A process that froze objects of its own already (a program calling :func:`import_paths`,
    which may have frozen its heap for its own forks) is left as it is: ``gc.unfreeze`` cannot
    tell its objects from ours, so freezing here would mean thawing the caller's at the end —
    and the collection before a freeze is needed only for that freeze.

    That collection is a young one (generations 0 and 1), not a full one: it runs after the
    parser, referee and EV tables were built with the collector paused
    (:func:`collector_paused`), so everything those builds left is still young and the cycles
    among it are found (the same few objects a full collection frees), while a full collection
    also walked every module loaded before (pyarrow's, numpy's, the command line's), several
    times the CPU, for nothing to free (``docs/performance.md``, start37). Whatever older garbage
    is frozen with the rest is thawed and collected by :func:`restore_gc`'s caller's next
    collections, or lives as long as a process that ends with the import."""
    previous = gc.get_threshold()
    froze = gc.get_freeze_count() == 0
    if froze:
        gc.collect(1)
        gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return QuietGC(previous, froze)


def restore_gc(previous: QuietGC) -> None:
    gc.set_threshold(*previous.threshold)
    if previous.froze:
        gc.unfreeze()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block (the collector's state is restored after it).

    For building what lives as long as the process: the parser's tables, the referee, the EV
    tables (:func:`warm_up`, :func:`hhparse.importer._preload`). Those builds allocate hundreds of
    thousands of container objects and free almost none of them, so at the default threshold the
    collector ran dozens of young collections over them and, as they aged, a full collection of
    everything loaded (pyarrow's and numpy's modules included), freeing a few dozen objects:
    CPU spent on the import's start-up, which every worker waits for (``bench/import.py
    --phases``, ``docs/performance.md``). What the builds leave in cycles is collected by the next
    collection (:func:`quiet_gc` runs one)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def worker_init(main_pid: int, ev: bool = True) -> None:
    """Let go of the main process's stdout and stderr (a worker forked from it holds them), tie
    the worker's life to the import's (:func:`hhparse.workers.die_with_parent`), load the
    parser and referee once (and the EV tables when the import takes the EV), pay a batch's
    one-off costs (:func:`warm_up`), then move everything that lives for the whole run out of the
    garbage collector's sight (``gc.freeze``): the collector then only scans the objects of the
    hands being processed."""
    start = time.monotonic()
    release_std_streams()  # (forked from the main process, a worker holds its stdout until here)
    die_with_parent(main_pid)
    without_pandas()
    with collector_paused():  # (frozen before the collector resumes: collector_paused says why)
        warm_up(ev)
        quiet_gc()
    _READY[:] = [start, time.monotonic()]


def without_pandas() -> None:
    """Keep pandas out of a pool worker (:func:`hhparse.lazy.refuse_pandas`): a pool worker never
    holds a pandas object, and the import cost each worker about as much CPU as its parser and
    referee together (``bench/import.py --phases``). Only for processes that run nothing but
    import tasks (a local pool's worker): a Dask worker may run other code, and keeps it."""
    from hhparse.lazy import refuse_pandas

    refuse_pandas()


def warm_up(ev: bool = True) -> None:
    """Load the parser, the referee and (``ev``) the EV tables, and tabulate an empty batch
    (building the tables' schemas and what pyarrow loads on first use): the first task then costs
    what the others do. Without ``ev`` the EV module is not imported (its tables are built at
    import): a task that takes the EV all the same imports it then (:func:`ev_stage`)."""
    with collector_paused():
        from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
        from hhparse.parsing import _parser

        if ev:
            ev_stage()

        _parser()
        process_blocks([], ev=ev)


# --------------------------------------------------------------------------------------------
# Timings for the import's trace (hhparse.importer.ImportTrace, bench/import.py)
# --------------------------------------------------------------------------------------------

TaskTiming = tuple[int, float, float, float, tuple[float, float] | None]
"""What a worker says of one task: ``(pid, start, end, CPU seconds, start-up)``; times on
``CLOCK_MONOTONIC``; ``start-up`` is the worker's :func:`worker_init` ``(start, end)``, sent with
its first task only."""

_READY: list[float] = []


def _timing(start: float, cpu: float) -> TaskTiming:
    ready = (_READY[0], _READY[1]) if _READY else None
    _READY.clear()
    return (os.getpid(), start, time.monotonic(), time.process_time() - cpu, ready)


def process_timed(
    packed: PackedBlocks, open_tails: frozenset[int] = frozenset(), ev: bool = True
) -> tuple[TaskResult, TaskTiming]:
    """:func:`process_packed`, with when it ran and its CPU time (the local pool's task)."""
    start, cpu = time.monotonic(), time.process_time()
    result = process_packed(packed, open_tails, ev)
    return result, _timing(start, cpu)
