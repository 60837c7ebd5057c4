"""The hand list's filters, the HTML pages' content and size, and their commands (no browser:
tests/test_browser.py drives the same pages in Chromium)."""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from typer.testing import CliRunner

import hhparse
from hhparse.cli import app
from hhparse.failures import UsageError
from hhparse.importer import import_paths
from hhparse.reports import REPORTS
from hhparse.reports.columns import COLUMNS
from hhparse.reports.hands import hands_params, parse_door_card, parse_min_pot
from hhparse.reports.html import MAX_ROWS, graph_lines, replay_page, report_page, table_model
from hhparse.reports.replay import replay_documents

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wh = tmp_path_factory.mktemp("sample") / "wh"
    import_paths([REPO / "sample_histories"], wh, jobs=1)
    return wh


@pytest.fixture(scope="module")
def con(sample: Path) -> duckdb.DuckDBPyConnection:
    return hhparse.warehouse(sample)


def _flags(con: duckdb.DuckDBPyConnection, where: str) -> set[str]:
    return {r[0] for r in con.sql(f"SELECT hand_id FROM stg_hand_players WHERE {where}").fetchall()}


# --------------------------------------------------------------------------------------------
# report hands
# --------------------------------------------------------------------------------------------


def test_hands_lists_every_hand_once_oldest_first(con: duckdb.DuckDBPyConnection) -> None:
    df = hhparse.report("hands", con)
    assert len(df) == con.sql("SELECT count(*) FROM hands").fetchall()[0][0]
    assert df["hand_id"].is_unique and list(df["start_utc"]) == sorted(df["start_utc"])
    hero = df[df["player"] == "Hero"]
    assert len(hero) == len(_flags(con, "is_hero"))


def test_hands_flags_are_the_referees(con: duckdb.DuckDBPyConnection) -> None:
    for option, column in (
        ("showdown", "went_to_showdown"),
        ("all_in", "all_in_street IS NOT NULL"),
        ("scooped", "scooped"),
        ("quartered", "quartered"),
    ):
        got = set(hhparse.report("hands", con, player="Hero", **{option: True})["hand_id"])
        assert got == _flags(con, f"player = 'Hero' AND {column}"), option
        anyone = set(hhparse.report("hands", con, **{option: True})["hand_id"])
        assert anyone == _flags(con, column), option
        off = set(hhparse.report("hands", con, player="Hero", **{option: False})["hand_id"])
        assert not off & got and len(off | got) == len(_flags(con, "player = 'Hero'"))


def test_hands_min_pot_door_card_and_limit(con: duckdb.DuckDBPyConnection) -> None:
    big = hhparse.report("hands", con, min_pot="5")
    assert len(big) and all(p >= Decimal(5) for p in big["total_pot"])
    all_hands = hhparse.report("hands", con)
    bb = dict(con.sql("SELECT hand_id, big_blind FROM stg_hands").fetchall())
    in_bb = hhparse.report("hands", con, min_pot="20bb")
    assert set(in_bb["hand_id"]) == {
        h for h, p in zip(all_hands["hand_id"], all_hands["total_pot"], strict=True) if p >= 20 * bb[h]
    }
    low = hhparse.report("hands", con, door_card="low")
    assert len(low) and all(c[0] in "A2345678" for c in low["door_card"])
    aces = hhparse.report("hands", con, door_card="a")
    assert len(aces) and {c[0] for c in aces["door_card"]} == {"A"}
    card = aces["door_card"].iloc[0]
    assert set(hhparse.report("hands", con, door_card=card)["door_card"]) == {card}
    last = hhparse.report("hands", con, limit=7)
    assert list(last["hand_id"]) == list(all_hands["hand_id"])[-7:]
    # with a filter that drops hands the last N are the filtered list's (not found in stg_hands first)
    assert (
        list(hhparse.report("hands", con, door_card="low", limit=3)["hand_id"]) == list(low["hand_id"])[-3:]
    )


def test_hands_filters_are_checked() -> None:
    assert parse_min_pot("40bb") == (None, Decimal(40)) and parse_min_pot("$2.50") == (Decimal("2.50"), None)
    assert parse_door_card("10h") == "Th" and parse_door_card("LOW") == "low" and parse_door_card("k") == "K"
    for bad in (
        {"min_pot": "lots"},
        {"min_pot": "-1"},
        {"door_card": "Ax"},
        {"door_card": "1"},
        {"limit": 0},
    ):
        with pytest.raises(ValueError):
            hands_params(**bad)  # type: ignore[arg-type]


def test_hands_filters_only_for_hands(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ValueError, match="only for the hands report"):
        hhparse.report("summary", con, showdown=True)


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def test_every_report_column_has_a_readable_header(con: duckdb.DuckDBPyConnection) -> None:
    for name in REPORTS:
        df = hhparse.report(name, con, hand_id="0" if name == "hand" else None)
        if name == "hand":
            continue
        missing = [c for c in df.columns if c not in COLUMNS]
        assert missing == [], f"{name}: add a label to hhparse/reports/columns.py"


def test_table_model_numbers_right_text_left_and_row_cap() -> None:
    df = pd.DataFrame(
        {
            "player": ["a", "b"],
            "net": [Decimal("-1.50"), Decimal("2.00")],
            "hands": [3, 4],
            "vpip": [12.5, None],
            "hole_cards": [["Ah", "Kd"], None],
            "showdown": [True, False],
        }
    )
    t = table_model(df)
    assert [c["numeric"] for c in t["columns"]] == [False, True, True, True, False, False]
    assert t["right"] == [2, 3, 4]
    assert t["rows"][0] == ["a", {"text": "-1.50", "cls": "neg"}, "3", "12.50", "Ah Kd", "✓"]
    assert t["rows"][1] == ["b", "2.00", "4", "", "", ""]
    big = pd.DataFrame({"player": [f"p{i}" for i in range(MAX_ROWS + 5)]})
    model = table_model(big)
    assert len(model["rows"]) == MAX_ROWS and model["total"] == MAX_ROWS + 5
    page = report_page(big, name="summary", title="t")
    assert f"Showing the first {MAX_ROWS} of {MAX_ROWS + 5} rows" in page


