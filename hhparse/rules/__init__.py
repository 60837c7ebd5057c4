"""Game rules the referee enforces: game specs, card helpers and the hand evaluator.

Pot arithmetic lives in ``hhparse.rules.pots`` and is deliberately *not* imported here, so the
parser may use the specs without pulling in the referee's side (see ``tests/test_layering.py``).

The function ``evaluate`` is *not* re-exported: it would shadow the submodule
``hhparse.rules.evaluate`` (``import hhparse.rules.evaluate as ev`` would then bind the function).
Import it as ``from hhparse.rules.evaluate import evaluate``.

The names below are imported on first access, not with the package: importing a light submodule
(``hhparse.rules.variants``, the table of games the CLI's ``--help`` lists) then imports neither
the evaluator nor the model (issue 16, start-up; ``tests/test_startup.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hhparse.lazy import lazy_exports

if TYPE_CHECKING:
    from hhparse.rules.evaluate import HighHand, LowHand, best_high, best_low
    from hhparse.rules.spec import SPECS, GameSpec, spec_for

__all__ = ["SPECS", "GameSpec", "HighHand", "LowHand", "best_high", "best_low", "spec_for"]

_FROM = {
    "HighHand": "hhparse.rules.evaluate",
    "LowHand": "hhparse.rules.evaluate",
    "best_high": "hhparse.rules.evaluate",
    "best_low": "hhparse.rules.evaluate",
    "SPECS": "hhparse.rules.spec",
    "GameSpec": "hhparse.rules.spec",
    "spec_for": "hhparse.rules.spec",
}


__getattr__ = lazy_exports("hhparse.rules", _FROM, globals())


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
