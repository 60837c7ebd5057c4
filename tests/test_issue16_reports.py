"""Issue 16: breakdowns and the tournaments report on crafted histories with hand-computed numbers
(tests/issue16_histories.py says how each number comes about), filters that answer instead of an
empty table, and tables that fit 80 and 200 columns."""

from __future__ import annotations

import io
import json
import sys
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import hhparse
from hhparse.cli import app
from hhparse.failures import UsageError
from hhparse.importer import import_paths
from hhparse.reports import REPORTS
from hhparse.reports.output import to_table
from hhparse.reports.query import FilterNote

sys.path.insert(0, str(Path(__file__).parent))
from issue16_histories import SUMMARY_900001, tournament_hands, write_all

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("issue16")
    result = import_paths([write_all(root / "in")], root / "wh", jobs=1)
    assert result.stats.rejected == 0 and result.stats.summaries == 3
    return root / "wh"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wh = tmp_path_factory.mktemp("sample16") / "wh"
    import_paths([REPO / "sample_histories"], wh, jobs=1)
    return wh


def _cli(*args: object, columns: int = 80) -> tuple[int, str]:
    r = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns), "NO_COLOR": ""})
    return r.exit_code, r.output


def _by(df: pd.DataFrame, column: str) -> dict[str, pd.Series]:
    return {str(k): row for k, row in df.set_index(column).iterrows()}


# -- --by stakes / month ----------------------------------------------------------------------------


def test_bb_per_100_only_within_one_stake(wh: Path) -> None:
    usd = hhparse.report("summary", wh, player="Hero").set_index("unit").loc["USD"]
    assert usd["hands"] == 6 and usd["net"] == Decimal("7.05")
    assert pd.isna(usd["bb_per_100"]) and pd.isna(usd["ev_bb_per_100"])  # two stakes in one row
    stakes = _by(hhparse.report("summary", wh, player="Hero", by="stakes"), "stakes")
    assert (stakes["0.10/0.25 USD"]["hands"], stakes["0.10/0.25 USD"]["net"]) == (3, Decimal("1.05"))
    assert stakes["0.10/0.25 USD"]["bb_per_100"] == 140.0
    assert (stakes["1.00/2.00 USD"]["hands"], stakes["1.00/2.00 USD"]["net"]) == (3, Decimal("6.00"))
    assert stakes["1.00/2.00 USD"]["bb_per_100"] == 100.0
    # tournaments: the stake is the buy-in
    assert {"$1.08+$0.27+$0.15 USD", "$5.00+$0.50 USD"} <= set(stakes)


def test_by_month(wh: Path) -> None:
    df = hhparse.report("summary", wh, player="Hero", by="month")
    months = {(r["unit"], r["month"]): r for _, r in df.iterrows()}
    assert months[("USD", "2024-02")]["bb_per_100"] == 140.0
    assert months[("USD", "2024-03")]["bb_per_100"] == 100.0
    assert months[("USD", "2024-03")]["net"] == Decimal("6.00")
    assert "stakes" not in df.columns and "position" not in df.columns  # only the split asked for


def test_by_several_and_every_split(wh: Path) -> None:
    df = hhparse.report("summary", wh, player="Hero", by=["stakes", "month"])
    assert list(df.columns[:4]) == ["player", "unit", "stakes", "month"]
    for split, column in (
        ("game", "game"),
        ("structure", "structure"),
        ("position", "position"),
        ("table-size", "table_size"),
    ):
        got = hhparse.report("summary", wh, player="Hero", by=split)
        assert column in got.columns and got[column].notna().all(), split
    sizes = hhparse.report("summary", wh, player="Hero", by="table-size")
    assert set(sizes["table_size"]) == {"6-max", "9-max"}
    with pytest.raises(UsageError, match="--by must be one or more of"):
        hhparse.report("summary", wh, by="weekday")
    with pytest.raises(UsageError, match="--by is for the summary"):
        hhparse.report("hilo", wh, by="stakes")


