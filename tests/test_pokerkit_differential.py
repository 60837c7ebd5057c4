"""An independent second engine: every real Omaha-family hand of the corpus replayed by pokerkit.

hhparse's referee and pokerkit's state machine share no code. pokerkit is fed only what a hand
history says — the seats and stacks, the forced bets, the cards that were dealt or shown, the
board, every action in order — and it decides by its own rules whose turn it is, what a call
costs, whether a bet or raise is legal, which pots form, who wins each (high, low, each board of
a run-it-twice hand) and where the odd chip goes. Each player's ledger must then agree three ways:
pokerkit = the referee's facts (``hhparse.referee(hand).facts.players``) = the amounts PokerStars
printed (the ``collected`` and ``Uncalled bet`` lines are what the room really paid). A hand
pokerkit plays through must also be one the referee accepts. Any disagreement is a bug in one of
the two engines, or the hand is damaged: investigate it, never loosen the comparison.

What is compared, per player dealt in: the chips put in on each street (forced bets included),
the uncalled bet returned, the chips collected and the net, and what the referee's own settlement
(its ``awards``, computed from the shown cards, not copied from the collect lines) pays each player;
per hand: who was dealt in, the pot total, the rake, each board's payout when a hand was run
twice. On the way pokerkit checks every turn, every call amount, every bet and raise size (pot
limit, no-limit minimum, fixed-limit size and cap, short all-ins that do not reopen the betting),
every ``and is all-in`` and every ``Betting is capped`` line against its own state.

How pokerkit is set up (pokerkit 0.7.x; see the module ``pokerkit.state``):

* Every game is built from pokerkit's generic :class:`pokerkit.State`, not its presets: the
  preset ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` is declared with
  ``PotLimitPokerMixin`` (pot-limit betting, no cap) in pokerkit 0.7.7, and there are no presets
  for pot- or no-limit Omaha Hi/Lo, 5 Card Omaha or Courchevel. Omaha deals 4 hole cards, 5 Card
  Omaha and Courchevel 5; Courchevel's exposed card is a one-card board dealt on the first street.
  Hands are ``OmahaHoldemHand`` (+ ``OmahaEightOrBetterLowHand`` for Hi/Lo): two hole cards and
  three board cards, whatever the hole count. Fixed limit caps a round at four bets as PokerStars
  does (pre-flop the big blind is the first: three raises; pokerkit's own presets allow four).
* Players in pokerkit's order: the first seat dealt in clockwise from the button, ..., the button
  (heads-up: the big blind, then the button). The first small blind and the first big blind
  posted are pokerkit's blinds; another big blind is a live "post bet" (a negative blind); the
  small-blind part of ``posts small & big blinds`` and a second small blind are dead money, given
  to pokerkit as antes (antes are not trimmed: each player's is its own).
* Cash-game mode for every hand: pokerkit's tournament mode refuses a fold when a check is free,
  which PokerStars allows (real hand 68173332012), and only cash-game mode runs a board twice.
* Hole cards are dealt where known (``Dealt to``, ``shows``, the summary's ``showed``/``mucked``
  cards); unknown ones are pokerkit's unknown card ``??``, and burn cards are ``??`` too, so no
  card is ever drawn from pokerkit's (randomly shuffled) deck: the replay is deterministic. At a
  showdown a player shows the cards PokerStars shows and mucks otherwise; in an all-in before the
  river a player who will muck keeps the cards face down until the last showdown, because mucking
  there makes pokerkit 0.7.7 fail an assertion when one player with chips is left
  (``get_effective_stack``).
* Rake: pokerkit takes a rake function that sees one pot's amount. Each pot's rake is what the
  summary shows it lost (pre-rake amount from a first, rake-free replay, minus the printed ``Main
  pot``/``Side pot-N``; the whole ``Rake`` when there is one pot), and the hand is replayed a second
  time with that rake. pokerkit merges pots whose eligible players are the same once it has killed
  the hands that cannot win, so one of its pots may stand for several printed ones: their rakes
  add up. The rake rule itself (how much PokerStars may take) is not pokerkit's to judge.
* pokerkit returns a folded-to winner's whole last bet, PokerStars only the part nobody called;
  the ledger is normalised to PokerStars' convention (returned = the top bet of a street above the
  second highest; collected = net + put in - returned), which leaves the net untouched.

What pokerkit cannot play is skipped with the reason (cancelled hands, hands hhparse cannot read,
hands outside the Omaha family); real hands the referee or the parser still rejects would be listed in ``KNOWN_REJECTS`` as
``xfail(strict=True)`` (none is: a hand that passes again must be removed from it, and any other
disagreement fails); damaged hands must be refused by both engines. ``python
tests/test_pokerkit_differential.py`` prints the per-hand table (``--markdown`` for the notes).
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pokerkit import (
    AntePosting,
    Automation,
    BettingStructure,
    BlindOrStraddlePosting,
    ChipsPushing,
    Deck,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    State,
)
from pokerkit import Street as PkStreet

from hhparse.engine import referee
from hhparse.errors import ParseError
from hhparse.model import (
    Bet,
    Call,
    Check,
    Collect,
    DealBoard,
    DealHole,
    ExposeCard,
    Fold,
    Hand,
    PostBlind,
    PostKind,
    Raise,
    Show,
    Structure,
    TableEvent,
    TableEventKind,
    UncalledBet,
    replace,
)
from hhparse.parsing import parse_file
from hhparse.rules.spec import spec_for

pytestmark = pytest.mark.corpus

FOLDERS = (
    "omaha",
    "omaha-hilo",
    "mixed",
    "5-card-omaha",
    "5-card-omaha-hilo",
    "6-card-omaha",
    "courchevel",
    "courchevel-hilo",
)
"""Real PokerStars folders replayed (``_fpdb3-head/`` holds the same hands re-saved: not replayed)."""

KNOWN_REJECTS: dict[tuple[str, str], str] = {}
"""Real, undamaged hands the referee (or the parser) still rejects, with the reason: each is
``xfail(strict=True)``, so a hand listed here that starts to pass fails the run until its entry is
removed. Empty: issue 12 made every real hand of these folders valid (the hands listed in round 1:
the ante and ``(didn't bet)``, run it twice with side pots and its summary clauses, the rake over
side pots, ``¥`` amounts and the 2012 Zoom ``Game #`` header)."""

UNREADABLE: dict[tuple[str, str], str] = {
    ("omaha/stars-cash-pl-2-4-2014-partial.txt", "112824228684"): "partial: truncated inside the flop line",
    ("omaha/stars-cash-pl-2-4-2014-partial.txt", "112824184047"): "partial: truncated after a player name",
    (
        "omaha/stars-cash-pl-200-400-2015-partial-observed.txt",
        "142624277978",
    ): "partial: truncated inside the table line",
    (
        "omaha-hilo/perl-cash-fl-5-10-2005-wrapped-line.txt",
        "0000000000",
    ): "damaged: a summary line hard-wrapped in two",
    (
        "omaha-hilo/stars-cash-pl-0.01-0.02-2025-anon5.txt",
        "258753941248",
    ): "damaged: the anonymiser named the wrong player on a summary line",
    (
        "6-card-omaha/stars-cash-pl-0.10-0.25-2022-empty-turncard-DAMAGED.txt",
        "238296909420",
    ): "damaged: the turn card is missing from the TURN line",
}
"""Blocks hhparse rightly cannot read: nothing to replay (the corpus tests check their codes)."""

DAMAGED: dict[tuple[str, str], str] = {
    (
        "omaha/stars-zoom-pl-2.50-5-2023-bad-flop-DAMAGED.txt",
        "246328968504",
    ): "the client wrote the hero's four hole cards as the flop",
}
"""Damaged hands hhparse reads: both engines must refuse them."""

POKERKIT_LIMITS: dict[tuple[str, str], str] = {
    (
        "6-card-omaha/stars-cash-pl-1-2-2020-cash-out-2.txt",
        "212598594281",
    ): "pokerkit refuses a raise over an all-in that the one player left with chips cannot call in full; "
    "PokerStars took it and returned the excess (Uncalled bet ($108))",
}
"""Real hands pokerkit cannot replay because it refuses what PokerStars allowed."""


# --------------------------------------------------------------------------------------------
# Driving pokerkit
# --------------------------------------------------------------------------------------------


class Inexpressible(Exception):
    """pokerkit cannot play this hand as it was dealt (the message says why)."""


class Refused(Exception):
    """pokerkit refused a step the history says happened."""


@dataclass
class Ledger:
    """One player's chips in PokerStars' convention (see the module docstring)."""

    put_in: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    returned: int = 0
    collected: int = 0
    net: int = 0


@dataclass
class Replay:
    ledgers: dict[str, Ledger]
    pots: list[int]  # pokerkit's pots before rake, main pot first
    rake: int
    by_board: dict[tuple[int, str], int] | None  # (board, player) -> chips; None if a pot was won unshown
    notes: list[str]


_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
_STRUCTURE = {
    Structure.FIXED_LIMIT: BettingStructure.FIXED_LIMIT,
    Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
}
Rake = Callable[[int, State], tuple[int, int]]


def _no_rake(amount: int, state: State) -> tuple[int, int]:
    return 0, amount


def _streets(hand: Hand) -> tuple[PkStreet, ...]:
    h = hand.header
    if h.structure is Structure.FIXED_LIMIT:
        small, big, pre, post = h.small_blind, h.big_blind, 3, 4
    else:
        small = big = h.big_blind
        pre = post = None
    spec = spec_for(h.game, h.hilo, h.structure)
    exposed = 1 if spec.exposed_card else 0
    position = Opening.POSITION
    return (
        PkStreet(False, (False,) * spec.hole_cards, exposed, False, position, small, pre),
        PkStreet(True, (), 3 - exposed, False, position, small, post),
        PkStreet(True, (), 1, False, position, big, post),
        PkStreet(True, (), 1, False, position, big, post),
    )


def _players(hand: Hand) -> list[str]:
    """Who was dealt in, in pokerkit's order (the seat after the button first, the button last)."""
    acting = {e.player for e in hand.events if isinstance(e, PostBlind | Fold | Check | Call | Bet | Raise)}
    seat = {s.player: s.seat for s in hand.seats}
    button = hand.header.button_seat
    return sorted(
        (s.player for s in hand.seats if s.player in acting), key=lambda p: (seat[p] - button - 1) % 100
    )


def _known_cards(hand: Hand) -> dict[str, tuple[str, ...]]:
    h = hand.header
    n = spec_for(h.game, h.hilo, h.structure).hole_cards
    known = {e.player: e.cards for e in hand.events if isinstance(e, DealHole | Show) and len(e.cards) == n}
    if hand.summary is not None:
        for s in hand.summary.seats:
            if len(s.cards) == n:
                known.setdefault(s.player, s.cards)
    return known


def _new_state(hand: Hand, order: list[str], rake: Rake) -> State:
    h = hand.header
    n = len(order)
    idx = {p: i for i, p in enumerate(order)}
    antes = [0] * n
    blinds = [0] * n
    sb_done = bb_done = False
    for e in hand.events:
        if not isinstance(e, PostBlind):
            continue
        i = idx[e.player]
        if e.kind is PostKind.ANTE:
            antes[i] += e.amount
        elif e.kind is PostKind.SMALL_BLIND and not (sb_done or bb_done):
            sb_done = True
            blinds[i] = e.amount
        elif e.kind is PostKind.BIG_BLIND and not bb_done:
            bb_done = True
            blinds[i] = e.amount
        elif e.kind is PostKind.BIG_BLIND:
            blinds[i] = -e.amount  # a live blind posted out of position: pokerkit's "post bet"
        elif e.kind is PostKind.SMALL_AND_BIG:
            antes[i] += h.small_blind  # the small-blind part is dead
            blinds[i] = -(e.amount - h.small_blind)
        else:
            antes[i] += e.amount  # a second small blind is dead
    if n == 2:  # heads-up pokerkit reads player p's blind and ante at index 1 - p
        blinds.reverse()
        antes.reverse()
    stacks = {s.player: s.stack for s in hand.seats}
    hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand) if h.hilo else (OmahaHoldemHand,)
    return State(
        _AUTOMATIONS,
        Deck.STANDARD,
        hand_types,
        _streets(hand),
        _STRUCTURE[h.structure],
        False,
        tuple(antes),
        tuple(blinds),
        0,
        tuple(stacks[p] for p in order),
        n,
        mode=Mode.CASH_GAME,
        rake=rake,
    )


def play(hand: Hand, rake: Rake = _no_rake) -> Replay:
    """Replay ``hand`` in pokerkit; :class:`Refused` as soon as pokerkit disagrees with a step."""
    h = hand.header
    if hand.cancelled:
        raise Inexpressible("'Hand cancelled': pokerkit has no way to call a hand off and return the blinds")
    order = _players(hand)
    if len(order) < 2:
        raise Inexpressible("fewer than two players dealt in")
    idx = {p: i for i, p in enumerate(order)}
    runs = 2 if any(isinstance(e, DealBoard) and e.run for e in hand.events) else 1
    hole = spec_for(h.game, h.hilo, h.structure).hole_cards
    known = _known_cards(hand)
    shown = {e.player: e.cards for e in hand.events if isinstance(e, Show) and len(e.cards) == hole}
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        st = _new_state(hand, order, rake)
        put_in = [[0, 0, 0, 0] for _ in order]
        for op in st.operations:  # antes and blinds, posted when the state is made
            if isinstance(op, AntePosting | BlindOrStraddlePosting):
                put_in[op.player_index][0] += op.amount
        street_bets: list[list[int] | None] = [None] * 4
        capped: set[int] = set()  # streets pokerkit closed to raises (fixed-limit cap)
        capped_lines: set[int] = set()  # streets with a "Betting is capped" line
        boards: dict[int, tuple[str, ...]] = {0: ()}

        def advance() -> None:
            """Everything pokerkit needs that is not an action: hole cards, run count, showdowns."""
            while st.status:
                if st.can_deal_hole():
                    i = st.hole_dealee_index
                    assert i is not None
                    st.deal_hole("".join(known.get(order[i], ("??",) * hole)), i)
                elif st.can_select_runout_count():
                    st.select_runout_count(runs if runs > 1 else None)
                elif st.showdown_index is not None:
                    i = st.showdown_index
                    if order[i] in shown:
                        st.show_or_muck_hole_cards("".join(shown[order[i]]), i)
                    elif st.street is st.streets[-1] and not st.street_return_count:
                        st.show_or_muck_hole_cards(False, i)
                    else:
                        st.show_or_muck_hole_cards("", i)  # face down until the last showdown
                else:
                    return

        def deal(cards: tuple[str, ...], line: int) -> None:
            advance()
            try:
                if st.can_burn_card("??"):
                    st.burn_card("??")
                st.deal_board("".join(cards))
            except ValueError as exc:
                raise Refused(f"line {line}: dealing {' '.join(cards)}: {exc}") from exc

        for e in hand.events:
            if isinstance(e, ExposeCard):
                if boards[0]:
                    continue  # the exposed card printed again deals nothing new
                boards[0] = (e.card,)
                deal((e.card,), e.line)
            elif isinstance(e, DealBoard):
                before = boards.get(e.run, boards[0]) if e.run else boards[0]
                if tuple(e.cards[: len(before)]) != before:
                    raise Refused(
                        f"line {e.line}: board {' '.join(e.cards)} does not extend {' '.join(before)}"
                    )
                boards[e.run] = tuple(e.cards)
                deal(tuple(e.cards[len(before) :]), e.line)
            elif isinstance(e, TableEvent) and e.kind is TableEventKind.BETTING_CAPPED:
                street = st.street
                if (
                    street is None
                    or st.completion_betting_or_raising_count
                    != street.max_completion_betting_or_raising_count
                ):
                    raise Refused(f"line {e.line}: 'Betting is capped' but pokerkit's round is open")
                capped_lines.add(st.street_index or 0)
            elif isinstance(e, Fold | Check | Call | Bet | Raise):
                advance()
                i = idx[e.player]
                if st.actor_index != i:
                    who = "nobody" if st.actor_index is None else order[st.actor_index]
                    raise Refused(f"line {e.line}: {e.player} acts; pokerkit's turn: {who}")
                s = st.street_index or 0
                bets = list(st.bets)
                try:
                    if isinstance(e, Fold):
                        moved = 0
                        st.fold()
                    elif isinstance(e, Check | Call):
                        moved = st.checking_or_calling_amount or 0
                        if moved != (e.amount if isinstance(e, Call) else 0):
                            raise Refused(
                                f"line {e.line}: {e.player} {type(e).__name__.lower()}s "
                                f"{getattr(e, 'amount', 0)}; pokerkit's call is {moved}"
                            )
                        st.check_or_call()
                    else:
                        to = bets[i] + e.amount if isinstance(e, Bet) else e.to
                        moved = to - bets[i]
                        st.complete_bet_or_raise_to(to)
                except ValueError as exc:
                    raise Refused(f"line {e.line}: {e.player} {type(e).__name__.lower()}: {exc}") from exc
                put_in[i][s] += moved
                bets[i] += moved
                street_bets[s] = bets
                cap = st.streets[s].max_completion_betting_or_raising_count
                if isinstance(e, Bet | Raise) and st.completion_betting_or_raising_count == cap:
                    capped.add(s)
                if isinstance(e, Call | Bet | Raise) and e.all_in != (st.stacks[i] == 0):
                    raise Refused(
                        f"line {e.line}: all-in is {e.all_in}; pokerkit leaves {e.player} {st.stacks[i]}"
                    )
        advance()
        if capped != capped_lines:
            notes.append(
                f"capped rounds: pokerkit {sorted(capped)}, 'Betting is capped' lines {sorted(capped_lines)}"
            )
        if st.status:
            raise Refused(
                f"the history ends; pokerkit's hand does not (turn: {st.turn_index}, street {st.street_index})"
            )
    for w in caught:
        message = str(w.message)
        if "card being dealt" in message:
            raise Refused(f"pokerkit: {message}")
        notes.append(message)

    pots: dict[int, int] = defaultdict(int)
    by_board: dict[tuple[int, str], int] | None = {}
    for op in st.operations:
        if isinstance(op, ChipsPushing):
            pots[op.pot_index] += sum(op.amounts)
            if op.board_index is None:
                by_board = None  # the pot went to the last live hand unshown: no per-board split to compare
            elif by_board is not None:
                for i, a in enumerate(op.amounts):
                    if a:
                        by_board[(op.board_index, order[i])] = by_board.get((op.board_index, order[i]), 0) + a
    ledgers: dict[str, Ledger] = {}
    for i, p in enumerate(order):
        returned = 0
        for bets in street_bets:
            if bets is not None:
                top = sorted(bets)
                if bets[i] == top[-1] > top[-2]:
                    returned += top[-1] - top[-2]
        net = st.payoffs[i]
        ledgers[p] = Ledger(put_in[i], returned, net + sum(put_in[i]) - returned, net)
    rake_taken = -sum(st.payoffs)
    return Replay(ledgers, [pots[k] for k in sorted(pots)], rake_taken, by_board, notes)


def rake_table(hand: Hand, pots: list[int]) -> dict[int, int]:
    """Rake per pokerkit pot (keyed by its pre-rake amount), as the summary shows it was taken."""
    summary = hand.summary
    rake = (summary.rake or 0) if summary is not None else 0
    if not rake or summary is None:
        return {}
    if len(pots) == 1:
        return {pots[0]: rake}
    printed = ([summary.main_pot] if summary.main_pot is not None else []) + list(summary.side_pots)
    table: dict[int, int] = {}
    k = 0
    for before in pots:  # consecutive printed pots under each of pokerkit's (merged) pots
        after = 0
        while k < len(printed) and after + printed[k] <= before:
            after += printed[k]
            k += 1
        if table.get(before, before - after) != before - after:
            raise Inexpressible(
                f"two pots of {before} raked differently: pokerkit's rake hook sees only the amount"
            )
        table[before] = before - after
    if k != len(printed) or sum(table.values()) != rake:
        raise Refused(f"pokerkit's pots {pots} do not match the printed pots {printed} and rake {rake}")
    return table


def play_raked(hand: Hand) -> Replay:
    """Replay once without rake to learn pokerkit's pots, then again with the rake PokerStars took."""
    first = play(hand)
    table = rake_table(hand, first.pots)
    if not table:
        return first

    def rake(amount: int, state: State) -> tuple[int, int]:
        taken = table.get(amount, 0)
        return taken, amount - taken

    second = play(hand, rake)
    second.pots = first.pots
    return second


# --------------------------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    rel: str
    hand_id: str
    kind: str  # compared | disagree | xfail | skipped | damaged
    reason: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _printed(hand: Hand) -> tuple[dict[str, int], dict[str, int]]:
    collected: dict[str, int] = defaultdict(int)
    returned: dict[str, int] = defaultdict(int)
    for e in hand.events:
        if isinstance(e, Collect):
            collected[e.player] += e.amount
        elif isinstance(e, UncalledBet):
            returned[e.player] += e.amount
    return collected, returned


def compare(hand: Hand) -> tuple[list[str], list[str]]:
    """(problems, notes): every way pokerkit, the referee and the printed amounts disagree.

    Raises :class:`Inexpressible` for a hand pokerkit cannot play at all.
    """
    try:
        pk = play_raked(hand)
    except Refused as exc:
        return [f"pokerkit refuses: {exc}"], []
    result = referee(hand)
    facts = result.facts
    problems: list[str] = []
    if not result.valid:
        problems.append(
            "the referee rejects what pokerkit plays through: "
            + "; ".join(f"{v.code}@{v.line}" for v in result.errors)
        )
    if facts is None:
        return [*problems, "the referee built no facts"], pk.notes
    dealt = {p.player for p in facts.players if p.dealt_in}
    if dealt != set(pk.ledgers):
        problems.append(f"dealt in: referee {sorted(dealt)}, pokerkit {sorted(pk.ledgers)}")
    collected, returned = _printed(hand)
    silent = not any(isinstance(e, UncalledBet) for e in hand.events)  # 2005: returns not printed
    for p in facts.players:
        mine = pk.ledgers.get(p.player)
        if mine is None:
            continue
        checks = [
            ("put in", tuple(mine.put_in), p.contributed, None),
            ("returned", mine.returned, p.returned, None if silent else returned[p.player]),
            ("collected", mine.collected, p.collected, collected[p.player]),
            ("net", mine.net, p.net, None),
        ]
        if p.cash_out:  # pokerkit pays the hand; the room paid the player and kept what the hand won
            checks[2:] = [
                ("won (kept by the room)", mine.collected, p.high_won + p.low_won, None),
                ("collected", 0, p.collected, collected[p.player]),
                ("net", mine.net - mine.collected + p.cash_out, p.net, None),
            ]
        for what, ours, theirs, printed in checks:
            if ours != theirs or (printed is not None and ours != printed):
                shown = "" if printed is None else f", printed {printed}"
                problems.append(f"{p.player} {what}: pokerkit {ours}, referee {theirs}{shown}")
    awarded: dict[str, int] = defaultdict(int)  # the referee's own settlement, not the printed lines
    for aw in facts.awards:
        for winner, amount in zip(aw.winners, aw.amounts, strict=True):
            awarded[winner] += amount
    for name, mine in pk.ledgers.items():
        if mine.collected != awarded[name]:
            problems.append(
                f"{name} wins: pokerkit {mine.collected}, the referee's settlement {awarded[name]}"
            )
    pot = sum(sum(lg.put_in) - lg.returned for lg in pk.ledgers.values())
    summary = hand.summary
    if pot != facts.total_pot or (summary is not None and summary.total_pot not in (None, pot)):
        problems.append(
            f"total pot: pokerkit {pot}, referee {facts.total_pot}, "
            f"printed {summary.total_pot if summary else None}"
        )
    printed_rake = summary.rake if summary is not None and summary.rake is not None else pk.rake
    if pk.rake != facts.rake or pk.rake != printed_rake:
        problems.append(f"rake: pokerkit {pk.rake}, referee {facts.rake}, printed {printed_rake}")
    if facts.runs == 2 and pk.by_board is not None:
        ours = {(b + 1, p): a for (b, p), a in pk.by_board.items()}
        theirs: dict[tuple[int, str], int] = defaultdict(int)
        for aw in facts.awards:
            for winner, amount in zip(aw.winners, aw.amounts, strict=True):
                if amount:
                    theirs[(aw.run, winner)] += amount
        if ours != dict(theirs):
            problems.append(f"per board: pokerkit {sorted(ours.items())}, referee {sorted(theirs.items())}")
    return problems, pk.notes


@functools.cache
def _parsed(path: Path) -> tuple[Hand | ParseError, ...]:
    return tuple(parse_file(path))


def _key(item: Hand | ParseError) -> str:
    return item.hand_id or "?"


def cases(root: Path) -> list[tuple[str, int, str]]:
    """(file, block index, hand id) for every block worth a verdict: not other games of mixed files."""
    out = []
    for folder in FOLDERS:
        for path in sorted((root / folder).glob("*.txt")):
            for i, item in enumerate(_parsed(path)):
                if isinstance(item, ParseError) and item.code == "unsupported-game":
                    continue  # Hold'em, Stud, Razz, Draw of the 8-Game file: hhparse reads no such hand
                out.append((f"{folder}/{path.name}", i, _key(item)))
    return out


@functools.cache
def judge(root: Path, rel: str, index: int) -> Verdict:
    item = _parsed(root / rel)[index]
    key = (rel, _key(item))
    if isinstance(item, ParseError):
        if key in KNOWN_REJECTS:
            return Verdict(rel, key[1], "xfail", KNOWN_REJECTS[key], [f"hhparse cannot read it: {item.code}"])
        if key in UNREADABLE:
            return Verdict(rel, key[1], "skipped", f"hhparse cannot read it ({item.code}): {UNREADABLE[key]}")
        return Verdict(
            rel,
            key[1],
            "disagree",
            problems=[f"unexpected parse error {item.code}@{item.line}: {item.message}"],
        )
    try:
        problems, notes = compare(item)
    except Inexpressible as exc:
        return Verdict(rel, key[1], "skipped", str(exc))
    if key in POKERKIT_LIMITS:  # still refused by pokerkit, and accepted by the referee
        if [p for p in problems if p.startswith("pokerkit refuses")] == problems and referee(item).valid:
            return Verdict(rel, key[1], "skipped", POKERKIT_LIMITS[key])
        return Verdict(rel, key[1], "disagree", POKERKIT_LIMITS[key], problems, notes)
    if key in DAMAGED:
        refused = any(p.startswith("pokerkit refuses") for p in problems)
        rejected = not referee(item).valid
        if refused and rejected:
            return Verdict(rel, key[1], "damaged", DAMAGED[key], problems, notes)
        return Verdict(
            rel,
            key[1],
            "disagree",
            DAMAGED[key],
            [f"damaged hand: pokerkit refuses={refused}, referee rejects={rejected}", *problems],
            notes,
        )
    if key in KNOWN_REJECTS:
        return Verdict(rel, key[1], "xfail", KNOWN_REJECTS[key], problems, notes)
    return Verdict(rel, key[1], "disagree" if problems else "compared", "", problems, notes)


def table(verdicts: list[Verdict], markdown: bool = False) -> str:
    """One line per hand: the verdict and why (the skip reason, the problems, pokerkit's notes)."""
    lines = ["| file | hand | verdict | why / evidence |", "|---|---|---|---|"] if markdown else []
    for v in verdicts:
        why = "; ".join(x for x in (v.reason, *v.problems, *sorted(set(v.notes))) if x)
        if markdown:
            lines.append(f"| `{v.rel}` | {v.hand_id} | {v.kind} | {why.replace('|', '/')} |")
        else:
            lines.append(f"{v.kind:9} {v.rel}#{v.hand_id} {why}".rstrip())
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


def _corpus_root() -> Path | None:
    from conftest import _corpus_root as root

    path = root() / "pokerstars"
    return path if path.is_dir() else None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" not in metafunc.fixturenames:
        return
    root = _corpus_root()
    if root is None:  # the corpus_dir fixture then skips, or fails under HHPARSE_REQUIRE_CORPUS=1
        metafunc.parametrize("case", [None], ids=["no-corpus"])
        return
    params = []
    for rel, index, hand_id in cases(root):
        reason = KNOWN_REJECTS.get((rel, hand_id))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param((rel, index), id=f"{rel}#{hand_id}", marks=marks))
    metafunc.parametrize("case", params)


