"""The compiled LALR driver (``hhparse.lalr``) runs lark's automaton exactly, or declines.

A small line grammar of its own (not the product's) so that what is tested is the driver:
callbacks in lark's order with lark's children, ignored lines counted, and everything the
driver cannot or must not run — no matching terminal, a token with no action, input ending
early, a lark built with a post-lexer — rejected or refused, never read differently.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from hhparse.lalr import MANY, LineParser, LineToken, Rejected, _cover
from hhparse.larkglue import _guard_shapes, _line_shapes, _line_term, line_parser, make_parser

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


class AloneRecorder(Recorder):
    """A transformer whose line rules read their token alone (``read_item``, ``read_other``),
    as the product's builder does: the rule's method calls it with its second child."""

    def item(self, c: list[Any]) -> str:
        return self.read_item(c[1])

    def read_item(self, tok: Any) -> str:
        self.calls.append(("item", [(tok.type, tok.value, tok.line)]))
        return "item"

    def other(self, c: list[Any]) -> str:
        return self.read_other(c[1])

    def read_other(self, tok: Any) -> str:
        self.calls.append(("other", [(tok.type, tok.value, tok.line)]))
        return "other"


@pytest.mark.parametrize(
    "text", ["head 1\nend\n", "head 1\nab 2\n\n\ncd 3\nwhat!\nend\n", "\n\nhead 7\nx 1\nend\n\n"]
)
def test_line_callbacks_are_called_without_children_as_lark_calls_the_rules(text: str) -> None:
    """With ``lines`` the driver calls a line rule's token callback instead of the rule's
    method with ``[previous, token]``: the same calls in the same order, the same result; a
    callback offered for a rule that is not one of two symbols (``head``, ``start``) or whose
    method has another name is not used."""
    rec = AloneRecorder()
    lark = make_parser(GRAMMAR, rec, cython=False)
    lines = {"item": rec.read_item, "other": rec.read_other, "head": rec.read_item, "none": rec.read_item}
    driver = line_parser(lark, lines=lines)
    assert driver is not None
    used = {rule[2].__name__: f for rule, f in zip(driver.rules, driver.lines, strict=True)}
    assert used == {"head": None, "none": None, "item": rec.read_item, "other": rec.read_other, "start": None}
    expected, lark_calls, got, calls = _both(text, (rec, lark, driver))
    assert got == expected
    assert calls == lark_calls


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["head 1", "ab 2", "what!", "end", "", "x 1", "AB", "head 2"]), max_size=8))
def test_a_line_reduced_at_once_reads_as_lark_reads(lines: list[str]) -> None:
    """A line whose state reduces it whatever comes next is reduced by its callback at once
    (the next line still lexed in that state, as lark lexes it): on any text the driver takes,
    the same calls in the same order and the same result as lark; what lark refuses it refuses."""
    rec = AloneRecorder()
    lark = make_parser(GRAMMAR, rec, cython=False)
    driver = line_parser(lark, lines={"item": rec.read_item, "other": rec.read_other})
    assert driver is not None and any(rule >= 0 for rule in driver._at_once)
    text = "".join(line + "\n" for line in lines)
    expected, lark_calls, got, calls = _both(text, (rec, lark, driver))
    if isinstance(expected, type):
        assert got is Rejected
    else:
        assert got == expected and calls == lark_calls


def test_a_line_callback_is_only_for_a_rule_of_two_symbols() -> None:
    rec = Recorder()
    driver = line_parser(make_parser(GRAMMAR, rec, cython=False))
    assert driver is not None
    wrong = [rec.item if n != 2 else None for n, _, _ in driver.rules]
    with pytest.raises(ValueError):
        LineParser(
            driver.actions, driver.rules, driver.lexers, driver.ignore, driver.start, driver.end, wrong
        )


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
        driver.actions, driver.rules, [None] * len(driver.lexers), driver.ignore, driver.start, driver.end
    )
    with pytest.raises(Rejected):
        blind.parse("head 1\nend\n")
    assert rec.calls == []


def test_the_numbered_tables_hold_larks_actions_and_nothing_else() -> None:
    """The loop reads the tables with symbols numbered (``_table``, ``_rules``, each terminal's
    ``id``): every state and symbol reads the action of ``actions``, every other cell none, each
    rule keeps its length and callback with its origin's number, and a skipped terminal has none;
    on the product's grammar too."""
    from hhparse import lalr, parsing

    rec = Recorder()
    simple = line_parser(make_parser(GRAMMAR, rec, cython=False))
    parsing._parser()
    product = parsing._DRIVER
    for driver in (simple, product):
        assert driver is not None
        numbered: dict[int, str] = {}
        for lexer in driver._lexers:
            if lexer is None:
                continue
            for group in [*lexer.by_first.values(), lexer.other]:
                for entry in group:
                    if entry.name in driver.ignore:
                        assert entry.id == -1
                    else:
                        assert numbered.setdefault(entry.id, entry.name) == entry.name
        names = {name for row in driver.actions for name in row}
        assert set(numbered.values()) <= names
        ids = {name: i for i, name in numbered.items()}
        for state, row in enumerate(driver.actions):
            dense = driver._table[state]
            assert sum(cell != lalr.NO_ACTION for cell in dense) == len(row)
            for symbol, action in row.items():
                if symbol in ids:
                    assert dense[ids[symbol]] == action
        for (length, origin, callback), (n, number, cb, _) in zip(driver.rules, driver._rules, strict=True):
            assert (n, cb) == (length, callback)
            for state, row in enumerate(driver.actions):
                if origin in row:
                    assert driver._table[state][number] == row[origin]


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


