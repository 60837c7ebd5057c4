"""The rows the reports read, each within the report's filters: one declaration (:data:`SOURCES`)
from which the table macros ``<name>_within`` and ``<name>_in`` are written (:func:`sql`), run on
every connection between ``analytics/filters.sql`` (the tests of a row they apply) and
``analytics/stats.sql`` and the pages (which read them; :func:`hhparse.reports.query.warehouse`).

Why written from a declaration: seven sources take the same four filters — the raw
``hand_players`` rows, the raw rows beside each derived table (:mod:`hhparse.reports.derived`:
those it does not cover, and those of the months it cannot answer) and the derived rows
themselves — and a DuckDB table macro names its sources when it is created (it takes no table as
an argument), so that the filters' SQL, written per source, was seven copies of one skeleton.
Here it is written once; a source declares only what differs: where its rows come from and its
player and date test.

``<name>_within(p_player, p_since, p_until)``: the source's rows passing its player and date test.
``<name>_in(p_player, p_since, p_until, p_game, p_stakes)``: those within ``--game`` and
``--stakes`` as well. Those two match the rows to the held games and stakes the filter names
(``held_game``, ``held_stake``: analytics/filters.sql) by their stored columns, a hash join of the
few held rows. A join stays in the plan even when its filter is NULL (every row goes through it,
its columns read for every row), and a per-row list test instead folds away without the filter but
costs more with it; so each combination of the two filters is its own branch of a UNION ALL
(:data:`BRANCHES`), and the branches whose condition on the (constant) parameters is false fold
away, leaving one: no join without a filter, the join for each filter given. (The columns are
never NULL: membership is the IN test's.) Macros are expanded in place, and each branch reads its
own expansion of ``<name>_within``: the plan of every branch is the one the tests written out
give, the date tests reaching the Parquet scans as before (``tests/test_reports_scoped.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from hhparse.reports.derived import REGISTRY, Derived

__all__ = ["BRANCHES", "SOURCES", "Source", "sql"]

DEALT_IN = "t.dealt_in"
PLAYER = "(p_player IS NULL OR t.player = p_player)"
DAYS = "in_days(p_since, p_until, t.start_utc)"
"""The ``--since``/``--until`` test of a raw row: its stored ``start_utc`` (the scan skips the row
groups outside the range) and its local day (``hand_day``)."""

BUCKET_DAYS = "in_bucket_days(p_since, p_until, t.utc_month, t.utc_slot)"
"""The same of a row keyed like the player buckets (UTC month, 15-minute UTC slot): a month
bucket counts when its whole month is in the range, a slot when its day is, unless its month is an
edge month (read raw then: :func:`edge_months`)."""

RAW = (DEALT_IN, PLAYER, DAYS)
"""The test of a raw ``hand_players`` row: dealt in, the player's, within the dates."""

GAME = "held_game(p_game, t.game, t.hilo, t.game_label)"
STAKE = "held_stake(p_stakes, t.buyin_label, t.unit, t.small_blind, t.big_blind)"

BRANCHES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("p_game IS NULL AND p_stakes IS NULL", ()),
    ("p_game IS NOT NULL AND p_stakes IS NULL", (GAME,)),
    ("p_game IS NULL AND p_stakes IS NOT NULL", (STAKE,)),
    ("p_game IS NOT NULL AND p_stakes IS NOT NULL", (GAME, STAKE)),
)
"""The branches of ``<name>_in``: the condition on the parameters that keeps each (exactly one
holds), and the tests of a row it applies."""


