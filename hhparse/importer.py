"""Bulk import, the run: plan → tasks → executor → merge → the Parquet warehouse.

An import is three modules: :mod:`hhparse.import_plan` decides which files and which of their
bytes to read (incremental imports, live files); :mod:`hhparse.import_worker` turns a task's
blocks into Arrow tables (parse, referee, all-in EV), wherever an :class:`Executor` runs it; this
module runs the import: it cuts the planned files into tasks, merges the results, de-duplicates
and publishes. Design (issue #5), and why:

* **Blocks are the unit of work.** The main process streams files through the splitter and sends
  batches of ``task_hands`` blocks to a process pool; workers parse, referee and build *Arrow
  columns* (cheaper to write than Python rows: ``docs/performance.md``) and return finished
  tables. At most ``4 × jobs`` tasks are in flight, and results are published every
  ``batch_hands`` hands, so memory stays bounded whatever the input size. ``jobs=1`` runs
  everything in-process.
* **Results are consumed in submission order**, so "blocks processed so far" is always a prefix of
  each file: the manifest can record per-file progress as a block count, published atomically with
  the batch that completes it. A run killed at any moment resumes from the last published batch;
  the uncommitted work is simply redone, so no hand is lost or doubled.
* **Incremental** (:func:`~hhparse.import_plan.plan_file`): a file whose size and mtime match a
  complete manifest record is skipped without reading it; a file that grew is verified and only
  its new blocks are parsed; a file whose prefix changed is re-read from the start (its hands then
  show up as duplicates or conflicts).
* **Duplicates and conflicts** are decided in the main process against the known
  ``(site, hand_id) → content hash`` index (:class:`~hhparse.known.KnownHands`, 16 bytes a hand,
  so memory stays bounded however large the warehouse), loaded once from the published ``hands``
  table a record batch at a time and kept up to date in memory. Rejects are deduplicated on their
  content hash. A conflict (a stored hand id, another text) keeps the stored hand and goes to
  ``rejects`` with code ``conflict``, text and all: nothing read is lost, and the exit code says so.
* **Workers die with the import** (:mod:`hhparse.workers`): kill -9 of the main process ends the
  workers (and the forkserver and resource tracker, when the pool has them), none of which holds
  the caller's stdout.

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
import itertools
import multiprocessing
import os
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from hhparse import import_plan, import_worker, inputs
from hhparse.failures import ExitCode, UsageError, WarehouseNotFoundError, os_reason
from hhparse.import_plan import (
    DEFAULT_SETTLE_SECONDS,
    FileRun,
    expand_inputs,
    expand_paths,
    plan_file,
    unreadable_run,
    utc_now,
)
from hhparse.import_worker import (
    FilesResult,
    Segment,
    TaskResult,
    TaskTiming,
    pack_blocks,
    process_blocks,
    process_timed,
    worker_init,
)
from hhparse.inputs import with_last
from hhparse.known import KnownHands, hash_value
from hhparse.splitter import BLOCK_BINARY, Block
from hhparse.staging import (
    BatchPart,
    StagedPart,
    StagedResult,
    StagedRows,
    batch_part,
    process_staged,
    staged_result,
    timed_write_batch,
)
from hhparse.tables.build import HAND_IDX, records_from_pylist, strip_hand_idx
from hhparse.tables.store import Warehouse, classify
from hhparse.workers import WATCH_SECONDS, start_helpers, stop_pool, wait_result

__all__ = [
    "DEFAULT_BATCH_HANDS",
    "DEFAULT_TASK_HANDS",
    "POOL_MIN_BYTES",
    "Executor",
    "FileRun",
    "ImportResult",
    "ImportSession",
    "ImportStats",
    "InProcessExecutor",
    "PoolExecutor",
    "Reporter",
    "Task",
    "compact",
    "expand_paths",
    "import_paths",
    "local_executor",
]

DEFAULT_TASK_HANDS = 500
DEFAULT_BATCH_HANDS = 50_000
TAIL_TASKS = 2
AHEAD_POLL_SECONDS = 0.05
"""How often a pool whose tasks run ahead of the merge asks whether the index is read yet."""
"""The last this many tasks' worth of text per worker is cut in quarter tasks (the tail)."""
TASK_BYTES = 16 << 20
"""A task also ends at this much text, so a file of huge (rejected) blocks keeps memory bounded."""
ENV_SETTLE_SECONDS = "HHPARSE_SETTLE_SECONDS"
MAX_LISTED_CONFLICTS = 1000
BYTES_A_HAND = 1 << 10
"""About what a hand's text weighs: a task of files its worker reads holds whole files, about
``task_hands`` hands' worth of bytes (or one larger file)."""
READ_PROBE_FILES = 8
"""Inputs a cluster's workers are asked to open before they are trusted to read them all."""


class Executor(Protocol):
    """Where an import's tasks run: the one thing a local import and a cluster import do not share.

    Planning (:meth:`_Importer.tasks`), merging, de-duplication, conflicts, rejects, live files
    and publishing stay in the importer whatever runs the tasks; an executor only turns each
    :class:`Task` into the :class:`TaskResult` of :func:`process_packed` (parse, referee, all-in
    EV, Arrow tables). It must hand the results back **in submission order** (the manifest records
    each file's progress as a prefix of its blocks) and keep the tasks in flight bounded (memory).
    When the consumer stops early (an error while merging, Ctrl-C) the generator is closed: the
    executor then cancels what is queued and stops its workers, and publishes nothing (only the
    importer commits: a :class:`StagingExecutor`'s workers write files under tags the warehouse
    announced, which nothing reads until the importer commits them). :class:`InProcessExecutor` and :class:`PoolExecutor` run locally;
    :class:`hhparse.cluster.DaskExecutor` on a Dask cluster.
    """

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult | FilesResult]]:
        """Each task with its result, in the order of ``tasks``: a :class:`FilesResult` for a task
        of :attr:`Task.segments` (only an executor whose ``reads_inputs`` said yes gets those)."""
        ...


class InputReader(Protocol):
    """An executor whose workers can read the inputs themselves (a Dask cluster on a shared file
    system, fsspec URLs): asked once per import, with a sample of the planned inputs."""

    def reads_inputs(self, sample: Sequence[tuple[str, int]]) -> bool:
        """Whether tasks may name files (``(name, planned size)``) instead of carrying text."""
        ...


