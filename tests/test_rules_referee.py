"""Referee rules, one test per rule (named after it), on small hand-built hands; plus a property
test: legal hands drawn by hypothesis through the betting engine replay as valid and conserve
every chip."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from referee_builders import hand, header

from hhparse.engine import ALL_CODES, referee
from hhparse.engine.table import Player, Table
from hhparse.model import (
    Bet,
    Call,
    Check,
    Collect,
    DealBoard,
    DealHole,
    ExposeCard,
    Fold,
    Hand,
    HandCancelled,
    HoleCardsMarker,
    NoLowHand,
    PostBlind,
    PostKind,
    Raise,
    Show,
    ShowdownMarker,
    Street,
    Structure,
    Summary,
    UncalledBet,
)
from hhparse.rules import pots as R
from hhparse.rules.cards import FULL_DECK
from hhparse.rules.evaluate import evaluate
from hhparse.rules.spec import SPECS
from hhparse.rules.variants import BETTINGS, VARIANTS

SB, BB = PostKind.SMALL_BLIND, PostKind.BIG_BLIND


def codes(h: Any) -> list[str]:
    return [v.code for v in referee(h).errors]


_PKG = Path(__file__).resolve().parent.parent / "hhparse"
_EMITTERS = {"err", "warn", "Violation", "ParseWarning"}


def _code_literals(node: ast.expr, fn: ast.FunctionDef | None) -> set[str]:
    """The codes an emitter's first argument can take: a literal, either side of ``a if c else b``,
    or what a local variable is assigned (the emitter's own ``code`` parameter is not a code)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _code_literals(node.body, fn) | _code_literals(node.orelse, fn)
    if isinstance(node, ast.Compare):  # ``w.code if w.code in ("a", "b") else ...``
        return {
            c.value
            for t in node.comparators
            if isinstance(t, ast.Tuple)
            for c in t.elts
            if isinstance(c, ast.Constant) and isinstance(c.value, str)
        }
    if isinstance(node, ast.Name) and fn is not None:
        out: set[str] = set()
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in n.targets
            ):
                out |= _code_literals(n.value, None)
                if isinstance(n.value, ast.IfExp):
                    out |= _code_literals(n.value.test, None)
        return out
    return set()


def _emitted_codes() -> tuple[set[str], list[str]]:
    """Every code the referee and the parser's warnings can emit, read from the source."""
    found: set[str] = set()
    unread: list[str] = []
    for path in [*sorted((_PKG / "engine").glob("*.py")), _PKG / "parsing.py"]:
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef):
                continue
            params = {a.arg for a in fn.args.args}
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call) or not call.args:
                    continue
                f = call.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
                if name not in _EMITTERS:
                    continue
                arg = call.args[0]
                if isinstance(arg, ast.Name) and arg.id in params:
                    continue  # a wrapper passing its caller's code on
                codes_here = _code_literals(arg, fn)
                if not codes_here:
                    unread.append(f"{path.name}:{call.lineno}: {ast.unparse(arg)}")
                found |= codes_here
    return found, unread


def test_every_emitted_code_is_documented() -> None:
    """Every code the engine (or the parser's warnings) can emit is registered in
    ``engine/codes.py`` and listed in ``docs/referee-codes.md``; every registered code is emitted
    somewhere (no dead entry). Read from the source, so a new ``err("typo-code", ...)`` fails."""
    found, unread = _emitted_codes()
    assert not unread, f"codes the test cannot read statically: {unread}"
    assert len(found) > 40, found  # the scan itself works
    assert found - set(ALL_CODES) == set(), "emitted but not registered"
    assert set(ALL_CODES) - found == set(), "registered but never emitted"
    doc = (_PKG.parent / "docs" / "referee-codes.md").read_text(encoding="utf-8")
    assert [c for c in ALL_CODES if f"| `{c}` |" not in doc] == []
    assert all(code == code.lower() and " " not in code for code in ALL_CODES)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    hdr = header(button=1)
    ok = hand(
        hdr,
        [("A", 1000), ("B", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Fold(7, "A"),
            UncalledBet(8, "B", 15),
            Collect(9, "B", 20),
        ],
    )
    assert codes(ok) == []
    wrong_order = hand(
        hdr,
        [("A", 1000), ("B", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Check(7, "B"),
            Fold(8, "A"),
        ],
    )
    assert "action-out-of-turn" in codes(wrong_order)


def test_small_blind_must_be_first_seat_after_button() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000), ("C", 1000)],
        [PostBlind(3, "C", SB, 10), PostBlind(4, "A", BB, 25), HoleCardsMarker(5), ExposeCard(6, "2s")],
    )
    assert "wrong-blind-seat" in codes(h)


