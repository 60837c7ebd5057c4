"""``hhparse replay HAND_ID [--out FILE] [--four-colour] [--all-cards]``, and the HTML pages of
``hhparse report`` (a report with its graph, the hand list with its replays, one hand's replay).

A thin adapter over :mod:`hhparse.reports.replay` and :mod:`hhparse.reports.html`. ``replay``
writes ``hand-<ID>.html`` in the current folder unless ``--out`` says otherwise; it replaces a
file of that name only if hhparse wrote it. Exit codes: 0 ok, 2 usage error (no warehouse, no
such hand, a file in the way).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hhparse.cli.common import OutOption, WarehouseOption, add_command, fail, warehouse_dir
from hhparse.reports.catalog import REPORTS

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

MAX_EMBEDDED = 500
"""Replays one hand-list page embeds at most (a folder has no such limit)."""

DeckOption = Annotated[
    bool, typer.Option("--four-colour", "--four-color", help="Four-colour deck (blue diamonds, green clubs).")
]
AllCardsOption = Annotated[
    bool,
    typer.Option("--all-cards", help="Show every known hand from the first step (default: the hero's view)."),
]


def is_folder(out: Path | None) -> bool:
    """Whether the hand list goes to a folder of pages: ``--out`` is a folder, or a name without
    an extension (``-o pages``; ``-o hands.html`` is one file)."""
    return out is not None and (out.is_dir() or not out.suffix)


def html_report(
    con: duckdb.DuckDBPyConnection,
    name: str,
    df: pd.DataFrame,
    *,
    title: str,
    filters: Mapping[str, Any],
    hand_id: str | None = None,
    out: Path | None = None,
    four_colour: bool = False,
    all_cards: bool = False,
    x_axis: str = "hands",
    y_axis: str = "money",
) -> str | None:
    """The page of report ``name`` (``df`` its rows); None when it was written as a folder.

    Raises:
        HandNotFoundError: the ``hand`` report of a hand that is not in the warehouse.
        FileExistsError: a hand-list folder holds a file hhparse did not write.
    """
    from hhparse.reports.html import (
        MAX_ROWS,
        graph_lines,
        hands_page,
        replay_page,
        report_page,
        write_hands_folder,
    )
    from hhparse.reports.replay import replay_document, replay_documents

    deck = 4 if four_colour else 2
    shown = list(filters.items())
    if name == "hand":
        doc = replay_document(con, str(hand_id))
        return replay_page([doc], title=f"Hand #{hand_id}", deck=deck, all_cards=all_cards)
    if name == "hands":
        ids = [str(h) for h in df["hand_id"]]
        if is_folder(out):
            assert out is not None
            write_hands_folder(
                out,
                df,
                replay_documents(con, ids),
                title=title,
                filters=shown,
                deck=deck,
                all_cards=all_cards,
            )
            return None
        docs = replay_documents(con, ids[:MAX_EMBEDDED])
        return hands_page(
            df,
            docs,
            title=title,
            filters=shown,
            deck=deck,
            all_cards=all_cards,
            max_rows=min(MAX_EMBEDDED, MAX_ROWS),
        )
    common = {k: filters.get(k) for k in ("player", "since", "until", "game", "stakes")}
    lines = graph_lines(con, **common) if REPORTS[name].graph else None
    return report_page(
        df,
        name=name,
        title=title,
        filters=shown,
        lines=lines,
        x_axis=x_axis,
        y_axis=y_axis,
        doc=REPORTS[name].doc,
    )


def replay_command(
    hand_id: Annotated[
        str, typer.Argument(metavar="HAND_ID", help="Hand number as printed (e.g. 120900000138).")
    ],
    warehouse_opt: WarehouseOption = None,
    out: OutOption = None,
    site: Annotated[
        str | None, typer.Option("--site", metavar="SITE", help="Site, when several have this hand number.")
    ] = None,
    four_colour: DeckOption = False,
    all_cards: AllCardsOption = False,
) -> None:
    """Write one hand's replayer as a self-contained HTML page (default: hand-<ID>.html).

    The page opens offline and steps through the hand: seats, the Courchevel door card, both boards of
    a hand run twice, pots and side pots, every hi and lo half with its winners (arrow keys step;
    '#step=17' in the address opens a step). A file of that name is replaced only if hhparse wrote it.
    """
    from hhparse.reports import WarehouseNotFoundError, warehouse
    from hhparse.reports.html import replay_page
    from hhparse.reports.replay import HandNotFoundError, replay_document

    target = out if out is not None else Path(f"hand-{hand_id}.html")
    try:
        con = warehouse(warehouse_dir(warehouse_opt))
        doc = replay_document(con, hand_id, site=site)
    except (WarehouseNotFoundError, HandNotFoundError) as exc:
        fail("replay", str(exc))
    page = replay_page([doc], title=f"Hand #{hand_id}", deck=4 if four_colour else 2, all_cards=all_cards)
    if out is None and target.exists():
        head = target.read_text(encoding="utf-8", errors="replace")[:600]
        if '<meta name="generator" content="hhparse ' not in head:
            fail("replay", f"{target} exists and was not written by hhparse; use --out")
    target.write_text(page, encoding="utf-8")
    typer.echo(f"wrote {target}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the root app."""
    add_command(
        app,
        "replay",
        replay_command,
        examples=(
            "hhparse replay 120900000138     # writes hand-120900000138.html",
            "hhparse replay 120900000138 --four-colour --all-cards -o hand.html",
        ),
    )
