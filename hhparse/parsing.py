"""Text -> :class:`~hhparse.model.Hand`: the public parsing API.

Pipeline: :mod:`hhparse.splitter` cuts a file into blocks; each block goes through one LALR
parser (line-level terminals, contextual lexer) whose inline transformer builds model objects
while parsing: no parse tree is ever built. A hand that cannot be read becomes a
:class:`~hhparse.errors.ParseError` value with file, file line, column and the whole block, and
the next hand goes on. The parser never judges poker legality: that is the referee's job.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from lark.exceptions import UnexpectedInput, UnexpectedToken

from hhparse.errors import ParseError
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
from hhparse.money import SYMBOLS, parse_amount
from hhparse.resources import read_text
from hhparse.splitter import (
    BLOCK_BINARY,
    BLOCK_PREAMBLE,
    BLOCK_SUMMARY,
    Block,
    split_file,
    split_path,
    split_text,
)

__all__ = ["parse_block", "parse_file", "parse_path", "parse_text"]

# ------------------------------------------------------------------------------------------
# Header, table and seat lines (read with regexes: they are parsed once per hand)
# ------------------------------------------------------------------------------------------

_AMT = r"[$€£₹]?\d[\d,]*(?:\.\d+)?"
_HEADER_RE = re.compile(
    r"^(?P<site>[A-Za-z]\w*) (?P<kind>(?:[A-Za-z][A-Za-z' ]*? )?(?:Hand|Game)) #(?P<id>\d+): +"
    r"(?P<body>.*?) - (?P<date>\d{4}/\d{1,2}/\d{1,2})(?: -)? (?P<time>\d{1,2}:\d\d:\d\d)"
    r"(?: \((?P<tz_paren>[A-Z]+)\)| (?P<tz>[A-Z]+))"
    r"(?: \[(?P<et_date>\d{4}/\d{1,2}/\d{1,2}) (?P<et_time>\d{1,2}:\d\d:\d\d) ET\])?$"
)
_CASH_RE = re.compile(
    rf"^(?P<game>.+?) \((?P<sb>{_AMT})/(?P<bb>{_AMT})(?: - (?P<cap>{_AMT}) Cap -)?(?: +(?P<cur>[A-Z]{{3}}))?\)$"
)
_TOUR_RE = re.compile(
    r"^(?:\{(?P<club>[^}]*)\} )?(?P<zoom>Zoom )?Tournament #(?P<tid>\d+), "
    r"(?P<buyin>Freeroll|\S+(?: [A-Z]{2,3})?) +(?P<game>.+?) - "
    r"(?:Match Round (?P<round>[IVXLCDM]+), )?Level (?P<level>[IVXLCDM]+) "
    r"\((?P<sb>[\d,]+)/(?P<bb>[\d,]+)\)$"
)
_MIXED_RE = re.compile(r"^(?P<mixed>[^()]+?) \((?P<inner>[^()]+)\)$")
_GAME_RE = re.compile(r"^(?P<name>.+?) (?P<struct>Pot Limit|No Limit|Limit)$")
_GAMES: dict[str, tuple[Game, bool]] = {
    "Courchevel": (Game.COURCHEVEL, False),
    "Courchevel Hi/Lo": (Game.COURCHEVEL, True),
    "5 Card Omaha": (Game.FIVE_CARD_OMAHA, False),
    "5 Card Omaha Hi/Lo": (Game.FIVE_CARD_OMAHA, True),
    "Omaha": (Game.OMAHA, False),
    "Omaha Hi/Lo": (Game.OMAHA, True),
}
_STRUCTS = {"Pot Limit": "PL", "No Limit": "NL", "Limit": "FL"}
_CODES = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR"}

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

_TABLE_RE = re.compile(
    r"^Table '(?P<name>.*)' (?:(?P<max>\d+)-max )?(?P<play>\(Play Money\) )?Seat #(?P<button>\d+) is the button$"
)
_SEAT_RE = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_AMT}) in chips(?:, (?P<bounty>{_AMT}) bounty)?\)"
    r"(?: (?P<out>is sitting out)| out of hand \((?P<reason>.*)\))?$"
)

# ------------------------------------------------------------------------------------------
# Play and summary lines
# ------------------------------------------------------------------------------------------

_POST_RE = re.compile(
    rf"^(?P<name>.+): posts (?P<kind>small blind|big blind|small & big blinds|the ante) (?P<amt>{_AMT})"
    r"(?P<allin> and is all-in)?$"
)
_TAIL = rf"(?:(?P<allin> and is all-in)| and has reached the (?P<cap>{_AMT}) cap)?$"
_CALL_RE = re.compile(rf"^(?P<name>.+): calls (?P<amt>{_AMT}){_TAIL}")
_BET_RE = re.compile(rf"^(?P<name>.+): bets (?P<amt>{_AMT}){_TAIL}")
_RAISE_RE = re.compile(rf"^(?P<name>.+): raises (?P<by>{_AMT}) to (?P<to>{_AMT}){_TAIL}")
_FOLD_RE = re.compile(r"^(?P<name>.+): folds(?: \[(?P<cards>[^\]]*)\])?$")
_DEALT_RE = re.compile(r"^Dealt to (?P<name>.+?)(?: \[(?P<cards>[^\]]*)\])?$")
_BRACKET_RE = re.compile(r"\[([^\]]*)\]")
_CARD_RE = re.compile(r"[2-9TJQKA][cdhs]")
_STREET_RE = re.compile(
    r"^\*\*\* (?:(?P<run>FIRST|SECOND) )?(?P<street>FLOP|TURN|RIVER) \*\*\* (?P<rest>.*)$"
)
_SHOW_RE = re.compile(r"^(?P<name>.+?): shows \[(?P<cards>[^\]]*)\](?: \((?P<desc>.*)\))?$")
_COLLECT_RE = re.compile(
    rf"^(?P<name>.+) collected (?P<amt>{_AMT}) from (?P<pot>pot|main pot|side pot(?:-(?P<n>\d+))?)$"
)
_UNCALLED_RE = re.compile(rf"^Uncalled bet \((?P<amt>{_AMT})\) returned to (?P<name>.+)$")
_BOUNTY_RE = re.compile(
    rf"^(?P<w>.+) (?P<verb>wins|split) (?P<the>the )?(?P<amt>{_AMT})(?P<bword> bounty)? for "
    rf"(?P<how>splitting the elimination of|eliminating) (?P<elim>.+?)"
    rf"(?: and their own bounty increases by (?P<inc>{_AMT}) to (?P<new>{_AMT}))?$"
)
_FINISHED_RE = re.compile(
    rf"^(?P<name>.+) finished the tournament in (?P<place>\d+)(?:st|nd|rd|th) place"
    rf"(?: and received (?P<prize>{_AMT})\.)?$"
)
_TWON_RE = re.compile(
    rf"^(?P<name>.+) wins the tournament and receives (?P<prize>{_AMT}) - congratulations!$"
)
_EVENT_RES: tuple[tuple[re.Pattern[str], TableEventKind], ...] = (
    (re.compile(r'^(?P<name>.+?) said, "(?P<text>.*)"$'), TableEventKind.CHAT),
    (re.compile(r"^(?P<name>.+) joins the table at seat #(?P<seat>\d+)$"), TableEventKind.JOINS),
    (re.compile(r"^(?P<name>.+) leaves the table$"), TableEventKind.LEAVES),
    (re.compile(r"^(?P<name>.+): sits out$"), TableEventKind.SITS_OUT),
    (re.compile(r"^(?P<name>.+): is sitting out$"), TableEventKind.IS_SITTING_OUT_COLON),
    (re.compile(r"^(?P<name>.+) is sitting out$"), TableEventKind.IS_SITTING_OUT),
    (re.compile(r"^(?P<name>.+) has timed out while disconnected$"), TableEventKind.TIMED_OUT_DISCONNECTED),
    (
        re.compile(r"^(?P<name>.+) has timed out while being disconnected$"),
        TableEventKind.TIMED_OUT_BEING_DISCONNECTED,
    ),
    (re.compile(r"^(?P<name>.+) has timed out$"), TableEventKind.TIMED_OUT),
    (re.compile(r"^(?P<name>.+) is disconnected$"), TableEventKind.DISCONNECTED),
    (re.compile(r"^(?P<name>.+) is connected$"), TableEventKind.CONNECTED),
    (re.compile(r"^(?P<name>.+) has returned$"), TableEventKind.RETURNED),
    (
        re.compile(r"^(?P<name>.+) will be allowed to play after the button$"),
        TableEventKind.ALLOWED_AFTER_BUTTON,
    ),
    (re.compile(r"^(?P<name>.+) was removed from the table(?P<text>.*)$"), TableEventKind.REMOVED),
    (
        re.compile(
            rf"^(?P<name>.+) cashed out the hand for (?P<amt>{_AMT})(?: \| Cash Out Fee (?P<fee>{_AMT}))?$"
        ),
        TableEventKind.CASHED_OUT,
    ),
    (re.compile(r"^Betting is capped$"), TableEventKind.BETTING_CAPPED),
)
_TOTAL_RE = re.compile(
    rf"^Total pot (?P<total>{_AMT})(?: Main pot (?P<main>{_AMT})\.(?P<sides>.*?))? \| Rake (?P<rake>{_AMT})$"
)
_SIDE_RE = re.compile(rf" Side pot(?:-(?P<n>\d+))? (?P<amt>{_AMT})\.")
_BOARD_RE = re.compile(r"^(?:(?P<run>FIRST|SECOND) )?Board \[(?P<cards>[^\]]*)\]$")
_SSEAT_HEAD_RE = re.compile(r"^Seat (?P<seat>\d+): ")
_MARKERS = (" (button)", " (small blind)", " (big blind)")
_WON_RE = re.compile(rf",? and won \((?P<amt>{_AMT})\)(?: with (?P<desc>.*?))?(?=, and won \(|$)")
_FOLDED_RE = re.compile(
    r"^ folded (?:before Flop|on the (?P<street>Flop|Turn|River))(?P<db> \(didn't bet\))?$"
)
_SHOWED_RE = re.compile(r"^ showed \[(?P<cards>[^\]]*)\] and (?P<res>won|lost)(?P<rest>.*)$")
_MUCKED_RE = re.compile(r"^ mucked(?: \[(?P<cards>[^\]]*)\])?$")
_COLLECTED_RE = re.compile(rf"^ collected \((?P<amt>{_AMT})\)$")
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_RUNS = {None: 0, "FIRST": 1, "SECOND": 2}
_HAND_ID_RE = re.compile(r"(?:Hand|Game) #(\d+):")

_TRAILING_WS_RE = re.compile(r"[ \t\r]+$", re.M)


class _Problem(Exception):
    """A line the grammar accepted but whose fields do not make sense (bad amount, unknown name).

    Raised only outside the transformer (see :meth:`_Builder.start`), never through lark.
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _cards(text: str) -> Cards | None:
    """``"Ah Kd"`` -> ("Ah", "Kd"); None when the text is not a clean card list."""
    parts = tuple(text.split(" ")) if text else ()
    if all(len(c) == 2 and _CARD_RE.fullmatch(c) for c in parts):
        return parts
    return None


