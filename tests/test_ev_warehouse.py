"""All-in EV through the product: import, the warehouse's tables and data tests, the reports,
and ``hhparse ev --recompute``, on the crafted histories of ``tests/data/ev``."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhparse.cli import app
from hhparse.importer import import_paths
from hhparse.recompute import recompute_ev
from hhparse.reports import data_tests, report, warehouse
from hhparse.reports.output import graph_image
from hhparse.tables.schema import create_views

DATA = Path(__file__).parent / "data" / "ev"
HANDS = 6  # in the five files


def _copy(tmp: Path) -> Path:
    src = tmp / "histories"
    shutil.copytree(DATA, src)
    return src


def _rows(root: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect()
    create_views(con, root)
    return con.execute(sql).fetchall()


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("ev")
    src = _copy(tmp)
    result = import_paths([src], tmp / "wh", jobs=1)
    assert (result.stats.new, result.stats.rejected) == (HANDS, 0)
    return src, tmp / "wh"


def test_import_stores_the_all_in_ev(imported: tuple[Path, Path]) -> None:
    _, wh = imported
    rows = _rows(
        wh,
        "SELECT hand_id, player, net, allin_ev, ev_street, ev_method, ev_std_err FROM hand_players "
        "WHERE hand_id IN ('900000000001', '900000000002', '900000000005') ORDER BY hand_id, seat",
    )
    assert rows == [
        ("900000000001", "Hero", -25, 911, 2, "exact", 0),
        ("900000000001", "Villain", -25, -961, 2, "exact", 0),
        ("900000000002", "Anna", -5000, 3303, 2, "exact", 0),
        ("900000000002", "Sam", 2000, -545, 2, "exact", 0),
        ("900000000002", "Bert", 3000, -2758, 2, "exact", 0),
        ("900000000005", "Hero", -43, -43, None, None, None),  # checked down: no EV, the net
        ("900000000005", "Shorty", 173, 173, None, None, None),
        ("900000000005", "Caller", -150, -150, None, None, None),
    ]
    shares = _rows(
        wh,
        "SELECT pot, half, player, amount, ev, share_sum, boards, won, street, method, unit "
        "FROM ev_shares WHERE hand_id = '900000000002' ORDER BY pot, player",
    )
    assert shares == [
        (0, "whole", "Anna", 3000, 2000, 66000, 33, 0, 2, "exact", "USD"),
        (0, "whole", "Bert", 3000, 545, 18000, 33, 0, 2, "exact", "USD"),
        (0, "whole", "Sam", 3000, 455, 15000, 33, 3000, 2, "exact", "USD"),
        (1, "whole", "Anna", 8000, 6303, 208000, 33, 0, 2, "exact", "USD"),
        (1, "whole", "Bert", 8000, 1697, 56000, 33, 8000, 2, "exact", "USD"),
    ]


def test_data_tests_hold_with_ev(imported: tuple[Path, Path]) -> None:
    _, wh = imported
    assert {k: len(v) for k, v in data_tests(wh).items() if len(v)} == {}


def test_data_tests_catch_a_wrong_ev(tmp_path: Path, imported: tuple[Path, Path]) -> None:
    """Break one allin_ev in a copy of the warehouse: both EV data tests notice."""
    _, wh = imported
    copy = tmp_path / "wh"
    shutil.copytree(wh, copy)
    con = warehouse(copy)
    broken = "hand_id = '900000000001' AND player = 'Hero'"
    con.execute(
        f"CREATE TABLE hp AS SELECT * REPLACE (CASE WHEN {broken} THEN allin_ev + 5 ELSE allin_ev END "
        f"AS allin_ev, CASE WHEN {broken} THEN allin_ev_dec + 0.05 ELSE allin_ev_dec END AS allin_ev_dec) "
        "FROM hand_players"
    )
    con.execute("CREATE OR REPLACE VIEW hand_players AS SELECT * FROM hp")
    found = {k: len(v) for k, v in data_tests(con).items() if len(v)}
    assert found == {"allin_ev_sums_to_minus_rake": 1, "ev_shares_add_up": 1}


def test_summary_gains_ev_net_and_ev_bb_per_100(imported: tuple[Path, Path]) -> None:
    _, wh = imported
    s = report("summary", wh).set_index("player")
    # Kings: net +$19.50, all-in EV +$10.52 in one hand of a $0.50 big blind: 2104 bb/100
    assert s.loc["Kings", "ev_net"] == Decimal("10.52") and s.loc["Kings", "net"] == Decimal("19.50")
    assert s.loc["Kings", "ev_bb_per_100"] == 2104.0
    # Hero: -0.25 + 1.40 - 1.50 - 0.43 + 0 = -0.78 net; EV 9.11 + 0.15 - 1.50 - 0.43 + 0 = 7.33
    assert (s.loc["Hero", "net"], s.loc["Hero", "ev_net"]) == (Decimal("-0.78"), Decimal("7.33"))
    assert list(s.columns[:6]) == ["unit", "hands", "net", "bb_per_100", "ev_net", "ev_bb_per_100"]


def test_luck_lists_the_biggest_swings_with_their_hand(imported: tuple[Path, Path]) -> None:
    _, wh = imported
    hero = report("luck", wh)
    assert list(hero["hand_id"]) == ["900000000001", "900000000006"]  # folded or no EV: not listed
    first = hero.iloc[0]
    assert (first["rank"], first["street"], first["method"]) == (1, "turn", "exact")
    assert (first["net"], first["allin_ev"], first["luck"]) == (
        Decimal("-0.25"),
        Decimal("9.11"),
        Decimal("-9.36"),
    )
    anna = report("luck", wh, player="Anna")
    assert list(anna["luck"]) == [Decimal("-83.03")]


def test_graph_has_the_all_in_ev_line(imported: tuple[Path, Path]) -> None:
    _, wh = imported
    g = report("graph", wh)
    assert list(g["cum_allin_ev"])[-1] == Decimal("7.33") and list(g["cum_net"])[-1] == Decimal("-0.78")
    assert b"all-in EV" in graph_image(g, "svg")


def test_import_without_ev_then_recompute_is_the_import_with_ev(
    tmp_path: Path, imported: tuple[Path, Path]
) -> None:
    src, with_ev = imported
    wh = tmp_path / "wh"
    import_paths([src], wh, jobs=1, ev=False)
    assert _rows(wh, "SELECT count(*) FROM hand_players WHERE allin_ev <> net OR ev_method IS NOT NULL") == [
        (0,)
    ]
    assert _rows(wh, "SELECT count(*) FROM ev_shares") == [(0,)]
    res = recompute_ev(wh, jobs=1)
    assert (res.hands, res.recomputed, res.with_ev, res.kept) == (HANDS, HANDS, 5, 0)
    q_players = "SELECT * EXCLUDE (allin_ev_dec, ev_std_err_dec) FROM hand_players ORDER BY hand_id, seat"
    q_shares = "SELECT * FROM ev_shares ORDER BY hand_id, pot, run, half, player"
    assert _rows(wh, q_players) == _rows(with_ev, q_players)
    assert _rows(wh, q_shares) == _rows(with_ev, q_shares)
    assert {k: len(v) for k, v in data_tests(wh).items() if len(v)} == {}


def test_recompute_with_worker_processes_equals_in_process(
    tmp_path: Path, imported: tuple[Path, Path]
) -> None:
    """Regression: the recompute's pool used an initialiser of the wrong signature (every task
    failed once workers had to die with their parent), and its files must reach the table folders
    only through the store's commit protocol (outside readers see each row once)."""
    src, with_ev = imported
    wh = tmp_path / "wh"
    import_paths([src], wh, jobs=1, ev=False)
    res = recompute_ev(wh, jobs=2)
    assert (res.hands, res.recomputed, res.kept) == (HANDS, HANDS, 0)
    q = "SELECT hand_id, seat, allin_ev, ev_method FROM hand_players ORDER BY hand_id, seat"
    assert _rows(wh, q) == _rows(with_ev, q)
    outside = duckdb.connect().execute(f"SELECT count(*) FROM read_parquet('{wh}/hand_players/*.parquet')")
    assert outside.fetchall() == _rows(wh, "SELECT count(*) FROM hand_players")


