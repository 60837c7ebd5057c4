"""Line shapes of the grammar: amounts, names, time zones, header forms."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_bad_input import GOOD

from hhparse.errors import ParseError
from hhparse.model import Hand, PostBlind, TableEvent, TableEventKind, replace
from hhparse.money import format_amount, parse_amount
from hhparse.parsing import grammar_text, parse_text

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "value"), [("$1,234.56", 123456), ("$1", 100), ("$0.70", 70), ("1500", 1500), ("200.00", 20000)]
)
def test_amounts(text: str, value: int) -> None:
    assert parse_amount(text) == value
    assert parse_amount(format_amount(value, "$" if text.startswith("$") else "")) == value or "." in text


def test_grammar_loads_from_resources() -> None:
    assert "HEADER" in grammar_text() and "AMT" in grammar_text()


@pytest.mark.parametrize(
    ("header", "utc"),
    [
        ("2013/04/11 11:57:19 CT [2013/04/11 12:57:19 ET]", datetime(2013, 4, 11, 16, 57, 19, tzinfo=UTC)),
        ("2013/01/08 22:28:42 CET", datetime(2013, 1, 8, 21, 28, 42, tzinfo=UTC)),
        ("2005/08/21 - 21:44:08 (ET)", datetime(2005, 8, 22, 1, 44, 8, tzinfo=UTC)),
    ],
)
def test_time_zones(header: str, utc: datetime) -> None:
    text = GOOD.replace("2013/03/29 17:16:11 ET", header)
    (h,) = parse_text(text)
    assert isinstance(h, Hand) and h.header.start_utc == utc


@pytest.mark.parametrize(
    "body",
    [
        "Tournament #7817460, $5.00+$0.50 USD Courchevel Pot Limit - Level III (25/50)",
        "{Dazzle's Room} Tournament #743144019, 100+9 8-Game (Courchevel Pot Limit) - Match Round I, Level III (30/60)",
        "Zoom Tournament #1, $24.55+$2.45 USD Mixed Omaha (Courchevel Pot Limit) - Level II (15/30)",
        "Tournament #2, Freeroll  Courchevel Pot Limit - Level I (10/20)",
    ],
)
def test_tournament_headers(body: str) -> None:
    text = GOOD.replace(" Courchevel Pot Limit ($0.10/$0.25 USD)", body).replace("$", "")
    (h,) = parse_text(text)
    assert isinstance(h, Hand), h
    assert h.header.tournament is not None


def test_table_events_and_allin_blind() -> None:
    text = GOOD.replace(
        "Hero: posts big blind $0.25\n",
        'Hero: posts big blind $0.25 and is all-in\nHero said, "gl: hf"\nBob: is sitting out\nBob has timed out while being disconnected\n',
    )
    (h,) = parse_text(text)
    assert isinstance(h, Hand)
    assert h.events[1] == PostBlind(6, "Hero", h.events[1].kind, 25, True)  # type: ignore[union-attr]
    kinds = [e.kind for e in h.events if isinstance(e, TableEvent)]
    assert kinds == [
        TableEventKind.CHAT,
        TableEventKind.IS_SITTING_OUT_COLON,
        TableEventKind.TIMED_OUT_BEING_DISCONNECTED,
    ]


def test_repeated_lines_read_alike_and_keep_their_own_line_numbers() -> None:
    """Seat and summary seat lines are remembered between hands (``parsing._SEAT_LINES``,
    ``_SSEATS``) and the driver remembers each line's terminal: a repeat must read exactly as
    the first reading, with its own file line, and a damaged line must be reported every time."""
    second = GOOD.replace("#1:", "#2:")
    hands = list(parse_text(GOOD + "\n\n" + second + "\n\n" + GOOD.replace("#1:", "#3:")))
    assert all(isinstance(h, Hand) for h in hands)
    first, again, third = hands
    assert isinstance(first, Hand) and isinstance(again, Hand) and isinstance(third, Hand)
    assert first.summary is not None and again.summary is not None
    offset = again.line - first.line
    assert offset == GOOD.count("\n") + 2
    for a, b in zip(first.seats, again.seats, strict=True):
        assert (b.seat, b.player, b.stack, b.line) == (a.seat, a.player, a.stack, a.line + offset)
    for sa, sb in zip(first.summary.seats, again.summary.seats, strict=True):
        assert replace(sb, line=sa.line) == sa and sb.line == sa.line + offset
    for ea, eb in zip(first.events, again.events, strict=True):
        assert replace(eb, line=ea.line) == ea
    bad = GOOD.replace("Seat 1: Hero ($25 in chips)", "Seat 1: Hero ($25.001 in chips)")
    errors = list(parse_text(bad + "\n\n" + bad.replace("#1:", "#2:")))
    assert [type(e).__name__ for e in errors] == ["ParseError", "ParseError"]
    assert all(isinstance(e, ParseError) and "bad amount" in e.message for e in errors)


def test_table_event_fields_come_from_the_grammar_fragments() -> None:
    """Each table event kind is one ``EV_*`` fragment of the grammar, its fields named groups."""
    text = GOOD.replace(
        "Hero: posts big blind $0.25\n",
        "Hero: posts big blind $0.25\nCarl joins the table at seat #5\nHero cashed out the hand for $3.10 | Cash Out Fee $0.03\n"
        "Carl re-buys and receives 1,500 chips for 2 FPP\nBob was removed from the table for failing to post\n"
        "Betting is capped\n",
    )
    (h,) = parse_text(text)
    assert isinstance(h, Hand)
    got = [(e.kind, e.player, e.text, e.seat, e.amount, e.fee) for e in h.events if isinstance(e, TableEvent)]
    assert got == [
        (TableEventKind.JOINS, "Carl", "", 5, None, None),
        (TableEventKind.CASHED_OUT, "Hero", "", None, 310, 3),
        (TableEventKind.REBUY, "Carl", "2 FPP", None, 1500, None),
        (TableEventKind.REMOVED, "Bob", " for failing to post", None, None, None),
        (TableEventKind.BETTING_CAPPED, "", "", None, None, None),
    ]


def test_rebuy_chips_start_with_a_digit() -> None:
    """The re-buy line's chips are ``\\d[\\d,]*`` in the grammar itself (the lexer once accepted
    ``,5`` and the builder then rejected the line as an unrecognised table event): the same line,
    the same code, now said by the grammar."""
    text = GOOD.replace("*** HOLE CARDS ***\n", "Hero re-buys and receives ,5 chips\n*** HOLE CARDS ***\n")
    (e,) = parse_text(text)
    assert isinstance(e, ParseError) and e.code == "syntax" and e.line == 7
    assert e.message == "unrecognised line"


def test_the_lexer_sees_no_capture_groups_and_the_builder_sees_the_fields() -> None:
    """``load_grammar``: the grammar's named groups are non-capturing in lark's terminals (its
    lexer joins them into one alternation) and kept in the shapes the builder reads."""
    import re

    from hhparse.larkglue import load_grammar, make_parser

    grammar, shapes = load_grammar(grammar_text(), ["POST_LINE"])
    lark = make_parser(grammar, object(), cython=False)
    assert all(re.compile(t.pattern.to_regexp()).groups == 0 for t in lark.terminals)
    post = re.compile(shapes["POST_LINE"]).match("A b: posts the ante $1 and is all-in\n")
    assert post is not None and post.group("name", "kind", "amt", "allin") == (
        "A b",
        "the ante",
        "$1",
        " and is all-in",
    )


def test_the_driver_never_skips_a_terminal_a_line_could_be(corpus_dir: Path) -> None:
    """The compiled driver tries a terminal's regex only on lines that start with its prefix and
    hold one of its needles (read off the regex by ``larkglue._line_term``): every line of the
    corpus and of the sample histories that a terminal's regex matches has them, so no terminal
    is ever passed over on a line it would have taken; and where it uses the regex without its
    negative look-ahead (``fast``), that matches exactly as the whole regex."""
    from hhparse import parsing

    parsing.use_backend("driver")
    driver = parsing._DRIVER
    assert driver is not None and all(row is not None for row in driver.lexers)
    terms = {t[0]: t for row in driver.lexers if row for t in row}
    assert len(terms) > 25 and sum(1 for t in terms.values() if t[2] or t[3]) >= len(terms) - 2
    lines: set[str] = set()
    for path in [*corpus_dir.rglob("*.txt"), *(REPO / "sample_histories").glob("*.txt")]:
        text = path.read_bytes().decode("utf-8", "replace").replace("\r", "")
        lines.update(line.rstrip(" \t") + "\n" for line in text.split("\n"))
    lines.update(line + "\n" for line in GOOD.split("\n"))
    taken = quick = 0
    for name, match, prefix, needles, fast, guard_prefix, guard_needles in terms.values():
        for line in lines:
            whole = match(line)
            if whole is not None:
                taken += 1
                assert line.startswith(prefix) and (not needles or any(n in line for n in needles)), (
                    name,
                    line,
                )
            if fast is not None and (
                (guard_prefix and not line.startswith(guard_prefix))
                or (guard_needles and not any(n in line for n in guard_needles))
            ):
                quick += 1
                alike = fast(line)
                assert (alike is None) == (whole is None), (name, line)
                assert alike is None or whole is None or alike.groups() == whole.groups()
    assert taken > 10_000 and quick > 10_000
    # the covers tested before many needles (``lalr._cover``): a line holding a needle holds one
    covers = {
        (entry.needles, entry.cover)
        for lexer in driver._lexers
        if lexer
        for group in [*lexer.by_first.values(), lexer.other]
        for entry in group
    } | {
        (entry.guard_needles, entry.guard_cover)
        for lexer in driver._lexers
        if lexer
        for group in [*lexer.by_first.values(), lexer.other]
        for entry in group
    }
    covers = {(needles, cover) for needles, cover in covers if cover}
    assert len(covers) >= 3
    for needles, cover in covers:
        assert all(any(c in n for c in cover) for n in needles)
        for line in lines:
            if any(n in line for n in needles):
                assert any(c in line for c in cover), (cover, line)


def test_the_driver_takes_the_terminal_lark_takes_by_how_a_line_ends(corpus_dir: Path) -> None:
    """The driver tries on a line only the terminals one of whose shapes may end as the line
    ends (``lalr._Group.for_last``), some behind fewer texts than the whole terminal's: on every
    line of the corpus and the sample histories, in every lexer state, the terminal it takes is
    the first of lark's order whose regex matches the line, with that regex's groups."""
    from hhparse import parsing

    parsing.use_backend("driver")
    driver = parsing._DRIVER
    assert driver is not None
    lines: set[str] = set()
    for path in [*corpus_dir.rglob("*.txt"), *(REPO / "sample_histories").glob("*.txt")]:
        text = path.read_bytes().decode("utf-8", "replace").replace("\r", "")
        lines.update(line.rstrip(" \t") + "\n" for line in text.split("\n"))
    lines.update(line + "\n" for line in GOOD.split("\n"))
    states: dict[tuple[str, ...], tuple[Any, list[Any]]] = {}
    for lexer, terms in zip(driver._lexers, driver.lexers, strict=True):
        if lexer is not None and terms is not None:
            states.setdefault(tuple(t[0] for t in terms), (lexer, terms))
    assert len(states) >= 3
    known: dict[tuple[str, str], Any] = {}
    narrowed = 0
    for lexer, terms in states.values():
        for line in lines:
            want = None
            for t in terms:
                key = (t[0], line)
                if key not in known:
                    known[key] = t[1](line)
                if known[key] is not None:
                    want = (t[0], known[key].groups())
                    break
            group = lexer.groups.get(line[0]) or lexer.rest
            entries = group.for_last(line[-2] if len(line) >= 2 else "")
            narrowed += len(group.entries) - len(entries)
            got = None
            for entry in entries:
                m = entry.lexes(line)
                if m is not None:
                    got = (entry.name, m.groups())
                    break
            assert got == want, (line, got, want)
    assert narrowed > 10_000


def test_a_token_lent_to_every_line_reads_as_a_token_of_its_own(corpus_dir: Path) -> None:
    """The driver lends the line callbacks of its reductions made at once one token, refilled
    for each line (``LineParser.lend``): that holds while the builder keeps nothing of a line's
    token but what it reads. Every hand of the corpus and the sample histories reads the same
    with a token of its own a line."""
    from hhparse import parsing

    parsing.use_backend("driver")
    driver = parsing._DRIVER
    assert driver is not None and driver.lend
    paths = [*sorted(corpus_dir.rglob("*.txt")), *sorted((REPO / "sample_histories").glob("*.txt"))]
    lent = [repr(r) for path in paths for r in parsing.parse_path(path)]
    driver.lend = False
    try:
        own = [repr(r) for path in paths for r in parsing.parse_path(path)]
    finally:
        driver.lend = True
    assert len(lent) > 1_000 and lent == own


def test_every_amount_the_memo_holds_is_an_amount_of_the_grammar(corpus_dir: Path) -> None:
    """A seat line's stack (and bounty) found in the amount memo is taken for an ``AMT`` without
    matching it again (``_Builder._seat``): that holds only while every text the memo keeps is
    one, which this checks after reading the corpus and the damaged hands of the tests."""
    from hhparse import parsing

    for path in sorted(corpus_dir.rglob("*.txt"))[:40]:
        list(parsing.parse_path(path))
    list(parsing.parse_text(GOOD.replace("in chips", "x in chips").replace("$", "$$")))
    amt = parsing._builder().amt_re
    assert parsing._AMOUNTS and all(amt.fullmatch(text) for text in parsing._AMOUNTS)


def test_a_seat_line_whose_stack_is_no_amount_is_unrecognised_though_the_memo_is_full() -> None:
    """The memo only spares matching an amount it holds: a stack that is none still fails."""
    list(parse_text(GOOD))  # fills the memo with this hand's amounts
    bad = GOOD.replace("($10 in chips)", "($1O in chips)", 1)
    assert bad != GOOD
    (result,) = parse_text(bad)
    assert isinstance(result, ParseError) and "unrecognised line" in result.message


def test_the_players_name_is_read_by_its_number_on_lines_that_start_with_it() -> None:
    """``_Builder._player_fields`` reads the name of a :data:`~hhparse.parsing._NAME_FIRST` line
    by its group number: the grammar names it first on each of them."""
    from hhparse import parsing

    builder = parsing._builder()
    assert builder.name_group == 1
    for term in parsing._NAME_FIRST:
        assert builder.terms[term].groupindex["name"] == 1
    assert builder.terms["UNCALLED"].groupindex["name"] != 1  # read by name
