"""Hand -> PokerStars text, the inverse of :mod:`hhparse.parsing`.

Two users: the round-trip tests (``parse(render(h)) == h``, line numbers included, so every model
line is written at its own line offset, gaps filled with blank lines, which the grammar ignores)
and the synthetic-history generator (so the text must look like the client's: the client's
amount style, ``$1``/``$0.70`` in action lines, ``$0.50/$1.00`` or ``$1/$2`` in the header).
Lines are joined with ``\\n``; the caller chooses CRLF if it wants one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from hhparse.model import (
    Bet,
    Bounty,
    Call,
    Check,
    Collect,
    DealBoard,
    DealHole,
    DoesNotShow,
    Event,
    ExposeCard,
    Finished,
    FlopForm,
    Fold,
    Hand,
    HandCancelled,
    Header,
    HoleCardsMarker,
    Muck,
    NoLowHand,
    PostBlind,
    PostKind,
    Raise,
    Seat,
    SeatOutcome,
    Show,
    ShowdownMarker,
    Street,
    Summary,
    SummarySeat,
    TableEvent,
    TableEventKind,
    TournamentWon,
    UncalledBet,
)
from hhparse.money import SYMBOLS, format_amount, format_currency

__all__ = ["render", "render_event", "render_header"]

_RUN = {0: "", 1: "FIRST ", 2: "SECOND "}
_STREET_NAME = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_FOLD_STREET = {
    Street.PREFLOP: "before Flop",
    Street.FLOP: "on the Flop",
    Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}


def _clock(t: datetime) -> str:
    """``2019/03/04 7:05:09``: what ``f"{t:%Y/%m/%d} {t.hour}:{t:%M:%S}"`` prints, without strftime."""
    if t.year < 1000:  # strftime's %Y does not pad: keep its exact text for odd years
        return f"{t:%Y/%m/%d} {t.hour}:{t:%M:%S}"
    return f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}"


def _time(h: Header) -> str:
    out = f"{_clock(h.local_time)} {h.time_zone}"
    if h.et_time is not None:
        out += f" [{_clock(h.et_time)} ET]"
    return out


def _tsym(h: Header) -> str:
    """Currency symbol of a tournament's buy-in (bounties and prizes are printed in it)."""
    t = h.tournament
    if t is not None and t.buyin_label[:1] in SYMBOLS:
        return t.buyin_label[0]
    return ""


def render_header(h: Header) -> tuple[str, str]:
    """The header line and the table line."""
    game = f"{h.mixed} ({h.game_label})" if h.mixed else h.game_label
    t = h.tournament
    reg = f" [{h.regulator_id}]" if h.regulator_id is not None else ""
    if t is not None:
        club = f"{{{t.home_game_club}}} " if t.home_game_club is not None else ""
        zoom = "Zoom " if t.zoom else ""
        sep = "  " if t.buyin_label == "Freeroll" else " "
        rnd = f"Match Round {t.match_round}, " if t.match_round else ""
        body = (
            f"{club}{zoom}Tournament #{t.tournament_id}, {t.buyin_label}{sep}{game} - "
            f"{rnd}Level {t.level} ({h.small_blind}/{h.big_blind})"
        )
        colon = ": "
    else:
        sym = h.symbol
        if sym and (h.small_blind % 100 or h.big_blind % 100):
            stakes = f"{format_currency(h.small_blind, sym)}/{format_currency(h.big_blind, sym)}"
        else:
            stakes = f"{format_amount(h.small_blind, sym)}/{format_amount(h.big_blind, sym)}"
        if h.cap is not None:
            stakes += f" - {format_amount(h.cap, sym)} Cap - "
        if h.currency:
            stakes += f" {h.currency}"
        # a mixed game's cash header holds the stakes inside the wrapper: "HORSE (Omaha Hi/Lo Limit, $2/$4)"
        body = f"{h.mixed} ({h.game_label}, {stakes})" if h.mixed else f"{game} ({stakes})"
        colon = ":  "
        if h.club is not None:  # a Home Game cash hand
            body = f"{{{h.club}}} {body}"
            colon = ": "
    header = f"{h.site} {h.hand_kind} #{h.hand_id}{colon}{body}{reg} - {_time(h)}"
    stealth = "(Stealth) " if h.stealth else ""
    max_seats = f"{h.max_seats}-max " if h.max_seats is not None else ""
    play = "(Play Money) " if h.play_money else ""
    won = " (won the previous hand)" if h.button_won_previous else ""
    table = f"Table '{h.table}' {stealth}{max_seats}{play}Seat #{h.button_seat} is the button{won}"
    return header, table


