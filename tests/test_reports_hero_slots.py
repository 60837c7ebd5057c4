"""The hero slots (``hero_slots``, a derived table: hhparse.reports.derived): the graphs' first
pass (``player_hours``) through the slots gives what it gives from the raw rows, and so do the
``graph`` report and the pages' net-won lines, under every filter, in every session time zone,
whatever part of the warehouse the slots cover.

The two paths add the same integers; only the lines' big-blind amounts come from float sums in
another order (per slot: the integer net over its big blind, once; raw: one quotient per hand),
so those may differ by 0.01 where the exact value sits on a rounding tie (as the buckets' bb/100).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hhparse
from hhparse.failures import UsageError
from hhparse.reports import derived, query
from hhparse.reports.filters import resolve
from hhparse.reports.html import graph_lines
from hhparse.resources import read_text

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import (
    ZONES,
    Rows,
    assert_same_but_floats,
    courchevel,
    publish_three_batches,
    raw_connection,
)

# local midnights of several zones, a DST change of New York (10 March 2024) and of Chatham
# (7 April 2024), a year's end
DAYS = (
    datetime(2024, 1, 1, tzinfo=UTC),
    datetime(2024, 3, 10, 7, tzinfo=UTC),
    datetime(2024, 4, 6, 13, 45, tzinfo=UTC),
    datetime(2024, 4, 7, tzinfo=UTC),
)
OFFSETS = (0, 19800, 20700, 45900, 49500, 50400, -43200, -18000, -14400)
"""The zones' UTC offsets in seconds (Kolkata, Kathmandu, Chatham in winter and summer,
Kiritimati, Etc/GMT+12, New York in winter and summer)."""
NEAR = tuple(sorted({(d + timedelta(days=k)).date() for d in DAYS for k in (-1, 0, 1)}))
"""The dates around the hands' days: the --since/--until bounds that cut them."""
HOURS = (
    "SELECT * FROM player_hours($player, $since, $until, $game, $stakes) ORDER BY unit, tournament_id, hour"
)
FLOAT_SUMS = ("net_bb", "showdown_bb")
LINE_BB = ("cum_net_bb", "cum_showdown_bb", "cum_nonshowdown_bb")


_player = st.fixed_dictionaries(
    {
        "net": st.integers(-5000, 5000),
        "went_to_showdown": st.booleans(),
        "allin_ev": st.integers(-5000, 5000),
    }
)
_hand = st.fixed_dictionaries(
    {
        "day": st.sampled_from(DAYS),
        # within a day of a zone's midnight, often on a quarter-hour's and an hour's edges
        "seconds": st.one_of(
            st.integers(-86400, 86400),
            st.sampled_from([-3601, -3600, -901, -900, -1, 0, 1, 899, 900, 3599, 3600]),
            # a zone's local midnight (UTC minus its offset), give or take half an hour
            st.builds(
                lambda offset, jitter: -offset + jitter,
                st.sampled_from(OFFSETS),
                st.integers(-1800, 1800),
            ),
        ),
        "hero": st.sampled_from(["Ann", "Cy"]),  # two hero accounts: one graph
        "hero_row": _player,
        "other_row": _player,
        "chips": st.booleans(),
        "bb": st.sampled_from([25, 50, 60]),
        "hilo": st.booleans(),
        "tournament": st.sampled_from(["111", "222"]),
        "batch": st.integers(0, 2),
    }
)


