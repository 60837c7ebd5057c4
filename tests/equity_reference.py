"""A brute-force all-in equity: every board, the referee's own evaluator and split functions.

Independent of :mod:`hhparse.rules.equity` (which builds its own tables and never calls the
evaluator): each board is settled with :func:`hhparse.rules.evaluate.evaluate` and the pot rules
of :mod:`hhparse.rules.pots`, one Python loop iteration at a time. Only for small cases.
"""

from __future__ import annotations

import itertools

from hhparse.rules.cards import FULL_DECK
from hhparse.rules.equity import EquitySpot
from hhparse.rules.evaluate import evaluate
from hhparse.rules.pots import hilo_halves, split_evenly


def settle_board(
    spot: EquitySpot, holes: tuple[tuple[str, ...], ...], board: tuple[str, ...]
) -> dict[tuple[int, int, str, int], int]:
    """What each player gets of each (pot, run, half) on one complete board."""
    evals = {i: evaluate(h, board, spot.hilo) for i, h in enumerate(holes)}
    out: dict[tuple[int, int, str, int], int] = {}
    for k, pot in enumerate(spot.pots):
        for run, amount in pot.runs:
            elig = pot.eligible
            if len(elig) == 1:
                out[(k, run, "whole", elig[0])] = amount
                continue
            best = max(evals[i][0].rank for i in elig)
            hi_w = [i for i in elig if evals[i][0].rank == best]
            lows = [evals[i][1].rank for i in elig if evals[i][1] is not None]  # type: ignore[union-attr]
            if spot.hilo and lows:
                low = min(lows)
                lo_w = [i for i in elig if evals[i][1] is not None and evals[i][1].rank == low]  # type: ignore[union-attr]
                hi_amt, lo_amt = hilo_halves(amount)
            else:
                lo_w, hi_amt, lo_amt = [], amount, 0
            high_half = "high" if spot.hilo else "whole"
            for i in elig:
                out[(k, run, high_half, i)] = 0
                if spot.hilo:
                    out[(k, run, "low", i)] = 0
            for i, a in zip(hi_w, split_evenly(hi_amt, hi_w), strict=True):
                out[(k, run, high_half, i)] += a
            for i, a in zip(lo_w, split_evenly(lo_amt, lo_w), strict=True):
                out[(k, run, "low", i)] += a
    return out


def brute_force(spot: EquitySpot) -> tuple[int, dict[tuple[int, int, str, int], int]]:
    """(boards, share summed over every board per (pot, run, half, player)), all holes known."""
    known = set(spot.board) | set(spot.dead) | {c for h in spot.holes for c in h}
    unseen = [c for c in FULL_DECK if c not in known]
    totals: dict[tuple[int, int, str, int], int] = {}
    n = 0
    for extra in itertools.combinations(unseen, 5 - len(spot.board)):
        n += 1
        for key, amount in settle_board(spot, spot.holes, tuple(spot.board) + extra).items():
            totals[key] = totals.get(key, 0) + amount
    return n, totals


def brute_force_unknown(spot: EquitySpot) -> tuple[int, dict[tuple[int, int, str, int], int]]:
    """Like :func:`brute_force`, also dealing every possible completion of the incomplete holes."""
    known = set(spot.board) | set(spot.dead) | {c for h in spot.holes for c in h}
    unseen = [c for c in FULL_DECK if c not in known]
    need = [spot.hole_size - len(h) for h in spot.holes]
    totals: dict[tuple[int, int, str, int], int] = {}
    n = 0

    def deal(i: int, left: list[str], holes: list[tuple[str, ...]]) -> None:
        nonlocal n
        if i == len(spot.holes):
            for extra in itertools.combinations(left, 5 - len(spot.board)):
                n += 1
                for key, amount in settle_board(spot, tuple(holes), tuple(spot.board) + extra).items():
                    totals[key] = totals.get(key, 0) + amount
            return
        for add in itertools.combinations(left, need[i]):
            rest = [c for c in left if c not in add]
            deal(i + 1, rest, [*holes, spot.holes[i] + add])

    deal(0, unseen, [])
    return n, totals
