"""Helpers shared by the warehouse tests: hand-built referee facts and table readers.

The facts are built by hand (not by the referee) so that the table builder is tested on exactly
known inputs, independently of the engine.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow as pa

from hhparse.errors import Violation
from hhparse.facts import (
    ActionFact,
    AwardFact,
    EvShareFact,
    HandEvFacts,
    HandFacts,
    PlayerFacts,
    PotFact,
    RefereeResult,
    ShowdownFact,
)
from hhparse.import_worker import TaskResult
from hhparse.model import Game, Hand, Header, Seat, Structure
from hhparse.tables.schema import TABLES, create_views

HAND_TEXT = """\
PokerStars Hand #96353118546:  Courchevel Pot Limit ($0.10/$0.25 USD) - 2013/03/29 17:16:11 ET
Table 'Pollux IV' 6-max Seat #4 is the button
Seat 1: Player0 ($25 in chips)
Seat 4: Player1 ($114.25 in chips)
Seat 5: Player2 ($38.61 in chips)
Seat 6: Hero ($25 in chips)
Player2: posts small blind $0.10
Hero: posts big blind $0.25
Player3: sits out
*** HOLE CARDS ***
Dealt to Hero [Jh 7h Jd 5s Kc]
*** PRE-FLOP *** [2s]
Player0: folds
Player1: raises $0.50 to $0.75
Player2: calls $0.65
Hero: calls $0.50
*** FLOP *** [2s 3h 4h]
Player2: checks
Hero: checks
Player1: bets $1.55
Player2: folds
Hero: calls $1.55
*** TURN *** [2s 3h 4h] [5c]
christos805 joins the table at seat #2
Hero: checks
Player1: checks
*** RIVER *** [2s 3h 4h 5c] [Qs]
Hero: bets $5.11
Player1: calls $5.11
*** SHOW DOWN ***
Hero: shows [Jh 7h Jd 5s Kc] (a pair of Jacks)
Player1: shows [6c Kh 9s 2d 5h] (a straight, Deuce to Six)
Player1 collected $14.87 from pot
*** SUMMARY ***
Total pot $15.57 | Rake $0.70
Board [2s 3h 4h 5c Qs]
Seat 1: Player0 folded before Flop (didn't bet)
Seat 4: Player1 (button) showed [6c Kh 9s 2d 5h] and won ($14.87) with a straight, Deuce to Six
Seat 5: Player2 (small blind) folded on the Flop
Seat 6: Hero (big blind) showed [Jh 7h Jd 5s Kc] and lost with a pair of Jacks
"""


def player(seat: int, name: str, **kw: object) -> PlayerFacts:
    base: dict[str, object] = dict(
        seat=seat,
        player=name,
        is_hero=False,
        position="BTN",
        starting_stack=1000,
        hole_cards=(),
        dealt_in=True,
        contributed=(25, 0, 0, 0),
        returned=0,
        collected=0,
        net=-25,
        vpip=False,
        pfr=False,
        three_bet_opportunity=False,
        three_bet=False,
        fold_to_three_bet_opportunity=False,
        fold_to_three_bet=False,
        steal_opportunity=False,
        steal=False,
        fold_to_steal_opportunity=False,
        fold_to_steal=False,
        cbet_opportunity=False,
        cbet=False,
        fold_to_cbet_opportunity=False,
        fold_to_cbet=False,
        postflop_bets=0,
        postflop_raises=0,
        postflop_calls=0,
        postflop_checks=0,
        postflop_folds=0,
        saw_flop=False,
        went_to_showdown=False,
        won_at_showdown=False,
        won_high=False,
        won_low=False,
        scooped=False,
        quartered=False,
        all_in_street=None,
        showdown_won=0,
        nonshowdown_won=0,
        high_won=0,
        low_won=0,
    )
    base.update(kw)
    return PlayerFacts(**base)  # type: ignore[arg-type]


def parsed_hand(hand_id: str = "96353118546") -> Hand:
    """A hand as the parser would build it for HAND_TEXT's header (built by hand: the table
    builder is tested independently of the parser)."""
    header = Header(
        site="PokerStars",
        hand_kind="Hand",
        hand_id=hand_id,
        game=Game("courchevel"),
        hilo=False,
        structure=Structure.POT_LIMIT,
        game_label="Courchevel Pot Limit",
        mixed=None,
        currency="USD",
        symbol="$",
        small_blind=10,
        big_blind=25,
        cap=None,
        tournament=None,
        local_time=datetime(2013, 3, 29, 17, 16, 11),
        time_zone="ET",
        et_time=None,
        start_utc=datetime(2013, 3, 29, 21, 16, 11, tzinfo=UTC),
        table="Pollux IV",
        max_seats=6,
        play_money=False,
        button_seat=4,
        line=1,
    )
    seats = (Seat(1, "Alice", 2500, 3), Seat(2, "Bob", 1050, 4))
    return Hand("/tmp/x.txt", 1, header, seats, (), None)


def fake_result(hand_id: str = "96353118546", *, errors: tuple[Violation, ...] = ()) -> RefereeResult:
    hand = parsed_hand(hand_id)
    players = (
        player(
            1,
            "Alice",
            is_hero=True,
            position="SB",
            hole_cards=("Ah", "Kd", "5c", "4s", "2h"),
            collected=50,
            net=25,
            nonshowdown_won=50,
            high_won=50,
            won_high=True,
        ),
        player(2, "Bob", position="BB", starting_stack=1050, all_in_street=0),
    )
    actions = (
        ActionFact(0, 0, "Alice", 1, "small blind", 10, 10, False, 0, 1000, 0, 5),
        ActionFact(1, 0, "Bob", 2, "big blind", 25, 25, False, 10, 1050, 0, 6),
        ActionFact(2, 0, "Alice", 1, "call", 15, 25, False, 35, 990, 15, 8),
    )
    pots = (PotFact(0, 50, ("Alice", "Bob")),)
    awards = (AwardFact(0, 0, "whole", 50, ("Alice", "Bob"), ("Alice",), (50,), ("a pair of Aces",)),)
    showdowns = (ShowdownFact("Alice", 0, ("Ah", "Kd", "5c", "4s", "2h"), "a pair of Aces", 123, None, None),)
    facts = HandFacts(
        hand,
        players,
        actions,
        pots,
        awards,
        showdowns,
        total_pot=50,
        rake=0,
        runs=1,
        boards=(("7h", "5d", "3s", "Qc", "2d"),),
        exposed_card="7h",
    )
    return RefereeResult(hand, errors=errors, facts=None if errors else facts)


def fake_ev() -> HandEvFacts:
    """An all-in EV for :func:`fake_result` as the EV stage would build it (by hand: the builder is
    tested apart from the stage): Bob all-in pre-flop with 30 % of the 50-cent pot (15 of 50)."""
    shares = (
        EvShareFact(0, 0, "whole", "Alice", 1, 50, 35, 35 * 741, 741, 0, 50, 0, "exact"),
        EvShareFact(0, 0, "whole", "Bob", 2, 50, 15, 15 * 741, 741, 0, 0, 0, "exact"),
    )
    return HandEvFacts(0, "exact", 741, (10, -10), (0, 0), shares)


def read_views(warehouse: Path) -> dict[str, pa.Table]:
    """Every view of the warehouse, as Arrow, sorted by its key (row order is not a contract)."""
    con = duckdb.connect()
    create_views(con, warehouse)
    out = {}
    for name, t in TABLES.items():
        if name == "imports":
            continue
        order = ", ".join(t.key) + (", raw_text" if name == "rejects" else "")
        cols = ", ".join(t.column_names)
        out[name] = con.sql(f"SELECT {cols} FROM {name} ORDER BY {order}").to_arrow_table()
    return out


def make_hand(hand_id: str, *, variant: str = "") -> str:
    """HAND_TEXT with another hand id; ``variant`` changes the chat text (same id, other content)."""
    text = HAND_TEXT.replace("96353118546", hand_id)
    if variant:
        text = text.replace("christos805 joins", f"christos{variant} joins")
    return text


def write_hands(path: Path, ids: list[str], *, crlf: bool = False) -> Path:
    """A hand-history file of the given hand ids, separated like PokerStars exports."""
    body = "\n\n\n".join(make_hand(i) for i in ids) + "\n\n\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((body.replace("\n", "\r\n") if crlf else body).encode())
    return path


def _fake_referee(hand: Hand) -> RefereeResult:
    """Stand-in until ``hhparse.engine.referee`` exists: reshapes the parsed hand, judges nothing."""
    from hhparse.model import Bet, Call, Check, Fold, Raise

    players = tuple(player(s.seat, s.player, starting_stack=s.stack) for s in hand.seats)
    actions = []
    for e in hand.events:
        if isinstance(e, Fold | Check | Call | Bet | Raise):
            amount = getattr(e, "amount", getattr(e, "to", 0))
            actions.append(
                ActionFact(
                    len(actions),
                    0,
                    e.player,
                    0,
                    type(e).__name__.lower(),
                    amount,
                    amount,
                    False,
                    0,
                    0,
                    0,
                    e.line,
                )
            )
    s = hand.summary
    if s is None or s.total_pot is None:
        return RefereeResult(hand, errors=(Violation("no-summary", hand.line, "no summary"),))
    facts = HandFacts(hand, players, tuple(actions), (), (), (), s.total_pot, s.rake or 0, 1, s.boards, None)
    return RefereeResult(hand, facts=facts)


def install_referee() -> bool:
    """Make ``hhparse.engine.referee`` importable; True if the real referee is used."""
    import importlib

    engine = importlib.import_module("hhparse.engine")
    if hasattr(engine, "referee"):
        return True
    engine.referee = _fake_referee  # type: ignore[attr-defined]
    return False


def stray_files(wh: Path) -> set[str]:
    """Files in the warehouse its manifest does not account for (there must be none once a writer
    has finished), and table-folder files that are not live (there must never be any)."""
    import json

    manifest = json.loads((wh / "manifest.json").read_text())
    listed = {rel for rels in manifest["tables"].values() for rel in rels}
    kept = listed | set(manifest.get("retired", {}))
    out = set()
    for p in wh.rglob("*"):
        rel = p.relative_to(wh).as_posix()
        if p.is_dir() or rel in {"manifest.json", "hhparse-warehouse.json", ".lock"}:
            continue
        if rel.startswith(".hhparse/files/") and rel.removeprefix(".hhparse/files/") in kept:
            continue
        if rel in listed:
            continue
        out.add(rel)
    return out


def table_folder_extras(wh: Path) -> set[str]:
    """Parquet files in the table folders that the manifest does not list as live: what an
    outside reader's glob would count twice, or count although no import committed it."""
    import json

    try:
        manifest = json.loads((wh / "manifest.json").read_text())
    except FileNotFoundError:
        manifest = {"tables": {}}
    listed = {rel for rels in manifest["tables"].values() for rel in rels}
    on_disk = {p.relative_to(wh).as_posix() for name in TABLES for p in (wh / name).glob("*.parquet")}
    return on_disk - listed


def same_task_result(got: TaskResult, want: TaskResult) -> None:
    """Two task results equal: the per-hand columns, and every table with its schema (metadata too)."""
    assert (got.sites, got.hand_ids, got.hashes, got.accepted) == (
        want.sites,
        want.hand_ids,
        want.hashes,
        want.accepted,
    )
    assert got.tables.keys() == want.tables.keys()
    for name, table in want.tables.items():
        assert got.tables[name].schema.equals(table.schema, check_metadata=True), name
        assert got.tables[name].equals(table), name


def child_pids(pid: int) -> set[int]:
    """The process's children now (every thread's, Linux ``/proc``): the pool's and watch's tests
    follow the workers they must see end."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out.update(int(c) for c in task.read_text().split())
        except OSError:
            continue
    return out
