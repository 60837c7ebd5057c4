"""The typed hand model: what the grammar builds and the referee replays.

Everything here is immutable (records whose attributes cannot be reassigned, see below) so that
a parsed hand can be shared between the referee, the renderer and the warehouse without
defensive copies. Money is always an ``int`` in the hand's smallest unit (cents for cash, chips
for tournaments): a float never enters the model, so sums over pots are exact.

Every event carries ``line``: the 1-based line number *in the source file* (not in the hand), so
an error found by the referee can point at the exact line a user sees in their editor.

Why plain classes with ``Final`` attributes and not frozen dataclasses: this module is compiled
with mypyc (``hatch_build.py``), which makes each record a native class whose ``Final``
attributes cannot be assigned after ``__init__`` (``AttributeError``), whose construction is one
C call (several times cheaper than the fastest way into a frozen dataclass, and a hand builds
about 40 records: ``docs/performance.md``), and whose attributes the compiled referee reads
straight from the object. A frozen dataclass compiled by mypyc keeps its slow Python
``__init__``. What the dataclasses gave, :class:`Record` gives: equality and hashing by fields
(same class only), a ``Name(field=value, ...)`` repr, pickling, class patterns in ``match``, and
:func:`fields` / :func:`replace` in place of ``dataclasses.fields`` / ``dataclasses.replace``. The
field order is ``__match_args__``, which is also ``__init__``'s positional order (a test checks
the two agree). Installed without compiling (``HHPARSE_COMPILE=0``), the records are ordinary
classes and immutability is enforced by mypy alone (``Final``).
"""

from __future__ import annotations

from datetime import datetime
from enum import IntEnum, StrEnum
from typing import Any, ClassVar, Final, NewType, TypeVar

Money = NewType("Money", int)
"""An amount in the hand's smallest unit (one cent, one tournament chip)."""

Card = str
"""A card as PokerStars writes it: rank then suit, e.g. ``"Th"``, ``"As"``, ``"2c"``."""

Cards = tuple[Card, ...]

_R = TypeVar("_R", bound="Record")


class Record:
    """Base of every record below: value semantics over the fields named in ``__match_args__``."""

    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Record):
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Record):
            return NotImplemented
        return self._values() != other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        body = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{type(self).__name__}({body})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), self._values())


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The field names of a record or record class, in ``__init__`` order."""
    return record.__match_args__


def replace(record: _R, **changes: Any) -> _R:
    """A copy of ``record`` with some fields changed (``dataclasses.replace`` for records)."""
    names = record.__match_args__
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {sorted(unknown)[0]!r}")
    cls: Any = type(record)
    new: _R = cls(*[changes[n] if n in changes else getattr(record, n) for n in names])
    return new


class _LineRecord(Record):
    """A line that says nothing but that it is there (its file line)."""

    __match_args__ = ("line",)

    def __init__(self, line: int) -> None:
        self.line: Final = line


class _PlayerLineRecord(Record):
    """A line that names a player and nothing else."""

    __match_args__ = ("line", "player")

    def __init__(self, line: int, player: str) -> None:
        self.line: Final = line
        self.player: Final = player


SYMBOL_CURRENCIES: Final[dict[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY"}
"""Currency code of each symbol PokerStars prints before cash amounts (the header's code when it
prints one: ``($0.01/$0.02 USD)``, ``(€0.01/€0.02 EUR)``, ``(¥25/¥50 CNY)``)."""


Game = NewType("Game", str)
"""A game family, independent of hi/lo and betting structure: ``courchevel``, ``omaha``, ...
(:attr:`hhparse.rules.variants.Variant.game`; the table of games lists them all)."""


class Structure(StrEnum):
    """Betting structure as printed in the header (``Limit`` / ``Pot Limit`` / ``No Limit``)."""

    FIXED_LIMIT = "FL"
    POT_LIMIT = "PL"
    NO_LIMIT = "NL"


class Street(IntEnum):
    """Betting streets in dealing order (so they compare and sort naturally)."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class FlopForm(StrEnum):
    """How a Courchevel flop line was printed; kept so the renderer reproduces it."""

    PLAIN = "plain"  # *** FLOP *** [7h 5d 3s]  (any game; Courchevel 2013 repeats the exposed card)
    SPLIT = "split"  # *** FLOP *** [8s] [2c 9h]  (Courchevel 2017+)
    BUG_2016 = "bug2016"  # *** FLOP *** [2s] [2s3d 3c]  (client bug, April 2016)


