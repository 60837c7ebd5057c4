"""What the referee proved about a hand, in the shape the warehouse stores.

The referee is the only place poker logic lives; these records carry its conclusions (positions,
per-street contributions, who won which half of which pot) so that the table builder and the SQL
reports never re-derive them. All money is ``int`` in the hand's smallest unit.
"""

from __future__ import annotations

from typing import Final

from hhparse.errors import Violation
from hhparse.model import Cards, Hand, Record

# Every class here is a :class:`~hhparse.model.Record`, for the model's reasons: compiled with
# mypyc, a record is built in one C call and its attributes cannot be assigned afterwards. The
# referee builds about twenty a hand; as frozen dataclasses they cost 4-5x a plain dataclass
# (one ``object.__setattr__`` per field), which is why they used to be read-only for mypy only.


class ActionFact(Record):
    """One forced bet, voluntary action or uncalled return, in order.

    ``action`` is one of: ``small blind``, ``big blind``, ``ante``, ``fold``, ``check``, ``call``,
    ``bet``, ``raise``, ``uncalled`` (money returned; ``amount`` is positive, returned to player).
    ``amount`` is what this action moved from the stack into the pot; ``to_amount`` the player's
    total for the street after it; ``faced`` what they had to call before acting.
    """

    __match_args__ = (
        "seq",
        "street",
        "player",
        "seat",
        "action",
        "amount",
        "to_amount",
        "all_in",
        "pot_before",
        "stack_before",
        "faced",
        "line",
    )

    def __init__(
        self,
        seq: int,
        street: int,
        player: str,
        seat: int,
        action: str,
        amount: int,
        to_amount: int,
        all_in: bool,
        pot_before: int,
        stack_before: int,
        faced: int,
        line: int,
    ) -> None:
        self.seq: Final = seq
        self.street: Final = street  # model.Street value
        self.player: Final = player
        self.seat: Final = seat
        self.action: Final = action
        self.amount: Final = amount
        self.to_amount: Final = to_amount
        self.all_in: Final = all_in
        self.pot_before: Final = pot_before
        self.stack_before: Final = stack_before
        self.faced: Final = faced
        self.line: Final = line


