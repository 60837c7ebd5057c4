"""The betting engine: one table's chips and turns, as verify / can / apply triples.

Why one engine: the referee (:mod:`hhparse.engine.replay`), the synthetic generator
(:mod:`hhparse.synth.handsim`) and the property test (``tests/test_rules_referee.py``) all need
the betting rules — whose turn it is, what may be called, bet or raised and how much, when a
round is over, what a short all-in re-opens, the fixed-limit cap, a table's cap. Written once
here, the three agree by construction instead of by care. The shape is pokerkit's: for every
action a ``verify_*`` that returns what it would break (a list of
:class:`~hhparse.errors.Violation`, empty when legal), a ``can_*`` (no violation) and an
``apply_*`` that moves the chips and returns the action's :class:`LedgerEntry`. The referee
verifies what the history says and applies it anyway (a hand is never repaired, and one bad line
must not hide the next); the generator and the test only apply what ``can_*`` allows.

The money rules (pot-limit maximum, minimum raise, fixed-limit sizes) are the pure functions of
:mod:`hhparse.rules.pots`; this module decides *when* each applies. State is mutable and slotted
(a replay touches it on every event); what the rest of the engine reads after a replay is the
frozen view of :mod:`hhparse.engine.view`. Compiled by mypyc (``hatch_build.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Final

from hhparse.errors import Violation
from hhparse.facts import ActionFact
from hhparse.model import Cards, PostKind, Street, Structure
from hhparse.rules import pots as R
from hhparse.rules.spec import GameSpec

__all__ = [
    "ACTION_KIND",
    "K_BET",
    "K_CALL",
    "K_CHECK",
    "K_FOLD",
    "K_POST",
    "K_RAISE",
    "K_UNCALLED",
    "STREET_WORD",
    "LedgerEntry",
    "Phase",
    "Player",
    "Table",
]

# Ledger entry kinds (:data:`ACTION_KIND`); voluntary actions are below ``K_POST``. Final
# literals: compiled, every use is the constant itself, not a lookup in the module's globals.
K_FOLD: Final = 0
K_CHECK: Final = 1
K_CALL: Final = 2
K_BET: Final = 3
K_RAISE: Final = 4
K_POST: Final = 5
K_UNCALLED: Final = 6

STREET_WORD: Final = {
    Street.PREFLOP: "pre-flop",
    Street.FLOP: "flop",
    Street.TURN: "turn",
    Street.RIVER: "river",
}


class Phase(IntEnum):
    """Where the hand is; betting actions are only legal while ``BETTING``."""

    SETUP = 0  # seats and forced bets, before the hole cards are dealt
    BETTING = 1  # a betting street (see ``Table.street``)
    RUNOUT = 2  # run-it-twice boards being dealt: no more betting
    SHOWDOWN = 3  # show/muck/collect lines
    CANCELLED = 4


class Player:
    """One seated player's betting state during a hand (mutable: it changes on every action)."""

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

    def __init__(
        self, name: str, seat: int, stack: int, sitting_out: bool = False, dealt_in: bool = True
    ) -> None:
        self.name = name
        self.seat = seat
        self.idx = -1  # index in the clockwise ring of dealt-in players
        self.start_stack = stack
        self.stack = stack
        self.sitting_out = sitting_out
        self.dealt_in = dealt_in
        self.street_bet = 0  # chips put in on the current street (live blinds included)
        self.contrib = [0, 0, 0, 0]  # per street, gross (an uncalled return is in ``returned``)
        self.folded = False
        self.fold_street: Street | None = None
        self.all_in = False
        self.all_in_street: Street | None = None
        self.acted = False  # acted voluntarily on this street
        self.faced_at_action = 0  # the street's current bet right after this player's last action
        self.antes = 0  # posted as antes (dead money, not a bet: "(didn't bet)" ignores it)
        self.returned = 0
        self.posted_sb = False
        self.posted_bb = False
        # What the hand shows of the player besides the betting: the referee notes it during the
        # replay (the engine itself never reads it). Here rather than in an object of its own:
        # one object fewer per player of every hand.
        self.hole: Cards = ()  # dealt (the hero's)
        self.shown: Cards = ()  # the most cards shown
        self.showed = False  # showed a full hand
        self.mucked = False
        self.collected = 0  # from the collect lines
        self.cash_out = 0  # paid by the room: "NAME cashed out the hand for $X | Cash Out Fee $Y"
        self.cash_out_fee = 0
        self.cash_out_line = 0  # the cash-out line (0: did not cash out)

    @property
    def total_contrib(self) -> int:
        """Chips this player has in the pot in all, net of any uncalled return."""
        c = self.contrib
        return c[0] + c[1] + c[2] + c[3] - self.returned


