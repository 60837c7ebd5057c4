"""Parse-only throughput and peak memory of hhparse on a large synthetic file.

Why: the parser must keep up with bulk imports (targets: >= 4,000 hands/s pure Python,
>= 5,000 with lark-cython, one core) in memory that does not grow with the file size. Three back
ends are timed: lark alone (``lark``, ``lark-cython``) and the default, the compiled driver over
lark's tables (``driver``; see ``hhparse/lalr.py``).
The input repeats the valid Courchevel / Omaha-family corpus hands with fresh hand ids. Two file
sizes (half and all of ``--hands``) show that peak memory does not grow with the file. Each run
is its own subprocess, so peak RSS (ru_maxrss) is per run; the figures are medians over
``--runs`` runs. Throughput is CPU time of the parsing process (the figure the targets are
stated in: a shared machine's load does not distort it); wall-clock is printed alongside.

Usage: python bench/parse.py [--hands 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "pokerstars"
_ID = re.compile(r"^(\S.*? (?:Hand|Game) #)\d+:", re.M)


def corpus_hands() -> list[str]:
    """Valid hand texts of the supported games, as LF text."""
    from hhparse.model import Hand
    from hhparse.parsing import parse_file

    out = []
    for path in sorted(CORPUS.rglob("*.txt")):
        if "_fpdb3-head" in path.parts or "summaries" in path.parts:
            continue
        for r in parse_file(path):
            if isinstance(r, Hand):
                from hhparse.render import render

                out.append(render(r))
    return out


def build_file(path: Path, hands: list[str], n: int) -> None:
    """Write n hands (cycling over ``hands``) with fresh ids, 3 blank lines apart, CRLF."""
    with open(path, "w", encoding="utf-8", newline="\r\n") as fh:
        for i in range(n):
            text = hands[i % len(hands)]
            fh.write(_ID.sub(lambda m, i=i: f"{m[1]}{900000000000 + i}:", text, count=1))
            fh.write("\n\n\n")


def run_mode(path: str, backend: str) -> dict[str, float]:
    """Child process: parse the whole file with ``backend``, report hands/s and peak RSS (MiB)."""
    from hhparse.model import Hand
    from hhparse.parsing import parse_file, use_backend

    use_backend(backend)
    c0, t0 = time.process_time(), time.perf_counter()
    ok = bad = 0
    for r in parse_file(path):
        if isinstance(r, Hand):
            ok += 1
        else:
            bad += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "hands": ok,
        "errors": bad,
        "cpu_seconds": cpu,
        "wall_seconds": wall,
        "hands_per_s": ok / cpu,
        "hands_per_wall_s": ok / wall,
        "peak_rss_mib": rss,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3, help="runs per size and mode (median; at least 3)")
    ap.add_argument("--child", nargs=2, metavar=("PATH", "BACKEND"))
    args = ap.parse_args()
    args.runs = max(args.runs, 3)
    if args.child:
        print(json.dumps(run_mode(args.child[0], args.child[1])))
        return
    hands = corpus_hands()
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [args.hands // 2, args.hands]
        for n in sizes:
            path = Path(tmp) / f"bench-{n}.txt"
            build_file(path, hands, n)
            mib = path.stat().st_size / 2**20
            for backend in ("lark", "lark-cython", "driver"):
                results = []
                for _ in range(args.runs):
                    out = subprocess.run(
                        [sys.executable, __file__, "--child", str(path), backend],
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                    results.append(json.loads(out))
                hps = statistics.median(r["hands_per_s"] for r in results)
                wall = statistics.median(r["hands_per_wall_s"] for r in results)
                rss = statistics.median(r["peak_rss_mib"] for r in results)
                mode = f"{backend:<11}"
                print(
                    f"{n:>7} hands ({mib:6.1f} MiB)  {mode}  median of {len(results)}: "
                    f"{hps:6.0f} hands/s CPU ({wall:6.0f} wall)  peak RSS {rss:6.1f} MiB  "
                    f"(errors {results[0]['errors']})",
                    flush=True,
                )


if __name__ == "__main__":
    main()