class PlayerFacts(Record):
    __match_args__ = (
        "seat",
        "player",
        "is_hero",
        "position",
        "starting_stack",
        "hole_cards",
        "dealt_in",
        "contributed",
        "returned",
        "collected",
        "net",
        "vpip",
        "pfr",
        "three_bet_opportunity",
        "three_bet",
        "fold_to_three_bet_opportunity",
        "fold_to_three_bet",
        "steal_opportunity",
        "steal",
        "fold_to_steal_opportunity",
        "fold_to_steal",
        "cbet_opportunity",
        "cbet",
        "fold_to_cbet_opportunity",
        "fold_to_cbet",
        "postflop_bets",
        "postflop_raises",
        "postflop_calls",
        "postflop_checks",
        "postflop_folds",
        "saw_flop",
        "went_to_showdown",
        "won_at_showdown",
        "won_high",
        "won_low",
        "scooped",
        "quartered",
        "all_in_street",
        "showdown_won",
        "nonshowdown_won",
        "high_won",
        "low_won",
        "cash_out",
        "cash_out_fee",
    )

    def __init__(
        self,
        seat: int,
        player: str,
        is_hero: bool,
        position: str,
        starting_stack: int,
        hole_cards: Cards,
        dealt_in: bool,
        contributed: tuple[int, int, int, int],
        returned: int,
        collected: int,
        net: int,
        vpip: bool,
        pfr: bool,
        three_bet_opportunity: bool,
        three_bet: bool,
        fold_to_three_bet_opportunity: bool,
        fold_to_three_bet: bool,
        steal_opportunity: bool,
        steal: bool,
        fold_to_steal_opportunity: bool,
        fold_to_steal: bool,
        cbet_opportunity: bool,
        cbet: bool,
        fold_to_cbet_opportunity: bool,
        fold_to_cbet: bool,
        postflop_bets: int,
        postflop_raises: int,
        postflop_calls: int,
        postflop_checks: int,
        postflop_folds: int,
        saw_flop: bool,
        went_to_showdown: bool,
        won_at_showdown: bool,
        won_high: bool,
        won_low: bool,
        scooped: bool,
        quartered: bool,
        all_in_street: int | None,
        showdown_won: int,
        nonshowdown_won: int,
        high_won: int,
        low_won: int,
        cash_out: int = 0,
        cash_out_fee: int = 0,
    ) -> None:
        self.seat: Final = seat
        self.player: Final = player
        self.is_hero: Final = is_hero
        self.position: Final = (
            position  # BTN, SB, BB, UTG, UTG+1, MP, HJ, CO (by seats dealt in); "" if not dealt in
        )
        self.starting_stack: Final = starting_stack
        self.hole_cards: Final = hole_cards  # () when unknown
        self.dealt_in: Final = dealt_in  # False for sitting-out players
        self.contributed: Final = (
            contributed  # per street (pre-flop incl. blinds and antes, flop, turn, river)
        )
        self.returned: Final = returned  # uncalled bet returned
        self.collected: Final = collected  # from all collect lines (all pots, halves, runs)
        self.net: Final = net  # collected + returned + cash_out - sum(contributed)
        # Pre-flop stats (PokerTracker 4 definitions; see analytics/ for the exact wording).
        self.vpip: Final = vpip
        self.pfr: Final = pfr
        self.three_bet_opportunity: Final = three_bet_opportunity
        self.three_bet: Final = three_bet
        self.fold_to_three_bet_opportunity: Final = fold_to_three_bet_opportunity
        self.fold_to_three_bet: Final = fold_to_three_bet
        self.steal_opportunity: Final = steal_opportunity
        self.steal: Final = steal
        self.fold_to_steal_opportunity: Final = fold_to_steal_opportunity
        self.fold_to_steal: Final = fold_to_steal
        # Flop continuation bet.
        self.cbet_opportunity: Final = cbet_opportunity
        self.cbet: Final = cbet
        self.fold_to_cbet_opportunity: Final = fold_to_cbet_opportunity
        self.fold_to_cbet: Final = fold_to_cbet
        # Post-flop aggression counts (flop, turn, river).
        self.postflop_bets: Final = postflop_bets
        self.postflop_raises: Final = postflop_raises
        self.postflop_calls: Final = postflop_calls
        self.postflop_checks: Final = postflop_checks
        self.postflop_folds: Final = postflop_folds
        # Outcome.
        self.saw_flop: Final = saw_flop
        self.went_to_showdown: Final = went_to_showdown
        self.won_at_showdown: Final = won_at_showdown
        self.won_high: Final = won_high  # won (part of) a high half or a whole pot in any pot/run
        self.won_low: Final = won_low
        self.scooped: Final = (
            scooped  # won every chip of every pot they were eligible for at showdown, hi/lo game
        )
        self.quartered: Final = quartered  # shared a low half with another player
        self.all_in_street: Final = all_in_street  # street on which the player went all-in, else None
        self.showdown_won: Final = showdown_won  # amount collected in hands that reached showdown
        self.nonshowdown_won: Final = nonshowdown_won  # amount collected without a showdown
        self.high_won: Final = high_won  # amount from high halves (and whole pots)
        self.low_won: Final = low_won  # amount from low halves
        # All-in cash out: what the room paid the player for their claim on the pots (not from the
        # pots: what their hand then won is kept by the room), and the room's fee for it.
        self.cash_out: Final = cash_out
        self.cash_out_fee: Final = cash_out_fee


class AwardFact(Record):
    """One half (or whole) of one pot of one run, and who got what of it."""

    __match_args__ = ("pot", "run", "half", "amount", "eligible", "winners", "amounts", "descriptions")

    def __init__(
        self,
        pot: int,
        run: int,
        half: str,
        amount: int,
        eligible: tuple[str, ...],
        winners: tuple[str, ...],
        amounts: tuple[int, ...],
        descriptions: tuple[str, ...],
    ) -> None:
        self.pot: Final = pot  # 0 = main pot, 1.. = side pots
        self.run: Final = run  # 0 = single board, 1/2 = run it twice boards
        self.half: Final = half  # "whole" (no low / high-only game), "high", "low"
        self.amount: Final = amount
        self.eligible: Final = eligible
        self.winners: Final = winners
        self.amounts: Final = amounts  # parallel to winners
        self.descriptions: Final = (
            descriptions  # parallel to winners, the winning hand per the evaluator ("" if none)
        )


class ShowdownFact(Record):
    """A hand at showdown, evaluated on one board: shown, or mucked with its cards revealed in the
    summary (``Seat 2: X mucked [3s Ac 5h Jc]``; ``mucked`` is True then: it could not win)."""

    __match_args__ = ("player", "run", "cards", "high", "high_rank", "low", "low_rank", "mucked")

    def __init__(
        self,
        player: str,
        run: int,
        cards: Cards,
        high: str,
        high_rank: int,
        low: str | None,
        low_rank: int | None,
        mucked: bool = False,
    ) -> None:
        self.player: Final = player
        self.run: Final = run
        self.cards: Final = cards
        self.high: Final = high  # evaluator's description, e.g. "a full house, Sevens full of Fives"
        self.high_rank: Final = high_rank  # larger is better
        self.low: Final = low  # "7,5,4,3,A" or None when no qualifying low
        self.low_rank: Final = low_rank  # smaller is better (None when no low)
        self.mucked: Final = mucked


