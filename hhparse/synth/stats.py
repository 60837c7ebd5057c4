"""Coverage counting: proof that a run exercised the situations the parser and referee must handle.

Each simulated hand carries tags (``side-pots``, ``quartered``, ``run-twice``, ``ends-turn`` ...);
the counter records in how many hands each tag appeared, so ``--stats`` can show at a glance that
a run covered every street, split and table event the tests rely on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["REQUIRED", "Coverage"]

REQUIRED = (
    "side-pots",
    "multiple-side-pots",
    "showdown",
    "no-low",
    "low-qualified",
    "quartered",
    "split-high",
    "odd-chip",
    "scoop",
    "run-twice",
    "uncalled",
    "ends-preflop",
    "ends-flop",
    "ends-turn",
    "ends-river",
    "ends-showdown",
    "muck",
    "doesnt-show",
    "chat",
    "join",
    "leave",
    "sitting-out",
    "timed-out",
    "rake",
    "bounty",
    "finished",
    "tournament-won",
    "capped",
    "short-all-in-raise",
    "extra-big-blind",
)
"""Tags a large mixed run is expected to hit (the coverage test checks them)."""


@dataclass(slots=True)
class Coverage:
    """Hands per tag, plus totals by game label and kind."""

    hands: int = 0
    tags: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)

    def add(self, tags: tuple[str, ...], game_label: str, tournament: bool) -> None:
        """Count one hand (each tag once per hand, however often it occurred in it)."""
        self.hands += 1
        self.tags.update(set(tags))
        self.games[f"{'tournament' if tournament else 'cash'} {game_label}"] += 1

    def missing(self) -> list[str]:
        """Required tags this run never produced."""
        return [t for t in REQUIRED if not self.tags[t]]

    def format(self) -> str:
        """A small fixed-width table for the terminal."""
        lines = [f"hands: {self.hands}"]
        lines += [f"  {k:<40} {v:>8}" for k, v in sorted(self.games.items())]
        lines.append("coverage (hands with):")
        lines += [f"  {k:<40} {self.tags[k]:>8}" for k in sorted(self.tags)]
        missing = self.missing()
        if missing:
            lines.append("never produced: " + ", ".join(missing))
        return "\n".join(lines)
