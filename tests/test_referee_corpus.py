"""Every real Omaha-family and Courchevel hand of the corpus replays as valid, with net results
that match the amounts printed in the hand; damaged and truncated hands (pokerstars-format.md §14,
corpus SOURCES.md "Added later") are flagged with the right code while the complete hands of the
same files stay valid. Converted and synthetic files are not PokerStars output: they never crash
the referee, and are never ground truth.

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
from hhparse.model import (
    Bet,
    Call,
    Collect,
    Hand,
    PostBlind,
    PostKind,
    Raise,
    TableEvent,
    TableEventKind,
    UncalledBet,
)
from hhparse.parsing import parse_file

pytestmark = pytest.mark.corpus

SKIP_DIRS = ("converted", "synthetic", "summaries")
# Damaged and truncated hands: (hand id) -> the codes that may flag it. Never valid, never a crash.
DAMAGED: dict[str, tuple[str, ...]] = {
    "258753941248": ("syntax",),  # O8-25: "Seat 5: Player6 (didn't bet)" names the wrong player
    "0000000000": ("syntax",),  # O8-PERL: a summary line wrapped in two
    "246328968504": ("wrong-board-size",),  # 2023 Zoom: the FLOP line repeats the hero's 4 hole cards
    "238296909420": ("syntax",),  # 6 Card Omaha 2022: "*** TURN *** [3c Jd 6d] []"
    "112824228684": ("truncated-hand",),  # FPDB partial file: cut in the FLOP line
    "112824184047": ("truncated-hand",),  # cut after "Player0"
    "142624277978": ("truncated-hand",),  # cut in the table line
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
        elif isinstance(e, TableEvent) and e.kind is TableEventKind.CASHED_OUT:
            got[e.player] += e.amount or 0  # paid by the room
        elif type(e).__name__ == "DealBoard":
            street_total.clear()
    return {s.player: got[s.player] - put_in[s.player] for s in hand.seats}


def test_every_real_hand_is_valid(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    bad = []
    hands = 0
    for rel, item, result in refereed:
        if item.hand_id in DAMAGED:
            continue
        if isinstance(item, ParseError):
            # what is left unparsed: the other games of mixed-game files, nothing else
            ok = item.code == "unsupported-game" and "mixed/" in rel
            if not ok:
                bad.append(f"{rel}: {item.format()}")
            continue
        assert result is not None
        hands += 1
        if not result.valid:
            bad.append(
                f"{rel} #{item.hand_id if isinstance(item, Hand) else '?'}: "
                + "; ".join(f"{v.code}@{v.line}: {v.message}" for v in result.errors)
            )
    assert hands >= 290
    assert not bad, "\n".join(bad)


def test_net_results_match_printed_amounts(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    for _, item, result in refereed:
        if result is None or result.facts is None or not isinstance(item, Hand) or item.cancelled:
            continue
        printed = _printed_net(item)
        # 2005 histories return uncalled bets silently: the engine's net includes the return.
        silent = {
            p.player: p.returned
            for p in result.facts.players
            if p.returned and not any(isinstance(e, UncalledBet) for e in item.events)
        }
        for p in result.facts.players:
            assert p.net == printed[p.player] + silent.get(p.player, 0), (item.hand_id, p.player)
        total_net = sum(p.net for p in result.facts.players)
        # chips are conserved: only rake leaves, and what the room paid for a cash out comes in
        # while what that player's hand then won stays with the room
        room = sum(p.cash_out - p.high_won - p.low_won for p in result.facts.players if p.cash_out)
        assert total_net == room - result.facts.rake, item.hand_id


def test_stacks_carry_over_between_tournament_hands(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    """Next hand's starting stack = this hand's start + net (tournaments: no top-ups)."""
    checked = 0
    prev: dict[str, tuple[Hand | ParseError, RefereeResult | None]] = {}
    for rel, item, result in refereed:
        last = prev.get(rel)
        prev[rel] = (item, result)  # only directly consecutive hands (other games may sit between)
        if (
            result is None
            or result.facts is None
            or not isinstance(item, Hand)
            or item.header.tournament is None
        ):
            continue
        if last is not None and isinstance(last[0], Hand) and last[0].header.table == item.header.table:
            ph, pr = last[0], last[1]
            assert pr is not None
            assert pr.facts is not None
            after = {p.player: p.starting_stack + p.net for p in pr.facts.players}
            for e in ph.events:  # a rebuy or add-on among the hand's lines is for the next hand
                if (
                    isinstance(e, TableEvent)
                    and e.kind in (TableEventKind.REBUY, TableEventKind.ADD_ON)
                    and e.line > ph.seats[-1].line
                ):
                    after[e.player] = after.get(e.player, 0) + (e.amount or 0)
            for e in item.events:  # one printed before the seat lines is already in this hand's stacks
                if (
                    isinstance(e, TableEvent)
                    and e.kind in (TableEventKind.REBUY, TableEventKind.ADD_ON)
                    and e.line < item.seats[0].line
                ):
                    after[e.player] = after.get(e.player, 0) + (e.amount or 0)
            for s in item.seats:
                if s.player in after:
                    assert s.stack == after[s.player], (ph.hand_id, item.hand_id, s.player)
                    checked += 1
    assert checked > 500


def test_damaged_hands_are_flagged(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    seen: dict[str, set[str]] = {}
    for rel, item, result in refereed:
        hid = item.hand_id
        if hid is None or hid not in DAMAGED:
            continue
        if isinstance(item, ParseError):
            found = {item.code}
        else:
            assert result is not None and not result.valid, f"{rel} #{hid} is damaged but valid"
            found = {v.code for v in result.errors}
        assert found & set(DAMAGED[hid]), (rel, hid, sorted(found))
        seen[hid] = found
    assert set(seen) == set(DAMAGED)


def test_truncated_hands_leave_the_rest_of_their_file_valid(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    files = {
        rel for rel, item, _ in refereed if isinstance(item, ParseError) and item.code == "truncated-hand"
    }
    assert len(files) == 2
    complete = [(rel, r) for rel, item, r in refereed if rel in files and isinstance(item, Hand)]
    assert len(complete) == 4 and all(r is not None and r.valid for _, r in complete)


def test_converted_and_synthetic_files_never_crash(corpus_dir: Path) -> None:
    """Not PokerStars output: read and refereed where plausible, never ground truth, never a crash."""
    n = 0
    for path in sorted(corpus_dir.rglob("*.txt")):
        parts = path.relative_to(corpus_dir).parts
        if not {"converted", "synthetic"} & set(parts):
            continue
        for item in parse_file(path):
            n += 1
            if isinstance(item, ParseError):
                assert item.line >= 1 and item.code, item
                continue
            result = referee(item)  # valid or not: it must only return
            assert isinstance(result, RefereeResult) and result.facts is not None
    assert n >= 10


def test_fpdb_copies_give_the_same_verdict(
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
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
    refereed: list[tuple[str, Hand | ParseError, RefereeResult | None]],
) -> None:
    results = [r for rel, _, r in refereed if r is not None and "2016-weird-board" in rel]
    assert results and all(
        r.valid and any(w.code == "courchevel-2016-board" for w in r.warnings) for r in results
    )
