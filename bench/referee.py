"""Referee throughput: hands per second on one core, parse time excluded; and referee/parse ratio.

Parses every real Omaha-family/Courchevel hand of the corpus once, repeats them to ``--hands``
hands, then times ``referee()`` (replay + settlement + facts) alone over the whole list,
``--runs`` times, and prints the median. Times are CPU time (``time.process_time``): the machine
is shared, and wall-clock time would count other processes. When the parser is importable the
same corpus files are also parsed ``--runs`` times and the median referee time per hand is
divided by the median parse time per hand (the import budget is ~285 us a hand for parse +
referee + Parquet, so the referee should stay well below the parser).

Usage: ``.venv/bin/python bench/referee.py [--hands 20000] [--runs 5] [--pickle hands.pkl]``.
``--pickle`` keeps the parsed corpus hands in a file (written when the parser works, read when it
does not), so the referee can be measured while the parser is being changed.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from pathlib import Path

from hhparse.engine import referee
from hhparse.model import Hand

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pokerstars"
SKIP = ("converted", "synthetic", "summaries", "_fpdb3-head")


def corpus_files(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*.txt")) if p.relative_to(root).parts[0] not in SKIP]


def corpus_hands(root: Path) -> list[Hand]:
    from hhparse.parsing import parse_file

    out: list[Hand] = []
    for p in corpus_files(root):
        out.extend(h for h in parse_file(p) if isinstance(h, Hand))
    return out


def referee_seconds_per_hand(hands: list[Hand]) -> float:
    t0 = time.process_time()
    for h in hands:
        referee(h)
    return (time.process_time() - t0) / len(hands)


def parse_seconds_per_hand(files: list[Path]) -> float:
    """CPU time to parse the corpus files, per parsed hand (invalid blocks' time included)."""
    from hhparse.parsing import parse_file

    n = 0
    t0 = time.process_time()
    for p in files:
        n += sum(1 for r in parse_file(p) if isinstance(r, Hand))
    return (time.process_time() - t0) / max(n, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--pickle", type=Path, default=None, help="cache of the parsed corpus hands")
    args = ap.parse_args()
    runs = max(args.runs, 5)
    parser_ok = True
    try:
        base = corpus_hands(args.corpus)
        if args.pickle is not None:
            args.pickle.write_bytes(pickle.dumps(base))
    except Exception as exc:  # the parser is someone else's work in progress: fall back to the cache
        parser_ok = False
        if args.pickle is None or not args.pickle.exists():
            raise SystemExit(
                f"the parser fails ({type(exc).__name__}: {exc}) and no --pickle cache exists"
            ) from exc
        print(f"parser unavailable ({type(exc).__name__}: {exc}); hands from {args.pickle}")
        base = pickle.loads(args.pickle.read_bytes())
    hands = (base * (args.hands // len(base) + 1))[: args.hands]
    referee_seconds_per_hand(base)  # warm the evaluator's memo tables and the spec/formatter caches
    ref_times = [referee_seconds_per_hand(hands) for _ in range(runs)]
    showdowns = sum(1 for h in base if any(type(e).__name__ == "Show" for e in h.events))
    med = statistics.median(ref_times)
    print(
        f"{len(base)} distinct hands ({showdowns} with shown hands), {len(hands)} per run, {runs} runs (CPU time)"
    )
    print(
        f"referee: median {1 / med:,.0f} hands/s = {med * 1e6:.1f} us/hand "
        f"(min {1 / max(ref_times):,.0f}, max {1 / min(ref_times):,.0f} hands/s)"
    )
    if not parser_ok:
        print("referee time / parse time: n/a (parser unavailable)")
        return
    files = corpus_files(args.corpus)
    reps = max(1, args.hands // (len(base) * 10))  # parse ~1/10 of the referee's hands per run
    parse_times = []
    for _ in range(runs):
        parse_times.append(statistics.fmean(parse_seconds_per_hand(files) for _ in range(reps)))
    pmed = statistics.median(parse_times)
    print(f"parse:   median {1 / pmed:,.0f} hands/s = {pmed * 1e6:.1f} us/hand")
    print(f"referee time / parse time: {med / pmed:.2f}")


if __name__ == "__main__":
    main()
