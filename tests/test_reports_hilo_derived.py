"""The hilo report through the derived tables (its counts from ``player_buckets``, its lows from
``shown_lows``) gives exactly what it gives from the raw rows: under every filter, in every session
time zone, whatever part of the warehouse the derived files cover; and derived files written
before a column existed are never read.

Unlike the summary's bb/100, nothing may differ, not even at a rounding tie: the average pot share
is a sum of quotients each rounded to a decimal (exact sums, in any order), its other columns
counts and integer sums.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hhparse
from hhparse.reports import buckets, derived
from hhparse.reports.query import report_sql
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import (
    NEAR_BOUNDARY,
    ZONES,
    Rows,
    assert_same_but_floats,
    courchevel,
    publish_drawn,
    publish_three_batches,
    raw_connection,
)

BOUNDARIES = (
    datetime(2024, 1, 1, tzinfo=UTC),
    datetime(2024, 3, 1, tzinfo=UTC),
    datetime(2024, 11, 1, tzinfo=UTC),
)
PLAYERS = ("Ann", "Bo", "Cy")
FLAGS = ("went_to_showdown", "won_at_showdown", "won_high", "won_low", "scooped", "quartered")
LOWS = (None, "7,5,4,3,A", "8,6,4,2,A")


def _hilo(con: duckdb.DuckDBPyConnection, **kw: Any) -> pd.DataFrame:
    params = {k: kw.get(k) for k in ("player", "since", "until", "game", "stakes")}
    return con.execute(report_sql("hilo"), params).df()


_player_row = st.fixed_dictionaries(
    {
        "position": st.sampled_from(("BTN", "SB", "BB")),
        "collected": st.sampled_from([0, 0, 1, 7, 33, 50, 100, 250]),
        "high_won": st.integers(0, 300),
        "low_won": st.integers(0, 300),
        "net": st.integers(-500, 500),
        **{flag: st.booleans() for flag in FLAGS},
    }
)
_show = st.tuples(st.booleans(), st.sampled_from(LOWS), st.sampled_from(LOWS))  # (mucked, low run 1, run 2)
_hand = st.fixed_dictionaries(
    {
        "boundary": st.sampled_from(BOUNDARIES),
        "minutes": NEAR_BOUNDARY,
        "players": st.lists(
            st.tuples(st.sampled_from(PLAYERS), _player_row, st.one_of(_show, _show, st.none())),
            min_size=1,
            max_size=3,
            unique_by=lambda p: p[0],
        ),
        "chips": st.booleans(),
        "bb": st.sampled_from([25, 50]),
        "hilo": st.sampled_from([True, True, False]),
        "pot": st.sampled_from([0, 100, 250, 800, 1000]),
        "rake": st.sampled_from([0, 0, 1, 5]),
        "runs": st.sampled_from([1, 1, 2]),
        "batch": st.integers(0, 2),
    }
)


def _drawn(h: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    shows = []
    for name, _p, show in h["players"]:
        if show is not None:
            mucked, low1, low2 = show
            for run, low in ((1, low1), (2, low2)) if h["runs"] == 2 else ((0, low1),):
                shows.append({"player": name, "run": run, "low": low, "mucked": mucked})
    own = {
        "start_utc": h["boundary"] + timedelta(minutes=h["minutes"]),
        "total_pot": h["pot"],
        "runs": h["runs"],
        "rake": h["rake"],
        "showdowns": shows,
    }
    return [{"player": name} | p for name, p, _show in h["players"]], own | courchevel(h["hilo"])


# days around the hands' month boundaries (cutting a month near its hands), or anywhere
_day = st.one_of(
    st.none(),
    st.builds(lambda b, d: (b + timedelta(days=d)).date(), st.sampled_from(BOUNDARIES), st.integers(-4, 20)),
    st.dates(date(2023, 12, 25), date(2024, 11, 8)),
)
_filters = st.fixed_dictionaries(
    {
        "since": _day,
        "until": _day,
        "player": st.sampled_from([None, None, "Ann"]),
        "game": st.sampled_from([None, None, "courchevel-hilo", "Courchevel Hi/Lo Pot Limit", "courchevel"]),
        "stakes": st.sampled_from(
            [None, None, ["0.25/0.50 USD"], ["$1.00+$0.10 USD"], ["12/25 chips", "0.12/0.25 USD"]]
        ),
    }
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hands=st.lists(_hand, min_size=1, max_size=25),
    zone=st.sampled_from(ZONES),
    filters=st.lists(_filters, min_size=2, max_size=5),
)
def test_hilo_through_the_derived_tables_equals_the_raw_rows(
    tmp_path_factory: pytest.TempPathFactory,
    hands: list[dict[str, Any]],
    zone: str,
    filters: list[dict[str, Any]],
) -> None:
    """Hands within two days of month boundaries (many inside the 14-hour margin, and on it), in
    three batches: the first two covered by derived files, the third published after (read raw);
    pots of every share (none, a rake, a pot of 0), shown hands of one or two runs, mucked ones;
    --since/--until days cutting months, every filter, in zones from UTC-12 to UTC+14 with
    quarter-hour offsets and DST changes."""
    root = tmp_path_factory.mktemp("hilo") / "wh"
    if not publish_three_batches(root, hands, _drawn, ["player_buckets", "shown_lows"]):
        return
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        if any(h["batch"] < 2 for h in hands):
            assert fast.execute("SELECT count(*) FROM player_buckets").fetchall()[0][0] > 0
        if any(
            h["batch"] < 2 and h["hilo"] and any(s and not s[0] for _n, _p, s in h["players"]) for h in hands
        ):
            assert fast.execute("SELECT count(*) FROM shown_lows").fetchall()[0][0] > 0
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for kw in filters:
            assert_same_but_floats(_hilo(fast, **kw), _hilo(raw, **kw), (), (zone, kw))
    finally:
        fast.close()
        raw.close()


def _shown_hand(when: datetime, batch: int, low: str | None = "7,5,4,3,A") -> dict[str, Any]:
    ann = {"position": "BTN", "collected": 50, "high_won": 50, "low_won": 0, "net": 25}
    ann |= {flag: flag in ("went_to_showdown", "won_at_showdown", "won_high") for flag in FLAGS}
    return {
        "boundary": when,
        "minutes": 0,
        "players": [("Ann", ann, (False, low, None))],
        "chips": False,
        "bb": 25,
        "hilo": True,
        "pot": 100,
        "rake": 0,
        "runs": 1,
        "batch": batch,
    }


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"])
def test_the_edge_months_of_a_range_are_read_raw_from_covered_files(tmp_path: Path, zone: str) -> None:
    """A --since/--until day inside a month with shown hands of covered files: the month's derived
    rows cannot say which side of the day each hand lies, so its raw rows are read (every hand on
    the right side counted once); the hands of a month wholly inside come from the derived rows."""
    hands = [
        _shown_hand(datetime(2024, 1, 3, 12, tzinfo=UTC), 0),
        _shown_hand(datetime(2024, 1, 20, 12, tzinfo=UTC), 0, None),
        _shown_hand(datetime(2024, 2, 10, 12, tzinfo=UTC), 1),
        _shown_hand(datetime(2024, 3, 2, 12, tzinfo=UTC), 1, None),
        _shown_hand(datetime(2024, 3, 25, 12, tzinfo=UTC), 1),
        _shown_hand(datetime(2024, 3, 31, 23, tzinfo=UTC), 2),
    ]
    root = tmp_path / "wh"
    publish_drawn(root, hands, 0, _drawn)
    publish_drawn(root, hands, 1, _drawn)
    assert derived.refresh(root, names=["player_buckets", "shown_lows"])
    publish_drawn(root, hands, 2, _drawn)
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for since, until in (
            (date(2024, 1, 10), None),
            (None, date(2024, 3, 10)),
            (date(2024, 1, 10), date(2024, 3, 10)),
            (date(2024, 1, 2), date(2024, 1, 25)),
            (date(2024, 2, 1), date(2024, 2, 29)),
        ):
            kw = {"since": since, "until": until}
            got = _hilo(fast, **kw)
            assert_same_but_floats(got, _hilo(raw, **kw), (), (zone, kw))
            assert got["low_made_pct"].notna().all(), (zone, kw)
    finally:
        fast.close()
        raw.close()


def _small(root: Path, prefix: str = "h", start: datetime = datetime(2024, 2, 10, tzinfo=UTC)) -> Path:
    rows = Rows()
    for i in range(4):
        rows.hand(
            f"{prefix}{i}",
            [
                {
                    "player": "Ann",
                    "collected": 60 + i,
                    "won_at_showdown": True,
                    "won_high": True,
                    "went_to_showdown": True,
                    "scooped": i % 2 == 0,
                    "high_won": 60 + i,
                },
                {"player": "Bo", "went_to_showdown": True, "net": -30},
            ],
            total_pot=60 + i,
            start_utc=start + timedelta(hours=i),
            showdowns=[
                {"player": "Ann", "low": "7,5,4,3,A" if i % 2 else None},
                {"player": "Bo", "mucked": i == 3},
            ],
        )
    return rows.publish(root)


def _old_version(path: Path, drop: tuple[str, ...]) -> None:
    """Rewrite a derived file in place as an earlier hhparse wrote it: without ``drop``."""
    table = pq.read_table(path)
    pq.write_table(table.drop_columns(list(drop)), path)


def test_derived_files_of_an_earlier_version_are_stale_never_read(tmp_path: Path) -> None:
    """A bucket file without the hilo columns (written before they existed) counts as stale:
    while the warehouse cannot be written the report reads the raw rows (the same frame), and the
    next report rebuilds it."""
    root = _small(tmp_path / "wh")
    want = hhparse.report("hilo", root)  # builds the derived files
    assert not buckets.plan(root).uncovered
    [bucket] = list((root / ".hhparse" / "files" / "player_buckets").glob("*.parquet"))
    _old_version(bucket, ("scoops", "high_only", "low_only", "quartered", "pot_shares", "pot_share_sum"))
    p = buckets.plan(root)
    assert p.stale and not p.covered and p.uncovered
    with Warehouse(root):  # another writer: nothing can be rebuilt now
        held = hhparse.report("hilo", root)
        assert buckets.plan(root).stale
        for name in ("summary", "positions"):  # the summary family reads raw as well
            hhparse.report(name, root)
    pd.testing.assert_frame_equal(held, want, check_exact=True)
    again = hhparse.report("hilo", root)
    p = buckets.plan(root)
    assert p.covered and not p.stale and not p.uncovered
    pd.testing.assert_frame_equal(again, want, check_exact=True)


def test_hilo_counts_and_lows_of_a_small_warehouse(tmp_path: Path) -> None:
    """The figures themselves, through the derived files: Ann scoops two of four, shows four
    hands of which two with a low; Bo shows three (one mucked), none with a low."""
    root = _small(tmp_path / "wh")
    h = hhparse.report("hilo", root).set_index("player")
    assert not buckets.plan(root).uncovered
    assert (h.loc["Ann", "hands"], h.loc["Ann", "scoops"], h.loc["Ann", "low_made_pct"]) == (4, 2, 50.0)
    assert h.loc["Ann", "avg_pot_share"] == 100.0
    assert (h.loc["Bo", "won_at_showdown"], h.loc["Bo", "low_made_pct"]) == (0, 0.0)
