"""Every report column, described once: its header, a short header for terminals, what it means
(PokerTracker 4's definition where PokerTracker has the stat) and, for a rate, its numerator and
denominator.

The one source of every explanation a user sees: the HTML pages' headers and their hover text,
the CSV header row, the terminal's abbreviated headers and their legend, ``hhparse report
--list`` and ``docs/stats.md`` (generated from here: ``python -m hhparse.reports.columns``). The
arithmetic itself is SQL (``analytics/stats.sql`` and the report files), written to these
definitions; ``tests/test_stats_reference.py`` fails when a report returns a column this catalog
does not explain, a rate without its numerator and denominator, or a stale ``docs/stats.md``.

Nothing here imports pandas, pyarrow or duckdb: ``hhparse report --help`` reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

__all__ = ["COLUMNS", "Column", "Label", "label", "render_docs"]


class Column(NamedTuple):
    """One column. ``kind`` says how it is shown (``text``, ``id`` never cut, ``path`` cut at its start, ``count``, ``money``
    in the row's unit, ``bb`` per 100 hands, ``pct``, ``ratio``, ``time``, ``cards``, ``flag``); ``rank`` how
    much it matters when a terminal cannot show every column (lower first; identity columns 0)."""

    text: str
    doc: str = ""
    abbr: str = ""
    num: str = ""
    den: str = ""
    pt4: str = ""
    kind: str = "text"
    rank: int = 50

    @property
    def short(self) -> str:
        """The terminal header (``abbr``, else ``text``)."""
        return self.abbr or self.text

    @property
    def is_rate(self) -> bool:
        """A stat with a numerator and a denominator (percentages, ratios, win rates)."""
        return self.kind in ("pct", "ratio", "bb")


Label = Column
"""The former name (a header and its definition)."""

_OF = "% of "
_SAW_FLOP = "hands in which the player saw the flop"
_DEALT = "hands dealt in, walks excluded (a walk: the big blind wins the blinds uncontested)"


def _pct(text: str, doc: str, num: str, den: str, *, abbr: str = "", pt4: str = "", rank: int = 50) -> Column:
    return Column(text, doc, abbr, num, den, pt4, "pct", rank)


def _money(text: str, doc: str, *, abbr: str = "", pt4: str = "", rank: int = 50) -> Column:
    return Column(text, doc, abbr, "", "", pt4, "money", rank)


def _count(text: str, doc: str, *, abbr: str = "", rank: int = 50) -> Column:
    return Column(text, doc, abbr, "", "", "", "count", rank)


def _key(text: str, doc: str = "", *, abbr: str = "", kind: str = "text", rank: int = 0) -> Column:
    return Column(text, doc, abbr, "", "", "", kind, rank)


COLUMNS: dict[str, Column] = {
    # -- who and where -------------------------------------------------------------------------
    "player": _key("Player", "Screen name as printed in the history."),
    "unit": _key(
        "Unit",
        "The money every amount of the row is in: a currency (USD, EUR...) for cash games and tournament "
        "buy-ins, `chips` for tournament hands, `play` for play money. Amounts of different units are never "
        "added together.",
        rank=1,
    ),
    "stakes": _key(
        "Stakes",
        "Cash: small / big blind and unit (fixed limit: small / big bet), e.g. `0.10/0.25 USD`. Tournaments: "
        "the buy-in as printed, e.g. `$3.41+$3.41+$0.68 USD` (the blinds rise; the buy-in is the stake).",
        rank=2,
    ),
    "game": _key(
        "Game",
        "The variant: courchevel-hilo, courchevel, 5-card-omaha-hilo, 5-card-omaha, "
        "omaha-hilo or omaha (the hands list: the game words as printed).",
        rank=2,
    ),
    "structure": _key(
        "Structure", "Betting structure: PL pot limit, NL no limit, FL fixed limit.", abbr="Str", rank=2
    ),
    "month": _key("Month", "Calendar month of the hand's start, in UTC (YYYY-MM).", rank=2),
    "position": _key(
        "Position",
        "Seat relative to the button, counted over the players dealt in: BTN, SB, BB, UTG, UTG+1, UTG+2, MP, "
        "MP+1, HJ, CO (heads-up: BTN is the small blind).",
        abbr="Pos",
        rank=2,
    ),
    "table_size": _key(
        "Table size",
        "Seats at the table as the header prints them (`6-max`); `unknown` when it does not.",
        abbr="Table",
        rank=2,
    ),
    "hands": _count("Hands", "Hands the player was dealt into.", rank=3),
    # -- results -------------------------------------------------------------------------------
    "net": _money(
        "Net won",
        "Collected + uncalled bets returned − everything put in, after rake, in the row's unit. Tournament "
        "chips are not money: a `chips` row spanning several tournaments leaves it empty (see the "
        "tournaments report).",
        abbr="Net",
        pt4="Net Won",
        rank=4,
    ),
    "bb_per_100": Column(
        "bb/100",
        "Big blinds won per 100 hands, each hand counted in its own big blind (fixed limit: the big bet), as "
        "PokerTracker computes it. Only within one stake: empty on a row that mixes stakes (use --by stakes).",
        "bb/100",
        "net won in big blinds, each hand in its own big blind, × 100",
        "hands",
        "bb/100",
        "bb",
        5,
    ),
    "ev_net": _money(
        "All-in EV net",
        "Net won had every all-in before the river been paid its equity at the point the betting ended (exact "
        "over every board, or seeded Monte Carlo); the net itself in hands without one. PokerTracker's "
        '"All-in Adj" winnings.',
        abbr="EV net",
        pt4="All-In Adj $",
        rank=21,
    ),
    "ev_bb_per_100": Column(
        "All-in EV bb/100",
        'bb/100 with the all-in EV net in place of the net (PokerTracker\'s "All-In Adj bb/100").',
        "EV bb/100",
        "all-in EV net in big blinds, each hand in its own big blind, × 100",
        "hands",
        "All-In Adj bb/100",
        "bb",
        20,
    ),
    "showdown_net": _money(
        "Showdown net",
        "Net won in hands that went to showdown (PokerTracker's blue line).",
        abbr="SD net",
        pt4="Won at Showdown (blue line)",
        rank=22,
    ),
    "nonshowdown_net": _money(
        "Non-showdown net",
        "Net won in hands that ended before showdown (PokerTracker's red line).",
        abbr="Non-SD",
        pt4="Won without Showdown (red line)",
        rank=23,
    ),
    # -- pre-flop ------------------------------------------------------------------------------
    "vpip": _pct(
        "VPIP %",
        "Voluntarily Put money In Pot: called, bet or raised pre-flop (posting a blind is not voluntary; a big "
        "blind who only checks did not).",
        "hands where the player called, bet or raised pre-flop",
        _DEALT,
        abbr="VPIP",
        pt4="VPIP",
        rank=6,
    ),
    "pfr": _pct(
        "PFR %",
        "Pre-Flop Raise: raised pre-flop (any raise, a 3-bet included).",
        "hands where the player raised pre-flop",
        _DEALT,
        abbr="PFR",
        pt4="PFR",
        rank=7,
    ),
    "three_bet": _pct(
        "3-bet %",
        "Re-raised a single pre-flop raise.",
        "times the player re-raised the one pre-flop raise they faced",
        "times the player faced exactly one pre-flop raise with a re-raise allowed",
        abbr="3B",
        pt4="3Bet Preflop",
        rank=9,
    ),
    "fold_to_three_bet": _pct(
        "Fold to 3-bet %",
        "Folded after raising first in and facing a 3-bet.",
        "times the player folded to the 3-bet",
        "times the player raised first in pre-flop and then faced a 3-bet (no 4-bet yet)",
        abbr="F3B",
        pt4="Fold to 3Bet",
        rank=16,
    ),
    "steal": _pct(
        "Steal %",
        "Attempted to steal the blinds: raised first in from the cutoff, the button or the small blind.",
        "times the player raised first in from CO, BTN or SB",
        "times everyone before folded to the player in CO, BTN or SB",
        abbr="Steal",
        pt4="Attempt to Steal",
        rank=14,
    ),
    "fold_to_steal": _pct(
        "Fold to steal %",
        "Folded a blind to a steal attempt.",
        "times the player folded the small or big blind to a steal",
        "times the player was in a blind facing a steal",
        abbr="FSteal",
        pt4="Fold to Steal",
        rank=17,
    ),
    # -- post-flop -----------------------------------------------------------------------------
    "af": Column(
        "AF",
        "Aggression factor, flop to river: (bets + raises) / calls; empty without a call.",
        "AF",
        "bets + raises, flop to river",
        "calls, flop to river",
        "Aggression Factor",
        "ratio",
        10,
    ),
    "afq": _pct(
        "AFq %",
        "Aggression frequency, flop to river (checks are not counted).",
        "bets + raises, flop to river",
        "bets + raises + calls + folds, flop to river",
        abbr="AFq",
        pt4="Aggression Frequency",
        rank=19,
    ),
    "cbet_flop": _pct(
        "C-bet flop %",
        "Continuation bet: bet the flop as the last pre-flop raiser.",
        "times the player bet the flop as the last pre-flop raiser",
        "times the last pre-flop raiser was first to bet on the flop (no bet before them)",
        abbr="CBet",
        pt4="CBet Flop",
        rank=15,
    ),
    "fold_to_cbet_flop": _pct(
        "Fold to flop c-bet %",
        "Folded to a flop continuation bet.",
        "times the player folded to a flop c-bet",
        "times the player faced a flop c-bet",
        abbr="FCBet",
        pt4="Fold to Flop CBet",
        rank=18,
    ),
    "wtsd": _pct(
        "WTSD %",
        "Went to showdown after seeing the flop.",
        "hands the player went to showdown",
        _SAW_FLOP,
        abbr="WTSD",
        pt4="Went to SD",
        rank=11,
    ),
    "wsd": _pct(
        "W$SD %",
        "Won money at showdown: any part of any pot.",
        "showdowns where the player won money",
        "showdowns the player went to",
        abbr="W$SD",
        pt4="Won $ at SD",
        rank=12,
    ),
    "wwsf": _pct(
        "WWSF %",
        "Won money (collected anything) after seeing the flop.",
        "hands where the player saw the flop and collected money",
        _SAW_FLOP,
        abbr="WWSF",
        pt4="Won When Saw Flop",
        rank=13,
    ),
    # -- hi/lo ---------------------------------------------------------------------------------
    "showdowns": _count("Showdowns", "Hands the player went to showdown.", abbr="SD", rank=8),
    "won_at_showdown": _count(
        "Won at SD", "Showdowns where the player won any part of any pot.", abbr="Won SD", rank=9
    ),
    "scoops": _count(
        "Scoops", "Showdowns where the player won every chip of every pot they contested.", rank=10
    ),
    "scoop_pct": _pct(
        "Scoop %",
        "Won every chip of every pot contested at showdown.",
        "scoops",
        "showdowns where the player won money",
        abbr="Scoop",
        rank=5,
    ),
    "high_only": _count(
        "High only", "Won a high half or a whole pot but no low half, without scooping.", abbr="Hi", rank=11
    ),
    "high_only_pct": _pct(
        "High only %",
        "Won only high: a high half or whole pot, no low half, no scoop.",
        "showdowns won high only",
        "showdowns where the player won money",
        abbr="Hi%",
        rank=6,
    ),
    "low_only": _count("Low only", "Won a low half but no high half.", abbr="Lo", rank=12),
    "low_only_pct": _pct(
        "Low only %",
        "Won only a low half.",
        "showdowns won low only",
        "showdowns where the player won money",
        abbr="Lo%",
        rank=7,
    ),
    "quartered": _count(
        "Quartered", "Shared a low half with another player (got a quarter of the pot).", abbr="Qtr", rank=13
    ),
    "quartered_pct": _pct(
        "Quartered %",
        "Shared a low half with another player.",
        "showdowns quartered",
        "showdowns where the player won money",
        abbr="Qtr%",
        rank=14,
    ),
    "low_made_pct": _pct(
        "Low made %",
        "Showed down a qualifying 8-or-better low.",
        "hands shown holding a qualifying low (on any board)",
        "hands the player showed",
        abbr="LowMade",
        rank=15,
    ),
    "avg_pot_share": _pct(
        "Avg pot share %",
        "Average share of the pot after rake the player collected, over the hands they collected anything.",
        "the player's collected amount ÷ (pot − rake), summed",
        "hands where the player collected anything",
        abbr="Share",
        rank=16,
    ),
    "won_high": _money("Won high", "Collected from high halves and whole pots.", abbr="WonHi", rank=17),
    "won_low": _money("Won low", "Collected from low halves.", abbr="WonLo", rank=18),
    # -- door card -----------------------------------------------------------------------------
    "breakdown": _key(
        "Breakdown",
        "rank: the door card's rank; low: A-8 or not; pairs / suits: whether one of the "
        "player's hole cards has its rank / suit (unknown when the cards are not known).",
        abbr="By",
    ),
    "value": _key("Value", "The door card's rank, low/high, or yes/no/unknown (see Breakdown)."),
    # -- sessions ------------------------------------------------------------------------------
    "session": _key(
        "Session", "Consecutive hands of one unit with gaps of at most 30 minutes, numbered.", abbr="#"
    ),
    "start": _key("Start (UTC)", "Start of the first hand.", abbr="Start", kind="time", rank=3),
    "duration_min": Column("Minutes", "First to last hand start, in minutes.", "Min", "", "", "", "count", 6),
    # -- graph, luck, hands --------------------------------------------------------------------
    "hand_no": _count(
        "Hand no.",
        "Hand number within the unit, in start order; the graph keeps about 2,000 of them (on a long "
        "history at the end of an hour of play), the first, the last and each line's highest and lowest.",
        abbr="#",
        rank=1,
    ),
    "hand_id": _key(
        "Hand", "Hand number as printed by the site (`hhparse report hand ID` replays it).", kind="id", rank=1
    ),
    "start_utc": _key("Start (UTC)", "Hand start time in UTC.", abbr="Start", kind="time", rank=2),
    "cum_net": _money("Cumulative net", "Net won so far.", abbr="Net", rank=3),
    "cum_showdown": _money("Cumulative showdown", "Showdown net so far.", abbr="SD", rank=4),
    "cum_nonshowdown": _money("Cumulative non-showdown", "Non-showdown net so far.", abbr="Non-SD", rank=5),
    "cum_allin_ev": _money("Cumulative all-in EV", "All-in EV net so far.", abbr="EV", rank=6),
    "rank": _count("Rank", "Order by the size of the swing, biggest first (per unit).", abbr="#", rank=0),
    "street": _key(
        "Street", "Street the betting ended on with a player all-in: pre-flop, flop or turn.", rank=5
    ),
    "method": _key(
        "Method",
        "exact (every possible board counted) or mc (seeded Monte Carlo: a contender's cards unknown).",
        rank=9,
    ),
    "hole_cards": Column(
        "Cards", "The player's hole cards when known (the hero's, or shown).", "", "", "", "", "cards", 6
    ),
    "allin_ev": _money(
        "All-in EV",
        "The player's expected result at the point the betting ended: their equity in "
        "every pot, half and run, minus what they put in.",
        abbr="EV",
        rank=4,
    ),
    "luck": _money(
        "Luck", "Net won − all-in EV: what the cards dealt after the betting ended gave or took.", rank=3
    ),
    "ev_std_err": _money(
        "EV std. error",
        "Standard error of the all-in EV: 0 when exact, else the Monte Carlo estimate's.",
        abbr="±",
        rank=10,
    ),
    # -- rejects -------------------------------------------------------------------------------
    "code": _key("Code", "Stable error code (docs/referee-codes.md)."),
    "code_count": _count("Hands with code", "Rejected hands with this code.", abbr="Count", rank=1),
    "source": _key("File", "The file the hand was read from.", kind="path", rank=3),
    "error_line": _count("Error line", "File line of the first error.", abbr="Line", rank=2),
    "hand_line": _count("Hand line", "First line of the hand in the file.", abbr="From", rank=8),
    "status": _key(
        "Status",
        "invalid (the referee found an error), unparsed (a line the grammar cannot read), "
        "unsupported (another game) or conflict (the hand number is stored with another text).",
        rank=5,
    ),
    "message": _key("Message", "Why the hand was rejected.", rank=4),
    # -- hands ---------------------------------------------------------------------------------
    "table_name": _key("Table", "Table name as printed.", rank=12),
    "tournament_id": _key(
        "Tournament",
        "Tournament number as printed; for a total row, `total`.",
        abbr="Tourn.",
        kind="id",
        rank=1,
    ),
    "players": _count("Players", "Players dealt in.", abbr="Pl", rank=11),
    "door_card": Column(
        "Door", "Courchevel: the board card exposed before the pre-flop betting.", "", "", "", "", "cards", 7
    ),
    "board": Column(
        "Board", "The final board (the first board when the hand was run twice).", "", "", "", "", "cards", 5
    ),
    "board_run2": Column(
        "Board 2", "The second board of a hand run twice.", "Board2", "", "", "", "cards", 13
    ),
    "total_pot": _money("Pot", "Total pot before rake.", rank=8),
    "rake": _money("Rake", "Rake taken from the pot (cash games).", rank=14),
    "showdown": Column(
        "SD", "Went to showdown (without --player: the hand had a showdown).", "", "", "", "", "flag", 9
    ),
    "all_in": Column(
        "All-in", "Was all-in at some point (without --player: anyone was).", "AI", "", "", "", "flag", 10
    ),
    "scooped": Column("Scoop", "Scooped (without --player: anyone did).", "", "", "", "", "flag", 15),
    "site": _key("Site", "Poker site as printed in the header.", rank=30),
    # -- hand replay ---------------------------------------------------------------------------
    "text": _key("Replay", "One line of the hand's replay, as the terminal prints it."),
    "action": _key("Action", "What the player did (or the street dealt)."),
    "amount": _money("Amount", "Chips or money moved by the action."),
    "pot_after": _money("Pot after", "The pot after the action."),
    "stack_after": _money("Stack after", "The player's stack after the action."),
    # -- tournaments ---------------------------------------------------------------------------
    "buyin_label": _key("Buy-in", "The buy-in as printed (hand header or summary file).", rank=3),
    "buy_in": _money(
        "Buy-in paid",
        "What the entry cost, fee excluded: the prize-pool part and the bounty part, plus "
        "rebuys and add-ons.",
        abbr="Cost",
        pt4="Buy-in",
        rank=9,
    ),
    "fee": _money(
        "Fee (rake)",
        "PokerStars' fee: the buy-in's last part (`$0.68` in `$3.41+$3.41+$0.68`).",
        abbr="Fee",
        pt4="Fee",
        rank=10,
    ),
    "entries": _count("Entrants", "Players in the tournament (from a summary file).", abbr="Entr.", rank=11),
    "place": _count(
        "Place",
        "Finishing place (a hand's `finished the tournament in Nth place` line, or the summary file).",
        rank=4,
    ),
    "prize": _money(
        "Prize", "Prize money for the place (0 when the place paid nothing).", pt4="Winnings", rank=6
    ),
    "bounties": _money(
        "Bounties",
        "Knockout bounties won (each knockout line's amount; a split bounty shared), "
        "plus the winner's own bounty; or the summary file's `You collected N bounties` total.",
        abbr="KO $",
        pt4="Bounties",
        rank=7,
    ),
    "won": _money("Won", "Prize + bounties.", rank=8),
    "tournaments": _count(
        "Tournaments", "Tournaments in the row (1 for one tournament).", abbr="Tourn", rank=3
    ),
    "cashes": _count("Cashes", "Tournaments finished in the money (a prize above 0).", abbr="Cash", rank=12),
    "roi": _pct(
        "ROI %",
        "Return on investment: net won per unit spent, bounties included.",
        "won − (buy-in + fee + rebuys)",
        "buy-in + fee + rebuys",
        abbr="ROI",
        pt4="ROI",
        rank=5,
    ),
    "itm": _pct(
        "ITM %",
        "In The Money: finished with a prize.",
        "tournaments finished with a prize above 0",
        "tournaments with a known result",
        abbr="ITM",
        pt4="ITM",
        rank=13,
    ),
    "result_from": _key(
        "Result from",
        "Where the place and prize come from: hands (a finish line), summary (a "
        "summary file), both; empty when neither shows them (no won, net or ROI then).",
        abbr="From",
        rank=20,
    ),
}
"""Header, definition and display of every column of every report, by column name."""


def label(column: str) -> Column:
    """The column's entry; an unknown column (from ``hhparse sql``) gets its name in words."""
    return COLUMNS.get(column) or Column(column.replace("_", " ").capitalize())


def render_docs() -> str:
    """``docs/stats.md``: every report, then every column with its definition, numerator and
    denominator (generated from this module; a test fails when the committed file differs)."""
    from hhparse.reports.catalog import REPORTS

    out = [
        "# Reports and stats",
        "",
        "<!-- Generated by `python -m hhparse.reports.columns`; do not edit by hand. -->",
        "",
        "Every column a report shows, once: what it means (PokerTracker 4's definition where PokerTracker",
        "has the stat, named in the PT4 column), and for a rate what is counted over what. `hhparse report",
        "--list` prints the same text; the HTML pages show it when the pointer rests on a header. Money is",
        "in the row's `unit` and never added across units. The terminal abbreviates headers and prints a",
        "legend under the table.",
        "",
        "## Reports",
        "",
        "| report | what it shows | columns |",
        "|---|---|---|",
    ]
    for spec in REPORTS.values():
        cols = ", ".join(f"`{c}`" for c in spec.columns)
        out.append(f"| `{spec.name}` | {spec.doc} | {cols} |")
    out += [
        "",
        "## Columns",
        "",
        "| column | header (terminal) | definition | numerator | denominator | PokerTracker 4 |",
        "|---|---|---|---|---|---|",
    ]
    for key, c in COLUMNS.items():
        short = f" ({c.abbr})" if c.abbr and c.abbr != c.text else ""
        cells = [f"`{key}`", f"{c.text}{short}", c.doc, c.num, c.den, c.pt4]
        out.append("| " + " | ".join(cell.replace("|", "/") for cell in cells) + " |")
    out.append("")
    return "\n".join(out)


def write_docs(path: Path | str = Path("docs/stats.md")) -> None:
    """Regenerate ``docs/stats.md``."""
    Path(path).write_text(render_docs(), encoding="utf-8")


if __name__ == "__main__":
    write_docs()