class PostKind(StrEnum):
    """Forced bets."""

    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    SMALL_AND_BIG = "small & big blinds"
    ANTE = "the ante"


class TableEventKind(StrEnum):
    """Lines about the table rather than the play; they may appear anywhere in a hand."""

    CHAT = "chat"  # Player said, "text"            (text = the quoted words)
    JOINS = "joins"  # Player joins the table at seat #N   (seat = N)
    LEAVES = "leaves"  # Player leaves the table
    SITS_OUT = "sits out"  # Player: sits out   (colon form)
    IS_SITTING_OUT_COLON = "is sitting out:"  # Player: is sitting out
    IS_SITTING_OUT = "is sitting out"  # Player is sitting out   (no colon)
    TIMED_OUT = "timed out"  # Player has timed out
    TIMED_OUT_DISCONNECTED = "timed out while disconnected"
    TIMED_OUT_BEING_DISCONNECTED = "timed out while being disconnected"
    DISCONNECTED = "disconnected"  # Player is disconnected
    CONNECTED = "connected"  # Player is connected
    RETURNED = "returned"  # Player has returned
    ALLOWED_AFTER_BUTTON = "allowed after button"  # Player will be allowed to play after the button
    REMOVED = "removed"  # Player was removed from the table for failing to post
    CASHED_OUT = "cashed out"  # Player cashed out the hand for $X | Cash Out Fee $Y (amount, fee)
    # Tournament rebuys and add-ons: amount = chips received, text = the price as printed ("€0.10",
    # "250 StarsCoin"). They change the player's stack for the *next* hand, not this one.
    # Printed among the hand's lines, a rebuy is for the next hand; printed between the table line
    # and the seat lines (made before the hand), it is already in this hand's seat stacks.
    # ``text`` is "" when the line names no price ("... receives 10000 chips").
    REBUY = "re-buys"  # Player re-buys and receives 10000 chips for €0.10
    ADD_ON = "add-on"  # Player takes the add-on and receives 10000 chips for $1.00
    BETTING_CAPPED = "betting capped"  # Betting is capped  (player = "")
    # Tournament prizes other than money: text = the words after "wins " ("a 'Sunday Million' ticket",
    # "an entry to tournament #1234567").
    WINS = "wins"
    # Disconnect protection (old histories): the player stays in the hand, puts no more chips in
    # and acts no more, as if all-in. With and without the colon.
    TREATED_ALL_IN = "treated as all-in"  # Player is being treated as all-in
    TREATED_ALL_IN_COLON = "treated as all-in:"  # Player: is being treated as all-in


# --------------------------------------------------------------------------------------------
# Header
# --------------------------------------------------------------------------------------------


class Tournament(Record):
    """Tournament part of the header. Buy-in parts are kept as printed amounts in minor units."""

    __match_args__ = (
        "tournament_id",
        "buyin_parts",
        "buyin_currency",
        "buyin_label",
        "level",
        "zoom",
        "home_game_club",
        "match_round",
    )

    def __init__(
        self,
        tournament_id: str,
        buyin_parts: tuple[int, ...],
        buyin_currency: str | None,
        buyin_label: str,
        level: str,
        zoom: bool = False,
        home_game_club: str | None = None,
        match_round: str | None = None,
    ) -> None:
        self.tournament_id: Final = tournament_id
        self.buyin_parts: Final = buyin_parts  # e.g. (341, 341, 68) for $3.41+$3.41+$0.68; () for freeroll
        self.buyin_currency: Final = (
            buyin_currency  # "USD", "EUR", ...; None for play chips / FPP / SC / freeroll
        )
        self.buyin_label: Final = (
            buyin_label  # the buy-in exactly as printed, e.g. "$3.41+$3.41+$0.68 USD", "Freeroll", "100+9"
        )
        self.level: Final = level  # roman numeral, e.g. "III"
        self.zoom: Final = zoom
        self.home_game_club: Final = home_game_club  # "{Dazzle's Room}" without braces
        self.match_round: Final = match_round  # "I" in "Match Round I, Level III"

    @property
    def knockout(self) -> bool:
        """Three-part buy-ins are buy-in + bounty + fee."""
        return len(self.buyin_parts) == 3


