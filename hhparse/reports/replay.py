"""The replay document of a hand: everything a replayer shows at every step, from the warehouse.

Why a document built here and not in the browser: every figure the replayer shows — the pot
after each action, each stack, each bet, the board of each street, who won which half of which
pot and with what — is one of the referee's facts (the ``actions``, ``pots``, ``awards`` and
``showdowns`` tables) or a running sum of them. This module lays them out step by step once, in
Python, where it is tested; the page's JavaScript only draws the step it is asked for and does
no arithmetic on money.

One thing the referee does not record is how the chips already in the middle split into main
and side pots *between* two actions (its ``pots`` table is the split at the end). When bets are
gathered at the end of a street, the document splits them with :func:`hhparse.rules.pots.side_pots`,
the very function the referee settles with, so the last split is the referee's own (the final
step shows the ``pots`` table itself; a test checks the two agree on every corpus hand).

The document is plain JSON data (ints, strings, lists), so the page embeds it as is:

* ``hand`` — header facts (game, stakes, unit, table, button, boards, rake...);
* ``seats`` — one entry per seated player (seat order): name, hero flag, position, starting
  stack, known hole cards, net, and where the seat sits round the oval (percentages);
* ``steps`` — the state after each step: ``kind`` (start, post, deal, action, street, return,
  showdown, award, end), a label, the acting seat, the pot, the middle pots, every stack and bet, who has
  folded or is all-in, how many board cards of each run are face up, whose cards are face up;
* ``results`` — every half of every pot of every run with winners, amounts and descriptions;
* ``shown`` — each shown hand per run with the evaluator's high and low.

Amounts are integers in the hand's smallest unit (``hand.scale`` per unit: 100 for a currency).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb

from hhparse.money import format_currency
from hhparse.resources import read_text
from hhparse.rules.pots import clockwise_from_button, side_pots
from hhparse.rules.spec import SPECS

__all__ = [
    "DOC_VERSION",
    "HandNotFoundError",
    "build_document",
    "money_text",
    "replay_document",
    "replay_documents",
    "seat_layout",
]

DOC_VERSION = 1
"""Version of the document's shape (``v``); bump it when a field changes meaning."""

TABLE_SIZES = (2, 6, 8, 9, 10)
"""Table sizes the oval is drawn for; a header without ``N-max`` gets the smallest that fits."""

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "C$", "AUD": "A$"}
_STREETS = ("Pre-flop", "Flop", "Turn", "River")
_TABLES = ("hands", "players", "actions", "pots", "awards", "showdowns")

Row = Mapping[str, Any]


class HandNotFoundError(LookupError):
    """No accepted hand with that number is in the warehouse (or more than one site has it)."""


def money_text(amount: int, unit: str, scale: int) -> str:
    """An amount as a player reads it: ``$1.05``, ``-€0.50``, ``1500`` (chips), ``12.00 SEK``.

    Integer arithmetic only (no float rounding). The page's JavaScript formats the same way
    (``fmt`` in ``replay.js``; a browser test compares the two).
    """
    if scale == 1 or unit in ("chips", "play"):
        return str(amount)
    symbol = _SYMBOLS.get(unit)
    return format_currency(amount, symbol) if symbol else f"{format_currency(amount, '')} {unit}"


def seat_layout(
    seats: Sequence[int], max_seats: int | None, hero_seat: int | None
) -> dict[int, tuple[float, float]]:
    """Where each seat number sits round the oval, as (x %, y %) of the table's box.

    Seat numbers go clockwise as at the real table; empty seats keep their place. The table is
    turned so the hero sits at the bottom, as the PokerStars client does with a preferred seat
    (without a hero, seat 1 does).
    """
    top = max(seats, default=1)
    size = max_seats if max_seats and max_seats >= top else next((n for n in TABLE_SIZES if n >= top), top)
    anchor = hero_seat if hero_seat is not None else 1
    out: dict[int, tuple[float, float]] = {}
    for s in seats:
        angle = math.pi / 2 + 2 * math.pi * ((s - anchor) % size) / size
        out[s] = (round(50 + 50 * math.cos(angle), 1), round(50 + 50 * math.sin(angle), 1))
    return out


