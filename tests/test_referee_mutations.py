"""Mutations of real corpus hands: each breaks one rule and must be flagged with the right code.

Built programmatically with ``hhparse.model.replace`` on parsed events, so the unmutated hand is
known-valid (see test_referee_corpus.py) and the only difference is the one we introduce.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hhparse.engine import referee
from hhparse.model import (
    Bet,
    Call,
    Check,
    Collect,
    DealHole,
    ExposeCard,
    Fold,
    Hand,
    NoLowHand,
    Raise,
    UncalledBet,
    replace,
)
from hhparse.parsing import parse_file

pytestmark = pytest.mark.corpus

CH13 = "courchevel/stars-cash-pl-0.10-0.25-2013-showdown.txt"
POGSON = "omaha-hilo/hhsmithy-cash-pl-0.05-0.10-2014-pogson-hi-lo-split.txt"
MARFIK = "omaha-hilo/hhsmithy-cash-pl-0.05-0.10-2012-marfik-no-low.txt"
O8_FL = "omaha-hilo/hhsmithy-cash-fl-300-600-2014-sidepot.txt"
O8_KO = "omaha-hilo/stars-tour-nl-stt-ko-2011-73hands.txt"
O8_BB = "omaha-hilo/stars-cash-pl-0.01-0.02-2010-posted-bb.txt"
RIT = "courchevel-hilo/stars-cash-pl-1-2-2013-run-it-twice.txt"
EIGHT_GAME = "mixed/stars-tour-8game-homegame-2013-137hands.txt"


def load(corpus_dir: Path, rel: str, hand_id: str | None = None) -> Hand:
    for h in parse_file(corpus_dir / rel):
        if isinstance(h, Hand) and (hand_id is None or h.hand_id == hand_id):
            assert referee(h).valid, f"{rel} #{h.hand_id} must be valid before mutation"
            return h
    raise LookupError(f"{rel} #{hand_id}")


def find(hand: Hand, pred: Callable[[Any], bool], nth: int = 0) -> int:
    idx = [i for i, e in enumerate(hand.events) if pred(e)]
    return idx[nth]


def with_event(hand: Hand, i: int, new: Any) -> Hand:
    ev = list(hand.events)
    ev[i] = new
    return replace(hand, events=tuple(ev))


def codes(hand: Hand) -> set[str]:
    return {v.code for v in referee(hand).errors}


def assert_flags(hand: Hand, code: str, line: int | None = None) -> None:
    errors = referee(hand).errors
    found = {v.code for v in errors}
    assert code in found, f"expected {code}, got {sorted(found)}"
    if line is not None:
        assert any(v.code == code and v.line == line for v in errors), [(v.code, v.line) for v in errors]


def test_collected_amount_off_by_one(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: isinstance(e, Collect))
    assert_flags(
        with_event(h, i, replace(h.events[i], amount=h.events[i].amount + 1)),
        "wrong-collected-amount",
        h.events[i].line,
    )


def test_hilo_halves_swapped_amounts(corpus_dir: Path) -> None:
    h = load(corpus_dir, POGSON)
    a, b = (find(h, lambda e: isinstance(e, Collect), n) for n in (0, 1))
    ea, eb = h.events[a], h.events[b]
    m = with_event(with_event(h, a, replace(ea, amount=eb.amount)), b, replace(eb, amount=ea.amount))
    assert_flags(m, "halves-swapped")


def test_hilo_halves_swapped_winners(corpus_dir: Path) -> None:
    # Even split: the high line names the low winner and vice versa (amounts unchanged).
    h = load(corpus_dir, POGSON)
    a, b = (find(h, lambda e: isinstance(e, Collect), n) for n in (0, 1))
    ea, eb = h.events[a], h.events[b]
    m = with_event(with_event(h, a, replace(eb, line=ea.line)), b, replace(ea, line=eb.line))
    assert_flags(m, "halves-swapped")


def test_low_awarded_without_qualifier(corpus_dir: Path) -> None:
    h = load(corpus_dir, MARFIK)
    i = find(h, lambda e: isinstance(e, Collect))
    c = h.events[i]
    loser = next(e.player for e in h.events if type(e).__name__ == "Show" and e.player != c.player)
    hi = c.amount - c.amount // 2
    ev = [e for e in h.events if not isinstance(e, NoLowHand)]
    j = ev.index(c)
    ev[j : j + 1] = [replace(c, amount=hi), replace(c, player=loser, amount=c.amount // 2)]
    assert_flags(replace(h, events=tuple(ev)), "low-awarded-without-qualifier")


def test_award_to_a_hand_that_does_not_win(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: isinstance(e, Collect))
    assert_flags(with_event(h, i, replace(h.events[i], player="Hero")), "wrong-winner", h.events[i].line)


def test_nl_raise_below_minimum(corpus_dir: Path) -> None:
    h = load(corpus_dir, O8_KO)  # blinds 10/20: "APTEM-89: raises 40 to 60"
    i = find(h, lambda e: isinstance(e, Raise))
    e = h.events[i]
    assert (e.by, e.to) == (40, 60)
    assert_flags(with_event(h, i, replace(e, by=10, to=30)), "raise-below-minimum", e.line)


def test_pl_raise_below_minimum(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # "Player1: raises $0.50 to $0.75"
    i = find(h, lambda e: isinstance(e, Raise))
    e = h.events[i]
    assert_flags(with_event(h, i, replace(e, by=5, to=30)), "raise-below-minimum", e.line)


def test_pl_raise_above_pot(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # pot 0.35, max raise to 0.85
    i = find(h, lambda e: isinstance(e, Raise))
    e = h.events[i]
    m = with_event(h, i, replace(e, by=61, to=86))
    assert_flags(m, "raise-above-pot-limit", e.line)
    msg = next(v for v in referee(m).errors if v.code == "raise-above-pot-limit").message
    assert msg == "raise to $0.86 is above the pot limit of $0.85"
    assert "raise-above-pot-limit" not in codes(with_event(h, i, replace(e, by=60, to=85)))


def test_pl_bet_above_pot(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # flop pot 2.25: "Player1: bets $1.55"
    i = find(h, lambda e: isinstance(e, Bet))
    assert_flags(with_event(h, i, replace(h.events[i], amount=226)), "bet-above-pot-limit", h.events[i].line)


def test_wrong_fixed_limit_size(corpus_dir: Path) -> None:
    h = load(corpus_dir, O8_FL)  # "Crazy Elior: raises $300 to $600"
    i = find(h, lambda e: isinstance(e, Raise))
    e = h.events[i]
    assert_flags(with_event(h, i, replace(e, by=40000, to=70000)), "wrong-fixed-limit-size", e.line)


def test_fifth_bet_in_capped_round(corpus_dir: Path) -> None:
    h = load(corpus_dir, EIGHT_GAME, "99632104898")  # flop: bet, raise, raise, raise, capped, call
    i = find(h, lambda e: isinstance(e, Call) and e.player == "Player0")
    e = h.events[i]
    assert_flags(with_event(h, i, Raise(e.line, e.player, 30, 150)), "betting-capped", e.line)


def test_action_out_of_turn(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # Player1 raises, Player2 calls: swap them
    i = find(h, lambda e: isinstance(e, Raise))
    ev = list(h.events)
    ev[i], ev[i + 1] = replace(ev[i + 1], line=ev[i].line), replace(ev[i], line=ev[i + 1].line)
    assert_flags(replace(h, events=tuple(ev)), "action-out-of-turn", h.events[i].line)


def test_acting_after_folding(corpus_dir: Path) -> None:
    h = load(corpus_dir, O8_BB)  # 2TONTOM folds pre-flop; make them check on the flop
    i = find(h, lambda e: isinstance(e, Check) and e.player == "CoinJock")
    ev = list(h.events)
    ev.insert(i, Check(h.events[i].line, "2TONTOM"))
    assert_flags(replace(h, events=tuple(ev)), "acted-after-fold", h.events[i].line)


def test_betting_more_than_the_stack(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # Hero has $25 - 0.75 - 1.55 = $22.70 behind on the river
    i = find(h, lambda e: isinstance(e, Bet) and e.player == "Hero")
    assert_flags(with_event(h, i, replace(h.events[i], amount=2300)), "bet-exceeds-stack", h.events[i].line)


def test_a_card_appearing_twice(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)  # Hero dealt [Jh 7h Jd 5s Kc]; the flop has 3h
    i = find(h, lambda e: isinstance(e, DealHole))
    e = h.events[i]
    assert_flags(with_event(h, i, replace(e, cards=("3h", *e.cards[1:]))), "duplicate-card")


def test_exposed_card_differs_from_first_flop_card(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: isinstance(e, ExposeCard))
    assert_flags(with_event(h, i, replace(h.events[i], card="As")), "exposed-card-mismatch")


def test_wrong_uncalled_bet_amount(corpus_dir: Path) -> None:
    h = load(corpus_dir, RIT)  # Uncalled bet ($25.75) returned to Hero
    i = find(h, lambda e: isinstance(e, UncalledBet))
    assert_flags(
        with_event(h, i, replace(h.events[i], amount=2500)), "wrong-uncalled-amount", h.events[i].line
    )


def test_wrong_total_pot(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    assert h.summary is not None and h.summary.total_pot is not None
    m = replace(h, summary=replace(h.summary, total_pot=h.summary.total_pot + 1))
    assert_flags(m, "wrong-total-pot")


def test_summary_seat_names_the_wrong_player(corpus_dir: Path) -> None:
    # The anon5 damage (§14.2) rebuilt on a parseable hand: a seat line naming another player.
    h = load(corpus_dir, CH13)
    assert h.summary is not None
    seats = list(h.summary.seats)
    seats[0] = replace(seats[0], player="Player6")
    assert_flags(
        replace(h, summary=replace(h.summary, seats=tuple(seats))), "summary-mismatch", seats[0].line
    )


def test_fold_marked_all_in_flag(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: isinstance(e, Call))
    assert_flags(
        with_event(h, i, replace(h.events[i], all_in=True)), "all-in-flag-mismatch", h.events[i].line
    )


def test_wrong_call_amount(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: isinstance(e, Call))
    assert_flags(with_event(h, i, replace(h.events[i], amount=h.events[i].amount - 1)), "wrong-call-amount")


def test_wrong_hand_description(corpus_dir: Path) -> None:
    h = load(corpus_dir, CH13)
    i = find(h, lambda e: type(e).__name__ == "Show")
    e = h.events[i]
    assert_flags(
        with_event(h, i, replace(e, description="a pair of Kings", hi="a pair of Kings")),
        "wrong-hand-description",
        e.line,
    )


def test_unmutated_hands_stay_valid(corpus_dir: Path) -> None:
    for rel in (CH13, POGSON, MARFIK, O8_FL, O8_BB, RIT):
        assert referee(load(corpus_dir, rel)).valid
    assert not [e for e in load(corpus_dir, CH13).events if isinstance(e, Fold) and e.shown]
