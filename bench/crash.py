"""Crash safety at many random points: the long version of ``tests/test_import_crash.py``.

Each round interrupts ``hhparse import`` (kill -9 or SIGINT, ``--jobs`` 1 or 2, after a random
number of published batches plus a random delay, so that some signals land mid-write), checks
what must hold at once (no orphan process, the output pipe closed, no file in a table folder that
is not live, the warehouse readable), and every few rounds runs the import to the end and demands
tables identical to a clean import and no stray file.

Usage: python bench/crash.py [--rounds 40] [--seed 1] [--files 6] [--per-file 700]
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import test_import_crash as crash  # noqa: E402
from _warehouse_helpers import read_views  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", type=int, default=crash.FILES)
    ap.add_argument("--per-file", type=int, default=crash.PER_FILE)
    args = ap.parse_args()
    crash.FILES, crash.PER_FILE = args.files, args.per_file
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="hhparse-crash-"))
    try:
        src = crash.make_input(root / "in", args.files, args.per_file)
        proc = crash.start_import(src, root / "clean", 1)
        proc.communicate(timeout=3600)
        expected = read_views(root / "clean")
        wh = root / "wh"
        started = time.monotonic()
        interrupted = 0
        for n in range(1, args.rounds + 1):
            jobs = rng.choice((1, 2))
            sig = rng.choice((signal.SIGKILL, signal.SIGINT))
            try:
                crash.interrupt(
                    src, wh, jobs, sig, after_batches=rng.randint(1, 5), delay=rng.uniform(0, 0.2)
                )
                interrupted += 1
            except AssertionError as exc:
                if "ended before it could be interrupted" not in str(exc):
                    raise
            if n % 4 == 0 or n == args.rounds:
                crash.rerun_equals_clean(src, wh, jobs, expected)
                shutil.rmtree(wh)
            print(f"round {n}: jobs {jobs}, {signal.Signals(sig).name}: ok", flush=True)
        print(
            f"{interrupted} interruptions, {args.rounds} rounds, all checks held "
            f"({time.monotonic() - started:.0f} s)"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
