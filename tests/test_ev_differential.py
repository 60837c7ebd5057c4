"""All-in EV, differential: every real all-in hand of the corpus recomputed by a second engine.

hhparse's all-in EV (``hhparse.ev`` over ``hhparse.rules.equity``: numpy rank tables, exact
enumeration or seeded Monte Carlo) is compared with an independent computation written here,
which shares none of its code:

* **Hand strength** is pokerkit's (``OmahaHoldemHand`` and ``OmahaEightOrBetterLowHand``: exactly
  two hole cards and three board cards — the rule of Omaha, 5 Card Omaha and Courchevel alike).
  Each five-card combination is looked up as pokerkit's own class; because pokerkit's lookup key
  is the rank multiset and whether the five cards share a suit, its entries are cached under that
  key. A player's best on a board is the best over every hole pair and board triple, memoised per
  (player, board triple). For every hand the first boards are also evaluated by pokerkit's
  ``from_game`` on the whole hole and board, and must agree.
* **Which hands, which point, which cards** come from the parsed events, not from the EV stage:
  the all-in point is the street of the last betting action; a hand qualifies when it ended before
  the river with two or more players in, one of them all-in (put in = starting stack), at most one
  not all-in, and two or more of their hands fully printed. Every card the history prints for a
  player (dealt, shown, folded face up, the summary's showed/mucked) is out of the deck — the
  documented ``hhparse.ev.KNOWN_CARDS = "printed"`` choice.
* **Pots** are rebuilt from the players' contributions (the referee's ledger, proven chip by chip
  against the printed lines): one pot per all-in level of the players still in, each over the
  players who reached it; each pot's rake is the one the hand took (the referee's per-pot rake);
  a hand run twice splits each pot between the boards as the hand split it.
* **Settlement** on each board, the room's way (``../shared/rules.md``): the high half gets the
  odd chip, the low half only among qualifying 8-or-better lows of the pot's eligible players (no
  low: the whole pot goes high), tied players share with the odd chips to the first clockwise from
  the button, each side pot and each run on its own.
* **Boards**: every remaining board (``itertools.combinations``) when hhparse enumerated them
  (``exact``); then each player's expected net is an exact fraction, rounded the way hhparse
  documents (largest remainder of the integer totals, equal remainders in seat-list order) and
  must be hhparse's ``allin_ev`` to the chip, and each pot/run/half numerator (``share_sum``) must
  be hhparse's exactly. Where hhparse sampled (``mc``: a contender's cards unknown), or counted
  more than :data:`ENUMERATED_MAX` boards (pre-flop Omaha, counted by rank class), :data:`SAMPLES`
  boards (and the missing hole cards of players whose hand stayed unknown) are drawn with
  ``random.Random(hand id)``, and the two estimates must agree within four standard errors of
  their difference, plus one chip of rounding.

Any disagreement is a bug in one of the two engines: investigate, never loosen the comparison.
``python tests/test_ev_differential.py [--enumerate-all] PATH...`` prints the per-player comparison
for any files.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from hhparse.engine import referee
from hhparse.ev import hand_ev
from hhparse.facts import HandEvFacts, RefereeResult
from hhparse.model import (
    Bet,
    Call,
    Check,
    DealBoard,
    DealHole,
    Fold,
    Game,
    Hand,
    PostBlind,
    Raise,
    Show,
    Street,
)
from hhparse.parsing import parse_block
from hhparse.splitter import split_path

sys.path.insert(0, str(Path(__file__).parent))
from conftest import corpus_hand_files

HOLE_CARDS = {Game("omaha"): 4, Game("5-card-omaha"): 5, Game("courchevel"): 5}
SAMPLES = 3000
"""Boards drawn per hand where hhparse used Monte Carlo (a standard error of about 0.9 % of the
pot; hhparse's own 20,000 samples give about 0.35 %)."""
ENUMERATED_MAX = 5_000
"""Boards pokerkit enumerates at most; a hand hhparse enumerated exactly beyond that (pre-flop
Courchevel: 4 cards to come after the door card, up to 101,270 boards) is sampled like a Monte
Carlo hand instead and compared within the same bound, hhparse's standard error being 0."""
CHECKED_WHOLE = 20
"""Boards per hand also evaluated by pokerkit's ``from_game`` on the whole hole and board."""
Z = 4.0

_ACTIONS = (PostBlind, Fold, Check, Call, Bet, Raise)


# --------------------------------------------------------------------------------------------
# Hand strength: pokerkit
# --------------------------------------------------------------------------------------------

_HIGH: dict[tuple[str, bool], int] = {}
_LOW: dict[tuple[str, bool], int | None] = {}


def _key(cards: Sequence[str]) -> tuple[str, bool]:
    """pokerkit's lookup key: the rank multiset and whether all five cards share a suit."""
    return "".join(sorted(c[0] for c in cards)), len({c[1] for c in cards}) == 1


def high_index(cards: Sequence[str]) -> int:
    """pokerkit's entry index of five cards as an Omaha high hand (larger is stronger)."""
    key = _key(cards)
    value = _HIGH.get(key)
    if value is None:
        value = _HIGH[key] = OmahaHoldemHand("".join(cards)).entry.index
    return value


def low_index(cards: Sequence[str]) -> int | None:
    """pokerkit's entry index of five cards as an 8-or-better low (smaller is stronger; pokerkit
    orders low hands by the reversed index), None when they make no qualifying low."""
    key = _key(cards)
    if key not in _LOW:
        try:
            _LOW[key] = OmahaEightOrBetterLowHand("".join(cards)).entry.index
        except ValueError:
            _LOW[key] = None
    return _LOW[key]


class Player:
    """One contender's best high and low per board triple, over their hole pairs (memoised)."""

    def __init__(self, hole: Sequence[str], hilo: bool) -> None:
        self.pairs = list(itertools.combinations(hole, 2))
        self.hilo = hilo
        self.memo: dict[tuple[str, ...], tuple[int, int | None]] = {}

    def triple(self, triple: tuple[str, ...]) -> tuple[int, int | None]:
        got = self.memo.get(triple)
        if got is None:
            hi = max(high_index(p + triple) for p in self.pairs)
            lo: int | None = None
            if self.hilo:
                lows = [v for p in self.pairs if (v := low_index(p + triple)) is not None]
                lo = min(lows) if lows else None
            got = self.memo[triple] = (hi, lo)
        return got

    def board(self, board: Sequence[str]) -> tuple[int, int | None]:
        best_hi = -1
        best_lo: int | None = None
        for t in itertools.combinations(board, 3):
            hi, lo = self.triple(t)
            best_hi = max(best_hi, hi)
            if lo is not None and (best_lo is None or lo < best_lo):
                best_lo = lo
        return best_hi, best_lo


def whole_hand(hole: Sequence[str], board: Sequence[str], hilo: bool) -> tuple[int, int | None]:
    """The same, by pokerkit's own ``from_game`` on the whole hole and board (slow: a check)."""
    hi = OmahaHoldemHand.from_game("".join(hole), "".join(board)).entry.index
    lo = OmahaEightOrBetterLowHand.from_game_or_none("".join(hole), "".join(board)) if hilo else None
    return hi, None if lo is None else lo.entry.index


# --------------------------------------------------------------------------------------------
# The spot: which hands, which cards, which pots
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pot:
    amount: int  # before rake
    eligible: tuple[str, ...]  # in odd-chip order: first clockwise from the button first
    runs: tuple[tuple[int, int], ...]  # (run, amount after rake) as the hand awarded it


@dataclass(frozen=True)
class Spot:
    hand_id: str
    street: int
    hilo: bool
    hole_size: int
    board: tuple[str, ...]
    holes: dict[str, tuple[str, ...]]  # contenders (players still in), in the facts' order
    dead: frozenset[str]
    pots: tuple[Pot, ...]
    put_in: dict[str, int]  # every player: contributed - returned


def printed_cards(hand: Hand) -> dict[str, list[str]]:
    """Every card the history prints each player holding."""
    out: dict[str, list[str]] = {}

    def add(player: str, cards: Sequence[str]) -> None:
        mine = out.setdefault(player, [])
        mine.extend(c for c in cards if c not in mine)

    for e in hand.events:
        if isinstance(e, (DealHole, Show)):
            add(e.player, e.cards)
        elif isinstance(e, Fold):
            add(e.player, e.shown)
    if hand.summary is not None:
        for s in hand.summary.seats:
            add(s.player, s.cards)
    return out


def build_spot(result: RefereeResult) -> Spot | None:
    """The all-in spot of an accepted hand, or None when it has none (see the module docstring)."""
    hand, facts = result.hand, result.facts
    if facts is None or hand.cancelled or hand.header.game not in HOLE_CARDS:
        return None
    street = -1  # of the last betting action
    current = int(Street.PREFLOP)
    folded: set[str] = set()
    for e in hand.events:
        if isinstance(e, DealBoard):
            current = int(e.street)
        elif isinstance(e, _ACTIONS):
            street = current
            if isinstance(e, Fold):
                folded.add(e.player)
    if street >= Street.RIVER or street < 0:
        return None
    put_in = {p.player: sum(p.contributed) - p.returned for p in facts.players}
    live = [p for p in facts.players if p.dealt_in and p.player not in folded]
    all_in = [p for p in live if put_in[p.player] == p.starting_stack]
    if len(live) < 2 or not all_in or len(live) - len(all_in) > 1:
        return None
    size = HOLE_CARDS[hand.header.game]
    cards = printed_cards(hand)
    holes = {p.player: tuple(cards.get(p.player, ())) for p in live}
    if sum(len(h) == size for h in holes.values()) < 2:
        return None
    assert all(len(h) <= size for h in holes.values()), holes
    n_board = {0: 0, 1: 3, 2: 4}[street]
    if street == 0 and hand.header.game == Game("courchevel"):
        n_board = 1
    board = tuple(facts.boards[0][:n_board])
    assert all(tuple(b[:n_board]) == board for b in facts.boards)
    if n_board == 1:
        assert board == (facts.exposed_card,)
    dead = frozenset(c for name, cs in cards.items() if name not in holes for c in cs)

    # Pots from the contributions: one per all-in level of the players still in.
    button = hand.header.button_seat
    seat = {p.player: p.seat for p in facts.players}
    order = sorted(holes, key=lambda name: (seat[name] - button - 1) % 1000)
    levels = sorted({put_in[name] for name in holes})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(max(0, min(v, level) - below) for v in put_in.values())
        eligible = tuple(name for name in order if put_in[name] >= level)
        below = level
        if amount:
            pots.append(Pot(amount, eligible, ()))
    assert [(p.amount, set(p.eligible)) for p in pots] == [(p.amount, set(p.eligible)) for p in facts.pots], (
        hand.hand_id,
        pots,
        facts.pots,
    )
    runs: dict[int, dict[int, int]] = {}
    for a in facts.awards:
        runs.setdefault(a.pot, {})
        runs[a.pot][a.run] = runs[a.pot].get(a.run, 0) + a.amount
    out = []
    for k, pot in enumerate(pots):
        rake = facts.pots[k].rake
        assert sum(runs[k].values()) == pot.amount - rake
        out.append(Pot(pot.amount, pot.eligible, tuple(sorted(runs[k].items()))))
    return Spot(hand.hand_id, street, hand.header.hilo, size, board, holes, dead, tuple(out), put_in)


# --------------------------------------------------------------------------------------------
# Settlement and enumeration
# --------------------------------------------------------------------------------------------


def split(amount: int, winners: list[str]) -> dict[str, int]:
    """Equal shares, the odd chips one each to the first winners (already in odd-chip order)."""
    base, odd = divmod(amount, len(winners))
    return {w: base + (i < odd) for i, w in enumerate(winners)}


def settle(
    spot: Spot, values: dict[str, tuple[int, int | None]], got: dict[tuple[int, int, str, str], int]
) -> None:
    """Add what each player gets of each (pot, run, half) on one board to ``got``."""
    for k, pot in enumerate(spot.pots):
        for run, amount in pot.runs:
            if len(pot.eligible) == 1:
                key = (k, run, "whole", pot.eligible[0])
                got[key] = got.get(key, 0) + amount
                continue
            best = max(values[n][0] for n in pot.eligible)
            high = [n for n in pot.eligible if values[n][0] == best]
            lows = [v for n in pot.eligible if (v := values[n][1]) is not None]
            halves: list[tuple[str, int, list[str]]]
            if not spot.hilo:
                halves = [("whole", amount, high)]
            elif not lows:
                halves = [("high", amount, high)]
            else:
                low = [n for n in pot.eligible if values[n][1] == min(lows)]
                halves = [("high", amount - amount // 2, high), ("low", amount // 2, low)]
            for half, part, winners in halves:
                for name, share in split(part, winners).items():
                    key = (k, run, half, name)
                    got[key] = got.get(key, 0) + share


@dataclass
class Mine:
    method: str
    boards: int
    totals: dict[str, int]  # sum over the boards of what each contender collects
    shares: dict[tuple[int, int, str, str], int]
    std_err: dict[str, float]  # of the mean, 0 when exact


def compute(spot: Spot, method: str) -> Mine:
    """Every remaining board (``exact``), or :data:`SAMPLES` seeded draws (``mc``): the boards
    (and the missing hole cards) drawn together, uniformly without replacement from the unseen
    cards, by ``random.Random(int(hand id))``."""
    known = set(spot.board) | spot.dead | {c for h in spot.holes.values() for c in h}
    assert len(known) == len(spot.board) + len(spot.dead) + sum(len(h) for h in spot.holes.values())
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in known]
    to_come = 5 - len(spot.board)
    full = {n: Player(h, spot.hilo) for n, h in spot.holes.items() if len(h) == spot.hole_size}
    contested = {n for p in spot.pots if len(p.eligible) > 1 for n in p.eligible}
    missing = {n: spot.hole_size - len(spot.holes[n]) for n in contested if n not in full}
    shares: dict[tuple[int, int, str, str], int] = {}
    per_board: dict[str, list[int]] = {n: [] for n in spot.holes}
    checked = 0

    def one(board: tuple[str, ...], extra: dict[str, tuple[str, ...]]) -> None:
        nonlocal checked
        values = {n: p.board(board) for n, p in full.items()}
        for n, cards in extra.items():
            values[n] = Player(spot.holes[n] + cards, spot.hilo).board(board)
        if checked < CHECKED_WHOLE:
            checked += 1
            for n in values:
                hole = spot.holes[n] + extra.get(n, ())
                assert values[n] == whole_hand(hole, board, spot.hilo), (spot.hand_id, hole, board)
        got: dict[tuple[int, int, str, str], int] = {}
        settle(spot, values, got)
        for key, v in got.items():
            shares[key] = shares.get(key, 0) + v
        if method == "mc":
            for n in per_board:
                per_board[n].append(sum(v for key, v in got.items() if key[3] == n))

    if method == "exact":
        assert not missing
        n = math.comb(len(deck), to_come)
        for new in itertools.combinations(deck, to_come):
            one(spot.board + new, {})
    else:
        rng = random.Random(int(spot.hand_id))
        n = SAMPLES
        need = sum(missing.values())
        for _ in range(n):
            drawn = rng.sample(deck, to_come + need)
            extra: dict[str, tuple[str, ...]] = {}
            at = to_come
            for name, m in missing.items():
                extra[name] = tuple(drawn[at : at + m])
                at += m
            one(spot.board + tuple(drawn[:to_come]), extra)
    totals = {name: sum(v for key, v in shares.items() if key[3] == name) for name in spot.holes}
    std_err = {name: 0.0 for name in spot.holes}
    if method == "mc":
        for name, xs in per_board.items():
            mean = sum(xs) / n
            std_err[name] = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    return Mine(method, n, totals, shares, std_err)


def largest_remainder(totals: list[int], boards: int) -> list[int]:
    """``totals[i] / boards`` in whole chips keeping the sum: floors, then one chip each to the
    largest remainders, equal remainders in list order (hhparse's documented rounding)."""
    floors = [t // boards for t in totals]
    rests = [t % boards for t in totals]
    left = (sum(totals) - sum(floors) * boards) // boards
    for i in sorted(range(len(totals)), key=lambda i: (-rests[i], i))[:left]:
        floors[i] += 1
    return floors


# --------------------------------------------------------------------------------------------
# The comparison
# --------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One player of one compared hand."""

    hand_id: str
    player: str
    method: str
    hhparse: int
    mine: Fraction | float  # exact expectation, or the sample estimate
    mine_rounded: int | None  # exact: rounded as hhparse rounds
    bound: float  # mc: the allowed difference
    ok: bool


def compare(result: RefereeResult) -> tuple[Spot | None, HandEvFacts | None, list[Row], list[str]]:
    """(my spot, hhparse's EV, one row per player, problems) for one accepted hand."""
    spot = build_spot(result)
    ev = hand_ev(result)
    facts = result.facts
    assert facts is not None
    hid = result.hand.hand_id
    if spot is None or ev is None:
        problems = (
            []
            if spot is None and ev is None
            else [f"{hid}: all-in EV spot: mine {spot is not None}, hhparse {ev is not None}"]
        )
        return spot, ev, [], problems
    problems = []
    if ev.street != spot.street:
        problems.append(f"{hid}: street {ev.street} != {spot.street}")
    method = ev.method
    if method == "exact" and ev.boards > ENUMERATED_MAX:
        method = "mc"  # too many boards for pokerkit: sampled, compared within the bound
    mine = compute(spot, method)
    rows: list[Row] = []
    names = [p.player for p in facts.players]
    contenders = [n for n in names if n in spot.holes]
    if mine.method == "exact":
        if ev.boards != mine.boards:
            problems.append(f"{hid}: {ev.boards} boards != {mine.boards}")
        theirs = {(s.pot, s.run, s.half, s.player): s.share_sum for s in ev.shares}
        for key in sorted(set(theirs) | set(mine.shares)):
            if theirs.get(key, 0) != mine.shares.get(key, 0):
                problems.append(f"{hid}: share {key}: hhparse {theirs.get(key)} != {mine.shares.get(key)}")
        rounded = dict(
            zip(contenders, largest_remainder([mine.totals[n] for n in contenders], mine.boards), strict=True)
        )
    for p, value, err in zip(facts.players, ev.allin_ev, ev.std_err, strict=True):
        base = p.returned - sum(p.contributed)
        if p.player not in spot.holes:
            rows.append(Row(hid, p.player, "net", value, Fraction(p.net), p.net, 0.0, value == p.net))
        elif mine.method == "exact":
            exact = Fraction(mine.totals[p.player], mine.boards) + base
            r = rounded[p.player] + base
            rows.append(
                Row(hid, p.player, "exact", value, exact, r, 0.0, value == r and abs(value - exact) < 1)
            )
        else:
            est = mine.totals[p.player] / mine.boards + base
            bound = Z * math.hypot(err, mine.std_err[p.player]) + 1
            rows.append(
                Row(hid, p.player, f"{ev.method}~", value, est, None, bound, abs(value - est) <= bound)
            )
    problems += [
        f"{r.hand_id} {r.player} ({r.method}): hhparse {r.hhparse}, independent {float(r.mine):.2f}"
        f"{'' if r.mine_rounded is None else f' -> {r.mine_rounded}'} (bound {r.bound:.1f})"
        for r in rows
        if not r.ok
    ]
    return spot, ev, rows, problems


def accepted(paths: Sequence[Path]) -> Iterator[RefereeResult]:
    for path in paths:
        for block in split_path(path):
            hand = parse_block(block)
            if isinstance(hand, Hand):
                result = referee(hand)
                if result.valid:
                    yield result


def real_files(corpus_dir: Path) -> list[Path]:
    """The real PokerStars histories: not the FPDB companions (copies of hands also here) nor the
    synthetic fixtures."""
    return [
        p
        for p in corpus_hand_files(corpus_dir)
        if not {"_fpdb3-head", "synthetic"} & set(p.relative_to(corpus_dir).parts)
    ]


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.corpus
def test_corpus_all_in_ev_agrees_with_an_independent_computation(corpus_dir: Path) -> None:
    """Every real all-in hand: hhparse's ``allin_ev`` of each player is the independent one (to the
    chip when exact, within the statistical bound when sampled), and both find the same hands."""
    hands: set[tuple[str, str]] = set()
    rows: list[Row] = []
    problems: list[str] = []
    for result in accepted(real_files(corpus_dir)):
        spot, ev, hand_rows, hand_problems = compare(result)
        problems += hand_problems
        if spot is not None and ev is not None:
            hands.add((result.hand.source, result.hand.hand_id))
            rows += hand_rows
    assert not problems, "\n".join(problems)
    methods = {r.method for r in rows}
    # Pre-flop Omaha all-ins are exact in hhparse (counted by rank class) but too many boards to
    # list here: compared with this file's sampling ("exact~"), as sampled hands are ("mc~").
    assert len(hands) >= 35 and {"exact", "exact~", "net"} <= methods <= {"exact", "exact~", "mc~", "net"}, (
        len(hands),
        methods,
    )
    sampled = sum(r.method in ("exact~", "mc~") for r in rows)
    assert sum(r.method == "exact" for r in rows) >= 50 and sampled >= 30


def test_settlement_quarters_and_odd_chips() -> None:
    """The independent settlement itself, on a board counted by hand: Omaha Hi/Lo, board Kd Ks 3c 4h
    7s, pot of 101 after rake. A (Ac 2d Qh Qc) and B (Qd Qs 9c 9d) tie the high (kings and queens,
    seven kicker), A and C (As 2c 8c 8d) tie the low (7-4-3-2-A; B has none): the high half 51 goes
    26 / 25 (A first clockwise from the button), the low half 50 goes 25 / 25."""
    spot = Spot(
        "1",
        1,
        True,
        4,
        ("Kd", "Ks", "3c", "4h", "7s"),
        {},
        frozenset(),
        (Pot(101, ("A", "B", "C"), ((0, 101),)),),
        {},
    )
    a, b, c = (
        Player(h, True)
        for h in (("Ac", "2d", "Qh", "Qc"), ("Qd", "Qs", "9c", "9d"), ("As", "2c", "8c", "8d"))
    )
    board = spot.board
    values = {"A": a.board(board), "B": b.board(board), "C": c.board(board)}
    got: dict[tuple[int, int, str, str], int] = {}
    settle(spot, values, got)
    assert values["A"][0] == values["B"][0] > values["C"][0]
    assert values["A"][1] == values["C"][1] is not None and values["B"][1] is None
    assert got == {
        (0, 0, "high", "A"): 26,
        (0, 0, "high", "B"): 25,
        (0, 0, "low", "A"): 25,
        (0, 0, "low", "C"): 25,
    }
    assert largest_remainder([10, 10, 10], 3) == [4, 3, 3] and largest_remainder([1, 29], 6) == [0, 5]


# --------------------------------------------------------------------------------------------
# By hand: python tests/test_ev_differential.py [--enumerate-all] PATH...
# --------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    """``--enumerate-all``: enumerate every board hhparse enumerated (pre-flop Courchevel heads-up:
    101,270 boards, a few seconds a hand) instead of sampling above :data:`ENUMERATED_MAX`."""
    global ENUMERATED_MAX
    if "--enumerate-all" in argv:
        argv = [a for a in argv if a != "--enumerate-all"]
        ENUMERATED_MAX = 10**9
    paths = [f for a in argv for f in (sorted(Path(a).rglob("*.txt")) if Path(a).is_dir() else [Path(a)])]
    bad = 0
    for result in accepted(paths):
        t0 = time.perf_counter()
        spot, ev, rows, problems = compare(result)
        if spot is None and ev is None:
            continue
        took = time.perf_counter() - t0
        print(
            f"{result.hand.source}  #{result.hand.hand_id}  street {spot.street if spot else '?'}  "
            f"{ev.method if ev else '-'}  {ev.boards if ev else 0} boards  {took:.2f}s"
        )
        for r in rows:
            print(
                f"    {r.player:20} {r.method:5} hhparse {r.hhparse:>9}  independent {float(r.mine):>11.2f}"
                f"{'' if r.mine_rounded is None else f' -> {r.mine_rounded}':>10}  "
                f"{'ok' if r.ok else 'DIFFERENT'}"
            )
        for p in problems:
            print("    PROBLEM", p)
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
