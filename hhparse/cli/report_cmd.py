"""``hhparse report NAME [HAND_ID] [--player P] [--since D] [--until D] [--game G] [--stakes S]
[--format table|csv|json|html|png|svg] [--out FILE]``.

A thin adapter over :func:`hhparse.reports.report` and :mod:`hhparse.reports.output`. The format
defaults to the ``--out`` file's extension, else ``table``; ``graph`` also writes PNG or SVG (to a
file: images on a terminal help no one). Exit codes: 0 ok, 2 usage error (unknown report, bad
date or format, no warehouse, ``hand`` without an id).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from hhparse.cli.common import OutOption, WarehouseOption, emit
from hhparse.cli.replay_cmd import AllCardsOption, DeckOption, html_report, is_folder
from hhparse.reports import REPORTS, WarehouseNotFoundError, report, warehouse
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

_HANDS = "Hand list (report hands)"
_PAGE = "HTML pages"


def _flag(name: str, doc: str) -> object:
    return typer.Option(f"--{name}/--no-{name}", help=doc, rich_help_panel=_HANDS, show_default=False)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"hhparse report: {message}", err=True)
    return typer.Exit(2)


def _format(fmt: str | None, out: Path | None) -> str:
    if fmt is not None:
        return fmt
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    return suffix if suffix in (*TEXT_FORMATS, *IMAGE_FORMATS) else "table"


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
) -> None:
    """Run a report over the warehouse and print or save it.

    With --format html: a self-contained page (sortable table, graph); `hand` is the replayer,
    `hands` the hand list with every replay embedded (or, with --out FOLDER/, one page each).
    """
    if name not in REPORTS:
        raise _fail(f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    fmt = "html" if name == "hands" and fmt is None and is_folder(out) else _format(fmt, out)
    if fmt in IMAGE_FORMATS:
        if name != "graph":
            raise _fail(f"--format {fmt} is only for the graph report")
        if out is None:
            raise _fail(f"the graph as {fmt} needs --out FILE")
    elif fmt not in TEXT_FORMATS:
        raise _fail(f"--format must be one of {', '.join((*TEXT_FORMATS, *IMAGE_FORMATS))}")
    filters = {"player": player, "since": since, "until": until, "game": game, "stakes": stakes}
    hand_filters: dict[str, Any] = {"min_pot": min_pot, "showdown": showdown, "all_in": all_in, "scooped": scooped,
                    "quartered": quartered, "door_card": door_card, "limit": limit}
    if x_axis not in ("hands", "date") or y_axis not in ("money", "bb"):
        raise _fail("--x-axis is hands or date, --y-axis money or bb")
    try:
        con = warehouse(warehouse_dir)
        df = report(name, con, hand_id=hand_id, **filters, **hand_filters)
    except WarehouseNotFoundError as exc:
        raise _fail(str(exc)) from exc
    except ValueError as exc:
        raise _fail(str(exc)) from exc
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
            raise _fail(str(exc)) from exc
        if page is None:  # a folder of pages
            return
        text = page
    elif fmt == "csv":
        text = to_csv(df)
    elif fmt == "json":
        text = to_json(df)
    else:
        text = to_table(df, name=name)
    emit(text, out)


def register(app: typer.Typer) -> None:
    """Add ``report`` to the root app."""
    app.command("report")(report_command)
