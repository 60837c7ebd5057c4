"""What a replay leaves for the settlement and the facts: frozen records, read, never changed.

Why a view: the replay's state is mutable and changes on every event (:mod:`hhparse.engine.table`);
the settlement (:mod:`hhparse.engine.settle`) and the facts builder
(:mod:`hhparse.engine.facts_builder`) only need what the replay proved once it is over. Frozen
into records (one per player, one for the hand), it can be read by both and changed by neither:
what the settlement decides beyond it (returns nobody printed, cards a summary reveals) is its own
output. Compiled by mypyc with the rest of the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from hhparse.engine.table import LedgerEntry
from hhparse.model import Cards, Collect, Hand, NoLowHand, Record, Show, Street
from hhparse.rules.spec import GameSpec

__all__ = ["PlayerView", "ReplayView"]


class PlayerView(Record):
    """One seated player at the end of the replay: chips (as :class:`~hhparse.engine.table.Player`)
    and what the hand showed of them."""

    __match_args__ = (
        "name",
        "seat",
        "start_stack",
        "stack",
        "sitting_out",
        "dealt_in",
        "contrib",
        "returned",
        "antes",
        "folded",
        "fold_street",
        "all_in",
        "all_in_street",
        "posted_sb",
        "posted_bb",
        "hole",
        "shown",
        "showed",
        "mucked",
        "collected",
        "cash_out",
        "cash_out_fee",
        "cash_out_line",
    )

    def __init__(
        self,
        name: str,
        seat: int,
        start_stack: int,
        stack: int,
        sitting_out: bool,
        dealt_in: bool,
        contrib: tuple[int, int, int, int],
        returned: int,
        antes: int,
        folded: bool,
        fold_street: Street | None,
        all_in: bool,
        all_in_street: Street | None,
        posted_sb: bool,
        posted_bb: bool,
        hole: Cards,
        shown: Cards,
        showed: bool,
        mucked: bool,
        collected: int,
        cash_out: int,
        cash_out_fee: int,
        cash_out_line: int,
    ) -> None:
        self.name: Final = name
        self.seat: Final = seat
        self.start_stack: Final = start_stack
        self.stack: Final = stack
        self.sitting_out: Final = sitting_out
        self.dealt_in: Final = dealt_in
        self.contrib: Final = contrib  # per street, gross (an uncalled return is in ``returned``)
        self.returned: Final = returned
        self.antes: Final = antes  # posted as antes (dead money, not a bet)
        self.folded: Final = folded
        self.fold_street: Final = fold_street
        self.all_in: Final = all_in
        self.all_in_street: Final = all_in_street
        self.posted_sb: Final = posted_sb
        self.posted_bb: Final = posted_bb
        self.hole: Final = hole  # dealt (the hero's)
        self.shown: Final = shown  # the most cards shown
        self.showed: Final = showed  # showed a whole hand, not folded
        self.mucked: Final = mucked
        self.collected: Final = collected  # from the collect lines
        self.cash_out: Final = cash_out  # paid by the room (all-in cash out)
        self.cash_out_fee: Final = cash_out_fee
        self.cash_out_line: Final = cash_out_line  # 0: did not cash out

    @property
    def total_contrib(self) -> int:
        """Chips this player has in the pot in all, net of any uncalled return."""
        c = self.contrib
        return c[0] + c[1] + c[2] + c[3] - self.returned


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
        ring: tuple[PlayerView, ...],
        board: Cards,
        run_boards: Mapping[int, Cards],
        exposed: str | None,
        owners: Mapping[str, str],
        shows: tuple[tuple[Show, int], ...],
        collects: tuple[Collect, ...],
        no_low_lines: tuple[NoLowHand, ...],
        ledger: tuple[LedgerEntry, ...],
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
        for i, q in enumerate(ring):
            if q is p:
                return ring[(i + 1) % len(ring)]
        raise ValueError(f"{p.name} is not dealt in")
