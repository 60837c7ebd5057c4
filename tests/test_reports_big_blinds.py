"""Amounts in big blinds (bb/100, the graphs' big-blind lines) add up exactly: the same figure in
every run, whatever order DuckDB's threads deliver the rows in (``analytics/rows.sql``'s
``in_big_blinds``). A float sum's last bits depend on that order, and a total that falls on a
rounding tie of the second decimal came out 0.01 apart between two runs of one report."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parent.parent

# Found by search: each hand's net over its big blind, added as doubles first to last and last to
# first, gives bb/100 -2108.87 one way and -2108.88 the other (the exact value is -2108.875).
NETS = (-109, -254, -244, -277, -79, -265, 206, 241)
BIG_BLINDS = (50, 4, 4, 25, 6, 3, 20, 4)


def _bb_per_100(rows: list[tuple[int, int]], amount_in_bb: str) -> float:
    """bb/100 of ``rows`` added in their order (one thread: the scan's order is the insertion's)."""
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute((REPO / "analytics" / "rows.sql").read_text(encoding="utf-8"))
    con.execute("CREATE TABLE hands (net BIGINT, big_blind BIGINT)")
    con.executemany("INSERT INTO hands VALUES (?, ?)", rows)
    got = con.execute(f"SELECT round(100 * sum({amount_in_bb}) / count(*), 2) FROM hands").fetchone()
    assert got is not None
    return float(got[0])


def test_bb_per_100_is_the_same_in_any_row_order() -> None:
    rows = list(zip(NETS, BIG_BLINDS, strict=True))
    exact = "in_big_blinds(net, big_blind)"
    assert _bb_per_100(rows, exact) == _bb_per_100(rows[::-1], exact) == -2108.88
    # the test can fail: the float formulation the reports used before differs between the orders
    double = "CAST(net AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0)"
    assert _bb_per_100(rows, double) != _bb_per_100(rows[::-1], double)


def test_in_big_blinds_is_null_without_a_big_blind() -> None:
    con = duckdb.connect()
    con.execute((REPO / "analytics" / "rows.sql").read_text(encoding="utf-8"))
    assert con.execute("SELECT in_big_blinds(5, 0), in_big_blinds(5, NULL)").fetchone() == (None, None)


def test_every_amount_in_big_blinds_is_exact() -> None:
    """No report divides an amount by the big blind as a double of its own: each goes through
    ``in_big_blinds``, whose sums are exact (a new report that forgot would differ between runs)."""
    float_division = re.compile(r"AS DOUBLE\)\s*/\s*NULLIF\(CAST\([\w.]*big_blind", re.IGNORECASE)
    offenders = [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "analytics").rglob("*.sql"))
        if path.name != "rows.sql" and float_division.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
