"""hhparse: parse, referee and analyse PokerStars Courchevel Hi/Lo hand histories.

The public API is re-exported lazily so that ``import hhparse`` stays cheap (worker processes of a
bulk import import only what they use) and so that the layering rule holds: importing the engine
never drags in the grammar.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "parse_file": "hhparse.parsing",
    "parse_text": "hhparse.parsing",
    "parse_path": "hhparse.parsing",
    "render": "hhparse.render",
    "referee": "hhparse.engine",
    "warehouse": "hhparse.reports",
    "report": "hhparse.reports",
    "Hand": "hhparse.model",
    "ParseError": "hhparse.errors",
    "Violation": "hhparse.errors",
    "RefereeResult": "hhparse.facts",
}

if TYPE_CHECKING:
    from hhparse.engine import referee
    from hhparse.errors import ParseError, Violation
    from hhparse.facts import RefereeResult
    from hhparse.model import Hand
    from hhparse.parsing import parse_file, parse_path, parse_text
    from hhparse.render import render
    from hhparse.reports import report, warehouse

__all__ = [
    "Hand",
    "ParseError",
    "RefereeResult",
    "Violation",
    "parse_file",
    "parse_path",
    "parse_text",
    "referee",
    "render",
    "report",
    "warehouse",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hhparse' has no attribute {name!r}")
    return getattr(import_module(module), name)
