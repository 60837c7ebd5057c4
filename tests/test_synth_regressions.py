"""Regression tests for bugs found in the generator."""

from __future__ import annotations

import io

from hhparse.synth import SynthConfig, write
from hhparse.synth.session import HandIds


def test_hand_ids_are_unique_across_sessions_of_a_run() -> None:
    """Bug: every session drew a random starting id, and a 1,000,000-hand run had 6 duplicate ids."""
    buf = io.StringIO()
    write(SynthConfig(hands=3000, seed=4), stream=buf)
    ids = [
        line.split("#", 1)[1].split(":", 1)[0]
        for line in buf.getvalue().splitlines()
        if line.startswith("PokerStars") and " #" in line
    ]
    assert len(ids) == 3000
    assert len(set(ids)) == len(ids)


def test_hand_id_slots_never_overlap() -> None:
    ids = HandIds(seed=7)
    drawn = [ids.next() for _ in range(10_000)]
    assert drawn == sorted(drawn) and len(set(drawn)) == len(drawn)
    other = HandIds(seed=8)
    assert not set(drawn) & {other.next() for _ in range(10_000)}


def test_a_tie_over_one_chip_prints_no_zero_collect_line() -> None:
    """Bug: two players tying for a one-cent half got "collected $0.01" and "collected $0" lines."""
    from types import SimpleNamespace

    from hhparse.model import Collect
    from hhparse.synth.handsim import _Sim

    emitted: list[Collect] = []
    lines = iter(range(100, 200))
    state = SimpleNamespace(next_line=lambda: next(lines), tags=[], collected={})
    sim = SimpleNamespace(s=state, clockwise=["VORON", "Hero", "Jorge"], won={}, emit=emitted.append)
    _Sim.award(sim, ["Hero", "VORON"], 1, 1, "side pot", 0)  # type: ignore[arg-type]
    assert [(c.player, c.amount) for c in emitted] == [("VORON", 1)]
    assert state.collected == {"VORON": 1}
