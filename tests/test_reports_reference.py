"""The reports rewritten for large warehouses (issue #18) give, row for row and type for type, what
their straightforward formulations give (``tests/data/report_reference/``), under every filter (the
hand list also under each of its own filters, with and without a player and --limit).

Run on crafted histories that hit the rewrites' edge cases (hands starting at the same instant on
two tables, gaps of exactly 30 minutes and one second more, door cards pairing and suiting hole
cards) and on the sample histories with the Courchevel corpus (shown hands without a showdown,
hi/lo and high-only games, cash and tournaments).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

import hhparse
import hhparse.reports.query as query
from hhparse.reports.filters import resolve

REPO = Path(__file__).resolve().parent.parent
REFERENCE = Path(__file__).resolve().parent / "data" / "report_reference"
REWRITTEN = ("hilo", "door-card", "sessions", "summary", "positions")
FLOAT_SUMS = {
    "sessions": ("bb_per_100",),
    "door-card": ("bb_per_100",),
    "hilo": ("avg_pot_share",),
    "summary": ("bb_per_100", "ev_bb_per_100"),
    "positions": ("bb_per_100", "ev_bb_per_100"),
}
"""Columns rounded from a float sum or average, which DuckDB adds in whatever order its threads
deliver the rows (the reference itself, run twice on 10 M hands, gave door-card bb/100 values
0.01 apart on 32 of 171,035 rows), and which the sessions rewrite adds per 30-minute slice, then
per session (the summary's: divided by the big blind from the minor units, not from the decimals):
where the exact value falls on a rounding tie of the second decimal, two runs may differ by 0.01.
Every other column must be identical."""

SPLITS: tuple[list[str], ...] = (
    ["stakes"],
    ["game"],
    ["structure"],
    ["month"],
    ["position"],
    ["table-size"],
    ["stakes", "month"],
    ["game", "structure", "position", "table-size"],
)
"""The summary's --by splits: each alone, and several together."""

HAND = """\
PokerStars Hand #{hid}:  Courchevel Hi/Lo Pot Limit ($0.10/$0.25 USD) - {when} ET
Table '{table}' 6-max Seat #1 is the button
Seat 1: Hero ($25 in chips)
Seat 2: Villain1 ($25 in chips)
Seat 3: Villain2 ($25 in chips)
Villain1: posts small blind $0.10
Villain2: posts big blind $0.25
*** HOLE CARDS ***
Dealt to Hero [{hole}]
*** PRE-FLOP *** [{door}]
Hero: raises $0.50 to $0.75
Villain1: folds
Villain2: folds
Uncalled bet ($0.50) returned to Hero
Hero collected $0.60 from pot
*** SUMMARY ***
Total pot $0.60 | Rake $0
Seat 1: Hero (button) collected ($0.60)
Seat 2: Villain1 (small blind) folded before Flop
Seat 3: Villain2 (big blind) folded before Flop
"""

# (table, ET start, door card, Hero's hole cards). Sessions of Hero: the first three hands (two
# at the same instant, the third exactly 30 minutes later: not a gap), then two more at one
# instant 30 minutes and 1 second later (a gap), then one two hours on. Door cards: the Tc pairs
# and suits the hole cards, the 9s only suits them, the 8c does neither.
CRAFTED = [
    ("Crafted A", "2024/03/01 12:00:00", "Tc", "Th Kd 7c 2h 9s"),
    ("Crafted B", "2024/03/01 12:00:00", "9s", "2s 3d 4d 5c Jh"),
    ("Crafted A", "2024/03/01 12:30:00", "8c", "Qh Jd Td 3h 2d"),
    ("Crafted A", "2024/03/01 13:00:01", "Ac", "As Ad 6c 6h 4s"),
    ("Crafted B", "2024/03/01 13:00:01", "5d", "Kh 4c 3s Th Jh"),
    ("Crafted A", "2024/03/01 15:00:01", "Kc", "Kh Kd 2c 3c 4c"),
]


def _crafted(root: Path) -> Path:
    from hhparse.importer import import_paths

    text = "\n\n\n".join(
        HAND.format(hid=2_000_000_001 + i, when=when, table=table, door=door, hole=hole)
        for i, (table, when, door, hole) in enumerate(CRAFTED)
    )
    (root / "crafted.txt").write_text(text, encoding="utf-8")
    result = import_paths([root / "crafted.txt"], root / "wh", jobs=1)
    assert result.stats.new == len(CRAFTED)
    return root / "wh"


@pytest.fixture(scope="module")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    con = hhparse.warehouse(_crafted(tmp_path_factory.mktemp("crafted")))
    yield con
    con.close()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    from hhparse.importer import import_paths

    wh = tmp_path_factory.mktemp("sample") / "wh"
    import_paths(
        [REPO / "sample_histories", corpus_dir / "courchevel-hilo", corpus_dir / "courchevel"], wh, jobs=1
    )
    con = hhparse.warehouse(wh)
    yield con
    con.close()


def _reference(
    name: str, con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, **kw: Any
) -> pd.DataFrame:
    """Report ``name`` through :func:`hhparse.report` (same filter resolution, same frame) with its
    reference SQL in place of the shipped one."""
    path = REFERENCE / hhparse.reports.REPORTS[name].file
    with monkeypatch.context() as m:
        m.setattr(query, "report_sql", lambda _name: path.read_text(encoding="utf-8"))
        return hhparse.report(name, con, **kw)


def _assert_same(
    name: str, con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, **kw: Any
) -> int:
    fast = hhparse.report(name, con, **kw)
    ref = _reference(name, con, monkeypatch, **kw)
    assert list(fast.columns) == list(ref.columns), (name, kw)
    assert list(fast.dtypes) == list(ref.dtypes), (name, kw)
    loose = FLOAT_SUMS.get(name, ())
    pd.testing.assert_frame_equal(
        fast.drop(columns=list(loose)), ref.drop(columns=list(loose)), check_exact=True
    )
    for column in loose:  # the same float sum in another order: equal but at a rounding tie
        assert (fast[column].isna() == ref[column].isna()).all(), (name, kw, column)  # NULL where NULL
        assert ((fast[column] - ref[column]).abs().fillna(0) <= 0.01 + 1e-9).all(), (name, kw, column)
    return len(fast)


def _filters(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every filter alone and two together, with values the warehouse holds (each combination of
    --game and --stakes is its own branch of ``player_rows_in``)."""
    opponent = con.execute(
        "SELECT player FROM stg_hand_players WHERE NOT is_hero AND hilo GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchall()[0][0]
    first, last = con.execute("SELECT min(hand_date), max(hand_date) FROM stg_hands").fetchall()[0]
    middle = first + (last - first) / 2
    stakes = con.execute(
        "SELECT stakes FROM stg_hands WHERE tournament_id IS NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchall()[0][0]
    buyin = con.execute(
        "SELECT buyin_label FROM stg_hands WHERE buyin_label IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchall()
    hilo = con.execute(  # the hi/lo game's least played cash stakes: a game and stakes together
        "SELECT stakes FROM stg_hands WHERE tournament_id IS NULL AND game = 'courchevel' AND hilo "
        "GROUP BY 1 ORDER BY count(*), 1 LIMIT 1"
    ).fetchall()
    out: list[dict[str, Any]] = [
        {},
        {"player": "Hero"},
        {"player": opponent},
        {"since": str(middle)},
        {"until": str(middle)},
        {"game": "courchevel-hilo"},
        {"stakes": stakes.rsplit(" ", 1)[0]},
        {"player": "Hero", "since": str(middle)},
        {"player": opponent, "game": "courchevel-hilo", "until": str(last)},
    ]
    if buyin:
        out.append({"stakes": buyin[0][0]})
    if hilo:
        out.append({"game": "courchevel-hilo", "stakes": hilo[0][0]})
    return out


@pytest.mark.parametrize("name", REWRITTEN)
def test_rewritten_report_equals_reference_on_crafted(
    name: str, crafted: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    for kw in (
        {},
        {"player": "Hero"},
        {"player": "Villain2"},
        {"since": "2024-03-01", "until": "2024-03-01"},
    ):
        assert _assert_same(name, crafted, monkeypatch, **kw) > 0


@pytest.mark.parametrize("name", REWRITTEN)
def test_rewritten_report_equals_reference_on_sample_and_corpus(
    name: str, sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [_assert_same(name, sample, monkeypatch, **kw) for kw in _filters(sample)]
    assert rows[0] > 0 and min(rows) > 0  # every filter matched something, so every row was compared


def test_sessions_split_on_gaps_over_30_minutes_with_ties(crafted: duckdb.DuckDBPyConnection) -> None:
    s = hhparse.report("sessions", crafted)
    assert s["hands"].tolist() == [3, 2, 1]
    assert s["duration_min"].tolist() == [30.0, 0.0, 0.0]
    assert s["net"].tolist() == [Decimal("1.05"), Decimal("0.70"), Decimal("0.35")]


def test_door_card_pairs_and_suits_by_substring(crafted: duckdb.DuckDBPyConnection) -> None:
    d = hhparse.report("door-card", crafted, player="Hero").set_index(["breakdown", "value"])
    # pairs: the T, A and K doors have their rank in the hole; the 9, 8 and 5 doors do not
    assert (d.loc[("pairs", "yes"), "hands"], d.loc[("pairs", "no"), "hands"]) == (3, 3)
    # suits: Tc (7c), 9s (2s), Ac (6c), Kc (2c) have a suit-mate in the hole; 8c and 5d do not
    assert (d.loc[("suits", "yes"), "hands"], d.loc[("suits", "no"), "hands"]) == (4, 2)


@pytest.mark.parametrize("by", SPLITS, ids=lambda b: "+".join(b))
def test_summary_splits_equal_reference_on_sample_and_corpus(
    by: list[str], sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [_assert_same("summary", sample, monkeypatch, by=by, **kw) for kw in _filters(sample)]
    assert min(rows) > 0


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "America/St_Johns", "UTC"])
def test_summary_dates_equal_reference_in_any_session_time_zone(
    zone: str, sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hand_day takes the epoch's UTC day in a UTC session and the time zone cast elsewhere: the
    months and the --since / --until days are the reference's either way."""
    before = sample.execute("SELECT current_setting('TimeZone')").fetchall()[0][0]
    sample.execute(f"SET TimeZone = '{zone}'")
    try:
        # the session's date of the median hand: a day boundary with hands on both sides
        middle = str(
            sample.execute("SELECT CAST(quantile_disc(start_utc, 0.5) AS DATE) FROM stg_hands").fetchall()[0][
                0
            ]
        )
        for kw in ({}, {"since": middle}, {"until": middle}, {"player": "Hero", "since": middle}):
            assert _assert_same("summary", sample, monkeypatch, by=["month"], **kw) > 0
            assert _assert_same("positions", sample, monkeypatch, **kw) > 0
    finally:
        sample.execute(f"SET TimeZone = '{before}'")


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu"])
def test_player_stats_equal_the_rep18d_version_under_every_filter_and_split(
    zone: str, sample: duckdb.DuckDBPyConnection
) -> None:
    """stats.sql's player_stats (its own branch per common split list, the --game / --stakes joins
    only when given) gives the rows of its former version (``stats_rep18d.sql``): every filter,
    no split, each split and several, in session zones with DST changes and half-hour offsets."""
    sample.execute((REFERENCE / "stats_rep18d.sql").read_text(encoding="utf-8"))
    before = sample.execute("SELECT current_setting('TimeZone')").fetchall()[0][0]
    sample.execute(f"SET TimeZone = '{zone}'")
    float_sums = {"bb_per_100", "ev_bb_per_100"}
    try:
        for kw in _filters(sample):
            scope = resolve(sample, **kw)
            for by in ([], *SPLITS):
                params = {**scope.params(), "by": by}
                got, want = (
                    sample.execute(
                        f"SELECT * FROM {macro}($player, $since, $until, $game, $stakes, CAST($by AS VARCHAR[])) "
                        "ORDER BY ALL",
                        params,
                    ).df()
                    for macro in ("player_stats", "player_stats_rep18d")
                )
                assert len(got) > 0 or not kw, (kw, by)
                assert list(got.columns) == list(want.columns) and list(got.dtypes) == list(want.dtypes)
                pd.testing.assert_frame_equal(
                    got.drop(columns=list(float_sums)), want.drop(columns=list(float_sums)), check_exact=True
                )
                for column in float_sums:
                    assert (got[column].isna() == want[column].isna()).all(), (kw, by, column)
                    assert ((got[column] - want[column]).abs().fillna(0) <= 0.01 + 1e-9).all(), (
                        kw,
                        by,
                        column,
                    )
    finally:
        sample.execute(f"SET TimeZone = '{before}'")


@pytest.mark.parametrize(
    "zone", ["UTC", "Etc/UTC", "GMT", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu"]
)
def test_hand_day_is_the_session_date(zone: str, crafted: duckdb.DuckDBPyConnection) -> None:
    """stats.sql's hand_day(ts) is CAST(ts AS DATE) in every zone: around midnight UTC and local,
    to the microsecond, before 1970 too (the UTC shortcut's floor division)."""
    before = crafted.execute("SELECT current_setting('TimeZone')").fetchall()[0][0]
    crafted.execute(f"SET TimeZone = '{zone}'")
    try:
        wrong = crafted.execute(
            """
            WITH t AS (
                SELECT TIMESTAMPTZ '1969-12-30 00:00:00+00' + to_microseconds(k * 419_999_999) AS ts
                FROM range(0, 2000) AS r(k)
                UNION ALL
                SELECT TIMESTAMPTZ '2024-03-01 00:00:00+00' + to_microseconds(d) AS ts
                FROM (VALUES (-1), (0), (1), (86_399_999_999), (86_400_000_000)) AS v(d)
            )
            SELECT count(*) FILTER (WHERE hand_day(ts) IS DISTINCT FROM CAST(ts AS DATE)), count(*) FROM t
            """
        ).fetchall()[0]
    finally:
        crafted.execute(f"SET TimeZone = '{before}'")
    assert wrong == (0, 2005)


# Three players dealt in, two of them quartered (the lows tie, Hero's trips take the high half),
# the third folded on the flop: a hand where "anyone quartered" and "everyone quartered" differ
# (the corpus's quartered hands are heads-up, where both players are).
QUARTERED = """\
PokerStars Hand #2000000101:  Courchevel Hi/Lo Pot Limit ($0.10/$0.25 USD) - 2024/03/02 12:00:00 ET
Table 'Crafted C' 6-max Seat #1 is the button
Seat 1: Hero ($25 in chips)
Seat 2: Villain1 ($25 in chips)
Seat 3: Villain2 ($25 in chips)
Villain1: posts small blind $0.10
Villain2: posts big blind $0.25
*** HOLE CARDS ***
Dealt to Hero [Kh Kd 4c 5d 9s]
*** PRE-FLOP *** [Ac]
Hero: raises $0.55 to $0.80
Villain1: calls $0.70
Villain2: calls $0.55
*** FLOP *** [Ac 2d 7h]
Villain1: checks
Villain2: checks
Hero: bets $1
Villain1: calls $1
Villain2: folds
*** TURN *** [Ac 2d 7h] [Ks]
Villain1: checks
Hero: checks
*** RIVER *** [Ac 2d 7h Ks] [Qs]
Villain1: checks
Hero: checks
*** SHOW DOWN ***
Villain1: shows [4h 5s Jc Jd 9c] (HI: a pair of Jacks; LO: 7,5,4,2,A)
Hero: shows [Kh Kd 4c 5d 9s] (HI: three of a kind, Kings; LO: 7,5,4,2,A)
Hero collected $2.20 from pot
Villain1 collected $1.10 from pot
Hero collected $1.10 from pot
*** SUMMARY ***
Total pot $4.40 | Rake $0
Board [Ac 2d 7h Ks Qs]
Seat 1: Hero (button) showed [Kh Kd 4c 5d 9s] and won ($3.30) with HI: three of a kind, Kings; LO: 7,5,4,2,A
Seat 2: Villain1 (small blind) showed [4h 5s Jc Jd 9c] and won ($1.10) with HI: a pair of Jacks; LO: 7,5,4,2,A
Seat 3: Villain2 (big blind) folded on the Flop
"""


@pytest.fixture(scope="module")
def crafted_list(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """The crafted hands and the quartered one, for the hand list."""
    from hhparse.importer import import_paths

    root = tmp_path_factory.mktemp("crafted_list")
    _crafted(root)
    (root / "quartered.txt").write_text(QUARTERED, encoding="utf-8")
    result = import_paths([root / "crafted.txt", root / "quartered.txt"], root / "wh", jobs=1)
    assert result.stats.new == 1 and result.stats.rejected == 0
    con = hhparse.warehouse(root / "wh")
    yield con
    con.close()


HAND_FILTERS: list[dict[str, Any]] = [
    {},
    {"limit": 1},
    {"limit": 7},
    {"min_pot": "1"},
    {"min_pot": "40bb", "limit": 5},
    {"showdown": True},
    {"showdown": False, "limit": 4},
    {"all_in": True},
    {"all_in": False, "limit": 3},
    {"scooped": True},
    {"scooped": False, "limit": 6},
    {"quartered": True},
    {"quartered": False},
    {"door_card": "low"},
    {"door_card": "high", "limit": 2},
    {"door_card": "A"},
    {"door_card": "Kc"},
    {"showdown": True, "door_card": "low", "min_pot": "20bb", "limit": 3},
    # several flags: all true (only the rows holding one are grouped), and true with false
    {"showdown": True, "all_in": True},
    {"showdown": True, "scooped": True, "limit": 2},
    {"all_in": True, "quartered": True},
    {"showdown": True, "scooped": False, "limit": 5},
    {"scooped": True, "quartered": False},
]
"""The hand list's own filters, alone and together, with and without --limit: each combined
below with no player (the hero's columns, the flags about anyone), the hero, an opponent and a
date range, so that every way hands.sql finds the listed hands is compared with the reference."""


def _hands_scopes(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    opponent = con.execute(
        "SELECT player FROM stg_hand_players WHERE NOT is_hero GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchall()[0][0]
    first, last = con.execute("SELECT min(hand_date), max(hand_date) FROM stg_hands").fetchall()[0]
    middle = str(first + (last - first) / 2)
    return [
        {},
        {"player": "Hero"},
        {"player": opponent},
        {"since": middle},
        {"player": "Hero", "until": middle},
    ]


def test_hands_list_equals_reference_on_crafted(
    crafted_list: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [
        _assert_same("hands", crafted_list, monkeypatch, **scope, **kw)
        for scope in _hands_scopes(crafted_list)
        for kw in HAND_FILTERS
    ]
    assert rows[0] == len(CRAFTED) + 1 and sum(rows) > 0
    listed = hhparse.report("hands", crafted_list, quartered=True)
    assert listed["hand_id"].tolist() == ["2000000101"] and listed["players"].tolist() == [3]


@pytest.mark.slow
def test_hands_list_equals_reference_on_sample_and_corpus(
    sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = {
        (str(scope), str(kw)): _assert_same("hands", sample, monkeypatch, **scope, **kw)
        for scope in [*_hands_scopes(sample), *_filters(sample)[1:]]
        for kw in HAND_FILTERS
    }
    # every filter of the hand list matched hands under the plain scopes, so rows were compared
    assert all(rows[(str({}), str(kw))] > 0 for kw in HAND_FILTERS), rows
    # (the filters of several flags may match none of the hero's hands)
    flags = ("showdown", "all_in", "scooped", "quartered")
    assert all(
        rows[(str({"player": "Hero"}), str(kw))] > 0
        for kw in HAND_FILTERS
        if "door_card" not in kw and sum(f in kw for f in flags) < 2
    )


GRAPH_LINES = ("cum_net", "cum_showdown", "cum_nonshowdown", "cum_allin_ev")


def _graph(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, *, hourly: bool, **kw: Any
) -> pd.DataFrame:
    """The shipped graph; ``hourly`` forces the long-history path (hours added up, only the hours
    that may hold an extreme ordered hand by hand) on these small warehouses, with 20 points."""
    if not hourly:
        return hhparse.report("graph", con, **kw)
    sql = query.report_sql("graph")
    forced = sql.replace("CAST($graph_detail AS BIGINT)", "0").replace("CAST($graph_points AS BIGINT)", "20")
    assert forced != sql
    with monkeypatch.context() as m:
        m.setattr(query, "report_sql", lambda _name: forced)
        return hhparse.report("graph", con, **kw)


def _check_graph(
    points: pd.DataFrame, full: pd.DataFrame, *, hourly: bool, per_unit: int = 20, what: object = None
) -> None:
    """Every point of the graph is the full series' hand of that number, with its exact amounts;
    each unit's first and last hand are points, and so is the first hand reaching each line's
    highest and lowest value (on a short unit, without ``hourly``: exactly those and every k-th
    hand; with ``hourly``, spaced by at most k hands plus one hour's, k = hands // ``per_unit``)."""
    assert list(points.columns) == list(full.columns) and list(points.dtypes) == list(full.dtypes)
    assert not points.duplicated(["unit", "hand_no"]).any()
    keyed = full.set_index(["unit", "hand_no"])
    mine = points.set_index(["unit", "hand_no"])
    assert mine.index.isin(keyed.index).all(), what
    pd.testing.assert_frame_equal(mine, keyed.loc[mine.index], check_exact=True)
    for unit, series in full.groupby("unit", sort=False):
        kept = set(points.loc[points["unit"] == unit, "hand_no"])
        must = {1, len(series)}
        for line in GRAPH_LINES:
            must.add(int(series.loc[series[line] == series[line].max(), "hand_no"].min()))
            must.add(int(series.loc[series[line] == series[line].min(), "hand_no"].min()))
        assert must <= kept, (unit, what, hourly, must - kept)
        if not hourly:
            k = max(1, len(series) // 2000)
            assert kept == must | {n for n in series["hand_no"] if n % k == 0}
        else:
            k = max(1, len(series) // per_unit)
            hour = int(series.groupby(series["start_utc"].dt.floor("h")).size().max())
            gaps = pd.Series(sorted(kept)).diff().dropna()
            assert gaps.empty or gaps.max() <= k + hour, (unit, what, k, hour, gaps.max())
    assert list(points["unit"].drop_duplicates()) == list(full["unit"].drop_duplicates())


def _assert_graph_exact(
    con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, *, hourly: bool, **kw: Any
) -> tuple[int, int]:
    """:func:`_check_graph` on a warehouse, under the filters ``kw``. Returns (points, hands)."""
    points = _graph(con, monkeypatch, hourly=hourly, **kw)
    full = _reference("graph", con, monkeypatch, **kw)
    _check_graph(points, full, hourly=hourly, what=kw)
    return len(points), len(full)


def test_graph_points_are_the_full_series_on_crafted(
    crafted: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    former = (REFERENCE / "graph_rep18e.sql").read_text(encoding="utf-8")
    for hourly in (False, True):
        for kw in ({}, {"player": "Villain1"}, {"since": "2024-03-01"}):
            assert _assert_graph_exact(crafted, monkeypatch, hourly=hourly, **kw)[1] > 0
            with monkeypatch.context() as m:  # the version before player_hours gives the same points
                m.setattr(query, "report_sql", lambda _name: former)
                before = _graph(crafted, monkeypatch, hourly=hourly, **kw)
            pd.testing.assert_frame_equal(
                _graph(crafted, monkeypatch, hourly=hourly, **kw), before, check_exact=True
            )


def test_graph_points_are_the_full_series_on_sample_and_corpus(
    sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    for kw in _filters(sample):
        whole = _assert_graph_exact(sample, monkeypatch, hourly=False, **kw)
        hourly = _assert_graph_exact(sample, monkeypatch, hourly=True, **kw)
        assert whole[0] == whole[1] > 0  # below 4,000 hands a unit keeps every hand
        if whole[1] > 200:
            assert hourly[0] < whole[1]  # the hourly path thinned the series


_RAW_HOUR_ROWS = """
CREATE MACRO hour_rows_in(p, s, u, g, st) AS TABLE SELECT * FROM player_rows_in(p, s, u, g, st);
CREATE MACRO slot_rows_in(p, s, u, g, st) AS TABLE
    SELECT NULL::VARCHAR AS unit, NULL::VARCHAR AS tournament_id, NULL::BIGINT AS hour, NULL::SMALLINT AS unit_scale,
           NULL::BIGINT AS hands, NULL::BIGINT AS sd_up, NULL::BIGINT AS sd_down, NULL::BIGINT AS nsd_up,
           NULL::BIGINT AS nsd_down, NULL::BIGINT AS allin_ev, NULL::BIGINT AS ev_up,
           NULL::TIMESTAMPTZ AS last_start, NULL::VARCHAR AS last_id, NULL::BIGINT AS big_blind
    WHERE false;
"""
"""The rows player_hours adds up (hour_rows_in, slot_rows_in: hhparse.reports.scoped), for a series given as ``player_rows_in``:
its raw rows, and no hero slots."""


@pytest.mark.parametrize("seed", range(12))
def test_graph_points_are_the_full_series_of_random_walks(seed: int) -> None:
    """Long random series (thousands of hands, several an hour, some at one instant, hand numbers
    not in time order, two units) through the long-history path with 20-odd points: the hours
    that may hold an extreme are found however the walk goes. The graph SQL reads its hands
    from ``player_rows_in`` (the reference from ``player_hands_in``), defined here over the
    series."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = 4000
    gaps = rng.choice([0, 0, 30, 60, 90, 600, 5 * 3600], n, p=[0.1, 0.1, 0.3, 0.3, 0.1, 0.07, 0.03])
    start = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(np.cumsum(gaps), unit="s")
    if seed % 3 == 2:  # a walk of few values: the extremes are reached many times (ties)
        cents = rng.choice([-100, 0, 0, 100], n)
    else:
        cents = rng.integers(-3000, 3001, n) * (rng.random(n) < 0.6) + rng.integers(-25, 26, n)
    drift = 0 if seed % 3 == 2 else rng.choice([-1, 1]) * rng.integers(0, 40)  # up, down or flat
    net = (cents + drift).astype("int64")
    wtsd = (rng.random(n) < 0.3).astype("int32")
    ev = np.where(rng.random(n) < 0.3, rng.integers(-4000, 4001, n), net)  # all-ins at their equity
    series = pd.DataFrame(
        {
            "unit": rng.choice(["USD", "chips"], n, p=[0.85, 0.15]),
            "hand_id": [f"{i:07d}" for i in rng.permutation(n)],
            "start_utc": start,
            "net_cents": net,
            "wtsd": wtsd,
            "ev_cents": ev,
        }
    )
    con = duckdb.connect()
    con.register("series_df", series)
    con.execute(
        """CREATE TABLE series AS SELECT unit, hand_id, start_utc, wtsd, true AS is_hero,
               CAST(net_cents * 0.01 AS DECIMAL(18, 2)) AS net,
               CAST(CASE WHEN wtsd = 1 THEN net_cents ELSE 0 END * 0.01 AS DECIMAL(18, 2)) AS showdown_net,
               CAST(CASE WHEN wtsd = 1 THEN 0 ELSE net_cents END * 0.01 AS DECIMAL(18, 2)) AS nonshowdown_net,
               CAST(ev_cents * 0.01 AS DECIMAL(18, 2)) AS allin_ev
           FROM series_df"""
    )
    con.execute("CREATE MACRO player_hands_in(p, s, u, g, st) AS TABLE SELECT * FROM series")
    stats = (REPO / "analytics" / "stats.sql").read_text(encoding="utf-8")
    at = stats.index("CREATE OR REPLACE MACRO to_money_sum")
    con.execute(stats[at : stats.index(";", at) + 1])  # the shipped macros it uses: this one, rows.sql
    con.execute((REPO / "analytics" / "rows.sql").read_text(encoding="utf-8"))  # in_big_blinds
    con.execute(  # the raw rows the shipped SQL reads: money in minor units (the series' cents); the
        # chips of three tournaments, played in the same hours, are one line of the graph
        """CREATE MACRO player_rows_in(p, s, u, g, st) AS TABLE
           SELECT unit, CASE WHEN unit = 'chips' THEN 'T' || (hash(hand_id) % 3) END AS tournament_id,
                  hand_id, start_utc, wtsd = 1 AS went_to_showdown,
                  true AS is_hero, 100 AS unit_scale, net_cents AS net, ev_cents AS allin_ev, 25 AS big_blind
           FROM series_df"""
    )
    con.execute(_RAW_HOUR_ROWS)
    con.execute((REPO / "analytics" / "pages" / "player_hours.sql").read_text(encoding="utf-8"))
    params: dict[str, Any] = {"player": None, "since": None, "until": None, "game": None, "stakes": None}
    full = query.frame(con.sql((REFERENCE / "graph.sql").read_text(encoding="utf-8"), params=params))
    for detail, points in ((0, 20), (0, 300), (None, None)):
        shipped = query.frame(
            con.sql(
                query.report_sql("graph"), params={**params, "graph_detail": detail, "graph_points": points}
            )
        )
        _check_graph(shipped, full, hourly=detail == 0, per_unit=points or 20, what=(seed, detail, points))
        former = query.frame(
            con.sql(
                (REFERENCE / "graph_rep18e.sql").read_text(encoding="utf-8"),
                params={**params, "graph_detail": detail, "graph_points": points},
            )
        )
        pd.testing.assert_frame_equal(shipped, former, check_exact=True, obj=str((seed, detail, points)))
        if detail == 0:
            assert len(shipped) < len(full) // 4
    con.close()


GRAPH_LINE_BB = ("cum_net_bb", "cum_showdown_bb", "cum_nonshowdown_bb")
"""The page graph's big-blind amounts: float sums (each hand's net over its own big blind) that
the rewrite adds per hour, then per line, where the reference added hand by hand: equal but at
a rounding tie of the second decimal (frequent: a quarter of a big blind is 0.125)."""


def _assert_graph_lines_same(fast: pd.DataFrame, ref: pd.DataFrame, what: object) -> int:
    assert list(fast.columns) == list(ref.columns) and list(fast.dtypes) == list(ref.dtypes), what
    exact = [c for c in ref.columns if c not in GRAPH_LINE_BB]
    pd.testing.assert_frame_equal(fast[exact], ref[exact], check_exact=True, obj=str(what))
    for column in GRAPH_LINE_BB:
        assert ((fast[column] - ref[column]).abs().fillna(0) <= 0.01 + 1e-9).all(), (what, column)
    return len(ref)


def _graph_lines_pair(
    con: duckdb.DuckDBPyConnection, params: dict[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    from hhparse.resources import read_text

    fast = con.sql(read_text("analytics", "pages", "graph_lines.sql"), params=params).df()
    ref = con.sql((REFERENCE / "graph_lines.sql").read_text(encoding="utf-8"), params=params).df()
    former = con.sql((REFERENCE / "graph_lines_rep18e.sql").read_text(encoding="utf-8"), params=params).df()
    pd.testing.assert_frame_equal(fast, former, check_exact=True)  # the same hours, summed alike
    return fast, ref


def test_page_graph_lines_equal_reference_on_crafted_sample_and_corpus(
    crafted: duckdb.DuckDBPyConnection, sample: duckdb.DuckDBPyConnection
) -> None:
    """The HTML pages' graph (hhparse.reports.html.graph_lines, through the same filter
    resolution as the reports) has the reference's points under every filter."""
    from hhparse.reports.filters import resolve
    from hhparse.reports.html import graph_lines

    scopes = [(crafted, kw) for kw in ({}, {"player": "Villain2"}, {"since": "2024-03-01"})]
    scopes += [(sample, kw) for kw in _filters(sample)]
    for con, kw in scopes:
        scope = resolve(con, **kw)
        params = scope.params()
        fast, ref = _graph_lines_pair(con, params)
        pd.testing.assert_frame_equal(graph_lines(con, **kw), fast, check_exact=True)
        assert _assert_graph_lines_same(fast, ref, kw) > 0


def _lines_walk(seed: int) -> duckdb.DuckDBPyConnection:
    """A connection whose ``player_rows_in`` is a long random series of the hero's hands (see
    :func:`test_page_graph_lines_of_random_walks_equal_reference`), with the shipped
    ``player_hours`` macros and a ``hands`` view (what the filters' check reads)."""
    import numpy as np

    rng = np.random.default_rng(1000 + seed)
    n = 3000 * (1 + seed % 4)
    gaps = rng.choice([0, 0, 30, 60, 90, 600, 5 * 3600], n, p=[0.1, 0.1, 0.3, 0.3, 0.1, 0.07, 0.03])
    start = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(np.cumsum(gaps), unit="s")
    kind = rng.choice(["USD", "EUR", "T1", "T2"], n, p=[0.6, 0.1, 0.2, 0.1])
    bb_cents = rng.choice([2, 10, 25, 40, 50], n)
    series = pd.DataFrame(
        {
            "unit": np.where(np.char.startswith(kind.astype(str), "T"), "chips", kind),
            "tournament_id": np.where(np.char.startswith(kind.astype(str), "T"), kind, None),
            "hand_id": [f"{i:07d}" for i in rng.permutation(n)],
            "start_utc": start,
            "net_cents": (
                rng.integers(-3000, 3001, n) * (rng.random(n) < 0.6) + rng.integers(-25, 26, n)
            ).astype("int64"),
            "bb_cents": bb_cents,
            "wtsd": (rng.random(n) < 0.3).astype("int32"),
        }
    )
    con = duckdb.connect()
    con.register("series_df", series)
    con.execute(
        """CREATE TABLE series AS SELECT unit, tournament_id, hand_id, start_utc, wtsd, true AS is_hero,
               CAST(net_cents * CASE WHEN unit = 'chips' THEN 1 ELSE 0.01 END AS DECIMAL(18, 2)) AS net,
               CAST(net_cents AS DOUBLE) / bb_cents AS net_bb,
               CAST(CASE WHEN wtsd = 1 THEN net_cents ELSE 0 END * CASE WHEN unit = 'chips' THEN 1 ELSE 0.01 END
                    AS DECIMAL(18, 2)) AS showdown_net
           FROM series_df"""
    )
    con.execute("CREATE MACRO player_hands_in(p, s, u, g, st) AS TABLE SELECT * FROM series")
    stats = (REPO / "analytics" / "stats.sql").read_text(encoding="utf-8")
    at = stats.index("CREATE OR REPLACE MACRO to_money_sum")
    con.execute(stats[at : stats.index(";", at) + 1])  # the shipped macros it uses: this one, rows.sql
    con.execute((REPO / "analytics" / "rows.sql").read_text(encoding="utf-8"))  # in_big_blinds
    con.execute(
        """CREATE MACRO player_rows_in(p, s, u, g, st) AS TABLE
           SELECT unit, tournament_id, hand_id, start_utc, wtsd = 1 AS went_to_showdown, true AS is_hero,
                  CASE WHEN unit = 'chips' THEN 1 ELSE 100 END AS unit_scale,
                  net_cents AS net, bb_cents AS big_blind, NULL::BIGINT AS allin_ev
           FROM series_df"""
    )
    con.execute(_RAW_HOUR_ROWS)
    con.execute((REPO / "analytics" / "pages" / "player_hours.sql").read_text(encoding="utf-8"))
    con.execute("CREATE VIEW hands AS SELECT start_utc FROM series_df")
    return con


@pytest.mark.parametrize("seed", range(8))
def test_page_graph_lines_of_random_walks_equal_reference(seed: int) -> None:
    """Long random lines (thousands of hands, so that a line keeps every k-th hand with k > 1
    and most hours hold no point; several hands an hour, some at one instant, hand numbers not
    in time order; cash units and tournaments) give the reference's points. The SQL reads its
    hands from ``player_rows_in`` (the reference from ``player_hands_in``), defined here over the
    series."""
    con = _lines_walk(seed)
    params: dict[str, Any] = {"player": None, "since": None, "until": None, "game": None, "stakes": None}
    fast, ref = _graph_lines_pair(con, params)
    assert _assert_graph_lines_same(fast, ref, seed) > 0
    assert ref.groupby("line").size().max() >= 1000  # a line with k > 1: most hands are not points
    con.close()


def _page_parts(con: duckdb.DuckDBPyConnection, **kw: Any) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    from hhparse.reports.html import graph_lines, report_page

    df = hhparse.report("graph", con, **kw)
    lines = graph_lines(con, **kw)
    return df, lines, report_page(df, name="graph", title="graph", lines=lines)


def test_graph_page_sharing_its_hours_is_the_same_page(
    crafted: duckdb.DuckDBPyConnection, sample: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `graph` page made with one table of the player's hours and one of the hands of the hours
    either graph orders hand by hand (hhparse.reports.html.shared_hours, as `hhparse report graph
    --format html` makes them) is the page made without: the same rows, the same lines, the same
    HTML, under a player and the game and stakes filters, on the graph's long-history path (which
    reads the hands of fewer hours) and its short one; after the block the macros are the
    warehouse's again. (Every filter's hours: the graph and lines tests above.)"""
    from hhparse.reports import html
    from hhparse.reports.html import shared_hours
    from hhparse.resources import read_text

    lines_sql = read_text("analytics", "pages", "graph_lines.sql").replace(
        "line_hands // 1000", "line_hands // 20"
    )
    forced = (
        query.report_sql("graph")
        .replace("CAST($graph_detail AS BIGINT)", "0")
        .replace("CAST($graph_points AS BIGINT)", "20")
    )
    scopes = [(crafted, {"player": "Villain1"}, False), (sample, {"game": "courchevel-hilo"}, True)]
    for con, kw, hourly in scopes:
        with monkeypatch.context() as m:
            if hourly:  # the graph's long-history path and lines of 20-odd points, everywhere they are read
                m.setattr(query, "report_sql", lambda _name: forced)
                m.setattr(
                    html,
                    "read_text",
                    lambda *path: lines_sql if path[-1] == "graph_lines.sql" else read_text(*path),
                )
            alone = _page_parts(con, **kw)
            with shared_hours(con, "graph", **kw):
                assert con.execute("SELECT count(*) FROM page_hours").fetchall()[0][0] > 0
                shared = _page_parts(con, **kw)
        pd.testing.assert_frame_equal(shared[0], alone[0], check_exact=True, obj=str(kw))
        pd.testing.assert_frame_equal(shared[1], alone[1], check_exact=True, obj=str(kw))
        assert shared[2] == alone[2], kw
        assert not con.execute("SELECT * FROM duckdb_tables() WHERE table_name LIKE 'page_hour%'").fetchall()
    # a report that does not read the hours makes no table; an error inside the block restores the macro
    with shared_hours(crafted, "summary"):
        assert not crafted.execute("SELECT * FROM duckdb_tables() WHERE table_name = 'page_hours'").fetchall()
    hours = "SELECT count(*) FROM player_hours($player, NULL, NULL, NULL, NULL)"
    before = [crafted.execute(hours, {"player": p}).fetchall() for p in ("Villain1", "Villain2")]
    with pytest.raises(RuntimeError), shared_hours(crafted, "graph", player="Villain1"):
        raise RuntimeError
    assert [crafted.execute(hours, {"player": p}).fetchall() for p in ("Villain1", "Villain2")] == before


def test_graph_page_sharing_reads_the_hands_of_the_hours_either_graph_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a long random series (6,000 hands: lines of every k-th hand, the graph on its
    long-history path), the shared page reads the hands of only some hours, the union of those the
    graph and the lines order hand by hand, and is the page made without sharing (both graphs
    with 20-odd points, as they have with millions of hands: most hours hold none)."""
    from hhparse.reports import html
    from hhparse.reports.html import shared_hours
    from hhparse.resources import read_text

    con = _lines_walk(1)
    forced = (
        query.report_sql("graph")
        .replace("CAST($graph_detail AS BIGINT)", "0")
        .replace("CAST($graph_points AS BIGINT)", "20")
    )
    lines = read_text("analytics", "pages", "graph_lines.sql").replace(
        "line_hands // 1000", "line_hands // 20"
    )
    monkeypatch.setattr(query, "report_sql", lambda _name: forced)
    monkeypatch.setattr(
        html, "read_text", lambda *path: lines if path[-1] == "graph_lines.sql" else read_text(*path)
    )
    alone = _page_parts(con)
    with shared_hours(con, "graph"):
        shared = _page_parts(con)
        counts = "SELECT (SELECT count(*) FROM page_hour_hands), (SELECT sum(n) FROM page_hours)"
        read, hands = con.execute(counts).fetchall()[0]
        assert 0 < read < hands / 2, (read, hands)
    pd.testing.assert_frame_equal(shared[0], alone[0], check_exact=True)
    pd.testing.assert_frame_equal(shared[1], alone[1], check_exact=True)
    assert shared[2] == alone[2]
    con.close()
