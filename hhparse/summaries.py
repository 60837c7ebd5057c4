"""PokerStars tournament summary files → :class:`TournamentSummary` records (the text side).

Why: a hand history shows a tournament only from the hero's seat — the buy-in, the knockouts
and, in the hand they busted, the place and prize. The client also writes one summary file per
tournament (``Tournament #N summary``; ``hhparse import`` reads them beside the hands): every
entrant's place and prize, the prize pool, the start and end, and the hero's own place, rebuys
and bounties. Both feed the ``tournaments`` report.

The forms read (from real files, and FPDB's reader for the lines no file here shows; every
variant is accepted and its content checked, as ``docs/format-conventions.md`` says)::

    PokerStars Tournament #1731156709, Pot Limit 5 Card Omaha
    Buy-In: $24.55/$2.45 USD                    buy-in/fee; buy-in/bounty/fee; 100/9 (play); Freeroll
    49 players
    $100 USD added to the prize pool by PokerStars       (optional)
    Total Prize Pool: $602.70 USD                        (optional)
    Target Tournament #123 Buy-In: ...                    (satellites, optional, kept as text)
    Tournament started 2016/11/26 19:04:00 CET [2016/11/26 13:04:00 ET]
    Tournament finished 2016/11/26 21:00:00 CET [...]     (optional)

      1: Hero (Netherlands), $230.36 (38.221%)
      8: Frimble11 (Germany),
      1: #LEXUS#88888 (Brazil), still playing
      1: Hero (United States), 200 (100%)

    You finished in 1st place (eliminated at hand #162008223790).
    You made 5 rebuys and 1 addons for a total of USD 3,180.00.
    You collected 5 bounties for a total of USD 875.00.

Money is kept as integers in hundredths of the tournament's unit (its currency, or ``play`` for
play-chip buy-ins such as ``100/9``), whatever the file prints (``$230.36``, ``200``): one scale
for every summary amount, so the ``tournament_summaries`` table's ``unit_scale`` is always 100.
A line that looks like a summary line but cannot be read is an error naming the file and line —
never a silently missing place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo

from hhparse.errors import ParseError

__all__ = [
    "SUMMARY_CODE",
    "SUMMARY_MAX_BYTES",
    "SummaryPlace",
    "TournamentSummary",
    "parse_summaries",
    "read_summary_text",
]

SUMMARY_CODE = "bad-summary"
"""``ParseError.code`` of a tournament summary file that cannot be read."""

SUMMARY_MAX_BYTES: Final = 32 * 1024 * 1024
"""A summary file larger than this is a ``bad-summary`` reject, not read into memory: the largest
tournaments' summaries (every entrant of a 100,000-player field) are a few megabytes."""

_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY"}
_CODES: Final = ("USD", "EUR", "GBP", "CAD", "INR", "CNY", "FPP", "SC")
_AMT = r"[$€£₹¥]?[\d,]+(?:\.\d+)?"

_HEAD_RE: Final = re.compile(r"^(?P<site>PokerStars) Tournament #(?P<id>\d+), (?P<game>.*?)\s*$")
_BUYIN_RE: Final = re.compile(
    rf"^Buy-In: (?P<parts>{_AMT}(?:/{_AMT})*)(?: (?P<code>[A-Z]{{2,3}}))?\s*$|^Buy-In: (?P<free>Freeroll)\s*$"
)
_PLAYERS_RE: Final = re.compile(r"^(?P<n>[\d,]+) players?\s*$")
_ADDED_RE: Final = re.compile(rf"^(?P<amt>{_AMT})(?: [A-Z]{{2,3}})? added to the prize pool by .*$")
_POOL_RE: Final = re.compile(
    rf"^Total Prize Pool: (?P<amt>{_AMT})(?: (?P<code>[A-Z]{{2,3}}))?\s*$|^Total Prize Pool: (?P<text>.+?)\s*$"
)
_TIME_RE: Final = re.compile(
    r"^Tournament (?P<what>started|finished) (?:- )?(?P<date>\d{4}/\d{1,2}/\d{1,2}) (?P<time>\d{1,2}:\d{2}:\d{2})"
    r"(?: (?P<tz>[A-Z]{1,5}))?(?: \[(?P<et_date>\d{4}/\d{1,2}/\d{1,2}) (?P<et_time>\d{1,2}:\d{2}:\d{2}) ET\])?\s*$"
)
_PLACE_RE: Final = re.compile(
    r"^\s*(?P<rank>\d+): (?P<name>.+?)(?: \[(?P<entry>\d+)\])? \((?P<country>[^()]*)\),\s?(?P<rest>.*?)\s*$"
)
_PRIZE_RE: Final = re.compile(
    rf"^(?P<amt>{_AMT})(?: (?P<code>[A-Z]{{2,3}}))?(?: \((?P<pct>[\d.]+)%\))?(?P<qualified> \(qualified for the target tournament\))?$"
)
_FINISHED_RE: Final = re.compile(
    r"^You finished (?:in (?P<place>\d+)(?:st|nd|rd|th) place|the tournament)\b.*$"
)  # "the tournament": the summary was written while others still played (no place yet)
_STILL_RE: Final = re.compile(r"^You are still (?:playing|registered)\b.*$")
_REBUYS_RE: Final = re.compile(
    r"^You made (?P<rebuys>\d+) rebuys? and (?P<addons>\d+) add-?ons? for a total of (?P<code>[A-Z]{2,3}) (?P<amt>[\d,]+(?:\.\d+)?)\.?\s*$"
)
_BOUNTIES_RE: Final = re.compile(
    r"^You collected (?P<n>\d+) bount(?:y|ies) for a total of (?P<code>[A-Z]{2,3}) (?P<amt>[\d,]+(?:\.\d+)?)\.?\s*$"
)
_TARGET_RE: Final = re.compile(r"^(?:Target Tournament #\d+.*|\d+ tickets? to the target tournament.*)$")

