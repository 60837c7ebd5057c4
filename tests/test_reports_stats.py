"""Every report stat against values worked out by hand on a small hand-made warehouse.

The rows carry exactly the referee flags a test needs (see ``reports_rows``), so each expected
figure below can be checked with pencil and paper; the comments show the arithmetic.
"""

from __future__ import annotations

import io
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

import hhparse
from hhparse.failures import UsageError
from hhparse.reports import REPORTS, WarehouseNotFoundError, data_tests, warehouse
from hhparse.reports.output import GRAPH_SIZE, graph_image, to_html, to_json

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import Rows

USD = "USD"
ALICE_CARDS = {
    "h1": ("Ah", ["As", "Kd", "7c", "2h", "9s"]),  # pairs, suits, low
    "h2": ("Kc", ["2d", "3d", "4d", "5s", "9h"]),  # neither, high
    "h3": ("8s", ["8d", "Qh", "Jc", "Tc", "3h"]),  # pairs, low
    "h4": ("2c", ["Ks", "Qs", "Js", "9d", "7h"]),  # neither, low
    "h5": ("5d", ["Ad", "4c", "3s", "Th", "Jh"]),  # suits, low
    "h6": ("Th", None),  # unknown hole cards, high
}
INJECTION = "x'); DROP TABLE hands; --"


def _alice(hand: str) -> dict[str, Any]:
    """Alice's six hands (hero). Net: +50 +200 +12 +0 -75 -25 = +162 cents."""
    base = {"player": "Alice", "is_hero": True, "hole_cards": ALICE_CARDS[hand][1]}
    rows: dict[str, dict[str, Any]] = {
        # BTN open-raise (steal), c-bet, everyone folds: non-showdown win.
        "h1": {"position": "BTN", "vpip": True, "pfr": True, "steal_opportunity": True, "steal": True,
               "cbet_opportunity": True, "cbet": True, "saw_flop": True, "postflop_bets": 1,
               "collected": 100, "net": 50, "won_high": True, "nonshowdown_won": 100},
        # SB call, declines to 3-bet, raises once and calls twice post-flop, scoops at showdown.
        "h2": {"position": "SB", "vpip": True, "three_bet_opportunity": True, "saw_flop": True,
               "postflop_raises": 1, "postflop_calls": 2, "went_to_showdown": True,
               "won_at_showdown": True, "won_high": True, "won_low": True, "scooped": True,
               "collected": 300, "net": 200, "showdown_won": 300},
        # A walk: BB, everyone folds, collects the small blind.
        "h3": {"position": "BB", "collected": 24, "net": 12},
        # UTG fold.
        "h4": {"position": "UTG"},
        # CO steal, 3-bet, folds.
        "h5": {"position": "CO", "vpip": True, "pfr": True, "steal_opportunity": True, "steal": True,
               "fold_to_three_bet_opportunity": True, "fold_to_three_bet": True, "net": -75},
        # BTN call, folds to a flop c-bet.
        "h6": {"position": "BTN", "vpip": True, "saw_flop": True, "fold_to_cbet_opportunity": True,
               "fold_to_cbet": True, "postflop_folds": 1, "net": -25},
    }  # fmt: skip
    return base | rows[hand]


def _bob(i: int) -> dict[str, Any]:
    """Bob: VPIP in 3 of 6 hands; four showdowns: scoop, high only, quartered low, loss."""
    row: dict[str, Any] = {"player": "Bob", "position": "MP", "vpip": i <= 3, "net": 0}
    sd = {
        1: {
            "won_high": True,
            "won_low": True,
            "scooped": True,
            "collected": 100,
            "high_won": 50,
            "low_won": 50,
        },
        2: {"won_high": True, "collected": 50, "high_won": 50},
        3: {"won_low": True, "quartered": True, "collected": 25, "low_won": 25},
        4: {},
    }
    if i in sd:
        row |= {"saw_flop": True, "went_to_showdown": True, "won_at_showdown": bool(sd[i])} | sd[i]
    return row


