"""The registry of derived tables (issue #18): per-file pre-aggregates that reports read instead of
the raw rows where they answer exactly.

Rules as data: one :class:`Derived` record per derived table (its name, the imported table it sums,
the SQL that builds one file's rows, the reports that read it, the names of the views over the raw
rows it covers and does not cover), and one code path for all of them: :func:`plan`,
:func:`build`, :func:`refresh` (the manifest protocol, :meth:`~hhparse.tables.store.Warehouse.update_derived`)
and :func:`create_views`.

Why derived files built after the import rather than fragments the import writes: a source file
never changes once published (a compaction or ``ev --recompute`` replaces it by new files), so a
derived file that names its source file (``source_file``) is exact for as long as that file is
live, whoever wrote the warehouse (an older hhparse, the pool, a cluster, ``watch``, ``compact``,
``bench/replicate.py``) — none of them has to know about derived tables, and the import's tasks
pay nothing (issue #14). Reports read the derived rows of the covered files and the raw rows of
the others, so a warehouse whose derived files lag behind, or have none, or a read-only one, gives
the same results: stale or missing files cost speed, never correctness.

Adding a derived table: declare it in ``DERIVED_TABLES`` (``hhparse/tables/schema.py``, with a
``source_file`` column first), write its build SQL (one ``SELECT`` over the view ``bucket_source``,
the one source file, run in a UTC session, ``$source`` the file's name for ``source_file``; views of
the tables the record ``reads`` as well, over their live files; a value the reports' raw path
computes too is a macro of ``analytics/rows.sql``, loaded in both sessions), add a
:class:`Derived` record to :data:`REGISTRY`, and have the report's SQL read the three views
:func:`create_views` makes (``name``, ``covered``, ``uncovered``). ``hhparse import`` (after its
commit), ``hhparse compact`` and the first report that names it build the missing files.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from hhparse.failures import WarehouseLockedError, os_reason
from hhparse.resources import read_text
from hhparse.tables.schema import DERIVED_TABLES, arrow_schema, view_sql
from hhparse.tables.store import MARKER_NAME, ROW_GROUP_ROWS, Warehouse, listed_tables

__all__ = [
    "ENV_SWITCH",
    "REGISTRY",
    "Derived",
    "Plan",
    "Refresh",
    "build",
    "create_views",
    "enabled",
    "exact_zone",
    "needed",
    "plan",
    "refresh",
]

ENV_SWITCH = "HHPARSE_BUCKETS"
"""``0`` (or ``off``) makes reports read the raw rows only and never build derived files (A/B
runs): every derived table at once."""


SOURCE_KEY = b"source_file"
"""The key of a derived file's Parquet metadata that names its source file."""


@dataclass(frozen=True)
class Derived:
    """One derived table: ``name`` (declared in ``DERIVED_TABLES``), the imported table ``source``
    whose files it sums one by one, its build SQL (``sql``: a path under ``analytics/``), the
    ``reports`` that read it (built before they run), the views over the raw ``source`` rows
    of the files it ``covered`` and of the rest (``uncovered``), and the other tables its build
    ``reads``."""

    name: str
    source: str
    sql: tuple[str, ...]
    reports: tuple[str, ...]
    covered: str
    uncovered: str
    order: tuple[str, ...]
    """The columns a file of more rows than a Parquet row group is sorted by (time first): each
    row group then holds a range of them, and a ``--since``/``--until`` skips the others by their
    statistics. A file of one row group is written as the query returns it (its statistics are
    the file's whatever the order), so the common file pays no sort."""
    reads: tuple[str, ...] = ()
    """Imported tables the build SQL reads besides its source file (a view of each over its live
    files, under the table's name): what one source file's rows need from their hands. Exact for
    as long as the source file is live, because a hand's rows in every table are written by one
    batch and never change."""