# ------------------------------------------------------------------------------------------
# The inline transformer
# ------------------------------------------------------------------------------------------


class _Builder:
    """Lark inline transformer: one method per rule alias, called while the LALR parser reduces.

    Stateful per hand (reset by :meth:`begin`): it knows the line offset of the block and the
    seated names, and records problems instead of raising (exceptions raised inside lark
    callbacks come back wrapped and lose their meaning).
    """

    def __init__(self) -> None:
        self.begin("<text>", 0)

    def begin(self, source: str, offset: int) -> None:
        self.source = source
        self.offset = offset
        self.run = 0
        self.problems: list[tuple[int, str]] = []
        self.warnings: list[ParseWarning] = []
        self.names: list[str] = []  # seated names, longest first once seats are known

    # -- helpers --------------------------------------------------------------------------
    def _line(self, tok: Any) -> tuple[str, int]:
        value: str = tok.value
        return value[:-1], self.offset + int(tok.line)

    def _amt(self, text: str, line: int) -> int:
        try:
            return parse_amount(text)
        except ValueError:
            self.problems.append((line, f"bad amount {text!r}"))
            return 0

    def _match(self, rx: re.Pattern[str], text: str, line: int) -> re.Match[str] | None:
        m = rx.match(text)
        if m is None:
            self.problems.append((line, "unrecognised line"))
        return m

    def _card_list(self, text: str | None, line: int) -> Cards:
        if text is None:
            return ()
        cards = _cards(text)
        if cards is None:
            self.problems.append((line, f"bad cards [{text}]"))
            return ()
        return cards

    # -- header / table / seats -----------------------------------------------------------
    def seat(self, tok: Any) -> Seat | None:
        text, line = self._line(tok)
        m = self._match(_SEAT_RE, text, line)
        if m is None:
            return None
        bounty = m["bounty"]
        return Seat(
            seat=int(m["seat"]),
            player=m["name"],
            stack=self._amt(m["stack"], line),
            line=line,
            bounty=self._amt(bounty, line) if bounty else None,
            sitting_out=m["out"] is not None,
            out_of_hand=m["reason"],
        )

    # -- play -----------------------------------------------------------------------------
    def post(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_POST_RE, text, line)
        if m is None:
            return None
        return PostBlind(
            line, m["name"], PostKind(m["kind"]), self._amt(m["amt"], line), m["allin"] is not None
        )

    def hole(self, tok: Any) -> Event:
        return HoleCardsMarker(self._line(tok)[1])

    def dealt(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_DEALT_RE, text, line)
        if m is None:
            return None
        return DealHole(line, m["name"], self._card_list(m["cards"], line))

    def expose(self, tok: Any) -> Event:
        text, line = self._line(tok)
        return ExposeCard(line, text[text.rindex("[") + 1 : -1])

    def expose_bug(self, tok: Any) -> Event:
        text, line = self._line(tok)
        self.warnings.append(
            ParseWarning("courchevel-2016-board", line, "PokerStars 2016 client bug: mangled PRE-FLOP line")
        )
        return ExposeCard(line, text[text.rindex("[") + 1 : -1], bug_2016=True)

    def street(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_STREET_RE, text, line)
        if m is None:
            return None
        street = Street[m["street"]]
        groups = _BRACKET_RE.findall(m["rest"])
        form = FlopForm.PLAIN
        cards: Cards | None
        if street is Street.FLOP and len(groups) == 2:
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
                            f"PokerStars 2016 client bug: flop printed as {m['rest']}, read as [{' '.join(found)}]",
                        )
                    )
                else:
                    cards = None
        elif street is Street.FLOP and len(groups) == 1:
            cards = _cards(groups[0])
        elif street is not Street.FLOP and len(groups) == 2:
            a, b = _cards(groups[0]), _cards(groups[1])
            cards = a + b if a is not None and b is not None and len(b) == 1 else None
        else:
            cards = None
        if cards is None or "".join(_BRACKET_RE.sub("", m["rest"]).split()):
            self.problems.append((line, f"bad board {m['rest']}"))
            cards = ()
        return DealBoard(line, street, cards, _RUNS[m["run"]], form)

    def fold(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_FOLD_RE, text, line)
        if m is None:
            return None
        return Fold(line, m["name"], self._card_list(m["cards"], line))

    def check(self, tok: Any) -> Event:
        text, line = self._line(tok)
        return Check(line, text[: -len(": checks")])

    def call(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_CALL_RE, text, line)
        if m is None:
            return None
        cap = m["cap"]
        return Call(
            line,
            m["name"],
            self._amt(m["amt"], line),
            m["allin"] is not None,
            self._amt(cap, line) if cap else None,
        )

    def bet(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_BET_RE, text, line)
        if m is None:
            return None
        cap = m["cap"]
        return Bet(
            line,
            m["name"],
            self._amt(m["amt"], line),
            m["allin"] is not None,
            self._amt(cap, line) if cap else None,
        )

    def raise_(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_RAISE_RE, text, line)
        if m is None:
            return None
        cap = m["cap"]
        return Raise(
            line,
            m["name"],
            self._amt(m["by"], line),
            self._amt(m["to"], line),
            m["allin"] is not None,
            self._amt(cap, line) if cap else None,
        )

    def uncalled(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_UNCALLED_RE, text, line)
        if m is None:
            return None
        return UncalledBet(line, m["name"], self._amt(m["amt"], line))

    def showdown(self, tok: Any) -> Event:
        text, line = self._line(tok)
        self.run = 1 if "FIRST" in text else 2 if "SECOND" in text else 0
        return ShowdownMarker(line, self.run)

    def show(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_SHOW_RE, text, line)
        if m is None:
            return None
        desc = m["desc"]
        hi: str | None = desc
        lo: str | None = None
        if desc is not None and desc.startswith("HI: "):
            hi, sep, low = desc[4:].partition("; LO: ")
            lo = low if sep else None
        return Show(line, m["name"], self._card_list(m["cards"], line), desc, hi, lo)

    def muck(self, tok: Any) -> Event:
        text, line = self._line(tok)
        return Muck(line, text[: -len(": mucks hand")])

    def noshow(self, tok: Any) -> Event:
        text, line = self._line(tok)
        return DoesNotShow(line, text[: -len(": doesn't show hand")])

    def collect(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_COLLECT_RE, text, line)
        if m is None:
            return None
        label = m["pot"]
        pot = int(m["n"]) if m["n"] else (1 if label == "side pot" else 0)
        return Collect(line, m["name"], self._amt(m["amt"], line), pot, label, self.run)

    def nolow(self, tok: Any) -> Event:
        return NoLowHand(self._line(tok)[1])

    def cancelled(self, tok: Any) -> Event:
        return HandCancelled(self._line(tok)[1])

    def bounty(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_BOUNTY_RE, text, line)
        if m is None:
            return None
        winners = tuple(m["w"].split(", ")) if m["verb"] == "split" else (m["w"],)
        inc, new = m["inc"], m["new"]
        return Bounty(
            line,
            winners,
            self._amt(m["amt"], line),
            m["elim"],
            progressive=m["bword"] is None,
            split=m["how"].startswith("splitting"),
            increase=self._amt(inc, line) if inc else None,
            new_bounty=self._amt(new, line) if new else None,
        )

    def finished(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_FINISHED_RE, text, line)
        if m is None:
            return None
        prize = m["prize"]
        return Finished(line, m["name"], int(m["place"]), self._amt(prize, line) if prize else None)

    def twon(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        m = self._match(_TWON_RE, text, line)
        if m is None:
            return None
        return TournamentWon(line, m["name"], self._amt(m["prize"], line), m["prize"])

    def event(self, tok: Any) -> Event | None:
        text, line = self._line(tok)
        for rx, kind in _EVENT_RES:
            m = rx.match(text)
            if m is None:
                continue
            groups = m.groupdict()
            name = groups.get("name") or ""
            if kind is TableEventKind.CHAT:
                # a name may contain ' said, "': prefer the longest seated name that fits
                for seated in self.names:
                    if text.startswith(seated + ' said, "'):
                        name = seated
                        break
                return TableEvent(line, name, kind, text[len(name) + 8 : -1])
            amt, fee, seat = groups.get("amt"), groups.get("fee"), groups.get("seat")
            return TableEvent(
                line,
                name,
                kind,
                groups.get("text") or "",
                int(seat) if seat else None,
                self._amt(amt, line) if amt else None,
                self._amt(fee, line) if fee else None,
            )
        self.problems.append((line, "unrecognised table event"))
        return None

    # -- summary --------------------------------------------------------------------------
    def total(self, tok: Any) -> tuple[str, int, re.Match[str] | None]:
        text, line = self._line(tok)
        return ("total", line, self._match(_TOTAL_RE, text, line))

    def run_twice(self, tok: Any) -> tuple[str, int, None]:
        return ("run_twice", self._line(tok)[1], None)

    def board(self, tok: Any) -> tuple[str, int, re.Match[str] | None]:
        text, line = self._line(tok)
        return ("board", line, self._match(_BOARD_RE, text, line))

    def sseat(self, tok: Any) -> tuple[str, int, str]:
        text, line = self._line(tok)
        return ("seat", line, text)

    # -- the hand -------------------------------------------------------------------------
    def start(self, c: list[Any]) -> Hand | None:
        """Assemble the hand from the line tokens, in order.

        Returns None when problems were recorded (the caller reports them).
        """
        header_text, header_line = self._line(c[0])
        table_text, table_line = self._line(c[1])
        seats: list[Seat] = []
        events: list[Event] = []
        sitems: list[Any] = []
        summary_line = 0
        for tok in c[2:]:
            kind = tok.type
            if kind == "SEAT":
                seat = self.seat(tok)
                if seat is not None:
                    seats.append(seat)
                    self.names = sorted((s.player for s in seats), key=len, reverse=True)
            elif kind == "SUMMARY":
                summary_line = self._line(tok)[1]
            elif summary_line:
                sitems.append(getattr(self, _SUMMARY_DISPATCH[kind])(tok))
            else:
                event = getattr(self, _DISPATCH[kind])(tok)
                if event is not None:
                    events.append(event)
        try:
            header = _header(header_text, header_line, table_text, table_line)
        except _Problem as p:
            self.problems.append((p.line, p.message))
            return None
        self._check_names(seats, events)
        summary = self._summary(summary_line, sitems, seats)
        if self.problems:
            return None
        return Hand(
            source=self.source,
            line=header_line,
            header=header,
            seats=tuple(seats),
            events=tuple(events),
            summary=summary,
            warnings=tuple(self.warnings),
        )

    def _check_names(self, seats: list[Seat], events: list[Event]) -> None:
        """Names in play lines must be seated players (table events may name anyone)."""
        seated = {s.player for s in seats}
        for e in events:
            if isinstance(e, TableEvent | Bounty | Finished | TournamentWon):
                continue
            player = getattr(e, "player", None)
            if player is not None and player not in seated:
                self.problems.append((e.line, f"player {player!r} has no seat line"))

    def _summary(self, line: int, items: list[Any], seats: list[Seat]) -> Summary:
        total = main = rake = total_line = None
        sides: list[int] = []
        numbered = run_twice = False
        boards: list[Cards] = []
        board_lines: list[int] = []
        sseats: list[SummarySeat] = []
        by_number = {s.seat: s.player for s in seats}
        for kind, ln, data in items:
            if kind == "total":
                if data is None:
                    continue
                total_line = ln
                total = self._amt(data["total"], ln)
                rake = self._amt(data["rake"], ln)
                if data["main"]:
                    main = self._amt(data["main"], ln)
                    rest = data["sides"]
                    for sm in _SIDE_RE.finditer(rest):
                        sides.append(self._amt(sm["amt"], ln))
                        numbered = numbered or sm["n"] is not None
                    if _SIDE_RE.sub("", rest):
                        self.problems.append((ln, "bad side pot list"))
            elif kind == "run_twice":
                run_twice = True
            elif kind == "board":
                if data is not None:
                    boards.append(self._card_list(data["cards"], ln))
                    board_lines.append(ln)
            else:
                ss = self._summary_seat(ln, data, by_number)
                if ss is not None:
                    sseats.append(ss)
        return Summary(
            line=line,
            total_pot=total,
            main_pot=main,
            side_pots=tuple(sides),
            side_pots_numbered=numbered,
            rake=rake,
            total_line=total_line,
            run_twice=run_twice,
            boards=tuple(boards),
            board_lines=tuple(board_lines),
            seats=tuple(sseats),
        )

    def _summary_seat(self, line: int, text: str, by_number: dict[int, str]) -> SummarySeat | None:
        head = _SSEAT_HEAD_RE.match(text)
        if head is None:
            self.problems.append((line, "unrecognised summary line"))
            return None
        number = int(head["seat"])
        rest = text[head.end() :]
        name = by_number.get(number)
        if name is None or not (rest == name or rest.startswith(name + " ")):
            self.problems.append((line, f"summary seat {number} does not name the player of seat {number}"))
            return None
        rest = rest[len(name) :]
        flags = [False, False, False]
        progress = True
        while progress:
            progress = False
            for k, marker in enumerate(_MARKERS):
                if rest.startswith(marker):
                    flags[k] = True
                    rest = rest[len(marker) :]
                    progress = True
        cashed = pot_na = False
        if rest.endswith(" (cashed out)"):
            cashed, rest = True, rest[: -len(" (cashed out)")]
        elif rest.endswith(" (pot not awarded as player cashed out)"):
            pot_na, rest = True, rest[: -len(" (pot not awarded as player cashed out)")]
        base = SummarySeat(
            line, number, name, flags[0], flags[1], flags[2], cashed_out=cashed, pot_not_awarded=pot_na
        )
        if not rest:
            return base
        m = _FOLDED_RE.match(rest)
        if m is not None:
            street = _STREETS[m["street"]] if m["street"] else Street.PREFLOP
            return _replace(
                base, outcome=SeatOutcome.FOLDED, folded_street=street, didnt_bet=m["db"] is not None
            )
        m = _COLLECTED_RE.match(rest)
        if m is not None:
            return _replace(base, outcome=SeatOutcome.COLLECTED, won=(self._amt(m["amt"], line),))
        m = _MUCKED_RE.match(rest)
        if m is not None:
            return _replace(base, outcome=SeatOutcome.MUCKED, cards=self._card_list(m["cards"], line))
        m = _SHOWED_RE.match(rest)
        if m is not None:
            cards = self._card_list(m["cards"], line)
            if m["res"] == "lost":
                tail = m["rest"]
                if tail and not tail.startswith(" with "):
                    self.problems.append((line, "unrecognised summary seat outcome"))
                    return None
                descs = (tail[6:],) if tail else ()
                return _replace(base, outcome=SeatOutcome.SHOWED_LOST, cards=cards, descriptions=descs)
            tail = " and won" + m["rest"]
            wins = list(_WON_RE.finditer(tail))
            if not wins or "".join(x.group(0) for x in wins) != tail:
                self.problems.append((line, "unrecognised summary seat outcome"))
                return None
            return _replace(
                base,
                outcome=SeatOutcome.SHOWED_WON,
                cards=cards,
                won=tuple(self._amt(x["amt"], line) for x in wins),
                descriptions=tuple(x["desc"] or "" for x in wins),
            )
        self.problems.append((line, "unrecognised summary seat outcome"))
        return None


_DISPATCH = {
    "POST": "post",
    "HOLE": "hole",
    "DEALT": "dealt",
    "EXPOSE": "expose",
    "EXPOSE_BUG": "expose_bug",
    "STREET": "street",
    "FOLD": "fold",
    "CHECK": "check",
    "CALL": "call",
    "BET": "bet",
    "RAISE": "raise_",
    "UNCALLED": "uncalled",
    "SHOWDOWN": "showdown",
    "SHOW": "show",
    "MUCK": "muck",
    "NOSHOW": "noshow",
    "COLLECT": "collect",
    "NOLOW": "nolow",
    "CANCELLED": "cancelled",
    "BOUNTY": "bounty",
    "FINISHED": "finished",
    "TWON": "twon",
    "EVENT": "event",
}
_SUMMARY_DISPATCH = {"TOTAL": "total", "RUN_TWICE": "run_twice", "BOARD": "board", "SSEAT": "sseat"}


def _replace(s: SummarySeat, **kw: Any) -> SummarySeat:
    from dataclasses import replace

    return replace(s, **kw)


# ------------------------------------------------------------------------------------------
# Header
# ------------------------------------------------------------------------------------------


class UnsupportedGame(Exception):
    """The header names a game this parser does not read (Hold'em, Stud, ...)."""

    def __init__(self, game: str, hand_id: str) -> None:
        super().__init__(game)
        self.game = game
        self.hand_id = hand_id


def _game(label: str, line: int, hand_id: str) -> tuple[Game, bool, str, str, str | None]:
    """``"8-Game (Omaha Hi/Lo Limit)"`` -> (OMAHA, True, "FL", "Omaha Hi/Lo Limit", "8-Game")."""
    mixed: str | None = None
    inner = label
    mm = _MIXED_RE.match(label)
    if mm is not None:
        mixed, inner = mm["mixed"], mm["inner"]
    gm = _GAME_RE.match(inner)
    if gm is None or gm["name"] not in _GAMES:
        raise UnsupportedGame(inner, hand_id)
    game, hilo = _GAMES[gm["name"]]
    return game, hilo, _STRUCTS[gm["struct"]], inner, mixed


def _stamp(date: str, time: str) -> datetime:
    return datetime.strptime(f"{date} {time}", "%Y/%m/%d %H:%M:%S")


def _header(text: str, line: int, table_text: str, table_line: int) -> Header:
    m = _HEADER_RE.match(text)
    if m is None:
        raise _Problem(line, "unrecognised hand header")
    hand_id = m["id"]
    body = m["body"]
    tm = _TOUR_RE.match(body)
    tournament: Tournament | None = None
    currency: str | None
    cap: int | None = None
    if tm is not None:
        game, hilo, struct, label, mixed = _game(tm["game"], line, hand_id)
        buyin = tm["buyin"]
        parts_text, _, code = buyin.partition(" ")
        parts: tuple[int, ...] = ()
        if buyin != "Freeroll":
            try:
                parts = tuple(parse_amount(p) for p in parts_text.split("+"))
            except ValueError:
                parts = ()
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
        sb, bb = int(tm["sb"].replace(",", "")), int(tm["bb"].replace(",", ""))
        currency, symbol = None, ""
    else:
        cm = _CASH_RE.match(body)
        if cm is None:
            gm = re.match(r"^(.+?) \(", body)
            if gm is not None and _GAME_RE.match(gm[1]):
                _game(gm[1], line, hand_id)  # raises UnsupportedGame for other games
            raise _Problem(line, "unrecognised game/stakes in hand header")
        game, hilo, struct, label, mixed = _game(cm["game"], line, hand_id)
        sb_text = cm["sb"]
        symbol = sb_text[0] if sb_text[0] in SYMBOLS else ""
        try:
            sb, bb = parse_amount(sb_text), parse_amount(cm["bb"])
            cap = parse_amount(cm["cap"]) if cm["cap"] else None
        except ValueError:
            raise _Problem(line, "bad stakes in hand header") from None
        currency = cm["cur"]
    tz = m["tz"] or m["tz_paren"]
    local = _stamp(m["date"], m["time"])
    et = _stamp(m["et_date"], m["et_time"]) if m["et_date"] else None
    if et is not None:
        utc = et.replace(tzinfo=ZoneInfo("America/New_York")).astimezone(UTC)
    elif tz in TIME_ZONES:
        utc = local.replace(tzinfo=ZoneInfo(TIME_ZONES[tz])).astimezone(UTC)
    else:
        raise _Problem(line, f"unknown time zone {tz!r}")
    t = _TABLE_RE.match(table_text)
    if t is None:
        raise _Problem(table_line, "unrecognised table line")
    return Header(
        site=m["site"],
        hand_kind=m["kind"],
        hand_id=hand_id,
        game=game,
        hilo=hilo,
        structure=Structure(struct),
        game_label=label,
        mixed=mixed,
        currency=currency,
        symbol=symbol,
        small_blind=sb,
        big_blind=bb,
        cap=cap,
        tournament=tournament,
        local_time=local,
        time_zone=tz,
        et_time=et,
        start_utc=utc,
        table=t["name"],
        max_seats=int(t["max"]) if t["max"] else None,
        play_money=t["play"] is not None,
        button_seat=int(t["button"]),
        line=line,
    )


# ------------------------------------------------------------------------------------------
# Parser construction (once per process)
# ------------------------------------------------------------------------------------------

_LOCK = threading.Lock()
_PARSER: Any = None
_BUILDER: _Builder | None = None


def grammar_text() -> str:
    """The grammar as lark reads it: pokerstars.lark with the shared terminals appended."""
    return read_text("grammars", "pokerstars.lark") + "\n" + read_text("grammars", "common.lark")


def make_parser(builder: _Builder, *, cython: bool | None = None) -> Any:
    """Build the LALR parser with ``builder`` as inline transformer.

    ``cython=None`` uses lark-cython when it is importable (≈40% faster), False forces pure lark.
    """
    from lark import Lark

    kwargs: dict[str, Any] = {}
    if cython is not False:
        try:
            import lark_cython

            kwargs["_plugins"] = lark_cython.plugins
        except ImportError:
            if cython:
                raise
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        # positions come from the line tokens themselves; propagate_positions costs O(n^2) on the
        # one flat hand rule (measured 912 vs 2,112 hands/s), so it is off.
        propagate_positions=False,
        transformer=builder,
        maybe_placeholders=False,
        **kwargs,
    )


