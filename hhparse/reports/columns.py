"""What each report column is called on a page and what it means (the header's hover text).

The definitions repeat, in a player's words, the ones ``analytics/stats.sql`` and the report SQL
files implement (PokerTracker 4's where one exists); ``tests/test_html_reports.py`` checks that
every column of every report has one, so a new column cannot reach a page unexplained.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["COLUMNS", "Label", "label"]


class Label(NamedTuple):
    """A column's header text and its definition (empty when the header says it all)."""

    text: str
    doc: str = ""


_PCT = "% of "

COLUMNS: dict[str, Label] = {
    # who and where
    "player": Label("Player", "Screen name as printed in the history."),
    "unit": Label("Unit", "Currency of a cash game, `chips` for tournaments, `play` for play money. "
                  "Amounts of different units are never added together."),
    "position": Label("Position", "BTN, SB, BB, UTG, UTG+1, MP, HJ, CO, counted over the players dealt in."),
    "hands": Label("Hands", "Hands the player was dealt into."),
    "net": Label("Net won", "Collected + uncalled bets returned − everything put in (after rake)."),
    "bb_per_100": Label("bb/100", "Net won in big blinds per 100 hands (each hand in its own big blind; "
                        "fixed limit: the big bet)."),
    "ev_net": Label("All-in EV net", "Net won had every all-in before the river paid its equity (allin_ev summed; "
                    "docs/stats.md)."),
    "ev_bb_per_100": Label("EV bb/100", "bb/100 with the all-in EV in place of the net."),
    "allin_ev": Label("All-in EV", "The player's expected result at the all-in: equity of every pot, half and run, "
                      "minus what they put in."),
    "luck": Label("Luck", "Net won − all-in EV: what the cards dealt after the betting ended gave or took."),
    "ev_std_err": Label("EV std. error", "Standard error of a Monte Carlo all-in EV (0 when exact)."),
    "rank": Label("Rank", "1 = the largest swing of its unit (absolute luck)."),
    "method": Label("Method", "exact (every board enumerated) or mc (seeded Monte Carlo)."),
    "street": Label("All-in street", "The street the betting ended on with a player all-in."),
    # pre-flop
    "vpip": Label("VPIP %", "Voluntarily put money in pre-flop (call, bet, raise; blinds alone do not count), "
                  + _PCT + "hands dealt in, walks excluded."),
    "pfr": Label("PFR %", "Raised pre-flop (any raise), " + _PCT + "hands dealt in, walks excluded."),
    "three_bet": Label("3-bet %", "Re-raised a single pre-flop raise, " + _PCT + "times facing one with a raise allowed."),
    "fold_to_three_bet": Label("Fold to 3-bet %", "Folded after opening and facing a 3-bet, " + _PCT + "times it happened."),
    "steal": Label("Steal %", "Raised first in from CO, BTN or SB, " + _PCT + "times folded to there."),
    "fold_to_steal": Label("Fold to steal %", "Folded a blind to a steal, " + _PCT + "times facing one in the blinds."),
    # post-flop
    "af": Label("AF", "Aggression factor: (bets + raises) / calls, flop to river."),
    "afq": Label("AFq %", "Aggression frequency: (bets + raises) / (bets + raises + calls + folds), flop to river."),
    "cbet_flop": Label("C-bet flop %", "Bet the flop as the last pre-flop raiser, " + _PCT + "times first to act with no bet."),
    "fold_to_cbet_flop": Label("Fold to flop c-bet %", "Folded to a flop continuation bet, " + _PCT + "times facing one."),
    "wtsd": Label("WTSD %", "Went to showdown, " + _PCT + "hands that saw the flop."),
    "wsd": Label("W$SD %", "Won money at showdown, " + _PCT + "showdowns."),
    "wwsf": Label("WWSF %", "Won money, " + _PCT + "hands that saw the flop."),
    "showdown_net": Label("Showdown net", "Net won in hands that went to showdown (PT4's blue line)."),
    "nonshowdown_net": Label("Non-showdown net", "Net won in hands that ended before showdown (PT4's red line)."),
    # hi/lo
    "showdowns": Label("Showdowns", "Hands the player went to showdown."),
    "won_at_showdown": Label("Won at SD", "Showdowns where the player won any part of any pot."),
    "scoops": Label("Scoops", "Won every chip of every pot contested at showdown."),
    "scoop_pct": Label("Scoop %", "Scoops, " + _PCT + "showdowns won."),
    "high_only": Label("High only", "Won a high half or whole pot but no low half, without scooping."),
    "high_only_pct": Label("High only %", "High-only wins, " + _PCT + "showdowns won."),
    "low_only": Label("Low only", "Won a low half but no high half."),
    "low_only_pct": Label("Low only %", "Low-only wins, " + _PCT + "showdowns won."),
    "quartered": Label("Quartered", "Shared a low half with another player."),
    "quartered_pct": Label("Quartered %", "Quartered, " + _PCT + "showdowns won."),
    "low_made_pct": Label("Low made %", "Shown hands holding a qualifying 8-or-better low, " + _PCT + "hands shown."),
    "avg_pot_share": Label("Avg pot share %", "Average share of the pot (after rake) collected, in hands where "
                           "the player collected anything."),
    "won_high": Label("Won high", "Collected from high halves and whole pots."),
    "won_low": Label("Won low", "Collected from low halves."),
    # door card
    "breakdown": Label("Breakdown", "rank: the door card's rank; low: A-8 or not; pairs / suits: whether one of "
                       "the player's hole cards has its rank / suit (unknown when the cards are not known)."),
    "value": Label("Value", "The door card's rank, low/high, or yes/no/unknown (see Breakdown)."),
    # sessions
    "session": Label("Session", "Sessions are consecutive hands with gaps of at most 30 minutes."),
    "start": Label("Start (UTC)", "Start of the first hand."),
    "duration_min": Label("Minutes", "First to last hand start."),
    # graph
    "hand_no": Label("Hand no.", "Hand number within the unit (thinned to about 2,000 points)."),
    "hand_id": Label("Hand", "Hand number as printed by the site."),
    "start_utc": Label("Start (UTC)", "Hand start time in UTC."),
    "cum_net": Label("Cumulative net"),
    "cum_showdown": Label("Cumulative showdown"),
    "cum_nonshowdown": Label("Cumulative non-showdown"),
    "cum_allin_ev": Label("Cumulative all-in EV"),
    # rejects
    "code": Label("Code", "Stable error code (docs/referee-codes.md)."),
    "code_count": Label("Hands with code", "Rejected hands with this code."),
    "source": Label("File"),
    "error_line": Label("Error line", "File line of the first error."),
    "hand_line": Label("Hand line", "First line of the hand in the file."),
    "status": Label("Status", "invalid (referee), unparsed (syntax) or unsupported (another game)."),
    "message": Label("Message"),
    # hands
    "game": Label("Game"),
    "stakes": Label("Stakes", "Small / big blind (fixed limit: small / big bet) and unit."),
    "table_name": Label("Table"),
    "tournament_id": Label("Tournament"),
    "players": Label("Players", "Players dealt in."),
    "hole_cards": Label("Cards", "The player's hole cards when known (hero, or shown)."),
    "door_card": Label("Door", "Courchevel: the board card exposed before the pre-flop betting."),
    "board": Label("Board", "Final board (the first board when run twice)."),
    "board_run2": Label("Board 2", "Second board when the hand was run twice."),
    "total_pot": Label("Pot", "Total pot before rake."),
    "rake": Label("Rake"),
    "showdown": Label("SD", "Went to showdown (without --player: the hand had a showdown)."),
    "all_in": Label("All-in", "Was all-in at some point (without --player: anyone was)."),
    "scooped": Label("Scoop", "Scooped (without --player: anyone did)."),
    "site": Label("Site"),
}
"""Header text and definition per column name, for every report's columns."""


def label(column: str) -> Label:
    """The column's label; an unknown column gets its name in words and no definition."""
    return COLUMNS.get(column) or Label(column.replace("_", " ").capitalize())
