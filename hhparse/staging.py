"""The workers write the tables, the importer commits (issues #14, #18): what both executors whose
workers see the warehouse share — a local pool's (:class:`hhparse.importer.PoolExecutor`) and a
Dask cluster's (:class:`hhparse.cluster.DaskExecutor`).

A task's worker writes its tables into the warehouse's staging area as a *fragment*
(:func:`stage_result`: the tables' Arrow IPC streams, under a tag the importer announced in the
manifest, :class:`hhparse.importer.Staging`) and sends back each hand's id, content hash and
verdict only; the importer de-duplicates and records conflicts, rejects and pending hands on
those alone, as it does for a result that carries its tables. For each batch a worker reads the
batch's fragments, keeps the rows of the hands the importer kept (a duplicate found after its
fragment was written is left out then), adds the importer's own rows (``imports``, a conflict's
``rejects`` row) and writes each table's Parquet file where the importer would have
(:func:`write_batch`); the importer commits it (:meth:`~hhparse.tables.store.Warehouse.publish_written`).
Why: the importer's process is one, the workers are many; encoding Parquet and decoding the
results' tables were the largest part of its CPU, and its CPU is what the workers wait for.

This module is what a worker runs (it imports no more than a worker has loaded: the warehouse's
module, with pyarrow's Parquet writer, only when a batch is written) and the plain records the
importer keeps of what the workers staged.
"""

from __future__ import annotations

import os
import pickle
import struct
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import pyarrow as pa

from hhparse.import_worker import (
    FilesResult,
    PackedBlocks,
    TaskResult,
    TaskTiming,
    _timing,
    process_packed,
)
from hhparse.tables.build import HAND_IDX, records_from_pylist, strip_hand_idx

__all__ = [
    "BatchPart",
    "Stage",
    "StagedPart",
    "StagedResult",
    "StagedRows",
    "batch_part",
    "fragment_parts",
    "ipc_buffer",
    "ipc_stream",
    "load_fragment",
    "pack_streams",
    "process_staged",
    "read_streams",
    "stage_result",
    "staged_result",
    "timed_write_batch",
    "unpack_streams",
    "write_batch",
]


@dataclass(frozen=True, slots=True)
class StagedResult(TaskResult):
    """A task's result whose tables its worker wrote into the warehouse's staging area
    (:func:`stage_result`) instead of sending them: the importer merges the per-hand columns
    only, and a worker writes each batch's Parquet files (:func:`write_batch`). ``tables`` is
    empty; ``rows`` are the rows of each table in the fragment, and ``load`` reads its tables back
    (a conflicting hand's game)."""

    fragment: str = ""
    rows: dict[str, int] = field(default_factory=dict)
    load: Any = None  # Callable[[str], dict[str, pa.Table]]


@dataclass(frozen=True, slots=True)
class StagedPart:
    """A buffered table's rows in a fragment (:class:`StagedResult`): ``keep`` lists the hands
    (``_hand_idx``) kept, ``None`` all of them."""

    fragment: str
    keep: list[int] | None


@dataclass(frozen=True, slots=True)
class StagedRows:
    """A buffered table's rows as the importer made them (``imports`` rows, a conflict's
    ``rejects`` row), tabulated by the worker that writes the batch: a process that converts no
    Python list to Arrow never imports pandas (pyarrow imports it on the first such conversion,
    only to ask whether the list is a pandas object: a fixed CPU cost on the importer)."""

    rows: list[dict[str, Any]]


Compression = Literal["lz4", "zstd"] | None
"""Of a fragment's Arrow IPC streams (:func:`stage_result`, each table's in one call) or a
cluster's result's (all together, :func:`pack_streams`)."""

Stage = tuple[str, str, int]
"""Where a worker writes a task's tables (:class:`hhparse.importer.Staging`): the staging folder
of a tag the warehouse announced, the tag, the task's part number under it."""

Staged = tuple[str, dict[str, int], list[str | None], list[str | None], list[str], list[bool]]
"""What a worker sends back for a staged task (:func:`stage_result`, :func:`staged_result`): the
fragment's path, the rows of each table in it, and the per-hand columns of :class:`TaskResult`."""


def ipc_stream(table: pa.Table, compression: Compression) -> bytes:
    return bytes(ipc_buffer(table, compression).to_pybytes())


def ipc_buffer(table: pa.Table, compression: Compression = None) -> pa.Buffer:
    """``table``'s Arrow IPC stream in Arrow's own buffer: written to a file as it is
    (:func:`stage_result`), no copy of it into a :class:`bytes` first, which for a task's tables
    (about three times its text) was a copy and a fresh allocation of every byte staged."""
    sink = pa.BufferOutputStream()
    options = pa.ipc.IpcWriteOptions(compression=compression)
    with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
        writer.write_table(table)
    return sink.getvalue()