BOB_LOWS = {1: "7,5,4,3,A", 2: None, 3: "8,7,6,5,4", 4: None}
MINUTES = {1: 0, 2: 10, 3: 20, 4: 30, 5: 75, 6: 85}  # a 45-minute gap before h5: two sessions


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = Rows()
    for i in range(1, 7):
        hid = f"h{i}"
        shows = [{"player": "Bob", "run": 0, "cards": ["Ah", "2c", "3d", "4s", "Kd"], "high": "x",
                  "high_rank": 1, "low": BOB_LOWS[i], "low_rank": 1 if BOB_LOWS[i] else None}] if i in BOB_LOWS else []  # fmt: skip
        r.hand(hid, [_alice(hid), _bob(i)], minutes=MINUTES[i], total_pot=100, exposed_card=ALICE_CARDS[hid][0],
               showdowns=shows)  # fmt: skip
    # Carol: one cash hand and one tournament hand (chips) on another day and game.
    r.hand("c1", [{"player": "Carol", "position": "BTN", "net": 30}], minutes=5)
    r.hand("c2", [{"player": "Carol", "position": "BTN", "net": 600, "vpip": True}], minutes=4 * 24 * 60,
           unit="chips", bb=30, game="courchevel", hilo=False, game_label="Courchevel Pot Limit",
           exposed_card="Qd")  # fmt: skip
    r.hand("x1", [{"player": INJECTION, "position": "SB", "net": -10, "vpip": True}], minutes=200)
    r.add("rejects", source="a.txt", line=10, status="invalid", code="raise-above-pot-limit",
          message="raise to $0.60 above pot limit $0.46", error_line=17, hand_id="9", raw_text="", content_hash="")  # fmt: skip
    r.add("rejects", source="b.txt", line=1, status="unparsed", code="syntax", message="bad line",
          error_line=3, raw_text="", content_hash="")  # fmt: skip
    r.add("rejects", source="a.txt", line=40, status="invalid", code="raise-above-pot-limit",
          message="again", error_line=44, raw_text="", content_hash="")  # fmt: skip
    return r.publish(tmp_path_factory.mktemp("wh"))


@pytest.fixture(scope="module")
def con(wh: Path) -> duckdb.DuckDBPyConnection:
    return warehouse(wh)


def one(df: pd.DataFrame, **where: Any) -> dict[str, Any]:
    """The single row matching ``where``, as a dict."""
    mask = pd.Series(True, index=df.index)
    for k, v in where.items():
        mask &= df[k] == v
    rows = df[mask]
    assert len(rows) == 1, f"{where}: {len(rows)} rows in\n{df}"
    return dict(rows.iloc[0])


def test_vpip_is_fifty_percent_for_three_of_six(con: duckdb.DuckDBPyConnection) -> None:
    assert one(hhparse.report("summary", con), player="Bob")["vpip"] == 50.0


def test_summary_stats_of_alice(con: duckdb.DuckDBPyConnection) -> None:
    a = one(hhparse.report("summary", con), player="Alice")
    assert a["hands"] == 6
    assert a["net"] == Decimal("1.62")  # 50 + 200 + 12 + 0 - 75 - 25 cents
    assert a["bb_per_100"] == 108.0  # (162 / 25) bb * 100 / 6 hands
    assert a["vpip"] == 80.0  # h1 h2 h5 h6 of 5 (h3 was a walk)
    assert a["pfr"] == 40.0  # h1 h5 of 5
    assert a["three_bet"] == 0.0  # 0 of 1 opportunity (h2)
    assert a["fold_to_three_bet"] == 100.0  # h5
    assert a["steal"] == 100.0  # h1 h5 of 2
    assert pd.isna(a["fold_to_steal"])  # never in the blinds facing a steal
    assert a["af"] == 1.0  # (1 bet + 1 raise) / 2 calls
    assert a["afq"] == 40.0  # 2 / (2 + 2 calls + 1 fold)
    assert a["cbet_flop"] == 100.0
    assert a["fold_to_cbet_flop"] == 100.0
    assert a["wtsd"] == 33.33  # h2 of h1 h2 h6
    assert a["wsd"] == 100.0
    assert a["wwsf"] == 66.67  # h1 h2 collected, of 3 flops
    assert a["showdown_net"] == Decimal("2.00")
    assert a["nonshowdown_net"] == Decimal("-0.38")
    assert a["showdown_net"] + a["nonshowdown_net"] == a["net"]


