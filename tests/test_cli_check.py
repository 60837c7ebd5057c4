"""``hhparse check``: counts, located problems, JSONL, stdin and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hhparse.cli import app

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()

RIT = "courchevel-hilo/stars-cash-pl-1-2-2013-run-it-twice.txt"


def test_check_valid_file_exits_zero(corpus_dir: Path) -> None:
    result = runner.invoke(app, ["check", str(corpus_dir / RIT)])
    assert result.exit_code == 0, result.output
    assert "1 hands (1 valid)" in result.output


def test_check_jsonl_reports_status_and_net_in_cents(corpus_dir: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "jsonl", str(corpus_dir / RIT)])
    assert result.exit_code == 0, result.output
    (obj,) = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    assert obj["hand_id"] == "97007286518"
    assert obj["status"] == "valid"
    assert obj["line"] == 1
    assert obj["errors"] == []
    nets = {p["name"]: p["net_minor"] for p in obj["players"]}
    # Player0 put in $81.75 (all-in), won $40.75 + $40.75 + $20.37; Hero is the mirror minus rake.
    # The unit says itself: net_minor is in cents of USD (unit_scale 100 minor units a dollar).
    assert nets == {"Player0": 2012, "Hero": -2062}
    assert (obj["unit"], obj["unit_scale"]) == ("USD", 100)


def test_check_invalid_hand_exits_one_with_location(tmp_path: Path, corpus_dir: Path) -> None:
    text = (corpus_dir / RIT).read_bytes().decode("utf-8")
    bad = text.replace("Player0 collected $40.75 from pot", "Player0 collected $40.76 from pot", 1)
    path = tmp_path / "bad.txt"
    path.write_text(bad, encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:25:1: hand #97007286518:" in result.output
    assert "Player0 collected $40.76 from pot" in result.output  # the source line is echoed


def test_check_unparsed_hand_exits_one_and_good_hands_survive(tmp_path: Path, corpus_dir: Path) -> None:
    good = (corpus_dir / RIT).read_bytes().decode("utf-8").replace("\r\n", "\n")
    broken = good.replace("Hero: bets $71.50", "Hero: bets a lot", 1).replace("97007286518", "97007286519", 1)
    path = tmp_path / "mixed.txt"
    path.write_text(good + "\n\n\n" + broken + "\n\n\n" + good.replace("97007286518", "97007286520", 1))
    result = runner.invoke(app, ["check", "--format", "jsonl", str(path)])
    assert result.exit_code == 1
    statuses = [json.loads(line)["status"] for line in result.output.splitlines()]
    assert statuses == ["valid", "unparsed", "valid"]


def test_check_reads_stdin(corpus_dir: Path) -> None:
    data = (corpus_dir / RIT).read_bytes().decode("utf-8")
    result = runner.invoke(app, ["check", "-"], input=data)
    assert result.exit_code == 0, result.output
    assert "1 valid" in result.output


def test_check_missing_path_is_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2


def test_check_unsupported_game_fails_unless_allowed(corpus_dir: Path) -> None:
    mixed = corpus_dir / "mixed" / "stars-tour-8game-homegame-2013-137hands.txt"
    assert runner.invoke(app, ["check", str(mixed)]).exit_code == 1
    allowed = runner.invoke(app, ["check", "--allow-unsupported", str(mixed)])
    assert allowed.exit_code == 0, allowed.output
    assert "unsupported" in allowed.output


def test_check_reads_summary_files_as_import_does(corpus_dir: Path) -> None:
    """Issue 16: a summary file was "skipped" by check but stored as a reject by import; both now
    read it as a tournament summary (import into tournament_summaries)."""
    summary = corpus_dir / "summaries" / "stars-nlo8-stt-ko-2011-summary.txt"
    result = runner.invoke(app, ["check", str(summary)])
    assert result.exit_code == 0, result.output
    assert (
        "tournament summary tournament #447493868 (No Limit Omaha Hi/Lo, $1.08/$0.27/$0.15 USD): 9 players"
        in (result.output)
    )
    result = runner.invoke(app, ["check", "--format", "jsonl", str(summary)])
    (obj,) = [json.loads(line) for line in result.output.splitlines()]
    assert obj["kind"] == "tournament-summary" and obj["status"] == "valid"
    (t,) = obj["tournaments"]
    assert (t["tournament_id"], t["buyin_minor"], t["bounty_minor"], t["fee_minor"], t["entries"]) == (
        "447493868",
        108,
        27,
        15,
        9,
    )
    assert (t["unit"], t["unit_scale"], t["prize_pool_minor"]) == ("USD", 100, 972)


def test_check_reports_a_damaged_summary_line(tmp_path: Path, corpus_dir: Path) -> None:
    text = (corpus_dir / "summaries" / "stars-nlo8-stt-ko-2011-summary.txt").read_text(encoding="utf-8")
    bad = tmp_path / "summary.txt"
    bad.write_text(text.replace("  3: Hero (Australia), $1.94 (19.958%)", "  3: Hero (Australia), lots"))
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1, result.output
    assert f"{bad}:9:1: tournament summary: unrecognised prize 'lots' [bad-summary]" in result.output


def test_check_sample_histories_all_valid() -> None:
    result = runner.invoke(app, ["check", str(REPO / "sample_histories")])
    assert result.exit_code == 0, result.output[-2000:]
    assert "invalid" not in result.output and "unparsed" not in result.output
