"""The single declaration of every warehouse table.

Each table and column is declared exactly once, here: name, Arrow type, nullability and a one-line
meaning. Everything else is *derived* from this declaration so it cannot drift:

* :func:`arrow_schema` — the pyarrow schema the builder produces and the writer enforces;
* :func:`create_views` — one DuckDB view per table over its published Parquet files (plus exact
  DECIMAL companions of money columns: money is stored as ``int64`` minor units, decimals exist
  only here);
* :func:`render_docs` — ``docs/schema.md`` (a test checks the committed file is up to date).

Per-hand attributes that reports filter or scale by (``unit``, ``unit_scale``, start time, game,
stakes...) are *copied* onto the per-hand child tables (``hand_players``, ``actions``...) so the
common report path never joins ``hands``: on 1 M hands that join dominated every report. A copy is
not a second declaration: :func:`_copies` reuses the ``hands`` column (type, nullability, meaning)
and marks it ``from_hands``; the builder fills it from the hand's row, never from another source.

Bump :data:`SCHEMA_VERSION` whenever a column is added, removed or changes type; it is stamped into
every Parquet file's metadata so a reader can tell which declaration wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from hhparse.failures import WarehouseVersionError as WarehouseVersionError  # re-exported

SCHEMA_VERSION = "6"
"""Version of this declaration, stamped as ``schema_version`` in every Parquet file."""

MANIFEST_NAME = "manifest.json"
"""File (in the warehouse folder) listing the published Parquet files; readers trust nothing else."""

_STR = pa.string()
_I64 = pa.int64()
_I32 = pa.int32()
_I16 = pa.int16()
_I8 = pa.int8()
_BOOL = pa.bool_()
_CARDS = pa.list_(pa.string())
_NAMES = pa.list_(pa.string())
_TS_UTC = pa.timestamp("us", tz="UTC")


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its Arrow type, whether it may be null, and what it means (one line).

    ``money`` marks amounts in the hand's smallest unit; the DuckDB view adds a ``<name>_dec``
    exact DECIMAL(18,2) companion scaled by the row's ``unit_scale`` (cents → currency, chips stay
    chips). ``from_hands`` marks a per-hand child table's copy of the same-named ``hands`` column.
    """

    name: str
    type: pa.DataType
    nullable: bool
    doc: str
    money: bool = False
    from_hands: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One warehouse table: its columns in storage order, its key and what one row is."""

    name: str
    doc: str
    key: tuple[str, ...]
    columns: tuple[Column, ...]

    @property
    def column_names(self) -> tuple[str, ...]:
        """Column names in storage order."""
        return tuple(c.name for c in self.columns)

    @property
    def has_money(self) -> bool:
        """Whether the view adds ``_dec`` companions (then the table has a ``unit_scale`` column)."""
        return any(c.money for c in self.columns)

    @property
    def hand_copies(self) -> tuple[str, ...]:
        """Names of the columns copied from the hand's ``hands`` row, in storage order."""
        return tuple(c.name for c in self.columns if c.from_hands)


def _c(name: str, type_: pa.DataType, doc: str, *, null: bool = False, money: bool = False) -> Column:
    return Column(name, type_, null, doc, money)


def _hand_key() -> tuple[Column, ...]:
    return (
        _c("site", _STR, "Poker site as printed in the header (e.g. `PokerStars`)."),
        _c("hand_id", _STR, "Hand number as printed (text: ids may be zero-padded)."),
    )


HANDS = Table(
    "hands",
    "One row per accepted hand (parsed and passed the referee).",
    ("site", "hand_id"),
    (
        *_hand_key(),
        _c("hand_kind", _STR, "Words between site and `#`: `Hand`, `Zoom Hand`, `Home Game Hand`..."),
        _c(
            "game",
            _STR,
            "Game family without its low half (`courchevel`, `omaha`, `5-card-omaha`, ...; the table of games, `hhparse/rules/variants.py`).",
        ),
        _c("hilo", _BOOL, "True for Hi/Lo (8 or better) split games."),
        _c("structure", _STR, "Betting structure: `PL`, `NL` or `FL`."),
        _c("game_label", _STR, "Game words exactly as printed, e.g. `Courchevel Hi/Lo Pot Limit`."),
        _c("mixed", _STR, "Mixed-game wrapper (`8-Game`, `Mixed Omaha`), null when not mixed.", null=True),
        _c("unit", _STR, "Unit of every money column of this hand: currency code, `chips` or `play`."),
        _c("unit_scale", _I16, "Minor units per `unit`: 100 for a currency (amounts in cents), 1 for chips."),
        _c(
            "currency", _STR, "Cash currency code (`USD`...), null for tournaments and play money.", null=True
        ),
        _c("play_money", _BOOL, "True for play-money tables."),
        _c("small_blind", _I64, "Header stakes, first amount (small blind; FL: small bet).", money=True),
        _c("big_blind", _I64, "Header stakes, second amount (big blind; FL: big bet).", money=True),
        _c("cap", _I64, "Cap of a capped cash table, null otherwise.", null=True, money=True),
        _c("ante", _I64, "Largest ante posted in the hand, null when no ante.", null=True, money=True),
        _c("tournament_id", _STR, "Tournament number, null for cash games.", null=True),
        _c(
            "buyin_label",
            _STR,
            "Tournament buy-in exactly as printed, e.g. `$3.41+$3.41+$0.68 USD`.",
            null=True,
        ),
        _c("buyin_total", _I64, "Sum of the buy-in parts in minor units of `buyin_currency`.", null=True),
        _c(
            "buyin_fee",
            _I64,
            "The buy-in's last part when it has two or three (the fee: PokerStars' rake), in minor units "
            "of `buyin_currency` (whole units when it is null, as for `100+9` play chips); 0 for one part.",
            null=True,
        ),
        _c(
            "buyin_bounty",
            _I64,
            "The buy-in's middle part when it has three (the knockout bounty), same units as `buyin_fee`.",
            null=True,
        ),
        _c(
            "buyin_currency",
            _STR,
            "Currency of the buy-in, null for freerolls / FPP / play chips.",
            null=True,
        ),
        _c("knockout", _BOOL, "Tournament with a bounty part in the buy-in.", null=True),
        _c("level", _STR, "Tournament level as printed (roman numeral).", null=True),
        _c("zoom", _BOOL, "Zoom table or Zoom tournament."),
        _c("table_name", _STR, "Table name as printed."),
        _c("max_seats", _I16, "Table size (`6-max`), null when not printed.", null=True),
        _c("button_seat", _I16, "Seat number of the button."),
        _c("start_utc", _TS_UTC, "Hand start time in UTC."),
        _c("local_time", pa.timestamp("us"), "Hand start time as printed (naive, in `time_zone`)."),
        _c("time_zone", _STR, "Time zone printed after the local time (`ET`, `CET`, `UTC`...)."),
        _c("n_players", _I16, "Number of players dealt in."),
        _c("total_pot", _I64, "Total pot (before rake) per the referee.", money=True),
        _c("rake", _I64, "Rake taken.", money=True),
        _c("runs", _I8, "Number of boards: 1, or 2 when run twice."),
        _c("exposed_card", _STR, "Courchevel card exposed before the flop, null for other games.", null=True),
        _c("board", _CARDS, "Final board of the single run (run 1 when run twice)."),
        _c("board_run2", _CARDS, "Final board of the second run, null unless run twice.", null=True),
        _c("cancelled", _BOOL, "The hand was cancelled."),
        _c("warning_codes", _NAMES, "Codes of the parser and referee warnings (not errors) for this hand."),
        _c("source", _STR, "File the hand was read from."),
        _c("line", _I64, "First line of the hand in `source` (1-based)."),
        _c("content_hash", _STR, "Hash of the normalised hand text (line endings, trailing spaces)."),
    ),
)