def _seat(s: Seat, sym: str, tsym: str) -> str:
    if s.bounty is None and not s.sitting_out and s.out_of_hand is None:  # the usual line
        return f"Seat {s.seat}: {s.player} ({format_amount(s.stack, sym)} in chips)"
    bounty = f", {format_amount(s.bounty, tsym)} bounty" if s.bounty is not None else ""
    tail = (
        " is sitting out"
        if s.sitting_out
        else (f" out of hand ({s.out_of_hand})" if s.out_of_hand is not None else "")
    )
    return f"Seat {s.seat}: {s.player} ({format_amount(s.stack, sym)} in chips{bounty}){tail}"


def _tail(all_in: bool, cap: int | None, sym: str) -> str:
    if all_in:
        return " and is all-in"
    if cap is not None:
        return f" and has reached the {format_amount(cap, sym)} cap"
    return ""


def _board(e: DealBoard) -> str:
    c = e.cards
    head = f"*** {_RUN[e.run]}{_STREET_NAME[e.street]} ***"
    if e.street is Street.FLOP:
        if e.form is FlopForm.SPLIT:
            return f"{head} [{c[0]}] [{' '.join(c[1:])}]"
        if e.form is FlopForm.BUG_2016:
            return f"{head} [{c[0]}] [{c[0]}{' '.join(c[1:])}]"
        return f"{head} [{' '.join(c)}]"
    return f"{head} [{' '.join(c[:-1])}] [{c[-1]}]"


# One small function per event type, found by ``type(e)`` (a dict lookup instead of a chain of
# class patterns: the renderer runs once per line of every generated hand).


_POST_WORDS: dict[str, str] = {k: k.value for k in PostKind}  # (Enum.value is a slow property)


def _post_blind(e: PostBlind, sym: str, tsym: str) -> str:
    kind = _POST_WORDS.get(e.kind) or e.kind.value
    return f"{e.player}: posts {kind} {format_amount(e.amount, sym)}{' and is all-in' if e.all_in else ''}"


def _hole_cards(e: HoleCardsMarker, sym: str, tsym: str) -> str:
    return "*** HOLE CARDS ***"


def _deal_hole(e: DealHole, sym: str, tsym: str) -> str:
    return f"Dealt to {e.player}" + (f" [{' '.join(e.cards)}]" if e.cards else "")


def _expose(e: ExposeCard, sym: str, tsym: str) -> str:
    if e.bug_2016:
        return f"*** HOLE CARDS *** [{e.card}]*** HOLE CARDSPRE-FLOP *** [{e.card}]"
    return f"*** PRE-FLOP *** [{e.card}]"


def _deal_board(e: DealBoard, sym: str, tsym: str) -> str:
    return _board(e)


def _fold(e: Fold, sym: str, tsym: str) -> str:
    if e.shown:
        return f"{e.player}: folds [{' '.join(e.shown)}]"
    return f"{e.player}: folds"


def _check(e: Check, sym: str, tsym: str) -> str:
    return f"{e.player}: checks"


def _call(e: Call, sym: str, tsym: str) -> str:
    if e.all_in or e.cap_reached is not None:
        return f"{e.player}: calls {format_amount(e.amount, sym)}{_tail(e.all_in, e.cap_reached, sym)}"
    return f"{e.player}: calls {format_amount(e.amount, sym)}"


