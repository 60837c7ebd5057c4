"""Turn a replayed and settled hand into :class:`~hhparse.facts.HandFacts` for the warehouse.

The referee is the only place poker logic lives, so every statistic the reports need is decided
here, once, from the replay's ledger. Definitions follow PokerTracker 4 where it has one:

* **Positions** by players dealt in, counted from the button: ``BTN``, ``SB``, ``BB``, then the
  seats between the big blind and the button in acting order. Heads-up the button is also the
  small blind and is called ``BTN``. Seats between BB and BTN, by how many there are:
  1 ``CO``; 2 ``UTG CO``; 3 ``UTG HJ CO``; 4 ``UTG MP HJ CO``; 5 ``UTG UTG+1 MP HJ CO``;
  6 ``UTG UTG+1 UTG+2 MP HJ CO``; 7 ``UTG UTG+1 UTG+2 MP MP+1 HJ CO``.
* **VPIP**: put money in the pot voluntarily pre-flop (a call or raise; blinds and checks do not).
* **PFR**: raised pre-flop.
* **3-bet**: opportunity when the player acts pre-flop facing exactly one raise (the open raise)
  that is not their own; made when they re-raise there.
* **Fold to 3-bet**: opportunity for the open raiser when they act facing a 3-bet (exactly two
  raises); made when they fold.
* **Steal**: opportunity when everyone before the player folded pre-flop (no limper, no raise) and
  the player is CO, BTN or SB; made when they open-raise.
* **Fold to steal**: opportunity for SB/BB on their first pre-flop action when the only voluntary
  action so far is a steal raise (folds aside); made when they fold.
* **C-bet**: opportunity for the pre-flop aggressor (last pre-flop raiser) on their first flop
  action if nobody bet before them on the flop; made when they bet.
* **Fold to c-bet**: opportunity on a player's first action facing the c-bet with no raise after
  it; made when they fold.
* **Post-flop aggression**: counts of bets, raises, calls, checks and folds on flop, turn, river.
* **Saw flop**: not folded pre-flop and a flop was dealt. **Went to showdown**: live at the end
  and eligible for a pot contested at showdown. **Won at showdown**: went to showdown and won
  part of a contested pot. **Scooped** (hi/lo only): went to showdown and won every chip of every
  contested pot they were eligible for. **Quartered**: shared a low half with another player.
* **Showdown winnings**: everything a player collected in a hand where they went to showdown;
  **non-showdown winnings**: the rest.
"""

from __future__ import annotations

from hhparse.engine.replay import Referee
from hhparse.engine.settle import Settlement
from hhparse.facts import ActionFact, HandFacts, PlayerFacts
from hhparse.model import Bet, Call, Check, Fold, PostBlind, PostKind, Raise, Street, UncalledBet

_MIDDLE = {
    0: (),
    1: ("CO",),
    2: ("UTG", "CO"),
    3: ("UTG", "HJ", "CO"),
    4: ("UTG", "MP", "HJ", "CO"),
    5: ("UTG", "UTG+1", "MP", "HJ", "CO"),
    6: ("UTG", "UTG+1", "UTG+2", "MP", "HJ", "CO"),
    7: ("UTG", "UTG+1", "UTG+2", "MP", "MP+1", "HJ", "CO"),
}
_STEAL_POSITIONS = frozenset({"CO", "BTN", "SB"})
_ACTION_NAME: dict[type, str] = {Fold: "fold", Check: "check", Call: "call", Bet: "bet", Raise: "raise"}
_POST_ACTION = {PostKind.SMALL_BLIND: "small blind", PostKind.BIG_BLIND: "big blind",
                PostKind.SMALL_AND_BIG: "big blind", PostKind.ANTE: "ante"}


