"""Parsed hands compared field by field with hand-written expectations (tests/golden/*.json).

The expected files were written by reading the hand text, not by dumping parser output: each
event is ``[file line, kind, ...key fields]``; amounts in cents/chips.

Row shapes (see :func:`event_row`): optional flags are appended only when set — ``"allin"`` for
an all-in action or blind, ``["cap", N]`` for a reached cap, the shown cards of a ``folds [..]``,
and the printed pot label of a collect line when it is not plain ``pot``.

Keys beyond the original set (``header_detail``, ``summary_detail``, ``hand_line``) are compared
only when the golden file has them, so older golden files need not spell them out. A golden file
may also ask for a re-encoded copy of the corpus file (``"encoding"``, ``"rename"``) to test
decoding of bytes that do not occur in the real corpus (cp1252); see :func:`_source_path`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hhparse.model import (
    Bet,
    Bounty,
    Call,
    Collect,
    DealBoard,
    DealHole,
    Event,
    ExposeCard,
    Finished,
    Fold,
    Hand,
    PostBlind,
    Raise,
    Show,
    ShowdownMarker,
    TableEvent,
    TournamentWon,
    UncalledBet,
)
from hhparse.parsing import parse_file

GOLDEN = Path(__file__).parent / "golden"


def _flags(e: Event) -> list[Any]:
    out: list[Any] = []
    if getattr(e, "all_in", False):
        out.append("allin")
    cap = getattr(e, "cap_reached", None)
    if cap is not None:
        out.append(["cap", cap])
    return out


def event_row(e: Event) -> list[Any]:
    """The key fields of an event, in the golden files' shape."""
    row: list[Any] = [e.line, type(e).__name__]
    match e:
        case PostBlind():
            row += [e.player, e.kind.value, e.amount]
        case Call() | Bet() | UncalledBet():
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
            if e.pot_label != "pot":
                row.append(e.pot_label)
        case Fold():
            row += [e.player]
            if e.shown:
                row.append(" ".join(e.shown))
        case Bounty():
            row += [list(e.winners), e.amount, e.eliminated, e.progressive, e.split, e.increase, e.new_bounty]
        case Finished():
            row += [e.player, e.place, e.prize]
        case TournamentWon():
            row += [e.player, e.prize, e.prize_text]
        case TableEvent():
            row += [e.player, e.kind.value]
            if e.text:
                row.append(e.text)
            if e.seat is not None:
                row.append(["seat", e.seat])
            if e.amount is not None or e.fee is not None:
                row.append(["cashout", e.amount, e.fee])
        case _:
            player = getattr(e, "player", None)
            if player is not None:
                row.append(player)
    return row + _flags(e)


def _seat_row(x: Any) -> list[Any]:
    row: list[Any] = [x.seat, x.player, x.stack]
    if x.bounty is not None:
        row.append(x.bounty)
    if x.sitting_out:
        row.append("sitting out")
    if x.out_of_hand is not None:
        row.append(["out of hand", x.out_of_hand])
    return row


def _summary_seat_detail(x: Any) -> list[Any]:
    row: list[Any] = [
        x.line,
        " ".join(x.cards),
        None if x.folded_street is None else int(x.folded_street),
        x.didnt_bet,
        list(x.descriptions),
    ]
    if x.cashed_out:
        row.append("cashed out")
    if x.pot_not_awarded:
        row.append("pot not awarded")
    return row


