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

from typing import Final

from hhparse.engine.settle import Settlement
from hhparse.engine.table import ACTION_KIND, K_BET, K_CALL, K_FOLD, K_POST, K_RAISE
from hhparse.engine.view import PlayerView, ReplayView
from hhparse.facts import HandFacts, PlayerFacts
from hhparse.model import Cards, Street

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
_STEAL_POSITIONS: Final = frozenset({"CO", "BTN", "SB"})
_COUNT_SLOT: Final = (4, 3, 2, 0, 1)  # ledger kind -> slot in bets, raises, calls, checks, folds


def _known_cards(hole: Cards, shown: Cards, mucked: Cards) -> Cards:
    """The most complete of what is known of a player's hole cards: dealt (hero), shown, or
    mucked and revealed by the summary."""
    best = hole
    if len(shown) > len(best):
        best = shown
    if len(mucked) > len(best):
        best = mucked
    return best


def positions(view: ReplayView) -> dict[str, str]:
    """Position name per dealt-in player (see the module docstring)."""
    ring = view.ring
    out: dict[str, str] = {}
    n = len(ring)
    if n == 0:
        return out
    button_seat = view.hand.header.button_seat
    button = next((p for p in ring if p.seat == button_seat), None)
    if n == 2:
        sb = button or ring[-1]
        for p in ring:
            out[p.name] = "BTN" if p is sb else "BB"
        return out
    seats = view.seats
    sb = seats[view.sb_player] if view.sb_player is not None else ring[0]
    bb = seats[view.bb_player] if view.bb_player is not None else view.next_after(sb)
    if button is not None:
        out[button.name] = "BTN"
    out.setdefault(sb.name, "SB")
    out.setdefault(bb.name, "BB")
    middle: list[PlayerView] = []
    q = view.next_after(bb)
    for _ in range(n):
        if q.name in out:
            break
        middle.append(q)
        q = view.next_after(q)
    names = _MIDDLE.get(len(middle)) or (
        *(f"UTG+{i}" if i else "UTG" for i in range(len(middle) - 2)),
        "HJ",
        "CO",
    )
    for i in range(min(len(middle), len(names))):  # (zip with a keyword is not compiled to C)
        out[middle[i].name] = names[i]
    return out


# Per-player stat flags: indexes into a player's 14 bools (all False until proved) of one list for
# the hand, the players' blocks in ring order (``PlayerView.idx``). Final literals: compiled, each index is a constant, not a lookup in the module's globals.
_VPIP: Final = 0
_PFR: Final = 1
_3B_OPP: Final = 2
_3B: Final = 3
_F3B_OPP: Final = 4
_F3B: Final = 5
_STEAL_OPP: Final = 6
_STEAL: Final = 7
_FSTEAL_OPP: Final = 8
_FSTEAL: Final = 9
_CBET_OPP: Final = 10
_CBET: Final = 11
_FCBET_OPP: Final = 12
_FCBET: Final = 13

_NO_FLAGS: Final = [False] * 14  # a player seated but not dealt in (read, never written)
_NO_COUNTS: Final = [0] * 5