LedgerEntry = ActionFact
"""One forced bet, action or uncalled return as the engine applied it: the audit trail the facts
are built from, and the very record the ``actions`` table stores (:class:`hhparse.facts.ActionFact`:
``to_amount`` is the player's street total after it, ``faced`` what they owed before it).

Why the fact itself: the engine used to return its own entry (with a kind number and the post's
kind) that the facts builder then copied field by field into an ``ActionFact`` — two records of
twelve fields for every action of every hand, one of them thrown away. The kind is now read off
the action's word (:data:`ACTION_KIND`) and ``seq`` is the table's count of applied entries: the
referee appends every entry the engine returns to its ledger, so ``seq`` is the entry's index."""

ACTION_KIND: Final = {
    "fold": K_FOLD,
    "check": K_CHECK,
    "call": K_CALL,
    "bet": K_BET,
    "raise": K_RAISE,
    "small blind": K_POST,
    "big blind": K_POST,
    "ante": K_POST,
    "uncalled": K_UNCALLED,
}
"""An :class:`ActionFact`'s ``action`` word -> its ledger kind (``K_FOLD`` ... ``K_UNCALLED``)."""

_POST_ACTION: Final = {
    PostKind.SMALL_BLIND: "small blind",
    PostKind.BIG_BLIND: "big blind",
    PostKind.SMALL_AND_BIG: "big blind",
    PostKind.ANTE: "ante",
}