def _drawn(h: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    players = [
        {"player": h["hero"], "is_hero": True} | h["hero_row"],
        {"player": "Bo", "is_hero": False} | h["other_row"],
    ]
    return players, {"start_utc": h["day"] + timedelta(seconds=h["seconds"])} | courchevel(h["hilo"])


_filters = st.fixed_dictionaries(
    {
        "since": st.one_of(st.none(), st.sampled_from(NEAR), st.dates(date(2023, 12, 30), date(2024, 4, 9))),
        "until": st.one_of(st.none(), st.sampled_from(NEAR), st.dates(date(2023, 12, 30), date(2024, 4, 9))),
        "player": st.sampled_from([None, None, "Ann", "Bo"]),
        "game": st.sampled_from([None, None, "courchevel", "courchevel-hilo"]),
        "stakes": st.sampled_from([None, None, "0.25", "$1.00+$0.10 USD"]),
    }
)


def _graph(con: duckdb.DuckDBPyConnection, params: dict[str, Any], detail: int | None) -> pd.DataFrame:
    """The shipped graph; ``detail`` 0 forces the long-history path (points at hours' ends)."""
    p = {**params, "graph_detail": detail, "graph_points": None if detail is None else 3}
    return query.frame(con.sql(query.report_sql("graph"), params=p))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hands=st.lists(_hand, min_size=1, max_size=30),
    zone=st.sampled_from(ZONES),
    filters=st.lists(_filters, min_size=1, max_size=2),
)
def test_slot_path_equals_raw_path_on_random_warehouses(
    tmp_path_factory: pytest.TempPathFactory,
    hands: list[dict[str, Any]],
    zone: str,
    filters: list[dict[str, Any]],
) -> None:
    """Hands within a day of local midnights (on quarter-hour and hour edges too), in three
    batches: the first two slotted, the third published after (read raw); cash and two
    tournaments, two hero accounts; every filter, in zones from UTC-12 to UTC+14 with quarter-hour
    offsets and DST changes: the hours, the graph (both paths of it) and the lines agree."""
    root = tmp_path_factory.mktemp("slots") / "wh"
    if not publish_three_batches(root, hands, _drawn, ["hero_slots"]):
        return
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        assert fast.execute("SELECT count(*) FROM hero_slots").fetchall()[0][0] > 0 or not any(
            h["batch"] < 2 for h in hands
        )
        assert raw.execute("SELECT count(*) FROM hero_slots").fetchall()[0][0] == 0
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for kw in filters:
            try:
                params = resolve(raw, **kw).params()
            except UsageError:  # a filter that matches nothing: an error on either path
                continue
            what = (zone, kw)
            assert_same_but_floats(
                fast.execute(HOURS, params).df(), raw.execute(HOURS, params).df(), FLOAT_SUMS, what
            )
            for detail in (None, 0):
                pd.testing.assert_frame_equal(
                    _graph(fast, params, detail), _graph(raw, params, detail), check_exact=True, obj=str(what)
                )
            assert_same_but_floats(graph_lines(fast, **kw), graph_lines(raw, **kw), LINE_BB, what)
    finally:
        fast.close()
        raw.close()


def test_a_slot_keeps_the_graphs_hour_and_quarter_hour() -> None:
    """The slot's hour is the expression the graphs' second pass computes per hand (stored, not
    derived from the slot), and the slot a whole UTC quarter-hour, at the edges of both."""
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    sql = read_text("analytics", "hero_slots.sql")
    hours = read_text("analytics", "pages", "player_hours.sql")
    hour_expr = "epoch_us(start_utc) // 3600000000"
    assert hour_expr in sql and hour_expr in hours
    t0 = datetime(2024, 5, 1, tzinfo=UTC)
    for when, slot in (
        (t0 - timedelta(microseconds=1), t0 - timedelta(minutes=15)),
        (t0, t0),
        (t0 + timedelta(minutes=15) - timedelta(microseconds=1), t0),
        (t0 + timedelta(minutes=15), t0 + timedelta(minutes=15)),
    ):
        got = con.execute("SELECT time_bucket(INTERVAL 15 MINUTE, $t::TIMESTAMPTZ)", {"t": when}).fetchall()[
            0
        ][0]
        assert got == slot, when