def test_recompute_keeps_hands_it_cannot_read_again(tmp_path: Path) -> None:
    src = _copy(tmp_path)
    wh = tmp_path / "wh"
    import_paths([src], wh, jobs=1)
    before = _rows(wh, "SELECT hand_id, seat, allin_ev FROM hand_players ORDER BY ALL")
    (src / "turn-three-way-side-pot.txt").unlink()
    text = (src / "turn-hilo-low-draw.txt").read_text(encoding="utf-8")
    (src / "turn-hilo-low-draw.txt").write_text(
        text.replace("Table 'Crafted EV'", "Table 'Crafted EW'"), encoding="utf-8"
    )
    res = recompute_ev(wh, jobs=1)
    assert (res.recomputed, res.kept_missing_file, res.kept_changed, res.kept_rejected) == (
        HANDS - 2,
        1,
        1,
        0,
    )
    assert res.missing_files == [str((src / "turn-three-way-side-pot.txt").resolve())]
    assert _rows(wh, "SELECT hand_id, seat, allin_ev FROM hand_players ORDER BY ALL") == before
    assert _rows(wh, "SELECT count(DISTINCT hand_id) FROM ev_shares") == [(5,)]  # the kept hands' rows too
    out = CliRunner().invoke(app, ["ev", "--recompute", "--warehouse", str(wh), "--jobs", "1"])
    assert out.exit_code == 1 and "kept 2 as they were: 1 file gone, 1 text changed" in out.output
    said = [line for line in out.output.splitlines() if not line.startswith("  unreadable: ")]  # paths aside
    assert max(len(line) for line in said) <= 80, out.output  # was one 115-wide line