def hand_to_dict(h: Hand) -> dict[str, Any]:
    hd = h.header
    s = h.summary
    assert s is not None
    out: dict[str, Any] = {
        "hand_id": hd.hand_id,
        "game": hd.game,
        "hilo": hd.hilo,
        "structure": hd.structure.value,
        "stakes": [hd.small_blind, hd.big_blind],
        "currency": hd.currency,
        "symbol": hd.symbol,
        "button": hd.button_seat,
        "start_utc": hd.start_utc.isoformat(),
        "seats": [_seat_row(x) for x in h.seats],
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
        "header_detail": {
            "hand_line": h.line,
            "line": hd.line,
            "kind": hd.hand_kind,
            "label": hd.game_label,
            "mixed": hd.mixed,
            "tz": hd.time_zone,
            "local": hd.local_time.isoformat(),
            "et": None if hd.et_time is None else hd.et_time.isoformat(),
            "table": hd.table,
            "max_seats": hd.max_seats,
            "play_money": hd.play_money,
            "cap": hd.cap,
            "seat_lines": [x.line for x in h.seats],
        },
        "summary_detail": {
            "total_line": s.total_line,
            "main": s.main_pot,
            "side": list(s.side_pots),
            "numbered": s.side_pots_numbered,
            "board_lines": list(s.board_lines),
            "seats": [_summary_seat_detail(x) for x in s.seats],
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
            "buyin_label": t.buyin_label,
            "zoom": t.zoom,
            "club": t.home_game_club,
            "match_round": t.match_round,
        }
    return out


def _source_path(expected: dict[str, Any], corpus_dir: Path, tmp_path: Path) -> Path:
    """The file to parse: the corpus file itself, or a re-encoded copy with players renamed.

    ``"encoding"`` re-encodes the (UTF-8) corpus text, ``"rename"`` maps old to new player names;
    ``"strip_bom"`` drops a leading BOM first. Line ends and all other bytes are kept.
    """
    src = corpus_dir / expected.pop("file")
    encoding = expected.pop("encoding", None)
    rename: dict[str, str] = expected.pop("rename", {})
    if encoding is None and not rename:
        return src
    text = src.read_bytes().decode("utf-8")
    if expected.pop("strip_bom", False):
        text = text.removeprefix("\ufeff")
    for old, new in rename.items():
        text = text.replace(old, new)
    data = text.encode(encoding or "utf-8")
    if encoding not in (None, "utf-8"):
        with pytest.raises(UnicodeDecodeError):  # really exercises the non-UTF-8 path
            data.decode("utf-8")
    out = tmp_path / src.name
    out.write_bytes(data)
    return out


GOLDEN_FILES = sorted(GOLDEN.glob("*.expected.json"))


def _marks(p: Path) -> Any:
    xfail = json.loads(p.read_text(encoding="utf-8")).get("xfail")
    if xfail:
        return pytest.param(p, id=p.name, marks=pytest.mark.xfail(strict=True, reason=xfail))
    return pytest.param(p, id=p.name)


@pytest.mark.parametrize("golden", [_marks(p) for p in GOLDEN_FILES])
def test_golden(golden: Path, corpus_dir: Path, tmp_path: Path) -> None:
    expected = json.loads(golden.read_text(encoding="utf-8"))
    expected.pop("xfail", None)
    expected.pop("note", None)
    path = _source_path(expected, corpus_dir, tmp_path)
    results = list(parse_file(path))
    want_id = expected.pop("hand_id_select", None)
    if want_id is not None:
        hands = [r for r in results if isinstance(r, Hand) and r.hand_id == want_id]
        assert len(hands) == 1, f"hand {want_id} not parsed exactly once"
        hand = hands[0]
    else:
        hand = results[expected.pop("index")]
    assert isinstance(hand, Hand), hand
    got = hand_to_dict(hand)
    for key, value in expected.items():
        if key in ("header_detail", "summary_detail") and isinstance(value, dict):
            for sub, v in value.items():
                assert got[key][sub] == v, f"{key}.{sub}"
        elif key == "events":
            assert len(got[key]) == len(value), "number of events"
            for g, w in zip(got[key], value, strict=True):
                assert g == w, f"event at line {w[0]}"
        else:
            assert got[key] == value, key


def test_golden_covers_every_game(corpus_dir: Path) -> None:
    """Each of the six games has at least one golden hand."""
    seen = set()
    for p in GOLDEN_FILES:
        e = json.loads(p.read_text(encoding="utf-8"))
        seen.add((e["game"], e["hilo"]))
    games = {"courchevel", "5-card-omaha", "omaha"}
    assert seen >= {(g, hilo) for g in games for hilo in (False, True)}
