"""The compiled equity kernel (``hhparse/rules/_equity_kernel.c``) against its numpy reference.

The kernel counts a pre-flop spot's boards by rank class exactly as ``_preflop_counts`` and
``_known_card_counts`` do in numpy (which the equity tests compare with listing every board), and
lists a flop's or turn's boards as ``_values_for`` and ``_outcomes`` do: the same outcomes and the
same boards for each, so every equity is identical whichever runs. A pure-Python install has no
kernel and runs the numpy code; these comparisons then skip, and the rest of the equity tests
test the numpy code.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hhparse.rules import equity as E
from hhparse.rules.cards import FULL_DECK
from hhparse.rules.equity import EquityPot, EquitySpot, equity

sys.path.insert(0, str(Path(__file__).parent))
from _cache_helpers import damaged_copy, resigned
from equity_reference import brute_force

needs_kernel = pytest.mark.skipif(E._equity_kernel is None, reason="pure-Python install: no compiled kernel")


def test_a_compiled_build_has_the_kernel() -> None:
    """CI builds with ``HHPARSE_COMPILE=1``: the kernel must then be there (a build that dropped
    it would still pass every other test, on the numpy counting, only slower)."""
    if os.environ.get("HHPARSE_COMPILE", "").strip() != "1":
        pytest.skip("not a build that must compile")
    assert E._equity_kernel is not None


def _counted(spot: EquitySpot, kernel: bool, monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[int], int]]:
    """The spot's outcomes and their boards from one of the two countings, in outcome order
    (``_preflop_counts``, or ``_known_card_counts`` when the spot has a board card)."""
    holes = [[E.CARD_INDEX[c] for c in h] for h in spot.holes]
    known = np.array([E.CARD_INDEX[c] for c in spot.board], dtype=np.int64)
    seen = {*known.tolist(), *(E.CARD_INDEX[c] for c in spot.dead), *(c for h in holes for c in h)}
    unseen = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    rows = sorted({i for pot in spot.pots if len(pot.eligible) > 1 for i in pot.eligible})
    rows_holes = np.array([holes[i] for i in rows])
    with monkeypatch.context() as m:
        m.setattr(E, "_USE_KERNEL", kernel)
        if len(known):
            if kernel:
                assert E._kernel_known_counts(spot, rows_holes, rows, unseen, known) is not None
            outcomes, counts = E._known_card_counts(spot, rows_holes, rows, unseen, known)
        else:
            if kernel:
                assert E._kernel_counts(spot, rows_holes, rows, unseen) is not None
            outcomes, counts = E._preflop_counts(spot, rows_holes, rows, unseen)
    return sorted(zip(outcomes, counts, strict=True))


@st.composite
def preflop_spots(draw: st.DrawFn, b0: int = 0) -> EquitySpot:
    """Pre-flop spots of every shape the kernel takes: 2-5 contenders, 4-6 hole cards, hi/lo or
    high, dead cards, side pots whose odd-chip order is any order of their players, runs twice,
    a pot only one player can win; ``b0`` board cards known (Courchevel's exposed card: 1).
    ``flushy`` deals the cards mostly from two suits, so that suits held by two contenders, lone
    flushers, straight flushes and an exposed card of a flush suit are common."""
    deck = list(draw(st.permutations(FULL_DECK)))
    if draw(st.booleans()):  # flushy
        suits = draw(st.sampled_from(("hs", "cd", "sd", "hc")))
        deck = [c for c in deck if c[1] in suits] + [c for c in deck if c[1] not in suits]
    n_players = draw(st.sampled_from((2, 2, 2, 3, 4, 5)))
    hole_size = draw(st.sampled_from((4, 5, 6)))
    holes = tuple(tuple(deck[i * hole_size : (i + 1) * hole_size]) for i in range(n_players))
    at = n_players * hole_size
    board = tuple(deck[at : at + b0])
    at += b0
    # (found when the test's source changed its derandomized draws: 30 hole cards and 20 dead left
    # too few cards for a board, a spot equity rightly refuses)
    n_dead = min(draw(st.sampled_from((0, 0, 3, 8, 20))), 52 - at - (5 - b0))
    dead = tuple(deck[at : at + n_dead])
    pots = [EquityPot(((0, draw(st.integers(1, 9999))),), tuple(draw(st.permutations(range(n_players)))))]
    for size in range(n_players - 1, 1, -1):  # side pots among fewer and fewer players
        if draw(st.booleans()):
            players = draw(st.permutations(range(n_players)))[:size]
            pots.append(
                EquityPot(((1, draw(st.integers(1, 999))), (2, draw(st.integers(1, 999)))), tuple(players))
            )
    if draw(st.booleans()):
        pots.append(EquityPot(((0, draw(st.integers(1, 50))),), (n_players - 1,)))
    return EquitySpot(draw(st.booleans()), hole_size, holes, board, dead, tuple(pots))


def _counts_and_equity_as_numpy(spot: EquitySpot) -> None:
    """The kernel's outcomes and boards are numpy's, and so is the equity settled from them."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _counted(spot, True, monkeypatch) == _counted(spot, False, monkeypatch)
        monkeypatch.setattr(E, "_USE_KERNEL", False)
        reference = equity(spot)
    assert equity(spot) == reference


@needs_kernel
@settings(max_examples=150, deadline=None, derandomize=True)
@given(spot=preflop_spots())
def test_the_kernel_counts_every_outcome_as_numpy_does(spot: EquitySpot) -> None:
    """Same outcomes, same boards for each: every share of every pot, half and run identical."""
    _counts_and_equity_as_numpy(spot)


@needs_kernel
@settings(max_examples=100, deadline=None, derandomize=True)
@given(spot=preflop_spots(b0=1))
def test_the_kernel_counts_a_known_cards_boards_as_numpy_does(spot: EquitySpot) -> None:
    """Pre-flop Courchevel (the exposed card known, four to come): the same outcomes and boards."""
    _counts_and_equity_as_numpy(spot)


@needs_kernel
@settings(max_examples=150, deadline=None, derandomize=True)
@given(spot=preflop_spots(b0=3) | preflop_spots(b0=4) | preflop_spots(b0=2))
def test_the_kernel_lists_the_flops_and_turns_boards_as_numpy_does(spot: EquitySpot) -> None:
    """The flop and the turn (and two known cards, which no game deals but the engine takes):
    every board listed, the same outcomes and boards, identical results."""
    holes = [[E.CARD_INDEX[c] for c in h] for h in spot.holes]
    known = np.array([E.CARD_INDEX[c] for c in spot.board], dtype=np.int64)
    seen = {*known.tolist(), *(E.CARD_INDEX[c] for c in spot.dead), *(c for h in holes for c in h)}
    unseen = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    assume(len(unseen) >= 5 - len(known))  # else no board: refused by both
    rows = sorted({i for pot in spot.pots if len(pot.eligible) > 1 for i in pot.eligible})
    listed = E._kernel_listed(spot, np.array([holes[i] for i in rows]), rows, unseen, known)
    assert listed is not None
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(E, "_USE_KERNEL", False)
        reference = equity(spot)
        hole_rows = np.stack([np.array(holes[i]) for i in rows])
        his, los = E._values_for(E._players(hole_rows), known, unseen, None, spot.hilo)
    assert equity(spot) == reference
    outcomes, counts = E._outcomes(
        spot,
        {i: his[r] for r, i in enumerate(rows)},
        {i: los[r] for r, i in enumerate(rows)},
        reference.boards,
    )
    assert sorted(zip(*listed, strict=True)) == sorted(zip(outcomes, counts, strict=True))


@needs_kernel
def test_outcomes_too_wide_for_the_kernel_are_counted_in_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine players hi/lo with four side pots: the winners' masks take 70 bits, more than the
    kernel packs in one integer; numpy counts them (the spot's boards few enough to check by
    brute force)."""
    rng = np.random.default_rng(7)
    deck = [FULL_DECK[i] for i in rng.permutation(52)]
    holes = tuple(tuple(deck[4 * i : 4 * i + 4]) for i in range(9))
    pots = tuple(EquityPot(((0, 100 + k),), tuple(range(k, 9))) for k in range(5))
    spot = EquitySpot(True, 4, holes, (), (), pots)
    assert sum(2 * len(p.eligible) for p in pots) > E._KERNEL_MAX_BITS
    rows = list(range(9))
    unseen = np.array(sorted(E.CARD_INDEX[c] for c in deck[36:]), dtype=np.int64)
    assert (
        E._kernel_counts(spot, np.array([[E.CARD_INDEX[c] for c in h] for h in holes]), rows, unseen) is None
    )
    r = equity(spot)
    assert (r.method, r.boards) == ("exact", math.comb(16, 5))
    assert (r.boards, {(s.pot, s.run, s.half, s.player): s.total for s in r.shares}) == brute_force(spot)


@needs_kernel
def test_the_kernel_refuses_what_is_not_a_spot() -> None:
    """Malformed input is refused, never read out of bounds."""
    assert E._equity_kernel is not None
    E._kernel_tables()
    holes = bytes([0, 1, 2, 3, 4, 5, 6, 7])
    unseen = bytes(range(8, 52))
    assert E._equity_kernel.counts(holes, 4, unseen, bytes([2, 0, 1]), True)[1]  # a good spot counts
    bad = [
        (bytes([0, 1, 2, 3, 4, 5, 6, 0]), 4, unseen, bytes([2, 0, 1])),  # a card held twice
        (holes, 4, bytes(range(7, 52)), bytes([2, 0, 1])),  # a held card unseen
        (holes, 4, bytes([60]), bytes([2, 0, 1])),  # not a card
        (holes, 3, unseen, bytes([2, 0, 1])),  # rows of unequal size
        (holes, 4, unseen, bytes([2, 0, 2])),  # a row out of range
        (holes, 4, unseen, bytes([3, 0, 1])),  # a pot cut short
        (holes, 4, unseen, b""),  # no contested pot
    ]
    for args in bad:
        with pytest.raises(ValueError):
            E._equity_kernel.counts(*args, True)
    assert E._equity_kernel.counts_known(holes, 4, unseen[1:], 8, bytes([2, 0, 1]), True)[1]
    for known in (7, 8, 52, -1):  # held, also unseen, not a card
        with pytest.raises(ValueError):
            E._equity_kernel.counts_known(holes, 4, unseen, known, bytes([2, 0, 1]), True)
    assert E._equity_kernel.listed(holes, 4, unseen[3:], unseen[:3], bytes([2, 0, 1]), True)[1]
    for board in (b"", unseen[:1], unseen[:5], bytes([7, 8, 9]), bytes([60, 9, 10])):
        with pytest.raises(ValueError):  # too few or many known cards; known twice; not a card
            E._equity_kernel.listed(holes, 4, unseen[3:], board, bytes([2, 0, 1]), True)


@needs_kernel
def test_tables_of_the_wrong_size_are_refused_and_the_loaded_ones_kept() -> None:
    assert E._equity_kernel is not None
    tables = E._kernel_tables()
    spot = (bytes([0, 1, 2, 3, 4, 5, 6, 7]), 4, bytes(range(8, 52)), bytes([2, 0, 1]), True)
    before = E._equity_kernel.counts(*spot)
    with pytest.raises(ValueError):
        E._equity_kernel.load((*tables[:-1], tables[-1][:-1]))
    with pytest.raises(ValueError):  # an index out of its table's range
        E._equity_kernel.load((tables[0], tables[1], tables[2], tables[3] + 1000, *tables[4:]))
    with pytest.raises(TypeError):
        E._equity_kernel.load(tuple(t.astype(np.int64) for t in tables))
    assert E._equity_kernel.counts(*spot) == before


@st.composite
def counted_outcomes(draw: st.DrawFn) -> tuple[EquitySpot, list[int], list[int]]:
    """A spot's pots (1-4 of them, 2-5 eligible players each in any odd-chip order, one or two
    runs, hi/lo or high, a pot one player alone can win) with outcomes drawn at random, packed as
    the kernel packs them (:func:`equity._joint`), and boards for each: what the settlement takes,
    with every kind of tie and no-low board, not only those cards can deal."""
    hilo = draw(st.booleans())
    n_players = draw(st.integers(2, 5))
    pots = []
    for _ in range(draw(st.integers(1, 4))):
        eligible = draw(st.permutations(range(n_players)))[: draw(st.integers(1, n_players))]
        if draw(st.booleans()):
            runs: tuple[tuple[int, int], ...] = ((0, draw(st.integers(0, 10**6))),)
        else:
            runs = ((1, draw(st.integers(0, 999))), (2, draw(st.integers(0, 999))))
        pots.append(EquityPot(runs, tuple(eligible)))
    if all(len(p.eligible) == 1 for p in pots):
        pots.append(EquityPot(((0, 7),), (0, 1)))
    spot = EquitySpot(hilo, 4, tuple(("2c",) * 4 for _ in range(n_players)), (), (), tuple(pots))
    widths = E._pot_widths(spot)
    keys = set()
    for _ in range(draw(st.integers(1, 12))):
        key = shift = 0
        for width in widths:
            n = width // 2 if hilo else width
            high = draw(st.integers(1, (1 << n) - 1))  # some player wins the high
            low = draw(st.integers(0, (1 << n) - 1)) if hilo else 0  # 0: no low qualifies
            key |= (high | low << n) << shift
            shift += width
        keys.add(key)
    ordered = sorted(keys)
    return spot, ordered, [draw(st.integers(1, 2 * 10**6)) for _ in ordered]


@needs_kernel
@settings(max_examples=300, deadline=None, derandomize=True)
@given(case=counted_outcomes())
def test_the_kernel_settles_counted_outcomes_as_settle_does(
    case: tuple[EquitySpot, list[int], list[int]],
) -> None:
    """Every share's exact total and every player's total from the kernel's settlement equal
    ``_settle``'s (odd chips to the first winners, the odd chip of a hi/lo pot to the high half,
    a no-low board's whole pot to the high hand)."""
    spot, keys, counts = case
    boards = sum(counts)
    got = E._kernel_settle(spot, keys, counts, boards)
    assert got is not None
    totals, shares, err = E._settle(spot, E._decode(keys, E._pot_widths(spot)), counts, boards, False)
    expected = E.EquityResult(
        "exact", boards, tuple(t / boards for t in totals), tuple(err), tuple(shares), tuple(totals)
    )
    assert got == expected


