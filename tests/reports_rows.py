"""Hand-made warehouse rows for the report tests: every column of the declared schema, defaults
for what a test does not care about, published through the real store (manifest and all).

Why not only crafted histories: the stats whose opportunity the referee decides (3-bet, steal,
c-bet...) are checked here against exact flag patterns, independent of the engine's progress.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa
from hypothesis import strategies as st

import hhparse
from hhparse.reports import derived
from hhparse.tables.schema import TABLES, arrow_schema, minor_units
from hhparse.tables.store import Warehouse

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _default(table: str) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for c in TABLES[table].columns:
        t = c.type
        if c.nullable:
            row[c.name] = None
        elif pa.types.is_boolean(t):
            row[c.name] = False
        elif pa.types.is_integer(t):
            row[c.name] = 0
        elif pa.types.is_list(t):
            row[c.name] = []
        elif pa.types.is_timestamp(t):
            row[c.name] = T0.replace(tzinfo=None) if t.tz is None else T0
        else:
            row[c.name] = ""
    return row


class Rows:
    """Collects rows of every table, then publishes them as one batch."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = defaultdict(list)

    def hand(
        self,
        hand_id: str,
        players: list[dict[str, Any]],
        *,
        minutes: float = 0,
        unit: str = "USD",
        bb: int = 25,
        rake: int = 0,
        awards: list[dict[str, Any]] | None = None,
        showdowns: list[dict[str, Any]] | None = None,
        **hand: Any,
    ) -> None:
        """One hand; ``players`` rows need at least ``player``; ``net`` defaults to collected - 0."""
        total = sum(p.get("contributed_preflop", 0) + p.get("contributed_flop", 0) for p in players)
        h = _default("hands") | {
            "site": "PokerStars",
            "hand_id": hand_id,
            "game": "courchevel",
            "hilo": True,
            "structure": "PL",
            "game_label": "Courchevel Hi/Lo Pot Limit",
            "unit": unit,
            "unit_scale": minor_units(unit),
            "currency": None if unit in ("chips", "play") else unit,
            "small_blind": bb // 2,
            "big_blind": bb,
            "table_name": "T",
            "button_seat": 1,
            "start_utc": T0 + timedelta(minutes=minutes),
            "time_zone": "UTC",
            "n_players": len(players),
            "total_pot": total,
            "rake": rake,
            "runs": 1,
            "exposed_card": "7h",
            "source": "test.txt",
            "line": 1,
        }
        h.update(hand)
        self.rows["hands"].append(h)
        for i, p in enumerate(players, start=1):
            row = _default("hand_players") | {
                "site": "PokerStars",
                "hand_id": hand_id,
                "seat": i,
                "dealt_in": True,
            }
            row.update(p)
            if "allin_ev" not in p:  # a hand without all-in EV: the net itself
                row["allin_ev"] = row["net"]
            self.rows["hand_players"].append(row)
        for a in awards or []:
            self.rows["awards"].append(_default("awards") | {"site": "PokerStars", "hand_id": hand_id} | a)
        for s in showdowns or []:
            self.rows["showdowns"].append(
                _default("showdowns") | {"site": "PokerStars", "hand_id": hand_id} | s
            )

    def add(self, table: str, **row: Any) -> None:
        """A raw row of any table (actions, pots, rejects...)."""
        self.rows[table].append(_default(table) | row)

    def _copy_hand_columns(self) -> None:
        """Fill each child row's copies of its hand's columns (``from_hands``), as the builder does."""
        hands = {(h["site"], h["hand_id"]): h for h in self.rows["hands"]}
        for name, rows in self.rows.items():
            copies = TABLES[name].hand_copies
            for row in rows if copies else ():
                hand = hands.get((row["site"], row["hand_id"]), {"unit": "USD", "unit_scale": 100})
                row.update({c: hand[c] for c in copies if c in hand})

    def publish(self, root: Path) -> Path:
        """Write everything as one batch of the warehouse at ``root``."""
        self._copy_hand_columns()
        tables = {
            name: pa.Table.from_pylist(rows, schema=arrow_schema(name)) for name, rows in self.rows.items()
        }
        with Warehouse(root) as wh:
            wh.publish(tables, {})
        return root


# The random warehouses of the derived tables' tests (test_reports_buckets, _door_buckets,
# _hero_slots, _hilo_derived): each compares a report through a derived table with the raw rows.

