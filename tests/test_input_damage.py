"""Issue #13, the input side: one damaged hand costs that hand, never its neighbours, its file or
the batch. One regression test per finding (each failed before its fix)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

import hhparse
from hhparse.errors import ParseError
from hhparse.importer import import_paths
from hhparse.model import Hand
from hhparse.money import AMOUNT_LIMIT, parse_amount
from hhparse.parsing import parse_file
from hhparse.reports import data_tests
from hhparse.tables.build import BatchBuilder

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import fake_result, install_referee, make_hand, player, read_views

HAND_LINES = make_hand("1").rstrip("\n").count("\n") + 1
SEP = "\n\n\n"


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _file(path: Path, *hands: str, end: str = SEP) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((SEP.join(hands) + end).encode())
    return path


def _line_of(hand_no: int, rel: int) -> int:
    """File line of line ``rel`` (1-based) of the ``hand_no``-th hand (1-based) written by _file."""
    return (hand_no - 1) * (HAND_LINES + 3) + rel


def _settled(path: Path) -> Path:
    """Make ``path`` look unchanged for an hour (a file the client has stopped writing)."""
    old = time.time() - 3600
    os.utime(path, (old, old))
    return path


def _ids(wh: Path) -> list[str]:
    return sorted(read_views(wh)["hands"].column("hand_id").to_pylist())


# --------------------------------------------------------------------------------------------
# Finding 3: amounts have a range; one hand never fails the batch
# --------------------------------------------------------------------------------------------


def test_amount_out_of_range_is_a_located_reject_not_a_crash(tmp_path: Path) -> None:
    # Regression: a seat stack of $99999999999999999999999 passed `check` and then killed the
    # import in the table builder (OverflowError), so nothing of the run was published.
    big = make_hand("2").replace("Player0 ($25 in chips)", "Player0 ($99999999999999999999999 in chips)")
    f = _file(tmp_path / "a.txt", make_hand("1"), big, make_hand("3"))
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected, r.exit_code) == (2, 1, 1)
    assert _ids(tmp_path / "wh") == ["1", "3"]
    (row,) = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert (row["code"], row["hand_id"], row["source"]) == ("amount-out-of-range", "2", str(f.absolute()))
    assert (row["line"], row["error_line"]) == (_line_of(2, 1), _line_of(2, 3))
    errors = [x for x in parse_file(f) if isinstance(x, ParseError)]
    assert [(e.code, e.line, e.hand_id) for e in errors] == [("amount-out-of-range", _line_of(2, 3), "2")]


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("stakes", "($0.10/$0.25 USD)", "($0.10/$10000000000000.00 USD)"),
        ("action", "Player1: raises $0.50 to $0.75", "Player1: raises $0.50 to $10000000000000"),
        ("summary", "Total pot $15.57", "Total pot $99999999999999999"),
    ],
)
def test_every_amount_has_the_range(where: str, old: str, new: str) -> None:
    text = make_hand("5").replace(old, new)
    assert text != make_hand("5"), where
    (e,) = hhparse.parse_text(text)
    assert isinstance(e, ParseError) and e.code == "amount-out-of-range", e


def test_largest_amount_is_stored_and_reported(tmp_path: Path) -> None:
    # Regression: a stack of 10^18 minor units was imported, then `report hand` failed casting it
    # to DECIMAL(18,0). The largest amount in the range is stored and every report reads it.
    top = (AMOUNT_LIMIT - 1) // 100
    stack = f"${top:,}.99"
    f = _file(tmp_path / "a.txt", make_hand("1").replace("Player0 ($25 in", f"Player0 ({stack} in"))
    over = make_hand("2").replace("Player0 ($25 in", f"Player0 (${top + 1:,}.00 in")
    _file(tmp_path / "b.txt", over)
    r = import_paths([f, tmp_path / "b.txt"], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (1, 1)
    players = read_views(tmp_path / "wh")["hand_players"].to_pylist()
    assert max(p["starting_stack"] for p in players) == AMOUNT_LIMIT - 1
    with hhparse.warehouse(tmp_path / "wh") as con:
        replay = hhparse.report("hand", con, hand_id="1")
        assert f"Player0 ({top}.99 in chips)" in replay["text"][1], replay["text"].tolist()
        assert not hhparse.report("summary", con).empty
        assert not any(len(df) for df in data_tests(con).values())


def test_a_hand_the_tables_cannot_hold_is_rejected_not_the_batch() -> None:
    # The last line of defence: whatever a hand holds, building its rows (Arrow conversion) fails
    # for that hand alone, which becomes a reject carrying the exception.
    b = BatchBuilder()
    b.add_result(fake_result("1"), "text 1")
    bad = fake_result("2")
    assert bad.facts is not None
    from hhparse.model import replace

    facts = replace(bad.facts, players=(player(70_000, "Alice"), *bad.facts.players[1:]))
    b.add_result(replace(bad, facts=facts), "text 2")
    b.add_result(fake_result("3"), "text 3")
    tables = b.finish()
    assert tables["hands"].column("hand_id").to_pylist() == ["1", "3"]
    assert sorted(set(tables["hand_players"].column("hand_id").to_pylist())) == ["1", "3"]
    assert tables["actions"].num_rows == 6
    (row,) = tables["rejects"].to_pylist()
    assert (row["code"], row["hand_id"], row["raw_text"], row["_hand_idx"]) == (
        "unstorable-hand",
        "2",
        "text 2",
        1,
    )
    assert (
        "70000" in row["message"]
        or "out of" in row["message"].lower()
        or "overflow" in row["message"].lower()
    )
    assert [r.accepted for r in b.refs] == [True, False, True]


def test_a_hand_set_apart_keeps_the_others_all_in_ev_on_their_own_rows() -> None:
    """Regression (merge of the EV stage with the per-hand last line of defence): when a hand is
    set apart, the EV values and ev_shares rows of the hands after it must follow their hands."""
    from hhparse.facts import EvShareFact, HandEvFacts
    from hhparse.model import replace

    def ev(values: tuple[int, int]) -> HandEvFacts:
        share = EvShareFact(0, 0, "whole", "Alice", 1, 50, values[0] + 25, 1, 1, 0, 50, 0, "exact")
        return HandEvFacts(0, "exact", 1, values, (0, 0), (share,))

    b = BatchBuilder()
    b.add_result(fake_result("1"), "text 1", ev=ev((11, -11)))
    bad = fake_result("2")
    assert bad.facts is not None
    facts = replace(bad.facts, players=(player(70_000, "Alice"), *bad.facts.players[1:]))
    b.add_result(replace(bad, facts=facts), "text 2", ev=ev((22, -22)))
    b.add_result(fake_result("3"), "text 3", ev=ev((33, -33)))
    tables = b.finish()
    players = tables["hand_players"].select(["hand_id", "allin_ev"]).to_pylist()
    assert [(r["hand_id"], r["allin_ev"]) for r in players] == [("1", 11), ("1", -11), ("3", 33), ("3", -33)]
    shares = tables["ev_shares"].select(["hand_id", "ev"]).to_pylist()
    assert [(r["hand_id"], r["ev"]) for r in shares] == [("1", 36), ("3", 58)]


def test_text_with_lone_surrogates_cannot_fail_the_batch() -> None:
    b = BatchBuilder()
    b.add_result(fake_result("1"), "text 1")
    b.add_parse_error(
        ParseError("syntax", "bad \ud800", "f\udcff.txt", 3, 1, None, "x\ud800"),
        "f\udcff.txt",
        3,
        "x\ud800\n",
    )
    tables = b.finish()
    assert tables["hands"].num_rows == 1
    (row,) = tables["rejects"].to_pylist()
    assert row["raw_text"] == "x\\ud800\n" and row["source"] == "f\\udcff.txt"


# --------------------------------------------------------------------------------------------
# Finding 4: one byte that is not UTF-8 changes its own line only
# --------------------------------------------------------------------------------------------


def test_one_invalid_utf8_byte_does_not_garble_the_rest_of_the_file(tmp_path: Path) -> None:
    # Regression: after `Hero said, "caf\xe9"` every later line was read as cp1252, so "Raúl"
    # became "RaÃºl" in every later hand (and the clean file then gave 40 "conflicts").
    def raul(n: str, chat: bytes = b"") -> bytes:
        text = make_hand(n).replace("Player1", "Raúl").encode()
        return text.replace(b"seat #2\n", b"seat #2\n" + chat)

    data = SEP.encode().join([raul("1"), raul("2", b'Hero said, "caf\xe9"\n'), raul("3"), raul("4")]) + b"\n"
    assert b"caf\xe9" in data
    (tmp_path / "a.txt").write_bytes(data)
    r = import_paths([tmp_path / "a.txt"], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (4, 0)
    names = {p["player"] for p in read_views(tmp_path / "wh")["hand_players"].to_pylist()}
    assert "Raúl" in names and not any("Ã" in n for n in names)
    clean = tmp_path / "clean.txt"
    clean.write_bytes(data.replace(b"caf\xe9", "café".encode()))
    again = import_paths([clean], tmp_path / "wh", jobs=1)
    assert (again.stats.duplicate, again.stats.conflicting) == (4, 0)


def test_undecodable_bytes_stay_visible_with_a_warning(tmp_path: Path) -> None:
    text = make_hand("7").encode().replace(b"christos805 joins", b"chris\x81\x8d joins")
    (tmp_path / "a.txt").write_bytes(text + SEP.encode() + make_hand("8").encode() + SEP.encode())
    r = import_paths([tmp_path / "a.txt"], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (2, 0)
    hands = {h["hand_id"]: h for h in read_views(tmp_path / "wh")["hands"].to_pylist()}
    assert "undecodable-bytes" in hands["7"]["warning_codes"]
    assert "undecodable-bytes" not in hands["8"]["warning_codes"]
    (hand7, _) = parse_file(tmp_path / "a.txt")
    assert isinstance(hand7, Hand)
    (w,) = [w for w in hand7.warnings if w.code == "undecodable-bytes"]
    assert w.line == 24  # the chat line


@pytest.mark.corpus
def test_eur_files_and_cp1252_summaries_read_as_before(corpus_dir: Path) -> None:
    """The client's own cp1252: the € of EUR tables (in UTF-8-with-BOM files) and tournament
    summaries. Every byte maps, so no warning, and the text is exactly cp1252's."""
    for path in sorted((corpus_dir / "omaha").glob("stars-cash-pl-eur-*.txt")):
        hands = list(parse_file(path))
        assert hands and all(isinstance(h, Hand) for h in hands), path
        assert all(not h.warnings for h in hands if isinstance(h, Hand))
        assert all(
            h.header.symbol == "€" and h.header.currency == "EUR" for h in hands if isinstance(h, Hand)
        )
    summary = corpus_dir / "summaries" / "stars-mixed-omaha-zoom-mtt-2016-summary.txt"
    (block,) = hhparse.splitter.split_file(summary)
    raw = summary.read_bytes().decode("cp1252").replace("\r", "").split("\n")
    assert block.text == "\n".join(raw[:200]) + "\n"  # a summary file keeps its first 200 lines
    assert "Raúl" in block.text and "Björn Skifs" in block.text


