"""The table builder reshapes referee facts into columns, one row per fact record, nothing more."""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hhparse.facts
from hhparse.errors import ParseError, Violation
from hhparse.facts import PlayerFacts
from hhparse.model import Fold, HandCancelled, fields, replace
from hhparse.tables import build
from hhparse.tables.build import (
    _CHILDREN,
    _HANDS,
    _PLAYER_FLAGS,
    HAND_IDX,
    NATIVE_COLUMNS,
    BatchBuilder,
    _exact_array,
    content_hash,
    normalise_text,
)
from hhparse.tables.schema import TABLES

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import HAND_TEXT, fake_ev, fake_result, install_referee, player, write_hands


def test_normalised_hash_ignores_line_ends_trailing_spaces_and_bom() -> None:
    crlf = "\ufeff" + HAND_TEXT.replace("\n", " \r\n") + "\r\n\r\n\r\n"
    assert normalise_text(crlf) == normalise_text(HAND_TEXT)
    assert content_hash(crlf) == content_hash(HAND_TEXT)
    assert content_hash(HAND_TEXT.replace("$5.11", "$5.12")) != content_hash(HAND_TEXT)


def _normalised_by_regex(text: str) -> str:
    """The definition :func:`normalise_text` must keep: BOM, CR, then every run of blanks before a
    line end or at the end removed by one regex, then surrounding line ends."""
    text = text.lstrip("\ufeff")
    text = re.sub(r"\r\n|\r", "\n", text)
    text = re.sub(r"[ \t\r\f\v]+(?=\n)|[ \t\r\f\v]+\Z", "", text)
    return text.strip("\n")


@given(st.text(alphabet=" \t\r\n\f\vab\ufeff", max_size=40))
def test_normalise_text_shortcuts_match_the_regex_definition(text: str) -> None:
    assert normalise_text(text) == _normalised_by_regex(text)


def test_normalise_text_one_and_many_trailing_spaces() -> None:
    cases = ("a \nb ", "a  \nb \n", "a \n \n", "a\t \nb", "a \nb  ", "  ", " \n ", "\ufeff\ufeffé \r\n")
    # No line ending in a blank, or only the last one: the two-blank search is skipped.
    cases += ("a\nb\n", "a\nb ", "a\nb  ", "a\n\nb \n", "\n a\n")
    for text in cases:
        assert normalise_text(text) == _normalised_by_regex(text)
        data = _normalised_by_regex(text).encode("utf-8", "surrogatepass")
        assert content_hash(text) == hashlib.blake2b(data, digest_size=8).hexdigest()


def _marked(value: object) -> object:
    """Another value of the same type as ``value`` (None: an optional int)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7777
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        return tuple(_marked(v) for v in value)
    return 5


def test_native_columns_read_each_field_into_its_own_column() -> None:
    """Every field of the records with compiled column readers, changed alone on one row of
    two, moves in its own column only."""
    facts = fake_result().facts
    assert facts is not None
    templates = [player(1, "Alice", hole_cards=("Ah", "Kd")), facts.actions[0]]
    assert {type(t) for t in templates} == set(NATIVE_COLUMNS)
    for template in templates:
        cls = type(template)
        names = fields(cls)
        base = [getattr(template, n) for n in names]
        for j, name in enumerate(names):
            changed = cls(*[_marked(v) if i == j else v for i, v in enumerate(base)])
            columns = {k: _pylist(v) for k, v in NATIVE_COLUMNS[cls]([template, changed]).items()}
            assert sorted(columns) == sorted(names)
            for n in names:
                assert columns[n] == [getattr(template, n), getattr(changed, n)], (cls, name, n)
            assert columns[name][0] != columns[name][1], (cls, name)


def test_hand_columns_are_each_field_of_each_hand_row() -> None:
    """``hands``' columns, transposed from the rows at once, hold each row's field in its order
    (three hands that differ), and a batch without accepted hands has every column, empty."""
    results = [fake_result(hand_id=str(100 + k)) for k in range(3)]
    rows = [build._hand_row(r, r.facts, f"{k:016x}") for k, r in enumerate(results) if r.facts is not None]
    columns = build._hand_columns(rows)
    assert list(columns) == list(build._HAND_FIELDS)
    for i, name in enumerate(build._HAND_FIELDS):
        assert list(columns[name]) == [row[i] for row in rows], name
    assert list(columns["hand_id"]) == ["100", "101", "102"]
    empty = build._hand_columns([])
    assert list(empty) == list(build._HAND_FIELDS)
    assert not any(len(c) for c in empty.values())


def _pylist(column: Any) -> list[Any]:
    """A native column's values (a list, or the Arrow array of a flag column)."""
    return column.to_pylist() if isinstance(column, pa.Array) else list(column)


