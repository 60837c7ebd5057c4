"""``hhparse compact [--warehouse DIR]``: merge the small batch files of the warehouse.

Imports publish one file per table per batch; many small files slow DuckDB down. Compaction
rewrites them into few large files without changing any row or their order, and publishes the
result with one atomic manifest swap; the replaced files leave the table folders at once (outside
readers never see a row twice) and are deleted a day later. Exit 0 on success, 2 when the folder
is not a warehouse or another process is writing to it, 3 when the warehouse is damaged.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hhparse.cli.common import WarehouseOption, add_command, warehouse_dir
from hhparse.safetext import visible


def compact_command(
    warehouse: WarehouseOption = None,
    target_rows: Annotated[
        int, typer.Option("--target-rows", min=1, metavar="N", help="Rows per merged file, at most.")
    ] = 2_000_000,
) -> None:
    """Merge small Parquet batch files (rows unchanged, atomically).

    Each import publishes one file per table per batch; many small files slow every report down.
    Replaced files leave the table folders at once and are deleted a day later.
    """
    from hhparse.importer import compact
    from hhparse.reports.derived import refresh

    target = warehouse_dir(warehouse)
    notes: list[str] = []
    report = compact(target, target_rows, notes)
    # the compacted files have no derived rows yet (player buckets...): build them now rather than
    # in the next report that reads them (nothing is done when derived tables are off)
    refresh(target)
    for note in notes:
        typer.echo(visible(f"hhparse compact: {note}"), err=True)
    for name, (before, after) in report.items():
        typer.echo(f"{name}: {before} → {after} files")


def register(app: typer.Typer) -> None:
    """Add ``compact`` to the root app."""
    add_command(
        app,
        "compact",
        compact_command,
        examples=(
            "hhparse compact --warehouse ~/hh-warehouse",
            "HHPARSE_WAREHOUSE=~/hh-warehouse hhparse compact",
        ),
    )