def test_pokerkit_agrees(case: tuple[str, int] | None, corpus_dir: Path) -> None:
    """pokerkit plays the hand to the chips the referee proved and PokerStars printed."""
    assert case is not None
    verdict = judge(corpus_dir, *case)
    if verdict.kind == "skipped":
        pytest.skip(verdict.reason)
    if verdict.kind == "damaged":
        return  # both engines refuse it, as they must
    assert not verdict.problems, "\n".join(verdict.problems)


def test_every_real_hand_has_a_verdict(corpus_dir: Path) -> None:
    """The table for the notes; nothing is left out silently, and nothing drifts unnoticed."""
    verdicts = [judge(corpus_dir, rel, i) for rel, i, _ in cases(corpus_dir)]
    print(table(verdicts))
    counts = defaultdict(int)
    for v in verdicts:
        counts[v.kind] += 1
    assert counts["compared"] >= 166, dict(counts)
    assert not counts["xfail"] and not counts["disagree"], dict(counts)
    listed = set(KNOWN_REJECTS) | set(UNREADABLE) | set(DAMAGED) | set(POKERKIT_LIMITS)
    assert listed <= {(v.rel, v.hand_id) for v in verdicts}, "a listed hand is gone from the corpus"
    skipped = [v for v in verdicts if v.kind == "skipped"]
    assert all(v.reason for v in skipped)