class Table:
    """The betting of one hand: the ring of dealt-in players, the street, the pot, the bet to
    match, the last full raise, the fixed-limit bet count, whose turn it is.

    ``small_blind``/``big_blind`` are the header's stakes: the blinds in no and pot limit, the
    small and big *bets* in fixed limit (whose big blind is the small bet). ``cap`` is a capped
    table's cap on a player's chips in the hand. ``fmt`` writes amounts in violation messages.
    """

    def __init__(
        self,
        spec: GameSpec,
        players: list[Player],
        button_seat: int,
        small_blind: int,
        big_blind: int,
        cap: int | None = None,
        fmt: Callable[[int], str] = str,
    ) -> None:
        self.fl = spec.fixed_limit
        self.pl = spec.structure is Structure.POT_LIMIT
        self.max_bets = spec.max_bets_per_round
        self.bb = small_blind if self.fl else big_blind
        self.sb = small_blind
        self.small_bet = small_blind
        self.big_bet = big_blind
        # Capped tables ("($0.25/$0.50 - $10 Cap - USD)"): no player puts more than the cap in a
        # hand, and one who reaches it is all-in for the rest of the hand (the stack keeps its chips).
        self.cap = cap
        self.fmt = fmt
        self.button_seat = button_seat
        self.phase = Phase.SETUP
        self.street = Street.PREFLOP
        self.pot_total = 0
        self.current_bet = 0
        self.last_raise = self.bb
        self.bets = 0  # fixed limit: full bets this round (the big blind counts pre-flop)
        self.last_actor = -1  # ring index of the last player to act (or the round's starting point)
        self.closed_checked = False
        self.sb_player: Player | None = None
        self.bb_player: Player | None = None
        self.entries = 0  # ledger entries applied so far: the next entry's ``seq``
        # Clockwise from the first seat after the button. Sorted on (distance, position in
        # ``players``) pairs rather than with a key function: compiled, a key function is called
        # through Python for every player; the position keeps ties in the stable sort's order.
        keyed = [((p.seat - button_seat - 1) % 1000, i) for i, p in enumerate(players) if p.dealt_in]
        keyed.sort()
        ring = [players[i] for _, i in keyed]
        for i, p in enumerate(ring):
            p.idx = i
        self.ring = ring  # clockwise from the first seat after the button

    def _entry(
        self,
        street: int,
        player: str,
        seat: int,
        action: str,
        amount: int,
        to: int,
        all_in: bool,
        pot_before: int,
        stack_before: int,
        faced: int,
        line: int,
    ) -> ActionFact:
        """The ledger entry of an applied action, numbered in the order applied (``seq``)."""
        seq = self.entries
        self.entries = seq + 1
        return ActionFact(
            seq, street, player, seat, action, amount, to, all_in, pot_before, stack_before, faced, line
        )

    # ------------------------------------------------------------------ positions and turns

    def positional_sb(self) -> Player | None:
        """Heads-up the button posts the small blind; otherwise the first player after the button."""
        ring = self.ring
        if not ring:
            return None
        if len(ring) == 2:
            return ring[-1] if ring[-1].seat == self.button_seat else ring[0]
        return ring[0]

    def next_after(self, p: Player) -> Player:
        """The next dealt-in player clockwise."""
        return self.ring[(p.idx + 1) % len(self.ring)]

    def scan(self) -> tuple[bool, Player | None]:
        """(round over?, next player due to act) in one pass over the ring (the hot path).

        A round is over when nobody still able to act owes chips or has yet to act; also when one
        live player is left, or at most one has chips and owes nothing (nobody acts alone).
        """
        ring = self.ring
        n = len(ring)
        if not n:
            return True, None
        cur = self.current_bet
        live = 0
        n_active = 0
        lone: Player | None = None
        nxt: Player | None = None
        # The ring walked from the seat after the last actor, by index: no rotated copies of the
        # ring (one list per seat) built for every hand.
        i = (self.last_actor + 1) % n
        for _ in range(n):
            p = ring[i]
            i += 1
            if i == n:
                i = 0
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

    def next_to_act(self) -> Player | None:
        """Who must act now; None when no betting round is open or it is over."""
        if self.phase is not Phase.BETTING:
            return None
        return self.scan()[1]

    def can_act(self, p: Player) -> bool:
        """Whether ``p`` can act at all this hand (neither folded nor all-in)."""
        return not p.folded and not p.all_in

    def owed(self, p: Player) -> int:
        """What ``p`` must put in to call (0 when nothing is owed)."""
        owed = self.current_bet - p.street_bet
        return owed if owed > 0 else 0

    def limit(self, p: Player) -> int:
        """The most ``p`` can still put in: the stack, or what the table's cap leaves them."""
        return p.stack if self.cap is None else min(p.stack, max(self.cap - p.total_contrib, 0))

    def can_reraise(self, p: Player) -> bool:
        """A player who already acted may raise again only after a full raise since (a short
        all-in raise does not re-open the betting), and not once the fixed-limit round is capped."""
        if p.acted and self.current_bet - p.faced_at_action < self.last_raise:
            return False
        return not (self.fl and self.max_bets is not None and self.bets >= self.max_bets)

    def raise_bounds(self, p: Player) -> tuple[int, int]:
        """(smallest, largest) legal "to" total of a bet or raise by ``p`` (the largest may be an
        all-in below the smallest); fixed limit: the one size, or less all-in."""
        cur = self.current_bet
        all_in_to = p.street_bet + self.limit(p)
        if self.fl:
            to = cur + R.fixed_limit_size(self.street, self.small_bet, self.big_bet)
            return to, min(to, all_in_to)
        lo = R.min_raise_to(cur, self.last_raise, self.bb) if cur else R.min_bet(self.bb)
        hi = all_in_to
        if self.pl:
            hi = min(hi, R.pot_limit_max_to(self.pot_total, cur, p.street_bet))
        return lo, hi

    def expected_uncalled(self) -> tuple[Player | None, int]:
        """The top contributor's excess over the second-largest contribution (folded players count)."""
        top: Player | None = None
        first = second = 0
        for p in self.ring:
            k = p.contrib
            c = k[0] + k[1] + k[2] + k[3] - p.returned  # p.total_contrib, inlined
            if c > first:
                second, first, top = first, c, p
            elif c > second:
                second = c
        return top, first - second

    # ------------------------------------------------------------------ the hand's course

    def deal(self, line: int) -> list[Violation]:
        """The hole cards are dealt: the forced bets are over and the pre-flop round opens.

        Blind positions: the big blind in position is the first player after the small-blind
        poster (after the button when nobody posted a small blind); other big-blind posters are
        new players posting to enter (O8-BB) and their blind is a live bet too.
        """
        out: list[Violation] = []
        if self.phase is not Phase.SETUP:
            return out
        self.phase = Phase.BETTING
        self.street = Street.PREFLOP
        if not self.ring:
            return out
        sb = self.sb_player
        exp_bb: Player | None
        if sb is not None:
            exp_bb = self.next_after(sb)
        else:
            exp_sb = self.positional_sb()
            exp_bb = self.next_after(exp_sb) if exp_sb is not None else None
        bb_posters = [p for p in self.ring if p.posted_bb]
        if not bb_posters:
            if len(self.ring) > 1:
                out.append(Violation("missing-big-blind", line, "no big blind was posted"))
            anchor = sb
        elif exp_bb is not None and exp_bb.posted_bb:
            anchor = exp_bb
        else:
            anchor = self.bb_player
            if exp_bb is not None and sb is not None:
                out.append(
                    Violation(
                        "wrong-blind-seat",
                        line,
                        f"{exp_bb.name} is in the big blind but did not post it",
                        exp_bb.name,
                        ", ".join(p.name for p in bb_posters),
                        exp_bb.name,
                    )
                )
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
        return out

    def new_street(self, street: Street) -> None:
        """A board street is dealt: a new round opens, first to act the first seat after the button."""
        self.street = street
        for p in self.ring:
            p.street_bet = 0
            p.acted = False
            p.faced_at_action = 0
        self.current_bet = 0
        self.last_raise = self.bb
        self.bets = 0
        self.last_actor = -1
        self.closed_checked = False

    def close_round(self, line: int) -> list[Violation]:
        """A line that ends the betting of the street (a board, a showdown, a collect): the round
        must be over. Checked once per street."""
        if self.closed_checked or self.phase is not Phase.BETTING:
            return []
        self.closed_checked = True
        nxt = self.next_to_act()
        if nxt is None:
            return []
        return [
            Violation(
                "betting-not-closed",
                line,
                f"the {STREET_WORD[self.street]} betting ends while {nxt.name} still has to act",
                f"an action by {nxt.name}",
                None,
                nxt.name,
            )
        ]

    def start_runout(self) -> None:
        """Boards are run twice: no more betting."""
        self.phase = Phase.RUNOUT

    def start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN

    def cancel(self) -> None:
        self.phase = Phase.CANCELLED

    def treat_as_all_in(self, p: Player) -> None:
        """Disconnect protection: ``p`` puts no more chips in and acts no more, as if all-in."""
        if not p.all_in:
            p.all_in = True
            p.all_in_street = self.street

    def _move(self, p: Player, amount: int, live: bool = True) -> None:
        """Chips from a stack into the pot; ``live`` chips count toward the street bet."""
        p.stack -= amount
        if live:
            p.street_bet += amount
        p.contrib[self.street] += amount
        self.pot_total += amount
        if p.stack <= 0 and amount > 0 and not p.all_in:
            p.all_in = True
            p.all_in_street = self.street

    def _acted(self, p: Player) -> None:
        p.acted = True
        p.faced_at_action = self.current_bet
        self.last_actor = p.idx

    # ------------------------------------------------------------------ shared checks

    def _turn(self, p: Player, line: int, out: list[Violation]) -> None:
        """What every betting action checks first: a player able to act, in turn, in an open round."""
        if p.folded:
            out.append(
                Violation("acted-after-fold", line, f"{p.name} acts after folding", None, None, p.name)
            )
            return
        if p.all_in:
            out.append(
                Violation("acted-while-all-in", line, f"{p.name} acts after going all-in", None, None, p.name)
            )
            return
        closed, nxt = self.scan() if self.phase is Phase.BETTING else (True, None)
        if closed:
            out.append(
                Violation(
                    "action-after-betting-closed",
                    line,
                    f"{p.name} acts after the {STREET_WORD[self.street]} betting is over",
                    None,
                    None,
                    p.name,
                )
            )
        elif nxt is not None and nxt is not p:
            out.append(
                Violation(
                    "action-out-of-turn",
                    line,
                    f"{p.name} acts but {nxt.name} is due to act",
                    nxt.name,
                    p.name,
                    p.name,
                )
            )

    def _all_in_flag(self, p: Player, flag: bool, amount: int, line: int, out: list[Violation]) -> None:
        empties = amount >= p.stack
        if flag != empties:
            fmt = self.fmt
            if flag:
                msg = f"{p.name} is marked all-in but keeps {fmt(p.stack - amount)}"
            else:
                msg = f"{p.name} puts in the whole stack ({fmt(p.stack)}) without 'and is all-in'"
            out.append(
                Violation(
                    "all-in-flag-mismatch",
                    line,
                    msg,
                    "all-in" if empties else "not all-in",
                    "all-in" if flag else "not all-in",
                    p.name,
                )
            )

    def _capped(self, p: Player, moved: int, flagged: int | None, line: int, out: list[Violation]) -> None:
        """After a call, bet or raise of ``moved`` at a capped table: the cap is never passed, and a
        player who reaches it is all-in for the rest of the hand. ``and has reached the $10 cap``
        is printed exactly then (with the header's cap), like ``and is all-in`` when the stack is
        empty (real hand, HHSmithy 133974380110: ``raises $72 to $80 and has reached the $80 cap``)."""
        fmt = self.fmt
        cap = self.cap
        if cap is None:
            if flagged is not None:
                out.append(
                    Violation(
                        "all-in-flag-mismatch",
                        line,
                        f"{p.name} 'has reached the {fmt(flagged)} cap' at a table without a cap",
                        "no cap",
                        f"cap {fmt(flagged)}",
                        p.name,
                    )
                )
            return
        total = p.total_contrib + moved
        if total > cap:
            out.append(
                Violation(
                    "bet-above-cap",
                    line,
                    f"{p.name} has {fmt(total)} in the pot, above the table's {fmt(cap)} cap",
                    f"at most {fmt(cap)} in the hand",
                    fmt(total),
                    p.name,
                )
            )
        reached = total >= cap and p.stack - moved > 0
        if flagged is not None and (flagged != cap or not reached):
            found = f"'has reached the {fmt(flagged)} cap'"
            if flagged != cap:
                msg = f"{p.name} {found} but the table's cap is {fmt(cap)}"
            else:
                msg = f"{p.name} {found} with {fmt(total)} in the pot"
            out.append(Violation("all-in-flag-mismatch", line, msg, f"{fmt(cap)} in the pot", found, p.name))
        elif flagged is None and reached:
            out.append(
                Violation(
                    "all-in-flag-mismatch",
                    line,
                    f"{p.name} reaches the {fmt(cap)} cap without 'and has reached the {fmt(cap)} cap'",
                    f"and has reached the {fmt(cap)} cap",
                    "(nothing)",
                    p.name,
                )
            )

    def _reach_cap(self, p: Player) -> None:
        """A player whose chips in the hand reach the table's cap is all-in for the rest of it."""
        cap = self.cap
        if cap is not None and not p.all_in and p.stack > 0 and p.total_contrib >= cap:
            p.all_in = True
            p.all_in_street = self.street

    def cap_flag(self, p: Player, moved: int) -> int | None:
        """The cap ``and has reached the $X cap`` names when ``p`` puts in ``moved`` (None: not printed)."""
        cap = self.cap
        if cap is not None and p.total_contrib + moved >= cap and p.stack - moved > 0:
            return cap
        return None

    # ------------------------------------------------------------------ forced bets

    def verify_post(self, p: Player, kind: PostKind, amount: int, all_in: bool, line: int) -> list[Violation]:
        """A blind or an ante: before the deal, the stakes' amount (a short all-in excepted), the
        small blind in its position."""
        out: list[Violation] = []
        fmt = self.fmt
        if self.phase is not Phase.SETUP:
            out.append(
                Violation(
                    "post-after-deal",
                    line,
                    f"{p.name} posts after the hole cards were dealt",
                    None,
                    None,
                    p.name,
                )
            )
        if amount > p.stack:
            out.append(
                Violation(
                    "bet-exceeds-stack",
                    line,
                    f"{p.name} posts {fmt(amount)} with only {fmt(p.stack)} behind",
                    f"at most {fmt(p.stack)}",
                    fmt(amount),
                    p.name,
                )
            )
        if all_in != (amount >= p.stack):
            self._all_in_flag(p, all_in, amount, line, out)
        short_all_in = all_in and amount >= p.stack
        if kind is PostKind.SMALL_BLIND:
            exp = self.positional_sb()
            if exp is not None and exp is not p:
                out.append(
                    Violation(
                        "wrong-blind-seat",
                        line,
                        f"{p.name} posts the small blind; {exp.name} is in that position",
                        exp.name,
                        p.name,
                        p.name,
                    )
                )
            # FL: usually half the small bet, but $5/$10 posts $2 and $15/$30 posts $10 (*observed*).
            ok = 0 < amount < self.bb if self.fl else amount == self.sb
            if not ok and not (short_all_in and amount < self.sb):
                out.append(
                    Violation(
                        "wrong-blind-amount",
                        line,
                        f"small blind of {fmt(amount)}",
                        fmt(self.sb),
                        fmt(amount),
                        p.name,
                    )
                )
        elif kind is PostKind.BIG_BLIND or kind is PostKind.SMALL_AND_BIG:
            live_part = amount if kind is PostKind.BIG_BLIND else amount - self.sb
            if live_part != self.bb and not (short_all_in and live_part < self.bb):
                out.append(
                    Violation(
                        "wrong-blind-amount",
                        line,
                        f"big blind of {fmt(live_part)}",
                        fmt(self.bb),
                        fmt(live_part),
                        p.name,
                    )
                )
        return out  # an ante is dead money of any amount (the header does not print it)

    def can_post(self, p: Player, kind: PostKind, amount: int) -> bool:
        return not self.verify_post(p, kind, amount, amount >= p.stack, 0)

    def apply_post(self, p: Player, kind: PostKind, amount: int, all_in: bool, line: int) -> LedgerEntry:
        stack_before = p.stack
        pot_before = self.pot_total
        if kind is PostKind.SMALL_BLIND:
            p.posted_sb = True
            self.sb_player = self.sb_player or p
            self._move(p, amount)
        elif kind is PostKind.BIG_BLIND or kind is PostKind.SMALL_AND_BIG:
            live_part = amount if kind is PostKind.BIG_BLIND else amount - self.sb
            p.posted_bb = True
            if kind is PostKind.BIG_BLIND and self.bb_player is None:
                self.bb_player = p
            self._move(p, max(live_part, 0))
            if amount > live_part:
                self._move(p, amount - live_part, live=False)  # the small-blind part is dead
        else:
            self._move(p, amount, live=False)
            p.antes += amount
        return self._entry(
            0,
            p.name,
            p.seat,
            _POST_ACTION[kind],
            amount,
            p.street_bet,
            all_in,
            pot_before,
            stack_before,
            0,
            line,
        )

    # ------------------------------------------------------------------ fold, check

    def verify_fold(self, p: Player, line: int) -> list[Violation]:
        out: list[Violation] = []
        self._turn(p, line, out)
        return out

    def can_fold(self, p: Player) -> bool:
        return not self.verify_fold(p, 0)

    def apply_fold(self, p: Player, line: int) -> LedgerEntry:
        owed = self.current_bet - p.street_bet
        p.folded = True
        p.fold_street = street = self.street
        self._acted(p)
        return self._entry(
            street,
            p.name,
            p.seat,
            "fold",
            0,
            p.street_bet,
            False,
            self.pot_total,
            p.stack,
            owed if owed > 0 else 0,
            line,
        )

    def verify_check(self, p: Player, line: int) -> list[Violation]:
        out: list[Violation] = []
        self._turn(p, line, out)
        owed = self.current_bet - p.street_bet
        if owed > 0 and self.can_act(p):
            fmt = self.fmt
            out.append(
                Violation(
                    "check-facing-bet",
                    line,
                    f"{p.name} checks facing {fmt(owed)}",
                    f"call {fmt(min(owed, p.stack))} or fold",
                    "check",
                    p.name,
                )
            )
        return out

    def can_check(self, p: Player) -> bool:
        return not self.verify_check(p, 0)

    def apply_check(self, p: Player, line: int) -> LedgerEntry:
        owed = self.current_bet - p.street_bet
        self._acted(p)
        return self._entry(
            self.street,
            p.name,
            p.seat,
            "check",
            0,
            p.street_bet,
            False,
            self.pot_total,
            p.stack,
            owed if owed > 0 else 0,
            line,
        )

    # ------------------------------------------------------------------ call

    def verify_call(
        self, p: Player, amount: int, all_in: bool, cap_reached: int | None, line: int
    ) -> list[Violation]:
        """A call: exactly what is owed, or all the player can put in (stack or cap) when less."""
        out: list[Violation] = []
        self._turn(p, line, out)
        if not self.can_act(p):
            return out
        owed = self.current_bet - p.street_bet
        limit = self.limit(p)
        fmt = self.fmt
        if amount > p.stack:
            out.append(
                Violation(
                    "bet-exceeds-stack",
                    line,
                    f"{p.name} calls {fmt(amount)} with {fmt(p.stack)} behind",
                    f"at most {fmt(p.stack)}",
                    fmt(amount),
                    p.name,
                )
            )
        elif owed <= 0 or amount != (owed if owed < limit else limit):
            exp = min(owed, limit)
            out.append(
                Violation(
                    "wrong-call-amount",
                    line,
                    f"{p.name} calls {fmt(amount)} but owes {fmt(max(owed, 0))}",
                    f"call {fmt(exp)}" if owed > 0 else "check",
                    f"call {fmt(amount)}",
                    p.name,
                )
            )
        if all_in != (amount >= p.stack):
            self._all_in_flag(p, all_in, amount, line, out)
        if self.cap is not None or cap_reached is not None:
            self._capped(p, amount, cap_reached, line, out)
        return out

    def call_amount(self, p: Player) -> int:
        """What a call by ``p`` puts in: what is owed, or all they can put in when less."""
        owed = self.owed(p)
        limit = self.limit(p)
        return owed if owed < limit else limit

    def can_call(self, p: Player) -> bool:
        amount = self.call_amount(p)
        return not self.verify_call(p, amount, amount >= p.stack, self.cap_flag(p, amount), 0)

    def apply_call(self, p: Player, amount: int, all_in: bool, line: int) -> LedgerEntry:
        owed = self.current_bet - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        street = self.street
        self._move(p, amount)
        if self.cap is not None:
            self._reach_cap(p)
        self._acted(p)
        return self._entry(
            street,
            p.name,
            p.seat,
            "call",
            amount,
            p.street_bet,
            all_in,
            pot_before,
            stack_before,
            owed if owed > 0 else 0,
            line,
        )

    # ------------------------------------------------------------------ bet, raise

    def _verify_size(
        self, p: Player, is_bet: bool, to: int, moved: int, all_in: bool, line: int, out: list[Violation]
    ) -> None:
        """Size checks shared by bets and raises. ``to`` is the player's new street total."""
        fmt = self.fmt
        cur = self.current_bet
        word = "bet" if is_bet else "raise to"
        shown = moved if is_bet else to
        if is_bet and cur > 0:
            out.append(
                Violation("bet-facing-bet", line, f"{p.name} bets facing {fmt(cur)}", "raise", "bet", p.name)
            )
        if not is_bet and cur == 0:
            out.append(
                Violation(
                    "raise-without-bet", line, f"{p.name} raises but no bet is open", "bet", "raise", p.name
                )
            )
        if moved > p.stack:
            out.append(
                Violation(
                    "bet-exceeds-stack",
                    line,
                    f"{p.name} puts in {fmt(moved)} with only {fmt(p.stack)} behind",
                    f"at most {word} {fmt(p.street_bet + p.stack if not is_bet else p.stack)}",
                    f"{word} {fmt(shown)}",
                    p.name,
                )
            )
        short_ok = moved >= p.stack
        if all_in != short_ok:
            self._all_in_flag(p, all_in, moved, line, out)
        if self.cap is not None and p.total_contrib + moved >= self.cap:
            short_ok = True  # reaching the table's cap: a short bet or raise is allowed, as all-in
        inc = to - cur
        if self.fl:
            size = R.fixed_limit_size(self.street, self.small_bet, self.big_bet)
            cap = self.max_bets
            if cap is not None and self.bets >= cap:
                out.append(
                    Violation(
                        "betting-capped",
                        line,
                        f"{p.name} raises after the {STREET_WORD[self.street]} betting was capped at "
                        f"{cap} bets",
                        "call or fold",
                        f"{word} {fmt(shown)}",
                        p.name,
                    )
                )
            if inc != size and not (short_ok and inc < size):
                out.append(
                    Violation(
                        "wrong-fixed-limit-size",
                        line,
                        f"{word} {fmt(shown)} is not a {fmt(size)} {'bet' if is_bet else 'raise'}",
                        f"{word} {fmt(cur + size)}",
                        f"{word} {fmt(shown)}",
                        p.name,
                    )
                )
        else:
            if is_bet:
                mn = R.min_bet(self.bb)
                if moved < mn and not short_ok:
                    out.append(
                        Violation(
                            "bet-below-minimum",
                            line,
                            f"bet of {fmt(moved)} is below the minimum of {fmt(mn)}",
                            f"bet at least {fmt(mn)}",
                            f"bet {fmt(moved)}",
                            p.name,
                        )
                    )
            else:
                mn = R.min_raise_to(cur, self.last_raise, self.bb)
                if to < mn and not short_ok:
                    out.append(
                        Violation(
                            "raise-below-minimum",
                            line,
                            f"raise to {fmt(to)} is below the minimum raise to {fmt(mn)}",
                            f"raise to at least {fmt(mn)}",
                            f"raise to {fmt(to)}",
                            p.name,
                        )
                    )
            if self.pl:
                mx = R.pot_limit_max_to(self.pot_total, cur, p.street_bet)
                if to > mx:
                    code = "bet-above-pot-limit" if is_bet else "raise-above-pot-limit"
                    out.append(
                        Violation(
                            code,
                            line,
                            f"{word} {fmt(shown)} is above the pot limit of {fmt(mx)}",
                            f"{word} at most {fmt(mx)}",
                            f"{word} {fmt(shown)}",
                            p.name,
                        )
                    )
        # Re-opening: a player who already acted may raise again only if the bet was raised by at
        # least a full raise since (a short all-in raise does not re-open). Standard rule; no real
        # hand in the corpus contradicts it.
        if not is_bet and p.acted and cur - p.faced_at_action < self.last_raise:
            out.append(
                Violation(
                    "raise-not-reopened",
                    line,
                    f"{p.name} re-raises although only a short all-in raise "
                    f"({fmt(cur - p.faced_at_action)}) followed their last action",
                    "call or fold",
                    f"raise to {fmt(to)}",
                    p.name,
                )
            )

    def _apply_size(self, p: Player, is_bet: bool, to: int, moved: int) -> None:
        cur = self.current_bet
        self._move(p, moved)
        if self.cap is not None:
            self._reach_cap(p)
        if to > cur:
            self.current_bet = to
        inc = to - cur
        if self.fl:
            size = R.fixed_limit_size(self.street, self.small_bet, self.big_bet)
            full = inc >= size
        else:
            full = inc >= self.last_raise or (is_bet and inc >= self.bb)
        if full:
            self.last_raise = inc if not self.fl else size
            self.bets += 1

    def verify_bet(
        self, p: Player, amount: int, all_in: bool, cap_reached: int | None, line: int
    ) -> list[Violation]:
        """A bet of ``amount`` (no bet open): the structure's size, within the stack and the cap."""
        out: list[Violation] = []
        self._turn(p, line, out)
        if not self.can_act(p):
            return out
        self._verify_size(p, True, p.street_bet + amount, amount, all_in, line, out)
        if self.cap is not None or cap_reached is not None:
            self._capped(p, amount, cap_reached, line, out)
        return out

    def can_bet(self, p: Player, amount: int) -> bool:
        return not self.verify_bet(p, amount, amount >= p.stack, self.cap_flag(p, amount), 0)

    def apply_bet(self, p: Player, amount: int, all_in: bool, line: int) -> LedgerEntry:
        owed = self.current_bet - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        self._apply_size(p, True, p.street_bet + amount, amount)
        self._acted(p)
        return self._entry(
            self.street,
            p.name,
            p.seat,
            "bet",
            amount,
            p.street_bet,
            all_in,
            pot_before,
            stack_before,
            owed if owed > 0 else 0,
            line,
        )

    def verify_raise_to(
        self, p: Player, to: int, by: int, all_in: bool, cap_reached: int | None, line: int
    ) -> list[Violation]:
        """A raise to a street total of ``to``; ``by`` is the printed increment over the bet faced."""
        out: list[Violation] = []
        self._turn(p, line, out)
        if not self.can_act(p):
            return out
        cur = self.current_bet
        if by != to - cur:
            fmt = self.fmt
            out.append(
                Violation(
                    "raise-increment-mismatch",
                    line,
                    f"'raises {fmt(by)} to {fmt(to)}' but the bet faced was {fmt(cur)}",
                    f"raises {fmt(to - cur)} to {fmt(to)}",
                    f"raises {fmt(by)} to {fmt(to)}",
                    p.name,
                )
            )
        moved = to - p.street_bet
        self._verify_size(p, False, to, moved, all_in, line, out)
        if self.cap is not None or cap_reached is not None:
            self._capped(p, moved, cap_reached, line, out)
        return out

    def can_raise_to(self, p: Player, to: int) -> bool:
        moved = to - p.street_bet
        return not self.verify_raise_to(
            p, to, to - self.current_bet, moved >= p.stack, self.cap_flag(p, moved), 0
        )

    def apply_raise_to(self, p: Player, to: int, all_in: bool, line: int) -> LedgerEntry:
        owed = self.current_bet - p.street_bet
        stack_before = p.stack
        pot_before = self.pot_total
        moved = to - p.street_bet
        self._apply_size(p, False, to, moved)
        self._acted(p)
        return self._entry(
            self.street,
            p.name,
            p.seat,
            "raise",
            moved,
            p.street_bet,
            all_in,
            pot_before,
            stack_before,
            owed if owed > 0 else 0,
            line,
        )

    # ------------------------------------------------------------------ uncalled bet

    def verify_uncalled(self, p: Player, amount: int, line: int) -> list[Violation]:
        """The part of the top bet nobody called goes back to its bettor, exactly."""
        out: list[Violation] = []
        top, expected = self.expected_uncalled()
        fmt = self.fmt
        if top is not None and top is not p:
            out.append(
                Violation(
                    "wrong-uncalled-player",
                    line,
                    f"uncalled bet returned to {p.name}, not to {top.name}",
                    top.name,
                    p.name,
                    p.name,
                )
            )
        if amount != expected or top is None:
            out.append(
                Violation(
                    "wrong-uncalled-amount",
                    line,
                    f"uncalled bet of {fmt(amount)} returned; the uncalled part is {fmt(expected)}",
                    fmt(expected),
                    fmt(amount),
                    p.name,
                )
            )
        return out

    def apply_uncalled(self, p: Player, amount: int, line: int) -> LedgerEntry:
        stack_before = p.stack
        pot_before = self.pot_total
        p.stack += amount
        p.street_bet -= amount
        p.returned += amount
        self.pot_total -= amount
        if p.all_in and p.stack > 0:
            p.all_in = False
            p.all_in_street = None
        return self._entry(
            self.street,
            p.name,
            p.seat,
            "uncalled",
            amount,
            p.street_bet,
            False,
            pot_before,
            stack_before,
            0,
            line,
        )