def _bet(e: Bet, sym: str, tsym: str) -> str:
    if e.all_in or e.cap_reached is not None:
        return f"{e.player}: bets {format_amount(e.amount, sym)}{_tail(e.all_in, e.cap_reached, sym)}"
    return f"{e.player}: bets {format_amount(e.amount, sym)}"


def _raise(e: Raise, sym: str, tsym: str) -> str:
    tail = _tail(e.all_in, e.cap_reached, sym) if e.all_in or e.cap_reached is not None else ""
    return f"{e.player}: raises {format_amount(e.by, sym)} to {format_amount(e.to, sym)}{tail}"


def _uncalled(e: UncalledBet, sym: str, tsym: str) -> str:
    return f"Uncalled bet ({format_amount(e.amount, sym)}) returned to {e.player}"


def _showdown(e: ShowdownMarker, sym: str, tsym: str) -> str:
    return f"*** {_RUN[e.run]}SHOW DOWN ***"


def _show(e: Show, sym: str, tsym: str) -> str:
    desc = f" ({e.description})" if e.description is not None else ""
    return f"{e.player}: shows [{' '.join(e.cards)}]{desc}"


def _muck(e: Muck, sym: str, tsym: str) -> str:
    return f"{e.player}: mucks hand"


def _no_show(e: DoesNotShow, sym: str, tsym: str) -> str:
    return f"{e.player}: doesn't show hand"


def _collect(e: Collect, sym: str, tsym: str) -> str:
    return f"{e.player} collected {format_amount(e.amount, sym)} from {e.pot_label}"


def _no_low(e: NoLowHand, sym: str, tsym: str) -> str:
    return "No low hand qualified"


def _cancelled(e: HandCancelled, sym: str, tsym: str) -> str:
    return "Hand cancelled"


def _bounty(e: Bounty, sym: str, tsym: str) -> str:
    how = "splitting the elimination of" if e.split else "eliminating"
    amt = format_amount(e.amount, tsym)
    if len(e.winners) > 1:
        return f"{', '.join(e.winners)} split the {amt} bounty for {how} {e.eliminated}"
    if not e.progressive:
        return f"{e.winners[0]} wins the {amt} bounty for {how} {e.eliminated}"
    out = f"{e.winners[0]} wins {amt} for {how} {e.eliminated}"
    if e.increase is not None and e.new_bounty is not None:
        out += (
            f" and their own bounty increases by {format_amount(e.increase, tsym)}"
            f" to {format_amount(e.new_bounty, tsym)}"
        )
    return out


def _finished(e: Finished, sym: str, tsym: str) -> str:
    prize = f" and received {format_currency(e.prize, tsym)}." if e.prize is not None else ""
    n = e.place
    if n is None:
        return f"{e.player} finished the tournament{prize}"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{e.player} finished the tournament in {n}{suffix} place{prize}"


def _won(e: TournamentWon, sym: str, tsym: str) -> str:
    if e.prize is None:
        return f"{e.player} wins the tournament - congratulations!"
    return f"{e.player} wins the tournament and receives {e.prize_text} - congratulations!"


def _table(e: TableEvent, sym: str, tsym: str) -> str:
    return _table_event(e, sym)


_EVENT_LINE: dict[type, Callable[[Any, str, str], str]] = {
    PostBlind: _post_blind,
    HoleCardsMarker: _hole_cards,
    DealHole: _deal_hole,
    ExposeCard: _expose,
    DealBoard: _deal_board,
    Fold: _fold,
    Check: _check,
    Call: _call,
    Bet: _bet,
    Raise: _raise,
    UncalledBet: _uncalled,
    ShowdownMarker: _showdown,
    Show: _show,
    Muck: _muck,
    DoesNotShow: _no_show,
    Collect: _collect,
    NoLowHand: _no_low,
    HandCancelled: _cancelled,
    Bounty: _bounty,
    Finished: _finished,
    TournamentWon: _won,
    TableEvent: _table,
}