def test_tournament_chips_are_never_summed_across_tournaments(wh: Path) -> None:
    chips = hhparse.report("summary", wh, player="Hero").set_index("unit").loc["chips"]
    assert chips["hands"] == 2 and pd.isna(chips["net"]) and pd.isna(chips["bb_per_100"])
    code, out = _cli("report", "summary", "-w", wh)
    assert code == 0 and "tournament chips are not money" in " ".join(out.split())


# -- tournaments ------------------------------------------------------------------------------------


def test_tournaments_hand_computed(wh: Path) -> None:
    df = hhparse.report("tournaments", wh)
    rows = _by(df[df["tournament_id"] != "total"], "tournament_id")
    won = rows["900001"]
    assert (won["place"], won["entries"], won["result_from"]) == (1, 9, "hands+summary")
    assert (won["buy_in"], won["fee"], won["prize"]) == (Decimal("1.35"), Decimal("0.15"), Decimal("4.87"))
    assert won["bounties"] == Decimal("0.54")  # Villain's $0.27 and Hero's own $0.27
    assert (won["won"], won["net"], won["roi"]) == (Decimal("5.41"), Decimal("3.91"), 260.67)
    assert (won["cashes"], won["itm"]) == (1, 100.0)
    summary_only = rows["900002"]  # the final summary, not the snapshot where Hero still played
    assert (summary_only["place"], summary_only["prize"], summary_only["net"]) == (
        5,
        Decimal("0.00"),
        Decimal("-11.00"),
    )
    assert (summary_only["roi"], summary_only["result_from"], summary_only["game"]) == (
        -100.0,
        "summary",
        "courchevel-hilo",
    )
    bust = rows["900003"]
    assert (bust["place"], bust["prize"], bust["net"], bust["roi"]) == (
        4,
        Decimal("7.20"),
        Decimal("1.70"),
        30.91,
    )
    assert pd.isna(bust["bounties"])  # not a knockout
    (total,) = [r for _, r in df[df["tournament_id"] == "total"].iterrows()]
    assert (total["tournaments"], total["cashes"], total["itm"]) == (3, 2, 66.67)
    assert (total["buy_in"] + total["fee"], total["won"], total["net"]) == (
        Decimal("18.00"),
        Decimal("12.61"),
        Decimal("-5.39"),
    )
    assert total["roi"] == -29.94
    assert df.attrs["money_columns"] and isinstance(df["net"].dtype, pd.ArrowDtype)


def test_a_place_beyond_32767_is_stored(tmp_path: Path) -> None:
    """Regression: ``place`` was int16, so a Sunday Million finish (the parser allows places below
    a billion) made the batch's tournament_events fail to build and the import abort."""
    name, text = next((n, t) for n, t in tournament_hands().items() if "T900003" in n)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / name).write_text(text.replace("in 4th place", "in 54321st place"))
    result = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (result.stats.new, result.stats.rejected) == (1, 0)
    events = pq.read_table(tmp_path / "wh" / "tournament_events").to_pylist()
    assert [(e["player"], e["kind"], e["place"]) for e in events] == [("Hero", "finished", 54321)]
    (row,) = [
        r
        for _, r in hhparse.report("tournaments", tmp_path / "wh").iterrows()
        if r["tournament_id"] == "900003"
    ]
    assert row["place"] == 54321


