"""Tables that play on: cash sessions and single-table tournaments as streams of hands.

Why sessions rather than independent hands: the warehouse and the reports key on players across
hands (stacks carry over, the button moves, players sit out, leave, join and rebuy; tournament
blinds rise and players bust), so the generator must produce the continuity a real file has.
Each session owns one ``random.Random`` derived from the run seed, so output is deterministic and
a session's hands never depend on another session's draws.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hhparse.model import FlopForm, Structure, TableEventKind, Tournament
from hhparse.money import format_amount, format_currency
from hhparse.rules.spec import BY_SLUG, GameSpec, spec_for
from hhparse.rules.variants import BETTINGS, Variant
from hhparse.synth.handsim import HandResult, HandSetup, PlayerIn, simulate_hand
from hhparse.synth.names import STARS as _STARS
from hhparse.synth.names import player_pool, roman
from hhparse.synth.styles import STYLES, Style

__all__ = [
    "GAMES",
    "STRUCTURES",
    "SessionInfo",
    "SessionPlan",
    "cash_session",
    "plan_sessions",
    "tournament_session",
]

GAMES: dict[str, Variant] = BY_SLUG
"""Every game by its ``--game`` name: the table of games (:mod:`hhparse.rules.variants`)."""
STRUCTURES: dict[str, Structure] = {b.structure.value: b.structure for b in BETTINGS}

_ET = ZoneInfo("America/New_York")
_LOCAL_ZONES = (
    ("CET", "Europe/Paris"),
    ("EET", "Europe/Helsinki"),
    ("PT", "America/Los_Angeles"),
    ("CT", "America/Chicago"),
    ("WET", "Europe/Lisbon"),
)
_STAKES = ((1, 2), (2, 5), (5, 10), (10, 25), (25, 50), (50, 100), (100, 200), (200, 400))  # cents
_LEVELS = (
    (10, 20),
    (15, 30),
    (25, 50),
    (50, 100),
    (75, 150),
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (400, 800),
    (500, 1000),
    (600, 1200),
    (800, 1600),
    (1000, 2000),
    (1500, 3000),
    (2000, 4000),
    (3000, 6000),
    (4000, 8000),
    (6000, 12000),
    (8000, 16000),
    (10000, 20000),
)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """What the file writer needs to name the file a hand belongs to."""

    key: str  # unique per table and day: the output file
    file_name: str


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """One table's run: drawn up front from the run's seed so sessions are independent."""

    kind: str  # "cash" | "tournament"
    game: str
    structure: str
    players: int
    seed: int
    table: str  # cash table name, unique in the run
    hands: int
    tournament_id: int


@dataclass(slots=True)
class _Seated:
    name: str
    seat: int
    stack: int
    style: Style
    bounty: int | None = None
    sit_out: int = 0  # hands left sitting out
    new: bool = False  # joined: posts a big blind on the first hand unless in the blinds
    leaving: bool = False


class HandIds:
    """Hand ids unique across a whole run, rising within every session as in a real file.

    Hand n of the run gets an id in its own slot ``[base + 97 n, base + 97 n + 96]``, so no two
    hands of one run can share an id whatever the sessions' dates (random ids per session did
    collide: 6 duplicates in a million hands). ``base`` depends on the seed, so runs with other
    seeds (up to about a million hands each) do not collide with each other either.
    """

    __slots__ = ("_base", "_n", "_rng")

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(f"hand-ids-{seed}")
        self._base = 10**11 + (seed % 900) * 10**8
        self._n = 0

    def next(self) -> int:
        n = self._n
        self._n = n + 1
        return self._base + 97 * n + self._rng.randrange(97)


@dataclass(slots=True)
class _Clock:
    """Hand ids and timestamps: monotonic across a session, as in a real file."""

    rng: random.Random
    et: datetime
    ids: HandIds
    hand_id: int = 0
    line: int = 1
    day: str = field(default="")

    def __post_init__(self) -> None:
        self.hand_id = self.ids.next()

    def advance(self) -> None:
        self.et += timedelta(seconds=self.rng.randint(15, 140))
        self.hand_id = self.ids.next()


def _date_for(variant: Variant, rng: random.Random) -> tuple[datetime, FlopForm]:
    """A simulated ET start time in a year the game was dealt, and the flop form the client
    printed then: a game with an exposed card printed its flop ``[8s] [2c 9h]`` from mid-2017
    (half the tables before 2016, half after)."""
    years = variant.years
    form = FlopForm.PLAIN
    if variant.exposed_card:
        if rng.random() < 0.5:
            year = rng.choice([y for y in years if y < 2016])
        else:
            year, form = rng.choice([y for y in years if y > 2016]), FlopForm.SPLIT
            if year == 2017:
                return datetime(
                    2017, rng.randint(6, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59)
                ), form
    else:
        year = rng.choice(years)
    return datetime(
        year, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59)
    ), form


def _times(
    et: datetime, local_zone: tuple[str, str] | None
) -> tuple[datetime, str, datetime | None, datetime]:
    """(local time, zone, bracketed ET time or None, UTC) computed the way the parser derives them."""
    utc = et.replace(tzinfo=_ET).astimezone(UTC)
    if local_zone is None:
        return et, "ET", None, utc
    label, zone = local_zone
    local = utc.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    return local, label, et, utc


def _file_game(spec: GameSpec) -> str:
    return spec.name.replace("/", "-")


def _seat_order(seated: list[_Seated]) -> list[_Seated]:
    return sorted(seated, key=lambda s: s.seat)


def _next_button(active: list[_Seated], button: int) -> int:
    seats = sorted(s.seat for s in active)
    for s in seats:
        if s > button:
            return s
    return seats[0]


def _blind_positions(active: list[_Seated], button: int) -> tuple[int, int]:
    """(small blind seat, big blind seat) for this button, heads-up included."""
    seats = sorted(s.seat for s in active)
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    if len(seats) == 2:
        return button, after[0]
    return after[0], after[1]


def _styles(rng: random.Random, count: int) -> list[Style]:
    names = sorted(STYLES)
    return [STYLES[rng.choice(names)] for _ in range(count)]


def plan_sessions(
    rng: random.Random, games: list[str], structures: list[str], kinds: list[str], players: tuple[int, int]
) -> Iterator[SessionPlan]:
    """An endless stream of table sessions cycling over the requested games, structures and kinds.

    The caller stops pulling when it has enough hands; each plan carries its own seed and a table
    name unique in the run (so two sessions never write into one file).
    """
    i = 0
    offset = rng.randrange(len(_STARS) * 12)  # table names differ between runs with other seeds
    while True:
        kind = kinds[i % len(kinds)]
        game = games[(i // len(kinds)) % len(games)]
        structure = structures[(i // (len(kinds) * len(games))) % len(structures)]
        n = min(rng.randint(players[0], players[1]), GAMES[game].max_players)
        size = rng.randint(40, 260) if kind == "cash" else 10**9
        k = i + offset
        table = f"{_STARS[k % len(_STARS)]} {roman(k // len(_STARS) + 1)}"
        yield SessionPlan(
            kind, game, structure, n, rng.getrandbits(63), table, size, 1_000_000_000 + 7919 * i
        )
        i += 1


def cash_session(plan: SessionPlan, hero: str, ids: HandIds) -> Iterator[tuple[SessionInfo, HandResult]]:
    """A cash table from the hero's seat: blinds, rake, rebuys, sit-outs, joins and leaves."""
    rng = random.Random(plan.seed)
    variant = GAMES[plan.game]
    spec = spec_for(variant.game, variant.hilo, STRUCTURES[plan.structure])
    start, form = _date_for(variant, rng)
    sb, bb = rng.choice(_STAKES)
    fixed = spec.structure is Structure.FIXED_LIMIT
    if fixed:
        header_small, header_big = bb * 2, bb * 4  # $2/$4 limit: blinds $1/$2
        post_sb, post_bb = bb, bb * 2
    else:
        header_small, header_big = sb, bb
        post_sb, post_bb = sb, bb
    max_seats = 2 if plan.players == 2 else (6 if plan.players <= 6 else 9)
    table = plan.table
    zone = None if start.year < 2010 else rng.choice(_LOCAL_ZONES)
    kind_word = "Game" if start.year < 2013 else "Hand"
    rake_cap = min(max(post_bb * 3, 5), 300)
    pool = player_pool(rng, 40, hero)
    styles = dict(zip(pool, _styles(rng, len(pool)), strict=True))
    buy_max = post_bb * 100
    seated = [_Seated(hero, rng.randint(1, max_seats), buy_max, STYLES["tight-aggressive"])]
    free = [s for s in range(1, max_seats + 1) if s != seated[0].seat]
    rng.shuffle(free)
    for _ in range(plan.players - 1):
        name = pool.pop()
        seated.append(_Seated(name, free.pop(), rng.randint(20, 150) * post_bb, styles[name]))
    clock = _Clock(rng, start, ids)
    button = rng.choice([s.seat for s in seated])
    era_cards = rng.random() < 0.5
    allow_rit = start.year >= 2012
    name_tail = f" {table} - {format_amount(header_small, '$')}-{format_amount(header_big, '$')} - USD {_file_game(spec)}.txt"
    info = SessionInfo("", "")  # replaced on the first hand (a new day: a new file)
    played = 0
    while played < plan.hands:
        # who is dealt in; newcomers wait while they would be small blind or button
        active = [s for s in seated if s.sit_out == 0]
        if len(active) < 2:
            for s in seated:
                s.sit_out = 0
            active = list(seated)
        button = _next_button(active, button) if played else button
        sb_seat, bb_seat = _blind_positions(active, button)
        pre: list[tuple[str, TableEventKind]] = []
        waiting = [s for s in active if s.new and s.seat in (sb_seat, button) and len(active) > 3]
        if waiting:
            for s in waiting:
                pre.append((s.name, TableEventKind.ALLOWED_AFTER_BUTTON))
            active = [s for s in active if s not in waiting]
            button = button if button in {s.seat for s in active} else _next_button(active, button)
            sb_seat, bb_seat = _blind_positions(active, button)
        for s in seated:
            if s.sit_out > 0:
                pre.append(
                    (
                        s.name,
                        TableEventKind.IS_SITTING_OUT_COLON
                        if rng.random() < 0.5
                        else TableEventKind.SITS_OUT,
                    )
                )
        clock.advance()
        local, tz, et, utc = _times(clock.et, zone)
        day = f"{local.year:04d}{local.month:02d}{local.day:02d}"
        if day != clock.day:
            clock.day, clock.line = day, 1  # a new day is a new file: lines restart
            info = SessionInfo(f"cash:{table}:{day}", f"HH{day}{name_tail}")
        joins: list[tuple[str, int]] = []
        taken = {s.seat for s in seated}
        empty = [x for x in range(1, max_seats + 1) if x not in taken]
        if empty and rng.random() < 0.08 and pool:
            joins.append((pool.pop(), rng.choice(empty)))
        leaves = [s.name for s in seated if s.name != hero and rng.random() < 0.015]
        players = tuple(
            PlayerIn(s.name, s.seat, s.stack, s.style, posts_extra_bb=s.new and s.seat != bb_seat)
            for s in _seat_order(active)
        )
        setup = HandSetup(
            spec=spec,
            hand_id=str(clock.hand_id),
            hand_kind=kind_word,
            table=table,
            max_seats=max_seats,
            button_seat=button,
            players=players,
            hero=hero,
            small_blind=post_sb,
            big_blind=post_bb,
            header_small=header_small,
            header_big=header_big,
            local_time=local,
            time_zone=tz,
            et_time=et,
            start_utc=utc,
            tournament=None,
            currency="USD",
            symbol="$",
            flop_form=form,
            first_line=clock.line,
            source="<synth>",
            rake_percent=5,
            rake_cap=rake_cap,
            allow_run_twice=allow_rit,
            muck_with_cards=era_cards,
            pre_deal=tuple(pre),
            joins=tuple(joins),
            leaves=tuple(leaves),
        )
        result = simulate_hand(setup, rng)
        played += 1
        yield info, result
        # between hands: stacks, sit-outs, leavers, joiners, rebuys
        for s in seated:
            if s.name in result.stacks:
                s.stack = result.stacks[s.name]
                s.new = False
            if s.sit_out > 0:
                s.sit_out -= 1
        for name in result.timed_out:
            for s in seated:
                if s.name == name and s.name != hero:
                    s.sit_out = rng.randint(1, 4)
        gone = set(result.left)
        seated = [s for s in seated if s.name not in gone]
        for name, seat in joins:
            if seat not in {s.seat for s in seated}:
                seated.append(
                    _Seated(
                        name,
                        seat,
                        rng.randint(40, 100) * post_bb,
                        styles.get(name, STYLES["loose-passive"]),
                        new=True,
                    )
                )
        for s in list(seated):
            if s.stack < post_bb * 2:
                if s.name == hero or rng.random() < 0.6:
                    s.stack = buy_max  # rebuy to the table maximum
                else:
                    seated.remove(s)
            elif s.stack < buy_max // 3 and rng.random() < 0.2:
                s.stack = buy_max
        if len(seated) < 2:
            name = pool.pop() if pool else f"filler{played}"
            taken = {s.seat for s in seated}
            seat = next(x for x in range(1, max_seats + 1) if x not in taken)
            seated.append(_Seated(name, seat, buy_max, styles.get(name, STYLES["loose-passive"])))
        clock.line = _next_line(result)