@needs_kernel
def test_totals_beyond_64_bits_are_settled_in_python() -> None:
    """A pot so large that its total over the boards passes 2 ** 63: the kernel refuses it
    (OverflowError) and ``_settle``'s Python integers settle the spot, exactly."""
    assert E._equity_kernel is not None
    spot = EquitySpot(False, 4, (("2c",) * 4, ("3c",) * 4), (), (), (EquityPot(((0, 10**13 + 1),), (0, 1)),))
    keys, counts = [1, 3], [10**6, 10**6 + 1]
    with pytest.raises(OverflowError):
        E._equity_kernel.settle(keys, counts, bytes([2]), ((10**13 + 1,),), False)
    assert E._kernel_settle(spot, keys, counts, 2 * 10**6 + 1) is None
    holes = (("Ac", "Ad", "Kc", "Kd"), ("2h", "3h", "7s", "8s"))
    big = EquitySpot(True, 4, holes, ("4c", "5d", "9h"), (), (EquityPot(((0, 2**62 + 3),), (1, 0)),))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(E, "_USE_KERNEL", False)
        reference = equity(big)
    assert equity(big) == reference
    assert sum(reference.totals) == (2**62 + 3) * reference.boards


@needs_kernel
def test_the_kernels_settlement_refuses_malformed_input() -> None:
    assert E._equity_kernel is not None
    settle = E._equity_kernel.settle
    # the first player wins 3 boards, then the two tie on 4 (3 and 2: the odd chip to the first)
    assert settle([1, 3], [3, 4], bytes([2]), ((5,),), False) == [27, 8]
    bad = [
        ([1, 2], [3], bytes([2]), ((5,),)),  # keys and counts of different lengths
        ([1], [3], bytes([2, 2]), ((5,),)),  # pots and amounts of different lengths
        ([1], [3], bytes([1]), ((5,),)),  # a pot one player wins is not contested
        ([1], [3], bytes([40, 40]), ((5,), (5,))),  # wider than 62 bits
        ([1], [3], bytes([2]), ((-5,),)),  # a negative amount
    ]
    for args in bad:
        with pytest.raises(ValueError):
            settle(*args, False)
    with pytest.raises(OverflowError):
        settle([-1], [3], bytes([2]), ((5,),), False)  # not a packed outcome


