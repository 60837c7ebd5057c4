"""What a replay leaves for the settlement and the facts: read, never changed.

Why a view: the replay's state is mutable and changes on every event (:mod:`hhparse.engine.table`);
the settlement (:mod:`hhparse.engine.settle`) and the facts builder
(:mod:`hhparse.engine.facts_builder`) only need what the replay proved once it is over. Through
this view — read-only properties per player, a record for the hand, sequences typed read-only —
both can read it and neither can change it (mypy enforces it): what the settlement decides beyond
it (returns nobody printed, cards a summary reveals) is its own output. Compiled by mypyc with the
rest of the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from hhparse.engine.table import LedgerEntry, Player
from hhparse.model import Cards, Collect, Hand, NoLowHand, Record, Show, Street
from hhparse.rules.spec import GameSpec

__all__ = ["PlayerView", "ReplayView"]


class PlayerView:
    """One seated player, read-only: the betting engine's figures and what the hand showed of
    them (both noted on :class:`~hhparse.engine.table.Player` by the replay).

    A window on the replay's player rather than a copy: the replay is over when the view is
    taken, and copying two dozen fields per player cost more than the settlement reading them.
    The referee builds it when it seats the player (the view's ``seats`` is the referee's dict)."""

    __slots__ = ("_player",)

    def __init__(self, player: Player) -> None:
        self._player = player

    @property
    def name(self) -> str:
        return self._player.name

    @property
    def seat(self) -> int:
        return self._player.seat

    @property
    def idx(self) -> int:
        """Position in the ring of dealt-in players (-1: not dealt in)."""
        return self._player.idx

    @property
    def start_stack(self) -> int:
        return self._player.start_stack

    @property
    def stack(self) -> int:
        return self._player.stack

    @property
    def sitting_out(self) -> bool:
        return self._player.sitting_out

    @property
    def dealt_in(self) -> bool:
        return self._player.dealt_in

    @property
    def contrib(self) -> Sequence[int]:
        """Per street, gross (an uncalled return is in ``returned``)."""
        return self._player.contrib

    @property
    def returned(self) -> int:
        return self._player.returned

    @property
    def antes(self) -> int:
        """Posted as antes (dead money, not a bet)."""
        return self._player.antes

    @property
    def folded(self) -> bool:
        return self._player.folded

    @property
    def fold_street(self) -> Street | None:
        return self._player.fold_street

    @property
    def all_in(self) -> bool:
        return self._player.all_in

    @property
    def all_in_street(self) -> Street | None:
        return self._player.all_in_street

    @property
    def posted_sb(self) -> bool:
        return self._player.posted_sb

    @property
    def posted_bb(self) -> bool:
        return self._player.posted_bb

    @property
    def total_contrib(self) -> int:
        """Chips this player has in the pot in all, net of any uncalled return."""
        return self._player.total_contrib

    @property
    def hole(self) -> Cards:
        """Dealt (the hero's)."""
        return self._player.hole

    @property
    def shown(self) -> Cards:
        """The most cards shown."""
        return self._player.shown

    @property
    def showed(self) -> bool:
        """Showed a whole hand."""
        return self._player.showed

    @property
    def mucked(self) -> bool:
        return self._player.mucked

    @property
    def collected(self) -> int:
        """From the collect lines."""
        return self._player.collected

    @property
    def cash_out(self) -> int:
        """Paid by the room (all-in cash out)."""
        return self._player.cash_out

    @property
    def cash_out_fee(self) -> int:
        return self._player.cash_out_fee

    @property
    def cash_out_line(self) -> int:
        """The cash-out line (0: did not cash out)."""
        return self._player.cash_out_line


class ReplayView(Record):
    """A replayed hand: its players (``seats`` by name, ``ring`` the dealt-in ones clockwise from
    the first seat after the button), boards, cards, showdown lines and the betting ledger."""

    __match_args__ = (
        "hand",
        "spec",
        "fmt",
        "seats",
        "ring",
        "board",
        "run_boards",
        "exposed",
        "owners",
        "shows",
        "collects",
        "no_low_lines",
        "ledger",
        "cancelled",
        "uncalled_seen",
        "showdown_marker",
        "flop_seen",
        "sb_player",
        "bb_player",
        "hero",
        "uncalled_to",
        "uncalled",
    )

    def __init__(
        self,
        hand: Hand,
        spec: GameSpec,
        fmt: Callable[[int], str],
        seats: Mapping[str, PlayerView],
        ring: Sequence[PlayerView],
        board: Sequence[str],
        run_boards: Mapping[int, Sequence[str]],
        exposed: str | None,
        owners: Mapping[str, str],
        shows: Sequence[tuple[Show, int]],
        collects: Sequence[Collect],
        no_low_lines: Sequence[NoLowHand],
        ledger: Sequence[LedgerEntry],
        cancelled: bool,
        uncalled_seen: bool,
        showdown_marker: bool,
        flop_seen: bool,
        sb_player: str | None,
        bb_player: str | None,
        hero: str | None,
        uncalled_to: str | None,
        uncalled: int,
    ) -> None:
        self.hand: Final = hand
        self.spec: Final = spec
        self.fmt: Final = fmt  # how amounts are written in messages
        self.seats: Final = seats
        self.ring: Final = ring
        self.board: Final = board  # run 0 (and the shared part of a run-twice board)
        self.run_boards: Final = run_boards  # run -> board, when run twice
        self.exposed: Final = exposed  # the Courchevel exposed card
        self.owners: Final = owners  # card -> its holder (a player, or "\x00board..." for a board)
        self.shows: Final = shows  # each show line and the run it was shown on
        self.collects: Final = collects
        self.no_low_lines: Final = no_low_lines
        self.ledger: Final = ledger
        self.cancelled: Final = cancelled
        self.uncalled_seen: Final = uncalled_seen  # an "Uncalled bet" line was printed
        self.showdown_marker: Final = showdown_marker
        self.flop_seen: Final = flop_seen
        self.sb_player: Final = sb_player
        self.bb_player: Final = bb_player
        self.hero: Final = hero
        self.uncalled_to: Final = uncalled_to  # the top contributor when a bet was not fully called
        self.uncalled: Final = uncalled  # its uncalled excess (0: none)

    def next_after(self, p: PlayerView) -> PlayerView:
        """The next dealt-in player clockwise."""
        ring = self.ring
        i = p.idx  # the ring's position, kept by the betting engine: checked, then used
        if 0 <= i < len(ring) and ring[i] is p:
            return ring[(i + 1) % len(ring)]
        for i, q in enumerate(ring):
            if q is p:
                return ring[(i + 1) % len(ring)]
        raise ValueError(f"{p.name} is not dealt in")