_HANDS_COLUMNS = {c.name: c for c in HANDS.columns}


def _copies(*names: str) -> tuple[Column, ...]:
    """The ``hands`` columns ``names`` as copies for a per-hand child table (declared once, above)."""
    return tuple(replace(_HANDS_COLUMNS[n], from_hands=True) for n in names)


_UNIT_COPIES = ("unit", "unit_scale")
"""What every per-hand table with money carries so its ``_dec`` companions need no join."""


def minor_units(unit: str) -> int:
    """``unit_scale`` of a hand whose ``unit`` is ``unit``: chips and play money 1, a currency 100."""
    return 1 if unit in ("chips", "play") else 100


HAND_PLAYERS = Table(
    "hand_players",
    "One row per seated player per accepted hand.",
    ("site", "hand_id", "seat"),
    (
        *_hand_key(),
        _c("seat", _I16, "Seat number."),
        _c("player", _STR, "Player name as printed."),
        _c("is_hero", _BOOL, "The player whose hole cards were dealt to (`Dealt to`)."),
        _c("position", _STR, "BTN, SB, BB, UTG, UTG+1, MP, HJ, CO; empty when not dealt in."),
        _c("dealt_in", _BOOL, "False for players sitting out."),
        _c("starting_stack", _I64, "Stack at the start of the hand.", money=True),
        _c(
            "hole_cards",
            _CARDS,
            "Hole cards when known (hero, shown, or mucked and revealed in the summary), else null.",
            null=True,
        ),
        _c("contributed_preflop", _I64, "Put in the pot pre-flop, blinds and antes included.", money=True),
        _c("contributed_flop", _I64, "Put in the pot on the flop.", money=True),
        _c("contributed_turn", _I64, "Put in the pot on the turn.", money=True),
        _c("contributed_river", _I64, "Put in the pot on the river.", money=True),
        _c("returned", _I64, "Uncalled bet returned.", money=True),
        _c("collected", _I64, "Collected from all pots, halves and runs.", money=True),
        _c("net", _I64, "collected + returned + cash_out - contributed.", money=True),
        _c("vpip", _BOOL, "Voluntarily put money in pre-flop."),
        _c("pfr", _BOOL, "Raised pre-flop."),
        _c("three_bet_opportunity", _BOOL, "Faced a single raise pre-flop with the option to re-raise."),
        _c("three_bet", _BOOL, "Re-raised a single pre-flop raise."),
        _c("fold_to_three_bet_opportunity", _BOOL, "Raised pre-flop and faced a 3-bet."),
        _c("fold_to_three_bet", _BOOL, "Folded to a 3-bet."),
        _c("steal_opportunity", _BOOL, "Folded to in CO/BTN/SB pre-flop."),
        _c("steal", _BOOL, "Opened with a raise from a steal position."),
        _c("fold_to_steal_opportunity", _BOOL, "In the blinds facing a steal."),
        _c("fold_to_steal", _BOOL, "Folded the blind to a steal."),
        _c("cbet_opportunity", _BOOL, "Pre-flop aggressor first to bet on the flop."),
        _c("cbet", _BOOL, "Made a continuation bet on the flop."),
        _c("fold_to_cbet_opportunity", _BOOL, "Faced a flop continuation bet."),
        _c("fold_to_cbet", _BOOL, "Folded to a flop continuation bet."),
        _c("postflop_bets", _I16, "Bets on flop, turn and river."),
        _c("postflop_raises", _I16, "Raises on flop, turn and river."),
        _c("postflop_calls", _I16, "Calls on flop, turn and river."),
        _c("postflop_checks", _I16, "Checks on flop, turn and river."),
        _c("postflop_folds", _I16, "Folds on flop, turn and river."),
        _c("saw_flop", _BOOL, "Still in the hand when the flop was dealt."),
        _c("went_to_showdown", _BOOL, "Reached showdown."),
        _c("won_at_showdown", _BOOL, "Collected something at showdown."),
        _c("won_high", _BOOL, "Won (part of) a high half or a whole pot."),
        _c("won_low", _BOOL, "Won (part of) a low half."),
        _c("scooped", _BOOL, "Won every chip of every pot contested at showdown (hi/lo game)."),
        _c("quartered", _BOOL, "Shared a low half with another player."),
        _c(
            "all_in_street", _I8, "Street (0 pre-flop .. 3 river) on which the player went all-in.", null=True
        ),
        _c("showdown_won", _I64, "Collected in a hand that reached showdown.", money=True),
        _c("nonshowdown_won", _I64, "Collected without a showdown.", money=True),
        _c(
            "high_won",
            _I64,
            "Won from high halves and whole pots (collected; kept by the room when the player cashed out).",
            money=True,
        ),
        _c(
            "low_won",
            _I64,
            "Won from low halves (collected; kept by the room when the player cashed out).",
            money=True,
        ),
        _c(
            "cash_out",
            _I64,
            "All-in cash out: what the room paid the player for their share of the pots "
            "(not from the pots: the room kept what the hand then won); 0 without one.",
            money=True,
        ),
        _c(
            "cash_out_fee",
            _I64,
            "The room's fee for that cash out (its value is `cash_out` + fee); 0 without one.",
            money=True,
        ),
        _c(
            "allin_ev",
            _I64,
            "All-in adjusted net: E[collected] + returned - contributed at the point the betting ended "
            "before the river with a player all-in (`ev_shares`); `net` when the hand has no all-in EV. "
            "Rounded to whole units so that the players' values add up to minus the rake.",
            money=True,
        ),
        _c(
            "ev_street",
            _I8,
            "Street the betting ended on when the all-in EV was taken (0 pre-flop, 1 flop, 2 turn); "
            "null when the hand has no all-in EV.",
            null=True,
        ),
        _c(
            "ev_method",
            _STR,
            "`exact` (every possible board counted: listed, or grouped by rank class before the flop) or `mc` (seeded Monte Carlo, only when a contender's cards stayed unknown); `failed` if the computation "
            "raised (then `allin_ev` = `net`); null when the hand has no all-in EV.",
            null=True,
        ),
        _c(
            "ev_std_err",
            _I64,
            "Standard error of `allin_ev`, rounded up (0 when exact); null when the hand has no all-in EV.",
            null=True,
            money=True,
        ),
        *_copies(
            "unit",
            "unit_scale",
            "start_utc",
            "game",
            "hilo",
            "structure",
            "game_label",
            "small_blind",
            "big_blind",
            "total_pot",
            "rake",
            "exposed_card",
            "tournament_id",
            "buyin_label",
            "max_seats",
        ),
    ),
)

