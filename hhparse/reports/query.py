"""Running reports: open a warehouse's views, check the filters, run one report's SQL.

See :mod:`hhparse.reports` for the layers. DataFrames come back with numeric dtypes: money is an
exact ``decimal128(18, 2)`` Arrow dtype (``pd.ArrowDtype``: sums and comparisons work, nothing is
rounded through a float), in the unit named by the row's ``unit`` column; ``df.attrs`` says which
columns are money (``money_columns``), which column names their unit (``unit_column``) and what
each column means (``columns``: :mod:`hhparse.reports.columns`).
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from hhparse.failures import UsageError
from hhparse.reports import derived, scoped
from hhparse.reports.catalog import BY, REPORTS
from hhparse.reports.columns import label
from hhparse.reports.filters import Scope, resolve
from hhparse.reports.hours import graph_hours, shared
from hhparse.resources import data_dir, read_text
from hhparse.tables.schema import create_views
from hhparse.tables.store import damage_in, default_warehouse

__all__ = ["FilterNote", "data_tests", "frame", "report", "report_sql", "warehouse"]

_PARAM = re.compile(r"\$([a-z_]+)")
_BY_COLUMNS = {b: b.replace("-", "_") for b in BY}


class FilterNote(UserWarning):
    """How a filter was read (``hero`` taken as ``Hero``, ``10/25`` read in cents): issued with
    :func:`warnings.warn` by :func:`report`; the CLI prints it on stderr."""


def _path(path: str | os.PathLike[str] | None) -> Path:
    return Path(os.path.expanduser(path)) if path is not None else default_warehouse()


def warehouse(path: str | os.PathLike[str] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with every view of the warehouse at ``path`` registered.

    ``path`` (``~`` expanded) defaults to ``$HHPARSE_WAREHOUSE`` or ``./hhparse-warehouse``. The
    views read the Parquet files the manifest lists at call time; open a new connection after an
    import.

    Raises:
        WarehouseNotFoundError: ``path`` holds no warehouse.
        WarehouseDamagedError: its manifest or a listed file is missing or corrupt.
        WarehouseVersionError: written by another schema version.
    """
    root = _path(path)
    con = duckdb.connect()
    try:
        create_views(con, root, missing_ok=False)
        derived.create_views(con, root)
        con.execute("SET VARIABLE hhparse_warehouse = $root", {"root": str(root)})
        staging = data_dir("analytics").joinpath("staging")
        for node in sorted(staging.iterdir(), key=lambda n: n.name):
            if node.name.endswith(".sql"):
                con.execute(node.read_text(encoding="utf-8"))
        con.execute(read_text("analytics", "rows.sql"))
        con.execute(read_text("analytics", "filters.sql"))
        con.execute(scoped.sql())
        con.execute(read_text("analytics", "stats.sql"))
        con.execute(read_text("analytics", "pages", "player_hours.sql"))
    except BaseException as exc:
        con.close()
        damage = damage_in(exc, root) if isinstance(exc, duckdb.Error) else None
        if damage is not None:
            raise damage from None
        raise
    return con