# --------------------------------------------------------------------------------------------
# Finding 5: NUL bytes damage a hand, not a file
# --------------------------------------------------------------------------------------------


def test_nul_bytes_in_the_first_64k_do_not_reject_the_file(tmp_path: Path) -> None:
    # Regression: 41 valid hands followed by 512 NUL bytes (what a crash leaves) gave 0 hands
    # and one "binary-file" reject.
    f = tmp_path / "crash.txt"
    f.write_bytes(SEP.join(make_hand(str(n)) for n in range(1, 42)).encode() + SEP.encode() + b"\x00" * 512)
    r = import_paths([_settled(f)], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected, r.files[0].status) == (41, 1, "ok")
    (row,) = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert (row["code"], row["line"]) == ("nul-bytes", _line_of(42, 1))


def test_crash_then_the_client_appends_more_hands(tmp_path: Path) -> None:
    """The client was killed writing hand 3 (NULs where the rest was), then appended 4 and 5."""
    third = make_hand("3")
    cut = third.index("*** FLOP ***") + 3
    damaged = third[:cut].encode() + b"\x00" * 700
    data = (
        (make_hand("1") + SEP + make_hand("2") + SEP).encode()
        + damaged
        + (make_hand("4") + SEP + make_hand("5")).encode()
    )
    (tmp_path / "a.txt").write_bytes(data)
    r = import_paths([tmp_path / "a.txt"], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (4, 1)
    assert _ids(tmp_path / "wh") == ["1", "2", "4", "5"]
    (row,) = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert (row["code"], row["hand_id"], row["line"]) == ("nul-bytes", "3", _line_of(3, 1))
    assert row["raw_text"].endswith("\x00" * 700 + "\n")


def test_a_file_of_nuls_is_still_binary(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_bytes(b"\x00" * 100 + b"not a hand\n")
    r = import_paths([tmp_path / "b.txt"], tmp_path / "wh", jobs=1)
    assert (r.files[0].status, r.stats.rejected) == ("binary", 1)


# --------------------------------------------------------------------------------------------
# Finding 13: a huge line costs a bounded excerpt, not its size
# --------------------------------------------------------------------------------------------


def test_a_huge_line_is_a_bounded_reject(tmp_path: Path) -> None:
    # Regression: a 100 MB line was printed whole as the "offending line" and stored whole in
    # `rejects` (and cost about 1 GB of memory: see bench/long_line.py).
    huge = make_hand("2").replace("christos805 joins", "christos805 " + "x" * 3_000_000 + " joins")
    f = _file(tmp_path / "a.txt", make_hand("1"), huge, make_hand("3"))
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (2, 1)
    (row,) = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert (row["code"], row["hand_id"], row["error_line"]) == ("line-too-long", "2", _line_of(2, 24))
    assert len(row["raw_text"]) < 10_000 and "3,000,039 bytes" in row["message"]
    errors = [x for x in parse_file(f) if isinstance(x, ParseError)]
    (e,) = errors
    shown = e.format()
    assert len(shown) < 1_000 and "line-too-long" in shown and str(f) in shown, shown


def test_long_lines_below_the_limit_are_shown_as_an_excerpt() -> None:
    text = make_hand("4").replace("Hero: checks\n", "Hero: checks" + "y" * 3000 + "\n", 1)
    (e,) = hhparse.parse_text(text)  # not a line the grammar knows: a syntax error
    assert isinstance(e, ParseError)
    assert len(e.text) > 3000 and len(e.format()) < 1_000


# --------------------------------------------------------------------------------------------
# Found by the fuzz (tests/test_fuzz.py, bench/fuzz.py): each failed before its fix
# --------------------------------------------------------------------------------------------


def test_impossible_header_date_is_a_located_error() -> None:
    # The fuzz turned "2013/03/29" into "2013/13/29": datetime raised out of the parser (the
    # hand became an internal-error reject, a bug's net).
    for date in ("2013/13/29", "2013/02/30", "0000/03/29"):
        (e,) = hhparse.parse_text(make_hand("1").replace("2013/03/29", date))
        assert isinstance(e, ParseError) and (e.code, e.line) == ("syntax", 1), e
        assert "impossible date" in e.message


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("Seat 1: Player0 ($25", "Seat 32768: Player0 ($25", 3),
        ("6-max Seat #4", "40000-max Seat #4", 2),
        ("Seat #4 is the button", "Seat #4294967296 is the button", 2),
        ("Seat 1: Player0 folded", "Seat 65536: Player0 folded", 37),
    ],
)
def test_seat_and_table_numbers_have_a_range(old: str, new: str, line: int) -> None:
    # The fuzz put 32768 in a seat number: the table builder could not store it in its int16
    # column and the whole batch failed (now a located reject).
    text = make_hand("1").replace(old, new)
    assert text != make_hand("1")
    (e,) = hhparse.parse_text(text)
    assert isinstance(e, ParseError) and (e.code, e.line) == ("number-out-of-range", line), e


