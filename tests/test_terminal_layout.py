"""The terminal table laid out row by row (:func:`hhparse.reports.terminal._fast_layout`) is
byte for byte the table Rich lays out (:func:`hhparse.reports.terminal._rich_layout`): the
same columns, widths, padding, justification, cut text with its ellipsis, header rule and
colours, in 40 to 200 columns, with colour and without, for crafted rows with wide (CJK, emoji)
and odd names, for random rows, and for every report of the crafted, sample and corpus
warehouses.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import hhparse
from hhparse.reports import REPORTS, report, terminal
from hhparse.reports.columns import COLUMNS
from hhparse.reports.columns import label as column_label
from hhparse.reports.output import to_table

REPO = Path(__file__).resolve().parent.parent
WIDTHS = (40, 41, 57, 80, 99, 120, 160, 200)


def _both(monkeypatch: pytest.MonkeyPatch, render: Any, *, fast_expected: bool = True) -> str:
    """``render()`` with the fast layout, then with Rich's alone; asserts they are equal (and,
    unless told otherwise, that the fast layout laid out every table itself)."""
    made: list[str | None] = []
    calls: list[int] = []
    fast = terminal._fast_layout

    def spy(specs: Any, *args: Any, **kwargs: Any) -> str | None:
        out = fast(specs, *args, **kwargs)
        calls.append(len(specs))
        if specs:  # a table without a column (a card of key columns only) is Rich's
            made.append(out)
        return out

    with monkeypatch.context() as m:
        m.setattr(terminal, "_fast_layout", spy)
        got = render()
    with monkeypatch.context() as m:
        m.setattr(terminal, "_fast_layout", lambda *a, **k: None)
        want = render()
    assert got == want
    if fast_expected:
        assert calls and all(t is not None for t in made)
    return str(got)


NAMES = (
    "Hero",
    "王小明",  # CJK: two cells a character
    "ポーカー太郎の長い名前です",
    "🂡 ace",  # playing card, emoji
    "👨‍👩‍👧 family",  # a zero-width-joiner sequence
    "Zoë",
    "Ze\u0301ro",  # combining accent
    "Mr Big Fish",
    "  spaced  ",
    "trailing ",
    "",
    "x" * 40,
    "a-very-long-screen-name-that-is-cut",
    "tab\\there",  # an escaped control character as text
    "ﾊﾝｶｸ",  # half-width katakana: one cell each
    "混合 mixed 名前 name",
)


def _crafted_rows(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        net = Decimal(rng.randint(-(10**7), 10**7)) / 100 if rng.random() > 0.1 else None
        rows.append(
            {
                "player": rng.choice(NAMES),
                "unit": rng.choice(("USD", "EUR", "chips", "USD")),
                "hands": rng.randint(0, 10**7),
                "net": net,
                "bb_per_100": rng.choice((float("nan"), 0.0, rng.uniform(-500, 500))),
                "vpip": rng.uniform(0, 100),
                "pfr": rng.uniform(0, 100) if rng.random() > 0.3 else None,
                "showdown_net": Decimal(rng.randint(-5000, 5000)) / 100,
                "source": rng.choice(
                    (
                        "/home/hero/PokerStars/HandHistory/Hero/HH20240101 Courchevel Hi-Lo $0.10-$0.25.txt",
                        "short.txt",
                        "/данные/王小明/历史/手牌记录-二〇二四年.txt",
                        f"/tmp/{'deep/' * rng.randint(0, 9)}file{i}.txt",
                    )
                ),
                "start_utc": datetime(2024, 1, 1, tzinfo=UTC).replace(minute=i % 60),
                "hole_cards": ["Ah", "Kd", "7c", "2s", "Tc"][: rng.randint(0, 5)],
                "went_to_showdown": rng.random() > 0.5,
                # a numeric column holding text: right-justified, trailing spaces dropped
                "af": rng.choice((1.5, 0.25, None, "n/a  ", " 王 ", "n/a")),
            }
        )
    return rows


@pytest.mark.parametrize("color", [False, True])
@pytest.mark.parametrize("width", WIDTHS)
def test_fast_layout_equals_rich_on_crafted_rows(
    monkeypatch: pytest.MonkeyPatch, width: int, color: bool
) -> None:
    rows = _crafted_rows(300, width)
    columns = list(rows[0])
    out = _both(monkeypatch, lambda: terminal.render(rows, columns, width=width, color=color))
    assert ("\x1b[" in out) is color
    assert "王小明" in out or width < 57


@pytest.mark.parametrize("color", [False, True])
def test_fast_layout_equals_rich_with_a_text_column_cut(monkeypatch: pytest.MonkeyPatch, color: bool) -> None:
    """Names longer than the column: cut with an ellipsis, a wide character cut in half padded."""
    rows = [
        {"player": name * 3, "net": Decimal(i - 7), "message": ("ab 漢字 " * i)[: 3 * i]}
        for i, name in enumerate(NAMES)
    ]
    for width in range(40, 90, 7):
        out = _both(
            monkeypatch,
            lambda width=width: terminal.render(rows, ["player", "net", "message"], width=width, color=color),
        )
        assert "…" in out


def test_control_characters_are_left_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell Rich would split or expand (a raw newline or tab, as a list's items may carry):
    the fast layout declines and Rich lays the table out."""
    rows = [
        {"player": f"p{i}", "cards": ["A\nh", "K\td"] if i == 3 else ["Qs"], "hands": i} for i in range(30)
    ]
    _both(
        monkeypatch,
        lambda: terminal.render(rows, ["player", "cards", "hands"], width=80),
        fast_expected=False,
    )