def _first_hand(root: Path, rel: str) -> Hand:
    return next(h for h in _parsed(root / rel) if isinstance(h, Hand))


def _mutate(hand: Hand, kind: type, change: Callable[[Any], Any]) -> Hand:
    """``hand`` with the first event of type ``kind`` changed."""
    first = next(i for i, e in enumerate(hand.events) if isinstance(e, kind))
    events = tuple(change(e) if i == first else e for i, e in enumerate(hand.events))
    return replace(hand, events=events)


@pytest.mark.parametrize(
    ("rel", "kind", "change", "expected"),
    [
        # PokerStars paid a chip more than pokerkit's evaluation gives the winner.
        (
            "omaha-hilo/hhsmithy-cash-nl-0.50-1-2014-quartered.txt",
            Collect,
            lambda e: replace(e, amount=e.amount + 1),
            "collected",
        ),
        # A pot-limit raise far above the pot: pokerkit's own pot-limit maximum refuses it.
        (
            "omaha/hhsmithy-cash-showdown-78447360452.txt",
            Raise,
            lambda e: replace(e, by=e.by + e.to, to=e.to * 2),
            "above the maximum",
        ),
        # A call of the wrong size: pokerkit computes what the call costs.
        (
            "omaha/hhsmithy-cash-showdown-78447360452.txt",
            Call,
            lambda e: replace(e, amount=e.amount + 1),
            "pokerkit's call is",
        ),
    ],
    ids=["payout", "pot-limit", "call-size"],
)
def test_a_wrong_hand_is_caught(
    corpus_dir: Path, rel: str, kind: type, change: Callable[[Any], Any], expected: str
) -> None:
    """The comparison can fail: a corrupted copy of a hand that agrees is refused or mismatched."""
    hand = _first_hand(corpus_dir, rel)
    assert compare(hand)[0] == []
    problems, _ = compare(_mutate(hand, kind, change))
    assert any(expected in p for p in problems), problems