#: Zone abbreviations a summary prints (the hand parser's table has the same ones).
_ZONES: Final = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "WET": "Europe/Lisbon",
    "GMT": "Europe/London",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "BRT": "America/Sao_Paulo",
    "AET": "Australia/Sydney",
    "UTC": "UTC",
}


@dataclass(frozen=True, slots=True)
class SummaryPlace:
    """One entrant line: ``rank`` as printed (the place, or the list position while still
    playing), the prize in hundredths of the unit (None when none is printed)."""

    rank: int
    player: str
    country: str
    prize: int | None
    prize_pct: float | None
    still_playing: bool
    qualified: bool
    entry: int | None
    line: int


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """What one summary says. Amounts are hundredths of ``unit`` (a currency code, or ``play``)."""

    site: str
    tournament_id: str
    game: str
    buyin_label: str
    game_slug: str | None  # the --game name (courchevel-hilo...) when it is a game hhparse reads
    unit: str | None
    buyin: int | None  # the part that goes to the prize pool (and the bounty, when there is one)
    bounty: int | None
    fee: int | None
    entries: int | None
    prize_pool: int | None
    added: int | None
    started_utc: datetime | None
    finished_utc: datetime | None
    hero_place: int | None
    hero_rebuys: int | None
    hero_addons: int | None
    hero_rebuy_total: int | None
    hero_bounties: int | None
    hero_bounty_total: int | None
    source: str
    line: int
    places: tuple[SummaryPlace, ...] = field(default=())

    def rows(self, content_hash: str) -> list[dict[str, Any]]:
        """The ``tournament_summaries`` rows (one per entrant line; one row with no player when
        the summary lists nobody)."""
        base: dict[str, Any] = {
            "site": self.site,
            "tournament_id": self.tournament_id,
            "game": self.game,
            "game_slug": self.game_slug,
            "buyin_label": self.buyin_label,
            "unit": self.unit or "play",
            "unit_scale": 100,
            "buyin": self.buyin,
            "bounty": self.bounty,
            "fee": self.fee,
            "entries": self.entries,
            "prize_pool": self.prize_pool,
            "started_utc": self.started_utc,
            "finished_utc": self.finished_utc,
            "hero_place": self.hero_place,
            "hero_rebuys": self.hero_rebuys,
            "hero_addons": self.hero_addons,
            "hero_rebuy_total": self.hero_rebuy_total,
            "hero_bounties": self.hero_bounties,
            "hero_bounty_total": self.hero_bounty_total,
            "source": self.source,
            "line": self.line,
            "content_hash": content_hash,
        }
        places = self.places or (None,)
        out = []
        for p in places:
            row = dict(base)
            row.update(
                rank=None if p is None else p.rank,
                player=None if p is None else p.player,
                country=None if p is None else p.country,
                prize=None if p is None else p.prize,
                still_playing=False if p is None else p.still_playing,
                place_line=self.line if p is None else p.line,
            )
            out.append(row)
        return out

    def describe(self) -> str:
        """One line for ``hhparse check``: ``tournament #N (game, buy-in): 49 players; you: 1st``."""
        what = f"tournament #{self.tournament_id} ({self.game}, {self.buyin_label})"
        players = f"{self.entries:,} players" if self.entries is not None else "players not printed"
        you = f"; you finished {_ordinal(self.hero_place)}" if self.hero_place else ""
        still = sum(p.still_playing for p in self.places)
        running = f"; {still:,} still playing" if still else ""
        return f"tournament summary {what}: {players}, {len(self.places):,} listed{running}{you}"