_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(" \u3000\xa0…✓王🂡\u200d\ufe0f\u0301ｶ"),
    ),
    max_size=40,
)
_VALUE = st.one_of(
    st.none(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=False, width=32),
    st.decimals(min_value=-(10**9), max_value=10**9, places=2, allow_nan=False),
    st.booleans(),
    _TEXT,
)


@st.composite
def _tables(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[str]]:
    known = ["player", "unit", "hands", "net", "bb_per_100", "vpip", "source", "message", "hole_cards", "af"]
    names = draw(
        st.lists(
            st.sampled_from([*known, "odd_column", "x", "a_long_column_name"]),
            min_size=1,
            max_size=8,
            unique=True,
        )
    )
    kinds = {n: draw(st.sampled_from(("text", "number", "money", "mixed"))) for n in names}
    strategy = {
        "text": _TEXT,
        "number": st.one_of(st.none(), st.floats(-1e6, 1e6), st.integers(-(10**9), 10**9)),
        "money": st.one_of(
            st.none(), st.decimals(min_value=-(10**9), max_value=10**9, places=2, allow_nan=False)
        ),
        "mixed": _VALUE,
    }
    rows = draw(
        st.lists(st.fixed_dictionaries({n: strategy[kinds[n]] for n in names}), min_size=1, max_size=40)
    )
    return rows, names


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(table=([{"player": 0.0}, {"player": 0.0}], ["player"]), width=40, color=False, single=False)
@given(table=_tables(), width=st.integers(40, 200), color=st.booleans(), single=st.booleans())
def test_fast_layout_equals_rich_on_random_rows(
    table: tuple[list[dict[str, Any]], list[str]], width: int, color: bool, single: bool
) -> None:
    rows, columns = table
    with pytest.MonkeyPatch.context() as monkeypatch:
        _both(
            monkeypatch,
            lambda: terminal.render(rows, columns, width=width, color=color, single=single),
            fast_expected=not single,  # a card is Rich's
        )


