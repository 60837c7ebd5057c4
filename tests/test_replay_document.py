"""The replay document (hhparse.reports.replay): every step agrees with the referee's facts.

The browser tests check that the page shows what the document says; these check that the
document says what the warehouse holds, for every accepted hand of the corpus and for crafted
rows, without a browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

import hhparse
from hhparse.importer import import_paths
from hhparse.reports.replay import (
    HandNotFoundError,
    money_text,
    replay_document,
    replay_documents,
    seat_layout,
)


@pytest.fixture(scope="module")
def con(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    wh = tmp_path_factory.mktemp("replay-corpus")
    import_paths([corpus_dir], wh, jobs=1)
    return hhparse.warehouse(wh)


@pytest.fixture(scope="module")
def docs(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    ids = [r[0] for r in con.sql("SELECT hand_id FROM hands ORDER BY hand_id").fetchall()]
    assert len(ids) > 100
    return replay_documents(con, ids)


def _rows(con: duckdb.DuckDBPyConnection, sql: str, hand_id: str) -> list[dict[str, Any]]:
    rel = con.sql(sql, params={"h": hand_id})
    return [dict(zip(rel.columns, r, strict=True)) for r in rel.fetchall()]


def test_every_action_step_is_the_referees_pot_and_stack(
    con: duckdb.DuckDBPyConnection, docs: list[dict[str, Any]]
) -> None:
    for doc in docs:
        hid = doc["hand"]["id"]
        acts = _rows(con, "SELECT * FROM actions WHERE hand_id = $h ORDER BY seq", hid)
        by_seq = {a["seq"]: a for a in acts}
        steps = [s for s in doc["steps"] if s["seq"] is not None]
        assert [s["seq"] for s in steps] == [a["seq"] for a in acts], hid
        names = [s["name"] for s in doc["seats"]]
        for s in steps:
            a = by_seq[s["seq"]]
            sign = -1 if a["action"] == "uncalled" else 1
            assert s["pot"] == a["pot_before"] + sign * a["amount"], (hid, a)
            assert s["stacks"][names.index(a["player"])] == a["stack_before"] - sign * a["amount"], (hid, a)


def test_stacks_and_pot_always_add_up_to_the_starting_stacks(docs: list[dict[str, Any]]) -> None:
    for doc in docs:
        start = sum(s["stack"] for s in doc["seats"])
        for s in doc["steps"]:
            if s["kind"] in ("award", "end"):
                continue
            assert sum(s["stacks"]) + s["pot"] == start, (doc["hand"]["id"], s["label"])
            assert sum(p[0] for p in s["pots"]) + sum(s["bets"]) <= s["pot"] or s["kind"] == "start"


def test_awards_end_on_the_referees_net(con: duckdb.DuckDBPyConnection, docs: list[dict[str, Any]]) -> None:
    for doc in docs:
        final = [s["stack"] + s["net"] for s in doc["seats"]]
        assert doc["steps"][-1]["stacks"] == final
        assert doc["steps"][-2]["stacks"] == final, doc["hand"]["id"]  # the awards add up to it


def test_the_gathered_chips_split_into_the_referees_pots(
    con: duckdb.DuckDBPyConnection, docs: list[dict[str, Any]]
) -> None:
    """The side pots shown between streets come from the same split: at the end it is the referee's."""
    assert [d["hand"]["id"] for d in docs if d["hand"]["notes"]] == []
    for doc in docs:
        pots = _rows(con, "SELECT amount FROM pots WHERE hand_id = $h ORDER BY pot", doc["hand"]["id"])
        assert [p[0] for p in doc["steps"][-1]["pots"]] == [p["amount"] for p in pots]