def pack_streams(tables: dict[str, pa.Table], compression: Compression) -> bytes:
    """``tables`` as Arrow IPC streams in one blob (:func:`unpack_streams`), compressed as a whole.
    Why not Arrow's own IPC compression: it compresses every buffer of every column apart, with a
    new zstd context each time, and a task's tables are thousands of small buffers; on a
    cluster's worker that cost more CPU than writing the batches' Parquet files, where one call
    over the task's streams costs a fraction of it and compresses them smaller
    (``docs/performance.md``, branch dask18)."""
    raw = pickle.dumps(
        {name: ipc_stream(t, None) for name, t in tables.items()}, protocol=pickle.HIGHEST_PROTOCOL
    )
    if compression is None:
        return pickle.dumps((None, len(raw), raw), protocol=pickle.HIGHEST_PROTOCOL)
    packed = pa.compress(raw, codec=compression, asbytes=True)
    return pickle.dumps((compression, len(raw), packed), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_streams(blob: bytes) -> dict[str, bytes]:
    """The Arrow IPC stream of each table :func:`pack_streams` packed, by name."""
    codec, size, payload = pickle.loads(blob)
    raw = (
        payload
        if codec is None
        else pa.decompress(payload, decompressed_size=size, codec=codec, asbytes=True)
    )
    streams: dict[str, bytes] = pickle.loads(raw)
    return streams


def fragment_name(folder: str, kind: str, part: int) -> str:
    """:func:`hhparse.tables.store.staged_name`, without importing the warehouse's module (and
    pyarrow's Parquet writer with it) into a worker that only stages."""
    return os.path.join(folder, f"{kind}-{part:04d}.tmp")


def stage_result(result: TaskResult | FilesResult, stage: Stage, compression: Compression) -> Staged:
    """Write the task's tables to its fragment in the folder of a tag the warehouse announced
    (through a temporary name there, so that a worker killed while writing leaves only what the
    tag's clean-up deletes); what the importer is sent instead (:func:`staged_result`).
    ``compression``: of the Arrow IPC streams (a cluster's fragments may cross a network file
    system; a local pool's stay in this machine's page cache)."""
    folder, _tag, part = stage
    task = result.result if isinstance(result, FilesResult) else result
    ipc = {name: ipc_buffer(t) for name, t in task.tables.items() if t.num_rows}
    rows = {name: int(table.num_rows) for name, table in task.tables.items()}
    path = fragment_name(folder, "frag", part)
    tmp = fragment_name(folder, f"w{os.getpid()}", part)
    with open(tmp, "wb") as fh:
        fh.writelines(fragment_parts(ipc, compression))
    os.replace(tmp, path)
    return (path, rows, task.sites, task.hand_ids, task.hashes, task.accepted)


_HEADER = struct.Struct("<Q")
"""A fragment starts with its index's length; the index (pickled: the codec, and each table's
``(offset, length, uncompressed length)`` after it) is followed by the tables' Arrow IPC streams
(:func:`fragment_parts`)."""

FragmentIndex = tuple[Compression, dict[str, tuple[int, int, int]]]


def fragment_parts(ipc: Mapping[str, bytes | pa.Buffer], compression: Compression) -> list[bytes | pa.Buffer]:
    """A fragment's bytes, in order: its index, then each table's stream, each compressed in one
    call (:func:`pack_streams` says why not Arrow's buffer-by-buffer compression). Indexed rather
    than one pickled dict so that a batch's write reads only the streams of the tables it writes
    (:func:`read_streams`): the pool's two workers each write half a batch's tables, and each read
    every fragment whole, twice the bytes and all of them held until the batch was written."""
    streams: dict[str, tuple[int, int, int]] = {}
    parts: list[bytes | pa.Buffer] = []
    offset = 0
    for name, data in ipc.items():
        stored = data if compression is None else pa.compress(data, codec=compression, asbytes=True)
        streams[name] = (offset, len(stored), len(data))
        parts.append(stored)
        offset += len(stored)
    index: FragmentIndex = (compression, streams)
    header = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
    return [_HEADER.pack(len(header)), header, *parts]


def fragment_index(fd: int) -> tuple[int, FragmentIndex]:
    """Where a fragment's streams start, its codec, and each table's ``(offset, length,
    uncompressed length)`` from there."""
    size = _HEADER.size
    (n,) = _HEADER.unpack(_pread(fd, size, 0))
    index: FragmentIndex = pickle.loads(_pread(fd, n, size))
    return size + n, index


def read_streams(path: str, names: Collection[str] | None = None) -> dict[str, bytes]:
    """The Arrow IPC streams of a fragment's tables ``names`` (all: ``None``) that it holds."""
    fd = os.open(path, os.O_RDONLY)
    try:
        base, (codec, index) = fragment_index(fd)
        wanted = index if names is None else [n for n in names if n in index]
        out: dict[str, bytes] = {}
        for name in wanted:
            offset, length, size = index[name]
            data = _pread(fd, length, base + offset)
            if codec is not None:
                data = pa.decompress(data, decompressed_size=size, codec=codec, asbytes=True)
            out[name] = data
        return out
    finally:
        os.close(fd)


def _pread(fd: int, n: int, offset: int) -> bytes:
    """Exactly ``n`` bytes at ``offset`` (a fragment shorter than its index says is damaged)."""
    data = os.pread(fd, n, offset)
    while len(data) < n:
        more = os.pread(fd, n - len(data), offset + len(data))
        if not more:
            raise OSError(f"a staged fragment is shorter than its index says ({n} bytes at {offset})")
        data += more
    return data


def staged_result(staged: Staged) -> StagedResult:
    """The importer's record of a task :func:`stage_result` staged."""
    path, rows, sites, hand_ids, hashes, accepted = staged
    return StagedResult({}, sites, hand_ids, hashes, accepted, path, rows, load_fragment)


def load_fragment(path: str) -> dict[str, pa.Table]:
    """The tables a worker staged (:func:`stage_result`)."""
    return {name: pa.ipc.open_stream(data).read_all() for name, data in read_streams(path).items()}


def process_staged(
    packed: PackedBlocks, open_tails: frozenset[int], ev: bool, stage: Stage
) -> tuple[Staged, TaskTiming]:
    """The local pool's task when its workers stage (:class:`hhparse.importer.PoolExecutor`):
    :func:`~hhparse.import_worker.process_packed`, its tables written to its fragment; with when
    it ran and its CPU time, writing the fragment included (it is the task's work now)."""
    start, cpu = time.monotonic(), time.process_time()
    staged = stage_result(process_packed(packed, open_tails, ev), stage, None)
    return staged, _timing(start, cpu)


BatchPart = tuple[str, Any, list[int] | None]
"""A part of a batch's table (:func:`write_batch`): ``("fragment", path, kept hands or None for
all)``, ``("rows", the importer's rows, None)`` or ``("table", Arrow IPC stream, None)``."""


def batch_part(part: pa.Table | StagedPart | StagedRows) -> BatchPart:
    """A buffered part of a batch's table, as :func:`write_batch` reads it in another process."""
    if isinstance(part, StagedPart):
        return ("fragment", part.fragment, part.keep)
    if isinstance(part, StagedRows):
        return ("rows", part.rows, None)
    return ("table", ipc_stream(part, None), None)


def write_batch(root: str, folder: str, tag: str, parts: dict[str, list[BatchPart]]) -> dict[str, int]:
    """Write the batch ``tag`` of the warehouse at ``root`` (through ``folder``, the staging
    folder of a tag the importer announced): each table's parts in order, the hands the importer
    kept of each fragment, as the importer would have buffered and written them
    (:meth:`hhparse.importer._Importer._buffer`, :meth:`~hhparse.tables.store.Warehouse.publish`).
    Only the streams of ``parts``' tables are read from each fragment (:func:`read_streams`),
    each table's when it is written, so a batch's tables are never all in memory at once.
    Returns the rows written by table."""
    import pyarrow.compute as pc

    from hhparse.tables.store import write_batch_file

    rows: dict[str, int] = {}
    for name, table_parts in parts.items():
        tables: list[pa.Table] = []
        for kind, what, keep in table_parts:
            if kind == "table":
                tables.append(pa.ipc.open_stream(what).read_all())
                continue
            if kind == "rows":
                tables.append(records_from_pylist(name, what))
                continue
            data = read_streams(what, (name,)).get(name)
            if data is None:
                continue
            table = pa.ipc.open_stream(data).read_all()
            if keep is not None:
                table = table.filter(pc.is_in(table[HAND_IDX], value_set=pa.array(keep, type=pa.int32())))
                if table.num_rows == 0:
                    continue
            tables.append(strip_hand_idx(table))
        if tables:
            table = pa.concat_tables(tables)
            if table.num_rows:
                rows[name] = write_batch_file(root, name, tag, table, folder)
    return rows


WriteTiming = tuple[int, float, float, float]
"""What a worker says of one batch write (:func:`timed_write_batch`): ``(pid, start, end, CPU
seconds)``, times on ``CLOCK_MONOTONIC`` (:class:`hhparse.importer.ImportTrace` records them)."""


def timed_write_batch(
    root: str, folder: str, tag: str, parts: dict[str, list[BatchPart]]
) -> tuple[dict[str, int], WriteTiming]:
    """:func:`write_batch`, with when it ran and its CPU time (the local pool's batch write): a
    worker's time between two tasks is then known to be a batch's write or waiting for work
    (``bench/import.py --phases``)."""
    start, cpu = time.monotonic(), time.process_time()
    rows = write_batch(root, folder, tag, parts)
    return rows, (os.getpid(), start, time.monotonic(), time.process_time() - cpu)
