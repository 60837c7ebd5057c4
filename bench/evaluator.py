"""Benchmark: player-evaluations per second (5 hole cards, 5-card board, high + low).

One "player-evaluation" is ``evaluate(hole, board, hilo=True)`` for one player: the best high and
the best 8-or-better low over 100 two-plus-three combinations each. Deals are random, with a fresh
board per deal, so the per-board cache never helps beyond chance; the board-*multiset* memo rows
(finite: at most 8,463 of them) are warmed up by an uncounted run first: that is steady state.
A cold figure (all memo tables cleared before the run) is printed too, so both are on record.

Run: ``.venv/bin/python bench/evaluator.py [--deals N] [--runs R] [--players P]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import hhparse.rules.evaluate as ev
from hhparse.rules.cards import FULL_DECK


def _deals(n: int, players: int, seed: int) -> list[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]]:
    rng = random.Random(seed)
    out = []
    deck = list(FULL_DECK)
    for _ in range(n):
        rng.shuffle(deck)
        holes = tuple(tuple(deck[5 * p : 5 * p + 5]) for p in range(players))
        out.append((holes, tuple(deck[5 * players : 5 * players + 5])))
    return out


def _run(deals: list[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]]) -> float:
    evaluate = ev.evaluate
    n = 0
    t0 = time.perf_counter()
    for holes, board in deals:
        for hole in holes:
            evaluate(hole, board, True)
            n += 1
    return n / (time.perf_counter() - t0)


def _clear_memo() -> None:
    """Forget everything learned at run time (what a fresh process would see)."""
    ev._ROWS.clear()
    ev._BOARDS.clear()
    ev._LOW[:] = [-1] * len(ev._LOW)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--players", type=int, default=1, help="players sharing each board")
    args = ap.parse_args()

    _clear_memo()
    cold = _run(_deals(args.deals, args.players, seed=-1))
    _run(_deals(4 * args.deals, args.players, seed=-2))  # warm-up, not counted
    rates = [_run(_deals(args.deals, args.players, seed=i)) for i in range(args.runs)]
    print(f"cold (first {args.deals * args.players:,} evaluations, empty memo): {cold:,.0f} evals/s")
    print(
        f"steady state: median {statistics.median(rates):,.0f} player-evaluations/s "
        f"(5 hole, 5 board, hi+lo; {args.players} player(s)/board; runs: "
        + ", ".join(f"{r:,.0f}" for r in rates)
        + ")"
    )


if __name__ == "__main__":
    main()
