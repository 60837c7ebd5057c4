"""Simulate one hand at a table and build the typed :class:`~hhparse.model.Hand` for it.

Why a simulator and not templates: every generated hand must pass the referee, so bets, pots,
splits and odd chips are produced by playing the hand under the same rules the referee enforces,
and every size and award comes from :mod:`hhparse.rules.pots` / :mod:`hhparse.rules.evaluate`
(one source of truth). Text is *not* produced here: :func:`hhparse.render.render` owns the format.

Line numbers are assigned while building (header = ``first_line``, then +1 per rendered line) so
that ``parse(render(hand)) == hand`` holds for hands placed anywhere in a file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat, starmap
from typing import NamedTuple

from hhparse.engine.table import Player, Table
from hhparse.model import (
    Bet,
    Bounty,
    Call,
    Check,
    Collect,
    DealBoard,
    DealHole,
    DoesNotShow,
    Event,
    ExposeCard,
    Finished,
    FlopForm,
    Fold,
    Hand,
    Header,
    HoleCardsMarker,
    Muck,
    NoLowHand,
    PostBlind,
    PostKind,
    Raise,
    Seat,
    SeatOutcome,
    Show,
    ShowdownMarker,
    Street,
    Structure,
    Summary,
    SummarySeat,
    TableEvent,
    TableEventKind,
    Tournament,
    TournamentWon,
    UncalledBet,
)
from hhparse.money import format_currency
from hhparse.rules.cards import FULL_DECK
from hhparse.rules.evaluate import HighHand, LowHand, evaluate, high_category
from hhparse.rules.pots import (
    Pot,
    apply_rake,
    clockwise_from_button,
    fixed_limit_size,
    hilo_halves,
    min_raise_to,
    pot_limit_max_to,
    run_twice_halves,
    side_pots,
    split_evenly,
)
from hhparse.rules.spec import GameSpec
from hhparse.synth.styles import Style

__all__ = ["HandResult", "HandSetup", "PlayerIn", "simulate_hand"]

_CHAT = (
    "nh",
    "gg",
    "ty",
    "lol",
    "wp",
    "unreal",
    "ship it",
    "quartered again...",
    "nice low",
    "why would you call that",
    "gl all",
    "****",
    "brb",
    "scoop!",
    "\u00e7a va",
    "one more",
)
_LOW_RANKS = frozenset("A2345678")
_ENDS_TAG = {st: f"ends-{st.name.lower()}" for st in Street}


class PlayerIn(NamedTuple):
    """A seated player as the table hands them to the hand simulator.

    Named tuples (here and for :class:`HandSetup` / :class:`HandResult`) rather than frozen
    dataclasses: as immutable, but built in one C call instead of one ``__setattr__`` per field,
    and the generator builds several per hand.
    """

    name: str
    seat: int
    stack: int
    style: Style
    bounty: int | None = None
    posts_extra_bb: bool = False  # a newcomer posting a big blind out of position


class HandSetup(NamedTuple):
    """Everything a hand needs from its table; immutable so the table can reuse pieces."""

    spec: GameSpec
    hand_id: str
    hand_kind: str
    table: str
    max_seats: int
    button_seat: int
    players: tuple[PlayerIn, ...]  # dealt in, seat order
    hero: str
    small_blind: int  # posted small blind
    big_blind: int  # posted big blind
    header_small: int  # header stakes (FL: small bet / big bet)
    header_big: int
    local_time: datetime
    time_zone: str
    et_time: datetime | None
    start_utc: datetime
    tournament: Tournament | None
    currency: str | None
    symbol: str
    flop_form: FlopForm
    first_line: int
    source: str
    rake_percent: int = 0  # cash: percent of the pot when a flop is dealt
    rake_cap: int = 0
    allow_run_twice: bool = False
    progressive_ko: bool = False
    fixed_bounty: int | None = None  # fixed KO: the bounty per player
    players_left: int = 0  # tournament: players still in before this hand
    prizes: tuple[int, ...] = ()  # tournament: prize per place (1st first)
    muck_with_cards: bool = False
    pre_deal: tuple[tuple[str, TableEventKind], ...] = ()  # colon sit-outs, "allowed after button"
    joins: tuple[tuple[str, int], ...] = ()  # (name, seat) joining during the hand
    leaves: tuple[str, ...] = ()  # players who leave during the hand (if they fold)
    events_chance: float = 0.15


class HandResult(NamedTuple):
    """What the table needs back: the hand, stacks after it, who busted, coverage tags."""

    hand: Hand
    stacks: dict[str, int]
    bounties: dict[str, int]
    eliminated: tuple[str, ...]  # busted, in finishing order (worst place first)
    timed_out: tuple[str, ...]
    left: tuple[str, ...]
    tags: tuple[str, ...]


@dataclass(slots=True)
class _P:
    """One player of the simulated hand: the betting engine's state of them (``bet``, changed only
    by the engine) and what only the simulation needs (cards, style, hand strength)."""

    name: str
    seat: int
    style: Style
    hole: tuple[str, ...]
    pre: float  # pre-flop quality in [0, 1)
    bet: Player
    strength: float = -1.0  # post-flop, this street; < 0: not computed yet (see betting_round)
    noise: float = 0.0  # this street's random part of the strength, drawn when the street starts
    evaluated: tuple[tuple[str, ...], HighHand, LowHand | None] | None = None  # last board scored

    # the engine's figures, read-only here
    @property
    def stack(self) -> int:
        return self.bet.stack

    @property
    def start(self) -> int:
        return self.bet.start_stack

    @property
    def total(self) -> int:
        return self.bet.total_contrib

    @property
    def street_bet(self) -> int:
        return self.bet.street_bet

    @property
    def folded(self) -> bool:
        return self.bet.folded

    @property
    def all_in(self) -> bool:
        return self.bet.all_in

    @property
    def fold_street(self) -> Street | None:
        return self.bet.fold_street


@dataclass(slots=True)
class _State:
    """Everything that moves while the hand is played."""

    setup: HandSetup
    rng: random.Random
    players: list[_P]
    by_name: dict[str, _P]
    events: list[Event] = field(default_factory=list)
    line: int = 0
    board: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    returned: dict[str, int] = field(default_factory=dict)
    collected: dict[str, int] = field(default_factory=dict)
    last_aggressor: str | None = None
    timed_out: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    pending_joins: list[tuple[str, int]] = field(default_factory=list)
    pending_leaves: list[str] = field(default_factory=list)

    def next_line(self) -> int:
        self.line += 1
        return self.line


def _quality(hole: Sequence[str], hilo: bool, rng: random.Random) -> float:
    """A cheap pre-flop hand score in [0, 1): high cards, pairs-free lows, a random mix.

    Not a solver: it only has to make tight players enter with better hands than loose ones so
    that reports show believable differences. The card-only part is memoised by rank multiset
    (at most a few thousand keys); the float arithmetic is unchanged so scores are bit-identical.
    """
    return _quality_with(hole, hilo, rng.random())


def _quality_with(hole: Sequence[str], hilo: bool, draw: float) -> float:
    """:func:`_quality` with its random draw already made."""
    base = (_QUALITY_HILO if hilo else _QUALITY_HIGH).get(sum(map(_RANK_WEIGHT.__getitem__, hole)))
    if base is None:
        base = _quality_base_of(hole, hilo)
    return min(0.999, base + 0.45 * draw)


def _quality_base_of(hole: Sequence[str], hilo: bool) -> float:
    """The card-only part of :func:`_quality`, computed once per rank multiset and remembered."""
    base = _quality_base("".join(sorted([c[0] for c in hole])), hilo)
    (_QUALITY_HILO if hilo else _QUALITY_HIGH)[sum(map(_RANK_WEIGHT.__getitem__, hole))] = base
    return base


def _quality_base(ranks_of_hole: str, hilo: bool) -> float:
    ranks = "23456789TJQKA"
    values = sorted((ranks.index(r) for r in ranks_of_hole), reverse=True)
    high = (values[0] + values[1]) / 24.0
    score = high
    if hilo:
        lows = len(set(ranks_of_hole) & _LOW_RANKS)
        ace = "A" in ranks_of_hole
        score = 0.45 * high + 0.12 * min(lows, 4) + (0.1 if ace else 0.0)
    return 0.55 * min(score, 1.0)


# card -> 8 ** rank index: a sum over at most 5 cards (at most 4 of a rank) is unique per multiset
_RANK_WEIGHT = {c: 8 ** "23456789TJQKA".index(c[0]) for c in FULL_DECK}
_QUALITY_HILO: dict[int, float] = {}  # rank multiset -> the card-only part of the score
_QUALITY_HIGH: dict[int, float] = {}


def _postflop_strength(p: _P, board: tuple[str, ...], hilo: bool, noise: float) -> float:
    """Made-hand strength from the shared evaluator (category and low), with noise.

    ``noise`` is the street's draw for this player (made when the street starts, whether or not
    the player ever acts, so the random stream does not depend on this lazy evaluation).
    """
    high, low = evaluate(p.hole, board, hilo)
    p.evaluated = (board, high, low)  # the showdown reuses it when this is the final board
    s = 0.14 * high_category(high.rank) + (0.3 if low is not None and low.rank < 0b1000_0000 else 0.0)
    if low is not None:
        s += 0.1
    return min(0.999, 0.75 * s + 0.25 * noise + 0.1 * p.pre)


def _desc(high: HighHand, low: LowHand | None, hilo: bool) -> tuple[str, str, str | None]:
    """(description, hi, lo) as PokerStars prints a shown hand."""
    if not hilo:
        return high.description, high.description, None
    if low is None:
        return f"HI: {high.description}", high.description, None
    return f"HI: {high.description}; LO: {low.description}", high.description, low.description


class _Sim:
    """Plays one hand; methods are the phases of the hand in order."""

    def __init__(self, setup: HandSetup, rng: random.Random) -> None:
        spec = setup.spec
        # sort by random keys: as uniform as shuffle() and ~5x cheaper (one C call per card)
        rand = rng.random
        deck = sorted(FULL_DECK, key=lambda _card: rand())
        k = spec.hole_cards
        hilo = spec.hilo
        players: list[_P] = []
        draws = list(starmap(rng.random, repeat((), len(setup.players))))  # _quality's, in seat order
        cache = _QUALITY_HILO if hilo else _QUALITY_HIGH
        weight = _RANK_WEIGHT.__getitem__
        for pin, r in zip(setup.players, draws, strict=True):
            hole = tuple(deck[: -k - 1 : -1])  # what k pops from the end would give, in pop order
            del deck[-k:]
            base = cache.get(sum(map(weight, hole)))  # _quality_with(hole, hilo, r), inline
            if base is None:
                base = _quality_base_of(hole, hilo)
            q = base + 0.45 * r
            players.append(
                _P(
                    pin.name,
                    pin.seat,
                    pin.style,
                    hole,
                    q if q < 0.999 else 0.999,
                    Player(pin.name, pin.seat, pin.stack),
                )
            )
        self.s = _State(setup, rng, players, {p.name: p for p in players}, deck=deck)
        self.s.line = setup.first_line + 1 + len(players)  # header, table line, seats
        self.s.pending_joins = list(setup.joins)
        self.s.pending_leaves = list(setup.leaves)
        self.spec = spec
        self.setup = setup
        self.rng = rng
        order = clockwise_from_button(((p.name, p.seat) for p in players), setup.button_seat)
        self.clockwise = order  # first after the button ... button last
        self.pos = {name: i for i, name in enumerate(order)}
        n = len(players)
        if n == 2:
            self.sb_name = order[-1]  # heads-up: the button posts the small blind
            self.bb_name = order[0]
        else:
            self.sb_name = order[0]
            self.bb_name = order[1]
        self.fixed = spec.structure is Structure.FIXED_LIMIT
        self.no_limit = spec.structure is Structure.NO_LIMIT
        self.won: dict[str, list[int]] = {}
        self.new_bounties: dict[str, int] = {}
        self.street_board: tuple[str, ...] = ()
        # the betting: the engine the referee replays it with (header stakes: FL small/big bets)
        self.table = Table(
            spec, [p.bet for p in players], setup.button_seat, setup.header_small, setup.header_big
        )

    # ---------------------------------------------------------------- helpers

    def emit(self, event: Event) -> None:
        self.s.events.append(event)

    def p(self, name: str) -> _P:
        return self.s.by_name[name]

    def live(self) -> list[_P]:
        return [p for p in self.s.players if not p.folded]

    def pot_total(self) -> int:
        return self.table.pot_total

    def post(self, p: _P, kind: PostKind, blind: int) -> None:
        """A forced bet (all the stack when it is short), applied by the engine."""
        s = self.s
        amount = blind if blind < p.stack else p.stack
        s.line += 1
        self.table.apply_post(p.bet, kind, amount, amount >= p.stack, s.line)
        s.events.append(PostBlind(s.line, p.name, kind, amount, p.all_in))

    def maybe_table_event(self) -> None:
        """Sprinkle chat, connection and join/leave lines between actions, as the client does."""
        s = self.s
        rng = self.rng
        if s.pending_joins and rng.random() < 0.3:
            name, seat = s.pending_joins.pop(0)
            self.emit(TableEvent(s.next_line(), name, TableEventKind.JOINS, seat=seat))
            s.tags.append("join")
        for name in list(s.pending_leaves):
            p = s.by_name.get(name)
            if p is not None and p.folded and rng.random() < 0.5:
                s.pending_leaves.remove(name)
                self.emit(TableEvent(s.next_line(), name, TableEventKind.LEAVES))
                s.left.append(name)
                s.tags.append("leave")
        if rng.random() < self.setup.events_chance:
            self.chatter()

    def chatter(self) -> None:
        """A chat line or a disconnect/reconnect pair (the draw that chose to print one is done)."""
        s = self.s
        rng = self.rng
        speaker = rng.choice(s.players)
        if rng.random() < speaker.style.chatty * 8:
            text = rng.choice(_CHAT)
            self.emit(TableEvent(s.next_line(), speaker.name, TableEventKind.CHAT, text=text))
            s.tags.append("chat")
        elif rng.random() < 0.15:
            self.emit(TableEvent(s.next_line(), speaker.name, TableEventKind.DISCONNECTED))
            self.emit(TableEvent(s.next_line(), speaker.name, TableEventKind.CONNECTED))
            s.tags.append("disconnect")

    # ---------------------------------------------------------------- phases

    def post_blinds(self) -> None:
        s = self.s
        setup = self.setup
        pre_deal = setup.pre_deal
        for name, kind in pre_deal:
            if kind is TableEventKind.ALLOWED_AFTER_BUTTON:
                self.emit(TableEvent(s.next_line(), name, kind))
        sb = s.by_name[self.sb_name]
        self.post(sb, PostKind.SMALL_BLIND, setup.small_blind)
        bb = s.by_name[self.bb_name]
        self.post(bb, PostKind.BIG_BLIND, setup.big_blind)
        if sb.all_in or bb.all_in:
            s.tags.append("blind-all-in")
        if not pre_deal and not any(pin.posts_extra_bb for pin in setup.players):
            return
        for pin in setup.players:
            if pin.posts_extra_bb and pin.name not in (self.sb_name, self.bb_name):
                self.post(self.p(pin.name), PostKind.BIG_BLIND, self.setup.big_blind)
                s.tags.append("extra-big-blind")
        for name, kind in self.setup.pre_deal:
            if kind is not TableEventKind.ALLOWED_AFTER_BUTTON:
                self.emit(TableEvent(s.next_line(), name, kind))
                s.tags.append("sitting-out")

    def deal(self) -> None:
        s = self.s
        self.emit(HoleCardsMarker(s.next_line()))
        assert not self.table.deal(s.line)  # the forced bets are legal by construction
        hero = s.by_name.get(self.setup.hero)
        if hero is not None:
            self.emit(DealHole(s.next_line(), hero.name, hero.hole))
        if self.spec.exposed_card:
            s.board.append(s.deck.pop())
            self.emit(ExposeCard(s.next_line(), s.board[0]))

    def betting_round(self, street: Street) -> None:
        """One betting round: the engine says whose turn it is and what is legal, the players'
        styles choose among it. A style choice, not a rule: after a short all-in raise nobody here
        raises again on that street (the rules would let a player who has not acted since)."""
        s = self.s
        setup = self.setup
        table = self.table
        rng = self.rng
        random = rng.random
        players = s.players
        by_name = s.by_name
        events = s.events
        tags = s.tags
        fixed = self.fixed
        cap = self.spec.max_bets_per_round
        unit = fixed_limit_size(street, setup.header_small, setup.header_big) if fixed else setup.big_blind
        closed = False
        if street is not Street.PREFLOP:
            # each live player's noise is drawn now, in seat order; the evaluator runs only for
            # players who actually decide something this street (see decide)
            self.street_board = tuple(s.board)
            for p in players:
                if not p.folded:
                    p.noise = random()
                    p.strength = -1.0
        events_chance = setup.events_chance
        while True:
            bp = table.next_to_act()
            if bp is None:
                break
            p = by_name[bp.name]
            to_call = table.owed(bp)
            has_other = False  # anyone else still able to act?
            for q in players:
                if q is not p and not q.folded and not q.all_in:
                    has_other = True
                    break
            can_raise = has_other and not closed and self.may_raise(bp)
            # maybe_table_event(), with its common "nothing pending, nothing drawn" case inline
            if s.pending_joins or s.pending_leaves:
                self.maybe_table_event()
            elif random() < events_chance:
                self.chatter()
            if to_call > 0 and random() < 0.004:
                s.timed_out.append(p.name)
                s.line += 1
                events.append(TableEvent(s.line, p.name, TableEventKind.TIMED_OUT))
                tags.append("timed-out")
                action = "fold"
            else:
                action = self.decide(p, street, to_call, can_raise, table.current_bet)
            s.line += 1
            if action == "fold":
                assert table.can_fold(bp)
                table.apply_fold(bp, s.line)
                events.append(Fold(s.line, p.name))
                if s.timed_out and p.name in s.timed_out:
                    s.line += 1
                    events.append(TableEvent(s.line, p.name, TableEventKind.IS_SITTING_OUT))
                continue
            if action == "check":
                assert table.can_check(bp)
                table.apply_check(bp, s.line)
                events.append(Check(s.line, p.name))
                continue
            if action == "call":
                assert table.can_call(bp)
                amount = table.call_amount(bp)
                table.apply_call(bp, amount, amount >= bp.stack, s.line)
                events.append(Call(s.line, p.name, amount, bp.all_in))
                continue
            # bet or raise
            current = table.current_bet
            target = self.size(p, street, current, table.last_raise, unit, to_call)
            full = target - current >= (unit if fixed else max(table.last_raise, setup.big_blind))
            moved = target - bp.street_bet
            if current == 0:
                assert table.can_bet(bp, moved), (p.name, moved)
                table.apply_bet(bp, moved, moved >= bp.stack, s.line)
                events.append(Bet(s.line, p.name, moved, bp.all_in))
                tags.append("bet")
            else:
                assert table.can_raise_to(bp, target), (p.name, target)
                table.apply_raise_to(bp, target, moved >= bp.stack, s.line)
                events.append(Raise(s.line, p.name, target - current, target, bp.all_in))
                tags.append("raise")
            if not full:
                closed = True
                tags.append("short-all-in-raise")
            s.last_aggressor = p.name
            if cap is not None and table.bets >= cap and full:
                s.line += 1
                events.append(TableEvent(s.line, "", TableEventKind.BETTING_CAPPED))
                tags.append("capped")
        self.return_uncalled()

    def may_raise(self, bp: Player) -> bool:
        """Whether the engine allows ``bp`` a bet or raise now (the smallest one, or all-in for less)."""
        table = self.table
        lo, hi = table.raise_bounds(bp)
        to = lo if lo <= hi else hi
        if to <= table.current_bet:
            return False
        if table.current_bet == 0:
            return table.can_bet(bp, to - bp.street_bet)
        return table.can_raise_to(bp, to)

    def decide(self, p: _P, street: Street, to_call: int, can_raise: bool, current: int) -> str:
        """Pick fold / check / call / raise from the style and a noisy hand strength.

        ``current`` is the bet to match: the highest street bet (pre-flop, below the big blind
        when the big blind was posted all-in for less).
        """
        st = p.style
        if street is Street.PREFLOP:
            q = p.pre
            if to_call == 0:
                return "raise" if can_raise and q > 1 - st.pfr * 0.6 else "check"
            facing_raise = current > self.setup.big_blind
            if can_raise and q > 1 - (st.pfr * (0.35 if facing_raise else 1.0)):
                return "raise"
            threshold = 1 - st.vpip * (0.75 if facing_raise else 1.0)
            if to_call >= p.stack and q < 1 - st.vpip * 0.5:
                return "fold"
            return "call" if q > threshold else "fold"
        rng = self.rng
        sv = p.strength
        if sv < 0.0:
            sv = p.strength = _postflop_strength(p, self.street_board, self.spec.hilo, p.noise)
        if to_call == 0:
            if can_raise and rng.random() < st.aggression * (0.35 + sv):
                return "raise"
            return "check"
        price = to_call / max(self.table.pot_total, 1)
        if can_raise and sv > 0.62 and rng.random() < st.aggression * 0.55:
            return "raise"
        if sv + st.stickiness * 0.6 > 0.55 + 0.45 * price + 0.25 * rng.random():
            return "call"
        return "fold"

    def size(self, p: _P, street: Street, current: int, last_raise: int, unit: int, to_call: int) -> int:
        """The "to" total of a bet or raise, inside the structure's min and max (all-in may be short)."""
        setup = self.setup
        rng = self.rng
        cap_to = p.street_bet + p.stack  # all-in total
        if self.fixed:
            return min(current + unit, cap_to)
        lo = min_raise_to(current, last_raise, setup.big_blind) if current else setup.big_blind
        pot = self.pot_total()
        if self.no_limit:
            hi = cap_to
            if rng.random() < p.style.shove or p.stack <= pot * 0.8:
                return cap_to
            frac = rng.choice((0.4, 0.5, 0.66, 0.75, 1.0, 1.0, 1.3))
            want = current + int((pot + to_call) * frac) + to_call
        else:
            hi = pot_limit_max_to(pot, current, p.street_bet)
            r = rng.random()
            want = hi if r < 0.4 else lo + int((hi - lo) * rng.random())
        want = max(lo, min(want, hi))
        if setup.tournament is None and setup.symbol and want > 1000:
            want -= want % 5 if rng.random() < 0.5 else 0  # humans click round-ish amounts
            want = max(lo, want)
        return min(want, cap_to)

    def return_uncalled(self) -> None:
        """Return the part of the top bet nobody matched (``Uncalled bet (X) returned to P``)."""
        s = self.s
        top, back = self.table.expected_uncalled()
        if top is not None and back > 0:
            name = top.name
            line = s.next_line()
            assert not self.table.verify_uncalled(top, back, line)
            self.table.apply_uncalled(top, back, line)
            s.returned[name] = s.returned.get(name, 0) + back
            s.events.append(UncalledBet(line, name, back))
            s.tags.append("uncalled")

    def can_bet(self) -> bool:
        n = 0
        for p in self.s.players:
            if not p.folded and not p.all_in:
                n += 1
        return n >= 2

    def live_count(self) -> int:
        n = 0
        for p in self.s.players:
            if not p.folded:
                n += 1
        return n

    def deal_street(self, street: Street, run: int = 0, board: list[str] | None = None) -> None:
        s = self.s
        b = s.board if board is None else board
        need = self.spec.board_sizes[street - 1]
        while len(b) < need:
            b.append(s.deck.pop())
        form = FlopForm.PLAIN
        if street is Street.FLOP and self.spec.exposed_card:
            form = self.setup.flop_form
        s.line += 1
        s.events.append(DealBoard(s.line, street, tuple(b), run, form))
        if run == 0:
            self.table.new_street(street)
        else:
            self.table.start_runout()

    # ---------------------------------------------------------------- whole hand

    def play(self) -> HandResult:
        s = self.s
        self.post_blinds()
        self.deal()
        self.betting_round(Street.PREFLOP)
        boards: list[list[str]] = [s.board]
        last_street = Street.PREFLOP
        runs = 1
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            if self.live_count() == 1:
                break
            if not self.can_bet() and street is not Street.RIVER and self.want_run_twice(street):
                boards = self.run_twice(street)
                runs = 2
                last_street = Street.RIVER
                break
            self.deal_street(street)
            last_street = street
            if self.can_bet():
                self.betting_round(street)
            else:
                s.tags.append("run-out")
        return self.finish(boards, runs, last_street)

    def want_run_twice(self, street: Street) -> bool:
        """Cash all-in before the river: players agree to run it twice (if the deck allows)."""
        if not self.setup.allow_run_twice or len(self.live()) < 2:
            return False
        if self.spec.exposed_card and street is Street.FLOP and len(self.s.board) == 1:
            return False  # no real sample shows how the exposed card prints in FIRST FLOP
        needed = 2 * (5 - len(self.s.board))
        live = {p.name for p in self.live()}
        pots = side_pots({p.name: p.total for p in self.s.players}, live, self.clockwise)
        if any(len(pot.eligible) < 2 for pot in pots):
            return False  # how an uncontested side pot splits over two boards is not observed
        return len(self.s.deck) >= needed and self.rng.random() < 0.45

    def run_twice(self, street: Street) -> list[list[str]]:
        s = self.s
        base = list(s.board)
        first = list(base)
        second = list(base)
        streets = [st for st in (Street.FLOP, Street.TURN, Street.RIVER) if st >= street]
        for st in streets:
            self.deal_street(st, run=1, board=first)
        for st in streets:
            self.deal_street(st, run=2, board=second)
        s.tags.append("run-twice")
        return [first, second]

    def finish(self, boards: list[list[str]], runs: int, last_street: Street) -> HandResult:
        s = self.s
        setup = self.setup
        live = self.live()
        flop_dealt = len(boards[0]) >= 3
        total = self.pot_total()
        rake = 0
        if setup.rake_percent and flop_dealt:
            rake = min(total * setup.rake_percent // 100, setup.rake_cap)
        order_names = self.clockwise
        contributions = {p.name: p.total for p in s.players}
        pots = side_pots(contributions, {p.name for p in live}, order_names)
        net_pots = apply_rake(pots, rake)
        shown: dict[str, list[tuple[HighHand, LowHand | None]]] = {}
        mucked: list[str] = []
        showdown = len(live) > 1
        for name, seat in s.pending_joins:  # whoever sat down during the hand, before the pots
            self.emit(TableEvent(s.next_line(), name, TableEventKind.JOINS, seat=seat))
            s.tags.append("join")
        s.pending_joins.clear()
        if showdown:
            self.showdown(net_pots, boards, runs, shown, mucked)
            s.tags.append("showdown")
        else:
            winner = live[0]
            amount = sum(pt.amount for pt in net_pots)
            self.emit(Collect(s.next_line(), winner.name, amount))
            s.collected[winner.name] = amount
            r = self.rng.random()
            if r < 0.35:
                self.emit(DoesNotShow(s.next_line(), winner.name))
                s.tags.append("doesnt-show")
            s.tags.append(_ENDS_TAG[last_street])
        if showdown:
            s.tags.append("ends-showdown")
        eliminated = self.knockouts(pots)
        summary = self.summary(total, rake, net_pots, boards, runs, shown, mucked, showdown)
        header = self.header()
        first_seat_line = setup.first_line + 2
        if setup.progressive_ko:
            seats = tuple(
                Seat(p.seat, p.name, p.start, first_seat_line + i, self.bounty_of(p.name))
                for i, p in enumerate(s.players)
            )
        else:
            seats = tuple(Seat(p.seat, p.name, p.start, first_seat_line + i) for i, p in enumerate(s.players))
        hand = Hand(setup.source, setup.first_line, header, seats, tuple(s.events), summary)
        stacks = {p.name: p.stack + s.collected.get(p.name, 0) for p in s.players}
        if rake:
            s.tags.append("rake")
        if len(pots) > 1:
            s.tags.append("side-pots")
        if len(pots) > 2:
            s.tags.append("multiple-side-pots")
        return HandResult(
            hand,
            stacks,
            dict(self.new_bounties),
            tuple(eliminated),
            tuple(s.timed_out),
            tuple(s.left),
            tuple(s.tags),
        )

    # ---------------------------------------------------------------- showdown

    def showdown(
        self,
        pots: Sequence[Pot],
        boards: list[list[str]],
        runs: int,
        shown: dict[str, list[tuple[HighHand, LowHand | None]]],
        mucked: list[str],
    ) -> None:
        s = self.s
        hilo = self.spec.hilo
        # who shows first: last aggressor if still live, else first live clockwise from the button
        names = [n for n in self.clockwise if not self.p(n).folded]
        first = s.last_aggressor if s.last_aggressor in names else names[0]
        k = names.index(first)
        sd_order = names[k:] + names[:k]
        values = {n: [self.value(self.p(n), b, hilo) for b in boards] for n in names}
        for run in range(1, runs + 1) if runs == 2 else (0,):
            bi = max(run - 1, 0)
            self.emit(ShowdownMarker(s.next_line(), run))
            shown_here: list[str] = []
            no_low = False
            numbered = len(pots) > 2
            for pi in range(len(pots) - 1, -1, -1):
                pot = pots[pi]
                if pot.amount == 0:
                    continue
                for n in sd_order:
                    if n not in pot.eligible or n in shown_here or n in mucked:
                        continue
                    if run == 0 and self.can_muck(n, values, shown_here, pots):
                        mucked.append(n)
                        self.emit(Muck(s.next_line(), n))
                        s.tags.append("muck")
                        continue
                    high, low = values[n][bi]
                    text, hi, lo = _desc(high, low, hilo)
                    self.emit(Show(s.next_line(), n, self.p(n).hole, text, hi, lo))
                    shown_here.append(n)
                    shown.setdefault(n, [])
                    if len(shown[n]) < runs:
                        shown[n].append((high, low))
                contenders = [n for n in pot.eligible if n in shown_here]
                amount = pot.amount
                if runs == 2:
                    amount = run_twice_halves(pot.amount)[bi]
                if len(pots) == 1:
                    label, number = "pot", 0
                elif pi == 0:
                    label, number = "main pot", 0
                elif not numbered:
                    label, number = "side pot", 1
                else:
                    label, number = f"side pot-{pi}", pi
                lows = [(values[n][bi][1], n) for n in contenders if values[n][bi][1] is not None]
                if hilo and lows:  # even an uncontested pot is halved when its owner has a low (O8-KO)
                    high_part, low_part = hilo_halves(amount)
                else:
                    high_part, low_part = amount, 0
                    if hilo and len(pot.eligible) > 1:  # the line is about contested pots only
                        no_low = True
                best_hi = max(values[n][bi][0].rank for n in contenders)
                hi_winners = [n for n in contenders if values[n][bi][0].rank == best_hi]
                self.award(hi_winners, high_part, number, label, run)
                if low_part:
                    best_lo = min(lo_hand.rank for lo_hand, _ in lows if lo_hand is not None)
                    lo_winners = [
                        n for n in contenders if (lw := values[n][bi][1]) is not None and lw.rank == best_lo
                    ]
                    self.award(lo_winners, low_part, number, label, run)
                    if len(lo_winners) > 1:
                        s.tags.append("quartered")
                    if set(lo_winners) == set(hi_winners) and len(hi_winners) == 1:
                        s.tags.append("scoop")
                if len(hi_winners) > 1:
                    s.tags.append("split-high")
            if no_low:
                self.emit(NoLowHand(s.next_line()))
                s.tags.append("no-low")
            elif hilo:
                s.tags.append("low-qualified")

    @staticmethod
    def value(p: _P, board: list[str], hilo: bool) -> tuple[HighHand, LowHand | None]:
        """``evaluate(p.hole, board, hilo)``, reusing the river's when the board is the same."""
        ev = p.evaluated
        if ev is not None and len(ev[0]) == len(board) and ev[0] == tuple(board):
            return ev[1], ev[2]
        return evaluate(p.hole, board, hilo)

    def award(self, winners: list[str], amount: int, number: int, label: str, run: int) -> None:
        s = self.s
        ordered = [n for n in self.clockwise if n in winners]
        shares = split_evenly(amount, ordered)
        if len(set(shares)) > 1:
            s.tags.append("odd-chip")
        for n, share in zip(ordered, shares, strict=True):
            if not share:
                continue  # a tie over a single chip: the second winner gets nothing and no line
            self.emit(Collect(s.next_line(), n, share, number, label, run))
            s.collected[n] = s.collected.get(n, 0) + share
            self.won.setdefault(n, [0, 0])[max(run - 1, 0)] += share

    def can_muck(
        self,
        name: str,
        values: dict[str, list[tuple[HighHand, LowHand | None]]],
        shown_here: list[str],
        pots: Sequence[Pot],
    ) -> bool:
        """A live, not all-in player may muck only when an already shown hand beats both halves
        in every pot this player could win, so mucking never changes who is paid."""
        p = self.p(name)
        if p.all_in or not shown_here or self.rng.random() > 0.6:
            return False
        mine = [i for i, pot in enumerate(pots) if name in pot.eligible]
        high, low = values[name][0]
        for other in shown_here:
            if not all(other in pots[i].eligible for i in mine):
                continue
            oh, ol = values[other][0]
            if oh.rank <= high.rank:
                continue
            if low is not None and (ol is None or ol.rank >= low.rank):
                continue
            return True
        return False

    # ---------------------------------------------------------------- tournaments

    def bounty_of(self, name: str) -> int | None:
        if not self.setup.progressive_ko:
            return None
        for pin in self.setup.players:
            if pin.name == name:
                return pin.bounty
        return None

    def knockouts(self, pots: Sequence[Pot]) -> list[str]:
        """Bounty and finishing lines for players whose stack reached zero (tournaments only)."""
        s = self.s
        setup = self.setup
        self.new_bounties = {pin.name: pin.bounty or 0 for pin in setup.players}
        if setup.tournament is None:
            return []
        busted = [p for p in s.players if p.stack + s.collected.get(p.name, 0) == 0]
        if not busted:
            return []
        busted.sort(key=lambda p: (p.start, -self.pos[p.name]))  # smaller stack finishes lower
        place = setup.players_left
        out: list[str] = []
        for p in busted:
            winners = [
                n
                for n in self.clockwise
                if n != p.name
                and s.collected.get(n, 0) > 0
                and any(p.name in pt.eligible and n in pt.eligible for pt in pots)
            ]
            if not winners:
                winners = [n for n in self.clockwise if s.collected.get(n, 0) > 0 and n != p.name]
            if setup.progressive_ko:
                value = self.new_bounties.get(p.name, 0)
                shares = split_evenly(value, winners)
                for w, share in zip(winners, shares, strict=True):
                    wins = share - share // 2
                    inc = share - wins
                    self.new_bounties[w] = self.new_bounties.get(w, 0) + inc
                    self.emit(
                        Bounty(
                            s.next_line(),
                            (w,),
                            wins,
                            p.name,
                            progressive=True,
                            split=len(winners) > 1,
                            increase=inc,
                            new_bounty=self.new_bounties[w],
                        )
                    )
                s.tags.append("bounty")
            elif setup.fixed_bounty is not None:
                if len(winners) == 1:
                    self.emit(Bounty(s.next_line(), (winners[0],), setup.fixed_bounty, p.name))
                else:
                    self.emit(Bounty(s.next_line(), tuple(winners), setup.fixed_bounty, p.name, split=True))
                s.tags.append("bounty")
            prize = setup.prizes[place - 1] if place - 1 < len(setup.prizes) else None
            self.emit(Finished(s.next_line(), p.name, place, prize))
            s.tags.append("finished")
            out.append(p.name)
            place -= 1
        if place == 1:
            champion = next(p.name for p in s.players if p.name not in out)
            prize = setup.prizes[0] if setup.prizes else 0
            self.emit(TournamentWon(s.next_line(), champion, prize, format_currency(prize, "$")))
            s.tags.append("tournament-won")
        return out

    # ---------------------------------------------------------------- summary and header

    def summary(
        self,
        total: int,
        rake: int,
        pots: Sequence[Pot],
        boards: list[list[str]],
        runs: int,
        shown: dict[str, list[tuple[HighHand, LowHand | None]]],
        mucked: list[str],
        showdown: bool,
    ) -> Summary:
        s = self.s
        hilo = self.spec.hilo
        line = s.next_line()
        total_line = s.next_line()
        if runs == 2:
            s.next_line()  # "Hand was run twice"
        board_lines: list[int] = []
        out_boards: tuple[tuple[str, ...], ...] = ()
        if len(boards[0]) >= 3:
            out_boards = tuple(tuple(b) for b in boards)
            board_lines = [s.next_line() for _ in boards]
        seats: list[SummarySeat] = []
        button_seat, sb_name, bb_name = self.setup.button_seat, self.sb_name, self.bb_name
        folded, collected = SeatOutcome.FOLDED, SeatOutcome.COLLECTED
        preflop = Street.PREFLOP
        for p in s.players:
            name = p.name
            btn, sbm, bbm = p.seat == button_seat, name == sb_name, name == bb_name
            s.line += 1
            ln = s.line
            if p.folded:  # (positional: the model's 14-field constructor is hot here)
                seats.append(
                    SummarySeat(
                        ln,
                        p.seat,
                        name,
                        btn,
                        sbm,
                        bbm,
                        folded,
                        p.fold_street,
                        p.fold_street is preflop and p.total == 0,
                    )
                )
            elif not showdown:
                seats.append(
                    SummarySeat(
                        ln,
                        p.seat,
                        name,
                        btn,
                        sbm,
                        bbm,
                        collected,
                        None,
                        False,
                        (),
                        (s.collected.get(name, 0),),
                    )
                )
            elif p.name in mucked:
                cards = p.hole if self.setup.muck_with_cards else ()
                seats.append(
                    SummarySeat(ln, p.seat, p.name, btn, sbm, bbm, outcome=SeatOutcome.MUCKED, cards=cards)
                )
            else:
                vals = shown[p.name]
                won = self.won.get(p.name, [0, 0])
                descs = [_desc(h, lo, hilo)[0] for h, lo in vals]
                if runs == 2 and len(descs) == 2:
                    # one clause per board, as the client writes it: "lost with X, and won ($x) with Y"
                    paid = (won[0] > 0, won[1] > 0)
                    seats.append(
                        SummarySeat(
                            ln,
                            p.seat,
                            p.name,
                            btn,
                            sbm,
                            bbm,
                            outcome=SeatOutcome.SHOWED_WON if any(paid) else SeatOutcome.SHOWED_LOST,
                            cards=p.hole,
                            won=tuple(won[i] for i in range(2) if paid[i]),
                            descriptions=tuple(descs),
                            clauses=paid,
                        )
                    )
                    continue
                clauses = [(won[i], descs[i]) for i in range(runs) if won[i] > 0]
                if clauses:
                    seats.append(
                        SummarySeat(
                            ln,
                            p.seat,
                            p.name,
                            btn,
                            sbm,
                            bbm,
                            outcome=SeatOutcome.SHOWED_WON,
                            cards=p.hole,
                            won=tuple(c[0] for c in clauses),
                            descriptions=tuple(c[1] for c in clauses),
                        )
                    )
                else:
                    seats.append(
                        SummarySeat(
                            ln,
                            p.seat,
                            p.name,
                            btn,
                            sbm,
                            bbm,
                            outcome=SeatOutcome.SHOWED_LOST,
                            cards=p.hole,
                            descriptions=(descs[0],),
                        )
                    )
        multi = len(pots) > 1
        return Summary(  # positional, in the model's field order
            line,
            total,  # total_pot
            pots[0].amount if multi else None,  # main_pot
            tuple(pt.amount for pt in pots[1:]) if multi else (),  # side_pots
            len(pots) > 2,  # side_pots_numbered
            rake,
            total_line,
            runs == 2,  # run_twice
            out_boards,
            tuple(board_lines),
            tuple(seats),
        )

    def header(self) -> Header:
        setup = self.setup
        spec = self.spec
        return Header(  # positional, in the model's field order (site, hand_kind, ... line)
            "PokerStars",
            setup.hand_kind,
            setup.hand_id,
            spec.game,
            spec.hilo,
            spec.structure,
            spec.name,
            None,  # mixed
            setup.currency,
            setup.symbol,
            setup.header_small,
            setup.header_big,
            None,  # cap
            setup.tournament,
            setup.local_time,
            setup.time_zone,
            setup.et_time,
            setup.start_utc,
            setup.table,
            setup.max_seats,
            False,  # play_money
            setup.button_seat,
            setup.first_line,
        )


def simulate_hand(setup: HandSetup, rng: random.Random) -> HandResult:
    """Play one hand from ``setup`` with ``rng`` (the table's generator) and return its result."""
    return _Sim(setup, rng).play()