def edge_months(d: Derived) -> str:
    """The raw rows beside derived table ``d`` (keyed like the player buckets) that a report
    reads: every row of the files it does not cover, and of those it covers the rows of the edge
    months of a ``--since``/``--until`` range (``since_edge``, ``until_edge``), each month a range
    of the stored ``start_utc``, so that the Parquet scan skips the rest."""
    return (
        f"(SELECT * FROM {d.uncovered}\n"
        f"      UNION ALL\n"
        f"      SELECT * FROM {d.covered}\n"
        f"      WHERE start_utc >= utc_instant(since_edge(p_since))\n"
        f"        AND start_utc < utc_instant(since_edge(p_since) + INTERVAL 1 MONTH)\n"
        f"      UNION ALL\n"
        f"      SELECT * FROM {d.covered}\n"
        f"      WHERE start_utc >= utc_instant(until_edge(p_since, p_until))\n"
        f"        AND start_utc < utc_instant(until_edge(p_since, p_until) + INTERVAL 1 MONTH))"
    )


def unslotted_or_player(d: Derived) -> str:
    """The raw rows beside the hero's slots ``d``: the files they do not cover, and with
    ``p_player`` the covered ones too (the slots hold the hero's rows alone)."""
    return (
        f"(SELECT * FROM {d.uncovered}\n"
        f"      UNION ALL\n"
        f"      SELECT * FROM {d.covered} WHERE CAST(p_player AS VARCHAR) IS NOT NULL)"
    )


@dataclass(frozen=True)
class Source:
    """One source of rows a report reads within its filters: the macros ``<name>_within`` and
    ``<name>_in`` read ``source`` (a table, a view or a subquery of ``p_player``, ``p_since``,
    ``p_until``) as ``t``, and keep the rows passing every test of ``test`` (the player and the
    dates; ``--game`` and ``--stakes`` are :data:`BRANCHES`'s, the same for every source)."""

    name: str
    source: str
    test: tuple[str, ...]


SOURCES: tuple[Source, ...] = (
    # the raw rows of every file: the graphs' hands, and every report's reference
    Source("player_rows", "hand_players", RAW),
    # what player_stats and hilo read beside the player buckets, and the buckets
    Source("stats_rows", edge_months(REGISTRY["player_buckets"]), RAW),
    Source("bucket_rows", "player_buckets", (PLAYER, BUCKET_DAYS)),
    # door_card.sql's, likewise beside the door buckets
    Source("door_rows", edge_months(REGISTRY["door_buckets"]), RAW),
    Source("door_bucket_rows", "door_buckets", (PLAYER, BUCKET_DAYS)),
    # player_hours' (pages/player_hours.sql): the hero's rows (or p_player's) beside the hero's
    # slots, and the slots, none with p_player; a slot's dates in_days' on its start (one local
    # day per slot: exact in a session zone of whole quarter-hour offsets, the only one in which
    # hhparse.reports.derived.create_views lets the slots cover anything)
    Source(
        "hour_rows",
        unslotted_or_player(REGISTRY["hero_slots"]),
        (DEALT_IN, "(CAST(p_player AS VARCHAR) IS NOT NULL OR t.is_hero)", PLAYER, DAYS),
    ),
    Source(
        "slot_rows",
        "hero_slots",
        ("CAST(p_player AS VARCHAR) IS NULL", "in_days(p_since, p_until, t.utc_slot)"),
    ),
)
"""Every source, in the order the macros are created."""


def _macros(source: Source) -> str:
    within = f"{source.name}_within"
    tests = "\n  AND ".join(source.test)
    branches = "\nUNION ALL\n".join(
        f"SELECT *\nFROM {within}(p_player, p_since, p_until) AS t\nWHERE "
        + "\n  AND ".join((keep, *row_tests))
        for keep, row_tests in BRANCHES
    )
    return (
        f"CREATE OR REPLACE MACRO {within}(p_player, p_since, p_until) AS TABLE\n"
        f"SELECT *\nFROM {source.source} AS t\nWHERE {tests};\n\n"
        f"CREATE OR REPLACE MACRO {source.name}_in(p_player, p_since, p_until, p_game, p_stakes) AS TABLE\n"
        f"{branches};\n"
    )


def sql() -> str:
    """The SQL that creates every source's two macros (:data:`SOURCES`)."""
    return "\n".join(_macros(r) for r in SOURCES)
