"""hhparse: parse, referee and analyse PokerStars Courchevel Hi/Lo hand histories.

The public API::

    parse_file(path), parse_path(path), parse_text(text)   -> Hand | ParseError, one per hand
    referee(hand)                                           -> RefereeResult (valid, errors, facts)
    render(hand)                                            -> the hand as PokerStars text
    warehouse(path)                                         -> DuckDB connection with the views
    report(name, warehouse, player=..., by=...)             -> pandas DataFrame
    REPORTS                                                 -> every report and its columns

The functions are pure-Python wrappers (:mod:`hhparse.api`) that keep their signatures and
documentation in the compiled build and import their implementation on first use, so that
``import hhparse`` stays cheap (worker processes of a bulk import import only what they use) and
the layering rule holds: importing the engine never drags in the grammar. The record classes are
imported on first access. Every name below means one thing for the life of the process: the
package never lets a submodule (``hhparse.render``, the module) replace the function of the same
name when it is imported.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from hhparse.api import parse_file, parse_path, parse_text, referee, render, report, warehouse
from hhparse.lazy import lazy_exports

__version__ = "0.1.0"

_CLASSES: dict[str, str] = {
    "Hand": "hhparse.model",
    "ParseError": "hhparse.errors",
    "Violation": "hhparse.errors",
    "RefereeResult": "hhparse.facts",
    "REPORTS": "hhparse.reports.catalog",
}

if TYPE_CHECKING:
    from hhparse.errors import ParseError, Violation
    from hhparse.facts import RefereeResult
    from hhparse.model import Hand
    from hhparse.reports.catalog import REPORTS

__all__ = [
    "REPORTS",
    "Hand",
    "ParseError",
    "RefereeResult",
    "Violation",
    "__version__",
    "parse_file",
    "parse_path",
    "parse_text",
    "referee",
    "render",
    "report",
    "warehouse",
]

_FUNCTIONS = frozenset({"parse_file", "parse_path", "parse_text", "referee", "render", "report", "warehouse"})


__getattr__ = lazy_exports("hhparse", _CLASSES, globals())


def __dir__() -> list[str]:
    return sorted(__all__)


class _Package(types.ModuleType):
    """The ``hhparse`` module: importing a submodule binds it as an attribute of its package, so
    the first ``import hhparse.render`` (``repr`` of a hand does it, so does the synthesiser)
    would turn ``hhparse.render`` from the function into the module. The functions keep their
    names; the submodules stay reachable as ``sys.modules["hhparse.render"]`` and through
    ``from hhparse.render import ...``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