def test_units_are_never_added(con: duckdb.DuckDBPyConnection) -> None:
    s = hhparse.report("summary", con, player="Carol")
    assert sorted(zip(s["unit"], s["net"], strict=True)) == [
        ("USD", Decimal("0.30")),
        ("chips", Decimal("600")),
    ]
    chips = one(s, unit="chips")
    assert chips["bb_per_100"] == 2000.0  # 600 / 30 bb in one hand


def test_filters(con: duckdb.DuckDBPyConnection) -> None:
    carol = {"player": "Carol"}
    assert set(hhparse.report("summary", con, since="2024-03-02", **carol)["unit"]) == {"chips"}
    assert set(hhparse.report("summary", con, until="2024-03-01", **carol)["unit"]) == {"USD"}
    assert set(hhparse.report("summary", con, game="courchevel", **carol)["unit"]) == {"chips"}
    assert set(hhparse.report("summary", con, game="Courchevel Hi/Lo Pot Limit", **carol)["unit"]) == {"USD"}
    assert set(hhparse.report("summary", con, game="courchevel-hilo", **carol)["unit"]) == {"USD"}
    assert set(hhparse.report("summary", con, stakes="15/30 chips", **carol)["unit"]) == {"chips"}
    assert set(hhparse.report("summary", con, stakes="0.25", **carol)["unit"]) == {"USD"}
    with pytest.raises(UsageError, match="no player 'Nobody' in the warehouse; nearest names"):
        hhparse.report("summary", con, player="Nobody")
    with pytest.raises(ValueError, match="--since"):
        hhparse.report("summary", con, since="yesterday")


def test_player_names_are_parameters(con: duckdb.DuckDBPyConnection) -> None:
    for name in REPORTS:
        if name not in ("hand", "rejects"):
            hhparse.report(name, con, player=INJECTION)
    s = hhparse.report("summary", con, player=INJECTION)
    assert list(s["player"]) == [INJECTION]
    assert one(s, player=INJECTION)["net"] == Decimal("-0.10")
    assert con.execute("SELECT count(*) FROM hands").fetchall() == [(9,)]


def test_positions(con: duckdb.DuckDBPyConnection) -> None:
    p = hhparse.report("positions", con, player="Alice")
    assert list(p["position"]) == ["UTG", "CO", "BTN", "SB", "BB"]
    btn = one(p, position="BTN")
    assert (btn["hands"], btn["vpip"], btn["pfr"], btn["net"]) == (2, 100.0, 50.0, Decimal("0.25"))
    assert one(p, position="BB")["vpip"] is None or pd.isna(one(p, position="BB")["vpip"])  # only a walk


def test_hilo(con: duckdb.DuckDBPyConnection) -> None:
    b = one(hhparse.report("hilo", con), player="Bob")
    assert (b["showdowns"], b["won_at_showdown"], b["scoops"]) == (4, 3, 1)
    assert b["scoop_pct"] == 33.33
    assert (b["high_only"], b["low_only"], b["quartered"]) == (1, 1, 1)
    assert b["high_only_pct"] == b["low_only_pct"] == b["quartered_pct"] == 33.33
    assert b["low_made_pct"] == 50.0  # lows shown in h1 and h3 of 4 showdowns
    assert b["avg_pot_share"] == 58.33  # (100% + 50% + 25%) / 3
    assert (b["won_high"], b["won_low"]) == (Decimal("1.00"), Decimal("0.75"))
    assert "Carol" not in set(hhparse.report("hilo", con, game="courchevel")["player"])


def test_door_card(con: duckdb.DuckDBPyConnection) -> None:
    d = hhparse.report("door-card", con, player="Alice")
    ace = one(d, breakdown="rank", value="A")
    assert (ace["hands"], ace["vpip"], ace["pfr"]) == (1, 100.0, 100.0)
    low = one(d, breakdown="low", value="low")  # h1 h3 h4 h5; h3 a walk
    assert (low["hands"], low["vpip"], low["pfr"], low["net"]) == (4, 66.67, 66.67, Decimal("-0.13"))
    high = one(d, breakdown="low", value="high")  # h2 h6
    assert (high["hands"], high["vpip"], high["pfr"]) == (2, 100.0, 0.0)
    pairs = one(d, breakdown="pairs", value="yes")  # h1 h3
    assert (pairs["hands"], pairs["vpip"], pairs["net"]) == (2, 100.0, Decimal("0.62"))
    assert one(d, breakdown="pairs", value="no")["vpip"] == 66.67  # h2 h5 of h2 h4 h5
    assert one(d, breakdown="pairs", value="unknown")["hands"] == 1  # h6
    suits = one(d, breakdown="suits", value="yes")  # h1 h5
    assert (suits["hands"], suits["vpip"], suits["pfr"], suits["net"]) == (2, 100.0, 100.0, Decimal("-0.25"))
    assert one(d, breakdown="suits", value="no")["vpip"] == 50.0  # h2 of h2 h4 (h3 a walk)
    assert list(d[d["breakdown"] == "rank"]["value"]) == ["A", "K", "T", "8", "5", "2"]


