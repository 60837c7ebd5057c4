"""Options and output helpers shared by the commands, declared once so help texts never drift."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

WarehouseOption = Annotated[
    Path | None,
    typer.Option(
        "--warehouse", "-w", help="Warehouse folder (default: $HHPARSE_WAREHOUSE or ./hhparse-warehouse)."
    ),
]

OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")]


def emit(text: str, out: Path | None) -> None:
    """Write a rendered result to ``out`` (UTF-8) or to stdout."""
    if out is not None:
        out.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)