def test_big_blind_is_live_and_may_check_its_option() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000), ("C", 1000)],
        [
            PostBlind(3, "B", SB, 10),
            PostBlind(4, "C", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Call(7, "A", 25),
            Call(8, "B", 15),
            Check(9, "C"),
            DealBoard(10, Street.FLOP, ("2s", "3h", "4h")),
            Check(11, "B"),
            Check(12, "C"),
            Bet(13, "A", 75),
            Fold(14, "B"),
            Fold(15, "C"),
            UncalledBet(16, "A", 75),
            Collect(17, "A", 75),
        ],
    )
    assert codes(h) == []


def test_betting_round_cannot_end_while_a_player_has_to_act() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000), ("C", 1000)],
        [
            PostBlind(3, "B", SB, 10),
            PostBlind(4, "C", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Call(7, "A", 25),
            Call(8, "B", 15),
            DealBoard(10, Street.FLOP, ("2s", "3h", "4h")),
        ],
    )
    assert "betting-not-closed" in codes(h)


def test_new_player_may_post_a_big_blind_out_of_position() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000), ("C", 1000), ("D", 1000)],
        [
            PostBlind(3, "B", SB, 10),
            PostBlind(4, "C", BB, 25),
            PostBlind(5, "D", BB, 25),
            HoleCardsMarker(6),
            ExposeCard(7, "2s"),
            Check(8, "D"),
            Fold(9, "A"),
            Fold(10, "B"),
            Check(11, "C"),
            DealBoard(12, Street.FLOP, ("2s", "3h", "4h")),
            Bet(13, "C", 60),
            Fold(14, "D"),
            UncalledBet(15, "C", 60),
            Collect(16, "C", 60),
        ],
    )
    assert codes(h) == []


def test_courchevel_deals_the_first_flop_card_face_up_before_betting() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            Call(6, "A", 15),
            Check(7, "B"),
            DealBoard(8, Street.FLOP, ("2s", "3h", "4h")),
        ],
    )
    assert "missing-exposed-card" in codes(h)


def test_omaha_has_no_exposed_card() -> None:
    h = hand(
        header(button=1, game="omaha"),
        [("A", 1000), ("B", 1000)],
        [PostBlind(3, "A", SB, 10), PostBlind(4, "B", BB, 25), HoleCardsMarker(5), ExposeCard(6, "2s")],
    )
    assert "unexpected-exposed-card" in codes(h)


def test_courchevel_deals_five_hole_cards() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            DealHole(6, "A", ("As", "Ks", "Qs", "Js")),
            ExposeCard(7, "2s"),
        ],
    )
    assert "wrong-hole-card-count" in codes(h)


def test_short_all_in_raise_does_not_reopen_betting() -> None:
    # A opens 100 (NL 10/25); B all-in to 150 (short: a full raise is to 175); A may only call.
    h = hand(
        header(button=3, structure=Structure.NO_LIMIT),
        [("A", 1000), ("B", 150), ("C", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Raise(7, "C", 75, 100),
            Call(8, "A", 90),
            Raise(9, "B", 50, 150, all_in=True),
            Raise(10, "C", 200, 350),
        ],
    )
    assert "raise-not-reopened" in codes(h)


def test_call_for_less_all_in_is_a_call() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 60)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Raise(7, "A", 50, 75),
            Call(8, "B", 35, all_in=True),
            UncalledBet(9, "A", 15),
        ],
    )
    assert "wrong-call-amount" not in codes(h) and "wrong-uncalled-amount" not in codes(h)
    bad = hand(
        header(button=1),
        [("A", 1000), ("B", 60)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Raise(7, "A", 50, 75),
            Call(8, "B", 35),
        ],
    )
    assert "all-in-flag-mismatch" in codes(bad)


