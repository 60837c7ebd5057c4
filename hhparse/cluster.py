"""Run an import's tasks on a Dask cluster (issue #18): ``hhparse import --cluster ADDRESS``.

Why Dask and not a distribution of our own: ``distributed`` is the PyData engine for exactly this
(pure Python, Arrow-friendly, a local cluster for one big machine, a scheduler and workers for
many), and the importer needs nothing from it but "run this function somewhere and give me its
result". So this module is only an :class:`~hhparse.importer.Executor`: the importer plans the
tasks, merges the results in submission order, de-duplicates, records conflicts, rejects and
live-file pending hands, and publishes through the warehouse's manifest exactly as for a local
import. The differences are where :func:`hhparse.import_worker.process_packed` runs (parse, referee,
all-in EV, Arrow tables): on the cluster's workers; and who writes the Parquet files: the
workers, when they see the warehouse (below).

* **The workers read the inputs where they can** (issue #18). The client plans (it hashes every
  new or grown file to decide what to read: incremental imports) and sends tasks that *name*
  files (:data:`hhparse.import_worker.Segment`: path or fsspec URL, planned size and hash); a
  worker reads and hashes exactly those bytes (:func:`run_file_task`). When a worker cannot open
  the first inputs (:func:`can_read`, asked once an import with ``inputs="auto"``), the client
  cuts the files into hand blocks and ships them with the task instead, as ``inputs="client"``
  always does; then the workers need no file system in common with it. Either way the workers
  need hhparse (the same version: :func:`fingerprint` is checked on every task).
* **The workers write the tables, the client commits** (issue #18). When every worker sees the
  warehouse's folder (:meth:`DaskExecutor.stages`: always on ``local:N``, a probe file
  otherwise), a task's tables go into the warehouse's staging area as a *fragment*
  (:func:`_staged`) and only each hand's id, content hash and verdict come back; the client
  de-duplicates and records conflicts, rejects and pending hands on those alone, and for each
  batch a worker writes the Parquet files of the hands the client kept, in order
  (:func:`write_batch_task`) — the same rows, in the same files, as the client would have
  written — which the client then commits with the manifest protocol of
  :mod:`hhparse.tables.store` (:meth:`~hhparse.tables.store.Warehouse.publish_written`). The
  client holds the warehouse's lock throughout, and every file a worker writes is named under a
  tag the client announced in the manifest first (:meth:`~hhparse.tables.store.Warehouse.stage`):
  a worker killed mid-import costs only its running task, which the scheduler gives to another
  worker (a task that kills :data:`ALLOWED_FAILURES` workers is abandoned, and the import stops
  with everything published before kept); a client killed mid-import leaves the warehouse as a
  killed local import does (the next writer deletes whatever was staged under an announced
  tag), and the scheduler forgets its tasks when its connection drops: run the same command
  again. Workers that cannot see the warehouse send their tables, and the client writes them
  (``writes="client"`` always does).
* **``local:N``** starts a ``LocalCluster`` of N single-threaded worker processes on this machine
  (Dask's memory management and, with ``bokeh`` installed, its dashboard). Its workers are this
  process's children and die with it (:func:`hhparse.workers.die_with_parent`), as the local
  pool's do.

Dask is an optional extra: ``pip install 'hhparse[cluster]'``; nothing else of hhparse imports
this module.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import gc
import hashlib
import importlib.util
import logging
import os
import pickle
import re
import sys
import uuid
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import pyarrow as pa

from hhparse import __version__
from hhparse import inputs as _inputs
from hhparse.failures import HhparseError
from hhparse.import_worker import (
    GC_THRESHOLD,
    FilesResult,
    PackedBlocks,
    Segment,
    TaskResult,
    pack_blocks,
    process_files,
    process_packed,
    warm_up,
)
from hhparse.importer import PRELOAD, Staging, Task, write_groups
from hhparse.resources import data_dir
from hhparse.splitter import Block
from hhparse.staging import (
    BatchPart,
    Compression,
    Stage,
    StagedPart,
    StagedRows,
    batch_part,
    pack_streams,
    stage_result,
    staged_result,
    unpack_streams,
    write_batch,
)
from hhparse.tables.store import staged_name
from hhparse.workers import _std_streams_to_devnull, start_helpers

__all__ = [
    "ENV_SCHEDULER",
    "ClusterError",
    "DaskExecutor",
    "connect",
    "fingerprint",
    "parse_address",
]

ENV_SCHEDULER: Final = "HHPARSE_DASK_SCHEDULER"
"""The scheduler ``hhparse import`` uses when neither ``--cluster`` nor ``--jobs`` is given."""
ALLOWED_FAILURES: Final = 3
"""Dask's default ``distributed.scheduler.allowed-failures``: workers a task may see die."""
WAIT_SECONDS: Final = 0.5
"""Results are awaited in steps this long, so Ctrl-C reaches the client at once."""
INSTALL_HINT: Final = "pip install 'hhparse[cluster]'"
INPUT_MODES: Final = ("auto", "workers", "client")
"""Who reads the inputs: ``workers`` (a shared file system, fsspec URLs), ``client`` (it ships
the text), ``auto`` (the workers when they can open the first inputs, else the client)."""