class _Bad(Exception):
    def __init__(self, line: int, message: str, text: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.text = text


def read_summary_text(path: str | os.PathLike[str]) -> str:
    """A summary file's text: UTF-8 (with or without BOM), UTF-16 with a BOM, else cp1252 (the
    client writes some summaries in cp1252, e.g. a ``€`` in a name as byte 0x80)."""
    data = Path(path).read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def parse_summaries(text: str, source: str, first_line: int = 1) -> list[TournamentSummary] | ParseError:
    """Every tournament summary in ``text`` (a file may hold several, one after the other), or
    the first line that cannot be read as a :class:`ParseError` (code ``bad-summary``)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff").split("\n")
    out: list[TournamentSummary] = []
    try:
        for start, chunk in _chunks(lines, first_line):
            out.append(_parse_one(chunk, source, first_line + start))
    except _Bad as bad:
        return ParseError(
            SUMMARY_CODE,
            f"tournament summary: {bad.message}",
            source,
            bad.line,
            1,
            None,
            bad.text,
            block=text,
            block_line=first_line,
        )
    if not out:
        return ParseError(
            SUMMARY_CODE,
            "tournament summary: no `PokerStars Tournament #` line",
            source,
            first_line,
            1,
            None,
            lines[0] if lines else "",
            block=text,
            block_line=first_line,
        )
    return out


def _chunks(lines: list[str], first_line: int) -> Iterator[tuple[int, list[str]]]:
    """(index of its first line, its lines) for each summary in the file."""
    starts = [i for i, ln in enumerate(lines) if _HEAD_RE.match(ln.strip())]
    if not starts:
        return
    first = next(i for i, ln in enumerate(lines) if ln.strip())
    if first != starts[0]:
        raise _Bad(first_line + first, "text before the first `PokerStars Tournament #` line", lines[first])
    for a, b in zip(starts, [*starts[1:], len(lines)], strict=True):
        yield a, lines[a:b]


def _hundredths(text: str, line: int, whole: str) -> int:
    """``$1,234.56`` → 123456; ``200`` → 20000 (every summary amount in hundredths)."""
    raw = text.lstrip("$€£₹¥").replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise _Bad(line, f"bad amount {text!r}", whole) from None
    cents = value * 100
    if cents != cents.to_integral_value():
        raise _Bad(line, f"amount {text!r} has more than two decimals", whole)
    return int(cents)


def _unit(symbol_text: str, code: str | None) -> str | None:
    if code in ("FPP", "SC"):
        return code
    if symbol_text[:1] in _SYMBOLS:
        return code or _SYMBOLS[symbol_text[:1]]
    return code


def _stamp(m: re.Match[str], line: int, whole: str) -> datetime:
    def naive(d: str, t: str) -> datetime:
        return datetime.strptime(f"{d} {t}", "%Y/%m/%d %H:%M:%S")

    if m["et_date"]:
        local = naive(m["et_date"], m["et_time"])
        zone = "ET"
    else:
        local = naive(m["date"], m["time"])
        zone = m["tz"] or "ET"
    if zone not in _ZONES:
        raise _Bad(line, f"unknown time zone {zone!r}", whole)
    return local.replace(tzinfo=ZoneInfo(_ZONES[zone])).astimezone(UTC)


_STRUCTURE_WORDS = re.compile(
    r"^(?:Pot Limit|No Limit|Fixed Limit|Limit)\s+|\s+(?:Pot Limit|No Limit|Limit)$"
)
_GAMES: Final = {
    "courchevel hi/lo": "courchevel-hilo",
    "courchevel h/l": "courchevel-hilo",
    "courchevel": "courchevel",
    "5 card omaha hi/lo": "5-card-omaha-hilo",
    "5 card omaha h/l": "5-card-omaha-hilo",
    "5 card omaha": "5-card-omaha",
    "omaha hi/lo": "omaha-hilo",
    "omaha h/l": "omaha-hilo",
    "omaha": "omaha",
}


def game_slug(words: str) -> str | None:
    """``Pot Limit 5 Card Omaha`` → ``5-card-omaha``; None for a game hhparse does not read
    (``8-Game``, ``Mixed Omaha``, ``Hold'em``)."""
    return _GAMES.get(_STRUCTURE_WORDS.sub("", words.strip()).lower())


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _parse_one(lines: list[str], source: str, first: int) -> TournamentSummary:
    head = _HEAD_RE.match(lines[0].strip())
    assert head is not None
    f: dict[str, Any] = {
        "buyin_label": "",
        "unit": None,
        "buyin": None,
        "bounty": None,
        "fee": None,
        "entries": None,
        "prize_pool": None,
        "added": None,
        "started_utc": None,
        "finished_utc": None,
        "hero_place": None,
        "hero_rebuys": None,
        "hero_addons": None,
        "hero_rebuy_total": None,
        "hero_bounties": None,
        "hero_bounty_total": None,
    }
    places: list[SummaryPlace] = []
    for i, raw in enumerate(lines[1:], start=1):
        text = raw.strip()
        at = first + i  # the file line
        if not text:
            continue
        if (m := _PLACE_RE.match(raw)) is not None:
            places.append(_place(m, at, raw))
        elif (m := _BUYIN_RE.match(text)) is not None:
            f["buyin_label"] = text.removeprefix("Buy-In: ")
            if m["free"]:
                f["buyin"], f["fee"] = 0, 0
            else:
                parts = m["parts"].split("/")
                amounts = [_hundredths(p, at, raw) for p in parts]
                f["unit"] = _unit(parts[0], m["code"]) or "play"
                if len(amounts) == 1:
                    f["buyin"], f["fee"] = amounts[0], 0
                elif len(amounts) == 2:
                    f["buyin"], f["fee"] = amounts
                elif len(amounts) == 3:  # buy-in / bounty / fee, as in the hand header's a+b+c
                    f["buyin"], f["bounty"], f["fee"] = amounts
                else:
                    raise _Bad(at, "a buy-in of more than three parts", raw)
        elif (m := _PLAYERS_RE.match(text)) is not None:
            f["entries"] = int(m["n"].replace(",", ""))
        elif (m := _ADDED_RE.match(text)) is not None:
            f["added"] = _hundredths(m["amt"], at, raw)
        elif (m := _POOL_RE.match(text)) is not None:
            if m["amt"]:
                f["prize_pool"] = _hundredths(m["amt"], at, raw)
                f["unit"] = f["unit"] or _unit(m["amt"], m["code"])
        elif (m := _TIME_RE.match(text)) is not None:
            f["started_utc" if m["what"] == "started" else "finished_utc"] = _stamp(m, at, raw)
        elif (m := _FINISHED_RE.match(text)) is not None:
            f["hero_place"] = int(m["place"]) if m["place"] else None
        elif (m := _REBUYS_RE.match(text)) is not None:
            f["hero_rebuys"], f["hero_addons"] = int(m["rebuys"]), int(m["addons"])
            f["hero_rebuy_total"] = _hundredths(m["amt"], at, raw)
        elif (m := _BOUNTIES_RE.match(text)) is not None:
            f["hero_bounties"] = int(m["n"])
            f["hero_bounty_total"] = _hundredths(m["amt"], at, raw)
        elif _STILL_RE.match(text) or _TARGET_RE.match(text):
            continue
        else:
            raise _Bad(at, "unrecognised line", raw)
    if f["started_utc"] is None:
        raise _Bad(first, "no `Tournament started` line", lines[0])
    if f["unit"] is None and f["buyin"] is not None:
        f["unit"] = "play"
    return TournamentSummary(
        site=head["site"],
        tournament_id=head["id"],
        game=head["game"],
        game_slug=game_slug(head["game"]),
        source=source,
        line=first,
        places=tuple(places),
        **f,
    )


def _place(m: re.Match[str], line: int, whole: str) -> SummaryPlace:
    rest = m["rest"]
    prize: int | None = None
    pct: float | None = None
    still = qualified = False
    if rest == "still playing":
        still = True
    elif rest:
        p = _PRIZE_RE.match(rest)
        if p is None:
            raise _Bad(line, f"unrecognised prize {rest!r}", whole)
        prize = _hundredths(p["amt"], line, whole)
        pct = float(p["pct"]) if p["pct"] else None
        qualified = bool(p["qualified"])
    return SummaryPlace(
        rank=int(m["rank"]),
        player=m["name"],
        country=m["country"],
        prize=prize,
        prize_pct=pct,
        still_playing=still,
        qualified=qualified,
        entry=int(m["entry"]) if m["entry"] else None,
        line=line,
    )