def test_all_in_player_cannot_act_again() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 60)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Raise(7, "A", 50, 75),
            Call(8, "B", 35, all_in=True),
            UncalledBet(9, "A", 15),
            DealBoard(10, Street.FLOP, ("2s", "3h", "4h")),
            Check(11, "B"),
        ],
    )
    assert "acted-while-all-in" in codes(h)


def test_fixed_limit_blinds_need_not_be_half() -> None:
    # $15/$30 FL posts $10/$15; $5/$10 posts $2/$5 (observed).
    h = hand(
        header(button=1, structure=Structure.FIXED_LIMIT, sb=1500, bb=3000, game="omaha"),
        [("A", 100000), ("B", 100000), ("C", 100000)],
        [
            PostBlind(3, "B", SB, 1000),
            PostBlind(4, "C", BB, 1500),
            HoleCardsMarker(5),
            Raise(6, "A", 1500, 3000),
            Fold(7, "B"),
            Fold(8, "C"),
            UncalledBet(9, "A", 1500),
            Collect(10, "A", 3500),
        ],
    )
    assert codes(h) == []


def test_cancelled_hand_is_valid_with_no_pot() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [PostBlind(3, "A", SB, 10), PostBlind(4, "B", BB, 25), HandCancelled(5), Collect(6, "A", 0)],
    )
    r = referee(h)
    assert r.valid and r.facts is not None and r.facts.pots == ()


def test_uncontested_winner_collects_everything_minus_rake() -> None:
    base = [
        PostBlind(3, "A", SB, 10),
        PostBlind(4, "B", BB, 25),
        HoleCardsMarker(5),
        ExposeCard(6, "2s"),
        Raise(7, "A", 50, 75),
        Call(8, "B", 50),
        DealBoard(9, Street.FLOP, ("2s", "3h", "4h")),
        Bet(10, "B", 150),
        Fold(11, "A"),
        UncalledBet(12, "B", 150),
    ]
    ok = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [*base, Collect(13, "B", 145)],
        Summary(20, total_pot=150, rake=5, boards=(("2s", "3h", "4h"),)),
    )
    assert codes(ok) == []
    short = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [*base, Collect(13, "B", 140)],
        Summary(20, total_pot=150, rake=5, boards=(("2s", "3h", "4h"),)),
    )
    assert "wrong-collected-amount" in codes(short)


def test_rake_is_never_negative() -> None:
    h = hand(
        header(button=1),
        [("A", 1000), ("B", 1000)],
        [
            PostBlind(3, "A", SB, 10),
            PostBlind(4, "B", BB, 25),
            HoleCardsMarker(5),
            ExposeCard(6, "2s"),
            Fold(7, "A"),
            UncalledBet(8, "B", 15),
            Collect(9, "B", 30),
        ],
        Summary(20, total_pot=20, rake=-10),
    )
    assert "negative-rake" in codes(h)


def test_pre_2006_uncalled_bets_are_returned_silently() -> None:
    ev = [
        PostBlind(3, "A", SB, 10),
        PostBlind(4, "B", BB, 25),
        HoleCardsMarker(5),
        Fold(6, "A"),
        Collect(7, "B", 20),
    ]
    old = hand(
        header(button=1, game="omaha", year=2005),
        [("A", 1000), ("B", 1000)],
        ev,
        Summary(9, total_pot=20, rake=0),
    )
    new = hand(
        header(button=1, game="omaha", year=2009),
        [("A", 1000), ("B", 1000)],
        ev,
        Summary(9, total_pot=20, rake=0),
    )
    assert codes(old) == []
    assert "missing-uncalled-bet" in codes(new)


