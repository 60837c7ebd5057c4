"""Card text helpers shared by the evaluator and the referee.

Cards stay the 2-character strings PokerStars prints (``"Th"``, ``"As"``) everywhere in the model,
so these helpers only validate and split text; the evaluator converts to integers internally.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "ensure_distinct",
    "is_card",
    "parse_cards",
    "rank_index",
    "suit_index",
    "validate_card",
]

RANKS = "23456789TJQKA"
"""Ranks in ascending order; a rank's index is its high-hand strength (Deuce = 0, Ace = 12)."""

SUITS = "cdhs"
"""Suits as PokerStars prints them (suits never rank)."""

FULL_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
"""The 52 cards, Deuce of clubs first."""

_DECK_SET = frozenset(FULL_DECK)


def is_card(text: str) -> bool:
    """True when ``text`` is exactly one card as PokerStars writes it (case-sensitive)."""
    return text in _DECK_SET


def validate_card(text: str) -> str:
    """Return ``text`` unchanged, or raise ``ValueError``: one place for the error wording."""
    if text not in _DECK_SET:
        raise ValueError(f"not a card: {text!r} (expected rank in {RANKS!r} then suit in {SUITS!r})")
    return text


def rank_index(card: str) -> int:
    """0 for a Deuce ... 12 for an Ace."""
    return RANKS.index(validate_card(card)[0])


def suit_index(card: str) -> int:
    """Index of the suit in :data:`SUITS`."""
    return SUITS.index(validate_card(card)[1])


def parse_cards(text: str) -> tuple[str, ...]:
    """Split ``"Ah 5d"`` (or a bracketed ``"[Ah 5d]"``) into validated cards.

    Tokens longer than two characters are split every two characters because the PokerStars client
    has printed glued cards (``[2s3d 3c]``, April 2016); whether that is *acceptable* is the
    parser's decision, this only reads the cards.
    """
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    out: list[str] = []
    for token in body.split():
        if len(token) % 2:
            raise ValueError(f"not a card: {token!r} in {text!r}")
        out.extend(validate_card(token[i : i + 2]) for i in range(0, len(token), 2))
    return tuple(out)


def ensure_distinct(cards: Iterable[str]) -> None:
    """Raise ``ValueError`` if a card repeats: one deck means every dealt card is unique.

    The evaluator does not check this on its hot path; callers that take cards from untrusted
    text (the referee) call this once per hand.
    """
    seen: set[str] = set()
    for c in cards:
        validate_card(c)
        if c in seen:
            raise ValueError(f"card dealt twice: {c}")
        seen.add(c)
