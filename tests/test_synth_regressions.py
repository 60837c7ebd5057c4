"""Regression tests for bugs found in the generator."""

from __future__ import annotations

import io

from hhparse.synth import SynthConfig, write
from hhparse.synth.session import HandIds


def test_hand_ids_are_unique_across_sessions_of_a_run() -> None:
    """Bug: every session drew a random starting id, and a 1,000,000-hand run had 6 duplicate ids."""
    buf = io.StringIO()
    write(SynthConfig(hands=3000, seed=4), stream=buf)
    ids = [line.split("#", 1)[1].split(":", 1)[0] for line in buf.getvalue().splitlines()
           if line.startswith("PokerStars") and " #" in line]
    assert len(ids) == 3000
    assert len(set(ids)) == len(ids)


def test_hand_id_slots_never_overlap() -> None:
    ids = HandIds(seed=7)
    drawn = [ids.next() for _ in range(10_000)]
    assert drawn == sorted(drawn) and len(set(drawn)) == len(drawn)
    other = HandIds(seed=8)
    assert not set(drawn) & {other.next() for _ in range(10_000)}
