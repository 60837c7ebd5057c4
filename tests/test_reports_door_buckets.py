"""The door buckets (hhparse.reports.derived, ``door_buckets``): the ``door-card`` report through
the door buckets gives what it gives from the raw rows, under every filter (--player, --since,
--until, --game, --stakes), in every session time zone, whatever part of the warehouse the door
buckets cover; and the report builds them (through the registry) as the summary builds the player
buckets.

The two paths add the same integers; bb/100 comes from float sums in another order, so it may
differ by 0.01 where the exact value sits on a rounding tie (tests/test_reports_buckets.py).
"""

from __future__ import annotations

import re
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
from hhparse.reports import derived
from hhparse.reports.query import frame, report_sql
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import (
    DATE_RANGES,
    NEAR_BOUNDARY,
    ZONES,
    Rows,
    assert_same_but_floats,
    publish_three_batches,
    raw_connection,
    seated,
)

# month boundaries near the DST changes of New York and Chatham, and a year's end
BOUNDARIES = (
    datetime(2024, 1, 1, tzinfo=UTC),
    datetime(2024, 3, 1, tzinfo=UTC),
    datetime(2024, 4, 1, tzinfo=UTC),
    datetime(2024, 11, 1, tzinfo=UTC),
)
CARDS = [r + s for r in "AKQJT98765432" for s in "cdhs"]
GAMES = {
    # name: (game, hilo, label, door card dealt)
    "courchevel-hilo": ("courchevel", True, "Courchevel Hi/Lo Pot Limit", True),
    "courchevel": ("courchevel", False, "Courchevel Pot Limit", True),
    "omaha-hilo": ("omaha", True, "Omaha Hi/Lo Pot Limit", False),
}
FLOAT_SUMS = ("bb_per_100",)


def _door(con: duckdb.DuckDBPyConnection, **kw: Any) -> pd.DataFrame:
    """The door-card report's SQL with the given parameters (no refresh, no filter resolution:
    the views the connection has)."""
    sql = report_sql("door-card")
    return frame(con.sql(sql, params={k: kw.get(k) for k in sorted(set(re.findall(r"\$([a-z_]+)", sql)))}))


_player_row = st.fixed_dictionaries(
    {
        "position": st.sampled_from(("BTN", "SB", "BB", "UTG")),
        "net": st.integers(-5000, 5000),
        "collected": st.integers(0, 3),
        "vpip": st.booleans(),
        "pfr": st.booleans(),
        "saw_flop": st.booleans(),
        "dealt_in": st.sampled_from([True, True, True, False]),
        "hole": st.one_of(st.none(), st.lists(st.sampled_from(CARDS), min_size=4, max_size=4, unique=True)),
    }
)
_hand = st.fixed_dictionaries(
    {
        "boundary": st.sampled_from(BOUNDARIES),
        "minutes": NEAR_BOUNDARY,
        "players": seated(_player_row),
        "door": st.sampled_from(CARDS),
        "game": st.sampled_from(sorted(GAMES)),
        "chips": st.booleans(),
        "bb": st.sampled_from([25, 50, 60]),
        "tournament": st.sampled_from(["111", "222"]),
        "batch": st.integers(0, 2),
    }
)


