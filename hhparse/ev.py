"""The all-in EV stage: what each player would have won had every all-in paid its equity.

Runs after the referee, on a :class:`~hhparse.model.Hand` and its
:class:`~hhparse.facts.RefereeResult`, and decides nothing the referee decided: the all-in point
is read off the referee's action ledger (``HandFacts.actions``), the pots, their eligible players
(in odd-chip order) and their amounts after rake off its awards, the boards off its facts. The
cards come from the parsed events. The equity itself is :func:`hhparse.rules.equity.equity`.

**Which hands.** A hand gets an all-in EV when the betting ended before the river — after the
last action of some street before the river, every player still in the hand but at most one is
all-in (so no more betting could happen: this covers every player all-in, one player covering
the others, and all but one player having folded out of an all-in confrontation) — with at
least two players in the hand, at least one of them all-in, and at least two of their hands
known at the showdown. The equity is taken at that point: the board dealt by then (Courchevel
pre-flop: the exposed card), every pot as the hand finally formed it (after rake, as the hand
took it), each run of a run-it-twice pot on its own board. A contender whose cards stay unknown
(mucked unseen) is dealt random cards (Monte Carlo). Every other hand's ``allin_ev`` is its
``net``, and so is every hand in which a player cashed out (all-in cash out): the room paid that
player its own estimate of their share and kept what their hand then won, so the pots did not
go to the hands that won them, and the expected net that adds up to minus the rake does not
exist there. Any number of hole cards works (6 Card Omaha: 15 hole pairs).

**Which cards are out of the deck** is :data:`KNOWN_CARDS`, the one switch of that choice.

**What is stored** (:class:`~hhparse.facts.HandEvFacts`): per seated player, the expected net
``E[collected] + returned - contributed`` in whole minor units like ``net`` (rounded by largest
remainder from the exact integer totals, so the players' figures add up to minus the rake
exactly), its standard error (rounded up), and per player, pot, run and half the expected share,
the exact numerator it was rounded from and what was actually won.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from hhparse.cachefiles import cache_dir, read_checked, write_checked
from hhparse.facts import EvShareFact, HandEvFacts, HandFacts, RefereeResult
from hhparse.model import Fold, Hand, Street
from hhparse.rules.equity import EquityPot, EquitySpot, equity, keep_kernel_tables
from hhparse.rules.spec import spec_for

__all__ = ["KNOWN_CARDS", "failed_ev", "hand_ev", "mc_seed", "round_shares", "safe_hand_ev"]

# the equity engine's kernel tables kept in hhparse's cache folder, loaded by the next process
# instead of built on its first all-in spot (the equity engine itself knows nothing of hhparse)
keep_kernel_tables(cache_dir, write_checked, read_checked)

KNOWN_CARDS: str = "printed"
"""Which cards the equity treats as out of the deck (not ``Final``: compiled, a ``Final`` would be
built into the code, and the tests switch it).

``"printed"`` (ours): every card the history prints and that was dealt before the all-in
point is known — the board so far (the exposed card included), every hand shown or mucked face
up, folded hands shown, and the hero's own hole cards even after a fold. A user reviewing a
hand knows them, and they really were not in the deck.

