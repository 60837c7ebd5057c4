"""Names are text, never markup (issue #13, findings 11 and 12): CSV formula injection,
matplotlib mathtext, HTML, terminal escape sequences and JSON line separators."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhparse.cli import app
from hhparse.safetext import csv_cell, json_line, visible

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import make_hand
from reports_rows import Rows

runner = CliRunner()

FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)", "\tTAB"]
MATH = "$\\foo$"
HTML = "<script>alert(1)</script>"
ESCAPE = "Esc\x1b]52;c;ZXZpbA==\x07\x1b[2Jape"
BIDI = "Bidi\u202eevil"
SEPARATOR = "Line\u2028Sep"
NAMES = [*FORMULAS, MATH, HTML, ESCAPE, BIDI, SEPARATOR]


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> str:
    r = Rows()
    for i, name in enumerate(NAMES):
        r.hand(f"h{i}", [{"player": "Hero", "is_hero": True, "position": "BTN", "net": 10},
                         {"player": name, "position": "BB", "net": -10}], minutes=i)  # fmt: skip
    return str(r.publish(tmp_path_factory.mktemp("wh")))


def _report(wh: str, *args: str) -> str:
    res = runner.invoke(app, ["report", *args, "-w", wh], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    return res.output


def test_csv_formula_injection_is_neutralised(wh: str) -> None:
    """Finding 11: names like =HYPERLINK(...) were written raw by --format csv."""
    rows = list(csv.DictReader(io.StringIO(_report(wh, "summary", "-f", "csv"))))
    players = {r["Player"] for r in rows}  # the header says what a column is (issue 16)
    for name in FORMULAS:
        assert "'" + name in players, name
        assert name not in players
    for r in rows:
        assert not r["Player"].startswith(("=", "+", "-", "@", "\t", "\r"))
    # numbers stay numbers: a negative net is not prefixed
    villain = next(r for r in rows if r["Player"] == "'-2+3")
    assert villain["Net won"].startswith("-") and float(villain["Net won"]) < 0


def test_csv_raw_writes_cells_as_stored(wh: str) -> None:
    rows = list(csv.DictReader(io.StringIO(_report(wh, "summary", "-f", "csv", "--csv-raw", "--csv-names"))))
    assert {r["player"] for r in rows} >= set(FORMULAS)


def test_sql_csv_neutralises_text_not_numbers(wh: str) -> None:
    res = runner.invoke(
        app, ["sql", "SELECT -1 AS n, '-1' AS s, '=1+1' AS f, 2.5 AS d", "-w", wh, "-f", "csv"]
    )
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == ["n,s,f,d", "-1,'-1,'=1+1,2.5"]


def test_graph_title_with_dollars_is_text(wh: str, tmp_path: Path) -> None:
    """Finding 12: `report graph --player '$\\foo$'` crashed in matplotlib's mathtext."""
    for player in (MATH, "$x^{$", "a$b"):
        for suffix in ("png", "svg"):
            out = tmp_path / f"g.{suffix}"
            res = runner.invoke(app, ["report", "graph", "-w", wh, "--player", player, "-o", str(out)])
            if player != MATH:  # not in the warehouse: a usage error naming the nearest names (issue 16)
                assert res.exit_code == 2 and "no player" in res.output, res.output
                continue
            assert res.exit_code == 0, res.output
            assert out.stat().st_size > 0
    svg = (tmp_path / "g.svg").read_text()
    assert "$\\foo$" in svg  # drawn as the text it is (svg.fonttype none keeps text)


def test_html_escapes_names(wh: str) -> None:
    page = _report(wh, "summary", "-f", "html", "--player", HTML)
    # The page has scripts of its own; the name must never become one.
    assert HTML not in page and "<script>alert" not in page and "&lt;script&gt;alert(1)" in page


def test_terminal_output_shows_escape_sequences_visibly(wh: str) -> None:
    """Finding 12: escape sequences in names were printed raw to the terminal."""
    for args in (["summary"], ["summary", "--player", ESCAPE]):
        text = _report(wh, *args)
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text and "\u2028" not in text
    text = _report(wh, "summary")
    assert "Esc\\x1b]52;c;ZXZpbA==\\x07\\x1b[2Jape" in text and "Bidi\\u202eevil" in text
    res = runner.invoke(app, ["sql", "SELECT DISTINCT player FROM hand_players ORDER BY 1", "-w", wh])
    assert res.exit_code == 0 and "\x1b" not in res.output and "Esc\\x1b" in res.output


def test_json_output_escapes_line_separators(wh: str) -> None:
    """Finding 12: a raw U+2028 splits a JSON line for some readers."""
    text = _report(wh, "summary", "-f", "json")
    assert "\u2028" not in text and "\\u2028" in text
    assert SEPARATOR in {r["player"] for r in json.loads(text)}  # the data is unchanged


def test_check_jsonl_one_line_per_hand_whatever_the_names(tmp_path: Path) -> None:
    hands = [
        make_hand(str(i)).replace("Player1", name)
        for i, name in enumerate([SEPARATOR, ESCAPE, "Para\u2029graph"], 1)
    ]
    f = tmp_path / "odd.txt"
    f.write_text("\n\n\n".join(hands) + "\n\n\n", encoding="utf-8")
    res = runner.invoke(app, ["check", "--format", "jsonl", str(f)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()  # str.splitlines splits at U+2028 too: the strictest reader
    assert len(lines) == 3
    names = {p["name"] for line in lines for p in json.loads(line)["players"]}
    assert {SEPARATOR, ESCAPE, "Para\u2029graph"} <= names
    text = runner.invoke(app, ["check", "--warnings", str(f)]).output
    assert "\x1b" not in text


def test_safetext_functions() -> None:
    assert visible("plain name") == "plain name"
    assert visible("a\x1b[31mb") == "a\\x1b[31mb"
    assert visible("x\ny", keep_newlines=True) == "x\ny" and visible("x\ny") == "x\\x0ay"
    assert visible("\u202eabc") == "\\u202eabc"
    assert visible("Raúl 😀 no\u00a0break") == "Raúl 😀 no\u00a0break"
    assert json.loads(json_line({"a": "x\u2028y"})) == {"a": "x\u2028y"}
    assert "\u2028" not in json_line({"a": "x\u2028y"})
    for cell in ("=1", "+1", "-1", "@x", "\tx", "\rx"):
        assert csv_cell(cell) == "'" + cell
    for value in (-1, -1.5, "a=1", "", None):
        assert csv_cell(value) == value
