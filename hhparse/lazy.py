"""What a process imports, and when: names a package re-exports but imports on first access
(PEP 562), so importing the package stays cheap (the CLI's ``--help`` and ``check`` import only
what they use, issue 16, start-up); and pandas refused where it is never needed."""

from __future__ import annotations

import sys
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


class _NoPandas:
    """A finder that refuses pandas (:func:`refuse_pandas`): ``import pandas`` raises
    :class:`ModuleNotFoundError`, which pyarrow's lazy pandas check takes for "not installed"."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == "pandas" or fullname.startswith("pandas."):
            raise ModuleNotFoundError(f"{fullname} is kept out of this hhparse process", name=fullname)


def refuse_pandas() -> None:
    """Keep pandas out of the rest of this process (one that never hands a table to pandas: the
    ``hhparse import`` program, a local pool's worker). pyarrow imports pandas (when installed)
    the first time it converts a Python list, only to ask whether the list is a pandas object: a
    fixed cost on every importing process (``docs/performance.md``). A finder, not
    ``sys.modules["pandas"] = None``: pyarrow does not treat that entry as missing, and its first
    conversion after it raised ``AttributeError`` (a good hand would have become a reject had
    that conversion been a real one). A no-op once pandas is imported."""
    if "pandas" not in sys.modules and not any(isinstance(f, _NoPandas) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoPandas())


def refuses_pandas() -> bool:
    """Whether :func:`refuse_pandas` holds in this process."""
    return any(isinstance(f, _NoPandas) for f in sys.meta_path)
