"""All-in equity: each player's expected share of each pot, half and run, over the cards to come.

A pure function of cards and amounts (:func:`equity`); the EV stage (:mod:`hhparse.ev`) decides
*which* hands and *which* cards, from the referee's facts. Money stays integers in the hand's
smallest unit: every board is settled exactly as the room settles it (hi/lo halves with the odd
chip to the high half, ties shared with odd chips to the first winners clockwise from the button,
no-low boards giving the whole pot to the high hand, each side pot over its own eligible players,
each run of a run-it-twice pot on its own board), and the expected value of a share is the exact
integer total over all boards divided by their number.

Why it is built this way (pre-flop Courchevel heads-up is 101,270 boards of 2 x 200 hands):

* **Card arithmetic in numpy, over a dense rank table.** A five-card high hand that is not a
  flush depends only on the rank multiset; with exactly two hole cards and exactly three board
  cards it is ``NF[hole rank pair][board rank triple]`` (169 x 455 values, built once). Flushes
  (both hole cards and the three board cards of one suit) come from a 13-bit rank-mask table; the
  best high is the larger of the two (a suited combination's non-flush value never beats its flush
  value). The 8-or-better low of a hole pair and a board triple is a bit-mask union
  (``LOWTAB[pair mask][triple mask]``, smaller is better), as in :mod:`hhparse.rules.evaluate`,
  whose value encoding these tables reproduce (built independently; the tests compare them).
* **Per player, per board triple, once.** A player's best value over their hole pairs depends
  only on the board triple, so each player gets ``best[triple]`` (one gather of a 455-entry
  row per triple). A board's value is the best over its triples; the known board cards are
  folded in first: with ``k`` cards to come, ``M[S]`` over ``min(3, k)``-subsets ``S`` of the
  unseen cards holds the best over every triple made of a part of ``S`` and known board cards.
  A board is then ``C(k, min(3, k))`` look-ups: 4 for pre-flop Courchevel (the door card is
  known), 1 on the flop or turn, 10 for a pre-flop Omaha board.
* **Pre-flop boards counted by rank class, not listed.** With no board card known (pre-flop
  Omaha, 5 and 6 Card Omaha: up to C(44, 5) = 1,086,008 boards heads-up), a board's high without
  a flush and its low depend only on its rank multiset: each player's best over the ten triples
  of each of the 6,175 rank classes, and the number of boards in each class (a product of
  binomials of the unseen cards per rank). Suits matter only on boards with three or more cards
  of a suit in which a contender holds two: those are counted again per suit, set of ranks in
  that suit and multiset of the other ranks, with the flush, and taken out of their rank class
  (:func:`_preflop_counts`). Every board is counted, so the result is exact. Pre-flop
  Courchevel (the exposed card known, four to come) is counted the same way: the known rank with
  a multiset of four new ones, the flushes apart per suit (:func:`_known_card_counts`).
* **Exact counting compiled.** Counting a pre-flop spot's classes and flush boards takes a few
  hundred small numpy calls, a flop or turn spot one to two hundred, each at numpy's per-call
  floor; a compiled install runs the same counting as loops over the same tables in C
  (``_equity_kernel.c``: :func:`_kernel_counts`, :func:`_kernel_known_counts`,
  :func:`_kernel_listed`), and an exact spot goes to it straight from lists of card indices and
  is settled there too (:func:`_kernel_exact`): the Python around each call, not the counting,
  had become most of a flop's or turn's time. The numpy code stays the reference: a pure-Python
  install runs it, and the tests compare the two outcome by outcome and result by result.
  Monte Carlo draws its boards and hands in numpy (the same generator, so the same draws) and
  values each on its board in the kernel (:func:`hand_values`).
* **Settled once per outcome.** A board's settlement depends only on who wins each pot's high
  and low; each board's winners are packed in one integer and counted, and each distinct
  outcome is settled once (:func:`_settle`; compiled, the kernel's ``settle``, the same
  integer arithmetic, with :func:`_settle` taking over where a total would pass 64 bits).
* **Exact whenever every contender's cards are known** (:func:`choose_method`): pre-flop by rank
  class, otherwise every board listed (at most :data:`EXACT_MAX_BOARDS` of them: the flop and
  the turn). When a contender's cards stayed unknown,
  :data:`MC_SAMPLES` boards (and the unknown hole cards) are drawn uniformly from the unseen
  cards, and each value carries its standard error.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

try:  # compiled at install beside the engine (hatch_build.py); absent from a pure-Python install
    import hhparse.rules._equity_kernel as _equity_kernel
except ImportError:  # pragma: no cover - which branch runs depends on the install
    _equity_kernel = None  # type: ignore[assignment]

__all__ = [
    "CARD_INDEX",
    "EXACT_MAX_BOARDS",
    "MC_SAMPLES",
    "NO_LOW",
    "EquityPot",
    "EquityResult",
    "EquitySpot",
    "PotShare",
    "board_values",
    "choose_method",
    "equity",
    "hand_values",
]

Array = NDArray[Any]

EXACT_MAX_BOARDS: Final = 200_000
"""Enumerate every board when there are at most this many (and every contender's cards are known).

Pre-flop Courchevel (4 cards to come after the door card) has at most C(41, 4) = 101,270 boards
heads-up, fewer multiway: always exact (counted by rank class, :func:`_known_card_counts`; the
tests list them to compare). The flop and turn (at most C(47, 2) = 1,081 boards) are
always exact. A pre-flop board of Omaha, 5 or 6 Card Omaha (five cards to come) is never listed:
its boards are counted by rank class, exactly, however many they are."""

MC_SAMPLES: Final = 20_000
"""Boards drawn when a contender's cards stayed unknown (every other spot is exact): the
standard error of an equity is at most 0.5 / sqrt(20,000) ≈ 0.35 % of the pot, and is stored
beside every value."""

NO_LOW: Final = 256
"""Low value of a hand without a qualifying low (every real low is a mask below 256)."""

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
CARD_INDEX: Final[dict[str, int]] = {
    r + s: 4 * i + j for i, r in enumerate(_RANKS) for j, s in enumerate(_SUITS)
}
"""Card text → 0..51 (``4 * rank + suit``, Deuce of clubs 0, Ace of spades 51)."""

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = (
    range(9)
)

# --------------------------------------------------------------------------------------------
# Tables (built once at import)
# --------------------------------------------------------------------------------------------

_CARDS = np.arange(52)
RANK: Final = (_CARDS >> 2).astype(np.int64)
SUIT: Final = (_CARDS & 3).astype(np.int64)
RBIT: Final = (1 << RANK).astype(np.int64)
# Low bit per card: Ace = bit 0, Deuce = bit 1 ... Eight = bit 7; 9 and above = 0 (no low).
LOWBIT: Final = np.where(RANK == 12, 1, np.where(RANK <= 6, 1 << (RANK + 1), 0)).astype(np.int64)
_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _straight_tops() -> Array:
    """13-bit rank mask → top rank of the straight it is (-1 when not a straight)."""
    top = np.full(8192, -1, dtype=np.int64)
    for t in range(4, 13):
        top[0b11111 << (t - 4)] = t
    top[(1 << 12) | 0b1111] = 3  # A-2-3-4-5: the Five is the top card
    return top


_STRAIGHT_TOP = _straight_tops()


def _pack(category: Array, nibbles: Array) -> Array:
    """``category << 20`` then five 4-bit tie-break ranks, as :mod:`hhparse.rules.evaluate` packs."""
    v = category.astype(np.int64)
    for i in range(5):
        v = (v << 4) | nibbles[:, i]
    return v


def five_rank_values(ranks: Array) -> Array:
    """High value of each row of five ranks as a non-flush hand (0 for five of a kind).

    Same scale as :attr:`hhparse.rules.evaluate.HighHand.rank`: category, then the distinct ranks
    ordered by (count, rank) descending; a straight is its top card only (a wheel's top is the Five).
    """
    n = len(ranks)
    # each row's count of each rank: one bincount over (row, rank) cells (np.add.at is slower)
    cells = (13 * np.arange(n))[:, None] + ranks
    counts = np.bincount(cells.ravel(), minlength=13 * n).reshape(n, 13).astype(np.int64)
    key = np.where(counts > 0, counts * 16 + np.arange(13), -1)
    order = np.argsort(-key, axis=1, kind="stable")[:, :5]
    top = np.take_along_axis(counts, order, axis=1)
    distinct = (counts > 0).sum(axis=1)
    c0, c1 = top[:, 0], top[:, 1]
    category = np.select(
        [c0 == 4, (c0 == 3) & (c1 == 2), c0 == 3, (c0 == 2) & (c1 == 2), c0 == 2],
        [FOUR_OF_A_KIND, FULL_HOUSE, THREE_OF_A_KIND, TWO_PAIR, PAIR],
        default=HIGH_CARD,
    )
    nibbles = np.where(np.arange(5) < distinct[:, None], order, 0)
    value = _pack(category, nibbles)
    mask = (counts > 0).astype(np.int64) @ (1 << np.arange(13))
    straight = _STRAIGHT_TOP[mask]
    is_straight = (distinct == 5) & (straight >= 0)
    value = np.where(is_straight, (STRAIGHT << 20) | (np.maximum(straight, 0) << 16), value)
    return np.where(c0 >= 5, 0, value)


def _flush_table() -> Array:
    """13-bit mask of five ranks of one suit → flush or straight-flush value (0 otherwise)."""
    masks = np.arange(8192)
    bits = (masks[:, None] >> np.arange(13)) & 1
    five = bits.sum(axis=1) == 5
    sel = masks[five]
    # each mask's five ranks, high to low: the set bits' places, read from the Ace down (one
    # array operation, not a Python loop over the 1,287 masks: built at import)
    _, high_first = np.nonzero(bits[five][:, ::-1])
    ranks = (12 - high_first).reshape(len(sel), 5)
    value = _pack(np.full(len(sel), FLUSH), ranks)
    top = _STRAIGHT_TOP[sel]
    value = np.where(top >= 0, (STRAIGHT_FLUSH << 20) | (np.maximum(top, 0) << 16), value)
    table = np.zeros(8192, dtype=np.int64)
    table[sel] = value
    return table


def _triple_multisets() -> tuple[Array, Array]:
    """(ordered rank triple ``169a + 13b + c`` → multiset index, multiset index → sorted ranks)."""
    sets = [(a, b, c) for a in range(13) for b in range(a, 13) for c in range(b, 13)]
    index = np.zeros(13 * 13 * 13, dtype=np.int64)
    for i, (a, b, c) in enumerate(sets):
        for x, y, z in {(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)}:
            index[169 * x + 13 * y + z] = i
    return index, np.array(sets, dtype=np.int64)


MS3, _MS3_RANKS = _triple_multisets()
FL: Final = _flush_table().astype(np.int32)


_PAIRS2: Final = np.array([(a, b) for a in range(13) for b in range(a, 13)], dtype=np.int64).T
"""Every multiset of two ranks (``_multisets(2)`` order), as two rows: first ranks, second ranks."""


def _nf_table() -> Array:
    """Hole rank pair ``13 * r1 + r2`` (both orders) x board rank multiset → non-flush value.

    A value depends on the five ranks as a multiset, so each unordered pair (91 of them) is
    taken once and its row copied to both orders, and each of the (at most 6,188) multisets its
    41,405 (pair, triple) rows make is evaluated once (a process with the EV stage builds this
    table at import)."""
    r1, r2 = _PAIRS2
    m = len(_MS3_RANKS)
    ranks = np.concatenate(
        [np.repeat(r1, m)[:, None], np.repeat(r2, m)[:, None], np.tile(_MS3_RANKS, (len(r1), 1))], axis=1
    )
    ranks.sort(axis=1)
    key = ranks[:, 0]
    for e in range(1, 5):
        key = key * 13 + ranks[:, e]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rows = five_rank_values(ranks[first]).take(inverse.ravel()).reshape(len(r1), m)
    table = np.empty((169, m), dtype=rows.dtype)
    table[13 * r1 + r2] = rows
    table[13 * r2 + r1] = rows
    return table


NF: Final = _nf_table().astype(np.int32)


def _low_table() -> Array:
    """(pair low mask, triple low mask) → their union when they make a low, else :data:`NO_LOW`.

    A pair mask must have two bits, a triple mask three, and they must not share a rank."""
    a = np.arange(256)[:, None]
    b = np.arange(256)[None, :]
    ok = (_POP8[a] == 2) & (_POP8[b] == 3) & ((a & b) == 0)
    return np.where(ok, a | b, NO_LOW).astype(np.int64)


LOWTAB: Final = _low_table().astype(np.int32)


def _pair_tables() -> tuple[Array, Array, Array, Array]:
    """Per ordered card pair ``52 * a + b``: rank slot (``13 * ra + rb``), low mask (0 when the two
    are not two different low ranks), suit when suited (-1 otherwise), 13-bit rank mask."""
    a = np.repeat(_CARDS, 52)
    b = np.tile(_CARDS, 52)
    la, lb = LOWBIT[a], LOWBIT[b]
    low = np.where((la != 0) & (lb != 0) & (la != lb), la | lb, 0)
    suit = np.where(SUIT[a] == SUIT[b], SUIT[a], -1)
    return 13 * RANK[a] + RANK[b], low, suit, RBIT[a] | RBIT[b]


PAIR_SLOT, PAIR_LOW, PAIR_SUIT, PAIR_MASK = _pair_tables()

# --------------------------------------------------------------------------------------------
# Combinations (cached index arrays)
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _combos(n: int, k: int) -> Array:
    """Every k-subset of ``range(n)`` as a sorted row, rows in lexicographic order (read-only)."""
    if k == 0:
        out = np.zeros((1, 0), dtype=np.int64)
    elif k > n:
        out = np.zeros((0, k), dtype=np.int64)
    elif k == 1:
        out = np.arange(n, dtype=np.int64)[:, None]
    else:
        prev = _combos(n, k - 1)
        last = prev[:, -1]
        counts = n - 1 - last
        total = int(counts.sum())
        starts = np.repeat(last + 1, counts)
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        out = np.concatenate([np.repeat(prev, counts, axis=0), (starts + offsets)[:, None]], axis=1)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """Index arrays for one shape of spot: ``n`` unseen cards, ``b0`` known board cards.

    Triples are made of ``j`` unseen cards and ``3 - j`` known board cards, for every ``j`` a
    board can use (``jmin`` .. ``s``). ``cols`` lists them (indices into ``known + unseen``, one
    contiguous column per card of a triple, the known cards first), one ``j`` after the other;
    within a ``j``, one run per ``(3 - j)``-subset of the known cards (``blocks``), each run the
    ``j``-subsets of the unseen cards in their lexicographic order (:func:`_combos`). The group of
    a ``j``-subset is the same place in every run of its ``j``, and its best, ``V[j-subset]``, the
    largest of those places: a few whole-row maxima of contiguous runs, not a reduction per
    group. ``M[s-subset]`` is the best over the groups a subset of it forms: its own
    (the groups from ``own`` on, in the order of the ``s``-subsets), the one of no unseen card
    (column ``no_unseen``, when ``jmin`` is 0) and the others, found by their lexicographic rank
    (``parts``); a board is the best over its ``s``-subsets, found by their lexicographic rank
    (:func:`_rank_table`).
    """

    n: int
    b0: int
    k: int
    s: int  # size of the subsets M is indexed by: min(3, k)
    cols: tuple[Array, Array, Array]  # every triple's three cards, indices into concat(known, unseen)
    blocks: tuple[tuple[int, int, int, int], ...]  # per j: (first group, first triple, groups, runs)
    own: int  # the first group of s unseen cards
    no_unseen: int | None  # the group of known cards only (None when a triple needs an unseen card)
    parts: tuple[Array, ...]  # per part of 1 .. s - 1 unseen cards of an s-subset: its group, (C(n, s),)
    kpos: Array  # (C(k, s), s) positions of the s-subsets within a board's k new cards
    direct: bool  # every group is one triple and M is the triples' own values, in their order


@lru_cache(maxsize=64)
def _plan(n: int, b0: int) -> _Plan:
    k = 5 - b0
    s = min(3, k)
    jmin = max(0, 3 - b0)
    tidx: list[Array] = []
    blocks: list[tuple[int, int, int, int]] = []
    first: dict[int, int] = {}
    groups = triples = 0
    for j in range(jmin, s + 1):
        rcomb = _combos(n, j) + b0  # unseen cards follow the known ones
        kcomb = _combos(b0, 3 - j)
        cr, ck = len(rcomb), len(kcomb)
        # known cards first: TRIPLE_CODE is symmetric, and a run's look-ups then stay within the
        # part of it that starts with the run's known cards (a few kB, not the whole table)
        tidx.append(np.concatenate([np.repeat(kcomb, cr, axis=0), np.tile(rcomb, (ck, 1))], axis=1))
        blocks.append((groups, triples, cr, ck))
        first[j] = groups
        groups += cr
        triples += cr * ck
    every = np.concatenate(tidx)
    ssets = _combos(n, s)
    parts: list[Array] = []
    for j in range(max(jmin, 1), s):
        table = _rank_table(n, j)
        for pos in _combos(s, j).tolist():
            rank = first[j] + sum(table[e].take(ssets[:, c]).astype(np.int64) for e, c in enumerate(pos))
            parts.append(np.ascontiguousarray(rank, dtype=np.intp))
    cols = tuple(np.ascontiguousarray(every[:, e], dtype=np.intp) for e in range(3))
    return _Plan(
        n,
        b0,
        k,
        s,
        (cols[0], cols[1], cols[2]),
        tuple(blocks),
        first[s],
        first[0] if jmin == 0 else None,
        tuple(parts),
        _combos(k, s),
        triples == groups and jmin == s,
    )


@lru_cache(maxsize=64)
def _rank_table(n: int, s: int) -> Array:
    """(s, n) int32: the lexicographic rank of a sorted ``s``-subset ``x`` of ``range(n)`` among
    :func:`_combos` ``(n, s)`` is ``sum(table[e, x[e]])``.

    The rank counts the subsets before ``x``: for each position ``e``, those that agree before it
    and hold a smaller value there, ``G_e(x[e]) - G_e(x[e-1] + 1)`` with
    ``G_e(t) = sum(C(n - 1 - y, s - 1 - e) for y < t)``; each term is moved to the position of
    the element it depends on, so every position contributes one look-up."""
    g = np.zeros((s + 1, n + 1), dtype=np.int64)
    for e in range(s):
        counts = [math.comb(n - 1 - y, s - 1 - e) for y in range(n)]
        g[e, 1:] = np.cumsum(counts)
    table = np.empty((s, n), dtype=np.int64)
    x = np.arange(n)
    for e in range(s):
        table[e] = g[e, x] - (g[e + 1, x + 1] if e + 1 < s else 0)
    out = np.ascontiguousarray(table, dtype=np.int32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _exact_board_flat(n: int, b0: int) -> tuple[Array, ...]:
    """Rank in M of every s-subset of every board (exact enumeration): one contiguous int32
    column per s-subset position of a board."""
    out = _board_flat_rows(_combos(n, 5 - b0), n, b0)
    for col in out:
        col.setflags(write=False)
    return out


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Triples:
    """What a list of board triples contributes, shared by every player."""

    ms: Array  # rank multiset index
    lm: Array  # low mask (0 when the three are not three different low ranks)
    suited: Array  # positions of the triples whose three cards share a suit
    tsuit: Array  # their suit
    tmask: Array  # their 13-bit rank mask


def _triple_codes() -> Array:
    """Every ordered card triple ``2704 * a + 52 * b + c`` → its features packed in one integer:
    rank multiset index (bits 0-8), low mask or 0 (bits 9-16), 1 + suit when all three share it
    or 0 (bits 17-19), 13-bit rank mask (bits 20-32). One look-up per triple instead of a dozen
    array operations per spot.

    Built at import from its two independent parts, since card ``4 * rank + suit``: what the
    three ranks give (multiset, low mask, rank mask: 13 x 13 x 13) and what the three suits give
    (64), joined by one broadcast over the 140,608 triples (rather than a dozen gathers over
    them)."""
    r = np.arange(13)
    ra, rb, rc = r[:, None, None], r[None, :, None], r[None, None, :]
    low = np.where(r == 12, 1, np.where(r <= 6, 1 << (r + 1), 0))
    lm = low[ra] | low[rb] | low[rc]
    lm = np.where(_POP8[lm] == 3, lm, 0)
    ranks = MS3.reshape(13, 13, 13) | (lm << 9) | (((1 << ra) | (1 << rb) | (1 << rc)) << 20)
    s = np.arange(4)
    sa, sb, sc = s[:, None, None], s[None, :, None], s[None, None, :]
    suits = np.where((sa == sb) & (sb == sc), sa + 1, 0) << 17
    code: Array = (ranks[:, None, :, None, :, None] | suits[None, :, None, :, None, :]).reshape(-1)
    return code


TRIPLE_CODE: Final = _triple_codes()
_NF_COLS: Final = NF.shape[1]
_NF_FLAT: Final = NF.ravel()
_LOW_FLAT: Final = LOWTAB.ravel()


def _triples_of(code: Array) -> _Triples:
    """The features of triples from their :data:`TRIPLE_CODE` entries."""
    su = (code >> 17) & 7
    suited = np.flatnonzero(su)
    return _Triples(code & 511, (code >> 9) & 255, suited, su[suited] - 1, (code[suited] >> 20) & 8191)


@dataclass(frozen=True, slots=True)
class _Players:
    """Some players' best value per board-triple class, over their hole pairs (one row each)."""

    nf: Array  # (P, 455) best non-flush value per board rank multiset
    lo: Array  # (P, 256) best low per board low mask
    fsuit: Array  # (P, pairs) each hole pair's suit when suited, else -1
    fmask: Array  # (P, pairs) each hole pair's 13-bit rank mask


def _players(holes: Array) -> _Players:
    """The tables of the players whose hole cards are the rows of ``holes`` (all the same size)."""
    pairs = holes[:, _combos(holes.shape[1], 2)]  # (P, pairs, 2)
    pair = 52 * pairs[..., 0] + pairs[..., 1]
    return _Players(
        NF[PAIR_SLOT[pair]].max(axis=1), LOWTAB[PAIR_LOW[pair]].min(axis=1), PAIR_SUIT[pair], PAIR_MASK[pair]
    )


def _triple_values(p: _Players, t: _Triples, hilo: bool) -> Array:
    """Each player's best per triple: rows ``(player, 0)`` the high value and ``(player, 1)``
    (``hilo``) minus the low mask, so that "best" is the maximum on every row and all players'
    rows share every array operation. Shape (P * rows, T)."""
    rows = 2 if hilo else 1
    n = len(p.nf)
    out = np.empty((n, rows, len(t.ms)), dtype=np.int32)
    for i in range(n):  # take on a contiguous row: far cheaper than 2-D fancy indexing
        hi = out[i, 0]
        np.take(p.nf[i], t.ms, out=hi)
        if len(t.suited):
            hit = p.fsuit[i][:, None] == t.tsuit[None, :]
            if hit.any():
                fl = np.where(hit, FL[p.fmask[i][:, None] | t.tmask[None, :]], 0).max(axis=0)
                hi[t.suited] = np.maximum(hi.take(t.suited), fl)
        if hilo:
            np.negative(p.lo[i].take(t.lm), out=out[i, 1])
    return out.reshape(n * rows, -1)


def hand_values(holes: Array, boards: Array, hilo: bool) -> tuple[Array, Array]:
    """Best high and low of each row's hole cards on the same row's five-card board.

    ``holes`` (N, h) and ``boards`` (N, 5) are card indices (:data:`CARD_INDEX`). Returns two
    (N,) arrays: high values on :mod:`hhparse.rules.evaluate`'s scale (larger wins) and low masks
    (smaller wins; :data:`NO_LOW` when none, or always when not ``hilo``). Fully vectorised, row
    by row without the per-player tables: used for hole cards drawn at random (Monte Carlo), and
    by the tests. A compiled install values the rows in the kernel (``values``, the same
    look-ups row by row: :func:`_kernel_hand_values`); this numpy code is its reference. Each hole pair and board triple is one look-up of its features
    (:data:`PAIR_SLOT` and the others, :data:`TRIPLE_CODE`), each (pair, triple) one look-up in
    the flattened value tables.
    """
    if _kernel_values_usable((holes.shape[1],)) and len(holes) == len(boards) and boards.shape[1:] == (5,):
        return _kernel_hand_values(
            np.ascontiguousarray(holes, dtype=np.uint8).tobytes(), holes.shape[1], boards, hilo
        )
    n = len(holes)
    pc = _combos(holes.shape[1], 2)
    pair = 52 * holes[:, pc[:, 0]] + holes[:, pc[:, 1]]  # (N, pairs)
    tc = _combos(5, 3)
    tcode = TRIPLE_CODE.take(2704 * boards[:, tc[:, 0]] + 52 * boards[:, tc[:, 1]] + boards[:, tc[:, 2]])
    hi = _NF_FLAT.take((PAIR_SLOT.take(pair) * _NF_COLS)[:, :, None] + (tcode & 511)[:, None, :])
    srow, strip = np.nonzero(tcode & (7 << 17))  # the triples of three cards of one suit
    if len(srow):
        # their rows' pairs of that same suit: five cards of one suit
        hit, p = np.nonzero(PAIR_SUIT.take(pair[srow]) == (((tcode[srow, strip] >> 17) & 7) - 1)[:, None])
        row, t = srow[hit], strip[hit]
        fm = PAIR_MASK.take(pair[row, p]) | ((tcode[row, t] >> 20) & 8191)
        hi[row, p, t] = np.maximum(hi[row, p, t], FL.take(fm))
    high = hi.reshape(n, -1).max(axis=1)
    if not hilo:
        return high, np.full(n, NO_LOW, dtype=np.int64)
    lm = (tcode >> 9) & 255
    low = _LOW_FLAT.take((PAIR_LOW.take(pair) * 256)[:, :, None] + lm[:, None, :]).reshape(n, -1).min(axis=1)
    return high, low


def _kernel_hand_values(holes: bytes, hole_size: int, boards: Array, hilo: bool) -> tuple[Array, Array]:
    """:func:`hand_values` by the compiled kernel; ``holes``: one row of cards per board, or one
    row for every board (a contender whose cards are known: its tables are then taken once)."""
    assert _equity_kernel is not None
    _kernel_tables()
    hi_bytes, lo_bytes = _equity_kernel.values(
        holes, hole_size, np.ascontiguousarray(boards, dtype=np.uint8).tobytes(), hilo
    )
    high = np.frombuffer(hi_bytes, dtype=np.int32).copy()
    if not hilo:
        return high, np.full(len(high), NO_LOW, dtype=np.int64)
    return high, np.frombuffer(lo_bytes, dtype=np.int32).copy()


def _kernel_values_usable(hole_sizes: Iterable[int]) -> bool:
    """Whether :func:`hand_values` runs in the compiled kernel (``values``) for hands of these
    sizes: installed, not turned off (:data:`_USE_KERNEL`), 2 to 16 hole cards. The kernel
    evaluates each row as the numpy code does (the tests compare them): Monte Carlo's draws, and
    so its figures, are the same either way."""
    return _equity_kernel is not None and _USE_KERNEL and all(2 <= h <= 16 for h in hole_sizes)


def board_values(hole: Array, known: Array, unseen: Array, new: Array, hilo: bool) -> tuple[Array, Array]:
    """One player's best high and low on each board ``known + unseen[new[i]]``.

    ``hole``: the player's card indices; ``known``: the board cards already dealt (0-5);
    ``unseen``: the cards still in the deck (sorted); ``new``: (N, 5 - len(known)) sorted local
    indices into ``unseen``. Uses the per-triple tables described in the module docstring.
    """
    known = np.asarray(known, dtype=np.int64)
    unseen = np.asarray(unseen, dtype=np.int64)
    flat = _board_flat_rows(np.asarray(new, dtype=np.int64), len(unseen), len(known))
    hi, lo = _values_for(_players(np.asarray(hole, dtype=np.int64)[None, :]), known, unseen, flat, hilo)
    return hi[0], lo[0]


def _board_flat_rows(new: Array, n: int, b0: int) -> tuple[Array, ...]:
    """Each board's ``s``-subsets (``new``: sorted local indices, one board a row) as their ranks
    in M (:func:`_rank_table`): one contiguous int32 column per subset position of a board.

    Each new card's column is looked up once per place in the subset; a subset's rank is then a
    sum of those columns."""
    plan = _plan(n, b0)
    s = plan.s
    table = _rank_table(n, s)
    cols = np.ascontiguousarray(new.T, dtype=np.intp)
    parts: dict[tuple[int, int], Array] = {}

    def part(e: int, c: int) -> Array:
        if (e, c) not in parts:
            # the last place's term is the card itself
            parts[e, c] = cols[c].astype(np.int32) if e == s - 1 else table[e].take(cols[c])
        return parts[e, c]

    out: list[Array] = []
    for pos in plan.kpos.tolist():
        rank = part(0, pos[0]).copy()
        for e in range(1, s):
            rank += part(e, pos[e])
        out.append(rank)
    return tuple(out)


def _spot_triples(known: Array, unseen: Array) -> _Triples:
    plan = _plan(len(unseen), len(known))
    cards = np.concatenate([known, unseen])
    a, b, c = plan.cols
    code = (2704 * cards).take(a)
    code += (52 * cards).take(b)
    code += cards.take(c)
    return _triples_of(TRIPLE_CODE.take(code))


def _m_table(values: Array, plan: _Plan) -> Array:
    """``M`` over ``s``-subsets from a player's rows of values per triple (best = largest), one
    row per values row, the subsets in their lexicographic order (:func:`_combos`): each
    subset's own group, and the best of its parts' groups and of the known cards' alone."""
    if plan.direct:  # no known board card: the subsets are the triples, in the same order
        return values
    group = _groups(values, plan)
    m = np.array(group[:, plan.own :])
    for col in plan.parts:
        np.maximum(m, group.take(col, axis=1), out=m)
    if plan.no_unseen is not None:
        np.maximum(m, group[:, plan.no_unseen : plan.no_unseen + 1], out=m)
    return m


def _groups(values: Array, plan: _Plan) -> Array:
    """Each group's best (the largest of its triples' values, per row), in group order: per
    ``j``, the largest of its runs, place by place (:class:`_Plan`)."""
    if all(runs == 1 for _, _, _, runs in plan.blocks):
        return values
    rows = len(values)
    out = np.empty((rows, sum(size for _, _, size, _ in plan.blocks)), dtype=values.dtype)
    for g0, t0, size, runs in plan.blocks:
        block = values[:, t0 : t0 + runs * size].reshape(rows, runs, size)
        np.max(block, axis=1, out=out[:, g0 : g0 + size])
    return out


def _over_boards(m: Array, flat: tuple[Array, ...]) -> Array:
    """Each board's best: M at each of its s-subsets (one column each), the largest.

    Gathered subset by subset with every row at once, from M transposed (one short contiguous
    record per subset, all rows of a board read together) rather than row by row."""
    mt = np.ascontiguousarray(m.T)
    boards = len(flat[0])
    out = np.empty((boards, len(m)), dtype=np.int32)
    tmp = np.empty_like(out)
    np.take(mt, flat[0], axis=0, out=out)
    for col in flat[1:]:
        np.take(mt, col, axis=0, out=tmp)
        np.maximum(out, tmp, out=out)
    return np.ascontiguousarray(out.T)


def _values_for(
    p: _Players,
    known: Array,
    unseen: Array,
    flat: tuple[Array, ...] | None,
    hilo: bool,
    triples: _Triples | None = None,
) -> tuple[Array, Array]:
    """The players' high and low per board, (P, boards) each; ``flat=None`` means every board of an
    exact enumeration with at most three cards to come, whose boards are M's own subsets, in order."""
    plan = _plan(len(unseen), len(known))
    if triples is None:
        triples = _spot_triples(known, unseen)
    values = _triple_values(p, triples, hilo)
    best = _m_table(values, plan)
    if flat is not None:
        best = _over_boards(best, flat)
    if hilo:
        return best[0::2], -best[1::2]
    return best, np.full(best.shape, NO_LOW, dtype=np.int32)


# --------------------------------------------------------------------------------------------
# Pre-flop boards counted by rank class (exact, no board listed)
# --------------------------------------------------------------------------------------------

_BY_RANK_CLASS = True
"""Count pre-flop boards by rank class (:func:`_preflop_counts`); the tests turn it off to
compare with listing every board."""

_KNOWN_CARD_CLASSES: Final = frozenset({4})
"""Cards to come for which a spot with known board cards is counted by rank class
(:func:`_known_card_counts`) rather than listed: pre-flop Courchevel (the exposed card known)."""

_RANKLOW = np.array([1 << (r + 1) if r <= 6 else 1 if r == 12 else 0 for r in range(13)], dtype=np.int64)
_COMB = np.array([[math.comb(a, c) for c in range(6)] for a in range(5)], dtype=np.int64)
_COMB_F: Final = _COMB[:, :5].astype(np.float64)
_NO_RANK: Final = 65
"""A place of :attr:`_RankClasses.distinct` no rank takes: just past the 13 x 5 binomials."""
_ONE_WAY: Final = np.ones(1, dtype=np.int64)
_ONE_WAY.setflags(write=False)
_SAME2: Final = np.flatnonzero(_PAIRS2[0] == _PAIRS2[1])
"""Positions of the pairs of one rank among :data:`_PAIRS2` (Deuces first)."""


@dataclass(frozen=True, slots=True)
class _RankClasses:
    """Every multiset of five ranks (at most four of a rank), built once on first use.

    ``distinct`` (5, R) its different ranks with their counts, ``5 * rank + count``, the places
    left over :data:`_NO_RANK`: the class has ``prod(C(available[rank], count))`` boards, one
    look-up per place in a table of binomials (:func:`_preflop_counts`); ``ms`` (10, R) the rank multiset index
    of each of its ten triples (by position); ``lm`` (10, R) their low masks (0 unless three different low
    ranks); ``with_suited[j]`` (C(13, j), multisets of 5 - j ranks) the class of ``j`` different
    ranks (by lexicographic rank among :func:`_combos` (13, j)) joined with a multiset of the
    other ``5 - j`` (in ``others[j]`` order); ``others[j]`` (multisets, 13) their rank counts;
    ``suited_mask[j]`` (C(13, j),) the 13-bit rank mask of each set of ``j`` different ranks and
    ``suited_tmask[j]`` (C(13, j), C(j, 3)) those of its triples, so that a suit's possible sets
    are found by one mask test against the ranks still unseen in it, in the same order;
    ``index`` (13 ** 5,) a sorted row of five ranks read in base 13 → its class; ``ms4``, ``lm4``
    (4, 1,820) the rank multiset index and low mask of each four-rank multiset's four triples and
    ``parts`` (4, R) a class's four-rank multisets without its first, ..., fourth rank
    (:func:`_class_values`); ``low_ranks`` (R,) the low mask of the class's different low ranks
    when they are three or more, else 0 (:func:`_class_values`)."""

    distinct: Array
    ms: Array
    lm: Array
    with_suited: dict[int, Array]
    others: dict[int, Array]
    suited_mask: dict[int, Array]
    suited_tmask: dict[int, Array]
    index: Array
    ms4: Array
    lm4: Array
    parts: Array
    low_ranks: Array


def _multisets(size: int) -> Array:
    """Every multiset of ``size`` ranks as sorted rows, lexicographic."""
    rows: Array = _combos(13 + size - 1, size) - np.arange(size)  # stars and bars
    return rows


@lru_cache(maxsize=1)
def _rank_classes() -> _RankClasses:
    five = _multisets(5)
    counts = np.zeros((len(five), 13), dtype=np.int64)
    for e in range(5):
        np.add.at(counts, (np.arange(len(five)), five[:, e]), 1)
    keep = counts.max(axis=1) <= 4
    five, counts = five[keep], counts[keep]
    code = np.zeros(13**5, dtype=np.int64)
    code[_base13(five)] = np.arange(len(five))
    t = five[:, _combos(5, 3)]  # (R, 10, 3)
    ms = MS3[169 * t[..., 0] + 13 * t[..., 1] + t[..., 2]]
    lm = _RANKLOW[t[..., 0]] | _RANKLOW[t[..., 1]] | _RANKLOW[t[..., 2]]
    lm = np.where(_POP8[lm] == 3, lm, 0)
    with_suited: dict[int, Array] = {}
    others: dict[int, Array] = {}
    suited_mask: dict[int, Array] = {}
    suited_tmask: dict[int, Array] = {}
    for j in (3, 4, 5):
        suited = _combos(13, j)
        suited_mask[j] = (1 << suited).sum(axis=1)
        suited_tmask[j] = (1 << suited[:, _combos(j, 3)]).sum(axis=2)
        rest = _multisets(5 - j)
        rows = np.concatenate([np.repeat(suited, len(rest), axis=0), np.tile(rest, (len(suited), 1))], axis=1)
        with_suited[j] = code[_base13(np.sort(rows, axis=1))].reshape(len(suited), len(rest))
        oc = np.zeros((len(rest), 13), dtype=np.int64)
        for e in range(5 - j):
            np.add.at(oc, (np.arange(len(rest)), rest[:, e]), 1)
        others[j] = oc
    four = _multisets(4)
    code4 = np.zeros(13**4, dtype=np.int64)
    code4[_base13(four)] = np.arange(len(four))
    t4 = four[:, _combos(4, 3)]  # (1820, 4, 3)
    ms4 = MS3[169 * t4[..., 0] + 13 * t4[..., 1] + t4[..., 2]]
    lm4 = _RANKLOW[t4[..., 0]] | _RANKLOW[t4[..., 1]] | _RANKLOW[t4[..., 2]]
    lm4 = np.where(_POP8[lm4] == 3, lm4, 0)
    parts = np.stack([code4[_base13(np.delete(five, x, axis=1))] for x in range(4)]).astype(np.intp)
    return _RankClasses(
        np.ascontiguousarray(
            np.sort(np.where(counts > 0, 5 * np.arange(13) + counts, _NO_RANK), axis=1)[:, :5].T
        ),
        np.ascontiguousarray(ms.T, dtype=np.intp),
        np.ascontiguousarray(lm.T, dtype=np.intp),
        with_suited,
        others,
        suited_mask,
        suited_tmask,
        code.astype(np.int16),
        np.ascontiguousarray(ms4.T, dtype=np.intp),
        np.ascontiguousarray(lm4.T, dtype=np.intp),
        parts,
        np.bitwise_or.reduce(lm, axis=1).astype(np.intp),  # the qualifying triples' union
    )


def _low_subsets(size: int) -> tuple[Array, Array]:
    """The low masks of ``size`` different low ranks, and (``size``, masks) each one without
    each of its ranks in turn."""
    masks = np.flatnonzero(np.equal(_POP8, size))
    without = [[m & ~(1 << b) for b in range(8) if m >> b & 1] for m in masks.tolist()]
    return masks, np.ascontiguousarray(np.array(without, dtype=np.intp).T)


_LOW4: Final = _low_subsets(4)
_LOW5: Final = _low_subsets(5)


def _class_values(p: _Players, rc: _RankClasses, hilo: bool) -> tuple[Array, Array]:
    """Each player's best high without a flush and best low (:data:`NO_LOW` unless ``hilo``) per
    rank class, (P, R) each: the best over the class's ten triples.

    The high is taken as the best over four of its four-rank parts (each part's four triples
    gathered once, 1,820 parts): every triple of five positions leaves out two of them, one of
    which is among the first four, so the parts without each of those cover every triple. The
    low depends only on the class's different low ranks (a triple without three of them makes
    none): the best over the sets of three, four and five low ranks (one of 256 masks, each set
    of four or five the best of itself without each rank in turn), then one look-up per class."""
    n_rows = len(p.nf)
    n_parts = rc.ms4.shape[1]
    part = p.nf.take(rc.ms4.ravel(), axis=1).reshape(n_rows, 4, n_parts).max(axis=1)
    nf = part.take(rc.parts.ravel(), axis=1).reshape(n_rows, 4, -1).max(axis=1)
    if not hilo:
        return nf, np.full(nf.shape, NO_LOW, dtype=np.int32)
    best = p.lo.copy()  # (P, 256): per set of three low ranks, else NO_LOW
    for masks, without in (_LOW4, _LOW5):
        low = best.take(without[0], axis=1)
        for col in without[1:]:
            np.minimum(low, best.take(col, axis=1), out=low)
        best[:, masks] = low
    return nf, best.take(rc.low_ranks, axis=1)


def _base13(rows: Array) -> Array:
    out = np.zeros(len(rows), dtype=np.int64)
    for e in range(rows.shape[1]):
        out = out * 13 + rows[:, e]
    return out


def _ways(available: Array, counts: Array) -> Array:
    """Per row of ``counts`` (cards of each rank), the ways to pick them from ``available``."""
    out: Array = _COMB[available[None, :], counts].prod(axis=1)
    return out


_USE_KERNEL = True
"""Count the exact spots' boards in the compiled kernel (:func:`_kernel_counts`,
:func:`_kernel_known_counts`, :func:`_kernel_listed`) when it is installed; the tests turn it off
to compare with the numpy code, its reference."""


@lru_cache(maxsize=1)
def _kernel_tables() -> tuple[Array, ...]:
    """Hand the kernel the tables it counts with (once a process): this module's, so that both
    countings read the same ones. The kernel holds on to them.

    They are kept in hhparse's cache folder (:func:`keep_kernel_tables`, :func:`_tables_file`) and
    loaded from there: built
    from the rank classes (:func:`_rank_classes`), they cost a process's first all-in spot — in
    its first task — more than the rest of that task's EV; loaded, a small part of it. A file
    that is damaged or that the kernel refuses is built again and replaced."""
    assert _equity_kernel is not None
    path = _tables_file()
    if path is not None:
        loaded = _load_tables(path)
        if loaded is not None:
            try:
                _equity_kernel.load(loaded)  # (checks every table's size and every index)
                return loaded
            except (TypeError, ValueError):
                pass
    tables = _build_kernel_tables()
    _equity_kernel.load(tables)
    if path is not None:
        _save_tables(path, tables)
    return tables


#: The layout of the kernel tables' file (its name also hashes this module's source).
_TABLES_FORMAT = 1
_TABLES_MAGIC = b"hhparse equity kernel tables\n"

#: Where the kernel's tables are kept: the folder (or None) and how a file is written, as
#: :func:`keep_kernel_tables` was told; nothing until then.
_TABLES_KEPT: list[
    tuple[
        Callable[[], Path | None],
        Callable[[Path, bytes, bytes], bool],
        Callable[[Path, bytes], memoryview | None],
    ]
] = []


def keep_kernel_tables(
    folder: Callable[[], Path | None],
    write: Callable[[Path, bytes, bytes], bool],
    read: Callable[[Path, bytes], memoryview | None],
) -> None:
    """Keep the kernel's tables in the folder ``folder()`` names when they are needed (None: not
    kept), each file written by ``write(path, data)`` (whole or not at all; False: not written).
    :mod:`hhparse.ev` hands over hhparse's cache folder: this module knows nothing of hhparse."""
    _TABLES_KEPT[:] = [(folder, write, read)]


def _tables_file() -> Path | None:
    """The file of the kernel's tables in the folder :func:`keep_kernel_tables` names, or None.

    Its name hashes what the tables are built from: this module's source (the code that builds
    them and the module tables they hold), the file's layout, numpy's version and the machine's
    byte order (the tables are kept as raw int32)."""
    folder = _TABLES_KEPT[0][0]() if _TABLES_KEPT else None
    if folder is None:
        return None
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None
    key = hashlib.sha256()
    for part in (str(_TABLES_FORMAT), np.__version__, sys.byteorder):
        key.update(part.encode())
        key.update(b"\0")
    key.update(source)
    return folder / f"equity-{key.hexdigest()[:32]}.tables"


def _save_tables(path: Path, tables: tuple[Array, ...]) -> None:
    """Keep ``tables`` at ``path``: the magic line, the SHA-256 of the rest, the length of the
    shapes' JSON, the shapes, each table's int32 bytes in turn. A folder that cannot be written
    means no file."""
    shapes = json.dumps([list(t.shape) for t in tables]).encode()
    payload = len(shapes).to_bytes(4, "little") + shapes + b"".join(t.tobytes() for t in tables)
    if _TABLES_KEPT:
        _TABLES_KEPT[0][1](path, _TABLES_MAGIC, payload)


def _load_tables(path: Path) -> tuple[Array, ...] | None:
    """The tables kept at ``path`` (:func:`_save_tables`), read-only views of the file's bytes,
    or None: no file, or one whose checksum or layout does not fit."""
    payload = _TABLES_KEPT[0][2](path, _TABLES_MAGIC) if _TABLES_KEPT else None
    if payload is None:
        return None
    try:
        size = int.from_bytes(payload[:4], "little")
        shapes = json.loads(bytes(payload[4 : 4 + size]))
        at = 4 + size
        out: list[Array] = []
        for shape in shapes:
            count = math.prod(shape)
            out.append(np.frombuffer(payload, dtype=np.int32, count=count, offset=at).reshape(shape))
            at += 4 * count
        if at != len(payload):
            return None
        return tuple(out)
    except (ValueError, TypeError):
        return None


def _build_kernel_tables() -> tuple[Array, ...]:
    """The kernel's tables (:func:`_kernel_tables`), built from this module's."""
    rc = _rank_classes()
    return tuple(
        np.ascontiguousarray(t, dtype=np.int32)
        for t in (
            NF,
            LOWTAB,
            FL,
            rc.ms4,
            rc.parts,
            rc.low_ranks,
            rc.distinct,
            *_LOW4,
            *_LOW5,
            *(rc.with_suited[j] for j in (3, 4, 5)),
            *(rc.suited_mask[j] for j in (3, 4, 5)),
            *(rc.suited_tmask[j] for j in (3, 4, 5)),
            _IN_A_STRAIGHT,
            _PAIRS2,
            *_known_card_tables(rc),
            MS3,
        )
    )


def _known_card_tables(rc: _RankClasses) -> tuple[Array, ...]:
    """The kernel's tables for one known board card and four to come (:func:`_known_card_counts`
    counts the same boards from the rows of ranks themselves): each four-rank multiset's
    different ranks (``5 * rank + count``, :data:`_NO_RANK` past them; in ``_multisets(4)``
    order, the order of ``rc.ms4``), the class of each with each rank (``R`` where that would
    be five of a rank), and the multiset of each set of ``j`` suited ranks (``_combos(13, j)``
    order) with each multiset of ``4 - j`` others (``_multisets(4 - j)`` order), ``j`` = 2, 3, 4,
    with the rank masks of the sets of two."""
    four = _multisets(4)
    counts = np.zeros((len(four), 13), dtype=np.int64)
    for e in range(4):
        np.add.at(counts, (np.arange(len(four)), four[:, e]), 1)
    distinct = np.sort(np.where(counts > 0, 5 * np.arange(13) + counts, _NO_RANK), axis=1)[:, :4].T
    code4 = np.zeros(13**4, dtype=np.int64)
    code4[_base13(four)] = np.arange(len(four))
    with_rank = np.concatenate(
        [np.repeat(four, 13, axis=0), np.tile(np.arange(13), len(four))[:, None]], axis=1
    )
    five_of = counts == 4  # (multiset, rank): five of that rank
    add_rank = rc.index.astype(np.int64).take(_base13(np.sort(with_rank, axis=1))).reshape(len(four), 13)
    add_rank[five_of] = len(rc.low_ranks)
    grids = []
    for j in (2, 3, 4):
        suited = _combos(13, j)
        rest = _multisets(4 - j)
        rows = np.concatenate([np.repeat(suited, len(rest), axis=0), np.tile(rest, (len(suited), 1))], axis=1)
        grids.append(code4[_base13(np.sort(rows, axis=1))].reshape(len(suited), len(rest)))
    return (distinct, add_rank, *grids, (1 << _combos(13, 2)).sum(axis=1))


_KERNEL_MAX_BITS: Final = 62
"""The widest outcome (every contested pot's winners' masks together) the kernel packs in one
integer; wider spots (many players and side pots, hi/lo) are counted in numpy."""


def _kernel_counts(
    spot: EquitySpot, holes: Array, rows: list[int], unseen: Array
) -> tuple[list[list[int]], list[int]] | None:
    """:func:`_preflop_counts` in compiled code (``hhparse/rules/_equity_kernel.c``): the same counting
    of the same boards with the same tables, as loops instead of a few hundred numpy calls a spot
    (``docs/performance.md``). ``None`` when the kernel is not installed, turned off, or the spot
    is wider than it takes; the numpy counting then runs."""
    taken = _kernel_pots(spot, rows, holes.shape[1])
    if taken is None:
        return None
    pots, widths = taken
    assert _equity_kernel is not None
    keys, counts = _equity_kernel.counts(
        holes.astype(np.uint8).tobytes(), holes.shape[1], unseen.astype(np.uint8).tobytes(), pots, spot.hilo
    )
    return _decode(keys, widths), counts


def _kernel_known_counts(
    spot: EquitySpot, holes: Array, rows: list[int], unseen: Array, known: Array
) -> tuple[list[list[int]], list[int]] | None:
    """:func:`_known_card_counts` in the compiled kernel, for one known card (pre-flop
    Courchevel); ``None`` as :func:`_kernel_counts`."""
    taken = _kernel_pots(spot, rows, holes.shape[1]) if len(known) == 1 else None
    if taken is None:
        return None
    pots, widths = taken
    assert _equity_kernel is not None
    keys, counts = _equity_kernel.counts_known(
        holes.astype(np.uint8).tobytes(),
        holes.shape[1],
        unseen.astype(np.uint8).tobytes(),
        int(known[0]),
        pots,
        spot.hilo,
    )
    return _decode(keys, widths), counts


def _kernel_listed(
    spot: EquitySpot, holes: Array, rows: list[int], unseen: Array, known: Array
) -> tuple[list[list[int]], list[int]] | None:
    """The outcomes of every board of an exact enumeration with two to four board cards known
    (the flop and the turn) and the boards giving each, from the compiled kernel: each board
    evaluated as :func:`_values_for` evaluates it and counted as :func:`_outcomes` counts it;
    ``None`` as :func:`_kernel_counts`."""
    taken = _kernel_pots(spot, rows, holes.shape[1]) if 2 <= len(known) <= 4 else None
    if taken is None:
        return None
    pots, widths = taken
    assert _equity_kernel is not None
    keys, counts = _equity_kernel.listed(
        holes.astype(np.uint8).tobytes(),
        holes.shape[1],
        unseen.astype(np.uint8).tobytes(),
        known.astype(np.uint8).tobytes(),
        pots,
        spot.hilo,
    )
    return _decode(keys, widths), counts


def _kernel_pots(spot: EquitySpot, rows: list[int], hole_size: int) -> tuple[bytes, list[int]] | None:
    """The contested pots as the kernel reads them (per pot: its number of eligible players, then
    their rows in its odd-chip order) and their outcome widths, the kernel's tables loaded;
    ``None`` when the kernel is not installed, turned off, or the spot is wider than it takes."""
    if _equity_kernel is None or not _USE_KERNEL:
        return None
    row_of = {i: r for r, i in enumerate(rows)}
    pots = bytearray()
    for pot in spot.pots:
        if len(pot.eligible) > 1:
            pots.append(len(pot.eligible))
            pots.extend(row_of[i] for i in pot.eligible)
    widths = _pot_widths(spot)
    if sum(widths) > _KERNEL_MAX_BITS or len(rows) > 16 or hole_size > 16:
        return None
    _kernel_tables()
    return bytes(pots), widths


def _preflop_counts(
    spot: EquitySpot, holes: Array, rows: list[int], unseen: Array
) -> tuple[list[list[int]], list[int]]:
    """Every five-card board of ``unseen`` counted per outcome, exactly, without listing them.

    A board's high without a flush and its low depend only on its rank multiset (at most 6,175
    classes, each counted as the product of the ways to pick its ranks from the unseen cards).
    Suits matter only where a contender holding two cards of a suit meets three or more board
    cards of it: those boards are counted again per suit, per set of ranks in that suit and
    multiset of the other ranks, with the flush taken into account, and taken out of their rank
    class. The outcomes and their counts are those of enumerating every board. ``holes``: the
    contenders' cards (``rows`` their indices in the spot).

    A suit in which one contender alone can make a flush (the usual case) is settled per rank
    class, not per set of suited ranks (:func:`_lone_flush`): that contender's flush, unless a
    straight flush, wins every high it can win and changes nothing where another contender has
    a full house or better, whatever the suited ranks are.

    The compiled kernel counts the same way when it is installed (:func:`_kernel_counts`)."""
    counted = _kernel_counts(spot, holes, rows, unseen)
    if counted is not None:
        return counted
    rc = _rank_classes()
    p = _players(holes)
    n_rows = len(rows)
    nf, lo = _class_values(p, rc, spot.hilo)  # (P, R) each
    his = {i: nf[r] for r, i in enumerate(rows)}
    los = {i: lo[r] for r, i in enumerate(rows)}
    base, widths = _pot_codes(spot, his, los)
    ranks_unseen = RANK[unseen]
    suits_unseen = SUIT[unseen]
    available = np.bincount(ranks_unseen, minlength=13)
    binomials = np.append(_COMB_F[available].ravel(), 1.0)  # C(available[rank], count), _NO_RANK
    ways = binomials.take(rc.distinct[0])  # the boards of each rank class: a product of binomials
    for col in rc.distinct[1:]:
        ways *= binomials.take(col)
    # The boards with three or more cards of a suit in which a contender holds two: per suit,
    # per set of ranks of that suit on the board and multiset of the others' ranks. Their lows
    # are their rank class's: only the high is evaluated again. Each correction moves boards
    # from their class's outcome (weight -w) to their own (+w).
    moves: list[list[Array]] = [[] for _ in base]
    weights: list[Array] = [ways]
    # Each lone flusher's plain flushes (every suit in which it alone holds two cards): each
    # board's class and how many boards; settled per class once, after every suit.
    plain_cls: dict[int, list[Array]] = {}
    plain_ways: dict[int, list[Array]] = {}
    fl_hi: list[list[Array]] = [[] for _ in rows]
    fl_class: list[Array] = []
    fl_ways: list[Array] = []
    for suit in range(4):
        pair_masks = [p.fmask[r][p.fsuit[r] == suit] for r in range(n_rows)]
        flushers = [r for r in range(n_rows) if len(pair_masks[r])]
        if not flushers:
            continue  # no contender can make a flush in this suit
        in_suit = suits_unseen == suit
        u = int(in_suit.sum())
        absent = ~int(RBIT.take(unseen[in_suit]).sum())  # ranks of the suit not in the deck
        off = available - np.bincount(ranks_unseen[in_suit], minlength=13)
        alone = flushers[0] if len(flushers) == 1 else -1
        # A lone flusher whose suited pairs fit in no straight cannot make a straight flush.
        straights = alone < 0 or bool(_IN_A_STRAIGHT.take(pair_masks[alone]).any())
        if alone >= 0:
            lone_cls = plain_cls.setdefault(alone, [])
            lone_ways = plain_ways.setdefault(alone, [])
        for j in (3, 4, 5):
            if u < j:
                break
            fidx, tmask = _suited_sets(j, absent)
            ow = _other_ways(j, off)
            if alone >= 0:
                # Every flush of the lone flusher counted as plain (a multiset of the others'
                # ranks that cannot be dealt counts no board); its straight flushes, found
                # below, are taken back out and counted board by board.
                lone_cls.append(rc.with_suited[j].take(fidx, axis=0).ravel())
                lone_ways.append(_tiled(ow, len(fidx)))
                if not straights:
                    continue
                fl = FL[pair_masks[alone][:, None, None] | tmask[None, :, :]].max(axis=(0, 2))
                sel = np.flatnonzero(fl >= _STRAIGHT_FLUSH_MIN)
                if not len(sel):
                    continue
                fidx = fidx.take(sel)
                fls = {alone: fl.take(sel)}
            else:
                fls = {
                    r: FL[pair_masks[r][:, None, None] | tmask[None, :, :]].max(axis=(0, 2)) for r in flushers
                }
            keep = None
            if not ow.all():
                keep = np.flatnonzero(ow)
                ow = ow.take(keep)
            ridx = _suited_grid(rc.with_suited[j], fidx, keep)  # (F, O) each board's rank class
            for r in range(n_rows):
                high = nf[r].take(ridx)
                if r in fls:
                    np.maximum(high, fls[r][:, None], out=high)
                fl_hi[r].append(high.ravel())
            boards = _tiled(ow, len(fidx))
            fl_class.append(ridx.ravel())
            fl_ways.append(boards)
            if alone >= 0:
                lone_cls.append(fl_class[-1])
                lone_ways.append(-boards)
    for alone, cls in plain_cls.items():
        if cls:
            plain = np.bincount(
                np.concatenate(cls), weights=np.concatenate(plain_ways[alone]), minlength=len(ways)
            )
            _lone_flush(spot, rows, nf, base, rows[alone], plain, moves, weights)
    if fl_class:
        classes = np.concatenate(fl_class)
        flush_ways = np.concatenate(fl_ways).astype(np.float64)
        fl_codes, hi_widths = _pot_codes(
            spot, {i: np.concatenate(fl_hi[r]) for r, i in enumerate(rows)}, {}, True
        )
        was: list[Array] = []
        for b, f, hw, w in zip(base, fl_codes, hi_widths, widths, strict=True):
            before = b.take(classes)
            if w > hw:  # hi/lo: the low winners' bits are those of the board's rank class
                f |= (before >> hw) << hw
            was.append(before)
        _move(fl_codes, was, flush_ways, moves, weights)
    codes = [np.concatenate([b, *m]) for b, m in zip(base, moves, strict=True)]
    return _count_outcomes(codes, widths, np.concatenate(weights), 0)


_STRAIGHT_FLUSH_MIN: Final = STRAIGHT_FLUSH << 20
_FULL_HOUSE_MIN: Final = FULL_HOUSE << 20


def _straight_submasks() -> Array:
    """13-bit rank mask → whether some straight (the wheel included) holds all its ranks."""
    masks = np.arange(8192)
    fits = np.zeros(8192, dtype=bool)
    for top in range(3, 13):
        straight = (1 << 12) | 0b1111 if top == 3 else 0b11111 << (top - 4)
        fits |= (masks & ~straight) == 0
    return fits


_IN_A_STRAIGHT: Final = _straight_submasks()


def _suited_grid(table: Array, fidx: Array, keep: Array | None) -> Array:
    """``table``'s rows ``fidx`` (sets of suited ranks) and columns ``keep`` (the others' rank
    multisets that can be dealt; all of them when None): each board's rank class, (F, O)."""
    grid = table.take(fidx, axis=0)
    return grid if keep is None else grid.take(keep, axis=1)


def _move(
    now: list[Array], was: list[Array], boards: Array, moves: list[list[Array]], weights: list[Array]
) -> None:
    """Record boards (``boards`` of each entry) leaving outcome ``was`` for ``now`` (per pot, one
    code per entry); the entries whose outcome does not change are left out (they cancel)."""
    differ = now[0] != was[0]
    for a, b in zip(now[1:], was[1:], strict=True):
        differ |= a != b
    changed = np.flatnonzero(differ)
    if not len(changed):
        return
    for m, a, b in zip(moves, now, was, strict=True):
        m.append(a.take(changed))
        m.append(b.take(changed))
    moving = boards.take(changed)
    weights.append(moving)
    weights.append(-moving)


def _lone_flush(
    spot: EquitySpot,
    rows: list[int],
    nf: Array,
    base: list[Array],
    flusher: int,
    plain: Array,
    moves: list[list[Array]],
    weights: list[Array],
) -> None:
    """The boards of the suits in which contender ``flusher`` alone holds two cards, with a flush
    that is not a straight flush (``plain[c]`` of them in rank class ``c``, every such suit
    together: a board has three cards of one suit at most), per class.

    Such a flush beats every hand of the others without a flush but a full house or better;
    where another eligible player has one (its value off the class), it beats the flush and the
    flusher's best is the class's anyway, so the pot's high winners are the class's; elsewhere
    the flusher wins the high alone. The low is the class's either way. The boards that change
    outcome leave their class's weight (``weights[0]``, in place) for the class's new outcome,
    one entry per class (no weight where nothing changes), so no class is looked up apart."""
    row_of = {i: r for r, i in enumerate(rows)}
    now: list[Array] = []
    changed: Array | None = None
    contested = [pot for pot in spot.pots if len(pot.eligible) > 1]
    for pot, before in zip(contested, base, strict=True):
        if flusher not in pot.eligible:
            now.append(before)
            continue
        others = [row_of[i] for i in pot.eligible if i != flusher]
        best = nf[others[0]]
        for r in others[1:]:
            best = np.maximum(best, nf[r])
        high = ~((1 << len(pot.eligible)) - 1)  # keeps the low winners' bits
        alone = (before & high) | (1 << pot.eligible.index(flusher))
        wins = best < _FULL_HOUSE_MIN
        differ = wins & (alone != before)
        changed = differ if changed is None else changed | differ
        now.append(np.where(wins, alone, before))
    if changed is None:
        return
    moving = plain * changed
    weights[0] -= moving
    for m, code in zip(moves, now, strict=True):
        m.append(code)
    weights.append(moving)


@lru_cache(maxsize=256)
def _suited_sets(j: int, absent: int) -> tuple[Array, Array]:
    """The sets of ``j`` ranks of a suit none of which is ``absent`` (by lexicographic rank among
    :func:`_combos` (13, j)) and the 13-bit rank masks of their triples, (F, C(j, 3)). A suit's
    cards out of the deck repeat from spot to spot (the same few hole cards), hence the cache."""
    rc = _rank_classes()
    fidx = np.flatnonzero((rc.suited_mask[j] & absent) == 0)
    tmask = rc.suited_tmask[j].take(fidx, axis=0)
    fidx.setflags(write=False)
    tmask.setflags(write=False)
    return fidx, tmask


def _tiled(row: Array, times: int) -> Array:
    """``np.tile(row, times)`` for a 1-D ``row``, in two C calls (``tile`` is Python-level code
    around them, paid several times per pre-flop spot: ``docs/performance.md``)."""
    out: Array = np.repeat(row[None, :], times, axis=0).ravel()
    return out


def _other_ways(j: int, off: Array) -> Array:
    """The ways to pick each multiset of ``5 - j`` ranks (``others[j]`` order) from ``off`` cards
    of each rank: one rank, its count; two, a product or a binomial; none, one way."""
    if j == 5:
        return _ONE_WAY
    if j == 4:
        return off
    a, b = _PAIRS2
    out: Array = off.take(a) * off.take(b)
    out[_SAME2] = off * (off - 1) // 2
    return out


def _known_card_counts(
    spot: EquitySpot, holes: Array, rows: list[int], unseen: Array, known: Array
) -> tuple[list[list[int]], list[int]]:
    """:func:`_preflop_counts` with board cards already known (pre-flop Courchevel: the exposed
    card): every board of the known cards and ``5 - len(known)`` of ``unseen``, counted per
    outcome, exactly, without listing them.

    A board's rank class is the known ranks with a multiset of the new cards' ranks; its boards
    are the ways to pick that multiset from the unseen cards. A board whose cards of a suit, the
    known ones with the new, are three or more, in a suit in which a contender holds two, is
    counted again per suit, set of new ranks in that suit and multiset of the other new ranks,
    with the flush, and taken out of its class.

    The compiled kernel counts the same way when it is installed (:func:`_kernel_known_counts`)."""
    counted = _kernel_known_counts(spot, holes, rows, unseen, known)
    if counted is not None:
        return counted
    rc = _rank_classes()
    p = _players(holes)
    n_rows = len(rows)
    k = 5 - len(known)
    nf, lo = _class_values(p, rc, spot.hilo)  # (P, R) each
    known_ranks = RANK[known]
    ranks_unseen = RANK[unseen]
    suits_unseen = SUIT[unseen]
    available = np.bincount(ranks_unseen, minlength=13)
    multisets, counts = _rank_multisets(k)
    ways = _ways(available, counts)
    keep = np.flatnonzero(ways)
    classes = [_class_of(known_ranks, multisets[keep])]
    weights = [ways[keep]]
    fl_hi: list[list[Array]] = [[] for _ in rows]
    fl_classes: list[Array] = []
    fl_weights: list[Array] = []
    for suit in range(4):
        pair_masks = [p.fmask[r][p.fsuit[r] == suit] for r in range(n_rows)]
        if not any(len(m) for m in pair_masks):
            continue  # no contender can make a flush in this suit
        mine = known[SUIT[known] == suit]
        c = len(mine)
        suited_ranks = ranks_unseen[suits_unseen == suit]  # ascending
        absent = ~int(RBIT[unseen[suits_unseen == suit]].sum())  # ranks of the suit not in the deck
        off = available - np.bincount(suited_ranks, minlength=13)
        for j in range(max(0, 3 - c), k + 1):
            if len(suited_ranks) < j:
                break
            sets = _combos(13, j)
            fr = sets[((1 << sets).sum(axis=1) & absent) == 0]  # (F, j) new ranks of this suit
            others, ocounts = _rank_multisets(k - j)
            ow = _ways(off, ocounts)
            okeep = np.flatnonzero(ow)
            n_f, n_o = len(fr), len(okeep)
            new = np.concatenate(
                [np.repeat(fr, n_o, axis=0), np.tile(others[okeep], (n_f, 1))], axis=1
            )  # (F * O, k) each board's new ranks
            cls = _class_of(known_ranks, new)
            suited = np.concatenate([np.broadcast_to(RANK[mine], (n_f, c)), fr], axis=1)
            tmask = (1 << suited[:, _combos(c + j, 3)]).sum(axis=2)  # (F, triples) of the suit
            for r in range(n_rows):
                high = nf[r].take(cls)
                if len(pair_masks[r]):
                    fl = FL[pair_masks[r][:, None, None] | tmask[None, :, :]].max(axis=(0, 2))
                    np.maximum(high, np.repeat(fl, n_o), out=high)
                fl_hi[r].append(high)
            fl_classes.append(cls)
            fl_weights.append(np.broadcast_to(ow[okeep], (n_f, n_o)).ravel())
    base = classes[0]
    if fl_classes:
        flush_cls = np.concatenate(fl_classes)
        flush_ways = np.concatenate(fl_weights)
        # Those boards leave their rank class, and count with the flush taken into account.
        out = np.rint(np.bincount(flush_cls, weights=flush_ways, minlength=nf.shape[1])).astype(np.int64)
        weights = [weights[0] - out.take(base), flush_ways]
        classes.append(flush_cls)
    everything = np.concatenate(classes)
    his = {i: nf[r].take(everything) for r, i in enumerate(rows)}
    if fl_classes:
        for r, i in enumerate(rows):
            his[i][len(base) :] = np.concatenate(fl_hi[r])
    los = {i: lo[r].take(everything) for r, i in enumerate(rows)}
    codes, widths = _pot_codes(spot, his, los)
    return _count_outcomes(codes, widths, np.concatenate(weights).astype(np.float64), 0)


@lru_cache(maxsize=8)
def _rank_multisets(size: int) -> tuple[Array, Array]:
    """Every multiset of ``size`` ranks (sorted rows, lexicographic) and its rank counts (read-only)."""
    rows = _multisets(size)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    for e in range(size):
        np.add.at(counts, (np.arange(len(rows)), rows[:, e]), 1)
    rows.setflags(write=False)
    counts.setflags(write=False)
    return rows, counts


def _class_of(known_ranks: Array, new: Array) -> Array:
    """The rank class (:func:`_rank_classes`) of each board: the known ranks with a row of ``new``."""
    full = np.concatenate([np.broadcast_to(known_ranks, (len(new), len(known_ranks))), new], axis=1)
    out: Array = _rank_classes().index.take(_base13(np.sort(full, axis=1))).astype(np.intp)
    return out


# --------------------------------------------------------------------------------------------
# Spots and results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EquityPot:
    """One pot as the hand took it: per run, its amount after rake; and who may win it.

    ``runs`` is ``((0, amount),)`` for a single board, ``((1, a1), (2, a2))`` when run twice.
    ``eligible`` are indices into :attr:`EquitySpot.holes` **in odd-chip order** (clockwise from
    the button, first seat after the button first).
    """

    runs: tuple[tuple[int, int], ...]
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EquitySpot:
    """Everything known when the betting ended: cards, pots, and the game's splitting rule.

    ``holes`` are the contenders' hole cards (fewer than ``hole_size`` when not all are known:
    the missing ones are drawn from the deck, Monte Carlo only). ``board`` is the board at that
    point (Courchevel pre-flop: the exposed card). ``dead`` are every other card known to be
    out of the deck (which cards count is the caller's choice, :data:`hhparse.ev.KNOWN_CARDS`).
    """

    hilo: bool
    hole_size: int
    holes: tuple[tuple[str, ...], ...]
    board: tuple[str, ...]
    dead: tuple[str, ...]
    pots: tuple[EquityPot, ...]


@dataclass(frozen=True, slots=True)
class PotShare:
    """A player's expected share of one half of one pot in one run.

    ``half`` is ``whole`` (high-only game, or a pot with one eligible player), ``high`` (the high
    half, or the whole pot on boards where no low qualifies) or ``low``. ``amount`` is the pot's
    amount in that run; ``ev`` the expected chips from this half (minor units, exact mean over
    the boards, or the sample mean), ``std_err`` its standard error (0 when exact); ``total`` the
    share summed over the boards, an integer (``ev = total / boards`` exactly).
    """

    pot: int
    run: int
    half: str
    player: int
    amount: int
    ev: float
    std_err: float
    total: int


@dataclass(frozen=True, slots=True)
class EquityResult:
    """``method``: ``exact`` or ``mc``; ``boards``: boards enumerated or sampled.

    ``ev[i]`` is player ``i``'s expected total over every pot, half and run (minor units);
    ``std_err[i]`` its standard error (0 when exact); ``totals[i]`` the integer sum over the
    boards (``ev[i] = totals[i] / boards`` exactly); ``shares`` the parts it is the sum of.
    """

    method: str
    boards: int
    ev: tuple[float, ...]
    std_err: tuple[float, ...]
    shares: tuple[PotShare, ...]
    totals: tuple[int, ...]


def _cards(cards: Sequence[str]) -> list[int]:
    try:
        return [CARD_INDEX[c] for c in cards]
    except KeyError as exc:
        raise ValueError(f"not a card: {exc.args[0]!r}") from None


def choose_method(n_unseen: int, to_come: int, all_known: bool) -> str:
    """``exact`` when every contender's cards are known and either no board card is known
    (counted by rank class) or the boards are at most :data:`EXACT_MAX_BOARDS`; ``mc``
    otherwise. The one place the choice is made."""
    if all_known and (to_come == 5 or math.comb(n_unseen, to_come) <= EXACT_MAX_BOARDS):
        return "exact"
    return "mc"


def _draw(rng: np.random.Generator, n: int, m: int, size: int, k: int = 0) -> tuple[Array, Array]:
    """``size`` rows of ``m`` distinct values of ``range(n)``, uniformly: (the rows in draw order,
    shape (size, m); their first ``k`` values sorted, shape (size, k)).

    Draw ``i`` is a uniform index ``v`` among the ``n - i`` values not drawn yet, mapped to the
    ``v``-th of them: with the values drawn so far sorted (``a_0 < a_1 < ...``), ``a_j`` lies
    below it exactly when ``a_j - j <= v`` (``a_j - j`` values are free below ``a_j``), so it is
    ``v`` plus the count of those. The sorted values are kept column-major, one small integer
    row per rank, and the new value is inserted at that same count: whole-array operations, no
    sort and no per-previous-draw loop.
    """
    out = np.empty((m, size), dtype=np.int64)
    # a[j] - j for the sorted values so far, one row per j (values < 52 fit int8).
    shifted = np.empty((m, size), dtype=np.int8)
    ranks = np.arange(m, dtype=np.int8)[:, None]
    head = np.empty((0, 0), dtype=np.int64)
    for i in range(m):
        v = rng.integers(0, n - i, size=size)
        if i:
            v8 = v.astype(np.int8)
            prev = shifted[:i]
            count = (prev <= v8).view(np.int8).sum(axis=0, dtype=np.int8)
            out[i] = v8 + count
            # Insert at ``count``: rows below keep ``a_j - j``, the new row is ``v`` (its value
            # minus its rank), rows above move up one rank (``a_{r-1} - r``). Selected by
            # arithmetic on 0/1 masks: ``np.where`` broadcasting three operands is far slower.
            rows = ranks[: i + 1]
            keep = np.empty((i + 1, size), dtype=np.int8)
            keep[:i] = prev
            keep[i] = 0
            moved = np.empty((i + 1, size), dtype=np.int8)
            moved[0] = 0
            np.subtract(prev, 1, out=moved[1:])
            below = (rows < count).view(np.int8)
            at = (rows == count).view(np.int8)
            shifted[: i + 1] = moved + below * (keep - moved) + at * (v8 - moved)
        else:
            out[0] = v
            shifted[0] = v
        if i + 1 == k:
            head = (shifted[:k] + ranks[:k]).T.astype(np.int64)
    return out.T, head


def _winner_code(win: Array) -> Array:
    """Each board's winners (``win``: bool rows, one per eligible player) as a bit mask, int64."""
    code: Array = win[0].astype(np.int64)
    for e in range(1, len(win)):
        code |= win[e].astype(np.int64) << e
    return code


_HEADS_UP: Final = np.array([2, 3, 1], dtype=np.int64)
"""``sign(a - b) + 1`` → the winners' mask of two values where the larger wins (first player
bit 0): the second, both, the first."""


def _kernel_exact(
    spot: EquitySpot, hole_cards: list[list[int]], known: list[int], unseen: list[int], rows: list[int]
) -> EquityResult | None:
    """An exact spot counted and settled by the compiled kernel from plain lists of card indices,
    with no numpy array and no outcome decoded in Python: pre-flop (:func:`_kernel_counts`),
    pre-flop Courchevel (:func:`_kernel_known_counts`), the flop and turn (:func:`_kernel_listed`),
    then :func:`_kernel_settle`. The same counting and the same settlement as the numpy code and
    :func:`_settle`, which the tests compare it with; ``None`` (that code runs) when the kernel is
    not installed, turned off, or the spot is not one of those or wider than it takes."""
    if _equity_kernel is None or not _USE_KERNEL:
        return None
    k = 5 - len(known)
    if not (k == 5 or (k == 4 and 4 in _KNOWN_CARD_CLASSES) or 1 <= k <= 3):
        return None
    h = spot.hole_size
    if any(len(hole_cards[i]) != h for i in rows):
        return None
    taken = _kernel_pots(spot, rows, h)
    if taken is None:
        return None
    pots, widths = taken
    holes = bytes(c for i in rows for c in hole_cards[i])
    deck = bytes(unseen)
    if k == 5:
        keys, counts = _equity_kernel.counts(holes, h, deck, pots, spot.hilo)
    elif k == 4:
        keys, counts = _equity_kernel.counts_known(holes, h, deck, known[0], pots, spot.hilo)
    else:
        keys, counts = _equity_kernel.listed(holes, h, deck, bytes(known), pots, spot.hilo)
    boards = math.comb(len(unseen), k)
    settled = _kernel_settle(spot, keys, counts, boards)
    if settled is None:
        totals, shares, err = _settle(spot, _decode(keys, widths), counts, boards, False)
        return EquityResult(
            "exact", boards, tuple(t / boards for t in totals), tuple(err), tuple(shares), tuple(totals)
        )
    return settled


def _pot_widths(spot: EquitySpot) -> list[int]:
    """Each contested pot's width in a packed outcome (:func:`_joint`)."""
    return [2 * len(p.eligible) if spot.hilo else len(p.eligible) for p in spot.pots if len(p.eligible) > 1]


def _kernel_settle(spot: EquitySpot, keys: list[int], counts: list[int], boards: int) -> EquityResult | None:
    """The exact result of counted outcomes (packed as :func:`_joint` packs them), settled by the
    compiled kernel as :func:`_settle` settles them (its exact branch: totals only, no standard
    errors); ``None`` when a total would not fit the kernel's 64-bit integers (:func:`_settle`
    then runs)."""
    assert _equity_kernel is not None
    contested = [pot for pot in spot.pots if len(pot.eligible) > 1]
    amounts = tuple(tuple(amount for _, amount in pot.runs) for pot in contested)
    try:
        sums = _equity_kernel.settle(
            keys, counts, bytes(len(p.eligible) for p in contested), amounts, spot.hilo
        )
    except OverflowError:
        return None
    all_boards = sum(counts)
    totals = [0] * len(spot.holes)
    shares: list[PotShare] = []
    at = 0
    halves = ("high", "low") if spot.hilo else ("whole",)
    for pot_i, pot in enumerate(spot.pots):
        elig = pot.eligible
        if len(elig) == 1:
            i = elig[0]
            for run, amount in pot.runs:
                total = amount * all_boards
                totals[i] += total
                shares.append(PotShare(pot_i, run, "whole", i, amount, total / boards, 0.0, total))
            continue
        for run, amount in pot.runs:
            for half in halves:
                for i in elig:
                    total = sums[at]
                    at += 1
                    totals[i] += total
                    shares.append(PotShare(pot_i, run, half, i, amount, total / boards, 0.0, total))
    return EquityResult(
        "exact", boards, tuple(t / boards for t in totals), (0.0,) * len(totals), tuple(shares), tuple(totals)
    )


def _pot_codes(
    spot: EquitySpot, his: dict[int, Array], los: dict[int, Array], high_only: bool = False
) -> tuple[list[Array], list[int]]:
    """Per pot with more than one eligible player (in pot order): each board's bit mask of its
    high winners and (hi/lo, unless ``high_only``) of its low winners above them (0 when no low
    qualifies), bits in the pot's odd-chip order; and the mask's width. Everything the
    settlement of a board depends on. A pot between two players (the usual all-in) takes its
    masks from the sign of the difference of their values: one look-up instead of a comparison
    per player."""
    codes: list[Array] = []
    widths: list[int] = []
    hilo = spot.hilo and not high_only
    for pot in spot.pots:
        if len(pot.eligible) == 1:
            continue
        if len(pot.eligible) == 2:
            a, b = pot.eligible
            code = _HEADS_UP.take(np.sign(his[a] - his[b]) + 1)
            if hilo:
                la, lb = los[a], los[b]
                low = _HEADS_UP.take(np.sign(lb - la) + 1)  # the smaller low wins
                low *= np.minimum(la, lb) < NO_LOW
                code |= low << 2
                codes.append(code)
                widths.append(4)
            else:
                codes.append(code)
                widths.append(2)
            continue
        hi = np.stack([his[i] for i in pot.eligible])
        code = _winner_code(hi == hi.max(axis=0))
        width = len(pot.eligible)
        if hilo:
            lo = np.stack([los[i] for i in pot.eligible])
            best = lo.min(axis=0)
            code |= _winner_code((lo == best) & (best < NO_LOW)) << width
            width *= 2
        codes.append(code)
        widths.append(width)
    return codes, widths


def _joint(codes: list[Array], widths: list[int]) -> Array:
    """The pots' masks packed in one integer per board (16 bits at most: see :func:`_densify`)."""
    joint = codes[0].copy()
    shift = widths[0]
    for code, width in zip(codes[1:], widths[1:], strict=True):
        joint |= code << shift
        shift += width
    return joint


def _decode(values: list[int], widths: list[int]) -> list[list[int]]:
    """Packed outcomes (:func:`_joint`) back to one mask per pot."""
    outcomes: list[list[int]] = []
    for v in values:
        parts = []
        for width in widths:
            parts.append(v & ((1 << width) - 1))
            v >>= width
        outcomes.append(parts)
    return outcomes


def _densify(codes: list[Array], widths: list[int]) -> tuple[Array, int]:
    """Each board's outcome as a small dense integer (below the second value returned).

    For pots whose masks do not fit one small integer together (many players, several pots):
    each pot's masks are renumbered densely and combined pot by pot, the combinations renumbered
    again when they grow many."""
    joint = np.zeros(len(codes[0]), dtype=np.int64)
    size = 1
    for code, width in zip(codes, widths, strict=True):
        if width <= 20:
            seen = np.bincount(code, minlength=1 << width)
            values = np.flatnonzero(seen)
            relabel = np.zeros(len(seen), dtype=np.int64)
            relabel[values] = np.arange(len(values))
            local = relabel.take(code)
        else:
            values, local = np.unique(code, return_inverse=True)
            local = local.ravel()
        if size * len(values) > 1 << 16:
            used = np.flatnonzero(np.bincount(joint, minlength=size))
            relabel = np.zeros(size, dtype=np.int64)
            relabel[used] = np.arange(len(used))
            joint = relabel.take(joint)
            size = len(used)
        joint = joint * len(values) + local
        size *= len(values)
    return joint, size


def _count_outcomes(
    codes: list[Array], widths: list[int], weights: Array | None, boards: int
) -> tuple[list[list[int]], list[int]]:
    """The distinct outcomes (per pot, the masks of :func:`_pot_codes`) and the boards giving
    each: the codes counted (``bincount``), each weighted by ``weights`` when given (boards per
    code, possibly negative: a correction)."""
    if not codes:
        return [[]], [boards]
    if sum(widths) <= 16:
        counted = np.bincount(_joint(codes, widths), weights=weights, minlength=1 << sum(widths))
        values = np.flatnonzero(counted)
        outcomes = _decode(values.tolist(), widths)
    else:
        joint, size = _densify(codes, widths)
        counted = np.bincount(joint, weights=weights, minlength=size)
        values = np.flatnonzero(counted)
        board = np.empty(size, dtype=np.intp)
        board[joint] = np.arange(len(joint))  # a board of each outcome (any one: they all agree)
        outcomes = np.stack([code.take(board.take(values)) for code in codes], axis=1).tolist()
    counts = counted[values]
    if weights is not None:
        counts = np.rint(counts).astype(np.int64)  # whole numbers of boards, exact in a float64
    return outcomes, counts.tolist()


def _outcomes(
    spot: EquitySpot, his: dict[int, Array], los: dict[int, Array], boards: int
) -> tuple[list[list[int]], list[int]]:
    """The distinct outcomes over the boards (:func:`_pot_codes`) and how many boards give each.

    Boards are counted per outcome, so the pots are settled once per outcome rather than once
    per board."""
    codes, widths = _pot_codes(spot, his, los)
    return _count_outcomes(codes, widths, None, boards)


def _split_mask(amount: int, mask: int, n: int) -> list[int]:
    """``amount`` shared among the winners in ``mask`` (bits in odd-chip order, ``n`` players),
    odd units to the first winners (``split_evenly`` of :mod:`hhparse.rules.pots`)."""
    out = [0] * n
    if not mask:
        return out
    base, odd = divmod(amount, bin(mask).count("1"))
    rank = 0
    for e in range(n):
        if mask >> e & 1:
            out[e] = base + 1 if rank < odd else base
            rank += 1
    return out


def _weighted_split(amounts: list[int], masks: list[int], weights: list[int], n: int) -> list[int]:
    """Each of ``n`` players' total over outcomes: ``amounts[o]`` shared among the winners in
    ``masks[o]`` as :func:`_split_mask` shares it, times ``weights[o]``; summed as it goes, with no
    list per outcome (the exact settlement needs only these totals)."""
    sums = [0] * n
    for amount, mask, c in zip(amounts, masks, weights, strict=True):
        if not mask:
            continue
        base, odd = divmod(amount, mask.bit_count())
        rank = 0
        for e in range(n):
            if mask >> e & 1:
                sums[e] += c * (base + 1 if rank < odd else base)
                rank += 1
    return sums


def _std_err(s1: int, s2: int, boards: int) -> float:
    """Standard error of the mean of ``boards`` integer samples with sum ``s1`` and sum of
    squares ``s2`` (sample variance, ``ddof = 1``), from exact integer sums."""
    if boards < 2:
        return 0.0
    num = boards * s2 - s1 * s1
    return math.sqrt(max(num, 0) / (boards * (boards - 1)) / boards)


def _settle(
    spot: EquitySpot, outcomes: list[list[int]], counts: list[int], boards: int, mc: bool
) -> tuple[list[int], list[PotShare], list[float]]:
    """Every player's total, every share and every player's standard error (0 unless ``mc``).

    Each distinct outcome (:func:`_outcomes`) is settled as the room settles a board (hi/lo
    halves with the odd chip to the high half, a no-low board's whole pot to the high hand, ties
    shared with odd chips to the first winners), and weighted by the boards that give it: exact
    integer totals, and the standard errors from exact sums of squares. Exact results need only
    totals, so each pot is settled once per distinct mask of its own winners (outcomes differing
    in other pots share it); a sample's standard errors need each outcome's whole settlement."""
    n_players = len(spot.holes)
    n_out = len(outcomes)
    per_outcome = [[0] * n_out for _ in range(n_players)]  # each player's total per outcome (mc)
    totals = [0] * n_players
    shares: list[PotShare] = []
    hilo = spot.hilo

    def record(pot_i: int, run: int, half: str, elig: tuple[int, ...], amount: int, sums: list[int]) -> None:
        """Record one half of one pot-run from each eligible player's total (exact results)."""
        for i, total in zip(elig, sums, strict=True):
            totals[i] += total
            shares.append(PotShare(pot_i, run, half, i, amount, total / boards, 0.0, total))

    def add(
        pot_i: int,
        run: int,
        half: str,
        elig: tuple[int, ...],
        amount: int,
        got: list[list[int]],
        weights: list[int],
    ) -> None:
        """Record one half of one pot-run; ``got[o][e]``: eligible ``e``'s chips in outcome ``o``,
        which ``weights[o]`` boards give."""
        if not mc:  # totals only: outcome by outcome, every eligible player at once
            sums = [0] * len(elig)
            for c, g in zip(weights, got, strict=True):
                for e, x in enumerate(g):
                    sums[e] += c * x
            record(pot_i, run, half, elig, amount, sums)
            return
        for e, i in enumerate(elig):
            xs = [g[e] for g in got]
            total = sum(c * x for c, x in zip(weights, xs, strict=True))
            err = 0.0
            if mc:
                err = _std_err(total, sum(c * x * x for c, x in zip(weights, xs, strict=True)), boards)
                mine = per_outcome[i]
                for o, x in enumerate(xs):
                    mine[o] += x
            totals[i] += total
            shares.append(PotShare(pot_i, run, half, i, amount, total / boards, err, total))

    pot_c = 0
    for pot_i, pot in enumerate(spot.pots):
        elig = pot.eligible
        n = len(elig)
        if n == 1:
            for run, amount in pot.runs:
                add(pot_i, run, "whole", elig, amount, [[amount]] * n_out, counts)
            continue
        masks = [o[pot_c] for o in outcomes]
        pot_c += 1
        weights = counts
        if not mc:
            grouped: dict[int, int] = {}
            for m, c in zip(masks, counts, strict=True):
                grouped[m] = grouped.get(m, 0) + c
            masks, weights = list(grouped), list(grouped.values())
        full = (1 << n) - 1
        for run, amount in pot.runs:
            if not mc:  # totals only: each distinct mask's split weighted, no per-outcome lists
                if hilo:
                    half = amount // 2
                    high_amounts = [amount - half if m >> n else amount for m in masks]
                    sums = _weighted_split(high_amounts, [m & full for m in masks], weights, n)
                    record(pot_i, run, "high", elig, amount, sums)
                    sums = _weighted_split([half] * len(masks), [m >> n for m in masks], weights, n)
                    record(pot_i, run, "low", elig, amount, sums)
                else:
                    record(
                        pot_i,
                        run,
                        "whole",
                        elig,
                        amount,
                        _weighted_split([amount] * len(masks), masks, weights, n),
                    )
                continue
            if hilo:
                half = amount // 2
                high = [_split_mask(amount - half if m >> n else amount, m & full, n) for m in masks]
                add(pot_i, run, "high", elig, amount, high, weights)
                low = [_split_mask(half, m >> n, n) for m in masks]
                add(pot_i, run, "low", elig, amount, low, weights)
            else:
                add(pot_i, run, "whole", elig, amount, [_split_mask(amount, m, n) for m in masks], weights)
    err = [0.0] * n_players
    if mc:
        for i, xs in enumerate(per_outcome):
            s1 = sum(c * x for c, x in zip(counts, xs, strict=True))
            err[i] = _std_err(s1, sum(c * x * x for c, x in zip(counts, xs, strict=True)), boards)
    return totals, shares, err


def equity(
    spot: EquitySpot,
    *,
    method: str | None = None,
    samples: int = MC_SAMPLES,
    seed: int = 0,
) -> EquityResult:
    """Each contender's expected share of every pot, half and run (see the module docstring).

    ``method`` forces ``exact`` or ``mc`` (tests; ``exact`` with unknown cards is refused);
    by default :func:`choose_method` decides. Monte Carlo draws ``samples`` boards from a
    generator seeded with ``seed``, so the same spot and seed always give the same figures.

    Raises:
        ValueError: a card that is not a card, a card known twice, a board of more than five
            cards, a pot naming no contender, too few cards left to deal, or exact enumeration
            asked with unknown cards.
    """
    hole_cards = [_cards(h) for h in spot.holes]
    known_cards = _cards(spot.board)
    dead = _cards(spot.dead)
    seen = {*known_cards, *dead}
    n_seen = len(known_cards) + len(dead)
    for cards in hole_cards:
        seen.update(cards)
        n_seen += len(cards)
    if len(seen) != n_seen:
        raise ValueError("a card is known twice")
    if len(known_cards) > 5:
        raise ValueError(f"a board has at most five cards, got {len(known_cards)}")
    for pot in spot.pots:
        if not pot.eligible or any(not 0 <= i < len(hole_cards) for i in pot.eligible):
            raise ValueError(f"pot eligibility {pot.eligible} names no contender")
    unseen_cards = [c for c in range(52) if c not in seen]
    n, b0 = len(unseen_cards), len(known_cards)
    k = 5 - b0
    missing = [spot.hole_size - len(h) for h in hole_cards]
    contested = {i for pot in spot.pots if len(pot.eligible) > 1 for i in pot.eligible}
    all_known = all(missing[i] <= 0 for i in contested)
    if n < k + sum(max(missing[i], 0) for i in contested):
        raise ValueError(f"{n} unseen cards cannot complete the board and the unknown hands")
    if method is None:
        method = choose_method(n, k, all_known) if contested else "exact"
    if method not in ("exact", "mc"):
        raise ValueError(f"method must be exact or mc, not {method!r}")
    if method == "exact" and not all_known:
        raise ValueError("exact enumeration needs every contender's hole cards")
    if method == "exact" and contested and (k <= 3 or _BY_RANK_CLASS):
        fast = _kernel_exact(spot, hole_cards, known_cards, unseen_cards, sorted(contested))
        if fast is not None:
            return fast
    holes = [np.array(h, dtype=np.int64) for h in hole_cards]
    known = np.array(known_cards, dtype=np.int64)
    unseen = np.array(unseen_cards, dtype=np.int64)
    if method == "exact" and k == 5 and contested and _BY_RANK_CLASS:
        rows = sorted(contested)
        counted = _preflop_counts(spot, np.stack([holes[i] for i in rows]), rows, unseen)
        boards = math.comb(n, 5)
        totals, shares, err = _settle(spot, *counted, boards, False)
        ev = tuple(t / boards for t in totals)
        return EquityResult("exact", boards, ev, tuple(err), tuple(shares), tuple(totals))
    if method == "exact" and k in _KNOWN_CARD_CLASSES and contested and _BY_RANK_CLASS:
        rows = sorted(contested)
        counted = _known_card_counts(spot, np.stack([holes[i] for i in rows]), rows, unseen, known)
        boards = math.comb(n, k)
        totals, shares, err = _settle(spot, *counted, boards, False)
        ev = tuple(t / boards for t in totals)
        return EquityResult("exact", boards, ev, tuple(err), tuple(shares), tuple(totals))

    if method == "exact" and 1 <= k <= 3 and contested:
        rows = sorted(contested)
        listed = _kernel_listed(spot, np.stack([holes[i] for i in rows]), rows, unseen, known)
        if listed is not None:
            boards = math.comb(n, k)
            totals, shares, err = _settle(spot, *listed, boards, False)
            ev = tuple(t / boards for t in totals)
            return EquityResult("exact", boards, ev, tuple(err), tuple(shares), tuple(totals))

    hilo = spot.hilo
    his: dict[int, Array] = {}
    los: dict[int, Array] = {}
    if not contested:
        boards = 1
    elif k == 0:
        boards = 1
        for i in contested:
            h, lo = hand_values(holes[i][None, :], known[None, :], hilo)
            his[i], los[i] = h, lo
    else:
        flat: tuple[Array, ...] | None
        if method == "exact":
            flat = None if k <= 3 else _exact_board_flat(n, b0)
            boards = math.comb(n, k)
            drawn_holes: Array | None = None
            new: Array | None = None
        else:
            rng = np.random.default_rng(seed)
            need = sum(max(missing[i], 0) for i in contested)
            drawn, new = _draw(rng, n, k + need, samples, k)
            drawn_holes = drawn[:, k:]
            boards = samples
        whole = [i for i in sorted(contested) if missing[i] <= 0]
        if whole and method == "mc" and _kernel_values_usable(holes[i].shape[0] for i in whole):
            # each drawn board evaluated on its own by the kernel, as the drawn hands are below
            assert new is not None
            board_rows = np.concatenate([np.broadcast_to(known, (boards, b0)), unseen[new]], axis=1)
            for i in whole:
                his[i], los[i] = _kernel_hand_values(
                    holes[i].astype(np.uint8).tobytes(), len(holes[i]), board_rows, hilo
                )
            whole = []
        if whole:
            if method == "mc":
                assert new is not None
                flat = _board_flat_rows(new, n, b0)
            triples = _spot_triples(known, unseen)
            hi_rows, lo_rows = _values_for(
                _players(np.stack([holes[i] for i in whole])), known, unseen, flat, hilo, triples
            )
            for row, i in enumerate(whole):
                his[i], los[i] = hi_rows[row], lo_rows[row]
        col = 0
        for i in sorted(contested):
            if missing[i] <= 0:
                continue
            assert drawn_holes is not None and new is not None  # mc only
            extra = unseen[drawn_holes[:, col : col + missing[i]]]
            col += missing[i]
            hole_rows = np.concatenate([np.broadcast_to(holes[i], (boards, len(holes[i]))), extra], axis=1)
            board_rows = np.concatenate([np.broadcast_to(known, (boards, b0)), unseen[new]], axis=1)
            his[i], los[i] = hand_values(hole_rows, board_rows, hilo)

    mc = method == "mc" and bool(contested) and k > 0
    totals, shares, err = _settle(spot, *_outcomes(spot, his, los, boards), boards, mc)
    ev = tuple(t / boards for t in totals)
    return EquityResult(
        method if contested and k > 0 else "exact", boards, ev, tuple(err), tuple(shares), tuple(totals)
    )
