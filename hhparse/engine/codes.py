"""The referee's stable violation codes: code -> one-line meaning.

Codes are public interface (tests, the ``rejects`` table, users' scripts): never rename one, add a
new one. ``docs`` renders this table; every ``Violation`` the engine emits uses a key of
:data:`ERRORS` or :data:`WARNINGS` (a test enforces it).
"""

from __future__ import annotations

from hhparse.errors import PARSE_CODES

ERRORS: dict[str, str] = {
    # seats, blinds, antes
    "unknown-player": "an event names a player who has no seat in this hand (or was not dealt in)",
    "duplicate-seat": "two seat lines share a seat number or a player name",
    "non-positive-stack": "a seated player starts the hand with no chips",
    "wrong-blind-seat": "a small or big blind is posted by a player not in that position",
    "wrong-blind-amount": "a blind or ante is not the amount the stakes require (and the poster is not all-in)",
    "missing-big-blind": "no big blind was posted although the hand was dealt",
    "post-after-deal": "a forced bet is posted after the hole cards were dealt",
    # cards
    "wrong-hole-card-count": "a player is dealt or shows a full hand with the wrong number of hole cards",
    "duplicate-card": "the same card appears twice (hole cards, shown cards, boards)",
    "shown-cards-mismatch": "a player shows cards different from those dealt to them",
    "exposed-card-mismatch": "the Courchevel exposed card is not the first card of every flop/board line",
    "missing-exposed-card": "a Courchevel hand has no exposed first flop card before pre-flop betting",
    "unexpected-exposed-card": "a non-Courchevel hand prints an exposed pre-flop card",
    "board-mismatch": "a street or summary board does not extend/equal the board dealt so far",
    "wrong-board-size": "a street line shows the wrong number of board cards",
    "street-out-of-order": "a street is dealt out of order or twice",
    # betting order
    "action-out-of-turn": "a player acts when another player is due to act",
    "acted-after-fold": "a player acts after folding",
    "acted-while-all-in": "a player acts after going all-in",
    "action-after-betting-closed": "a betting action appears when the betting round (or the hand's betting) is over",
    "betting-not-closed": "the street ends (or the hand is settled) while a player still has to act",
    # amounts
    "wrong-call-amount": "a call is not exactly what is owed (or the rest of the stack)",
    "check-facing-bet": "a player checks while owing chips",
    "bet-facing-bet": "a player bets although a bet is already open (it should be a raise)",
    "raise-without-bet": "a player raises although no bet is open (it should be a bet)",
    "raise-increment-mismatch": "'raises BY to TO': BY is not TO minus the bet faced",
    "bet-below-minimum": "a bet is smaller than the big blind and the bettor is not all-in",
    "raise-below-minimum": "a raise is smaller than the previous bet/raise increment and the raiser is not all-in",
    "bet-above-pot-limit": "a pot-limit bet is larger than the pot",
    "raise-above-pot-limit": "a pot-limit raise goes above the pot-size raise",
    "wrong-fixed-limit-size": "a fixed-limit bet or raise is not exactly the small/big bet",
    "betting-capped": "a fixed-limit raise after the round was capped (4 bets incl. the big blind pre-flop)",
    "raise-not-reopened": "a player who already acted re-raises after a short all-in raise that did not re-open betting",
    "bet-exceeds-stack": "a player puts in more chips than they have",
    "bet-above-cap": "at a capped table, a player's chips in the hand go above the cap",
    "all-in-flag-mismatch": "'and is all-in' printed although chips remain, or missing although the stack is empty",
    # uncalled bet
    "wrong-uncalled-amount": "the uncalled bet returned is not the excess over the largest call",
    "wrong-uncalled-player": "the uncalled bet is returned to the wrong player",
    "missing-uncalled-bet": "a bet was not fully called but no uncalled bet was returned",
    # pots
    "wrong-total-pot": "the summary's total pot is not the sum of all contributions",
    "wrong-side-pot": "the summary's main/side pots are not the pots the contributions make, or no rake "
    "allocation a room uses explains them (each pot net of its share of the rake)",
    "negative-rake": "the collected amounts exceed the total pot",
    "wrong-rake": "the printed rake is not total pot minus everything collected (and kept by the room for a "
    "player who cashed out)",
    "wrong-cash-out": "an all-in cash out by a player who folded, twice, for nothing, when the betting did not end "
    "before the river with a player all-in, or worth more than the pots the player can win",
    "rake-in-tournament": "a tournament or play-money hand takes rake",
    # settlement
    "wrong-collected-amount": "a player collects a different amount than the pot/half they won",
    "wrong-winner": "a pot (or half) is awarded to a player who did not win it",
    "halves-swapped": "the high and low halves of a pot were given to the wrong sides",
    "low-awarded-without-qualifier": "a low half is awarded although no shown hand has an 8-or-better low",
    "unknown-pot": "a collect line names a pot that does not exist",
    "no-low-line-mismatch": "'No low hand qualified' printed although a low qualified, or missing when none did",
    "wrong-hand-description": "a shown hand's description differs from the evaluator's",
    "show-after-fold": "a folded player shows at showdown",
    "summary-mismatch": "a summary seat line disagrees with the body (seat, won amount, outcome, cards)",
    "cancelled-hand-with-pot": "a cancelled hand awards chips",
}
"""Error codes: a hand with any of these is ``invalid``."""

WARNINGS: dict[str, str] = {
    "courchevel-2016-board": "the April 2016 client bug printed a malformed Courchevel flop (board taken from later lines)",
    "mucked-unknown-cards": "a player reached showdown and mucked without their cards being known",
    "parser-warning": "a warning the parser attached to the hand",
    "unevaluated-show": "a shown hand could not be evaluated (incomplete board)",
    "undecodable-bytes": "bytes of the hand's text that neither UTF-8 nor cp1252 can read are kept as U+FFFD",
}
"""Warning codes: reported, never make a hand invalid."""

ALL_CODES: dict[str, str] = {**ERRORS, **WARNINGS}


def render_docs() -> str:
    """``docs/referee-codes.md``: every code a user can meet, generated so it never drifts."""
    lines = [
        "# Referee codes",
        "",
        "Generated from `hhparse/engine/codes.py` by `python -m hhparse.engine.codes`; do not edit.",
        "",
        "Errors make a hand **invalid** (it goes to the `rejects` table with its text). Warnings are",
        "reported but never reject a hand. Codes are stable: scripts may rely on them.",
        "",
        "## Errors",
        "",
        "| code | meaning |",
        "|---|---|",
    ]
    lines += [f"| `{code}` | {meaning} |" for code, meaning in sorted(ERRORS.items())]
    lines += ["", "## Warnings", "", "| code | meaning |", "|---|---|"]
    lines += [f"| `{code}` | {meaning} |" for code, meaning in sorted(WARNINGS.items())]
    lines += [
        "",
        "## Parse errors",
        "",
        "A hand the parser could not read never reaches the referee: it goes to the `rejects` table",
        "with one of these codes, its file, line and whole text (`unparsed`, or `unsupported` for",
        "another game or a summary file). The format conventions the parser and the referee accept",
        "are listed, with the real hand that settled each, in `docs/format-conventions.md`.",
        "",
        "| code | meaning |",
        "|---|---|",
    ]
    lines += [f"| `{code}` | {meaning} |" for code, meaning in sorted(PARSE_CODES.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).resolve().parents[2] / "docs" / "referee-codes.md"
    target.write_text(render_docs(), encoding="utf-8")
    print(f"wrote {target}")