def _drawn(h: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    game, hilo, label, door = GAMES[h["game"]]
    own = {
        "start_utc": h["boundary"] + timedelta(minutes=h["minutes"]),
        "game": game,
        "hilo": hilo,
        "game_label": label,
        "exposed_card": h["door"] if door else None,
    }
    players = [
        {k: v for k, v in p.items() if k != "hole"} | {"player": name, "hole_cards": p["hole"]}
        for name, p in h["players"]
    ]
    return players, own


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hands=st.lists(_hand, min_size=1, max_size=25),
    zone=st.sampled_from(ZONES),
    ranges=st.lists(DATE_RANGES, min_size=1, max_size=2),
    player=st.sampled_from([None, "Ann"]),
    game=st.sampled_from([None, "courchevel-hilo", "Courchevel Pot Limit", "omaha-hilo"]),
    stakes=st.sampled_from([None, 0, 1]),
)
def test_door_bucket_path_equals_raw_path_on_random_warehouses(
    tmp_path_factory: pytest.TempPathFactory,
    hands: list[dict[str, Any]],
    zone: str,
    ranges: list[tuple[date | None, date | None]],
    player: str | None,
    game: str | None,
    stakes: int | None,
) -> None:
    """Hands within two days of month boundaries (many inside the 14-hour margin, and on it), of
    Courchevel (door card dealt) and Omaha (none), hole cards known or not, in three batches: the
    first two with door buckets, the third published after (read raw); --since/--until days
    cutting months, the --game and --stakes filters, in zones from UTC-12 to UTC+14 with
    quarter-hour offsets and DST changes."""
    root = tmp_path_factory.mktemp("door") / "wh"
    if not publish_three_batches(root, hands, _drawn, ["door_buckets"]):
        return
    fast, raw = hhparse.warehouse(root), raw_connection(root)
    try:
        covered = derived.plan(root, "door_buckets").covered
        assert bool(covered) == any(h["batch"] < 2 for h in hands)
        door_rows = fast.execute("SELECT coalesce(sum(hands), 0) FROM door_buckets").fetchall()[0][0]
        assert door_rows == sum(
            p["dealt_in"] for h in hands if h["batch"] < 2 and GAMES[h["game"]][3] for _, p in h["players"]
        )
        labels = [
            str(r[0])
            for r in fast.execute(
                "SELECT stakes FROM held_stakes UNION SELECT buyin_label FROM hands WHERE buyin_label IS NOT NULL "
                "ORDER BY 1"
            ).fetchall()
        ]
        chosen = None if stakes is None or not labels else [labels[stakes % len(labels)]]
        for con in (fast, raw):
            con.execute(f"SET TimeZone = '{zone}'")
        for since, until in ranges:
            kw = {"player": player, "since": since, "until": until, "game": game, "stakes": chosen}
            assert_same_but_floats(_door(fast, **kw), _door(raw, **kw), FLOAT_SUMS, (zone, kw))
    finally:
        fast.close()
        raw.close()


def _small(root: Path, start: datetime, prefix: str = "h") -> Path:
    rows = Rows()
    for i, (door, hole) in enumerate((("Ah", ["As", "Kd", "7c", "2h"]), ("9c", ["Td", "Jd", "Qd", "Kd"]))):
        rows.hand(
            f"{prefix}{i}",
            [
                {"player": "Ann", "position": "BTN", "vpip": True, "net": 30 + i, "hole_cards": hole},
                {"player": "Bo", "position": "BB", "net": -30 - i},
            ],
            exposed_card=door,
            start_utc=start + timedelta(hours=i),
        )
    return rows.publish(root)


