"""Player buckets: the summary family's pre-aggregated rows (issue #18).

``player_stats`` (``analytics/stats.sql``) aggregates the dealt-in ``hand_players`` rows per player
and split; on tens of millions of rows the scan is the cost. A bucket row sums one
``hand_players`` file's rows per player and per every key those reports filter or split by
(``analytics/buckets.sql``), so the reports add up buckets instead.

Why derived files built after the import rather than fragments the import writes: a ``hand_players``
file never changes once published (a compaction or ``ev --recompute`` replaces it by new files),
so a bucket file that names its source file (``source_file``) is exact for as long as that file is
live, whoever wrote the warehouse (an older hhparse, the pool, a cluster, ``watch``,
``compact``, ``bench/replicate.py``) — none of them has to know about buckets, and the import's
tasks pay nothing (issue #14): the ``hhparse import`` command builds the new files' buckets
after its commit, so that the first report after a large import does not. Reports read the buckets of the covered files and the raw rows of the
others (:func:`create_views`), so a warehouse whose buckets lag behind, or have none, or a
read-only one, gives the same results; :func:`refresh` brings the buckets up to date with the
manifest protocol (:meth:`hhparse.tables.store.Warehouse.update_derived`) when the writer lock is
free, and is what ``hhparse import`` runs after its commit, ``hhparse report`` before a
summary-family report and ``hhparse compact`` after compacting.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from hhparse.failures import WarehouseLockedError
from hhparse.resources import read_text
from hhparse.tables.schema import PLAYER_BUCKETS, arrow_schema, view_sql
from hhparse.tables.store import MARKER_NAME, Warehouse, listed_tables

__all__ = ["ENV_BUCKETS", "BucketPlan", "Refresh", "create_views", "exact_zone", "plan", "refresh"]

NAME = PLAYER_BUCKETS.name
SOURCE = "hand_players"
ENV_BUCKETS = "HHPARSE_BUCKETS"
"""``0`` (or ``off``) makes reports read the raw rows only and never build buckets (A/B runs)."""


def enabled() -> bool:
    """Whether the bucket path is on (``$HHPARSE_BUCKETS`` is not ``0``/``off``/``no``)."""
    return os.environ.get(ENV_BUCKETS, "1").strip().lower() not in ("0", "off", "no", "false")


@dataclass(frozen=True)
class BucketPlan:
    """Which ``hand_players`` files the live buckets cover, as the manifest lists them now.

    ``covered`` and ``uncovered`` are ``hand_players`` files (``<table>/<file>.parquet``),
    ``buckets`` the bucket files of the covered ones, ``stale`` bucket files whose source is no
    longer live (a compaction replaced it) or that cannot be read."""

    covered: tuple[str, ...]
    uncovered: tuple[str, ...]
    buckets: tuple[str, ...]
    stale: tuple[str, ...]


def _source_of(path: Path) -> str | None:
    """The ``source_file`` of a bucket file (one value per file; its Parquet statistics say it
    without reading the column), ``None`` when the file cannot be read."""
    try:
        pf = pq.ParquetFile(path)
        i = pf.schema_arrow.get_field_index("source_file")
        if i < 0 or pf.metadata.num_row_groups == 0:
            return None
        values: set[str] = set()
        for g in range(pf.metadata.num_row_groups):
            stats = pf.metadata.row_group(g).column(i).statistics
            if stats is None or not stats.has_min_max:
                values.update(str(v) for v in pf.read(columns=["source_file"]).column(0).unique().to_pylist())
                break
            values.update((str(stats.min), str(stats.max)))
        return values.pop() if len(values) == 1 else None
    except (OSError, pa.ArrowException):
        return None


def plan(root: Path | str) -> BucketPlan:
    """The bucket plan of the warehouse at ``root`` as its manifest lists it now."""
    tables = listed_tables(Path(root))
    where = {rel: path for rels in tables.values() for rel, path in rels.items()}
    return _plan(list(tables.get(SOURCE, {})), list(tables.get(NAME, {})), where)


def _plan(live: list[str], bucket_rels: list[str], where: dict[str, Path]) -> BucketPlan:
    live_set = set(live)
    source: dict[str, str] = {}
    stale: list[str] = []
    for rel in bucket_rels:
        src = _source_of(where[rel]) if rel in where else None
        if src is None or src not in live_set or src in source:
            stale.append(rel)
        else:
            source[src] = rel
    return BucketPlan(
        covered=tuple(r for r in live if r in source),
        uncovered=tuple(r for r in live if r not in source),
        buckets=tuple(source[r] for r in live if r in source),
        stale=tuple(stale),
    )


def exact_zone(con: Any) -> bool:
    """Whether the session's time zone keeps the buckets exact: its UTC offsets whole
    quarter-hours within -12..+14 h, as every IANA zone's are over the dates hands carry. A zone
    Python's zone database does not know (an ICU custom offset such as ``GMT+05:07``) or whose
    offset now is not a whole quarter-hour is read raw. (Checked when the views are made: a later
    ``SET TimeZone`` in ``hhparse sql`` is the user's own.)"""
    from datetime import UTC, datetime, timedelta
    from zoneinfo import ZoneInfo

    row = con.execute("SELECT current_setting('TimeZone')").fetchone()
    name = str(row[0]) if row else ""
    try:
        offset = datetime.now(UTC).astimezone(ZoneInfo(name)).utcoffset()
    except (ValueError, OSError, KeyError):  # unknown to zoneinfo (ZoneInfoNotFoundError is a KeyError)
        return False
    return (
        offset is not None
        and offset % timedelta(minutes=15) == timedelta(0)
        and (timedelta(hours=-12) <= offset <= timedelta(hours=14))
    )


def create_views(con: Any, root: Path | str, *, use: bool | None = None) -> BucketPlan:
    """Create the views ``player_stats`` reads: ``player_buckets`` (the live buckets),
    ``hand_players_bucketed`` (the files they cover: their raw rows are read only for the edge
    months of a ``--since``/``--until`` range) and ``hand_players_unbucketed`` (every other file).
    With ``use`` false (default: :func:`enabled` and :func:`exact_zone`) nothing counts as
    covered: the raw path."""
    use = (enabled() and exact_zone(con)) if use is None else use
    tables = listed_tables(Path(root))
    where = {rel: path for rels in tables.values() for rel, path in rels.items()}
    p = _plan(list(tables.get(SOURCE, {})), list(tables.get(NAME, {})) if use else [], where)
    con.execute(
        f"CREATE OR REPLACE VIEW player_buckets AS {view_sql(NAME, [str(where[r]) for r in p.buckets])}"
    )
    con.execute(
        f"CREATE OR REPLACE VIEW hand_players_bucketed AS {view_sql(SOURCE, [str(where[r]) for r in p.covered])}"
    )
    con.execute(
        f"CREATE OR REPLACE VIEW hand_players_unbucketed AS {view_sql(SOURCE, [str(where[r]) for r in p.uncovered])}"
    )
    return p


@dataclass(frozen=True)
class Refresh:
    """What :func:`refresh` did: ``built`` bucket files (from as many ``hand_players`` files),
    ``rows`` bucket rows written, ``retired`` stale bucket files."""

    built: int
    rows: int
    retired: int


def build(path: Path | str, source: str) -> pa.Table:
    """The buckets of the ``hand_players`` file at ``path`` (listed as ``source``), in the declared
    schema."""
    import duckdb

    con = duckdb.connect()
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute(f"CREATE TEMP VIEW bucket_source AS {view_sql(SOURCE, [str(path)])}")
        table = con.sql(read_text("analytics", "buckets.sql"), params={"source": source}).to_arrow_table()
    finally:
        con.close()
    out: pa.Table = table.cast(arrow_schema(NAME))
    return out


def refresh(root: Path | str, wh: Warehouse | None = None) -> Refresh | None:
    """Build the buckets of every live ``hand_players`` file that has none and retire the stale
    ones, with the manifest protocol (a crash leaves the buckets as they were). Through ``wh``
    when the caller holds the writer; otherwise takes the lock if it is free. ``None`` when
    nothing was done: buckets off, nothing to do, another writer at work, not a warehouse, or a
    read-only one (the reports then read the raw rows of what is not covered: same results)."""
    if not enabled():
        return None
    root = Path(root)
    if wh is None:
        if not (root / MARKER_NAME).is_file():
            return None
        p = plan(root)
        if not p.uncovered and not p.stale:
            return None  # (the common case, without taking the lock)
        import duckdb

        try:
            with Warehouse(root, holder="hhparse report (player buckets)") as own:
                return _refresh(own)
        except (WarehouseLockedError, OSError, duckdb.Error, pa.ArrowException):
            # a damaged source file: the report that reads it names it (a traceback here would not)
            return None
    return _refresh(wh)


def _refresh(wh: Warehouse) -> Refresh | None:
    live, bucket_rels = list(wh.manifest.tables.get(SOURCE, [])), list(wh.manifest.tables.get(NAME, []))
    where = dict(zip(live, wh.files_of(SOURCE), strict=True)) | dict(
        zip(bucket_rels, wh.files_of(NAME), strict=True)
    )
    p = _plan(live, bucket_rels, where)
    if not p.uncovered and not p.stale:
        return None
    rows = [0]

    def tables() -> Iterator[pa.Table]:
        for rel in p.uncovered:
            t = build(where[rel], rel)
            rows[0] += t.num_rows
            yield t

    built = wh.update_derived(NAME, tables(), p.stale)
    return Refresh(built=len(built), rows=rows[0], retired=len(p.stale))
