"""``hhparse synth`` through typer's CliRunner, on a local app so it does not need other commands."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from hhparse.cli.synth_cmd import register
from hhparse.parsing import parse_text


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps typer in multi-command mode, like the real app
        """Placeholder."""

    return app


def test_stdout_parses() -> None:
    result = CliRunner().invoke(_app(), ["synth", "--hands", "30", "--seed", "5", "--game", "omaha-hilo"])
    assert result.exit_code == 0, result.output
    hands = list(parse_text(result.stdout))
    assert len(hands) == 30
    assert all(not hasattr(h, "code") for h in hands)


def test_file_and_dir_and_stats(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "one.txt"
    r = runner.invoke(_app(), ["synth", "-n", "20", "--out", str(out), "--crlf"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().count(b"\r\n") > 20
    d = tmp_path / "dir"
    r = runner.invoke(
        _app(),
        [
            "synth",
            "-n",
            "700",
            "--kind",
            "mixed",
            "--structure",
            "mixed",
            "--game",
            "mixed",
            "--players",
            "2-9",
            "--out",
            str(d),
            "--stats",
        ],
    )
    assert r.exit_code == 0, r.output
    assert len(list(d.iterdir())) >= 2
    assert "coverage" in r.output and "hands/s" in r.output


def test_bad_players_is_usage_error() -> None:
    r = CliRunner().invoke(_app(), ["synth", "--players", "1-12"])
    assert r.exit_code == 2


def test_every_game_of_the_table_is_a_choice() -> None:
    """``--game`` offers the table of games (and ``mixed``): 6 Card Omaha included, dealt six-max."""
    result = CliRunner().invoke(
        _app(), ["synth", "--hands", "40", "--seed", "2", "--game", "6-card-omaha", "--players", "2-9"]
    )
    assert result.exit_code == 0, result.output
    hands = list(parse_text(result.stdout))
    assert len(hands) == 40
    for h in hands:
        assert not hasattr(h, "code") and h.header.game_label == "6 Card Omaha Pot Limit"
        assert len(h.seats) <= 6
    bad = CliRunner().invoke(_app(), ["synth", "--game", "7-card-omaha"])
    assert bad.exit_code == 2
