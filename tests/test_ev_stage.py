"""The all-in EV stage (``hhparse.ev``): which hands, which point, which cards, which pots.

Crafted histories (``tests/data/ev``) whose equities are counted by hand in the comments, the
real corpus against the brute-force reference (``tests/equity_reference.py``), and the stage's
own invariants on every accepted hand.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse import ev as ev_stage
from hhparse.engine import referee
from hhparse.errors import ParseError
from hhparse.ev import hand_ev, round_shares
from hhparse.facts import HandEvFacts, RefereeResult
from hhparse.model import Hand
from hhparse.parsing import parse_block, parse_text
from hhparse.rules import equity as E
from hhparse.rules.equity import EquityPot, EquitySpot
from hhparse.splitter import split_path

sys.path.insert(0, str(Path(__file__).parent))
from conftest import corpus_hand_files
from equity_reference import brute_force

DATA = Path(__file__).parent / "data" / "ev"


def _results(name: str) -> list[RefereeResult]:
    out = []
    for hand in parse_text((DATA / name).read_text(encoding="utf-8"), source=name):
        assert isinstance(hand, Hand), hand
        result = referee(hand)
        assert result.valid, result.errors
        out.append(result)
    return out


def _ev(result: RefereeResult) -> HandEvFacts:
    ev = hand_ev(result)
    assert ev is not None
    return ev


def _by_player(result: RefereeResult, values: tuple[int, ...]) -> dict[str, int]:
    assert result.facts is not None
    return {p.player: v for p, v in zip(result.facts.players, values, strict=True)}


def _shares(ev: HandEvFacts) -> dict[tuple[int, str, str], tuple[int, int, int]]:
    return {(s.pot, s.half, s.player): (s.share_sum, s.ev, s.won) for s in ev.shares}


# --------------------------------------------------------------------------------------------
# Crafted hands, counted by hand
# --------------------------------------------------------------------------------------------


def test_turn_all_in_low_draw_is_twenty_rivers_in_thirty_eight() -> None:
    """Courchevel Hi/Lo, all-in on the turn, board 7h Kd Qc 2s. Hero's set of kings cannot lose the
    high (no flush, straight or better is possible for Villain); Villain (A-3-4-8 low cards) makes
    a low on any river of a new low rank: A (3 unseen), 3 (3), 4 (3), 5 (4), 6 (4), 8 (3) = 20 of
    the 38 unseen cards. Pot $40 - $0.50 rake = 3950 cents: on those 20 rivers the halves are
    1975 / 1975, on the 18 others Hero scoops. Villain: 20 x 1975 / 38 = 1039.47 cents; Hero
    2910.53; rounded by largest remainder 1039 and 2911 (sum 3950); minus 2000 put in each."""
    (result,) = _results("turn-hilo-low-draw.txt")
    ev = _ev(result)
    assert (ev.street, ev.method, ev.boards) == (2, "exact", 38)
    assert _shares(ev) == {
        (0, "high", "Hero"): (38 * 3950 - 20 * 1975, 2911, 1975),
        (0, "low", "Hero"): (0, 0, 0),
        (0, "high", "Villain"): (0, 0, 0),
        (0, "low", "Villain"): (20 * 1975, 1039, 1975),
    }
    assert _by_player(result, ev.allin_ev) == {"Hero": 911, "Villain": -961}
    assert sum(ev.allin_ev) == -50  # minus the rake
    assert ev.std_err == (0, 0)


def test_three_way_side_pot_equities_per_pot() -> None:
    """Courchevel (high only) NL, all-in on the turn, board 7h Kh Qc 2s; Sam ($10) all-in first,
    Anna and Bert ($50) all-in behind: main pot $30 (all three), side pot $80 (Anna, Bert). Anna's
    set of kings wins unless: a heart that does not pair the board gives Sam the nut flush (4h 5h
    9h Th Jh: 5 rivers); an Ace or a Nine gives Bert a straight (Ac Ad As 9c 9d 9s: 6; 9h is
    Sam's flush in the main pot but Bert's straight in the side pot); 9 of the 33 rivers pair the
    board and fill Anna up. Main pot: Sam 5/33, Bert 6/33, Anna 22/33 of 3000 cents; side pot:
    Bert 7/33, Anna 26/33 of 8000."""
    (result,) = _results("turn-three-way-side-pot.txt")
    ev = _ev(result)
    assert (ev.street, ev.method, ev.boards) == (2, "exact", 33)
    sums = {k: v[0] for k, v in _shares(ev).items()}
    assert sums == {
        (0, "whole", "Sam"): 5 * 3000,
        (0, "whole", "Bert"): 6 * 3000,
        (0, "whole", "Anna"): 22 * 3000,
        (1, "whole", "Bert"): 7 * 8000,
        (1, "whole", "Anna"): 26 * 8000,
    }
    # Anna 274000/33 = 8303.03, Bert 74000/33 = 2242.42, Sam 15000/33 = 454.55: rounded 8303, 2242, 455
    assert _by_player(result, ev.allin_ev) == {"Anna": 8303 - 5000, "Sam": 455 - 1000, "Bert": 2242 - 5000}
    assert sum(ev.allin_ev) == 0  # no rake


def test_a_folded_hand_shown_to_the_hero_is_out_of_the_deck() -> None:
    """The low-draw spot again, three-handed: the hero folded A, 3, 5, 6, 8 before the flop. With
    every printed card out of the deck (``KNOWN_CARDS``), Lowdraw's low outs are A 2, 3 2, 4 3,
    5 3, 6 3, 8 2 = 15 of 33 rivers (PokerTracker's choice, the contenders' cards only, would
    count 20 of 38)."""
    (result,) = _results("folded-hero-cards-dead.txt")
    ev = _ev(result)
    assert ev.boards == 33
    assert _shares(ev)[(0, "low", "Lowdraw")][0] == 15 * 1975
    # Kings 100725/33 = 3052.27, Lowdraw 29625/33 = 897.73: 3052 and 898
    assert _by_player(result, ev.allin_ev) == {"Hero": 0, "Kings": 1052, "Lowdraw": -1102}


def test_known_cards_is_one_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    (result,) = _results("folded-hero-cards-dead.txt")
    monkeypatch.setattr(ev_stage, "KNOWN_CARDS", "contenders")
    ev = _ev(result)
    assert ev.boards == 38 and _shares(ev)[(0, "low", "Lowdraw")][0] == 20 * 1975


def test_all_but_one_folded_out_of_the_all_in_confrontation() -> None:
    """Shorty all-in pre-flop, called twice; on the flop Caller bets and Hero folds: the betting
    ended on the flop, between Shorty and Caller, with Hero's $1.50 dead in the pot and Hero's
    cards out of the deck. The same spot built by hand, enumerated by the brute force."""
    folded, checked_down = _results("folded-out-and-checked-down.txt")
    ev = _ev(folded)
    assert (ev.street, ev.method, ev.boards) == (1, "exact", math.comb(34, 2))
    spot = EquitySpot(
        True,
        5,
        (("As", "Ks", "Js", "4h", "5s"), ("Ac", "2c", "7h", "8h", "Qs")),
        ("6s", "Jh", "3c"),
        ("9d", "9h", "4d", "5c", "Kc"),
        (EquityPot(((0, 430),), (0, 1)),),
    )
    n, totals = brute_force(spot)
    names = ("Shorty", "Caller")
    assert {(s.pot, s.run, s.half, names.index(s.player)): s.share_sum for s in ev.shares} == totals
    assert n == ev.boards
    assert _by_player(folded, ev.allin_ev)["Hero"] == -150  # folded: the net
    # The same hand checked down to the river: no all-in point before the river, no EV.
    assert hand_ev(checked_down) is None


def test_preflop_courchevel_knows_the_door_card() -> None:
    """All-in before the flop in Courchevel: the door card (4h) is known, 4 cards to come, every
    one of the C(41, 4) boards enumerated; the totals are those of a plain per-board evaluation."""
    (result,) = _results("preflop-courchevel-heads-up.txt")
    ev = _ev(result)
    assert (ev.street, ev.method, ev.boards) == (0, "exact", math.comb(41, 4))
    hero, villain = ("As", "2s", "3d", "Kh", "Qc"), ("8c", "8d", "7h", "6h", "Tc")
    known = {E.CARD_INDEX[c] for c in (*hero, *villain, "4h")}
    unseen = np.array(sorted(set(range(52)) - known))
    boards = np.concatenate(
        [
            np.full((ev.boards, 1), E.CARD_INDEX["4h"]),
            unseen[np.array(list(itertools.combinations(range(41), 4)))],
        ],
        axis=1,
    )
    hi, lo = zip(
        *(
            E.hand_values(np.broadcast_to([E.CARD_INDEX[c] for c in h], (ev.boards, 5)), boards, True)
            for h in (hero, villain)
        ),
        strict=True,
    )
    has_low = np.minimum(lo[0], lo[1]) < E.NO_LOW
    pot = 290
    high = np.where(has_low, pot - pot // 2, pot)
    low = np.where(has_low, pot // 2, 0)
    # a tie shares a half; its odd cent goes to Villain, first clockwise after Hero's button
    hero_total = (
        np.where(hi[0] > hi[1], high, 0)
        + np.where(hi[0] == hi[1], high // 2, 0)
        + np.where(lo[0] < lo[1], low, 0)
        + np.where((lo[0] == lo[1]) & has_low, low // 2, 0)
    )
    assert sum(s.share_sum for s in ev.shares if s.player == "Hero") == int(hero_total.sum())
    assert sum(ev.allin_ev) == -10


def test_round_shares_keeps_the_sum() -> None:
    assert round_shares([10, 10, 10], 3) == [4, 3, 3]  # 10/3 each: the first remainder gets the unit
    assert round_shares([1, 29], 6) == [0, 5]
    assert round_shares([2, 4], 6) == [0, 1]
    assert sum(round_shares([7, 8, 9, 6], 10)) == 3


@settings(max_examples=500, deadline=None, derandomize=True)
@given(
    totals=st.lists(st.integers(0, 10**9), min_size=1, max_size=20),
    boards=st.integers(1, 2 * 10**6),
    ties=st.booleans(),
)
def test_round_shares_gives_the_units_to_the_largest_remainders_first_of_equal_first(
    totals: list[int], boards: int, ties: bool
) -> None:
    """The rule as a sort states it: floors, then one unit each to the ``left`` largest
    remainders, equal remainders in their order (a stable sort); ``ties`` makes equal ones common."""
    if ties:
        totals = [t % 3 + 3 * boards for t in totals]
    floors = [t // boards for t in totals]
    rests = [t % boards for t in totals]
    expected = list(floors)
    for i in sorted(range(len(totals)), key=lambda i: -rests[i])[: sum(rests) // boards]:
        expected[i] += 1
    assert round_shares(totals, boards) == expected


# --------------------------------------------------------------------------------------------
# The real corpus
# --------------------------------------------------------------------------------------------


def _corpus_results(corpus_dir: Path) -> Iterator[RefereeResult]:
    for path in corpus_hand_files(corpus_dir):
        if "_fpdb3-head" in path.as_posix():
            continue
        for block in split_path(path):
            hand = parse_block(block)
            if isinstance(hand, Hand):
                result = referee(hand)
                if result.valid:
                    yield result


@pytest.mark.corpus
def test_corpus_all_in_hands_get_their_ev(corpus_dir: Path) -> None:
    """Every accepted corpus hand: the EV adds up to minus the rake; the hands whose betting ended
    before the river with an all-in and two hands known all have one."""
    with_ev = streets = 0
    seen: set[int] = set()
    for result in _corpus_results(corpus_dir):
        facts = result.facts
        assert facts is not None
        ev = hand_ev(result)
        if ev is None:
            continue
        with_ev += 1
        seen.add(ev.street or 0)
        streets += 1
        assert sum(ev.allin_ev) == -facts.rake, result.hand.hand_id
        for p, value in zip(facts.players, ev.allin_ev, strict=True):
            if not any(s.player == p.player for s in ev.shares):
                assert value == p.net
        by_pot_run: dict[tuple[int, int], int] = {}
        for s in ev.shares:
            by_pot_run[(s.pot, s.run)] = by_pot_run.get((s.pot, s.run), 0) + s.ev
            assert s.boards == ev.boards and s.method == ev.method
        assert all(
            v == next(s.amount for s in ev.shares if (s.pot, s.run) == k) for k, v in by_pot_run.items()
        )
    assert with_ev >= 25 and seen == {0, 1, 2}


@pytest.mark.corpus
def test_corpus_run_it_twice_hand_is_the_brute_force(corpus_dir: Path) -> None:
    """The 2013 run-it-twice hand: all-in on the flop (7h 5d 3s), $163 after rake run twice as
    $81.50 + $81.50; each run's shares over its 741 boards are those of the brute force."""
    path = corpus_dir / "courchevel-hilo" / "stars-cash-pl-1-2-2013-run-it-twice.txt"
    (block,) = list(split_path(path))
    hand = parse_block(block)
    assert not isinstance(hand, ParseError)
    result = referee(hand)
    ev = _ev(result)
    assert (ev.street, ev.method, ev.boards) == (1, "exact", 741)
    names = ("Player0", "Hero")
    spot = EquitySpot(
        True,
        5,
        (("7d", "6d", "Jh", "Ah", "5s"), ("As", "4s", "Ks", "Ad", "Qh")),
        ("7h", "5d", "3s"),
        (),
        (EquityPot(((1, 8150), (2, 8150)), (1, 0)),),
    )  # Hero first after the button
    n, totals = brute_force(spot)
    assert n == 741
    assert {(s.pot, s.run, s.half, names.index(s.player)): s.share_sum for s in ev.shares} == totals
    assert {s.run for s in ev.shares} == {1, 2}
    assert sum(ev.allin_ev) == -50