ACTIONS = Table(
    "actions",
    "One row per forced bet, voluntary action or uncalled return, in order.",
    ("site", "hand_id", "seq"),
    (
        *_hand_key(),
        _c("seq", _I32, "Order of the action in the hand (0-based)."),
        _c("street", _I8, "0 pre-flop, 1 flop, 2 turn, 3 river."),
        _c("player", _STR, "Acting player."),
        _c("seat", _I16, "Acting player's seat."),
        _c("action", _STR, "small blind, big blind, ante, fold, check, call, bet, raise, uncalled."),
        _c("amount", _I64, "Moved from the stack into the pot (returned, for `uncalled`).", money=True),
        _c("to_amount", _I64, "Player's total for the street after the action.", money=True),
        _c("all_in", _BOOL, "The action put the player all-in."),
        _c("pot_before", _I64, "Pot before the action.", money=True),
        _c("stack_before", _I64, "Player's stack before the action.", money=True),
        _c("faced", _I64, "Amount the player had to call before acting.", money=True),
        _c("line", _I64, "File line of the action."),
        *_copies(*_UNIT_COPIES),
    ),
)

POTS = Table(
    "pots",
    "One row per pot (main and side pots) of an accepted hand.",
    ("site", "hand_id", "pot"),
    (
        *_hand_key(),
        _c("pot", _I16, "0 main pot, 1.. side pots."),
        _c("amount", _I64, "Pot amount before rake.", money=True),
        _c("eligible", _NAMES, "Players eligible to win the pot."),
        _c(
            "rake",
            _I64,
            "This pot's share of the hand's rake: the pot awarded is `amount - rake`.",
            money=True,
        ),
        *_copies(*_UNIT_COPIES),
    ),
)

AWARDS = Table(
    "awards",
    "One row per pot, per run, per half: who won what of it.",
    ("site", "hand_id", "pot", "run", "half"),
    (
        *_hand_key(),
        _c("pot", _I16, "0 main pot, 1.. side pots."),
        _c("run", _I8, "0 single board, 1/2 boards of a run-it-twice hand."),
        _c("half", _STR, "`whole` (no low / high-only game), `high` or `low`."),
        _c("amount", _I64, "Amount of this half of this pot of this run.", money=True),
        _c("eligible", _NAMES, "Players eligible for this half."),
        _c("winners", _NAMES, "Winners, parallel to `amounts` and `descriptions`."),
        _c("amounts", pa.list_(_I64), "Amount won by each winner (minor units)."),
        _c("descriptions", _NAMES, "Winning hand per winner as the evaluator describes it."),
        *_copies(*_UNIT_COPIES),
    ),
)

SHOWDOWNS = Table(
    "showdowns",
    "One row per hand at showdown per run (shown, or mucked and revealed in the summary), with the "
    "evaluated high and low.",
    ("site", "hand_id", "player", "run"),
    (
        *_hand_key(),
        _c("player", _STR, "Player who showed (or mucked)."),
        _c("run", _I8, "0 single board, 1/2 boards of a run-it-twice hand."),
        _c("cards", _CARDS, "Cards shown (or revealed)."),
        _c("high", _STR, "Evaluated high hand, e.g. `a full house, Sevens full of Fives`."),
        _c("high_rank", _I64, "High hand strength (larger is better)."),
        _c("low", _STR, "Qualifying low, e.g. `7,5,4,3,A`; null when none.", null=True),
        _c("low_rank", _I64, "Low strength (smaller is better); null when none.", null=True),
        _c("mucked", _BOOL, "Mucked at showdown, cards revealed in the summary (could not win)."),
        *_copies(*_UNIT_COPIES),
    ),
)

