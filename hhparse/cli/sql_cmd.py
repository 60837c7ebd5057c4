"""``hhparse sql "SELECT ..." [--warehouse DIR] [--format table|csv|json|parquet] [--out FILE]``.

Any SQL over the warehouse views (raw tables, ``stg_*`` staging views, ``player_hands`` and the
stat macros of ``analytics/stats.sql``), for questions no report answers. A thin adapter over
:func:`hhparse.reports.warehouse`. Exit codes: 0 ok, 2 usage error (no warehouse, bad SQL, bad
format), 3 warehouse damaged. CSV cells that a spreadsheet would run as a formula are
neutralised unless ``--csv-raw`` (see :func:`hhparse.safetext.csv_cell`).
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from hhparse.cli.common import (
    CsvRawOption,
    OutOption,
    WarehouseOption,
    add_command,
    emit,
    fail,
    query_failure,
    warehouse_dir,
)

_FORMATS = ("table", "csv", "json", "parquet")


def sql_command(
    query: Annotated[
        str, typer.Argument(metavar="SQL", help="SQL to run (DuckDB dialect) over the warehouse views.")
    ],
    warehouse_opt: WarehouseOption = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="Output format: table, csv, json or parquet (parquet needs --out).",
        ),
    ] = "table",
    out: OutOption = None,
    csv_raw: CsvRawOption = False,
) -> None:
    """Run SQL over the warehouse and print or save the result.

    The views: the raw tables (hands, hand_players, actions, pots, awards, showdowns, ev_shares,
    tournament_events, tournament_summaries, rejects, imports; money in minor units with exact
    '_dec' companions), the staging views (stg_hands, stg_hand_players...: money as decimals in the
    hand's unit), player_hands (one row per player per hand, the stats' 0/1 flags) and the macros of
    analytics/stats.sql. docs/schema.md lists every column; the table output fits the terminal.
    """
    import duckdb

    from hhparse.reports import warehouse
    from hhparse.reports.output import to_csv, to_json, to_parquet, to_table
    from hhparse.reports.query import frame

    if fmt not in _FORMATS:
        fail("sql", f"--format must be one of {', '.join(_FORMATS)}")
    if fmt == "parquet" and out is None:
        fail("sql", "--format parquet needs --out FILE")
    if not query.strip():
        fail("sql", "the query is empty")
    root = warehouse_dir(warehouse_opt)
    con = warehouse(root)
    try:
        rel = con.sql(query)
        df = frame(rel) if rel is not None else None
    except duckdb.Error as exc:
        raise query_failure(exc, root, "the query") from None
    if df is None:
        fail(
            "sql",
            "the query returns no result (only a SELECT, or a statement that returns rows, can be shown)",
        )
    if fmt == "parquet":
        assert out is not None
        out.write_bytes(to_parquet(df))
        return
    if fmt == "csv":
        text = to_csv(df, raw=csv_raw, names=True)
    elif fmt == "json":
        text = to_json(df)
    else:
        color = out is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        text = to_table(df, color=color)
    emit(text, out)


def register(app: typer.Typer) -> None:
    """Add ``sql`` to the root app."""
    add_command(
        app,
        "sql",
        sql_command,
        examples=(
            'hhparse sql "SELECT position, count(*) FROM hand_players GROUP BY 1"',
            "hhparse sql 'SELECT * FROM stg_hands' -f parquet -o hands.parquet",
            'hhparse sql "SELECT player, sum(net) FROM player_hands GROUP BY 1" -f csv',
        ),
    )