def test_a_summary_number_the_warehouse_cannot_hold_is_a_reject_not_a_failed_batch(tmp_path: Path) -> None:
    """Regression: a summary's numbers were unbounded, so ``99999999999 players`` (beyond int32)
    made the batch's tournament_summaries fail to build and the import abort."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "TS20240501 T900001 huge.txt").write_text(
        SUMMARY_900001.replace("9 players", "99999999999 players")
    )
    name, text = next((n, t) for n, t in tournament_hands().items() if "T900003" in n)
    (tmp_path / "in" / name).write_text(text)
    result = import_paths(
        [tmp_path / "in"], tmp_path / "wh", jobs=1, settle_seconds=0
    )  # final, not being written
    assert (result.stats.new, result.stats.rejected, result.stats.summaries) == (1, 1, 0)
    (reject,) = pq.read_table(tmp_path / "wh" / "rejects").to_pylist()
    assert reject["code"] == "bad-summary" and "cannot hold" in reject["message"], reject


def test_the_events_of_a_hand_set_apart_go_with_it(tmp_path: Path) -> None:
    """Regression (merge with the batch builder's last line of defence): a hand the builder sets
    apart at the end of a batch becomes a reject; its tournament lines must not stay stored."""
    from hhparse.import_worker import _TourneyRows
    from hhparse.tables.build import HandRef

    name, text = next((n, t) for n, t in tournament_hands().items() if "T900003" in n)
    (tmp_path / name).write_text(text)
    (hand,) = hhparse.parse_file(tmp_path / name)
    rows = _TourneyRows()
    rows.add_hand(0, hand)
    rows.add_hand(1, hand)
    refs = [
        HandRef("PokerStars", "900000003", "a", accepted=True),
        HandRef("PokerStars", "900000003", "b", accepted=False),
    ]
    events = rows.finish(refs)["tournament_events"]
    assert events.column("_hand_idx").to_pylist() == [0] and events.column("place").to_pylist() == [4]


def test_a_summary_file_too_large_to_be_one_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The splitter bounds what it keeps of a file that is not hands; the summary reader reads the
    whole file, so it is bounded too (a reject naming the size, not a file read into memory)."""
    import hhparse.import_worker

    monkeypatch.setattr(hhparse.import_worker, "SUMMARY_MAX_BYTES", 100)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "TS20240501 T900001.txt").write_text(SUMMARY_900001 + "\n\n")
    result = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1, settle_seconds=0)
    assert (result.stats.rejected, result.stats.summaries) == (1, 0)
    (reject,) = pq.read_table(tmp_path / "wh" / "rejects").to_pylist()
    assert reject["code"] == "bad-summary" and "more than a summary file holds (100)" in reject["message"], (
        reject
    )


def test_tournament_events_and_summaries_tables(wh: Path) -> None:
    con = hhparse.warehouse(wh)
    events = con.sql(
        "SELECT kind, player, place, amount_dec, shared_by, eliminated, unit FROM tournament_events "
        "WHERE tournament_id = '900001' ORDER BY line, kind"
    ).fetchall()
    assert events == [
        ("bounty", "Hero", None, Decimal("0.27"), 1, "Villain", "USD"),
        ("finished", "Villain", 2, Decimal("2.91"), 1, None, "USD"),
        ("own-bounty", "Hero", None, Decimal("0.27"), 1, None, "USD"),
        ("won", "Hero", 1, Decimal("4.87"), 1, None, "USD"),
    ]
    hashes = con.sql("SELECT DISTINCT tournament_id, content_hash FROM tournament_summaries").fetchall()
    assert sorted(t for t, _ in hashes) == ["900001", "900002", "900002"]  # both summaries of 900002 kept
    assert con.sql("SELECT count(*) FROM rejects").fetchall() == [(0,)]  # summary files are not rejects


def test_the_same_summary_file_twice_is_stored_once(wh: Path, tmp_path: Path) -> None:
    (tmp_path / "copy.txt").write_text(
        (wh.parent / "in" / "TournSummary" / "TS20240501 T900001 Courchevel Hi-Lo.txt").read_text()
    )
    before = hhparse.warehouse(wh).sql("SELECT count(*) FROM tournament_summaries").fetchall()
    result = import_paths([tmp_path], wh, jobs=1)
    assert (result.stats.summaries, result.stats.duplicate, result.exit_code) == (0, 1, 0)
    assert hhparse.warehouse(wh).sql("SELECT count(*) FROM tournament_summaries").fetchall() == before


