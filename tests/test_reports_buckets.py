"""The player buckets (hhparse.reports.buckets): ``player_stats`` through the buckets gives what it
gives from the raw rows, under every filter and split, in every session time zone, whatever part
of the warehouse the buckets cover; and the buckets follow the warehouse (new batches, compaction,
a crash while building them, a writer holding the lock).

The two paths add the same integers; only bb/100 and EV bb/100 come from float sums in another
order (per bucket: the integer net over the big blind, once; raw: one quotient per row), so those
two may differ by 0.01 where the exact value sits on a rounding tie. Everything else is identical.
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
from hhparse.reports import buckets, derived
from hhparse.resources import read_text
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import (
    DATE_RANGES,
    NEAR_BOUNDARY,
    ZONES,
    Rows,
    assert_same_but_floats,
    courchevel,
    publish_three_batches,
    raw_connection,
    seated,
)

SPLITS: tuple[list[str], ...] = (
    [],
    ["month"],
    ["position"],
    ["stakes"],
    ["stakes", "month"],
    ["game", "structure", "table-size"],
)
FLOAT_SUMS = ("bb_per_100", "ev_bb_per_100")
# month boundaries near the DST changes of New York (10 March, 3 November 2024) and Chatham
# (7 April, 29 September 2024), and a year's end
BOUNDARIES = (
    datetime(2024, 1, 1, tzinfo=UTC),
    datetime(2024, 3, 1, tzinfo=UTC),
    datetime(2024, 4, 1, tzinfo=UTC),
    datetime(2024, 10, 1, tzinfo=UTC),
    datetime(2024, 11, 1, tzinfo=UTC),
)
POSITIONS = ("BTN", "SB", "BB", "UTG", "CO")
FLAGS = (
    "vpip",
    "pfr",
    "three_bet_opportunity",
    "three_bet",
    "steal_opportunity",
    "fold_to_steal",
    "cbet_opportunity",
    "cbet",
    "fold_to_cbet_opportunity",
    "saw_flop",
    "went_to_showdown",
    "won_at_showdown",
)
QUERY = (
    "SELECT * FROM player_stats($player, $since, $until, $game, $stakes, CAST($by AS VARCHAR[])) ORDER BY ALL"
)


def _stats(con: duckdb.DuckDBPyConnection, by: list[str], **kw: Any) -> pd.DataFrame:
    params = {k: kw.get(k) for k in ("player", "since", "until", "game", "stakes")} | {"by": by}
    return con.execute(QUERY, params).df()


_player_row = st.fixed_dictionaries(
    {
        "position": st.sampled_from(POSITIONS),
        "net": st.integers(-5000, 5000),
        "collected": st.integers(0, 3),
        "postflop_bets": st.integers(0, 2),
        "postflop_calls": st.integers(0, 2),
        "postflop_folds": st.integers(0, 1),
        **{flag: st.booleans() for flag in FLAGS},
    }
)
_hand = st.fixed_dictionaries(
    {
        "boundary": st.sampled_from(BOUNDARIES),
        # within two days of the boundary, often within the 14 hours (and at its edges)
        "minutes": NEAR_BOUNDARY,
        "players": seated(_player_row),
        "chips": st.booleans(),
        "bb": st.sampled_from([25, 50, 60]),
        "hilo": st.booleans(),
        "seats": st.sampled_from([6, 9, None]),
        "tournament": st.sampled_from(["111", "222"]),
        "batch": st.integers(0, 2),
    }
)


def _drawn(h: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    own = {"start_utc": h["boundary"] + timedelta(minutes=h["minutes"]), "max_seats": h["seats"]}
    return [{"player": name} | p for name, p in h["players"]], own | courchevel(h["hilo"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hands=st.lists(_hand, min_size=1, max_size=25),
    zone=st.sampled_from(ZONES),
    ranges=st.lists(DATE_RANGES, min_size=1, max_size=2),
    splits=st.lists(st.sampled_from(SPLITS), min_size=1, max_size=2, unique_by=tuple),
    player=st.sampled_from([None, "Ann"]),
)
def test_bucket_path_equals_raw_path_on_random_warehouses(
    tmp_path_factory: pytest.TempPathFactory,
    hands: list[dict[str, Any]],
    zone: str,
    ranges: list[tuple[date | None, date | None]],
    splits: list[list[str]],
    player: str | None,
) -> None:
    """Hands within two days of month boundaries (many inside the 14-hour margin, and on it), in
    three batches: the first two bucketed, the third published after (read raw); every split, and
    --since/--until days cutting months, in zones from UTC-12 to UTC+14 with quarter-hour offsets
    and DST changes."""
    root = tmp_path_factory.mktemp("buckets") / "wh"
    if not publish_three_batches(root, hands, _drawn, ["player_buckets"]):
        return
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        assert fast.execute("SELECT count(*) FROM player_buckets").fetchall()[0][0] > 0 or not any(
            h["batch"] < 2 for h in hands
        )
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for since, until in ranges:
            for by in splits:
                kw = {"player": player, "since": since, "until": until}
                assert_same_but_floats(
                    _stats(fast, by, **kw), _stats(raw, by, **kw), FLOAT_SUMS, (zone, by, kw)
                )
    finally:
        fast.close()
        raw.close()


def _small(root: Path, start: datetime, n: int = 3, prefix: str = "h") -> Path:
    rows = Rows()
    for i in range(n):
        rows.hand(
            f"{prefix}{i}",
            [
                {"player": "Ann", "position": "BTN", "vpip": True, "net": 30 + i},
                {"player": "Bo", "position": "BB", "net": -30 - i},
            ],
            start_utc=start + timedelta(hours=i),
        )
    return rows.publish(root)


def test_a_month_bucket_starts_fourteen_hours_into_the_month() -> None:
    """The 14-hour margin on both sides of a UTC month boundary, to the microsecond."""
    first = datetime(2024, 5, 1, tzinfo=UTC)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute(read_text("analytics", "rows.sql"))
    assert "bucket_slot(start_utc)" in read_text("analytics", "buckets.sql")
    slots = {}
    for when in (
        first + timedelta(hours=14) - timedelta(microseconds=1),
        first + timedelta(hours=14),
        datetime(2024, 6, 1, tzinfo=UTC) - timedelta(hours=14) - timedelta(microseconds=1),
        datetime(2024, 6, 1, tzinfo=UTC) - timedelta(hours=14),
    ):
        slots[when] = con.execute("SELECT bucket_slot($t::TIMESTAMPTZ)", {"t": when}).fetchall()[0][0]
    values = list(slots.values())
    assert values[0] is not None and values[1] is None and values[2] is None and values[3] is not None


def test_buckets_follow_new_batches_and_compaction(tmp_path: Path) -> None:
    """A batch published after the buckets is read raw until the next refresh; a compaction
    replaces the hand_players files, so their buckets go stale (ignored, then retired) and new ones
    are built; the report is the raw path's at every step."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))

    def check() -> buckets.BucketPlan:
        fast, raw = hhparse.warehouse(root), raw_connection(root)
        try:
            for by in SPLITS:
                assert_same_but_floats(_stats(fast, by), _stats(raw, by), FLOAT_SUMS, by)
        finally:
            fast.close()
            raw.close()
        return buckets.plan(root)

    assert check().uncovered and not buckets.plan(root).covered
    done = buckets.refresh(root)
    assert done is not None and done.built == 1 and done.retired == 0
    _small(root, datetime(2024, 2, 20, tzinfo=UTC), prefix="g")
    p = check()
    assert len(p.covered) == 1 and len(p.uncovered) == 1
    assert buckets.refresh(root) is not None and not check().uncovered
    assert buckets.refresh(root) is None  # nothing to do
    with Warehouse(root) as wh:
        wh.compact()
    p = check()
    assert len(p.uncovered) == 1 and len(p.stale) == 2 and not p.covered
    done = buckets.refresh(root)
    assert done is not None and (done.built, done.retired) == (1, 2)
    p = check()
    assert len(p.covered) == 1 and not p.stale and not p.uncovered


