"""What each supported game *is*: a small, frozen description the referee and evaluator read.

The referee must never branch on printed header text; it asks a :class:`GameSpec` instead. Keeping
the facts of a variant (hole-card count, the Courchevel exposed card, hi/lo, the fixed-limit cap)
in one immutable table means a new variant is one constant, not a hunt through ``if`` chains.

The six games x three structures are spelled out as module constants (``COURCHEVEL_HILO_PL`` ...)
so code and tests can name them; :data:`SPECS` indexes the same objects by the label PokerStars
prints in the header (``"Courchevel Hi/Lo Pot Limit"``), and :func:`spec_for` by the parsed enums.
"""

from __future__ import annotations

from dataclasses import dataclass

from hhparse.model import Game, Structure

__all__ = [
    "COURCHEVEL_FL",
    "COURCHEVEL_HILO_FL",
    "COURCHEVEL_HILO_NL",
    "COURCHEVEL_HILO_PL",
    "COURCHEVEL_NL",
    "COURCHEVEL_PL",
    "FIVE_CARD_OMAHA_FL",
    "FIVE_CARD_OMAHA_HILO_FL",
    "FIVE_CARD_OMAHA_HILO_NL",
    "FIVE_CARD_OMAHA_HILO_PL",
    "FIVE_CARD_OMAHA_NL",
    "FIVE_CARD_OMAHA_PL",
    "FIXED_LIMIT_MAX_BETS",
    "OMAHA_FL",
    "OMAHA_HILO_FL",
    "OMAHA_HILO_NL",
    "OMAHA_HILO_PL",
    "OMAHA_NL",
    "OMAHA_PL",
    "SPECS",
    "GameSpec",
    "spec_for",
]

FIXED_LIMIT_MAX_BETS = 4
"""Bet, raise, re-raise, cap: the room's limit on bets per round in fixed limit."""

_GAME_LABEL: dict[Game, str] = {
    Game.COURCHEVEL: "Courchevel",
    Game.FIVE_CARD_OMAHA: "5 Card Omaha",
    Game.OMAHA: "Omaha",
}
_STRUCTURE_LABEL: dict[Structure, str] = {
    Structure.FIXED_LIMIT: "Limit",  # PokerStars prints fixed limit as plain "Limit"
    Structure.POT_LIMIT: "Pot Limit",
    Structure.NO_LIMIT: "No Limit",
}


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The rules-relevant facts of one game in one betting structure.

    ``hole_cards_used``/``board_cards_used`` are the Omaha-family "exactly two plus exactly three"
    rule; they are fields (not literals in the evaluator) so a reader of a spec sees the whole rule.
    ``max_bets_per_round`` is ``None`` when the structure has no cap (pot and no limit).
    """

    name: str
    game: Game
    hole_cards: int
    exposed_card: bool
    hilo: bool
    structure: Structure
    hole_cards_used: int = 2
    board_cards_used: int = 3
    max_bets_per_round: int | None = None

    @property
    def fixed_limit(self) -> bool:
        """True for fixed limit, where bet sizes are fixed and rounds are capped."""
        return self.structure is Structure.FIXED_LIMIT


def _label(game: Game, hilo: bool, structure: Structure) -> str:
    """The header label PokerStars prints, e.g. ``Courchevel Hi/Lo Pot Limit``."""
    return f"{_GAME_LABEL[game]}{' Hi/Lo' if hilo else ''} {_STRUCTURE_LABEL[structure]}"


def _make(game: Game, hilo: bool, structure: Structure) -> GameSpec:
    """Derive every field from the three axes so the constants cannot drift from each other."""
    return GameSpec(
        name=_label(game, hilo, structure),
        game=game,
        hole_cards=4 if game is Game.OMAHA else 5,
        exposed_card=game is Game.COURCHEVEL,
        hilo=hilo,
        structure=structure,
        max_bets_per_round=FIXED_LIMIT_MAX_BETS if structure is Structure.FIXED_LIMIT else None,
    )


_FL, _PL, _NL = Structure.FIXED_LIMIT, Structure.POT_LIMIT, Structure.NO_LIMIT

COURCHEVEL_HILO_FL = _make(Game.COURCHEVEL, True, _FL)
COURCHEVEL_HILO_PL = _make(Game.COURCHEVEL, True, _PL)
COURCHEVEL_HILO_NL = _make(Game.COURCHEVEL, True, _NL)
COURCHEVEL_FL = _make(Game.COURCHEVEL, False, _FL)
COURCHEVEL_PL = _make(Game.COURCHEVEL, False, _PL)
COURCHEVEL_NL = _make(Game.COURCHEVEL, False, _NL)
FIVE_CARD_OMAHA_HILO_FL = _make(Game.FIVE_CARD_OMAHA, True, _FL)
FIVE_CARD_OMAHA_HILO_PL = _make(Game.FIVE_CARD_OMAHA, True, _PL)
FIVE_CARD_OMAHA_HILO_NL = _make(Game.FIVE_CARD_OMAHA, True, _NL)
FIVE_CARD_OMAHA_FL = _make(Game.FIVE_CARD_OMAHA, False, _FL)
FIVE_CARD_OMAHA_PL = _make(Game.FIVE_CARD_OMAHA, False, _PL)
FIVE_CARD_OMAHA_NL = _make(Game.FIVE_CARD_OMAHA, False, _NL)
OMAHA_HILO_FL = _make(Game.OMAHA, True, _FL)
OMAHA_HILO_PL = _make(Game.OMAHA, True, _PL)
OMAHA_HILO_NL = _make(Game.OMAHA, True, _NL)
OMAHA_FL = _make(Game.OMAHA, False, _FL)
OMAHA_PL = _make(Game.OMAHA, False, _PL)
OMAHA_NL = _make(Game.OMAHA, False, _NL)

_ALL: tuple[GameSpec, ...] = (
    COURCHEVEL_HILO_FL,
    COURCHEVEL_HILO_PL,
    COURCHEVEL_HILO_NL,
    COURCHEVEL_FL,
    COURCHEVEL_PL,
    COURCHEVEL_NL,
    FIVE_CARD_OMAHA_HILO_FL,
    FIVE_CARD_OMAHA_HILO_PL,
    FIVE_CARD_OMAHA_HILO_NL,
    FIVE_CARD_OMAHA_FL,
    FIVE_CARD_OMAHA_PL,
    FIVE_CARD_OMAHA_NL,
    OMAHA_HILO_FL,
    OMAHA_HILO_PL,
    OMAHA_HILO_NL,
    OMAHA_FL,
    OMAHA_PL,
    OMAHA_NL,
)

SPECS: dict[str, GameSpec] = {s.name: s for s in _ALL}
"""Every spec, keyed by its PokerStars header label (``"Omaha Hi/Lo Limit"``, ...)."""

_BY_AXES: dict[tuple[Game, bool, Structure], GameSpec] = {(s.game, s.hilo, s.structure): s for s in _ALL}


def spec_for(game: Game, hilo: bool, structure: Structure) -> GameSpec:
    """The spec for a parsed header's ``(game, hilo, structure)``; every combination exists."""
    try:
        return _BY_AXES[(Game(game), bool(hilo), Structure(structure))]
    except (KeyError, ValueError) as exc:  # pragma: no cover - enums make this unreachable
        raise ValueError(f"no game spec for {game!r}, hilo={hilo!r}, {structure!r}") from exc