def test_results_are_the_awards(con: duckdb.DuckDBPyConnection, docs: list[dict[str, Any]]) -> None:
    for doc in docs:
        awards = _rows(con, "SELECT * FROM awards WHERE hand_id = $h", doc["hand"]["id"])
        names = [s["name"] for s in doc["seats"]]
        got = sorted(
            (r["pot"], r["run"], r["half"], names[w["seat"]], w["amount"], w["desc"])
            for r in doc["results"]
            for w in r["winners"]
        )
        want = sorted(
            (a["pot"], a["run"], a["half"], w, x, d)
            for a in awards
            for w, x, d in zip(a["winners"], a["amounts"], a["descriptions"], strict=True)
        )
        assert got == want


def test_boards_grow_street_by_street(docs: list[dict[str, Any]]) -> None:
    for doc in docs:
        shown = [tuple(s["board"]) for s in doc["steps"]]
        assert shown == sorted(shown) or doc["hand"]["runs"] == 2
        boards = doc["hand"]["boards"]
        end = doc["steps"][-1]["board"]
        if doc["hand"]["exposed"] and not doc["hand"]["cancelled"]:
            assert boards[0][0] == doc["hand"]["exposed"]
            assert doc["steps"][[s["kind"] for s in doc["steps"]].index("deal")]["board"] == [1, 0]
        assert end[0] == len(boards[0]) or (end[0] == 1 and len(boards[0]) < 3)
        if len(boards) == 2:
            assert end[1] == len(boards[1])


def test_run_it_twice_shows_both_boards(con: duckdb.DuckDBPyConnection) -> None:
    doc = replay_document(con, "97007286518")
    labels = [s["label"] for s in doc["steps"] if s["kind"] == "street"]
    assert labels == [
        "Flop [7h 5d 3s]",
        "First turn [7s]",
        "First river [Ts]",
        "Second turn [2s]",
        "Second river [4h]",
    ]
    assert doc["steps"][-1]["board"] == [5, 5]
    assert {(r["run"], r["half"]) for r in doc["results"]} == {
        (1, "high"),
        (1, "low"),
        (2, "high"),
        (2, "low"),
    }


def test_three_way_all_in_side_pots_appear_when_bets_are_gathered(con: duckdb.DuckDBPyConnection) -> None:
    doc = replay_document(con, "68173693354")
    flop = next(s for s in doc["steps"] if s["kind"] == "street")
    assert [p[0] for p in flop["pots"]] == [4170, 399, 1626]
    names = [s["name"] for s in doc["seats"]]
    assert [[names[i] for i in p[1]] for p in flop["pots"]][2] == ["APTEM-89", "Lord Minge"]
    before = doc["steps"][doc["steps"].index(flop) - 1]
    assert before["pots"] == [] and sum(before["bets"]) == 6195


def test_labels_read_like_the_history(con: duckdb.DuckDBPyConnection) -> None:
    doc = replay_document(con, "97007286518")
    labels = [s["label"] for s in doc["steps"]]
    assert "Player0 raises $2.00 to $4.00" in labels
    assert "Player0 calls $45.75 and is all-in" in labels
    assert "Uncalled bet ($25.75) returned to Hero" in labels
    assert "Hole cards dealt; door card 7h face up" in labels


def test_unknown_hand_is_an_error(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(HandNotFoundError, match="no accepted hand #1"):
        replay_document(con, "1")


def test_money_text() -> None:
    assert money_text(105, "USD", 100) == "$1.05"
    assert money_text(-5, "EUR", 100) == "-€0.05"
    assert money_text(1500, "chips", 1) == "1500"
    assert money_text(1200, "SEK", 100) == "12.00 SEK"
    assert money_text(0, "play", 1) == "0"


def test_seat_layout_puts_the_hero_at_the_bottom_and_goes_clockwise() -> None:
    xy = seat_layout([1, 3, 4, 6], 6, hero_seat=4)
    assert xy[4] == (50.0, 100.0)
    assert xy[6][0] < 50 and xy[1][1] < 50 and xy[3][0] > 50  # left, top, right
    nine = seat_layout([2, 9], None, hero_seat=None)  # no N-max: the smallest table that fits
    assert len({*nine.values()}) == 2 and seat_layout([1, 2], None, None)[1] == (50.0, 100.0)
