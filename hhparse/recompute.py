"""``hhparse ev --recompute``: take the all-in EV of every hand of an existing warehouse again.

Why re-read the histories rather than the warehouse's rows: the EV stage runs on the parsed hand
and the referee's verdict (:mod:`hhparse.ev`), and uses cards the warehouse does not keep (a
hand mucked face up in the summary, a folded hand shown). So each stored hand is read again from
its ``source`` file at its ``line``, and recomputed only when its text still has the stored
content hash; the same worker function as the import does the work (parse, referee, EV, tables).
A hand whose file is gone or changed, or that the referee now rejects, keeps its stored EV and
is counted (``kept``); nothing else of the warehouse changes.

The result replaces ``hand_players`` (same rows, in the same order, with the four EV columns
recomputed) and ``ev_shares`` (rows of the recomputed hands, and the kept hands' rows as they
were), published with one manifest swap (:meth:`hhparse.tables.store.Warehouse.replace_tables`).
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from hhparse.failures import UsageError
from hhparse.import_worker import TaskResult, pack_blocks, process_blocks, process_packed, worker_init
from hhparse.importer import DEFAULT_TASK_HANDS
from hhparse.splitter import Block, split_stream
from hhparse.tables.build import content_hash, strip_hand_idx
from hhparse.tables.schema import MANIFEST_NAME, arrow_schema, create_views
from hhparse.tables.store import Warehouse
from hhparse.workers import start_helpers, stop_pool, wait_result

EV_COLUMNS = ("allin_ev", "ev_street", "ev_method", "ev_std_err")
"""The ``hand_players`` columns the EV stage fills (the rest of the row is the referee's)."""

_KEY = ("site", "hand_id")
_RE = "_recomputed"
_ROW = "_row"


@dataclass
class RecomputeResult:
    """What ``--recompute`` did: hands recomputed, hands kept as they were and why."""

    hands: int = 0
    recomputed: int = 0
    with_ev: int = 0
    kept_missing_file: int = 0
    kept_changed: int = 0
    kept_rejected: int = 0
    missing_files: list[str] = field(default_factory=list)

    @property
    def kept(self) -> int:
        """Hands whose stored EV was left as it was."""
        return self.kept_missing_file + self.kept_changed + self.kept_rejected


def _stored_hands(wh: Warehouse) -> dict[str, dict[int, tuple[str, str, str]]]:
    """source file → line → (site, hand_id, content hash) of every stored hand."""
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for path in wh.files_of("hands"):
        cols = ["site", "hand_id", "source", "line", "content_hash"]
        for batch in pq.ParquetFile(path).iter_batches(batch_size=65_536, columns=cols):
            d = batch.to_pydict()
            for site, hand_id, source, line, chash in zip(
                d["site"], d["hand_id"], d["source"], d["line"], d["content_hash"], strict=True
            ):
                out.setdefault(source, {})[line] = (site, hand_id, chash)
    return out


def _blocks(stored: dict[str, dict[int, tuple[str, str, str]]], res: RecomputeResult) -> Iterator[Block]:
    """The stored hands' blocks whose text is still the stored one, file by file."""
    for source, lines in stored.items():
        found = 0
        try:
            with open(source, "rb") as fh:
                for block in split_stream(io.BufferedReader(fh, buffer_size=1 << 16), source):
                    want = lines.get(block.line)
                    if want is None:
                        continue
                    found += 1
                    if content_hash(block.text) != want[2]:
                        res.kept_changed += 1
                        continue
                    yield block
        except OSError:
            res.kept_missing_file += len(lines) - found
            res.missing_files.append(source)
            continue
        res.kept_changed += len(lines) - found


def _tasks(blocks: Iterator[Block], size: int) -> Iterator[list[Block]]:
    task: list[Block] = []
    for b in blocks:
        task.append(b)
        if len(task) >= size:
            yield task
            task = []
    if task:
        yield task


def _results(blocks: Iterator[Block], jobs: int, task_hands: int) -> Iterator[TaskResult]:
    if jobs <= 1:
        for task in _tasks(blocks, task_hands):
            yield process_blocks(task)
        return
    ctx = multiprocessing.get_context("forkserver")
    start_helpers(ctx)  # as the import's: workers die with this process, never hold its stdout
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),)
    )
    try:
        window: deque[Future[TaskResult]] = deque()
        for task in _tasks(blocks, task_hands):
            window.append(pool.submit(process_packed, pack_blocks(task)))
            while len(window) > 4 * jobs:
                yield wait_result(window.popleft())
        while window:
            yield wait_result(window.popleft())
        pool.shutdown(wait=True)
    except BaseException:
        stop_pool(pool)
        raise