class Header(Record):
    """Line 1 and line 2 of a hand."""

    __match_args__ = (
        "site",
        "hand_kind",
        "hand_id",
        "game",
        "hilo",
        "structure",
        "game_label",
        "mixed",
        "currency",
        "symbol",
        "small_blind",
        "big_blind",
        "cap",
        "tournament",
        "local_time",
        "time_zone",
        "et_time",
        "start_utc",
        "table",
        "max_seats",
        "play_money",
        "button_seat",
        "line",
        "regulator_id",
        "stealth",
        "button_won_previous",
        "club",
    )

    def __init__(
        self,
        site: str,
        hand_kind: str,
        hand_id: str,
        game: Game,
        hilo: bool,
        structure: Structure,
        game_label: str,
        mixed: str | None,
        currency: str | None,
        symbol: str,
        small_blind: int,
        big_blind: int,
        cap: int | None,
        tournament: Tournament | None,
        local_time: datetime,
        time_zone: str,
        et_time: datetime | None,
        start_utc: datetime,
        table: str,
        max_seats: int | None,
        play_money: bool,
        button_seat: int,
        line: int,
        regulator_id: str | None = None,
        stealth: bool = False,
        button_won_previous: bool = False,
        club: str | None = None,
    ) -> None:
        self.site: Final = site  # "PokerStars"
        self.hand_kind: Final = (
            hand_kind  # words between site and '#': "Hand", "Game", "Zoom Hand", "Home Game Hand"
        )
        self.hand_id: Final = hand_id  # kept as text: ids may be zero-padded ("0000000000")
        self.game: Final = game
        self.hilo: Final = hilo
        self.structure: Final = structure
        self.game_label: Final = game_label  # exactly as printed, e.g. "Courchevel Hi/Lo Pot Limit"
        self.mixed: Final = mixed  # wrapper, e.g. "8-Game", "Mixed Omaha"; None when not a mixed game
        self.currency: Final = currency  # "USD", "EUR"... for cash; None for tournaments / play money
        self.symbol: Final = symbol  # "$", "€", "£", "" — how amounts are printed in this hand
        self.small_blind: Final = small_blind  # header stakes, first number (FL: the small bet)
        self.big_blind: Final = big_blind  # header stakes, second number (FL: the big bet)
        self.cap: Final = cap  # capped cash tables ("$10 Cap"), else None
        self.tournament: Final = tournament
        self.local_time: Final = local_time  # naive, as printed
        self.time_zone: Final = time_zone  # "ET", "CET", "PT", "UTC", ...
        self.et_time: Final = et_time  # the bracketed "[... ET]" time when printed, else None
        self.start_utc: Final = start_utc  # timezone-aware UTC start time derived from the above
        self.table: Final = table
        self.max_seats: Final = max_seats  # "6-max"; None when not printed (2005)
        self.play_money: Final = play_money
        self.button_seat: Final = button_seat
        self.line: Final = line  # file line of the header
        # Italian tables: the regulator's id as printed in the header, e.g. "AAMS ID: 1A2B3C" (or "ADM ID: ...")
        self.regulator_id: Final = regulator_id
        self.stealth: Final = stealth  # "Table 'X' (Stealth) 6-max ...": players appear under aliases
        self.button_won_previous: Final = (
            button_won_previous  # "Seat #3 is the button (won the previous hand)"
        )
        # a Home Game cash hand's club, "{Club #4837790} Omaha Pot Limit (...)" (a tournament's is
        # ``tournament.home_game_club``)
        self.club: Final = club

    @property
    def unit(self) -> str:
        """The unit every amount of this hand is in: a currency code, 'chips' or 'play'.

        Cash headers without a code (Zoom 2013-2023 ``($1/$2)``, 2005 ``($5/$10)``) are in the
        currency of their symbol.
        """
        if self.tournament is not None:
            return "chips"
        if self.play_money:
            return "play"
        if self.currency is not None:
            return self.currency
        return SYMBOL_CURRENCIES.get(self.symbol, "chips")


