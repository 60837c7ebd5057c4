"""Names a package re-exports but imports on first access (PEP 562), so importing the package
stays cheap: the CLI's ``--help`` and ``check`` import only what they use (issue 16, start-up)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The package's ``__getattr__``: a name of ``where`` is imported from its module on first
    access and bound in ``namespace`` (the package's globals), so the next access is a plain
    lookup; any other name is the usual AttributeError."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
