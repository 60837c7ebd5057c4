"""Every real corpus file: supported hands parse, others are classified, nothing crashes."""

from __future__ import annotations

from pathlib import Path

from conftest import corpus_hand_files

from hhparse.errors import PARSE_CODES, ParseError
from hhparse.model import Hand
from hhparse.parsing import parse_file

# (file name, hand id) -> code of hands known to be damaged or cut short in the source
# (pokerstars-format.md §14; corpus SOURCES.md "Added later")
DAMAGED = {
    ("stars-cash-pl-0.01-0.02-2025-anon5.txt", "258753941248"): "syntax",
    ("perl-cash-fl-5-10-2005-wrapped-line.txt", "0000000000"): "syntax",
    ("stars-cash-pl-2-4-2014-partial.txt", "112824228684"): "truncated-hand",
    ("stars-cash-pl-2-4-2014-partial.txt", "112824184047"): "truncated-hand",
    ("stars-cash-pl-200-400-2015-partial-observed.txt", "142624277978"): "truncated-hand",
    # 6 Card Omaha, "*** TURN *** [3c Jd 6d] []": a bad board
    ("stars-cash-pl-0.10-0.25-2022-empty-turncard-DAMAGED.txt", "238296909420"): "syntax",
}
TOLERANCE = ("converted", "synthetic")


def test_whole_corpus(corpus_dir: Path) -> None:
    parsed = 0
    for path in corpus_hand_files(corpus_dir):
        rel = path.relative_to(corpus_dir).as_posix()
        for r in parse_file(path):
            if isinstance(r, Hand):
                parsed += 1
                assert r.source == str(path)
                continue
            assert isinstance(r, ParseError)
            assert r.code in PARSE_CODES, r.format()  # every code is documented
            if r.code == "unsupported-game":
                assert r.game, r.format()
                assert "Omaha" not in r.game.replace("5-Card Omaha High", ""), r.format()
                continue
            if any(part in rel.split("/") for part in TOLERANCE):
                assert r.line >= 1 and r.text, r.format()
                continue
            assert DAMAGED.get((path.name, r.hand_id)) == r.code, r.format()
            assert r.line > r.block_line
    assert parsed >= 290


def test_summaries_are_summary_files(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "summaries").glob("*.txt"))
    assert files
    for path in files:
        results = list(parse_file(path))
        assert [r.code for r in results if isinstance(r, ParseError)] == ["summary-file"]


def test_mixed_games_are_unsupported(corpus_dir: Path) -> None:
    path = corpus_dir / "mixed" / "stars-tour-8game-homegame-2013-137hands.txt"
    results = list(parse_file(path))
    assert len(results) == 137
    games = {r.game for r in results if isinstance(r, ParseError)}
    assert "Razz Limit" in games and all(
        r.code == "unsupported-game" for r in results if isinstance(r, ParseError)
    )
    assert any(isinstance(r, Hand) and r.header.mixed == "8-Game" for r in results)
