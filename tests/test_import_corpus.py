"""Importing the real corpus: one ``hands`` row per distinct valid hand, a ``rejects`` row for the rest."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from hhparse.engine import referee
from hhparse.errors import ParseError
from hhparse.importer import import_paths
from hhparse.parsing import parse_block
from hhparse.splitter import BLOCK_SUMMARY, split_path
from hhparse.summaries import parse_summaries, read_summary_text
from hhparse.tables.build import content_hash
from hhparse.tables.schema import create_views

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import read_views

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def warehouse(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    wh = tmp_path_factory.mktemp("corpus") / "wh"
    result = import_paths([corpus_dir], wh, jobs=1)
    assert result.exit_code == 1  # the corpus has Hold'em hands, summaries and broken samples
    return wh


def _con(wh: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    create_views(con, wh)
    return con


def test_one_row_per_distinct_valid_hand_and_rejects_for_the_rest(corpus_dir: Path, warehouse: Path) -> None:
    valid: set[tuple[str, str]] = set()
    rejected: set[tuple[str, int, str]] = set()  # one reject per place (a copy elsewhere counts)
    first: dict[tuple[str, str], str] = {}  # the text stored for a hand id: the first one read
    conflicts: set[str] = set()  # other texts of a stored hand id: kept in rejects as `conflict`
    summaries: set[str] = set()  # tournament summary files: stored in tournament_summaries (issue 16)
    for block in split_path(corpus_dir):
        if block.kind == BLOCK_SUMMARY:
            text = read_summary_text(block.source)
            assert not isinstance(parse_summaries(text, block.source), ParseError), block.source
            summaries.add(content_hash(text))
            continue
        parsed = parse_block(block)
        if isinstance(parsed, ParseError):
            rejected.add((block.source, block.line, content_hash(block.text)))
            continue
        result = referee(parsed)
        if result.valid and result.facts is not None:
            key = (parsed.header.site, parsed.hand_id)
            valid.add(key)
            if first.setdefault(key, content_hash(block.text)) != content_hash(block.text):
                conflicts.add(content_hash(block.text))
        else:
            rejected.add((block.source, block.line, content_hash(block.text)))
    con = _con(warehouse)
    assert con.execute("SELECT count(*), count(DISTINCT (site, hand_id)) FROM hands").fetchone() == (
        len(valid),
        len(valid),
    )
    assert {tuple(r) for r in con.execute("SELECT site, hand_id FROM hands").fetchall()} == valid
    assert con.execute("SELECT count(*) FROM rejects WHERE code <> 'conflict'").fetchone() == (len(rejected),)
    assert {
        r[0] for r in con.execute("SELECT content_hash FROM rejects WHERE code = 'conflict'").fetchall()
    } == conflicts
    assert len(valid) > 100
    # every reject says why, and keeps the whole text
    assert con.execute(
        "SELECT count(*) FROM rejects WHERE code = '' OR message = '' OR raw_text = '' OR len(errors) = 0"
    ).fetchone() == (0,)
    codes = {r[0] for r in con.execute("SELECT DISTINCT code FROM rejects").fetchall()}
    assert {"unsupported-game", "truncated-hand", "wrong-board-size"} <= codes and "summary-file" not in codes
    stored = {r[0] for r in con.execute("SELECT DISTINCT content_hash FROM tournament_summaries").fetchall()}
    assert stored == summaries and len(summaries) == 4  # FPDB's LF copies are the same summaries: stored once


def test_spot_values_against_the_text(warehouse: Path) -> None:
    """courchevel/stars-cash-pl-0.10-0.25-2013-showdown.txt: Total pot $15.57 | Rake $0.70;
    Player1 collected $14.87 having put in 0.75 + 1.55 + 5.11; Hero lost 0.25+0.50+1.55+5.11."""
    con = _con(warehouse)
    hand = con.execute(
        "SELECT unit, total_pot, rake, total_pot_dec, small_blind, big_blind, exposed_card, board, n_players,"
        " start_utc::VARCHAR FROM hands WHERE hand_id = '96353118546'"
    ).fetchone()
    assert hand is not None
    assert hand[:7] == ("USD", 1557, 70, Decimal("15.57"), 10, 25, "2s")  # exact, not a float
    assert hand[7] == ["2s", "3h", "4h", "5c", "Qs"]
    nets = dict(con.execute("SELECT player, net FROM hand_players WHERE hand_id = '96353118546'").fetchall())
    assert nets == {"Player0": 0, "Player1": 1487 - 75 - 155 - 511, "Player2": -75, "Hero": -741}
    actions = con.execute(
        "SELECT player, action, amount, to_amount FROM actions WHERE hand_id = '96353118546' ORDER BY seq"
    ).fetchall()
    assert ("Player1", "raise", 75, 75) in actions and ("Hero", "bet", 511, 511) in actions
    shown = con.execute(
        "SELECT player, cards FROM showdowns WHERE hand_id = '96353118546' ORDER BY player"
    ).fetchall()
    assert shown == [("Hero", ["Jh", "7h", "Jd", "5s", "Kc"]), ("Player1", ["6c", "Kh", "9s", "2d", "5h"])]
    (award,) = con.execute(
        "SELECT half, amount, winners, amounts FROM awards WHERE hand_id = '96353118546'"
    ).fetchall()
    assert award == ("whole", 1487, ["Player1"], [1487])


def test_fpdb_copies_are_duplicates_and_the_renamed_sample_a_conflict(warehouse: Path) -> None:
    con = _con(warehouse)
    dup = con.execute("SELECT sum(hands_duplicate), sum(hands_conflicting) FROM imports").fetchone()
    assert dup is not None and dup[0] > 0
    conflicts = con.execute("SELECT path, conflicts FROM imports WHERE hands_conflicting > 0").fetchall()
    # the doctored copy of a hand id (§14.4), and HHSmithy's rounded ids (124680000000 and 132630000000
    # each name two different hands; corpus SOURCES.md "Added later"): the first file read keeps the id
    assert sorted(Path(p).name for p, _ in conflicts) == [
        "hhsmithy-cash-pl-0.50-1-2014-rosalind-uncalled.txt",
        "hhsmithy-cash-run-it-twice-124680000000.txt",
        "hhsmithy-cash-zoom-132630000000.txt",
    ]


def test_corpus_reimport_is_a_noop(corpus_dir: Path, warehouse: Path) -> None:
    before = read_views(warehouse)
    again = import_paths([corpus_dir], warehouse, jobs=1)
    assert (again.stats.read, again.stats.batches, again.exit_code) == (0, 0, 0)
    assert read_views(warehouse) == before


def test_rake_per_pot_and_mucked_hands_reach_the_tables(warehouse: Path) -> None:
    """omaha/stars-cash-pl-0.01-0.02-2010-sidepots.txt 22865231671: Main pot $2.35. Side pot-1 $0.88.
    Side pot-2 $0.29. | Rake $0.18 (gross 2.47/0.93/0.30); hhsmithy 184977000000: "Seat 2: MuckPlayer
    (big blind) mucked [7s Ks Kh Qc]"."""
    con = _con(warehouse)
    pots = con.execute("SELECT amount, rake FROM pots WHERE hand_id = '22865231671' ORDER BY pot").fetchall()
    assert pots == [(247, 12), (93, 5), (30, 1)]
    cards = con.execute(
        "SELECT hole_cards FROM hand_players WHERE hand_id = '184977000000' AND player = 'MuckPlayer'"
    ).fetchone()
    assert cards == (["7s", "Ks", "Kh", "Qc"],)
    shown = con.execute(
        "SELECT player, mucked, high FROM showdowns WHERE hand_id = '184977000000' ORDER BY player"
    ).fetchall()
    assert shown == [
        ("HERO", False, "four of a kind, Nines"),
        ("MuckPlayer", True, "a full house, Nines full of Kings"),
    ]