ZONES = (
    "UTC",
    "America/New_York",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "Pacific/Kiritimati",
    "Etc/GMT+12",
)
"""Session time zones both paths are compared in: DST changes (New York, Chatham), half and
quarter-hour offsets (Kolkata, Kathmandu, Chatham), the extremes UTC+14 and UTC-12."""

DATE_RANGES = st.tuples(
    st.one_of(st.none(), st.dates(date(2023, 12, 25), date(2024, 11, 8))),
    st.one_of(st.none(), st.dates(date(2023, 12, 25), date(2024, 11, 8))),
)
"""A --since/--until pair (either open), around the drawn hands' months."""


def courchevel(hilo: bool) -> dict[str, Any]:
    """A Courchevel hand's game columns, hi/lo or high only."""
    return {"hilo": hilo, "game_label": "Courchevel Hi/Lo Pot Limit" if hilo else "Courchevel Pot Limit"}


def publish_drawn(
    root: Path,
    hands: Sequence[Mapping[str, Any]],
    batch: int,
    hand: Callable[[Mapping[str, Any]], tuple[list[dict[str, Any]], dict[str, Any]]],
) -> None:
    """Publish, as one batch, the drawn hands of ``batch`` (their ``"batch"``): ``hand`` gives a
    drawn hand's players and its own :meth:`Rows.hand` keywords; the rest is every test's: the hand
    id (the batch, then the hand's place in the draw), the unit (``"chips"``: a tournament's chips,
    ``"tournament"`` its id, ``"111"`` unless drawn, the buy-in named after it; else USD) and the
    big blind ``"bb"``. Nothing is published for a batch without hands."""
    rows = Rows()
    for i, h in enumerate(hands):
        if h["batch"] != batch:
            continue
        players, own = hand(h)
        if h["chips"]:
            tournament = h.get("tournament", "111")
            own |= {"tournament_id": tournament, "buyin_label": f"${tournament[0]}.00+$0.10 USD"}
        rows.hand(f"{batch}{i:04d}", players, unit="chips" if h["chips"] else "USD", bb=h["bb"], **own)
    if rows.rows:
        rows.publish(root)


NEAR_BOUNDARY = st.one_of(
    st.integers(-2 * 1440, 2 * 1440), st.sampled_from([-841, -840, -839, -1, 0, 839, 840, 841])
)
"""Minutes from a UTC month boundary: within two days, often within the 14 hours of the derived
tables' month key (and at its edges)."""


def raw_connection(root: Path) -> duckdb.DuckDBPyConnection:
    """A connection whose reports read the raw rows only, every derived table unused (the
    reference)."""
    con = hhparse.warehouse(root)
    derived.create_views(con, root, use=False)
    return con


def publish_three_batches(
    root: Path,
    hands: Sequence[Mapping[str, Any]],
    hand: Callable[[Mapping[str, Any]], tuple[list[dict[str, Any]], dict[str, Any]]],
    names: Sequence[str],
) -> bool:
    """The drawn hands' first two batches published (:func:`publish_drawn`) and covered by the
    derived tables ``names``, then the third published after them (read raw). False when no batch
    had hands (no warehouse)."""
    publish_drawn(root, hands, 0, hand)
    publish_drawn(root, hands, 1, hand)
    derived.refresh(root, names=names)
    publish_drawn(root, hands, 2, hand)
    return (root / "manifest.json").exists()


def assert_same_but_floats(
    got: pd.DataFrame, want: pd.DataFrame, floats: Sequence[str], what: object
) -> None:
    """The same columns, types and values, exactly but in the columns ``floats`` (those of them
    present): float sums added in another order by the two paths, equal but at a rounding tie of
    their second decimal (within 0.01)."""
    assert list(got.columns) == list(want.columns) and list(got.dtypes) == list(want.dtypes), what
    exact = [c for c in want.columns if c not in floats]
    pd.testing.assert_frame_equal(got[exact], want[exact], check_exact=True, obj=str(what))
    for column in floats:
        if column in want.columns:
            a, b = got[column].astype("float64"), want[column].astype("float64")
            assert (a.isna() == b.isna()).all(), (what, column)
            assert ((a - b).abs().fillna(0) <= 0.01 + 1e-9).all(), (what, column)


def seated(row: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[list[tuple[str, dict[str, Any]]]]:
    """One to three of the players Ann, Bo and Cy, each with a row drawn from ``row``."""
    return st.lists(
        st.tuples(st.sampled_from(["Ann", "Bo", "Cy"]), row), min_size=1, max_size=3, unique_by=lambda p: p[0]
    )
