"""What each supported game *is* as played: a variant composed with a betting structure.

The referee must never branch on printed header text; it asks a :class:`GameSpec` instead. Every
spec is derived from the table of games (:mod:`hhparse.rules.variants`): one per variant and
betting structure, indexed by the label PokerStars prints in the header (:data:`SPECS`:
``"Courchevel Hi/Lo Pot Limit"``) and by the parsed header's ``(game, hilo, structure)``
(:func:`spec_for`). A new game is a new :class:`~hhparse.rules.variants.Variant`; nothing here
names one.
"""

from __future__ import annotations

from dataclasses import dataclass

from hhparse.model import Game, Structure
from hhparse.rules.variants import BETTINGS, VARIANTS, Betting, Variant

__all__ = ["BY_SLUG", "LABELS", "SPECS", "GameSpec", "spec_for", "variant_for"]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One variant in one betting structure; every field is the variant's or the structure's."""

    variant: Variant
    betting: Betting

    @property
    def name(self) -> str:
        """The header label PokerStars prints, e.g. ``Courchevel Hi/Lo Pot Limit``."""
        return f"{self.variant.label} {self.betting.label}"

    @property
    def game(self) -> Game:
        return self.variant.game

    @property
    def hilo(self) -> bool:
        return self.variant.low is not None

    @property
    def hole_cards(self) -> int:
        return self.variant.hole_cards

    @property
    def exposed_card(self) -> bool:
        """The first flop card is dealt face up before the pre-flop betting (Courchevel)."""
        return self.variant.exposed_card

    @property
    def board_sizes(self) -> tuple[int, int, int]:
        """The board's cards after the flop, the turn and the river."""
        return self.variant.board_sizes

    @property
    def structure(self) -> Structure:
        return self.betting.structure

    @property
    def fixed_limit(self) -> bool:
        """True for fixed limit, where bet sizes are fixed and rounds are capped."""
        return self.betting.structure is Structure.FIXED_LIMIT

    @property
    def max_bets_per_round(self) -> int | None:
        """The fixed-limit cap (bet, raise, re-raise, cap); None when the structure has none."""
        return self.betting.max_bets_per_round


_ALL: tuple[GameSpec, ...] = tuple(GameSpec(v, b) for v in VARIANTS for b in BETTINGS)

SPECS: dict[str, GameSpec] = {s.name: s for s in _ALL}
"""Every spec, keyed by its PokerStars header label (``"Omaha Hi/Lo Limit"``, ...)."""

LABELS: dict[str, Variant] = {v.label: v for v in VARIANTS}
"""Every variant by the game words of a header (``"Omaha Hi/Lo"``)."""

BY_SLUG: dict[str, Variant] = {v.slug: v for v in VARIANTS}
"""Every variant by its command-line name (``"omaha-hilo"``)."""

_BY_AXES: dict[tuple[str, bool, Structure], GameSpec] = {(s.game, s.hilo, s.structure): s for s in _ALL}


def spec_for(game: str, hilo: bool, structure: Structure) -> GameSpec:
    """The spec for a parsed header's ``(game, hilo, structure)``."""
    try:
        return _BY_AXES[(str(game), bool(hilo), Structure(structure))]
    except (KeyError, ValueError) as exc:
        raise ValueError(f"no game spec for {game!r}, hilo={hilo!r}, {structure!r}") from exc


def variant_for(game: str, hilo: bool) -> Variant:
    """The variant of a parsed header's ``(game, hilo)``."""
    return spec_for(game, hilo, Structure.POT_LIMIT).variant