EV_SHARES = Table(
    "ev_shares",
    "One row per player per pot, run and half of a hand with an all-in EV: the expected share at the point "
    "the betting ended, and what the player actually won of it. Exact equity = `share_sum` / (`boards` x "
    "`amount`).",
    ("site", "hand_id", "pot", "run", "half", "player"),
    (
        *_hand_key(),
        _c("pot", _I16, "0 main pot, 1.. side pots."),
        _c("run", _I8, "0 single board, 1/2 boards of a run-it-twice hand."),
        _c(
            "half",
            _STR,
            "`whole` (high-only game, or a pot one player alone could win), `high` (the high half, and the "
            "whole pot on boards where no low qualifies) or `low`.",
        ),
        _c("player", _STR, "Player eligible for the pot."),
        _c("seat", _I16, "The player's seat."),
        _c("amount", _I64, "The pot's amount in this run, after rake, as the hand took it.", money=True),
        _c(
            "ev",
            _I64,
            "Expected amount won from this half, rounded so that a pot-run's rows add up to `amount`.",
            money=True,
        ),
        _c("share_sum", _I64, "Amount won from this half summed over every board counted or sampled."),
        _c("boards", _I64, "Boards enumerated (exact) or sampled (mc)."),
        _c("std_err", _I64, "Standard error of `ev`, rounded up (0 when exact).", money=True),
        _c("won", _I64, "Amount actually won from this half.", money=True),
        _c("street", _I8, "Street the betting ended on (0 pre-flop, 1 flop, 2 turn)."),
        _c(
            "method",
            _STR,
            "`exact` (every possible board counted: listed, or grouped by rank class before the flop) or `mc` (seeded Monte Carlo, only when a contender's cards stayed unknown).",
        ),
        *_copies(*_UNIT_COPIES),
    ),
)

_ERROR_STRUCT = pa.struct(
    [
        pa.field("code", _STR, nullable=False),
        pa.field("message", _STR, nullable=False),
        pa.field("line", _I64, nullable=False),
    ]
)

REJECTS = Table(
    "rejects",
    "Every hand (or whole file) that did not parse or failed the referee, kept whole, one row per place "
    "it was read at. The view leaves out rejects superseded by a later import (docs/input.md).",
    ("source", "line"),
    (
        _c("site", _STR, "Site from the header when readable.", null=True),
        _c("hand_id", _STR, "Hand number when readable.", null=True),
        _c("source", _STR, "File the text was read from."),
        _c("line", _I64, "First line of the hand in `source` (1-based; 0 for a whole-file error)."),
        _c(
            "status",
            _STR,
            "`invalid` (referee), `unparsed` (syntax), `unsupported` (other game) or `conflict` (the "
            "hand number is stored with another text; the stored hand is kept, this text is kept here).",
        ),
        _c("code", _STR, "Stable code of the first error."),
        _c("message", _STR, "Message of the first error."),
        _c("error_line", _I64, "File line of the first error."),
        _c("game", _STR, "Game words of the header when readable.", null=True),
        _c("errors", pa.list_(_ERROR_STRUCT), "All errors of the hand (code, message, line)."),
        _c(
            "raw_text",
            _STR,
            "The whole hand text as read (an excerpt of at most about 64 KiB for `line-too-long` and `hand-too-large`).",
        ),
        _c("content_hash", _STR, "Hash of the normalised hand text."),
    ),
)

IMPORTS = Table(
    "imports",
    "One row per file import (a file skipped as unchanged adds no row). Not per hand: no `hand_id`.",
    ("import_id", "path"),
    (
        _c("import_id", _STR, "Id of the `hhparse import` run."),
        _c("path", _STR, "File path as imported (absolute)."),
        _c(
            "status",
            _STR,
            "`ok`, `empty`, `binary`, `unreadable` (a file or folder), `skipped` (not a regular file: a "
            "FIFO or device, never opened) or `error` (a read failed part-way).",
        ),
        _c("error", _STR, "Why the file could not be read, null when it was.", null=True),
        _c("size", _I64, "Bytes of the file covered by this import."),
        _c("mtime", _TS_UTC, "File modification time.", null=True),
        _c("content_hash", _STR, "Hash of the file bytes covered by this import.", null=True),
        _c("resumed_from", _I64, "Bytes already imported before (0 for a first import)."),
        _c("hands_read", _I64, "Hands read by this import."),
        _c("hands_new", _I64, "Hands stored in `hands`."),
        _c("hands_duplicate", _I64, "Hands already stored with identical text (skipped)."),
        _c(
            "hands_conflicting",
            _I64,
            "Hands already stored with a different text (the original is kept; this text is in `rejects`, code `conflict`).",
        ),
        _c("hands_rejected", _I64, "Hands stored in `rejects`."),
        _c("conflicts", _NAMES, "Hand ids of the conflicting hands."),
        _c("started_at", _TS_UTC, "When the import of this file started."),
        _c("finished_at", _TS_UTC, "When the import of this file was committed."),
    ),
)