class InProcessExecutor:
    """Every task in this process (``--jobs 1``): the parser is built before the collector is
    quietened (:func:`~hhparse.import_worker.quiet_gc`), as in a worker — unless ``quiet_gc`` is false (an
    :class:`ImportSession` kept warm did it once for all its imports)."""

    def __init__(self, quiet_gc: bool = True) -> None:
        self.quiet_gc = quiet_gc
        self.trace: ImportTrace | None = None  # set by the importer

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult]]:
        """Each task with its result, in order. The parser, referee and EV tables are built once
        there is a task to run: a re-import of unchanged files builds none of them (as
        :meth:`PoolExecutor.results` starts no worker for it)."""
        trace = self.trace or ImportTrace()
        first_task = next(tasks, None)
        if first_task is None:
            return
        tasks = itertools.chain((first_task,), tasks)
        ready = time.monotonic()
        with import_worker.collector_paused():
            from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
            from hhparse.parsing import _parser

            if ev:  # its tables are built at import (and not needed without the EV stage)
                import_worker.ev_stage()
            _parser()  # built before the freeze, like a worker's
            # (frozen before the collector resumes: it would otherwise begin with a collection
            # of all that was just built)
            previous = import_worker.quiet_gc() if self.quiet_gc else None
        pid = os.getpid()
        first: tuple[float, float] | None = (ready, time.monotonic())
        try:
            for task in tasks:
                start, cpu = time.monotonic(), time.process_time()
                result = process_blocks(task.blocks, task.open_tails, ev)
                trace.task_timing((pid, start, time.monotonic(), time.process_time() - cpu, first))
                first = None
                yield task, result
        finally:
            if previous is not None:
                import_worker.restore_gc(previous)


class PoolExecutor:
    """``jobs`` local worker processes, forked from this process (or from a forkserver when
    another thread runs here: :meth:`start_method`), that die with it (:mod:`hhparse.workers`).

    :meth:`start` starts them before the first task is cut (the importer calls it once the plan
    says a pool is needed, and reads its index of stored hands meanwhile), so that their start-up
    overlaps the main process's own; :meth:`results` starts them if nobody did and there is a
    task to run, and :meth:`close` stops workers started for an import that then failed before
    running.

    ``ev``: whether the import takes the all-in EV. Without it neither the workers nor a
    forkserver build the EV tables (as :class:`InProcessExecutor` does not); a task that takes the EV
    all the same still gets it (each worker then imports the EV module on its first such task)."""

    def __init__(self, jobs: int, ev: bool = True, stage: bool = True, method: str | None = None) -> None:
        self.jobs = jobs
        self.ev = ev
        self.stage = stage
        self.method = method  # None: fork when this process runs no other thread (start_method)
        self.started = ""  # the start method of the running pool
        self.trace: ImportTrace | None = None  # set by the importer
        self.staging: Staging | None = None  # set by the importer when the workers stage (stages)
        self._pool: ProcessPoolExecutor | None = None
        self._drained = False  # every task ran: the pool is kept for the last batch's write
        self._feed: tuple[Callable[[], bool], deque[Any], int] | None = None  # (results' window)
        # Set by the importer: while ``ahead[0]()`` (its index of stored hands is being read, and
        # its merge would wait for it) up to ``ahead[1]`` tasks run ahead of the merge, not 4 a worker.
        self.ahead: tuple[Callable[[], bool], int] | None = None

    def start_method(self) -> str:
        """How :meth:`start` makes the workers: ``fork`` of this process when nothing but its
        main thread runs (a fork copies only the calling thread: a lock another thread held at
        that moment would stay held in the child forever), else from a ``forkserver``.

        Why fork first: the importing process has pyarrow and numpy loaded already, so its
        workers start at once and build the parser, referee and EV tables side by side, one on
        each core; a forkserver first imports pyarrow and numpy again and builds all of that
        alone, on one core, while the workers cannot start and the other core waits
        (``docs/performance.md``). The process's Python threads are what can be known; the
        native libraries' own threads (OpenBLAS's, Arrow's pools) hold no lock between calls
        and reset themselves in a forked child."""
        if (
            self.method is None
            and sys.platform.startswith("linux")
            and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods()
        ):
            return "fork"
        return self.method or "forkserver"

    def start(self) -> None:
        """Start the ``jobs`` workers now (:meth:`start_method`). Forked from this process, they
        finish their start-up (:func:`~hhparse.import_worker.worker_init`) on their own while it
        returns at once (the importer reads its index meanwhile); from a forkserver, it returns
        once the forkserver has loaded what the workers need and forked them (the importer reads
        its index meanwhile, in a thread)."""
        if self._pool is not None:
            return
        method = self.start_method()
        ctx = multiprocessing.get_context(method)
        if method == "forkserver":
            # The forkserver imports what every worker needs once (pyarrow, numpy, parser,
            # referee, EV tables): each worker forked from it starts with them loaded. (Effective
            # when this call starts the forkserver; one already running keeps what it loaded.)
            ctx.set_forkserver_preload(["__main__", *(m for m in PRELOAD if self.ev or m != "hhparse.ev")])
            start_helpers(ctx)
        pool = ProcessPoolExecutor(
            max_workers=self.jobs, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(), self.ev)
        )
        widen_task_pipe(pool)  # (before any worker is forked: they share its pipe)
        # Forked workers inherit this process's objects: frozen first, so that no collection in
        # a worker walks them (and copies every page they are on); thawed here once forked. (A
        # process that froze its own objects already, a warm session, keeps them frozen.) The
        # collector is paused from the build to the freeze: the workers wait for the build, and
        # a collection resumed before the freeze would begin by walking all it built.
        freeze = method == "fork" and gc.get_freeze_count() == 0
        with import_worker.collector_paused() if method == "fork" else contextlib.nullcontext():
            if method == "fork":
                _preload(self.ev)
            if freeze:
                gc.freeze()
        try:
            for _ in range(self.jobs):  # each submit starts a worker while none is idle (fork: all at once)
                pool.submit(int)
        except BaseException:
            stop_pool(pool)
            raise
        finally:
            if freeze:
                gc.unfreeze()
        self.started = method
        self._pool = pool

    def close(self) -> None:
        """Stop the workers: at once if :meth:`results` has not run them to the end, else once
        they are done (the last batch is written)."""
        pool, self._pool = self._pool, None
        drained, self._drained = self._drained, False
        if pool is None:
            return
        if not drained:
            stop_pool(pool)
            return
        try:
            pool.shutdown(wait=True)
        except BaseException:  # (Ctrl-C here must stop the pool too)
            stop_pool(pool)
            raise

    def stages(self, staging: Staging) -> bool:
        """Whether the workers write the tasks' tables into the warehouse
        (:class:`StagingExecutor`): they see its folder, as this process does; ``stage=False``
        has them send their tables instead (this process then writes the batches)."""
        return self.stage

    def write_batch(
        self, tag: str, parts: dict[str, list[pa.Table | StagedPart | StagedRows]]
    ) -> dict[str, int]:
        """Have the workers write the batch ``tag`` of the warehouse (:func:`hhparse.staging.write_batch`),
        its tables shared out between ``jobs`` writes (:func:`write_groups`: the last batch,
        written with nothing else left to run, takes half the time on two workers); rows by
        table. The writes are queued after the tasks in flight: while they wait and run, the
        next tasks are cut and submitted behind them (:meth:`_feed_while`), so that a worker
        with no write to do still has a task to run."""
        pool, staging = self._pool, self.staging
        assert pool is not None and staging is not None
        spec = {name: [batch_part(p) for p in table_parts] for name, table_parts in parts.items()}
        futures = [
            pool.submit(timed_write_batch, staging.root, staging.folder, tag, group)
            for group in write_groups(spec, self.jobs)
        ]
        self._feed_while(futures)
        rows: dict[str, int] = {}
        for future in futures:
            written, timing = wait_result(future)
            rows.update(written)
            if self.trace is not None:
                self.trace.write_timing(timing)
        return rows

    def _feed_while(self, writes: Sequence[Future[Any]]) -> None:
        """Until ``writes`` are done, keep up to the usual number of tasks running or queued
        (:meth:`results`'s window, at most twice as long while its results wait to be merged)."""
        while self._feed is not None:
            # (only the writes not done yet are waited on: with one done, the wait returned at
            # once, and this loop spun on a core the workers need until the other was done)
            pending = [f for f in writes if not f.done()]
            if not pending:
                return
            submit, window, depth = self._feed
            running = [f for _, f in window if not f.done()]
            if len(running) < depth and len(window) < 2 * depth and submit():
                continue
            wait_futures([*pending, *running], timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult]]:
        """Each task with its result, in order; at most ``4 × jobs`` tasks in flight. When the
        workers stage (:attr:`staging`), each task's tables go to its fragment
        (:func:`hhparse.staging.process_staged`) and the pool is kept once the tasks are done,
        for the last batch's write (:meth:`write_batch`; :meth:`close` ends it)."""
        trace = self.trace or ImportTrace()
        staging = self.staging

        def wait(f: Future[tuple[Any, TaskTiming]]) -> TaskResult:
            start = time.monotonic()
            result, timing = wait_result(f)
            trace.waited += time.monotonic() - start
            trace.task_timing(timing)
            return staged_result(result) if staging is not None else result  # type: ignore[no-any-return,unused-ignore]

        first = next(tasks, None)
        if first is None:  # nothing to run (every file unchanged): no worker is started for it
            return
        tasks = itertools.chain((first,), tasks)
        self.start()
        pool = self._pool
        assert pool is not None
        # Enough tasks in flight that the workers keep going while the importer merges and
        # publishes (results are still merged, and published, in submission order).
        depth = max(4, 4 * self.jobs)
        window: deque[tuple[Task, Future[tuple[Any, TaskTiming]]]] = deque()

        def submit() -> bool:
            """Cut and submit the next task (``False``: none left)."""
            task = next(tasks, None)
            if task is None:
                return False
            start, cpu = time.monotonic(), time.thread_time()
            packed = pack_blocks(task.blocks)
            fut: Future[tuple[Any, TaskTiming]]
            if staging is not None:
                fut = pool.submit(process_staged, packed, task.open_tails, ev, staging.next())
            else:
                fut = pool.submit(process_timed, packed, task.open_tails, ev)
            window.append((task, fut))  # the text stays until merged: a conflict keeps it
            trace.submitting += time.monotonic() - start
            trace.submitting_cpu += time.thread_time() - cpu
            return True

        def merge_now() -> bool:
            """Whether to hand the oldest result to the importer before cutting the next task.
            While the importer's index is read (:attr:`ahead`) its merge would wait for it: the
            next task is then cut once fewer than ``depth`` tasks run or wait to, up to
            ``ahead[1]`` in all, and this thread waits meanwhile (cutting every task at once
            held the interpreter's lock against the thread reading the index)."""
            while len(window) > depth:
                ahead = self.ahead
                if ahead is None or len(window) >= ahead[1] or not ahead[0]():
                    return True
                running = [f for _, f in window if not f.done()]
                if len(running) < depth:
                    return False
                wait_futures(running, timeout=AHEAD_POLL_SECONDS, return_when=FIRST_COMPLETED)
            return False

        self._feed = (submit, window, depth)
        try:
            while submit():
                while merge_now():
                    t, f = window.popleft()
                    yield t, wait(f)
            while window:
                t, f = window.popleft()
                yield t, wait(f)
            self._feed = None
            if staging is not None:
                self._drained = True
                return
            self._pool = None
            pool.shutdown(wait=True)  # (inside: Ctrl-C here must stop the pool too)
        except BaseException:  # (GeneratorExit too: the importer stopped early)
            self._feed = None
            self._pool = None
            stop_pool(pool)  # at once: do not wait for the queued tasks
            raise


