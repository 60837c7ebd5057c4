"""Run ``hhparse`` with a probe inside: where does a long-running ``import --watch`` keep memory?

``python bench/watch_probe.py OUT EVERY [--tracemalloc] -- import PATH --watch ...`` runs the CLI
in this process and, every ``EVERY`` seconds, appends one JSON line to ``OUT/probe.jsonl``:

* ``rss_kb``: the resident set (``/proc/self/status``);
* ``malloc``: glibc's ``mallinfo2`` over every arena — ``in_use`` (bytes handed out by malloc and
  not yet freed), ``free`` (bytes malloc keeps in its heaps, free, not given back: fragmentation
  and the arenas' slack), ``mmapped``; and the number of arenas (``malloc_info``), one a thread
  that allocates until ``MALLOC_ARENA_MAX``;
* ``arrow``: bytes Arrow's current pool holds, and which pool;
* ``objects``: the live objects the collector tracks, counted by type (the 25 most common);
* ``threads``: Python threads alive;
* with ``--tracemalloc``: a snapshot ``OUT/snap-N.pickle`` (Python allocations since the probe
  started tracing, by line), for :func:`diff` to compare.

It tells apart the three ways RSS grows: Python objects that live on (``objects`` and the
tracemalloc diff grow), memory freed to malloc but kept by it (``free`` grows, ``in_use`` flat),
and native allocations outside Python (``in_use`` grows, the tracemalloc total does not).
``python bench/watch_probe.py --diff OUT A B`` prints the 25 lines that grew most from snapshot
A to B. Used by ``bench/watch_soak.py --probe``.
"""

from __future__ import annotations

import collections
import ctypes
import ctypes.util
import gc
import json
import re
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name) if name else None


LIBC = _libc()


def malloc_figures() -> dict[str, int]:
    """glibc's accounting over all arenas (empty elsewhere)."""
    if LIBC is None or not hasattr(LIBC, "mallinfo2"):
        return {}
    LIBC.mallinfo2.restype = _Mallinfo2
    m = LIBC.mallinfo2()
    out = {
        "heap": m.arena,  # bytes of the arenas' heaps (sbrk and mmapped heaps)
        "in_use": m.uordblks,
        "free": m.fordblks,
        "mmapped": m.hblkhd,  # large blocks mmapped one by one
        "top_releasable": m.keepcost,
    }
    out["arenas"] = _arena_count()
    return out


def _arena_count() -> int:
    """How many malloc arenas exist (``malloc_info``'s XML has a ``<heap nr=...>`` for each)."""
    if LIBC is None or not hasattr(LIBC, "malloc_info") or not hasattr(LIBC, "open_memstream"):
        return -1
    buf = ctypes.c_char_p()
    size = ctypes.c_size_t()
    LIBC.open_memstream.restype = ctypes.c_void_p
    LIBC.open_memstream.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
    stream = LIBC.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not stream:
        return -1
    LIBC.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    LIBC.fclose.argtypes = [ctypes.c_void_p]
    LIBC.malloc_info(0, stream)
    LIBC.fclose(stream)
    text = ctypes.string_at(buf, size.value).decode("ascii", "replace")
    LIBC.free.argtypes = [ctypes.c_void_p]
    LIBC.free(ctypes.cast(buf, ctypes.c_void_p))
    return len(re.findall(r"<heap nr=", text))


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def object_counts(top: int = 25) -> dict[str, int]:
    counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    return dict(counts.most_common(top))


def _probe(out: Path, every: float, trace: bool) -> None:
    n = 0
    started = time.monotonic()
    with (out / "probe.jsonl").open("a") as fh:
        while True:
            time.sleep(every)
            import pyarrow as pa

            record: dict[str, Any] = {
                "t": round(time.monotonic() - started, 1),
                "rss_kb": rss_kb(),
                "malloc": malloc_figures(),
                "arrow": {
                    "pool": pa.default_memory_pool().backend_name,
                    "bytes": pa.default_memory_pool().bytes_allocated(),
                    "mimalloc_bytes": pa.mimalloc_memory_pool().bytes_allocated(),
                    "mimalloc_max": pa.mimalloc_memory_pool().max_memory(),
                },
                "threads": threading.active_count(),
                "objects": object_counts(),
            }
            if trace:
                if not tracemalloc.is_tracing():
                    tracemalloc.start(8)
                else:
                    snap = tracemalloc.take_snapshot()
                    snap.dump(str(out / f"snap-{n}.pickle"))
                    record["snapshot"] = n
                    record["traced_kb"] = tracemalloc.get_traced_memory()[0] // 1024
                    n += 1
            fh.write(json.dumps(record) + "\n")
            fh.flush()


def diff(out: Path, a: int, b: int, top: int = 25) -> None:
    old = tracemalloc.Snapshot.load(str(out / f"snap-{a}.pickle"))
    new = tracemalloc.Snapshot.load(str(out / f"snap-{b}.pickle"))
    for key in ("lineno", "traceback"):
        print(f"--- by {key}")
        stats = new.compare_to(old, key)
        for s in stats[:top] if key == "lineno" else stats[:6]:
            print(s)
            if key == "traceback":
                for line in s.traceback.format()[-16:]:
                    print("    " + line)


def main() -> None:
    if sys.argv[1] == "--diff":
        diff(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        return
    out, every = Path(sys.argv[1]), float(sys.argv[2])
    rest = sys.argv[3:]
    trace = "--tracemalloc" in rest[: rest.index("--")]
    argv = rest[rest.index("--") + 1 :]
    out.mkdir(parents=True, exist_ok=True)
    threading.Thread(target=_probe, args=(out, every, trace), daemon=True).start()
    from hhparse.cli import main as cli

    sys.argv = ["hhparse", *argv]
    cli()


if __name__ == "__main__":
    main()