TOURNAMENT_EVENTS = Table(
    "tournament_events",
    "One row per tournament line of an accepted hand that says what a player won, lost or paid: a finish "
    "(`NAME finished the tournament in 3rd place and received $1.94.`), the win (`NAME wins the tournament "
    "and receives $230.36`), a knockout bounty (`NAME wins the $0.27 bounty for eliminating X`, progressive "
    "`NAME wins $4.60 for ...`), the winner's own bounty in a knockout tournament, a rebuy or an add-on. "
    "Amounts are hundredths of `unit` (the buy-in's currency, or `play`), never chips.",
    ("site", "hand_id", "line", "player", "kind"),
    (
        *_hand_key(),
        _c(
            "line",
            _I64,
            "File line of the tournament line (for `own-bounty`: of the `wins the tournament` line).",
        ),
        _c("player", _STR, "The player the line is about (each winner of a split knockout has a row)."),
        _c("tournament_id", _STR, "Tournament number (the hand's)."),
        _c(
            "kind",
            _STR,
            "`finished` (a place, maybe a prize), `won` (1st place and its prize), `bounty` (a knockout bounty "
            "won), `own-bounty` (the bounty on the winner's own head, which the winner of a knockout "
            "tournament collects: the `to $X` of their last knockout in the hand, else their seat's bounty, "
            "else the buy-in's bounty part), `rebuy` or `add-on` (the price paid).",
        ),
        _c("place", _I32, "Finishing place (1 for `won`); null when the line names none.", null=True),
        _c(
            "amount",
            _I64,
            "Prize, bounty share or price in hundredths of `unit`; null when the line prints none.",
            null=True,
            money=True,
        ),
        _c(
            "shared_by",
            _I16,
            "Players a fixed bounty was split between (`A, B split the $50 bounty ...`: each won `amount` / "
            "`shared_by`); 1 otherwise.",
        ),
        _c("eliminated", _STR, "The player knocked out, for `bounty` rows.", null=True),
        _c("unit", _STR, "Currency of the buy-in (`USD`...), or `play` for play chips."),
        _c("unit_scale", _I16, "Always 100: amounts are hundredths of `unit` (cents of a currency)."),
    ),
)

TOURNAMENT_SUMMARIES = Table(
    "tournament_summaries",
    "One row per entrant line of a PokerStars tournament summary file (`hhparse import` reads them beside "
    "the hand histories), the tournament's own columns repeated on each. A summary listing no entrant has "
    "one row with a null `player`. Several summaries of one tournament (a snapshot while it ran, then the "
    "final one) are all kept; reports read the most complete. Money is hundredths of `unit`.",
    ("content_hash", "place_line"),
    (
        _c("site", _STR, "Site, from the first line (`PokerStars Tournament #...`)."),
        _c("tournament_id", _STR, "Tournament number."),
        _c("game", _STR, "Game words as printed after the number, e.g. `Pot Limit 5 Card Omaha`."),
        _c(
            "game_slug",
            _STR,
            "The game as `--game` names it (`5-card-omaha`), null for games hhparse does not read (`8-Game`).",
            null=True,
        ),
        _c("buyin_label", _STR, "The `Buy-In:` value as printed, e.g. `$24.55/$2.45 USD`; empty when none."),
        _c(
            "unit",
            _STR,
            "Currency of the buy-in and prizes (`USD`...), `play` for play chips, `FPP`/`SC` for points.",
        ),
        _c("unit_scale", _I16, "Always 100: every amount of this table is in hundredths of `unit`."),
        _c(
            "buyin",
            _I64,
            "The buy-in's first part (what goes to the prize pool; for a progressive knockout printed as two "
            "parts, the bounty part too).",
            null=True,
            money=True,
        ),
        _c(
            "bounty",
            _I64,
            "The bounty part of a three-part buy-in (`$1.08/$0.27/$0.15`).",
            null=True,
            money=True,
        ),
        _c(
            "fee",
            _I64,
            "The buy-in's last part (PokerStars' fee); 0 for a one-part buy-in.",
            null=True,
            money=True,
        ),
        _c("entries", _I32, "Entrants (`49 players`).", null=True),
        _c(
            "prize_pool",
            _I64,
            "`Total Prize Pool`, null when not printed or not money (a ticket).",
            null=True,
            money=True,
        ),
        _c("started_utc", _TS_UTC, "`Tournament started`, in UTC."),
        _c("finished_utc", _TS_UTC, "`Tournament finished`, in UTC; null while it ran.", null=True),
        _c(
            "hero_place",
            _I32,
            "`You finished in Nth place`: the account's place (null when not printed).",
            null=True,
        ),
        _c("hero_rebuys", _I32, "`You made N rebuys and M addons ...`: N.", null=True),
        _c("hero_addons", _I32, "... M.", null=True),
        _c("hero_rebuy_total", _I64, "... the total paid for them.", null=True, money=True),
        _c("hero_bounties", _I32, "`You collected N bounties for a total of ...`: N.", null=True),
        _c("hero_bounty_total", _I64, "... the total.", null=True, money=True),
        _c(
            "rank",
            _I32,
            "The entrant line's number: the place, or the list position while still playing.",
            null=True,
        ),
        _c("player", _STR, "Entrant's screen name.", null=True),
        _c("country", _STR, "Entrant's country as printed.", null=True),
        _c("prize", _I64, "Prize won, null when none is printed.", null=True, money=True),
        _c("still_playing", _BOOL, "The entrant was still playing when the summary was written."),
        _c("source", _STR, "File the summary was read from."),
        _c("line", _I64, "File line of the summary's first line."),
        _c(
            "place_line", _I64, "File line of the entrant line (the summary's first line when it lists none)."
        ),
        _c(
            "content_hash",
            _STR,
            "Hash of the summary file's text (the same file imported twice is kept once).",
        ),
    ),
)

_BUCKET_KEYS = {c.name: c for c in HAND_PLAYERS.columns}

FILTER_KEYS = ("small_blind", "big_blind", "buyin_label", "game", "hilo", "game_label")
"""The keys of a derived row that the ``--stakes`` and ``--game`` filters test besides its unit
(``held_stake``, ``held_game``: analytics/filters.sql, on the same columns of a raw row): every
derived table a report filters keeps them, declared as ``hand_players`` declares them."""


def _keys(*names: str) -> tuple[Column, ...]:
    """``hand_players``' declarations of the key columns ``names``: a derived table's keys are its
    source rows' columns, declared once."""
    return tuple(_BUCKET_KEYS[n] for n in names)


def _of(table: Table, *names: str) -> tuple[Column, ...]:
    """The columns ``names`` of ``table``, in that order: a column two derived tables share (a sum
    of the same rows) is declared once."""
    by_name = {c.name: c for c in table.columns}
    return tuple(by_name[n] for n in names)


def _source_file(table: str, verb: str = "sums") -> Column:
    return _c("source_file", _STR, f"The `{table}` file (`{table}/<name>.parquet`) whose rows this {verb}.")


