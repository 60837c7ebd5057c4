"""End-to-end import throughput, scaling and peak memory (issue #5 targets).

Why: the warehouse must absorb a million hands at >= 3,500 hands/s per core end to end, scale
>= 1.7x with ``--jobs 2``, and stay under 1 GB RSS whatever the input size. Each ``--jobs`` value
runs in its own subprocess (fresh warehouse) so ``ru_maxrss`` is per run; worker peaks are read
from ``RUSAGE_CHILDREN`` inside that subprocess.

Input: ``hhparse synth --hands N --out DIR`` (the synthetic generator); with ``--corpus-input``
the valid corpus hands repeated with fresh hand ids instead.

Usage: python bench/import.py [--hands 1000000] [--jobs 1 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "pokerstars"
_ID = re.compile(r"^(\S.*? (?:Hand|Game) #)\d+:", re.M)

CHILD = """
import json, resource, sys, time
from hhparse.importer import import_paths
t = time.perf_counter()
r = import_paths([sys.argv[1]], sys.argv[2], jobs=int(sys.argv[3]))
dt = time.perf_counter() - t
print(json.dumps({
    "seconds": dt, "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected,
    "batches": r.stats.batches,
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "worker_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
}))
"""


def synth_input(hands: int, out: Path) -> None:
    """Generate ``hands`` synthetic hands with the project's generator."""
    subprocess.run(
        [str(Path(sys.executable).parent / "hhparse"), "synth", "--hands", str(hands), "--out", str(out)],
        check=True,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )


def corpus_input(hands: int, out: Path, per_file: int = 5000) -> None:
    """Repeat the valid corpus hands with fresh ids (fallback when the generator is unavailable)."""
    from hhparse.engine import referee
    from hhparse.parsing import parse_block
    from hhparse.splitter import split_path

    texts = []
    for block in split_path(CORPUS):
        if "_fpdb3-head" in block.source:
            continue
        parsed = parse_block(block)
        if not isinstance(parsed, Exception) and hasattr(parsed, "header") and referee(parsed).valid:
            texts.append(block.text.rstrip("\n"))
    out.mkdir(parents=True)
    n = 0
    f = 0
    while n < hands:
        chunk = []
        for _ in range(min(per_file, hands - n)):
            text = texts[n % len(texts)]
            chunk.append(_ID.sub(lambda m, i=n: f"{m.group(1)}{900_000_000_000 + i}:", text, count=1))
            n += 1
        (out / f"bench-{f:05d}.txt").write_text("\n\n\n".join(chunk) + "\n\n\n")
        f += 1


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    """Build the input once, then import it once per ``--jobs`` value and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--corpus-input", action="store_true", help="repeat corpus hands instead of synth")
    ap.add_argument("--keep", type=Path, help="build/keep the input here (reused if present)")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="hhparse-bench-"))
    src = args.keep or work / "input"
    try:
        if not src.exists():
            t = time.perf_counter()
            (corpus_input if args.corpus_input else synth_input)(args.hands, src)
            print(f"input: {args.hands:,} hands, {_du(src) / 1e6:.1f} MB in {time.perf_counter() - t:.1f} s")
        results = {}
        for jobs in args.jobs:
            wh = work / f"wh-{jobs}"
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(src), str(wh), str(jobs)],
                check=True,
                cwd=REPO,
                capture_output=True,
                text=True,
            )
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            r["hands_per_s"] = r["read"] / r["seconds"]
            r["warehouse_mb"] = _du(wh) / 1e6
            results[jobs] = r
            print(
                f"--jobs {jobs}: {r['read']:,} hands in {r['seconds']:.1f} s = {r['hands_per_s']:,.0f} hands/s "
                f"({r['hands_per_s'] / jobs:,.0f}/core); new {r['new']:,}, rejected {r['rejected']:,}; "
                f"peak RSS main {r['main_rss_mb']:.0f} MB, worker {r['worker_rss_mb']:.0f} MB; "
                f"warehouse {r['warehouse_mb']:.1f} MB in {r['batches']} batches"
            )
        if 1 in results and 2 in results:
            print(
                f"speed-up --jobs 2 / --jobs 1: {results[2]['hands_per_s'] / results[1]['hands_per_s']:.2f}x"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