def test_thousands_of_digits_are_out_of_range_not_a_crash() -> None:
    # The fuzz's 5,000-digit amount: int() refuses more than 4,300 digits, and the error quoted
    # all of them. A line that long is now too long; below that, the amount is out of range.
    (e,) = hhparse.parse_text(make_hand("1").replace("$5.11", "$" + "9" * 4000))
    assert isinstance(e, ParseError) and e.code == "amount-out-of-range" and len(e.message) < 200
    (e,) = hhparse.parse_text(make_hand("1").replace("$5.11", "$" + "9" * 5000))
    assert isinstance(e, ParseError) and e.code == "line-too-long" and len(e.format()) < 1000
    with pytest.raises(ValueError, match="out of range"):
        parse_amount("9" * 5000)


def test_a_unicode_line_separator_after_a_hand_does_not_glue_to_it(tmp_path: Path) -> None:
    # The fuzz reduced a hand to U+2028 (whitespace to Python, a character to the parser) after
    # the blank lines that end hand 1: it was glued to hand 1, which became a reject.
    f = tmp_path / "a.txt"
    f.write_text(make_hand("1") + SEP + "\u2028" + SEP + make_hand("2") + SEP, encoding="utf-8")
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected) == (2, 1)
    assert _ids(tmp_path / "wh") == ["1", "2"]