TASK_PIPE_BYTES = (4 << 20, 2 << 20, 1 << 20)
"""What the pipe carrying the tasks to the workers is asked to hold, the largest Linux grants
first (an unprivileged process gets up to ``/proc/sys/fs/pipe-max-size``, 1 MiB by default)."""


def widen_task_pipe(pool: ProcessPoolExecutor) -> int:
    """Let the pipe that carries the tasks to ``pool``'s workers hold a whole task's text (Linux:
    ``F_SETPIPE_SZ``); returns its size in bytes (0: left as it was). At the default 64 KiB a task
    (about 0.7 MB of text for 500 hands) went through in 64 KiB steps, each waiting for this
    process's feeder thread to be given a core and write the next one, while the worker that
    asked for it sat idle between its tasks; a pipe that holds a task has it written ahead, while
    the workers run the task before. (The results' pipe is left as it is: a staged task's result,
    each hand's id, hash and verdict, fits the default; widening it measured no difference.)
    Only the pipe's buffer changes: what is sent, and a worker killed or a pool stopped with
    tasks in it, are as before."""
    try:
        import fcntl
    except ImportError:  # (not a POSIX system)
        return 0
    queue = getattr(pool, "_call_queue", None)
    writer = getattr(queue, "_writer", None)
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if writer is None or setsize is None:
        return 0
    for size in TASK_PIPE_BYTES:
        try:
            return int(fcntl.fcntl(writer.fileno(), setsize, size))
        except OSError:  # (more than this system lets an unprivileged process have)
            continue
    return 0


WRITE_WEIGHTS = {"actions": 10, "hands": 6, "hand_players": 5, "rejects": 3}
"""What writing each table of a batch roughly costs against a table not listed (1), on real
hands: how :func:`write_groups` shares a batch's tables out between the pool's workers."""