def positions(ref: Referee) -> dict[str, str]:
    """Position name per dealt-in player (see the module docstring)."""
    ring = ref.ring
    out: dict[str, str] = {}
    n = len(ring)
    if n == 0:
        return out
    button = next((p for p in ring if p.seat == ref.h.button_seat), None)
    if n == 2:
        sb = button or ring[-1]
        for p in ring:
            out[p.name] = "BTN" if p is sb else "BB"
        return out
    sb = ref.sb_player or ring[0]
    bb = ref.bb_player or ref._next_after(sb)
    if button is not None:
        out[button.name] = "BTN"
    out.setdefault(sb.name, "SB")
    out.setdefault(bb.name, "BB")
    middle = []
    q = ref._next_after(bb)
    for _ in range(n):
        if q.name in out:
            break
        middle.append(q)
        q = ref._next_after(q)
    names = _MIDDLE.get(len(middle)) or (
        *(f"UTG+{i}" if i else "UTG" for i in range(len(middle) - 2)), "HJ", "CO")
    for p, name in zip(middle, names, strict=False):
        out[p.name] = name
    return out


def build_facts(ref: Referee, st: Settlement) -> HandFacts:
    """Assemble every record of :mod:`hhparse.facts` from the replay and the settlement."""
    pos = positions(ref)
    actions: list[ActionFact] = []
    # Per-player stat flags, filled from one pass over the ledger.
    flags: dict[str, dict[str, bool]] = {p.name: {} for p in ref.ring}
    counts: dict[str, list[int]] = {p.name: [0, 0, 0, 0, 0] for p in ref.ring}  # bets raises calls checks folds
    raises = 0
    callers = 0
    opener: str | None = None
    steal_attempt = False
    acted_pre: set[str] = set()
    aggressor: str | None = None
    flop_bet = False
    cbet_made = False
    cbet_raised = False
    acted_flop: set[str] = set()
    f3_done: set[str] = set()
    append = actions.append
    for seq, (e, street, p, amount, to, pot_before, stack_before, faced) in enumerate(ref.ledger):
        name = p.name
        t = type(e)
        if t is PostBlind:
            append(ActionFact(seq, int(street), name, p.seat, _POST_ACTION[e.kind], amount, to, e.all_in,
                              pot_before, stack_before, faced, e.line))
            continue
        if t is UncalledBet:
            append(ActionFact(seq, int(street), name, p.seat, "uncalled", amount, to, False, pot_before,
                              stack_before, faced, e.line))
            continue
        is_raise = t is Raise
        is_bet = t is Bet
        is_fold = t is Fold
        f = flags[name]
        if street == 0:
            first = name not in acted_pre
            if first:
                acted_pre.add(name)
            if is_raise or is_bet or t is Call:
                f["vpip"] = True
            if is_raise:
                f["pfr"] = True
            if raises == 1 and opener != name:
                f["three_bet_opportunity"] = True
                if is_raise:
                    f["three_bet"] = True
            elif raises == 2 and opener == name and name not in f3_done:
                f3_done.add(name)
                f["fold_to_three_bet_opportunity"] = True
                f["fold_to_three_bet"] = is_fold
            if first:
                position = pos.get(name)
                if raises == 0 and callers == 0 and position in _STEAL_POSITIONS:
                    f["steal_opportunity"] = True
                    if is_raise:
                        f["steal"] = True
                if steal_attempt and raises == 1 and callers == 0 and position in ("SB", "BB") and opener != name:
                    f["fold_to_steal_opportunity"] = True
                    f["fold_to_steal"] = is_fold
            if is_raise or is_bet:
                raises += 1
                aggressor = name
                if raises == 1:
                    opener = name
                    steal_attempt = callers == 0 and first and pos.get(name) in _STEAL_POSITIONS
            elif t is Call:
                callers += 1
        else:
            c = counts[name]
            c[0 if is_bet else 1 if is_raise else 2 if t is Call else 3 if t is Check else 4] += 1
            if street == 1:
                first_flop = name not in acted_flop
                acted_flop.add(name)
                if name == aggressor and first_flop and not flop_bet:
                    f["cbet_opportunity"] = True
                    f["cbet"] = is_bet
                    cbet_made = is_bet
                elif cbet_made and not cbet_raised and name != aggressor and faced > 0 and \
                        "fold_to_cbet_opportunity" not in f:
                    f["fold_to_cbet_opportunity"] = True
                    f["fold_to_cbet"] = is_fold
                if is_bet:
                    flop_bet = True
                elif is_raise and cbet_made:
                    cbet_raised = True
        append(ActionFact(seq, int(street), name, p.seat, _ACTION_NAME[t], amount, to, e.all_in if (
            is_bet or is_raise or t is Call) else False, pot_before, stack_before, faced, e.line))

    contested = st.contested_eligible
    players: list[PlayerFacts] = []
    for s in ref.hand.seats:
        ps = ref.players.get(s.player)
        if ps is None:
            continue
        p = ps
        f = flags.get(p.name, {})
        c = counts.get(p.name, [0, 0, 0, 0, 0])
        contributed = (p.contrib[0], p.contrib[1], p.contrib[2], p.contrib[3])
        went = p.dealt_in and not p.folded and p.name in contested
        won_sd = went and any(won for _, won in contested[p.name])
        scooped = bool(ref.spec.hilo and went and all(won == amt for amt, won in contested[p.name]))
        showdown_won = p.collected if went else 0
        players.append(PlayerFacts(
            seat=p.seat, player=p.name, is_hero=p.name == ref.hero, position=pos.get(p.name, ""),
            starting_stack=p.start_stack, hole_cards=p.shown if len(p.shown) > len(p.hole) else p.hole,
            dealt_in=p.dealt_in, contributed=contributed, returned=p.returned, collected=p.collected,
            net=p.collected + p.returned - sum(contributed),
            vpip=f.get("vpip", False), pfr=f.get("pfr", False),
            three_bet_opportunity=f.get("three_bet_opportunity", False), three_bet=f.get("three_bet", False),
            fold_to_three_bet_opportunity=f.get("fold_to_three_bet_opportunity", False),
            fold_to_three_bet=f.get("fold_to_three_bet", False),
            steal_opportunity=f.get("steal_opportunity", False), steal=f.get("steal", False),
            fold_to_steal_opportunity=f.get("fold_to_steal_opportunity", False),
            fold_to_steal=f.get("fold_to_steal", False),
            cbet_opportunity=f.get("cbet_opportunity", False), cbet=f.get("cbet", False),
            fold_to_cbet_opportunity=f.get("fold_to_cbet_opportunity", False),
            fold_to_cbet=f.get("fold_to_cbet", False),
            postflop_bets=c[0], postflop_raises=c[1], postflop_calls=c[2], postflop_checks=c[3],
            postflop_folds=c[4],
            saw_flop=p.dealt_in and ref.flop_seen and not (p.folded and p.fold_street is Street.PREFLOP),
            went_to_showdown=went, won_at_showdown=won_sd,
            won_high=st.high_won.get(p.name, 0) > 0, won_low=st.low_won.get(p.name, 0) > 0,
            scooped=scooped, quartered=p.name in st.low_shared,
            all_in_street=int(p.all_in_street) if p.all_in_street is not None else None,
            showdown_won=showdown_won, nonshowdown_won=p.collected - showdown_won,
            high_won=st.high_won.get(p.name, 0), low_won=st.low_won.get(p.name, 0),
        ))
    boards: tuple[tuple[str, ...], ...]
    if ref.run_boards:
        boards = tuple(tuple(ref.run_boards[r]) for r in sorted(ref.run_boards))
    else:
        boards = (tuple(ref.board),) if ref.board else ()
    return HandFacts(
        hand=ref.hand, players=tuple(players), actions=tuple(actions), pots=tuple(st.pots),
        awards=tuple(st.awards), showdowns=tuple(st.showdowns), total_pot=st.total_pot, rake=st.rake,
        runs=st.runs, boards=boards, exposed_card=ref.exposed,
    )