class Seat(Record):
    """A ``Seat N: name (stack in chips[, $X bounty]) [is sitting out|out of hand (...)]`` line."""

    __match_args__ = ("seat", "player", "stack", "line", "bounty", "sitting_out", "out_of_hand")

    def __init__(
        self,
        seat: int,
        player: str,
        stack: int,
        line: int,
        bounty: int | None = None,
        sitting_out: bool = False,
        out_of_hand: str | None = None,
    ) -> None:
        self.seat: Final = seat
        self.player: Final = player
        self.stack: Final = stack
        self.line: Final = line
        self.bounty: Final = bounty
        self.sitting_out: Final = sitting_out
        self.out_of_hand: Final = (
            out_of_hand  # the parenthesised reason, e.g. "moved from another table into small blind"
        )


# --------------------------------------------------------------------------------------------
# Events (a closed union; the order in Hand.events is the order of the lines)
# --------------------------------------------------------------------------------------------


class PostBlind(Record):
    __match_args__ = ("line", "player", "kind", "amount", "all_in")

    def __init__(self, line: int, player: str, kind: PostKind, amount: int, all_in: bool = False) -> None:
        self.line: Final = line
        self.player: Final = player
        self.kind: Final = kind
        self.amount: Final = amount  # for SMALL_AND_BIG: the total of both
        self.all_in: Final = all_in


class HoleCardsMarker(_LineRecord):
    """``*** HOLE CARDS ***``."""


class DealHole(Record):
    """``Dealt to NAME [cards]`` (cards may be empty for ``Dealt to NAME`` without cards)."""

    __match_args__ = ("line", "player", "cards")

    def __init__(self, line: int, player: str, cards: Cards) -> None:
        self.line: Final = line
        self.player: Final = player
        self.cards: Final = cards


class ExposeCard(Record):
    """Courchevel: ``*** PRE-FLOP *** [7h]`` — the first flop card, face up before betting."""

    __match_args__ = ("line", "card", "bug_2016")

    def __init__(self, line: int, card: Card, bug_2016: bool = False) -> None:
        self.line: Final = line
        self.card: Final = card
        self.bug_2016: Final = (
            bug_2016  # printed as ``*** HOLE CARDS *** [2s]*** HOLE CARDSPRE-FLOP *** [2s]``
        )


class DealBoard(Record):
    """A street marker with cards: FLOP / TURN / RIVER, or FIRST/SECOND ... when run twice.

    ``cards`` is the whole board after this street (3, 4 or 5 cards), whatever the brackets.
    ``run`` is 0 for a normal street, 1 for FIRST, 2 for SECOND.
    """

    __match_args__ = ("line", "street", "cards", "run", "form")

    def __init__(
        self,
        line: int,
        street: Street,
        cards: Cards,
        run: int = 0,
        form: FlopForm = FlopForm.PLAIN,
    ) -> None:
        self.line: Final = line
        self.street: Final = street
        self.cards: Final = cards
        self.run: Final = run
        self.form: Final = form


class Fold(Record):
    __match_args__ = ("line", "player", "shown")

    def __init__(self, line: int, player: str, shown: Cards = ()) -> None:
        self.line: Final = line
        self.player: Final = player
        self.shown: Final = shown  # ``folds [Ks]``


class Check(_PlayerLineRecord):
    """``NAME: checks``."""