def write_groups(spec: dict[str, list[BatchPart]], n: int) -> list[dict[str, list[BatchPart]]]:
    """The tables of a batch in at most ``n`` groups of about the same cost (:data:`WRITE_WEIGHTS`),
    each written by one worker (:meth:`PoolExecutor.write_batch`); every table in exactly one."""
    groups: list[tuple[int, dict[str, list[BatchPart]]]] = [(0, {}) for _ in range(max(1, n))]
    for name in sorted(spec, key=lambda t: -WRITE_WEIGHTS.get(t, 1)):
        i = min(range(len(groups)), key=lambda g: groups[g][0])
        cost, group = groups[i]
        group[name] = spec[name]
        groups[i] = (cost + WRITE_WEIGHTS.get(name, 1), group)
    return [group for _, group in groups if group]


PRELOAD = (
    "hhparse.pool_threads",
    "hhparse.import_worker",
    "hhparse.staging",
    "hhparse.engine",
    "hhparse.ev",
    "hhparse.parsing",
    "hhparse.pool_preload",
)
"""What the pool's forkserver imports once for all its workers (:meth:`PoolExecutor.start`): first
:mod:`hhparse.pool_threads` (numpy's BLAS then starts no threads), and last
:mod:`hhparse.pool_preload`, which builds what each worker would otherwise build for itself."""


def _preload(ev: bool) -> None:
    """Build here, once, what every worker forked from this process would otherwise build for
    itself (:func:`~hhparse.import_worker.warm_up`, as a forkserver does with :data:`PRELOAD`):
    the parser's tables, the referee and, for an import that takes the EV, the EV tables. As
    long as it takes here, the workers' start-up takes less, side by side: the same wall time,
    less CPU in all. (No empty batch here: pyarrow's first conversion of a list imports pandas.)
    :meth:`PoolExecutor.start` runs it with the collector paused: the workers wait for it."""
    import pyarrow.compute  # noqa: F401  (what the table builder reaches)

    from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
    from hhparse.parsing import _parser

    if ev:
        import_worker.ev_stage()  # (its tables are built as its module is imported)
    with contextlib.suppress(Exception):  # (a parser that fails to build fails in each worker, reported)
        _parser()


def local_executor(jobs: int) -> Executor:
    """The executor of ``--jobs N``: in-process for 1, a pool of ``jobs`` processes otherwise."""
    return InProcessExecutor() if jobs <= 1 else PoolExecutor(jobs)


def _parallel(executor: Executor) -> int:
    """Tasks the executor runs at once: its pool's processes, or a cluster's worker threads
    (``threads()``, :class:`hhparse.cluster.DaskExecutor`). The tail's smaller tasks and the
    publish before it (:meth:`_Importer._task_limit`, :meth:`_Importer._tail_reached`) depend
    on it: counted as 1, a cluster's import published every hand after its last result, with
    the workers idle."""
    if isinstance(executor, PoolExecutor):
        return executor.jobs
    threads = getattr(executor, "threads", None)
    return max(1, int(threads())) if callable(threads) else 1


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
    segments: list[Segment] = field(default_factory=list)  # files the worker reads itself (then
    # ``blocks`` is empty until the result says what was read), one per ``segment_files`` entry
    segment_files: list[int] = field(default_factory=list)


STAGED_PARTS = 10_000
"""Fragments in one staging tag's folder (:func:`hhparse.tables.store.staged_name` numbers them
in four digits); the next go under a new tag."""


class Staging:
    """Names for the fragments the workers (a local pool's, a cluster's) write into the
    warehouse's staging area (:mod:`hhparse.staging`), under
    tags the warehouse announced first (:meth:`~hhparse.tables.store.Warehouse.stage`): a crash
    at any point leaves nothing the next writer does not delete. :meth:`close` deletes what is
    left (the fragments of tasks never merged) when the import is over."""

    def __init__(self, wh: Warehouse) -> None:
        self.wh = wh
        self.root = str(wh.root)
        self.tags: list[str] = []
        self.folder = ""  # the staging folder of the last tag
        self._used = STAGED_PARTS

    def next(self) -> tuple[str, str, int]:
        """``(staging folder, tag, part)`` of the next task's fragment."""
        if self._used >= STAGED_PARTS:
            tag, folder = self.wh.stage()
            self.tags.append(tag)
            self.folder, self._used = str(folder), 0
        self._used += 1
        return self.folder, self.tags[-1], self._used - 1

    def close(self) -> None:
        """Forget every tag, deleting what is left under it."""
        while self.tags:
            self.wh.unstage(self.tags.pop())


class StagingExecutor(Protocol):
    """An executor whose workers can write into the warehouse (the local pool, a Dask cluster
    sharing its file system; :mod:`hhparse.staging`): its tasks' tables go to fragments (:class:`StagedResult`), and a worker writes each
    batch (:meth:`~hhparse.tables.store.Warehouse.publish_written`)."""

    staging: Staging | None

    def stages(self, staging: Staging) -> bool:
        """Whether the workers can write into ``staging`` (then tasks are staged)."""
        ...

    def write_batch(
        self, tag: str, parts: dict[str, list[pa.Table | StagedPart | StagedRows]]
    ) -> dict[str, int]:
        """Write each table's parts, in order, as the batch ``tag``; rows by table."""
        ...


class Reporter(Protocol):
    """Progress sink: the CLI shows a rich bar on a terminal and log lines otherwise."""

    def start(self, files: int, total_bytes: int) -> None:
        """Called once the plan is known."""

    def advance(self, stats: ImportStats) -> None:
        """Called after each task's results are merged."""

    def file_done(self, run: FileRun) -> None:
        """Called when a file is finished (or failed)."""


