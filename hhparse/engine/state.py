"""The referee's private mutable state: one object per seated player plus the table's betting state.

Nothing outside :mod:`hhparse.engine` sees these objects; they are mutable (and slotted) because a
replay touches them on every event and allocation per event is what makes a referee slow. The
public, immutable view is :class:`Snapshot` (python-chess's ``_BoardState`` idea): cheap to take,
attached to error messages, compared in tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from hhparse.model import Cards, Street


class Phase(IntEnum):
    """Where the replay is in the hand; events are only legal in some phases."""

    SETUP = 0  # seats and forced bets, before *** HOLE CARDS ***
    BETTING = 1  # a betting street (see ``TableState.street``)
    RUNOUT = 2  # run-it-twice boards being dealt: no more betting
    SHOWDOWN = 3  # show/muck/collect lines
    CANCELLED = 4


class PlayerState:
    """Everything the referee tracks about one seated player during a replay."""

    __slots__ = (
        "acted",
        "all_in",
        "all_in_street",
        "antes",
        "cash_out",
        "cash_out_fee",
        "cash_out_line",
        "collected",
        "contrib",
        "dealt_in",
        "faced_at_action",
        "fold_street",
        "folded",
        "hole",
        "idx",
        "mucked",
        "mucked_cards",
        "name",
        "posted_bb",
        "posted_sb",
        "returned",
        "seat",
        "showed",
        "shown",
        "sitting_out",
        "stack",
        "start_stack",
        "street_bet",
    )

    def __init__(self, name: str, seat: int, stack: int, sitting_out: bool) -> None:
        self.name = name
        self.seat = seat
        self.idx = -1  # index in the clockwise ring of dealt-in players
        self.start_stack = stack
        self.stack = stack
        self.sitting_out = sitting_out
        self.dealt_in = False
        self.street_bet = 0  # chips put in on the current street (live blinds included)
        self.contrib = [0, 0, 0, 0]  # per street, gross (an uncalled return is in ``returned``)
        self.folded = False
        self.fold_street: Street | None = None
        self.all_in = False
        self.all_in_street: Street | None = None
        self.acted = False  # acted voluntarily on this street
        self.faced_at_action = 0  # the street's current bet right after this player's last action
        self.hole: Cards = ()
        self.shown: Cards = ()
        self.showed = False  # showed a full hand
        self.mucked = False
        self.mucked_cards: Cards = ()  # revealed by the summary: ``Seat 2: X mucked [3s Ac 5h Jc]``
        self.antes = 0  # posted as antes (dead money, not a bet: "(didn't bet)" ignores it)
        self.returned = 0
        self.collected = 0
        self.cash_out = 0  # paid by the room: "NAME cashed out the hand for $X | Cash Out Fee $Y"
        self.cash_out_fee = 0
        self.cash_out_line = 0
        self.posted_sb = False
        self.posted_bb = False

    @property
    def total_contrib(self) -> int:
        """Chips this player has in the pot in all, net of any uncalled return."""
        c = self.contrib
        return c[0] + c[1] + c[2] + c[3] - self.returned

    @property
    def live(self) -> bool:
        """Still contesting the pot (not folded)."""
        return not self.folded

    @property
    def active(self) -> bool:
        """Can still act: neither folded nor all-in."""
        return not self.folded and not self.all_in


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An immutable picture of the table at one moment (for messages, debugging and tests)."""

    phase: Phase
    street: Street
    to_act: str | None
    pot: int
    current_bet: int
    stacks: tuple[tuple[str, int], ...]
    street_bets: tuple[tuple[str, int], ...]

    def describe(self, fmt: object = str) -> str:
        """One line: ``FLOP, to act: Hero, pot 120, bet 40, stacks Hero=980 Villain=500``."""
        f = fmt if callable(fmt) else str
        stacks = " ".join(f"{n}={f(s)}" for n, s in self.stacks)
        return (
            f"{self.street.name}, to act: {self.to_act or '-'}, pot {f(self.pot)}, "
            f"bet {f(self.current_bet)}, stacks {stacks}"
        )
