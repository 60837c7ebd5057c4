"""``hhparse report NAME [HAND_ID] [filters] [--by ...] [--format ...] [--out FILE]`` and
``hhparse report --list``.

A thin adapter over :func:`hhparse.reports.report` and :mod:`hhparse.reports.output`. The format
defaults to the ``--out`` file's extension, else ``table`` (fitted to the terminal's width, in
colour on a terminal); ``graph`` also writes PNG or SVG (to a file: images on a terminal help no
one). A filter that matches nothing in the warehouse is a usage error naming what it holds;
notes (a name matched without regard to case, stakes read in cents) go to stderr. Exit codes: 0
ok, 2 usage error (unknown report, a filter that matches nothing, bad date or format, no
warehouse, ``hand`` without an id or with one the warehouse does not hold), 3 warehouse damaged.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hhparse.cli.common import (
    CsvRawOption,
    OutOption,
    WarehouseOption,
    add_command,
    emit,
    fail,
    warehouse_dir,
)
from hhparse.cli.replay_cmd import AllCardsOption, DeckOption, is_folder
from hhparse.reports.catalog import BY, REPORTS
from hhparse.reports.columns import label
from hhparse.safetext import visible

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

_HANDS = "Hand list (report hands)"
_PAGE = "HTML pages"
TEXT_FORMATS = ("table", "csv", "json", "html")
IMAGE_FORMATS = ("png", "svg")
_DOOR_CARD_HELP = "a card (Ah), a rank (A, T or 10) or low (A-8) / high (9-K)"


def _flag(name: str, doc: str) -> object:
    return typer.Option(f"--{name}/--no-{name}", help=doc, rich_help_panel=_HANDS, show_default=False)


def _format(fmt: str | None, out: Path | None) -> str:
    if fmt is not None:
        return fmt
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    return suffix if suffix in (*TEXT_FORMATS, *IMAGE_FORMATS, "parquet") else "table"


def _unknown_hand(con: duckdb.DuckDBPyConnection, hand_id: str, root: Path) -> str:
    """Why ``report hand`` found nothing: the hand was rejected (say where and why), or the
    warehouse does not hold that number at all."""
    rows = con.execute(
        "SELECT code, message, source, error_line FROM rejects WHERE hand_id = ? ORDER BY code = 'conflict', source, line LIMIT 1",
        [hand_id],
    ).fetchall()
    if rows and rows[0][0] != "conflict":
        code, message, source, line = rows[0]
        return (
            f"hand #{hand_id} is not in the warehouse at {root}: it was rejected ({code}: {message}) "
            f"at {source}:{line}; see `hhparse report rejects`"
        )
    (hands,) = con.execute("SELECT count(*) FROM hands").fetchall()[0]
    if not hands:
        return f"no hand #{hand_id}: the warehouse at {root} holds no hands yet (hhparse import PATH first)"
    return f"no hand #{hand_id} in the warehouse at {root} ({hands:,} hands stored); check the number"


def list_reports(width: int) -> str:
    """``hhparse report --list``: every report, what it shows, and every column it returns with
    its definition (the text of ``docs/stats.md``, from :mod:`hhparse.reports.columns`)."""
    import textwrap

    def wrap(text: str, indent: str) -> list[str]:
        return textwrap.wrap(
            text, width=max(width, 40), initial_indent=indent, subsequent_indent=indent + "  "
        )

    out: list[str] = []
    for spec in REPORTS.values():
        out.append(f"{spec.name}")
        out.extend(wrap(spec.doc, "  "))
        for col in spec.columns:
            c = label(col)
            head = f"{col}" + (f" ({c.short})" if c.short != col else "")
            text = c.doc
            if c.num:
                text += f" [{c.num} ÷ {c.den}]"
            out.extend(wrap(f"{head}: {text}", "    "))
        out.append("")
    out.extend(
        wrap("Every column is also in docs/stats.md; HTML pages show it on the header, CSV names it.", "")
    )
    return "\n".join(out) + "\n"


def _notes(name: str, df: pd.DataFrame, filters: dict[str, Any]) -> list[str]:
    """What a reader of the table should know: blanks that are deliberate, an empty result."""
    notes: list[str] = []
    if df.empty and name not in ("hand", "rejects"):
        given = ", ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in filters.items() if v not in (None, [], ())
        )
        if given:
            notes.append(f"no rows: each filter matches hands, but not all of them together ({given})")
        else:
            notes.append("no rows: the warehouse holds no hands for this report (hhparse import PATH first)")
        return notes
    if "bb_per_100" in df.columns and "stakes" not in df.columns and df["bb_per_100"].isna().any():
        notes.append("bb/100 is left empty on rows that mix stakes: --by stakes gives it per stake")
    if "net" in df.columns and "unit" in df.columns and name in ("summary", "positions"):
        chips = df[df["unit"] == "chips"]
        if len(chips) and chips["net"].isna().any():
            notes.append(
                "tournament chips are not money: net is left empty on a row spanning several tournaments "
                "(hhparse report tournaments shows buy-ins, prizes and ROI)"
            )
    if name == "tournaments" and "result_from" in df.columns and len(df):
        unknown = df[(df["tournament_id"] != "total") & df["result_from"].isna()]
        if len(unknown):
            notes.append(
                f"{len(unknown)} tournament(s) without a known result (no finish line in the hands, no "
                "summary file): import their tournament summary files"
            )
    return notes


def report_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="REPORT",
            help=f"One of: {', '.join(REPORTS)} (hhparse report --list says what each shows).",
            show_default=False,
        ),
    ] = None,
    hand_id: Annotated[
        str | None,
        typer.Argument(metavar="HAND_ID", help="Hand number, for the hand report.", show_default=False),
    ] = None,
    list_all: Annotated[
        bool, typer.Option("--list", help="List every report and what each of its columns means, then exit.")
    ] = False,
    warehouse_opt: WarehouseOption = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            metavar="NAME",
            help="Only this player (exact; a name matching without regard to case is taken with a note).",
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since", metavar="DATE", help="First day, UTC, inclusive: 2024-01-31, 2024-01 or 2024."
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            "--until", metavar="DATE", help="Last day, UTC, inclusive: 2024-01-31, 2024-01 or 2024."
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            metavar="GAME",
            help="courchevel-hilo, courchevel, 5-card-omaha-hilo, 5-card-omaha, omaha-hilo, omaha (or o8, plo8, "
            "the header's words).",
        ),
    ] = None,
    stakes: Annotated[
        str | None,
        typer.Option(
            "--stakes",
            "-s",
            metavar="STAKES",
            help="0.10/0.25, $0.10-$0.25, 0.10/0.25 USD, 10/25 (cents), the big blind alone (0.25), or a "
            "tournament buy-in.",
        ),
    ] = None,
    by: Annotated[
        list[str] | None,
        typer.Option(
            "--by",
            "-b",
            metavar="SPLIT",
            help=f"summary: split rows by {', '.join(BY)} (repeat, or comma-separated).",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="table, csv, json, html or parquet; png or svg for graph (default: from --out, else table).",
        ),
    ] = None,
    out: OutOption = None,
    columns: Annotated[
        str | None,
        typer.Option(
            "--columns",
            "-c",
            metavar="COL,...",
            help="Only these columns, in this order (names as in --list), in every format.",
        ),
    ] = None,
    csv_names: Annotated[
        bool,
        typer.Option(
            "--csv-names",
            help="CSV: the header row has the column names (vpip) instead of their labels (VPIP %).",
        ),
    ] = False,
    min_pot: Annotated[
        str | None,
        typer.Option(
            "--min-pot",
            metavar="AMOUNT",
            help="Total pot at least this (hand's unit), or '40bb'.",
            rich_help_panel=_HANDS,
        ),
    ] = None,
    showdown: Annotated[bool | None, _flag("showdown", "Went to showdown (or not).")] = None,
    all_in: Annotated[bool | None, _flag("all-in", "Was all-in (or not).")] = None,
    scooped: Annotated[bool | None, _flag("scooped", "Scooped (or not).")] = None,
    quartered: Annotated[bool | None, _flag("quartered", "Was quartered (or not).")] = None,
    door_card: Annotated[
        str | None,
        typer.Option(
            "--door-card",
            metavar="CARD",
            help=f"Courchevel door card: {_DOOR_CARD_HELP}.",
            rich_help_panel=_HANDS,
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", metavar="N", help="Only the last N hands.", rich_help_panel=_HANDS),
    ] = None,
    four_colour: DeckOption = False,
    all_cards: AllCardsOption = False,
    x_axis: Annotated[
        str,
        typer.Option(
            "--x-axis", metavar="AXIS", help="Graph's x axis: hands or date.", rich_help_panel=_PAGE
        ),
    ] = "hands",
    y_axis: Annotated[
        str,
        typer.Option("--y-axis", metavar="AXIS", help="Graph's y axis: money or bb.", rich_help_panel=_PAGE),
    ] = "money",
    csv_raw: CsvRawOption = False,
) -> None:
    """Run a report over the warehouse and print or save it.

    The table fits the terminal: the most telling columns first, headers abbreviated with a legend
    under the table, or one player's few rows as a card; --format csv, json, html or parquet has
    every column and row. Won and lost are green and red on a terminal (never with NO_COLOR, in a
    pipe or a file). With --format html: a self-contained page (sortable table, each column's
    definition on its header, the graph); hand is the replayer, hands the hand list with every
    replay embedded (or, with --out FOLDER/, one page each).
    """
    if list_all:
        import shutil

        emit(list_reports(shutil.get_terminal_size((100, 24)).columns), out)
        return
    if name is None:
        fail(
            "report",
            f"which report? one of: {', '.join(REPORTS)} (hhparse report --list says what each shows)",
        )
    if name not in REPORTS:
        fail("report", f"unknown report {name!r}; choose from: {', '.join(REPORTS)}")
    fmt = "html" if name == "hands" and fmt is None and is_folder(out) else _format(fmt, out)
    if fmt in IMAGE_FORMATS:
        if name != "graph":
            fail("report", f"--format {fmt} is only for the graph report")
        if out is None:
            fail("report", f"the graph as {fmt} needs --out FILE")
    elif fmt == "parquet":
        if out is None:
            fail("report", "--format parquet needs --out FILE")
    elif fmt not in TEXT_FORMATS:
        fail("report", f"--format must be one of {', '.join((*TEXT_FORMATS, 'parquet', *IMAGE_FORMATS))}")
    if x_axis not in ("hands", "date") or y_axis not in ("money", "bb"):
        fail("report", "--x-axis is hands or date, --y-axis money or bb")

    import duckdb

    from hhparse.cli.common import query_failure
    from hhparse.reports import report, warehouse
    from hhparse.reports.derived import DerivedNote
    from hhparse.reports.query import FilterNote

    filters: dict[str, Any] = {
        "player": player,
        "since": since,
        "until": until,
        "game": game,
        "stakes": stakes,
    }
    hand_filters: dict[str, Any] = {
        "min_pot": min_pot,
        "showdown": showdown,
        "all_in": all_in,
        "scooped": scooped,
        "quartered": quartered,
        "door_card": door_card,
        "limit": limit,
    }
    root = warehouse_dir(warehouse_opt)
    con = warehouse(root)
    with contextlib.ExitStack() as shared:
        try:
            if fmt == "html" and REPORTS[name].graph:  # the page's graph and report share their hours
                from hhparse.reports.html import shared_hours

                shared.enter_context(shared_hours(con, name, **filters))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", FilterNote)
                warnings.simplefilter("always", DerivedNote)
                df = report(name, con, hand_id=hand_id, by=by, **filters, **hand_filters)
            for w in caught:
                if issubclass(w.category, (FilterNote, DerivedNote)):
                    typer.echo(visible(f"hhparse report: note: {w.message}"), err=True)
            if name == "hand" and hand_id and df.empty:
                fail("report", _unknown_hand(con, hand_id, root.absolute()))
        except duckdb.Error as exc:
            raise query_failure(exc, root, f"the {name} report") from None
        if columns:
            wanted = [c.strip() for c in columns.split(",") if c.strip()]
            unknown = [c for c in wanted if c not in df.columns]
            if unknown:
                fail(
                    "report",
                    f"--columns: {', '.join(unknown)} not in the {name} report; it has: {', '.join(map(str, df.columns))}",
                )
            df = df[wanted]
        title = f"hhparse {name}" + (f" #{hand_id}" if name == "hand" and hand_id else "")
        if player:
            title += f" — {player}"
        if fmt in IMAGE_FORMATS:
            from hhparse.reports.output import graph_image

            assert out is not None
            out.write_bytes(graph_image(df, fmt, title=title))
            return
        if fmt == "parquet":
            from hhparse.reports.output import to_parquet

            assert out is not None
            out.write_bytes(to_parquet(df))
            return
        if fmt == "html":
            from hhparse.cli.replay_cmd import html_report
            from hhparse.reports.replay import HandNotFoundError

            try:
                page = html_report(
                    con,
                    name,
                    df,
                    title=title,
                    filters={**filters, **hand_filters},
                    hand_id=hand_id,
                    out=out,
                    four_colour=four_colour,
                    all_cards=all_cards,
                    x_axis=x_axis,
                    y_axis=y_axis,
                )
            except (HandNotFoundError, FileExistsError, ValueError) as exc:
                fail("report", str(exc))
            if page is None:  # a folder of pages
                return
            text = page
        elif fmt == "csv":
            from hhparse.reports.output import to_csv

            text = to_csv(df, raw=csv_raw, names=csv_names)
        elif fmt == "json":
            from hhparse.reports.output import to_json

            text = to_json(df)
        else:
            from hhparse.reports.output import table_parts

            color = out is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            notes = _notes(name, df, {**filters, "by": by})
            parts = table_parts(df, name=name, color=color, single=bool(player), notes=notes)
            if out is None:  # written as it is laid out: a long table's text is never held whole
                for part in parts:
                    typer.echo(part, nl=False)
                return
            text = "".join(parts)  # a file is written once the whole table is made
        emit(text, out)


def _help() -> str:
    lines = "\n".join(f"  {spec.name:<12} {spec.brief}" for spec in REPORTS.values())
    return f"{report_command.__doc__}\n\nReports:\n{lines}"


def register(app: typer.Typer) -> None:
    """Add ``report`` to the root app."""
    report_command.__doc__ = (
        _help() if "Reports:" not in (report_command.__doc__ or "") else report_command.__doc__
    )
    add_command(
        app,
        "report",
        report_command,
        examples=(
            "hhparse report --list          # every report and column, defined",
            "hhparse report summary --player Hero --since 2024-01-01",
            "hhparse report summary --player Hero --by stakes --by month",
            "hhparse report summary --stakes '$0.10/$0.25' --game courchevel-hilo",
            "hhparse report tournaments --player Hero",
            "hhparse report hilo --format csv --out hilo.csv",
            "hhparse report hand 120900000138     # one hand's replay",
            "hhparse report hands -p Hero --showdown --min-pot 40bb -o hands.html",
            "hhparse report graph --player Hero --out graph.png",
        ),
    )