@settings(deadline=None)  # (its first example pays numpy's first packbits: no per-example clock)
@given(st.lists(st.lists(st.booleans(), min_size=23, max_size=23), max_size=20))
def test_flag_columns_are_each_flag_of_each_row(rows: list[list[bool]]) -> None:
    """The boolean columns of hand_players, built from one bit mask a row, are each row's own
    flag, in row order, as ``pa.array`` builds them (any number of rows, none included)."""
    assert len(_PLAYER_FLAGS) == 23
    players = [
        player(i + 1, f"P{i}", **dict(zip(_PLAYER_FLAGS, flags, strict=True))) for i, flags in enumerate(rows)
    ]
    columns = NATIVE_COLUMNS[PlayerFacts](players)
    for j, name in enumerate(_PLAYER_FLAGS):
        column = columns[name]
        assert isinstance(column, pa.Array)
        assert column.equals(pa.array([flags[j] for flags in rows], type=pa.bool_())), name
        assert column.null_count == 0 and column.buffers()[0] is None


def test_accepted_hand_rows_per_table() -> None:
    b = BatchBuilder()
    ref = b.add_result(fake_result(), HAND_TEXT)
    assert ref.accepted and ref.hand_id == "96353118546" and ref.site == "PokerStars"
    t = b.finish()
    counts = {k: v.num_rows for k, v in t.items()}
    assert counts == {
        "hands": 1,
        "hand_players": 2,
        "actions": 3,
        "pots": 1,
        "awards": 1,
        "showdowns": 1,
        "ev_shares": 0,
        "rejects": 0,
    }
    for name, table in t.items():
        assert table.column_names == [*TABLES[name].column_names, HAND_IDX]
    hand = t["hands"].to_pylist()[0]
    assert (hand["unit"], hand["small_blind"], hand["big_blind"]) == ("USD", 10, 25)
    assert (hand["total_pot"], hand["rake"], hand["runs"], hand["exposed_card"]) == (50, 0, 1, "7h")
    assert hand["board"] == ["7h", "5d", "3s", "Qc", "2d"] and hand["board_run2"] is None
    assert hand["content_hash"] == content_hash(HAND_TEXT)
    players = t["hand_players"].to_pylist()
    assert players[0]["hole_cards"] == ["Ah", "Kd", "5c", "4s", "2h"] and players[1]["hole_cards"] is None
    assert players[0]["contributed_preflop"] == 25 and players[0]["net"] == 25
    assert players[1]["all_in_street"] == 0
    assert {p["hand_id"] for p in players} == {"96353118546"}
    assert [(p["allin_ev"], p["ev_street"], p["ev_method"], p["ev_std_err"]) for p in players] == [
        (25, None, None, None),
        (-25, None, None, None),
    ]  # no all-in EV: allin_ev is the net
    award = t["awards"].to_pylist()[0]
    assert award["winners"] == ["Alice"] and award["amounts"] == [50]
    assert [a["action"] for a in t["actions"].to_pylist()] == ["small blind", "big blind", "call"]


def test_all_in_ev_goes_to_hand_players_and_ev_shares() -> None:
    b = BatchBuilder()
    b.add_result(fake_result("1"), HAND_TEXT)
    b.add_result(fake_result("2"), HAND_TEXT, ev=fake_ev())
    b.add_result(fake_result("3"), HAND_TEXT)
    t = b.finish()
    players = t["hand_players"].to_pylist()
    assert [
        (p["hand_id"], p["allin_ev"], p["ev_street"], p["ev_method"], p["ev_std_err"]) for p in players
    ] == [
        ("1", 25, None, None, None),
        ("1", -25, None, None, None),
        ("2", 10, 0, "exact", 0),
        ("2", -10, 0, "exact", 0),
        ("3", 25, None, None, None),
        ("3", -25, None, None, None),
    ]
    shares = t["ev_shares"].to_pylist()
    assert [(s["hand_id"], s["player"], s["ev"], s["won"], s["unit"], s[HAND_IDX]) for s in shares] == [
        ("2", "Alice", 35, 50, "USD", 1),
        ("2", "Bob", 15, 0, "USD", 1),
    ]
    assert t["ev_shares"].column_names == [*TABLES["ev_shares"].column_names, HAND_IDX]