MALLOC_TRIM_ENV: Final = "MALLOC_TRIM_THRESHOLD_"
"""What Dask's nanny sets (``distributed.nanny.pre-spawn-environ``, 64 KiB) so that a worker hands
freed memory back at once. It also switches off glibc's dynamic thresholds: an import's task
allocates and frees thousands of small objects a hand, and the heap was shrunk and grown again
all the time (system CPU about half the user CPU, twice the CPU a hand of a local pool's worker:
``bench/import.py --executor cluster``, ``docs/performance.md``)."""
TRIM_THRESHOLD: Final = 64 << 20
MMAP_THRESHOLD: Final = 32 << 20
"""The thresholds a worker started with :data:`MALLOC_TRIM_ENV` gets back (glibc's dynamic
thresholds settle at about these; they cannot be switched on again once off)."""
LOCAL_CONFIG: Final[dict[str, object]] = {
    f"distributed.nanny.pre-spawn-environ.{MALLOC_TRIM_ENV}": None,
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.profile.enabled": False,
    "distributed.worker.multiprocessing-method": "forkserver",
}
"""Dask's settings for a ``local:N`` cluster only (a running scheduler keeps its own). A
``LocalCluster`` runs its scheduler and its workers' nannies in this process's event-loop thread,
on the cores the workers need: each of them polls the system with ``psutil`` (every 500 ms), each
nanny the worker's memory (every 100 ms, a fresh ``psutil.Process`` each time), and each server
measures its event loop's latency (every 20 ms); each worker process does the same and samples its
own stack for the profiler (every 10 ms). Those polls cost the client as much CPU as the import's
messages, and the workers several percent more a hand (``docs/performance.md``), for plots only
the dashboard shows. Polled less often, the memory limits still hold (the nanny still restarts a
worker past them, a second later at most); the workers start without :data:`MALLOC_TRIM_ENV`.
And the workers are forked from a forkserver that has loaded what they need (:data:`LOCAL_PRELOAD`,
:func:`_start_forkserver`) instead of each spawned bare."""
LOCAL_PRELOAD: Final = ("distributed", *PRELOAD, "hhparse.cluster")
"""What the forkserver of a ``local:N`` cluster imports once for all its workers (Dask, pyarrow,
the parser's tables, the referee, the EV tables: the local pool's :data:`hhparse.importer.PRELOAD`
and this module). A spawned worker imported all of it itself, the largest part of its start-up, before
its first task: with N workers on N cores they did so at once, each slowed by the others and by
the client starting the scheduler and the nannies, and the user waits for the slowest; forked,
each worker starts with them loaded and only connects to the scheduler and warms up."""
_M_TRIM_THRESHOLD: Final = -1
_M_MMAP_THRESHOLD: Final = -3
UNTRIMMED: list[bool] = []
"""Whether this worker's warm-up gave glibc its thresholds back (:func:`untrim_malloc`)."""

_LOCAL_RE: Final = re.compile(r"^local(?::(\d+))?$")
_ADDRESS_RE: Final = re.compile(r"^(?:(tcp|tls|inproc|ucx|ws|wss)://)?[^\s/:]+(?::\d+)?$")


class ClusterError(HhparseError):
    """The cluster cannot be used or was lost (exit code 2: an environment error). Everything
    published before stays; running the same import again goes on from there."""


