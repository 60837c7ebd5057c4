"""``hhparse/native_memory.py``: what keeps ``hhparse import --watch`` flat over hours.

The soak (``bench/watch_soak.py``, ``bench/watch_probe.py``) found the growth below Python:
Arrow's C++ code kept allocating from mimalloc (its wheels' default pool) although the watch had
made the system pool pyarrow's default, because ``pyarrow.set_memory_pool`` does not reach the
C++ default the Parquet writer's encoders take. These tests run in subprocesses: the C++ default
is fixed once per process, when pyarrow is loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: Writes a Parquet file the way the importer publishes one (the system pool made pyarrow's
#: default, as the watch does), and says how much mimalloc served.
_WRITE = """
import json, sys
import pyarrow as pa, pyarrow.parquet as pq
pa.set_memory_pool(pa.system_memory_pool())
t = pa.table({"a": list(range(100_000)), "s": [str(i) for i in range(100_000)]})
pq.write_table(t, sys.argv[1])
print(json.dumps({"backend": pa.default_memory_pool().backend_name,
                  "mimalloc": pa.mimalloc_memory_pool().max_memory()}))
"""


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**base, "PYTHONPATH": str(REPO), **(env or {})},
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def _has_mimalloc() -> bool:
    import pyarrow as pa

    try:
        pa.mimalloc_memory_pool()
    except NotImplementedError:
        return False
    return True


needs_mimalloc = pytest.mark.skipif(not _has_mimalloc(), reason="this pyarrow has no mimalloc")


@needs_mimalloc
def test_set_memory_pool_alone_leaves_the_parquet_writer_on_mimalloc(tmp_path: Path) -> None:
    """The cause, kept as a fact of pyarrow: should it change, the work-around can go."""
    got = _run(_WRITE, str(tmp_path / "x.parquet"))
    assert got["mimalloc"] != 0


@needs_mimalloc
def test_prefer_system_pool_before_pyarrow_keeps_mimalloc_unused(tmp_path: Path) -> None:
    code = "from hhparse.native_memory import prefer_system_pool; assert prefer_system_pool()\n" + _WRITE
    got = _run(code, str(tmp_path / "x.parquet"))
    assert got == {"backend": "system", "mimalloc": 0}


@needs_mimalloc
def test_the_watch_command_chooses_the_system_pool_before_loading_pyarrow(tmp_path: Path) -> None:
    """``hhparse import --watch`` as the CLI runs it, up to the watch itself (replaced by a probe
    that writes a Parquet file as an import would)."""
    code = f"""
import json, sys, types
target = sys.argv[1]
def probe(*args, **kwargs):
    sys.argv = ["probe", target]
    exec({_WRITE!r}, {{"__name__": "probe"}})
    return 0
view = types.ModuleType("hhparse.cli.watch_view")  # the watch module loads pyarrow: not imported
view.run_watch = probe
sys.modules[view.__name__] = view
from hhparse.cli import main
sys.argv = ["hhparse", "import", {str(tmp_path)!r}, "-w", {str(tmp_path / "wh")!r}, "--watch"]
main()
"""
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "x.parquet")],
        env={
            **{k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"},
            "PYTHONPATH": str(REPO),
        },
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"backend": "system", "mimalloc": 0}


def test_a_pool_the_user_chose_is_kept() -> None:
    code = (
        "import json, os; from hhparse.native_memory import prefer_system_pool\n"
        "r = prefer_system_pool()\n"
        "print(json.dumps({'r': r, 'env': os.environ['ARROW_DEFAULT_MEMORY_POOL']}))"
    )
    assert _run(code, env={"ARROW_DEFAULT_MEMORY_POOL": "jemalloc"}) == {"r": False, "env": "jemalloc"}
    assert _run(code, env={"ARROW_DEFAULT_MEMORY_POOL": "system"}) == {"r": True, "env": "system"}


def test_too_late_once_pyarrow_is_loaded() -> None:
    code = (
        "import json, os, pyarrow; from hhparse.native_memory import prefer_system_pool\n"
        "print(json.dumps({'r': prefer_system_pool(), 'set': 'ARROW_DEFAULT_MEMORY_POOL' in os.environ}))"
    )
    assert _run(code) == {"r": False, "set": False}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc")
def test_arenas_capped_and_free_memory_given_back() -> None:
    """After a large block is freed, ``give_back`` returns glibc's free pages: the resident set
    falls back (a measure of this process, not a timing)."""
    code = """
import json, threading
from pathlib import Path
from hhparse.native_memory import give_back, limit_arenas
def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
capped = limit_arenas()
blocks = [bytearray(1000) for _ in range(200_000)]   # ~200 MB of small blocks in the heap
keep = blocks[::1000]                                # a few stay: the heap cannot shrink from its top
high = rss()
del blocks
before = rss()
give_back()
after = rss()
print(json.dumps({"capped": capped, "high": high, "before": before, "after": after}))
"""
    got = _run(code)
    assert got["capped"] is True
    high, before, after = int(str(got["high"])), int(str(got["before"])), int(str(got["after"]))
    assert before > high // 2  # freed to malloc, kept by it
    assert after < before - 100_000, got  # given back: at least 100 MB less resident
