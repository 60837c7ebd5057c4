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
