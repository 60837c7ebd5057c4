"""Text -> :class:`~hhparse.model.Hand`: the public parsing API.

Pipeline: :mod:`hhparse.splitter` cuts a file into blocks; each block goes through one LALR
parser (line-level terminals, contextual lexer) whose inline transformer builds model objects
while parsing: no parse tree is ever built. A hand that cannot be read becomes a
:class:`~hhparse.errors.ParseError` value with file, file line, column and the whole block, and
the next hand goes on. The parser never judges poker legality: that is the referee's job.

Speed (``bench/parse.py``, ``bench/parse_ab.py``; targets and figures in ``docs/performance.md``):
every line is one token and one LALR reduction whose callback is a :class:`_Builder` method that
appends the line's event to the hand, its fields read from the very match that lexed the line (the
grammar names them: :func:`hhparse.larkglue.load_grammar`; the driver hands the match over in its
token), so each line is matched once; the driver tries a lexer state's terminals in lark's order
but only those whose fixed start and texts the line has (:mod:`hhparse.lalr`); what repeats
across hands whatever the players (amounts, summary outcomes, header bodies) is read once into
small bounded memos; model objects are native classes (one C call each). By default lark's LALR
table, terminals and callbacks run in the compiled driver :mod:`hhparse.lalr`, and lark itself
parses whatever the driver rejects, so errors are lark's; :func:`use_backend` switches to lark
alone, where a leaner contextual lexer runs the lexing loop without lark-cython and lark's
per-line ``Rule``/``Token`` dunder calls and per-hand entry layers are cut out
(:mod:`hhparse.larkglue`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo

from lark.exceptions import UnexpectedInput, UnexpectedToken

from hhparse.errors import ParseError
from hhparse.lalr import LineParser, LineToken, Rejected
from hhparse.larkglue import cache_dir, direct_entry, grammar_source, line_parser, load_grammar, make_parser
from hhparse.memo import remember
from hhparse.model import (
    Bet,
    Bounty,
    Call,
    Cards,
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
    Game,
    Hand,
    HandCancelled,
    Header,
    HoleCardsMarker,
    Muck,
    NoLowHand,
    ParseWarning,
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
from hhparse.model import replace as replace_record
from hhparse.money import OUT_OF_RANGE, SYMBOLS, parse_amount
from hhparse.resources import read_text
from hhparse.rules.spec import LABELS
from hhparse.rules.variants import BETTINGS, Variant
from hhparse.splitter import (
    BLOCK_BINARY,
    BLOCK_HAND,
    BLOCK_PREAMBLE,
    BLOCK_SUMMARY,
    HEADER_RE,
    Block,
    is_separator,
    split_file,
    split_path,
    split_text,
)

__all__ = ["parse_block", "parse_block_hashable", "parse_file", "parse_path", "parse_text"]

# ------------------------------------------------------------------------------------------
# The parts of lines the grammar leaves open: the header's body (game, stakes, tournament)
# ------------------------------------------------------------------------------------------

#: An amount as printed: the grammar's ``AMT`` (``grammars/common.lark``), for the parts of a line
#: the grammar leaves open (a header's stakes, a summary seat's winnings, the side pots).
_AMT: Final = re.search(r"^AMT: /(.*)/$", read_text("grammars", "common.lark"), re.M)[1]  # type: ignore[index]
_CASH_RE: Final = re.compile(
    rf"^(?P<game>.+?) \((?P<sb>{_AMT})/(?P<bb>{_AMT})(?: - (?P<cap>{_AMT}) Cap -)?(?: +(?P<cur>[A-Z]{{3}}))?\)$"
)
_TOUR_RE: Final = re.compile(
    r"^(?:\{(?P<club>[^}]*)\} )?(?P<zoom>Zoom )?Tournament #(?P<tid>\d+), "
    r"(?P<buyin>Freeroll|\S+(?: [A-Z]{2,3})?) +(?P<game>.+?) - "
    r"(?:Match Round (?P<round>[IVXLCDM]+), )?Level (?P<level>[IVXLCDM]+) "
    r"\((?P<sb>[\d,]+)/(?P<bb>[\d,]+)\)$"
)
#: A mixed game's cash header holds the stakes inside the wrapper's parentheses:
#: ``Mixed NLH/PLO (Omaha Pot Limit, $0.10/$0.25 USD)``, ``HORSE (Omaha Hi/Lo Limit, $2/$4)``.
_MIXED_CASH_RE: Final = re.compile(
    rf"^(?P<mixed>[^()]+?) \((?P<game>[^()]+?), (?P<sb>{_AMT})/(?P<bb>{_AMT})(?: - (?P<cap>{_AMT}) Cap -)?"
    rf"(?: +(?P<cur>[A-Z]{{3}}))?\)$"
)
#: Italian tables print the regulator's id after the game and stakes: ``... USD) [AAMS ID: 1A2B3C] - 2013/...``.
_REGULATOR_RE: Final = re.compile(r" \[(?P<reg>(?:AAMS|ADM) ID: [^\]]+)\]$")
#: A Home Game cash hand names its club before the game: ``{Club #4837790} Omaha Pot Limit (...)``.
_CLUB_RE: Final = re.compile(r"^\{(?P<club>[^}]*)\} +")
_MIXED_RE: Final = re.compile(r"^(?P<mixed>[^()]+?) \((?P<inner>[^()]+)\)$")
#: Game words -> variant, and structure words -> structure: from the table of games.
_VARIANTS: Final[dict[str, Variant]] = LABELS
_STRUCTURES: Final[dict[str, Structure]] = {b.label: b.structure for b in BETTINGS}
_GAME_RE: Final = re.compile(
    rf"^(?P<name>.+?) (?P<struct>{'|'.join(re.escape(w) for w in sorted(_STRUCTURES, key=len, reverse=True))})$"
)

#: Printed zone abbreviation -> IANA zone (with DST rules, which PokerStars applies while
#: printing the standard abbreviation).
TIME_ZONES: dict[str, str] = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "AT": "America/Halifax",
    "NT": "America/St_Johns",
    "AKT": "America/Anchorage",
    "HT": "Pacific/Honolulu",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "WET": "Europe/Lisbon",
    "GMT": "Europe/London",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AET": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "UTC": "UTC",
}

# ------------------------------------------------------------------------------------------
# Table events, and the parts of summary lines the grammar leaves open
# ------------------------------------------------------------------------------------------

#: A carry-over pot (``Starting Pot: 120 chips.``) holds chips no player of the hand put in: the
#: referee cannot prove such a pot, so the hand is refused with this reason (no real hand shows one).
_STARTING_POT = "carry-over pot ('Starting Pot: ...') not supported: the pot would hold chips no player of this hand put in"
#: The table events in the order they are told apart (the first whose shape matches wins), each
#: with its grammar fragment (``EV_*``: what follows the player's name, fields as named groups).
_EVENT_SHAPES: Final[tuple[tuple[str, str, TableEventKind], ...]] = (
    ("EV_CHAT", " ", TableEventKind.CHAT),
    ("EV_JOINS", " ", TableEventKind.JOINS),
    ("EV_LEAVES", " ", TableEventKind.LEAVES),
    ("EV_SITS_OUT", ": ", TableEventKind.SITS_OUT),
    ("EV_IS_SITTING_OUT", ": ", TableEventKind.IS_SITTING_OUT_COLON),
    ("EV_IS_SITTING_OUT", " ", TableEventKind.IS_SITTING_OUT),
    ("EV_TIMED_OUT_DISCONNECTED", " ", TableEventKind.TIMED_OUT_DISCONNECTED),
    ("EV_TIMED_OUT_BEING_DISCONNECTED", " ", TableEventKind.TIMED_OUT_BEING_DISCONNECTED),
    ("EV_TIMED_OUT", " ", TableEventKind.TIMED_OUT),
    ("EV_DISCONNECTED", " ", TableEventKind.DISCONNECTED),
    ("EV_CONNECTED", " ", TableEventKind.CONNECTED),
    ("EV_RETURNED", " ", TableEventKind.RETURNED),
    ("EV_ALLOWED_AFTER_BUTTON", " ", TableEventKind.ALLOWED_AFTER_BUTTON),
    ("EV_REMOVED", " ", TableEventKind.REMOVED),
    ("EV_CASHED_OUT", " ", TableEventKind.CASHED_OUT),
    ("EV_BETTING_CAPPED", "", TableEventKind.BETTING_CAPPED),
    ("EV_REBUY", " ", TableEventKind.REBUY),
    ("EV_ADD_ON", " ", TableEventKind.ADD_ON),
    ("EV_WINS", " ", TableEventKind.WINS),
    ("EV_TREATED_ALL_IN", ": ", TableEventKind.TREATED_ALL_IN_COLON),
    ("EV_TREATED_ALL_IN", " ", TableEventKind.TREATED_ALL_IN),
)


def _event_shape(fragment: str, sep: str, kind: TableEventKind) -> re.Pattern[str]:
    """A table event line: the player's name, ``sep``, then its kind's fragment (as
    ``EVENT_LINE`` in the grammar); a chat line takes the shortest name (the longest seated one
    is preferred later), ``Betting is capped`` (no ``sep``) names no one."""
    if not sep:
        return re.compile(fragment + "\n")
    name = "(?P<name>[^\n]+?)" if kind is TableEventKind.CHAT else "(?P<name>[^\n]+)"
    return re.compile(name + sep + fragment + "\n")


#: The pots of a ``Total pot`` line between the total and the rake, when there are side pots
#: (the grammar's line shape leaves that part open): `` Main pot $10. Side pot-1 $4. ``.
_POTS_RE: Final = re.compile(rf" Main pot (?P<main>{_AMT})\.(?P<sides>.*) ")
_SIDE_RE: Final = re.compile(rf" Side pot(?:-(?P<n>\d+))? (?P<amt>{_AMT})\.")
_WON_RE: Final = re.compile(rf",? and won \((?P<amt>{_AMT})\)(?: with (?P<desc>.*?))?(?=, and won \(|$)")
#: One clause of a showed line when run twice: ``and won ($X) with D`` or ``and lost with D``,
#: the first after the cards, the next ones after ", " (``showed [..] and lost with two pair,
#: Aces and Sixes, and won ($8385.36) with a pair of Aces``). A description never holds ", and ".
_CLAUSE_RE: Final = re.compile(
    rf"(?:^|, )and (?:won \((?P<amt>{_AMT})\)|(?P<lost>lost))(?: with (?P<desc>.*?))?(?=, and (?:won \(|lost)|$)"
)
_FOLDED_RE: Final = re.compile(
    r"^ folded (?:before Flop|on the (?P<street>Flop|Turn|River))(?P<db> \(didn't bet\))?$"
)
_SHOWED_RE: Final = re.compile(r"^ showed \[(?P<cards>[^\]]*)\] and (?P<res>won|lost)(?P<rest>.*)$")
_MUCKED_RE: Final = re.compile(r"^ mucked(?: \[(?P<cards>[^\]]*)\])?(?: - (?P<desc>.+))?$")
_COLLECTED_RE: Final = re.compile(rf"^ collected \((?P<amt>{_AMT})\)$")
_STREETS: Final = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_RUNS: Final = {None: 0, "FIRST": 1, "SECOND": 2}
_HAND_ID_RE: Final = re.compile(r"(?:Hand|Game) #(\d+):")

_TRAILING_WS_RE: Final = re.compile(r"[ \t\r]+$", re.M)


def _literal_start(pattern: str) -> str:
    """The literal text every match of the regex ``pattern`` starts with ("" if none is sure).

    Why: a table event line is told apart by trying each kind's shape in turn
    (:meth:`_Builder._event`), each a regex scanning the whole line for its fragment; a line
    without the text a shape's fragment starts with cannot be of that shape, and a substring test
    is far cheaper than the regex that fails. Stops at the first character with a meaning to
    the regex; a character a quantifier follows is not sure; a top-level alternative means none.
    """
    if _top_level_alternative(pattern):
        return ""
    out: list[str] = []
    for i, ch in enumerate(pattern):
        if ch in _REGEX_SPECIAL or (i + 1 < len(pattern) and pattern[i + 1] in "?*{"):
            break
        out.append(ch)
    return "".join(out)


_REGEX_SPECIAL: Final = frozenset("\\.^$*+?{}[]|()")


def _top_level_alternative(pattern: str) -> bool:
    """Whether ``pattern`` has a ``|`` outside every group and character class."""
    depth = 0
    in_class = False
    escaped = False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and not depth:
            return True
    return False


class _Problem(Exception):
    """A line the grammar accepted but whose fields do not make sense (bad amount, unknown name).

    Raised only outside the transformer (see :meth:`_Builder.start`), never through lark.
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