def test_sessions(con: duckdb.DuckDBPyConnection) -> None:
    s = hhparse.report("sessions", con, player="Alice")
    assert list(s["hands"]) == [4, 2]
    assert list(s["duration_min"]) == [30.0, 10.0]
    assert list(s["net"]) == [Decimal("2.62"), Decimal("-1.00")]
    assert list(s["bb_per_100"]) == [262.0, -200.0]  # 262/25*100/4, -100/25*100/2
    assert str(s["start"].iloc[1]) == "2024-03-01 13:15:00+00:00"


def test_graph_points(con: duckdb.DuckDBPyConnection) -> None:
    g = hhparse.report("graph", con, player="Alice")
    assert list(g["cum_net"]) == [Decimal(x) for x in ("0.50", "2.50", "2.62", "2.62", "1.87", "1.62")]
    assert list(g["cum_showdown"])[-1] == Decimal("2.00")
    assert list(g["cum_nonshowdown"])[-1] == Decimal("-0.38")
    assert hhparse.report("graph", con)["hand_id"].tolist() == [f"h{i}" for i in range(1, 7)]  # the hero


def test_graph_png_decodes_and_differs(con: duckdb.DuckDBPyConnection) -> None:
    from PIL import Image

    alice = graph_image(hhparse.report("graph", con, player="Alice"), "png")
    carol = graph_image(hhparse.report("graph", con, player="Carol"), "png")
    for png in (alice, carol):
        with Image.open(io.BytesIO(png)) as img:
            img.load()
            assert img.format == "PNG"
            assert img.size == GRAPH_SIZE
    assert alice != carol
    svg = graph_image(hhparse.report("graph", con, player="Alice"), "svg")
    assert svg.startswith(b"<?xml") and b"<svg" in svg


def test_html_page_has_tables_and_graph(con: duckdb.DuckDBPyConnection) -> None:
    df = hhparse.report("summary", con)
    page = to_html(df, name="summary", title="t", graph=hhparse.report("graph", con))
    assert page.startswith("<!DOCTYPE html>") and 'id="hh-graph"' in page
    assert "<table" in page and "Alice" in page and "DROP TABLE hands; --" in page


def test_json_money_is_exact(con: duckdb.DuckDBPyConnection) -> None:
    assert '"net": 1.62' in to_json(hhparse.report("summary", con, player="Alice"))


def test_rejects_grouped_by_code(con: duckdb.DuckDBPyConnection) -> None:
    r = hhparse.report("rejects", con)
    assert list(r["code"]) == ["raise-above-pot-limit", "raise-above-pot-limit", "syntax"]
    assert list(r["code_count"]) == [2, 2, 1]
    assert list(zip(r["source"], r["error_line"], strict=True))[:2] == [("a.txt", 17), ("a.txt", 44)]


def test_hand_needs_an_id(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ValueError, match="hand id"):
        hhparse.report("hand", con)
    assert hhparse.report("hand", con, hand_id="nope").empty