def build_facts(view: ReplayView, st: Settlement) -> HandFacts:
    """Assemble every record of :mod:`hhparse.facts` from the replay and the settlement."""
    pos = positions(view)
    # Per-player stat flags (see the ``_VPIP`` ... indexes) and counts (bets raises calls checks
    # folds), filled from one pass over the ledger: one list each for the hand, a block of 14 and
    # of 5 per dealt-in player at its ring position (not a list of each per player, in dicts).
    n_ring = len(view.ring)
    flags = [False] * (14 * n_ring)
    counts = [0] * (5 * n_ring)
    seats = view.seats
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
    # The ledger's entries are the action facts themselves (hhparse.engine.table.LedgerEntry):
    # read here for the stats, stored as they are.
    for entry in view.ledger:
        kind = ACTION_KIND[entry.action]
        if kind >= K_POST:  # forced bet or uncalled return: in the action list, not in the stats
            continue
        street = entry.street
        name = entry.player
        faced = entry.faced
        is_raise = kind == K_RAISE
        is_bet = kind == K_BET
        is_fold = kind == K_FOLD
        o = seats[name].idx * 14  # a voluntary action's player is dealt in: in the ring
        if street == 0:
            first = name not in acted_pre
            if first:
                acted_pre.add(name)
            if kind >= K_CALL:  # call, bet or raise
                flags[o + _VPIP] = True
            if is_raise:
                flags[o + _PFR] = True
            if raises == 1 and opener != name:
                flags[o + _3B_OPP] = True
                if is_raise:
                    flags[o + _3B] = True
            elif raises == 2 and opener == name and name not in f3_done:
                f3_done.add(name)
                flags[o + _F3B_OPP] = True
                flags[o + _F3B] = is_fold
            if first:
                position = pos.get(name)
                if raises == 0 and callers == 0 and position in _STEAL_POSITIONS:
                    flags[o + _STEAL_OPP] = True
                    if is_raise:
                        flags[o + _STEAL] = True
                if (
                    steal_attempt
                    and raises == 1
                    and callers == 0
                    and position in ("SB", "BB")
                    and opener != name
                ):
                    flags[o + _FSTEAL_OPP] = True
                    flags[o + _FSTEAL] = is_fold
            if is_raise or is_bet:
                raises += 1
                aggressor = name
                if raises == 1:
                    opener = name
                    steal_attempt = callers == 0 and first and pos.get(name) in _STEAL_POSITIONS
            elif kind == K_CALL:
                callers += 1
        else:
            counts[seats[name].idx * 5 + _COUNT_SLOT[kind]] += 1
            if street == 1:
                first_flop = name not in acted_flop
                acted_flop.add(name)
                if name == aggressor and first_flop and not flop_bet:
                    flags[o + _CBET_OPP] = True
                    flags[o + _CBET] = is_bet
                    cbet_made = is_bet
                elif (
                    cbet_made
                    and not cbet_raised
                    and name != aggressor
                    and faced > 0
                    and not flags[o + _FCBET_OPP]
                ):
                    flags[o + _FCBET_OPP] = True
                    flags[o + _FCBET] = is_fold
                if is_bet:
                    flop_bet = True
                elif is_raise and cbet_made:
                    cbet_raised = True

    contested = st.contested_eligible
    hilo = view.spec.hilo
    hero = view.hero
    flop_seen = view.flop_seen
    high_won = st.high_won
    low_won = st.low_won
    low_shared = st.low_shared
    refunds = st.refunds
    mucked_cards = st.mucked_cards
    players: list[PlayerFacts] = []
    get_player = view.seats.get
    for s in view.hand.seats:
        ps = get_player(s.player)
        if ps is None:
            continue
        p = ps
        name = p.name
        returned = p.returned + refunds[name] if name in refunds else p.returned
        i = p.idx
        if i >= 0:
            fl, fo, cn, co = flags, i * 14, counts, i * 5
        else:  # seated, not dealt in
            fl, fo, cn, co = _NO_FLAGS, 0, _NO_COUNTS, 0
        c0, c1, c2, c3 = p.contrib
        contributed = (c0, c1, c2, c3)
        dealt_in = p.dealt_in
        folded = p.folded
        mine = contested.get(name) if dealt_in and not folded else None
        went = mine is not None
        if mine is not None:
            won_sd = any(won for _, won in mine)
            scooped = bool(hilo and all(won == amt for amt, won in mine))
            showdown_won = p.collected
        else:
            won_sd = scooped = False
            showdown_won = 0
        hw = high_won.get(name, 0)
        lw = low_won.get(name, 0)
        ais = p.all_in_street
        players.append(
            PlayerFacts(
                p.seat,
                name,
                name == hero,
                pos.get(name, ""),
                p.start_stack,
                _known_cards(p.hole, p.shown, mucked_cards.get(name, ())),
                dealt_in,
                contributed,
                returned,
                p.collected,
                p.collected + returned + p.cash_out - (c0 + c1 + c2 + c3),
                fl[fo + _VPIP],
                fl[fo + _PFR],
                fl[fo + _3B_OPP],
                fl[fo + _3B],
                fl[fo + _F3B_OPP],
                fl[fo + _F3B],
                fl[fo + _STEAL_OPP],
                fl[fo + _STEAL],
                fl[fo + _FSTEAL_OPP],
                fl[fo + _FSTEAL],
                fl[fo + _CBET_OPP],
                fl[fo + _CBET],
                fl[fo + _FCBET_OPP],
                fl[fo + _FCBET],
                cn[co + 0],
                cn[co + 1],
                cn[co + 2],
                cn[co + 3],
                cn[co + 4],
                dealt_in and flop_seen and not (folded and p.fold_street is Street.PREFLOP),
                went,
                won_sd,
                hw > 0,
                lw > 0,
                scooped,
                name in low_shared,
                int(ais) if ais is not None else None,
                showdown_won,
                p.collected - showdown_won,
                hw,
                lw,
                p.cash_out,
                p.cash_out_fee,
            )
        )
    boards: tuple[tuple[str, ...], ...]
    if view.run_boards:
        boards = tuple(tuple(view.run_boards[r]) for r in sorted(view.run_boards))
    else:
        boards = (tuple(view.board),) if view.board else ()
    return HandFacts(
        view.hand,
        tuple(players),
        tuple(view.ledger),
        tuple(st.pots),
        tuple(st.awards),
        tuple(st.showdowns),
        st.total_pot,
        st.rake,
        st.runs,
        boards,
        view.exposed,
    )