#: The bracketed groups of a street line's board and the cards in one (the board may be printed in
#: the 2016 client's mangled forms, so the grammar's shape leaves the brackets' contents open).
_BRACKET_RE: Final = re.compile(r"\[([^\]]*)\]")
_CARD_RE: Final = re.compile(r"[2-9TJQKA][cdhs]")
_RANKS: Final = frozenset("23456789TJQKA")
_SUITS: Final = frozenset("cdhs")
_CARD_SET: Final = frozenset(r + s for r in _RANKS for s in _SUITS)  # a card is one of these 52 strings
_POST_KINDS: Final = {k.value: k for k in PostKind}
_STREET_NAMES: Final = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}


def _brackets(rest: str) -> tuple[list[str], bool]:
    """``_BRACKET_RE.findall(rest)`` for a street line's board (the grammar's ``rest`` field: it
    starts with ``[`` and ends with ``]``), and whether ``rest`` is known to be those groups'
    plain form (``[a b c]`` or ``[a b c] [d]``, nothing outside the brackets).

    Why: nearly every board is one of the two plain forms, read here with two searches where
    the regex's scan and a rebuilt text compared with ``rest`` cost more; any other text (the
    2016 client's mangled forms, damage) goes to the regex as before. A text with one ``]``,
    its last character, is one group (whatever ``[`` it holds: the regex's group stops only at
    ``]``); one whose first ``]`` is followed by `` [`` and whose only other ``]`` is its last
    character is two (``tests/test_parse_shortcuts.py`` compares both on random texts)."""
    close = rest.find("]")
    last = len(rest) - 1
    if rest[:1] == "[" and last > 0 and rest[last] == "]":
        if close == last:
            return [rest[1:last]], True
        if rest.startswith("] [", close) and rest.find("]", close + 1) == last:
            return [rest[1:close], rest[close + 3 : last]], True
    return _BRACKET_RE.findall(rest), False


def _two(rx: re.Pattern[str], a: str, b: str) -> tuple[int, int]:
    """The numbers of fields ``a`` and ``b`` of ``rx`` (read by number: :class:`_Builder`)."""
    g = rx.groupindex
    return g[a], g[b]


def _three(rx: re.Pattern[str], a: str, b: str, c: str) -> tuple[int, int, int]:
    g = rx.groupindex
    return g[a], g[b], g[c]


def _four(rx: re.Pattern[str], a: str, b: str, c: str, d: str) -> tuple[int, int, int, int]:
    g = rx.groupindex
    return g[a], g[b], g[c], g[d]


def _numbers(rx: re.Pattern[str], names: tuple[str, ...]) -> tuple[int, ...]:
    """The numbers of fields ``names`` of ``rx``, in that order."""
    return tuple(rx.groupindex[n] for n in names)


#: The header's fields, in the order :func:`_header` reads them.
_HEADER_FIELDS: Final = (
    "site",
    "kind",
    "id",
    "body",
    "date",
    "time",
    "tz_paren",
    "tz",
    "et_date",
    "et_time",
    "reg_end",
)


def _six(rx: re.Pattern[str], *names: str) -> tuple[int, int, int, int, int, int]:
    g = rx.groupindex
    a, b, c, d, e, f = (g[n] for n in names)
    return a, b, c, d, e, f


def _cards(text: str) -> Cards | None:
    """``"Ah Kd"`` -> ("Ah", "Kd"); None when the text is not a clean card list."""
    if not text:
        return ()
    parts = tuple(text.split(" "))
    for c in parts:
        if c not in _CARD_SET:
            return None
    return parts


#: Amount text -> value. Hands repeat the same few amounts (blinds, bets, stacks), so a small
#: memo turns most amount reads into one dict lookup; it is bounded (cleared when full) so the
#: memory stays flat however large the file.
_AMOUNTS: Final[dict[str, int]] = {}
_AMOUNTS_MAX: Final = 4096

SMALL_LIMIT: Final = 10_000
"""Seat, table-size, button and pot numbers are below this (real ones stay under a dozen)."""
_SMALL: Final = "number out of range"


#: The seat and pot numbers as printed (``"1"`` to ``"99"``, no leading zero) -> their values:
#: a dict look-up where ``int`` would parse the text on every seat and summary seat line.
_SMALL_NUMBERS: Final[dict[str, int]] = {str(n): n for n in range(1, 100)}


def _small_problem(text: str) -> str:
    return f"{_SMALL}: {text[:40]!r} (seat, table size, button and pot numbers are below {SMALL_LIMIT:,})"


def _amount(text: str) -> int:
    """:func:`~hhparse.money.parse_amount`, memoised. Raises ValueError like it."""
    value = _AMOUNTS.get(text)
    if value is None:
        value = parse_amount(text)
        remember(_AMOUNTS, _AMOUNTS_MAX, text, value)
    return value


# ------------------------------------------------------------------------------------------
# The inline transformer
# ------------------------------------------------------------------------------------------


