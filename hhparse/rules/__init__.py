"""Game rules the referee enforces: game specs, card helpers and the hand evaluator.

Pot arithmetic lives in ``hhparse.rules.pots`` and is deliberately *not* imported here, so the
parser may use the specs without pulling in the referee's side (see ``tests/test_layering.py``).

The function ``evaluate`` is *not* re-exported: it would shadow the submodule
``hhparse.rules.evaluate`` (``import hhparse.rules.evaluate as ev`` would then bind the function).
Import it as ``from hhparse.rules.evaluate import evaluate``.
"""

from __future__ import annotations

from hhparse.rules.evaluate import HighHand, LowHand, best_high, best_low
from hhparse.rules.spec import SPECS, GameSpec, spec_for

__all__ = ["SPECS", "GameSpec", "HighHand", "LowHand", "best_high", "best_low", "spec_for"]
