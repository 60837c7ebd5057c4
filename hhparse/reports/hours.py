"""The graphs' two passes over a player's hands, made once: the hours, then the hands of the
hours that a graph orders hand by hand, read from the player's rows of those hours' time only.

Both graphs (the ``graph`` report, ``reports/graph.sql``, and the HTML pages' net-won lines,
``pages/graph_lines.sql``) add the player's hands up per hour (``player_hours``), then read the
hands of a few hours (``player_hour_hands``): those holding a point or, for the report, the first
and those that may hold a line's extreme. :func:`graph_hours` makes the hours once as a temporary
table, asks each query which hours it reads (its own CTE, its final SELECT swapped for the hours)
and reads the hands of those hours once into a second table. When those hours are a small part of
the player's hands in at most :data:`MAX_RANGES` stretches of time (the ``graph`` report's
extremes and first hour, a handful), the read of ``hand_players`` is limited to those stretches,
so that the Parquet scan skips every row group whose ``start_utc`` statistics lie outside them:
the importer writes hands in the order it reads them, so a row group holds a stretch of time.
The filter is exact (an hour is a range of ``start_utc``); what it saves depends on the layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from hhparse.resources import read_text

if TYPE_CHECKING:
    import duckdb

__all__ = ["MAX_RANGES", "MAX_SHARE", "graph_hours", "hour_ranges", "hours_of", "shared", "within_hours"]

MAX_RANGES = 4
"""Stretches of time the hands' read is limited to at most. Each is a range test of every row of
the row groups the scan keeps; ranges beyond a few cost more than a scan that prunes nothing
(docs/performance.md, "graph31"), so more hours are merged into this many stretches."""

MAX_SHARE = 0.25
"""The player's hands those stretches may hold at most, as a share of all the player's hands in
the hours: beyond it the scan is read whole (a wide stretch prunes little and costs its test)."""

HOUR_US = 3_600_000_000
"""An hour in microseconds: the graphs' hour is ``epoch_us(start_utc) // HOUR_US``."""

_LAST = "SELECT * FROM final"
_FLAG = "hhparse_graph_hours"
_TAIL = "($player, $since, $until, $game, $stakes)"
_PARAM = re.compile(r"\$([a-z_]+)")


def hours_of(sql: str, cte: str) -> str:
    """A graph's query (``graph.sql``, ``graph_lines.sql``) answering, instead of its points, the
    hours its second pass reads the hands of (its CTE ``cte``: unit and hour)."""
    body = sql.rstrip()
    if not body.endswith(_LAST):
        raise ValueError(f"a graph's query ends with {_LAST!r}")
    return body.removesuffix(_LAST) + f"SELECT DISTINCT unit, hour FROM {cte}"


def hour_ranges(hours: Iterable[int], limit: int = MAX_RANGES) -> list[tuple[int, int]]:
    """Half-open ranges ``[first, end)`` of hours, sorted and apart, at most ``limit`` of them,
    covering every hour of ``hours``: runs of consecutive hours, the runs closest together joined
    (the widest gaps are kept) until ``limit`` remain. Empty for no hours."""
    if limit < 1:
        raise ValueError("at least one range")
    runs: list[list[int]] = []
    for h in sorted(set(hours)):
        if runs and runs[-1][1] == h:
            runs[-1][1] = h + 1
        else:
            runs.append([h, h + 1])
    if len(runs) > limit:
        gaps = sorted(range(len(runs) - 1), key=lambda i: (runs[i + 1][0] - runs[i][1], i), reverse=True)
        cuts = sorted(gaps[: limit - 1])
        merged: list[list[int]] = []
        first = 0
        for i in [*cuts, len(runs) - 1]:
            merged.append([runs[first][0], runs[i][1]])
            first = i + 1
        runs = merged
    return [(a, b) for a, b in runs]


