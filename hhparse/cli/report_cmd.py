"""``hhparse report NAME [HAND_ID] [--player P] [--since D] [--until D] [--game G] [--stakes S]
[--format table|csv|json|html|png|svg] [--out FILE]``.

A thin adapter over :func:`hhparse.reports.report` and :mod:`hhparse.reports.output`. The format
defaults to the ``--out`` file's extension, else ``table``; ``graph`` also writes PNG or SVG (to a
file: images on a terminal help no one). Exit codes: 0 ok, 2 usage error (unknown report, bad
date or format, no warehouse, ``hand`` without an id or with one the warehouse does not hold), 3
warehouse damaged.
"""

from __future__ import annotations

from pathlib import Path
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
from hhparse.reports import REPORTS, report, warehouse
from hhparse.reports.output import (
    IMAGE_FORMATS,
    TEXT_FORMATS,
    graph_image,
    to_csv,
    to_html,
    to_json,
    to_table,
)
from hhparse.tables.store import default_warehouse


def _format(fmt: str | None, out: Path | None) -> str:
    if fmt is not None:
        return fmt
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    return suffix if suffix in (*TEXT_FORMATS, *IMAGE_FORMATS) else "table"


def _unknown_hand(con: duckdb.DuckDBPyConnection, hand_id: str, root: Path) -> str:
    """Why ``report hand`` found nothing: the hand was rejected (say where and why), or the
    warehouse does not hold that number at all."""
    row = con.execute(
        "SELECT code, message, source, error_line FROM rejects WHERE hand_id = ? ORDER BY code = 'conflict', source, line LIMIT 1",
        [hand_id],
    ).fetchone()
    if row is not None and row[0] != "conflict":
        code, message, source, line = row
        return (
            f"hand #{hand_id} is not in the warehouse at {root}: it was rejected ({code}: {message}) "
            f"at {source}:{line}; see `hhparse report rejects`"
        )
    (hands,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
    if not hands:
        return f"no hand #{hand_id}: the warehouse at {root} holds no hands yet (hhparse import PATH first)"
    return f"no hand #{hand_id} in the warehouse at {root} ({hands:,} hands stored); check the number"


def report_command(
    name: Annotated[str, typer.Argument(help=f"Report: {', '.join(REPORTS)}.")],
    hand_id: Annotated[str | None, typer.Argument(help="Hand number, for the `hand` report.")] = None,
    warehouse_dir: WarehouseOption = None,
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Only this player (exact name).")
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="First day, YYYY-MM-DD (UTC, inclusive).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Last day, YYYY-MM-DD (UTC, inclusive).")
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game", help="Game: courchevel-hilo, courchevel, 5-card-omaha-hilo, ... or the header label."
        ),
    ] = None,
    stakes: Annotated[
        str | None,
        typer.Option("--stakes", help="Stakes as '0.10/0.25 USD' or the big blind alone ('0.25')."),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="table, csv, json, html; png or svg for graph (default: from --out, else table).",
        ),
    ] = None,
    out: OutOption = None,
    csv_raw: CsvRawOption = False,
) -> None:
    """Run a report over the warehouse and print or save it."""
    if name not in REPORTS:
        fail("report", f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    fmt = _format(fmt, out)
    if fmt in IMAGE_FORMATS:
        if name != "graph":
            fail("report", f"--format {fmt} is only for the graph report")
        if out is None:
            fail("report", f"the graph as {fmt} needs --out FILE")
    elif fmt not in TEXT_FORMATS:
        fail("report", f"--format must be one of {', '.join((*TEXT_FORMATS, *IMAGE_FORMATS))}")
    filters = {"player": player, "since": since, "until": until, "game": game, "stakes": stakes}
    root = warehouse_dir if warehouse_dir is not None else default_warehouse()
    con = warehouse(root)
    try:
        df = report(name, con, hand_id=hand_id, **filters)
        graph = report("graph", con, **filters) if fmt == "html" and REPORTS[name].graph else None
        if name == "hand" and hand_id and df.empty:
            fail("report", _unknown_hand(con, hand_id, root.absolute()))
    except duckdb.Error as exc:
        raise query_failure(exc, root, f"the {name} report") from None
    title = f"hhparse {name}" + (f" #{hand_id}" if name == "hand" and hand_id else "")
    if player:
        title += f" — {player}"
    if fmt in IMAGE_FORMATS:
        assert out is not None
        out.write_bytes(graph_image(df, fmt, title=title))
        return
    if fmt == "html":
        shown: list[tuple[str, object]] = [(k, v) for k, v in filters.items()]
        text = to_html(df, name=name, title=title, filters=shown, graph=graph)
    elif fmt == "csv":
        text = to_csv(df, raw=csv_raw)
    elif fmt == "json":
        text = to_json(df)
    else:
        text = to_table(df, name=name)
    emit(text, out)


def register(app: typer.Typer) -> None:
    """Add ``report`` to the root app."""
    add_command(app, "report", report_command)