REGISTRY: Mapping[str, Derived] = {
    d.name: d
    for d in (
        Derived(
            "player_buckets",
            "hand_players",
            ("buckets.sql",),
            ("summary", "positions", "hilo"),
            covered="hand_players_bucketed",
            uncovered="hand_players_unbucketed",
            order=("utc_month", "player"),
        ),
        Derived(
            "door_buckets",
            "hand_players",
            ("door_buckets.sql",),
            ("door-card",),
            covered="hand_players_door_bucketed",
            uncovered="hand_players_door_unbucketed",
            order=("utc_month", "player"),
        ),
        Derived(
            "hero_slots",
            "hand_players",
            ("hero_slots.sql",),
            ("graph", "summary"),  # the graph's hours, and the summary page's net-won lines
            covered="hand_players_slotted",
            uncovered="hand_players_unslotted",
            order=("utc_slot", "unit", "tournament_id"),
        ),
        Derived(
            "shown_lows",
            "showdowns",
            ("shown_lows.sql",),
            ("hilo",),
            covered="showdowns_covered",
            uncovered="showdowns_uncovered",
            order=("utc_month", "player"),
            reads=("hands",),
        ),
    )
}
"""Every derived table, in build order."""


def enabled() -> bool:
    """Whether derived tables are on (``$HHPARSE_BUCKETS`` is not ``0``/``off``/``no``)."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


def needed(report: str) -> tuple[str, ...]:
    """The derived tables report ``report`` reads."""
    return tuple(d.name for d in REGISTRY.values() if report in d.reports)


@dataclass(frozen=True)
class Plan:
    """Which source files a derived table's live files cover, as the manifest lists them now.

    ``covered`` and ``uncovered`` are source files (``<table>/<file>.parquet``), ``files`` the
    derived files of the covered ones (in the same order), ``stale`` derived files whose source is
    no longer live (a compaction replaced it) or that cannot be read."""

    covered: tuple[str, ...]
    uncovered: tuple[str, ...]
    files: tuple[str, ...]
    stale: tuple[str, ...]

    @property
    def buckets(self) -> tuple[str, ...]:
        """``files`` (the player buckets' name for them)."""
        return self.files


def _current(name: str, schema: pa.Schema) -> bool:
    """Whether a file of derived table ``name`` holds every declared column with its declared
    type: a file an earlier hhparse wrote (before a column was added) is stale, rebuilt or read
    raw, never read with a column missing."""
    have = {f.name: f.type for f in schema}
    return all(have.get(f.name) == f.type for f in arrow_schema(name))


def _source_of(name: str, path: Path) -> str | None:
    """The ``source_file`` of a file of derived table ``name``: its key-value metadata's
    (:func:`build` stamps it, an empty file too), else (a file of an older hhparse) its column's
    one value, which the Parquet statistics say without reading the column; ``None`` when the file
    cannot be read or lacks a declared column (:func:`_current`)."""
    try:
        pf = pq.ParquetFile(path)
        if not _current(name, pf.schema_arrow):
            return None
        named = (pf.schema_arrow.metadata or {}).get(SOURCE_KEY)
        if named is not None:
            return named.decode()
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


def _plan(name: str, live: list[str], derived_rels: list[str], where: Mapping[str, Path]) -> Plan:
    live_set = set(live)
    source: dict[str, str] = {}
    stale: list[str] = []
    for rel in derived_rels:
        src = _source_of(name, where[rel]) if rel in where else None
        if src is None or src not in live_set or src in source:
            stale.append(rel)
        else:
            source[src] = rel
    return Plan(
        covered=tuple(r for r in live if r in source),
        uncovered=tuple(r for r in live if r not in source),
        files=tuple(source[r] for r in live if r in source),
        stale=tuple(stale),
    )


def _listed(root: Path) -> tuple[dict[str, dict[str, Path]], dict[str, Path]]:
    tables = listed_tables(root)
    return tables, {rel: path for rels in tables.values() for rel, path in rels.items()}


def plan(root: Path | str, name: str) -> Plan:
    """The plan of derived table ``name`` in the warehouse at ``root`` as its manifest lists it now."""
    d = REGISTRY[name]
    tables, where = _listed(Path(root))
    return _plan(d.name, list(tables.get(d.source, {})), list(tables.get(d.name, {})), where)


def exact_zone(con: Any) -> bool:
    """Whether the session's time zone keeps the derived rows exact: its UTC offsets whole
    quarter-hours within -12..+14 h, as every IANA zone's are over the dates hands carry (the
    derived tables key time by UTC month and 15-minute UTC slot). A zone Python's zone database
    does not know (an ICU custom offset such as ``GMT+05:07``) or whose offset now is not a whole
    quarter-hour is read raw. (Checked when the views are made: a later ``SET TimeZone`` in
    ``hhparse sql`` is the user's own.)"""
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


def create_views(con: Any, root: Path | str, *, use: bool | None = None) -> dict[str, Plan]:
    """Create, for every derived table, the views its reports read: the table itself (its live
    files), ``covered`` (the source files it covers: reports read their raw rows only where the
    derived rows cannot answer, e.g. the edge months of a ``--since``/``--until`` range) and
    ``uncovered`` (every other source file). With ``use`` false (default: :func:`enabled` and
    :func:`exact_zone`) nothing counts as covered: the raw path. Returns each table's plan."""
    use = (enabled() and exact_zone(con)) if use is None else use
    tables, where = _listed(Path(root))
    plans: dict[str, Plan] = {}
    for d in REGISTRY.values():
        p = _plan(d.name, list(tables.get(d.source, {})), list(tables.get(d.name, {})) if use else [], where)
        for view, table, rels in (
            (d.name, d.name, p.files),
            (d.covered, d.source, p.covered),
            (d.uncovered, d.source, p.uncovered),
        ):
            con.execute(f"CREATE OR REPLACE VIEW {view} AS {view_sql(table, [str(where[r]) for r in rels])}")
        plans[d.name] = p
    return plans


@dataclass(frozen=True)
class Refresh:
    """What :func:`refresh` did to one derived table: ``built`` files (from as many source files),
    ``rows`` written, ``retired`` stale files."""

    built: int
    rows: int
    retired: int


def _session() -> Any:
    """A DuckDB connection for derived builds: a UTC session (the derived tables key time by UTC
    month and slot) that draws no progress bar (a build runs inside an import or a report), with
    the macros of the values the reports compute alike on the raw rows (``analytics/rows.sql``)."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute("SET enable_progress_bar = false")
    con.execute(read_text("analytics", "rows.sql"))
    return con


def _reads_views(con: Any, d: Derived, reads: Mapping[str, Sequence[Path]] | None) -> None:
    missing = [t for t in d.reads if reads is None or t not in reads]
    if missing:
        raise ValueError(f"building {d.name} reads {', '.join(missing)}: pass their live files")
    for table in d.reads:
        files = [str(f) for f in (reads or {})[table]]
        con.execute(f"CREATE OR REPLACE TEMP VIEW {table} AS {view_sql(table, files)}")


def _build_in(con: Any, d: Derived, path: Path | str, source: str) -> pa.Table:
    """One source file's rows of ``d`` in session ``con`` (:func:`_session`, with the views of
    ``d.reads`` made), in the declared schema, the source named in the schema's metadata."""
    con.execute(f"CREATE OR REPLACE TEMP VIEW bucket_source AS {view_sql(d.source, [str(path)])}")
    table = con.sql(read_text("analytics", *d.sql), params={"source": source}).to_arrow_table()
    if table.num_rows > ROW_GROUP_ROWS:
        table = table.sort_by([(column, "ascending") for column in d.order])
    schema = arrow_schema(d.name)
    # the file names its source in its metadata as well: an empty one (a source without such
    # rows: an Omaha file has no door card) is then still known to cover its source
    out: pa.Table = table.cast(schema.with_metadata({**(schema.metadata or {}), SOURCE_KEY: source.encode()}))
    return out


