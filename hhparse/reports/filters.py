"""The report filters, checked against what the warehouse holds before any report runs.

Why: a filter that matches nothing used to answer ``(no rows)`` and exit 0 — ``-p hero`` when the
account is ``Hero``, ``--stakes '$0.10/$0.25'`` (the file name's form), ``--game holdem``, a
``--since`` after the ``--until``. A user reads that as "no hands", not "typo". Here every filter
is resolved on its own: a player name matched exactly, else case-insensitively (with a note), else
a :class:`~hhparse.failures.UsageError` naming the nearest names; stakes in every written form
(``0.10/0.25``, ``$0.10/$0.25``, ``$0.10-$0.25``, ``10/25`` in cents, ``0.25`` the big blind, a
tournament buy-in) matched to the warehouse's own; a game by name, header words or a common alias;
dates as an ordered range that holds hands. Each error lists what exists (exit code 2).

Filters that each match something may still match nothing together (a player who never played
those stakes): that is an answer, and the CLI says so under the empty table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from hhparse.failures import UsageError

__all__ = ["Scope", "known_games", "parse_stakes", "resolve"]


def known_games() -> dict[str, str]:
    """Every game hhparse reads: ``--game`` name → display name, from the table of games
    (:mod:`hhparse.rules.variants`, through the specs)."""
    from hhparse.rules.spec import BY_SLUG

    return {slug: v.label for slug, v in BY_SLUG.items()}


_ALIASES = {
    "chl": "courchevel-hilo",
    "courchevel-hi-lo": "courchevel-hilo",
    "courchevel-h/l": "courchevel-hilo",
    "courchevel-8": "courchevel-hilo",
    "o8": "omaha-hilo",
    "plo8": "omaha-hilo",
    "flo8": "omaha-hilo",
    "omaha8": "omaha-hilo",
    "omaha-8": "omaha-hilo",
    "omaha-hi-lo": "omaha-hilo",
    "omaha-h/l": "omaha-hilo",
    "plo": "omaha",
    "plo-hi": "omaha",
    "5-card-plo8": "5-card-omaha-hilo",
    "5card-omaha-hilo": "5-card-omaha-hilo",
    "5-card-plo": "5-card-omaha",
    "5card-omaha": "5-card-omaha",
    "5-card-omaha-hi-lo": "5-card-omaha-hilo",
    "5-card-o8": "5-card-omaha-hilo",
    "big-o": "5-card-omaha-hilo",
}
"""Names players use for the games (PokerTracker's short forms and the like)."""

_NOT_READ = (
    "holdem",
    "hold'em",
    "nlhe",
    "nlh",
    "lhe",
    "stud",
    "razz",
    "badugi",
    "draw",
    "horse",
    "8-game",
    "6-card-omaha",
    "6-card",
    "triple-draw",
    "2-7",
)


@dataclass
class Scope:
    """The resolved filters (the SQL parameters) and the notes a user should read."""

    player: str | None = None
    since: date | None = None
    until: date | None = None
    game: str | None = None
    stakes: list[str] | None = None
    notes: list[str] = field(default_factory=list)

    def params(self) -> dict[str, object]:
        """The filters as the reports' SQL parameters (``$player``, ``$since``...)."""
        return {
            "player": self.player,
            "since": self.since,
            "until": self.until,
            "game": self.game,
            "stakes": self.stakes,
        }


def _rows(con: Any, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Every row (a result is always read to its end: DuckDB refuses new work on a connection
    with an unfinished one)."""
    return list(con.execute(sql, params or []).fetchall())


def _count(con: Any, sql: str, params: list[Any] | None = None) -> int:
    rows = _rows(con, sql, params)
    return int(rows[0][0]) if rows and rows[0][0] is not None else 0


def _as_date(value: date | str | None, option: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    text = value.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}", text):  # a month: its first day (--since) / last day (--until)
            first = date.fromisoformat(text + "-01")
            if option == "--until":
                nxt = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
                return date.fromordinal(nxt.toordinal() - 1)
            return first
        if re.fullmatch(r"\d{4}", text):
            return date(int(text), 12, 31) if option == "--until" else date(int(text), 1, 1)
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(
            f"{option} must be a date like 2024-01-31 (or a month 2024-01, a year 2024), not {value!r}"
        ) from None


def resolve(
    con: Any,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
) -> Scope:
    """Check every filter against the warehouse behind ``con`` (a DuckDB connection with the
    views); the parameters to bind, or a :class:`UsageError` saying what exists instead."""
    scope = Scope(since=_as_date(since, "--since"), until=_as_date(until, "--until"))
    if scope.since and scope.until and scope.since > scope.until:
        raise UsageError(
            f"--since {scope.since} is after --until {scope.until}: no day is in that range (swap them?)"
        )
    hands = _count(con, "SELECT count(*) FROM hands")
    if not hands:
        if any(v is not None for v in (player, since, until, game, stakes)):
            scope.notes.append("the warehouse holds no hands yet: import some first (hhparse import PATH)")
        scope.player, scope.game = player, game
        return scope
    if scope.since or scope.until:
        _check_dates(con, scope)
    if player is not None:
        scope.player = _resolve_player(con, player, scope.notes)
    if game is not None:
        scope.game = _resolve_game(con, game, scope.notes)
    if stakes is not None:
        scope.stakes = _resolve_stakes(con, stakes, scope.notes)
    return scope


def _check_dates(con: Any, scope: Scope) -> None:
    rows = _rows(con, "SELECT min(CAST(start_utc AS DATE)), max(CAST(start_utc AS DATE)) FROM hands")
    first, last = rows[0] if rows else (None, None)
    if first is None or last is None:
        return
    if (scope.since and scope.since > last) or (scope.until and scope.until < first):
        wanted = f"{scope.since or '…'} to {scope.until or '…'}"
        raise UsageError(f"no hands from {wanted}: the warehouse holds hands from {first} to {last}")


def _resolve_player(con: Any, name: str, notes: list[str]) -> str:
    if _count(con, "SELECT count(*) FROM (SELECT 1 FROM hand_players WHERE player = ? LIMIT 1)", [name]):
        return name
    same = [
        r[0]
        for r in _rows(
            con,
            "SELECT DISTINCT player FROM hand_players WHERE lower(player) = lower(?) ORDER BY player",
            [name],
        )
    ]
    if len(same) == 1:
        notes.append(f"player {name!r} taken as {same[0]!r} (names match without regard to case)")
        return str(same[0])
    if len(same) > 1:
        raise UsageError(
            f"player {name!r} matches several names that differ only in case: "
            f"{', '.join(repr(s) for s in same)}; give one exactly"
        )
    near = [
        r[0]
        for r in _rows(
            con,
            "SELECT player FROM (SELECT DISTINCT player FROM hand_players) "
            "ORDER BY jaro_winkler_similarity(lower(player), lower(?)) DESC, player LIMIT 5",
            [name],
        )
    ]
    heroes = [
        r[0]
        for r in _rows(
            con,
            "SELECT player FROM hand_players WHERE is_hero GROUP BY player ORDER BY count(*) DESC LIMIT 3",
        )
    ]
    text = f"no player {name!r} in the warehouse"
    if near:
        text += f"; nearest names: {', '.join(repr(n) for n in near)}"
    if heroes:
        text += (
            f"; your account{'s' if len(heroes) > 1 else ''} (the hero): {', '.join(repr(h) for h in heroes)}"
        )
    raise UsageError(text)


def _slug(text: str) -> str:
    return re.sub(r"[\s_]+", "-", text.strip().lower())


def _resolve_game(con: Any, text: str, notes: list[str]) -> str:
    games = known_games()
    held = {
        str(r[0]): (str(r[1]), int(r[2]))
        for r in _rows(
            con,
            "SELECT game || CASE WHEN hilo THEN '-hilo' ELSE '' END, any_value(game_label), count(*) FROM hands GROUP BY 1",
        )
    }
    labels = {str(r[0]).lower(): str(r[0]) for r in _rows(con, "SELECT DISTINCT game_label FROM hands")}
    slug = _slug(text)
    if text.strip().lower() in labels:  # the header's words, "Courchevel Hi/Lo Pot Limit"
        return labels[text.strip().lower()]
    wanted = slug if slug in games else _ALIASES.get(slug) or _ALIASES.get(slug.replace("/", "-"))
    if wanted is None:
        for name, display in games.items():
            if slug == _slug(display):
                wanted = name
    held_text = ", ".join(
        f"{g} ({n:,} hands)" for g, (_, n) in sorted(held.items(), key=lambda kv: -kv[1][1])
    )
    if wanted is None:
        why = (
            " (hhparse reads Courchevel and Omaha games only: hands of other games are kept in rejects as "
            "unsupported, see hhparse report rejects)"
            if any(slug.startswith(x) for x in _NOT_READ)
            else ""
        )
        raise UsageError(
            f"unknown game {text!r}{why}; games: {', '.join(games)}; the warehouse holds: {held_text or 'none'}"
        )
    if wanted not in held:
        raise UsageError(f"no {games[wanted]} hands in the warehouse; it holds: {held_text or 'none'}")
    if wanted != slug:
        notes.append(f"game {text!r} taken as {wanted}")
    return wanted


_CURRENCY_WORDS = {
    "usd": "USD",
    "eur": "EUR",
    "gbp": "GBP",
    "cad": "CAD",
    "inr": "INR",
    "cny": "CNY",
    "chips": "chips",
    "play": "play",
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "₹": "INR",
    "¥": "CNY",
}


def parse_stakes(text: str) -> tuple[list[tuple[Decimal | None, Decimal]], str | None, bool]:
    """The readings of a ``--stakes`` text: (small blind or None, big blind) pairs in the unit
    as written (and, for whole numbers without a currency sign, in cents too), the unit when the
    text names one, and whether it had a currency sign.

    ``0.10/0.25``, ``$0.10/$0.25``, ``$0.10-$0.25``, ``$0.10-$0.25 - USD`` (a file name's form),
    ``0.10/0.25 USD``, ``10/25`` (cents, or chips), ``0.25`` (the big blind alone), ``15/30 chips``.

    Raises:
        UsageError: not stakes.
    """
    raw = text.strip()
    unit = None
    for word in re.findall(r"[A-Za-z]+|[$€£₹¥]", raw):
        if word.lower() in _CURRENCY_WORDS:
            unit = unit or _CURRENCY_WORDS[word.lower()]
    sign = bool(re.search(r"[$€£₹¥]", raw))
    numbers = re.findall(r"\d[\d,]*(?:\.\d+)?|\.\d+", raw)
    rest = re.sub(r"\d[\d,]*(?:\.\d+)?|\.\d+|[$€£₹¥]|[A-Za-z]+|[\s/\-+|]", "", raw)
    if not numbers or len(numbers) > 2 or rest:
        raise UsageError(
            f"--stakes must be stakes like 0.10/0.25, $0.10-$0.25, 0.10/0.25 USD, 10/25 (cents) or the big "
            f"blind alone (0.25), not {text!r}"
        )
    try:
        values = [Decimal(n.replace(",", "")) for n in numbers]
    except InvalidOperation:
        raise UsageError(f"--stakes: bad amount in {text!r}") from None
    pair = (values[0], values[1]) if len(values) == 2 else (None, values[0])
    readings: list[tuple[Decimal | None, Decimal]] = [pair]
    if not sign and all("." not in n for n in numbers):
        readings.append((None if pair[0] is None else pair[0] / 100, pair[1] / 100))
    return readings, unit, sign


def _resolve_stakes(con: Any, text: str, notes: list[str]) -> list[str]:
    held = _rows(
        con,
        "SELECT DISTINCT stakes, small_blind, big_blind, unit FROM stg_hands ORDER BY unit, big_blind, small_blind",
    )
    buyins = [
        str(r[0])
        for r in _rows(con, "SELECT DISTINCT buyin_label FROM hands WHERE buyin_label IS NOT NULL ORDER BY 1")
    ]
    wanted = _amounts(text)
    by_buyin = [b for b in buyins if "+" in text and _amounts(b) == wanted]
    if "+" in text:
        if by_buyin:
            return by_buyin
        raise UsageError(
            f"no tournament with the buy-in {text!r}; buy-ins in the warehouse: {_listing(buyins) or 'none'}"
        )
    readings, unit, sign = parse_stakes(text)
    matched: list[str] = []
    cents_used = False
    for label, sb, bb, hunit in held:
        if unit is not None and unit != hunit:
            continue
        if sign and hunit in ("chips", "play"):
            continue
        for i, (want_sb, want_bb) in enumerate(readings):
            if i == 1 and hunit in ("chips", "play"):
                continue  # cents are a currency's
            if want_bb == bb and (want_sb is None or want_sb == sb):
                matched.append(str(label))
                cents_used = cents_used or i == 1
                break
    if not matched:
        raise UsageError(
            f"no hands at stakes {text!r}; the warehouse holds: {_listing([str(r[0]) for r in held])}"
            + (f"; tournament buy-ins: {_listing(buyins)}" if buyins else "")
        )
    if len(matched) > 1:
        notes.append(f"stakes {text!r} matched {', '.join(matched)}")
    elif cents_used:
        notes.append(f"stakes {text!r} read in cents: {matched[0]}")
    return matched


def _amounts(text: str) -> tuple[Decimal, ...]:
    """The numbers of a buy-in as written: ``$5+$0.50`` and ``$5.00+$0.50 USD`` are the same."""
    try:
        return tuple(Decimal(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text))
    except InvalidOperation:
        return ()


def _listing(items: list[str], limit: int = 20) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", … ({len(items) - limit} more)" if len(items) > limit else "")
