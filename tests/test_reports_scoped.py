"""The rows each report reads within its filters (hhparse.reports.scoped): every declared source
gets its two macros, exactly one of the four --game/--stakes branches holds for any filters, the
branches not taken fold away (no join of the held games or stakes without that filter), and the
date tests still reach the Parquet scans of the stored ``start_utc`` and ``utc_month``.

(That the reports give what they gave is tests/test_reports_reference.py's and the derived-table
tests'; these are the properties the macros are written for.)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

import hhparse
from hhparse.reports import derived, scoped

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import Rows


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """A warehouse of a hand a week over three months, its derived tables built."""
    rows = Rows()
    start = datetime(2024, 1, 20, 12, tzinfo=UTC)
    for i in range(10):
        rows.hand(
            f"{i:04d}",
            [{"player": "Ann", "is_hero": True, "net": 10 * i}, {"player": "Bo", "net": -10 * i}],
            start_utc=start + timedelta(days=7 * i),
        )
    rows.publish(root := tmp_path_factory.mktemp("scoped") / "wh")
    derived.refresh(root)
    c = hhparse.warehouse(root)
    yield c
    c.close()


def _plan(con: duckdb.DuckDBPyConnection, sql: str) -> str:
    return "\n".join(str(r[1]) for r in con.execute("EXPLAIN " + sql).fetchall())


def test_every_source_has_its_two_macros(con: duckdb.DuckDBPyConnection) -> None:
    made = {
        r[0]
        for r in con.execute(
            "SELECT function_name FROM duckdb_functions() WHERE function_type = 'table_macro'"
        ).fetchall()
    }
    for rows in scoped.SOURCES:
        assert {f"{rows.name}_within", f"{rows.name}_in"} <= made, rows.name


@pytest.mark.parametrize("game", [None, "courchevel-hilo"])
@pytest.mark.parametrize("stakes", [None, ["0.12/0.25 USD"]])
def test_exactly_one_branch_holds(
    con: duckdb.DuckDBPyConnection, game: str | None, stakes: list[str] | None
) -> None:
    holds = [
        con.execute(f"SELECT {keep}", {"p_game": game, "p_stakes": stakes}).fetchone()
        for keep, _ in scoped.BRANCHES
        for keep in [keep.replace("p_game", "$p_game").replace("p_stakes", "CAST($p_stakes AS VARCHAR[])")]
    ]
    assert [h[0] if h else None for h in holds].count(True) == 1


@pytest.mark.parametrize("rows", [r.name for r in scoped.SOURCES])
@pytest.mark.parametrize("use", [True, False])
def test_the_branches_not_taken_fold_away(con: duckdb.DuckDBPyConnection, rows: str, use: bool) -> None:
    """Without --game and --stakes no held game or stake is joined; with --game one is (where the
    source has rows: the derived rows, or with the derived tables unused the raw ones)."""
    root = con.execute("SELECT getvariable('hhparse_warehouse')").fetchall()[0][0]
    derived.create_views(con, root, use=use)
    try:
        plain = _plan(con, f"SELECT * FROM {rows}_in(NULL, NULL, NULL, NULL, NULL)")
        game = _plan(con, f"SELECT * FROM {rows}_in(NULL, NULL, NULL, 'courchevel-hilo', NULL)")
    finally:
        derived.create_views(con, root)
    assert "MARK" not in plain and "SEMI" not in plain
    assert "Empty Result" in game or "MARK" in game or "SEMI" in game


def test_the_date_tests_reach_the_scans(con: duckdb.DuckDBPyConnection) -> None:
    """A --since of a month's middle: the raw rows' scans test the stored start_utc (the raw
    rows of the edge month of the covered files too), the buckets' scan the stored utc_month.
    (A bound the file's statistics already satisfy is not in the plan: the dates are chosen
    inside the hands' range.)"""
    stats = _plan(con, "SELECT * FROM stats_rows_in(NULL, '2024-02-10', NULL, NULL, NULL)")
    assert "start_utc >= '2024-02-09" in stats  # in_days' margin of a day
    assert "start_utc < '2024-03-01" in stats  # the end of the covered files' edge month
    buckets = _plan(con, "SELECT * FROM bucket_rows_in(NULL, '2024-03-10', NULL, NULL, NULL)")
    assert "utc_month >= '2024-02-01'" in buckets  # a month wider than the range
