"""Keeping native memory flat in a process that imports for hours (``hhparse import --watch``).

Python's own objects were not what grew in the watch's soak (``bench/watch_probe.py``: the
collector's object counts and tracemalloc's total stay flat); two allocators below it were:

* **Arrow's mimalloc.** Arrow's C++ code takes its default pool (mimalloc in the wheels) in many
  places that ``pyarrow.set_memory_pool`` does not reach (the Parquet writer's encoders among
  them), and mimalloc, made for large batches, kept pages from thousands of small imports. The
  default is read once, from ``$ARROW_DEFAULT_MEMORY_POOL``, when pyarrow is first imported: so
  :func:`prefer_system_pool` sets it before that, and Arrow allocates through the C library's
  malloc like the rest of the process.
* **glibc's arenas.** Each thread that allocates (Arrow's I/O and CPU pools, the file watcher)
  may get an arena of its own, and a freed block stays in its arena. :func:`limit_arenas` caps
  them; :func:`give_back` (``malloc_trim``) returns the free pages of every arena after each
  import, so what an import used is not kept until the next burst.

Elsewhere than glibc (macOS, Windows, musl) the malloc calls do nothing: those allocators give
pages back on their own.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from typing import Any

__all__ = ["ENV_ARROW_POOL", "give_back", "limit_arenas", "prefer_system_pool"]

ENV_ARROW_POOL = "ARROW_DEFAULT_MEMORY_POOL"
#: glibc's ``mallopt`` parameter for the most arenas (``M_ARENA_MAX``).
M_ARENA_MAX = -8
#: Arenas a long-running watch allows: the main thread's and one more for all others.
WATCH_ARENAS = 2


def prefer_system_pool() -> bool:
    """Make Arrow's C++ default pool the system allocator for this process (and its children),
    unless the user chose one (``$ARROW_DEFAULT_MEMORY_POOL``). Only possible before pyarrow is
    first imported; returns whether the system pool will be Arrow's default."""
    chosen = os.environ.get(ENV_ARROW_POOL)
    if chosen:
        return chosen == "system"
    if "pyarrow" in sys.modules:
        return False
    os.environ[ENV_ARROW_POOL] = "system"
    return True


def _glibc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    if not hasattr(libc, "malloc_trim") or not hasattr(libc, "mallopt"):
        return None  # musl
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    libc.malloc_trim.restype = ctypes.c_int
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mallopt.restype = ctypes.c_int
    return libc


_LIBC: Any = None
_LOOKED = False


def _libc() -> Any:
    global _LIBC, _LOOKED
    if not _LOOKED:
        _LIBC, _LOOKED = _glibc(), True
    return _LIBC


def limit_arenas(arenas: int = WATCH_ARENAS) -> bool:
    """Cap glibc's arenas (threads started afterwards share them); ``$MALLOC_ARENA_MAX``, when the
    user set it, wins. Returns whether the cap is in place."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return True
    libc = _libc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, arenas) == 1)


def give_back() -> None:
    """Return the free memory the allocators hold to the system: glibc's free pages in every
    arena, and what Arrow's default pool keeps unused (if pyarrow is loaded)."""
    pa = sys.modules.get("pyarrow")
    if pa is not None:
        pa.default_memory_pool().release_unused()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
