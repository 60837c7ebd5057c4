"""What the referee proved about a hand, in the shape the warehouse stores.

The referee is the only place poker logic lives; these records carry its conclusions (positions,
per-street contributions, who won which half of which pot) so that the table builder and the SQL
reports never re-derive them. All money is ``int`` in the hand's smallest unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

from hhparse.errors import Violation
from hhparse.model import Cards, Hand

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def _record(cls: type[_T]) -> type[_T]:
    """A read-only record: frozen for the type checker, a plain slotted dataclass at run time.

    The referee builds about twenty of these per hand, and a ``frozen=True`` dataclass's
    ``__init__`` (one ``object.__setattr__`` call per field) costs 4-5x a plain one: 4.4 us vs
    ~1 us for a :class:`PlayerFacts`. So immutability is enforced statically (mypy treats every
    ``_record`` as frozen and rejects assignments), not at run time; equality and hashing
    (``unsafe_hash``) behave as they did for the frozen dataclasses, and ``dataclasses.fields``,
    ``replace`` and ``__dataclass_fields__`` keep working. Treat instances as immutable.
    """
    return dataclass(slots=True, unsafe_hash=True)(cls)


@_record
class ActionFact:
    """One forced bet, voluntary action or uncalled return, in order.

    ``action`` is one of: ``small blind``, ``big blind``, ``ante``, ``fold``, ``check``, ``call``,
    ``bet``, ``raise``, ``uncalled`` (money returned; ``amount`` is positive, returned to player).
    ``amount`` is what this action moved from the stack into the pot; ``to_amount`` the player's
    total for the street after it; ``faced`` what they had to call before acting.
    """

    seq: int
    street: int  # model.Street value
    player: str
    seat: int
    action: str
    amount: int
    to_amount: int
    all_in: bool
    pot_before: int
    stack_before: int
    faced: int
    line: int


@_record
class PlayerFacts:
    seat: int
    player: str
    is_hero: bool
    position: str  # BTN, SB, BB, UTG, UTG+1, MP, HJ, CO (by seats dealt in); "" if not dealt in
    starting_stack: int
    hole_cards: Cards  # () when unknown
    dealt_in: bool  # False for sitting-out players
    contributed: tuple[int, int, int, int]  # per street (pre-flop incl. blinds and antes, flop, turn, river)
    returned: int  # uncalled bet returned
    collected: int  # from all collect lines (all pots, halves, runs)
    net: int  # collected + returned - sum(contributed)
    # Pre-flop stats (PokerTracker 4 definitions; see analytics/ for the exact wording).
    vpip: bool
    pfr: bool
    three_bet_opportunity: bool
    three_bet: bool
    fold_to_three_bet_opportunity: bool
    fold_to_three_bet: bool
    steal_opportunity: bool
    steal: bool
    fold_to_steal_opportunity: bool
    fold_to_steal: bool
    # Flop continuation bet.
    cbet_opportunity: bool
    cbet: bool
    fold_to_cbet_opportunity: bool
    fold_to_cbet: bool
    # Post-flop aggression counts (flop, turn, river).
    postflop_bets: int
    postflop_raises: int
    postflop_calls: int
    postflop_checks: int
    postflop_folds: int
    # Outcome.
    saw_flop: bool
    went_to_showdown: bool
    won_at_showdown: bool
    won_high: bool  # won (part of) a high half or a whole pot in any pot/run
    won_low: bool
    scooped: bool  # won every chip of every pot they were eligible for at showdown, hi/lo game
    quartered: bool  # shared a low half with another player
    all_in_street: int | None  # street on which the player went all-in, else None
    showdown_won: int  # amount collected in hands that reached showdown
    nonshowdown_won: int  # amount collected without a showdown
    high_won: int  # amount from high halves (and whole pots)
    low_won: int  # amount from low halves


@_record
class AwardFact:
    """One half (or whole) of one pot of one run, and who got what of it."""

    pot: int  # 0 = main pot, 1.. = side pots
    run: int  # 0 = single board, 1/2 = run it twice boards
    half: str  # "whole" (no low / high-only game), "high", "low"
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    amounts: tuple[int, ...]  # parallel to winners
    descriptions: tuple[str, ...]  # parallel to winners, the winning hand per the evaluator ("" if none)


@_record
class ShowdownFact:
    player: str
    run: int
    cards: Cards
    high: str  # evaluator's description, e.g. "a full house, Sevens full of Fives"
    high_rank: int  # larger is better
    low: str | None  # "7,5,4,3,A" or None when no qualifying low
    low_rank: int | None  # smaller is better (None when no low)


@_record
class PotFact:
    pot: int
    amount: int  # before rake
    eligible: tuple[str, ...]


@_record
class HandFacts:
    hand: Hand
    players: tuple[PlayerFacts, ...]
    actions: tuple[ActionFact, ...]
    pots: tuple[PotFact, ...]
    awards: tuple[AwardFact, ...]
    showdowns: tuple[ShowdownFact, ...]
    total_pot: int
    rake: int
    runs: int  # 1 or 2
    boards: tuple[Cards, ...]
    exposed_card: str | None


@_record
class RefereeResult:
    """The referee's verdict. ``facts`` is present whenever replay got far enough to build them."""

    hand: Hand
    errors: tuple[Violation, ...] = field(default=())
    warnings: tuple[Violation, ...] = field(default=())
    facts: HandFacts | None = None

    @property
    def valid(self) -> bool:
        return not self.errors
