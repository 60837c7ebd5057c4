"""Referee throughput: hands per second on one core, parse time excluded.

Parses every real Omaha-family/Courchevel hand of the corpus once, repeats them to ``--hands``
hands, then times ``referee()`` alone over the whole list, ``--runs`` times, and prints the median.
Usage: ``.venv/bin/python bench/referee.py [--hands 20000] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from hhparse.engine import referee
from hhparse.model import Hand
from hhparse.parsing import parse_file

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pokerstars"
SKIP = ("converted", "synthetic", "summaries", "_fpdb3-head")


def corpus_hands(root: Path) -> list[Hand]:
    out: list[Hand] = []
    for p in sorted(root.rglob("*.txt")):
        if p.relative_to(root).parts[0] in SKIP:
            continue
        out.extend(h for h in parse_file(p) if isinstance(h, Hand))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    args = ap.parse_args()
    base = corpus_hands(args.corpus)
    hands = (base * (args.hands // len(base) + 1))[: args.hands]
    rates = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        for h in hands:
            referee(h)
        rates.append(len(hands) / (time.perf_counter() - t0))
    showdowns = sum(1 for h in base if any(type(e).__name__ == "Show" for e in h.events))
    print(f"{len(base)} distinct hands ({showdowns} with shown hands), {len(hands)} per run, {args.runs} runs")
    print(f"referee: median {statistics.median(rates):,.0f} hands/s (min {min(rates):,.0f}, max {max(rates):,.0f})")


if __name__ == "__main__":
    main()
