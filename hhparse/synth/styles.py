"""Player styles: the few numbers that make one simulated opponent play unlike another.

Reports (VPIP, PFR, aggression, went-to-showdown) are only worth testing if the generated players
differ in the ways those reports measure, so each style is a small set of probabilities the
decision code reads directly rather than a hidden strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STYLES", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    """How one player plays.

    ``vpip``: share of hands the player voluntarily enters pre-flop; ``pfr``: share they raise
    pre-flop (<= vpip); ``aggression``: chance to bet/raise when a post-flop option exists;
    ``stickiness``: willingness to continue when facing a post-flop bet; ``shove``: appetite for
    going all-in in no limit; ``chatty``: chance per hand of a chat line.
    """

    name: str
    vpip: float
    pfr: float
    aggression: float
    stickiness: float
    shove: float = 0.05
    chatty: float = 0.02


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("nit", vpip=0.12, pfr=0.08, aggression=0.30, stickiness=0.25, shove=0.02),
        Style("tight-passive", vpip=0.18, pfr=0.05, aggression=0.15, stickiness=0.45, shove=0.02),
        Style("tight-aggressive", vpip=0.22, pfr=0.17, aggression=0.55, stickiness=0.40, shove=0.06),
        Style("loose-passive", vpip=0.48, pfr=0.06, aggression=0.15, stickiness=0.70, shove=0.03),
        Style("loose-aggressive", vpip=0.40, pfr=0.28, aggression=0.65, stickiness=0.55, shove=0.12),
        Style("maniac", vpip=0.70, pfr=0.45, aggression=0.80, stickiness=0.75, shove=0.25, chatty=0.06),
    )
}
"""Presets by name; ``--hero-style``/sessions draw opponents from these."""
