"""``hhparse sql`` and ``hhparse report`` through typer's CliRunner, on a hand-made warehouse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from hhparse.cli import report_cmd, sql_cmd
from hhparse.reports import REPORTS

sys.path.insert(0, str(Path(__file__).parent))
from reports_rows import Rows

INJECTION = "x'); DROP TABLE hands; --"
runner = CliRunner()


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    sql_cmd.register(app)
    report_cmd.register(app)
    return app


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> str:
    r = Rows()
    for i in range(4):
        r.hand(f"h{i}", [{"player": "Hero", "is_hero": True, "position": "BTN", "vpip": i % 2 == 0, "net": 10 - i * 7},
                         {"player": INJECTION, "position": "BB", "net": i * 7 - 10}], minutes=i * 5)  # fmt: skip
    r.add("actions", site="PokerStars", hand_id="h0", seq=0, street=0, player="Hero", seat=1,
          action="small blind", amount=12, to_amount=12, stack_before=1000)  # fmt: skip
    return str(r.publish(tmp_path_factory.mktemp("wh")))


def test_sql_formats(app: typer.Typer, wh: str, tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["sql", "SELECT player, net FROM stg_hand_players ORDER BY hand_id, seat", "-w", wh]
    )
    assert res.exit_code == 0, res.output
    assert "Hero" in res.output and "0.10" in res.output
    res = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM hands", "-w", wh, "--format", "json"])
    assert json.loads(res.output) == [{"n": 4}]
    res = runner.invoke(app, ["sql", "SELECT 1 AS a", "-w", wh, "--format", "csv"])
    assert res.output.splitlines() == ["a", "1"]
    out = tmp_path / "q.parquet"
    res = runner.invoke(app, ["sql", "SELECT * FROM player_hands", "-w", wh, "-f", "parquet", "-o", str(out)])
    assert res.exit_code == 0 and pq.read_table(out).num_rows == 8


def test_sql_errors_exit_2(app: typer.Typer, wh: str, tmp_path: Path) -> None:
    assert runner.invoke(app, ["sql", "SELEC nonsense", "-w", wh]).exit_code == 2
    assert runner.invoke(app, ["sql", "SELECT 1", "-w", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["sql", "SELECT 1", "-w", wh, "-f", "xml"]).exit_code == 2
    assert runner.invoke(app, ["sql", "SELECT 1", "-w", wh, "-f", "parquet"]).exit_code == 2


@pytest.mark.parametrize("name", [n for n in REPORTS if n != "hand"])
def test_every_report_in_every_text_format(app: typer.Typer, wh: str, name: str) -> None:
    for fmt in ("table", "csv", "json", "html"):
        res = runner.invoke(app, ["report", name, "-w", wh, "--format", fmt])
        assert res.exit_code == 0, res.output


def test_report_player_injection(app: typer.Typer, wh: str) -> None:
    res = runner.invoke(app, ["report", "summary", "-w", wh, "--player", INJECTION, "-f", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert [r["player"] for r in rows] == [INJECTION] and rows[0]["hands"] == 4
    assert runner.invoke(app, ["sql", "SELECT count(*) FROM hands", "-w", wh]).exit_code == 0


def test_report_hand(app: typer.Typer, wh: str) -> None:
    res = runner.invoke(app, ["report", "hand", "h0", "-w", wh])
    assert res.exit_code == 0, res.output
    assert "Hero: small blind 0.12" in res.output and "pot 0.12, Hero has 9.88" in res.output
    assert runner.invoke(app, ["report", "hand", "-w", wh]).exit_code == 2


def test_report_graph_files(app: typer.Typer, wh: str, tmp_path: Path) -> None:
    png, svg, page = tmp_path / "g.png", tmp_path / "g.svg", tmp_path / "s.html"
    assert runner.invoke(app, ["report", "graph", "-w", wh, "-o", str(png)]).exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert runner.invoke(app, ["report", "graph", "-w", wh, "-o", str(svg)]).exit_code == 0
    assert b"<svg" in svg.read_bytes()
    assert runner.invoke(app, ["report", "summary", "-w", wh, "-o", str(page)]).exit_code == 0
    text = page.read_text()
    assert "<table" in text and 'id="hh-graph"' in text
    assert runner.invoke(app, ["report", "graph", "-w", wh, "-f", "png"]).exit_code == 2  # needs --out


def test_report_usage_errors(app: typer.Typer, wh: str, tmp_path: Path) -> None:
    assert runner.invoke(app, ["report", "nope", "-w", wh]).exit_code == 2
    assert runner.invoke(app, ["report", "summary", "-w", wh, "--since", "May"]).exit_code == 2
    assert runner.invoke(app, ["report", "summary", "-w", str(tmp_path)]).exit_code == 2
    assert (
        runner.invoke(app, ["report", "summary", "-w", wh, "-f", "png", "-o", str(tmp_path / "x")]).exit_code
        == 2
    )


def test_a_table_written_as_it_is_laid_out_is_the_table_written_to_a_file(
    app: typer.Typer, wh: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On standard output the terminal table is written a block of rows at a time, as laid
    out; to a file, once whole: the same text."""
    from hhparse.reports import terminal

    monkeypatch.setattr(terminal, "_CHUNK_ROWS", 1)
    for args in (["summary", "--by", "month"], ["hands"], ["positions"]):
        out = tmp_path / f"{args[0]}.txt"
        res = runner.invoke(app, ["report", *args, "-w", wh], env={"COLUMNS": "97"})
        assert res.exit_code == 0, res.output
        assert (
            runner.invoke(app, ["report", *args, "-w", wh, "-o", str(out)], env={"COLUMNS": "97"}).exit_code
            == 0
        )
        assert res.stdout == out.read_text(encoding="utf-8")
        assert res.stdout.count("\n") > 4