def test_a_line_lexes_by_its_state_as_lark_does() -> None:
    """``head 1`` is HEAD where the hand starts and ITEM after it; blank lines are ignored; the
    last line may lack its newline (then no terminal of the driver matches it). Parsed again and
    again with one driver, every call matches lark's."""
    rec = Recorder()
    lark = make_parser(GRAMMAR, rec, cython=False)
    driver = line_parser(lark)
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


def test_the_token_carries_the_match_of_its_terminal() -> None:
    """The driver matches each line once, with its terminal's regex (``fields``: the same regex
    with named groups), and hands that match to the callback in the token."""
    seen: list[Any] = []

    class Fields(Recorder):
        def item(self, c: list[Any]) -> str:
            seen.append(c[1])
            return super().item(c)

    rec = Fields()
    grammar = GRAMMAR.replace(r"ITEM.1: /[a-z]+ \d+\n/", r"ITEM.1: /(?:[a-z]+) (?:\d+)\n/")
    driver = line_parser(
        make_parser(grammar, rec, cython=False), fields={"ITEM": "(?P<w>[a-z]+) (?P<n>\\d+)\n"}
    )
    assert driver is not None
    assert driver.parse("head 1\nab 22\nend\n") == "start"
    (tok,) = seen
    assert isinstance(tok, LineToken) and tok.match is not None
    assert tok.match.group("w", "n") == ("ab", "22") and tok.match.group(0) == tok.value == "ab 22\n"


def test_fields_of_another_regex_are_not_taken() -> None:
    """A ``fields`` regex that is not lark's own (groups aside) is ignored: lark's regex lexes."""
    rec = Recorder()
    driver = line_parser(
        make_parser(GRAMMAR, rec, cython=False), fields={"ITEM": r"(?P<w>[a-z]*) (?P<n>\d+)\n"}
    )
    assert driver is not None
    term = next(t for row in driver.lexers if row for t in row if t[0] == "ITEM")
    assert term[1]("ab 2\n") is not None and term[1]("ab 2\n").re.groups == 0  # type: ignore[union-attr]


MULTI = r"""
start: head items END
head: HEAD                -> head
items:                    -> none
     | items ITEM         -> item
HEAD.3: /head \d+\n/
END.2: /end\n/
ITEM.1: /[a-z]+ \d+\n(?:more\n)?/
"""