@dataclass
class ImportTrace:
    """Where one import's time goes (``bench/import.py`` prints it): why a run with two workers
    is not twice as fast is read from here, not guessed. Times are seconds since the import
    started on the ``CLOCK_MONOTONIC`` clock, which every process of this machine shares (a
    remote Dask worker's task times are on its own machine's clock: only their lengths count).

    ``marks`` are the first time each phase was reached (``planned``, ``executor``,
    ``first_task``, ``first_result``, ``indexed`` — the index of stored hands, which the first
    merge waits for —, ``last_result``, ``done``); ``waited`` the main process's
    time blocked on a result, ``cutting`` its time reading and splitting the files into tasks,
    ``merging`` and ``publishing`` its time de-duplicating and writing (apart: a batch published
    while merging counts as publishing; ``publishing_cpu``: the
    CPU time of the latter, the rest is waiting for the disk), ``submitting`` its time handing
    the tasks to the pool (packing their blocks, queueing them; the pool's own threads pickle and
    send them); each ``*_cpu`` is the main thread's CPU time of that part, and ``cpu`` the
    process's and its main thread's CPU time from the start to ``done`` (the rest of the process's
    CPU is its other threads': the pool's, the index's).
    ``tasks`` holds one ``(worker pid, start, end, CPU seconds)`` per task a worker ran,
    ``writes`` one per batch write a worker ran (:meth:`PoolExecutor.write_batch`), and
    ``workers`` each worker's start-up ``(start, end)``; from them come the workers' idle time,
    what of it went to writing batches, and the tail (one worker still busy, the other done)."""

    started: float = field(default_factory=time.monotonic)
    marks: dict[str, float] = field(default_factory=dict)
    waited: float = 0.0
    cutting: float = 0.0
    merging: float = 0.0
    publishing: float = 0.0
    publishing_cpu: float = 0.0
    cutting_cpu: float = 0.0
    merging_cpu: float = 0.0
    submitting: float = 0.0
    submitting_cpu: float = 0.0
    tasks: list[tuple[int, float, float, float]] = field(default_factory=list)
    writes: list[tuple[int, float, float, float]] = field(default_factory=list)
    workers: dict[int, tuple[float, float]] = field(default_factory=dict)
    cpu_started: tuple[float, float] = field(
        default_factory=lambda: (time.process_time(), time.thread_time())
    )
    cpu: tuple[float, float] | None = None  # (process, main thread) CPU seconds from the start to done

    def now(self) -> float:
        """Seconds since the import started."""
        return time.monotonic() - self.started

    def mark(self, phase: str) -> None:
        """Record the first time ``phase`` is reached (at ``done``, the CPU time spent: ``cpu``)."""
        self.marks.setdefault(phase, time.monotonic() - self.started)
        if phase == "done" and self.cpu is None:
            process, thread = self.cpu_started
            self.cpu = (time.process_time() - process, time.thread_time() - thread)

    def write_timing(self, timing: tuple[int, float, float, float]) -> None:
        """Record what a worker said of one batch write (:func:`~hhparse.staging.timed_write_batch`)."""
        pid, start, end, cpu = timing
        self.writes.append((pid, start - self.started, end - self.started, cpu))

    def task_timing(self, timing: TaskTiming) -> None:
        """Record what a worker said of one task (:func:`~hhparse.import_worker.process_timed`)."""
        pid, start, end, cpu, ready = timing
        self.tasks.append((pid, start - self.started, end - self.started, cpu))
        if ready is not None:
            self.workers.setdefault(pid, (ready[0] - self.started, ready[1] - self.started))

    def summary(self) -> dict[str, Any]:
        """The phase breakdown as plain numbers (wall seconds unless named ``cpu``)."""
        end = self.marks.get("done", self.now())
        per: dict[int, list[tuple[float, float, float]]] = {}
        for pid, start, stop, cpu in self.tasks:
            per.setdefault(pid, []).append((start, stop, cpu))
        workers: dict[int, dict[str, Any]] = {}
        for pid, runs in per.items():
            busy = sum(stop - start for start, stop, _ in runs)
            ready = self.workers.get(pid)
            last_end = max(r[1] for r in runs)
            writes = [(start, stop, cpu) for wpid, start, stop, cpu in self.writes if wpid == pid]
            workers[pid] = {
                "tasks": len(runs),
                "ready_start": ready[0] if ready else None,
                "ready": ready[1] if ready else None,
                "first_start": min(r[0] for r in runs),
                "last_end": last_end,
                "busy": busy,
                "task_cpu": sum(r[2] for r in runs),
                "writes": len(writes),
                # (a batch written after the worker's last task is part of its time after it)
                "writing_between": sum(stop - start for start, stop, _ in writes if stop <= last_end),
                "writing_after": sum(stop - start for start, stop, _ in writes if stop > last_end),
                "write_cpu": sum(cpu for _, _, cpu in writes),
            }
        last_ends = sorted(float(w["last_end"]) for w in workers.values())
        process_cpu, thread_cpu = self.cpu if self.cpu is not None else (None, None)
        return {
            "marks": dict(self.marks),
            "end": end,
            "waited": self.waited,
            "cutting": self.cutting,
            "cutting_cpu": self.cutting_cpu,
            "submitting": self.submitting,
            "submitting_cpu": self.submitting_cpu,
            "merging": self.merging,
            "merging_cpu": self.merging_cpu,
            "publishing": self.publishing,
            "publishing_cpu": self.publishing_cpu,
            "process_cpu": process_cpu,
            "main_thread_cpu": thread_cpu,
            "writes": [list(w) for w in self.writes],
            "workers": workers,
            "tail": last_ends[-1] - last_ends[0] if len(last_ends) > 1 else 0.0,
        }


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
    trace: ImportTrace = field(default_factory=ImportTrace)

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
    tables = result.load(result.fragment) if isinstance(result, StagedResult) else result.tables
    hands = tables.get("hands")
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


