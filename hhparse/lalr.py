"""A compiled LALR(1) driver for the line grammar, run on the tables lark built from it.

Why: the grammar (``grammars/pokerstars.lark``) makes every line one token and one reduction, so
what a hand costs in lark's own parser loop is per-line bookkeeping around two C-level steps (the
state's terminal regex, the builder's callback): token objects with nine positions, a lexer
thread, a generator, a parser-state object, exception-driven look-ups. This module runs the same
LALR automaton — lark's parse table, lark's per-state terminal regexes (its contextual lexer's
scanners), lark's callbacks, lark's rules — in a loop that mypyc compiles to C (``hatch_build.py``),
with a two-field token: faster than lark-cython in the import (``docs/performance.md``).

It is a fast path, not a second parser. It accepts exactly what lark accepts, with the same
callbacks in the same order; everything else (no terminal matches, no action for a token, a
lexer state lark had to split, a terminal with a callback) raises :class:`Rejected` and the
caller hands the text to lark itself, whose exception then says where and why. Nothing here
knows the grammar, lark or the model: :func:`hhparse.larkglue.line_parser` reads the tables out
of a built lark parser and ``tests/test_parser_modes.py`` checks both read the corpus alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

__all__ = ["END", "LineParser", "LineToken", "Rejected"]

#: The end-of-input terminal of lark's tables.
END: Final = "$END"

Scanner = Callable[[str, int], "re.Match[str] | None"]
"""A lexer state's terminal regex (``Pattern.match``): the first terminal that matches wins."""

Callback = Callable[[list[Any]], Any]


class LineToken:
    """One token: its terminal, its text and its 1-based line — what callbacks read of a token
    (lark's :class:`~lark.lexer.Token` has these three too, so callbacks work with both)."""

    __slots__ = ("line", "type", "value")

    def __init__(self, type: str, value: str, line: int) -> None:
        self.type = type
        self.value = value
        self.line = line

    def __repr__(self) -> str:
        return f"LineToken({self.type!r}, {self.value!r}, {self.line})"


class Rejected(Exception):
    """The text is not in the language, or not in the part this driver runs: ask lark."""


class LineParser:
    """LALR(1) over lark's tables.

    ``actions[state]`` maps a symbol to the next state (shift, ``>= 0``) or to ``~i`` for a
    reduction by ``rules[i]`` = (length of the expansion, origin symbol, callback);
    ``scanners[state]`` is that state's terminal regex or None when the driver cannot lex the
    state exactly like lark (then any text reaching it is rejected); ``ignore`` are the
    terminals lark skips.

    ``line_memo`` (entries; 0 = off) remembers which terminal each whole line was in the state
    it was lexed in, and takes that terminal without the regex when the same line comes back in
    the same state: hand histories repeat their lines ("X: folds", summary seat lines), about
    half of them in real files, and a dict look-up costs a fifth of the alternation. Only for
    grammars whose terminals never look past the line they match (no look-around across a
    ``"\n"``): then a line's terminal depends on the line and the state alone. A token that is
    not exactly one line (several lines, part of one) is always lexed by the regex.
    """

    def __init__(
        self,
        actions: list[dict[str, int]],
        rules: list[tuple[int, str, Callback]],
        scanners: list[Scanner | None],
        ignore: frozenset[str],
        start: int,
        end: int,
        line_memo: int = 0,
    ) -> None:
        self.actions = actions
        self.rules = rules
        self.scanners = scanners
        self.ignore = ignore
        self.start = start
        self.end = end
        self.line_memo = line_memo
        self.memo: dict[str, tuple[int, str]] = {}

    def parse(self, text: str) -> Any:
        """The value of the start rule's callback for ``text``; raises :class:`Rejected`."""
        scanners = self.scanners
        ignore = self.ignore
        states: list[int] = [self.start]
        values: list[Any] = []
        memo = self.memo
        limit = self.line_memo
        pos = 0
        line = 1
        size = len(text)
        while pos < size:
            state = states[-1]
            eol = text.find("\n", pos) + 1 if limit else 0
            if eol:  # a whole line: seen before in this state, its terminal is known
                value = text[pos:eol]
                known = memo.get(value)
                if known is not None and known[0] == state:
                    kind = known[1]
                    pos = eol
                    if kind not in ignore:
                        self._feed(states, values, kind, LineToken(kind, value, line))
                    line += 1
                    continue
            scanner = scanners[state]
            if scanner is None:
                raise Rejected
            m = scanner(text, pos)
            if m is None:
                raise Rejected
            group = m.lastgroup
            if group is None:
                raise Rejected
            kind = group
            end = m.end()
            if eol and end == eol:
                if len(memo) >= limit:
                    memo.clear()
                memo[value] = (state, kind)
            else:
                value = text[pos:end]
            pos = end
            if kind in ignore:
                line += value.count("\n")
                continue
            self._feed(states, values, kind, LineToken(kind, value, line))
            line += value.count("\n")
        return self._feed(states, values, END, None)

    def _feed(self, states: list[int], values: list[Any], kind: str, token: LineToken | None) -> Any:
        """Shift ``token`` after the reductions it calls for (lark's ``feed_token``); at the end
        (``token`` None) reduce to the end state and return the start rule's value."""
        actions = self.actions
        rules = self.rules
        while True:
            action = actions[states[-1]].get(kind)
            if action is None:
                raise Rejected
            if action >= 0:
                if token is None:
                    raise Rejected
                states.append(action)
                values.append(token)
                return None
            length, origin, callback = rules[~action]
            if length == 2:  # ``items: items LINE``, the reduction of nearly every line
                last = values.pop()
                children = [values.pop(), last]
                states.pop()
                states.pop()
            elif length:
                children = values[-length:]
                del states[-length:]
                del values[-length:]
            else:
                children = []
            value = callback(children)
            goto = actions[states[-1]].get(origin)
            if goto is None or goto < 0:
                raise Rejected
            states.append(goto)
            values.append(value)
            if token is None and goto == self.end:
                return value
