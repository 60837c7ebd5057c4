"""Locate the grammar and SQL files shipped with the package.

In a wheel, ``grammars/`` and ``analytics/`` are force-included as ``hhparse/_data/...`` and read
through :mod:`importlib.resources`; in a source checkout (editable install, tests) they are the
top-level folders next to ``hhparse/``. Both layouts go through this one module.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


def data_dir(name: str) -> Traversable:
    """The shipped folder ``name`` (``"grammars"`` or ``"analytics"``)."""
    packaged = resources.files("hhparse").joinpath("_data", name)
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"hhparse data folder {name!r} is missing from this installation")


def read_text(folder: str, *parts: str) -> str:
    """Text of a shipped file, e.g. ``read_text("grammars", "pokerstars.lark")``."""
    node = data_dir(folder)
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")