def _load_known(wh: Warehouse) -> tuple[KnownHands, set[tuple[str, int, str]], set[str]]:
    """The stored hands' index, read a record batch at a time (memory stays flat); where each
    stored reject was read: a reject is a duplicate only at the same place of the same file (the
    same bad text at two places is two rejects: both places are kept); and the content hashes of
    the stored tournament summaries (a summary file is stored once wherever it is found)."""
    known = KnownHands()
    known.load(wh.iter_batches("hands", ["site", "hand_id", "content_hash"]))
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
        loading: _Loading | None = None,
        parallel: int = 1,
    ) -> None:
        self.wh = wh
        self.ev = ev
        self.runs = runs
        self.executor = executor
        self.task_hands = task_hands
        self.parallel = parallel
        self.batch_hands = batch_hands
        self.reporter = reporter
        self.import_id = import_id
        self.stats = stats
        self.index = index  # else waited for (``loading``) or loaded at the first merge (:meth:`known`)
        self.loading = loading
        self.buffer: dict[str, list[pa.Table | StagedPart | StagedRows]] = {}
        self.fragments: list[str] = []  # staged fragments buffered (deleted once published)
        self.buffered_hands = 0
        self.dirty: set[int] = set()  # runs whose progress changed since the last publish
        self.finished: list[int] = []  # runs completed since the last publish (→ imports rows)
        self.conflicts: list[tuple[str, str]] = []
        self.merged = 0  # tasks merged so far
        self.tail_from: int | None = None  # the first task cut smaller (:meth:`_task_limit`)

    # -- task generation -------------------------------------------------------------------

    def file_tasks(self) -> Iterator[Task]:
        """The files to read, in tasks that name them (the worker reads them: issue #18): whole
        files, grouped up to about ``task_hands`` hands' worth of bytes. A file is never cut
        between tasks (its worker reads it from the start to skip what is committed, as
        :meth:`tasks` does), so its last block, its open tail and its end are in one task."""
        target = self.task_hands * BYTES_A_HAND
        segments: list[Segment] = []
        seg_files: list[int] = []
        ends: list[int] = []
        nbytes = cut = count = 0
        for i, run in enumerate(self.runs):
            ends.append(i)
            if run.status not in ("unreadable", "skipped"):
                segments.append((run.path, run.size, run.skip_blocks, run.settled, run.hash))
                seg_files.append(i)
                nbytes += run.size - run.resumed_from
            if nbytes >= target:
                cut, count = cut + nbytes, count + 1
                if self.tail_from is None and self._in_file_tail(cut, target):
                    self.tail_from = count  # (known before this task is merged, however few run at once)
                    if self.parallel > 1:
                        target = max(1, self.task_hands // 4) * BYTES_A_HAND
                yield Task([], [], ends, nbytes, segments=segments, segment_files=seg_files)
                segments, seg_files, ends, nbytes = [], [], [], 0
        if ends:
            yield Task([], [], ends, nbytes, segments=segments, segment_files=seg_files)

    def unpack(self, task: Task, got: FilesResult) -> tuple[Task, TaskResult]:
        """The task as :meth:`tasks` would have cut it, from what its worker read: each file's
        status, pending last hand and the reject an earlier run left open are applied to its run."""
        rereads: dict[int, list[Any]] = {}
        first: dict[int, int] = {}
        for idx, si in enumerate(got.segments):
            first.setdefault(si, idx)
        for si, fi in enumerate(task.segment_files):
            run = self.runs[fi]
            status, error, pending, unterminated = got.outcomes[si]
            if status != "ok":
                run.status, run.error = status, error
            run.unterminated = unterminated
            run.pending += pending
            self.stats.pending += pending
            if si in first and run.previous_tail is not None:
                rereads[first[si]] = run.previous_tail
                run.previous_tail = None
            elif si not in first:  # its earlier reject stays until that hand is read
                run.open_tail = run.previous_tail
        files = [task.segment_files[si] for si in got.segments]
        merged = Task(
            [],
            files,
            task.ends,
            task.nbytes,
            frozenset(got.open_tails),
            got.lines,
            frozenset(got.live),
            rereads,
            task.segments,
            task.segment_files,
        )
        return merged, got.result

    def _block(self, task: Task, idx: int) -> Block:
        """Block ``idx`` of ``task``: a worker that read its files kept their text, so a
        conflicting hand's text (kept in ``rejects``) is read again here, from its file."""
        if task.blocks:
            return task.blocks[idx]
        run = self.runs[task.files[idx]]
        line = task.lines[idx]
        for block in inputs.read_blocks(run.path, run.size, 0):
            if block.line == line:
                return block
        raise OSError(f"{run.path}: the hand at line {line} is no longer there")

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
        limit = self.task_hands
        cut = cut_blocks = count = 0  # text, blocks and tasks cut so far
        for i, run in enumerate(self.runs):
            if run.status in ("unreadable", "skipped"):
                ends.append(i)
                continue
            first = True
            try:
                for block, last in with_last(import_plan.iter_file_blocks(run)):
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
                    if n + 1 >= limit or nbytes >= TASK_BYTES:
                        yield Task(
                            blocks, files, ends, nbytes, frozenset(tails), lines, frozenset(live), rereads
                        )
                        cut, cut_blocks, count = cut + nbytes, cut_blocks + n + 1, count + 1
                        limit = self._task_limit(cut, cut_blocks)
                        if limit < self.task_hands and self.tail_from is None:
                            self.tail_from = count
                        blocks, files, ends, tails, lines, nbytes = [], [], [], set(), [], 0
                        live, rereads = set(), {}
            except OSError as exc:
                run.status, run.error = "error", os_reason(exc)
            if first:  # the reject of the hand an earlier run left open stays until that hand is read
                run.open_tail = run.previous_tail
            ends.append(i)
        if blocks or ends:
            yield Task(blocks, files, ends, nbytes, frozenset(tails), lines, frozenset(live), rereads)

    def _in_file_tail(self, cut: int, target: int) -> bool:
        """Whether the files left after ``cut`` bytes are the last :data:`TAIL_TASKS` tasks'
        worth per worker (:meth:`file_tasks`): from there the tasks group a quarter of the bytes,
        and the hands merged before are published while the workers run the tail, as
        :meth:`_task_limit` and :meth:`_tail_reached` do for tasks the client cuts."""
        remaining = self.stats.bytes_total - cut
        return remaining < TAIL_TASKS * self.parallel * target

    def _task_limit(self, cut: int, cut_blocks: int) -> int:
        """Blocks in the next task: ``task_hands``, and a quarter of it for the last
        :data:`TAIL_TASKS` tasks' worth of text per worker (estimated from the text cut so far),
        so that the workers finish together: with whole tasks to the end, one worker still ran
        its last task while the others had nothing left (``bench/import.py --phases``)."""
        if self.parallel <= 1 or not cut_blocks:
            return self.task_hands
        remaining = self.stats.bytes_total - cut
        if remaining < TAIL_TASKS * self.parallel * self.task_hands * (cut / cut_blocks):
            return max(1, self.task_hands // 4)
        return self.task_hands

    # -- merging ---------------------------------------------------------------------------

    def merge(self, task: Task, result: TaskResult) -> None:
        s = self.stats
        keep: list[int] = []
        runs = self.runs
        known, reject_keys, summary_hashes = self.known()
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
                old = known.setdefault(site, hand_id, value)
                if old is None:
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
                    conflict_rows.append(
                        _conflict_row(self._block(task, idx), site, hand_id, chash, result, idx)
                    )
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
        if isinstance(result, StagedResult):
            self._buffer_staged(result, keep, n)
        else:
            self._buffer(result.tables, keep, n)
        if conflict_rows:
            staged = isinstance(result, StagedResult)
            rejects = StagedRows(conflict_rows) if staged else records_from_pylist("rejects", conflict_rows)
            self.buffer.setdefault("rejects", []).append(rejects)
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
        self.merged += 1
        if self.buffered_hands >= self.batch_hands or self._tail_reached():
            self.publish()

    def reading_index(self) -> bool:
        """Whether the index of stored hands is still being read in its thread (``loading``)."""
        return self.index is None and self.loading is not None and not self.loading.done()

    def known(self) -> tuple[KnownHands, set[tuple[str, int, str]], set[str]]:
        """The index of stored hands, which only merging needs: read in a thread (``loading``)
        while the workers run the first tasks, and waited for by the first merge, or read here.
        Waited for before the first task, it kept the workers idle as long as it took to read
        (long, in a warehouse of millions of hands: ``docs/performance.md``)."""
        if self.index is None:
            loading, self.loading = self.loading, None
            self.index = loading.result() if loading is not None else _load_known(self.wh)
            self.stats.trace.mark("indexed")
        return self.index

    def _tail_reached(self) -> bool:
        """Whether every task before the tail is merged now, with at least twice the tail's hands
        buffered: they are published while the workers run the tail's tasks, instead of after
        them with the workers idle (a batch more)."""
        return (
            self.merged == self.tail_from
            and self.buffered_hands >= 2 * TAIL_TASKS * self.parallel * self.task_hands
        )

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

    def _buffer_staged(self, result: StagedResult, keep: list[int], n: int) -> None:
        """:meth:`_buffer` of a result a worker staged: the same rows, kept in its fragment."""
        part = StagedPart(result.fragment, None if len(keep) == n else keep)
        for name, rows in result.rows.items():
            if rows:
                self.buffer.setdefault(name, []).append(part)
        self.fragments.append(result.fragment)
        self.buffered_hands += len(keep)

    def _publish_staged(self, rows: list[dict[str, Any]], progress: dict[str, dict[str, Any]]) -> None:
        """:meth:`publish` when tables are staged: a worker writes the batch's files
        (:meth:`StagingExecutor.write_batch`), this process commits them; the fragments go."""
        parts = dict(self.buffer)
        if rows:
            parts["imports"] = [StagedRows(rows)]
        executor: Any = self.executor
        self.wh.publish_written(progress, lambda tag: executor.write_batch(tag, parts))
        for fragment in self.fragments:
            with contextlib.suppress(OSError):
                os.unlink(fragment)
        self.fragments.clear()

    def publish(self) -> None:
        """Write the buffered rows and the progress they complete, atomically."""
        if not self.buffer and not self.dirty:
            return
        finished_at = utc_now()
        rows = [self.runs[fi].import_row(self.import_id, finished_at) for fi in self.finished]
        progress = {
            self.runs[fi].path: self.runs[fi].progress(self.import_id)
            for fi in sorted(self.dirty)
            if self.runs[fi].in_manifest
        }
        start, cpu = time.monotonic(), time.thread_time()
        if self.fragments:
            self._publish_staged(rows, progress)
        else:
            tables = {name: pa.concat_tables(parts) for name, parts in self.buffer.items()}  # type: ignore[arg-type]
            if rows:
                tables["imports"] = records_from_pylist("imports", rows)
            self.wh.publish(tables, progress)
        self.stats.trace.publishing += time.monotonic() - start
        self.stats.trace.publishing_cpu += time.thread_time() - cpu
        self.stats.batches += 1
        self.buffer.clear()
        self.buffered_hands = 0
        self.dirty.clear()
        self.finished.clear()

    # -- running ---------------------------------------------------------------------------

    def run(self) -> None:
        # closing(): an error or Ctrl-C while merging reaches the executor at once (GeneratorExit
        # at its ``yield``), so it stops its workers instead of finishing the queued tasks
        reader = getattr(self.executor, "reads_inputs", None)
        sample = [(r.path, r.size) for r in self.runs if r.status not in ("unreadable", "skipped")]
        tasks = self.file_tasks() if reader and sample and reader(sample[:READ_PROBE_FILES]) else self.tasks()
        staging = self._staging()
        said = getattr(self.executor, "notes", None)
        if said:  # (the cluster's workers could not read the inputs: the client ships them)
            self.wh.notes.extend(said)
            said.clear()
        trace = self.stats.trace
        if hasattr(self.executor, "trace"):
            self.executor.trace = trace
        if hasattr(self.executor, "ahead") and self.loading is not None:
            # While the index is read the workers run up to a batch's tasks, not the usual few:
            # the first merge waits for it, and a large warehouse's index takes seconds to read.
            # (A task's text stays until merged: a batch's worth, the import's unit of memory.)
            self.executor.ahead = (self.reading_index, max(1, self.batch_hands // self.task_hands))
        trace.mark("executor")
        try:
            with contextlib.closing(self.executor.results(_timed(tasks, trace), self.ev)) as results:
                for task, got in results:
                    trace.mark("first_result")
                    start, cpu = time.monotonic(), time.thread_time()
                    published = (trace.publishing, trace.publishing_cpu)  # (a batch merge() publishes)
                    if isinstance(got, FilesResult):
                        self.merge(*self.unpack(task, got))
                    else:
                        self.merge(task, got)
                    trace.merging += time.monotonic() - start - (trace.publishing - published[0])
                    trace.merging_cpu += time.thread_time() - cpu - (trace.publishing_cpu - published[1])
            trace.mark("last_result")
            self.known()  # (kept by a session for its next import, never left half read)
            self.publish()
        finally:
            if hasattr(self.executor, "ahead"):
                self.executor.ahead = None
            if staging is not None:
                executor: Any = self.executor
                executor.staging = None
                with contextlib.suppress(OSError):  # (what is left is deleted by the next writer)
                    staging.close()
        trace.mark("done")

    def _staging(self) -> Staging | None:
        """A :class:`Staging` handed to the executor when its workers can write into the
        warehouse (:class:`StagingExecutor`), else ``None``."""
        stages = getattr(self.executor, "stages", None)
        if not callable(stages) or not self.stats.bytes_total:
            return None
        staging = Staging(self.wh)
        try:
            if not stages(staging):
                staging.close()  # (the tag its probe took)
                return None
        except BaseException:
            with contextlib.suppress(OSError):
                staging.close()
            raise
        executor: Any = self.executor
        executor.staging = staging
        return staging


class _Loading:
    """:func:`_load_known` in a thread of its own (started at once; a daemon: Ctrl-C does not
    wait for it)."""

    def __init__(self, wh: Warehouse) -> None:
        self._got: list[tuple[KnownHands, set[tuple[str, int, str]], set[str]]] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(wh,), name="hhparse-index", daemon=True)
        self._thread.start()

    def _run(self, wh: Warehouse) -> None:
        try:
            self._got.append(_load_known(wh))
        except BaseException as exc:  # re-raised in the caller's thread
            self._error.append(exc)

    def done(self) -> bool:
        """Whether the thread has finished (read the index, or failed to)."""
        return not self._thread.is_alive()

    def result(self) -> tuple[KnownHands, set[tuple[str, int, str]], set[str]]:
        """The index (what loading it raised, raised here)."""
        while self._thread.is_alive():
            self._thread.join(0.5)  # in steps: Ctrl-C reaches the main thread at once
        if self._error:
            raise self._error[0]
        return self._got[0]


def _timed(tasks: Iterator[Task], trace: ImportTrace) -> Iterator[Task]:
    """``tasks``, the time spent cutting them added to ``trace.cutting`` (``cutting_cpu``: the
    CPU time of the thread that cuts them)."""
    while True:
        start, cpu = time.monotonic(), time.thread_time()
        task = next(tasks, None)
        trace.cutting += time.monotonic() - start
        trace.cutting_cpu += time.thread_time() - cpu
        if task is None:
            return
        trace.mark("first_task")
        yield task


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
    after_commit: Callable[[Warehouse], object] | None = None,
    pool_min_bytes: int = 0,
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
        after_commit: called with the warehouse, its writer lock still held, once every batch
            is committed and the workers are stopped (:meth:`ImportSession.import_files`).
        pool_min_bytes: with ``jobs`` > 1, less new text than this is imported in this process
            all the same (:meth:`ImportSession.import_files`; ``hhparse import`` passes
            :func:`one_task_bytes`).
    """
    problems: list[tuple[Path, OSError]] = []
    _settle_seconds(settle_seconds)  # a bad value is a usage error before anything is read
    files = expand_inputs(paths, problems=problems)
    with ImportSession(
        warehouse,
        jobs=jobs,
        task_hands=task_hands,
        batch_hands=batch_hands,
        ev=ev,
        settle_seconds=settle_seconds,
        executor=executor,
    ) as session:
        return session.import_files(
            files, problems, reporter=reporter, after_commit=after_commit, pool_min_bytes=pool_min_bytes
        )


def one_task_bytes(task_hands: int = DEFAULT_TASK_HANDS) -> int:
    """New text below which ``hhparse import`` runs in its own process whatever ``--jobs`` says
    (:func:`import_paths`' ``pool_min_bytes``): about one task's worth (``task_hands`` hands of
    :data:`BYTES_A_HAND`, as :meth:`_Importer.file_tasks` counts them). Such an import is one
    task, which one worker runs while the others wait; the pool would add its start (two
    forks, each worker's warm-up), sending the text and the tables through pipes and staging
    files, and nothing in parallel: what a player importing the session just played waits for
    (``docs/performance.md``, start37)."""
    return task_hands * BYTES_A_HAND


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
        self._gc_previous: import_worker.QuietGC | None = None
        self._stale = False  # an import failed part-way: manifest and index are re-read first
        if keep_warm:
            try:
                self._warm()
            except BaseException:
                self.wh.close()
                raise

    def _warm(self) -> None:
        """Load the parser, referee and EV tables once, then freeze them out of the collector's
        sight for the whole session (as a worker does, :func:`~hhparse.import_worker.worker_init`)."""
        with import_worker.collector_paused():
            from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]  # noqa: F401
            from hhparse.ev import hand_ev  # noqa: F401  (its tables are built at import)
            from hhparse.parsing import _parser

            _parser()
            self._index = _load_known(self.wh)
            self._gc_previous = import_worker.quiet_gc()

    def __enter__(self) -> ImportSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the warehouse (and the collector's settings)."""
        if self._gc_previous is not None:
            import_worker.restore_gc(self._gc_previous)
            self._gc_previous = None
        self.wh.close()

    def import_files(
        self,
        files: Sequence[Path | str],
        problems: Sequence[tuple[Path, OSError]] = (),
        *,
        reporter: Reporter | None = None,
        pool_min_bytes: int = 0,
        after_commit: Callable[[Warehouse], object] | None = None,
    ) -> ImportResult:
        """Import ``files`` (already expanded: :func:`expand_paths`, or URLs: :func:`expand_inputs`); ``problems`` are inputs
        that could not be read, reported as such. The pool runs only when ``jobs`` > 1 and the
        files have at least ``pool_min_bytes`` of new text (:data:`POOL_MIN_BYTES` for a
        session's small imports), else the import runs in this process.

        A failure part-way (a full disk...) leaves the warehouse as its last commit left it; the
        session then reads its manifest and index again, so that its next import goes on from
        there.

        ``after_commit`` runs once the import is committed and its workers stopped, with the
        session's warehouse and its writer lock: what is derived from the files the import added
        (``hhparse import`` builds their player buckets, :mod:`hhparse.reports.buckets`) is built
        there, through the manifest this writer holds, instead of by a second writer that opens
        the warehouse again — its lock, its recovery, every listed file checked — once the
        import has let go of it (``docs/performance.md``). It handles its own failures: the
        import is committed whatever it does."""
        reporter = reporter or _NullReporter()
        import_id = f"{utc_now():%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}"
        stats = ImportStats()
        wh = self.wh
        if self._stale:
            wh.reload()
            self._index = None
            self._stale = False
        runs: list[FileRun] = [unreadable_run(path, exc) for path, exc in problems]
        touched: dict[str, dict[str, Any]] = {}
        now_ns = time.time_ns()
        for f in files:
            run = plan_file(f, wh.manifest.files, touched, settle_seconds=self.settle_seconds, now_ns=now_ns)
            if run is None:
                stats.files_skipped += 1
            else:
                runs.append(run)
        stats.trace.mark("planned")
        executor: Executor | None = None
        try:
            if touched:  # new mtimes only: no rows, no batch
                wh.publish({}, touched)
            stats.files_total = len(files) + len(problems)
            stats.bytes_total = sum(r.size - r.resumed_from for r in runs)
            executor = self._executor(stats.bytes_total >= pool_min_bytes)
            pool = executor if isinstance(executor, PoolExecutor) and stats.bytes_total else None
            # Forked, the workers start at once and the index is read while they warm up and run
            # the first tasks (they are forked first: the thread reading the index, or a
            # progress bar's, would make this process unsafe to fork); from a forkserver,
            # starting the pool waits for it to load what the workers need, and the index is
            # read meanwhile, on the other core. Only merging needs the index: the first merge
            # waits for it (:meth:`_Importer.known`), not the first task.
            forks = pool is not None and pool.start_method() == "fork"
            if pool is not None and forks:
                pool.start()
            reporter.start(len(runs), stats.bytes_total)
            loading: _Loading | None = None
            if pool is not None:
                loading = _Loading(wh) if self._index is None else None
                if not forks:
                    pool.start()
            imp = _Importer(
                wh,
                runs,
                executor=executor,
                task_hands=self.task_hands,
                batch_hands=self.batch_hands,
                reporter=reporter,
                import_id=import_id,
                stats=stats,
                ev=self.ev,
                index=self._index,
                loading=loading,
                parallel=_parallel(executor),
            )
            imp.run()
            self._index = imp.index  # (kept up to date by the run, for the session's next import)
            if stats.superseded:  # gone from the view already; now from the files outside readers glob
                wh.drop_superseded_rejects()
        except BaseException:
            self._stale = True  # merged hands may not have been published: re-read before going on
            raise
        finally:
            if isinstance(executor, PoolExecutor):
                executor.close()  # (started, then an error before its run: stopped at once)
        if after_commit is not None:
            after_commit(wh)
        notes = list(wh.notes)
        wh.notes.clear()
        return ImportResult(import_id, wh.root, stats, runs, imp.conflicts, notes, self.settle_seconds)

    def _executor(self, large: bool) -> Executor:
        """The session's executor; on this machine a pool only for a large enough import, and the
        collector quietened per import unless the session did it once for all."""
        if self.executor is not None:
            return self.executor
        if large and self.jobs > 1:
            return PoolExecutor(self.jobs, self.ev)
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
