"""The ``hands`` list's own filters, checked and turned into the SQL's parameters.

Kept apart from the SQL runner so that a typo (``--door-card Ax``, ``--min-pot lots``) is a usage
error naming the option, never an empty list that looks like an answer.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from hhparse.failures import UsageError

__all__ = ["DOOR_CARD_HELP", "hands_params", "parse_door_card", "parse_min_pot"]

DOOR_CARD_HELP = "a card (Ah), a rank (A, T or 10) or low (A-8) / high (9-K)"

_RANKS = "AKQJT98765432"
_CARD = re.compile(r"^(10|[2-9TJQKA])([shdc])?$", re.IGNORECASE)


def parse_min_pot(text: str | int | Decimal | None) -> tuple[Decimal | None, Decimal | None]:
    """``--min-pot``: an amount in the hand's unit (``20``, ``0.50``) or big blinds (``40bb``).

    Returns (amount, big blinds), one of them None. Raises ValueError on anything else.
    """
    if text is None:
        return None, None
    raw = str(text).strip().lower().replace(" ", "")
    in_bb = raw.endswith("bb")
    number = raw.removesuffix("bb").lstrip("$€£")
    try:
        value = Decimal(number)
    except InvalidOperation:
        raise UsageError(
            f"--min-pot must be an amount like 20 or 0.50, or big blinds like 40bb, not {text!r}"
        ) from None
    if not value.is_finite() or value < 0:
        raise UsageError(f"--min-pot must be a positive amount, not {text!r}")
    return (None, value) if in_bb else (value, None)


def parse_door_card(text: str | None) -> str | None:
    """``--door-card``: the form the SQL compares with (``Ah``, ``A``, ``T``, ``low``, ``high``)."""
    if text is None:
        return None
    raw = text.strip()
    if raw.lower() in ("low", "high"):
        return raw.lower()
    m = _CARD.match(raw)
    if not m:
        raise UsageError(f"--door-card must be {DOOR_CARD_HELP}, not {text!r}")
    rank = "T" if m.group(1) == "10" else m.group(1).upper()
    assert rank in _RANKS
    return rank + (m.group(2).lower() if m.group(2) else "")


def hands_params(
    *,
    min_pot: str | int | Decimal | None = None,
    showdown: bool | None = None,
    all_in: bool | None = None,
    scooped: bool | None = None,
    quartered: bool | None = None,
    door_card: str | None = None,
    limit: int | None = None,
) -> dict[str, object]:
    """The ``hands.sql`` parameters for these filters (None = no filter).

    Raises:
        ValueError: a malformed ``min_pot`` or ``door_card``, or a ``limit`` below 1.
    """
    pot, pot_bb = parse_min_pot(min_pot)
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    return {
        "min_pot": pot,
        "min_pot_bb": pot_bb,
        "showdown": showdown,
        "all_in": all_in,
        "scooped": scooped,
        "quartered": quartered,
        "door_card": parse_door_card(door_card),
        "limit": limit,
    }
