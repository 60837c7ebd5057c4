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
from dataclasses import dataclass

from hhparse.model import Street

__all__ = [
    "Pot",
    "apply_rake",
    "clockwise_from_button",
    "fixed_limit_size",
    "hilo_halves",
    "min_bet",
    "min_raise_to",
    "pot_limit_max_to",
    "run_twice_halves",
    "side_pots",
    "split_evenly",
]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the players who can win it, in the ``order`` given to :func:`side_pots`."""

    amount: int
    eligible: tuple[str, ...]


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


def side_pots(contributions: Mapping[str, int], live: Collection[str], order: Sequence[str]) -> tuple[Pot, ...]:
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

    Verified against every real cash hand with side pots in the corpus: the printed ``Main pot``
    is already net of rake and side pots are untouched (``Total pot $9480 Main pot $5275. Side pot
    $4200. | Rake $5``: 5280 − 5 = 5275).
    """
    out: list[Pot] = []
    left = rake
    for pot in pots:
        take = min(left, pot.amount)
        left -= take
        out.append(Pot(pot.amount - take, pot.eligible) if take else pot)
    return tuple(out)


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
    the odd unit to the first board, by analogy with the hi/lo rule (first/high half gets it). If
    a real hand ever shows otherwise, change this one function.

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