class PotFact(Record):
    __match_args__ = ("pot", "amount", "eligible", "rake")

    def __init__(self, pot: int, amount: int, eligible: tuple[str, ...], rake: int = 0) -> None:
        self.pot: Final = pot
        self.amount: Final = amount  # before rake
        self.eligible: Final = eligible
        self.rake: Final = rake  # this pot's share of the hand's rake (the pot awarded is amount - rake)


class HandFacts(Record):
    __match_args__ = (
        "hand",
        "players",
        "actions",
        "pots",
        "awards",
        "showdowns",
        "total_pot",
        "rake",
        "runs",
        "boards",
        "exposed_card",
    )

    def __init__(
        self,
        hand: Hand,
        players: tuple[PlayerFacts, ...],
        actions: tuple[ActionFact, ...],
        pots: tuple[PotFact, ...],
        awards: tuple[AwardFact, ...],
        showdowns: tuple[ShowdownFact, ...],
        total_pot: int,
        rake: int,
        runs: int,
        boards: tuple[Cards, ...],
        exposed_card: str | None,
    ) -> None:
        self.hand: Final = hand
        self.players: Final = players
        self.actions: Final = actions
        self.pots: Final = pots
        self.awards: Final = awards
        self.showdowns: Final = showdowns
        self.total_pot: Final = total_pot
        self.rake: Final = rake
        self.runs: Final = runs  # 1 or 2
        self.boards: Final = boards
        self.exposed_card: Final = exposed_card


class EvShareFact(Record):
    """All-in EV: one player's expected share of one half of one pot in one run.

    Computed by the EV stage (:mod:`hhparse.ev`) after the referee, not proven by it. ``half`` is
    ``whole`` (high-only game, or a pot one player alone could win), ``high`` (the high half, and
    the whole pot on boards where no low qualifies) or ``low``. Money in minor units: ``ev`` is the
    expected share rounded so that a pot-run's rows add up to ``amount``; the exact value is
    ``share_sum / boards``.
    """

    __match_args__ = (
        "pot",
        "run",
        "half",
        "player",
        "seat",
        "amount",
        "ev",
        "share_sum",
        "boards",
        "std_err",
        "won",
        "street",
        "method",
    )

    def __init__(
        self,
        pot: int,
        run: int,
        half: str,
        player: str,
        seat: int,
        amount: int,
        ev: int,
        share_sum: int,
        boards: int,
        std_err: int,
        won: int,
        street: int,
        method: str,
    ) -> None:
        self.pot: Final = pot  # 0 = main pot, 1.. = side pots
        self.run: Final = run  # 0 = single board, 1/2 = run it twice boards
        self.half: Final = half
        self.player: Final = player
        self.seat: Final = seat
        self.amount: Final = amount  # the pot's amount in this run, after rake
        self.ev: Final = ev  # expected share, rounded (largest remainder within the pot-run)
        self.share_sum: Final = share_sum  # the share summed over every board counted or sampled
        self.boards: Final = boards
        self.std_err: Final = std_err  # standard error of the expected share, rounded up (0 when exact)
        self.won: Final = won  # what the player actually got of it
        self.street: Final = street  # street the betting ended on
        self.method: Final = method  # exact | mc


class HandEvFacts(Record):
    """All-in EV of one hand, decided at the point the betting ended before the river.

    ``allin_ev`` and ``std_err`` are parallel to :attr:`HandFacts.players`: the expected net
    (``E[collected] + returned - contributed``) of each seated player, ``net`` itself for those who
    were not in the pots, rounded to whole units by largest remainder so that they add up to
    minus the rake exactly; the standard errors are rounded up. ``method`` is ``exact`` or ``mc``
    (``failed`` when the computation raised: then ``allin_ev`` is the net), ``boards`` the number
    of boards enumerated or sampled, ``street`` the street the betting ended on (0 pre-flop;
    None when failed).
    """

    __match_args__ = ("street", "method", "boards", "allin_ev", "std_err", "shares")

    def __init__(
        self,
        street: int | None,
        method: str,
        boards: int,
        allin_ev: tuple[int, ...],
        std_err: tuple[int, ...],
        shares: tuple[EvShareFact, ...],
    ) -> None:
        self.street: Final = street
        self.method: Final = method
        self.boards: Final = boards
        self.allin_ev: Final = allin_ev
        self.std_err: Final = std_err
        self.shares: Final = shares


class RefereeResult(Record):
    """The referee's verdict. ``facts`` is present whenever replay got far enough to build them."""

    __match_args__ = ("hand", "errors", "warnings", "facts")

    def __init__(
        self,
        hand: Hand,
        errors: tuple[Violation, ...] = (),
        warnings: tuple[Violation, ...] = (),
        facts: HandFacts | None = None,
    ) -> None:
        self.hand: Final = hand
        self.errors: Final = errors
        self.warnings: Final = warnings
        self.facts: Final = facts

    @property
    def valid(self) -> bool:
        return not self.errors