_UTC_MONTH = _c("utc_month", pa.date32(), "First day of the hands' UTC month.")
_UTC_SLOT = _c(
    "utc_slot",
    _TS_UTC,
    "Start of the hands' 15-minute UTC slot when they lie within 14 hours of a UTC month "
    "boundary (every real time zone's offset is a multiple of 15 minutes), else null.",
    null=True,
)
"""The time key of the derived tables keyed like the player buckets (a month, or near a month's
boundary a slot as well: ``in_bucket_days`` in analytics/filters.sql)."""


POT_SHARE = pa.decimal128(38, 20)
"""A sum of pot shares (each in [0, 1]): 20 decimals, room for 10^18 rows."""


def _count(name: str, what: str) -> Column:
    return _c(name, _I64, f"Rows of the bucket {what}.")


PLAYER_BUCKETS = Table(
    "player_buckets",
    "Derived, not imported: the dealt-in rows of one `hand_players` file (`source_file`) summed per "
    "player and group key, what the `summary` and `positions` reports read instead of those rows. "
    "Built by `hhparse import` once its batches are committed (else by the first report that needs "
    "it, or by `hhparse compact`); a bucket "
    "counts only while its `source_file` is a live `hand_players` file (see "
    "docs/reading-the-warehouse.md: never add it to `hand_players`' own figures). A hand more than 14 "
    "hours from a UTC month boundary is keyed by its UTC month alone (`utc_slot` null): its month is "
    "the same in every time zone; one nearer is keyed by its 15-minute UTC slot as well.",
    (
        "source_file",
        "player",
        "unit",
        *FILTER_KEYS,
        "structure",
        "position",
        "max_seats",
        "utc_month",
        "utc_slot",
    ),
    (
        _source_file("hand_players"),
        *_keys("player", "unit", "unit_scale"),
        _c("cash", _BOOL, "A cash game's hands (`tournament_id` null)."),
        *_keys(*FILTER_KEYS, "structure", "position", "max_seats"),
        _UTC_MONTH,
        _UTC_SLOT,
        _c("hands", _I64, "Rows (player-hands) summed in the bucket."),
        _c("min_tournament", _STR, "Smallest `tournament_id` of the rows, null for cash games.", null=True),
        _c("max_tournament", _STR, "Largest `tournament_id` of the rows, null for cash games.", null=True),
        _c("net", _I64, "Sum of `net`.", money=True),
        _c("allin_ev", _I64, "Sum of `allin_ev`.", money=True),
        _c("showdown_net", _I64, "Sum of `net` over the rows that went to showdown.", money=True),
        _c("postflop_aggressive", _I64, "Sum of `postflop_bets` + `postflop_raises`."),
        _c("postflop_calls", _I64, "Sum of `postflop_calls`."),
        _c("postflop_folds", _I64, "Sum of `postflop_folds`."),
        _count("vpip", "with `vpip`"),
        _count("walks", "that are walks (the big blind wins the blinds uncontested)"),
        _count("pfr", "with `pfr`"),
        _count("three_bet_opp", "with `three_bet_opportunity`"),
        _count("three_bet", "with `three_bet`"),
        _count("fold_to_three_bet_opp", "with `fold_to_three_bet_opportunity`"),
        _count("fold_to_three_bet", "with `fold_to_three_bet`"),
        _count("steal_opp", "with `steal_opportunity`"),
        _count("steal", "with `steal`"),
        _count("fold_to_steal_opp", "with `fold_to_steal_opportunity`"),
        _count("fold_to_steal", "with `fold_to_steal`"),
        _count("cbet_opp", "with `cbet_opportunity`"),
        _count("cbet", "with `cbet`"),
        _count("fold_to_cbet_opp", "with `fold_to_cbet_opportunity`"),
        _count("fold_to_cbet", "with `fold_to_cbet`"),
        _count("saw_flop", "with `saw_flop`"),
        _count("wtsd", "with `went_to_showdown`"),
        _count("wsd", "with `won_at_showdown`"),
        _count("wwsf", "that saw the flop and collected something"),
        _count("scoops", "with `scooped`"),
        _count("high_only", "that won at showdown a high half or whole pot but no low half, not scooping"),
        _count("low_only", "that won at showdown a low half but no high half"),
        _count("quartered", "with `quartered`"),
        _c(
            "pot_shares",
            _I64,
            "Rows that collected something (`collected` > 0) of a pot net of rake other than 0.",
        ),
        _c(
            "pot_share_sum",
            POT_SHARE,
            "Sum over those rows of `collected` / (`total_pot` - `rake`), each quotient (a double) "
            "rounded to 20 decimals: exact decimal sums add up alike in any order and any grouping.",
        ),
        _c("high_won", _I64, "Sum of `high_won`.", money=True),
        _c("low_won", _I64, "Sum of `low_won`.", money=True),
    ),
)

SHOWN_LOWS = Table(
    "shown_lows",
    "Derived, not imported: the hands of hi/lo games that one `showdowns` file (`source_file`) "
    "shows (rows not `mucked`, a hand and player once whatever its runs), counted per player and "
    "group key of their hand (the `hands` row), with how many held a qualifying low: what the "
    "`hilo` report reads instead of those rows. Built and counted like `player_buckets` (same "
    "time key), from `showdowns` files instead of `hand_players` files.",
    ("source_file", "player", "unit", *FILTER_KEYS, "utc_month", "utc_slot"),
    (
        _source_file("showdowns", "counts"),
        *_keys("player", "unit", "unit_scale", *FILTER_KEYS),
        _UTC_MONTH,
        _UTC_SLOT,
        _c("hands_shown", _I64, "Hands the player showed (any run)."),
        _c("lows_made", _I64, "Of those, hands holding a qualifying 8-or-better low on some run."),
    ),
)