def test_a_terminal_that_may_span_lines_leaves_its_states_to_lark() -> None:
    rec = Recorder()
    lark = make_parser(MULTI, rec, cython=False)
    driver = line_parser(lark)
    assert driver is not None
    assert any(row is None for row in driver.lexers)
    expected = lark.parse("head 1\nab 2\nmore\nend\n")
    rec.calls.clear()
    with pytest.raises(Rejected):
        driver.parse("head 1\nab 2\nmore\nend\n")
    assert expected == "start"


@pytest.mark.parametrize(
    ("regex", "prefix", "needles"),
    [
        (r"[^\n]+: folds(?: \[[^\n]*\])?\n", "", (": folds",)),
        (r"Seat (?P<seat>\d+): (?P<rest>[^\n]+)\n", "Seat ", (": ",)),
        (r"(?=\*\*\* (?:FLOP|TURN) \*\*\* \[[^\n]*\]\n)(?![^\n]* said\n)[^\n]*\n", "*** ", (" *** [",)),
        (r"(?:ab|cd)xy\n", "", ("xy\n",)),
        (r"(?:abc|def)x\n", "", ("abc", "def")),
        (r"[^\n]+ (?:leaves|joins the table)\n", "", ("joins the table", "leaves")),
        (r"x(?:abc)+y\n", "x", ("abc",)),
        (r"(?i:abc)\n", "", ()),
        # a text every text of a choice holds is tested once instead of them
        (r"[^\n]+ for (?:eliminating|splitting the elimination of) [^\n]+\n", "", ("eliminati",)),
        (r"[^\n]+ (?:is connected|is disconnected)\n", "", ("connected",)),
    ],
)
def test_the_texts_a_line_must_hold_are_read_off_the_regex(
    regex: str, prefix: str, needles: tuple[str, ...]
) -> None:
    term = _line_term("T", regex, None, 0)
    assert term is not None and term[2:4] == (prefix, needles)


def test_a_terminal_ahead_of_other_shapes_skips_them_on_lines_that_cannot_be_them() -> None:
    """``(?=A)(?!B)``: on a line holding none of B's texts, the regex without the look-ahead
    (``fast``) is used, and it matches exactly where the whole regex does."""
    term = _line_term("T", r"(?=(?P<n>[a-z]+) \d+\n)(?![^\n]* 7\n|[^\n]*x[^\n]* said\n)[^\n]*\n", None, 0)
    assert term is not None
    _, match, _, _, fast, guard_prefix, guard_needles = term
    assert fast is not None and guard_prefix == "" and guard_needles == (" 7\n", " said\n")
    for line in ["ab 1\n", "ab 7\n", "ab 12\n", "x said\n", "ab\n"]:
        whole = match(line)
        if not any(g in line for g in guard_needles):
            quick = fast(line)
            assert (quick is None) == (whole is None)
            assert quick is None or whole is None or quick.group("n") == whole.group("n")
    assert match("ab 7\n") is None and fast("ab 7\n") is not None


@pytest.mark.parametrize(
    "regex",
    [
        r"a\nb\n",
        r"a[\s]*\n",
        r"a.*\n",
        r"^a\n",
        r"a$\n",
        r"a(?=\nb)[^\n]*\n",
        r"(?s:a.)\n",
        r"a\n?",
        r"(a)\1\n",
    ],
)
def test_terminals_that_may_reach_past_their_line_are_refused(regex: str) -> None:
    assert _line_term("T", regex, None, 0) is None


_PIECES = st.sampled_from(["a", "b", " ", ": ", "ab", "bab", "is ", "the", "x", "\n"])
_NEEDLES = st.lists(st.lists(_PIECES, min_size=1, max_size=6).map("".join), min_size=1, max_size=MANY + 8)


