"""What a process imports, and when: names a package re-exports but imports on first access
(PEP 562), so importing the package stays cheap (the CLI's ``--help`` and ``check`` import only
what they use, issue 16, start-up); pandas refused where it is never needed; and numpy's BLAS
kept to one thread where nothing calls it (:func:`one_blas_thread`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, MutableMapping
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


BLAS_THREADS_ENV = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""What OpenBLAS (numpy's BLAS in its wheels) reads, in this order, for how many threads to start."""


def one_blas_thread(environ: MutableMapping[str, str] | None = None) -> bool:
    """Have OpenBLAS start no thread of its own in this process and the processes it starts,
    unless the user said how many (any of :data:`BLAS_THREADS_ENV`): ``OPENBLAS_NUM_THREADS=1``.
    For the ``hhparse`` program and the import pool's forkserver only (a caller's own program
    keeps its BLAS as it set it). Why: nothing hhparse runs calls a threaded BLAS routine, but as
    numpy is imported OpenBLAS starts a thread per core that spins a while, waiting for work:
    CPU taken from the import's start-up, and with ``--jobs 2`` from its workers
    (``docs/performance.md``). Takes effect only before numpy is first imported (OpenBLAS
    reads it then); returns whether it was set here. ``environ``: ``os.environ`` by default."""
    env = os.environ if environ is None else environ
    if any(env.get(name) for name in BLAS_THREADS_ENV):
        return False
    env["OPENBLAS_NUM_THREADS"] = "1"
    return True