# --------------------------------------------------------------------------------------------
# Property: legal hands, drawn by hypothesis from what the betting engine allows, replay as valid.
# --------------------------------------------------------------------------------------------


@st.composite
def legal_hands(draw: st.DrawFn) -> Hand:
    """A legal hand of any game and structure: every action is one the betting engine (the one
    the referee replays with) says ``can_*``, chosen by hypothesis, so a failure shrinks to a short
    hand; the showdown is settled with the pot rules (:mod:`hhparse.rules.pots`) and the evaluator."""
    variant = draw(st.sampled_from(VARIANTS))
    betting = draw(st.sampled_from(BETTINGS))
    spec = SPECS[f"{variant.label} {betting.label}"]
    fl = spec.fixed_limit
    small, big = (10, 20) if fl else (5, 10)  # FL: the small and big bets; blinds 5/10
    hdr = header(
        button=1, structure=spec.structure, sb=small, bb=big, game=spec.game, hilo=spec.hilo, tournament=True
    )
    n = draw(st.integers(2, min(6, variant.max_players)))
    names = [f"P{i}" for i in range(1, n + 1)]
    stacks = draw(st.lists(st.one_of(st.integers(3, 60), st.integers(50, 2000)), min_size=n, max_size=n))
    deck = draw(st.permutations(FULL_DECK))
    players = {
        name: Player(name, i + 1, stack) for i, (name, stack) in enumerate(zip(names, stacks, strict=True))
    }
    table = Table(spec, list(players.values()), 1, small, big)
    holes = {
        name: tuple(deck[k * variant.hole_cards : (k + 1) * variant.hole_cards])
        for k, name in enumerate(names)
    }
    board = deck[n * variant.hole_cards : n * variant.hole_cards + 5]
    ev: list[Any] = []
    line = [10]

    def next_line() -> int:
        line[0] += 1
        return line[0]

    sb = table.positional_sb()
    assert sb is not None
    for p, kind, blind in ((sb, PostKind.SMALL_BLIND, 5), (table.next_after(sb), PostKind.BIG_BLIND, 10)):
        amount = min(blind, p.stack)
        assert table.can_post(p, kind, amount)
        ev.append(PostBlind(next_line(), p.name, kind, amount, all_in=amount == p.stack))
        table.apply_post(p, kind, amount, amount == p.stack, line[0])
    ev.append(HoleCardsMarker(next_line()))
    assert not table.deal(line[0])
    for name in names:
        ev.append(DealHole(next_line(), name, holes[name]))
    if variant.exposed_card:
        ev.append(ExposeCard(next_line(), board[0]))
    dealt = 0
    for street in Street:
        if street > Street.PREFLOP:
            if sum(not p.folded for p in table.ring) < 2:
                break
            dealt = spec.board_sizes[street - 1]
            ev.append(DealBoard(next_line(), street, tuple(board[:dealt])))
            table.new_street(street)
        while (p := table.next_to_act()) is not None:
            owed = table.owed(p)
            lo, hi = table.raise_bounds(p)
            options = [
                a
                for a, ok in (
                    ("fold", owed > 0),
                    ("check", table.can_check(p)),
                    ("call", owed > 0 and table.can_call(p)),
                    ("raise", True),
                )
                if ok
            ]
            raises = [
                to
                for to in range(min(lo, hi), hi + 1)
                if to > table.current_bet
                and (table.can_raise_to(p, to) if table.current_bet else table.can_bet(p, to - p.street_bet))
            ][:200]
            if not raises:
                options.remove("raise")
            action = draw(st.sampled_from(options))
            if action == "fold":
                ev.append(Fold(next_line(), p.name))
                table.apply_fold(p, line[0])
            elif action == "check":
                ev.append(Check(next_line(), p.name))
                table.apply_check(p, line[0])
            elif action == "call":
                amount = table.call_amount(p)
                ev.append(Call(next_line(), p.name, amount, all_in=amount == p.stack))
                table.apply_call(p, amount, amount == p.stack, line[0])
            else:
                to = draw(st.sampled_from(raises))
                moved = to - p.street_bet
                if table.current_bet == 0:
                    ev.append(Bet(next_line(), p.name, moved, all_in=moved == p.stack))
                    table.apply_bet(p, moved, moved == p.stack, line[0])
                else:
                    ev.append(Raise(next_line(), p.name, to - table.current_bet, to, all_in=moved == p.stack))
                    table.apply_raise_to(p, to, moved == p.stack, line[0])
        top, excess = table.expected_uncalled()
        if top is not None and excess > 0:
            ev.append(UncalledBet(next_line(), top.name, excess))
            table.apply_uncalled(top, excess, line[0])
    live = [p.name for p in table.ring if not p.folded]
    if len(live) >= 2:
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            if spec.board_sizes[street - 1] > dealt:
                dealt = spec.board_sizes[street - 1]
                ev.append(DealBoard(next_line(), street, tuple(board[:dealt])))
        ev.append(ShowdownMarker(next_line()))
    contrib = {p.name: p.total_contrib for p in table.ring}
    pots = R.side_pots(contrib, set(live), [p.name for p in table.ring])
    no_low = False
    final = tuple(board[:dealt])
    for k, pot in enumerate(pots):
        label = "pot" if len(pots) == 1 else ("main pot" if k == 0 else f"side pot-{k}")
        if len(pot.eligible) == 1:
            w = pot.eligible[0]
            if len(live) >= 2 and spec.hilo and evaluate(holes[w], final, True)[1] is not None:
                # The room splits a one-player pot at showdown into halves when the player has a low.
                for a in R.hilo_halves(pot.amount):
                    ev.append(Collect(next_line(), w, a, k, label))
            else:
                ev.append(Collect(next_line(), w, pot.amount, k, label))
            continue
        evals = {name: evaluate(holes[name], final, spec.hilo) for name in pot.eligible}
        for name in pot.eligible:
            hi, lo = evals[name]
            if not any(isinstance(e, Show) and e.player == name for e in ev):
                desc = (
                    (f"HI: {hi.description}; LO: {lo.description}" if lo else f"HI: {hi.description}")
                    if spec.hilo
                    else hi.description
                )
                ev.append(
                    Show(next_line(), name, holes[name], desc, hi.description, lo.description if lo else None)
                )
        best = max(v[0].rank for v in evals.values())
        hw = [name for name in pot.eligible if evals[name][0].rank == best]
        lows = {name: v[1].rank for name, v in evals.items() if v[1] is not None}
        if lows:
            lw = [name for name in pot.eligible if lows.get(name) == min(lows.values())]
            ha, la = R.hilo_halves(pot.amount)
        else:
            no_low = no_low or spec.hilo
            lw, ha, la = [], pot.amount, 0
        for ws, amt in ((hw, ha), (lw, la)):
            for name, a in zip(ws, R.split_evenly(amt, ws), strict=True):
                ev.append(Collect(next_line(), name, a, k, label))
    if no_low:
        ev.append(NoLowHand(next_line()))
    total = sum(contrib.values())
    summary = Summary(
        next_line(),
        total_pot=total,
        main_pot=pots[0].amount if len(pots) > 1 else None,
        side_pots=tuple(p.amount for p in pots[1:]) if len(pots) > 1 else (),
        rake=0,
        boards=(final,) if dealt else (),
    )
    return hand(hdr, list(zip(names, stacks, strict=True)), ev, summary)


@settings(max_examples=300, deadline=None)
@given(legal_hands())
def test_random_legal_hands_replay_as_valid_and_conserve_chips(h: Hand) -> None:
    r = referee(h)
    assert r.valid, [(v.code, v.line, v.message) for v in r.errors]
    assert r.facts is not None
    assert sum(p.net for p in r.facts.players) == 0  # no rake: chips only move between players
    for p in r.facts.players:
        assert p.starting_stack + p.net >= 0
