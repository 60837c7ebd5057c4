"""The all-in equity engine (``hhparse.rules.equity``): its tables, its evaluator, its sums.

Three independent references: the referee's evaluator (``hhparse.rules.evaluate``, a different
implementation of the same rules), pokerkit's Omaha hands, and a brute-force loop over every
board settled with the referee's own split functions (``tests/equity_reference.py``).
"""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse.rules import equity as E
from hhparse.rules.cards import FULL_DECK, RANKS, SUITS
from hhparse.rules.equity import EquityPot, EquitySpot, equity
from hhparse.rules.evaluate import evaluate, high_rank_5, low_rank_5

sys.path.insert(0, str(Path(__file__).parent))
from equity_reference import brute_force, brute_force_unknown, settle_board


def _ids(cards: tuple[str, ...] | list[str]) -> np.ndarray:
    return np.array([E.CARD_INDEX[c] for c in cards], dtype=np.int64)


def _exact_totals(spot: EquitySpot, **kw: object) -> tuple[int, dict[tuple[int, int, str, int], int]]:
    r = equity(spot, **kw)  # type: ignore[arg-type]
    return r.boards, {(s.pot, s.run, s.half, s.player): s.total for s in r.shares}


# --------------------------------------------------------------------------------------------
# Tables against the referee's evaluator
# --------------------------------------------------------------------------------------------


def _cards_of(ranks: list[int]) -> list[str]:
    """Five cards of these ranks, never all of one suit (a non-flush hand)."""
    out = []
    for base, r in enumerate(sorted(set(ranks))):
        for j in range(ranks.count(r)):
            out.append(RANKS[r] + SUITS[(base + j) % 4])
    return out


def test_non_flush_table_matches_the_evaluator() -> None:
    checked = 0
    for r1, r2 in itertools.product(range(13), repeat=2):
        for m, (a, b, c) in enumerate(E._MS3_RANKS.tolist()):
            ranks = [r1, r2, a, b, c]
            value = int(E.NF[13 * r1 + r2, m])
            if max(ranks.count(r) for r in ranks) == 5:
                assert value == 0
                continue
            assert value == high_rank_5(_cards_of(ranks)), ranks
            checked += 1
    assert checked > 75_000


def test_flush_table_matches_the_evaluator() -> None:
    masks = [sum(1 << r for r in rs) for rs in itertools.combinations(range(13), 5)]
    for mask in masks:
        cards = [RANKS[r] + "h" for r in range(13) if mask >> r & 1]
        assert int(E.FL[mask]) == high_rank_5(cards), cards
    assert int(np.count_nonzero(E.FL)) == len(masks) == 1287


def test_low_table_is_the_union_of_two_and_three_different_low_ranks() -> None:
    low_ranks = "A2345678"
    for pair in itertools.combinations(range(8), 2):
        for triple in itertools.combinations(range(8), 3):
            pm, tm = sum(1 << i for i in pair), sum(1 << i for i in triple)
            value = int(E.LOWTAB[pm, tm])
            if set(pair) & set(triple):
                assert value == E.NO_LOW
            else:
                cards = [low_ranks[i] + s for i, s in zip((*pair, *triple), "cdhsc", strict=True)]
                assert value == low_rank_5(cards)
    assert (E.LOWTAB[0] == E.NO_LOW).all() and (E.LOWTAB[:, 0] == E.NO_LOW).all()