def parse_address(spec: str) -> tuple[str | None, int | None]:
    """``(scheduler address, None)`` or ``(None, local workers)`` for a ``--cluster`` value:
    ``tcp://HOST:PORT`` (or ``HOST:PORT``, Dask's default protocol and port 8786 if omitted),
    ``tls://...``, or ``local:N`` (``local`` alone: one worker per core).

    Raises:
        ClusterError: a value that is neither.
    """
    spec = spec.strip()
    local = _LOCAL_RE.match(spec)
    if local:
        n = int(local.group(1)) if local.group(1) else (os.cpu_count() or 1)
        if n < 1:
            raise ClusterError(f"--cluster {spec}: a local cluster needs at least 1 worker (local:N, N >= 1)")
        return None, n
    if not _ADDRESS_RE.match(spec):
        raise ClusterError(f"--cluster {spec!r} is not a Dask scheduler address (tcp://HOST:8786) or local:N")
    return spec, None


def _distributed() -> Any:
    """The ``distributed`` package, or a :class:`ClusterError` saying how to install it."""
    try:
        import distributed
    except ImportError as exc:
        raise ClusterError(f"--cluster needs Dask, which is not installed ({exc}): {INSTALL_HINT}") from None
    return distributed


# --------------------------------------------------------------------------------------------
# Worker side
# --------------------------------------------------------------------------------------------

_FINGERPRINT: list[str] = []


def fingerprint() -> str:
    """What makes two hhparse installs give the same rows: the version, and a digest of every
    source file and grammar of the package (compiled or not, the source is the reference). A
    worker with another hhparse would store other facts under the same schema, silently."""
    if not _FINGERPRINT:
        h = hashlib.blake2b(__version__.encode(), digest_size=12)
        pkg = Path(__file__).resolve().parent
        sources = sorted(p for p in pkg.rglob("*.py") if "_data" not in p.parts)
        grammars = Path(str(data_dir("grammars")))
        for p in [*sources, *sorted(grammars.glob("*.lark"))]:
            h.update(p.name.encode())
            h.update(p.read_bytes())
        _FINGERPRINT.append(f"{__version__}+{h.hexdigest()}")
    return _FINGERPRINT[0]


class WorkerMismatchError(RuntimeError):
    """Raised on a worker whose hhparse is not the client's (the task is not run)."""


def ship_blocks(blocks: Sequence[Block]) -> bytes:
    """A task's blocks as one pickled blob: Dask walks a task's arguments looking for futures,
    which on hundreds of block tuples cost the client as much CPU as the rest of its work."""
    return pickle.dumps(pack_blocks(blocks), protocol=pickle.HIGHEST_PROTOCOL)


WRITE_MODES: Final = ("auto", "workers", "client")
"""Who writes the tasks' tables into the warehouse: the ``workers`` (they see its folder), the
``client`` (they send them), ``auto`` (the workers when they see its staging folder)."""


RESULT_COMPRESSION: Final[Compression] = "zstd"
"""How a worker compresses the Arrow IPC streams of a result (:func:`pack_result`) or a fragment
(:func:`_staged`), all of a task's at once (:func:`hhparse.staging.pack_streams`): a task's
tables are several KB a hand uncompressed, which cross the network to the client or to the
shared file system; zstd makes them several times smaller for little CPU on either side
(figures: ``docs/performance.md``, ``docs/cluster.md``). A ``local:N`` cluster's never leave this
machine: its workers compress nothing (:data:`LOCAL_COMPRESSION`), as the local pool's."""
LOCAL_COMPRESSION: Final[Compression] = None
_FILES_FIELDS: Final = tuple(f.name for f in dataclasses.fields(FilesResult) if f.name != "result")