@dataclass
class _State:
    """The table between two steps: what the next step's snapshot copies."""

    stacks: list[int]
    bets: list[int]
    contributed: list[int]
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    board: tuple[int, int] = (0, 0)
    shown: set[int] = field(default_factory=set)
    dealt: bool = False
    pot: int = 0
    pots: list[list[Any]] = field(default_factory=list)
    awarded: list[int] = field(default_factory=list)


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def build_document(
    hand: Row,
    players: Sequence[Row],
    actions: Sequence[Row],
    pots: Sequence[Row],
    awards: Sequence[Row],
    showdowns: Sequence[Row],
) -> dict[str, Any]:
    """The replay document of one hand from its warehouse rows (as the ``analytics/replay`` queries
    return them: raw integer money). Pure: the same rows always give the same document."""
    unit, scale = str(hand["unit"]), int(hand["unit_scale"])

    def fmt(v: int) -> str:
        return money_text(v, unit, scale)

    seats = list(players)
    index = {str(p["player"]): i for i, p in enumerate(seats)}
    hero = next((i for i, p in enumerate(seats) if p["is_hero"]), None)
    layout = seat_layout(
        [int(p["seat"]) for p in seats],
        hand["max_seats"],
        None if hero is None else int(seats[hero]["seat"]),
    )
    known: dict[int, list[str]] = {}
    for i, p in enumerate(seats):
        if p["hole_cards"]:
            known[i] = list(p["hole_cards"])
    for s in showdowns:
        i = index[str(s["player"])]
        known.setdefault(i, list(s["cards"]))
    spec = SPECS.get(str(hand["game_label"]))
    hole = spec.hole_cards if spec is not None else max((len(c) for c in known.values()), default=4)

    exposed = hand["exposed_card"]
    board1 = list(hand["board"] or ([exposed] if exposed else []))
    board2 = list(hand["board_run2"]) if hand["board_run2"] is not None else None
    split = _common_prefix(board1, board2) if board2 is not None else len(board1)

    dealt_in = [i for i, p in enumerate(seats) if p["dealt_in"]]
    order = list(
        clockwise_from_button(
            [(str(seats[i]["player"]), int(seats[i]["seat"])) for i in dealt_in], int(hand["button_seat"])
        )
    )
    st = _State(
        stacks=[int(p["starting_stack"]) for p in seats],
        bets=[0] * len(seats),
        contributed=[0] * len(seats),
    )
    steps: list[dict[str, Any]] = []

    def middle() -> list[list[Any]]:
        """The chips gathered in the middle (bets not yet gathered stay in front of the players)."""
        gathered = {str(seats[i]["player"]): st.contributed[i] - st.bets[i] for i in dealt_in}
        live = {str(seats[i]["player"]) for i in dealt_in if i not in st.folded}
        return [[p.amount, [index[n] for n in p.eligible]] for p in side_pots(gathered, live, order)]

    def snap(
        kind: str, label: str, street: int, actor: int | None = None, seq: int | None = None, **extra: Any
    ) -> None:
        step: dict[str, Any] = {
            "kind": kind,
            "label": label,
            "street": street,
            "actor": actor,
            "seq": seq,
            "pot": st.pot,
            "pots": [list(p) for p in st.pots],
            "awarded": list(st.awarded),
            "stacks": list(st.stacks),
            "bets": list(st.bets),
            "folded": sorted(st.folded),
            "allin": sorted(st.all_in),
            "board": list(st.board),
            "shown": sorted(st.shown),
            "dealt": st.dealt,
        }
        step.update(extra)
        steps.append(step)

    def gather() -> None:
        st.bets = [0] * len(seats)
        st.pots = middle()

    button = int(hand["button_seat"])
    snap("start", f"Seat #{button} is the button", 0)

    def deal() -> None:
        st.dealt = True
        if exposed:
            st.board = (1, 0)
        door = f"; door card {exposed} face up" if exposed else ""
        snap("deal", f"Hole cards dealt{door}", 0)

    dealt_street = 0

    def deal_streets(through: int) -> None:
        """Deal the common board's streets up to ``through`` (those not dealt yet), gathering bets."""
        nonlocal dealt_street
        for s in range(dealt_street + 1, through + 1):
            n = 2 + s
            if len(board1) < n or n > split:
                return
            gather()
            st.board = (n, 0)
            snap("street", f"{_STREETS[s]} {_cards(board1[:n] if s == 1 else board1[n - 1 : n])}", s)
            dealt_street = s

    def current_street() -> int:
        return steps[-1]["street"] if steps else 0

    posts = ("small blind", "big blind", "ante")
    for a in actions:
        street = int(a["street"])
        kind = str(a["action"])
        if not st.dealt and kind not in posts:
            deal()
        if street > dealt_street:
            deal_streets(street)
        i = index[str(a["player"])]
        amount = int(a["amount"])
        if kind == "uncalled":
            st.stacks[i] = int(a["stack_before"]) + amount
            st.pot = int(a["pot_before"]) - amount
            st.contributed[i] -= amount
            label = f"Uncalled bet ({fmt(amount)}) returned to {a['player']}"
        else:
            st.stacks[i] = int(a["stack_before"]) - amount
            st.pot = int(a["pot_before"]) + amount
            st.contributed[i] += amount
            if kind == "fold":
                st.folded.add(i)
            if a["all_in"]:
                st.all_in.add(i)
            label = _action_label(
                str(a["player"]), kind, amount, int(a["to_amount"]), int(a["faced"]), bool(a["all_in"]), fmt
            )
        if kind != "ante":
            st.bets[i] = int(a["to_amount"])
        snap("post" if kind in posts else "action", label, street, actor=i, seq=int(a["seq"]))
    if not st.dealt and not hand["cancelled"]:
        deal()
    deal_streets(3)
    if board2 is not None:
        # Run twice: the first board's remaining streets, then the second's (as the history prints).
        gather()
        for run, board in ((1, board1), (2, board2)):
            which = "First" if run == 1 else "Second"
            for n in range(max(split, 2) + 1, len(board) + 1):
                new = board[:n] if n == 3 else board[n - 1 : n]
                st.board = (n, 0) if run == 1 else (len(board1), n)
                snap("street", f"{which} {_STREETS[n - 2].lower()} {_cards(new)}", n - 2, run=run)
    # Money the referee booked as returned without an "Uncalled bet" line (early clients printed
    # none; a cancelled hand gives every chip back): its own step, so the stacks add up.
    returned_by_line = [0] * len(seats)
    for a in actions:
        if str(a["action"]) == "uncalled":
            returned_by_line[index[str(a["player"])]] += int(a["amount"])
    for i, p in enumerate(seats):
        silent = int(p["returned"]) - returned_by_line[i]
        if silent > 0:
            st.stacks[i] += silent
            st.contributed[i] -= silent
            st.bets[i] = max(st.bets[i] - silent, 0)
            st.pot -= silent
            st.pots = middle()
            why = "the hand was cancelled" if hand["cancelled"] else "no line in the history"
            snap("return", f"{fmt(silent)} returned to {p['player']} ({why})", current_street(), actor=i)
    # Every bet gathered: the middle now holds the referee's own pots (which the split of the
    # gathered chips must equal: a difference is noted in the document, and tested never to occur).
    gather()
    notes: list[str] = []
    referee_pots = [[int(p["amount"]), [index[str(n)] for n in p["eligible"]]] for p in pots]
    if [p[0] for p in st.pots] != [p[0] for p in referee_pots] and not hand["cancelled"]:
        notes.append("the chips gathered split into other pots than the referee's: showing the referee's")
    st.pots = referee_pots
    if showdowns:
        st.shown = {index[str(s["player"])] for s in showdowns}
        names = ", ".join(str(seats[i]["player"]) for i in sorted(st.shown))
        snap("showdown", f"Showdown: {names} show", 4)
    results: list[dict[str, Any]] = []
    by_pot_run: dict[tuple[int, int], list[Row]] = {}
    sold = [int(p.get("cash_out") or 0) for p in seats]
    for aw in awards:
        by_pot_run.setdefault((int(aw["pot"]), int(aw["run"])), []).append(aw)
    for (pot, run), halves in sorted(by_pot_run.items()):
        parts = []
        for aw in halves:
            shares = [
                (index[str(w)], int(x), str(d or ""))
                for w, x, d in zip(aw["winners"], aw["amounts"], aw["descriptions"], strict=True)
            ]
            for seat, won, _ in shares:
                if not sold[seat]:  # a player who cashed out is not paid: the room keeps it
                    st.stacks[seat] += won
            results.append(
                {
                    "pot": pot,
                    "run": run,
                    "half": str(aw["half"]),
                    "amount": int(aw["amount"]),
                    "winners": [{"seat": i, "amount": won, "desc": d} for i, won, d in shares],
                }
            )
            who = ", ".join(
                f"{seats[i]['player']} {fmt(won)}"
                + (f" ({d})" if d else "")
                + (" (not awarded: cashed out)" if sold[i] else "")
                for i, won, d in shares
            )
            parts.append(f"{aw['half']}: {who}" if aw["half"] != "whole" else who)
        st.awarded = sorted({*st.awarded, pot})
        name = "Main pot" if pot == 0 else f"Side pot {pot}"
        run_text = f", run {run}" if run else ""
        snap("award", f"{name}{run_text} — " + "; ".join(parts), 4, award=[pot, run])
    for i, paid in enumerate(sold):
        if paid:  # all-in cash out: the room pays the player outside the pot
            st.stacks[i] += paid
            snap("award", f"{seats[i]['player']} cashed out the hand for {fmt(paid)}", 4, actor=i)
    final = [int(p["starting_stack"]) + int(p["net"]) for p in seats]
    st.stacks = final
    st.shown = st.shown | {i for i in known if i != hero}  # shown at showdown or after it
    snap("end", f"Total pot {fmt(int(hand['total_pot']))} | Rake {fmt(int(hand['rake']))}", 4)

    return {
        "v": DOC_VERSION,
        "hand": {
            "site": hand["site"],
            "id": hand["hand_id"],
            "game": hand["game_label"],
            "hilo": bool(hand["hilo"]),
            "unit": unit,
            "scale": scale,
            "stakes": f"{fmt(int(hand['small_blind']))}/{fmt(int(hand['big_blind']))}",
            "tournament": hand["tournament_id"],
            "level": hand["level"],
            "table": hand["table_name"],
            "max_seats": hand["max_seats"],
            "button": button,
            "start": hand["start_utc"].strftime("%Y-%m-%d %H:%M:%S UTC") if hand["start_utc"] else None,
            "exposed": exposed,
            "boards": [board1] + ([board2] if board2 is not None else []),
            "runs": int(hand["runs"]),
            "total_pot": int(hand["total_pot"]),
            "rake": int(hand["rake"]),
            "cancelled": bool(hand["cancelled"]),
            "warnings": list(dict.fromkeys(hand["warning_codes"] or [])),
            "source": hand["source"],
            "line": int(hand["line"]),
            "hole": hole,
            "notes": notes,
        },
        "seats": [
            {
                "seat": int(p["seat"]),
                "name": str(p["player"]),
                "hero": bool(p["is_hero"]),
                "pos": str(p["position"] or ""),
                "dealt_in": bool(p["dealt_in"]),
                "stack": int(p["starting_stack"]),
                "net": int(p["net"]),
                "cards": known.get(i, []),
                "xy": list(layout[int(p["seat"])]),
            }
            for i, p in enumerate(seats)
        ],
        "steps": steps,
        "results": results,
        "shown": [
            {
                "seat": index[str(s["player"])],
                "run": int(s["run"]),
                "cards": list(s["cards"]),
                "high": str(s["high"]),
                "low": s["low"],
            }
            for s in showdowns
        ],
    }


