"""All-in EV cost (issue #15 targets): the equity engine per all-in hand, and the whole EV stage.

Targets: exact flop and turn all-ins >= 2,000 hands/s per core; pre-flop Courchevel heads-up
exact in under 50 ms a hand. One process, one core.

* **Engine** — :func:`hhparse.rules.equity.equity` on random deals of each shape (seeded):
  heads-up Courchevel Hi/Lo all-in on the flop and on the turn (exact), pre-flop Courchevel
  heads-up and 3-way (exact, the door card known), pre-flop 5 Card Omaha Hi/Lo and Omaha Hi/Lo
  heads-up and 3-way (exact, counted by rank class), and the same Omaha spot with a contender's
  cards unknown (Monte Carlo). Each shape runs ``--rounds`` rounds of ``--hands`` deals; a round's
  figure is its hands per second (and its median milliseconds a hand); the median round is
  printed.
* **Stage** — :func:`hhparse.ev.hand_ev` (all-in point, cards, pots, equity, rounding) on the
  all-in hands of ``--stage`` synthetic hands (``hhparse synth``), per street.

Usage: python bench/ev.py [--hands 400] [--rounds 5] [--stage 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hhparse.rules.cards import FULL_DECK
from hhparse.rules.equity import EquityPot, EquitySpot, equity

REPO = Path(__file__).resolve().parent.parent


def deal(rng: random.Random, players: int, hole: int, board: int, hilo: bool = True) -> EquitySpot:
    """Random hole cards and a random known board, one pot between everyone (odd amount)."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    holes = tuple(tuple(deck[i * hole : (i + 1) * hole]) for i in range(players))
    known = tuple(deck[players * hole : players * hole + board])
    return EquitySpot(hilo, hole, holes, known, (), (EquityPot(((0, 2001),), tuple(range(players))),))


def unknown(spot: EquitySpot) -> EquitySpot:
    """The same spot with the last contender's cards unknown (mucked unseen): sampled."""
    holes = (*spot.holes[:-1], ())
    return EquitySpot(spot.hilo, spot.hole_size, holes, spot.board, spot.dead, spot.pots)


SHAPES: dict[str, Callable[[random.Random], EquitySpot]] = {
    "flop, heads-up (exact)": lambda r: deal(r, 2, 5, 3),
    "turn, heads-up (exact)": lambda r: deal(r, 2, 5, 4),
    "flop, 3-way (exact)": lambda r: deal(r, 3, 5, 3),
    "pre-flop Courchevel, heads-up (exact)": lambda r: deal(r, 2, 5, 1),
    "pre-flop Courchevel, 3-way (exact)": lambda r: deal(r, 3, 5, 1),
    "pre-flop 5 Card Omaha, heads-up (exact)": lambda r: deal(r, 2, 5, 0),
    "pre-flop 5 Card Omaha, 3-way (exact)": lambda r: deal(r, 3, 5, 0),
    "pre-flop Omaha, heads-up (exact)": lambda r: deal(r, 2, 4, 0),
    "pre-flop Omaha, heads-up, one hand unknown (mc)": lambda r: unknown(deal(r, 2, 4, 0)),
}
SLOW = ("pre-flop",)


def engine(hands: int, rounds: int) -> None:
    print("engine: hhparse.rules.equity.equity, one core")
    for name, make in SHAPES.items():
        n = max(20, hands // 10) if name.startswith(SLOW) else hands
        rng = random.Random(15)
        equity(make(rng))  # warm the index caches, as a worker is after its first hand
        per_round: list[tuple[float, float, str]] = []
        for _ in range(rounds):
            spots = [make(rng) for _ in range(n)]
            times = []
            t0 = time.perf_counter()
            for s in spots:
                t = time.perf_counter()
                r = equity(s)
                times.append(time.perf_counter() - t)
            total = time.perf_counter() - t0
            per_round.append((n / total, statistics.median(times) * 1e3, r.method))
        per_round.sort()
        rate, ms, method = per_round[len(per_round) // 2]
        rates = ", ".join(f"{x[0]:,.0f}" for x in per_round)
        print(f"  {name:40s} {method:5s} median {ms:7.2f} ms/hand, {rate:8,.0f} hands/s (rounds: {rates})")


def stage(n_hands: int) -> None:
    from hhparse.engine import referee
    from hhparse.errors import ParseError
    from hhparse.ev import hand_ev
    from hhparse.parsing import parse_block
    from hhparse.splitter import split_path

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "synth.txt"
        subprocess.run(
            [
                str(Path(sys.executable).parent / "hhparse"),
                "synth",
                "--hands",
                str(n_hands),
                "--out",
                str(src),
            ],
            check=True,
            cwd=REPO,
            stdout=subprocess.DEVNULL,
        )
        results = []
        for block in split_path(src):
            hand = parse_block(block)
            if not isinstance(hand, ParseError):
                results.append(referee(hand))
    by_street: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    none = 0
    for res in results:
        t = time.perf_counter()
        ev = hand_ev(res)
        dt = time.perf_counter() - t
        if ev is None:
            none += 1
            by_street.setdefault("no all-in EV", []).append(dt)
        else:
            by_street.setdefault(f"street {ev.street} ({ev.method})", []).append(dt)
    total = time.perf_counter() - t0
    print(
        f"stage: hhparse.ev.hand_ev on {len(results):,} synthetic hands, {total:.2f} s "
        f"({total / len(results) * 1e6:.1f} µs a hand on average)"
    )
    for key in sorted(by_street):
        xs = by_street[key]
        print(
            f"  {key:28s} {len(xs):6,d} hands, median {statistics.median(xs) * 1e3:8.3f} ms, "
            f"{len(xs) / sum(xs):10,.0f} hands/s"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=400, help="deals per round (a tenth for pre-flop shapes)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--stage", type=int, default=20_000, help="synthetic hands for the stage figures (0: skip)"
    )
    args = ap.parse_args()
    engine(args.hands, args.rounds)
    if args.stage:
        stage(args.stage)


if __name__ == "__main__":
    main()