def test_report_says_when_it_cannot_build_the_derived_tables(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while the derived tables are built: the report reads the imported rows (the
    same figures) and says why on stderr, where before it fell back without a word."""
    from hhparse.reports import derived

    r = Rows()
    for i in range(3):
        r.hand(f"h{i}", [{"player": "Hero", "is_hero": True, "position": "BTN", "net": 10 - i * 7},
                         {"player": "Villain", "position": "BB", "net": i * 7 - 10}], minutes=i * 5)  # fmt: skip
    full, fine = str(r.publish(tmp_path / "full")), str(r.publish(tmp_path / "fine"))

    def no_space(*_args: object) -> dict[str, derived.Refresh]:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(derived, "_refresh_all", no_space)
        failed = runner.invoke(app, ["report", "summary", "-w", full, "-f", "json"])
    built = runner.invoke(app, ["report", "summary", "-w", fine, "-f", "json"])
    assert failed.exit_code == 0 == built.exit_code, failed.output
    assert "derived tables could not be brought up to date (the disk is full)" in failed.stderr
    assert "derived tables" not in built.stderr
    assert json.loads(failed.stdout) == json.loads(built.stdout)


def test_report_says_why_even_when_the_failure_has_no_message(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure without a message (an empty Arrow error) is named by its type, not a traceback."""
    import pyarrow as pa

    from hhparse.reports import derived

    r = Rows()
    r.hand("h0", [{"player": "Hero", "is_hero": True, "position": "BTN", "net": 5},
                  {"player": "Villain", "position": "BB", "net": -5}])  # fmt: skip
    root = str(r.publish(tmp_path / "wh"))

    def empty(*_args: object) -> dict[str, derived.Refresh]:
        raise pa.ArrowInvalid("")

    monkeypatch.setattr(derived, "_refresh_all", empty)
    res = runner.invoke(app, ["report", "summary", "-w", root, "-f", "json"])
    assert res.exit_code == 0, res.output
    assert "brought up to date (ArrowInvalid)" in res.stderr
