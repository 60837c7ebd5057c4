"""Hand-made warehouse rows for the report tests: every column of the declared schema, defaults
for what a test does not care about, published through the real store (manifest and all).

Why not only crafted histories: the stats whose opportunity the referee decides (3-bet, steal,
c-bet...) are checked here against exact flag patterns, independent of the engine's progress.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

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