def _line_of(e: object) -> Callable[[Any, str, str], str]:
    fn = _EVENT_LINE.get(type(e))
    if fn is None:
        for cls, f in _EVENT_LINE.items():  # a subclass of an event type renders as its base
            if isinstance(e, cls):
                return f
        raise TypeError(f"not an event: {e!r}")
    return fn


def render_event(e: Event, sym: str, tsym: str = "") -> str:
    """One event as its PokerStars line (``sym``: the hand's symbol, ``tsym``: the buy-in's)."""
    return _line_of(e)(e, sym, tsym)


_TABLE_WORDS = {
    TableEventKind.LEAVES: " leaves the table",
    TableEventKind.SITS_OUT: ": sits out",
    TableEventKind.IS_SITTING_OUT_COLON: ": is sitting out",
    TableEventKind.IS_SITTING_OUT: " is sitting out",
    TableEventKind.TIMED_OUT: " has timed out",
    TableEventKind.TIMED_OUT_DISCONNECTED: " has timed out while disconnected",
    TableEventKind.TIMED_OUT_BEING_DISCONNECTED: " has timed out while being disconnected",
    TableEventKind.DISCONNECTED: " is disconnected",
    TableEventKind.CONNECTED: " is connected",
    TableEventKind.RETURNED: " has returned",
    TableEventKind.ALLOWED_AFTER_BUTTON: " will be allowed to play after the button",
    TableEventKind.TREATED_ALL_IN: " is being treated as all-in",
    TableEventKind.TREATED_ALL_IN_COLON: ": is being treated as all-in",
}


def _table_event(e: TableEvent, sym: str) -> str:
    k, p = e.kind, e.player
    if k is TableEventKind.CHAT:
        return f'{p} said, "{e.text}"'
    if k is TableEventKind.JOINS:
        return f"{p} joins the table at seat #{e.seat}"
    if k is TableEventKind.REMOVED:
        return f"{p} was removed from the table{e.text}"
    if k is TableEventKind.CASHED_OUT:
        fee = f" | Cash Out Fee {format_amount(e.fee, sym)}" if e.fee is not None else ""
        return f"{p} cashed out the hand for {format_amount(e.amount or 0, sym)}{fee}"
    if k is TableEventKind.BETTING_CAPPED:
        return "Betting is capped"
    if k is TableEventKind.REBUY or k is TableEventKind.ADD_ON:
        verb = "re-buys" if k is TableEventKind.REBUY else "takes the add-on"
        price = f" for {e.text}" if e.text else ""
        return f"{p} {verb} and receives {e.amount or 0} chips{price}"
    if k is TableEventKind.WINS:
        return f"{p} wins {e.text}"
    return p + _TABLE_WORDS[k]


def _summary_seat(s: SummarySeat, sym: str) -> str:
    out = f"Seat {s.seat}: {s.player}"
    if s.button:
        out += " (button)"
    if s.small_blind:
        out += " (small blind)"
    if s.big_blind:
        out += " (big blind)"
    outcome = s.outcome
    if outcome == SeatOutcome.FOLDED:
        out += f" folded {_FOLD_STREET[s.folded_street or Street.PREFLOP]}"
        if s.didnt_bet:
            out += " (didn't bet)"
    elif s.clauses and outcome in (SeatOutcome.SHOWED_WON, SeatOutcome.SHOWED_LOST):
        parts = []
        won = iter(s.won)
        for i, is_won in enumerate(s.clauses):
            desc = s.descriptions[i] if i < len(s.descriptions) else ""
            head = f"won ({format_amount(next(won, 0), sym)})" if is_won else "lost"
            parts.append(head + (f" with {desc}" if desc else ""))
        out += f" showed [{' '.join(s.cards)}] and " + ", and ".join(parts)
    elif outcome == SeatOutcome.SHOWED_WON:
        clauses = []
        descriptions = s.descriptions
        for i, amount in enumerate(s.won):
            desc = descriptions[i] if i < len(descriptions) else ""
            clauses.append(f"won ({format_amount(amount, sym)})" + (f" with {desc}" if desc else ""))
        out += f" showed [{' '.join(s.cards)}] and " + ", and ".join(clauses)
    elif outcome == SeatOutcome.SHOWED_LOST:
        out += f" showed [{' '.join(s.cards)}] and lost" + (
            f" with {s.descriptions[0]}" if s.descriptions else ""
        )
    elif outcome == SeatOutcome.MUCKED:
        out += " mucked" + (f" [{' '.join(s.cards)}]" if s.cards else "")
        if s.descriptions:
            out += f" - {s.descriptions[0]}"
    elif outcome == SeatOutcome.COLLECTED:
        out += f" collected ({format_amount(s.won[0] if s.won else 0, sym)})"
    if s.cashed_out:
        out += " (cashed out)"
    if s.pot_not_awarded:
        out += " (pot not awarded as player cashed out)"
    return out


