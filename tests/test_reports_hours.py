"""The graphs' hours made once (hhparse.reports.hours): the hour ranges the hands' read is limited
to, and the limit's use: the graph through it is the graph without it, and the read is limited
only when the hours are few (tests/test_reports_reference.py checks the points themselves)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hhparse.reports import hours, query
from hhparse.reports.hours import HOUR_US, MAX_RANGES, graph_hours, hour_ranges, within_hours

sys.path.insert(0, str(Path(__file__).parent))
from test_reports_reference import _RAW_HOUR_ROWS, REPO

PARAMS: dict[str, Any] = {"player": None, "since": None, "until": None, "game": None, "stakes": None}


@given(st.lists(st.integers(-50, 400), max_size=60), st.integers(1, 6))
def test_hour_ranges_cover_every_hour_in_at_most_limit_ranges(hs: list[int], limit: int) -> None:
    """Sorted, apart (a gap between two ranges), each from an hour to just after one, every hour
    in one, at most ``limit``; as many as the runs of consecutive hours when they are that few."""
    ranges = hour_ranges(hs, limit)
    assert len(ranges) <= limit and bool(ranges) == bool(hs)
    assert all(a < b for a, b in ranges)
    assert all(b1 < a2 for (_, b1), (a2, _) in itertools.pairwise(ranges))
    assert all(a in hs and b - 1 in hs for a, b in ranges)
    assert all(any(a <= h < b for a, b in ranges) for h in hs)
    runs = sum(1 for h in set(hs) if h - 1 not in set(hs))
    if runs <= limit:
        assert len(ranges) == runs and sum(b - a for a, b in ranges) == len(set(hs))


def test_hour_ranges_join_the_closest_runs_first() -> None:
    assert hour_ranges([1, 2, 3, 10, 40, 41, 100], 3) == [(1, 11), (40, 42), (100, 101)]
    assert hour_ranges([5], 1) == [(5, 6)]
    with pytest.raises(ValueError):
        hour_ranges([1], 0)


def test_within_hours_is_each_hours_start_utc() -> None:
    """The SQL test holds exactly for the instants of the ranges' hours (the graphs' hour of a
    hand is ``epoch_us(start_utc) // HOUR_US``), whatever the session's time zone."""
    con = duckdb.connect()
    con.execute("SET TimeZone = 'Asia/Kathmandu'")
    ranges = [(-3, -1), (454_000, 454_001)]
    for us in (-3 * HOUR_US - 1, -3 * HOUR_US, -HOUR_US - 1, -HOUR_US, 0, 454_000 * HOUR_US - 1):
        for t in (us, 454_000 * HOUR_US + (us % HOUR_US)):
            got = con.execute(f"SELECT {within_hours(ranges, 't')} FROM (SELECT make_timestamptz({t}) AS t)")
            assert got.fetchall()[0][0] == any(a <= t // HOUR_US < b for a, b in ranges), t
    assert con.execute(f"SELECT {within_hours([])}").fetchall()[0][0] is False


def _forced(points: int) -> str:
    return (
        query.report_sql("graph")
        .replace("CAST($graph_detail AS BIGINT)", "0")
        .replace("CAST($graph_points AS BIGINT)", str(points))
    )


def _trend(seed: int) -> duckdb.DuckDBPyConnection:
    """A connection whose ``player_rows_in`` is a long series of the hero's cash hands in time
    order (several an hour, some at one instant, hand numbers not in time order) winning
    steadily: each line's lowest point lies near its start and its highest near its end, as over
    years of play, so the graph orders the hands of a few hours only."""
    import numpy as np

    rng = np.random.default_rng(2000 + seed)
    n = 6000
    gaps = rng.choice([0, 30, 60, 90, 600, 5 * 3600], n, p=[0.1, 0.3, 0.35, 0.15, 0.07, 0.03])
    series = pd.DataFrame(
        {
            "hand_id": [f"{i:07d}" for i in rng.permutation(n)],
            "start_utc": pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(np.cumsum(gaps), unit="s"),
            "net": rng.integers(-50, 51, n) + 20,
            "wtsd": rng.random(n) < 0.3,
        }
    )
    con = duckdb.connect()
    con.register("series_df", series)
    stats = (REPO / "analytics" / "stats.sql").read_text(encoding="utf-8")
    at = stats.index("CREATE OR REPLACE MACRO to_money_sum")
    con.execute(stats[at : stats.index(";", at) + 1])
    con.execute((REPO / "analytics" / "rows.sql").read_text(encoding="utf-8"))  # in_big_blinds
    con.execute(
        """CREATE MACRO player_rows_in(p, s, u, g, st) AS TABLE
           SELECT 'USD' AS unit, NULL::VARCHAR AS tournament_id, hand_id, start_utc, wtsd AS went_to_showdown,
                  true AS is_hero, 100 AS unit_scale, net, net AS allin_ev, 25 AS big_blind
           FROM series_df"""
    )
    con.execute(_RAW_HOUR_ROWS)
    con.execute((REPO / "analytics" / "pages" / "player_hours.sql").read_text(encoding="utf-8"))
    return con


@pytest.mark.parametrize("seed", range(3))
def test_graph_through_its_hours_is_the_graph_and_reads_few_hands(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a long series won steadily (its hands in time order, as an import writes them), the graph's
    long-history path through :func:`graph_hours` (as ``hhparse.report`` runs it) is the plain
    query's, and its hands' read is limited to the time of a few hours: a small part of the
    player's hands; with the limit refused (more ranges than allowed), the same graph."""
    con = _trend(seed)
    sql = _forced(20)
    params = dict(PARAMS)
    plain = query.frame(con.sql(sql, params=params))
    limits: list[str] = []
    limit = hours._limit
    monkeypatch.setattr(hours, "_limit", lambda c: limits.append(limit(c)) or limits[-1])
    with graph_hours(con, ((sql, "needed_hours"),), params):
        assert hours.shared(con)
        counts = "SELECT (SELECT count(*) FROM page_hour_hands), (SELECT sum(n) FROM page_hours)"
        read, total = con.execute(counts).fetchall()[0]
        through = query.frame(con.sql(sql, params=params))
    assert not hours.shared(con)
    pd.testing.assert_frame_equal(through, plain, check_exact=True)
    assert limits[-1] and 0 < read < total / 4, (limits, read, total)
    monkeypatch.setattr(hours, "MAX_SHARE", 0.0)  # no limit: the same graph from the whole read
    with graph_hours(con, ((sql, "needed_hours"),), params):
        unlimited = query.frame(con.sql(sql, params=params))
    assert limits[-1] == ""
    pd.testing.assert_frame_equal(unlimited, plain, check_exact=True)
    assert MAX_RANGES >= 2
    con.close()