def test_graph_report_builds_the_slots_and_they_follow_compaction(tmp_path: Path) -> None:
    """``hhparse.report('graph')`` builds the missing slots (then reads them); a compaction
    replaces the hand_players files, so their slots go stale and are rebuilt; the graph is the
    raw path's at every step."""
    from hhparse.tables.store import Warehouse

    root = tmp_path / "wh"
    for batch in range(2):
        rows = Rows()
        for i in range(40):
            rows.hand(
                f"{batch}{i:03d}",
                [{"player": "Ann", "is_hero": True, "net": (i % 7) * 10 - 30}, {"player": "Bo", "net": 5}],
                start_utc=datetime(2024, 2, 10, tzinfo=UTC) + timedelta(minutes=23 * i + 5 * batch),
            )
        rows.publish(root)

    def check() -> derived.Plan:
        fast, raw = hhparse.warehouse(root), raw_connection(root)
        try:
            got = hhparse.report("graph", fast)
            pd.testing.assert_frame_equal(got, hhparse.report("graph", raw), check_exact=True)
        finally:
            fast.close()
            raw.close()
        return derived.plan(root, "hero_slots")

    assert derived.plan(root, "hero_slots").files == ()
    first = check()
    assert first.files and not first.uncovered
    with Warehouse(root) as wh:
        wh.compact()
    second = check()
    assert second.files and not second.uncovered and set(second.files).isdisjoint(first.files)


@pytest.mark.parametrize("zone", ZONES)
def test_slots_cut_at_each_zones_local_midnight(tmp_path: Path, zone: str) -> None:
    """Hands on both sides of local midnights of ``zone`` (a second to an hour away), all slotted
    but one batch: --since and --until on those days take exactly the raw path's hands."""
    from zoneinfo import ZoneInfo

    root = tmp_path / "wh"
    tz = ZoneInfo(zone)
    days = [date(2024, 3, 10), date(2024, 4, 7), date(2024, 11, 3)]
    for batch in range(2):
        rows = Rows()
        for d in days:
            midnight = datetime(d.year, d.month, d.day, tzinfo=tz).astimezone(UTC)
            for k, delta in enumerate((-3600, -1860, -1740, -960, -840, -1, 0, 1, 840, 960, 1740, 1860)):
                rows.hand(
                    f"{batch}{d:%m%d}{k:02d}",
                    [
                        {"player": "Ann", "is_hero": True, "net": 7 * k - 40 + batch},
                        {"player": "Bo", "net": 1},
                    ],
                    start_utc=midnight + timedelta(seconds=delta + 7 * batch),
                )
        rows.publish(root)
        if batch == 0:
            derived.refresh(root, names=["hero_slots"])
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        assert fast.execute("SELECT count(*) FROM hero_slots").fetchall()[0][0] > 0
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for d in days:
            for kw in (
                {"since": d},
                {"until": d},
                {"since": d, "until": d},
                {"until": d - timedelta(days=1)},
            ):
                params = resolve(raw, **kw).params()
                got, want = fast.execute(HOURS, params).df(), raw.execute(HOURS, params).df()
                assert_same_but_floats(got, want, FLOAT_SUMS, (zone, kw))
                assert int(want["n"].sum()) > 0, (zone, kw)
    finally:
        fast.close()
        raw.close()


def _heads_up(net: int, showdown: bool) -> list[dict[str, Any]]:
    """The hero Ann winning ``net`` from Bo (an all-in at its result: allin_ev the net)."""
    hero = {"player": "Ann", "is_hero": True, "net": net, "went_to_showdown": showdown, "allin_ev": net}
    return [hero, {"player": "Bo", "net": -net}]


