"""The compiled LALR driver (``hhparse.lalr``) runs lark's automaton exactly, or declines.

A small line grammar of its own (not the product's) so that what is tested is the driver:
callbacks in lark's order with lark's children, ignored lines counted, and everything the
driver cannot or must not run — no matching terminal, a token with no action, input ending
early, a lark built with a post-lexer — rejected or refused, never read differently.
"""

from __future__ import annotations

from typing import Any

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from hhparse.lalr import LineParser, LineToken, Rejected
from hhparse.larkglue import line_parser, make_parser

GRAMMAR = r"""
start: head items END
head: HEAD                -> head
items:                    -> none
     | items ITEM         -> item
     | items OTHER        -> other
HEAD.3: /head \d+\n/
END.2: /end\n/
ITEM.1: /[a-z]+ \d+\n/
OTHER: /[^\n]*!\n/
BLANK: /\n/
%ignore BLANK
"""


class Recorder:
    """Inline transformer recording each call with what it saw of its tokens."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Any]]] = []

    def _seen(self, name: str, c: list[Any]) -> str:
        self.calls.append((name, [(x.type, x.value, x.line) if hasattr(x, "line") else x for x in c]))
        return name

    def head(self, c: list[Any]) -> str:
        return self._seen("head", c)

    def none(self, c: list[Any]) -> str:
        return self._seen("none", c)

    def item(self, c: list[Any]) -> str:
        return self._seen("item", c)

    def other(self, c: list[Any]) -> str:
        return self._seen("other", c)

    def start(self, c: list[Any]) -> str:
        return self._seen("start", c)


def _both(
    text: str, built: tuple[Recorder, Lark, LineParser] | None = None
) -> tuple[Any, list[Any], Any, list[Any]]:
    """(lark's result, lark's calls, the driver's result, the driver's calls); ``built``: a
    recorder, the lark calling it and a driver over that lark, to reuse (else built here)."""
    if built is None:
        rec = Recorder()
        lark = make_parser(GRAMMAR, rec, cython=False)
        driver = line_parser(lark)
    else:
        rec, lark, driver = built
        rec.calls.clear()
    assert driver is not None
    try:
        expected: Any = lark.parse(text)
    except UnexpectedInput as e:
        expected = type(e)
    lark_calls = list(rec.calls)
    rec.calls.clear()
    try:
        got: Any = driver.parse(text)
    except Rejected:
        got = Rejected
    return expected, lark_calls, got, rec.calls


@pytest.mark.parametrize(
    "text",
    [
        "head 1\nend\n",
        "head 1\nab 2\n\n\ncd 3\nwhat!\nend\n",
        "\n\nhead 7\nx 1\nend\n\n",
    ],
)
def test_driver_calls_back_as_lark_does(text: str) -> None:
    expected, lark_calls, got, calls = _both(text)
    assert got == expected == "start"
    assert calls == lark_calls


@pytest.mark.parametrize(
    "text",
    [
        "head 1\nab 2\n",  # input ends before END
        "head 1\nAB 2\nend\n",  # no terminal matches
        "ab 2\nend\n",  # a token with no action in the start state
        "head 1\nend\nab 2\n",  # a line after the end
        "",
    ],
)
def test_driver_rejects_what_lark_rejects(text: str) -> None:
    expected, _, got, _ = _both(text)
    assert got is Rejected
    assert isinstance(expected, type) and issubclass(expected, UnexpectedInput)


def test_a_state_without_scanner_is_rejected_not_guessed() -> None:
    rec = Recorder()
    driver = line_parser(make_parser(GRAMMAR, rec, cython=False))
    assert driver is not None
    blind = LineParser(
        driver.actions, driver.rules, [None] * len(driver.scanners), driver.ignore, driver.start, driver.end
    )
    with pytest.raises(Rejected):
        blind.parse("head 1\nend\n")
    assert rec.calls == []


def test_no_driver_for_a_lark_it_cannot_run_exactly() -> None:
    class Post:
        always_accept = ()

        def process(self, stream: Any) -> Any:
            return stream

    assert line_parser(Lark(GRAMMAR, parser="lalr", postlex=Post())) is None
    assert line_parser(object()) is None


def test_line_token_reads_like_a_lark_token() -> None:
    tok = LineToken("ITEM", "ab 2\n", 3)
    assert (tok.type, tok.value, tok.line) == ("ITEM", "ab 2\n", 3)
    assert "ITEM" in repr(tok)


@pytest.mark.parametrize("memo", [1, 2, 64])
def test_remembered_lines_lex_as_the_regex_does_in_every_state(memo: int) -> None:
    """``head 1`` is HEAD where the hand starts and ITEM after it; blank lines are ignored; the
    last line may lack its newline (then it is never remembered). Parsed again and again with
    one driver (``memo`` entries kept), every call matches lark's."""
    rec = Recorder()
    lark = make_parser(GRAMMAR, rec, cython=False)
    driver = line_parser(lark, line_memo=memo)
    assert driver is not None
    texts = [
        "head 1\nhead 1\nend\n",
        "head 1\nab 2\n\nhead 1\nend\n",
        "head 1\nhead 1\nx!\nend\n",
        "head 1\nend",
        "head 1\nhead 1\nhead 1!\nend\n\n",
        "ab 2\nhead 1\nend\n",
    ]
    for _ in range(3):
        for text in texts:
            expected, lark_calls, got, calls = _both(text, (rec, lark, driver))
            if isinstance(expected, type):
                assert got is Rejected
            else:
                assert (got, calls) == (expected, lark_calls)
    assert 0 < len(driver.memo) <= memo
