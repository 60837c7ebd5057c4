"""Omaha-family hand evaluation: best high and best 8-or-better low, exactly 2 hole + 3 board cards.

Why it is built this way (the referee evaluates every shown hand of millions of hands):

* **High, non-flush part.** Without suits, a five-card hand is a rank multiset, identified by the
  product of one prime per rank. A dict from product to value (at most 6,175 entries) gives it. For a
  board, the best non-flush value for a hole *pair* depends only on the two hole ranks and the
  board's rank multiset, so it is memoised in a row per board multiset (at most 8,463 multisets
  of 3-5 cards, 169 slots each, filled lazily). Once warm, a 5-card hand's high is 10 list
  lookups instead of 100 five-card evaluations.
* **High, flush part.** A flush needs three board cards and two hole cards of one suit; a five-card
  board has at most one such suit. Those few combinations are looked up by 13-bit rank mask.
  The overall high is the maximum of both parts (a suited combination's non-flush value is never
  higher than its flush value, so taking the maximum is exact).
* **Low.** Only distinct ranks A-8 matter. A 5-rank low written as a bit mask (A = bit 0 ...
  8 = bit 7) compares *as an integer* exactly like an ace-to-five low compares card by card from
  the top, so the mask is the low's rank (smaller is better). The best low depends only on the
  hole's and the board's 8-bit masks: a 65,536-slot table, filled lazily.

Hand values (``HighHand.rank``) are ``category << 20`` plus the tie-break ranks in 4-bit nibbles,
so they compare correctly as ints and decode to the description PokerStars prints.

Every table is filled on first use, entry by entry, never at import: ``hhparse check`` of a file
without a showdown, ``hhparse --help`` and every command that never evaluates a hand do not pay for
tables they never read (issue 16, start-up; ``tests/test_startup.py``). A filled entry is the value
the eager tables held (``tests/test_evaluate.py`` compares them over every five-card hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from hhparse.memo import remember

__all__ = [
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "PAIR",
    "RANK_NAMES",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "HighHand",
    "LowHand",
    "best_high",
    "best_low",
    "describe_high",
    "describe_low",
    "evaluate",
    "high_category",
    "high_rank_5",
    "low_rank_5",
]

# --------------------------------------------------------------------------------------------
# Public result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HighHand:
    """A high hand: larger ``rank`` wins; ``description`` is PokerStars' wording."""

    rank: int
    description: str


@dataclass(frozen=True, slots=True)
class LowHand:
    """A qualifying low: SMALLER ``rank`` wins; ``description`` like ``"7,5,4,3,A"``."""

    rank: int
    description: str


HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = (
    range(9)
)

_RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = "cdhs"
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: Each rank's name as PokerStars writes it in hand descriptions (Deuce … Ace).
RANK_NAMES = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_PLURALS = tuple("Sixes" if n == "Six" else n + "s" for n in RANK_NAMES)
_LOW_CHARS = "A2345678"  # bit i of a low mask

# --------------------------------------------------------------------------------------------
# Value encoding and descriptions
# --------------------------------------------------------------------------------------------


def _pack(category: int, ranks: Sequence[int]) -> int:
    """``category`` then up to five tie-break ranks, most significant first (4 bits each)."""
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def high_category(rank: int) -> int:
    """The hand category (``HIGH_CARD`` ... ``STRAIGHT_FLUSH``) of a high value."""
    return rank >> 20


def _nibbles(rank: int) -> tuple[int, int, int, int, int]:
    return ((rank >> 16) & 15, (rank >> 12) & 15, (rank >> 8) & 15, (rank >> 4) & 15, rank & 15)


def _describe_high(rank: int) -> str:
    """PokerStars' wording, checked against every shown hand of the corpus."""
    cat = rank >> 20
    a, b, *_ = _nibbles(rank)
    if cat == HIGH_CARD:
        return f"high card {RANK_NAMES[a]}"
    if cat == PAIR:
        return f"a pair of {_PLURALS[a]}"
    if cat == TWO_PAIR:
        return f"two pair, {_PLURALS[a]} and {_PLURALS[b]}"
    if cat == THREE_OF_A_KIND:
        return f"three of a kind, {_PLURALS[a]}"
    if cat == STRAIGHT:
        return f"a straight, {RANK_NAMES[(a - 4) % 13]} to {RANK_NAMES[a]}"  # wheel: top Five, low Ace
    if cat == FLUSH:
        return f"a flush, {RANK_NAMES[a]} high"
    if cat == FULL_HOUSE:
        return f"a full house, {_PLURALS[a]} full of {_PLURALS[b]}"
    if cat == FOUR_OF_A_KIND:
        return f"four of a kind, {_PLURALS[a]}"
    if a == 12:
        return "a Royal Flush"
    return f"a straight flush, {RANK_NAMES[(a - 4) % 13]} to {RANK_NAMES[a]}"