def test_unknown_report_and_missing_warehouse(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        hhparse.report("nope", tmp_path)
    with pytest.raises(WarehouseNotFoundError):
        warehouse(tmp_path)


def _consistent_hand(r: Rows, hid: str, *, rake: int = 5, broken: bool = False) -> None:
    """Two players, pot 100, rake 5: the winner collects 95 (net +45), the loser nets -50."""
    r.hand(hid, [{"player": "P", "net": 45, "collected": 95}, {"player": "Q", "net": -50}],
           total_pot=100, rake=rake,
           awards=[{"pot": 0, "half": "whole", "amount": 95 if not broken else 90, "winners": ["P"],
                    "amounts": [95], "descriptions": [""]}])  # fmt: skip
    r.add("pots", site="PokerStars", hand_id=hid, pot=0, amount=100, eligible=["P", "Q"])


def test_data_tests_pass_on_a_consistent_warehouse(tmp_path: Path) -> None:
    r = Rows()
    _consistent_hand(r, "1")
    _consistent_hand(r, "2")
    failures = {k: v for k, v in data_tests(r.publish(tmp_path)).items() if not v.empty}
    assert failures == {}


def test_data_tests_catch_broken_hands(tmp_path: Path) -> None:
    r = Rows()
    _consistent_hand(r, "1", broken=True)  # award 90 + rake 5 != 100; shares 95 != award 90
    _consistent_hand(r, "2", rake=7)  # nets sum to -5, rake 7
    _consistent_hand(r, "2")  # the same hand stored twice
    found = {k: len(v) for k, v in data_tests(r.publish(tmp_path)).items()}
    assert found["pot_conservation"] >= 2
    assert found["net_sums_to_minus_rake"] >= 1
    assert found["unique_hand_id"] == 1


def test_stats_layer_reads_hand_players_alone(con: duckdb.DuckDBPyConnection) -> None:
    """player_hands takes the hand's unit, date, game and stakes from hand_players' own copies: the
    plan of every per-player report base has no join (on 1 M hands the join cost more than the
    report), and its money is exact DECIMAL."""
    plan = "\n".join(str(r[1]) for r in con.execute("EXPLAIN SELECT * FROM player_hands").fetchall())
    assert "JOIN" not in plan.upper()
    types = {r[0]: r[1] for r in con.execute("DESCRIBE player_hands").fetchall()}
    assert types["net"] == types["big_blind"] == types["total_pot"] == "DECIMAL(18,2)"


@pytest.mark.parametrize(
    ("game", "stakes", "joins"),
    [
        (None, None, 0),
        ("courchevel-hilo", None, 1),
        (None, ["0.10/0.25 USD"], 1),
        ("courchevel-hilo", ["x"], 2),
    ],
)
def test_player_rows_join_only_for_the_filters_given(
    con: duckdb.DuckDBPyConnection, game: str | None, stakes: list[str] | None, joins: int
) -> None:
    """player_rows_in's --game and --stakes tests are joins to the held games and stakes, planned
    only when their filter is given: without one, every player-hand row is one scan's, none goes
    through a join (a join with a NULL filter stays in the plan and reads its columns per row);
    with one, the rows are matched by a hash join (a per-row test of a list costs more)."""
    params = {"player": None, "since": None, "until": None, "game": game, "stakes": stakes}
    sql = "EXPLAIN SELECT count(*) FROM player_rows_in($player, $since, $until, $game, $stakes)"
    plan = "\n".join(str(r[1]) for r in con.execute(sql, params).fetchall())
    assert plan.upper().count("HASH JOIN") == joins, plan


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"])
def test_date_filters_keep_every_hand_of_the_day_in_any_session_time_zone(tmp_path: Path, zone: str) -> None:
    """The filters also test the stored start_utc (so the Parquet scan can skip row groups): that
    test is a day wider than the date's, so no session time zone (UTC+14 to UTC-12 here) makes
    it drop a hand the date test keeps. Hands every 90 minutes over three days."""
    r = Rows()
    for i in range(48):
        r.hand(f"z{i}", [{"player": "Zed", "net": 1}], minutes=-12 * 60 + 90 * i)
    con = warehouse(r.publish(tmp_path / "wh"))
    con.execute(f"SET TimeZone = '{zone}'")
    days = [d for (d,) in con.execute("SELECT DISTINCT hand_date FROM stg_hands ORDER BY 1").fetchall()]
    assert len(days) >= 3
    for since in days:
        for until in (d for d in days if d >= since):
            want = con.execute(
                "SELECT count(*) FROM stg_hands WHERE hand_date BETWEEN ? AND ?", [since, until]
            ).fetchall()[0][0]
            got = hhparse.report("summary", con, player="Zed", since=str(since), until=str(until))
            assert (int(got["hands"].sum()) if len(got) else 0) == want, (since, until)
