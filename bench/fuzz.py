"""The long run of the input fuzz (issue #13): hundreds of thousands of damaged files through the
splitter, the parser, the referee and the table builder, a share of them through the whole import.

Why a script: the suite runs the same fuzz for seconds (``tests/test_fuzz.py``); this runs it for
as long as asked, and says how many cases ran, how long they took and what failed. The cases and
invariants are in ``tests/fuzz/harness.py``: no exception escapes or is swallowed as a bug
(``internal-error``, ``unstorable-hand``), every block is stored or rejected exactly once, the
valid hands around the damaged one are stored, nothing hangs (``--timeout`` a batch). A failure is
printed with what reproduces it (the seed of its batch, its operations and its bytes) and the run
goes on.

Usage: python bench/fuzz.py [--cases 100000] [--seed 1] [--batch 16] [--import-every 200]
       [--split-every 20] [--timeout 60]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "fuzz"))
sys.path.insert(0, str(REPO / "tests"))


def main() -> int:
    """Run the fuzz; exit 1 if anything failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=16, help="cases per worker task (as the importer batches)")
    ap.add_argument(
        "--import-every", type=int, default=200, help="every Nth case also goes through import_paths"
    )
    ap.add_argument(
        "--split-every", type=int, default=20, help="every Nth case: both splitter paths compared"
    )
    ap.add_argument(
        "--timeout", type=float, default=60, help="seconds a batch may take before it counts as a hang"
    )
    args = ap.parse_args()

    import harness
    from _warehouse_helpers import install_referee

    import hhparse.import_worker as import_worker

    install_referee()
    import_worker.quiet_gc = lambda: (700, 10, 10)  # thousands of tiny imports: not the big-run GC tuning
    import_worker.restore_gc = lambda previous: None
    os.fsync = lambda fd: None  # nor durability
    work = Path(tempfile.mkdtemp(prefix="hhparse-fuzz-"))
    counts: Counter[str] = Counter()
    failures: list[str] = []
    slowest = 0.0
    done = 0
    started = time.perf_counter()
    batch_no = 0
    print(f"{len(harness.seeds())} seed hands ({len(harness.valid_seeds())} valid neighbours)", flush=True)
    while done < args.cases:
        batch_no += 1
        batch_seed = args.seed * 1_000_003 + batch_no
        rng = random.Random(batch_seed)
        cases = [harness.random_case(rng) for _ in range(min(args.batch, args.cases - done))]
        t = time.perf_counter()
        try:
            with harness.time_limit(args.timeout):
                counts.update(harness.check_batch(cases))
                for i, case in enumerate(cases, done):
                    if args.split_every and i % args.split_every == 0:
                        harness.check_splitter_paths(case)
                    if args.import_every and i % args.import_every == 0:
                        harness.check_import(case, work)
                        counts["imports"] += 1
        except Exception as exc:  # a failure is reported and the run goes on
            failures.append(f"batch seed {batch_seed}: {type(exc).__name__}: {str(exc)[:2000]}")
            print(failures[-1], flush=True)
        slowest = max(slowest, time.perf_counter() - t)
        done += len(cases)
        if batch_no % 500 == 0:
            rate = done / (time.perf_counter() - started)
            print(f"  {done:,} cases, {rate:,.0f}/s, {len(failures)} failures", flush=True)
    seconds = time.perf_counter() - started
    codes = ", ".join(
        f"{k} {v:,}" for k, v in sorted(counts.items()) if k not in ("blocks", "stored", "imports")
    )
    print(
        f"{done:,} cases ({counts['blocks']:,} blocks: {counts['stored']:,} stored; rejects: {codes}; "
        f"{counts['imports']:,} through import_paths) in {seconds:,.0f} s ({done / seconds:,.0f} cases/s), "
        f"slowest batch {slowest:.2f} s: {len(failures)} failures"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
