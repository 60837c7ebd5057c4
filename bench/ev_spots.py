"""The EV stage's equity spots, recorded once: CPU by kind of spot, and what batching them would get.

Why: the stage's cost is a few thousand calls of :func:`hhparse.rules.equity.equity`, of very
different kinds (pre-flop Omaha counted by rank class, the flop and turn listed, pre-flop
Courchevel, Monte Carlo). Timing them apart, with the referee and the rest of ``hand_ev`` out of
the way, says which kind a change moves; and whether a chunk's spots could share numpy calls
depends on how many of them have the same shape in a chunk or a task (issue #14, branch ev31).

``record OUT`` writes every spot the stage passes to ``equity`` over the inputs (the bench mix,
``--mix``, and the corpus; the same hands as ``bench/ev_golden.py``), in input order, with its
seed and its hand's position. ``time OUT`` prints the CPU of ``equity`` a hand of the inputs per
kind of spot (``--ab CHECKOUT``: that checkout's equity module and ours alternate round by round
in this one process, and each spot's results must be identical; Monte Carlo spots are left out
unless ``--mc``). ``batches OUT`` prints how many spots of the same shape a batch of ``--window``
consecutive hands would hold, per kind (the flop's and turn's shape: board cards, unseen cards,
hole cards, hi/lo, contenders; pre-flop: hole cards, hi/lo, contenders), the spot's own group
counted for each spot. ``stacked OUT`` times the part of a pre-flop spot that is the same numpy
work for every spot (each contender's tables and best value per rank class, ``_players`` and
``_class_values``) spot by spot against the spots of each batch of ``--window`` hands stacked in
one call: what batching buys where it is easiest.

Usage: python bench/ev_spots.py record OUT.pkl [--mix DIR]
       python bench/ev_spots.py time OUT.pkl [--rounds 5] [--ab OTHER_CHECKOUT] [--mc]
       python bench/ev_spots.py batches OUT.pkl [--window 50 500]
       python bench/ev_spots.py stacked OUT.pkl [--window 50] [--rounds 7]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ev_golden import MIX, _load_equity, _results


def record(out: Path, mix: Path | None) -> None:
    import hhparse.ev as ev_mod
    from hhparse.rules.equity import equity

    spots: list[tuple[int, Any, int]] = []
    at = 0

    def recording(spot: Any, **kw: Any) -> Any:
        spots.append((at, spot, kw.get("seed", 0)))
        return equity(spot, **kw)

    ev_mod.equity = recording  # type: ignore[assignment]
    results = _results(mix)
    for at, (_, result) in enumerate(results):  # noqa: B007 (read by recording)
        ev_mod.safe_hand_ev(result)
    with out.open("wb") as f:
        pickle.dump({"hands": len(results), "spots": spots}, f)
    print(f"{len(spots):,} spots of {len(results):,} hands written to {out}")


def _kind(spot: Any) -> str:
    street = {0: "pre-flop", 1: "pre-flop Courchevel", 3: "flop", 4: "turn"}.get(len(spot.board), "river")
    mc = any(len(h) < spot.hole_size for h in spot.holes)
    return f"{street}{' (Monte Carlo)' if mc else ''}"


def _shape(spot: Any) -> tuple[Any, ...]:
    unseen = 52 - len(spot.board) - len(spot.dead) - sum(len(h) for h in spot.holes)
    if len(spot.board) in (3, 4):
        return (len(spot.board), unseen, spot.hole_size, spot.hilo, len(spot.holes))
    return (len(spot.board), spot.hole_size, spot.hilo, len(spot.holes))


def _as(module: Any, spot: Any) -> Any:
    pots = tuple(module.EquityPot(p.runs, p.eligible) for p in spot.pots)
    return module.EquitySpot(spot.hilo, spot.hole_size, spot.holes, spot.board, spot.dead, pots)


def _same(a: Any, b: Any) -> bool:
    def key(r: Any) -> tuple[Any, ...]:
        shares = [(s.pot, s.run, s.half, s.player, s.amount, s.ev, s.std_err, s.total) for s in r.shares]
        return (r.method, r.boards, r.ev, r.std_err, r.totals, shares)

    return key(a) == key(b)


def timing(path: Path, rounds: int, ab: Path | None, mc: bool) -> None:
    import hhparse.rules.equity as ours

    with path.open("rb") as f:
        data = pickle.load(f)
    hands = data["hands"]
    engines = {"this": ours}
    if ab is not None:
        engines = {"ab": _load_equity(ab), **engines}
    kinds: dict[str, list[tuple[int, Any]]] = defaultdict(list)
    for _, spot, seed in data["spots"]:
        if mc or "Monte" not in _kind(spot):
            kinds[_kind(spot)].append((seed, spot))
    converted = {
        name: {k: [(s, _as(m, sp)) for s, sp in v] for k, v in kinds.items()} for name, m in engines.items()
    }
    if ab is not None:
        differ = 0
        for k in kinds:
            for (seed, a), (_, b) in zip(converted["ab"][k], converted["this"][k], strict=True):
                differ += not _same(engines["ab"].equity(a, seed=seed), ours.equity(b, seed=seed))
        print(f"spots whose results differ between the two modules: {differ}")
    per: dict[tuple[str, str], list[float]] = defaultdict(list)
    for i in range(rounds):
        names = list(engines) if i % 2 == 0 else list(reversed(engines))
        for k in kinds:
            for name in names:
                fn = engines[name].equity
                t0 = time.process_time()
                for seed, spot in converted[name][k]:
                    fn(spot, seed=seed)
                per[(k, name)].append((time.process_time() - t0) / hands * 1e6)
    print(f"µs of CPU a hand of the inputs ({hands:,} hands), medians of {rounds} rounds")
    for k, spots in sorted(kinds.items(), key=lambda kv: -statistics.median(per[(kv[0], "this")])):
        cells = "  ".join(f"{name} {statistics.median(per[(k, name)]):7.2f}" for name in engines)
        line = f"{k:30s} {len(spots):6,} spots  {cells}"
        if ab is not None:
            paired = statistics.median(t / a for a, t in zip(per[(k, "ab")], per[(k, "this")], strict=True))
            line += f"  paired this/ab {paired:.3f}"
        print(line)


def batches(path: Path, windows: list[int]) -> None:
    with path.open("rb") as f:
        data = pickle.load(f)
    for window in windows:
        groups: dict[str, list[int]] = defaultdict(list)
        by_window: dict[int, Counter[tuple[str, tuple[Any, ...]]]] = defaultdict(Counter)
        for at, spot, _ in data["spots"]:
            by_window[at // window][(_kind(spot), _shape(spot))] += 1
        for counter in by_window.values():
            for (kind, _), n in counter.items():
                groups[kind].extend([n] * n)
        print(f"batches of {window} hands: spots of the same shape in a spot's batch (mean, median)")
        for kind, sizes in sorted(groups.items()):
            print(
                f"  {kind:30s} {len(sizes):6,} spots  {statistics.mean(sizes):6.2f}  {statistics.median(sizes):5.1f}"
            )


def stacked(path: Path, window: int, rounds: int) -> None:
    import numpy as np

    import hhparse.rules.equity as eq

    with path.open("rb") as f:
        data = pickle.load(f)
    by_batch: dict[tuple[int, int, bool], list[Any]] = defaultdict(list)
    for at, spot, _ in data["spots"]:
        if not spot.board and all(len(h) == spot.hole_size for h in spot.holes):
            holes = np.array([[eq.CARD_INDEX[c] for c in h] for h in spot.holes], dtype=np.int64)
            by_batch[(at // window, spot.hole_size, spot.hilo)].append(holes)
    rc = eq._rank_classes()
    n = sum(len(v) for v in by_batch.values())

    def alone() -> None:
        for (_, _, hilo), spots in by_batch.items():
            for holes in spots:
                eq._class_values(eq._players(holes), rc, hilo)

    def together() -> None:
        for (_, _, hilo), spots in by_batch.items():
            eq._class_values(eq._players(np.concatenate(spots)), rc, hilo)

    per: dict[str, list[float]] = {"spot by spot": [], "stacked": []}
    for i in range(rounds):
        cases = [("spot by spot", alone), ("stacked", together)]
        for name, fn in cases if i % 2 == 0 else cases[::-1]:
            t0 = time.process_time()
            fn()
            per[name].append((time.process_time() - t0) / n * 1e6)
    print(f"{n:,} pre-flop spots in {len(by_batch):,} batches of {window} hands (by hole cards, hi/lo)")
    for name, xs in per.items():
        print(
            f"  {name:13s} median {statistics.median(xs):7.1f} µs of CPU a spot ({', '.join(f'{x:.0f}' for x in xs)})"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("out", type=Path)
    r.add_argument("--mix", type=Path, default=MIX if MIX.exists() else None)
    t = sub.add_parser("time")
    t.add_argument("spots", type=Path)
    t.add_argument("--rounds", type=int, default=5)
    t.add_argument("--ab", type=Path, help="another checkout whose equity module alternates with ours")
    t.add_argument("--mc", action="store_true", help="time the Monte Carlo spots too")
    b = sub.add_parser("batches")
    b.add_argument("spots", type=Path)
    b.add_argument("--window", type=int, nargs="+", default=[50, 500])
    st = sub.add_parser("stacked")
    st.add_argument("spots", type=Path)
    st.add_argument("--window", type=int, default=50)
    st.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    if args.cmd == "record":
        record(args.out, args.mix)
    elif args.cmd == "time":
        timing(args.spots, args.rounds, args.ab, args.mc)
    elif args.cmd == "batches":
        batches(args.spots, args.window)
    else:
        stacked(args.spots, args.window, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
