"""The one rule of hhparse's bounded memos.

The parser remembers the texts a file keeps repeating (amounts, summary outcomes, header bodies,
and for lark's own back ends the fields of a line) and the evaluator the boards of a hand: each
memo is a plain ``dict`` read with ``dict.get`` (a hit costs nothing more), and every miss goes
through :func:`remember`, so all of them are bounded the same way. What holds a player's name
(whole seat lines, summary seat lines, lines in the LALR driver) is not remembered: on real
files, with many players, those memos cost more than they saved (``docs/performance.md``).
Compiled by mypyc with its callers.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["remember"]

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], limit: int, key: K, value: V) -> V:
    """Store ``value`` under ``key`` and return it; a memo already holding ``limit`` entries is
    emptied first. Emptying (rather than evicting one entry) keeps the miss path to a few
    instructions, memory flat however large the input, and the texts that repeat come back within
    a few hands."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