def test_ev_command_shows_the_coverage(imported: tuple[Path, Path], tmp_path: Path) -> None:
    _, wh = imported
    out = CliRunner().invoke(app, ["ev", "--warehouse", str(wh)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert " exact pre-flop: 1 hands" in lines and " exact     turn: 3 hands" in lines
    assert "  none        -: 1 hands" in lines
    missing = CliRunner().invoke(app, ["ev", "--warehouse", str(tmp_path / "nothing")])
    assert missing.exit_code == 2


def test_a_cash_out_is_stored_and_the_data_tests_hold(tmp_path: Path) -> None:
    """All-in cash out (``tests/data/rules/all-in-cash-out.txt``): the room's payment and fee are
    stored, the net counts the payment, the hand has no all-in EV (``allin_ev`` = ``net``), and
    the conservation data tests hold with what the room paid and kept; a wrong payment fails them."""
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(Path(__file__).parent / "data" / "rules" / "all-in-cash-out.txt", src)
    wh = tmp_path / "wh"
    assert import_paths([src], wh, jobs=1).stats.new == 3
    rows = _rows(
        wh,
        "SELECT hand_id, player, net, cash_out, cash_out_fee, allin_ev, ev_method FROM hand_players "
        "WHERE cash_out <> 0 ORDER BY hand_id",
    )
    assert rows == [
        ("200000000101", "Cal", -77, 2673, 27, -77, None),
        ("200000000102", "Bea", 1175, 3875, 39, 1175, None),
        ("200000000103", "Bea", 633, 6633, 67, 633, None),
    ]
    assert {k: len(v) for k, v in data_tests(wh).items() if len(v)} == {}
    con = warehouse(wh)
    con.execute(
        "CREATE TABLE hp AS SELECT * REPLACE (CASE WHEN cash_out <> 0 THEN cash_out_dec + 1 ELSE cash_out_dec "
        "END AS cash_out_dec) FROM hand_players"
    )
    con.execute("CREATE OR REPLACE VIEW hand_players AS SELECT * FROM hp")
    found = {k: len(v) for k, v in data_tests(con).items() if len(v)}
    assert found == {"net_sums_to_minus_rake": 3, "allin_ev_sums_to_minus_rake": 3}
