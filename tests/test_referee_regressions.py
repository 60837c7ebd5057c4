"""One regression test per bug found after the referee first landed."""

from __future__ import annotations

from pathlib import Path

from hhparse.engine import referee
from hhparse.model import Hand
from hhparse.parsing import parse_file


def _hand(path: Path) -> Hand:
    (hand,) = [h for h in parse_file(path) if isinstance(h, Hand)]
    return hand


def test_cancelled_hand_returns_every_posted_chip(corpus_dir: Path) -> None:
    """Bug: the small blind of a cancelled hand was booked as lost (net -$0.05 with no pot, no rake)."""
    result = referee(_hand(corpus_dir / "omaha" / "stars-cash-pl-0.05-0.10-2009-hand-cancelled.txt"))
    assert result.valid, result.errors
    assert result.facts is not None
    (hero,) = result.facts.players
    assert hero.contributed[0] == 5
    assert hero.returned == 5
    assert hero.net == 0


def test_zero_share_of_a_one_cent_pot_needs_no_collect_line() -> None:
    """Bug: a $0.02 side pot run twice gives each board $0.01, whose low half is $0; the referee
    demanded a "collected $0" line for the low winner (found by a 1,000,000-hand synthetic import)."""
    path = Path(__file__).parent / "data" / "rit-one-cent-side-pot.txt"
    result = referee(_hand(path))
    assert result.valid, result.errors
    assert result.facts is not None
    nets = {p.player: p.net for p in result.facts.players}
    assert sum(nets.values()) == -6  # rake $0.06


def test_collected_zero_line_of_a_one_cent_tie_is_accepted() -> None:
    """Bug: a one-cent low half tied between two players was printed as "collected $0.01" plus
    "collected $0"; the referee called it halves-swapped. A $0 line moves no chip: accept it."""
    path = Path(__file__).parent / "data" / "one-cent-low-tie-collected-zero.txt"
    result = referee(_hand(path))
    assert result.valid, result.errors