def within_hours(ranges: Sequence[tuple[int, int]], column: str = "start_utc") -> str:
    """A SQL test of ``column`` (a TIMESTAMPTZ) lying in one of the hour ranges: constants, so
    that DuckDB compares them with the Parquet statistics of the row groups."""
    if not ranges:
        return "false"
    return " OR ".join(
        f"({column} >= make_timestamptz({a * HOUR_US}) AND {column} < make_timestamptz({b * HOUR_US}))"
        for a, b in ranges
    )


def shared(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` is inside :func:`graph_hours` (its macros read that block's tables)."""
    rows = con.execute(f"SELECT getvariable('{_FLAG}')").fetchall()
    return bool(rows and rows[0][0])


def _limit(con: duckdb.DuckDBPyConnection) -> str:
    """The test of ``start_utc`` that limits the hands' read to the hours of ``page_hour_keys``,
    or ``""`` when it would not pay (:data:`MAX_RANGES`, :data:`MAX_SHARE`)."""
    rows = con.execute("SELECT list(DISTINCT hour) FROM page_hour_keys WHERE hour IS NOT NULL").fetchall()
    hours = [int(h) for h in (rows[0][0] if rows and rows[0][0] else [])]
    if not hours:
        return ""
    ranges = hour_ranges(hours)
    test = " OR ".join(f"(hour >= {a} AND hour < {b})" for a, b in ranges)
    rows = con.execute(f"SELECT sum(n) FILTER (WHERE {test}), sum(n) FROM page_hours").fetchall()
    inside, total = (rows[0][0] or 0, rows[0][1] or 0) if rows else (0, 0)
    if total == 0 or inside > MAX_SHARE * total:
        return ""
    return within_hours(ranges)


@contextmanager
def graph_hours(
    con: duckdb.DuckDBPyConnection, queries: Sequence[tuple[str, str]], params: Mapping[str, object]
) -> Iterator[None]:
    """Within the block, ``player_hours`` and ``player_hour_hands`` on ``con`` return the rows of
    two temporary tables made here under the filters ``params`` (``$player``, ``$since``...),
    whatever they are asked: the player's hours, and the hands of the hours that the ``queries``
    (each a graph's SQL and the name of its CTE of the hours it reads hand by hand, see
    :func:`hours_of`) read. After it, the macros are the warehouse's again. Only for queries run
    under these filters."""

    def run(sql: str) -> None:
        con.execute(sql, {key: params.get(key) for key in set(_PARAM.findall(sql))})

    try:
        con.execute(f"SET VARIABLE {_FLAG} = true")
        run(f"CREATE OR REPLACE TEMP TABLE page_hours AS SELECT * FROM player_hours{_TAIL}")
        con.execute(
            "CREATE OR REPLACE MACRO player_hours(p_player, p_since, p_until, p_game, p_stakes) AS TABLE "
            "SELECT * FROM page_hours"
        )
        keys = " UNION ".join(f"SELECT * FROM ({hours_of(sql, cte)})" for sql, cte in queries)
        run(f"CREATE OR REPLACE TEMP TABLE page_hour_keys AS {keys}")
        limit = _limit(con)
        run(
            f"CREATE OR REPLACE TEMP TABLE page_hour_hands AS SELECT * FROM player_hour_hands{_TAIL} "
            "SEMI JOIN page_hour_keys USING (unit, hour)" + (f" WHERE {limit}" if limit else "")
        )
        con.execute(
            "CREATE OR REPLACE MACRO player_hour_hands(p_player, p_since, p_until, p_game, p_stakes) AS TABLE "
            "SELECT * FROM page_hour_hands"
        )
        yield
    finally:
        con.execute(read_text("analytics", "pages", "player_hours.sql"))
        for table in ("page_hours", "page_hour_keys", "page_hour_hands"):
            con.execute(f"DROP TABLE IF EXISTS {table}")
        con.execute(f"RESET VARIABLE {_FLAG}")