def pack_result(result: TaskResult | FilesResult, compression: Compression = RESULT_COMPRESSION) -> bytes:
    """A task's result as one blob for the client (:func:`unpack_result`): its tables as
    compressed Arrow IPC streams (:func:`hhparse.staging.pack_streams`), the rest pickled. One
    ``bytes`` object is also what Dask sends with the least work (no walk of the result's lists
    on either side)."""
    task = result.result if isinstance(result, FilesResult) else result
    ipc = pack_streams(task.tables, compression)
    columns = (task.sites, task.hand_ids, task.hashes, task.accepted)
    files = tuple(getattr(result, f) for f in _FILES_FIELDS) if isinstance(result, FilesResult) else None
    return pickle.dumps((ipc, columns, files), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_result(blob: bytes) -> TaskResult | FilesResult:
    """The result :func:`pack_result` packed, as the worker built it."""
    ipc, (sites, hand_ids, hashes, accepted), files = pickle.loads(blob)
    if isinstance(ipc, tuple):  # staged (:func:`_staged`)
        fragment, rows = ipc
        task: TaskResult = staged_result((fragment, rows, sites, hand_ids, hashes, accepted))
    else:
        streams = unpack_streams(ipc)
        tables = {name: pa.ipc.open_stream(data).read_all() for name, data in streams.items()}
        task = TaskResult(tables, sites, hand_ids, hashes, accepted)
    if files is None:
        return task
    return FilesResult(task, *files)


def _staged(result: TaskResult | FilesResult, stage: Stage, compression: Compression) -> bytes:
    """:func:`pack_result` with the tables written to the task's fragment
    (:func:`hhparse.staging.stage_result`, its streams compressed as a result's are): the client
    receives the per-hand columns and the rows of each table only (:func:`unpack_result`)."""
    path, rows, sites, hand_ids, hashes, accepted = stage_result(result, stage, compression)
    files = tuple(getattr(result, f) for f in _FILES_FIELDS) if isinstance(result, FilesResult) else None
    return pickle.dumps(
        ((path, rows), (sites, hand_ids, hashes, accepted), files), protocol=pickle.HIGHEST_PROTOCOL
    )


def write_batch_task(
    expected: str, root: str, folder: str, tag: str, parts: dict[str, list[BatchPart]]
) -> dict[str, int]:
    """The task a worker runs to write a batch of the warehouse (:meth:`DaskExecutor.write_batch`):
    :func:`hhparse.staging.write_batch`, after checking that this worker's hhparse is the
    client's (:func:`fingerprint`)."""
    mine = fingerprint()
    if mine != expected:
        raise WorkerMismatchError(f"this worker runs hhparse {mine}, the client {expected}")
    return write_batch(root, folder, tag, parts)


def can_stage(folder: str, probe: str) -> str | None:
    """``None`` when this worker sees the client's probe file in the warehouse's staging folder
    and may write there; else why not."""
    if not os.path.exists(probe):
        return f"{folder}: not the client's warehouse here (its probe file is missing)"
    if not os.access(folder, os.W_OK):
        return f"{folder}: not writable here"
    return None


def run_task(
    expected: str,
    shipped: bytes,
    open_tails: frozenset[int],
    ev: bool,
    stage: Stage | None = None,
    compression: Compression = RESULT_COMPRESSION,
) -> bytes:
    """The task a worker runs: :func:`hhparse.import_worker.process_packed` of :func:`ship_blocks`'s
    blob, with the collector quietened for its duration as in a local worker
    (:data:`hhparse.import_worker.GC_THRESHOLD`), after checking that this worker's hhparse is the
    client's (:func:`fingerprint`)."""
    mine = fingerprint()
    if mine != expected:
        raise WorkerMismatchError(f"this worker runs hhparse {mine}, the client {expected}")
    packed: PackedBlocks = pickle.loads(shipped)
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLD)
    try:
        result = process_packed(packed, open_tails, ev)
        return pack_result(result, compression) if stage is None else _staged(result, stage, compression)
    finally:
        gc.set_threshold(*previous)


def run_file_task(
    expected: str,
    segments: list[Segment],
    ev: bool,
    stage: Stage | None = None,
    compression: Compression = RESULT_COMPRESSION,
) -> bytes:
    """The task a worker runs when it reads the inputs itself (issue #18):
    :func:`hhparse.import_worker.process_files` of the files the task names, checked and with the
    collector quietened as in :func:`run_task`."""
    mine = fingerprint()
    if mine != expected:
        raise WorkerMismatchError(f"this worker runs hhparse {mine}, the client {expected}")
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLD)
    try:
        result = process_files(segments, ev)
        return pack_result(result, compression) if stage is None else _staged(result, stage, compression)
    finally:
        gc.set_threshold(*previous)


def can_read(sample: list[tuple[str, int]]) -> str | None:
    """``None`` when this worker can open every input of ``sample`` (``(name, planned size)``)
    and sees at least the planned bytes; else the first input it cannot read, and why."""
    for name, size in sample:
        try:
            seen, _ = _inputs.stat(name)
            with _inputs.open_binary(name) as fh:
                fh.read(1)
        except OSError as exc:
            return f"{name}: {exc.strerror or exc}"
        if seen < size:
            return f"{name}: {seen:,} bytes here, {size:,} where the import runs"
    return None


