"""What each supported game *is* as played: a variant composed with a betting structure.

The referee must never branch on printed header text; it asks a :class:`GameSpec` instead. Every
spec is derived from the table of games (:mod:`hhparse.rules.variants`): one per variant and
betting structure, indexed by the label PokerStars prints in the header (:data:`SPECS`:
``"Courchevel Hi/Lo Pot Limit"``) and by the parsed header's ``(game, hilo, structure)``
(:func:`spec_for`). A new game is a new :class:`~hhparse.rules.variants.Variant`; nothing here
names one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hhparse.model import Game, Structure
from hhparse.rules.variants import BETTINGS, VARIANTS, Betting, Variant

__all__ = ["BY_SLUG", "LABELS", "SPECS", "GameSpec", "spec_for", "variant_for"]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One variant in one betting structure. Every field after the first two is the variant's or
    the structure's, copied once when the spec is made (the referee reads them on every hand):
    not an argument, not part of the value."""

    variant: Variant
    betting: Betting
    name: str = field(init=False, repr=False, compare=False)
    """The header label PokerStars prints, e.g. ``Courchevel Hi/Lo Pot Limit``."""
    game: Game = field(init=False, repr=False, compare=False)
    hilo: bool = field(init=False, repr=False, compare=False)
    hole_cards: int = field(init=False, repr=False, compare=False)
    exposed_card: bool = field(init=False, repr=False, compare=False)
    """The first flop card is dealt face up before the pre-flop betting (Courchevel)."""
    board_sizes: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    """The board's cards after the flop, the turn and the river."""
    structure: Structure = field(init=False, repr=False, compare=False)
    fixed_limit: bool = field(init=False, repr=False, compare=False)
    """True for fixed limit, where bet sizes are fixed and rounds are capped."""
    max_bets_per_round: int | None = field(init=False, repr=False, compare=False)
    """The fixed-limit cap (bet, raise, re-raise, cap); None when the structure has none."""

    def __post_init__(self) -> None:
        v, b = self.variant, self.betting
        for name, value in (
            ("name", f"{v.label} {b.label}"),
            ("game", v.game),
            ("hilo", v.low is not None),
            ("hole_cards", v.hole_cards),
            ("exposed_card", v.exposed_card),
            ("board_sizes", v.board_sizes),
            ("structure", b.structure),
            ("fixed_limit", b.structure is Structure.FIXED_LIMIT),
            ("max_bets_per_round", b.max_bets_per_round),
        ):
            object.__setattr__(self, name, value)


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