def test_summary_page_size_and_graph(con: duckdb.DuckDBPyConnection) -> None:
    page = report_page(hhparse.report("summary", con), name="summary", title="s", lines=graph_lines(con))
    size = len(page.encode())
    assert size < 300_000, size
    assert 'id="hh-graph"' in page and "<table" in page and "data:image" not in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page


def test_graph_lines_one_per_tournament(con: duckdb.DuckDBPyConnection) -> None:
    lines = graph_lines(con)
    per_line = lines.groupby("line")["hand_no"].agg(["min", "max", "count"])
    assert set(per_line.index) == {"USD", "T1000006471", "T1000012075"}
    assert (per_line["min"] == 1).all()  # each tournament starts again at zero
    t = lines[lines["line"] == "T1000006471"]
    hero = con.sql(
        "SELECT sum(net) FROM stg_hand_players h JOIN stg_hands USING (site, hand_id) "
        "WHERE is_hero AND h.tournament_id = '1000006471'"
    ).fetchall()[0][0]
    assert t["cum_net"].iloc[-1] == hero


def test_graph_lines_resolve_filters_as_typed(con: duckdb.DuckDBPyConnection) -> None:
    """Regression: the page's graph took the filters as typed, so a name in another case drew no
    line and a month or year (``--since 2018-04``) stopped the page with a bare ValueError."""
    hero = graph_lines(con, player="Hero")
    assert not hero.empty
    pd.testing.assert_frame_equal(graph_lines(con, player="hero"), hero)
    last = con.sql("SELECT max(hand_date) FROM stg_hands").fetchall()[0][0]
    month = graph_lines(con, player="Hero", since=f"{last:%Y-%m}")
    assert not month.empty
    pd.testing.assert_frame_equal(month, graph_lines(con, player="Hero", since=last.replace(day=1)))
    pd.testing.assert_frame_equal(
        graph_lines(con, since=f"{last:%Y}"), graph_lines(con, since=f"{last:%Y}-01-01")
    )
    with pytest.raises(UsageError, match="--since must be a date"):
        graph_lines(con, since="April")


def test_replay_pages_are_small_and_self_contained(corpus_dir: Path, tmp_path: Path) -> None:
    import_paths([corpus_dir], tmp_path / "wh", jobs=1)
    c = hhparse.warehouse(tmp_path / "wh")
    ids = [r[0] for r in c.sql("SELECT hand_id FROM hands").fetchall()]
    sizes = {d["hand"]["id"]: len(replay_page([d], title="t").encode()) for d in replay_documents(c, ids)}
    biggest = max(sizes, key=lambda h: sizes[h])
    assert sizes[biggest] < 150_000, (biggest, sizes[biggest])
    page = replay_page(replay_documents(c, [biggest]), title="t")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_embedded_data_cannot_close_its_script() -> None:
    name = "</script><script>alert(1)</script><!--"
    doc = {"hand": {"id": "1"}, "seats": [{"name": name}], "steps": []}
    page = replay_page([doc], title=name)
    assert name not in page
    assert page.count("</script>") == page.count("<script")
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page  # the title, escaped


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


def test_replay_command_writes_one_page(sample: Path, tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    hid = str(hhparse.report("hands", con, showdown=True)["hand_id"].iloc[0])
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = runner.invoke(app, ["replay", hid, "-w", str(sample)])
        assert res.exit_code == 0, res.output
        page = tmp_path / f"hand-{hid}.html"
        assert '<meta name="generator" content="hhparse' in page.read_text()
        assert runner.invoke(app, ["replay", hid, "-w", str(sample)]).exit_code == 0  # ours: replaced
        page.write_text("my notes")
        res = runner.invoke(app, ["replay", hid, "-w", str(sample)])
        assert res.exit_code == 2 and page.read_text() == "my notes"  # a user's file is sacred
        assert runner.invoke(app, ["replay", "42", "-w", str(sample)]).exit_code == 2
    finally:
        os.chdir(cwd)
    res = runner.invoke(app, ["report", "hand", hid, "-w", str(sample), "-f", "html"])
    assert res.exit_code == 0 and 'id="hh-replay"' in res.output


def test_report_hands_html_file_and_folder(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "hands.html"
    res = runner.invoke(
        app, ["report", "hands", "-w", str(sample), "--all-in", "--player", "Hero", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.count('href="#hand=') >= 1 and 'id="hh-replay"' in text
    folder = tmp_path / "pages"
    res = runner.invoke(
        app, ["report", "hands", "-w", str(sample), "--showdown", "--limit", "5", "-o", str(folder)]
    )
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 6 and "index.html" in files
    index = (folder / "index.html").read_text()
    assert all(f'href="{f}"' in index for f in files if f != "index.html")
    (folder / "index.html").write_text("mine")
    res = runner.invoke(
        app, ["report", "hands", "-w", str(sample), "--showdown", "--limit", "5", "-o", str(folder)]
    )
    assert res.exit_code == 2 and (folder / "index.html").read_text() == "mine"
    res = runner.invoke(app, ["report", "hands", "-w", str(sample), "--door-card", "Zz"])
    assert res.exit_code == 2 and "--door-card" in res.output