``"contenders"`` (PokerTracker 4's choice): only the board and the hands of the players in the
pots; every other card counts as unseen.
"""


def mc_seed(site: str, hand_id: str) -> int:
    """The Monte Carlo seed of a hand: a hash of its key, so a recomputation gives the same figures."""
    digest = hashlib.blake2b(f"{site}\x1f{hand_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _known_cards(hand: Hand, facts: HandFacts) -> dict[str, list[str]]:
    """Every card the history shows each player holding, in first-seen order."""
    known: dict[str, list[str]] = {}
    for p in facts.players:
        _add_cards(known, p.player, p.hole_cards)
    events: tuple[object, ...] = hand.events  # (compiled: no cast to the Event union a step)
    for e in events:
        if isinstance(e, Fold) and e.shown:
            _add_cards(known, e.player, e.shown)
    if hand.summary is not None:
        for s in hand.summary.seats:
            if s.cards:
                _add_cards(known, s.player, s.cards)
    return known


def _add_cards(known: dict[str, list[str]], player: str, cards: Sequence[str]) -> None:
    """``cards`` added to what ``player`` is known to hold, each once, in first-seen order (a
    module-level function: compiled, a direct C call, where a closure is a Python object called)."""
    mine = known.setdefault(player, [])
    for c in cards:
        if c not in mine:
            mine.append(c)


def _betting_end(facts: HandFacts) -> tuple[int, set[str]] | None:
    """(street the betting ended on, players still in), or None when it did not end before the river.

    Read off the referee's ledger: the street of the last action (blinds included), the players
    who did not fold, and the referee's ``all_in_street`` (None when not all-in at the end).
    """
    last = -1
    folded: set[str] = set()
    for a in facts.actions:
        if a.action == "uncalled":
            continue
        if a.street > last:
            last = a.street
        if a.action == "fold":
            folded.add(a.player)
    if not 0 <= last < Street.RIVER:
        return None
    live = {p.player for p in facts.players if p.dealt_in and p.player not in folded}
    all_in = {p.player for p in facts.players if p.player in live and p.all_in_street is not None}
    if len(live) < 2 or not all_in or len(live - all_in) > 1:
        return None
    return last, live


def hand_ev(result: RefereeResult) -> HandEvFacts | None:
    """The all-in EV of an accepted hand, or None when it has none (see the module docstring)."""
    facts = result.facts
    if facts is None or result.errors:
        return None
    if not any(p.all_in_street is not None for p in facts.players):
        return None
    if any(p.cash_out for p in facts.players):
        return None  # the room bought a player's share of the pots (see the module docstring)
    hand = result.hand
    if hand.cancelled or not facts.boards or any(len(b) != 5 for b in facts.boards):
        return None
    end = _betting_end(facts)
    if end is None:
        return None
    street, live = end
    h = hand.header
    spec = spec_for(h.game, h.hilo, h.structure)
    n_board = (1 if spec.exposed_card else 0) if street == Street.PREFLOP else spec.board_sizes[street - 1]
    board = facts.boards[0][:n_board]
    if any(b[:n_board] != board for b in facts.boards):
        return None  # the runs part before the betting ended: not a board this stage understands
    if n_board == 1 and facts.exposed_card is not None and board != (facts.exposed_card,):
        return None

    known = _known_cards(hand, facts)
    contenders = [p.player for p in facts.players if p.player in live]
    full = [name for name in contenders if len(known.get(name, ())) >= spec.hole_cards]
    if len(full) < 2:
        return None
    index = {name: i for i, name in enumerate(contenders)}
    holes = tuple(tuple(known.get(name, ())[: spec.hole_cards]) for name in contenders)
    if KNOWN_CARDS == "printed":
        dead = tuple(c for name, cards in known.items() if name not in index for c in cards)
    else:
        dead = ()

    amounts: dict[int, dict[int, int]] = {}
    eligible: dict[int, tuple[str, ...]] = {}
    won: dict[tuple[int, int, str, str], int] = {}
    for a in facts.awards:
        amounts.setdefault(a.pot, {})
        amounts[a.pot][a.run] = amounts[a.pot].get(a.run, 0) + a.amount
        eligible[a.pot] = a.eligible
        half = "high" if (a.half == "whole" and spec.hilo and len(a.eligible) > 1) else a.half
        for name, amount in zip(a.winners, a.amounts, strict=True):
            key = (a.pot, a.run, half, name)
            won[key] = won.get(key, 0) + amount
    pot_ids = sorted(amounts)
    if any(name not in index for k in pot_ids for name in eligible[k]) or not pot_ids:
        return None
    pots = tuple(
        EquityPot(tuple(sorted(amounts[k].items())), tuple(index[name] for name in eligible[k]))
        for k in pot_ids
    )
    spot = EquitySpot(spec.hilo, spec.hole_cards, holes, tuple(board), dead, pots)
    res = equity(spot, seed=mc_seed(h.site, h.hand_id))

    seats = {p.player: p.seat for p in facts.players}
    n = res.boards
    method = res.method
    # each share's fields read once (attributes of Python objects, read generically when compiled)
    parts = [(sh.pot, sh.run, sh.half, sh.player, sh.amount, sh.total, sh.std_err) for sh in res.shares]
    by_pot_run: dict[tuple[int, int], list[int]] = {}
    for j, part in enumerate(parts):
        by_pot_run.setdefault((part[0], part[1]), []).append(j)
    rounded = [0] * len(parts)
    for rows in by_pot_run.values():
        for j, v in zip(rows, round_shares([parts[j][5] for j in rows], n), strict=True):
            rounded[j] = v
    share_list: list[EvShareFact] = []
    for j, (pot_i, run, half, player_i, amount, total, err) in enumerate(parts):
        pot_id = pot_ids[pot_i]
        name = contenders[player_i]
        share_list.append(
            EvShareFact(
                pot_id,
                run,
                half,
                name,
                seats[name],
                amount,
                rounded[j],
                total,
                n,
                math.ceil(err),
                won.get((pot_id, run, half, name), 0),
                street,
                method,
            )
        )
    shares = tuple(share_list)
    ev_of = round_shares(list(res.totals), n)
    errors = res.std_err
    allin_ev: list[int] = []
    std_err: list[int] = []
    for p in facts.players:
        i = index.get(p.player)
        if i is None:
            allin_ev.append(p.net)
            std_err.append(0)
        else:
            allin_ev.append(ev_of[i] + p.returned - sum(p.contributed))
            std_err.append(math.ceil(errors[i]))
    return HandEvFacts(street, method, n, tuple(allin_ev), tuple(std_err), shares)


def round_shares(totals: Sequence[int], boards: int) -> list[int]:
    """``totals[i] / boards`` rounded to whole units, keeping their sum when it is whole.

    Largest remainder: each value is rounded down, then the units left over go one each to the
    largest remainders (the first of equal ones first). Integer arithmetic only, so the rounded
    shares of a pot add up to the pot and the players' ``allin_ev`` to minus the rake, exactly.
    """
    floors = [t // boards for t in totals]
    rests = [t - f * boards for t, f in zip(totals, floors, strict=True)]
    left = sum(rests) // boards  # fewer than len(totals): each rest is below boards
    # The largest remainders, the first of equal ones first, picked one at a time: a unit or two
    # among a few values, with no sort and no key function called per value.
    for _ in range(left):
        best = -1
        for i, rest in enumerate(rests):
            if rest >= 0 and (best < 0 or rest > rests[best]):
                best = i
        floors[best] += 1
        rests[best] = -1  # taken
    return floors


def safe_hand_ev(result: RefereeResult) -> HandEvFacts | None:
    """:func:`hand_ev`, or :func:`failed_ev` if it raised: a bug in the EV stage must not cost the
    import an accepted hand (the data test ``allin_ev_computed`` lists such hands)."""
    try:
        return hand_ev(result)
    except Exception:  # any bug: keep the hand, mark its EV failed
        return failed_ev(result)


def failed_ev(result: RefereeResult) -> HandEvFacts | None:
    """What is stored when :func:`hand_ev` raised (a bug): each player's net, method ``failed``."""
    facts = result.facts
    if facts is None:
        return None
    n = len(facts.players)
    return HandEvFacts(None, "failed", 0, tuple(p.net for p in facts.players), (0,) * n, ())