def build(
    d: Derived, path: Path | str, source: str, reads: Mapping[str, Sequence[Path]] | None = None
) -> pa.Table:
    """The rows of derived table ``d`` for the source file at ``path`` (listed as ``source``), in
    the declared schema; ``reads`` the live files of each table its build reads (``d.reads``)."""
    con = _session()
    try:
        _reads_views(con, d, reads)
        return _build_in(con, d, path, source)
    finally:
        con.close()


class DerivedNote(UserWarning):
    """Why a report reads the imported rows instead of the derived tables (a full disk, a
    read-only or damaged warehouse): issued with :func:`warnings.warn` by :func:`refresh`; the
    CLI prints it on stderr, as it prints a filter's note. The results are the same, only
    slower, but a user who wonders why should be told."""


def refresh(
    root: Path | str, wh: Warehouse | None = None, names: Iterable[str] | None = None
) -> dict[str, Refresh]:
    """Build the files of every live source file that has none, and retire the stale ones, for the
    derived tables ``names`` (default: all), with the manifest protocol (a crash leaves each table
    as it was). Through ``wh`` when the caller holds the writer (errors are raised); otherwise
    takes the lock if it is free. Returns what was done per table; empty when nothing was done:
    derived tables off, nothing to do, another writer at work, not a warehouse, a read-only or
    damaged one (the reports then read the raw rows of what is not covered: same results; a
    damaged file is named by the report that reads it, where a traceback here would not). A
    failure other than another writer's lock is said in a :class:`DerivedNote`."""
    if not enabled():
        return {}
    records = [REGISTRY[n] for n in (REGISTRY if names is None else names)]
    root = Path(root)
    if wh is not None:
        return _refresh_all(wh, records)
    if not (root / MARKER_NAME).is_file():
        return {}
    tables, where = _listed(root)
    todo = []
    for d in records:
        p = _plan(d.name, list(tables.get(d.source, {})), list(tables.get(d.name, {})), where)
        if p.uncovered or p.stale:
            todo.append(d)
    if not todo:
        return {}  # (the common case, without taking the lock)
    import duckdb

    try:
        with Warehouse(root, holder="hhparse report (derived tables)") as own:
            return _refresh_all(own, todo)
    except WarehouseLockedError:
        return {}  # (an import at work, ``--watch`` while playing: it refreshes them itself)
    except (OSError, duckdb.Error, pa.ArrowException) as exc:
        said = str(exc).strip().splitlines() or [type(exc).__name__]  # (an Arrow error may say nothing)
        reason = os_reason(exc) if isinstance(exc, OSError) else said[0]
        warnings.warn(
            DerivedNote(
                f"the derived tables could not be brought up to date ({reason}): the report "
                "reads the imported rows instead (the same results, more slowly)"
            ),
            stacklevel=2,
        )
        return {}


