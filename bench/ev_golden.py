"""The all-in EV stage's whole output, written down, and its CPU time: before/after proof.

Why: a speed change of the EV stage (``hhparse/ev.py``, ``hhparse/rules/equity.py``) must leave
every figure it stores exactly as it was — every EV value to the chip, method, boards, standard
errors and the exact numerators. ``dump`` writes, for every hand of the inputs that reaches the
stage, the stage's :class:`~hhparse.facts.HandEvFacts` and the unrounded
:class:`~hhparse.rules.equity.EquityResult` it came from (floats as their ``repr``), plus the
results of seeded random spots of every shape the engine takes (2-4 contenders, 4, 5 and 6 hole
cards, hi/lo and high, 0, 1, 3 and 4 known board cards, dead cards, side pots, runs twice, a
contender's cards unknown); ``compare`` diffs two dumps line by line. ``time`` measures the CPU of
:func:`hhparse.ev.safe_hand_ev` over the inputs' hands (already parsed and refereed, so only the
stage is timed), ``--rounds`` times, and prints each round and the median.

Inputs: the benchmark mix (``--mix``, default ``/work/benchdata/input-mix-20000`` when present)
and the corpus (``../shared/corpus``).

Usage: python bench/ev_golden.py dump OUT.gz [--random 3000]
       python bench/ev_golden.py compare A.gz B.gz
       python bench/ev_golden.py time [--rounds 5] [--ab OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
MIX = Path("/work/benchdata/input-mix-20000")


def _results(mix: Path | None) -> list[tuple[str, Any]]:
    """(key, referee result) of every parsed hand of the inputs."""
    from hhparse.engine import referee  # type: ignore[attr-defined,unused-ignore]
    from hhparse.errors import ParseError
    from hhparse.parsing import parse_block
    from hhparse.splitter import split_path

    roots = [r for r in (mix, CORPUS) if r is not None and r.exists()]
    out: list[tuple[str, Any]] = []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            for block in split_path(path):
                try:
                    hand = parse_block(block)
                except Exception:
                    continue
                if isinstance(hand, ParseError):
                    continue
                out.append((f"{path.relative_to(root.parent)}:{block.line}", referee(hand)))
    return out


def _random_spots(count: int) -> Iterator[tuple[str, Any]]:
    """Seeded random spots of every shape the engine takes (see the module docstring)."""
    from hhparse.rules.cards import FULL_DECK
    from hhparse.rules.equity import EquityPot, EquitySpot

    rng = random.Random(14)
    for i in range(count):
        hole = rng.choice((4, 5, 6))
        players = rng.choice((2, 2, 2, 3, 3, 4))
        board = rng.choice((0, 0, 1, 3, 3, 4))
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        holes = [tuple(deck[j * hole : (j + 1) * hole]) for j in range(players)]
        at = players * hole
        known = tuple(deck[at : at + board])
        dead = tuple(deck[at + board : at + board + rng.choice((0, 0, 2, 5))])
        if rng.random() < 0.1 and board > 0:
            holes[-1] = holes[-1][: rng.choice((0, hole - 1))]  # unknown cards: Monte Carlo
        pots = []
        eligible = list(range(players))
        rng.shuffle(eligible)
        while eligible:
            amount = rng.randrange(1, 5000)
            runs = ((0, amount),) if rng.random() < 0.85 else ((1, amount), (2, amount + rng.randrange(2)))
            pots.append(EquityPot(runs, tuple(eligible)))
            if len(eligible) == 1 or rng.random() < 0.5:
                break
            eligible = eligible[: rng.randrange(1, len(eligible))]
        hilo = rng.random() < 0.6
        yield f"random {i}", EquitySpot(hilo, hole, tuple(holes), known, dead, tuple(pots))


def dump(out: Path, mix: Path | None, random_spots: int) -> None:
    import hhparse.ev as ev_mod
    from hhparse.rules.equity import equity

    seen: list[str] = []

    def recording(spot: Any, **kw: Any) -> Any:
        res = equity(spot, **kw)
        seen.append(repr(res))
        return res

    ev_mod.equity = recording  # type: ignore[assignment]
    lines = 0
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for key, result in _results(mix):
            seen.clear()
            facts = ev_mod.safe_hand_ev(result)
            if facts is None and not seen:
                continue
            f.write(f"{key}\t{facts!r}\t{' '.join(seen)}\n")
            lines += 1
        for key, spot in _random_spots(random_spots):
            try:
                text = repr(equity(spot, seed=len(key)))
            except ValueError as exc:
                text = f"ValueError: {exc}"
            f.write(f"{key}\t{spot!r}\t{text}\n")
            lines += 1
    print(f"{lines:,} lines written to {out}")


def compare(a: Path, b: Path) -> int:
    with gzip.open(a, "rt", encoding="utf-8") as fa, gzip.open(b, "rt", encoding="utf-8") as fb:
        la, lb = fa.read().splitlines(), fb.read().splitlines()
    bad = 0
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            bad += 1
            if bad <= 5:
                print(f"line {i + 1} differs:\n  {x[:600]}\n  {y[:600]}")
    if len(la) != len(lb):
        print(f"{len(la):,} lines against {len(lb):,}")
        bad += 1
    print(f"{len(la):,} lines, {'identical' if not bad else f'{bad} differ'}")
    return 1 if bad else 0


def _load_equity(checkout: Path) -> Any:
    """Another checkout's ``hhparse/rules/equity.py``, loaded beside ours under its own name."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_ab_equity", checkout / "hhparse" / "rules" / "equity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def timing(mix: Path | None, rounds: int, ab: Path | None) -> None:
    """CPU of the stage a hand, per round; with ``ab``, that checkout's equity module and ours
    alternate round by round in this one process (same hands, same warm caches)."""
    import hhparse.ev as ev_mod

    results = [r for _, r in _results(mix)]
    engines = {"this": ev_mod.equity}
    if ab is not None:
        engines = {"ab": _load_equity(ab).equity, **engines}
    per_hand: dict[str, list[float]] = {name: [] for name in engines}
    for fn in engines.values():
        ev_mod.equity = fn
        for r in results[:200]:
            ev_mod.safe_hand_ev(r)  # the index caches warm, as a worker's are after its first hands
    for i in range(rounds):
        for name, fn in engines.items():
            ev_mod.equity = fn
            t0 = time.process_time()
            for r in results:
                ev_mod.safe_hand_ev(r)
            dt = time.process_time() - t0
            per_hand[name].append(dt / len(results) * 1e6)
            print(
                f"round {i + 1} {name}: {dt:.2f} s CPU, {per_hand[name][-1]:.1f} µs a hand ({len(results):,} hands)"
            )
    for name, xs in per_hand.items():
        print(f"median {name}: {statistics.median(xs):.1f} µs of CPU a hand")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--random", type=int, default=3000)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    t = sub.add_parser("time")
    t.add_argument("--rounds", type=int, default=5)
    t.add_argument("--ab", type=Path, help="another checkout whose equity module alternates with ours")
    for p in (d, t):
        p.add_argument("--mix", type=Path, default=MIX if MIX.exists() else None)
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.mix, args.random)
    elif args.cmd == "compare":
        return compare(args.a, args.b)
    else:
        timing(args.mix, args.rounds, args.ab)
    return 0


if __name__ == "__main__":
    sys.exit(main())