@settings(max_examples=200, deadline=None)
@given(_NEEDLES.map(tuple), st.sets(st.lists(_PIECES, max_size=4).map("".join), max_size=4))
def test_a_cover_is_held_by_every_needle_and_is_fewer(needles: tuple[str, ...], others: set[str]) -> None:
    """The texts tested before many needles: every needle holds one of them (so a line without
    them holds no needle), and they are fewer than the needles; or there are none."""
    cover = _cover(needles, others)
    assert not cover or (len(cover) < len(needles) and all(any(c in n for c in cover) for n in needles))
    if len(needles) < MANY:
        assert cover == ()


def test_a_cover_is_chosen_once_for_the_same_needles_and_others() -> None:
    """Regression: every lexer state asked for its terminals' covers anew, and choosing them
    became the parser's costliest build step (each process paid it at start-up); the same needles
    among the same others now get the cover chosen the first time (the very same tuple)."""
    needles = ("is connected", "is disconnected", "is sitting out", "sits out", "has returned")
    first = _cover(needles, {": calls ", ": folds"})
    assert first and len(first) < len(needles)
    assert _cover(needles, {": folds", ": calls "}) is first
    assert _cover(needles, {": bets "}) == _cover(needles, {": bets "})


def test_every_line_rule_of_the_product_is_called_with_its_token_alone() -> None:
    """The builder offers a token callback for each rule ``items: items LINE`` of the grammar
    (``hhparse.parsing._LINE_RULES``) and the driver takes every one: a rule renamed in the
    grammar or the builder would otherwise fall back to the children list without a word."""
    from hhparse import parsing

    parsing._parser()
    driver = parsing._DRIVER
    assert driver is not None
    taken = {
        rule[2].__name__ for rule, line in zip(driver.rules, driver.lines, strict=True) if line is not None
    }
    assert taken == set(parsing._LINE_RULES)
    for (length, _, callback), line in zip(driver.rules, driver.lines, strict=True):
        if line is not None:
            assert length == 2 and line.__name__ == f"read_{callback.__name__}"


def _ends(regex: str) -> list[tuple[str, str, bool, tuple[str, ...]]]:
    """The shapes of ``regex``, each with the characters of a small alphabet it may end with."""
    return [
        (prefix, "".join(c for c in 'abcs]).0129!"' if ends is None or ends(c)), empty, needles)
        for prefix, ends, empty, needles in _line_shapes(regex, 0)
    ]


def test_the_ways_a_line_may_end_are_read_off_the_regex() -> None:
    """Each alternative that decides how the line ends is a shape with its last characters
    and its texts; a look-ahead reading the whole line says what the line is; what cannot be
    told apart is any character."""
    assert _ends(r"(?P<name>[^\n]+): folds(?: \[(?P<c>[a-z]+)\])?\n") == [("", "s]", False, (": folds",))]
    assert _ends(r"[^\n]+ (?:has returned|sits out|joins #\d+|says [^\n]*|is a|asks)\n") == [
        ("", "", False, (" has returned",)),
        ("", "", False, (" sits out",)),
        ("", "0129", False, (" joins #",)),
        ("", 'abcs]).0129!"', False, (" says ",)),
        ("", "a", False, (" is a",)),
        ("", "s", False, (" asks",)),
    ]
    # [^\n]* at the end may be empty: then the line ends with what comes before it
    assert _ends(r"x(?:ab)*\n") == [("x", "b", False, ("x",))]
    assert _ends(r"(?=\*\*\* (?P<n>[A-Z]+) \[[^\n]*\]\n)(?!a\n)[^\n]*\n")[0][1] == "]"
    assert _ends(r"\n") == [("", "", True, ())]
    assert _line_shapes(r"(?i:ab)\n", 0) == ()


