"""``hhparse sql "SELECT ..." [--warehouse DIR] [--format table|csv|json|parquet] [--out FILE]``.

Any SQL over the warehouse views (raw tables, ``stg_*`` staging views, ``player_hands`` and the
stat macros of ``analytics/stats.sql``), for questions no report answers. A thin adapter over
:func:`hhparse.reports.warehouse`. Exit codes: 0 ok, 2 usage error (no warehouse, bad SQL, bad
format).
"""

from __future__ import annotations

from typing import Annotated

import duckdb
import typer

from hhparse.cli.common import OutOption, WarehouseOption, emit
from hhparse.reports import WarehouseNotFoundError, warehouse
from hhparse.reports.output import to_csv, to_json, to_parquet, to_table
from hhparse.tables.schema import WarehouseVersionError

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
) -> None:
    """Run SQL over the warehouse and print or save the result."""
    if fmt not in _FORMATS:
        typer.echo(f"hhparse sql: --format must be one of {', '.join(_FORMATS)}", err=True)
        raise typer.Exit(2)
    if fmt == "parquet" and out is None:
        typer.echo("hhparse sql: --format parquet needs --out FILE", err=True)
        raise typer.Exit(2)
    try:
        con = warehouse(warehouse_dir)
        df = con.sql(query).to_arrow_table().to_pandas() if query.strip() else None
    except (WarehouseNotFoundError, WarehouseVersionError) as exc:
        typer.echo(f"hhparse sql: {exc}", err=True)
        raise typer.Exit(2) from exc
    except duckdb.Error as exc:
        typer.echo(f"hhparse sql: {exc}", err=True)
        raise typer.Exit(2) from exc
    if df is None:
        typer.echo("hhparse sql: the query is empty or returns no result", err=True)
        raise typer.Exit(2)
    if fmt == "parquet":
        assert out is not None
        out.write_bytes(to_parquet(df))
        return
    text = {"table": to_table, "csv": to_csv, "json": to_json}[fmt](df)
    emit(text, out)


def register(app: typer.Typer) -> None:
    """Add ``sql`` to the root app."""
    app.command("sql")(sql_command)