def _refresh_derived(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> None:
    """Bring the derived tables ``names`` (:mod:`.derived`) of the connection's warehouse up to
    date before a report that reads them (built once after each import; nothing to do otherwise),
    and point its views at them. A connection that is not :func:`warehouse`'s, or a warehouse that
    cannot be written now, keeps the views it has: they read the raw rows of whatever the derived
    files do not cover."""
    try:
        root = con.execute("SELECT getvariable('hhparse_warehouse')").fetchone()
    except duckdb.Error:
        return
    if root is None or root[0] is None:
        return
    if derived.refresh(Path(str(root[0])), names=names):
        derived.create_views(con, Path(str(root[0])))


def report_sql(name: str) -> str:
    """The SQL text of report ``name`` (one SELECT with ``$parameter`` placeholders).

    Raises:
        KeyError: no such report.
    """
    spec = REPORTS.get(name)
    if spec is None:
        raise KeyError(f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    return read_text("analytics", "reports", spec.file)


def _connection(
    source: str | os.PathLike[str] | duckdb.DuckDBPyConnection | None,
) -> duckdb.DuckDBPyConnection:
    if isinstance(source, duckdb.DuckDBPyConnection):
        return source
    return warehouse(source)


def _by(by: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """``--by`` values (repeated, or comma-separated), checked."""
    if by is None:
        return []
    items = [by] if isinstance(by, str) else list(by)
    out: list[str] = []
    for item in items:
        for part in str(item).split(","):
            p = part.strip().lower().replace("_", "-")
            if p in ("stake", "blinds", "buy-in"):
                p = "stakes"
            if p in ("size", "table"):
                p = "table-size"
            if p not in BY:
                raise UsageError(f"--by must be one or more of {', '.join(BY)}, not {part.strip()!r}")
            if p not in out:
                out.append(p)
    return out


def frame(table: Any) -> pd.DataFrame:
    """A DuckDB/Arrow result as a DataFrame with numeric dtypes: decimals stay exact as Arrow
    decimals (``pd.ArrowDtype``), integers with nulls become nullable integers, text stays text."""
    import pyarrow as pa

    def mapper(t: pa.DataType) -> Any:
        if pa.types.is_decimal(t):
            return pd.ArrowDtype(t)
        if pa.types.is_integer(t):
            return {8: pd.Int8Dtype(), 16: pd.Int16Dtype(), 32: pd.Int32Dtype(), 64: pd.Int64Dtype()}[
                t.bit_width
            ]
        return None

    arrow = table if isinstance(table, pa.Table) else table.to_arrow_table()
    df: pd.DataFrame = arrow.to_pandas(types_mapper=mapper)
    money = [str(f.name) for f in arrow.schema if pa.types.is_decimal(f.type)]
    df.attrs["money_columns"] = money
    if "unit" in df.columns:
        df.attrs["unit_column"] = "unit"
    df.attrs["columns"] = {str(c): label(str(c)).doc for c in df.columns}
    return df


def report(
    name: str,
    warehouse: str | os.PathLike[str] | duckdb.DuckDBPyConnection | None = None,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
    by: str | list[str] | tuple[str, ...] | None = None,
    hand_id: str | None = None,
    **hands: object,
) -> pd.DataFrame:
    """Run report ``name`` over a warehouse (a path, ``~`` expanded, or a connection from
    :func:`warehouse`).

    Every filter is optional and checked against what the warehouse holds before the report runs:
    ``player`` (an exact name; a case-insensitive match is taken with a :class:`FilterNote`),
    ``since`` / ``until`` (inclusive dates, UTC: ``2024-01-31``, a month ``2024-01`` or a year),
    ``game`` (``courchevel-hilo``, ``omaha-hilo``, ``o8``... or the header words), ``stakes`` (in
    any written form: ``0.10/0.25``, ``$0.10-$0.25``, ``10/25`` in cents, the big blind alone, a
    tournament buy-in). ``by`` splits the ``summary`` by ``stakes``, ``game``, ``structure``,
    ``month``, ``position`` or ``table-size`` (a list, or comma-separated). ``hand_id`` is required
    by the ``hand`` report. The ``hands`` list also takes the filters of
    :func:`hhparse.reports.hands.hands_params` (``min_pot``, ``showdown``, ``all_in``, ``scooped``,
    ``quartered``, ``door_card``, ``limit``).

    Money columns are exact decimals (``decimal128(18, 2)`` Arrow dtype) in the row's ``unit``;
    ``df.attrs`` names the money columns and defines every column.

    Raises:
        KeyError: unknown report.
        UsageError: a filter that matches nothing in the warehouse (the message lists what it
            holds), a bad date, ``by`` or hands filter, ``hand`` without ``hand_id`` (a
            :class:`ValueError`).
        WarehouseNotFoundError: ``warehouse`` is a path without a warehouse.
    """
    sql = report_sql(name)
    spec = REPORTS[name]
    if name == "hand" and not hand_id:
        raise UsageError("the hand report needs a hand id: hhparse report hand HAND_ID")
    splits = _by(by)
    if splits and not spec.by:
        raise UsageError(
            f"--by is for the summary report, not {name} (the positions report is summary --by position)"
        )
    con = _connection(warehouse)
    needs = derived.needed(name)
    if needs:
        _refresh_derived(con, needs)
    scope = (
        resolve(con, player=player, since=since, until=until, game=game, stakes=stakes)
        if name != "hand"
        else Scope()
    )
    for note in scope.notes:
        warnings.warn(note, FilterNote, stacklevel=3)  # the caller of hhparse.report
    values: dict[str, object] = {**scope.params(), "hand_id": hand_id, "by": splits}
    if hands:
        from hhparse.reports.hands import hands_params

        extra = hands_params(**hands)  # type: ignore[arg-type]
        if name != "hands" and any(v is not None for v in extra.values()):
            raise UsageError(
                f"{', '.join(k for k, v in hands.items() if v is not None)}: only for the hands report"
            )
        values.update(extra)
    params = {key: values.get(key) for key in sorted(set(_PARAM.findall(sql)))}
    with contextlib.ExitStack() as hours:
        if "player_hours(" in sql and not shared(con):  # the graph: its hands read where they lie
            hours.enter_context(graph_hours(con, ((sql, "needed_hours"),), params))
        df = frame(con.sql(sql, params=params))
    if spec.by:
        unused = [col for b, col in _BY_COLUMNS.items() if b not in splits and col in df.columns]
        df = df.drop(columns=unused)
        df.attrs["columns"] = {c: d for c, d in df.attrs["columns"].items() if c in df.columns}
    df.attrs["report"] = name
    return df


def data_tests(
    warehouse: str | os.PathLike[str] | duckdb.DuckDBPyConnection | None = None,
) -> dict[str, pd.DataFrame]:
    """Run every ``analytics/tests/*.sql`` data test; each maps to the rows it found (none = pass).

    The tests state the warehouse's invariants (unique hands, pot and chip conservation); a row
    is a hand that breaks one.
    """
    con = _connection(warehouse)
    tests = data_dir("analytics").joinpath("tests")
    out: dict[str, pd.DataFrame] = {}
    for node in sorted(tests.iterdir(), key=lambda n: n.name):
        if node.name.endswith(".sql"):
            out[node.name.removesuffix(".sql")] = con.execute(node.read_text(encoding="utf-8")).df()
    return out
