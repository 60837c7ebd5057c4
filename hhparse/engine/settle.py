"""Settlement: pots, rake, showdown awards, and the summary cross-checks.

Runs once after the event replay (:mod:`hhparse.engine.replay`). It derives what *must* have
happened from the contributions, the shown hands and the rules (:mod:`hhparse.rules.pots`,
:mod:`hhparse.rules.evaluate`) and compares it with what the history printed: the collect lines,
``No low hand qualified``, hand descriptions, the total/main/side pots and each summary seat line.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from hhparse.engine.table import ACTION_KIND, K_POST
from hhparse.engine.view import PlayerView, ReplayView
from hhparse.errors import Violation
from hhparse.facts import AwardFact, PotFact, ShowdownFact
from hhparse.model import Cards, Collect, SeatOutcome, Street
from hhparse.rules import pots as R
from hhparse.rules.evaluate import RANK_NAMES, evaluate

_STREET_NAME = {
    Street.PREFLOP: "before Flop",
    Street.FLOP: "on the Flop",
    Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}


SILENT_UNCALLED_BEFORE = 2006
"""Histories dated before this year print no ``Uncalled bet`` line: the room returned the excess
silently and left it out of ``Total pot`` (O8-05, hand 1676150046, 2005: 302 chips). Later ones
(2009 onwards in the corpus) always print the line."""


class Settlement:
    """What settlement proved; the facts builder turns it into warehouse records.

    A plain slotted class (not a dataclass with eight ``default_factory`` fields): one per hand.
    """

    __slots__ = (
        "awards",
        "contested_eligible",
        "errors",
        "high_won",
        "low_shared",
        "low_won",
        "mucked_cards",
        "per_run",
        "pots",
        "rake",
        "refunds",
        "runs",
        "showdown",
        "showdowns",
        "total_pot",
        "unpaid",
        "warnings",
    )

    def __init__(self) -> None:
        self.total_pot = 0
        self.rake = 0
        self.runs = 1
        self.pots: list[PotFact] = []
        self.awards: list[AwardFact] = []
        self.showdowns: list[ShowdownFact] = []
        self.showdown = False  # at least one pot was contested at showdown
        self.per_run: dict[str, dict[int, int]] = {}  # player -> run -> expected amount
        self.high_won: dict[str, int] = {}
        self.low_won: dict[str, int] = {}
        self.low_shared: set[str] = set()
        self.contested_eligible: dict[str, list[tuple[int, int]]] = {}  # player -> [(pot amt, won)]
        self.unpaid = 0  # won by players who had cashed out: kept by the room
        self.refunds: dict[str, int] = {}  # returned without a line: a cancelled hand, a 2005 uncalled bet
        self.mucked_cards: dict[str, Cards] = {}  # revealed by the summary: "Seat 2: X mucked [3s Ac 5h Jc]"
        self.errors: list[Violation] = []
        self.warnings: list[Violation] = []


ShownHand = ShowdownFact
"""A hand shown at showdown and its evaluation on one board (computed lazily, cached): the very
record the ``showdowns`` table stores (``high``/``low`` the descriptions). Why the fact itself:
the settlement kept its own evaluation object and copied it into a :class:`ShowdownFact` for
every hand at showdown."""


def _pot_name(k: int) -> str:
    """How the summary names pot ``k``: ``main pot``, ``side pot-1`` ..."""
    return "main pot" if k == 0 else f"side pot-{k}"


def _run_halves(amount: int, collects: list[Collect]) -> tuple[int, int]:
    """A pot run twice, split between the boards: the odd unit to the first board
    (:func:`hhparse.rules.pots.run_twice_halves`), or to the second when that is what the collect
    lines of this pot say. No real hand shows a pot run twice with an odd unit, so both are
    accepted (docs/format-conventions.md); each board's half is still checked to the unit."""
    first, second = R.run_twice_halves(amount)
    if first != second:
        got1 = got2 = 0
        for c in collects:
            if c.run == 1:
                got1 += c.amount
            elif c.run == 2:
                got2 += c.amount
        if got1 == second and got2 == first:
            return second, first
    return first, second


def _where(k: int, run: int) -> str:
    """``main pot`` / ``side pot 2, run 1``: how messages name a pot (built only for a message)."""
    return f"{'main pot' if k == 0 else f'side pot {k}'}" + (f", run {run}" if run else "")


def _hand_desc(high: str, low: str | None, hilo: bool) -> str:
    """The summary's ``with ...`` text: ``HI: x; LO: y`` in hi/lo games, the high alone otherwise."""
    if not hilo:
        return high
    return f"HI: {high}; LO: {low}" if low else f"HI: {high}"


_NO_RUNS: Final[dict[int, int]] = {}
"""What a player who did not cash out won per run, in the summary check: only read, so one empty
dict serves every seat (the check built one per seat line of every hand)."""

_PRIMARY = {0: 1, 1: 1, 2: 2, 3: 1, 7: 1}  # category -> tie-break ranks that are not kickers


_FLUSH = 5  # hhparse.rules.evaluate.FLUSH: the category of ``rank >> 20``


def _higher_ok(name: str, rank: int, other: int) -> bool:
    """Whether ``- <name> higher`` is what a flush of value ``rank`` beats another of the same
    description (value ``other``) with: the rank of its first card that differs."""
    for shift in (16, 12, 8, 4, 0):
        mine, theirs = (rank >> shift) & 15, (other >> shift) & 15
        if mine != theirs:
            return mine > theirs and RANK_NAMES[mine] == name
    return False


def _kickers_ok(desc: str, rank: int) -> bool:
    """Accept PokerStars' kicker suffix (``three of a kind, Jacks - Ace+Queen kicker``) iff it names
    the hand's actual kickers. *Observed* (2009): the room adds it when a shown hand beats an
    earlier one of the same description on kickers. Ranks are the evaluator's documented packing:
    category << 20, then tie-break ranks in 4-bit nibbles."""
    tail = desc.rsplit(" - ", 1)[1]
    if not tail.endswith(" kicker"):
        return False
    names = tail[: -len(" kicker")].split("+")
    primary = _PRIMARY.get(rank >> 20)
    if primary is None:
        return False
    nibbles = [(rank >> s) & 15 for s in (16, 12, 8, 4, 0)]
    kickers = [RANK_NAMES[n] for n in nibbles[primary:]]
    return 0 < len(names) <= len(kickers) and names == kickers[: len(names)]


