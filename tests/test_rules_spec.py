"""The table of games says what each game's printed name says (the name is parsed, not trusted),
and every part of the pipeline reads it: a spec per variant and structure, the parser's labels,
the synthetic generator's games, the check command's names."""

from __future__ import annotations

import re

import pytest

from hhparse.model import Structure
from hhparse.rules.spec import BY_SLUG, LABELS, SPECS, GameSpec, spec_for
from hhparse.rules.variants import BETTINGS, VARIANTS, Variant

_LABEL = re.compile(r"^(?:(?P<cards>\d) Card )?(?P<family>Omaha|Courchevel)(?P<hilo> Hi/Lo)?$")


def test_every_variant_is_dealt_in_every_structure() -> None:
    assert len(SPECS) == len(VARIANTS) * len(BETTINGS)
    assert {(s.variant, s.betting) for s in SPECS.values()} == {(v, b) for v in VARIANTS for b in BETTINGS}
    assert len(BY_SLUG) == len(LABELS) == len(VARIANTS)  # slugs and labels are unique


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.slug)
def test_variant_matches_its_printed_name(variant: Variant) -> None:
    m = _LABEL.match(variant.label)
    assert m is not None, variant.label
    family, hilo = m["family"], m["hilo"] is not None
    cards = int(m["cards"]) if m["cards"] else (5 if family == "Courchevel" else 4)
    assert variant.hole_cards == cards
    assert variant.exposed_card is (family == "Courchevel")
    assert variant.low == (8 if hilo else None) and variant.hilo is hilo
    assert variant.slug == variant.label.lower().replace(" hi/lo", "-hilo").replace(" ", "-")
    assert variant.game == variant.slug.removesuffix("-hilo")
    assert variant.board_sizes == (3, 4, 5)
    assert variant.hole_cards * variant.max_players + variant.board_sizes[-1] <= 52  # one deck deals a table
    assert variant.years == tuple(sorted(set(variant.years))) and variant.years


def test_structures_are_printed_as_pokerstars_does() -> None:
    assert {b.structure: b.label for b in BETTINGS} == {
        Structure.FIXED_LIMIT: "Limit",
        Structure.POT_LIMIT: "Pot Limit",
        Structure.NO_LIMIT: "No Limit",
    }
    assert {b.structure: b.max_bets_per_round for b in BETTINGS} == {
        Structure.FIXED_LIMIT: 4,
        Structure.POT_LIMIT: None,
        Structure.NO_LIMIT: None,
    }


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec_is_found_by_label_and_by_header_fields(name: str) -> None:
    s = SPECS[name]
    assert s.name == name == f"{s.variant.label} {s.betting.label}"
    assert spec_for(s.game, s.hilo, s.structure) is s
    assert s.fixed_limit is (s.structure is Structure.FIXED_LIMIT)
    assert (s.hole_cards, s.exposed_card, s.board_sizes) == (
        s.variant.hole_cards,
        s.variant.exposed_card,
        s.variant.board_sizes,
    )


def test_names_are_the_printed_header_labels() -> None:
    assert "Courchevel Hi/Lo Pot Limit" in SPECS
    assert SPECS["5 Card Omaha No Limit"].hole_cards == 5
    assert SPECS["Omaha Hi/Lo Limit"].max_bets_per_round == 4


def test_specs_are_frozen() -> None:
    s: GameSpec = SPECS["Courchevel Hi/Lo Pot Limit"]
    with pytest.raises(AttributeError):
        s.variant = VARIANTS[0]  # type: ignore[misc]
    with pytest.raises(AttributeError):
        s.variant.hole_cards = 4  # type: ignore[misc]


def test_unknown_header_fields_have_no_spec() -> None:
    with pytest.raises(ValueError):
        spec_for("stud", False, Structure.FIXED_LIMIT)
