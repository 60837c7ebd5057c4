"""Parsed hands compared field by field with hand-written expectations (tests/golden/*.json).

The expected files were written by reading the hand text, not by dumping parser output: each
event is ``[file line, kind, ...key fields]``; amounts in cents/chips.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hhparse.model import (
    Bet,
    Call,
    Collect,
    DealBoard,
    DealHole,
    Event,
    ExposeCard,
    Fold,
    Hand,
    PostBlind,
    Raise,
    Show,
    ShowdownMarker,
    UncalledBet,
)
from hhparse.parsing import parse_file

GOLDEN = Path(__file__).parent / "golden"


def event_row(e: Event) -> list[Any]:
    """The key fields of an event, in the golden files' shape."""
    row: list[Any] = [e.line, type(e).__name__]
    match e:
        case PostBlind() | Call() | Bet() | UncalledBet():
            row += [e.player, e.amount]
        case Raise():
            row += [e.player, e.by, e.to]
        case DealHole():
            row += [e.player, " ".join(e.cards)]
        case ExposeCard():
            row += [e.card, e.bug_2016]
        case DealBoard():
            row += [int(e.street), " ".join(e.cards), e.run, e.form.value]
        case ShowdownMarker():
            row += [e.run]
        case Show():
            row += [e.player, " ".join(e.cards), e.hi, e.lo]
        case Collect():
            row += [e.player, e.amount, e.pot, e.run]
        case Fold():
            row += [e.player]
        case _:
            player = getattr(e, "player", None)
            if player is not None:
                row.append(player)
    return row


def hand_to_dict(h: Hand) -> dict[str, Any]:
    hd = h.header
    s = h.summary
    assert s is not None
    out: dict[str, Any] = {
        "hand_id": hd.hand_id,
        "game": hd.game.value,
        "hilo": hd.hilo,
        "structure": hd.structure.value,
        "stakes": [hd.small_blind, hd.big_blind],
        "currency": hd.currency,
        "symbol": hd.symbol,
        "button": hd.button_seat,
        "start_utc": hd.start_utc.isoformat(),
        "seats": [
            [x.seat, x.player, x.stack] + ([x.bounty] if x.bounty is not None else []) for x in h.seats
        ],
        "warnings": [w.code for w in h.warnings],
        "events": [event_row(e) for e in h.events],
        "summary": {
            "line": s.line,
            "total": s.total_pot,
            "rake": s.rake,
            "boards": [" ".join(b) for b in s.boards],
            "seats": [
                [x.line, x.seat, x.player, x.outcome.value, list(x.won), x.button, x.small_blind, x.big_blind]
                for x in s.seats
            ],
        },
    }
    if s.run_twice:
        out["summary"]["run_twice"] = True
    t = hd.tournament
    if t is not None:
        out["tournament"] = {
            "id": t.tournament_id,
            "buyin_parts": list(t.buyin_parts),
            "buyin_currency": t.buyin_currency,
            "level": t.level,
            "knockout": t.knockout,
        }
    return out


@pytest.mark.parametrize("golden", sorted(GOLDEN.glob("*.expected.json")), ids=lambda p: p.name)
def test_golden(golden: Path, corpus_dir: Path) -> None:
    expected = json.loads(golden.read_text(encoding="utf-8"))
    results = list(parse_file(corpus_dir / expected.pop("file")))
    hand = results[expected.pop("index")]
    assert isinstance(hand, Hand)
    got = hand_to_dict(hand)
    for key, value in expected.items():
        assert got[key] == value, key
