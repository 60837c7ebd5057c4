"""Hand -> PokerStars text, the inverse of :mod:`hhparse.parsing`.

Two users: the round-trip tests (``parse(render(h)) == h``, line numbers included, so every model
line is written at its own line offset, gaps filled with blank lines, which the grammar ignores)
and the synthetic-history generator (so the text must look like the client's: the client's
amount style, ``$1``/``$0.70`` in action lines, ``$0.50/$1.00`` or ``$1/$2`` in the header).
Lines are joined with ``\\n``; the caller chooses CRLF if it wants one.
"""

from __future__ import annotations

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


def _time(h: Header) -> str:
    lt = h.local_time
    out = f"{lt:%Y/%m/%d} {lt.hour}:{lt:%M:%S} {h.time_zone}"
    if h.et_time is not None:
        et = h.et_time
        out += f" [{et:%Y/%m/%d} {et.hour}:{et:%M:%S} ET]"
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
        body = f"{game} ({stakes})"
        colon = ":  "
    header = f"{h.site} {h.hand_kind} #{h.hand_id}{colon}{body} - {_time(h)}"
    max_seats = f"{h.max_seats}-max " if h.max_seats is not None else ""
    play = "(Play Money) " if h.play_money else ""
    table = f"Table '{h.table}' {max_seats}{play}Seat #{h.button_seat} is the button"
    return header, table


def _seat(s: Seat, sym: str, tsym: str) -> str:
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


def render_event(e: Event, sym: str, tsym: str = "") -> str:
    """One event as its PokerStars line (``sym``: the hand's symbol, ``tsym``: the buy-in's)."""

    def a(v: int) -> str:
        return format_amount(v, sym)

    match e:
        case PostBlind():
            return f"{e.player}: posts {e.kind.value} {a(e.amount)}{' and is all-in' if e.all_in else ''}"
        case HoleCardsMarker():
            return "*** HOLE CARDS ***"
        case DealHole():
            return f"Dealt to {e.player}" + (f" [{' '.join(e.cards)}]" if e.cards else "")
        case ExposeCard():
            if e.bug_2016:
                return f"*** HOLE CARDS *** [{e.card}]*** HOLE CARDSPRE-FLOP *** [{e.card}]"
            return f"*** PRE-FLOP *** [{e.card}]"
        case DealBoard():
            return _board(e)
        case Fold():
            return f"{e.player}: folds" + (f" [{' '.join(e.shown)}]" if e.shown else "")
        case Check():
            return f"{e.player}: checks"
        case Call():
            return f"{e.player}: calls {a(e.amount)}{_tail(e.all_in, e.cap_reached, sym)}"
        case Bet():
            return f"{e.player}: bets {a(e.amount)}{_tail(e.all_in, e.cap_reached, sym)}"
        case Raise():
            return f"{e.player}: raises {a(e.by)} to {a(e.to)}{_tail(e.all_in, e.cap_reached, sym)}"
        case UncalledBet():
            return f"Uncalled bet ({a(e.amount)}) returned to {e.player}"
        case ShowdownMarker():
            return f"*** {_RUN[e.run]}SHOW DOWN ***"
        case Show():
            desc = f" ({e.description})" if e.description is not None else ""
            return f"{e.player}: shows [{' '.join(e.cards)}]{desc}"
        case Muck():
            return f"{e.player}: mucks hand"
        case DoesNotShow():
            return f"{e.player}: doesn't show hand"
        case Collect():
            return f"{e.player} collected {a(e.amount)} from {e.pot_label}"
        case NoLowHand():
            return "No low hand qualified"
        case HandCancelled():
            return "Hand cancelled"
        case Bounty():
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
        case Finished():
            prize = f" and received {format_currency(e.prize, tsym)}." if e.prize is not None else ""
            n = e.place
            suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{e.player} finished the tournament in {n}{suffix} place{prize}"
        case TournamentWon():
            return f"{e.player} wins the tournament and receives {e.prize_text} - congratulations!"
        case TableEvent():
            return _table_event(e, sym)
    raise TypeError(f"not an event: {e!r}")


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
    words = {
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
    }
    return p + words[k]


def _summary_seat(s: SummarySeat, sym: str) -> str:
    out = f"Seat {s.seat}: {s.player}"
    if s.button:
        out += " (button)"
    if s.small_blind:
        out += " (small blind)"
    if s.big_blind:
        out += " (big blind)"
    cards = " ".join(s.cards)
    match s.outcome:
        case SeatOutcome.FOLDED:
            out += f" folded {_FOLD_STREET[s.folded_street or Street.PREFLOP]}"
            if s.didnt_bet:
                out += " (didn't bet)"
        case SeatOutcome.SHOWED_WON:
            clauses = []
            for i, amount in enumerate(s.won):
                desc = s.descriptions[i] if i < len(s.descriptions) else ""
                clauses.append(f"won ({format_amount(amount, sym)})" + (f" with {desc}" if desc else ""))
            out += f" showed [{cards}] and " + ", and ".join(clauses)
        case SeatOutcome.SHOWED_LOST:
            out += f" showed [{cards}] and lost" + (f" with {s.descriptions[0]}" if s.descriptions else "")
        case SeatOutcome.MUCKED:
            out += " mucked" + (f" [{cards}]" if s.cards else "")
        case SeatOutcome.COLLECTED:
            out += f" collected ({format_amount(s.won[0] if s.won else 0, sym)})"
        case SeatOutcome.NOTHING:
            pass
    if s.cashed_out:
        out += " (cashed out)"
    if s.pot_not_awarded:
        out += " (pot not awarded as player cashed out)"
    return out


def _total(s: Summary, sym: str) -> str:
    def a(v: int) -> str:
        return format_amount(v, sym)

    out = f"Total pot {a(s.total_pot or 0)}"
    if s.main_pot is not None:
        out += f" Main pot {a(s.main_pot)}."
        for i, side in enumerate(s.side_pots, 1):
            label = f"Side pot-{i}" if s.side_pots_numbered else "Side pot"
            out += f" {label} {a(side)}."
    return out + f" | Rake {a(s.rake or 0)}"


def _summary_lines(s: Summary, sym: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = [(s.line, "*** SUMMARY ***")]
    if s.total_pot is not None:
        out.append((s.total_line or s.line + 1, _total(s, sym)))
    if s.run_twice:
        out.append(((s.total_line or s.line) + 1, "Hand was run twice"))
    prefixes = ("FIRST ", "SECOND ") if len(s.boards) == 2 else ("",) * len(s.boards)
    for prefix, cards, line in zip(prefixes, s.boards, s.board_lines, strict=False):
        out.append((line, f"{prefix}Board [{' '.join(cards)}]"))
    out.extend((seat.line, _summary_seat(seat, sym)) for seat in s.seats)
    return out


def render(hand: Hand) -> str:
    """The hand as PokerStars text (LF line ends, no trailing spaces, final newline)."""
    h = hand.header
    sym, tsym = h.symbol, _tsym(h)
    header, table = render_header(h)
    lines: list[tuple[int, str]] = [(hand.line, header), (hand.line + 1, table)]
    lines.extend((s.line, _seat(s, sym, tsym)) for s in hand.seats)
    lines.extend((e.line, render_event(e, sym, tsym)) for e in hand.events)
    if hand.summary is not None:
        lines.extend(_summary_lines(hand.summary, sym))
    out: list[str] = []
    expected = hand.line
    for line, text in lines:
        while expected < line:  # a blank line in the source (ignored by the grammar)
            out.append("")
            expected += 1
        out.append(text)
        expected = max(expected, line) + 1
    return "\n".join(out) + "\n"
