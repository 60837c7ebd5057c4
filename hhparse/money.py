"""Amounts as printed by PokerStars <-> integers in the hand's smallest unit.

Shared by the parser and the renderer so both agree on one rule, and never through a float:
an amount written with a currency symbol or with decimals is in currency (x100: cents); a bare
integer is chips (tournament chips, play money) and is taken as is.
"""

from __future__ import annotations

from typing import Final

SYMBOLS = "$€£₹¥"

AMOUNT_LIMIT: Final = 10**15
"""Every amount is below this many minor units (cents or chips): 10^13 dollars, far beyond any
real stake, while a sum of a thousand such amounts still fits an ``int64`` and the ``DECIMAL(18,
x)`` of the warehouse views. A hand with a larger amount is rejected (``amount-out-of-range``)."""

OUT_OF_RANGE: Final = "amount out of range"
"""How the message of an amount beyond :data:`AMOUNT_LIMIT` starts (the parser's code for it)."""


def parse_amount(text: str) -> int:
    """``"$1,234.56"`` -> 123456; ``"1500"`` -> 1500; ``"200.00"`` -> 20000.

    Raises ValueError on anything else, or on an amount of :data:`AMOUNT_LIMIT` minor units or
    more (the caller turns it into a located ParseError).
    """
    value = _parse_amount(text)
    if value >= AMOUNT_LIMIT:
        raise ValueError(f"{OUT_OF_RANGE}: {text[:40]!r} (at most {AMOUNT_LIMIT - 1:,} minor units)")
    return value


def _parse_amount(text: str) -> int:
    s = text
    symbol = bool(s) and s[0] in SYMBOLS
    if symbol:
        s = s[1:]
    s = s.replace(",", "")
    if "." in s:
        whole, _, frac = s.partition(".")
        if not whole.isdigit() or not frac.isdigit() or len(frac) > 2:
            raise ValueError(f"bad amount {text[:40]!r}")
        if len(whole.lstrip("0")) > 17:  # (far beyond the limit: no need to convert it)
            return AMOUNT_LIMIT
        return int(whole) * 100 + int(frac.ljust(2, "0"))
    if not s.isdigit():
        raise ValueError(f"bad amount {text[:40]!r}")
    if len(s.lstrip("0")) > 17:
        return AMOUNT_LIMIT
    return int(s) * 100 if symbol else int(s)


def format_amount(value: int, symbol: str) -> str:
    """How PokerStars prints an amount in an action line: ``$1``, ``$0.70``; chips ``1500``."""
    if not symbol:
        return str(value)
    whole, cents = divmod(value, 100)
    return f"{symbol}{whole}" if cents == 0 else f"{symbol}{whole}.{cents:02d}"


def format_currency(value: int, symbol: str) -> str:
    """Always two decimals (``$5.00``, or ``200.00`` without a symbol): buy-ins and prizes."""
    whole, cents = divmod(value, 100)
    return f"{symbol}{whole}.{cents:02d}"