class _AmountAction(Record):
    """``NAME: calls|bets AMT[ and is all-in| and has reached the AMT cap]``."""

    __match_args__ = ("line", "player", "amount", "all_in", "cap_reached")

    def __init__(
        self,
        line: int,
        player: str,
        amount: int,
        all_in: bool = False,
        cap_reached: int | None = None,
    ) -> None:
        self.line: Final = line
        self.player: Final = player
        self.amount: Final = amount
        self.all_in: Final = all_in
        self.cap_reached: Final = cap_reached  # "and has reached the $80 cap"


class Call(_AmountAction):
    """``NAME: calls AMT[ and is all-in| and has reached the AMT cap]``."""


class Bet(_AmountAction):
    """``NAME: bets AMT[ and is all-in| and has reached the AMT cap]``."""


class Raise(Record):
    """``raises BY to TO``: ``to`` is the player's total for the street (what the rules use)."""

    __match_args__ = ("line", "player", "by", "to", "all_in", "cap_reached")

    def __init__(
        self,
        line: int,
        player: str,
        by: int,
        to: int,
        all_in: bool = False,
        cap_reached: int | None = None,
    ) -> None:
        self.line: Final = line
        self.player: Final = player
        self.by: Final = by
        self.to: Final = to
        self.all_in: Final = all_in
        self.cap_reached: Final = cap_reached


class UncalledBet(Record):
    """``Uncalled bet ($25.75) returned to Hero``."""

    __match_args__ = ("line", "player", "amount")

    def __init__(self, line: int, player: str, amount: int) -> None:
        self.line: Final = line
        self.player: Final = player
        self.amount: Final = amount


class ShowdownMarker(Record):
    """``*** SHOW DOWN ***`` (run 0) or ``*** FIRST/SECOND SHOW DOWN ***`` (run 1/2)."""

    __match_args__ = ("line", "run")

    def __init__(self, line: int, run: int = 0) -> None:
        self.line: Final = line
        self.run: Final = run


class Show(Record):
    """``NAME: shows [cards] (description)``; description is None when absent (one-card shows)."""

    __match_args__ = ("line", "player", "cards", "description", "hi", "lo")

    def __init__(
        self,
        line: int,
        player: str,
        cards: Cards,
        description: str | None = None,
        hi: str | None = None,
        lo: str | None = None,
    ) -> None:
        self.line: Final = line
        self.player: Final = player
        self.cards: Final = cards
        self.description: Final = description  # raw text inside the parentheses
        self.hi: Final = hi  # high part (whole description in a high-only game)
        self.lo: Final = lo  # "7,5,4,3,A" when a low is printed


class Muck(_PlayerLineRecord):
    """``NAME: mucks hand``."""


class DoesNotShow(_PlayerLineRecord):
    """``NAME: doesn't show hand``."""


class Collect(Record):
    """``NAME collected X from pot|main pot|side pot|side pot-N``.

    ``pot`` is 0 for ``pot``/``main pot``; N for ``side pot-N``; 1 for an unnumbered ``side pot``.
    ``pot_label`` keeps the printed words for rendering. ``run`` is 0, or 1/2 inside FIRST/SECOND
    SHOW DOWN blocks.
    """

    __match_args__ = ("line", "player", "amount", "pot", "pot_label", "run")

    def __init__(
        self,
        line: int,
        player: str,
        amount: int,
        pot: int = 0,
        pot_label: str = "pot",
        run: int = 0,
    ) -> None:
        self.line: Final = line
        self.player: Final = player
        self.amount: Final = amount
        self.pot: Final = pot
        self.pot_label: Final = pot_label
        self.run: Final = run


class NoLowHand(_LineRecord):
    """``No low hand qualified``."""


class HandCancelled(_LineRecord):
    """``Hand cancelled``."""


