"""Bad input gives a located error for the bad hand only; the hands around it still parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from hhparse.errors import ParseError
from hhparse.model import Hand
from hhparse.parsing import parse_file, parse_text

GOOD = """PokerStars Hand #1:  Courchevel Pot Limit ($0.10/$0.25 USD) - 2013/03/29 17:16:11 ET
Table 'Pollux IV' 6-max Seat #1 is the button
Seat 1: Hero ($25 in chips)
Seat 2: wo_ooly :D ($10 in chips)
wo_ooly :D: posts small blind $0.10
Hero: posts big blind $0.25
*** HOLE CARDS ***
Dealt to Hero [Jh 7h Jd 5s Kc]
*** PRE-FLOP *** [2s]
wo_ooly :D: raises $0.50 to $0.75
Hero: folds
Uncalled bet ($0.50) returned to wo_ooly :D
wo_ooly :D collected $0.50 from pot
wo_ooly :D: doesn't show hand
*** SUMMARY ***
Total pot $0.50 | Rake $0
Seat 1: Hero (big blind) folded before Flop
Seat 2: wo_ooly :D (small blind) collected ($0.50)
"""


def _three(middle: str) -> str:
    return GOOD + "\n\n" + middle + "\n\n" + GOOD.replace("#1:", "#3:")


def test_good_hand_with_colon_name() -> None:
    (h,) = parse_text(GOOD)
    assert isinstance(h, Hand)
    assert h.events[5].player == "wo_ooly :D"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("middle", "rel_line", "message"),
    [
        (GOOD.replace("#1:", "#2:").replace("Hero: folds\n", "Hero: fnords\n"), 11, "unrecognised line"),
        (GOOD.replace("#1:", "#2:") + "Hero: folds\n", 19, "unexpected line after the summary"),
        (
            GOOD.replace("#1:", "#2:").replace("Hero: folds\n", "Bob: folds\n"),
            11,
            "player 'Bob' has no seat line",
        ),
    ],
)
def test_bad_hand_between_good_ones(middle: str, rel_line: int | None, message: str) -> None:
    results = list(parse_text(_three(middle), source="x.txt"))
    assert [type(r) for r in results] == [Hand, ParseError, Hand]
    err = results[1]
    assert isinstance(err, ParseError)
    assert err.code == "syntax" and err.hand_id == "2" and err.source == "x.txt"
    assert err.message == message
    start = GOOD.count("\n") + 3
    assert err.block_line == start
    if rel_line is not None:
        assert err.line == start + rel_line - 1
        assert err.text == middle.split("\n")[rel_line - 1]
    assert isinstance(results[2], Hand) and results[2].hand_id == "3"


@pytest.mark.parametrize(
    ("cut_after", "last_line"),
    [
        ("Uncalled bet ($0.50) returned to wo_ooly :D\n", 12),  # stops between lines
        ("*** PRE-FLOP *** [2s]\nwo_ooly :D: rai", 10),  # stops inside a line
        ("Table 'Pollux", 2),  # stops inside the table line
    ],
)
def test_truncated_hand_has_its_own_code(cut_after: str, last_line: int) -> None:
    """A hand cut before its summary (a file cut short, a hand still being written) is
    ``truncated-hand`` at its last line, whatever that line looks like; the hands around it parse."""
    full = GOOD.replace("#1:", "#2:")
    middle = full[: full.index(cut_after) + len(cut_after)]
    results = list(parse_text(_three(middle), source="x.txt"))
    assert [type(r) for r in results] == [Hand, ParseError, Hand]
    err = results[1]
    assert isinstance(err, ParseError)
    assert (err.code, err.hand_id) == ("truncated-hand", "2")
    assert err.message == "truncated hand: the text stops here, before *** SUMMARY ***"
    start = GOOD.count("\n") + 3
    assert err.line == start + last_line - 1
    assert err.text == middle.rstrip("\n").split("\n")[-1]


def test_glued_hands_without_blank_lines() -> None:
    results = list(parse_text(GOOD + GOOD.replace("#1:", "#2:")))
    assert [r.hand_id for r in results if isinstance(r, Hand)] == ["1", "2"]
    assert results[1].line == GOOD.count("\n") + 1


def test_empty_binary_and_cp1252_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert list(parse_file(empty)) == []
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\x89PNG\x00\x00\x01")
    (err,) = parse_file(binary)
    assert isinstance(err, ParseError) and err.code == "binary-file"
    cp = tmp_path / "cp.txt"
    cp.write_bytes(GOOD.replace("Hero", "Raúl").encode("cp1252") + b"\r\n" + b"garbage\xfa line\r\n")
    results = list(parse_file(cp))
    # after the hand's empty line, the garbage is a block of its own: the hand before stays whole
    assert isinstance(results[0], Hand) and results[0].seats[0].player == "Raúl"
    assert isinstance(results[1], ParseError) and results[1].line == 20
    assert "garbage\u00fa line" in results[1].block


def test_cp1252_hand_decodes(tmp_path: Path) -> None:
    cp = tmp_path / "cp.txt"
    cp.write_bytes(GOOD.replace("Hero", "P0CK€TF@CE$").encode("cp1252"))
    (h,) = parse_file(cp)
    assert isinstance(h, Hand) and h.seats[0].player == "P0CK€TF@CE$"


def test_unsupported_and_summary() -> None:
    holdem = GOOD.replace("Courchevel Pot Limit", "Hold'em No Limit")
    (err,) = parse_text(holdem)
    assert isinstance(err, ParseError) and err.code == "unsupported-game" and err.game == "Hold'em No Limit"
    (s,) = parse_text(
        "PokerStars Tournament #447493868, No Limit Omaha Hi/Lo\nBuy-In: $1.08/$0.27/$0.15 USD\n"
    )
    assert isinstance(s, ParseError) and s.code == "summary-file"