def _every_report(con: duckdb.DuckDBPyConnection) -> Iterator[tuple[str, Any]]:
    players = [
        r[0]
        for r in con.execute(
            "SELECT player FROM stg_hand_players GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchall()
    ]
    for name in REPORTS:
        if name == "hand":
            continue
        yield name, report(name, con)
        for player in players:
            yield f"{name} --player {player}", report(name, con, player=player)
    yield "summary --by month", report("summary", con, by=["month"])
    yield "summary --by stakes position", report("summary", con, by=["stakes", "position"])


def _check_reports(monkeypatch: pytest.MonkeyPatch, con: duckdb.DuckDBPyConnection) -> int:
    laid_out = 0
    for label, df in _every_report(con):
        if df.empty:
            continue
        single = "--player" in label
        for width, color in ((40, True), (80, False), (97, True), (200, False)):
            _both(
                monkeypatch,
                lambda df=df, width=width, color=color, single=single, label=label: to_table(
                    df, name=label.split()[0], width=width, color=color, single=single
                ),
                fast_expected=False,
            )
            laid_out += 1
    return laid_out


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    from hhparse.importer import import_paths

    wh = tmp_path_factory.mktemp("sample") / "wh"
    import_paths([REPO / "sample_histories", corpus_dir / "courchevel-hilo"], wh, jobs=1)
    con = hhparse.warehouse(wh)
    yield con
    con.close()


@pytest.mark.slow
def test_fast_layout_equals_rich_on_every_report_of_the_sample_and_corpus(
    monkeypatch: pytest.MonkeyPatch, sample: duckdb.DuckDBPyConnection
) -> None:
    assert _check_reports(monkeypatch, sample) > 40


def test_fast_layout_lays_out_a_large_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of rows: the rows Rich measures are a handful, the rest formatted here."""
    rows = _crafted_rows(1500, 7)
    columns: Sequence[str] = list(rows[0])
    for color in (False, True):
        out = _both(monkeypatch, lambda color=color: terminal.render(rows, columns, width=132, color=color))
        assert out.count("\n") > 1500


def test_a_card_of_key_columns_only() -> None:
    """Regression: one player's rows with no value column (``--player P --columns player``)
    raised a TypeError measuring the card (``max`` of a single number)."""
    out = terminal.render([{"player": "Hero"}], ["player"], single=True)
    assert "Hero" in out


_CELL = st.one_of(
    st.none(),
    st.just(pd.NA),
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(min_value=-(10**12), max_value=10**12, places=2, allow_nan=False),
    st.booleans(),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(
    values=st.one_of(
        st.lists(st.one_of(st.none(), st.floats(allow_nan=True)), max_size=20),
        st.lists(st.one_of(st.none(), st.just(pd.NA), st.integers(-(10**15), 10**15)), max_size=20),
        st.lists(
            st.one_of(st.none(), st.decimals(-(10**12), 10**12, places=2, allow_nan=False)), max_size=20
        ),
        st.lists(st.one_of(st.none(), st.text(max_size=12)), max_size=20),
        st.lists(_CELL, max_size=20),
    ),
    name=st.sampled_from(["net", "hands", "vpip", "player", "bb_per_100", "hand_id", "odd"]),
)
def test_column_text_is_cell_text_of_each_value(values: list[Any], name: str) -> None:
    """A column formatted in one pass is, value for value, :func:`cell_text` of each."""
    column = COLUMNS.get(name) or column_label(name)
    assert terminal.column_text(values, column) == [terminal.cell_text(v, column) for v in values]


def test_a_rich_without_its_private_column_measure_lays_the_table_out_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast layout reads Rich's private ``Table._calculate_column_widths`` (rich is not
    pinned above): a Rich without it must give Rich's own table, never an AttributeError."""
    from rich.table import Table

    rows = _crafted_rows(50, 80)
    columns = list(rows[0])
    want = _both(monkeypatch, lambda: terminal.render(rows, columns, width=80, color=False))
    rich_layout = terminal._rich_layout
    bodies = []

    def rich_alone(*args: Any, **kwargs: Any) -> str:
        body = rich_layout(*args, **kwargs)  # Rich itself, with its measure still in place
        bodies.append(body)
        return body

    def without_measure(*args: Any, **kwargs: Any) -> str | None:
        with monkeypatch.context() as m:
            m.delattr(Table, "_calculate_column_widths")
            return fast(*args, **kwargs)

    fast = terminal._fast_layout
    monkeypatch.setattr(terminal, "_fast_layout", without_measure)
    monkeypatch.setattr(terminal, "_rich_layout", rich_alone)
    assert terminal.render(rows, columns, width=80, color=False) == want
    assert bodies  # the fast layout gave up, Rich laid the table out


def test_a_long_name_takes_the_room_a_short_text_column_leaves() -> None:
    """The text columns shared what the numbers left evenly: beside a unit column of 5 cells,
    players were cut at 14 cells in a 200-column terminal (two "Bluf_To_Much2…" rows that were
    two players) while the table stayed 12 cells narrower than the terminal."""
    rows = [
        {"player": name, "unit": unit, "hands": 11, "net": Decimal("-1.77")}
        for name, unit in (("Bluf_To_Much2458", "USD"), ("Bluf_To_Much3211", "chips"), ("Hero", "USD"))
    ]  # two units: a constant column would be said once above the table
    for width in (40, 80, 200):
        out = terminal.render(rows, ["player", "unit", "hands", "net"], width=width, color=False)
        assert "Bluf_To_Much2458" in out and "Bluf_To_Much3211" in out and "…" not in out, width
    columns = ["player", "unit", "hands", "net", "bb_per_100", "vpip", "pfr", "showdown_net"]
    rows = [dict(r, bb_per_100=-8.05, vpip=72.73, pfr=36.36, showdown_net=Decimal("-1.77")) for r in rows]
    for width in range(40, 121):
        out = terminal.render(rows, columns, width=width, color=False)
        widest = max(map(len, out.splitlines()))
        assert widest <= width
        if "…" in out.split("\n\n")[0]:
            assert widest >= width - 1, (width, out)  # cut only when the table fills the terminal


@given(
    st.lists(st.integers(min_value=1, max_value=200), min_size=1, max_size=5),
    st.integers(min_value=0, max_value=300),
)
def test_text_caps_fill_the_room_never_beyond_it(naturals: list[int], left: int) -> None:
    """Each text column gets at least the even share it had (or what it needs), and together
    they never take more than the room unless every one is at the minimum width."""
    cols = {f"c{i}": n for i, n in enumerate(naturals)}
    caps = terminal._text_caps(cols, left)
    even = max(terminal._MIN_TEXT, left // len(cols) - 2)
    assert all(caps[c] >= min(n, even) and caps[c] <= n for c, n in cols.items())
    room = left - 2 * len(cols)
    assert sum(caps.values()) <= room or all(caps[c] <= terminal._MIN_TEXT for c in cols)
    if room >= terminal._MIN_TEXT * len(cols) and any(caps[c] < n for c, n in cols.items()):
        assert sum(caps.values()) == room  # a column is cut only when no cell is left over


@pytest.mark.parametrize("block", [1, 7, 1499, 1500, 1 << 16])
def test_a_long_table_laid_out_in_blocks_of_rows_is_the_table(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """The lines made a block of rows at a time (render_parts) are Rich's table, whatever the
    block's size against the rows' count; a table of several blocks comes in several parts."""
    rows = _crafted_rows(1500, 11)
    columns: Sequence[str] = list(rows[0])
    data = {c: [r[c] for r in rows] for c in columns}
    monkeypatch.setattr(terminal, "_CHUNK_ROWS", block)
    for color, width in ((False, 132), (True, 80), (False, 57)):
        out = _both(
            monkeypatch,
            lambda color=color, width=width: terminal.render(rows, columns, width=width, color=color),
        )
        parts = list(
            terminal.render_parts(data, columns, len(rows), width=width, color=color, notes=["a note"])
        )
        assert "".join(parts) == out + "a note\n"
        assert len(parts) >= -(-1500 // block)


def test_a_cell_rich_would_lay_out_otherwise_is_found_before_the_first_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cell the fast layout cannot fit as Rich (:class:`terminal._Unlike`) in a late block of
    rows sends the whole table to Rich before anything is given: never half a table, then an
    error."""
    rows = [
        {"player": "王小明" if i != 900 else "Zoë", "hands": i, "net": Decimal(i) / 100} for i in range(1000)
    ]
    columns = ["player", "hands", "net"]
    data = {c: [r[c] for r in rows] for c in columns}
    fit = terminal._fit

    def unlike_zoe(text: str, *args: Any) -> tuple[str, str]:
        if text.startswith("Zoë"):
            raise terminal._Unlike(text)
        return fit(text, *args)

    monkeypatch.setattr(terminal, "_CHUNK_ROWS", 100)
    with monkeypatch.context() as m:
        m.setattr(terminal, "_fast_layout", lambda *a, **k: None)
        want = "".join(terminal.render_parts(data, columns, len(rows), width=80))
    monkeypatch.setattr(terminal, "_fit", unlike_zoe)
    laid: list[Any] = []
    fast = terminal._fast_layout

    def spy(*args: Any, **kwargs: Any) -> Any:
        laid.append(fast(*args, **kwargs))
        return laid[-1]

    monkeypatch.setattr(terminal, "_fast_layout", spy)
    assert "".join(terminal.render_parts(data, columns, len(rows), width=80)) == want
    assert laid == [None]  # Rich's, decided before the first part