def test_summary_report_builds_the_buckets_and_a_held_lock_leaves_the_raw_path(tmp_path: Path) -> None:
    """``hhparse.report('summary')`` brings the buckets up to date; while another writer holds
    the warehouse it cannot, and reads the raw rows instead (same frame)."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    with Warehouse(root):
        held = hhparse.report("summary", root)
        assert buckets.plan(root).uncovered  # nothing was built
    built = hhparse.report("summary", root)
    assert not buckets.plan(root).uncovered
    pd.testing.assert_frame_equal(held, built, check_exact=True)


def test_a_crash_while_building_leaves_the_buckets_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure part-way (the second file's buckets) publishes nothing and leaves no file; the
    announced tag is cleaned up and the next refresh builds everything."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    _small(root, datetime(2024, 3, 10, tzinfo=UTC), prefix="g")
    real = derived._build_in
    calls = []

    def failing(con: Any, d: derived.Derived, path: Path | str, source: str) -> Any:
        calls.append(source)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(con, d, path, source)

    monkeypatch.setattr(derived, "_build_in", failing)
    with Warehouse(root) as wh, pytest.raises(OSError):
        buckets.refresh(root, wh)
    monkeypatch.setattr(derived, "_build_in", real)
    assert len(buckets.plan(root).uncovered) == 2
    assert not list((root / ".hhparse" / "files" / "player_buckets").glob("*.parquet"))
    assert buckets.refresh(root) is not None and len(buckets.plan(root).covered) == 2


def test_buckets_off_reads_raw_and_builds_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``HHPARSE_BUCKETS=0``: no bucket is built or read (the A/B switch of bench/reports.py)."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    monkeypatch.setenv(buckets.ENV_BUCKETS, "0")
    hhparse.report("summary", root)
    assert buckets.refresh(root) is None
    assert not (root / "player_buckets").exists()


def test_compact_command_rebuilds_the_buckets_of_the_new_files(tmp_path: Path) -> None:
    """``hhparse compact`` replaces the hand_players files, then builds their buckets and retires
    the old ones: the next report has nothing to build."""
    from hhparse.cli.compact_cmd import compact_command

    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    _small(root, datetime(2024, 2, 20, tzinfo=UTC), prefix="g")
    assert buckets.refresh(root) is not None and len(buckets.plan(root).covered) == 2
    compact_command(warehouse=root)
    p = buckets.plan(root)
    assert len(p.covered) == 1 and not p.uncovered and not p.stale


@pytest.mark.parametrize(
    ("zone", "exact"),
    [
        ("UTC", True),
        ("America/New_York", True),
        ("Asia/Kathmandu", True),
        ("Pacific/Chatham", True),
        ("Etc/GMT+12", True),
        ("GMT+05:07", False),
    ],
)
def test_a_zone_off_the_quarter_hours_reads_the_raw_rows(tmp_path: Path, zone: str, exact: bool) -> None:
    """The buckets' exactness needs offsets of whole quarter-hours (every IANA zone's): a custom
    ICU offset such as ``GMT+05:07`` must not read month buckets keyed for other zones."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 29, 20, tzinfo=UTC))
    assert buckets.refresh(root) is not None
    con = duckdb.connect()
    con.execute(f"SET TimeZone = '{zone}'")
    assert buckets.exact_zone(con) is exact
    con.close()
    fast = hhparse.warehouse(root)
    fast.execute(f"SET TimeZone = '{zone}'")
    p = buckets.create_views(fast, root)
    assert bool(p.covered) is exact
    raw = raw_connection(root)
    raw.execute(f"SET TimeZone = '{zone}'")
    assert_same_but_floats(_stats(fast, ["month"]), _stats(raw, ["month"]), FLOAT_SUMS, zone)


