"""The public functions of ``hhparse``: thin pure-Python wrappers with full signatures and
docstrings, so that ``help(hhparse.parse_file)`` reads the same in the compiled build.

Why wrappers: the parser and the referee are compiled by mypyc (``hatch_build.py``), and a
compiled function shows ``help()`` only its bare ``parse_file(path)``: no annotations, no
documentation. These functions are never compiled; each imports its implementation when first
called (``import hhparse`` stays cheap, and the worker processes of an import load only what they
use). They also expand ``~`` in paths, as every command-line path is.

Per hand the wrapper costs one dictionary look-up next to tens of microseconds of parsing or
refereeing; the bulk importer calls the implementations directly.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

    from hhparse.errors import ParseError
    from hhparse.facts import RefereeResult
    from hhparse.model import Hand

__all__ = ["parse_file", "parse_path", "parse_text", "referee", "render", "report", "warehouse"]


def _expand(path: str | os.PathLike[str]) -> str | Path:
    """``path`` with ``~`` expanded (``"-"``, stdin, stays as it is)."""
    if isinstance(path, str):
        return path if path == "-" else os.path.expanduser(path)
    return Path(os.path.expanduser(path))


def parse_file(path: str | os.PathLike[str]) -> Iterator[Hand | ParseError]:
    """Parse every hand of one hand-history file, streamed (any size).

    Each item is a :class:`hhparse.Hand` (typed events, every line number kept) or a
    :class:`hhparse.ParseError` naming the file, line and hand that could not be read — the next
    hand goes on. The encoding is detected (UTF-8 with or without BOM, UTF-16, cp1252), CRLF or
    LF. ``~`` in ``path`` is expanded.

    Example::

        for item in hhparse.parse_file("~/hands/HH20240101 Muscida.txt"):
            print(item.format() if isinstance(item, hhparse.ParseError) else item.hand_id)
    """
    from hhparse.parsing import parse_file as impl

    return impl(_expand(path))


def parse_path(path: str | os.PathLike[str]) -> Iterator[Hand | ParseError]:
    """Parse a file, a folder (recursively, files in sorted order) or ``"-"`` (standard input);
    items as :func:`parse_file`. ``~`` is expanded."""
    from hhparse.parsing import parse_path as impl

    return impl(_expand(path))


def parse_text(text: str, source: str = "<text>", first_line: int = 1) -> Iterator[Hand | ParseError]:
    """Parse every hand of ``text``; ``source`` names it in errors and line numbers start at
    ``first_line``. Items as :func:`parse_file`."""
    from hhparse.parsing import parse_text as impl

    return impl(text, source, first_line)


def referee(hand: Hand) -> RefereeResult:
    """Replay ``hand`` and check every action and every chip of every award.

    Returns a :class:`hhparse.RefereeResult`: ``valid``, ``errors`` and ``warnings`` (each a
    :class:`hhparse.Violation` with a stable code and the file line), and ``facts`` — positions,
    every player's pre-flop and post-flop flags, pots, awards and net. Money is an integer in the
    hand's smallest unit: ``facts.players[i].net`` is cents for a currency (``unit_scale`` 100),
    chips for tournaments and play money (1); ``hand.header.unit`` names it.
    """
    from hhparse.engine import referee as impl  # type: ignore[attr-defined,unused-ignore]

    result: RefereeResult = impl(hand)
    return result


def render(hand: Hand) -> str:
    """The hand as PokerStars text (LF line ends, no trailing spaces, a final newline): what the
    client would have written, every line at its place. ``parse_text(render(hand))`` gives the
    same hand."""
    from hhparse.render import render as impl

    return impl(hand)


def warehouse(path: str | os.PathLike[str] | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection (in memory) with every view of the warehouse at ``path``: the tables,
    the ``stg_*`` staging views (money as exact decimals in the hand's unit), ``player_hands``
    and the stat macros.

    ``path`` (``~`` expanded) defaults to ``$HHPARSE_WAREHOUSE`` or ``./hhparse-warehouse``. The
    views read the files published when it is called: open a new connection after an import.

    Example::

        con = hhparse.warehouse("~/hh-warehouse")
        con.sql("SELECT position, count(*) FROM hand_players GROUP BY 1").show()

    Raises:
        WarehouseNotFoundError: no warehouse there.
        WarehouseDamagedError: its manifest or a file it lists is missing or corrupt.
        WarehouseVersionError: written by another schema version.
    """
    from hhparse.reports.query import warehouse as impl

    return impl(path)


def report(
    name: str,
    warehouse: str | os.PathLike[str] | duckdb.DuckDBPyConnection | None = None,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
    by: str | list[str] | tuple[str, ...] | None = None,
    hand_id: str | None = None,
    **hands: Any,
) -> pd.DataFrame:
    """Run report ``name`` (``summary``, ``tournaments``, ``hilo``...: ``hhparse.REPORTS``) and
    return its rows as a pandas DataFrame.

    ``warehouse`` is a path (``~`` expanded) or a connection from :func:`warehouse`. Every filter
    is checked against what the warehouse holds first: a player, game, stakes or date range that
    matches nothing raises :class:`hhparse.failures.UsageError` (a ``ValueError``) naming what
    exists; a name matched without regard to case is taken with a ``FilterNote`` warning.
    ``player`` (exact name), ``since``/``until`` (inclusive dates, UTC), ``game``
    (``courchevel-hilo``...), ``stakes`` (``0.10/0.25``, ``$0.10-$0.25``, ``10/25`` in cents, a
    tournament buy-in), ``by`` (summary: ``stakes``, ``game``, ``structure``, ``month``,
    ``position``, ``table-size``), ``hand_id`` (the ``hand`` report), and the ``hands`` list's
    filters (``min_pot``, ``showdown``, ``all_in``, ``scooped``, ``quartered``, ``door_card``,
    ``limit``).

    Money columns are exact ``decimal128(18, 2)`` Arrow decimals (``pd.ArrowDtype``) in the unit
    of the row's ``unit`` column; ``df.attrs["money_columns"]`` lists them and
    ``df.attrs["columns"]`` defines every column (``docs/stats.md``).

    Example::

        df = hhparse.report("summary", "~/hh-warehouse", player="Hero", by="stakes")
        df[["stakes", "hands", "net", "bb_per_100"]]
    """
    from hhparse.reports.query import report as impl

    return impl(
        name,
        warehouse,
        player=player,
        since=since,
        until=until,
        game=game,
        stakes=stakes,
        by=by,
        hand_id=hand_id,
        **hands,
    )