def test_door_card_report_builds_only_the_door_buckets_and_a_held_lock_leaves_the_raw_path(
    tmp_path: Path,
) -> None:
    """``hhparse.report('door-card')`` builds the door buckets (the registry's record names the
    report) and not the player buckets; while another writer holds the warehouse it reads the raw
    rows (same frame)."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    with Warehouse(root):
        held = hhparse.report("door-card", root)
        assert derived.plan(root, "door_buckets").uncovered
    built = hhparse.report("door-card", root)
    assert not derived.plan(root, "door_buckets").uncovered
    assert derived.plan(root, "player_buckets").uncovered
    pd.testing.assert_frame_equal(held, built, check_exact=True)
    fast = hhparse.warehouse(root)
    try:
        assert fast.execute("SELECT sum(hands) FROM door_buckets").fetchall()[0][0] == 4
    finally:
        fast.close()


def test_the_registry_names_declared_tables_and_known_reports() -> None:
    """Every record names a declared derived table, a source table and reports that exist, and
    its build SQL and view names are its own."""
    from hhparse.reports.catalog import REPORTS
    from hhparse.resources import read_text
    from hhparse.tables.schema import DERIVED_TABLES, TABLES

    views: list[str] = []
    for d in derived.REGISTRY.values():
        assert d.name in DERIVED_TABLES and d.source in TABLES
        assert d.reports and all(r in REPORTS for r in d.reports)
        assert "bucket_source" in read_text("analytics", *d.sql)
        assert DERIVED_TABLES[d.name].columns[0].name == "source_file"
        views += [d.name, d.covered, d.uncovered]
    assert len(views) == len(set(views))
    assert derived.needed("door-card") == ("door_buckets",)
    # the summary page's net-won lines read the hero's slots
    assert derived.needed("summary") == ("player_buckets", "hero_slots")
    assert derived.needed("hilo") == ("player_buckets", "shown_lows")


def test_a_file_without_door_cards_is_covered_by_an_empty_door_bucket_file(tmp_path: Path) -> None:
    """Regression: an Omaha-only hand_players file has no door-bucket rows; its door-bucket file is
    written empty (naming its source in its metadata), so the file counts as covered and the next
    refresh has nothing to do (it used to be built again by every door-card report)."""
    rows = Rows()
    rows.hand(
        "o1",
        [{"player": "Ann", "net": 5}, {"player": "Bo", "net": -5}],
        game="omaha",
        game_label="Omaha Hi/Lo Pot Limit",
        exposed_card=None,
    )
    root = rows.publish(tmp_path / "wh")
    done = derived.refresh(root, names=["door_buckets"])
    assert done["door_buckets"].built == 1 and done["door_buckets"].rows == 0
    p = derived.plan(root, "door_buckets")
    assert len(p.covered) == 1 and not p.uncovered and not p.stale
    assert derived.refresh(root, names=["door_buckets"]) == {}
    assert hhparse.report("door-card", root).empty


def test_a_derived_file_of_the_previous_version_is_still_read_by_its_column(tmp_path: Path) -> None:
    """A bucket file written before derived files named their source in their metadata (by the
    previous hhparse) is still matched to its source by its ``source_file`` column."""
    import pyarrow.parquet as pq

    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    derived.refresh(root, names=["player_buckets"])
    p = derived.plan(root, "player_buckets")
    (path,) = [root / ".hhparse" / "files" / rel for rel in p.files]
    table = pq.read_table(path)
    meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != derived.SOURCE_KEY}
    pq.write_table(table.replace_schema_metadata(meta), path)
    assert derived.SOURCE_KEY not in (pq.read_schema(path).metadata or {})
    assert derived.plan(root, "player_buckets") == p and p.covered


OF_HAND_PLAYERS = [d.name for d in derived.REGISTRY.values() if d.source == "hand_players"]


def test_a_refresh_builds_every_derived_table_in_one_commit(tmp_path: Path) -> None:
    """Every derived table of the new files is added by one manifest commit (one batch), through
    one DuckDB session: a small import used to pay one commit and one connection per table and
    source file."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    _small(root, datetime(2024, 3, 10, tzinfo=UTC), prefix="k")
    sessions: list[object] = []
    opened = derived._session

    def counted() -> Any:
        sessions.append(object())
        return opened()

    with Warehouse(root) as wh:
        batch, commits = wh.manifest.next_batch, wh.commits
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(derived, "_session", counted)
            done = derived.refresh(root, wh)
        assert sorted(done) == sorted(OF_HAND_PLAYERS)  # (these hands have no showdowns rows)
        assert wh.manifest.next_batch == batch + 1 and wh.commits == commits + 2  # announce, commit
        assert len(sessions) == 1
        assert all(done[d].built == 2 for d in ("player_buckets", "door_buckets", "hero_slots"))
    for name in OF_HAND_PLAYERS:
        p = derived.plan(root, name)
        assert p.covered and not p.uncovered and not p.stale, name
    assert derived.refresh(root) == {}


def test_a_failed_build_of_one_derived_table_leaves_every_table_as_it_was(tmp_path: Path) -> None:
    """One commit for all: a build that fails after other tables' files were written leaves the
    manifest as it was and no file of the batch behind (the reports read the raw rows)."""
    root = _small(tmp_path / "wh", datetime(2024, 2, 10, tzinfo=UTC))
    files = root / ".hhparse" / "files"
    before = sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())
    build = derived._build_in

    def failing(con: Any, d: derived.Derived, path: Path | str, source: str) -> Any:
        if d.name == "hero_slots":
            raise OSError(28, "No space left on device")
        return build(con, d, path, source)

    with Warehouse(root) as wh, pytest.MonkeyPatch.context() as mp:
        mp.setattr(derived, "_build_in", failing)
        with pytest.raises(OSError, match="No space"):
            derived.refresh(root, wh)
        assert not [p for name in derived.REGISTRY for p in (files / name).glob("*.parquet")]
    after = sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file() and "staging" not in p.parts)
    assert [p for p in after if p not in before and p.suffix == ".parquet"] == []
    for name in OF_HAND_PLAYERS:
        assert not derived.plan(root, name).covered and derived.plan(root, name).uncovered, name
    assert sorted(derived.refresh(root)) == sorted(OF_HAND_PLAYERS)