def test_the_import_command_builds_the_buckets_of_what_it_added(tmp_path: Path) -> None:
    """``hhparse import`` builds the player buckets of the files it published, so that the first
    summary report after a large import reads buckets instead of every new row."""
    from typer.testing import CliRunner

    from hhparse.cli import app

    sample = Path(__file__).resolve().parent.parent / "sample_histories"
    root = tmp_path / "wh"
    out = CliRunner().invoke(app, ["import", str(sample), "--warehouse", str(root)])
    assert out.exit_code in (0, 1), out.output
    p = buckets.plan(root)
    assert p.covered and not p.uncovered and not p.stale


@pytest.mark.parametrize("row_group", [1, None])
def test_a_derived_file_of_more_than_one_row_group_is_written_in_time_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row_group: int | None
) -> None:
    """A build whose rows fill more than one Parquet row group is sorted by its record's
    ``order`` (time first: a ``--since``/``--until`` then skips row groups by their statistics);
    one of a single row group is written unsorted, with the same rows."""
    rows = Rows()
    for i in range(24):  # later hands first, players in reverse order: the rows come unsorted
        rows.hand(
            f"h{i}",
            [
                {"player": f"P{99 - i:02d}", "position": "BTN", "vpip": True, "net": 5},
                {"player": "Bo", "net": -5},
            ],
            start_utc=datetime(2024, 12, 20, tzinfo=UTC) - timedelta(days=14 * i),
        )
    root = rows.publish(tmp_path / "wh")
    if row_group is not None:
        monkeypatch.setattr(derived, "ROW_GROUP_ROWS", row_group)
    d = derived.REGISTRY["player_buckets"]
    (rel,) = buckets.plan(root).uncovered
    table = derived.build(d, root / ".hhparse" / "files" / rel, rel)
    keys = list(zip(*(table.column(c).to_pylist() for c in d.order), strict=True))
    assert len(keys) > 24
    if row_group is not None:
        assert keys == sorted(keys)
    else:
        monkeypatch.setattr(derived, "ROW_GROUP_ROWS", 1)
        ordered = derived.build(d, root / ".hhparse" / "files" / rel, rel)
        assert sorted(map(str, table.to_pylist())) == sorted(map(str, ordered.to_pylist()))