def test_invalid_hand_becomes_a_reject_with_all_errors() -> None:
    b = BatchBuilder()
    errors = (Violation("raise-above-pot-limit", 14, "too big"), Violation("bad-collect", 31, "wrong"))
    ref = b.add_result(fake_result("7", errors=errors), "raw text")
    assert not ref.accepted
    t = b.finish()
    assert t["hands"].num_rows == 0
    (row,) = t["rejects"].to_pylist()
    assert (row["status"], row["code"], row["message"], row["error_line"]) == (
        "invalid",
        "raise-above-pot-limit",
        "too big",
        14,
    )
    assert [e["code"] for e in row["errors"]] == ["raise-above-pot-limit", "bad-collect"]
    assert row["raw_text"] == "raw text" and row["hand_id"] == "7"


def test_parse_error_becomes_a_reject() -> None:
    b = BatchBuilder()
    pe = ParseError("syntax", "unexpected line", "f.txt", 12, 3, "55", "garbage", block="x", block_line=10)
    b.add_parse_error(pe, "f.txt", 10, "whole block")
    (row,) = b.finish()["rejects"].to_pylist()
    assert (row["source"], row["line"], row["error_line"], row["status"]) == ("f.txt", 10, 12, "unparsed")
    assert row["raw_text"] == "whole block" and row["site"] is None


def test_hand_idx_follows_block_order() -> None:
    b = BatchBuilder()
    b.add_result(fake_result("1"), HAND_TEXT)
    b.add_result(fake_result("2", errors=(Violation("x", 1, "m"),)), "bad")
    b.add_result(fake_result("3"), HAND_TEXT.replace("96353118546", "3"))
    t = b.finish()
    assert t["hands"][HAND_IDX].to_pylist() == [0, 2]
    assert t["rejects"][HAND_IDX].to_pylist() == [1]
    assert t["hand_players"][HAND_IDX].to_pylist() == [0, 0, 2, 2]


def test_child_tables_copy_their_hands_columns() -> None:
    """Every ``from_hands`` column of a child row equals its hand's value (rejects in between)."""
    b = BatchBuilder()
    b.add_result(fake_result("1"), HAND_TEXT)
    b.add_result(fake_result("2", errors=(Violation("x", 1, "m"),)), "bad")
    b.add_result(fake_result("3"), HAND_TEXT.replace("96353118546", "3"))
    t = b.finish()
    hands = {h["hand_id"]: h for h in t["hands"].to_pylist()}
    assert {h["unit_scale"] for h in hands.values()} == {100}
    for name in ("hand_players", "actions", "pots", "awards", "showdowns"):
        copies = TABLES[name].hand_copies
        assert {"unit", "unit_scale"} <= set(copies), name
        for row in t[name].to_pylist():
            assert {c: row[c] for c in copies} == {c: hands[row["hand_id"]][c] for c in copies}, name
    assert set(TABLES["hand_players"].hand_copies) >= {
        "start_utc",
        "game",
        "hilo",
        "big_blind",
        "exposed_card",
    }


def test_copied_columns_are_taken_per_row_of_the_child_tables() -> None:
    """The key and copied columns come from one ``take`` over the hands' rows: each child row
    gets its own hand's values whatever the batch holds — no accepted hand (every child table
    empty, in its schema), hands without rows in a table, and more rows than hands — and equal
    what taking each column of the ``hands`` table alone gives."""
    import pyarrow as pa

    empty = BatchBuilder()
    empty.add_result(fake_result("9", errors=(Violation("x", 1, "m"),)), "bad")
    for name, table in empty.finish().items():
        assert table.column_names == [*TABLES[name].column_names, HAND_IDX], name
        assert table.num_rows == (1 if name == "rejects" else 0), name
    b = BatchBuilder()
    for i in range(1, 8):
        result = fake_result(str(i))
        if i % 3 == 0:  # a hand without showdowns, awards or pots rows
            facts = replace(result.facts, showdowns=(), awards=(), pots=())
            result = replace(result, facts=facts)
        b.add_result(result, HAND_TEXT.replace("96353118546", str(i)))
    t = b.finish()
    hands = t["hands"]
    position = {h: k for k, h in enumerate(hands["hand_id"].to_pylist())}
    assert t["showdowns"].num_rows == 5 and t["hand_players"].num_rows == 14
    for name in ("hand_players", "actions", "pots", "awards", "showdowns"):
        table = t[name]
        where = pa.array([position[h] for h in table["hand_id"].to_pylist()], type=pa.int32())
        for column in (*TABLES[name].hand_copies, "site", "hand_id", HAND_IDX):
            alone = hands.column(column).combine_chunks().take(where)
            assert table.column(column).combine_chunks().equals(alone), (name, column)