def _action_label(
    player: str, kind: str, amount: int, to: int, faced: int, all_in: bool, fmt: Callable[[int], str]
) -> str:
    """The action as the history words it (a raise by its increment over the bet it faced)."""
    tail = " and is all-in" if all_in else ""
    if kind in ("fold", "check"):
        return f"{player} {kind}s"
    if kind == "raise":
        return f"{player} raises {fmt(amount - faced)} to {fmt(to)}{tail}"
    if kind in ("small blind", "big blind", "ante"):
        return f"{player} posts the {kind} {fmt(amount)}{tail}"
    return f"{player} {kind}s {fmt(amount)}{tail}"


def _fetch(
    con: duckdb.DuckDBPyConnection, name: str, ids: list[str], site: str | None
) -> list[dict[str, Any]]:
    rel = con.sql(read_text("analytics", "replay", f"{name}.sql"), params={"ids": ids, "site": site})
    cols = [c for c in rel.columns]
    return [dict(zip(cols, row, strict=True)) for row in rel.fetchall()]


def replay_documents(
    con: duckdb.DuckDBPyConnection, hand_ids: Sequence[str], *, site: str | None = None
) -> list[dict[str, Any]]:
    """The replay documents of ``hand_ids`` (in that order), six queries for the whole list.

    ``con`` is a :func:`hhparse.reports.warehouse` connection. A hand number that several sites
    share gives one document per site unless ``site`` picks one.

    Raises:
        HandNotFoundError: a hand id is not among the accepted hands.
    """
    ids = list(dict.fromkeys(str(h) for h in hand_ids))
    rows = {name: _fetch(con, name, ids, site) for name in _TABLES}
    grouped: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = {}
    for name, table in rows.items():
        g = grouped.setdefault(name, {})
        for r in table:
            g.setdefault((str(r["site"]), str(r["hand_id"])), []).append(r)
    by_id: dict[str, list[tuple[str, str]]] = {}
    for key in grouped["hands"]:
        by_id.setdefault(key[1], []).append(key)
    missing = [h for h in ids if h not in by_id]
    if missing:
        raise HandNotFoundError(
            f"no accepted hand #{', #'.join(missing)} in the warehouse (see `hhparse report rejects`)"
        )
    docs = []
    for h in ids:
        for key in by_id[h]:
            part = {name: grouped[name].get(key, []) for name in _TABLES}
            docs.append(
                build_document(
                    part["hands"][0],
                    part["players"],
                    part["actions"],
                    part["pots"],
                    part["awards"],
                    part["showdowns"],
                )
            )
    return docs


def replay_document(
    con: duckdb.DuckDBPyConnection, hand_id: str, *, site: str | None = None
) -> dict[str, Any]:
    """The replay document of one hand.

    Raises:
        HandNotFoundError: no such accepted hand, or several sites have that number (give ``site``).
    """
    docs = replay_documents(con, [hand_id], site=site)
    if len(docs) > 1:
        sites = ", ".join(str(d["hand"]["site"]) for d in docs)
        raise HandNotFoundError(f"hand #{hand_id} exists on several sites ({sites}): choose one with --site")
    return docs[0]
