"""Report stats on crafted PokerStars Courchevel Hi/Lo text, through the real pipeline.

Six hands at a three-handed $0.10/$0.25 table, Hero always on the button:
* h1-h3: Hero raises to $0.75, both blinds fold: VPIP, PFR and a steal; Hero nets +$0.35
  (collects the $0.60 pot, of which $0.25 was Hero's after the $0.50 returned).
* h4-h6: everyone folds to the big blind: a walk for Villain2 (+$0.10), Hero folds without
  putting money in.
Hand by hand: Hero VPIP 3/6 = 50%, PFR 50%, steal 3/6 = 50% (first in on the button each time), net $1.05, bb/100 = 1.05 / 0.25 *
100 / 6 = 70; Villain2 has three walks, so VPIP is 0 of 3 (walks excluded).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

import hhparse
from hhparse.reports import data_tests

STEAL = """\
PokerStars Hand #{hid}:  Courchevel Hi/Lo Pot Limit ($0.10/$0.25 USD) - 2024/03/01 12:{mm:02d}:00 ET
Table 'Crafted I' 6-max Seat #1 is the button
Seat 1: Hero ($25 in chips)
Seat 2: Villain1 ($25 in chips)
Seat 3: Villain2 ($25 in chips)
Villain1: posts small blind $0.10
Villain2: posts big blind $0.25
*** HOLE CARDS ***
Dealt to Hero [{hole}]
*** PRE-FLOP *** [{door}]
Hero: raises $0.50 to $0.75
Villain1: folds
Villain2: folds
Uncalled bet ($0.50) returned to Hero
Hero collected $0.60 from pot
*** SUMMARY ***
Total pot $0.60 | Rake $0
Seat 1: Hero (button) collected ($0.60)
Seat 2: Villain1 (small blind) folded before Flop
Seat 3: Villain2 (big blind) folded before Flop
"""

WALK = """\
PokerStars Hand #{hid}:  Courchevel Hi/Lo Pot Limit ($0.10/$0.25 USD) - 2024/03/01 12:{mm:02d}:00 ET
Table 'Crafted I' 6-max Seat #1 is the button
Seat 1: Hero ($25 in chips)
Seat 2: Villain1 ($25 in chips)
Seat 3: Villain2 ($25 in chips)
Villain1: posts small blind $0.10
Villain2: posts big blind $0.25
*** HOLE CARDS ***
Dealt to Hero [{hole}]
*** PRE-FLOP *** [{door}]
Hero: folds
Villain1: folds
Uncalled bet ($0.15) returned to Villain2
Villain2 collected $0.20 from pot
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 1: Hero (button) folded before Flop (didn't bet)
Seat 2: Villain1 (small blind) folded before Flop
Seat 3: Villain2 (big blind) collected ($0.20)
"""

# (template, door card, Hero's hole cards): the door card pairs Hero's cards in h1 and h4 and
# suits them in h1 and h6.
HANDS = [
    (STEAL, "Ah", "As Kd 7c 2h 9s"),
    (STEAL, "Kc", "2d 3d 4d 5s 9h"),
    (STEAL, "8s", "Qh Jc Tc 3h 2c"),
    (WALK, "2c", "2s Qs Js 9d 7h"),
    (WALK, "5d", "Kh 4c 3s Th Jh"),
    (WALK, "Td", "Ac Ad 6c 6h 4s"),
]


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from hhparse.importer import import_paths

    root = tmp_path_factory.mktemp("crafted")
    text = "\n\n\n".join(
        t.format(hid=1_000_000_001 + i, mm=i * 2, door=door, hole=hole)
        for i, (t, door, hole) in enumerate(HANDS)
    )
    (root / "crafted.txt").write_text(text, encoding="utf-8")
    result = import_paths([root / "crafted.txt"], root / "wh", jobs=1)
    con = hhparse.warehouse(root / "wh")
    rejects = hhparse.report("rejects", con)
    assert rejects.empty, rejects.to_string()
    assert result.stats.new == 6
    return con


def test_summary_from_text(con) -> None:  # type: ignore[no-untyped-def]
    s = hhparse.report("summary", con).set_index("player")
    hero = s.loc["Hero"]
    assert (hero["hands"], hero["vpip"], hero["pfr"]) == (6, 50.0, 50.0)
    assert hero["net"] == Decimal("1.05")
    assert hero["bb_per_100"] == 70.0
    assert hero["steal"] == 50.0  # folded to on the button all six times, raised three
    assert s.loc["Villain2", "vpip"] == 0.0  # three walks excluded: 0 of 3
    assert s.loc["Villain2", "net"] == Decimal("-0.45")  # -0.25 x 3 + 0.10 x 3
    assert s.loc["Villain1", "net"] == Decimal("-0.60")


def test_door_card_from_text(con) -> None:  # type: ignore[no-untyped-def]
    d = hhparse.report("door-card", con, player="Hero")
    ace = d[(d["breakdown"] == "rank") & (d["value"] == "A")].iloc[0]
    assert (ace["hands"], ace["vpip"], ace["pfr"]) == (1, 100.0, 100.0)
    pairs = d[(d["breakdown"] == "pairs") & (d["value"] == "yes")].iloc[0]  # h1 (A) and h4 (2)
    assert (pairs["hands"], pairs["vpip"]) == (2, 50.0)
    suits = d[(d["breakdown"] == "suits") & (d["value"] == "yes")].iloc[0]  # h1 (2h) and h6 (Ad)
    assert (suits["hands"], suits["vpip"]) == (2, 50.0)


def test_data_tests_hold(con) -> None:  # type: ignore[no-untyped-def]
    assert {k: len(v) for k, v in data_tests(con).items() if len(v)} == {}


def test_hand_replay_from_text(con) -> None:  # type: ignore[no-untyped-def]
    text = "\n".join(hhparse.report("hand", con, hand_id="1000000001")["text"])
    assert "*** PRE-FLOP *** [Ah]" in text
    assert "Hero: raise to 0.75" in text and "pot 1.10, Hero has 24.25" in text
    assert "Hero: uncalled bet returned 0.50" in text and "pot 0.60, Hero has 24.75" in text
    assert "main pot, whole (0.60): Hero collects 0.60" in text
    assert "Hero: net +0.35 (stack 25.35)" in text


def test_every_report_runs_on_the_corpus(corpus_dir: Path, tmp_path: Path) -> None:
    """Courchevel files only: the plain-Omaha cancelled hand of the corpus currently books the
    posted blind as lost (net -0.05, rake 0), which net_sums_to_minus_rake reports (open issue)."""
    from hhparse.importer import import_paths

    import_paths([corpus_dir / "courchevel-hilo", corpus_dir / "courchevel"], tmp_path / "wh", jobs=1)
    con = hhparse.warehouse(tmp_path / "wh")
    hand_id = con.execute("SELECT min(hand_id) FROM hands").fetchall()[0][0]
    for name in hhparse.reports.REPORTS:
        hhparse.report(name, con, hand_id=hand_id)
    assert not hhparse.report("summary", con).empty
    failing = {k: v for k, v in data_tests(con).items() if len(v)}
    assert failing == {}, {k: v.to_dict("records") for k, v in failing.items()}