def _next_line(result: HandResult) -> int:
    """The next hand starts after this hand's last line and three blank lines."""
    hand = result.hand
    last = hand.summary.seats[-1].line if hand.summary and hand.summary.seats else hand.line
    return last + 4


def tournament_session(
    plan: SessionPlan, hero: str, ids: HandIds
) -> Iterator[tuple[SessionInfo, HandResult]]:
    """A single-table knockout/freezeout until the hero busts or wins (or the plan's hand budget)."""
    rng = random.Random(plan.seed)
    variant = GAMES[plan.game]
    spec = spec_for(variant.game, variant.hilo, STRUCTURES[plan.structure])
    start, form = _date_for(variant, rng)
    n = max(plan.players, 3)
    max_seats = 6 if n <= 6 else 9
    flavour = rng.choice(("pko", "ko", "freezeout"))
    parts: tuple[int, ...]
    if flavour == "pko":
        parts = (341, 341, 68)
    elif flavour == "ko":
        parts = (108, 27, 15)
    else:
        parts = (500, 50)
    label = "+".join(format_currency(p, "$") for p in parts) + " USD"
    tid = str(plan.tournament_id + rng.randint(0, 7000))
    table = f"{tid} 1"
    zone = None if start.year < 2010 else rng.choice(_LOCAL_ZONES)
    kind_word = "Game" if start.year < 2013 else "Hand"
    chips = rng.choice((1500, 3000))
    pool = player_pool(rng, n - 1, hero)
    styles = _styles(rng, n - 1)
    seats = rng.sample(range(1, max_seats + 1), n)
    bounty0 = parts[1] if flavour == "pko" else None
    seated = [_Seated(hero, seats[0], chips, STYLES["tight-aggressive"], bounty0)]
    for i, name in enumerate(pool):
        seated.append(_Seated(name, seats[i + 1], chips, styles[i], bounty0))
    pool_money = parts[0] * n
    paid = (50, 30, 20) if n > 6 else (65, 35)
    prizes = tuple(pool_money * pct // 100 for pct in paid)
    clock = _Clock(rng, start, ids)
    button = rng.choice(seats)
    level = 0
    per_level = rng.randint(8, 14)
    played = 0
    era_cards = rng.random() < 0.5
    file_game = _file_game(spec)
    buyin_file = " + ".join(format_currency(p, "$") for p in parts)
    levels: dict[int, Tournament] = {}  # one (immutable) header part per blind level
    while played < plan.hands and len(seated) > 1:
        level = min(played // per_level, len(_LEVELS) - 1)
        lsb, lbb = _LEVELS[level]
        fixed = spec.structure is Structure.FIXED_LIMIT
        header_small, header_big = (lbb, lbb * 2) if fixed else (lsb, lbb)
        post_sb, post_bb = (lsb, lbb) if not fixed else (lbb // 2, lbb)
        active = _seat_order(seated)
        button = _next_button(active, button) if played else button
        clock.advance()
        local, tz, et, utc = _times(clock.et, zone)
        if not played:  # the client names a tournament's file after the day it started
            info = SessionInfo(f"tour:{tid}", f"HH{local:%Y%m%d} T{tid} {file_game} {buyin_file}.txt")
        tour = levels.get(level)
        if tour is None:
            tour = levels[level] = Tournament(tid, parts, "USD", label, roman(level + 1))
        players = tuple(PlayerIn(s.name, s.seat, s.stack, s.style, bounty=s.bounty) for s in active)
        setup = HandSetup(
            spec=spec,
            hand_id=str(clock.hand_id),
            hand_kind=kind_word,
            table=table,
            max_seats=max_seats,
            button_seat=button,
            players=players,
            hero=hero,
            small_blind=post_sb,
            big_blind=post_bb,
            header_small=header_small,
            header_big=header_big,
            local_time=local,
            time_zone=tz,
            et_time=et,
            start_utc=utc,
            tournament=tour,
            currency=None,
            symbol="",
            flop_form=form,
            first_line=clock.line,
            source="<synth>",
            progressive_ko=flavour == "pko",
            fixed_bounty=parts[1] if flavour == "ko" else None,
            players_left=len(seated),
            prizes=prizes,
            muck_with_cards=era_cards,
            events_chance=0.08,
        )
        result = simulate_hand(setup, rng)
        played += 1
        yield info, result
        for s in seated:
            s.stack = result.stacks.get(s.name, s.stack)
            if s.bounty is not None:
                s.bounty = result.bounties.get(s.name, s.bounty)
        out = set(result.eliminated)
        seated = [s for s in seated if s.name not in out]
        clock.line = _next_line(result)
        if hero in out:
            break
