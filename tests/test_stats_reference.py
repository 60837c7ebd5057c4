"""Issue 16: one source explains every stat — hhparse/reports/columns.py — and everything a user
reads comes from it: docs/stats.md (generated; stale is a failure), ``hhparse report --list``,
the HTML pages' headers and hover text, the CSV header row, the terminal legend."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import hhparse
from hhparse.importer import import_paths
from hhparse.reports import BY, REPORTS
from hhparse.reports.columns import COLUMNS, render_docs
from hhparse.reports.html import report_page, table_model

sys.path.insert(0, str(Path(__file__).parent))
from issue16_histories import write_all

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("stats")
    import_paths([write_all(root / "in"), REPO / "sample_histories"], root / "wh", jobs=1)
    return hhparse.warehouse(root / "wh")


def test_docs_stats_md_is_generated_and_up_to_date() -> None:
    committed = (REPO / "docs" / "stats.md").read_text(encoding="utf-8")
    assert committed == render_docs(), "run: python -m hhparse.reports.columns"


def test_every_column_is_defined_and_every_rate_has_numerator_and_denominator() -> None:
    for key, col in COLUMNS.items():
        assert col.text and col.doc and col.doc.endswith((".", ")")), key
        if col.is_rate:
            assert col.num and col.den, f"{key}: a rate needs its numerator and denominator"
    for spec in REPORTS.values():
        missing = [c for c in spec.columns if c not in COLUMNS]
        assert not missing, f"{spec.name}: define {missing} in hhparse/reports/columns.py"
        assert spec.brief and len(spec.brief) <= 60, spec.name


def test_reports_return_the_columns_they_declare(con) -> None:  # type: ignore[no-untyped-def]
    hand = str(con.sql("SELECT hand_id FROM hands LIMIT 1").fetchall()[0][0])
    for name, spec in REPORTS.items():
        by = list(BY) if spec.by else None
        df = hhparse.report(name, con, hand_id=hand if name == "hand" else None, by=by)
        assert list(df.columns) == list(spec.columns), name
        assert set(df.attrs["columns"]) == set(df.columns) and all(df.attrs["columns"].values()), name


def test_pt4_stats_say_so() -> None:
    for key in ("vpip", "pfr", "three_bet", "af", "wtsd", "wsd", "wwsf", "roi", "itm"):
        assert COLUMNS[key].pt4, key
    assert "PokerTracker" in (REPO / "docs" / "stats.md").read_text(encoding="utf-8")


def test_html_headers_come_from_the_catalog(con) -> None:  # type: ignore[no-untyped-def]
    df = hhparse.report("summary", con, player="Hero")
    model = table_model(df)
    by_name = {c["name"]: c for c in model["columns"]}
    assert by_name["vpip"]["label"] == COLUMNS["vpip"].text and by_name["vpip"]["doc"] == COLUMNS["vpip"].doc
    page = report_page(df, name="summary", title="t")
    assert re.search(r'title="Voluntarily Put money In Pot', page)


def test_the_sql_does_not_carry_a_second_set_of_definitions() -> None:
    """stats.sql points to the catalog instead of repeating every definition in comments."""
    head = (REPO / "analytics" / "stats.sql").read_text(encoding="utf-8").split("CREATE", 1)[0]
    assert "hhparse/reports/columns.py" in head and "opportunity:" not in head
