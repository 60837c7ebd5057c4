"""Players' reports: the SQL in ``analytics/`` run by DuckDB over a warehouse's Parquet files.

Why SQL files and not Python: every stat is defined once, in ``analytics/stats.sql``, where a
reader can check it against its PokerTracker 4 definition; this module only opens the warehouse,
binds the user's filters as parameters (never formatting them into SQL) and hands back a
DataFrame. Layers, loaded in this order on every connection:

1. raw views, one per table (:func:`hhparse.tables.schema.create_views`);
2. ``analytics/staging/*.sql``: rename and cast, money as DECIMAL in the hand's unit;
3. ``analytics/stats.sql``: the per-player-hand base and the stat definitions;
4. ``analytics/reports/<name>.sql``: one SELECT per report, run on demand.

Reports never re-derive what the referee decided: they aggregate its flags and amounts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb
import pandas as pd

from hhparse.failures import UsageError, WarehouseNotFoundError
from hhparse.resources import data_dir, read_text
from hhparse.tables.schema import create_views
from hhparse.tables.store import damage_in, default_warehouse

__all__ = [
    "REPORTS",
    "ReportSpec",
    "WarehouseNotFoundError",
    "data_tests",
    "report",
    "report_sql",
    "warehouse",
]


@dataclass(frozen=True, slots=True)
class ReportSpec:
    """A report: its CLI name, its SQL file under ``analytics/reports/`` and a one-line purpose."""

    name: str
    file: str
    doc: str
    graph: bool = False  # whether the HTML page also shows the net-won graph for the same filters


REPORTS: Mapping[str, ReportSpec] = {
    s.name: s
    for s in (
        ReportSpec("summary", "summary.sql", "Per player: hands, net, bb/100 and the PT4 stats.", True),
        ReportSpec("hilo", "hilo.sql", "Per player: scoops, high/low-only wins, quarters, lows made."),
        ReportSpec("positions", "positions.sql", "The summary stats per table position."),
        ReportSpec("door-card", "door_card.sql", "Courchevel: VPIP, PFR and win rate by the exposed card."),
        ReportSpec(
            "sessions",
            "sessions.sql",
            "Sessions (30-minute gaps) of --player or the hero: start, hands, net.",
        ),
        ReportSpec("graph", "graph.sql", "Cumulative net won, showdown, non-showdown and all-in EV.", True),
        ReportSpec(
            "luck",
            "luck.sql",
            "Biggest all-in EV vs result swings of --player or the hero, each with its hand id.",
        ),
        ReportSpec("hand", "hand.sql", "Replay of one hand: actions, pot, stacks, boards, awards."),
        ReportSpec("hands", "hands.sql", "The hand list, with the player's cards and result; HTML links replays."),
        ReportSpec("rejects", "rejects.sql", "Hands that failed, grouped by error code, with file and line."),
    )
}
"""Every report, by the name ``hhparse report NAME`` takes."""

_PARAM = re.compile(r"\$([a-z_]+)")


def warehouse(path: str | Path | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with every view of the warehouse at ``path`` registered.

    ``path`` defaults to ``$HHPARSE_WAREHOUSE`` or ``./hhparse-warehouse``. The views read the
    Parquet files the manifest lists at call time; open a new connection after an import.

    Raises:
        WarehouseNotFoundError: ``path`` holds no warehouse.
        WarehouseDamagedError: its manifest or a listed file is missing or corrupt.
        WarehouseVersionError: written by another schema version.
    """
    root = Path(path) if path is not None else default_warehouse()
    con = duckdb.connect()
    try:
        create_views(con, root, missing_ok=False)
        staging = data_dir("analytics").joinpath("staging")
        for node in sorted(staging.iterdir(), key=lambda n: n.name):
            if node.name.endswith(".sql"):
                con.execute(node.read_text(encoding="utf-8"))
        con.execute(read_text("analytics", "stats.sql"))
    except BaseException as exc:
        con.close()
        damage = damage_in(exc, root) if isinstance(exc, duckdb.Error) else None
        if damage is not None:
            raise damage from None
        raise
    return con


def report_sql(name: str) -> str:
    """The SQL text of report ``name`` (one SELECT with ``$parameter`` placeholders).

    Raises:
        KeyError: no such report.
    """
    spec = REPORTS.get(name)
    if spec is None:
        raise KeyError(f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    return read_text("analytics", "reports", spec.file)


def _as_date(value: date | str | None, option: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{option} must be a date like 2024-01-31, not {value!r}") from None


def _connection(source: str | Path | duckdb.DuckDBPyConnection | None) -> duckdb.DuckDBPyConnection:
    if isinstance(source, duckdb.DuckDBPyConnection):
        return source
    return warehouse(source)


def report(
    name: str,
    warehouse: str | Path | duckdb.DuckDBPyConnection | None = None,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
    hand_id: str | None = None,
    **hands: object,
) -> pd.DataFrame:
    """Run report ``name`` over a warehouse (a path, or a connection from :func:`warehouse`).

    Every filter is optional and bound as a query parameter: ``player`` (exact name), ``since`` /
    ``until`` (inclusive dates, UTC), ``game`` (``courchevel-hilo``, ``courchevel`` or the header
    label), ``stakes`` (``0.10/0.25 USD`` or the big blind alone, ``0.25``). ``hand_id`` is
    required by the ``hand`` report. The ``hands`` list also takes the filters of
    :func:`hhparse.reports.hands.hands_params` (``min_pot``, ``showdown``, ``all_in``,
    ``scooped``, ``quartered``, ``door_card``, ``limit``). Money columns are exact decimals in
    the row's ``unit``.

    Raises:
        KeyError: unknown report.
        UsageError: a bad date or hands filter, or ``hand`` without ``hand_id`` (a :class:`ValueError`).
        WarehouseNotFoundError: ``warehouse`` is a path without a warehouse.
    """
    sql = report_sql(name)
    if name == "hand" and not hand_id:
        raise UsageError("the hand report needs a hand id: hhparse report hand HAND_ID")
    values: dict[str, object] = {
        "player": player,
        "since": _as_date(since, "--since"),
        "until": _as_date(until, "--until"),
        "game": game,
        "stakes": stakes,
        "hand_id": hand_id,
    }
    if hands:
        from hhparse.reports.hands import hands_params

        extra = hands_params(**hands)  # type: ignore[arg-type]
        if name != "hands" and any(v is not None for v in extra.values()):
            raise UsageError(f"{', '.join(k for k, v in hands.items() if v is not None)}: only for the hands report")
        values.update(extra)
    params = {key: values.get(key) for key in sorted(set(_PARAM.findall(sql)))}
    con = _connection(warehouse)
    df: pd.DataFrame = con.sql(sql, params=params).to_arrow_table().to_pandas()
    return df


def data_tests(warehouse: str | Path | duckdb.DuckDBPyConnection | None = None) -> dict[str, pd.DataFrame]:
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
