"""Player buckets: the summary family's pre-aggregated rows (issue #18), the first record of the
registry of derived tables (:mod:`hhparse.reports.derived`, which holds the one code path).

``player_stats`` (``analytics/stats.sql``) aggregates the dealt-in ``hand_players`` rows per player
and split; on tens of millions of rows the scan is the cost. A bucket row sums one
``hand_players`` file's rows per player and per every key those reports filter or split by
(``analytics/buckets.sql``), so the reports add up buckets instead. Reports read the buckets of
the covered files and the raw rows of the others (``hand_players_bucketed`` /
``hand_players_unbucketed``), so buckets that lag behind, or none, give the same results.

This module keeps the player buckets' own names for the registry's functions (the A/B switch,
the plan, one file's build, the refresh of this table alone).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from hhparse.reports import derived
from hhparse.reports.derived import Plan, exact_zone
from hhparse.tables.store import Warehouse

__all__ = ["ENV_BUCKETS", "BucketPlan", "Refresh", "create_views", "exact_zone", "plan", "refresh"]

NAME = "player_buckets"
RECORD = derived.REGISTRY[NAME]
SOURCE = RECORD.source
ENV_BUCKETS = derived.ENV_SWITCH
"""``0`` (or ``off``) makes reports read the raw rows only and never build buckets (A/B runs)."""

BucketPlan = Plan
Refresh = derived.Refresh
enabled = derived.enabled


def plan(root: Path | str) -> Plan:
    """The bucket plan of the warehouse at ``root`` as its manifest lists it now."""
    return derived.plan(root, NAME)


def create_views(con: Any, root: Path | str, *, use: bool | None = None) -> Plan:
    """Create the views of every derived table (:func:`hhparse.reports.derived.create_views`);
    the player buckets' plan."""
    return derived.create_views(con, root, use=use)[NAME]


def build(path: Path | str, source: str) -> pa.Table:
    """The buckets of the ``hand_players`` file at ``path`` (listed as ``source``)."""
    return derived.build(RECORD, path, source)


def refresh(root: Path | str, wh: Warehouse | None = None) -> derived.Refresh | None:
    """Bring the player buckets (alone) up to date (:func:`hhparse.reports.derived.refresh`);
    ``None`` when nothing was done."""
    return derived.refresh(root, wh, (NAME,)).get(NAME)
