"""Every named game spec says what its name says (the name is parsed, not trusted)."""

from __future__ import annotations

import re

import pytest

from hhparse.model import Game, Structure
from hhparse.rules import spec
from hhparse.rules.spec import SPECS, GameSpec, spec_for

_NAME = re.compile(r"^(COURCHEVEL|FIVE_CARD_OMAHA|OMAHA)(_HILO)?_(FL|PL|NL)$")
_GAMES = {"COURCHEVEL": Game.COURCHEVEL, "FIVE_CARD_OMAHA": Game.FIVE_CARD_OMAHA, "OMAHA": Game.OMAHA}
_NAMED = {n: v for n, v in vars(spec).items() if isinstance(v, GameSpec)}


def test_all_eighteen_specs_are_named() -> None:
    assert len(_NAMED) == 18
    assert all(_NAME.match(n) for n in _NAMED), sorted(_NAMED)
    assert set(SPECS.values()) == set(_NAMED.values())


@pytest.mark.parametrize("name", sorted(_NAMED))
def test_named_spec_matches_its_name(name: str) -> None:
    m = _NAME.match(name)
    assert m is not None
    game, hilo, structure = _GAMES[m.group(1)], m.group(2) is not None, Structure(m.group(3))
    s = _NAMED[name]
    assert (s.game, s.hilo, s.structure) == (game, hilo, structure)
    assert s.hole_cards == (4 if game is Game.OMAHA else 5)
    assert s.exposed_card is (game is Game.COURCHEVEL)
    assert (s.hole_cards_used, s.board_cards_used) == (2, 3)
    assert s.max_bets_per_round == (4 if structure is Structure.FIXED_LIMIT else None)
    assert spec_for(game, hilo, structure) is s
    assert SPECS[s.name] is s


def test_names_are_the_printed_header_labels() -> None:
    assert spec.COURCHEVEL_HILO_PL.name == "Courchevel Hi/Lo Pot Limit"
    assert spec.FIVE_CARD_OMAHA_NL.name == "5 Card Omaha No Limit"
    assert spec.OMAHA_HILO_FL.name == "Omaha Hi/Lo Limit"


def test_specs_are_frozen() -> None:
    with pytest.raises(AttributeError):
        spec.COURCHEVEL_HILO_PL.hole_cards = 4  # type: ignore[misc]
