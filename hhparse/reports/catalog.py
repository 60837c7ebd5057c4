"""Every report: its CLI name, its SQL file, what it shows and the columns it returns.

A module of its own, with nothing heavy imported, so that ``hhparse report --help`` and ``hhparse
report --list`` answer without loading DuckDB or pandas. The column lists are checked against what
each report's SQL really returns (``tests/test_stats_reference.py``), and every column is
explained in :mod:`hhparse.reports.columns`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["BY", "REPORTS", "ReportSpec"]

BY: tuple[str, ...] = ("stakes", "game", "structure", "month", "position", "table-size")
"""What ``summary --by`` splits rows by (each names the column it adds, ``table-size`` → ``table_size``)."""

_STATS = (
    "hands",
    "net",
    "bb_per_100",
    "ev_net",
    "ev_bb_per_100",
    "vpip",
    "pfr",
    "three_bet",
    "fold_to_three_bet",
    "steal",
    "fold_to_steal",
    "af",
    "afq",
    "cbet_flop",
    "fold_to_cbet_flop",
    "wtsd",
    "wsd",
    "wwsf",
    "showdown_net",
    "nonshowdown_net",
)


@dataclass(frozen=True, slots=True)
class ReportSpec:
    """A report: its CLI name, its SQL file under ``analytics/reports/``, a one-line purpose, the
    columns it returns, whether its HTML page also shows the net-won graph, whether it takes
    ``--by``, and whose rows it shows without ``--player`` (``all`` players or the ``hero``)."""

    name: str
    file: str
    doc: str
    columns: tuple[str, ...]
    graph: bool = False
    by: bool = False
    who: str = "all"
    brief: str = ""  # at most 60 characters: the line of ``hhparse report --help``
    first: tuple[str, ...] = ()  # the columns a narrow terminal keeps first, in this order

    def priority(self, column: str) -> int | None:
        """The column's place among those a narrow terminal keeps first (None: by its rank)."""
        return self.first.index(column) if column in self.first else None