@needs_kernel
@pytest.mark.parametrize("hole_size", [2, 4, 5, 6])
def test_the_kernel_values_hands_on_their_boards_as_numpy_does(hole_size: int) -> None:
    """``hand_values`` (Monte Carlo's drawn hands and boards) from the kernel equals the numpy
    code's, high and low, row by row; so does one hand on every board (a known contender). Rows
    dealt from two suits half the time, so that flushes and straight flushes are common."""
    rng = np.random.default_rng(hole_size)
    rows = []
    for r in range(3000):
        deck = rng.permutation(52)
        if r % 2:  # two suits first
            two = rng.permutation(4)[:2]
            mine = np.isin(deck % 4, two)
            deck = np.concatenate([deck[mine], deck[~mine]])
        rows.append(deck[: hole_size + 5])
    cards = np.array(rows, dtype=np.int64)
    holes, boards = cards[:, :hole_size], cards[:, hole_size:]
    for hilo in (False, True):
        got = E.hand_values(holes, boards, hilo)
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(E, "_USE_KERNEL", False)
            expected = E.hand_values(holes, boards, hilo)
        for a, b in zip(got, expected, strict=True):
            assert a.dtype == b.dtype
            assert np.array_equal(a, b)
        # one hand on every board (rows sharing a card with it too: it is a look-up all the same)
        for hand in holes[1:80:2]:  # flushy hands
            fixed = E._kernel_hand_values(hand.astype(np.uint8).tobytes(), hole_size, boards, hilo)
            with pytest.MonkeyPatch.context() as monkeypatch:
                monkeypatch.setattr(E, "_USE_KERNEL", False)
                expected_one = E.hand_values(np.broadcast_to(hand, holes.shape), boards, hilo)
            for a, b in zip(fixed, expected_one, strict=True):
                assert np.array_equal(a, b)