def test_corpus_summaries_and_knockouts(corpus_dir: Path, tmp_path: Path) -> None:
    """Real files: the 5 Card Omaha PKO Hero won (summary: 1st, $230.36; hands: $4.60 for a split
    knockout, $19.90 for the last one, own bounty $155.32 after it) and the NLO8 KO (3rd, $1.94)."""
    import_paths(
        [corpus_dir / "5-card-omaha", corpus_dir / "omaha-hilo", corpus_dir / "summaries"],
        tmp_path / "wh",
        jobs=1,
    )
    rows = _by(
        hhparse.report("tournaments", tmp_path / "wh", player="Hero").query("tournament_id != 'total'"),
        "tournament_id",
    )
    pko = rows["1731156709"]
    assert (pko["place"], pko["prize"], pko["bounties"]) == (1, Decimal("230.36"), Decimal("179.82"))
    assert (pko["buy_in"], pko["fee"], pko["entries"]) == (Decimal("24.55"), Decimal("2.45"), 49)
    ko = rows["447493868"]
    assert (ko["place"], ko["prize"], ko["buy_in"], ko["fee"]) == (
        3,
        Decimal("1.94"),
        Decimal("1.35"),
        Decimal("0.15"),
    )
    assert ko["result_from"] == "hands+summary"


# -- filters that answer -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-p", "Nobody"], "no player 'Nobody' in the warehouse; nearest names:"),
        (
            ["--stakes", "5/10"],
            "no hands at stakes '5/10'; the warehouse holds: 0.10/0.25 USD, 1.00/2.00 USD",
        ),
        (["--game", "holdem"], "hhparse reads Courchevel and Omaha games only"),
        (["--game", "omaha"], "no Omaha hands in the warehouse; it holds: courchevel-hilo"),
        (
            ["--since", "2024-03-01", "--until", "2024-02-01"],
            "--since 2024-03-01 is after --until 2024-02-01",
        ),
        (
            ["--since", "2030-01-01"],
            "no hands from 2030-01-01 to …: the warehouse holds hands from 2024-02-01",
        ),
        (["--stakes", "$9+$1"], "no tournament with the buy-in '$9+$1'; buy-ins in the warehouse:"),
    ],
)
def test_a_filter_matching_nothing_is_a_usage_error_naming_what_exists(
    wh: Path, args: list[str], says: str
) -> None:
    code, out = _cli("report", "summary", "-w", wh, *args, columns=300)
    assert code == 2, out
    assert says in " ".join(out.split()), out


def test_player_names_match_without_regard_to_case_with_a_note(wh: Path) -> None:
    code, out = _cli("report", "summary", "-w", wh, "-p", "hero")
    assert code == 0 and "note: player 'hero' taken as 'Hero'" in out and "Player: Hero" in out
    with pytest.warns(FilterNote, match="taken as 'Hero'"):
        assert set(hhparse.report("summary", wh, player="HERO")["player"]) == {"Hero"}


@pytest.mark.filterwarnings("ignore::hhparse.reports.query.FilterNote")
@pytest.mark.parametrize(
    "form",
    [
        "0.10/0.25",
        "$0.10/$0.25",
        "$0.10-$0.25",
        "$0.10-$0.25 - USD",
        "0.10/0.25 USD",
        "10/25",
        "0.25",
        "$0.25",
    ],
)
def test_stakes_in_every_written_form(wh: Path, form: str) -> None:
    df = hhparse.report("summary", wh, player="Hero", stakes=form)
    assert list(df["hands"]) == [3] and list(df["net"]) == [Decimal("1.05")], form


@pytest.mark.filterwarnings("ignore::hhparse.reports.query.FilterNote")
def test_games_by_name_alias_and_header_words(wh: Path) -> None:
    for game in (
        "courchevel-hilo",
        "Courchevel Hi/Lo",
        "chl",
        "Courchevel Hi/Lo Pot Limit",
        "COURCHEVEL-HILO",
    ):
        assert int(hhparse.report("summary", wh, player="Hero", game=game)["hands"].sum()) == 8, game


def test_filters_that_match_only_apart_answer_with_a_note(wh: Path) -> None:
    code, out = _cli(
        "report", "summary", "-w", wh, "-p", "Hero", "--stakes", "0.10/0.25", "--since", "2024-03"
    )
    assert (
        code == 0 and "(no rows)" in out and "each filter matches hands, but not all of them together" in out
    )


