"""``hhparse ev [--warehouse DIR] [--recompute] [--jobs N]``: the warehouse's all-in EV.

Without ``--recompute``: how many hands have an all-in EV, per street and method (exact or Monte
Carlo). With it: take the all-in EV of every stored hand again from its history file
(:func:`hhparse.recompute.recompute_ev`) — after an upgrade of the EV stage, or for a warehouse
imported without it — and report what was recomputed and what was kept (file gone or changed,
hand now rejected). Exit codes: 0 done, 1 some hands kept their old EV, 2 not a warehouse, locked
or of another schema version.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hhparse.cli.common import WarehouseOption, add_command, warehouse_dir
from hhparse.failures import UsageError, WarehouseLockedError


def ev_command(
    warehouse: WarehouseOption = None,
    recompute: Annotated[
        bool, typer.Option("--recompute", help="Recompute every hand's all-in EV from its history file.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all cores)."),
    ] = None,
) -> None:
    """Show, or recompute, the all-in EV of the warehouse's hands.

    Without --recompute: how many hands have an all-in EV, per street and method (exact or Monte
    Carlo). With it: every stored hand's all-in EV is taken again from its history file (after an
    upgrade, or for a warehouse imported without it); hands whose file is gone or changed keep
    theirs, and the exit code is 1.
    """
    from hhparse.recompute import ev_status, recompute_ev
    from hhparse.tables.store import SchemaMismatchError

    target = warehouse_dir(warehouse)
    try:
        if recompute:
            res = recompute_ev(target, jobs=jobs)
        rows = ev_status(target)
    except (UsageError, WarehouseLockedError, SchemaMismatchError) as exc:
        typer.echo(f"hhparse ev: {exc}", err=True)
        raise typer.Exit(2) from exc
    for r in rows:
        typer.echo(f"{r['method']:>6} {r['street']:>8}: {r['hands']:,} hands")
    if recompute:
        typer.echo(
            f"recomputed {res.recomputed:,} of {res.hands:,} hands ({res.with_ev:,} with an all-in EV)"
        )
        typer.echo(
            f"kept {res.kept:,} as they were: {res.kept_missing_file:,} file gone, "
            f"{res.kept_changed:,} text changed, {res.kept_rejected:,} now rejected"
        )
        for path in res.missing_files:
            typer.echo(f"  unreadable: {path}", err=True)
        if res.kept:
            raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``ev`` to the root app."""
    add_command(
        app,
        "ev",
        ev_command,
        examples=("hhparse ev --warehouse ~/hh-warehouse", "hhparse ev --recompute --jobs 2"),
    )
