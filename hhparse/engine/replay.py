"""Replay one parsed :class:`~hhparse.model.Hand` event by event and prove every action and chip.

The referee never reads text (it imports nothing from the parser or lark) and never repairs a
hand: every disagreement between the history and the rules becomes a :class:`Violation` with the
file line of the offending event, and the replay goes on so one bad line does not hide the next.

Design notes (why it looks like this):

* One pass over ``hand.events`` with a type -> method dispatch table.
* The betting — turns, sizes, caps, all-ins, the ledger — is the betting engine's
  (:class:`hhparse.engine.table.Table`, shared with the synthetic generator and the property
  test): for each action the referee asks it what the line breaks (``verify_*``) and applies it
  anyway (``apply_*``). This module keeps the rest of the hand: seats, cards and boards, the
  showdown and table lines.
* When the events are over, :meth:`Referee.view` freezes what the replay proved for the
  settlement and the facts (:mod:`hhparse.engine.view`).
* Rules settled against the real corpus rather than assumed are marked *observed*.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, cast

from hhparse.engine.table import LedgerEntry, Phase, Player, Table
from hhparse.engine.view import PlayerView, ReplayView
from hhparse.errors import Violation
from hhparse.model import (
    Bet,
    Call,
    Check,
    Collect,
    DealBoard,
    DealHole,
    DoesNotShow,
    ExposeCard,
    Fold,
    Hand,
    HandCancelled,
    HoleCardsMarker,
    Muck,
    NoLowHand,
    PostBlind,
    Raise,
    Show,
    ShowdownMarker,
    Street,
    TableEvent,
    TableEventKind,
    UncalledBet,
)
from hhparse.money import cash_formatter
from hhparse.rules.spec import GameSpec, spec_for

__all__ = ["Referee", "money_formatter"]

_SPECS: dict[tuple[object, object, object], GameSpec] = {}


def money_formatter(hand: Hand) -> Callable[[int], str]:
    """How amounts of this hand are written in messages: ``$0.46`` for cash, ``460`` for chips."""
    h = hand.header
    if h.tournament is not None or h.play_money:
        return str
    return cash_formatter(h.symbol)


class Referee:
    """The replay of one hand. Use :func:`hhparse.engine.referee`; this class is internal."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        h = hand.header
        key = (h.game, h.hilo, h.structure)
        spec = _SPECS.get(key)
        if spec is None:
            spec = _SPECS[key] = spec_for(h.game, h.hilo, h.structure)
        self.spec: GameSpec = spec
        self.fmt = money_formatter(hand)
        self.errors: list[Violation] = []
        self.warnings: list[Violation] = []
        self.players: dict[str, Player] = {}
        self.views: dict[str, PlayerView] = {}  # the view's ``seats``, built as the players are seated
        self.exposed: str | None = None
        # The boards as the deal lines' own tuples (never copied: the settlement's and the facts'
        # ``tuple(board)`` of a tuple is the tuple itself).
        self.board: tuple[str, ...] = ()  # run 0 (and the shared part of a run-twice board)
        self.run_boards: dict[int, tuple[str, ...]] = {}
        self.run_street: dict[int, Street] = {}
        self.owners: dict[str, str] = {}
        self.show_run = 0
        self.shows: list[tuple[Show, int]] = []
        self.collects: list[Collect] = []
        self.no_low_lines: list[NoLowHand] = []
        self.uncalled_seen = False
        self.cancelled = False
        self.hero: str | None = None
        self.flop_seen = False
        self.showdown_marker = False
        self.ledger: list[LedgerEntry] = []  # the engine's record of every forced bet, action and return
        self.table = self._seat()

    # ------------------------------------------------------------------ helpers

    def err(
        self,
        code: str,
        line: int,
        message: str,
        expected: object = None,
        found: object = None,
        player: str | None = None,
    ) -> None:
        """Record an error (never raise: a bad hand is normal input)."""
        self.errors.append(
            Violation(
                code,
                line,
                message,
                None if expected is None else str(expected),
                None if found is None else str(found),
                player,
            )
        )

    def warn(self, code: str, line: int, message: str, player: str | None = None) -> None:
        """Record a warning: reported, but the hand stays valid."""
        self.warnings.append(Violation(code, line, message, None, None, player))

    def _seat(self) -> Table:
        """Seats; who is dealt in; the table that plays them."""
        hand = self.hand
        h = hand.header
        seen_seats: set[int] = set()
        players = self.players
        for s in hand.seats:
            if s.seat in seen_seats or s.player in players:
                self.err(
                    "duplicate-seat",
                    s.line,
                    f"seat {s.seat} / player {s.player} appears twice",
                    player=s.player,
                )
                continue
            seen_seats.add(s.seat)
            if s.stack <= 0:
                self.err(
                    "non-positive-stack",
                    s.line,
                    f"{s.player} starts with {self.fmt(s.stack)}",
                    player=s.player,
                )
            player = Player(s.player, s.seat, s.stack, s.sitting_out or s.out_of_hand is not None)
            players[s.player] = player
            self.views[s.player] = PlayerView(player)
        # Dealt in: not sitting out, or sitting out but acting anyway (tournaments deal sitting-out
        # players in and fold them in turn: O8-KO StaKuGorPS). *observed*
        if any(p.sitting_out for p in players.values()):
            acting: set[str] = set()
            for e in hand.events:
                if isinstance(e, _ACTING):
                    acting.add(e.player)
            for p in players.values():
                p.dealt_in = (not p.sitting_out) or p.name in acting
        return Table(
            self.spec, list(players.values()), h.button_seat, h.small_blind, h.big_blind, h.cap, self.fmt
        )

    def _claim(self, card: str, owner: str, line: int, player: str | None = None) -> None:
        """Every physical card has one owner (a player or a board run); a second owner is a duplicate."""
        prev = self.owners.get(card)
        if prev is None:
            self.owners[card] = owner
        elif prev != owner:
            where = "the board" if prev.startswith("\x00") else prev
            self.err(
                "duplicate-card",
                line,
                f"{card} appears twice (already held by {where})",
                found=card,
                player=player,
            )

    def _player(self, name: str, line: int) -> Player | None:
        p = self.players.get(name)
        if p is None or not p.dealt_in:
            self.err("unknown-player", line, f"{name!r} is not seated and dealt in", player=name)
            return None
        return p

    def _deal(self, line: int) -> None:
        """The hole cards are dealt (at their marker, or at the first line that needs them)."""
        if self.table.phase is Phase.SETUP:
            violations = self.table.deal(line)
            if violations:
                self.errors.extend(violations)

    def _close_round(self, line: int) -> None:
        """A non-betting line (board, showdown, collect): the betting round must be over."""
        violations = self.table.close_round(line)
        if violations:
            self.errors.extend(violations)

    # ------------------------------------------------------------------ events

    def run(self) -> None:
        """Replay every event (the settlement comes after, on :meth:`view`)."""
        for w in self.hand.warnings:
            code = w.code if w.code in ("courchevel-2016-board",) else "parser-warning"
            self.warn(code, w.line, w.message)
        # As ``object``, not the ``Event`` union: compiled, each step of a loop over the union
        # is a cast tried against its members one by one; the dispatch needs only the type.
        # By exact type, the commonest first, each a direct compiled call (a table of methods
        # is a call through Python's protocol, its arguments checked again, for every event).
        events: tuple[object, ...] = self.hand.events
        for e in events:
            t = type(e)
            if t is Fold:
                self._fold(cast(Fold, e))
            elif t is Check:
                self._check(cast(Check, e))
            elif t is Call:
                self._call(cast(Call, e))
            elif t is Raise:
                self._raise(cast(Raise, e))
            elif t is Bet:
                self._bet(cast(Bet, e))
            elif t is PostBlind:
                self._post(cast(PostBlind, e))
            elif t is DealBoard:
                self._deal_board(cast(DealBoard, e))
            elif t is Collect:
                self._collect(cast(Collect, e))
            elif t is DealHole:
                self._deal_hole(cast(DealHole, e))
            elif t is HoleCardsMarker:
                self._hole_marker(cast(HoleCardsMarker, e))
            elif t is UncalledBet:
                self._uncalled(cast(UncalledBet, e))
            elif t is ShowdownMarker:
                self._showdown_marker(cast(ShowdownMarker, e))
            elif t is Show:
                self._show(cast(Show, e))
            elif t is Muck:
                self._muck(cast(Muck, e))
            elif t is DoesNotShow:
                self._muck(cast(DoesNotShow, e))
            elif t is TableEvent:
                self._table_event(cast(TableEvent, e))
            elif t is NoLowHand:
                self._no_low(cast(NoLowHand, e))
            elif t is HandCancelled:
                self._cancel(cast(HandCancelled, e))
            elif t is ExposeCard:
                self._expose(cast(ExposeCard, e))
        if self.table.phase is Phase.SETUP and not self.cancelled:
            self._deal(self.hand.line)
        if not self.cancelled:
            self._close_round(self.hand.summary.line if self.hand.summary else self.hand.line)

    def _post(self, e: PostBlind) -> None:
        p = self._player(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_post(p, e.kind, e.amount, e.all_in, e.line)
        if violations:
            self.errors.extend(violations)
        self.ledger.append(table.apply_post(p, e.kind, e.amount, e.all_in, e.line))

    def _hole_marker(self, e: HoleCardsMarker) -> None:
        self._deal(e.line)

    def _deal_hole(self, e: DealHole) -> None:
        self._deal(self.hand.line)
        p = self._player(e.player, e.line)
        if p is None or not e.cards:
            return
        spec = self.spec
        if len(e.cards) != spec.hole_cards:
            self.err(
                "wrong-hole-card-count",
                e.line,
                f"{p.name} is dealt {len(e.cards)} cards; {spec.name} deals {spec.hole_cards}",
                expected=spec.hole_cards,
                found=len(e.cards),
                player=p.name,
            )
        if len(set(e.cards)) != len(e.cards):
            self.err("duplicate-card", e.line, f"{p.name} is dealt the same card twice", player=p.name)
        owners = self.owners
        name = p.name
        for c in e.cards:
            if owners.setdefault(c, name) != name:
                self._claim(c, name, e.line, name)  # reports the duplicate
        p.hole = e.cards
        self.hero = self.hero or name

    def _expose(self, e: ExposeCard) -> None:
        if not self.spec.exposed_card:
            self.err(
                "unexpected-exposed-card",
                e.line,
                f"{self.spec.name} has no exposed pre-flop card",
                found=e.card,
            )
        if self.exposed is not None:
            if e.card != self.exposed:
                self.err(
                    "exposed-card-mismatch",
                    e.line,
                    f"exposed card {e.card} after {self.exposed}",
                    expected=self.exposed,
                    found=e.card,
                )
            return
        self.exposed = e.card
        self._claim(e.card, "\x00board", e.line)

    def _deal_board(self, e: DealBoard) -> None:
        cards = e.cards
        table = self.table
        self._deal(self.hand.line)
        self._close_round(e.line)
        if self.spec.exposed_card:
            if self.exposed is None:
                self.err("missing-exposed-card", e.line, "no exposed card was dealt before the flop")
                self.exposed = cards[0] if cards else None
            elif cards and cards[0] != self.exposed:
                self.err(
                    "exposed-card-mismatch",
                    e.line,
                    f"the board starts with {cards[0]} but the exposed card was {self.exposed}",
                    expected=self.exposed,
                    found=cards[0],
                )
        size = self.spec.board_sizes[e.street - 1] if e.street > Street.PREFLOP else None
        if len(cards) != size:
            self.err(
                "wrong-board-size",
                e.line,
                f"{e.street.name} board has {len(cards)} cards",
                expected=size,
                found=len(cards),
            )
        if len(set(cards)) != len(cards):
            self.err("duplicate-card", e.line, f"a card appears twice on the board {' '.join(cards)}")
        if e.run == 0:
            if table.phase is not Phase.BETTING or e.street <= table.street:
                self.err(
                    "street-out-of-order",
                    e.line,
                    f"{e.street.name} dealt after {table.street.name}",
                    found=e.street.name,
                )
            prev = self.board
            owner = "\x00board"
        else:
            table.start_runout()
            prev = self.run_boards.get(e.run, self.board)
            last = self.run_street.get(e.run, table.street)
            if e.street <= last:
                self.err(
                    "street-out-of-order",
                    e.line,
                    f"{e.street.name} dealt twice on run {e.run}",
                    found=e.street.name,
                )
            self.run_street[e.run] = e.street
            owner = f"\x00board{e.run}"
        if cards[: len(prev)] != prev:
            self.err(
                "board-mismatch",
                e.line,
                f"board {' '.join(cards)} does not extend {' '.join(prev)}",
                expected=" ".join(prev),
                found=" ".join(cards[: len(prev)]),
            )
        owners = self.owners
        for c in cards[len(prev) :]:
            if (c != self.exposed or e.street is not Street.FLOP) and owners.setdefault(c, owner) != owner:
                self._claim(c, owner, e.line)  # reports the duplicate
        if e.run == 0:
            self.board = cards
            if e.street is Street.FLOP:
                self.flop_seen = True
            table.new_street(e.street)
        else:
            self.run_boards[e.run] = cards
            if e.street is Street.FLOP:
                self.flop_seen = True

    def _actor(self, name: str, line: int) -> Player | None:
        """The player of a betting action: dealt in (else ``unknown-player``); the hole cards are
        dealt by then."""
        p = self.players.get(name)
        if p is None or not p.dealt_in:
            self.err("unknown-player", line, f"{name!r} is not seated and dealt in", player=name)
            return None
        self._deal(self.hand.line)
        return p

    # Each action: what the engine says the line breaks, then the line applied anyway, unless the
    # player cannot act at all (folded, all-in): a hand is never repaired.

    def _fold(self, e: Fold) -> None:
        p = self._actor(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_fold(p, e.line)
        if violations:
            self.errors.extend(violations)
        if table.can_act(p):
            self.ledger.append(table.apply_fold(p, e.line))

    def _check(self, e: Check) -> None:
        p = self._actor(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_check(p, e.line)
        if violations:
            self.errors.extend(violations)
        if table.can_act(p):
            self.ledger.append(table.apply_check(p, e.line))

    def _call(self, e: Call) -> None:
        p = self._actor(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_call(p, e.amount, e.all_in, e.cap_reached, e.line)
        if violations:
            self.errors.extend(violations)
        if table.can_act(p):
            self.ledger.append(table.apply_call(p, e.amount, e.all_in, e.line))

    def _bet(self, e: Bet) -> None:
        p = self._actor(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_bet(p, e.amount, e.all_in, e.cap_reached, e.line)
        if violations:
            self.errors.extend(violations)
        if table.can_act(p):
            self.ledger.append(table.apply_bet(p, e.amount, e.all_in, e.line))

    def _raise(self, e: Raise) -> None:
        p = self._actor(e.player, e.line)
        if p is None:
            return
        table = self.table
        violations = table.verify_raise_to(p, e.to, e.by, e.all_in, e.cap_reached, e.line)
        if violations:
            self.errors.extend(violations)
        if table.can_act(p):
            self.ledger.append(table.apply_raise_to(p, e.to, e.all_in, e.line))

    def _uncalled(self, e: UncalledBet) -> None:
        self._close_round(e.line)
        p = self._player(e.player, e.line)
        if p is None:
            return
        self.uncalled_seen = True
        table = self.table
        violations = table.verify_uncalled(p, e.amount, e.line)
        if violations:
            self.errors.extend(violations)
        self.ledger.append(table.apply_uncalled(p, e.amount, e.line))

    def _showdown_marker(self, e: ShowdownMarker) -> None:
        self._close_round(e.line)
        self.table.start_showdown()
        self.show_run = e.run
        self.showdown_marker = True

    def _show(self, e: Show) -> None:
        p = self._player(e.player, e.line)
        if p is None:
            return
        self._close_round(e.line)
        if p.folded:
            self.err("show-after-fold", e.line, f"{p.name} shows after folding", player=p.name)
        notes = p  # what the hand shows of the player is noted on the engine's player
        n = self.spec.hole_cards
        full = len(e.cards) == n
        if (e.description is not None and not full) or len(e.cards) > n:
            self.err(
                "wrong-hole-card-count",
                e.line,
                f"{p.name} shows {len(e.cards)} cards; the game deals {n}",
                expected=n,
                found=len(e.cards),
                player=p.name,
            )
        if notes.hole and not set(e.cards) <= set(notes.hole):
            self.err(
                "shown-cards-mismatch",
                e.line,
                f"{p.name} shows {' '.join(e.cards)} but was dealt {' '.join(notes.hole)}",
                expected=" ".join(notes.hole),
                found=" ".join(e.cards),
                player=p.name,
            )
        if len(set(e.cards)) != len(e.cards):
            self.err("duplicate-card", e.line, f"{p.name} shows the same card twice", player=p.name)
        owners = self.owners
        name = p.name
        for c in e.cards:
            if owners.setdefault(c, name) != name:
                self._claim(c, name, e.line, name)  # reports the duplicate
        if len(e.cards) >= len(notes.shown):
            notes.shown = e.cards
        if full and not p.folded:
            notes.showed = True
        self.shows.append((e, self.show_run))

    def _muck(self, e: Muck | DoesNotShow) -> None:
        p = self._player(e.player, e.line)
        if p is not None:
            p.mucked = True

    def _collect(self, e: Collect) -> None:
        self._close_round(e.line)
        p = self._player(e.player, e.line)
        if p is not None:
            p.collected += e.amount
        self.collects.append(e)

    def _cancel(self, e: HandCancelled) -> None:
        self.cancelled = True
        self.table.cancel()

    def _no_low(self, e: NoLowHand) -> None:
        self.no_low_lines.append(e)

    def _table_event(self, e: TableEvent) -> None:
        """Two table lines change the hand. ``NAME is being treated as all-in`` (disconnect
        protection, old histories): the player puts no more chips in and acts no more, yet keeps a
        claim on the pots up to what they put in, as if all-in; no real hand in the corpus shows it.
        ``NAME cashed out the hand for $X | Cash Out Fee $Y`` (all-in cash out): the room pays the
        player $X for their claim on the pots (checked by the settlement)."""
        kind = e.kind
        if kind is TableEventKind.CASHED_OUT:
            self._cash_out(e)
            return
        if kind is not TableEventKind.TREATED_ALL_IN and kind is not TableEventKind.TREATED_ALL_IN_COLON:
            return
        p = self._player(e.player, e.line)
        if p is None:
            return
        if p.folded:
            self.err(
                "acted-after-fold", e.line, f"{p.name} is treated as all-in after folding", player=p.name
            )
        else:
            self.table.treat_as_all_in(p)

    def _cash_out(self, e: TableEvent) -> None:
        """All-in cash out: a live player sells their claim on the pots to the room, once."""
        p = self._player(e.player, e.line)
        if p is None:
            return
        fmt = self.fmt
        notes = p  # what the hand shows of the player is noted on the engine's player
        amount = e.amount or 0
        if p.folded:
            self.err("wrong-cash-out", e.line, f"{p.name} cashes out after folding", player=p.name)
        elif notes.cash_out_line:
            self.err("wrong-cash-out", e.line, f"{p.name} cashes out twice", player=p.name)
        elif amount <= 0:
            self.err(
                "wrong-cash-out",
                e.line,
                f"{p.name} cashes out for {fmt(amount)}",
                expected="a positive amount",
                found=fmt(amount),
                player=p.name,
            )
        else:
            notes.cash_out = amount
            notes.cash_out_fee = e.fee or 0
            notes.cash_out_line = e.line

    # ------------------------------------------------------------------ the view

    def view(self) -> ReplayView:
        """What the replay proved, frozen for the settlement and the facts."""
        table = self.table
        seats = self.views
        top, excess = table.expected_uncalled()
        sb, bb = table.sb_player, table.bb_player
        return ReplayView(
            self.hand,
            self.spec,
            self.fmt,
            seats,
            [seats[p.name] for p in table.ring],
            self.board,
            self.run_boards,
            self.exposed,
            self.owners,
            self.shows,
            self.collects,
            self.no_low_lines,
            self.ledger,
            self.cancelled,
            self.uncalled_seen,
            self.showdown_marker,
            self.flop_seen,
            sb.name if sb is not None else None,
            bb.name if bb is not None else None,
            self.hero,
            top.name if top is not None else None,
            excess,
        )


_ACTING: Final = (PostBlind, Fold, Check, Call, Bet, Raise, DealHole)
"""The events of a player dealt in: built once (``A | B | ...`` in the loop built a union type
object per event of every hand with a sitting-out player)."""
