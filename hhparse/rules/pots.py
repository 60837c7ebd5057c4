"""Pure money rules: bet sizes, side pots, splits and rake.

Every function here is a pure function of ints and names, with no state object, so that the
referee, the synthetic-history generator and the tests all share one definition of each rule and
each can be tested alone (style anchor 5). Names and signatures are part of the public interface:
other modules call them, so never rename one; add a new function instead.

Money is always an ``int`` in the hand's smallest unit (one cent, one tournament chip): the
odd-chip rules below are about that unit.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final

from hhparse.model import Record, Street

__all__ = [
    "RAKE_CUMULATIVE",
    "RAKE_MAIN_FIRST",
    "RAKE_PROPORTIONAL",
    "Pot",
    "apply_rake",
    "clockwise_from_button",
    "cumulative_rake_fits",
    "cumulative_rake_rate",
    "fixed_limit_size",
    "hilo_halves",
    "min_bet",
    "min_raise_to",
    "pot_limit_max_to",
    "rake_allocation",
    "rake_cumulative",
    "rake_main_first",
    "rake_proportional_bounds",
    "run_twice_halves",
    "side_pots",
    "split_evenly",
]


class Pot(Record):
    """One pot: its chips and the players who can win it, in the ``order`` given to :func:`side_pots`.

    A :class:`~hhparse.model.Record` like the model's, for its reasons: compiled, a frozen
    dataclass keeps a Python ``__init__`` (one ``object.__setattr__`` per field), and the
    settlement builds a few pots a hand.
    """

    __match_args__ = ("amount", "eligible")

    def __init__(self, amount: int, eligible: tuple[str, ...]) -> None:
        self.amount: Final = amount
        self.eligible: Final = eligible


# --------------------------------------------------------------------------------------------
# Bet sizes
# --------------------------------------------------------------------------------------------


def min_bet(big_blind: int) -> int:
    """Smallest opening bet in pot and no limit: the big blind (a short all-in may bet less)."""
    return big_blind


def min_raise_to(current_bet: int, last_raise_size: int, big_blind: int) -> int:
    """Smallest legal "raise to" total in pot and no limit.

    A raise must be at least as large as the previous bet or raise in the round, and never smaller
    than the big blind (which is the size of the opening "bet" pre-flop). ``last_raise_size`` is
    the increment of the last *full* bet or raise: a short all-in raise does not change it.

    >>> min_raise_to(current_bet=25, last_raise_size=25, big_blind=25)
    50
    >>> min_raise_to(current_bet=75, last_raise_size=50, big_blind=25)
    125
    """
    return current_bet + max(last_raise_size, big_blind)


def pot_limit_max_to(pot_total: int, current_bet: int, player_street_bet: int) -> int:
    """Largest legal "raise to" (or bet) total in pot limit.

    ``pot_total`` is every chip in the middle, *including* every bet already on the table this
    street (blinds included pre-flop). The raiser first calls (``current_bet - player_street_bet``),
    which makes the pot ``pot_total + call``; then raises by that much. A bet is the special case
    ``current_bet == player_street_bet == 0``.

    Example from the rules: pot $100, a player bets $100 (pot_total $200); the next player may raise
    to $400.

    >>> pot_limit_max_to(pot_total=200, current_bet=100, player_street_bet=0)
    400
    >>> pot_limit_max_to(pot_total=35, current_bet=25, player_street_bet=0)  # UTG, blinds 10/25
    85
    """
    to_call = current_bet - player_street_bet
    return current_bet + pot_total + to_call


def fixed_limit_size(street: Street, small_bet: int, big_bet: int) -> int:
    """Bet/raise size in fixed limit: the small bet pre-flop and on the flop, the big bet after.

    >>> fixed_limit_size(Street.FLOP, 2, 4), fixed_limit_size(Street.TURN, 2, 4)
    (2, 4)
    """
    return small_bet if street <= Street.FLOP else big_bet


# --------------------------------------------------------------------------------------------
# Pots
# --------------------------------------------------------------------------------------------


def side_pots(
    contributions: Mapping[str, int], live: Collection[str], order: Sequence[str]
) -> tuple[Pot, ...]:
    """Split every player's total contribution into the main pot and side pots, main pot first.

    Levels are the distinct contributions of ``live`` players (those who have not folded): pot k
    holds, from every player (folded ones too), the chips between level k-1 and level k, and the
    live players who put in at least level k are eligible for it. Chips a folded player put in
    above the highest live level stay in the last pot. Eligible names follow ``order`` (give it
    clockwise from the button so odd chips can be read off directly). Empty pots are dropped.

    >>> side_pots({"a": 50, "b": 100, "c": 100}, live={"a", "b", "c"}, order="abc")
    (Pot(amount=150, eligible=('a', 'b', 'c')), Pot(amount=100, eligible=('b', 'c')))
    >>> side_pots({"a": 30, "b": 100, "c": 100}, live={"b", "c"}, order="abc")
    (Pot(amount=230, eligible=('b', 'c')),)
    """
    get = contributions.get
    levels = sorted({c for c in (get(p, 0) for p in live) if c > 0})
    if len(levels) == 1:  # the usual case: no live player is all-in for less (one pot)
        level = levels[0]
        amount = 0
        for c in contributions.values():
            if c > 0:
                amount += c
        if not amount:  # pragma: no cover - a positive live level means a positive amount
            return ()
        return (Pot(amount, tuple(p for p in order if p in live and get(p, 0) >= level)),)
    pots: list[Pot] = []
    prev = 0
    top = levels[-1] if levels else 0
    for level in levels:
        amount = 0
        for c in contributions.values():
            if level == top:
                amount += max(c - prev, 0)
            elif c > prev:
                amount += min(c, level) - prev
        eligible = tuple(p for p in order if p in live and contributions.get(p, 0) >= level)
        if amount:
            pots.append(Pot(amount, eligible))
        prev = level
    if not levels:
        dead = sum(contributions.values())
        if dead:
            pots.append(Pot(dead, ()))
    return tuple(pots)


def apply_rake(pots: Sequence[Pot], rake: int) -> tuple[Pot, ...]:
    """Take the rake off the main pot first, then off the next pot if the main pot is too small.

    One of the allocations a room really makes (see :func:`rake_allocation`): older real hands
    print the ``Main pot`` net of the whole rake and the side pots untouched (``Total pot $9480
    Main pot $5275. Side pot $4200. | Rake $5``: 5280 − 5 = 5275). It is also the referee's
    fallback when the printed pots cannot be trusted, and the synthetic generator's allocation.
    """
    per = rake_main_first([p.amount for p in pots], rake)
    return tuple(Pot(pot.amount - r, pot.eligible) if r else pot for pot, r in zip(pots, per, strict=True))


# --------------------------------------------------------------------------------------------
# Rake with side pots: the allocations a room really makes
# --------------------------------------------------------------------------------------------
#
# A room states one total rake; with side pots, each printed pot is net of its own share. Real
# histories show three ways of sharing it (rules.md, "Rake with side pots"):
#
# * main pot first (older hands; also what a capped rake looks like when the cap is reached in the
#   main pot);
# * cumulative: with R(x) = min(cap, floor(rate * x)) the rake of a pot of x, pot k pays
#   R(p1+...+pk) − R(p1+...+pk−1) (2010 hand 22865231671: $2.47/$0.93/$0.30, rake $0.18 →
#   12 + 5 + 1 cents at 5 %); the rate and the cap differ by year and stakes and are not printed;
# * proportional to the pot sizes, each share rounded either way (cash-out hands).
#
# The referee does not know the room's rate or cap, so it asks whether *some* rate and cap give
# the printed shares (:func:`cumulative_rake_fits`), in exact integer arithmetic.

RAKE_MAIN_FIRST = "main-first"
RAKE_CUMULATIVE = "cumulative"
RAKE_PROPORTIONAL = "proportional"


def rake_main_first(gross: Sequence[int], rake: int) -> tuple[int, ...]:
    """Each pot's share of ``rake``, taken off the main pot first, spilling into the next pots.

    >>> rake_main_first([528000, 420000], 500)
    (500, 0)
    >>> rake_main_first([3, 10], 5)
    (3, 2)
    """
    out: list[int] = []
    left = rake
    for g in gross:
        take = min(left, g) if left > 0 else 0
        left -= take
        out.append(take)
    return tuple(out)


def rake_cumulative(gross: Sequence[int], rate_num: int, rate_den: int, cap: int | None) -> tuple[int, ...]:
    """Each pot's share when pot k pays R(p1+...+pk) − R(p1+...+pk−1), R(x) = min(cap, ⌊x·num/den⌋).

    Real hand 22865231671 (5 %, rounded down to the cent): main $2.47, side-1 $0.93, side-2 $0.30.

    >>> rake_cumulative([247, 93, 30], 5, 100, None)
    (12, 5, 1)
    >>> rake_cumulative([301000, 2000], 5, 100, 300)
    (300, 0)
    """
    out: list[int] = []
    total = 0
    before = 0
    for g in gross:
        total += g
        r = total * rate_num // rate_den
        if cap is not None and r > cap:
            r = cap
        out.append(r - before)
        before = r
    return tuple(out)


def rake_proportional_bounds(gross: Sequence[int], rake: int) -> tuple[tuple[int, int], ...]:
    """(least, most) share of each pot when ``rake`` is shared in proportion to the pot sizes.

    A share may be rounded down or up (rooms differ in who gets the odd unit); the shares must
    still add up to ``rake``, which :func:`rake_allocation` checks.

    >>> rake_proportional_bounds([300, 100], 10)
    ((7, 8), (2, 3))
    """
    total = 0
    for g in gross:
        total += g
    if total <= 0:
        return tuple((0, 0) for _ in gross)
    return tuple((rake * g // total, -(-rake * g // total)) for g in gross)


def _below(a_num: int, a_den: int, b_num: int, b_den: int) -> bool:
    """a < b for fractions with positive denominators."""
    return a_num * b_den < b_num * a_den


def cumulative_rake_rate(gross: Sequence[int], shares: Sequence[int]) -> tuple[int, int, int | None] | None:
    """A rate and cap that make ``shares`` the cumulative allocation of ``gross``, or None.

    Returns ``(num, den, cap)`` with ``rake_cumulative(gross, num, den, cap) == shares`` (``cap``
    None: no cap reached), the smallest such rate; None when no rate r ≥ 0 and cap c give
    C_k = min(c, ⌊r·P_k⌋) for every k, where P_k and C_k are the pots and the shares summed from
    the main pot. The capped pots are a suffix (C and ⌊r·P⌋ never decrease), so for each split j
    (pots 1..j below the cap, the rest at the cap c = C_n) the conditions are intervals for r:
    C_k ≤ r·P_k < C_k + 1 for k ≤ j, and r·P_k ≥ C_n for k > j. The shares fit when, for some j,
    the intervals meet; the largest lower bound is then a rate that works. Exact: fractions are
    compared by cross-multiplication.

    >>> cumulative_rake_rate([247, 93, 30], [12, 5, 1])
    (17, 340, None)
    >>> cumulative_rake_rate([100, 100], [1, 4]) is None
    True
    """
    n = len(gross)
    if n != len(shares):
        return None
    cum_p: list[int] = []
    cum_c: list[int] = []
    p = c = 0
    for g, sh in zip(gross, shares, strict=True):
        if g < 0 or sh < 0:
            return None
        p += g
        c += sh
        cum_p.append(p)
        cum_c.append(c)
    top = cum_c[-1] if n else 0
    for j in range(n, -1, -1):  # j = how many pots, from the main pot, stay below the cap
        if any(cum_c[k] != top for k in range(j, n)):
            continue  # the capped pots must all sit at the cap
        lo_n, lo_d = 0, 1  # r >= lo
        hi_n, hi_d = 1, 0  # r < hi; 1/0 stands for +infinity
        ok = True
        for k in range(n):
            pk = cum_p[k]
            ck = cum_c[k] if k < j else top
            if pk == 0:
                if ck != 0:
                    ok = False
                    break
                continue
            if _below(lo_n, lo_d, ck, pk):
                lo_n, lo_d = ck, pk
            if k < j and (hi_d == 0 or _below(ck + 1, pk, hi_n, hi_d)):
                hi_n, hi_d = ck + 1, pk
        if ok and (hi_d == 0 or _below(lo_n, lo_d, hi_n, hi_d)):
            return lo_n, lo_d, (top if j < n else None)
    return None


def cumulative_rake_fits(gross: Sequence[int], shares: Sequence[int]) -> bool:
    """Whether some rate and cap make ``shares`` the cumulative allocation of ``gross``
    (see :func:`cumulative_rake_rate`).

    >>> cumulative_rake_fits([247, 93, 30], [12, 5, 1])
    True
    >>> cumulative_rake_fits([100, 100], [1, 4])
    False
    """
    return cumulative_rake_rate(gross, shares) is not None


def rake_allocation(gross: Sequence[int], shares: Sequence[int], rake: int) -> str | None:
    """Which allocation a room uses explains ``shares`` (each pot's rake), or None if none does.

    ``gross`` are the pots as the contributions make them (main pot first), ``shares`` what each
    lost to the rake (gross minus the printed pot), ``rake`` the printed total. Shares that are
    negative, larger than their pot, or that do not add up to the total are never explained.
    Returns :data:`RAKE_MAIN_FIRST`, :data:`RAKE_CUMULATIVE` or :data:`RAKE_PROPORTIONAL` (the
    first that fits, in that order).

    >>> rake_allocation([247, 93, 30], [12, 5, 1], 18)
    'cumulative'
    >>> rake_allocation([247, 93, 30], [18, 0, 0], 18)
    'main-first'
    >>> rake_allocation([247, 93, 30], [0, 0, 18], 18) is None
    True
    """
    if len(gross) != len(shares):
        return None
    total = 0
    for g, s in zip(gross, shares, strict=True):
        if s < 0 or s > g:
            return None
        total += s
    if total != rake:
        return None
    if tuple(shares) == rake_main_first(gross, rake):
        return RAKE_MAIN_FIRST
    if cumulative_rake_fits(gross, shares):
        return RAKE_CUMULATIVE
    bounds = rake_proportional_bounds(gross, rake)
    if all(lo <= s <= hi for s, (lo, hi) in zip(shares, bounds, strict=True)):
        return RAKE_PROPORTIONAL
    return None


# --------------------------------------------------------------------------------------------
# Splits and odd chips
# --------------------------------------------------------------------------------------------


def split_evenly(amount: int, winners_clockwise_from_button: Sequence[str]) -> tuple[int, ...]:
    """Share ``amount`` between tied winners; odd units go to the first winners clockwise from the button.

    ``winners_clockwise_from_button`` must already be in that order (see
    :func:`clockwise_from_button`). Observed on PokerStars in every tie of the corpus (e.g.
    ``$20.38`` / ``$20.37``, button seat 3, seats 4 then 3).

    >>> split_evenly(4075, ["hero", "villain"])
    (2038, 2037)
    """
    n = len(winners_clockwise_from_button)
    if n == 0:
        return ()
    base, odd = divmod(amount, n)
    return tuple(base + (1 if i < odd else 0) for i in range(n))


def hilo_halves(amount: int) -> tuple[int, int]:
    """Split a hi/lo pot into (high half, low half); the odd unit goes to the high half (observed).

    >>> hilo_halves(399)
    (200, 199)
    """
    low = amount // 2
    return amount - low, low


def run_twice_halves(amount: int) -> tuple[int, int]:
    """Split a pot run twice into (first board, second board).

    The corpus has no run-it-twice pot with an odd unit, so the room's rule is unobserved; we give
    the odd unit to the first board, by analogy with the hi/lo rule (first/high half gets it). The
    referee also accepts it on the second board when the collect lines say so (a convention no
    real hand settles); the synthetic generator uses this function.

    >>> run_twice_halves(16301)
    (8151, 8150)
    """
    second = amount // 2
    return amount - second, second


def clockwise_from_button(players_with_seats: Iterable[tuple[str, int]], button_seat: int) -> tuple[str, ...]:
    """Names ordered clockwise starting with the first seat *after* the button; the button is last.

    This is the order odd chips are handed out in (PokerStars: a tied player on the button gets the
    odd chip last — O8-KO hand 68174850011, button seat 2, seats 9 then 2).

    >>> clockwise_from_button([("a", 2), ("b", 9), ("c", 5)], button_seat=5)
    ('b', 'a', 'c')
    """
    return tuple(p for p, _ in sorted(players_with_seats, key=lambda ps: (ps[1] - button_seat - 1) % 1000))
