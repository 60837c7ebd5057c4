"""Every game hhparse reads, as data: one record per variant, one per betting structure.

Why a table: a game is a handful of facts (how many hole cards, whether the first flop card is
dealt face up, how the board grows, whether the pot is split with an 8-or-better low), and every
part of the pipeline asks the same facts — the parser (which header words name a game), the
referee (cards dealt, board sizes, the fixed-limit cap), the evaluator's callers, the synthetic
generator and the CLI (which games exist). Written once here, each of them derives what it needs,
so adding a game is one :class:`Variant` record (plus any line the game prints that no other game
does). The idea is pokerkit's, whose games are compositions of a deck, hand types, a betting
structure and per-street dealing records; and sqlglot's, whose dialects are one settings record
each, looked up by name, that the tokenizer, parser and generator read instead of branching on
the dialect.

A game as played is a :class:`Variant` composed with a :class:`Betting` record:
:class:`hhparse.rules.spec.GameSpec` (``Courchevel Hi/Lo`` + ``Pot Limit``). Every variant is of
the Omaha family — a hand is exactly two hole cards and exactly three board cards, the rule
:mod:`hhparse.rules.evaluate` implements — so that rule is not a field.
"""

from __future__ import annotations

from dataclasses import dataclass

from hhparse.model import Game, Structure

__all__ = ["BETTINGS", "VARIANTS", "Betting", "Variant"]


@dataclass(frozen=True, slots=True)
class Variant:
    """The facts of one game, whatever its betting structure.

    ``label`` is the game's words in a PokerStars header before the structure
    (``Courchevel Hi/Lo`` in ``Courchevel Hi/Lo Pot Limit``); ``slug`` names the variant on the
    command line (``hhparse synth --game``); ``game`` is the family written to the warehouse's
    ``hands.game`` (the variant without its low half: ``hands.hilo`` says that).
    ``board_sizes`` are the board's cards once the flop, the turn and the river are dealt.
    ``low`` is the low qualifier (8: eight or better), None for a high-only game.
    ``years`` are years of real hands of the game and ``max_players`` the largest table it is
    dealt at; the synthetic generator dates and seats its tables by them.
    """

    slug: str
    label: str
    game: Game
    hole_cards: int
    exposed_card: bool
    low: int | None
    years: tuple[int, ...]
    board_sizes: tuple[int, int, int] = (3, 4, 5)
    max_players: int = 9

    @property
    def hilo(self) -> bool:
        """True for a split pot game (high half, 8-or-better low half)."""
        return self.low is not None


@dataclass(frozen=True, slots=True)
class Betting:
    """A betting structure: its header words and, in fixed limit, the cap on bets per round."""

    structure: Structure
    label: str
    max_bets_per_round: int | None = None


_COURCHEVEL_YEARS = (2013, 2014, 2015, 2017, 2018, 2019)
_FIVE_CARD_YEARS = (2013, 2014, 2016, 2019, 2025)
_OMAHA_YEARS = (2009, 2010, 2011, 2013, 2014, 2018, 2025)

VARIANTS: tuple[Variant, ...] = (
    Variant("courchevel-hilo", "Courchevel Hi/Lo", Game("courchevel"), 5, True, 8, _COURCHEVEL_YEARS),
    Variant("courchevel", "Courchevel", Game("courchevel"), 5, True, None, _COURCHEVEL_YEARS),
    Variant("5-card-omaha-hilo", "5 Card Omaha Hi/Lo", Game("5-card-omaha"), 5, False, 8, _FIVE_CARD_YEARS),
    Variant("5-card-omaha", "5 Card Omaha", Game("5-card-omaha"), 5, False, None, _FIVE_CARD_YEARS),
    Variant("omaha-hilo", "Omaha Hi/Lo", Game("omaha"), 4, False, 8, _OMAHA_YEARS),
    Variant("omaha", "Omaha", Game("omaha"), 4, False, None, _OMAHA_YEARS),
    Variant(
        "6-card-omaha",
        "6 Card Omaha",
        Game("6-card-omaha"),
        6,
        False,
        None,
        (2020, 2021, 2022),
        max_players=6,
    ),
)
"""Every variant, the synthetic generator's order (its ``mixed`` game cycles through them)."""

BETTINGS: tuple[Betting, ...] = (
    Betting(Structure.FIXED_LIMIT, "Limit", 4),  # printed "Limit"; bet, raise, re-raise, cap
    Betting(Structure.POT_LIMIT, "Pot Limit"),
    Betting(Structure.NO_LIMIT, "No Limit"),
)
"""Every betting structure PokerStars deals these games in."""