def test_hands_cancelled_and_zoom_columns_follow_the_hand() -> None:
    """The ``hands`` row's ``cancelled`` (an exact type test over the events) agrees with
    :attr:`Hand.cancelled` wherever the cancel line is, and ``zoom`` with ``"Zoom" in hand_kind``
    for every kind, each kind asked twice (the second answer is remembered)."""
    base = fake_result()
    hand = base.hand
    fold, cancel = Fold(7, "Bob"), HandCancelled(9)
    for events in [(), (fold,), (cancel,), (fold, cancel), (cancel, fold), (fold, fold, cancel)]:
        for kind in ["Hand", "Zoom Hand", "Game", "Home Game Hand", "Zoom", "zoom Hand"] * 2:
            h = replace(hand, events=events, header=replace(hand.header, hand_kind=kind))
            b = BatchBuilder()
            b.add_result(replace(base, hand=h), HAND_TEXT)
            row = b.finish()["hands"].to_pylist()[0]
            assert row["cancelled"] is h.cancelled is (cancel in events)
            assert row["zoom"] is ("Zoom" in kind), kind


def test_the_zoom_memo_stays_bounded_whatever_the_headers_say() -> None:
    """A damaged header may name any words before ``Hand #``: the memo of hand kinds keeps a
    bounded number of them, and its answers stay the substring test's."""
    import hhparse.tables.build as build

    kinds = [f"Word{i} {'Zoom ' if i % 3 == 0 else ''}Hand" for i in range(2000)]
    assert [build._zoom_kind(k) for k in kinds] == ["Zoom" in k for k in kinds]
    assert len(build._ZOOM_KINDS) <= 256


# --- columns from machine values (BatchBuilder's exact columns) -----------------------------------

_EXACT_TYPES = [pa.int64(), pa.int32(), pa.int16(), pa.int8(), pa.bool_()]


def _conversion(make: Callable[[], pa.Array[Any]]) -> tuple[str, Any]:
    """What a conversion gives: the array's type, nulls and values, or the exception it raises."""
    try:
        arr = make()
    except Exception as exc:  # (compared, type and message, with pa.array's)
        return "raised", (type(exc), str(exc))
    return "array", (arr.type, arr.null_count, arr.to_pylist(), arr.equals(arr))


_INTS = st.one_of(
    st.integers(-(2**63) - 2, 2**63 + 2),
    st.integers(-40_000, 40_000),
    st.sampled_from([-(2**63), 2**63 - 1, -(2**31), 2**31 - 1, -32768, 32767, -128, 127, 0, 1, 2]),
    st.none(),
)


@settings(deadline=None)  # (a first example may pay a conversion's first use: no per-example clock)
@given(st.data(), st.sampled_from(_EXACT_TYPES))
def test_exact_array_gives_what_pa_array_gives(data: st.DataObject, type_: pa.DataType) -> None:
    """The machine-value conversion is ``pa.array``'s result, or ``pa.array``'s own refusal (the
    fallback), for every value a record's field can hold (an ``int`` field any integer, a
    ``bool`` field ``True`` or ``False``; ``None`` too, should a column be made nullable): out
    of the column type's range, ``None``, empty."""
    values = data.draw(
        st.lists(st.one_of(st.booleans(), st.none()) if type_ == pa.bool_() else _INTS, max_size=40)
    )
    expected = _conversion(lambda: pa.array(values, type=type_))
    assert _conversion(lambda: _exact_array(values, type_)) == expected
    if expected[0] == "array":
        assert _exact_array(values, type_).equals(pa.array(values, type=type_))


def test_exact_array_takes_the_machine_path_for_clean_columns() -> None:
    """A clean column is not converted value by value (no ``pa.array`` call: its buffer is the
    machine buffer handed over), so the fast path is really taken."""
    for type_, values in (
        (pa.int64(), [2**63 - 1, -(2**63), 0]),
        (pa.int16(), [1, -3]),
        (pa.bool_(), [True] * 9),
    ):
        with patch.object(build.pa, "array", side_effect=AssertionError("pa.array called")):
            arr = _exact_array(values, type_)
        assert arr.to_pylist() == values and arr.type == type_ and arr.null_count == 0
        assert arr.buffers()[0] is None  # no validity bitmap, as pa.array builds it without nulls


