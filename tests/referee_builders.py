"""Small builders for hand-made ``Hand`` objects in referee tests (no text, no parser)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hhparse.model import Game, Hand, Header, Seat, Structure, Summary, Tournament


def header(
    structure: Structure = Structure.POT_LIMIT,
    sb: int = 10,
    bb: int = 25,
    game: str = "courchevel",
    hilo: bool = True,
    button: int = 1,
    tournament: bool = False,
    year: int = 2013,
) -> Header:
    t = Tournament("1", (), None, "Freeroll", "I") if tournament else None
    when = datetime(year, 4, 1, 12, 0, 0)
    return Header(
        site="PokerStars",
        hand_kind="Hand",
        hand_id="1",
        game=Game(game),
        hilo=hilo,
        structure=structure,
        game_label="test",
        mixed=None,
        currency=None if tournament else "USD",
        symbol="" if tournament else "$",
        small_blind=sb,
        big_blind=bb,
        cap=None,
        tournament=t,
        local_time=when,
        time_zone="ET",
        et_time=None,
        start_utc=when.replace(tzinfo=UTC),
        table="T",
        max_seats=6,
        play_money=False,
        button_seat=button,
        line=1,
    )


def hand(
    hdr: Header,
    stacks: list[tuple[str, int]],
    events: list[Any],
    summary: Summary | None = None,
    sitting_out: tuple[str, ...] = (),
) -> Hand:
    seats = tuple(
        Seat(i + 1, name, stack, 2 + i, sitting_out=name in sitting_out)
        for i, (name, stack) in enumerate(stacks)
    )
    return Hand("<test>", 1, hdr, seats, tuple(events), summary)