def _graph_both_ways(fast: duckdb.DuckDBPyConnection, raw: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The graph's long-history path (three points asked) through the slots, checked equal to the
    raw rows'."""
    params = resolve(raw).params()
    graph = _graph(fast, params, 0)
    pd.testing.assert_frame_equal(graph, _graph(raw, params, 0), check_exact=True)
    return graph


def test_a_slot_and_an_hour_name_their_last_hand_in_the_graphs_order(tmp_path: Path) -> None:
    """``last_id``: the last hand by start, then hand id (the order both graphs number hands in),
    not the largest id; two hands started in the same second (two tables) are ordered by id, in a
    slot and across the slots of one hour (two stakes: two slot rows with the same last start).
    The graph's point at the end of an hour that it does not order hand by hand names that hand,
    through the slots as through the raw rows (a regression test: the hypothesis test above
    seldom draws a later hand with a smaller id in one slot)."""
    at = datetime(2024, 2, 10, 12, tzinfo=UTC)
    played = [  # (hand id, seconds after 12:00, big blind, net, showdown): the lines' extremes
        # lie in the hours before and after 12:00, so that hour is read from its sums alone
        ("0101", -3000, 25, 1000, True),
        ("0102", -2900, 25, -1000, False),
        ("0009", 5, 25, 0, False),
        ("0003", 10, 25, 0, False),  # later, smaller id: the first slot's last hand
        ("0007", 1200, 25, 0, False),
        ("0002", 1200, 25, 0, False),  # the same second: 0007 is the second slot's last
        ("0004", 3000, 25, 0, False),
        ("0006", 3000, 50, 0, False),  # the hour's last hands, in two slot rows: 0006 is the hour's
        ("0301", 3700, 25, 2000, True),
        ("0302", 3800, 25, -3000, False),
        ("0401", 7300, 25, -5000, True),
        ("0402", 7400, 25, 9000, False),
    ]
    rows = Rows()
    for hand_id, seconds, bb, net, showdown in played:
        rows.hand(hand_id, _heads_up(net, showdown), bb=bb, start_utc=at + timedelta(seconds=seconds))
    rows.publish(root := tmp_path / "wh")
    derived.refresh(root, names=["hero_slots"])
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        slots = fast.execute(
            "SELECT big_blind, last_id FROM hero_slots WHERE utc_slot >= $at AND utc_slot < $at + INTERVAL 1 HOUR "
            "ORDER BY utc_slot, big_blind",
            {"at": at},
        ).fetchall()
        assert slots == [(25, "0003"), (25, "0007"), (25, "0004"), (50, "0006")]
        hours = "SELECT hour, last_id FROM player_hours(NULL, NULL, NULL, NULL, NULL) ORDER BY hour"
        assert [h[1] for h in fast.execute(hours).fetchall()] == ["0102", "0006", "0302", "0402"]
        assert fast.execute(hours).fetchall() == raw.execute(hours).fetchall()
        graph = _graph_both_ways(fast, raw)  # 12 hands, 3 points asked: every 4th, at the hours' ends
        assert graph.loc[graph["hand_no"] == 8, "hand_id"].tolist() == ["0006"]
    finally:
        fast.close()
        raw.close()


def test_the_graphs_hour_of_two_tournaments_names_the_later_hand(tmp_path: Path) -> None:
    """The `graph` report adds a unit's tournaments up per hour: the hour's last hand is the later
    of the tournaments' last hands, not the one with the larger id."""
    at = datetime(2024, 2, 10, 12, tzinfo=UTC)
    played = [  # (hand id, seconds after 12:00, tournament, net, showdown), as in the test above
        ("0101", -3000, "111", 1000, True),
        ("0102", -2900, "111", -1000, False),
        ("0009", 3000, "111", 0, False),
        ("0006", 3010, "222", 0, False),  # later, smaller id, another tournament: the hour's last
        ("0301", 3700, "111", 2000, True),
        ("0302", 3800, "111", -3000, False),
        ("0401", 7300, "111", -5000, True),
        ("0402", 7400, "111", 9000, False),
    ]
    rows = Rows()
    for hand_id, seconds, tournament, net, showdown in played:
        rows.hand(
            hand_id,
            _heads_up(net, showdown),
            unit="chips",
            tournament_id=tournament,
            buyin_label=f"${tournament[0]}.00+$0.10 USD",
            start_utc=at + timedelta(seconds=seconds),
        )
    rows.publish(root := tmp_path / "wh")
    derived.refresh(root, names=["hero_slots"])
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        graph = _graph_both_ways(fast, raw)  # 8 hands, 3 points asked: every 2nd, at the hours' ends
        assert graph.loc[graph["hand_no"] == 4, "hand_id"].tolist() == ["0006"]
    finally:
        fast.close()
        raw.close()
