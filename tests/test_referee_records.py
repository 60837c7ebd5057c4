"""The referee's records are built once: the betting engine's ledger entries are the action facts,
a shown hand's evaluation is its showdown fact, the boards are the deal lines' own tuples.

Why these tests: each record used to be built twice (an engine or settlement object, then a fact
copied from it field by field); the copies are gone, and what the facts say must not change. The
golden dumps (``bench/referee_golden.py``) prove the values; these pin the shapes the speed relies
on, and the checks that took a shorter path (the summary's cards, the ring's next player).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_hand_files

from hhparse.engine import referee
from hhparse.engine.replay import Referee
from hhparse.engine.table import ACTION_KIND, K_POST, Player, Table
from hhparse.facts import ActionFact, ShowdownFact
from hhparse.model import Hand, PostKind, Street, Structure, replace
from hhparse.parsing import parse_file
from hhparse.rules.evaluate import evaluate
from hhparse.rules.spec import spec_for

pytestmark = pytest.mark.corpus

CH13 = "courchevel/stars-cash-pl-0.10-0.25-2013-showdown.txt"


def _hands(corpus_dir: Path, limit: int = 400) -> list[Hand]:
    out: list[Hand] = []
    for path in corpus_hand_files(corpus_dir):
        out.extend(h for h in parse_file(path) if isinstance(h, Hand))
        if len(out) >= limit:
            break
    return out


def test_the_engine_returns_action_facts_numbered_as_applied() -> None:
    """``apply_*`` returns the :class:`ActionFact` the ``actions`` table stores; ``seq`` counts
    the table's applied entries (the old engine returned its own ledger record, copied later)."""
    spec = spec_for("omaha", False, Structure.POT_LIMIT)
    a, b, c = Player("a", 1, 1000), Player("b", 2, 1000), Player("c", 3, 1000)
    table = Table(spec, [a, b, c], 3, 5, 10)
    entries = [
        table.apply_post(a, PostKind.SMALL_BLIND, 5, False, 3),
        table.apply_post(b, PostKind.BIG_BLIND, 10, False, 4),
    ]
    assert not table.deal(5)
    entries.append(table.apply_call(c, 10, False, 6))
    entries.append(table.apply_fold(a, 7))
    entries.append(table.apply_check(b, 8))
    assert all(type(e) is ActionFact for e in entries)
    assert [e.seq for e in entries] == [0, 1, 2, 3, 4]
    assert [e.action for e in entries] == ["small blind", "big blind", "call", "fold", "check"]
    assert [ACTION_KIND[e.action] >= K_POST for e in entries] == [True, True, False, False, False]
    assert [e.street for e in entries] == [0] * 5 and all(type(e.street) is int for e in entries)
    call = entries[2]
    assert (call.amount, call.to_amount, call.faced, call.pot_before, call.stack_before) == (
        10,
        10,
        10,
        15,
        1000,
    )


def test_a_hands_actions_are_its_ledger_in_order(corpus_dir: Path) -> None:
    """Every action of a refereed hand is an :class:`ActionFact` whose ``seq`` is its position
    and whose word the stats read a kind from."""
    seen = 0
    for hand in _hands(corpus_dir):
        facts = referee(hand).facts
        if facts is None:
            continue
        assert [a.seq for a in facts.actions] == list(range(len(facts.actions)))
        assert all(type(a) is ActionFact and a.action in ACTION_KIND for a in facts.actions)
        assert all(type(a.street) is int and 0 <= a.street <= Street.RIVER for a in facts.actions)
        seen += len(facts.actions)
    assert seen > 1000


def test_showdown_facts_are_the_evaluations(corpus_dir: Path) -> None:
    """A showdown fact holds what the evaluator says of its cards on its board."""
    seen = 0
    for hand in _hands(corpus_dir):
        facts = referee(hand).facts
        if facts is None:
            continue
        for sd in facts.showdowns:
            assert type(sd) is ShowdownFact
            board = facts.boards[sd.run - 1] if sd.run else facts.boards[0]
            high, low = evaluate(sd.cards, board, hand.header.hilo)
            assert (sd.high, sd.high_rank) == (high.description, high.rank)
            assert (sd.low, sd.low_rank) == ((low.description, low.rank) if low else (None, None))
            seen += 1
    assert seen > 20


def test_summary_cards_other_than_the_shown_ones_are_still_checked(corpus_dir: Path) -> None:
    """The summary check skips its sets when a seat line's cards are the dealt or shown ones;
    other cards are still compared with what the body showed."""
    hand = next(h for h in parse_file(corpus_dir / CH13) if isinstance(h, Hand))
    assert referee(hand).valid
    assert hand.summary is not None
    seats = list(hand.summary.seats)
    k = next(i for i, s in enumerate(seats) if s.cards)
    shown = seats[k].cards
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    used = {c for e in hand.events for c in getattr(e, "cards", ())} | {c for s in seats for c in s.cards}
    fresh = tuple(c for c in deck if c not in used)[: len(shown)]
    seats[k] = replace(seats[k], cards=fresh)
    result = referee(replace(hand, summary=replace(hand.summary, seats=tuple(seats))))
    assert any(v.code == "summary-mismatch" and "summary cards differ" in v.message for v in result.errors), (
        result.errors
    )


def test_next_after_follows_the_ring(corpus_dir: Path) -> None:
    """``ReplayView.next_after`` reads the ring's position off the engine: the same clockwise
    order as walking the ring, and still an error for a player who is not dealt in."""
    for hand in _hands(corpus_dir, 100):
        ref = Referee(hand)
        ref.run()
        view = ref.view()
        ring = view.ring
        for i, p in enumerate(ring):
            assert view.next_after(p) is ring[(i + 1) % len(ring)]
        for p in view.seats.values():
            if p not in ring:
                with pytest.raises(ValueError):
                    view.next_after(p)