class Settler:
    """Settles a replayed hand; one instance per hand."""

    def __init__(self, view: ReplayView) -> None:
        self.v = view
        self.out = Settlement()
        self.evals: dict[tuple[str, int], ShownHand] = {}
        self.boards: dict[int, tuple[str, ...]] = {}
        self.cashed = {p.name for p in view.ring if p.cash_out_line}  # players who cashed out
        self.owners: dict[str, str] | None = None  # the replay's card owners, once the summary adds some

    def err(
        self,
        code: str,
        line: int,
        message: str,
        expected: object = None,
        found: object = None,
        player: str | None = None,
    ) -> None:
        """Record an error (never raise: a bad hand is normal input)."""
        self.out.errors.append(
            Violation(
                code,
                line,
                message,
                None if expected is None else str(expected),
                None if found is None else str(found),
                player,
            )
        )

    def warn(self, code: str, line: int, message: str, player: str | None = None) -> None:
        self.out.warnings.append(Violation(code, line, message, None, None, player))

    def contributed(self, p: PlayerView) -> int:
        """What ``p`` has in the pot once the settlement's returns are made."""
        return p.total_contrib - self.out.refunds.get(p.name, 0)

    def _claim(self, card: str, owner: str, line: int) -> None:
        """A card of a summary line: one owner per physical card, the replay's cards included."""
        owners = self.owners
        if owners is None:
            owners = self.owners = dict(self.v.owners)
        prev = owners.get(card)
        if prev is None:
            owners[card] = owner
        elif prev != owner:
            where = "the board" if prev.startswith("\x00") else prev
            self.err(
                "duplicate-card",
                line,
                f"{card} appears twice (already held by {where})",
                found=card,
                player=owner,
            )

    # ------------------------------------------------------------------ all-in cash out

    def _paid(self, shares: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """The shares paid at the table: a player who cashed out sold theirs to the room, which
        keeps it (``Settlement.unpaid``); no collect line is printed for it."""
        out: list[tuple[str, int]] = []
        for name, amount in shares:
            if name in self.cashed:
                self.out.unpaid += amount
            else:
                out.append((name, amount))
        return out

    def _check_cash_outs(self, pots: tuple[R.Pot, ...]) -> None:
        """All-in cash out (*observed*, 6 Card Omaha 2020-2022): offered to a live player once the
        betting is over before the river with a player all-in, and worth at most every pot the
        player can win (the room pays its estimate of their share, less its fee)."""
        v = self.v
        if not self.cashed:
            return
        fmt = v.fmt
        last = 0  # the last street with a voluntary action
        for e in v.ledger:
            if ACTION_KIND[e.action] < K_POST and e.street > last:
                last = e.street
        allin = any(p.all_in and not p.folded for p in v.ring)
        for p in v.ring:
            if not p.cash_out_line:
                continue
            if not allin or last >= Street.RIVER:
                self.err(
                    "wrong-cash-out",
                    p.cash_out_line,
                    f"{p.name} cashes out although the betting did not end before the river with a player all-in",
                    player=p.name,
                )
                continue
            value = p.cash_out + p.cash_out_fee
            claim = sum(pot.amount for pot in pots if p.name in pot.eligible)
            if value > claim:
                self.err(
                    "wrong-cash-out",
                    p.cash_out_line,
                    f"{p.name} cashes out {fmt(p.cash_out)} + {fmt(p.cash_out_fee)} fee, more than the "
                    f"{fmt(claim)} of the pots they can win",
                    expected=f"at most {fmt(claim)}",
                    found=fmt(value),
                    player=p.name,
                )

    # ------------------------------------------------------------------ evaluation

    def board_for(self, run: int) -> tuple[str, ...]:
        b = self.boards.get(run)
        if b is None:
            v = self.v
            b = tuple(v.run_boards.get(run, v.board)) if run else tuple(v.board)
            self.boards[run] = b
        return b

    def shown(self, player: str, run: int) -> ShownHand | None:
        """Evaluation of a player's shown hand on the board of ``run`` (cached; None if unevaluable)."""
        key = (player, run)
        sh = self.evals.get(key)
        if sh is not None:
            return sh
        sh = self._evaluated(player, self.v.seats[player].shown, run)
        if sh is not None:
            self.evals[key] = sh
        return sh

    def _evaluated(
        self, player: str, cards: tuple[str, ...], run: int, mucked: bool = False
    ) -> ShownHand | None:
        """Evaluation of ``cards`` (a whole hand) on the board of ``run``; None if unevaluable.
        ``mucked``: the cards a summary revealed for a hand mucked at showdown."""
        board = self.board_for(run)
        if len(cards) != self.v.spec.hole_cards or len(board) < 3:
            return None
        try:
            high, low = evaluate(cards, board, self.v.spec.hilo)
        except (KeyError, ValueError):
            # Impossible cards (a duplicate makes five of a kind; already a ``duplicate-card`` error):
            # the referee never raises on a bad hand, so this hand is simply not evaluable.
            return None
        if low is None:
            return ShownHand(player, run, cards, high.description, high.rank, None, None, mucked)
        return ShownHand(player, run, cards, high.description, high.rank, low.description, low.rank, mucked)

    # ------------------------------------------------------------------ main

    def settle(self) -> Settlement:
        v = self.v
        out = self.out
        fmt = v.fmt
        summary = v.hand.summary
        rit = bool(v.run_boards)
        runs = (1, 2) if rit else (0,)
        out.runs = 2 if rit else 1
        if v.cancelled:
            got = sum(c.amount for c in v.collects)
            if got:
                c0 = v.collects[0]
                self.err(
                    "cancelled-hand-with-pot", c0.line, f"a cancelled hand awards {fmt(got)}", found=fmt(got)
                )
            # A cancelled hand never happened for the players' balances: the room hands every posted
            # chip back (no Total pot, no rake, "collected ($0)"), so nobody wins or loses by it.
            for p in v.seats.values():
                if any(p.contrib):
                    out.refunds[p.name] = sum(p.contrib)
            return out

        # Uncalled bet that was never returned.
        top, excess = v.uncalled_to, v.uncalled
        if excess <= 0 or top is None or v.uncalled_seen:
            pass
        elif v.hand.header.local_time.year < SILENT_UNCALLED_BEFORE:
            out.refunds[top] = excess  # returned without a line, and not in the total pot (*observed*, 2005)
        else:
            line = v.collects[0].line if v.collects else (summary.line if summary else v.hand.line)
            self.err(
                "missing-uncalled-bet",
                line,
                f"{fmt(excess)} of {top}'s bet was not called and not returned",
                expected=f"Uncalled bet ({fmt(excess)}) returned to {top}",
                player=top,
            )

        contributions: dict[str, int] = {}
        live: set[str] = set()
        order: list[str] = []  # the ring is already clockwise from the button
        total = 0
        for p in v.ring:
            name = p.name
            pc = p.contrib
            amt = contributions[name] = pc[0] + pc[1] + pc[2] + pc[3] - p.returned  # p.total_contrib
            if out.refunds:
                amt = contributions[name] = amt - out.refunds.get(name, 0)
            total += amt
            order.append(name)
            if not p.folded:
                live.add(name)
        out.total_pot = total
        collected = 0
        for col in v.collects:
            collected += col.amount
        pots = R.side_pots(contributions, live, order)
        rake = summary.rake if summary is not None and summary.rake is not None else total - collected
        out.rake = rake
        tline = (
            summary.total_line
            if summary is not None and summary.total_line
            else (summary.line if summary is not None else v.hand.line)
        )
        if summary is not None and summary.total_pot is not None and summary.total_pot != total:
            self.err(
                "wrong-total-pot",
                tline,
                f"total pot {fmt(summary.total_pot)} but the players put in {fmt(total)}",
                expected=fmt(total),
                found=fmt(summary.total_pot),
            )
        if rake and (v.hand.header.tournament is not None or v.hand.header.play_money):
            self.err(
                "rake-in-tournament",
                tline,
                f"rake {fmt(rake)} in a hand without rake",
                expected="0",
                found=fmt(rake),
            )
        raked = self._net_pots(pots, rake, total, tline)

        # Showdown awards, pot by pot, run by run, half by half.
        by_pot: dict[int, list[Collect]] = {}
        for c in v.collects:
            by_pot.setdefault(c.pot, []).append(c)
        for c in v.collects:
            if c.pot >= len(raked):
                self.err(
                    "unknown-pot",
                    c.line,
                    f"{c.player} collects from {c.pot_label}, which does not exist",
                    found=c.pot_label,
                    player=c.player,
                )
        any_low = False
        no_low_pot = False
        optional_no_low = False  # a one-player pot shown at showdown without a low
        for k, pot in enumerate(raked):
            actual = by_pot.get(k, [])
            if len(pot.eligible) <= 1:
                if self._uncontested(k, pot, actual, rit, runs):
                    optional_no_low = True
                continue
            out.showdown = True
            amounts = _run_halves(pot.amount, actual) if rit else (pot.amount,)
            for ri in range(len(runs)):  # runs and amounts pair up: two each run twice, else one
                run = runs[ri]
                amount = amounts[ri]
                contenders = [n for n in pot.eligible if v.seats[n].showed]
                evals = [e for e in (self.shown(n, run) for n in contenders) if e is not None]
                if not evals:
                    line = actual[0].line if actual else tline
                    self.err(
                        "wrong-winner",
                        line,
                        f"pot {k} is contested but no eligible player showed a hand",
                        expected="a shown hand",
                    )
                    continue
                best_h = max(e.high_rank for e in evals)
                hi_w = [e.player for e in evals if e.high_rank == best_h]
                lows = [e for e in evals if e.low_rank is not None]
                if v.spec.hilo and lows:
                    any_low = True
                    best_l = min(e.low_rank for e in lows if e.low_rank is not None)
                    lo_w = [e.player for e in lows if e.low_rank == best_l]
                    hi_amt, lo_amt = R.hilo_halves(amount)
                else:
                    if v.spec.hilo:
                        no_low_pot = True
                    lo_w, hi_amt, lo_amt = [], amount, 0
                hi_split = R.split_evenly(hi_amt, hi_w)
                lo_split = R.split_evenly(lo_amt, lo_w)
                # (split_evenly gives one share a winner: no keyword zip, a generic call compiled)
                exp_hi = [(hi_w[i], hi_split[i]) for i in range(len(hi_w))]
                exp_lo = [(lo_w[i], lo_split[i]) for i in range(len(lo_w))]
                run_actual = [c for c in actual if (c.run == run or not rit)]
                if self.cashed:  # a player who cashed out is not paid: no collect line for their share
                    self._compare(
                        k,
                        run,
                        self._paid(exp_hi),
                        self._paid(exp_lo),
                        [n for n in hi_w if n not in self.cashed],
                        run_actual,
                        amount,
                        hi_amt,
                        [n for n in lo_w if n not in self.cashed],
                    )
                else:
                    self._compare(k, run, exp_hi, exp_lo, hi_w, run_actual, amount, hi_amt, lo_w)
                ev_by = {e.player: e for e in evals}
                half = "high" if lo_w else "whole"
                out.awards.append(
                    AwardFact(
                        k,
                        run,
                        half,
                        hi_amt,
                        pot.eligible,
                        tuple(hi_w),
                        hi_split,
                        tuple(_hand_desc(ev_by[n].high, None, False) for n in hi_w),
                    )
                )
                if lo_w:
                    out.awards.append(
                        AwardFact(
                            k,
                            run,
                            "low",
                            lo_amt,
                            pot.eligible,
                            tuple(lo_w),
                            lo_split,
                            tuple(ev_by[n].low or "" for n in lo_w),
                        )
                    )
                for n, a in exp_hi:
                    out.high_won[n] = out.high_won.get(n, 0) + a
                    out.per_run.setdefault(n, {})[run] = out.per_run.get(n, {}).get(run, 0) + a
                for n, a in exp_lo:
                    out.low_won[n] = out.low_won.get(n, 0) + a
                    out.per_run.setdefault(n, {})[run] = out.per_run.get(n, {}).get(run, 0) + a
                    if len(lo_w) > 1:
                        out.low_shared.add(n)
                for n in pot.eligible:
                    won = sum(a for m, a in exp_hi + exp_lo if m == n)
                    out.contested_eligible.setdefault(n, []).append((amount, won))

        # The rake is what the pots held and nobody was paid: collected, or kept by the room for a
        # player who cashed out.
        kept = out.unpaid
        if collected + kept > total:
            self.err(
                "negative-rake",
                tline,
                f"{fmt(collected)} collected from a pot of {fmt(total)}",
                expected=f"at most {fmt(total)}",
                found=fmt(collected),
            )
        elif rake != total - collected - kept:
            paid = f"{fmt(collected)} collected" + (
                f" - {fmt(kept)} not awarded (cashed out)" if kept else ""
            )
            self.err(
                "wrong-rake",
                tline,
                f"rake {fmt(rake)} but {fmt(total)} - {paid} = {fmt(total - collected - kept)}",
                expected=fmt(total - collected - kept),
                found=fmt(rake),
            )
        self._check_cash_outs(raked)

        # "No low hand qualified": printed iff a hi/lo showdown pot had no qualifying low (*observed*).
        # For a pot with a single eligible player who showed no low no real hand settles it: the
        # line may be printed or not (docs/format-conventions.md).
        if v.spec.hilo and (out.showdown or optional_no_low):
            if no_low_pot and not v.no_low_lines:
                self.err(
                    "no-low-line-mismatch",
                    tline,
                    "no low qualified but 'No low hand qualified' is missing",
                    expected="No low hand qualified",
                    found="(missing)",
                )
            if v.no_low_lines and not no_low_pot and not optional_no_low and any_low:
                self.err(
                    "no-low-line-mismatch",
                    v.no_low_lines[0].line,
                    "'No low hand qualified' printed although a low qualified",
                    expected="(no line)",
                    found="No low hand qualified",
                )
        elif v.no_low_lines:
            self.err(
                "no-low-line-mismatch",
                v.no_low_lines[0].line,
                "'No low hand qualified' printed without a hi/lo showdown",
                expected="(no line)",
                found="No low hand qualified",
            )

        if summary is not None:
            self._summary_mucks()
        if out.showdown:
            for p in v.ring:
                if (
                    not p.folded
                    and p.mucked
                    and not p.shown
                    and not p.hole
                    and p.name not in out.mucked_cards
                ):
                    self.warn(
                        "mucked-unknown-cards", tline, f"{p.name} mucked at showdown; cards unknown", p.name
                    )
        self._check_descriptions()
        self._showdown_facts(runs)
        if summary is not None:
            self._check_summary(rit, runs)
        return out

    # ------------------------------------------------------------------ rake per pot

    def _net_pots(self, pots: tuple[R.Pot, ...], rake: int, total: int, tline: int) -> tuple[R.Pot, ...]:
        """Each pot net of its share of the rake, as the history proves it; records the pot facts.

        With one pot the share is the whole rake. With side pots the summary prints each pot net
        of its share (``Main pot $2.35. Side pot-1 $0.88. Side pot-2 $0.29.``): the shares are
        read off the print and accepted when an allocation a room really makes explains them
        (:func:`hhparse.rules.pots.rake_allocation`: main pot first, cumulative at some rate and
        cap, or proportional). A printed pot that none explains (above its gross amount, a
        negative share, pots that do not add up to total − rake) is a ``wrong-side-pot``, and
        the awards are then checked against the main-pot-first allocation.
        """
        v = self.v
        fmt = v.fmt
        summary = v.hand.summary
        gross = [p.amount for p in pots]
        shares = R.rake_main_first(gross, max(rake, 0))
        printed: list[int] = []
        if summary is not None and summary.total_pot is not None:
            if summary.main_pot is not None:
                printed.append(summary.main_pot)
            printed.extend(summary.side_pots)
        if printed:
            problem = ""
            if len(printed) != len(gross):
                problem = f"{len(printed)} pots printed but the contributions make {len(gross)}"
            else:
                read = tuple(g - a for g, a in zip(gross, printed, strict=True))
                if R.rake_allocation(gross, read, rake) is not None:
                    shares = read
                else:
                    over = [k for k in range(len(gross)) if printed[k] > gross[k]]
                    if over:
                        k = over[0]
                        problem = (
                            f"{_pot_name(k)} {fmt(printed[k])} is more than the {fmt(gross[k])} put in it"
                        )
                    elif sum(printed) != total - rake:
                        problem = (
                            f"the pots add up to {fmt(sum(printed))} but total pot - rake is "
                            f"{fmt(total - rake)}"
                        )
                    else:
                        problem = (
                            "no rake allocation explains the shares "
                            + " + ".join(fmt(r) for r in read)
                            + f" of the {fmt(rake)} rake"
                        )
            if problem:
                computed = [g - r for g, r in zip(gross, shares, strict=True)]
                self.err(
                    "wrong-side-pot",
                    tline,
                    "main/side pots " + " ".join(fmt(a) for a in printed) + ": " + problem,
                    expected=" ".join(fmt(a) for a in computed),
                    found=" ".join(fmt(a) for a in printed),
                )
        elif len(gross) > 1 and summary is not None and summary.total_pot is not None:
            computed = [g - r for g, r in zip(gross, shares, strict=True)]
            self.err(
                "wrong-side-pot",
                tline,
                "main/side pots (none printed) but the contributions make "
                + " ".join(fmt(a) for a in computed),
                expected=" ".join(fmt(a) for a in computed),
                found="",
            )
        out = self.out
        net: list[R.Pot] = []
        for k, pot in enumerate(pots):
            share = shares[k]
            out.pots.append(PotFact(k, pot.amount, pot.eligible, share))
            net.append(R.Pot(pot.amount - share, pot.eligible) if share else pot)
        return tuple(net)

    # ------------------------------------------------------------------ awards

    def _uncontested(
        self, k: int, pot: R.Pot, actual: list[Collect], rit: bool, runs: tuple[int, ...]
    ) -> bool:
        """Award a pot with at most one eligible player; True if it was shown down without a low.

        Run it twice, such a pot is still run twice and collected once per run (*observed*,
        124689908714: ``FLATC@T collected $10 from side pot`` in each SHOW DOWN block of a $20 side
        pot). At a hi/lo showdown the room splits it into halves when its owner shows a low: two
        collect lines (O8-KO 68174239249, *observed*).
        """
        v = self.v
        out = self.out
        winner = pot.eligible[0] if pot.eligible else None
        shown_down = bool(winner is not None and v.spec.hilo and v.showdown_marker and v.seats[winner].showed)
        no_low = False
        amounts = _run_halves(pot.amount, actual) if rit else (pot.amount,)
        for ri in range(len(runs)):  # runs and amounts pair up (see settle)
            run = runs[ri]
            amount = amounts[ri]
            exp: list[tuple[str, int]] = [(winner, amount)] if winner is not None and amount else []
            exp_lo: list[tuple[str, int]] = []
            if winner is not None and shown_down:
                sh = self.shown(winner, run)
                if sh is not None and sh.low_rank is not None:
                    h_amt, l_amt = R.hilo_halves(amount)
                    exp, exp_lo = [(winner, h_amt)], [(winner, l_amt)]
                elif sh is not None:
                    no_low = True
            run_actual = [c for c in actual if c.run == run] if rit else actual
            if winner is not None and winner in self.cashed:
                exp, exp_lo = self._paid(exp), self._paid(exp_lo)
            self._compare(
                k, run, exp, exp_lo, [winner] if winner is not None else [], run_actual, amount, None, None
            )
            if winner is not None:
                won = out.per_run.setdefault(winner, {})
                won[run] = won.get(run, 0) + amount
                out.high_won[winner] = out.high_won.get(winner, 0) + amount
                out.awards.append(
                    AwardFact(k, run, "whole", amount, pot.eligible, (winner,), (amount,), ("",))
                )
        return no_low

    def _compare(
        self,
        k: int,
        run: int,
        exp_hi: list[tuple[str, int]],
        exp_lo: list[tuple[str, int]],
        hi_w: list[str],
        actual: list[Collect],
        amount: int,
        hi_amt: int | None,
        lo_w: list[str] | None,
    ) -> None:
        """Compare one pot/run's collect lines with the expected awards; name the first difference."""
        v = self.v
        fmt = v.fmt
        # A share of nothing (the low half of a one-chip pot, the second of two players tying for
        # one chip) moves no chip: no "collected" line is required for it, and a "collected $0"
        # line, should one be printed, proves nothing either way.
        if any(a == 0 for _, a in exp_hi) or any(a == 0 for _, a in exp_lo):
            exp_hi = [x for x in exp_hi if x[1]]
            exp_lo = [x for x in exp_lo if x[1]]
        if any(c.amount == 0 for c in actual):
            actual = [c for c in actual if c.amount]
        got = [(c.player, c.amount) for c in actual]
        exp = exp_hi + exp_lo
        if got == exp or sorted(got) == sorted(exp):
            # Halves are told apart by order: high collect lines first, then low (*observed*, 29/29).
            if (
                exp_lo
                and {n for n, _ in exp_hi} != {n for n, _ in exp_lo}
                and sorted(got[: len(exp_hi)]) != sorted(exp_hi)  # (as multisets; no Counter)
            ):
                self.err(
                    "halves-swapped",
                    actual[0].line,
                    f"{_where(k, run)}: the low half's collect lines come before the high half's",
                    expected=", ".join(n for n, _ in exp_hi) + " (high) first",
                    found=", ".join(n for n, _ in got[: len(exp_hi)]),
                )
            return
        where = _where(k, run)
        line = actual[0].line if actual else (v.hand.summary.line if v.hand.summary else v.hand.line)
        exp_txt = ", ".join(f"{n} {fmt(a)}" for n, a in exp) or "nothing"
        got_txt = ", ".join(f"{n} {fmt(a)}" for n, a in got) or "nothing"
        if exp_lo and hi_amt is not None and lo_w is not None:
            lo_amt = amount - hi_amt
            swapped = list(zip(lo_w, R.split_evenly(hi_amt, lo_w), strict=True)) + list(
                zip(hi_w, R.split_evenly(lo_amt, hi_w), strict=True)
            )
            if Counter(got) == Counter(swapped):
                self.err(
                    "halves-swapped",
                    line,
                    f"{where}: high half given to the low winner(s) and vice versa",
                    expected=exp_txt,
                    found=got_txt,
                )
                return
        if (
            v.spec.hilo
            and not exp_lo
            and hi_w
            and sum(a for _, a in got) == amount
            and len(got) > len(exp_hi)
        ):
            h_amt, _ = R.hilo_halves(amount)
            if not Counter(zip(hi_w, R.split_evenly(h_amt, hi_w), strict=True)) - Counter(got):
                self.err(
                    "low-awarded-without-qualifier",
                    line,
                    f"{where}: a low half is awarded but no shown hand has an 8-or-better low",
                    expected=exp_txt,
                    found=got_txt,
                )
                return
        exp_names = {n for n, _ in exp}
        bad = [c for c in actual if c.player not in exp_names]
        if bad:
            c = bad[0]
            self.err(
                "wrong-winner",
                c.line,
                f"{where}: {c.player} collects but does not win it",
                expected=exp_txt,
                found=got_txt,
                player=c.player,
            )
            return
        got_names = {c.player for c in actual}
        # In the expected (clockwise) order, not set order: the message must not depend on hashing.
        missing = list(dict.fromkeys(n for n, _ in exp if n not in got_names))
        if missing:
            self.err(
                "wrong-winner",
                line,
                f"{where}: {', '.join(missing)} won but collects nothing",
                expected=exp_txt,
                found=got_txt,
                player=missing[0],
            )
            return
        # Same players, different amounts: point at the first line that differs.
        remaining = Counter(exp)
        for c in actual:
            if remaining[(c.player, c.amount)] > 0:
                remaining[(c.player, c.amount)] -= 1
                continue
            self.err(
                "wrong-collected-amount",
                c.line,
                f"{where}: {c.player} collects {fmt(c.amount)}",
                expected=exp_txt,
                found=got_txt,
                player=c.player,
            )
            return
        self.err(
            "wrong-collected-amount", line, f"{where}: collect lines missing", expected=exp_txt, found=got_txt
        )

    # ------------------------------------------------------------------ descriptions

    def _suffix_ok(self, text: str, sh: ShownHand, run: int) -> bool:
        """Whether ``text`` is the evaluator's description plus a true kicker suffix.

        PokerStars tells apart two shown hands of the same description: the better one gets
        ``- Ace+Queen kicker`` (the kickers it wins with, *observed* 2009 and 2020), the worse one
        ``- lower kicker`` or ``- lower cards`` (no real hand in the corpus: accepted, and checked).
        The suffix is accepted iff what it claims holds on this board: the named kickers are the
        hand's own and another shown hand of the same description is worse; for ``lower``,
        another shown hand of the same description is better.
        """
        base = sh.high
        if not text.startswith(base + " - "):
            return False
        tail = text[len(base) + 3 :]
        higher = ""  # a flush beating a flush of the same description: "- King higher"
        if tail in ("lower kicker", "lower cards"):
            want_better = True
        elif tail.endswith(" kicker") and _kickers_ok(text, sh.high_rank):
            want_better = False
        elif tail.endswith(" higher") and sh.high_rank >> 20 == _FLUSH:
            want_better, higher = False, tail[: -len(" higher")]
        else:
            return False
        for p in self.v.ring:
            if p.name == sh.player or not p.showed:
                continue
            other = self.shown(p.name, run)
            if other is None or other.high != base:
                continue
            if higher:
                if _higher_ok(higher, sh.high_rank, other.high_rank):
                    return True
            elif (other.high_rank > sh.high_rank) if want_better else (other.high_rank < sh.high_rank):
                return True
        return False

    def _summary_suffix_ok(self, desc: str, sh: ShownHand, run: int, hilo: bool) -> bool:
        """A summary description with a true kicker suffix on its high part (real summaries drop
        the suffix the show line carries; printing it is accepted, and checked)."""
        if not hilo:
            return self._suffix_ok(desc, sh, run)
        if not desc.startswith("HI: "):
            return False
        hi, sep, lo = desc[4:].partition("; LO: ")
        return (lo if sep else None) == sh.low and self._suffix_ok(hi, sh, run)

    def _check_descriptions(self) -> None:
        v = self.v
        hilo = v.spec.hilo
        for e, run in v.shows:
            if e.description is None:
                continue
            sh = self.shown(e.player, run)
            if sh is None:
                if len(e.cards) == v.spec.hole_cards:
                    self.warn(
                        "unevaluated-show",
                        e.line,
                        f"{e.player}'s hand cannot be evaluated on this board",
                        e.player,
                    )
                continue
            hi = e.hi if e.hi is not None else e.description
            if hi != sh.high and self._suffix_ok(hi, sh, run):
                hi = sh.high
            if hi != sh.high or (hilo and e.lo != sh.low):
                self.err(
                    "wrong-hand-description",
                    e.line,
                    f"{e.player} shows ({e.description})",
                    expected=_hand_desc(sh.high, sh.low, hilo),
                    found=e.description,
                    player=e.player,
                )

    def _summary_mucks(self) -> None:
        """Cards of a mucked hand revealed by the summary (``Seat 2: X mucked [3s Ac 5h Jc Jh]``):
        kept as the player's hole cards and evaluated for the showdown facts, as PokerTracker and
        FPDB do, once checked: no card twice, and a whole hand, or exactly the cards the player
        showed (a partial show is summarised ``mucked [Qs]``, HHSmithy muscida). Ownership against
        the other players' cards and the board is checked with the other summary cards."""
        v = self.v
        summary = v.hand.summary
        assert summary is not None
        n = v.spec.hole_cards
        for s in summary.seats:
            if s.outcome is not SeatOutcome.MUCKED or not s.cards:
                continue
            p = v.seats.get(s.player)
            if p is None or p.seat != s.seat:
                continue  # reported by the summary checks
            cards = s.cards
            if len(set(cards)) != len(cards):
                self.err(
                    "duplicate-card",
                    s.line,
                    f"{p.name} mucks the same card twice",
                    found=" ".join(cards),
                    player=p.name,
                )
            elif len(cards) == n:
                self.out.mucked_cards[p.name] = cards
                if s.descriptions:
                    self._check_muck_description(p.name, cards, s.descriptions[0], s.line)
            elif len(cards) > n or set(cards) != set(p.shown):
                self.err(
                    "wrong-hole-card-count",
                    s.line,
                    f"{p.name} mucks {len(cards)} cards; {v.spec.name} deals {n}",
                    expected=n,
                    found=len(cards),
                    player=p.name,
                )

    def _check_muck_description(self, player: str, cards: tuple[str, ...], desc: str, line: int) -> None:
        """``Seat 9: X mucked [As Qd Kc 2h] - a pair of Kings``: the hand the mucked cards make, as the
        show lines word it; run twice, one per board joined by ``, ``. No real hand prints this
        suffix: the words are accepted with or without the leading article (``pair of Kings``) and,
        run twice, with the second board's hand or without it; what they name is checked."""
        v = self.v
        hilo = v.spec.hilo
        runs = (1, 2) if v.run_boards else (0,)
        words: list[set[str]] = []
        for run in runs:
            sh = self._evaluated(player, cards, run)
            if sh is None:
                return  # an incomplete board: nothing to check against
            exp = _hand_desc(sh.high, sh.low, hilo)
            forms = {exp}
            head, body = ("HI: ", exp[4:]) if exp.startswith("HI: ") else ("", exp)
            for article in ("a ", "an "):
                if body.startswith(article):
                    forms.add(head + body[len(article) :])
            words.append(forms)
        ok = desc in words[0] or (
            len(words) == 2 and any(desc == f"{a}, {b}" for a in words[0] for b in words[1])
        )
        if not ok:
            self.err(
                "wrong-hand-description",
                line,
                f"summary: {player} mucked with {desc}",
                expected=", ".join(sorted(words[0])[:1] + (sorted(words[1])[:1] if len(words) == 2 else [])),
                found=desc,
                player=player,
            )

    def _showdown_facts(self, runs: tuple[int, ...]) -> None:
        v = self.v
        for p in v.ring:
            mucked_cards = self.out.mucked_cards.get(p.name, ())
            mucked = not p.showed and bool(mucked_cards) and not p.folded
            if not p.showed and not mucked:
                continue
            for run in runs:
                # The evaluation is the fact (``ShownHand``): a shown hand's cached one as it is.
                sh = (
                    self.shown(p.name, run)
                    if not mucked
                    else self._evaluated(p.name, mucked_cards, run, True)
                )
                if sh is not None:
                    self.out.showdowns.append(sh)

    # ------------------------------------------------------------------ summary

    def _bad(self, line: int, msg: str, expected: object, found: object, player: str | None = None) -> None:
        """A ``summary-mismatch``: a summary seat line that disagrees with the hand."""
        self.err("summary-mismatch", line, msg, expected=expected, found=found, player=player)

    def _check_summary(self, rit: bool, runs: tuple[int, ...]) -> None:
        v = self.v
        summary = v.hand.summary
        assert summary is not None
        fmt = v.fmt
        hilo = v.spec.hilo

        # Boards.
        exp_boards = (
            [tuple(v.run_boards[r]) for r in (1, 2) if r in v.run_boards]
            if rit
            else ([tuple(v.board)] if v.board else [])
        )
        if (
            not exp_boards
            and v.spec.exposed_card
            and v.exposed is not None
            and list(summary.boards) == [(v.exposed,)]
        ):
            # A Courchevel hand that ends before the flop: no real hand settles whether the summary
            # prints "Board [7d]" (the exposed card alone) or no Board line; both are accepted, the
            # card must be the exposed one (docs/format-conventions.md).
            exp_boards = [(v.exposed,)]
        if list(summary.boards) != exp_boards:
            line = summary.board_lines[0] if summary.board_lines else summary.line
            self.err(
                "board-mismatch",
                line,
                "summary board differs from the dealt board",
                expected=" / ".join(" ".join(b) for b in exp_boards) or "(none)",
                found=" / ".join(" ".join(b) for b in summary.boards) or "(none)",
            )
        if v.spec.exposed_card and v.exposed is not None:
            for b, line in zip(
                summary.boards, summary.board_lines or (summary.line,) * len(summary.boards), strict=False
            ):
                if b and b[0] != v.exposed:
                    self.err(
                        "exposed-card-mismatch",
                        line,
                        f"summary board starts with {b[0]}",
                        expected=v.exposed,
                        found=b[0],
                    )
        if summary.run_twice != rit:
            self._bad(
                summary.line, "'Hand was run twice' disagrees with the boards dealt", rit, summary.run_twice
            )

        players = v.seats
        button_seat = v.hand.header.button_seat
        owners = v.owners
        for s in summary.seats:
            p = players.get(s.player)
            if p is None or p.seat != s.seat:
                owner = next((q.name for q in players.values() if q.seat == s.seat), None)
                self._bad(s.line, f"summary seat {s.seat} names {s.player!r}", owner, s.player, s.player)
                continue
            if s.button != (s.seat == button_seat):
                self._bad(
                    s.line, f"{p.name}: '(button)' marker wrong", s.seat == button_seat, s.button, p.name
                )
            if s.small_blind and not p.posted_sb:
                self._bad(s.line, f"{p.name} is marked small blind but did not post it", False, True, p.name)
            if s.big_blind and not p.posted_bb:
                self._bad(s.line, f"{p.name} is marked big blind but did not post it", False, True, p.name)
            if s.cards:
                name = p.name
                for c in s.cards:
                    if owners.get(c) != name:
                        self._claim(c, name, s.line)  # a card of its own, or a duplicate
                # The summary's cards are almost always the dealt or the shown ones, a subset of
                # what is known: no sets built for such a line.
                known = set() if s.cards == p.hole or s.cards == p.shown else set(p.hole) | set(p.shown)
                if known and not set(s.cards) <= known and not set(known) <= set(s.cards):
                    self._bad(
                        s.line,
                        f"{p.name}'s summary cards differ from the body",
                        " ".join(sorted(known)),
                        " ".join(s.cards),
                        p.name,
                    )
            # A player who cashed out: "(pot not awarded as player cashed out)" after what their hand
            # won, "(cashed out)" when it won nothing (*observed*, 6 Card Omaha 2020-2022).
            sold = self.out.per_run.get(p.name, _NO_RUNS) if p.cash_out_line else _NO_RUNS
            if p.cash_out_line:
                won_any = any(sold.values())
                if s.pot_not_awarded != won_any or s.cashed_out == won_any:
                    exp_mark = "(pot not awarded as player cashed out)" if won_any else "(cashed out)"
                    self._bad(
                        s.line,
                        f"{p.name} cashed out but the summary line does not say {exp_mark}",
                        exp_mark,
                        "(pot not awarded ...)"
                        if s.pot_not_awarded
                        else "(cashed out)"
                        if s.cashed_out
                        else "nothing",
                        p.name,
                    )
            elif s.cashed_out or s.pot_not_awarded:
                self._bad(
                    s.line,
                    f"{p.name} did not cash out but the summary line says so",
                    "nothing",
                    "(cashed out)" if s.cashed_out else "(pot not awarded as player cashed out)",
                    p.name,
                )
            # Won amounts: one clause per run the player won something on.
            if s.outcome in (SeatOutcome.SHOWED_WON, SeatOutcome.COLLECTED) or s.won:
                exp_won: tuple[int, ...]
                if sold:  # what their hand won, not paid at the table
                    exp_won = (
                        tuple(sold[r] for r in sorted(sold) if sold[r])
                        if rit
                        else ((sold[0],) if sold.get(0) else ())
                    )
                elif not rit:
                    exp_won = (p.collected,) if p.collected else ()
                else:  # run twice: per run, as collected (the settlement's split is checked in _compare)
                    actual_runs: dict[int, int] = {}
                    for col in v.collects:
                        if col.player == p.name:
                            actual_runs[col.run] = actual_runs.get(col.run, 0) + col.amount
                    if len(s.clauses) == len(runs):
                        # one clause per board, in board order: "won (X)" exactly on a board that
                        # paid the player, "lost" on the other (*observed* 2015, 134782498345)
                        exp_won = tuple(
                            actual_runs.get(r, 0) for r, w in zip(runs, s.clauses, strict=True) if w
                        )
                        for r, w in zip(runs, s.clauses, strict=True):
                            if w != bool(actual_runs.get(r, 0)):
                                self._bad(
                                    s.line,
                                    f"{p.name}'s summary says {'won' if w else 'lost'} on board {r}",
                                    "won" if actual_runs.get(r, 0) else "lost",
                                    "won" if w else "lost",
                                    p.name,
                                )
                    else:
                        exp_won = tuple(actual_runs[r] for r in sorted(actual_runs) if actual_runs[r])
                if s.won != exp_won:
                    self._bad(
                        s.line,
                        f"{p.name}'s summary says won {', '.join(fmt(a) for a in s.won)}",
                        ", ".join(fmt(a) for a in exp_won) or "nothing",
                        ", ".join(fmt(a) for a in s.won),
                        p.name,
                    )
            elif p.collected or any(sold.values()):
                won_total = p.collected + sum(sold.values())
                self._bad(
                    s.line,
                    f"{p.name} collected {fmt(won_total)} but the summary line shows no win",
                    fmt(won_total),
                    s.outcome.value,
                    p.name,
                )
            # Outcome words.
            if s.outcome is SeatOutcome.FOLDED:
                if not p.folded or p.fold_street != s.folded_street:
                    exp = (
                        f"folded {_STREET_NAME[p.fold_street]}"
                        if p.folded and p.fold_street is not None
                        else ("not folded")
                    )
                    found = (
                        f"folded {_STREET_NAME[s.folded_street]}" if s.folded_street is not None else "folded"
                    )
                    self._bad(s.line, f"{p.name}: summary fold disagrees with the body", exp, found, p.name)
                elif s.didnt_bet != (self.contributed(p) - p.antes == 0 and p.fold_street is Street.PREFLOP):
                    # Antes are not bets: a player who posted only an ante and folded "didn't bet"
                    # (*observed*, cash 78784137150 "posts the ante $20"); blinds are bets.
                    self._bad(
                        s.line,
                        f"{p.name}: '(didn't bet)' disagrees with the body",
                        self.contributed(p) - p.antes == 0,
                        s.didnt_bet,
                        p.name,
                    )
            elif p.folded and s.outcome is not SeatOutcome.NOTHING:
                self._bad(
                    s.line,
                    f"{p.name} folded {_STREET_NAME[p.fold_street or Street.PREFLOP]} but the summary says "
                    f"{s.outcome.value}",
                    "folded",
                    s.outcome.value,
                    p.name,
                )
            elif s.outcome in (SeatOutcome.SHOWED_WON, SeatOutcome.SHOWED_LOST) and not p.shown:
                self._bad(
                    s.line,
                    f"{p.name} did not show but the summary says {s.outcome.value}",
                    "no show",
                    s.outcome.value,
                    p.name,
                )
            elif s.outcome is SeatOutcome.SHOWED_LOST and p.collected:
                self._bad(
                    s.line, f"{p.name} collected but the summary says showed and lost", "won", "lost", p.name
                )
            elif s.outcome is SeatOutcome.NOTHING and p.dealt_in and not p.folded and not p.sitting_out:
                self._bad(
                    s.line,
                    f"{p.name} was in the hand but the summary line says nothing about it",
                    "an outcome",
                    "none",
                    p.name,
                )
            elif s.outcome is SeatOutcome.NOTHING and p.folded and p.fold_street is not None:
                self._bad(
                    s.line,
                    f"{p.name} folded {_STREET_NAME[p.fold_street]} but the summary does not say so",
                    f"folded {_STREET_NAME[p.fold_street]}",
                    "nothing",
                    p.name,
                )
            # Descriptions (the summary repeats the evaluator's words).
            if s.descriptions and p.showed and s.outcome in (SeatOutcome.SHOWED_WON, SeatOutcome.SHOWED_LOST):
                if rit and len(s.clauses) == len(runs):
                    pairs = list(zip(runs, s.descriptions, strict=False))
                elif rit and s.outcome is SeatOutcome.SHOWED_WON:
                    won_runs = [
                        r
                        for r in runs
                        if any(c.player == p.name and c.run == r and c.amount for c in v.collects)
                    ]
                    pairs = list(zip(won_runs, s.descriptions, strict=False))
                elif rit:
                    pairs = []
                else:
                    pairs = [(0, s.descriptions[0])]
                for run, desc in pairs:
                    sh = self.shown(p.name, run)
                    if sh is None:
                        continue
                    exp_d = _hand_desc(sh.high, sh.low, hilo)
                    if desc != exp_d and not self._summary_suffix_ok(desc, sh, run, hilo):
                        self.err(
                            "wrong-hand-description",
                            s.line,
                            f"summary: {p.name} with {desc}",
                            expected=exp_d,
                            found=desc,
                            player=p.name,
                        )
