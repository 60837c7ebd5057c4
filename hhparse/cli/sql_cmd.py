"""``hhparse sql "SELECT ..." [--warehouse DIR] [--format table|csv|json|parquet] [--out FILE]``.

Any SQL over the warehouse views (raw tables, ``stg_*`` staging views, ``player_hands`` and the
stat macros of ``analytics/stats.sql``), for questions no report answers. A thin adapter over
:func:`hhparse.reports.warehouse`. Exit codes: 0 ok, 2 usage error (no warehouse, bad SQL, bad
format), 3 warehouse damaged. CSV cells that a spreadsheet would run as a formula are
neutralised unless ``--csv-raw`` (see :func:`hhparse.safetext.csv_cell`).
"""

from __future__ import annotations

from typing import Annotated

import duckdb
import typer

from hhparse.cli.common import (
    CsvRawOption,
    OutOption,
    WarehouseOption,
    add_command,
    emit,
    fail,
    query_failure,
)
from hhparse.reports import warehouse
from hhparse.reports.output import to_csv, to_json, to_parquet, to_table
from hhparse.tables.store import default_warehouse

_FORMATS = ("table", "csv", "json", "parquet")


def sql_command(
    query: Annotated[str, typer.Argument(help="SQL to run (DuckDB dialect) over the warehouse views.")],
    warehouse_dir: WarehouseOption = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", help="Output format: table, csv, json or parquet (parquet needs --out)."
        ),
    ] = "table",
    out: OutOption = None,
    csv_raw: CsvRawOption = False,
) -> None:
    """Run SQL over the warehouse and print or save the result."""
    if fmt not in _FORMATS:
        fail("sql", f"--format must be one of {', '.join(_FORMATS)}")
    if fmt == "parquet" and out is None:
        fail("sql", "--format parquet needs --out FILE")
    if not query.strip():
        fail("sql", "the query is empty")
    root = warehouse_dir if warehouse_dir is not None else default_warehouse()
    con = warehouse(root)
    try:
        rel = con.sql(query)
        df = rel.to_arrow_table().to_pandas() if rel is not None else None
    except duckdb.Error as exc:
        raise query_failure(exc, root, "the query") from None
    if df is None:
        fail("sql", "the query returns no result (only a SELECT, or a statement that returns rows, can be shown)")
    if fmt == "parquet":
        assert out is not None
        out.write_bytes(to_parquet(df))
        return
    text = to_csv(df, raw=csv_raw) if fmt == "csv" else {"table": to_table, "json": to_json}[fmt](df)
    emit(text, out)


def register(app: typer.Typer) -> None:
    """Add ``sql`` to the root app."""
    add_command(app, "sql", sql_command)