def test_out_of_turn_is_caught(corpus_dir: Path) -> None:
    """pokerkit decides whose turn it is: two pre-flop actions swapped are refused."""
    hand = _first_hand(corpus_dir, "omaha/hhsmithy-cash-showdown-78447360452.txt")
    acts = [i for i, e in enumerate(hand.events) if isinstance(e, Fold | Call | Raise)][:2]
    events = list(hand.events)
    events[acts[0]], events[acts[1]] = events[acts[1]], events[acts[0]]
    problems, _ = compare(replace(hand, events=tuple(events)))
    assert any("pokerkit's turn" in p for p in problems), problems


def test_showdown_is_evaluated(corpus_dir: Path) -> None:
    """pokerkit evaluates the shown cards itself: swap the two hands shown and the pot changes hands."""
    hand = _first_hand(corpus_dir, "omaha/hhsmithy-cash-showdown-78447360452.txt")
    shows = [i for i, e in enumerate(hand.events) if isinstance(e, Show)]
    assert len(shows) == 2
    a, b = (hand.events[i] for i in shows)
    events = list(hand.events)
    events[shows[0]], events[shows[1]] = replace(a, cards=b.cards), replace(b, cards=a.cards)
    problems, _ = compare(replace(hand, events=tuple(events)))
    assert any("collected: pokerkit 0" in p for p in problems), problems


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    root = _corpus_root()
    assert root is not None, "corpus not found"
    print(table([judge(root, rel, i) for rel, i, _ in cases(root)], markdown="--markdown" in sys.argv))