def _describe_low(mask: int) -> str:
    return ",".join(_LOW_CHARS[i] for i in range(7, -1, -1) if mask >> i & 1)


# --------------------------------------------------------------------------------------------
# Value tables (each entry computed on first use, then kept: finite domains)
# --------------------------------------------------------------------------------------------

_STRAIGHT_TOP: dict[int, int] = {0b11111 << (top - 4): top for top in range(4, 13)}
_STRAIGHT_TOP[(1 << 12) | 0b1111] = 3  # A-2-3-4-5: the Five is the top card


def _distinct_value(mask: int, flush: bool) -> int:
    """Value of five distinct ranks (a 13-bit mask), suited or not."""
    top = _STRAIGHT_TOP.get(mask)
    if top is not None:
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, (top,))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _pack(FLUSH if flush else HIGH_CARD, ranks)


def _product_value(product: int) -> int:
    """The non-flush value of the rank multiset ``product``, memoised in ``_BY_PRODUCT``."""
    value = _BY_PRODUCT.get(product)
    if value is None:
        value = _BY_PRODUCT[product] = _multiset_value(product)
    return value


def _multiset_value(product: int) -> int:
    """The value of the five ranks whose primes multiply to ``product`` (no five of a kind);
    KeyError when it is no such product.

    Why it is written out: a process's first hands fill most of the memo (``_BY_PRODUCT``)
    through here, thousands of multisets in its first few hundred hands: one pass over the
    ranks, high to low, counting each, then the ranks by count and rank, with no dict, sort or
    key function (``tests/test_rules_evaluate.py`` checks it against the textbook ordering)."""
    primes = _PRIMES
    counts = [0] * 13
    left = product
    n = 0
    top = 0
    r = 12
    while r >= 0 and left != 1:
        p = primes[r]
        while left % p == 0:
            left //= p
            n += 1
            if n > 5:
                raise KeyError(product)
            c = counts[r] + 1
            counts[r] = c
            if c > top:
                top = c
        r -= 1
    if left != 1 or n != 5 or top == 5:  # five of a kind: impossible with one deck
        raise KeyError(product)
    if top == 1:
        mask = 0
        for r in range(13):
            if counts[r]:
                mask |= 1 << r
        return _distinct_value(mask, False)
    order: list[int] = []
    for c in range(top, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c:
                order.append(r)
    distinct = len(order)
    if top == 4:
        category = FOUR_OF_A_KIND
    elif top == 3:
        category = FULL_HOUSE if distinct == 2 else THREE_OF_A_KIND
    else:
        category = TWO_PAIR if distinct == 3 else PAIR
    return _pack(category, order)


def _flush_value(mask: int) -> int:
    """The value of five suited distinct ranks (a 13-bit mask), memoised in ``_FLUSH_BY_MASK``."""
    value = _FLUSH_BY_MASK[mask]
    if value == 0:
        value = _FLUSH_BY_MASK[mask] = _distinct_value(mask, True)
    return value


def _high_hand(value: int) -> HighHand:
    """The one :class:`HighHand` of ``value``: the hot path never builds two."""
    hand = _HIGH_HANDS.get(value)
    if hand is None:
        hand = _HIGH_HANDS[value] = HighHand(value, _describe_high(value))
    return hand


# rank-multiset product (five of a kind excluded) -> non-flush value
_BY_PRODUCT: dict[int, int] = {}
# 13-bit mask of five distinct ranks -> flush value; 0 = not computed yet (no value is 0)
_FLUSH_BY_MASK: list[int] = [0] * 8192
# value -> its result object
_HIGH_HANDS: dict[int, HighHand] = {}

# Per card: (rank, suit, prime, rank bit, low bit, 13 * rank). One dict lookup per card per call.
_Info = tuple[int, int, int, int, int, int]
_CARD: dict[str, _Info] = {}
for _r, _rc in enumerate(_RANK_CHARS):
    for _s, _sc in enumerate(_SUIT_CHARS):
        _low_bit = 1 << (_r + 1) if _r <= 6 else 1 if _r == 12 else 0
        _CARD[_rc + _sc] = (_r, _s, _PRIMES[_r], 1 << _r, _low_bit, 13 * _r)

# Index pairs/triples of positions: combinations computed once, not per call (pairs of up to
# seven cards up front, more on first use: see _pairs).
_PAIRS: dict[int, tuple[tuple[int, int], ...]] = {n: tuple(combinations(range(n), 2)) for n in range(2, 8)}
_TRIPLES: dict[int, tuple[tuple[int, int, int], ...]] = {
    n: tuple(combinations(range(n), 3)) for n in (3, 4, 5)
}


def _pairs(n: int) -> tuple[tuple[int, int], ...]:
    pairs = _PAIRS.get(n)
    if pairs is None:
        pairs = _PAIRS[n] = tuple(combinations(range(n), 2))
    return pairs


# Every possible low result object (56), built once so the hot path never constructs a dataclass.
_LOW_HANDS: dict[int, LowHand | None] = {
    m: LowHand(m, _describe_low(m))
    for m in (sum(1 << i for i in ranks) for ranks in combinations(range(8), 5))
}
_LOW_HANDS[0] = None

# --------------------------------------------------------------------------------------------
# Memo tables (bounded by the finite domains described in the module docstring)
# --------------------------------------------------------------------------------------------

# board rank-multiset product -> (169 slots indexed 13 * r1 + r2 of the hole pair, 0 = not yet
# computed; the distinct 3-card rank products of that multiset)
_ROWS: dict[int, tuple[list[int], tuple[int, ...]]] = {}
_LOW = [-1] * 65536  # (hole low mask << 8 | board low mask) -> best low mask, 0 = none, -1 = unknown


class _Board:
    """What a board contributes, computed once per distinct board (memoised in ``_BOARDS``)."""

    __slots__ = ("flush_masks", "flush_suit", "low_mask", "row", "triples")

    def __init__(self, board: tuple[str, ...]) -> None:
        n = len(board)
        if not 3 <= n <= 5:
            raise ValueError(f"board must have 3-5 cards, got {n}: {list(board)!r}")
        info = _cards(board)
        key = 1
        low = 0
        for c in info:
            key *= c[2]
            low |= c[4]
        memo = _ROWS.get(key)
        if memo is None:
            triples = tuple({info[i][2] * info[j][2] * info[k][2] for i, j, k in _TRIPLES[n]})
            memo = _ROWS[key] = ([0] * 169, triples)
        self.row, self.triples = memo
        self.low_mask = low
        self.flush_suit = -1
        self.flush_masks: tuple[int, ...] = ()
        suits = [c[1] for c in info]
        for s in set(suits):
            if suits.count(s) >= 3:
                suited = [c[3] for c in info if c[1] == s]
                self.flush_suit = s
                self.flush_masks = tuple(
                    suited[i] | suited[j] | suited[k] for i, j, k in _TRIPLES[len(suited)]
                )


_BOARDS: dict[tuple[str, ...], _Board] = {}
_BOARDS_MAX = 512  # boards repeat only within a hand (one per player shown): keep a few


def _cards(cards: Sequence[str]) -> list[_Info]:
    try:
        return [_CARD[x] for x in cards]
    except (KeyError, TypeError):
        bad = [x for x in cards if not isinstance(x, str) or x not in _CARD]
        raise ValueError(f"not a card: {bad[0]!r}") from None


def _board(board: Sequence[str]) -> _Board:
    key = board if type(board) is tuple else tuple(board)
    b = _BOARDS.get(key)
    if b is None:
        b = remember(_BOARDS, _BOARDS_MAX, key, _Board(key))
    return b


# --------------------------------------------------------------------------------------------
# Core (integers in, integers out)
# --------------------------------------------------------------------------------------------


def _fill(b: _Board, slot: int) -> int:
    """Best non-flush value of the hole ranks in ``slot`` on this board multiset; memoised."""
    r1, r2 = divmod(slot, 13)
    pp = _PRIMES[r1] * _PRIMES[r2]
    by_product = _BY_PRODUCT
    value = 0
    for t in b.triples:
        v = by_product.get(pp * t)
        if v is None:
            v = _product_value(pp * t)
        if v > value:
            value = v
    row = b.row
    row[slot] = row[r2 * 13 + r1] = value
    return value


def _low_of_masks(hole_mask: int, board_mask: int) -> int:
    """Best low mask from 2 of the hole's low ranks + 3 of the board's (0 when none qualifies)."""
    hole_bits = [1 << i for i in range(8) if hole_mask >> i & 1]
    board_bits = [1 << i for i in range(8) if board_mask >> i & 1]
    best = 0
    for h1, h2 in combinations(hole_bits, 2):
        h = h1 | h2
        for b1, b2, b3 in combinations(board_bits, 3):
            bm = b1 | b2 | b3
            if not h & bm and (best == 0 or h | bm < best):
                best = h | bm
    return best


def _values(hole: Sequence[str], board: Sequence[str], hilo: bool) -> tuple[int, int]:
    """(high value, low mask or 0). One function, hand-inlined: this is the hot path."""
    key = board if type(board) is tuple else tuple(board)
    b = _BOARDS.get(key)
    if b is None:
        b = _board(key)
    cs = _cards(hole)
    n = len(cs)
    if n == 5:  # unrolled: the Courchevel / 5 Card Omaha case
        c0, c1, c2, c3, c4 = cs
        a0, a1, a2, a3 = c0[5], c1[5], c2[5], c3[5]
        r1, r2, r3, r4 = c1[0], c2[0], c3[0], c4[0]
        slots: tuple[int, ...] = (
            a0 + r1,
            a0 + r2,
            a0 + r3,
            a0 + r4,
            a1 + r2,
            a1 + r3,
            a1 + r4,
            a2 + r3,
            a2 + r4,
            a3 + r4,
        )
    elif n >= 2:
        slots = tuple([cs[i][5] + cs[j][0] for i, j in _pairs(n)])
    else:
        raise ValueError(f"need at least 2 hole cards, got {n}: {list(hole)!r}")
    row = b.row
    vals = [row[k] for k in slots]
    if 0 in vals:
        vals = [v or _fill(b, k) for v, k in zip(vals, slots, strict=True)]
    high = max(vals)
    fs = b.flush_suit
    if fs >= 0:  # a straight flush can beat quads, so never skip this
        suited = [c[3] for c in cs if c[1] == fs]
        if len(suited) >= 2:
            table = _FLUSH_BY_MASK
            for i, j in _pairs(len(suited)):
                hm = suited[i] | suited[j]
                for bm in b.flush_masks:
                    v = table[hm | bm] or _flush_value(hm | bm)
                    if v > high:
                        high = v
    if not hilo:
        return high, 0
    hm = 0
    for c in cs:
        hm |= c[4]
    lk = hm << 8 | b.low_mask
    low = _LOW[lk]
    if low < 0:
        low = _LOW[lk] = _low_of_masks(hm, b.low_mask)
    return high, low


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def best_high(hole: Sequence[str], board: Sequence[str]) -> HighHand:
    """Best high hand from exactly two of ``hole`` and exactly three of ``board`` (3-5 cards).

    Does not check that cards are distinct (see :func:`hhparse.rules.cards.ensure_distinct`).
    """
    return _high_hand(_values(hole, board, False)[0])


def best_low(hole: Sequence[str], board: Sequence[str]) -> LowHand | None:
    """Best ace-to-five 8-or-better low from exactly 2 hole + 3 board cards, or ``None``."""
    return _LOW_HANDS[_values(hole, board, True)[1]]


def evaluate(hole: Sequence[str], board: Sequence[str], hilo: bool) -> tuple[HighHand, LowHand | None]:
    """Both halves at once (the board is analysed once). The low is ``None`` when not ``hilo``."""
    high, low = _values(hole, board, hilo)
    return _high_hand(high), _LOW_HANDS[low]


def high_rank_5(cards: Sequence[str]) -> int:
    """Value of exactly five cards as a high hand (same scale as :attr:`HighHand.rank`)."""
    if len(cards) != 5:
        raise ValueError(f"need exactly 5 cards, got {len(cards)}")
    info = _cards(cards)
    if len({c[1] for c in info}) == 1:
        mask = 0
        for c in info:
            mask |= c[3]
        if bin(mask).count("1") == 5:
            return _flush_value(mask)
    product = 1
    for c in info:
        product *= c[2]
    try:
        return _product_value(product)
    except KeyError:
        raise ValueError(f"five of a kind is impossible: {list(cards)!r}") from None


def low_rank_5(cards: Sequence[str]) -> int | None:
    """Low rank of exactly five cards (smaller is better), or ``None`` when they are not a low."""
    if len(cards) != 5:
        raise ValueError(f"need exactly 5 cards, got {len(cards)}")
    mask = 0
    for c in _cards(cards):
        if not c[4] or mask & c[4]:
            return None
        mask |= c[4]
    return mask


def describe_high(rank: int) -> str:
    """PokerStars' description of a high value (e.g. from :func:`high_rank_5`)."""
    return _describe_high(rank)


def describe_low(rank: int) -> str:
    """``"7,5,4,3,A"`` for a low rank."""
    return _describe_low(rank)