# -- tables that fit -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_frames(wh: Path, sample: Path) -> dict[tuple[str, str, str | None, str | None], pd.DataFrame]:
    """Every report of both warehouses (with and without a player, the summary by each split),
    computed once for both widths of :func:`test_every_report_fits_the_terminal`: a report's rows
    do not depend on the width they are laid out in (only ``to_table`` does), and computing them is
    nearly all of that test's time. Keyed by (warehouse, report, player, split); read as copies."""
    out: dict[tuple[str, str, str | None, str | None], pd.DataFrame] = {}
    for warehouse in (wh, sample):
        con = hhparse.warehouse(warehouse)
        hand = str(con.sql("SELECT hand_id FROM hands ORDER BY hand_id LIMIT 1").fetchall()[0][0])
        for name in REPORTS:
            for player in (None, "Hero"):
                out[str(warehouse), name, player, None] = hhparse.report(
                    name,
                    con,
                    player=player if name != "hand" else None,
                    hand_id=hand if name == "hand" else None,
                )
        for by in ("stakes", "month", "position"):
            out[str(warehouse), "summary", None, by] = hhparse.report("summary", con, by=by)
        con.close()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 200])
def test_every_report_fits_the_terminal(
    wh: Path,
    sample: Path,
    width: int,
    report_frames: dict[tuple[str, str, str | None, str | None], pd.DataFrame],
) -> None:
    for warehouse in (wh, sample):
        for name in REPORTS:
            for player in (None, "Hero"):
                df = report_frames[str(warehouse), name, player, None].copy()
                text = to_table(df, name=name, width=width, single=player is not None)
                wide = [line for line in text.splitlines() if cell_len(line) > width]
                assert not wide, (name, player, width, wide[:2])
            for by in ("stakes", "month", "position"):
                df = report_frames[str(warehouse), "summary", None, by].copy()
                text = to_table(df, name="summary", width=width)
                assert max(cell_len(line) for line in text.splitlines()) <= width


def test_cli_table_fits_and_says_what_it_left_out(wh: Path) -> None:
    for width in (80, 200):
        code, out = _cli("report", "summary", "-w", wh, columns=width)
        assert code == 0 and max(cell_len(line) for line in out.splitlines()) <= width, out
    code, out = _cli("report", "summary", "-w", wh, columns=80)
    assert "VPIP" in out and "more columns in a wider terminal" in out and "bb/100" in out
    assert "\x1b[" not in out  # no colour into a pipe


def test_one_player_prints_as_a_card(wh: Path) -> None:
    code, out = _cli("report", "summary", "-w", wh, "-p", "Hero", "--stakes", "0.10/0.25", columns=80)
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith("VPIP %") for line in lines) and any(
        line.startswith("Fold to flop c-bet %") for line in lines
    )
    assert "140.00" in out  # bb/100 of that stake


def test_colours_say_won_and_lost_only_on_a_terminal(wh: Path) -> None:
    df = hhparse.report("summary", wh, by="stakes")
    coloured = to_table(df, name="summary", width=200, color=True)
    plain = to_table(df, name="summary", width=200, color=False)
    assert "\x1b[32m" in coloured and "\x1b[31m" in coloured  # green won, red lost
    assert "\x1b" not in plain


def test_same_data_in_every_other_format(wh: Path, tmp_path: Path) -> None:
    df = hhparse.report("tournaments", wh)
    _, out = _cli("report", "tournaments", "-w", wh, "-f", "json")
    rows = json.loads(out)
    assert [r["net"] for r in rows] == [None if pd.isna(v) else float(v) for v in df["net"]]
    _, out = _cli("report", "tournaments", "-w", wh, "-f", "csv")
    head = out.splitlines()[0].split(",")
    assert len(head) == len(df.columns) and "ROI %" in head and "Fee (rake)" in head  # headers say what it is
    parquet = tmp_path / "t.parquet"
    assert _cli("report", "tournaments", "-w", wh, "-o", parquet)[0] == 0
    assert pq.read_table(parquet).column_names == list(df.columns)
    _, out = _cli(
        "report", "tournaments", "-w", wh, "--columns", "tournament_id,net,roi", "-f", "csv", "--csv-names"
    )
    assert out.splitlines()[0] == "tournament_id,net,roi"