@settings(max_examples=400, deadline=None, derandomize=True)
@given(deck=st.permutations(FULL_DECK), n_hole=st.sampled_from((4, 5)))
def test_hand_values_match_the_evaluator(deck: list[str], n_hole: int) -> None:
    rows = 8
    holes = np.stack([_ids(deck[i * 10 : i * 10 + n_hole]) for i in range(rows // 2)] * 2)
    boards = np.stack(
        [_ids(deck[i * 10 + 5 : i * 10 + 10]) for i in range(rows // 2)] + [_ids(deck[45:50])] * (rows // 2)
    )
    hi, lo = E.hand_values(holes, boards, True)
    for i in range(rows):
        hole = tuple(FULL_DECK[c] for c in holes[i])
        board = tuple(FULL_DECK[c] for c in boards[i])
        if set(hole) & set(board):
            continue
        high, low = evaluate(hole, board, True)
        assert int(hi[i]) == high.rank, (hole, board)
        assert int(lo[i]) == (low.rank if low is not None else E.NO_LOW), (hole, board)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_hole=st.sampled_from((4, 5, 6)),
    hilo=st.booleans(),
    suits=st.sampled_from((1, 2)),
)
def test_hand_values_of_flush_rich_rows_match_the_evaluator(
    seed: int, n_hole: int, hilo: bool, suits: int
) -> None:
    """Rows dealt from one or two suits (plus a few other cards), so that most rows hold flushes,
    straight flushes and several suited pairs and triples at once: each row's high and low (or
    no low when not ``hilo``) as the evaluator gives them."""
    rng = np.random.default_rng(seed)
    rich = [c for c in FULL_DECK if c[1] in "hs"[:suits]]
    other = [c for c in FULL_DECK if c not in rich]
    rows = []
    for _ in range(12):
        cards = [rich[i] for i in rng.permutation(len(rich))[: n_hole + 3]]
        cards += [other[i] for i in rng.permutation(len(other))[:2]]
        rows.append([cards[i] for i in rng.permutation(len(cards))])
    holes = np.stack([_ids(r[:n_hole]) for r in rows])
    boards = np.stack([_ids(r[n_hole:]) for r in rows])
    hi, lo = E.hand_values(holes, boards, hilo)
    for i, r in enumerate(rows):
        high, low = evaluate(tuple(r[:n_hole]), tuple(r[n_hole:]), True)
        assert int(hi[i]) == high.rank, r
        assert int(lo[i]) == (low.rank if hilo and low is not None else E.NO_LOW), r


@settings(max_examples=150, deadline=None, derandomize=True)
@given(deck=st.permutations(FULL_DECK), b0=st.sampled_from((0, 1, 2, 3, 4)), n_hole=st.sampled_from((4, 5)))
def test_board_tables_match_direct_evaluation(deck: list[str], b0: int, n_hole: int) -> None:
    """The per-triple tables (M over unseen subsets) against evaluating each board directly."""
    hole = _ids(deck[:n_hole])
    known = _ids(deck[n_hole : n_hole + b0])
    unseen = np.sort(_ids(deck[n_hole + b0 :]))
    rng = np.random.default_rng(len(deck[0]) + b0)
    new = np.sort(np.stack([rng.choice(len(unseen), 5 - b0, replace=False) for _ in range(40)]), axis=1)
    hi, lo = E.board_values(hole, known, unseen, new, True)
    boards = np.concatenate([np.broadcast_to(known, (40, b0)), unseen[new]], axis=1)
    hi2, lo2 = E.hand_values(np.broadcast_to(hole, (40, n_hole)), boards, True)
    assert (hi == hi2).all() and (lo == lo2).all()


# --------------------------------------------------------------------------------------------
# Differential: pokerkit's Omaha high and 8-or-better low
# --------------------------------------------------------------------------------------------


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=800, deadline=None, derandomize=True)
@given(deck=st.permutations(FULL_DECK), n_hole=st.sampled_from((4, 5)))
def test_halves_agree_with_pokerkit(deck: list[str], n_hole: int) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    a, b = deck[:n_hole], deck[n_hole : 2 * n_hole]
    board = deck[2 * n_hole : 2 * n_hole + 5]
    hi, lo = E.hand_values(np.stack([_ids(a), _ids(b)]), np.stack([_ids(board)] * 2), True)
    pk_hi, pk_lo = pokerkit.OmahaHoldemHand, pokerkit.OmahaEightOrBetterLowHand
    ha, hb = pk_hi.from_game("".join(a), "".join(board)), pk_hi.from_game("".join(b), "".join(board))
    assert _sign(int(hi[0]) - int(hi[1])) == _sign((ha > hb) - (ha < hb)), (a, b, board)
    la, lb = (
        pk_lo.from_game_or_none("".join(a), "".join(board)),
        pk_lo.from_game_or_none("".join(b), "".join(board)),
    )
    assert (int(lo[0]) == E.NO_LOW) == (la is None) and (int(lo[1]) == E.NO_LOW) == (lb is None), (
        a,
        b,
        board,
    )
    if la is not None and lb is not None:  # ours: smaller wins; pokerkit: stronger compares greater
        assert _sign(int(lo[1]) - int(lo[0])) == _sign((la > lb) - (la < lb)), (a, b, board)


# --------------------------------------------------------------------------------------------
# Exact enumeration against brute force
# --------------------------------------------------------------------------------------------


@st.composite
def spots(
    draw: st.DrawFn, b0s: tuple[int, ...] = (3, 4), dead_counts: tuple[int, ...] = (0, 0, 4)
) -> EquitySpot:
    deck = draw(st.permutations(FULL_DECK))
    n_players = draw(st.sampled_from((2, 2, 3, 4)))
    hole_size = draw(st.sampled_from((4, 5)))
    b0 = draw(st.sampled_from(b0s))
    n_dead = draw(st.sampled_from(dead_counts))
    holes = tuple(tuple(deck[i * hole_size : (i + 1) * hole_size]) for i in range(n_players))
    at = n_players * hole_size
    board = tuple(deck[at : at + b0])
    dead = tuple(deck[at + b0 : at + b0 + n_dead])
    amount = draw(st.integers(1, 5000))
    pots = [EquityPot(((0, amount),), tuple(range(n_players)))]
    if n_players > 2:  # a side pot between the others, run twice with an odd unit
        side = draw(st.integers(1, 999))
        pots.append(EquityPot(((1, side + 1), (2, side)), tuple(range(1, n_players))))
    if draw(st.booleans()):  # an uncalled-size pot only one player can win
        pots.append(EquityPot(((0, draw(st.integers(1, 50))),), (n_players - 1,)))
    return EquitySpot(draw(st.booleans()), hole_size, holes, board, dead, tuple(pots))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(spot=spots())
def test_flop_and_turn_equity_is_the_brute_force(spot: EquitySpot) -> None:
    assert _exact_totals(spot) == brute_force(spot)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(spot=spots(b0s=(0, 1, 2), dead_counts=(30,)))
def test_preflop_shapes_are_the_brute_force(spot: EquitySpot) -> None:
    """Four or five cards to come (pre-flop Courchevel: the door card; Omaha: none); dead cards
    keep the brute force small, the tables are the same."""
    n_unseen = 52 - len(spot.board) - len(spot.dead) - sum(len(h) for h in spot.holes)
    if not 0 < math.comb(max(n_unseen, 0), 5 - len(spot.board)) <= 4000:
        return
    assert _exact_totals(spot) == brute_force(spot)


def test_preflop_courchevel_heads_up_is_exact_over_every_board() -> None:
    spot = EquitySpot(
        True,
        5,
        (("As", "2s", "3d", "Kh", "Qc"), ("8c", "8d", "7h", "6h", "Tc")),
        ("4h",),
        (),
        (EquityPot(((0, 2001),), (0, 1)),),
    )
    r = equity(spot)
    assert (r.method, r.boards) == ("exact", math.comb(41, 4))
    assert sum(r.totals) == 2001 * r.boards


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(spot=spots(b0s=(1, 3, 4)), mc=st.booleans())
def test_a_pots_equities_add_up_to_its_amount(spot: EquitySpot, mc: bool) -> None:
    r = equity(spot, method="mc" if mc else None, samples=500)
    for k, pot in enumerate(spot.pots):
        for run, amount in pot.runs:
            got = sum(s.total for s in r.shares if (s.pot, s.run) == (k, run))
            assert got == amount * r.boards
            assert math.isclose(sum(s.ev for s in r.shares if (s.pot, s.run) == (k, run)), amount)
    assert sum(r.totals) == sum(a for p in spot.pots for _, a in p.runs) * r.boards


@settings(max_examples=80, deadline=None, derandomize=True)
@given(spot=spots(b0s=(5,)))
def test_a_complete_board_gives_the_result(spot: EquitySpot) -> None:
    """No card to come: the equity is the settlement of that board, whatever the method."""
    r = equity(spot)
    assert r.boards == 1 and all(s.std_err == 0 for s in r.shares)
    assert {(s.pot, s.run, s.half, s.player): s.total for s in r.shares} == settle_board(
        spot, spot.holes, spot.board
    )


def test_a_locked_scoop_has_all_the_equity() -> None:
    """A royal flush made on the turn, and a board that can never make a low: certain scoop."""
    spot = EquitySpot(
        True,
        5,
        (("Th", "9h", "2c", "3c", "4d"), ("Ad", "As", "Kd", "Ks", "Qc")),
        ("Ah", "Kh", "Qh", "Jh"),
        (),
        (EquityPot(((0, 999),), (0, 1)),),
    )
    r = equity(spot)
    assert r.ev == (999.0, 0.0) and r.std_err == (0.0, 0.0)


def test_a_dead_draw_has_no_equity() -> None:
    """Drawing to the low, with every card that could make it known out of the deck."""
    holes = (("Kc", "Kd", "Ks", "Qd", "Qs"), ("Ac", "2d", "Jh", "Jd", "Td"))
    board = ("Kh", "9c", "5s", "3h")
    # the river could give player 1 a low with any 4, 6, 7 or 8, or a straight with a Queen:
    # all of them are dead
    dead = (*(r + s for r in "4678" for s in "cdhs"), "Qc", "Qh")
    r = equity(EquitySpot(True, 5, holes, board, dead, (EquityPot(((0, 400),), (0, 1)),)))
    assert r.ev == (400.0, 0.0)


def _permute_suits(cards: tuple[str, ...], perm: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(c[0] + SUITS[perm[SUITS.index(c[1])]] for c in cards)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(spot=spots(b0s=(1, 3, 4)), perm=st.permutations(range(4)))
def test_equity_is_blind_to_suit_names(spot: EquitySpot, perm: list[int]) -> None:
    p = tuple(perm)
    other = EquitySpot(
        spot.hilo,
        spot.hole_size,
        tuple(_permute_suits(h, p) for h in spot.holes),
        _permute_suits(spot.board, p),
        _permute_suits(spot.dead, p),
        spot.pots,
    )
    assert equity(other).totals == equity(spot).totals


@settings(max_examples=40, deadline=None, derandomize=True)
@given(spot=spots(b0s=(3, 4)))
def test_equity_follows_the_player_not_the_seat_order(spot: EquitySpot) -> None:
    """Heads-up with amounts that always split evenly: the odd-chip order cannot matter."""
    holes = spot.holes[:2]
    pots = (EquityPot(((0, 4000),), (0, 1)),)
    a = equity(EquitySpot(spot.hilo, spot.hole_size, holes, spot.board, spot.dead, pots))
    b = equity(EquitySpot(spot.hilo, spot.hole_size, holes[::-1], spot.board, spot.dead, pots))
    assert a.totals == b.totals[::-1]


def test_odd_chips_go_to_the_high_half_then_first_clockwise() -> None:
    """Both players make the same straight and the same low on this board: 1001 splits into a
    high half of 501 and a low half of 500; the odd chip of the high half goes to whoever comes
    first clockwise from the button (first in ``eligible``)."""
    a = ("2c", "3d", "9s", "9h", "Jc")
    b = ("2d", "3h", "9c", "9d", "Js")
    board = ("4c", "5d", "6h", "Kc", "Kd")
    first = equity(EquitySpot(True, 5, (a, b), board, (), (EquityPot(((0, 1001),), (0, 1)),)))
    assert first.ev == (501.0, 500.0)
    second = equity(EquitySpot(True, 5, (a, b), board, (), (EquityPot(((0, 1001),), (1, 0)),)))
    assert second.ev == (500.0, 501.0)
    halves = {(s.half, s.player): s.total for s in first.shares}
    assert halves == {("high", 0): 251, ("high", 1): 250, ("low", 0): 250, ("low", 1): 250}


def test_no_low_gives_the_whole_pot_to_high() -> None:
    spot = EquitySpot(
        True,
        5,
        (("As", "Ks", "2d", "3c", "Jh"), ("Qd", "Qc", "Td", "9c", "8s")),
        ("Kd", "Kh", "Qs", "Js", "9d"),
        (),
        (EquityPot(((0, 301),), (0, 1)),),
    )
    r = equity(spot)  # no low card on the board: kings full of jacks beats queens full, 301 to 0
    assert {(s.half, s.player): s.total for s in r.shares} == {
        ("high", 0): 301,
        ("high", 1): 0,
        ("low", 0): 0,
        ("low", 1): 0,
    }


def test_run_it_twice_is_the_sum_of_each_runs_equity() -> None:
    holes = (("As", "4s", "Ks", "Ad", "Qh"), ("7d", "6d", "Jh", "Ah", "5s"))
    board = ("7h", "5d", "3s")
    once = equity(EquitySpot(True, 5, holes, board, (), (EquityPot(((0, 16300),), (0, 1)),)))
    twice = equity(EquitySpot(True, 5, holes, board, (), (EquityPot(((1, 8151), (2, 8149)), (0, 1)),)))
    for i in (0, 1):
        by_run = [sum(s.total for s in twice.shares if s.player == i and s.run == run) for run in (1, 2)]
        assert sum(by_run) == twice.totals[i]
        assert math.isclose(twice.ev[i], once.ev[i], abs_tol=1.0)  # only odd chips differ


# --------------------------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, derandomize=True)
@given(spot=spots(b0s=(3, 4)))
def test_monte_carlo_is_within_its_standard_error(spot: EquitySpot) -> None:
    exact = equity(spot)
    mc = equity(spot, method="mc", samples=20_000, seed=7)
    assert (mc.method, mc.boards) == ("mc", 20_000)
    for e, m, se in zip(exact.ev, mc.ev, mc.std_err, strict=True):
        assert abs(m - e) <= 5 * se + 1e-9, (e, m, se)
    for s_exact, s_mc in zip(exact.shares, mc.shares, strict=True):
        assert abs(s_mc.ev - s_exact.ev) <= 5 * s_mc.std_err + 1e-9


def test_monte_carlo_is_reproducible_from_its_seed() -> None:
    spot = EquitySpot(
        True,
        5,
        (("Ah", "2h", "3c", "Kd", "Ks"), ("Qc", "Jc", "Tc", "9d", "8d")),
        (),
        (),
        (EquityPot(((0, 1000),), (0, 1)),),
    )
    a, b = equity(spot, method="mc", seed=11), equity(spot, method="mc", seed=11)
    assert a.method == "mc" and a == b
    assert equity(spot, method="mc", seed=12).totals != a.totals


def test_monte_carlo_figures_stay_those_of_their_seed() -> None:
    """A stored EV must come out the same when recomputed by a later version: the totals of two
    sampled spots (hi/lo heads-up; high only with a contender's cards half unknown), pinned as
    the first implementation computed them (regression: the draws were rewritten for speed).
    The first spot is counted exactly by default since pre-flop boards are counted by rank class;
    sampling it is still asked for explicitly, and must still give the pinned figures."""
    hilo = EquitySpot(
        True,
        4,
        (("Ah", "2h", "3c", "Kd"), ("Qc", "Jc", "Tc", "9d")),
        (),
        (),
        (EquityPot(((0, 1001),), (0, 1)),),
    )
    r = equity(hilo, method="mc", seed=11)
    assert (r.method, r.boards, r.totals) == ("mc", 20_000, (12538431, 7481569))
    unknown = EquitySpot(
        False,
        4,
        (("Ah", "Ad", "3c", "Kd"), ("Qc", "Jc"), ("Ts", "9s", "8h", "7h")),
        (),
        (),
        (EquityPot(((0, 900),), (0, 1, 2)),),
    )
    assert equity(unknown, seed=5).totals == (7016400, 4105350, 6878250)


@pytest.mark.parametrize(("n", "m", "k"), [(44, 5, 5), (42, 9, 5), (38, 13, 5), (47, 2, 2), (30, 3, 1)])
def test_monte_carlo_draws_are_uniform_distinct_values_in_draw_order(n: int, m: int, k: int) -> None:
    """Draw ``i`` takes the ``v``-th value not drawn yet, ``v`` uniform below ``n - i``: the
    vectorised draw equals that rule applied row by row, and its second result is each row's
    first ``k`` values sorted."""
    size = 500
    drawn, head = E._draw(np.random.default_rng(7), n, m, size, k)
    rng = np.random.default_rng(7)
    picks = [rng.integers(0, n - i, size=size) for i in range(m)]
    for row in range(size):
        left = list(range(n))
        expect = [left.pop(int(picks[i][row])) for i in range(m)]
        assert drawn[row].tolist() == expect
        assert head[row].tolist() == sorted(expect[:k])


@pytest.mark.parametrize(("n", "s"), [(3, 3), (9, 1), (9, 2), (20, 3), (44, 3), (47, 2)])
def test_subset_ranks_are_lexicographic(n: int, s: int) -> None:
    table = E._rank_table(n, s)
    subsets = E._combos(n, s)
    ranks = sum(table[e][subsets[:, e]] for e in range(s))
    assert np.array_equal(ranks, np.arange(len(subsets)))


@pytest.mark.parametrize(("n", "b0"), [(9, 0), (9, 1), (9, 2), (9, 3), (9, 4), (41, 3), (40, 4), (44, 1)])
def test_plan_groups_are_the_best_of_their_triples(n: int, b0: int) -> None:
    """Every triple of ``j`` unseen and ``3 - j`` known cards listed once, and each group (a
    ``j``-subset of the unseen cards, :func:`_combos` order after the groups of smaller ``j``)
    the largest value of the triples whose unseen part it is: fails when a run's places are
    read across groups or a run is left out."""
    plan = E._plan(n, b0)
    a, b, c = plan.cols
    triples = [tuple(sorted(t)) for t in zip(a.tolist(), b.tolist(), c.tolist(), strict=True)]
    jmin = max(0, 3 - b0)
    expect = [
        tuple(sorted((*k, *(x + b0 for x in u))))
        for j in range(jmin, plan.s + 1)
        for u in itertools.combinations(range(n), j)
        for k in itertools.combinations(range(b0), 3 - j)
    ]
    assert sorted(triples) == sorted(expect) and len(set(triples)) == len(triples)
    group_of: dict[tuple[int, ...], int] = {}
    for j in range(jmin, plan.s + 1):
        for u in itertools.combinations(range(n), j):
            group_of[u] = len(group_of)
    values = np.random.default_rng(n * 7 + b0).integers(
        -(2**30), 2**30, size=(3, len(triples)), dtype=np.int32
    )
    want = np.full((3, len(group_of)), np.iinfo(np.int32).min, dtype=np.int32)
    for t, triple in enumerate(triples):
        g = group_of[tuple(x - b0 for x in triple if x >= b0)]
        want[:, g] = np.maximum(want[:, g], values[:, t])
    assert np.array_equal(E._groups(values, plan), want)


def test_unknown_hole_cards_are_dealt_at_random() -> None:
    """A contender who mucked unseen: Monte Carlo over their possible hands and the board,
    against the exact average over every hand and board (a deck thinned by dead cards)."""
    deck = list(FULL_DECK)
    holes = (tuple(deck[0:5]), tuple(deck[5:10]), ())
    board = tuple(deck[10:14])
    dead = tuple(deck[14:42])  # leaves 10 unseen: C(10, 5) * 5 = 1260 deals
    spot = EquitySpot(True, 5, holes, board, dead, (EquityPot(((0, 900),), (0, 1, 2)),))
    with pytest.raises(ValueError, match="every contender"):
        equity(spot, method="exact")
    mc = equity(spot, samples=20_000, seed=3)
    assert mc.method == "mc"
    n, totals = brute_force_unknown(spot)
    for i in range(3):
        exact = sum(v for (_, _, _, p), v in totals.items() if p == i) / n
        assert abs(mc.ev[i] - exact) <= 5 * mc.std_err[i], (i, mc.ev[i], exact)


def test_the_method_rule() -> None:
    assert E.choose_method(41, 4, True) == "exact"  # pre-flop Courchevel heads-up
    assert E.choose_method(21, 4, True) == "exact"  # six-handed
    assert E.choose_method(39, 2, True) == "exact" and E.choose_method(38, 1, True) == "exact"
    # Pre-flop with no board card known: counted by rank class, however many boards.
    assert E.choose_method(42, 5, True) == "exact"  # pre-flop 5 Card Omaha heads-up
    assert E.choose_method(44, 5, True) == "exact"  # pre-flop Omaha heads-up
    assert E.choose_method(22, 5, True) == "exact"  # six-handed: C(22, 5) boards
    assert E.choose_method(44, 5, False) == "mc"  # a contender's cards unknown
    assert E.choose_method(38, 1, False) == "mc"  # a contender's cards unknown
    assert math.comb(47, 4) <= E.EXACT_MAX_BOARDS < math.comb(42, 5)


def test_impossible_spots_are_refused() -> None:
    pot = (EquityPot(((0, 10),), (0, 1)),)
    with pytest.raises(ValueError, match="known twice"):
        equity(
            EquitySpot(True, 5, (("As", "Ks", "Qs", "Js", "Ts"), ("As", "2c", "3c", "4c", "5c")), (), (), pot)
        )
    with pytest.raises(ValueError, match="not a card"):
        equity(
            EquitySpot(True, 5, (("Xx", "Ks", "Qs", "Js", "Ts"), ("Ac", "2c", "3c", "4c", "5c")), (), (), pot)
        )
    with pytest.raises(ValueError, match="names no contender"):
        equity(EquitySpot(True, 5, (("As", "Ks", "Qs", "Js", "Ts"),), (), (), pot))


# --------------------------------------------------------------------------------------------
# Pre-flop boards counted by rank class
# --------------------------------------------------------------------------------------------


def _deal(
    hole_size: int, n_players: int, seed: int
) -> tuple[list[str], tuple[tuple[str, ...], ...], int, list[EquityPot]]:
    """A shuffled deck, each player's hole cards from its top, where the rest starts, and the
    pots (a main pot for all, a side pot without player 0 when three or more play)."""
    rng = np.random.default_rng(seed)
    deck = [FULL_DECK[i] for i in rng.permutation(52)]
    holes = tuple(tuple(deck[i * hole_size : (i + 1) * hole_size]) for i in range(n_players))
    pots = [EquityPot(((0, 1001 + seed),), tuple(range(n_players)))]
    if n_players > 2:
        pots.append(EquityPot(((1, 300), (2, 299)), tuple(range(1, n_players))))
    return deck, holes, n_players * hole_size, pots


def _every_board(spot: EquitySpot, monkeypatch: pytest.MonkeyPatch) -> E.EquityResult:
    """The same spot with every board listed and evaluated (the enumeration the rank classes
    replace for pre-flop spots)."""
    with monkeypatch.context() as m:
        m.setattr(E, "_BY_RANK_CLASS", False)
        return equity(spot, method="exact")


@pytest.mark.parametrize(
    ("hole_size", "n_players", "hilo", "dead", "seed"),
    [
        (4, 2, True, 0, 1),
        (4, 2, False, 0, 2),
        (4, 3, True, 4, 3),
        (5, 2, True, 0, 4),
        (6, 2, False, 6, 5),
        (4, 4, True, 12, 6),
        (5, 3, False, 10, 7),
        (4, 9, True, 0, 8),  # nine players hi/lo, a side pot: outcomes too many for one small integer
        (6, 2, True, 8, 9),  # 6 Card hi/lo heads-up, dead cards
        (5, 3, True, 0, 10),  # hi/lo, a heads-up side pot run twice beside the three-way main pot
    ],
)
def test_preflop_rank_classes_count_every_board(
    hole_size: int, n_players: int, hilo: bool, dead: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pre-flop with no board card known: the rank classes (the flushes counted apart, per suit,
    ranks of that suit and the others' rank multiset) give every share of every pot, half and run
    exactly as listing every one of the (up to a million) boards does."""
    deck, holes, at, pots = _deal(hole_size, n_players, seed)
    spot = EquitySpot(hilo, hole_size, holes, (), tuple(deck[at : at + dead]), tuple(pots))
    fast = equity(spot)
    slow = _every_board(spot, monkeypatch)
    assert (fast.method, fast.boards) == ("exact", math.comb(52 - at - dead, 5))
    assert fast.boards == slow.boards and fast.totals == slow.totals
    assert fast.shares == slow.shares


def test_preflop_flush_boards_leave_their_rank_class() -> None:
    """Both players hold two hearts: a board of three hearts gives each a flush, which a rank
    class alone would miss (against the brute force over a thinned deck)."""
    holes = (("Ah", "Kh", "2c", "3d"), ("Qh", "Jh", "Qc", "Qd"))
    used = {c for h in holes for c in h}
    keep = {"Th", "9h", "8h", "2h", "Ks", "Kd", "7c", "4s", "5s", "6d"}
    dead = tuple(c for c in FULL_DECK if c not in used and c not in keep)
    spot = EquitySpot(True, 4, holes, (), dead, (EquityPot(((0, 999),), (0, 1)),))
    assert _exact_totals(spot) == brute_force(spot)
    assert equity(spot).method == "exact"


@pytest.mark.parametrize("hilo", [True, False])
@pytest.mark.parametrize(
    ("holes", "pots"),
    [
        # Spades: only the first player holds two (straight flushes possible: the wheel, the
        # royal); the second's pairs make full houses that beat a plain flush.
        ((("As", "Ks", "5s", "4s"), ("Qd", "Qc", "7h", "7s")), ((0, 1),)),
        # The lone flusher's only suited pair (King, Deuce) fits in no straight: no straight flush.
        ((("Ks", "2s", "9d", "4c"), ("Qd", "Qc", "7h", "7s")), ((0, 1),)),
        # Each player alone holds two cards of two suits (spades and hearts, diamonds and clubs):
        # a player's plain flushes of both suits are settled together.
        ((("As", "5s", "Kh", "Th"), ("Qd", "2d", "Qc", "7c")), ((0, 1),)),
        # Three-way: a lone flusher in spades and another in diamonds, who alone is in the side
        # pot with the full-house player (the flusher second in its odd-chip order).
        (
            (("As", "Ks", "5s", "4s"), ("Qd", "Qc", "7h", "7s"), ("Jd", "Td", "9c", "8h")),
            ((0, 1, 2), (1, 2)),
        ),
    ],
)
def test_preflop_lone_flusher_counted_per_rank_class(
    holes: tuple[tuple[str, ...], ...],
    pots: tuple[tuple[int, ...], ...],
    hilo: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A suit in which one contender alone holds two cards is settled per rank class: the plain
    flush wins the high unless another eligible player has a full house or better; a straight
    flush is still counted board by board. Every share as listing every board gives it."""
    used = {c for h in holes for c in h}
    dead = tuple(c for c in ("2c", "3c", "4c", "5c", "6c", "8c", "Tc", "Jc") if c not in used)
    spot = EquitySpot(
        hilo,
        4,
        holes,
        (),
        dead,
        tuple(EquityPot(((0, 1000 + 7 * k),), e) for k, e in enumerate(pots)),
    )
    fast = equity(spot)
    slow = _every_board(spot, monkeypatch)
    assert fast.boards == slow.boards and fast.totals == slow.totals
    assert fast.shares == slow.shares


@settings(max_examples=12, deadline=None, derandomize=True)
@given(spot=spots(b0s=(0,)))
def test_preflop_sampling_stays_within_its_stated_bound(spot: EquitySpot) -> None:
    """The documented bound of a sampled equity (``MC_SAMPLES``: a standard error of at most
    0.5 / sqrt(MC_SAMPLES) of the pot) against the exact value now computed for the same spot:
    each player's estimate within four of its standard errors, which are within the bound."""
    exact = equity(spot)
    mc = equity(spot, method="mc", seed=5)
    assert exact.method == "exact" and (mc.method, mc.boards) == ("mc", E.MC_SAMPLES)
    total = sum(a for p in spot.pots for _, a in p.runs)
    for e, m, se in zip(exact.ev, mc.ev, mc.std_err, strict=True):
        assert se <= 0.5 / math.sqrt(E.MC_SAMPLES) * total + 1e-9
        assert abs(m - e) <= 4 * se + 1e-9, (e, m, se)


@pytest.mark.parametrize(
    ("hole_size", "n_players", "hilo", "dead", "seed"),
    [
        (5, 2, True, 0, 21),
        (5, 2, False, 0, 22),
        (5, 3, True, 5, 23),  # a heads-up side pot run twice beside the three-way main pot
        (4, 2, True, 3, 24),
        (6, 2, False, 9, 25),
        (5, 4, True, 0, 26),
        (6, 3, True, 2, 27),
    ],
)
def test_known_card_rank_classes_count_every_board(
    hole_size: int, n_players: int, hilo: bool, dead: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pre-flop Courchevel (the exposed card known, four to come): the rank classes of the known
    rank with the new ones, the flushes counted apart per suit (the known card's suit needing two
    new cards of it, any other three), give every share exactly as listing every board does."""
    deck, holes, at, pots = _deal(hole_size, n_players, seed)
    spot = EquitySpot(hilo, hole_size, holes, (deck[at],), tuple(deck[at + 1 : at + 1 + dead]), tuple(pots))
    fast = equity(spot)
    slow = _every_board(spot, monkeypatch)
    assert (fast.method, fast.boards) == ("exact", math.comb(52 - at - 1 - dead, 4))
    assert fast.boards == slow.boards and fast.totals == slow.totals
    assert fast.shares == slow.shares


def test_known_card_flushes_leave_their_rank_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exposed card is a heart and both players hold two hearts: two more hearts make each a
    flush (a third suit's flush needs three new cards); a board without them is its class."""
    holes = (("Ah", "Kh", "2c", "3d", "4s"), ("Qh", "Jh", "Qc", "Qd", "9s"))
    for door in ("Th", "Tc"):
        spot = EquitySpot(True, 5, holes, (door,), (), (EquityPot(((0, 999),), (0, 1)),))
        fast = equity(spot)
        slow = _every_board(spot, monkeypatch)
        assert fast.totals == slow.totals and fast.shares == slow.shares


def test_preflop_rank_classes_with_a_suit_nearly_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most of a suit dead or held: the sets of that suit's ranks a board can still hold are the
    few left (down to none of five, or of three), found by their rank masks, exactly as listing
    every board finds them (hi/lo, both players with two cards of each short suit)."""
    holes = (("Ah", "Kh", "Ac", "2c", "Qs", "3s"), ("Qh", "Jh", "Kc", "3c", "Js", "4s"))
    dead = ("Th", "9h", "8h", "7h", "6h", "5h", "4h", "2h", "Qc", "Jc", "Tc", "9c", "8c", "7c", "6c")
    spot = EquitySpot(True, 6, holes, (), dead, (EquityPot(((0, 1001),), (0, 1)),))
    fast = equity(spot)
    slow = _every_board(spot, monkeypatch)
    assert fast.method == "exact" and fast.totals == slow.totals and fast.shares == slow.shares


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    values=st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 5),
            st.sampled_from((3, 5, 9, 256)),
            st.sampled_from((3, 9, 256)),
        ),
        min_size=1,
        max_size=30,
    ),
    hilo=st.booleans(),
)
def test_heads_up_pot_codes_are_the_general_ones(values: list[tuple[int, int, int, int]], hilo: bool) -> None:
    """A pot between two players takes its winners' masks from the sign of a difference; they are
    the masks the comparison with the best of every eligible player gives (ties, no low on
    either side or both), so the outcome counted is the same."""
    a_hi, b_hi, a_lo, b_lo = (np.array(col, dtype=np.int32) for col in zip(*values, strict=True))
    spot = EquitySpot(hilo, 4, ((), ()), (), (), (EquityPot(((0, 10),), (1, 0)),))
    codes, widths = E._pot_codes(spot, {0: a_hi, 1: b_hi}, {0: a_lo, 1: b_lo})
    hi = np.stack([b_hi, a_hi])  # pot order: player 1 first
    want = E._winner_code(hi == hi.max(axis=0))
    if hilo:
        lo = np.stack([b_lo, a_lo])
        best = lo.min(axis=0)
        want |= E._winner_code((lo == best) & (best < E.NO_LOW)) << 2
    assert widths == [4 if hilo else 2]
    assert codes[0].dtype == np.int64 and codes[0].tolist() == want.tolist()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(deck=st.permutations(FULL_DECK), n_hole=st.sampled_from((4, 5, 6)), hilo=st.booleans())
def test_class_values_are_the_best_over_every_triple(deck: list[str], n_hole: int, hilo: bool) -> None:
    """A rank class's best high and low, taken over four of its four-rank parts, are the best over
    all ten of its triples (each players' row, every one of the 6,175 classes)."""
    holes = np.stack([_ids(deck[:n_hole]), _ids(deck[n_hole : 2 * n_hole])])
    p = E._players(holes)
    rc = E._rank_classes()
    nf, lo = E._class_values(p, rc, hilo)
    assert (nf == p.nf[:, rc.ms].max(axis=1)).all()
    want_lo = p.lo[:, rc.lm].min(axis=1) if hilo else np.full(nf.shape, E.NO_LOW)
    assert (lo == want_lo).all()


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 9),
    rows=st.lists(
        st.tuples(st.integers(0, 10**9), st.integers(0, 511), st.integers(-(10**6), 10**6)), max_size=20
    ),
)
def test_weighted_split_is_the_sum_of_the_weighted_splits(n: int, rows: list[tuple[int, int, int]]) -> None:
    """The exact settlement's totals (``_weighted_split``) are each outcome's split
    (``_split_mask``: odd units to the first winners) times its boards, summed, for any masks
    (none, one or several winners; a weight may be negative: a correction)."""
    amounts = [a for a, _, _ in rows]
    masks = [m & ((1 << n) - 1) for _, m, _ in rows]
    weights = [w for _, _, w in rows]
    want = [0] * n
    for amount, mask, w in zip(amounts, masks, weights, strict=True):
        for e, x in enumerate(E._split_mask(amount, mask, n)):
            want[e] += w * x
    assert E._weighted_split(amounts, masks, weights, n) == want


@settings(max_examples=50, deadline=None)
@given(row=st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=100), times=st.integers(0, 300))
def test_tiled_is_numpys_tile(row: list[int], times: int) -> None:
    a = np.array(row, dtype=np.int64)
    got = E._tiled(a, times)
    assert got.dtype == np.int64 and got.tolist() == np.tile(a, times).tolist()


def test_triple_code_is_each_triples_features() -> None:
    """:data:`TRIPLE_CODE` (built at import from the ranks' and the suits' parts, stop 37) holds,
    for every ordered card triple, its rank multiset, low mask, common suit and rank mask as its
    docstring packs them: checked against each triple's cards one by one."""
    low_of = {12: 1, **{r: 1 << (r + 1) for r in range(7)}}
    assert E.TRIPLE_CODE.shape == (52**3,) and E.TRIPLE_CODE.dtype == np.int64
    for a, b, c in itertools.product(range(52), repeat=3):
        ranks, suits = [a >> 2, b >> 2, c >> 2], {a & 3, b & 3, c & 3}
        lows = {low_of[r] for r in ranks if r in low_of}
        low = sum(lows) if len(lows) == 3 else 0
        mask = sum(1 << r for r in set(ranks))
        ms = int(E.MS3[169 * ranks[0] + 13 * ranks[1] + ranks[2]])
        assert list(E._MS3_RANKS[ms]) == sorted(ranks)
        suit = (suits.pop() + 1) if len(suits) == 1 else 0
        assert int(E.TRIPLE_CODE[2704 * a + 52 * b + c]) == ms | low << 9 | suit << 17 | mask << 20
