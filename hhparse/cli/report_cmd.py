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
from typing import Annotated, Any

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
from hhparse.cli.replay_cmd import AllCardsOption, DeckOption, html_report, is_folder
from hhparse.reports import REPORTS, report, warehouse
from hhparse.reports.hands import DOOR_CARD_HELP
from hhparse.reports.output import (
    IMAGE_FORMATS,
    TEXT_FORMATS,
    graph_image,
    to_csv,
    to_json,
    to_table,
)
from hhparse.reports.replay import HandNotFoundError
from hhparse.tables.store import default_warehouse

_HANDS = "Hand list (report hands)"
_PAGE = "HTML pages"


def _flag(name: str, doc: str) -> object:
    return typer.Option(f"--{name}/--no-{name}", help=doc, rich_help_panel=_HANDS, show_default=False)


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
    min_pot: Annotated[
        str | None,
        typer.Option("--min-pot", help="Total pot at least this (hand's unit), or '40bb'.", rich_help_panel=_HANDS),
    ] = None,
    showdown: Annotated[bool | None, _flag("showdown", "Went to showdown (or not).")] = None,
    all_in: Annotated[bool | None, _flag("all-in", "Was all-in (or not).")] = None,
    scooped: Annotated[bool | None, _flag("scooped", "Scooped (or not).")] = None,
    quartered: Annotated[bool | None, _flag("quartered", "Was quartered (or not).")] = None,
    door_card: Annotated[
        str | None,
        typer.Option("--door-card", help=f"Courchevel door card: {DOOR_CARD_HELP}.", rich_help_panel=_HANDS),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Only the last N hands.", rich_help_panel=_HANDS)
    ] = None,
    four_colour: DeckOption = False,
    all_cards: AllCardsOption = False,
    x_axis: Annotated[
        str, typer.Option("--x-axis", help="Graph's x axis: hands or date.", rich_help_panel=_PAGE)
    ] = "hands",
    y_axis: Annotated[
        str, typer.Option("--y-axis", help="Graph's y axis: money or bb.", rich_help_panel=_PAGE)
    ] = "money",
    csv_raw: CsvRawOption = False,
) -> None:
    """Run a report over the warehouse and print or save it.

    With --format html: a self-contained page (sortable table, graph); `hand` is the replayer,
    `hands` the hand list with every replay embedded (or, with --out FOLDER/, one page each).
    """
    if name not in REPORTS:
        fail("report", f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    fmt = "html" if name == "hands" and fmt is None and is_folder(out) else _format(fmt, out)
    if fmt in IMAGE_FORMATS:
        if name != "graph":
            fail("report", f"--format {fmt} is only for the graph report")
        if out is None:
            fail("report", f"the graph as {fmt} needs --out FILE")
    elif fmt not in TEXT_FORMATS:
        fail("report", f"--format must be one of {', '.join((*TEXT_FORMATS, *IMAGE_FORMATS))}")
    filters = {"player": player, "since": since, "until": until, "game": game, "stakes": stakes}
    hand_filters: dict[str, Any] = {"min_pot": min_pot, "showdown": showdown, "all_in": all_in, "scooped": scooped,
                    "quartered": quartered, "door_card": door_card, "limit": limit}
    if x_axis not in ("hands", "date") or y_axis not in ("money", "bb"):
        fail("report", "--x-axis is hands or date, --y-axis money or bb")
    root = warehouse_dir if warehouse_dir is not None else default_warehouse()
    con = warehouse(root)
    try:
        df = report(name, con, hand_id=hand_id, **filters, **hand_filters)
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
        try:
            page = html_report(con, name, df, title=title, filters={**filters, **hand_filters}, hand_id=hand_id,
                               out=out, four_colour=four_colour, all_cards=all_cards, x_axis=x_axis, y_axis=y_axis)
        except (HandNotFoundError, FileExistsError, ValueError) as exc:
            fail("report", str(exc))
        if page is None:  # a folder of pages
            return
        text = page
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