class _Builder:
    """Lark inline transformer: one method per rule alias, called while the LALR parser reduces.

    The grammar is shaped so that every line is exactly one reduction whose callback is one of
    these methods, called with ``[previous, token]``: the method reads the line and appends
    what it means to the hand being built (so no parse tree, no intermediate objects, no
    dispatch). Stateful per hand (reset by :meth:`begin`): it knows the line offset of the block
    and the seated names, and records problems instead of raising (exceptions raised inside
    lark callbacks come back wrapped and lose their meaning).
    """

    def __init__(self, shapes: dict[str, str]) -> None:
        # each line's fields, read from the grammar's terminal for that line (its named groups:
        # see :func:`hhparse.larkglue.load_grammar`); a token of that terminal always matches
        self.header_re = re.compile(shapes["HEADER_FIELDS"])
        self.table_words_re = re.compile(shapes["TABLE_WORDS"])
        # the header's, the table line's and its words' fields by number (as the lines below)
        self.header_g = _numbers(self.header_re, _HEADER_FIELDS)
        self.words_g = _numbers(self.table_words_re, ("stealth", "max", "stealth2", "play"))
        self.amt_re = re.compile(shapes["AMT"])
        self.terms = {name: re.compile(shapes[name]) for name in _LINE_TERMINALS}
        self.sseat_re = self.terms["SSEAT"]
        # the player's name is the first field of every line naming a player first: read by
        # number (a name look-up per line saved); checked here, so another grammar still reads
        self.name_group: int | str = "name"
        if all(self.terms[t].groupindex.get("name") == 1 for t in _NAME_FIRST):
            self.name_group = 1
        # the fields of the frequent lines by number (``m[2], m[3]``: the names are looked up
        # once here, not in the match's group index at every line), each read by subscript:
        # ``m.group(2, 3)`` is a method looked up by name, its numbers packed in a tuple and its
        # fields returned in another, where ``m[2]`` is one C call a field
        t = self.terms
        self.seat_g = _six(t["SEAT"], "seat", "name", "stack", "bounty", "out", "reason")
        self.post_g = _three(t["POST"], "kind", "amt", "allin")
        self.call_g = _three(t["CALL"], "amt", "allin", "cap")
        self.bet_g = _three(t["BET"], "amt", "allin", "cap")
        self.raise_g = _four(t["RAISE"], "by", "to", "allin", "cap")
        self.collect_g = _three(t["COLLECT"], "amt", "pot", "n")
        self.street_g = _three(t["STREET"], "run", "street", "rest")
        self.show_g = _two(t["SHOW"], "cards", "desc")
        self.sseat_g = _two(t["SSEAT"], "seat", "rest")
        self.total_g = _three(t["TOTAL"], "total", "pots", "rake")
        self.fold_cards: int = t["FOLD"].groupindex["cards"]
        self.dealt_cards: int = t["DEALT"].groupindex["cards"]
        self.board_cards: int = t["BOARD"].groupindex["cards"]
        self.uncalled_amt: int = t["UNCALLED"].groupindex["amt"]
        self.table_g = _numbers(t["TABLE"], ("name", "button", "won", "words"))
        # each shape with the text its lines must hold (its separator and its fragment's start)
        self.event_shapes = [
            (sep + _literal_start(shapes[f]), _event_shape(shapes[f], sep, kind), kind)
            for f, sep, kind in _EVENT_SHAPES
        ]
        self.header_memo: tuple[str, re.Match[str] | None] = ("", None)
        self.begin("<text>", 0)

    def begin(self, source: str, offset: int) -> None:
        self.source = source
        self.offset = offset
        self.run = 0
        self.problems: list[tuple[int, str]] = []
        self.warnings: list[ParseWarning] = []
        self.head: tuple[Any, Any] | None = None
        self.seats: list[Seat] = []
        self.seated: set[str] = set()
        self.names: list[str] | None = None  # seated names, longest first (chat lines only)
        self.events: list[Event] = []
        self.boards_dealt = 0  # 1 once a street is dealt, 2 once a board is run twice
        self.cancelled_seen = False
        # summary section
        self.by_number: dict[int, str] | None = None
        self.pot_total: int | None = None
        self.main: int | None = None
        self.rake: int | None = None
        self.total_line: int | None = None
        self.sides: list[int] = []
        self.numbered = False
        self.run_twice_seen = False
        self.boards: list[Cards] = []
        self.board_lines: list[int] = []
        self.sseats: list[SummarySeat] = []

    def line_callbacks(self) -> dict[str, Callable[[Any], None]]:
        """Each rule of one line after the lines before it (``plays: plays FOLD -> fold``), by
        alias, with the method that reads the line's token alone (``read_fold``): the driver
        calls it instead of the rule's method (which calls it with its second child, never
        reading the first), without building a children list for every line. None of them
        keeps the token (only what it reads of it): the driver lends one token to every line,
        refilled (:class:`~hhparse.lalr.LineParser`)."""
        return {name: getattr(self, f"read_{name}") for name in _LINE_RULES}

    # -- helpers --------------------------------------------------------------------------
    def _at(self, tok: Any) -> int:
        """The file line of a token: the block's offset plus the token's line in the block (the
        driver's token is read natively, lark's through its attribute)."""
        if isinstance(tok, LineToken):
            return self.offset + tok.line
        line: int = tok.line
        return self.offset + line

    def _line(self, tok: Any) -> tuple[str, int]:
        if isinstance(tok, LineToken):
            return tok.value[:-1], self.offset + tok.line
        value: str = tok.value
        return value[:-1], self._at(tok)

    def _amt(self, text: str, line: int) -> int:
        """An amount of this line (memoised: :func:`_amount`); a bad one is a problem of the line."""
        value = _AMOUNTS.get(text)
        if value is not None:
            return value
        try:
            return _amount(text)
        except ValueError as exc:
            self.problems.append((line, str(exc)))
            return 0

    def _opt_amt(self, text: str | None, line: int) -> int | None:
        """An optional amount of this line (a cap, a bounty, a prize): None when absent."""
        return self._amt(text, line) if text else None

    def _small(self, text: str, line: int) -> int:
        """A seat or pot number: below :data:`SMALL_LIMIT` (what the warehouse's columns hold)."""
        known = _SMALL_NUMBERS.get(text)
        if known is not None:
            return known
        number = int(text) if len(text) <= 6 else SMALL_LIMIT
        if number >= SMALL_LIMIT:
            self.problems.append((line, _small_problem(text)))
            return 0
        return number

    def _place(self, text: str, line: int) -> int:
        """A finishing place: any number a tournament can have (below a billion)."""
        if len(text) > 9:
            self.problems.append((line, f"{_SMALL}: {text[:40]!r} (a place is below 1,000,000,000)"))
            return 0
        return int(text)

    def _match(self, tok: Any) -> re.Match[str] | None:
        """A line token's match against its terminal's regex: its fields. The driver lexed the
        line with that regex and hands its match over (:class:`~hhparse.lalr.LineToken`); a
        lark token is matched again. The lexer took the line for that terminal, so this is None
        only if the grammar and the builder disagree."""
        if isinstance(tok, LineToken):
            known = tok.match
            if known is not None:
                return known
        value: str = tok.value
        rx = self.terms[tok.type]
        m = _FIELDS.get(value)  # lines recur ("X: folds", a blind, a bet): read once
        if m is None or m.re is not rx:
            m = rx.match(value)
            if m is None:
                return None
            remember(_FIELDS, _FIELDS_MAX, value, m)
        return m

    def _fields(self, tok: Any) -> tuple[re.Match[str] | None, int]:
        """:meth:`_match` and the token's file line (no match: a problem of the line, not a crash)."""
        if isinstance(tok, LineToken):
            known = tok.match
            if known is not None:  # the driver's token: read directly
                return known, self.offset + tok.line
        line = self._at(tok)
        m = self._match(tok)
        if m is None:
            self.problems.append((line, "unrecognised line"))
        return m, line

    def _player_fields(self, tok: Any, first: bool = True) -> tuple[re.Match[str] | None, int, str]:
        """:meth:`_fields` of a play line naming a player in its ``name`` field, who must be
        seated (table events may name anyone), and that name ("" without a match: the record
        takes it from here, so the field is read once); ``first``: a line of
        :data:`_NAME_FIRST`. The driver's token (nearly every line) is read directly: its match
        and line are what :meth:`_fields` would return."""
        m: re.Match[str] | None
        if isinstance(tok, LineToken) and tok.match is not None:
            m, line = tok.match, self.offset + tok.line
        else:
            m, line = self._fields(tok)
        name = ""
        if m is not None:
            name = m[self.name_group] if first else m["name"]
            if name not in self.seated:
                self.problems.append((line, f"player {name!r} has no seat line"))
        return m, line, name

    def _card_list(self, text: str | None, line: int) -> Cards:
        if text is None:
            return ()
        cards = _cards(text)
        if cards is None:
            self.problems.append((line, f"bad cards [{text}]"))
            return ()
        return cards

    # -- header / table / seats -----------------------------------------------------------
    def first_seat(self, c: list[Any]) -> None:
        self.head = (c[0], c[1])
        self._seat(c[2])

    def first_seat_after(self, c: list[Any]) -> None:
        self.head = (c[0], c[1])
        self._seat(c[3])

    def seat(self, c: list[Any]) -> None:
        self.read_seat(c[1])

    def read_seat(self, tok: Any) -> None:
        self._seat(tok)

    def _seat(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is None:
            return
        g1, g2, g3, g4, g5, g6 = self.seat_g
        # (typed: the compiled builder slices and looks up the texts as ``str``, not as objects)
        number: str
        name: str
        stack: str
        bounty: str | None
        out: str | None
        reason: str | None
        number, name, stack, bounty, out, reason = m[g1], m[g2], m[g3], m[g4], m[g5], m[g6]
        # the lexer takes any "(... in chips)" for a seat line, so that a damaged one is said to
        # be unrecognised where it stands; its amounts are the grammar's AMT
        # (every text the amount memo holds is one: it only keeps amounts of AMT fields)
        amt = self.amt_re
        if stack[-1:] != " ":
            self.problems.append((line, "unrecognised line"))
            return
        stack = stack[:-1]
        known = _AMOUNTS.get(stack)
        if (known is None and amt.fullmatch(stack) is None) or (
            bounty is not None and bounty not in _AMOUNTS and amt.fullmatch(bounty) is None
        ):
            self.problems.append((line, "unrecognised line"))
            return
        seat = Seat(
            self._small(number, line),
            name,
            known if known is not None else self._amt(stack, line),
            line,
            self._opt_amt(bounty, line),
            out is not None,
            reason,
        )
        self.seats.append(seat)
        self.seated.add(name)

    # -- play -----------------------------------------------------------------------------
    # Each play line reads its fields from its terminal's shape and checks its player is seated
    # (:meth:`_player_fields`), and reads its amounts through the memo (:meth:`_amt`).

    def no_plays(self, c: list[Any]) -> None:
        return None

    def post(self, c: list[Any]) -> None:
        self.read_post(c[1])

    def read_post(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            g1, g2, g3 = self.post_g
            kind, amt, allin = m[g1], m[g2], m[g3]
            self.events.append(
                PostBlind(line, name, _POST_KINDS[kind], self._amt(amt, line), allin is not None)
            )

    def hole(self, c: list[Any]) -> None:
        self.read_hole(c[1])

    def read_hole(self, tok: Any) -> None:
        self.events.append(HoleCardsMarker(self._at(tok)))

    def dealt(self, c: list[Any]) -> None:
        self.read_dealt(c[1])

    def read_dealt(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            self.events.append(DealHole(line, name, self._card_list(m[self.dealt_cards], line)))

    def expose(self, c: list[Any]) -> None:
        self.read_expose(c[1])

    def read_expose(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is not None:
            self.events.append(ExposeCard(line, m["cards"], False))

    def expose_bug(self, c: list[Any]) -> None:
        self.read_expose_bug(c[1])

    def read_expose_bug(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is not None:
            self.warnings.append(
                ParseWarning(
                    "courchevel-2016-board", line, "PokerStars 2016 client bug: mangled PRE-FLOP line"
                )
            )
            self.events.append(ExposeCard(line, m["cards"], True))

    def street(self, c: list[Any]) -> None:
        self.read_street(c[1])

    def read_street(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is None:
            return
        g1, g2, g3 = self.street_g
        run, name, rest = m[g1], m[g2], m[g3]
        street = _STREET_NAMES[name]
        groups, plain_shape = _brackets(rest)
        form = FlopForm.PLAIN
        cards: Cards | None
        n = len(groups)
        if street is Street.FLOP and n == 2:
            first, second = _cards(groups[0]), _cards(groups[1])
            if first is not None and len(first) == 1 and second is not None and len(second) == 2:
                form, cards = FlopForm.SPLIT, first + second
            else:
                found = tuple(_CARD_RE.findall(groups[1]))
                if first is not None and len(first) == 1 and len(found) == 3 and found[0] == first[0]:
                    form, cards = FlopForm.BUG_2016, found
                    self.warnings.append(
                        ParseWarning(
                            "courchevel-2016-board",
                            line,
                            f"PokerStars 2016 client bug: flop printed as {rest}, read as [{' '.join(found)}]",
                        )
                    )
                else:
                    cards = None
        elif street is Street.FLOP and n == 1:
            cards = _cards(groups[0])
        elif street is not Street.FLOP and n == 2:
            a, b = _cards(groups[0]), _cards(groups[1])
            cards = a + b if a is not None and b is not None and len(b) == 1 else None
        else:
            cards = None
        # nothing but blanks may stand outside the brackets (the usual shapes are checked
        # without a regex: "[a b c]" and "[a b c] [d]")
        if cards is not None and n in (1, 2):
            plain = plain_shape or (
                rest == f"[{groups[0]}]" if n == 1 else rest == f"[{groups[0]}] [{groups[1]}]"
            )
        else:
            plain = False
        if cards is None or (not plain and "".join(_BRACKET_RE.sub("", rest).split())):
            self.problems.append((line, f"bad board {rest}"))
            cards = ()
        self.events.append(DealBoard(line, street, cards, _RUNS[run], form))
        self.boards_dealt = 2 if run else (self.boards_dealt or 1)

    def fold(self, c: list[Any]) -> None:
        self.read_fold(c[1])

    def read_fold(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            self.events.append(Fold(line, name, self._card_list(m[self.fold_cards], line)))

    def check(self, c: list[Any]) -> None:
        self.read_check(c[1])

    def read_check(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            self.events.append(Check(line, name))

    def call(self, c: list[Any]) -> None:
        self.read_call(c[1])

    def read_call(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            g1, g2, g3 = self.call_g
            amt, allin, cap = m[g1], m[g2], m[g3]
            self.events.append(
                Call(line, name, self._amt(amt, line), allin is not None, self._opt_amt(cap, line))
            )

    def bet(self, c: list[Any]) -> None:
        self.read_bet(c[1])

    def read_bet(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            g1, g2, g3 = self.bet_g
            amt, allin, cap = m[g1], m[g2], m[g3]
            self.events.append(
                Bet(line, name, self._amt(amt, line), allin is not None, self._opt_amt(cap, line))
            )

    def raise_(self, c: list[Any]) -> None:
        self.read_raise_(c[1])

    def read_raise_(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            g1, g2, g3, g4 = self.raise_g
            by, to, allin, cap = m[g1], m[g2], m[g3], m[g4]
            self.events.append(
                Raise(
                    line,
                    name,
                    self._amt(by, line),
                    self._amt(to, line),
                    allin is not None,
                    self._opt_amt(cap, line),
                )
            )

    def uncalled(self, c: list[Any]) -> None:
        self.read_uncalled(c[1])

    def read_uncalled(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok, False)
        if m is not None:
            self.events.append(UncalledBet(line, name, self._amt(m[self.uncalled_amt], line)))

    def showdown(self, c: list[Any]) -> None:
        self.read_showdown(c[1])

    def read_showdown(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is not None:
            self.run = _RUNS[m["run"]]
            self.events.append(ShowdownMarker(line, self.run))

    def show(self, c: list[Any]) -> None:
        self.read_show(c[1])

    def read_show(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is None:
            return
        g1, g2 = self.show_g
        cards, desc = m[g1], m[g2]
        hi: str | None = desc
        lo: str | None = None
        if desc is not None and desc.startswith("HI: "):
            hi, sep, low = desc[4:].partition("; LO: ")
            lo = low if sep else None
        self.events.append(Show(line, name, self._card_list(cards, line), desc, hi, lo))

    def muck(self, c: list[Any]) -> None:
        self.read_muck(c[1])

    def read_muck(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            self.events.append(Muck(line, name))

    def noshow(self, c: list[Any]) -> None:
        self.read_noshow(c[1])

    def read_noshow(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is not None:
            self.events.append(DoesNotShow(line, name))

    def collect(self, c: list[Any]) -> None:
        self.read_collect(c[1])

    def read_collect(self, tok: Any) -> None:
        m, line, name = self._player_fields(tok)
        if m is None:
            return
        g1, g2, g3 = self.collect_g
        amt, label, n = m[g1], m[g2], m[g3]
        pot = self._small(n, line) if n else (1 if label == "side pot" else 0)
        self.events.append(Collect(line, name, self._amt(amt, line), pot, label, self.run))

    def nolow(self, c: list[Any]) -> None:
        self.read_nolow(c[1])

    def read_nolow(self, tok: Any) -> None:
        self.events.append(NoLowHand(self._at(tok)))

    def cancelled(self, c: list[Any]) -> None:
        self.read_cancelled(c[1])

    def read_cancelled(self, tok: Any) -> None:
        self.events.append(HandCancelled(self._at(tok)))
        self.cancelled_seen = True

    def bounty(self, c: list[Any]) -> None:
        self.read_bounty(c[1])

    def read_bounty(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is None:
            return
        winners = tuple(m["w"].split(", ")) if m["verb"] == "split" else (m["w"],)
        self.events.append(
            Bounty(
                line,
                winners,
                self._amt(m["amt"], line),
                m["elim"],
                progressive=m["bword"] is None,
                split=m["how"].startswith("splitting"),
                increase=self._opt_amt(m["inc"], line),
                new_bounty=self._opt_amt(m["new"], line),
            )
        )

    def finished(self, c: list[Any]) -> None:
        self.read_finished(c[1])

    def read_finished(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is None:
            return
        place = m["place"]
        self.events.append(
            Finished(
                line, m["name"], self._place(place, line) if place else None, self._opt_amt(m["prize"], line)
            )
        )

    def twon(self, c: list[Any]) -> None:
        self.read_twon(c[1])

    def read_twon(self, tok: Any) -> None:
        m, line = self._fields(tok)
        if m is not None:
            prize = m["prize"]
            self.events.append(TournamentWon(line, m["name"], self._opt_amt(prize, line), prize or ""))

    def event(self, c: list[Any]) -> None:
        self.read_event(c[1])

    def read_event(self, tok: Any) -> None:
        self._event(tok)

    def pre_event(self, c: list[Any]) -> None:
        self._pre_event(c[0])

    def pre_event_next(self, c: list[Any]) -> None:
        self.read_pre_event_next(c[1])

    def read_pre_event_next(self, tok: Any) -> None:
        self._pre_event(tok)

    def _pre_event(self, tok: Any) -> None:
        """A line between the table line and the seat lines: a re-buy or an add-on made before the
        hand (already in the seat stacks), nothing else."""
        kind = self._event(tok)
        if kind is not None and kind is not TableEventKind.REBUY and kind is not TableEventKind.ADD_ON:
            self.problems.append((self._at(tok), "only re-buys and add-ons stand before the seat lines"))

    def _event(self, tok: Any) -> TableEventKind | None:
        text, line = self._line(tok)
        if text.startswith("Starting Pot: "):
            self.problems.append((line, _STARTING_POT))
            return None
        for needle, rx, kind in self.event_shapes:
            if needle not in text:
                continue
            m = rx.match(tok.value)
            if m is None:
                continue
            groups = m.groupdict()
            name = groups.get("name") or ""
            if kind is TableEventKind.CHAT:
                # a name may contain ' said, "': prefer the longest seated name that fits
                if self.names is None:
                    self.names = sorted((s.player for s in self.seats), key=len, reverse=True)
                for seated in self.names:
                    if text.startswith(seated + ' said, "'):
                        name = seated
                        break
                self.events.append(TableEvent(line, name, kind, text[len(name) + 8 : -1]))
                return kind
            amt, fee, seat = groups.get("amt") or groups.get("chips"), groups.get("fee"), groups.get("seat")
            self.events.append(
                TableEvent(
                    line,
                    name,
                    kind,
                    groups.get("text") or "",
                    self._small(seat, line) if seat else None,
                    self._opt_amt(amt, line),
                    self._opt_amt(fee, line),
                )
            )
            return kind
        self.problems.append((line, "unrecognised table event"))
        return None

    # -- summary --------------------------------------------------------------------------
    def no_sitems(self, c: list[Any]) -> None:
        return None

    def total(self, c: list[Any]) -> None:
        self.read_total(c[1])

    def read_total(self, tok: Any) -> None:
        data, ln = self._fields(tok)
        if data is None:
            return
        g1, g2, g3 = self.total_g
        total, pots, rake = data[g1], data[g2], data[g3]
        main: str | None = None
        rest = ""
        if pots != " ":
            pm = _POTS_RE.fullmatch(pots)
            if pm is None:
                self.problems.append((ln, "unrecognised line"))
                return
            main, rest = pm.group("main", "sides")
        self.total_line = ln
        self.pot_total = self._amt(total, ln)
        self.rake = self._amt(rake, ln)
        if main:
            self.main = self._amt(main, ln)
            for sm in _SIDE_RE.finditer(rest):
                self.sides.append(self._amt(sm["amt"], ln))
                self.numbered = self.numbered or sm["n"] is not None
            if _SIDE_RE.sub("", rest):
                self.problems.append((ln, "bad side pot list"))

    def run_twice(self, c: list[Any]) -> None:
        self.read_run_twice(c[1])

    def read_run_twice(self, tok: Any) -> None:
        self.run_twice_seen = True

    def board(self, c: list[Any]) -> None:
        self.read_board(c[1])

    def read_board(self, tok: Any) -> None:
        m, ln = self._fields(tok)
        if m is not None:
            self.boards.append(self._card_list(m[self.board_cards], ln))
            self.board_lines.append(ln)

    def sseat(self, c: list[Any]) -> None:
        self.read_sseat(c[1])

    def read_sseat(self, tok: Any) -> None:
        line = self._at(tok)
        if self.by_number is None:
            self.by_number = {s.seat: s.player for s in self.seats}
        m = self._match(tok)
        if m is None:
            self.problems.append((line, "unrecognised summary line"))
            return
        g1, g2 = self.sseat_g
        seat, rest = m[g1], m[g2]
        ss = self._summary_seat(line, seat, rest, self.by_number)
        if ss is not None:
            self.sseats.append(ss)

    def summary_gap(self) -> str | None:
        """What the summary read so far lacks, or None when it is whole.

        The room prints, for a hand that was not cancelled, ``Total pot``, one ``Board`` line per
        board dealt (none when the hand ended before the flop), and one ``Seat N:`` line for every
        player with a seat line, sitting out or not (every real hand: 14 of 14 sitting-out players
        have theirs), except one marked ``out of hand`` (moved in from another table), who may have
        one or not. A summary without one of these was cut short (a file cut in the summary, a hand
        still being written): it is never refereed as if whole."""
        if self.cancelled_seen:
            return None  # "Hand cancelled": no Total pot, the poster's line alone
        dealt = self.boards_dealt
        if self.total_line is None:
            return "no 'Total pot' line"
        if len(self.boards) < dealt:
            return "no Board line" if not self.boards else "no SECOND Board line"
        present = {ss.seat for ss in self.sseats}
        missing = [s for s in self.seats if s.out_of_hand is None and s.seat not in present]
        if missing:
            seats = ", ".join(f"{s.seat} ({s.player})" for s in missing)
            return f"no summary line for seat{'s' if len(missing) > 1 else ''} {seats}"
        return None

    # -- the hand -------------------------------------------------------------------------
    def start(self, c: list[Any]) -> Hand | None:
        """Assemble the hand from what the line callbacks built.

        Returns None when problems were recorded (the caller reports them).
        """
        assert self.head is not None
        header_text, header_line = self._line(self.head[0])
        table_line = self._at(self.head[1])
        summary_line: int = self._at(c[2])
        memo_text, memo = self.header_memo
        m = memo if memo_text == header_text else self.header_re.fullmatch(header_text)
        table = self._match(self.head[1])
        words: re.Match[str] | None = None
        if table is not None:
            text: str = table[self.table_g[3]]
            words = _WORDS.get(text)
            if words is None:
                words = self.table_words_re.fullmatch(text)
                if words is not None:
                    remember(_WORDS, _WORDS_MAX, text, words)
        try:
            header = _header(m, header_line, table, words, table_line, self)
        except _Problem as p:
            self.problems.append((p.line, p.message))
            return None
        if self.problems:
            return None
        summary = Summary(
            summary_line,
            self.pot_total,
            self.main,
            tuple(self.sides),
            self.numbered,
            self.rake,
            self.total_line,
            self.run_twice_seen,
            tuple(self.boards),
            tuple(self.board_lines),
            tuple(self.sseats),
        )
        return Hand(
            self.source,
            header_line,
            header,
            tuple(self.seats),
            tuple(self.events),
            summary,
            tuple(self.warnings),
        )

    def _summary_seat(self, line: int, seat: str, rest: str, by_number: dict[int, str]) -> SummarySeat | None:
        """``Seat N: rest``: the seat's player, then the outcome."""
        number = self._small(seat, line)
        name = by_number.get(number)
        # (``rest == name or rest.startswith(name + " ")``, without a copy of the name)
        if name is None or not (rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] == " ")):
            self.problems.append((line, f"summary seat {number} does not name the player of seat {number}"))
            return None
        rest = rest[len(name) :]
        outcome = _OUTCOMES.get(rest)
        if outcome is None:
            before = len(self.problems)
            outcome = self._outcome(line, rest)
            if outcome is None:
                return None
            if len(self.problems) == before:  # only clean readings are shared between lines
                remember(_OUTCOMES, _OUTCOMES_MAX, rest, outcome)
        button, small, big, result, folded, didnt_bet, cards, won, descs, cashed, pot_na, clauses = outcome
        ss = SummarySeat(
            line,
            number,
            name,
            button,
            small,
            big,
            result,
            folded,
            didnt_bet,
            cards,
            won,
            descs,
            cashed,
            pot_na,
            clauses,
        )
        return ss

    def _outcome(self, line: int, rest: str) -> _Outcome | None:
        """What follows the name on a summary seat line: markers, outcome, cash-out notes."""
        button = small = big = False
        while rest.startswith(" ("):
            if rest.startswith(" (button)"):
                button, rest = True, rest[9:]
            elif rest.startswith(" (small blind)"):
                small, rest = True, rest[14:]
            elif rest.startswith(" (big blind)"):
                big, rest = True, rest[12:]
            else:
                break
        cashed = pot_na = False
        if rest.endswith(" (cashed out)"):
            cashed, rest = True, rest[: -len(" (cashed out)")]
        elif rest.endswith(" (cashed out)."):  # real hand 212598594281 (2020) ends it with a period
            cashed, rest = True, rest[: -len(" (cashed out).")]
        elif rest.endswith(" (pot not awarded as player cashed out)"):
            pot_na, rest = True, rest[: -len(" (pot not awarded as player cashed out)")]
        outcome = SeatOutcome.NOTHING
        folded: Street | None = None
        didnt_bet = False
        cards: Cards = ()
        won: tuple[int, ...] = ()
        descs: tuple[str, ...] = ()
        if rest:
            m = _FOLDED_RE.match(rest)
            if m is not None:
                outcome = SeatOutcome.FOLDED
                folded = _STREETS[m["street"]] if m["street"] else Street.PREFLOP
                didnt_bet = m["db"] is not None
            elif (m := _COLLECTED_RE.match(rest)) is not None:
                outcome, won = SeatOutcome.COLLECTED, (self._amt(m["amt"], line),)
            elif (m := _MUCKED_RE.match(rest)) is not None:
                outcome, cards = SeatOutcome.MUCKED, self._card_list(m["cards"], line)
                if m["desc"] is not None:  # "mucked [As Qd Kc 2h] - a pair of Kings" (run twice: ", <hand>")
                    descs = (m["desc"],)
            elif (m := _SHOWED_RE.match(rest)) is not None:
                cards = self._card_list(m["cards"], line)
                tail = m["rest"]
                if ", and won (" in tail or ", and lost" in tail:  # one clause per board, run it twice
                    return self._clauses(line, button, small, big, cards, m["res"], tail, cashed, pot_na)
                if m["res"] == "lost":
                    tail = m["rest"]
                    if tail and not tail.startswith(" with "):
                        self.problems.append((line, "unrecognised summary seat outcome"))
                        return None
                    outcome, descs = SeatOutcome.SHOWED_LOST, (tail[6:],) if tail else ()
                else:
                    tail = " and won" + m["rest"]
                    wins = list(_WON_RE.finditer(tail))
                    if not wins or "".join(x.group(0) for x in wins) != tail:
                        self.problems.append((line, "unrecognised summary seat outcome"))
                        return None
                    outcome = SeatOutcome.SHOWED_WON
                    won = tuple(self._amt(x["amt"], line) for x in wins)
                    descs = tuple(x["desc"] or "" for x in wins)
            else:
                self.problems.append((line, "unrecognised summary seat outcome"))
                return None
        return (button, small, big, outcome, folded, didnt_bet, cards, won, descs, cashed, pot_na, ())

    def _clauses(
        self,
        line: int,
        button: bool,
        small: bool,
        big: bool,
        cards: Cards,
        first: str,
        tail: str,
        cashed: bool,
        pot_na: bool,
    ) -> _Outcome | None:
        """A showed line with one clause per board (run it twice): ``and won ($X) with D`` or
        ``and lost with D``, in board order; a player may lose one board and win the other
        (``... and lost with two pair, Aces and Sixes, and won ($8385.36) with a pair of Aces``,
        *observed* 2015, and the mirror form)."""
        text = "and " + first + tail
        parts = list(_CLAUSE_RE.finditer(text))
        if not parts or "".join(x.group(0) for x in parts) != text:
            self.problems.append((line, "unrecognised summary seat outcome"))
            return None
        clauses = tuple(x["lost"] is None for x in parts)
        won = tuple(self._amt(x["amt"], line) for x in parts if x["lost"] is None)
        descs = tuple(x["desc"] or "" for x in parts)
        outcome = SeatOutcome.SHOWED_WON if won else SeatOutcome.SHOWED_LOST
        return (button, small, big, outcome, None, False, cards, won, descs, cashed, pot_na, clauses)


#: The rules ``items: items LINE`` whose method reads the line alone (:meth:`_Builder.line_callbacks`).
_LINE_RULES: Final = (
    "seat",
    "post",
    "hole",
    "dealt",
    "expose",
    "expose_bug",
    "street",
    "fold",
    "check",
    "call",
    "bet",
    "raise_",
    "uncalled",
    "showdown",
    "show",
    "muck",
    "noshow",
    "collect",
    "nolow",
    "cancelled",
    "bounty",
    "finished",
    "twon",
    "event",
    "pre_event_next",
    "total",
    "run_twice",
    "board",
    "sseat",
)

#: The play lines whose first field is the player's name (:meth:`_Builder._player_fields`).
_NAME_FIRST: Final = (
    "POST",
    "DEALT",
    "FOLD",
    "CHECK",
    "CALL",
    "BET",
    "RAISE",
    "SHOW",
    "MUCK",
    "NOSHOW",
    "COLLECT",
)

#: The line terminals whose fields the builder reads (named groups of the grammar), by token type.
_LINE_TERMINALS: Final = (
    "SEAT",
    "TABLE",
    "POST",
    "DEALT",
    "EXPOSE",
    "EXPOSE_BUG",
    "STREET",
    "FOLD",
    "CHECK",
    "CALL",
    "BET",
    "RAISE",
    "UNCALLED",
    "SHOWDOWN",
    "SHOW",
    "MUCK",
    "NOSHOW",
    "COLLECT",
    "BOUNTY",
    "FINISHED",
    "TWON",
    "TOTAL",
    "BOARD",
    "SSEAT",
)
#: The terminals whose regex the builder reads fields with (:func:`hhparse.larkglue.load_grammar`):
#: the line terminals, and the parts of lines it reads apart (a header's fields, the table line's
#: words, amounts, the kinds of table events).
_SHAPES: Final = (
    "AMT",
    "HEADER_FIELDS",
    "TABLE_WORDS",
    *_LINE_TERMINALS,
    *sorted({fragment for fragment, _, _ in _EVENT_SHAPES}),
)
#: A line -> its fields (the match of its terminal's shape, which it keeps: ``m.re``); bounded
#: like the other memos.
_FIELDS: Final[dict[str, re.Match[str]]] = {}
_FIELDS_MAX: Final = 4096
#: A summary seat line after the name -> its reading (the SummarySeat fields after the player).
#: "(button) folded before Flop" and friends repeat endlessly; bounded like the amount memo.
_Outcome = tuple[
    bool,
    bool,
    bool,
    SeatOutcome,
    "Street | None",
    bool,
    Cards,
    tuple[int, ...],
    tuple[str, ...],
    bool,
    bool,
    tuple[bool, ...],
]
_OUTCOMES: Final[dict[str, _Outcome]] = {}
_OUTCOMES_MAX: Final = 4096
#: The words of a table line between its name and its button (``6-max ``, ``(Play Money) ``)
#: -> their fields (the match of ``TABLE_WORDS``, which reads only them): a file repeats a few.
_WORDS: Final[dict[str, re.Match[str]]] = {}
_WORDS_MAX: Final = 1024


# ------------------------------------------------------------------------------------------
# Header
# ------------------------------------------------------------------------------------------


class UnsupportedGame(Exception):
    """The header names a game this parser does not read (Hold'em, Stud, ...)."""

    def __init__(self, game: str, hand_id: str) -> None:
        super().__init__(game)
        self.game = game
        self.hand_id = hand_id


def _game(label: str, line: int, hand_id: str) -> tuple[Game, bool, Structure, str, str | None]:
    """``"8-Game (Omaha Hi/Lo Limit)"`` -> (omaha, True, FIXED_LIMIT, "Omaha Hi/Lo Limit", "8-Game")."""
    mixed: str | None = None
    inner = label
    mm = _MIXED_RE.match(label)
    if mm is not None:
        mixed, inner = mm["mixed"], mm["inner"]
    gm = _GAME_RE.match(inner)
    variant = _VARIANTS.get(gm["name"]) if gm is not None else None
    if gm is None or variant is None:
        raise UnsupportedGame(inner, hand_id)
    return variant.game, variant.low is not None, _STRUCTURES[gm["struct"]], inner, mixed


def _stamp(date: str, time: str) -> datetime:
    """``"2013/03/29", "17:16:11"`` -> naive datetime (the header regex fixed the shapes).

    Same result and same ValueError on impossible values as ``strptime("%Y/%m/%d %H:%M:%S")``,
    without its per-call format parsing.
    """
    if len(date) == 10 and len(time) == 8 and date.isascii() and time.isascii():
        return datetime.fromisoformat(f"{date[:4]}-{date[5:7]}-{date[8:]}T{time}")
    y, mo, d = date.split("/")
    h, mi, s = time.split(":")
    return datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))


_ZONES: Final[dict[str, ZoneInfo]] = {}

#: (IANA zone, the date's text, the hour's text) -> the zone's offset from UTC all that local
#: hour. The hands of a file come from a few zones and hours, and converting through the zone
#: costs more than the rest of the date; only hours whose first and last second have the offset
#: the hand's own time has are kept (never an hour a change of offset falls in), so the result
#: is the zone's for every time of a kept hour. Bounded like the amount memo.
_OFFSETS: Final[dict[tuple[str, str, str], timedelta]] = {}
_OFFSETS_MAX: Final = 4096


def _zone(name: str) -> ZoneInfo:
    zone = _ZONES.get(name)
    if zone is None:
        zone = _ZONES[name] = ZoneInfo(name)
    return zone


def _utc(local: datetime, zone: str, date: str, time: str) -> datetime:
    """``local.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)`` (``date`` and ``time``: the texts
    ``local`` was read from), through :data:`_OFFSETS`. Raises what that raises."""
    if local.fold:  # (never from a header's text; a caller's fold=1 must not fill the memo)
        return local.replace(tzinfo=_zone(zone)).astimezone(UTC)
    key = (zone, date, time[: time.index(":")])
    offset = _OFFSETS.get(key)
    if offset is not None:
        # ``(local - offset).replace(tzinfo=UTC)``, the same value: ``replace`` parses all its
        # keywords on every call, ``combine`` takes the two halves as they are
        return datetime.combine(local.date(), local.time(), UTC) - offset
    info = _zone(zone)
    at = local.replace(tzinfo=info)
    utc = at.astimezone(UTC)
    offset = at.utcoffset()
    if (
        offset is not None
        and at.replace(minute=0, second=0).utcoffset() == offset
        and at.replace(minute=59, second=59).utcoffset() == offset
    ):
        remember(_OFFSETS, _OFFSETS_MAX, key, offset)
    return utc


#: What the header body (game, stakes, tournament) says, keyed by the body text. A file repeats
#: the same few bodies, so each is read once; bounded like the amount memo. Only bodies that read
#: without error are kept, so errors always come from the code below with the hand's own details.
_Stakes = tuple[
    Game,
    bool,
    Structure,
    str,
    "str | None",
    "Tournament | None",
    "str | None",
    str,
    int,
    int,
    "int | None",
    "str | None",
    "str | None",
]
_BODIES: Final[dict[str, _Stakes]] = {}
_BODIES_MAX: Final = 1024


def _split_regulator(body: str) -> tuple[str, str | None]:
    """``"Omaha Pot Limit (€0.05/€0.10 EUR) [AAMS ID: 1A2B]"`` -> the body without it, ``"AAMS ID: 1A2B"``."""
    if body[-1:] != "]":
        return body, None
    rm = _REGULATOR_RE.search(body)
    if rm is None:
        return body, None
    return body[: rm.start()], rm["reg"]


def _label(body: str) -> str | None:
    """The game words of a header body, for telling another game before the hand is parsed:
    ``Omaha Pot Limit``, ``8-Game (Omaha Hi/Lo Limit)``, ``Mixed NLH/PLO (Hold'em No Limit)``."""
    body = _split_regulator(body)[0]
    tm = _TOUR_RE.match(body)
    if tm is not None:
        return tm["game"]
    club = _CLUB_RE.match(body)
    if club is not None:
        body = body[club.end() :]
    cm = _CASH_RE.match(body)
    if cm is not None:
        return cm["game"]
    mm = _MIXED_CASH_RE.match(body)
    if mm is not None:
        return f"{mm['mixed']} ({mm['game']})"
    gm = re.match(r"^(.+?) \(", body)
    return gm[1] if gm is not None else None


def _body(body: str, line: int, hand_id: str) -> _Stakes:
    known = _BODIES.get(body)
    if known is not None:
        return known
    full = body
    body, regulator = _split_regulator(body)
    tm = _TOUR_RE.match(body)
    tournament: Tournament | None = None
    currency: str | None
    cap: int | None = None
    club: str | None = None
    if tm is not None:
        game, hilo, struct, label, mixed = _game(tm["game"], line, hand_id)
        buyin = tm["buyin"]
        parts_text, _, code = buyin.partition(" ")
        parts: tuple[int, ...] = ()
        if buyin != "Freeroll":
            try:
                parts = tuple(parse_amount(p) for p in parts_text.split("+"))
            except ValueError as exc:
                parts = ()
                if str(exc).startswith(OUT_OF_RANGE):
                    raise _Problem(line, str(exc)) from None
                if not parts_text.endswith("FPP"):
                    raise _Problem(line, f"unrecognised buy-in {buyin!r}") from None
        bcur = code if code and code not in ("SC", "FPP") and parts_text[:1] in SYMBOLS else None
        tournament = Tournament(
            tournament_id=tm["tid"],
            buyin_parts=parts,
            buyin_currency=bcur,
            buyin_label=buyin,
            level=tm["level"],
            zoom=tm["zoom"] is not None,
            home_game_club=tm["club"],
            match_round=tm["round"],
        )
        try:
            sb, bb = parse_amount(tm["sb"]), parse_amount(tm["bb"])
        except ValueError as exc:
            raise _Problem(line, str(exc)) from None
        currency, symbol = None, ""
    else:
        clm = _CLUB_RE.match(body)
        if clm is not None:
            club, body = clm["club"], body[clm.end() :]
        cm = _CASH_RE.match(body)
        game_words: str
        if cm is not None:
            game_words = cm["game"]
        else:
            cm = _MIXED_CASH_RE.match(body)
            if cm is None:
                gm = re.match(r"^(.+?) \(", body)
                if gm is not None and _GAME_RE.match(gm[1]):
                    _game(gm[1], line, hand_id)  # raises UnsupportedGame for other games
                raise _Problem(line, "unrecognised game/stakes in hand header")
            game_words = f"{cm['mixed']} ({cm['game']})"
        game, hilo, struct, label, mixed = _game(game_words, line, hand_id)
        sb_text = cm["sb"]
        symbol = sb_text[0] if sb_text[0] in SYMBOLS else ""
        try:
            sb, bb = parse_amount(sb_text), parse_amount(cm["bb"])
            cap = parse_amount(cm["cap"]) if cm["cap"] else None
        except ValueError as exc:
            message = str(exc) if str(exc).startswith(OUT_OF_RANGE) else "bad stakes in hand header"
            raise _Problem(line, message) from None
        currency = cm["cur"]
    stakes: _Stakes = (
        game,
        hilo,
        struct,
        label,
        mixed,
        tournament,
        currency,
        symbol,
        sb,
        bb,
        cap,
        regulator,
        club,
    )
    remember(_BODIES, _BODIES_MAX, full, stakes)
    return stakes


def _header(
    m: re.Match[str] | None,
    line: int,
    table: re.Match[str] | None,
    words: re.Match[str] | None,
    table_line: int,
    builder: _Builder,
) -> Header:
    """Read the header and table lines from their fields (grammar: ``HEADER_FIELDS``, ``TABLE``
    and ``TABLE_WORDS``, read by number: ``builder``'s ``header_g``, ``table_g`` and
    ``words_g``); None where the line does not have that shape."""
    if m is None:
        raise _Problem(line, "unrecognised hand header")
    h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11 = builder.header_g
    site, kind, hand_id, body, date, time, tz_paren, tz, et_date, et_time, reg_end = (
        m[h1],
        m[h2],
        m[h3],
        m[h4],
        m[h5],
        m[h6],
        m[h7],
        m[h8],
        m[h9],
        m[h10],
        m[h11],
    )
    game, hilo, struct, label, mixed, tournament, currency, symbol, sb, bb, cap, regulator, club = _body(
        body, line, hand_id
    )
    tz = tz or tz_paren
    try:  # (a date the calendar or the clock does not have is a located problem, not a crash)
        local = _stamp(date, time)
        et = _stamp(et_date, et_time) if et_date else None
        if et is not None:
            utc = _utc(et, "America/New_York", et_date, et_time)
        elif tz in TIME_ZONES:
            utc = _utc(local, TIME_ZONES[tz], date, time)
        else:
            raise _Problem(line, f"unknown time zone {tz!r}")
    except (ValueError, OverflowError):
        raise _Problem(line, "impossible date or time in hand header") from None
    if table is None or words is None:
        raise _Problem(table_line, "unrecognised table line")
    t1, t2, t3, _ = builder.table_g
    name, button, won = table[t1], table[t2], table[t3]
    w1, w2, w3, w4 = builder.words_g
    stealth, max_seats, stealth2, play = words[w1], words[w2], words[w3], words[w4]
    for number in (max_seats, button):
        if number and (len(number) > 6 or int(number) >= SMALL_LIMIT):
            raise _Problem(table_line, _small_problem(number))
    return Header(
        site,
        kind,
        hand_id,
        game,
        hilo,
        struct,
        label,
        mixed,
        currency,
        symbol,
        sb,
        bb,
        cap,
        tournament,
        local,
        tz,
        et,
        utc,
        name,
        int(max_seats) if max_seats else None,
        play is not None,
        int(button),
        line,
        regulator or reg_end,
        stealth is not None or stealth2 is not None,
        won is not None,
        club,
    )


# ------------------------------------------------------------------------------------------
# Parser construction (once per process)
# ------------------------------------------------------------------------------------------

_LOCK = threading.Lock()

_PARSER: Any = None
_BUILDER: _Builder | None = None
#: The compiled driver over ``_PARSER``'s tables (None: lark parses everything).
_DRIVER: LineParser | None = None
#: Which back end :func:`_parser` builds: see :func:`use_backend`.
_BACKEND = "driver"
BACKENDS = ("driver", "lark", "lark-cython")


def grammar_text() -> str:
    """The grammar as lark reads it: pokerstars.lark with the shared terminals appended."""
    return read_text("grammars", "pokerstars.lark") + "\n" + read_text("grammars", "common.lark")


_ENTRY: tuple[Any, Callable[[str], Any]] = (None, lambda text: None)


def _set_entry(lark: Any) -> Callable[[str], Any]:
    global _ENTRY
    _ENTRY = (lark, direct_entry(lark))
    return _ENTRY[1]


def _build(backend: str) -> None:
    """Build the process-wide parser. ``driver``: pure lark (for what the driver rejects, so
    errors are lark's) plus the compiled driver over its tables; if the driver cannot be built
    from this lark, lark alone with lark-cython when installed. ``lark``/``lark-cython``: that
    lark back end alone. The driver's lark parser is kept across processes in hhparse's cache
    folder (:func:`hhparse.larkglue.cache_dir`): a process loads it instead of building it."""
    global _PARSER, _BUILDER, _DRIVER
    driver: LineParser | None = None
    if backend == "driver":
        source, shapes = grammar_source(grammar_text(), _SHAPES, cache_dir())
        builder = _Builder(shapes)
        lark = make_parser(source, builder, cython=False)
        driver = line_parser(lark, fields=shapes, lines=builder.line_callbacks())
        if driver is None:
            lark = make_parser(load_grammar(grammar_text(), _SHAPES)[0], builder)
    else:
        grammar, shapes = load_grammar(grammar_text(), _SHAPES)
        builder = _Builder(shapes)
        lark = make_parser(grammar, builder, cython=backend == "lark-cython")
    _PARSER, _BUILDER, _DRIVER = lark, builder, driver


def _builder() -> _Builder:
    """The process-wide builder (its line shapes are the grammar's), built with the parser."""
    builder = _BUILDER
    if builder is None:
        with _LOCK:
            builder = _parser()[1]
    return builder


def _parser() -> tuple[Any, _Builder]:
    if _PARSER is None or _BUILDER is None:
        _build(_BACKEND)
    assert _BUILDER is not None
    return _PARSER, _BUILDER


def use_backend(backend: str) -> None:
    """Rebuild the process-wide parser with another back end (benchmarks, tests): ``driver``
    (the default), or lark alone, pure (``lark``) or with ``lark-cython``."""
    global _BACKEND
    if backend not in BACKENDS:
        raise ValueError(f"unknown parser back end {backend!r} (one of {', '.join(BACKENDS)})")
    with _LOCK:
        _BACKEND = backend
        _build(backend)


# ------------------------------------------------------------------------------------------
# Public API
# ------------------------------------------------------------------------------------------


def _err(
    block: Block,
    code: str,
    message: str,
    rel_line: int,
    column: int,
    hand_id: str | None,
    game: str | None = None,
) -> ParseError:
    lines = block.text.split("\n")
    text = lines[rel_line - 1] if 0 < rel_line <= len(lines) else ""
    return ParseError(
        code=code,
        message=message,
        source=block.source,
        line=block.line + rel_line - 1,
        column=column,
        hand_id=hand_id,
        text=text.rstrip(),
        block=block.text,
        block_line=block.line,
        game=game,
    )


def parse_block(block: Block) -> Hand | ParseError:
    """Parse one block from the splitter into a Hand, or a located ParseError."""
    return parse_block_hashable(block)[0]


def parse_block_hashable(block: Block) -> tuple[Hand | ParseError, str]:
    """:func:`parse_block`, with the block's text as the warehouse's content hash reads it
    (:func:`hhparse.tables.build.normalise_text`) when the parse made exactly that text on its
    way, as it does for nearly every hand (else "").

    Why: both take the trailing blanks off the whole text (one ``replace`` and a few scans, a
    real hand's lines mostly end in a blank); the import's worker hashes the parse's text
    instead of normalising the block a second time (:func:`_clean` says when they agree)."""
    early = _early_error(block)
    if early is not None:
        return early, ""
    text, hashable = _clean(block.text)
    return _parse_clean(block, text), text[:-1] if hashable else ""


def _early_error(block: Block) -> ParseError | None:
    """The error of a block that is no hand by its kind or the splitter's fault, else None."""
    if block.kind == BLOCK_BINARY:
        return _err(block, "binary-file", "binary file (NUL bytes): not a hand history", 1, 0, None)
    if block.kind == BLOCK_SUMMARY:
        return _err(block, "summary-file", "tournament summary file, not hand histories", 1, 0, None)
    fault = block.fault
    if fault is not None:  # NULs, a line or a hand too long: the splitter kept only what it must
        idm = _HAND_ID_RE.search(block.text[: block.text.find("\n")]) if block.kind == BLOCK_HAND else None
        line = fault.line - block.line + 1
        return _err(block, fault.code, fault.message, line, 1, idm[1] if idm else None)
    if block.kind == BLOCK_PREAMBLE:
        return _err(block, "no-header", "text before the first hand header is not a hand", 1, 1, None)
    return None


def _clean(raw: str) -> tuple[str, bool]:
    """The text the grammar reads (trailing blanks and blank lines gone, one line end last, no
    export separator lines after the hand), and whether it is, less its last line end,
    :func:`hhparse.tables.build.normalise_text` of ``raw`` (``tests/test_parse_hashable.py``).

    Trailing blanks go: "\r" and "\t" are rare anywhere, so the regex (which tries every
    position of the hand) only runs for them or for a line ending in several spaces; real files
    end many lines in one space, which one replace takes away. The content hash's normalising
    also takes off a BOM, form feeds, vertical tabs and leading line ends, which the grammar
    never sees in a hand: a text holding any of them is not called the same.

    Each step reads the text once: the replace is not preceded by a search for what it
    replaces (it hands back the text itself when there is none, and the steps after it leave a
    text without blanks at its line ends as it is), and a text already ending in one line end
    is not copied to end in one (``tests/test_parse_hashable.py`` compares this with the
    search-first steps on random texts)."""
    hashable = True
    if "\r" in raw or "\t" in raw:
        raw = _TRAILING_WS_RE.sub("", raw)
        hashable = False
    else:
        cut = raw.replace(" \n", "\n")
        if cut is not raw or raw[-1:] == " ":
            if " \n" in cut:
                cut = _TRAILING_WS_RE.sub("", cut)
                hashable = False
            raw = cut.rstrip(" ")
    text = raw if raw[-1:] == "\n" and raw[-2:-1] != "\n" else raw.rstrip("\n") + "\n"
    last = text.rfind("\n", 0, len(text) - 1) + 1
    if text[last : last + 1] == "*":
        cut = _without_separators(text)
        hashable = hashable and cut is text
        text = cut
    if hashable and (text[:1] == "\n" or text[:1] == "\ufeff" or "\f" in text or "\v" in text):
        hashable = False
    return text, hashable


def _hand_id(first: str, header: re.Match[str] | None) -> str | None:
    """The hand id of the header line ``first`` (the first ``Hand #N:`` or ``Game #N:`` in it),
    read from the header's own match when the line is a whole header.

    Why: a whole header's ``id`` field is that first occurrence (the site is one word and the
    kind's words hold no ``#`` before a digit), so searching the line a second time is spared on
    every hand; ``tests/test_parse_hashable.py`` compares both on random header lines."""
    if header is not None:
        return header["id"]
    idm = _HAND_ID_RE.search(first)
    return idm[1] if idm else None


def _parse_clean(block: Block, text: str) -> Hand | ParseError:
    """:func:`parse_block` of a hand's block whose text :func:`_clean` made ``text``."""
    first = text[: text.find("\n")]
    # unsupported games are recognised from the header before the grammar sees the hand
    m = _builder().header_re.fullmatch(first)
    hand_id = _hand_id(first, m)
    if m is None and HEADER_RE.match(first) is None:  # the splitter cut after a hand's blank lines
        return _err(
            block,
            "no-header",
            "text after a hand's blank lines, without a hand header of its own, is not a hand",
            1,
            1,
            None,
        )
    try:
        if m is not None and m["body"] not in _BODIES:
            label = _label(m["body"])
            if label:
                _game(label, 1, hand_id or "")
    except UnsupportedGame as u:
        return _err(block, "unsupported-game", f"unsupported game: {u.game}", 1, 1, hand_id, u.game)
    with _LOCK:
        parser, builder = _parser()
        lark, parse = _ENTRY
        if lark is not parser:
            parse = _set_entry(parser)
        builder.begin(block.source, block.line - 1)
        builder.header_memo = (first, m)
        try:
            driver = _DRIVER
            if driver is None:
                hand = parse(text)
            else:
                try:
                    hand = driver.parse(text)
                except Rejected:  # lark reads it again, from a clean builder, and says why
                    builder.begin(block.source, block.line - 1)
                    builder.header_memo = (first, m)
                    hand = parse(text)
        except UnexpectedInput as e:
            if "\n*** SUMMARY ***\n" not in text:
                return _truncated(block, text, hand_id)
            # a summary cut in its last line ("Total pot $24", "Board [4h Jc"): the text before that
            # line reads, and its summary is not whole
            if getattr(e, "line", None) == _last_line(text):
                head = text[: text.rstrip("\n").rfind("\n") + 1]
                builder.begin(block.source, block.line - 1)
                builder.header_memo = (first, m)
                try:
                    parse(head)
                except UnexpectedInput:
                    gap = None
                else:
                    gap = None if builder.problems else builder.summary_gap()
                if gap is not None:
                    return _truncated(block, text, hand_id, gap)
            return _syntax_error(block, text, e, hand_id)
        problems = list(builder.problems)
        gap = builder.summary_gap()
    # a summary that stops early, whole lines (or a last line cut short) missing: truncated, not
    # refereed (its seats or board would look wrong) and not a syntax error
    if gap is not None and (
        not problems or _cut_seat_line(builder, text, block.line + _last_line(text) - 1, problems)
    ):
        return _truncated(block, text, hand_id, gap)
    if problems or hand is None:
        line, message = min(problems) if problems else (block.line, "unreadable hand")
        code = "syntax"
        if message.startswith(OUT_OF_RANGE):
            code = "amount-out-of-range"
        elif message.startswith(_SMALL):
            code = "number-out-of-range"
        return _err(block, code, message, line - block.line + 1, 1, hand_id)
    assert isinstance(hand, Hand)
    if "\ufffd" in text:  # bytes no encoding could read: kept visible, and said
        at = block.line + text.count("\n", 0, text.index("\ufffd"))
        undecodable = ParseWarning("undecodable-bytes", at, "bytes neither UTF-8 nor cp1252 read as U+FFFD")
        hand = replace_record(hand, warnings=(*hand.warnings, undecodable))
    return hand


def _cut_seat_line(builder: _Builder, text: str, last: int, problems: list[tuple[int, str]]) -> bool:
    """Whether the problems are those of a last summary line cut short: ``Seat 3: Pla`` (the start
    of seat 3's player's name) or ``Seat 3: Player0 (button) (sm`` (the name, then an outcome that
    does not read). A whole line naming another player (``Seat 5: Player6 (didn't bet)``, a damaged
    hand) is not a cut one."""
    if any(line != last for line, _ in problems):
        return False
    line_text = text.rstrip("\n").rpartition("\n")[2]
    head = builder.sseat_re.match(line_text + "\n")
    if head is None:
        return False
    name = next((s.player for s in builder.seats if s.seat == int(head["seat"])), None)
    rest: str = head["rest"]
    return name is not None and (name.startswith(rest) or rest.startswith(name))


def _without_separators(text: str) -> str:
    """``text`` without the export separator lines (``*********** # 2 ***…``) ending it: the
    splitter leaves them at the end of the hand before; they belong to no hand."""
    while True:
        cut = text.rfind("\n", 0, len(text) - 1) + 1
        if not is_separator(text[cut:-1]):
            return text
        text = text[:cut].rstrip("\n") + "\n"
        if text == "\n":
            return text


def _last_line(text: str) -> int:
    """The line number (1-based, in the block) of the last line of ``text``."""
    return text.rstrip("\n").count("\n") + 1


def _truncated(block: Block, text: str, hand_id: str | None, gap: str | None = None) -> ParseError:
    """A hand whose text stops before its end (a file cut short, a hand still being written):
    before its summary, or inside it (``gap`` says what the summary lacks). One clear code,
    pointing at the last line there is, whatever that line looks like (it may be cut in the
    middle: ``*** FLOP *** [Js 3d``, ``Player0``, ``Total pot $24``)."""
    if gap is None:
        message = "truncated hand: the text stops here, before *** SUMMARY ***"
    else:
        message = f"truncated hand: the summary is incomplete ({gap})"
    return _err(block, "truncated-hand", message, _last_line(text), 1, hand_id)


def _syntax_error(block: Block, text: str, e: Any, hand_id: str | None) -> ParseError:
    """Turn a lark error into a user-facing located error."""
    has_summary = "\n*** SUMMARY ***\n" in text
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        nlines = text.count("\n")
        if not has_summary:
            return _err(block, "syntax", "truncated hand: no *** SUMMARY ***", nlines, 1, hand_id)
        return _err(block, "syntax", "truncated hand", nlines, 1, hand_id)
    line = int(e.line) if getattr(e, "line", None) not in (None, -1) else 1
    column = int(e.column) if getattr(e, "column", None) not in (None, -1) else 1
    before = "\n".join(text.split("\n")[: line - 1])
    if "*** SUMMARY ***" in before:
        message = "unexpected line after the summary"
    elif line == 1:
        message = "not a hand header"
    elif isinstance(e, UnexpectedToken):
        message = f"line out of place ({e.token.type.lower()} not allowed here)"
        if e.token.type == "SEAT":
            message = "seat line out of place"
        elif e.token.type == "HEADER":
            message = "hand header inside a hand"
    else:
        message = "unrecognised line"
    return _err(block, "syntax", message, line, column, hand_id)


def parse_blocks(blocks: Iterator[Block]) -> Iterator[Hand | ParseError]:
    for block in blocks:
        yield parse_block(block)


def parse_text(text: str, source: str = "<text>", first_line: int = 1) -> Iterator[Hand | ParseError]:
    """Parse every hand of ``text``; line numbers start at ``first_line``."""
    return parse_blocks(split_text(text, source, first_line))


def parse_file(path: str | Path) -> Iterator[Hand | ParseError]:
    """Parse every hand of one file (any size, streamed)."""
    return parse_blocks(split_file(path))


def parse_path(path: str | Path) -> Iterator[Hand | ParseError]:
    """Parse a file, a folder (recursive, sorted) or ``"-"`` (stdin)."""
    return parse_blocks(split_path(path))
