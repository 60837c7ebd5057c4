"""Replay one parsed :class:`~hhparse.model.Hand` event by event and prove every action and chip.

The referee never reads text (it imports nothing from the parser or lark) and never repairs a
hand: every disagreement between the history and the rules becomes a :class:`Violation` with the
file line of the offending event, and the replay goes on so one bad line does not hide the next.

Design notes (why it looks like this):

* One pass over ``hand.events`` with a type -> method dispatch table; per-player state lives in
  slotted mutable objects (:mod:`hhparse.engine.state`), so a replay allocates little.
* Money rules (pot-limit maximum, minimum raise, fixed-limit sizes, side pots, splits, odd chips,
  rake) are the pure functions of :mod:`hhparse.rules.pots`; this module only decides *when* each
  applies.
* Showdowns are evaluated only for hands that were shown, once per (player, board).
* Rules settled against the real corpus rather than assumed are marked *observed*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hhparse.engine.state import Phase, PlayerState, Snapshot
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
    PostKind,
    Raise,
    Show,
    ShowdownMarker,
    Street,
    Structure,
    TableEvent,
    TableEventKind,
    UncalledBet,
)
from hhparse.rules import pots as R
from hhparse.rules.spec import GameSpec, spec_for

_STREET_WORD = {Street.PREFLOP: "pre-flop", Street.FLOP: "flop", Street.TURN: "turn", Street.RIVER: "river"}


K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_POST, K_UNCALLED = range(7)
"""Ledger entry kinds (first item of each :attr:`Referee.ledger` tuple); voluntary actions < K_POST."""

_FORMATTERS: dict[str, Callable[[int], str]] = {}
_SPECS: dict[tuple[object, object, object], GameSpec] = {}


def money_formatter(hand: Hand) -> Callable[[int], str]:
    """How amounts of this hand are written in messages: ``$0.46`` for cash, ``460`` for chips."""
    h = hand.header
    if h.tournament is not None or h.play_money:
        return str
    fmt = _FORMATTERS.get(h.symbol)
    if fmt is None:
        fmt = _FORMATTERS[h.symbol] = _cash_formatter(h.symbol)
    return fmt


def _cash_formatter(sym: str) -> Callable[[int], str]:
    def fmt(amount: int) -> str:
        sign = "-" if amount < 0 else ""
        whole, cents = divmod(abs(amount), 100)
        return f"{sign}{sym}{whole}" if cents == 0 else f"{sign}{sym}{whole}.{cents:02d}"

    return fmt


class ShownHand:
    """A hand shown at showdown and its evaluation on one board (computed lazily, cached)."""

    __slots__ = ("cards", "high_desc", "high_rank", "low_desc", "low_rank", "player")

    def __init__(self, player: str, cards: tuple[str, ...]) -> None:
        self.player = player
        self.cards = cards
        self.high_rank = 0
        self.high_desc = ""
        self.low_rank: int | None = None
        self.low_desc: str | None = None


class Referee:
    """The replay of one hand. Use :func:`hhparse.engine.referee`; this class is internal."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        h = hand.header
        self.h = h
        key = (h.game, h.hilo, h.structure)
        spec = _SPECS.get(key)
        if spec is None:
            spec = _SPECS[key] = spec_for(h.game, h.hilo, h.structure)
        self.spec: GameSpec = spec
        self.fl = h.structure == Structure.FIXED_LIMIT  # == : tolerate a plain str from a builder
        self.pl = h.structure == Structure.POT_LIMIT
        # Header stakes: NL/PL blinds; FL small/big *bets* (the big blind is the small bet).
        self.bb = h.small_blind if self.fl else h.big_blind
        self.sb = h.small_blind
        self.small_bet = h.small_blind
        self.big_bet = h.big_blind
        # Capped tables ("($0.25/$0.50 - $10 Cap - USD)"): no player puts more than the cap in a hand,
        # and one who reaches it is all-in for the rest of the hand (the stack keeps its chips).
        self.cap: int | None = h.cap
        self.fmt = money_formatter(hand)
        self.errors: list[Violation] = []
        self.warnings: list[Violation] = []
        self.players: dict[str, PlayerState] = {}
        self.ring: list[PlayerState] = []
        self.phase = Phase.SETUP
        self.street = Street.PREFLOP
        self.pot_total = 0
        self.current_bet = 0
        self.last_raise = self.bb
        self.bets = 0  # fixed limit: full bets this round (the big blind counts pre-flop)
        self.last_actor = -1  # ring index of the last player to act (or the turn's starting point)
        self.betting_over = False
        self.closed_checked = False
        self.exposed: str | None = None
        self.board: list[str] = []  # run 0 (and the shared part of a run-twice board)
        self.run_boards: dict[int, list[str]] = {}
        self.run_street: dict[int, Street] = {}
        self.owners: dict[str, str] = {}
        self.show_run = 0
        self.shows: list[tuple[Show, int]] = []
        self.collects: list[Collect] = []
        self.no_low_lines: list[NoLowHand] = []
        self.uncalled_seen = False
        self.cancelled = False
        self.sb_player: PlayerState | None = None
        self.bb_player: PlayerState | None = None
        self.hero: str | None = None
        self.flop_seen = False
        self.showdown_marker = False
        # Audit trail consumed by the facts builder: (event, street, player, amount, to, pot_before,
        # stack_before, faced) for every forced bet, action and uncalled return.
        # Each entry starts with its kind (K_FOLD ... K_UNCALLED), so readers need no isinstance.
        self.ledger: list[tuple[int, Any, Street, PlayerState, int, int, int, int, int]] = []
        self._rot: list[list[PlayerState]] = []  # ring rotations: _rot[i] starts at ring[i]
        self._setup_seats()

    # ------------------------------------------------------------------ helpers

    def err(self, code: str, line: int, message: str, expected: object = None, found: object = None,
            player: str | None = None) -> None:
        """Record an error (never raise: a bad hand is normal input)."""
        self.errors.append(Violation(code, line, message,
                                     None if expected is None else str(expected),
                                     None if found is None else str(found), player))

    def warn(self, code: str, line: int, message: str, player: str | None = None) -> None:
        """Record a warning: reported, but the hand stays valid."""
        self.warnings.append(Violation(code, line, message, None, None, player))

    def snapshot(self) -> Snapshot:
        """Cheap immutable picture of the table (for error context and tests)."""
        nxt = self._next_to_act()
        return Snapshot(
            self.phase, self.street, nxt.name if nxt else None, self.pot_total, self.current_bet,
            tuple((p.name, p.stack) for p in self.ring), tuple((p.name, p.street_bet) for p in self.ring),
        )

    def _setup_seats(self) -> None:
        """Seats; who is dealt in; the clockwise ring from the button; blind positions."""
        hand = self.hand
        seen_seats: set[int] = set()
        for s in hand.seats:
            if s.seat in seen_seats or s.player in self.players:
                self.err("duplicate-seat", s.line, f"seat {s.seat} / player {s.player} appears twice",
                         player=s.player)
                continue
            seen_seats.add(s.seat)
            if s.stack <= 0:
                self.err("non-positive-stack", s.line, f"{s.player} starts with {self.fmt(s.stack)}",
                         player=s.player)
            self.players[s.player] = PlayerState(s.player, s.seat, s.stack, s.sitting_out or s.out_of_hand is not None)
        # Dealt in: not sitting out, or sitting out but acting anyway (tournaments deal sitting-out
        # players in and fold them in turn: O8-KO StaKuGorPS). *observed*
        players = self.players.values()
        if any(p.sitting_out for p in players):
            acting: set[str] = set()
            for e in hand.events:
                if isinstance(e, PostBlind | Fold | Check | Call | Bet | Raise | DealHole):
                    acting.add(e.player)
            for p in players:
                p.dealt_in = (not p.sitting_out) or p.name in acting
        else:
            for p in players:
                p.dealt_in = True
        button = self.h.button_seat
        ring = sorted((p for p in players if p.dealt_in), key=lambda p: (p.seat - button - 1) % 1000)
        for i, p in enumerate(ring):
            p.idx = i
        self.ring = ring
        self._rot = [ring[i:] + ring[:i] for i in range(len(ring))]

    def _positional_sb(self) -> PlayerState | None:
        """Heads-up the button posts the small blind; otherwise the first player after the button."""
        ring = self.ring
        if not ring:
            return None
        if len(ring) == 2:
            return ring[-1] if ring[-1].seat == self.h.button_seat else ring[0]
        return ring[0]

    def _next_after(self, p: PlayerState) -> PlayerState:
        return self.ring[(p.idx + 1) % len(self.ring)]

    def _claim(self, card: str, owner: str, line: int, player: str | None = None) -> None:
        """Every physical card has one owner (a player or a board run); a second owner is a duplicate."""
        prev = self.owners.get(card)
        if prev is None:
            self.owners[card] = owner
        elif prev != owner:
            where = "the board" if prev.startswith("\x00") else prev
            self.err("duplicate-card", line, f"{card} appears twice (already held by {where})",
                     found=card, player=player)

    def _player(self, name: str, line: int) -> PlayerState | None:
        p = self.players.get(name)
        if p is None or not p.dealt_in:
            self.err("unknown-player", line, f"{name!r} is not seated and dealt in", player=name)
            return None
        return p

    # ------------------------------------------------------------------ betting state

    def _needs_action(self, p: PlayerState) -> bool:
        return not p.folded and not p.all_in and (not p.acted or p.street_bet < self.current_bet)

    def betting_closed(self) -> bool:
        """A round is over when nobody still able to act owes chips or has yet to act.

        Special cases: one live player left; or at most one player with chips and nothing owed by
        them (the others are all-in) - nobody is asked to act alone.
        """
        return self._scan()[0]

    def _scan(self) -> tuple[bool, PlayerState | None]:
        """(betting closed?, next player due to act) in one pass over the ring (hot path)."""
        rot = self._rot
        if not rot:
            return True, None
        cur = self.current_bet
        live = 0
        n_active = 0
        lone: PlayerState | None = None
        nxt: PlayerState | None = None
        for p in rot[(self.last_actor + 1) % len(rot)]:
            if p.folded:
                continue
            live += 1
            if p.all_in:
                continue
            n_active += 1
            lone = p
            if nxt is None and (not p.acted or p.street_bet < cur):
                nxt = p
        if live <= 1 or n_active == 0:
            return True, None
        if n_active == 1:
            assert lone is not None
            return (True, None) if lone.street_bet >= cur else (False, lone)
        return nxt is None, nxt

    def _next_to_act(self) -> PlayerState | None:
        if self.phase is not Phase.BETTING:
            return None
        return self._scan()[1]

    def _move(self, p: PlayerState, amount: int, live: bool = True) -> None:
        """Chips from a stack into the pot; ``live`` chips count toward the street bet."""
        p.stack -= amount
        if live:
            p.street_bet += amount
        p.contrib[self.street] += amount
        self.pot_total += amount
        if p.stack <= 0 and amount > 0 and not p.all_in:
            p.all_in = True
            p.all_in_street = self.street

    def _new_street(self, street: Street) -> None:
        self.street = street
        for p in self.ring:
            p.street_bet = 0
            p.acted = False
            p.faced_at_action = 0
        self.current_bet = 0
        self.last_raise = self.bb
        self.bets = 0
        self.last_actor = -1  # first candidate: ring[0], the first seat after the button
        self.closed_checked = False

    def _end_of_betting(self, line: int) -> None:
        """Called when a non-betting line (board, showdown, collect) arrives: the round must be closed."""
        if self.closed_checked or self.phase is not Phase.BETTING:
            return
        self.closed_checked = True
        nxt = self._next_to_act()
        if nxt is not None:
            self.err("betting-not-closed", line,
                     f"the {_STREET_WORD[self.street]} betting ends while {nxt.name} still has to act",
                     expected=f"an action by {nxt.name}", player=nxt.name)

    # ------------------------------------------------------------------ events

    def run(self) -> None:
        """Replay every event, then settle pots and check the summary."""
        for w in self.hand.warnings:
            code = w.code if w.code in ("courchevel-2016-board",) else "parser-warning"
            self.warn(code, w.line, w.message)
        get = _DISPATCH.get
        for e in self.hand.events:
            fn = get(type(e))
            if fn is not None:
                fn(self, e)
        if self.phase is Phase.SETUP and not self.cancelled:
            self._hole_marker(None)
        if not self.cancelled:
            self._end_of_betting(self.hand.summary.line if self.hand.summary else self.hand.line)

    def _post(self, e: PostBlind) -> None:
        p = self.players.get(e.player)
        if p is None or not p.dealt_in:
            self._player(e.player, e.line)  # reports the unknown player
            return
        if self.phase is not Phase.SETUP:
            self.err("post-after-deal", e.line, f"{p.name} posts after the hole cards were dealt", player=p.name)
        stack_before = p.stack
        pot_before = self.pot_total
        amount = e.amount
        if amount > p.stack:
            self.err("bet-exceeds-stack", e.line,
                     f"{p.name} posts {self.fmt(amount)} with only {self.fmt(p.stack)} behind",
                     expected=f"at most {self.fmt(p.stack)}", found=self.fmt(amount), player=p.name)
        if e.all_in != (amount >= p.stack):
            self._all_in_flag_error(p, e.all_in, amount, e.line)
        short_all_in = e.all_in and amount >= p.stack
        kind = e.kind
        if kind is PostKind.SMALL_BLIND:
            exp = self._positional_sb()
            if exp is not None and exp is not p:
                self.err("wrong-blind-seat", e.line, f"{p.name} posts the small blind; {exp.name} is in that position",
                         expected=exp.name, found=p.name, player=p.name)
            # FL: usually half the small bet, but $5/$10 posts $2 and $15/$30 posts $10 (*observed*).
            ok = 0 < amount < self.bb if self.fl else amount == self.sb
            if not ok and not (short_all_in and amount < self.sb):
                self.err("wrong-blind-amount", e.line, f"small blind of {self.fmt(amount)}",
                         expected=self.fmt(self.sb), found=self.fmt(amount), player=p.name)
            p.posted_sb = True
            self.sb_player = self.sb_player or p
            self._move(p, amount)
        elif kind is PostKind.BIG_BLIND or kind is PostKind.SMALL_AND_BIG:
            live_part = amount if kind is PostKind.BIG_BLIND else amount - self.sb
            if live_part != self.bb and not (short_all_in and live_part < self.bb):
                self.err("wrong-blind-amount", e.line, f"big blind of {self.fmt(live_part)}",
                         expected=self.fmt(self.bb), found=self.fmt(live_part), player=p.name)
            p.posted_bb = True
            if kind is PostKind.BIG_BLIND and self.bb_player is None:
                self.bb_player = p
            self._move(p, max(live_part, 0))
            if amount > live_part:
                self._move(p, amount - live_part, live=False)  # the small-blind part is dead
        else:  # ante: dead money, any amount (the header does not print it)
            self._move(p, amount, live=False)
            p.antes += amount
        self.ledger.append((K_POST, e, Street.PREFLOP, p, amount, p.street_bet, pot_before, stack_before, 0))

    def _capped(self, p: PlayerState, flagged: int | None, line: int) -> None:
        """After a call, bet or raise at a capped table: the cap is never passed, and a player who
        reaches it is all-in for the rest of the hand. ``and has reached the $10 cap`` is printed
        exactly then (with the header's cap), like ``and is all-in`` when the stack is empty
        (real hand, HHSmithy 133974380110: ``raises $72 to $80 and has reached the $80 cap``)."""
        fmt = self.fmt
        cap = self.cap
        if cap is None:
            assert flagged is not None
            self.err("all-in-flag-mismatch", line, f"{p.name} 'has reached the {fmt(flagged)} cap' at a table "
                     "without a cap", expected="no cap", found=f"cap {fmt(flagged)}", player=p.name)
            return
        total = p.total_contrib
        if total > cap:
            self.err("bet-above-cap", line, f"{p.name} has {fmt(total)} in the pot, above the table's {fmt(cap)} cap",
                     expected=f"at most {fmt(cap)} in the hand", found=fmt(total), player=p.name)
        reached = total >= cap and p.stack > 0
        if flagged is not None and (flagged != cap or not reached):
            found = f"'has reached the {fmt(flagged)} cap'"
            if flagged != cap:
                msg = f"{p.name} {found} but the table's cap is {fmt(cap)}"
            else:
                msg = f"{p.name} {found} with {fmt(total)} in the pot"
            self.err("all-in-flag-mismatch", line, msg, expected=f"{fmt(cap)} in the pot", found=found,
                     player=p.name)
        elif flagged is None and reached and not p.all_in:
            self.err("all-in-flag-mismatch", line,
                     f"{p.name} reaches the {fmt(cap)} cap without 'and has reached the {fmt(cap)} cap'",
                     expected=f"and has reached the {fmt(cap)} cap", found="(nothing)", player=p.name)
        if reached and not p.all_in:
            p.all_in = True
            p.all_in_street = self.street

    def _all_in_flag_error(self, p: PlayerState, flag: bool, amount: int, line: int) -> None:
        empties = amount >= p.stack
        if flag != empties:
            if flag:
                msg = f"{p.name} is marked all-in but keeps {self.fmt(p.stack - amount)}"
            else:
                msg = f"{p.name} puts in the whole stack ({self.fmt(p.stack)}) without 'and is all-in'"
            self.err("all-in-flag-mismatch", line, msg, expected="all-in" if empties else "not all-in",
                     found="all-in" if flag else "not all-in", player=p.name)

    def _hole_marker(self, e: HoleCardsMarker | None) -> None:
        if self.phase is not Phase.SETUP:
            return
        line = e.line if e is not None else self.hand.line
        self.phase = Phase.BETTING
        self.street = Street.PREFLOP
        if not self.ring:
            return
        # Blind positions. The big blind in position is the first player after the small-blind
        # poster (after the button when nobody posted a small blind); other big-blind posters are
        # new players posting to enter (O8-BB) and their blind is a live bet too.
        sb = self.sb_player
        exp_bb: PlayerState | None
        if sb is not None:
            exp_bb = self._next_after(sb)
        else:
            exp_sb = self._positional_sb()
            exp_bb = self._next_after(exp_sb) if exp_sb is not None else None
        bb_posters = [p for p in self.ring if p.posted_bb]
        if not bb_posters:
            if len(self.ring) > 1:
                self.err("missing-big-blind", line, "no big blind was posted")
            anchor = sb
        elif exp_bb is not None and exp_bb.posted_bb:
            anchor = exp_bb
        else:
            anchor = self.bb_player
            if exp_bb is not None and sb is not None:
                self.err("wrong-blind-seat", line,
                         f"{exp_bb.name} is in the big blind but did not post it",
                         expected=exp_bb.name, found=", ".join(p.name for p in bb_posters), player=exp_bb.name)
        self.bb_player = anchor if (anchor is not None and anchor.posted_bb) else self.bb_player
        # The bet to call is what the blinds really put in: a big blind posted all-in for less than
        # its size sets the amount to call and the base of the next raise (*observed*, 2021:
        # "posts big blind 40 and is all-in" at 30/60, then the small blind "calls 10").
        cur = 0
        for p in self.ring:
            if p.street_bet > cur:
                cur = p.street_bet
            if p.posted_bb and not p.all_in and cur < self.bb:
                cur = self.bb  # a full big blind (a short one that is not all-in is already an error)
        self.current_bet = cur
        self.last_raise = self.bb
        self.bets = 1 if bb_posters else 0
        self.last_actor = anchor.idx if anchor is not None else -1

    def _deal_hole(self, e: DealHole) -> None:
        self._hole_marker(None) if self.phase is Phase.SETUP else None
        p = self._player(e.player, e.line)
        if p is None or not e.cards:
            return
        if len(e.cards) != self.spec.hole_cards:
            self.err("wrong-hole-card-count", e.line,
                     f"{p.name} is dealt {len(e.cards)} cards; {self.spec.name} deals {self.spec.hole_cards}",
                     expected=self.spec.hole_cards, found=len(e.cards), player=p.name)
        if len(set(e.cards)) != len(e.cards):
            self.err("duplicate-card", e.line, f"{p.name} is dealt the same card twice", player=p.name)
        owners = self.owners
        name = p.name
        for c in e.cards:
            if owners.setdefault(c, name) != name:
                self._claim(c, name, e.line, name)  # reports the duplicate
        p.hole = e.cards
        self.hero = self.hero or p.name

    def _expose(self, e: ExposeCard) -> None:
        if not self.spec.exposed_card:
            self.err("unexpected-exposed-card", e.line, f"{self.spec.name} has no exposed pre-flop card",
                     found=e.card)
        if self.exposed is not None:
            if e.card != self.exposed:
                self.err("exposed-card-mismatch", e.line, f"exposed card {e.card} after {self.exposed}",
                         expected=self.exposed, found=e.card)
            return
        self.exposed = e.card
        self._claim(e.card, "\x00board", e.line)

    def _deal_board(self, e: DealBoard) -> None:
        cards = e.cards
        if self.phase is Phase.SETUP:
            self._hole_marker(None)
        self._end_of_betting(e.line)
        if self.spec.exposed_card:
            if self.exposed is None:
                self.err("missing-exposed-card", e.line, "no exposed card was dealt before the flop")
                self.exposed = cards[0] if cards else None
            elif cards and cards[0] != self.exposed:
                self.err("exposed-card-mismatch", e.line,
                         f"the board starts with {cards[0]} but the exposed card was {self.exposed}",
                         expected=self.exposed, found=cards[0])
        size = self.spec.board_sizes[e.street - 1] if e.street > Street.PREFLOP else None
        if len(cards) != size:
            self.err("wrong-board-size", e.line, f"{e.street.name} board has {len(cards)} cards",
                     expected=size, found=len(cards))
        if len(set(cards)) != len(cards):
            self.err("duplicate-card", e.line, f"a card appears twice on the board {' '.join(cards)}")
        if e.run == 0:
            if self.phase is not Phase.BETTING or e.street <= self.street:
                self.err("street-out-of-order", e.line, f"{e.street.name} dealt after {self.street.name}",
                         found=e.street.name)
            prev = self.board
            owner = "\x00board"
        else:
            self.phase = Phase.RUNOUT
            self.betting_over = True
            prev = self.run_boards.get(e.run, self.board)
            last = self.run_street.get(e.run, self.street)
            if e.street <= last:
                self.err("street-out-of-order", e.line, f"{e.street.name} dealt twice on run {e.run}",
                         found=e.street.name)
            self.run_street[e.run] = e.street
            owner = f"\x00board{e.run}"
        if list(cards[: len(prev)]) != prev:
            self.err("board-mismatch", e.line, f"board {' '.join(cards)} does not extend {' '.join(prev)}",
                     expected=" ".join(prev), found=" ".join(cards[: len(prev)]))
        owners = self.owners
        for c in cards[len(prev):]:
            if (c != self.exposed or e.street is not Street.FLOP) and owners.setdefault(c, owner) != owner:
                self._claim(c, owner, e.line)  # reports the duplicate
        if e.run == 0:
            self.board = list(cards)
            if e.street is Street.FLOP:
                self.flop_seen = True
            self._new_street(e.street)
        else:
            self.run_boards[e.run] = list(cards)
            if e.street is Street.FLOP:
                self.flop_seen = True

    def _begin(self, e: Fold | Check | Call | Bet | Raise) -> PlayerState | None:
        """What every betting action checks first: a dealt-in player, able to act, in turn.

        None when the action cannot be applied at all (unknown player, folded, all-in); out-of-turn
        and after-the-round actions are reported and still applied.
        """
        p = self.players.get(e.player)
        if p is None or not p.dealt_in:
            self.err("unknown-player", e.line, f"{e.player!r} is not seated and dealt in", player=e.player)
            return None
        if self.phase is Phase.SETUP:
            self._hole_marker(None)
        if p.folded:
            self.err("acted-after-fold", e.line, f"{p.name} acts after folding", player=p.name)
            return None
        if p.all_in:
            self.err("acted-while-all-in", e.line, f"{p.name} acts after going all-in", player=p.name)
            return None
        closed, nxt = self._scan() if self.phase is Phase.BETTING else (True, None)
        if closed:
            self.err("action-after-betting-closed", e.line,
                     f"{p.name} acts after the {_STREET_WORD[self.street]} betting is over", player=p.name)
        elif nxt is not None and nxt is not p:
            self.err("action-out-of-turn", e.line, f"{p.name} acts but {nxt.name} is due to act",
                     expected=nxt.name, found=p.name, player=p.name)
        return p

    # The five actions share ``_begin`` and this epilogue (inlined: it is the hot path):
    #     p.acted = True; p.faced_at_action = current bet; last_actor = p.idx; ledger entry.

    def _fold(self, e: Fold) -> None:
        p = self._begin(e)
        if p is None:
            return
        owed = self.current_bet - p.street_bet
        p.folded = True
        p.fold_street = street = self.street
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx
        self.ledger.append((K_FOLD, e, street, p, 0, p.street_bet, self.pot_total, p.stack, owed if owed > 0 else 0))

    def _check(self, e: Check) -> None:
        p = self._begin(e)
        if p is None:
            return
        owed = self.current_bet - p.street_bet
        if owed > 0:
            fmt = self.fmt
            self.err("check-facing-bet", e.line, f"{p.name} checks facing {fmt(owed)}",
                     expected=f"call {fmt(min(owed, p.stack))} or fold", found="check", player=p.name)
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx
        self.ledger.append((K_CHECK, e, self.street, p, 0, p.street_bet, self.pot_total, p.stack,
                            owed if owed > 0 else 0))

    def _call(self, e: Call) -> None:
        p = self._begin(e)
        if p is None:
            return
        owed = self.current_bet - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        moved = e.amount
        # what the player can put in: the stack, or what the table's cap leaves them
        limit = stack_before if self.cap is None else min(stack_before, max(self.cap - p.total_contrib, 0))
        if moved > stack_before:
            fmt = self.fmt
            self.err("bet-exceeds-stack", e.line, f"{p.name} calls {fmt(moved)} with {fmt(p.stack)} behind",
                     expected=f"at most {fmt(p.stack)}", found=fmt(moved), player=p.name)
        elif owed <= 0 or moved != (owed if owed < limit else limit):
            fmt = self.fmt
            exp = min(owed, limit)
            self.err("wrong-call-amount", e.line,
                     f"{p.name} calls {fmt(moved)} but owes {fmt(max(owed, 0))}",
                     expected=f"call {fmt(exp)}" if owed > 0 else "check", found=f"call {fmt(moved)}",
                     player=p.name)
        if e.all_in != (moved >= stack_before):
            self._all_in_flag_error(p, e.all_in, moved, e.line)
        street = self.street
        # _move(p, moved), inlined
        p.stack -= moved
        p.street_bet += moved
        p.contrib[street] += moved
        self.pot_total += moved
        if p.stack <= 0 and moved > 0 and not p.all_in:
            p.all_in = True
            p.all_in_street = street
        if self.cap is not None or e.cap_reached is not None:
            self._capped(p, e.cap_reached, e.line)
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx
        self.ledger.append((K_CALL, e, street, p, moved, p.street_bet, pot_before, stack_before,
                            owed if owed > 0 else 0))

    def _bet(self, e: Bet) -> None:
        p = self._begin(e)
        if p is None:
            return
        owed = self.current_bet - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        moved = e.amount
        self._bet_or_raise(p, e, True, self.current_bet, p.street_bet + moved, moved)
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx
        self.ledger.append((K_BET, e, self.street, p, moved, p.street_bet, pot_before, stack_before,
                            owed if owed > 0 else 0))

    def _raise(self, e: Raise) -> None:
        p = self._begin(e)
        if p is None:
            return
        cur = self.current_bet
        owed = cur - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        moved = e.to - p.street_bet
        if e.by != e.to - cur:
            fmt = self.fmt
            self.err("raise-increment-mismatch", e.line,
                     f"'raises {fmt(e.by)} to {fmt(e.to)}' but the bet faced was {fmt(cur)}",
                     expected=f"raises {fmt(e.to - cur)} to {fmt(e.to)}",
                     found=f"raises {fmt(e.by)} to {fmt(e.to)}", player=p.name)
        self._bet_or_raise(p, e, False, cur, e.to, moved)
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx
        self.ledger.append((K_RAISE, e, self.street, p, moved, p.street_bet, pot_before, stack_before,
                            owed if owed > 0 else 0))

    def _bet_or_raise(self, p: PlayerState, e: Bet | Raise, is_bet: bool, cur: int, to: int, moved: int) -> None:
        """Size checks shared by bets and raises, then apply. ``to`` is the player's new street total."""
        fmt = self.fmt
        word = "bet" if is_bet else "raise to"
        shown = moved if is_bet else to
        if is_bet and cur > 0:
            self.err("bet-facing-bet", e.line, f"{p.name} bets facing {fmt(cur)}", expected="raise", found="bet",
                     player=p.name)
        if not is_bet and cur == 0:
            self.err("raise-without-bet", e.line, f"{p.name} raises but no bet is open", expected="bet",
                     found="raise", player=p.name)
        if moved > p.stack:
            self.err("bet-exceeds-stack", e.line,
                     f"{p.name} puts in {fmt(moved)} with only {fmt(p.stack)} behind",
                     expected=f"at most {word} {fmt(p.street_bet + p.stack if not is_bet else p.stack)}",
                     found=f"{word} {fmt(shown)}", player=p.name)
        all_in = moved >= p.stack
        if e.all_in != all_in:
            self._all_in_flag_error(p, e.all_in, moved, e.line)
        if self.cap is not None and p.total_contrib + moved >= self.cap:
            all_in = True  # reaching the table's cap: a short bet or raise is allowed, as all-in
        inc = to - cur
        full: bool
        if self.fl:
            size = R.fixed_limit_size(self.street, self.small_bet, self.big_bet)
            cap = self.spec.max_bets_per_round
            if cap is not None and self.bets >= cap:
                self.err("betting-capped", e.line,
                         f"{p.name} raises after the {_STREET_WORD[self.street]} betting was capped at {cap} bets",
                         expected="call or fold", found=f"{word} {fmt(shown)}", player=p.name)
            if inc != size and not (all_in and inc < size):
                self.err("wrong-fixed-limit-size", e.line,
                         f"{word} {fmt(shown)} is not a {fmt(size)} {'bet' if is_bet else 'raise'}",
                         expected=f"{word} {fmt(cur + size)}", found=f"{word} {fmt(shown)}", player=p.name)
            full = inc >= size
        else:
            if is_bet:
                mn = R.min_bet(self.bb)
                if moved < mn and not all_in:
                    self.err("bet-below-minimum", e.line, f"bet of {fmt(moved)} is below the minimum of {fmt(mn)}",
                             expected=f"bet at least {fmt(mn)}", found=f"bet {fmt(moved)}", player=p.name)
            else:
                mn = R.min_raise_to(cur, self.last_raise, self.bb)
                if to < mn and not all_in:
                    self.err("raise-below-minimum", e.line,
                             f"raise to {fmt(to)} is below the minimum raise to {fmt(mn)}",
                             expected=f"raise to at least {fmt(mn)}", found=f"raise to {fmt(to)}", player=p.name)
            if self.pl:
                mx = R.pot_limit_max_to(self.pot_total, cur, p.street_bet)
                if to > mx:
                    code = "bet-above-pot-limit" if is_bet else "raise-above-pot-limit"
                    self.err(code, e.line,
                             f"{word} {fmt(shown)} is above the pot limit of {fmt(mx)}",
                             expected=f"{word} at most {fmt(mx)}", found=f"{word} {fmt(shown)}", player=p.name)
            full = inc >= self.last_raise or (is_bet and inc >= self.bb)
        # Re-opening: a player who already acted may raise again only if the bet was raised by at
        # least a full raise since (a short all-in raise does not re-open). Standard rule; no real
        # hand in the corpus contradicts it.
        if not is_bet and p.acted and cur - p.faced_at_action < self.last_raise:
            self.err("raise-not-reopened", e.line,
                     f"{p.name} re-raises although only a short all-in raise ({fmt(cur - p.faced_at_action)}) "
                     f"followed their last action", expected="call or fold", found=f"raise to {fmt(to)}",
                     player=p.name)
        self._move(p, moved)
        if self.cap is not None or e.cap_reached is not None:
            self._capped(p, e.cap_reached, e.line)
        if to > self.current_bet:
            self.current_bet = to
        if full:
            self.last_raise = inc if not self.fl else R.fixed_limit_size(self.street, self.small_bet, self.big_bet)
            self.bets += 1

    def _uncalled(self, e: UncalledBet) -> None:
        self._end_of_betting(e.line)
        p = self._player(e.player, e.line)
        if p is None:
            return
        self.uncalled_seen = True
        top, amount = self._expected_uncalled()
        fmt = self.fmt
        if top is not None and top is not p:
            self.err("wrong-uncalled-player", e.line, f"uncalled bet returned to {p.name}, not to {top.name}",
                     expected=top.name, found=p.name, player=p.name)
        if e.amount != amount or top is None:
            self.err("wrong-uncalled-amount", e.line,
                     f"uncalled bet of {fmt(e.amount)} returned; the uncalled part is {fmt(amount)}",
                     expected=fmt(amount), found=fmt(e.amount), player=p.name)
        stack_before = p.stack
        pot_before = self.pot_total
        p.stack += e.amount
        p.street_bet -= e.amount
        p.returned += e.amount
        self.pot_total -= e.amount
        if p.all_in and p.stack > 0:
            p.all_in = False
            p.all_in_street = None
        self.ledger.append((K_UNCALLED, e, self.street, p, e.amount, p.street_bet, pot_before, stack_before, 0))

    def _expected_uncalled(self) -> tuple[PlayerState | None, int]:
        """The top contributor's excess over the second-largest contribution (folded players count)."""
        top: PlayerState | None = None
        first = second = 0
        for p in self.ring:
            k = p.contrib
            c = k[0] + k[1] + k[2] + k[3] - p.returned  # p.total_contrib, inlined
            if c > first:
                second, first, top = first, c, p
            elif c > second:
                second = c
        return top, first - second

    def _showdown_marker(self, e: ShowdownMarker) -> None:
        self._end_of_betting(e.line)
        self.phase = Phase.SHOWDOWN
        self.show_run = e.run
        self.showdown_marker = True

    def _show(self, e: Show) -> None:
        p = self._player(e.player, e.line)
        if p is None:
            return
        self._end_of_betting(e.line)
        if p.folded:
            self.err("show-after-fold", e.line, f"{p.name} shows after folding", player=p.name)
        n = self.spec.hole_cards
        full = len(e.cards) == n
        if (e.description is not None and not full) or len(e.cards) > n:
            self.err("wrong-hole-card-count", e.line, f"{p.name} shows {len(e.cards)} cards; the game deals {n}",
                     expected=n, found=len(e.cards), player=p.name)
        if p.hole and not set(e.cards) <= set(p.hole):
            self.err("shown-cards-mismatch", e.line,
                     f"{p.name} shows {' '.join(e.cards)} but was dealt {' '.join(p.hole)}",
                     expected=" ".join(p.hole), found=" ".join(e.cards), player=p.name)
        if len(set(e.cards)) != len(e.cards):
            self.err("duplicate-card", e.line, f"{p.name} shows the same card twice", player=p.name)
        owners = self.owners
        name = p.name
        for c in e.cards:
            if owners.setdefault(c, name) != name:
                self._claim(c, name, e.line, name)  # reports the duplicate
        if len(e.cards) >= len(p.shown):
            p.shown = e.cards
        if full and not p.folded:
            p.showed = True
        self.shows.append((e, self.show_run))

    def _muck(self, e: Muck | DoesNotShow) -> None:
        p = self._player(e.player, e.line)
        if p is not None:
            p.mucked = True

    def _collect(self, e: Collect) -> None:
        self._end_of_betting(e.line)
        p = self._player(e.player, e.line)
        if p is not None:
            p.collected += e.amount
        self.collects.append(e)

    def _cancel(self, e: HandCancelled) -> None:
        self.cancelled = True
        self.phase = Phase.CANCELLED

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
            self.err("acted-after-fold", e.line, f"{p.name} is treated as all-in after folding", player=p.name)
        elif not p.all_in:
            p.all_in = True
            p.all_in_street = self.street

    def _cash_out(self, e: TableEvent) -> None:
        """All-in cash out: a live player sells their claim on the pots to the room, once."""
        p = self._player(e.player, e.line)
        if p is None:
            return
        fmt = self.fmt
        amount = e.amount or 0
        if p.folded:
            self.err("wrong-cash-out", e.line, f"{p.name} cashes out after folding", player=p.name)
        elif p.cash_out_line:
            self.err("wrong-cash-out", e.line, f"{p.name} cashes out twice", player=p.name)
        elif amount <= 0:
            self.err("wrong-cash-out", e.line, f"{p.name} cashes out for {fmt(amount)}",
                     expected="a positive amount", found=fmt(amount), player=p.name)
        else:
            p.cash_out = amount
            p.cash_out_fee = e.fee or 0
            p.cash_out_line = e.line


