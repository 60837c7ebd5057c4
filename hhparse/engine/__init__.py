"""The referee: replay a parsed :class:`~hhparse.model.Hand`, prove every action and every chip.

``referee(hand)`` never raises on a bad hand: every broken rule becomes a
:class:`~hhparse.errors.Violation` (codes in :mod:`hhparse.engine.codes`) and the hand is never
repaired. The engine never reads text: it imports nothing from the parser, the grammar or lark.
"""

from __future__ import annotations

from hhparse.engine.codes import ALL_CODES, ERRORS, WARNINGS
from hhparse.engine.facts_builder import build_facts
from hhparse.engine.replay import Referee
from hhparse.engine.settle import Settler
from hhparse.facts import RefereeResult
from hhparse.model import Hand

__all__ = ["ALL_CODES", "ERRORS", "WARNINGS", "referee"]


def referee(hand: Hand) -> RefereeResult:
    """Replay ``hand`` and return the verdict (errors, warnings) and the facts it proved."""
    ref = Referee(hand)
    ref.run()
    view = ref.view()
    settlement = Settler(view).settle()
    facts = build_facts(view, settlement)
    errors = ref.errors + settlement.errors if settlement.errors else ref.errors
    warnings = ref.warnings + settlement.warnings if settlement.warnings else ref.warnings
    return RefereeResult(hand=hand, errors=tuple(errors), warnings=tuple(warnings), facts=facts)