def untrim_malloc() -> bool:
    """Give glibc's heap back thresholds fit for an import in a process started with
    :data:`MALLOC_TRIM_ENV` (a Dask worker): whether it did (Linux with glibc only)."""
    if not os.environ.get(MALLOC_TRIM_ENV) or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        trim = int(libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
        return trim == 1 and int(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) == 1
    except (OSError, AttributeError):
        return False


def _warm_up(main_pid: int | None) -> str:
    """Prepare a worker once: build the parser, load the referee and the EV tables, tabulate an
    empty batch (:func:`hhparse.import_worker.warm_up`), move them out of the collector's sight (``gc.freeze``), undo Dask's heap trimming (:func:`untrim_malloc`);
    on a local cluster, tie the worker's life to the client's (``main_pid``) and keep pandas out
    of it (:func:`hhparse.import_worker.without_pandas`: such a worker is this import's own and
    runs its tasks only; pyarrow imported pandas in its warm-up, the largest part of its start-up
    left once forked from :data:`LOCAL_PRELOAD`). Returns the worker's :func:`fingerprint`."""
    UNTRIMMED[:] = [untrim_malloc()]
    if main_pid is not None:
        from hhparse.import_worker import without_pandas
        from hhparse.workers import die_with_parent

        with contextlib.suppress(ValueError):  # signal.signal outside the main thread
            die_with_parent(main_pid)
        without_pandas()  # (a local:N worker runs this import's tasks only, as a pool's does)
    warm_up()  # (the parser, referee and EV tables, and a first empty batch)
    gc.collect()
    gc.freeze()
    return fingerprint()


def _plugin_class() -> type:
    """A ``WorkerPlugin`` that warms up every worker, those joining later included (built
    lazily: this module must import without Dask)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    return type("HhparseWarmUp", (_WarmUp, WorkerPlugin), {})


class _WarmUp:
    """The body of the worker plugin (see :func:`_plugin_class`)."""

    def __init__(self, main_pid: int | None) -> None:
        self.main_pid = main_pid

    def setup(self, worker: Any) -> None:
        _warm_up(self.main_pid)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_plugin, (self.main_pid,))


def _make_plugin(main_pid: int | None) -> Any:
    return _plugin_class()(main_pid)


# --------------------------------------------------------------------------------------------
# Client side
# --------------------------------------------------------------------------------------------


def _refusal(answers: dict[str, str | None]) -> tuple[str, str] | None:
    """The first worker (by name) that refused a probe, and why; None when every worker
    answered yes (no answer at all is a refusal: there is no worker)."""
    refused = sorted((w, why) for w, why in answers.items() if why is not None)
    if answers and not refused:
        return None
    return refused[0] if refused else ("(none)", "no worker")


class DaskExecutor:
    """Runs an import's tasks on the cluster of a ``distributed.Client``
    (:class:`hhparse.importer.Executor`).

    At most ``depth`` tasks are in flight (default: four per worker thread when the import
    starts), and results come back in submission order. A task a dead worker was running is run
    again elsewhere by the scheduler; any failure stops the import with the tasks cancelled.
    """

    def __init__(
        self,
        client: Any,
        *,
        depth: int | None = None,
        address: str = "",
        inputs: str = "auto",
        writes: str = "auto",
        compression: Compression = RESULT_COMPRESSION,
    ) -> None:
        if inputs not in INPUT_MODES:
            raise ClusterError(f"inputs={inputs!r}: one of {', '.join(INPUT_MODES)}")
        if writes not in WRITE_MODES:
            raise ClusterError(f"writes={writes!r}: one of {', '.join(WRITE_MODES)}")
        self.client = client
        self.depth = depth
        self.inputs = inputs
        self.writes = writes
        self.compression = compression  # of the tasks' tables (LOCAL_COMPRESSION on local:N)
        self.staging: Staging | None = None  # set by the importer when the workers stage (stages)
        self.notes: list[str] = []  # what the user should know (the client read the inputs...)
        self.address = address or str(getattr(getattr(client, "scheduler", None), "address", "") or "")

    def reads_inputs(self, sample: Sequence[tuple[str, int]]) -> bool:
        """Whether the workers read the inputs themselves (:class:`hhparse.importer.InputReader`):
        always with ``inputs="workers"``, never with ``"client"``; with ``"auto"`` when every
        worker can open the first planned inputs (``sample``), else the client reads and ships
        the text, and says so in :attr:`notes`."""
        if self.inputs != "auto":
            return self.inputs == "workers"
        answers: dict[str, str | None] = self.client.run(can_read, list(sample))
        if (refusal := _refusal(answers)) is not None:
            worker, why = refusal
            self.notes.append(
                f"the Dask worker {worker} cannot read the inputs ({why}): this client reads them "
                f"and ships their text to the workers (a shared file system or an fsspec URL every "
                f"worker can open lets the workers read them)"
            )
            return False
        return True

    def stages(self, staging: Staging) -> bool:
        """Whether the workers write the tasks' tables into the warehouse (``staging``,
        :class:`hhparse.importer.StagingExecutor`): with ``writes="workers"`` always, never with
        ``"client"``; with ``"auto"`` when every worker sees the warehouse's staging folder (a
        probe file written there) and may write into it."""
        if self.writes != "auto":
            return self.writes == "workers"
        folder, _tag, part = staging.next()
        probe = staged_name(Path(folder), "probe", part)
        try:
            probe.write_bytes(b"")
            answers: dict[str, str | None] = self.client.run(can_stage, folder, str(probe))
        finally:
            probe.unlink(missing_ok=True)
        if (refusal := _refusal(answers)) is not None:
            worker, why = refusal
            self.notes.append(
                f"the Dask worker {worker} cannot write into the warehouse ({why}): this client "
                f"writes its Parquet files (workers that see the warehouse's folder write them)"
            )
            return False
        return True

    def write_batch(
        self, tag: str, parts: dict[str, list[pa.Table | StagedPart | StagedRows]]
    ) -> dict[str, int]:
        """Have the workers write the batch ``tag`` of the warehouse (:func:`write_batch_task`),
        ahead of the tasks queued, its tables shared out between the cluster's worker threads
        (:func:`hhparse.importer.write_groups`, as the local pool does); rows by table. Why: the
        last batch is written after the last result, with every other worker idle, and the one
        before it while the tail's few tasks run; one worker writing all of a batch's tables
        was the longest stretch of a ``local:2`` import with a worker idle
        (``docs/performance.md``, branch dask18)."""
        assert self.staging is not None
        spec: dict[str, list[BatchPart]] = {
            name: [batch_part(p) for p in table_parts] for name, table_parts in parts.items()
        }
        groups = write_groups(spec, self.threads())
        futures = [
            self.client.submit(
                write_batch_task,
                fingerprint(),
                self.staging.root,
                self.staging.folder,
                tag,
                group,
                key=f"hhparse-write-{tag}" if len(groups) == 1 else f"hhparse-write-{tag}-{i}",
                pure=False,
                priority=10,
            )
            for i, group in enumerate(groups)
        ]
        rows: dict[str, int] = {}
        try:
            for future in futures:
                written: dict[str, int] = self._wait(future, _distributed(), unpack=False)
                rows.update(written)
        except BaseException:
            with contextlib.suppress(Exception):
                self.client.cancel(futures, force=True)
            raise
        return rows

    def threads(self) -> int:
        """Worker threads in the cluster now."""
        return int(sum(self.client.nthreads().values()))

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult | FilesResult]]:
        """Each task with its result, in order."""
        distributed = _distributed()
        depth = self.depth or max(4, 4 * self.threads())
        expected = fingerprint()
        run = uuid.uuid4().hex[:8]
        window: deque[tuple[Task, Any]] = deque()
        try:
            for n, task in enumerate(tasks):
                key = f"hhparse-import-{run}-{n:08d}"
                stage = self.staging.next() if self.staging is not None else None
                if task.segment_files:  # the worker reads the files
                    fut = self.client.submit(
                        run_file_task,
                        expected,
                        task.segments,
                        ev,
                        stage,
                        self.compression,
                        key=key,
                        pure=False,
                    )
                else:
                    fut = self.client.submit(
                        run_task,
                        expected,
                        ship_blocks(task.blocks),
                        task.open_tails,
                        ev,
                        stage,
                        self.compression,
                        key=key,
                        pure=False,
                    )
                window.append((task, fut))  # the text stays until merged: a conflict keeps it
                while len(window) > depth:
                    t, f = window.popleft()
                    yield t, self._wait(f, distributed)
            while window:
                t, f = window.popleft()
                yield t, self._wait(f, distributed)
        except BaseException:  # (GeneratorExit too: the importer stopped early)
            with contextlib.suppress(Exception):
                self.client.cancel([f for _, f in window], force=True)
            raise

    def _wait(self, future: Any, distributed: Any, unpack: bool = True) -> Any:
        while True:
            try:
                blob = future.result(timeout=WAIT_SECONDS)
                future.release()
            except (TimeoutError, distributed.TimeoutError):
                continue
            except UnboundLocalError:
                # Dask's own race (dask/distributed#8514: a wait that times out as the result
                # arrives), which stopped an import here; the task is unharmed, so ask again.
                # The task's own error (status "error") is raised.
                if future.status == "error":
                    raise
                continue
            except distributed.KilledWorker as exc:
                raise ClusterError(
                    f"a task of this import was running on {ALLOWED_FAILURES + 1} Dask workers that "
                    f"died ({exc}); the import stopped, everything published before is kept: check "
                    f"the workers' memory and logs, then run the same command again"
                ) from None
            except distributed.CancelledError:
                raise ClusterError(
                    f"the Dask scheduler {self.address} dropped this import's tasks (scheduler "
                    f"restarted or connection lost); everything published before is kept: run the "
                    f"same command again"
                ) from None
            except WorkerMismatchError as exc:
                raise ClusterError(
                    f"a Dask worker of {self.address} runs another hhparse than this client ({exc}): "
                    f"install the same hhparse on every worker"
                ) from None
            except OSError as exc:
                if type(exc).__module__.startswith("distributed"):  # CommClosedError & co.
                    raise ClusterError(
                        f"lost the connection to the Dask scheduler {self.address} ({exc}); "
                        f"everything published before is kept: run the same command again"
                    ) from None
                raise
            else:
                return unpack_result(blob) if unpack else blob


def _check_workers(client: Any, address: str) -> dict[str, str]:
    """Every worker's :func:`fingerprint` (after its warm-up); a different one is refused now,
    before anything is read, with a sentence naming the worker."""
    mine = fingerprint()
    found: dict[str, str] = client.run(fingerprint)
    for worker, theirs in sorted(found.items()):
        if theirs != mine:
            raise ClusterError(
                f"the Dask worker {worker} of {address} runs hhparse {theirs}, this client "
                f"{mine}: install the same hhparse on every worker (and restart them)"
            )
    return found


@contextlib.contextmanager
def connect(
    spec: str, *, timeout: float | None = None, inputs: str = "auto", writes: str = "auto"
) -> Iterator[DaskExecutor]:
    """An executor on the cluster ``spec`` names (:func:`parse_address`), for one import.

    ``local:N`` starts a ``LocalCluster`` of N single-threaded worker processes, closed on exit;
    an address connects to a running scheduler and waits (up to ``timeout`` seconds; by default
    Dask's ``distributed.comm.timeouts.connect``, 30 s unless configured, e.g. by
    ``$DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``) for it to answer and for a worker. Every
    worker is warmed up (parser built, referee and EV tables loaded), and those that join later
    too; every worker must run the client's hhparse.

    Raises:
        ClusterError: Dask is not installed, the scheduler does not answer, no worker joins, a
            worker runs another hhparse.
    """
    address, local = parse_address(spec)
    if local is not None:
        _start_forkserver()  # (it loads what the workers need while this process imports Dask)
    distributed = _distributed()
    import dask.config
    import dask.utils

    if timeout is None:
        timeout = float(dask.utils.parse_timedelta(dask.config.get("distributed.comm.timeouts.connect")))
    cluster: Any = None
    client: Any = None
    try:
        if local is not None:
            # The workers are forked now (from the forkserver started above, with the resource
            # tracker: both with our stdout and stderr on /dev/null, so a reader of our output
            # sees its end as soon as this process is gone, as with the local pool, hhparse.workers).
            # The scheduler and the nannies read LOCAL_CONFIG when they are built, and each
            # nanny hands it to its worker (a worker it restarts too).
            with _quiet_dask_logs(), _std_streams_to_devnull(), dask.config.set(LOCAL_CONFIG):
                _own_forkserver_preload()
                cluster = distributed.LocalCluster(
                    n_workers=local,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0" if _has_bokeh() else None,
                    silence_logs=logging.ERROR,
                )
            client = distributed.Client(cluster, timeout=timeout)
            address = f"local:{local}"
            main_pid: int | None = os.getpid()
        else:
            assert address is not None
            try:
                client = distributed.Client(address, timeout=timeout)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(
                    f"cannot reach the Dask scheduler at {address} ({exc}): is `dask scheduler` "
                    f"running there, and the address and port right (default 8786)?"
                ) from None
            main_pid = None
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (TimeoutError, distributed.TimeoutError):
                raise ClusterError(
                    f"the Dask scheduler at {address} has no worker (none joined within "
                    f"{timeout:.0f} s): start `dask worker {address}` on the machines that should work"
                ) from None
        client.register_plugin(_make_plugin(main_pid), name="hhparse-warm-up")
        _check_workers(client, address)
        compression = LOCAL_COMPRESSION if local is not None else RESULT_COMPRESSION
        yield DaskExecutor(client, address=address, inputs=inputs, writes=writes, compression=compression)
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=10)
        if cluster is not None:
            with contextlib.suppress(Exception), _quiet_dask_logs():
                cluster.close(timeout=10)


def _start_forkserver() -> None:
    """Start this process's forkserver (with the resource tracker, both without our stdout and
    stderr) loading :data:`LOCAL_PRELOAD`, for the workers of a ``local:N`` cluster
    (:data:`LOCAL_CONFIG`: Dask's nannies then fork them from it). Started before this process
    imports Dask: the forkserver loads it on the other core meanwhile. It gets the environment
    Dask sets before starting a worker (:func:`_spawn_environ`), which a forked worker inherits
    from it and not from the nanny. A forkserver already running (this process's local pool
    started it, or an earlier cluster) keeps what it loaded: its workers import the rest
    themselves. It gets this process's ``sys.path`` too (:func:`_forkserver_path`). Nothing is
    started without Dask (:func:`connect` then says how to install it)."""
    import multiprocessing

    if importlib.util.find_spec("distributed") is None:
        return
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(LOCAL_PRELOAD))
    env = _spawn_environ() | _forkserver_path()
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        start_helpers(ctx)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _spawn_environ() -> dict[str, str]:
    """The variables a ``local:N`` worker's nanny would set before starting it
    (``distributed.nanny.pre-spawn-environ``: one thread for numpy's BLAS and pyarrow, as Dask
    gives every worker), read as Dask reads them (:data:`LOCAL_CONFIG` and the user's config
    over Dask's defaults, a variable already set kept) without importing Dask itself: its
    defaults are a YAML file in its package."""
    import dask.config
    import yaml  # type: ignore[import-untyped,unused-ignore]

    spec = importlib.util.find_spec("distributed")
    defaults: dict[str, Any] = {}
    for folder in (spec.submodule_search_locations or []) if spec else []:
        with contextlib.suppress(OSError, yaml.YAMLError, AttributeError):
            loaded = yaml.safe_load((Path(folder) / "distributed.yaml").read_text())
            defaults = dict(loaded["distributed"]["nanny"]["pre-spawn-environ"] or {})
    with dask.config.set(LOCAL_CONFIG):  # (a copy: get returns the dict that set restores)
        configured = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default=None) or {})
    merged = {**defaults, **configured}
    return {str(k): os.environ.get(str(k), str(v)) for k, v in merged.items() if v is not None}


def _forkserver_path() -> dict[str, str]:
    """The variables that give the forkserver this process's ``sys.path``: Python 3.11's
    forkserver ignores the path multiprocessing hands it and starts with the current directory
    first, so from a folder holding another ``hhparse`` its workers would load that one (and
    refuse every task: :func:`fingerprint`). A spawned worker got this process's path."""
    paths = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
    return {"PYTHONSAFEPATH": "1", "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}


def _own_forkserver_preload() -> None:
    """Keep Dask from choosing the forkserver's preloads (:func:`_start_forkserver` chose
    them): it imports pandas in this process to find out whether it is installed, which an
    import's client otherwise never needs (``distributed.utils.get_mp_context``)."""
    import distributed.utils

    if hasattr(distributed.utils, "_forkserver_preload_set"):
        distributed.utils._forkserver_preload_set = True


def dashboard_link(executor: DaskExecutor) -> str | None:
    """The Dask dashboard's address, when the cluster serves one."""
    link = getattr(executor.client, "dashboard_link", None)
    return str(link) if link and _has_bokeh() else None


def _has_bokeh() -> bool:
    """Whether Dask can serve its dashboard (it needs ``bokeh``, which the extra does not bring)."""
    return importlib.util.find_spec("bokeh") is not None


@contextlib.contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Dask logs its start-up and shut-down at INFO and WARNING on stderr: keep the import's
    output to its own lines (errors still show)."""
    loggers = [logging.getLogger(n) for n in ("distributed", "distributed.nanny", "distributed.scheduler")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