def _init_annotations(cls_name: str) -> dict[str, str]:
    """The declared types of a fact record's ``__init__`` parameters (from the source: a compiled
    class has no annotations to read)."""
    source = Path(hhparse.facts.__file__).parent / "facts.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    return {a.arg: ast.unparse(a.annotation) for a in item.args.args if a.annotation}
    raise AssertionError(cls_name)


def test_exact_columns_come_from_int_and_bool_fields_only() -> None:
    """Only columns whose record field is declared ``int``, ``bool`` or the tuple of ints of
    ``contributed`` are converted from machine values: the precondition of ``_exact_array``."""
    for name, (record, expected) in {
        "hand_players": ("PlayerFacts", 43),
        "actions": ("ActionFact", 10),
    }.items():
        plan = _CHILDREN[name][0]
        declared = _init_annotations(record)
        assert len(plan.exact) == expected
        for column in plan.exact:
            field = "contributed" if column.startswith("contributed_") else column
            want = "bool" if plan.schema.field(column).type == pa.bool_() else "int"
            assert declared[field] in (want, "tuple[int, int, int, int]"), (name, column, declared[field])
    assert not _HANDS.exact and not _CHILDREN["pots"][0].exact


@pytest.mark.skipif(
    not hasattr(hhparse.facts, "__file__") or not str(hhparse.facts.__file__).endswith(".so"),
    reason="compiled records only",
)
def test_compiled_records_hold_no_bool_in_an_int_field() -> None:
    """Why ``array`` may take an ``int`` column: a compiled record stores ``True`` given to an
    ``int`` field as ``1`` (``array`` would take ``True`` where ``pa.array`` refuses it) and
    refuses an ``int`` for a ``bool`` field."""
    p = player(1, "Alice", net=True, contributed=(True, 0, 0, 0))
    assert type(p.net) is int and type(p.contributed[0]) is int
    with pytest.raises(TypeError):
        player(1, "Alice", vpip=1)


def test_a_player_value_beyond_its_column_still_makes_the_same_reject() -> None:
    """A value a machine column cannot hold leaves the column to ``pa.array``, whose refusal makes
    the hand's ``unstorable-hand`` reject, message and all, as before."""
    b = BatchBuilder()
    bad = fake_result("2")
    assert bad.facts is not None
    facts = replace(bad.facts, players=(player(1, "Alice", net=2**63), *bad.facts.players[1:]))
    b.add_result(replace(bad, facts=facts), "text 2")
    (row,) = b.finish()["rejects"].to_pylist()
    with pytest.raises(Exception) as refusal:
        pa.array([2**63], type=pa.int64())
    assert row["code"] == "unstorable-hand"
    assert row["message"] == f"a value the warehouse cannot hold: {refusal.type.__name__}: {refusal.value}"


def test_numpy_columns_become_arrow_arrays_as_pa_array_makes_them() -> None:
    """:func:`hhparse.tables.build._numpy_array` is ``pa.array`` of an integer numpy array (same
    type, values, no validity bitmap), without pa.array's question about masked arrays; a
    numpy array of another dtype, or not contiguous, is refused rather than misread."""
    import numpy as np

    from hhparse.tables.build import _numpy_array

    for dtype, type_ in ((np.int32, pa.int32()), (np.int64, pa.int64())):
        values = np.array([3, -1, 0, 2**31 - 1], dtype=dtype)
        got = _numpy_array(values, type_)
        want = pa.array(values, type=type_)
        assert got.type == want.type and got.equals(want) and got.buffers()[0] is None
        assert _numpy_array(np.zeros(0, dtype=dtype), type_).equals(pa.array([], type=type_))
    with pytest.raises(TypeError):
        _numpy_array(np.zeros(3, dtype=np.int64), pa.int32())
    with pytest.raises(TypeError):
        _numpy_array(np.zeros(6, dtype=np.int32)[::2], pa.int32())


_NO_MA_PROBE = """
import sys
from hhparse.lazy import refuse_pandas
refuse_pandas()
from hhparse.importer import import_paths
r = import_paths([sys.argv[1]], sys.argv[2], jobs=1)
print(r.stats.new, "numpy.ma" in sys.modules)
"""


def test_an_import_never_imports_numpy_ma(tmp_path: Path) -> None:
    """An import process converts its numpy columns without ``pa.array`` (which imports
    ``numpy.ma`` to ask whether an array is masked, in every import process's first batch)."""
    import subprocess

    if not install_referee():
        pytest.skip("needs the real referee")
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    out = subprocess.run(
        [sys.executable, "-c", _NO_MA_PROBE, str(tmp_path / "in"), str(tmp_path / "wh")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "False"]