def _parser() -> tuple[Any, _Builder]:
    global _PARSER, _BUILDER
    if _PARSER is None or _BUILDER is None:
        builder = _Builder()
        _PARSER = make_parser(builder)
        _BUILDER = builder
    return _PARSER, _BUILDER


def use_cython(enabled: bool) -> None:
    """Rebuild the process-wide parser with or without lark-cython (benchmarks, tests)."""
    global _PARSER, _BUILDER
    with _LOCK:
        builder = _Builder()
        _PARSER = make_parser(builder, cython=enabled)
        _BUILDER = builder


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
    if block.kind == BLOCK_BINARY:
        return _err(block, "binary-file", "binary file (NUL bytes): not a hand history", 1, 0, None)
    if block.kind == BLOCK_SUMMARY:
        return _err(block, "summary-file", "tournament summary file, not hand histories", 1, 0, None)
    if block.kind == BLOCK_PREAMBLE:
        return _err(block, "no-header", "text before the first hand header is not a hand", 1, 1, None)
    text = _TRAILING_WS_RE.sub("", block.text).rstrip("\n") + "\n"
    first = text[: text.find("\n")]
    idm = _HAND_ID_RE.search(first)
    hand_id = idm[1] if idm else None
    # unsupported games are recognised from the header before the grammar sees the hand
    try:
        m = _HEADER_RE.match(first)
        if m is not None:
            body = m["body"]
            tm = _TOUR_RE.match(body)
            label = (
                tm["game"]
                if tm
                else (_CASH_RE.match(body) or re.match(r"^(.+?) \(", body) or [None, None])[1]
            )
            if label:
                _game(label, 1, hand_id or "")
    except UnsupportedGame as u:
        return _err(block, "unsupported-game", f"unsupported game: {u.game}", 1, 1, hand_id, u.game)
    with _LOCK:
        parser, builder = _parser()
        builder.begin(block.source, block.line - 1)
        try:
            hand = parser.parse(text)
        except UnexpectedInput as e:
            return _syntax_error(block, text, e, hand_id)
        problems = list(builder.problems)
    if problems or hand is None:
        line, message = min(problems) if problems else (block.line, "unreadable hand")
        return _err(block, "syntax", message, line - block.line + 1, 1, hand_id)
    assert isinstance(hand, Hand)
    return hand


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