def recompute_ev(
    warehouse: Path | str, *, jobs: int | None = None, task_hands: int = DEFAULT_TASK_HANDS
) -> RecomputeResult:
    """Recompute the all-in EV of every stored hand (see the module docstring).

    Raises:
        UsageError: ``warehouse`` is not a warehouse.
        WarehouseLockedError: another process is writing to it.
        SchemaMismatchError: it was written by another schema version.
    """
    root = Path(warehouse)
    if not (root / MANIFEST_NAME).exists():
        raise UsageError(f"not a warehouse (no {MANIFEST_NAME}): {root}")
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    res = RecomputeResult()
    with Warehouse(root, holder="hhparse ev --recompute") as wh:
        stored = _stored_hands(wh)
        res.hands = sum(len(v) for v in stored.values())
        players: list[pa.Table] = []
        shares: list[pa.Table] = []
        for result in _results(_blocks(stored, res), jobs, task_hands):
            res.kept_rejected += sum(1 for a in result.accepted if not a)
            hp = result.tables["hand_players"]
            players.append(hp.select([*_KEY, "seat", *EV_COLUMNS]))
            shares.append(strip_hand_idx(result.tables["ev_shares"]))
            res.recomputed += len(
                {(s, h) for s, h, a in zip(result.sites, result.hand_ids, result.accepted, strict=True) if a}
            )
        new_players = _concat(players, [*_KEY, "seat", *EV_COLUMNS], "hand_players")
        new_shares = _concat(shares, None, "ev_shares")
        res.with_ev = len(set(zip(*(new_shares.column(k).to_pylist() for k in _KEY), strict=True)))
        recomputed_keys = new_players.select(list(_KEY)).group_by(list(_KEY)).aggregate([])
        hand_players = [_merge_players(pq.read_table(p), new_players) for p in wh.files_of("hand_players")]
        kept_shares = [_without(pq.read_table(p), recomputed_keys) for p in wh.files_of("ev_shares")]
        wh.replace_tables({"hand_players": hand_players, "ev_shares": [*kept_shares, new_shares]})
    return res


def _concat(parts: list[pa.Table], columns: list[str] | None, table: str) -> pa.Table:
    schema = arrow_schema(table)
    if columns is not None:
        schema = pa.schema([schema.field(c) for c in columns])
    if not parts:
        return schema.empty_table()
    return pa.concat_tables([t.cast(schema) for t in parts])


def _row_keys(table: pa.Table, keys: list[str]) -> pa.Table:
    """The key columns of ``table`` and each row's position (joins never carry the list columns,
    which Arrow's hash join cannot, and their output order is not the input's)."""
    return table.select(keys).append_column(_ROW, pa.array(range(len(table)), type=pa.int64()))


def _merge_players(old: pa.Table, new: pa.Table) -> pa.Table:
    """``old`` hand_players rows with the EV columns of ``new`` where ``new`` has the row."""
    if not len(new) or not len(old):
        return old
    keys = [*_KEY, "seat"]
    renamed = new.rename_columns([*keys, *(f"new_{c}" for c in EV_COLUMNS)])
    renamed = renamed.append_column(_RE, pa.array([True] * len(new), type=pa.bool_()))
    joined = _row_keys(old, keys).join(renamed, keys=keys, join_type="left outer").sort_by(_ROW)
    hit = pc.fill_null(joined.column(_RE), pa.scalar(False))
    out = old
    for c in EV_COLUMNS:
        i = out.schema.get_field_index(c)
        merged = pc.if_else(hit, joined.column(f"new_{c}"), out.column(c))
        out = out.set_column(i, out.schema.field(i), merged.cast(out.schema.field(i).type))
    return out


def _without(table: pa.Table, keys: pa.Table) -> pa.Table:
    """``table``'s rows (in order) whose (site, hand_id) is not in ``keys``."""
    if not len(keys) or not len(table):
        return table
    rows = _row_keys(table, list(_KEY)).join(keys, keys=list(_KEY), join_type="left anti")
    keep = rows.column(_ROW)
    return table.take(pc.take(keep, pc.sort_indices(keep)))


def ev_status(warehouse: Path | str) -> list[dict[str, Any]]:
    """Hands per all-in EV street and method (``none`` for hands without one): what ``hhparse ev``
    prints. Reads the published ``hand_players`` files only."""
    import duckdb

    root = Path(warehouse)
    if not (root / MANIFEST_NAME).exists():
        raise UsageError(f"not a warehouse (no {MANIFEST_NAME}): {root}")
    con = duckdb.connect()
    create_views(con, root)
    rows = con.execute(
        """
        SELECT coalesce(CASE ev_street WHEN 0 THEN 'pre-flop' WHEN 1 THEN 'flop' WHEN 2 THEN 'turn' END,
                        '-') AS street,
               coalesce(ev_method, 'none') AS method,
               count(DISTINCT (site, hand_id)) AS hands
        FROM hand_players
        GROUP BY ev_street, ev_method
        ORDER BY ev_method IS NULL, ev_street, ev_method
        """
    ).fetchall()
    return [{"street": s, "method": m, "hands": int(h)} for s, m, h in rows]


__all__ = ["EV_COLUMNS", "RecomputeResult", "ev_status", "recompute_ev"]