_DISPATCH: dict[type, Callable[[Referee, Any], None]] = {
    PostBlind: Referee._post,
    HoleCardsMarker: Referee._hole_marker,
    DealHole: Referee._deal_hole,
    ExposeCard: Referee._expose,
    DealBoard: Referee._deal_board,
    Fold: Referee._fold,
    Check: Referee._check,
    Call: Referee._call,
    Bet: Referee._bet,
    Raise: Referee._raise,
    UncalledBet: Referee._uncalled,
    ShowdownMarker: Referee._showdown_marker,
    Show: Referee._show,
    Muck: Referee._muck,
    DoesNotShow: Referee._muck,
    Collect: Referee._collect,
    NoLowHand: Referee._no_low,
    HandCancelled: Referee._cancel,
    TableEvent: Referee._table_event,
}
"""Event type -> handler, built once (a per-hand dict of bound methods cost ~2 us a hand)."""


def players_clockwise(ref: Referee, names: Sequence[str]) -> tuple[str, ...]:
    """``names`` in odd-chip order: clockwise from the first seat after the button."""
    return R.clockwise_from_button(((n, ref.players[n].seat) for n in names), ref.h.button_seat)


__all__ = [
    "K_BET", "K_CALL", "K_CHECK", "K_FOLD", "K_POST", "K_RAISE", "K_UNCALLED", "Referee", "ShownHand",
    "money_formatter", "players_clockwise",
]