DOOR_BUCKETS = Table(
    "door_buckets",
    "Derived, not imported: the dealt-in Courchevel rows (`exposed_card` known) of one `hand_players` "
    "file (`source_file`) summed per player, unit, the keys of the --game and --stakes filters, the "
    "time key of `player_buckets` and the door-card keys: what the `door-card` report reads instead of "
    "those rows. Built like `player_buckets` (by `hhparse import`, `hhparse compact` or the first "
    "report that needs it) and counts only while its `source_file` is a live `hand_players` file.",
    (
        "source_file",
        "player",
        "unit",
        *FILTER_KEYS,
        "utc_month",
        "utc_slot",
        "door_rank",
        "pairs_code",
        "suits_code",
    ),
    (
        _source_file("hand_players"),
        *_keys("player", "unit", "unit_scale", *FILTER_KEYS),
        _UTC_MONTH,
        _UTC_SLOT,
        _c(
            "door_rank",
            _STR,
            "The door card's rank (`A`, `K`, ... `2`: the first character of `exposed_card`).",
        ),
        _c(
            "pairs_code",
            _I8,
            "Whether one of the player's hole cards has the door card's rank: 1 yes, 2 no, 0 unknown "
            "(hole cards not known).",
        ),
        _c(
            "suits_code",
            _I8,
            "Whether one of the player's hole cards has the door card's suit (codes as above).",
        ),
        *_of(PLAYER_BUCKETS, "hands", "vpip", "pfr", "walks", "net"),
    ),
)

HERO_SLOTS = Table(
    "hero_slots",
    "Derived, not imported: the dealt-in hero rows (`is_hero`) of one `hand_players` file "
    "(`source_file`) summed per line (unit, tournament), stakes and game keys, hour and 15-minute "
    "UTC slot: what the `graph` report and the HTML pages' net-won lines add up per hour instead of "
    "those rows. Built like `player_buckets` (by `hhparse import` once its batches are committed, "
    "else by the first report that needs it, or by `hhparse compact`), and counts only while its "
    "`source_file` is a live `hand_players` file. `hour` is the graphs' hour "
    "(`epoch_us(start_utc) // 3600000000`); a slot lies in one local day in every time zone.",
    ("source_file", "unit", "tournament_id", *FILTER_KEYS, "hour", "utc_slot"),
    (
        _source_file("hand_players"),
        *_keys("unit", "unit_scale", "tournament_id", *FILTER_KEYS),
        _c("hour", _I64, "The hands' hour as the graphs bucket them: `epoch_us(start_utc) // 3600000000`."),
        _c("utc_slot", _TS_UTC, "Start of the hands' 15-minute UTC slot."),
        _c("hands", _I64, "Rows (hero hands) summed."),
        _c("sd_up", _I64, "Sum of the positive `net` of the hands that went to showdown.", money=True),
        _c("sd_down", _I64, "Sum of the negative `net` of the hands that went to showdown.", money=True),
        _c("nsd_up", _I64, "Sum of the positive `net` of the hands that did not go to showdown.", money=True),
        _c(
            "nsd_down",
            _I64,
            "Sum of the negative `net` of the hands that did not go to showdown.",
            money=True,
        ),
        *_of(PLAYER_BUCKETS, "allin_ev"),
        _c("ev_up", _I64, "Sum of the positive `allin_ev`.", money=True),
        _c("last_start", _TS_UTC, "Latest `start_utc` of the hands."),
        _c(
            "last_id",
            _STR,
            "`hand_id` of the last hand in the graphs' order (`start_utc`, then `hand_id`): the hand "
            "a graph's point at the end of an hour names.",
        ),
    ),
)

TABLES: Mapping[str, Table] = {
    t.name: t
    for t in (
        HANDS,
        HAND_PLAYERS,
        ACTIONS,
        POTS,
        AWARDS,
        SHOWDOWNS,
        EV_SHARES,
        TOURNAMENT_EVENTS,
        TOURNAMENT_SUMMARIES,
        REJECTS,
        IMPORTS,
    )
}
"""Every warehouse table, in documentation order."""

DERIVED_TABLES: Mapping[str, Table] = {
    t.name: t for t in (PLAYER_BUCKETS, DOOR_BUCKETS, HERO_SLOTS, SHOWN_LOWS)
}
"""Tables hhparse derives from the imported ones (never imported, never compacted with them):
every row names the file it was derived from, and counts only while that file is live."""


HAND_TABLES = ("hands", "hand_players", "actions", "pots", "awards", "showdowns", "ev_shares")
"""Tables whose rows all belong to one accepted hand (keyed by ``site``, ``hand_id``) and carry its
``unit`` (``tournament_events`` belongs to a hand too, but its amounts are in the buy-in's unit)."""


def arrow_schema(table: str | Table) -> pa.Schema:
    """The pyarrow schema of ``table``, stamped with ``schema_version`` and the column docs."""
    t = (TABLES.get(table) or DERIVED_TABLES[table]) if isinstance(table, str) else table
    fields = [pa.field(c.name, c.type, nullable=c.nullable, metadata={"doc": c.doc}) for c in t.columns]
    return pa.schema(fields, metadata={"schema_version": SCHEMA_VERSION, "table": t.name})


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _duckdb_type(type_: pa.DataType) -> str:
    """DuckDB spelling of an Arrow type used in the declaration (for empty views)."""
    if pa.types.is_list(type_):
        return _duckdb_type(type_.value_type) + "[]"
    if pa.types.is_struct(type_):
        inner = ", ".join(f"{f.name} {_duckdb_type(f.type)}" for f in type_)
        return f"STRUCT({inner})"
    if pa.types.is_timestamp(type_):
        return "TIMESTAMPTZ" if type_.tz else "TIMESTAMP"
    if pa.types.is_date32(type_):
        return "DATE"
    if pa.types.is_decimal(type_):
        return f"DECIMAL({type_.precision}, {type_.scale})"
    simple = {
        pa.string(): "VARCHAR",
        pa.int64(): "BIGINT",
        pa.int32(): "INTEGER",
        pa.int16(): "SMALLINT",
        pa.int8(): "TINYINT",
        pa.bool_(): "BOOLEAN",
    }
    return simple[type_]