def _total(s: Summary, sym: str) -> str:
    out = f"Total pot {format_amount(s.total_pot or 0, sym)}"
    if s.main_pot is not None:
        out += f" Main pot {format_amount(s.main_pot, sym)}."
        for i, side in enumerate(s.side_pots, 1):
            label = f"Side pot-{i}" if s.side_pots_numbered else "Side pot"
            out += f" {label} {format_amount(side, sym)}."
    return out + f" | Rake {format_amount(s.rake or 0, sym)}"


def render(hand: Hand) -> str:
    """The hand as PokerStars text (LF line ends, no trailing spaces, final newline).

    Every text goes at its model line: a gap before it is filled with blank lines (which the
    grammar ignores); a line at or before the previous one simply follows it.
    """
    h = hand.header
    sym, tsym = h.symbol, _tsym(h)
    header, table = render_header(h)
    out: list[str] = [header, table]  # at hand.line and hand.line + 1
    append = out.append
    expected = hand.line + 2
    events = hand.events
    first_seat = hand.seats[0].line if hand.seats else 0
    n_pre = 0  # re-buys and add-ons printed between the table line and the seat lines
    while n_pre < len(events) and events[n_pre].line < first_seat:
        e = events[n_pre]
        if e.line > expected:
            out.extend([""] * (e.line - expected))
            expected = e.line
        append(_line_of(e)(e, sym, tsym))
        expected += 1
        n_pre += 1
    for seat_line in hand.seats:
        line = seat_line.line
        if line > expected:  # a gap: blank lines
            out.extend([""] * (line - expected))
            expected = line
        append(_seat(seat_line, sym, tsym))
        expected += 1
    event_line = _EVENT_LINE
    for e in events[n_pre:] if n_pre else events:
        line = e.line
        if line > expected:  # a gap: blank lines
            out.extend([""] * (line - expected))
            expected = line
        fn = event_line.get(type(e))
        append((fn or _line_of(e))(e, sym, tsym))
        expected += 1
    s = hand.summary
    if s is not None:  # the summary block, each line at its model line
        line = s.line
        if line > expected:
            out.extend([""] * (line - expected))
            expected = line
        append("*** SUMMARY ***")
        expected += 1
        if s.total_pot is not None:
            line = s.total_line or s.line + 1
            if line > expected:
                out.extend([""] * (line - expected))
                expected = line
            append(_total(s, sym))
            expected += 1
        if s.run_twice:
            line = (s.total_line or s.line) + 1
            if line > expected:
                out.extend([""] * (line - expected))
                expected = line
            append("Hand was run twice")
            expected += 1
        if s.boards:
            prefixes = ("FIRST ", "SECOND ") if len(s.boards) == 2 else ("",) * len(s.boards)
            for prefix, cards, line in zip(prefixes, s.boards, s.board_lines, strict=False):
                if line > expected:
                    out.extend([""] * (line - expected))
                    expected = line
                append(f"{prefix}Board [{' '.join(cards)}]")
                expected += 1
        for seat in s.seats:
            line = seat.line
            if line > expected:
                out.extend([""] * (line - expected))
                expected = line
            append(_summary_seat(seat, sym))
            expected += 1
    append("")
    return "\n".join(out)