@needs_kernel
@settings(max_examples=40, deadline=None, derandomize=True)
@given(spot=preflop_spots(b0=3) | preflop_spots(b0=4) | preflop_spots(b0=0))
def test_monte_carlo_with_the_kernel_gives_numpys_figures(spot: EquitySpot) -> None:
    """A contender's cards unknown: the same draws (numpy's generator, untouched), every hand on
    its board valued by the kernel, the same result to the last bit as the numpy code's."""
    unknown = EquitySpot(spot.hilo, spot.hole_size, (*spot.holes[:-1], ()), spot.board, spot.dead, spot.pots)
    try:
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(E, "_USE_KERNEL", False)
            reference = equity(unknown, samples=500, seed=3)
    except ValueError:
        assume(False)  # too few cards left for the board and the unknown hand: refused by both
    got = equity(unknown, samples=500, seed=3)
    assert got.method == "mc" or not any(len(p.eligible) > 1 for p in spot.pots)
    assert got == reference


@needs_kernel
def test_the_kernels_values_refuse_malformed_input() -> None:
    assert E._equity_kernel is not None
    E._kernel_tables()
    values = E._equity_kernel.values
    assert len(values(bytes([0, 1, 2, 3]), 4, bytes(range(4, 14)), True)[0]) == 8  # one hand, two boards
    for args in (
        (bytes([0, 1, 2, 3, 4, 5, 6, 7]), 4, bytes(range(8, 23))),  # two hands, three boards
        (bytes([0, 1, 2, 3]), 4, bytes(range(8, 12))),  # a board of four
        (bytes([0]), 1, bytes(range(8, 13))),  # one hole card
        (bytes([0, 1, 2, 60]), 4, bytes(range(8, 13))),  # not a card
        (bytes([0, 1, 2, 3]), 4, bytes([8, 9, 10, 11, 99])),
    ):
        with pytest.raises(ValueError):
            values(*args, False)