_LINE_PIECES = st.sampled_from(
    ["a", "b", "c", "s", " ", ": ", "folds", "]", "[a", ")", "0", "9", "!", "is ", '"']
)
_SHAPED = [
    r"(?P<n>[^\n]+): folds(?: \[[a-c ]+\])?\n",
    r"[^\n]+ (?:is a|sits b|joins #\d+|says [^\n]*|: is c\))\n",
    r"(?=[^\n]*(?<=s|\))\n)(?:[^\n]+ (?:is a|folds)|a[^\n]*\))\n",
    r"(?=(?P<x>[a-c]+) [0-9]+\n)(?![^\n]*9\n)[^\n]*\n",
    r"a(?:b|c)*\n",
    r"[^\n]*?(?:\]|!|\d)\n",
    r"(?:a|b: )?[^\n]*\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE_PIECES, max_size=8).map(lambda p: "".join(p) + "\n"))
def test_a_line_a_terminal_matches_is_one_of_its_shapes(line: str) -> None:
    """Whatever the line, a terminal's regex matching it means one of its shapes fits its first
    and last characters and the line holds one of that shape's texts (the driver leaves the
    terminal out, or tests only those texts, on a line no shape fits)."""
    from hhparse.lalr import _fits

    for regex in _SHAPED:
        shapes = _line_shapes(regex, 0)
        assert shapes
        m = re.match(regex, line)
        if m is None:
            continue
        last = line[-2] if len(line) >= 2 else ""
        fit = [s for s in shapes if _fits(s, line[0], last)]
        assert fit, (regex, line)
        assert any(not s[3] or any(n in line for n in s[3]) for s in fit), (regex, line)


def test_a_whole_line_terminal_is_told_by_its_text() -> None:
    """A terminal that is one whole line is told by comparing texts, with the match its regex
    makes of that line (made once)."""
    from hhparse.lalr import _Entry

    term = _line_term("T", r"\*\*\* HOLE CARDS \*\*\*\n", None, 0)
    assert term is not None
    entry = _Entry(term, (), ())
    assert entry.line == "*** HOLE CARDS ***\n"
    m = entry.lexes("*** HOLE CARDS ***\n")
    assert m is not None and m.group(0) == "*** HOLE CARDS ***\n" and m.span() == (0, 19)
    assert entry.lexes("*** HOLE CARDS *** [x]\n") is None and entry.lexes("x\n") is None
    other = _line_term("U", r"\*\*\* (?:FIRST )?SHOW DOWN \*\*\*\n", None, 0)
    assert other is not None and _Entry(other, (), ()).line == ""


_GUARDED = r"(?=(?P<n>[a-z]+) \d+\n)(?![^\n]* 7\n|[^\n]*x[^\n]* said\n|[^\n]* (?:is 8|was 9)\n)[^\n]*\n"


def test_the_shapes_a_look_ahead_refuses_are_read_off_the_regex() -> None:
    assert [(p, n) for p, _, _, n in _guard_shapes(_GUARDED, 0)] == [
        ("", (" 7",)),
        ("", (" said",)),
        ("", (" is 8",)),
        ("", (" was 9",)),
    ]
    assert _guard_shapes(r"[^\n]*\n", 0) == ()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "x", " ", "7", "8", "9", "1", " said", "is ", "was "]), max_size=8)
)
def test_a_line_no_refused_shape_may_end_as_is_matched_without_the_look_ahead(pieces: list[str]) -> None:
    """Where none of the shapes a terminal's negative look-ahead refuses may end as the line
    ends, the driver matches it with the regex without the look-ahead, untested; elsewhere it
    tests only the texts of the shapes that may: either way, as the whole regex matches."""
    from hhparse.lalr import _Entry, _Group

    term = _line_term("T", _GUARDED, None, 0)
    assert term is not None and term[4] is not None
    line = "".join(pieces) + "\n"
    group = _Group([_Entry(term, (), ())], "", {}, {"T": _guard_shapes(_GUARDED, 0)})
    (entry,) = group.for_last(line[-2] if len(line) >= 2 else "")
    whole, got = term[1](line), entry.lexes(line)
    assert (whole is None) == (got is None)
    assert whole is None or got is None or whole.groups() == got.groups()
    assert group.for_last("2")[0].unguarded and not group.for_last("7")[0].unguarded