class Bounty(Record):
    """Knockout lines.

    ``winners`` has several names for the 2012 fixed-KO split form. ``increase``/``new_bounty`` are
    set for progressive knockouts; ``split`` for "for splitting the elimination of".
    """

    __match_args__ = (
        "line",
        "winners",
        "amount",
        "eliminated",
        "progressive",
        "split",
        "increase",
        "new_bounty",
    )

    def __init__(
        self,
        line: int,
        winners: tuple[str, ...],
        amount: int,
        eliminated: str,
        progressive: bool = False,
        split: bool = False,
        increase: int | None = None,
        new_bounty: int | None = None,
    ) -> None:
        self.line: Final = line
        self.winners: Final = winners
        self.amount: Final = amount
        self.eliminated: Final = eliminated
        self.progressive: Final = progressive
        self.split: Final = split
        self.increase: Final = increase
        self.new_bounty: Final = new_bounty


class Finished(Record):
    """``NAME finished the tournament[ in 8th place][ and received $141.51.]``.

    ``place`` is None when the line names no place (``NAME finished the tournament``).
    """

    __match_args__ = ("line", "player", "place", "prize")

    def __init__(self, line: int, player: str, place: int | None, prize: int | None = None) -> None:
        self.line: Final = line
        self.player: Final = player
        self.place: Final = place
        self.prize: Final = prize


class TournamentWon(Record):
    """``NAME wins the tournament and receives $230.36 - congratulations!``; ``prize`` is None and
    ``prize_text`` "" for ``NAME wins the tournament - congratulations!`` (no prize printed)."""

    __match_args__ = ("line", "player", "prize", "prize_text")

    def __init__(self, line: int, player: str, prize: int | None, prize_text: str) -> None:
        self.line: Final = line
        self.player: Final = player
        self.prize: Final = prize
        self.prize_text: Final = prize_text  # as printed ("$230.36", "200.00") — units differ from the hand's


class TableEvent(Record):
    """Chat, joins, leaves, sitting out, timeouts, connections, cash-outs, ``Betting is capped``."""

    __match_args__ = ("line", "player", "kind", "text", "seat", "amount", "fee")

    def __init__(
        self,
        line: int,
        player: str,
        kind: TableEventKind,
        text: str = "",
        seat: int | None = None,
        amount: int | None = None,
        fee: int | None = None,
    ) -> None:
        self.line: Final = line
        self.player: Final = player
        self.kind: Final = kind
        self.text: Final = text  # chat words; removal reason
        self.seat: Final = seat  # joins the table at seat #N
        self.amount: Final = amount  # cash-out amount
        self.fee: Final = fee  # cash-out fee


Event = (
    PostBlind
    | HoleCardsMarker
    | DealHole
    | ExposeCard
    | DealBoard
    | Fold
    | Check
    | Call
    | Bet
    | Raise
    | UncalledBet
    | ShowdownMarker
    | Show
    | Muck
    | DoesNotShow
    | Collect
    | NoLowHand
    | HandCancelled
    | Bounty
    | Finished
    | TournamentWon
    | TableEvent
)

ACTION_TYPES = (Fold, Check, Call, Bet, Raise)


# --------------------------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------------------------


class SeatOutcome(StrEnum):
    """What a ``Seat N: ...`` summary line says happened to the player."""

    FOLDED = "folded"  # folded before Flop / on the Flop / Turn / River
    SHOWED_WON = "showed and won"
    SHOWED_LOST = "showed and lost"
    MUCKED = "mucked"  # with or without cards
    COLLECTED = "collected"  # won without showdown
    NOTHING = "nothing"  # seat line with markers only (e.g. sitting out, no outcome words)