def _refresh_all(wh: Warehouse, records: list[Derived]) -> dict[str, Refresh]:
    """Every derived table of ``records`` brought up to date in one DuckDB session and one commit:
    a small import pays one connection and one manifest swap, not one per table and source file."""
    files = {table: list(wh.manifest.tables.get(table, [])) for d in records for table in (d.source, d.name)}
    where = {
        rel: path for table, rels in files.items() for rel, path in zip(rels, wh.files_of(table), strict=True)
    }
    todo = [
        (d, p)
        for d in records
        for p in [_plan(d.name, files[d.source], files[d.name], where)]
        if p.uncovered or p.stale
    ]
    if not todo:
        return {}
    rows = dict.fromkeys((d.name for d, _ in todo), 0)
    con = _session()
    try:

        def tables(d: Derived, p: Plan) -> Iterator[pa.Table]:
            _reads_views(con, d, {table: wh.files_of(table) for table in d.reads})
            for rel in p.uncovered:
                t = _build_in(con, d, where[rel], rel)
                rows[d.name] += t.num_rows
                yield t

        built = wh.update_derived({d.name: (tables(d, p), p.stale) for d, p in todo})
    finally:
        con.close()
    return {
        d.name: Refresh(built=len(built[d.name]), rows=rows[d.name], retired=len(p.stale)) for d, p in todo
    }


def _check() -> None:
    """Every record names a declared derived table (a typo would otherwise surface as a KeyError
    in the first report)."""
    for d in REGISTRY.values():
        if d.name not in DERIVED_TABLES:
            raise RuntimeError(f"derived table {d.name!r} is not declared in DERIVED_TABLES")


_check()
