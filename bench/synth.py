"""Generation throughput and peak memory of ``hhparse synth``.

Why: the generator must be at least as fast as the parser it feeds (target: >= 6,000 hands/s of
CPU time on one core) in memory that does not grow with the number of hands. Each run is a
fresh subprocess writing client-style files (one per table and day) into a temporary directory,
exactly what ``hhparse synth --game mixed --structure mixed --kind mixed --players 2-9 --out DIR``
does, so peak RSS (ru_maxrss) is per run and the two sizes can be compared. CPU time
(``time.process_time``) is the headline because the benchmark machine is shared; wall time is
printed next to it.

Usage: python bench/synth.py [--hands 100000] [--runs 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(hands: int, seed: int, directory: str) -> dict[str, float]:
    """Child process: generate ``hands`` hands into ``directory``; report speed and peak RSS (MiB)."""
    from hhparse.synth import GAMES, SynthConfig, write

    config = SynthConfig(
        hands=hands,
        seed=seed,
        games=tuple(GAMES),
        structures=("PL", "NL", "FL"),
        kinds=("cash", "tournament"),
        players=(2, 9),
    )
    c0, w0 = time.process_time(), time.perf_counter()
    coverage = write(config, directory=Path(directory))
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    size = sum(p.stat().st_size for p in Path(directory).iterdir())
    return {
        "hands": coverage.hands,
        "cpu_s": cpu,
        "wall_s": wall,
        "cpu_hands_per_s": coverage.hands / cpu,
        "wall_hands_per_s": coverage.hands / wall,
        "peak_rss_mib": rss,
        "output_mib": size / 2**20,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000, help="the large size; the small one is a fifth")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--child", nargs=3, metavar=("HANDS", "SEED", "DIR"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_once(int(args.child[0]), int(args.child[1]), args.child[2])))
        return
    for n in (args.hands // 5, args.hands):
        results = []
        for i in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(n), str(args.seed), str(Path(tmp) / f"run{i}")],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            results.append(json.loads(out))
        cpu = statistics.median(r["cpu_hands_per_s"] for r in results)
        wall = statistics.median(r["wall_hands_per_s"] for r in results)
        rss = statistics.median(r["peak_rss_mib"] for r in results)
        print(
            f"{n:>7} hands ({results[0]['output_mib']:6.1f} MiB written)  "
            f"median CPU {cpu:6.0f} hands/s  wall {wall:6.0f} hands/s  peak RSS {rss:6.1f} MiB  "
            f"(CPU runs: {', '.join(str(round(r['cpu_hands_per_s'])) for r in results)})"
        )


if __name__ == "__main__":
    main()