def test_import_summary_lists_only_files_that_need_a_look_in_80_columns(tmp_path: Path) -> None:
    folder = write_all(tmp_path / "in")
    long = folder / ("deep-" * 12) / "a-rather-long-file-name-of-a-history-that-has-a-bad-hand.txt"
    long.parent.mkdir()
    long.write_text(
        (folder / "HH20240201 Crafted I - $0.10-$0.25 - USD Courchevel Hi-Lo Pot Limit.txt")
        .read_text()
        .replace("Hero collected $0.60", "Hero collected $0.61", 1)
        .replace("800000", "700000", 1)
    )
    code, out = _cli("import", folder, "-w", tmp_path / "wh", "-j", "1")
    assert code == 1, out
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= 80, out
    assert "Files with rejects, conflicts or errors: 1 of 7" in out and "bad-hand.txt" in out
    assert "Pot Limit.txt" not in out and "tournament summary" not in out  # clean files are not listed
    code, out = _cli("import", folder, "-w", tmp_path / "wh2", "-j", "1", "--verbose")
    assert "7 of 7 files read" in out and "Pot Limit.txt" in out and "1 tournament summary" in out
    assert max(cell_len(line) for line in out.splitlines()) <= 80


def test_import_conflict_lines_fit_80_columns(tmp_path: Path) -> None:
    """Regression: the conflict lines after the summary were printed unwrapped (a long path made
    them wider than the terminal)."""
    folder = write_all(tmp_path / "in")
    assert _cli("import", folder, "-w", tmp_path / "wh", "-j", "1")[0] == 0
    original = folder / "HH20240201 Crafted I - $0.10-$0.25 - USD Courchevel Hi-Lo Pot Limit.txt"
    changed = folder / ("deep-" * 12) / "the-same-hands-at-another-table-a-conflict-for-each.txt"
    changed.parent.mkdir()
    changed.write_text(original.read_text().replace("Table 'Crafted I'", "Table 'Crafted II'"))
    code, out = _cli("import", changed, "-w", tmp_path / "wh", "-j", "1")
    assert code == 1, out
    assert "6 conflicting" in out and out.count("conflict: hand #") == 6, out
    assert max(cell_len(line) for line in out.splitlines()) <= 80, out


def test_check_counts_other_games_per_file(corpus_dir: Path) -> None:
    mixed = corpus_dir / "mixed" / "stars-tour-8game-homegame-2013-137hands.txt"
    code, out = _cli("check", "--allow-unsupported", mixed)
    assert code == 0
    (line,) = [ln for ln in out.splitlines() if "other games:" in ln]
    assert "119 unsupported" in line and "Hold'em" in line
    assert len(out.splitlines()) < 10  # not three lines a hand
    code, out = _cli("check", "--allow-unsupported", "--verbose", mixed)
    assert sum("not a game hhparse reads" in ln for ln in out.splitlines()) == 119


def test_report_list_defines_every_column() -> None:
    code, out = _cli("report", "--list", columns=100)
    flat = " ".join(out.split())
    assert code == 0
    for spec in REPORTS.values():
        assert spec.name in out
    assert "vpip (VPIP): Voluntarily Put money In Pot" in flat
    assert "[hands where the player called, bet or raised pre-flop ÷ hands dealt in" in flat
    code, out = _cli("report", "--list", columns=80)
    assert code == 0 and max(cell_len(line) for line in out.splitlines()) <= 80  # its last line was 86 wide


def test_check_says_one_warning(tmp_path: Path) -> None:
    """Regression: a file with one warning said "1 warnings"."""
    sample = next((REPO / "sample_histories").glob("HH20180416 T1000012075*.txt"))
    code, out = _cli("check", sample)
    assert code == 0 and "(60 valid, 1 warning)" in out, out


def test_csv_buffer_reads_back(wh: Path) -> None:
    _, out = _cli("report", "summary", "-w", wh, "-f", "csv", "--by", "stakes")
    back = pd.read_csv(io.StringIO(out))
    assert "bb/100" in back.columns and back["bb/100"].notna().any()