class SummarySeat(Record):
    __match_args__ = (
        "line",
        "seat",
        "player",
        "button",
        "small_blind",
        "big_blind",
        "outcome",
        "folded_street",
        "didnt_bet",
        "cards",
        "won",
        "descriptions",
        "cashed_out",
        "pot_not_awarded",
        "clauses",
    )

    def __init__(
        self,
        line: int,
        seat: int,
        player: str,
        button: bool = False,
        small_blind: bool = False,
        big_blind: bool = False,
        outcome: SeatOutcome = SeatOutcome.NOTHING,
        folded_street: Street | None = None,
        didnt_bet: bool = False,
        cards: Cards = (),
        won: tuple[int, ...] = (),
        descriptions: tuple[str, ...] = (),
        cashed_out: bool = False,
        pot_not_awarded: bool = False,
        clauses: tuple[bool, ...] = (),
    ) -> None:
        self.line: Final = line
        self.seat: Final = seat
        self.player: Final = player
        self.button: Final = button
        self.small_blind: Final = small_blind
        self.big_blind: Final = big_blind
        self.outcome: Final = outcome
        self.folded_street: Final = folded_street  # FOLDED: before Flop = PREFLOP
        self.didnt_bet: Final = didnt_bet  # "(didn't bet)"
        self.cards: Final = cards
        self.won: Final = won  # one amount per "won (X)" clause (two when run twice); COLLECTED: (X,)
        # "with ..." per clause: per won clause, or the single lost description; when ``clauses``
        # is set, one per clause of ``clauses`` ("" for a clause without "with ...").
        self.descriptions: Final = descriptions
        self.cashed_out: Final = cashed_out  # "(cashed out)"
        self.pot_not_awarded: Final = pot_not_awarded  # "(pot not awarded as player cashed out)"
        # A showed line with several clauses (run it twice), in order: True "won (X) with ...",
        # False "lost with ...". ``showed [..] and lost with A, and won ($8385.36) with B`` is
        # (False, True). Empty for a line with one clause (the outcome says which).
        self.clauses: Final = clauses


class Summary(Record):
    __match_args__ = (
        "line",
        "total_pot",
        "main_pot",
        "side_pots",
        "side_pots_numbered",
        "rake",
        "total_line",
        "run_twice",
        "boards",
        "board_lines",
        "seats",
    )

    def __init__(
        self,
        line: int,
        total_pot: int | None = None,
        main_pot: int | None = None,
        side_pots: tuple[int, ...] = (),
        side_pots_numbered: bool = False,
        rake: int | None = None,
        total_line: int | None = None,
        run_twice: bool = False,
        boards: tuple[Cards, ...] = (),
        board_lines: tuple[int, ...] = (),
        seats: tuple[SummarySeat, ...] = (),
    ) -> None:
        self.line: Final = line  # the *** SUMMARY *** line
        self.total_pot: Final = total_pot  # None for cancelled hands
        self.main_pot: Final = main_pot
        self.side_pots: Final = side_pots  # side pot (unnumbered) or side pot-1, side pot-2, ...
        self.side_pots_numbered: Final = side_pots_numbered
        self.rake: Final = rake
        self.total_line: Final = total_line
        self.run_twice: Final = run_twice
        self.boards: Final = boards  # one board, or FIRST and SECOND boards
        self.board_lines: Final = board_lines
        self.seats: Final = seats


# --------------------------------------------------------------------------------------------
# Hand
# --------------------------------------------------------------------------------------------


class ParseWarning(Record):
    """Something odd the parser read correctly but a user should know about (e.g. the 2016 bug)."""

    __match_args__ = ("code", "line", "message")

    def __init__(self, code: str, line: int, message: str) -> None:
        self.code: Final = code
        self.line: Final = line
        self.message: Final = message


class Hand(Record):
    """One parsed hand. ``source`` is the file it came from (``"<stdin>"``/``"<text>"`` otherwise)."""

    __match_args__ = ("source", "line", "header", "seats", "events", "summary", "warnings")

    def __init__(
        self,
        source: str,
        line: int,
        header: Header,
        seats: tuple[Seat, ...],
        events: tuple[Event, ...],
        summary: Summary | None,
        warnings: tuple[ParseWarning, ...] = (),
    ) -> None:
        self.source: Final = source
        self.line: Final = line  # first line of the hand in the source file
        self.header: Final = header
        self.seats: Final = seats
        self.events: Final = events
        self.summary: Final = summary
        self.warnings: Final = warnings

    @property
    def hand_id(self) -> str:
        return self.header.hand_id

    @property
    def cancelled(self) -> bool:
        for e in self.events:  # noqa: SIM110 - a loop compiles to C, a generator would not
            if isinstance(e, HandCancelled):
                return True
        return False

    def seat_of(self, player: str) -> Seat | None:
        for s in self.seats:
            if s.player == player:
                return s
        return None
