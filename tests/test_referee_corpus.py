"""Every real Omaha-family and Courchevel hand of the corpus replays as valid, with net results
that match the amounts printed in the hand; damaged hands (pokerstars-format.md §14) are flagged.

If a rule rejects a real, undamaged hand, the rule is wrong, not the hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from hhparse.engine import referee
from hhparse.errors import ParseError
from hhparse.facts import RefereeResult
from hhparse.model import Bet, Call, Collect, Hand, PostBlind, PostKind, Raise, UncalledBet
from hhparse.parsing import parse_file

pytestmark = pytest.mark.corpus

SKIP_DIRS = ("converted", "synthetic", "summaries")

# §14 damaged hands: (hand id) -> the code that must flag them. Both are rejected by the parser
# before the referee sees them (the anonymiser's broken seat line, the forum's hard line wrap).
DAMAGED: dict[str, str] = {
    "258753941248": "syntax",  # O8-25: "Seat 5: Player6 (didn't bet)" names the wrong player
    "0000000000": "syntax",  # O8-PERL: a summary line wrapped in two
}


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    for p in sorted(root.rglob("*.txt")):
        rel = p.relative_to(root).as_posix()
        parts = rel.split("/")
        if parts[0] in SKIP_DIRS or (parts[0] == "_fpdb3-head" and parts[1] in SKIP_DIRS):
            continue
        yield rel, p


@pytest.fixture(scope="module")
def refereed(corpus_dir: Path) -> list[tuple[str, Hand | ParseError, RefereeResult | None]]:
    out: list[tuple[str, Hand | ParseError, RefereeResult | None]] = []
    for rel, path in _files(corpus_dir):
        for item in parse_file(path):
            out.append((rel, item, referee(item) if isinstance(item, Hand) else None))
    return out


def _printed_net(hand: Hand) -> dict[str, int]:
    """Net per player recomputed straight from the printed amounts (independent of the engine)."""
    street_total: dict[str, int] = defaultdict(int)
    put_in: dict[str, int] = defaultdict(int)
    got: dict[str, int] = defaultdict(int)
    for e in hand.events:
        if isinstance(e, PostBlind):
            put_in[e.player] += e.amount
            if e.kind is not PostKind.ANTE:
                street_total[e.player] += e.amount
        elif isinstance(e, Call | Bet):
            put_in[e.player] += e.amount
            street_total[e.player] += e.amount
        elif isinstance(e, Raise):
            put_in[e.player] += e.to - street_total[e.player]
            street_total[e.player] = e.to
        elif isinstance(e, UncalledBet | Collect):
            got[e.player] += e.amount
        elif type(e).__name__ == "DealBoard":
            street_total.clear()
    return {s.player: got[s.player] - put_in[s.player] for s in hand.seats}


def test_every_real_hand_is_valid(refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    bad = []
    hands = 0
    for rel, item, result in refereed:
        if result is None:
            continue
        hands += 1
        if not result.valid:
            bad.append(f"{rel} #{item.hand_id if isinstance(item, Hand) else '?'}: "
                       + "; ".join(f"{v.code}@{v.line}: {v.message}" for v in result.errors))
    assert hands >= 250
    assert not bad, "\n".join(bad)


def test_net_results_match_printed_amounts(refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    for _, item, result in refereed:
        if result is None or result.facts is None or not isinstance(item, Hand) or item.cancelled:
            continue
        printed = _printed_net(item)
        # 2005 histories return uncalled bets silently: the engine's net includes the return.
        silent = {p.player: p.returned for p in result.facts.players
                  if p.returned and not any(isinstance(e, UncalledBet) for e in item.events)}
        for p in result.facts.players:
            assert p.net == printed[p.player] + silent.get(p.player, 0), (item.hand_id, p.player)
        total_net = sum(p.net for p in result.facts.players)
        assert total_net == -result.facts.rake, item.hand_id  # chips are conserved: only rake leaves


def test_stacks_carry_over_between_tournament_hands(
        refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    """Next hand's starting stack = this hand's start + net (tournaments: no top-ups)."""
    checked = 0
    prev: dict[str, tuple[Hand | ParseError, RefereeResult | None]] = {}
    for rel, item, result in refereed:
        last = prev.get(rel)
        prev[rel] = (item, result)  # only directly consecutive hands (other games may sit between)
        if result is None or result.facts is None or not isinstance(item, Hand) or item.header.tournament is None:
            continue
        if last is not None and isinstance(last[0], Hand) and last[0].header.table == item.header.table:
            ph, pr = last[0], last[1]
            assert pr is not None
            assert pr.facts is not None
            after = {p.player: p.starting_stack + p.net for p in pr.facts.players}
            for s in item.seats:
                if s.player in after:
                    assert s.stack == after[s.player], (ph.hand_id, item.hand_id, s.player)
                    checked += 1
    assert checked > 500


def test_damaged_hands_are_flagged(refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    seen: dict[str, str] = {}
    for _, item, result in refereed:
        hid = item.hand_id
        if hid in DAMAGED:
            if isinstance(item, ParseError):
                seen[hid] = item.code
            else:
                assert result is not None
                seen[hid] = ",".join(sorted({v.code for v in result.errors}))
    assert seen == DAMAGED


def test_fpdb_copies_give_the_same_verdict(
        refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    verdicts: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for rel, item, result in refereed:
        if result is None or not isinstance(item, Hand):
            continue
        if "rosalind-renamed" in rel:  # a doctored copy of another hand id (§14.4)
            continue
        verdicts[item.hand_id].add(tuple(sorted(v.code for v in result.errors)))
    assert all(len(v) == 1 for v in verdicts.values())
    assert len(verdicts) >= 130  # 135 distinct hand ids


def test_courchevel_2016_board_is_a_warning_not_an_error(
        refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]]) -> None:
    results = [r for rel, _, r in refereed if r is not None and "2016-weird-board" in rel]
    assert results and all(r.valid and any(w.code == "courchevel-2016-board" for w in r.warnings) for r in results)