def money_dec_sql(amount: str, scale: str) -> str:
    """SQL of the exact DECIMAL(18,2) value of ``amount`` minor units at ``scale`` minor units a unit.

    Exact by construction: DuckDB's ``/`` on decimals yields DOUBLE, so the amount is *multiplied*
    by the decimal ``0.01`` (or ``1.00``), which stays DECIMAL. A scale other than 1 or 100 gives
    NULL rather than a wrong number.
    """
    return (
        f"CAST(CAST({amount} AS DECIMAL(18, 0)) * "
        f"CASE {scale} WHEN 100 THEN 0.01 WHEN 1 THEN 1.00 END AS DECIMAL(18, 2))"
    )


def view_sql(table: str | Table, files: Iterable[str]) -> str:
    """``SELECT`` text of the view of ``table`` over ``files`` (absolute paths).

    Columns come out in declared order with declared types; money columns get a ``<name>_dec``
    exact DECIMAL(18,2) companion (cents → currency units; chips unchanged), scaled by the row's own
    ``unit_scale`` (every table with money carries it), so no view joins another table. With no
    files, the view is empty but fully typed.
    """
    t = (TABLES.get(table) or DERIVED_TABLES[table]) if isinstance(table, str) else table
    files = list(files)
    if files:
        src = f"read_parquet([{', '.join(_sql_literal(f) for f in files)}])"
    else:
        cols = ", ".join(f"CAST(NULL AS {_duckdb_type(c.type)}) AS {c.name}" for c in t.columns)
        src = f"(SELECT {cols} WHERE false)"
    select = [f"t.{c.name}" for c in t.columns]
    for c in t.columns:
        if c.money:
            select.append(f"{money_dec_sql('t.' + c.name, 't.unit_scale')} AS {c.name}_dec")
    return f"SELECT {', '.join(select)} FROM {src} AS t"


def published_files(warehouse_dir: Path, *, missing_ok: bool = True) -> dict[str, list[str]]:
    """Absolute paths of the published Parquet files per table, as listed by the manifest
    (:func:`hhparse.tables.store.published_files`, which knows the layout on disk)."""
    from hhparse.tables.store import published_files as listed

    return listed(warehouse_dir, missing_ok=missing_ok)


def create_views(con: Any, warehouse_dir: Path | str, *, missing_ok: bool = True) -> None:
    """Create (or replace) one DuckDB view per table over the warehouse's published files.

    ``con`` is a ``duckdb.DuckDBPyConnection``. Views are a snapshot of the manifest at call time;
    call again after an import to see the new batches. A folder where nothing was published yet
    gives empty views, unless ``missing_ok`` is false.

    Raises:
        WarehouseNotFoundError: no warehouse there.
        WarehouseDamagedError: its manifest or a listed file is missing or corrupt.
        WarehouseVersionError: the warehouse was written by another schema version.
    """
    from hhparse.tables.store import file_records

    files = published_files(Path(warehouse_dir), missing_ok=missing_ok)
    data = {"files": file_records(Path(warehouse_dir))}
    for name, t in TABLES.items():
        sql = view_sql(t, files[name])
        if name == "rejects":
            sql = _without_superseded(sql, superseded_rejects(data))
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")


def superseded_rejects(manifest: dict[str, Any]) -> list[tuple[str, int, str]]:
    """``(source, line, content_hash)`` of the stale rejects the manifest's file records list.

    A reject is superseded when an import rejected a file's last hand as it stood (the file had
    stopped changing, the hand was half written) and a later import of the grown file read the
    same hand whole: the importer records the old reject in the file's record
    (``superseded``), and the ``rejects`` view no longer shows it (the import then rewrites the
    ``rejects`` files holding it without it: ``Warehouse.drop_superseded_rejects``).
    """
    out: list[tuple[str, int, str]] = []
    for path, record in manifest.get("files", {}).items():
        for line, chash in record.get("superseded", []) if isinstance(record, dict) else []:
            out.append((str(path), int(line), str(chash)))
    return out


def _without_superseded(sql: str, stale: list[tuple[str, int, str]]) -> str:
    if not stale:
        return sql
    values = ", ".join(f"({_sql_literal(s)}, {int(n)}, {_sql_literal(h)})" for s, n, h in stale)
    return (
        f"SELECT r.* FROM ({sql}) AS r ANTI JOIN (VALUES {values}) AS s(source, line, content_hash) "
        "ON r.source = s.source AND r.line = s.line AND r.content_hash = s.content_hash"
    )


def render_docs() -> str:
    """Markdown reference of every table and column (the content of ``docs/schema.md``)."""
    out = [
        "# Warehouse schema",
        "",
        "<!-- Generated by hhparse.tables.schema.render_docs(); do not edit by hand. -->",
        "",
        f"Schema version: `{SCHEMA_VERSION}`. Money columns (marked 💰) are `int64` in the hand's smallest",
        "unit (`unit`: cents of a currency, or chips); each DuckDB view adds a `<column>_dec` exact",
        "`DECIMAL(18,2)` companion in currency units (amount × 0.01 when `unit_scale` is 100). Every",
        "per-hand table is keyed by (`site`, `hand_id`, ...). Columns marked ⧉ are copies of the same",
        "column of the hand's `hands` row, repeated on each row so that reports need no join.",
        "",
    ]
    for t in (*TABLES.values(), *DERIVED_TABLES.values()):
        out += [f"## `{t.name}`", "", t.doc, "", f"Key: {', '.join(f'`{k}`' for k in t.key)}", ""]
        out += ["| column | type | null | meaning |", "|---|---|---|---|"]
        for c in t.columns:
            mark = (" 💰" if c.money else "") + (" ⧉" if c.from_hands else "")
            out.append(
                f"| `{c.name}`{mark} | `{c.type}` | {'yes' if c.nullable else 'no'} | {c.doc.replace('|', '/')} |"
            )
        out.append("")
    return "\n".join(out)


def write_docs(path: Path | str = Path("docs/schema.md")) -> None:
    """Regenerate ``docs/schema.md`` (``python -m hhparse.tables.schema``)."""
    Path(path).write_text(render_docs(), encoding="utf-8")


if __name__ == "__main__":
    write_docs()
