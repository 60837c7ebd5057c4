"""Tournament results as rows: a hand's finish, win, knockout and rebuy lines
(``tournament_events``) and the tournament summary files (``tournament_summaries``).

Kept apart from :mod:`hhparse.tables.build` because neither comes from the referee's facts: the
hand's lines are read off the parsed :class:`~hhparse.model.Hand` (the referee checks chips, not
prizes), and a summary file is not a hand at all. Both tables carry the ``_hand_idx`` column of
the batch (the block's position), like every built table, so the importer keeps or drops their
rows with the block they came from.

Units: PokerStars prints prizes, bounties and prices in the buy-in's currency (``$1.94``) or,
for play chips, with two decimals (``200.00``): the parser reads both as hundredths (the rule of
:mod:`hhparse.money`), so every amount here is hundredths of ``unit`` (``unit_scale`` 100).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pyarrow as pa

from hhparse.model import Bounty, Finished, Hand, TableEvent, TableEventKind, TournamentWon
from hhparse.tables.schema import arrow_schema

__all__ = ["HAND_IDX", "event_rows", "events_table", "summaries_table"]

HAND_IDX = "_hand_idx"
"""The batch-local block position (the same name as :data:`hhparse.tables.build.HAND_IDX`)."""

_SYMBOLS = "$€£₹¥"
_EVENT_TYPES = frozenset({Bounty, Finished, TournamentWon, TableEvent})
"""The events :func:`event_rows` reads (a table event only when it is a rebuy or an add-on)."""


def _price(text: str) -> int | None:
    """A rebuy's price as printed (``€0.10``, ``$1``) in hundredths; None when it is not money
    (``250 StarsCoin``, or no price printed)."""
    raw = text.strip()
    if not raw or raw[0] not in _SYMBOLS:
        return None
    number = raw[1:].replace(",", "")
    whole, _, frac = number.partition(".")
    if not whole.isdigit() or (frac and (not frac.isdigit() or len(frac) > 2)):
        return None
    return int(whole) * 100 + int(frac.ljust(2, "0") or "0")


def event_rows(hand: Hand) -> list[dict[str, Any]]:
    """The ``tournament_events`` rows of one accepted hand (none for a cash hand)."""
    t = hand.header.tournament
    if t is None:
        return []
    # one set lookup per event (most hands have none of these lines); the model's records are
    # final classes, so their exact type says what isinstance would
    lines = [e for e in hand.events if type(e) in _EVENT_TYPES]
    if not lines:
        return []
    h = hand.header
    unit = t.buyin_currency or "play"
    base = {
        "site": h.site,
        "hand_id": h.hand_id,
        "tournament_id": t.tournament_id,
        "unit": unit,
        "unit_scale": 100,
    }
    rows: list[dict[str, Any]] = []
    last_bounty: dict[str, int] = {}  # player -> the bounty on their head after their last knockout here

    def row(line: int, player: str, kind: str, **values: Any) -> None:
        rows.append(
            {
                **base,
                "line": line,
                "player": player,
                "kind": kind,
                "place": None,
                "amount": None,
                "shared_by": 1,
                "eliminated": None,
                **values,
            }
        )

    for e in lines:
        if isinstance(e, Bounty):
            for winner in e.winners:
                row(
                    e.line,
                    winner,
                    "bounty",
                    amount=e.amount,
                    shared_by=len(e.winners),
                    eliminated=e.eliminated,
                )
                if e.new_bounty is not None:
                    last_bounty[winner] = e.new_bounty
        elif isinstance(e, Finished):
            row(e.line, e.player, "finished", place=e.place, amount=e.prize)
        elif isinstance(e, TournamentWon):
            row(e.line, e.player, "won", place=1, amount=e.prize)
            if t.knockout:
                seat = hand.seat_of(e.player)
                own = last_bounty.get(e.player)
                if own is None and seat is not None:
                    own = seat.bounty
                if own is None and len(t.buyin_parts) == 3:
                    own = t.buyin_parts[1]
                rows.append(
                    {
                        **base,
                        "line": e.line,
                        "player": e.player,
                        "kind": "own-bounty",
                        "place": None,
                        "amount": own,
                        "shared_by": 1,
                        "eliminated": None,
                    }
                )
        elif isinstance(e, TableEvent) and e.kind in (TableEventKind.REBUY, TableEventKind.ADD_ON):
            kind = "rebuy" if e.kind is TableEventKind.REBUY else "add-on"
            row(e.line, e.player, kind, amount=_price(e.text))
    return rows


def _table(name: str, rows: Sequence[Mapping[str, Any]], idx: Iterable[int]) -> pa.Table:
    schema = arrow_schema(name)
    table = pa.Table.from_pylist([dict(r) for r in rows], schema=schema)
    return table.append_column(
        pa.field(HAND_IDX, pa.int32(), nullable=False), pa.array(list(idx), pa.int32())
    )


def events_table(rows: Sequence[Mapping[str, Any]], idx: Iterable[int]) -> pa.Table:
    """``tournament_events`` with ``_hand_idx`` (``idx``: each row's block position)."""
    return _table("tournament_events", rows, idx)


def summaries_table(rows: Sequence[Mapping[str, Any]], idx: Iterable[int]) -> pa.Table:
    """``tournament_summaries`` with ``_hand_idx``."""
    return _table("tournament_summaries", rows, idx)
