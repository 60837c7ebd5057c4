"""Synthetic PokerStars Courchevel Hi/Lo (and family) hand histories, deterministic by seed.

Why: tests, benchmarks and demos need large, varied, *valid* histories with known coverage
(side pots, quartered lows, run it twice, every street an end ...), which the small real corpus
cannot give. Hands are simulated at tables that play on (:mod:`hhparse.synth.session`), built as
typed :class:`~hhparse.model.Hand` objects (:mod:`hhparse.synth.handsim`), rendered by the one
renderer and streamed to disk (:mod:`hhparse.synth.output`).

Entry points: :func:`generate` (hands as objects, with their output file names and coverage
tags) and :func:`write` (text to a directory, a file or a stream, returning coverage counts).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from hhparse.synth.handsim import HandResult
from hhparse.synth.output import FileStyle, HandWriter
from hhparse.synth.session import (
    GAMES,
    STRUCTURES,
    HandIds,
    SessionInfo,
    cash_session,
    plan_sessions,
    tournament_session,
)
from hhparse.synth.stats import Coverage

__all__ = ["GAMES", "KINDS", "STRUCTURES", "Coverage", "SynthConfig", "generate", "write"]

KINDS = ("cash", "tournament")


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """What to generate. ``games``/``structures``/``kinds`` are cycled over, session by session."""

    hands: int
    seed: int = 0
    games: tuple[str, ...] = ("courchevel-hilo",)
    structures: tuple[str, ...] = ("PL",)
    kinds: tuple[str, ...] = ("cash",)
    players: tuple[int, int] = (2, 6)
    hero: str = "Hero"

    def __post_init__(self) -> None:
        for g in self.games:
            if g not in GAMES:
                raise ValueError(f"unknown game {g!r} (choose from {', '.join(GAMES)})")
        for s in self.structures:
            if s not in STRUCTURES:
                raise ValueError(f"unknown structure {s!r} (choose from PL, NL, FL)")
        for k in self.kinds:
            if k not in KINDS:
                raise ValueError(f"unknown kind {k!r} (choose from cash, tournament)")
        lo, hi = self.players
        if not 2 <= lo <= hi <= 9:
            raise ValueError(f"players must be within 2-9, got {lo}-{hi}")


def generate(config: SynthConfig) -> Iterator[tuple[SessionInfo, HandResult]]:
    """Yield ``config.hands`` simulated hands, session after session, lazily."""
    rng = random.Random(config.seed)
    ids = HandIds(config.seed)
    left = config.hands
    for plan in plan_sessions(
        rng, list(config.games), list(config.structures), list(config.kinds), config.players
    ):
        if left <= 0:
            return
        session = cash_session if plan.kind == "cash" else tournament_session
        run = session(plan, config.hero, ids)
        for item in run:
            yield item
            left -= 1
            if left <= 0:
                return


def write(
    config: SynthConfig,
    *,
    directory: Path | None = None,
    stream: IO[str] | None = None,
    style: FileStyle | None = None,
) -> Coverage:
    """Generate and write; returns the coverage counts of the run.

    ``directory``: one file per table and day named as the client names them; otherwise every
    hand goes to ``stream`` (LF, no BOM unless ``style`` says otherwise).
    """
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    writer = HandWriter(directory, stream, style)
    coverage = Coverage()
    try:
        for info, result in generate(config):
            writer.write(info.file_name, result.hand)
            h = result.hand.header
            coverage.add(result.tags, h.game_label, h.tournament is not None)
    finally:
        writer.close()
    return coverage
