"""``hhparse compact [--warehouse DIR]``: merge the small batch files of the warehouse.

Imports publish one file per table per batch; many small files slow DuckDB down. Compaction
rewrites them into few large files without changing any row or their order, and publishes the
result with one atomic manifest swap. Exit 0 on success, 2 when the folder is not a warehouse or
another process is writing to it.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hhparse.cli.common import WarehouseOption
from hhparse.importer import UsageError, compact
from hhparse.tables.store import SchemaMismatchError, WarehouseLockedError, default_warehouse


def compact_command(
    warehouse: WarehouseOption = None,
    target_rows: Annotated[
        int, typer.Option("--target-rows", min=1, help="Rows per merged file, at most.")
    ] = 2_000_000,
) -> None:
    """Merge small Parquet batch files (rows unchanged, atomically)."""
    target = warehouse if warehouse is not None else default_warehouse()
    try:
        report = compact(target, target_rows)
    except (UsageError, WarehouseLockedError, SchemaMismatchError) as exc:
        typer.echo(f"hhparse compact: {exc}", err=True)
        raise typer.Exit(2) from exc
    for name, (before, after) in report.items():
        typer.echo(f"{name}: {before} → {after} files")


def register(app: typer.Typer) -> None:
    """Add ``compact`` to the root app."""
    app.command("compact")(compact_command)