def test_six_card_omaha_all_in_ev_is_the_brute_force() -> None:
    """6 Card Omaha (15 hole pairs a hand): synthetic all-ins on the flop and the turn get an EV that
    adds up to minus the rake, equal to the brute force over every board."""
    from hhparse.synth import SynthConfig, generate

    checked = 0
    config = SynthConfig(hands=1500, seed=6, games=("6-card-omaha",), structures=("PL", "NL"), players=(2, 6))
    for _, sim in generate(config):
        result = referee(sim.hand)
        assert result.valid, result.errors
        ev = hand_ev(result)
        if ev is None or ev.street not in (1, 2) or ev.method != "exact":
            continue
        assert result.facts is not None
        assert sum(ev.allin_ev) == -result.facts.rake
        names = sorted({s.player for s in ev.shares})
        holes = {p.player: p.hole_cards for p in result.facts.players}
        assert all(len(holes[n]) == 6 for n in names)
        pots: dict[int, dict[int, int]] = {}
        eligible: dict[int, tuple[str, ...]] = {}
        for a in result.facts.awards:
            pots.setdefault(a.pot, {})[a.run] = a.amount  # a high-only game: one award a pot and run
            eligible[a.pot] = a.eligible
        board = result.facts.boards[0][: 3 if ev.street == 1 else 4]
        dead = tuple(
            c for name, cards in holes.items() if name not in names for c in cards
        )  # the hero's fold
        spot = EquitySpot(
            False,
            6,
            tuple(holes[n] for n in names),
            board,
            dead,
            tuple(
                EquityPot(tuple(sorted(pots[k].items())), tuple(names.index(n) for n in eligible[k]))
                for k in sorted(pots)
            ),
        )
        n, totals = brute_force(spot)
        assert n == ev.boards
        mine = {(s.pot, s.run, s.half, names.index(s.player)): s.share_sum for s in ev.shares}
        assert {k: v for k, v in totals.items() if k in mine} == mine
        checked += 1
        if checked >= 4:
            break
    assert checked >= 4
