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
    nets = {p["name"]: p["net"] for p in obj["players"]}
    # Player0 put in $81.75 (all-in), won $40.75 + $40.75 + $20.37; Hero is the mirror minus rake.
    assert nets == {"Player0": 2012, "Hero": -2062}


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


def test_check_skips_summary_files(corpus_dir: Path) -> None:
    summary = corpus_dir / "summaries" / "stars-nlo8-stt-ko-2011-summary.txt"
    result = runner.invoke(app, ["check", str(summary)])
    assert result.exit_code == 0
    assert "tournament summary file, skipped" in result.output


def test_check_sample_histories_all_valid() -> None:
    result = runner.invoke(app, ["check", str(REPO / "sample_histories")])
    assert result.exit_code == 0, result.output[-2000:]
    assert "invalid" not in result.output and "unparsed" not in result.output