# The kernel's tables kept in hhparse's cache folder (``equity-*.tables``): built once, loaded by
# the next process (a process's first all-in spot no longer builds them).


@pytest.fixture()
def fresh_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A cache folder of its own, the kernel's tables taken again from it, and again afterwards."""
    import hhparse.ev  # noqa: F401  (what hands the cache folder to the equity engine)
    from hhparse.cachefiles import cache_dir, read_checked, write_checked

    assert [(cache_dir, write_checked, read_checked)] == E._TABLES_KEPT
    monkeypatch.setenv("HHPARSE_CACHE_DIR", str(tmp_path))
    E._kernel_tables.cache_clear()
    yield tmp_path
    E._kernel_tables.cache_clear()  # (the kernel given its tables again: the later tests count)
    monkeypatch.setenv("HHPARSE_CACHE_DIR", str(tmp_path / "after"))
    E._kernel_tables()


def _no_table_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> Any:
        raise AssertionError("the kernel's tables were built: their file was not used")

    monkeypatch.setattr(E, "_build_kernel_tables", refuse)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b, strict=True)
    )


@needs_kernel
def test_the_kernel_tables_are_kept_and_loaded(fresh_tables: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = E._build_kernel_tables()
    assert _same(E._kernel_tables(), built)  # built, the file written
    (kept,) = fresh_tables.glob("equity-*.tables")
    written = kept.read_bytes()
    spot = (bytes([0, 1, 2, 3, 4, 5, 6, 7]), 4, bytes(range(8, 52)), bytes([2, 0, 1]), True)
    assert E._equity_kernel is not None
    counted = E._equity_kernel.counts(*spot)
    with monkeypatch.context() as m:  # the next process loads them
        _no_table_building(m)
        E._kernel_tables.cache_clear()
        assert _same(E._kernel_tables(), built)
        assert E._equity_kernel.counts(*spot) == counted
    assert kept.read_bytes() == written  # a file once written never changes
    with monkeypatch.context() as m:  # another layout (or source): another file
        m.setattr(E, "_TABLES_FORMAT", E._TABLES_FORMAT + 1)
        E._kernel_tables.cache_clear()
        assert _same(E._kernel_tables(), built)
        assert len(list(fresh_tables.glob("equity-*.tables"))) == 2


@needs_kernel
@pytest.mark.parametrize("damage", ["empty", "half", "a byte", "another layout", "tables the kernel refuses"])
def test_a_damaged_kernel_tables_file_is_built_again(
    fresh_tables: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    built = E._kernel_tables()
    (kept,) = fresh_tables.glob("equity-*.tables")
    whole = kept.read_bytes()
    head = len(E._TABLES_MAGIC)
    damaged = damaged_copy(whole, damage)
    if damage == "another layout":  # checksum right, contents not
        damaged = resigned(E._TABLES_MAGIC, b"\x02\x00\x00\x00[]" + b"\0" * 8)
    elif damaged is None:  # checksum and layout right, an index out of its table's range
        payload = bytearray(whole[head + 32 :])
        payload[-4:] = (10**6).to_bytes(4, sys.byteorder)
        damaged = resigned(E._TABLES_MAGIC, bytes(payload))
    kept.write_bytes(damaged)
    E._kernel_tables.cache_clear()
    assert _same(E._kernel_tables(), built)  # built again, the file replaced
    assert kept.read_bytes() == whole
    with monkeypatch.context() as m:  # and it is a good one again
        _no_table_building(m)
        E._kernel_tables.cache_clear()
        assert _same(E._kernel_tables(), built)


@needs_kernel
def test_no_cache_folder_means_no_kernel_tables_file(
    fresh_tables: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = E._build_kernel_tables()
    monkeypatch.setenv("HHPARSE_CACHE_DIR", "")
    assert _same(E._kernel_tables(), built)
    blocker = fresh_tables / "blocker"
    blocker.write_text("a file where the folder would go")
    monkeypatch.setenv("HHPARSE_CACHE_DIR", str(blocker / "cache"))
    E._kernel_tables.cache_clear()
    assert _same(E._kernel_tables(), built)  # no file, no error
    assert blocker.read_text() == "a file where the folder would go"
    assert list(fresh_tables.iterdir()) == [blocker]