REPORTS: Mapping[str, ReportSpec] = {
    s.name: s
    for s in (
        ReportSpec(
            "summary",
            "summary.sql",
            "Per player and unit (and --by stakes, game, structure, month, position or table size): hands, net "
            "won, bb/100, all-in EV and PokerTracker's stats.",
            ("player", "unit", *(b.replace("-", "_") for b in BY), *_STATS),
            graph=True,
            by=True,
            brief="PokerTracker stats, net, bb/100 (--by stakes, month...)",
        ),
        ReportSpec(
            "hilo",
            "hilo.sql",
            "Hi/lo games, per player and unit: scoops, high-only and low-only wins, quarters, lows made.",
            (
                "player",
                "unit",
                "hands",
                "showdowns",
                "won_at_showdown",
                "scoops",
                "scoop_pct",
                "high_only",
                "high_only_pct",
                "low_only",
                "low_only_pct",
                "quartered",
                "quartered_pct",
                "low_made_pct",
                "avg_pot_share",
                "won_high",
                "won_low",
            ),
            brief="hi/lo: scoops, high/low-only wins, quarters, lows made",
        ),
        ReportSpec(
            "positions",
            "positions.sql",
            "The summary's stats per table position.",
            ("player", "unit", "position", *_STATS),
            brief="the summary per table position",
        ),
        ReportSpec(
            "door-card",
            "door_card.sql",
            "Courchevel: VPIP, PFR and win rate by the door card (its rank, low or high, and whether it pairs or "
            "suits the player's cards).",
            ("player", "unit", "breakdown", "value", "hands", "vpip", "pfr", "net", "bb_per_100"),
            brief="Courchevel: VPIP, PFR, win rate by the door card",
        ),
        ReportSpec(
            "sessions",
            "sessions.sql",
            "Sessions (hands less than 30 minutes apart) of --player or the hero: start, length, hands, net.",
            ("player", "unit", "session", "start", "duration_min", "hands", "net", "bb_per_100"),
            who="hero",
            brief="sessions: start, length, hands, net",
        ),
        ReportSpec(
            "tournaments",
            "tournaments.sql",
            "One row per tournament of --player or the hero: buy-in, fee, place, prize, bounties, net, ROI, ITM "
            "(from the hands and the tournament summary files), then totals per game and buy-in and per unit.",
            (
                "player",
                "tournament_id",
                "start_utc",
                "game",
                "buyin_label",
                "unit",
                "entries",
                "place",
                "buy_in",
                "fee",
                "prize",
                "bounties",
                "won",
                "net",
                "roi",
                "tournaments",
                "cashes",
                "itm",
                "hands",
                "result_from",
            ),
            who="hero",
            brief="each tournament: buy-in, place, prize, bounties, ROI",
            first=(
                "player",
                "tournament_id",
                "place",
                "prize",
                "bounties",
                "net",
                "roi",
                "buyin_label",
                "unit",
                "start_utc",
                "buy_in",
                "fee",
                "won",
                "itm",
                "tournaments",
                "cashes",
                "entries",
                "game",
                "hands",
            ),
        ),
        ReportSpec(
            "graph",
            "graph.sql",
            "Cumulative net won of --player or the hero: showdown, non-showdown and all-in EV lines.",
            (
                "unit",
                "hand_no",
                "hand_id",
                "start_utc",
                "cum_net",
                "cum_showdown",
                "cum_nonshowdown",
                "cum_allin_ev",
            ),
            graph=True,
            who="hero",
            brief="cumulative net won, showdown and all-in EV lines",
        ),
        ReportSpec(
            "luck",
            "luck.sql",
            "Biggest all-in EV vs result swings of --player or the hero, each with its hand id.",
            (
                "rank",
                "player",
                "unit",
                "hand_id",
                "start_utc",
                "stakes",
                "street",
                "method",
                "hole_cards",
                "net",
                "allin_ev",
                "luck",
                "ev_std_err",
            ),
            who="hero",
            brief="biggest all-in EV vs result swings, with hand ids",
            first=("rank", "player", "unit", "hand_id", "luck", "net", "allin_ev", "street", "hole_cards"),
        ),
        ReportSpec(
            "hand",
            "hand.sql",
            "The replay of one hand: actions, pot, stacks, boards, awards.",
            ("text", "player", "action", "amount", "pot_after", "stack_after"),
            brief="one hand's replay (HAND_ID)",
        ),
        ReportSpec(
            "hands",
            "hands.sql",
            "The hand list with the player's cards and result (filters: pot, showdown, all-in, scoop, quarter, door "
            "card); HTML links each hand to its replay.",
            (
                "start_utc",
                "hand_id",
                "game",
                "stakes",
                "table_name",
                "tournament_id",
                "players",
                "player",
                "position",
                "hole_cards",
                "door_card",
                "board",
                "board_run2",
                "total_pot",
                "rake",
                "net",
                "showdown",
                "all_in",
                "scooped",
                "quartered",
                "unit",
                "site",
            ),
            who="hero",
            brief="the hand list, filtered (pot, showdown, door card...)",
            first=(
                "hand_id",
                "start_utc",
                "player",
                "hole_cards",
                "board",
                "net",
                "unit",
                "stakes",
                "total_pot",
                "position",
                "door_card",
                "showdown",
                "all_in",
            ),
        ),
        ReportSpec(
            "rejects",
            "rejects.sql",
            "Hands that failed, grouped by error code, with file and line.",
            ("code", "code_count", "source", "error_line", "hand_line", "hand_id", "status", "message"),
            brief="hands that failed, by error code, with file and line",
            first=("code", "code_count", "source", "error_line", "hand_id", "message", "status"),
        ),
    )
}
"""Every report, by the name ``hhparse report NAME`` takes."""
