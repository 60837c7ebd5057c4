"""Report tables a player can read in any terminal, 80 columns or 200.

Why not ``DataFrame.to_string``: the summary is 22 columns and 212 characters wide; in an
80-column terminal every row wraps and nothing can be read. Here a table always fits the width:

* one player's few rows (``--player Hero``: a row per unit) turn into a *card*: one line per stat
  with its full name, one value column per row;
* otherwise the columns are chosen by importance (:mod:`hhparse.reports.columns` ranks them: who
  and where first, then hands, net, bb/100, VPIP, PFR...), headers are abbreviated and a legend
  under the table spells them out, and the columns left out are named with how to see them
  (``--format csv``/``json``/``html``, or ``--columns``);
* long text (file paths, messages) is cut with an ellipsis, numbers never are.

Colour says won or lost (green, red) on a terminal, never in a file or pipe or under
``NO_COLOR``; the data is the same in every other format (CSV, JSON, Parquet and HTML carry every
column and row). Names are text, never markup: every cell is a :class:`rich.text.Text`, control
characters made visible (:func:`hhparse.safetext.visible`).
"""

from __future__ import annotations

import io
import math
import numbers
import re
import textwrap
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal, NamedTuple, TypedDict, Unpack

from hhparse.reports.columns import COLUMNS, Column, label
from hhparse.safetext import visible

__all__ = ["Layout", "cell_text", "column_text", "render", "render_columns", "render_parts"]

_SIGNED = ("money", "bb")
_NUMERIC = ("money", "bb", "pct", "ratio", "count")
_WHOLE = (*_NUMERIC, "id", "time", "flag")  # never cut
_CUT = ("text", "cards", "path")  # cut to fit: at the end, or a path at its start (the file name stays)
_MAX_TEXT = 28  # a text column's widest cell before it is cut (paths, messages)
_MIN_TEXT = 8
_CARD_ROWS = 6  # a card shows at most this many value columns


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return True
    except ImportError:  # pragma: no cover - pandas is a dependency
        pass
    return isinstance(value, float) and math.isnan(value)


def cell_text(value: Any, column: Column | None = None) -> str:
    """A value as the terminal shows it: exact decimals, 2-decimal floats, UTC times to the
    minute, cards space-separated, a flag as ✓."""
    if _missing(value):
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, Decimal):
        return (
            f"{value:,}"
            if column is not None and column.kind == "money" and abs(value) >= 10_000
            else str(value)
        )
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, numbers.Integral):
        return f"{value:,}" if column is not None and column.kind in ("count",) else str(value)
    if isinstance(value, numbers.Real):
        return f"{float(value):.2f}"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "tolist") and not isinstance(value, str):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return visible(str(value))


def _inferred(name: str, values: list[Any]) -> Column:
    """A column the catalog does not know (``hhparse sql``): its name, its kind from its values."""
    seen = [v for v in values if not _missing(v)]
    kind = "text"
    if seen and all(isinstance(v, bool) for v in seen):
        kind = "flag"
    elif seen and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in seen):
        kind = "count"
    elif seen and all(isinstance(v, Decimal) for v in seen):
        kind = "money"
    elif seen and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in seen):
        kind = "ratio"
    elif seen and all(isinstance(v, datetime) for v in seen):
        kind = "time"
    return label(name)._replace(kind=kind, rank=50 if kind != "text" else 40)


def _sign(value: Any) -> int:
    if _missing(value) or isinstance(value, bool):
        return 0
    try:
        return (value > 0) - (value < 0)  # type: ignore[no-any-return]
    except TypeError:
        return 0


def _cell_len(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _console(width: int, color: bool) -> Any:
    from rich.console import Console

    return Console(
        file=io.StringIO(),
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        no_color=not color,
        highlight=False,
        emoji=False,
        markup=False,
        legacy_windows=False,
        soft_wrap=False,
    )


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=max(width, 20), subsequent_indent=indent, break_long_words=True) or [""]


class Layout(TypedDict, total=False):
    """How a table is laid out: :func:`render_parts`' keywords (its defaults), which :func:`render`
    and :func:`render_columns` pass on as they are.

    ``name``: the report's. ``width``: at most this many terminal cells a line. ``single``: one
    player was selected; a few rows then print as a card. ``notes`` are printed under the table,
    wrapped to the width. ``first``: the columns a narrow terminal keeps first, in order (the
    report's; the others follow by their rank). ``uncoloured``: columns never coloured (their
    values are numpy scalars, whose signs do not subtract: see :func:`_sign`)."""

    name: str
    width: int
    color: bool
    single: bool
    notes: Sequence[str]
    first: Sequence[str]
    uncoloured: Collection[str]


def render(rows: Sequence[dict[str, Any]], columns: Sequence[str], **layout: Unpack[Layout]) -> str:
    """The table of ``rows`` (dicts by column name), laid out as ``layout`` says (:class:`Layout`)."""
    data = {c: [r.get(c) for r in rows] for c in columns}
    return render_columns(data, columns, len(rows), **layout)


def render_columns(
    data: Mapping[str, Any], columns: Sequence[str], size: int, **layout: Unpack[Layout]
) -> str:
    """:func:`render` of ``size`` rows given column by column (``data``: each column's values,
    a sequence or an Arrow array), as a report's DataFrame holds them: no dict a row."""
    return "".join(render_parts(data, columns, size, **layout))


def render_parts(
    data: Mapping[str, Any],
    columns: Sequence[str],
    size: int,
    *,
    name: str = "",
    width: int = 80,
    color: bool = False,
    single: bool = False,
    notes: Sequence[str] = (),
    first: Sequence[str] = (),
    uncoloured: Collection[str] = (),
) -> Iterator[str]:
    """:func:`render_columns`'s text in consecutive parts, to be written one after the other:
    a long table's lines a block of rows at a time (``summary --by month``: 479,091 rows), so
    that its text is never held whole. Everything that can fail or fall back to Rich is decided
    before the first part is given: what follows only lays out rows."""
    width = max(int(width), 40)
    if name == "hand" and "text" in columns:
        lines: list[str] = []
        for text in _pylist(data["text"]):
            lines.extend(_wrap(visible(str(text or "")), width, "    "))
        return iter(["\n".join(lines) + "\n"])
    if not size:
        out = ["(no rows)"]
        for note in notes:
            out.extend(_wrap(note, width))
        return iter(["\n".join(out) + "\n"])
    meta = {c: COLUMNS[c] if c in COLUMNS else _inferred_of(c, data[c]) for c in columns}
    texts = _Texts(data, meta)
    # an identity column the same on every row says nothing per row: once, above the table
    header_facts: list[str] = []
    if single or size > 1:
        for c in columns:
            if meta[c].rank <= 1 and meta[c].kind == "text" and _one_text(texts[c]):
                header_facts.append(f"{meta[c].text}: {texts[c][0].as_py()}")
    shown_once = {f.split(": ", 1)[0] for f in header_facts}
    body_cols = [c for c in columns if meta[c].text not in shown_once]
    if single and size <= _CARD_ROWS:
        card = _card(
            {c: _pylist(data[c]) for c in body_cols},
            size,
            body_cols,
            meta,
            {c: texts[c].to_pylist() for c in body_cols},
            width,
            color,
            uncoloured,
        )
        if card is not None:
            return _finish([card], header_facts, [], notes, width)
    table, legend, hidden = _table(data, body_cols, meta, texts, width, color, first, uncoloured)
    return _finish(table, header_facts, legend, notes, width, hidden)


def _pylist(values: Any) -> list[Any]:
    """A column's values as Python objects (an Arrow array's as ``to_pylist`` gives them)."""
    return values.to_pylist() if hasattr(values, "to_pylist") else list(values)


def _one_text(texts: Any) -> bool:
    """Every row the same non-empty text."""
    import pyarrow.compute as pc

    return bool(pc.count_distinct(texts).as_py() == 1 and texts[0].as_py())


def _inferred_of(name: str, values: Any) -> Column:
    """:func:`_inferred` of a column given as a list or as an Arrow array (by its type: what
    its Python values would be)."""
    import pyarrow as pa

    if not isinstance(values, pa.Array):
        return _inferred(name, list(values))
    kind = values.type
    if values.null_count == len(values):
        found = "text"
    elif pa.types.is_boolean(kind):
        found = "flag"
    elif pa.types.is_integer(kind):
        found = "count"
    elif pa.types.is_decimal(kind):
        found = "money"
    elif pa.types.is_floating(kind):
        found = "ratio"
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        found = "text"
    elif pa.types.is_timestamp(kind):
        found = "time"
    else:
        return _inferred(name, values.to_pylist())
    return label(name)._replace(kind=found, rank=50 if found != "text" else 40)


class _Texts(dict[str, Any]):
    """Each column's cells as the terminal shows them (:func:`column_text`), an Arrow string
    array without nulls, made when first asked for: a column of numbers is measured
    (:meth:`widest`) without being written, and only the columns that fit are written."""

    def __init__(self, data: Mapping[str, Any], meta: Mapping[str, Column]) -> None:
        super().__init__()
        self._data, self._meta = data, meta
        self._numbers: dict[str, Any] = {}

    def _found(self, c: str) -> None:
        if c in self or c in self._numbers:
            return
        found = _texts(self._data[c], self._meta[c])
        if isinstance(found, _numbers_type()):
            self._numbers[c] = found
        else:
            self[c] = found

    def __missing__(self, c: str) -> Any:
        self._found(c)
        if c in self._numbers:
            self[c] = self._numbers.pop(c).text()
        return self[c]

    def widest(self, c: str) -> int:
        """The widest cell's terminal cells (:func:`_widest`)."""
        self._found(c)
        if c in self._numbers:
            return int(self._numbers[c].widest())
        return _widest(self[c])


def _numbers_type() -> type:
    from hhparse.reports.arrowtext import Numbers

    return Numbers


def _texts(values: Any, column: Column) -> Any:
    """The column's cells as the terminal shows them (:func:`column_text`): an Arrow string
    array without nulls, or the :class:`~hhparse.reports.arrowtext.Numbers` to write; an Arrow
    column of numbers or text formatted by array operations (:mod:`hhparse.reports.arrowtext`),
    anything else value by value."""
    import pyarrow as pa

    if isinstance(values, pa.Array):
        done = _arrow_texts(values, column)
        if isinstance(done, _numbers_type()):
            return done
        if done is not None:
            return done.fill_null("")
        values = values.to_pylist()
    return pa.array(column_text(list(values), column), pa.string())


def _arrow_texts(values: Any, column: Column) -> Any:
    """:func:`column_text` of an Arrow column of one type (text: nulls as nulls; numbers: the
    :class:`~hhparse.reports.arrowtext.Numbers` to write), or None."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from hhparse.reports import arrowtext

    kind = values.type
    if pa.types.is_floating(kind):
        return arrowtext.float_numbers(values.cast(pa.float64()).to_numpy(zero_copy_only=False))
    if pa.types.is_integer(kind):
        return arrowtext.int_numbers(values, grouped=column.kind == "count")
    if pa.types.is_decimal(kind):
        return arrowtext.decimal_numbers(values, grouped_from=10_000 if column.kind == "money" else None)
    if pa.types.is_boolean(kind):  # a flag: ✓ or nothing
        return pc.if_else(pc.fill_null(values, False), "✓", "")
    if pa.types.is_timestamp(kind):  # in its own zone, to the minute
        try:
            if len(values) and values.null_count < len(values):
                years = pc.year(values)
                if pc.min(years).as_py() < 1000 or pc.max(years).as_py() > 9999:
                    return None  # years Python's strftime writes in other than four digits
            return pc.strftime(values, "%Y-%m-%d %H:%M")
        except pa.ArrowException:  # a zone pyarrow cannot find
            return None
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):  # cards: space-separated
        if pc.list_flatten(values).null_count:
            return None
        return pc.binary_join(values, " ")
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        texts = arrowtext.plain_strings(values)
        present = texts.drop_null()
        whole = arrowtext.joined(present)
        if visible(whole) == whole:  # nothing to make visible: the text as it is
            return texts
        return arrowtext.per_distinct(texts.fill_null(""), visible)
    return None


def column_text(values: Sequence[Any], column: Column) -> list[str]:
    """:func:`cell_text` of every value of a column: a column of one common type (floats,
    integers, decimals, text, with missing values) in one pass, the same text."""
    import pandas as pd

    kinds = set(map(type, values))
    kinds.discard(type(None))
    kinds.discard(type(pd.NA))
    if kinds == {float}:
        return ["" if v is None or v is pd.NA or v != v else f"{v:.2f}" for v in values]
    if kinds == {int}:
        if column.kind == "count":
            return ["" if v is None or v is pd.NA else f"{v:,}" for v in values]
        return ["" if v is None or v is pd.NA else str(v) for v in values]
    if kinds == {Decimal}:
        if column.kind == "money":
            return [
                "" if v is None or v is pd.NA else f"{v:,}" if abs(v) >= 10_000 else str(v) for v in values
            ]
        return ["" if v is None or v is pd.NA else str(v) for v in values]
    if kinds == {str}:
        present = [v for v in values if v is not None and v is not pd.NA]
        if visible("".join(present)) == "".join(present):  # nothing to make visible: the text as it is
            return ["" if v is None or v is pd.NA else v for v in values]
        return ["" if v is None or v is pd.NA else visible(v) for v in values]
    return [cell_text(v, column) for v in values]


def _finish(
    body: Iterable[str],
    facts: list[str],
    legend: list[tuple[str, str]],
    notes: Sequence[str],
    width: int,
    hidden: Sequence[str] = (),
) -> Iterator[str]:
    """The facts above the table, the table (its parts, the last ending its last line), then
    its legend, the columns left out and the notes, each line ended."""
    if facts:
        yield "\n".join(_wrap("; ".join(facts), width)) + "\n"
    parts = body if isinstance(body, Iterator) else iter(body)
    previous = next(parts, "")
    for part in parts:
        yield previous
        previous = part
    yield previous.rstrip("\n") + "\n"
    out: list[str] = []
    if legend:
        out.extend(_wrap("  ".join(f"{a} = {t}" for a, t in legend), width))
    if hidden:
        more = ", ".join(hidden)
        out.extend(
            _wrap(
                f"{len(hidden)} more column{'s' if len(hidden) > 1 else ''} in a wider terminal, --columns, "
                f"--format csv/json/html: {more}",
                width,
            )
        )
    for note in notes:
        out.extend(_wrap(note, width))
    if out:
        yield "\n".join(out) + "\n"


def _styled(text: str, value: Any, col: Column, color: bool) -> Any:
    from rich.text import Text

    style = ""
    if color and col.kind in _SIGNED:
        s = _sign(value)
        style = "green" if s > 0 else "red" if s < 0 else ""
    return Text(text, style=style)


def _card(
    data: Mapping[str, Sequence[Any]],
    size: int,
    columns: Sequence[str],
    meta: dict[str, Column],
    texts: dict[str, list[str]],
    width: int,
    color: bool,
    uncoloured: Collection[str] = (),
) -> str | None:
    """One line per column (its full name), one value column per row; None when it does not fit.
    ``uncoloured``: as for the table (:class:`Layout`)."""
    from rich import box
    from rich.table import Table

    keys = [c for c in columns if meta[c].rank <= 2 and meta[c].kind in ("text", "time")]
    values = [c for c in columns if c not in keys]
    heads = [" ".join(texts[k][i] for k in keys if texts[k][i]) or f"row {i + 1}" for i in range(size)]
    label_w = max(_cell_len(meta[c].text) for c in values) if values else 0
    cols_w = [max([_cell_len(heads[i]), *(_cell_len(texts[c][i]) for c in values)]) for i in range(size)]
    if label_w + sum(w + 3 for w in cols_w) + 2 > width:
        return None
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    table.add_column("", no_wrap=True)
    for h in heads:
        table.add_column(visible(h), justify="right", no_wrap=True)
    for c in values:
        table.add_row(
            meta[c].text,
            *(_styled(texts[c][i], data[c][i], meta[c], color and c not in uncoloured) for i in range(size)),
        )
    console = _console(width, color)
    console.print(table)
    return str(console.file.getvalue())


def _table(
    data: Mapping[str, Any],
    columns: Sequence[str],
    meta: dict[str, Column],
    texts: _Texts,
    width: int,
    color: bool,
    first: Sequence[str] = (),
    uncoloured: Collection[str] = (),
) -> tuple[Iterable[str], list[tuple[str, str]], list[str]]:
    """The table with the columns that fit, by importance (its text in parts: see
    :func:`_fast_layout`); its legend and the columns left out. ``texts``: each column's
    cells, an Arrow string array."""
    from hhparse.reports.arrowtext import per_distinct

    naturals: dict[str, int] = {}

    def natural(c: str) -> int:
        if c not in naturals:
            naturals[c] = max(_cell_len(meta[c].short), texts.widest(c))
        return naturals[c]

    def needed(c: str) -> int:
        n = natural(c)
        if meta[c].kind in _CUT:
            n = min(n, max(_MAX_TEXT, _cell_len(meta[c].short)))
        return n + 2  # padding between columns

    def importance(i: int) -> tuple[int, int, int]:
        c = columns[i]
        return (0, first.index(c), i) if c in first else (1, meta[c].rank, i)

    order = sorted(range(len(columns)), key=importance)
    chosen: set[int] = set()
    used = 0
    for i in order:
        need = needed(columns[i])
        if used + need <= width or not chosen:
            chosen.add(i)
            used += need
        elif meta[columns[i]].kind in _CUT and used + _MIN_TEXT + 2 <= width and meta[columns[i]].rank <= 2:
            chosen.add(i)  # a key column squeezed to what is left
            used += _MIN_TEXT + 2
    shown = [columns[i] for i in sorted(chosen)]
    hidden = [columns[i] for i in range(len(columns)) if i not in chosen]
    left = width - sum(min(needed(c), natural(c) + 2) for c in shown if meta[c].kind not in _CUT)
    text_cols = [c for c in shown if meta[c].kind in _CUT]
    caps = _text_caps({c: natural(c) for c in text_cols}, left)
    specs: list[_Spec] = []
    for c in shown:
        numeric = meta[c].kind in _NUMERIC
        if meta[c].kind in _WHOLE:
            specs.append(_Spec(meta[c].short, "right" if numeric else "left", None))
        else:
            cap = caps[c]
            if meta[c].kind == "path":
                texts[c] = per_distinct(texts[c], _cut_path(cap))
            specs.append(_Spec(meta[c].short, "left", max(cap, _MIN_TEXT)))
    cells = [texts[c] for c in shown]
    styles = [
        _styles(data[c]) if color and meta[c].kind in _SIGNED and c not in uncoloured else None for c in shown
    ]
    body: Iterable[str] | None = _fast_layout(specs, cells, styles, width, color)
    if body is None:
        body = [_rich_layout(specs, cells, styles, width, color)]
    legend = [(meta[c].short, meta[c].text) for c in shown if meta[c].short != meta[c].text]
    return body, legend, hidden


def _text_caps(naturals: Mapping[str, int], left: int) -> dict[str, int]:
    """Each text column's width out of the ``left`` cells the other columns leave (two of them
    a column's padding): the narrowest first take what they need, the rest share what remains,
    so a short column (the unit) no longer holds cells a long one (the player) is cut for."""
    caps: dict[str, int] = {}
    budget = left - 2 * len(naturals)
    pending = sorted(naturals, key=lambda c: naturals[c])
    for k, c in enumerate(pending):
        caps[c] = min(naturals[c], max(_MIN_TEXT, budget // (len(pending) - k)))
        budget -= caps[c]
    return caps


def _cut_path(cap: int) -> Callable[[str], str]:
    """A path cut at its start to ``cap`` cells (its file name stays), an ellipsis first."""

    def cut(t: str) -> str:
        return t if _cell_len(t) <= cap else "…" + t[len(t) - cap + 1 :]

    return cut


def _widest(texts: Any) -> int:
    """The widest text's terminal cells (:func:`_cell_len`) of an Arrow string array; printable
    ASCII by its length, other text once per distinct value."""
    import pyarrow.compute as pc

    from hhparse.reports.arrowtext import joined

    if len(texts) == 0:
        return 0
    whole = joined(texts)
    if whole.isascii() and whole.isprintable():
        return int(pc.max(pc.utf8_length(texts)).as_py())
    return max(map(_cell_len, pc.unique(texts).to_pylist()), default=0)


class _Spec(NamedTuple):
    """One column of a laid-out table: its header, justification and widest cut (None: whole)."""

    header: str
    justify: Literal["left", "right"]
    max_width: int | None


_STYLE_NAMES = ("", "green", "red")  # by the sign's code: 0 none, 1 won, 2 (-1) lost


def _styles(values: Any) -> Any:
    """Each row's colour of a signed column as a code into ``_STYLE_NAMES`` (a numpy array):
    won green, lost red (see :func:`_styled`); an Arrow column of numbers compared as a whole."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(values, pa.Array):
        kind = values.type
        if pa.types.is_decimal(kind):
            from hhparse.reports.arrowtext import decimal_digits

            digits = decimal_digits(values)
            if digits is not None:
                return np.sign(digits[0]).astype(np.int8) % 3
        elif pa.types.is_integer(kind) or pa.types.is_floating(kind):
            zero: Any = pa.scalar(0, kind)
            won: Any = pc.fill_null(pc.greater(values, zero), False)  # type: ignore[type-var]
            lost: Any = pc.fill_null(pc.less(values, zero), False)  # type: ignore[type-var]
            won, lost = won.to_numpy(zero_copy_only=False), lost.to_numpy(zero_copy_only=False)
            return won.astype(np.int8) + 2 * lost.astype(np.int8)
        if pa.types.is_boolean(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
            return np.zeros(len(values), dtype=np.int8)
        values = values.to_pylist()
    return np.array([_sign(v) % 3 for v in values], dtype=np.int8).reshape(-1)


def _rich_table(
    specs: Sequence[_Spec],
    cells: Sequence[Sequence[str]],
    styles: Sequence[Sequence[int] | None],
) -> Any:
    """Rich's :class:`~rich.table.Table` of the given rows (each column's texts and colours)."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False, collapse_padding=True)
    for spec in specs:
        if spec.max_width is None:
            table.add_column(spec.header, justify=spec.justify, no_wrap=True)
        else:
            table.add_column(spec.header, no_wrap=True, overflow="ellipsis", max_width=spec.max_width)
    for i in range(len(cells[0]) if cells else 0):
        table.add_row(
            *(
                Text(col[i], style=_STYLE_NAMES[st[i]] if st is not None else "")
                for col, st in zip(cells, styles, strict=True)
            )
        )
    return table


def _rich_layout(
    specs: Sequence[_Spec],
    cells: Sequence[Any],
    styles: Sequence[Any],
    width: int,
    color: bool,
) -> str:
    """The table as Rich lays it out: the reference :func:`_fast_layout` must equal byte for byte."""
    console = _console(width, color)
    console.print(
        _rich_table(specs, [_pylist(c) for c in cells], [None if st is None else list(st) for st in styles])
    )
    return str(console.file.getvalue())


# a character Rich splits a cell at, expands or shows as nothing: such a table is left to Rich
_IRREGULAR = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class _Unlike(Exception):
    """A cell the fast layout would not lay out as Rich does: Rich lays out the table."""


def _measures(col: Any, whole: str) -> Any:
    """Each row's cells of its longest text and longest word (Rich's measure of a cell), two
    numpy arrays; a column with a space or other than printable ASCII measured once per
    distinct text."""
    import numpy as np
    import pyarrow.compute as pc
    from rich.cells import cell_len

    if whole.isascii() and whole.isprintable():
        lens = pc.utf8_length(col).to_numpy(zero_copy_only=False)
        if " " not in whole:
            return lens, lens
        # words split at spaces (printable ASCII has no other white space): each row's longest
        parts: Any = pc.split_pattern(col, " ")
        sizes = pc.utf8_length(pc.list_flatten(parts)).to_numpy(zero_copy_only=False)
        rows = pc.list_parent_indices(parts).to_numpy(zero_copy_only=False)
        longest_word = np.zeros(len(lens), dtype=np.int64)
        np.maximum.at(longest_word, rows, sizes)
        return lens, np.where(longest_word == 0, lens, np.minimum(longest_word, lens))
    encoded: Any = pc.dictionary_encode(col)
    longest, words = [], []
    for t in encoded.dictionary.to_pylist():
        m = cell_len(t)
        longest.append(m)
        words.append(min(max((cell_len(w) for w in t.split()), default=m), m))
    at = encoded.indices.to_numpy(zero_copy_only=False)
    return np.array(longest, dtype=np.int64)[at], np.array(words, dtype=np.int64)[at]


def _fast_layout(
    specs: Sequence[_Spec],
    cells: Sequence[Any],
    styles: Sequence[Any],
    width: int,
    color: bool,
) -> Iterable[str] | None:
    """The table Rich would print (:func:`_rich_layout`), a column at a time, in parts (the
    header and rule, then the lines of ``_CHUNK_ROWS`` rows at a time, made as they are
    written); None when it cannot say (then Rich lays it out).

    Why: Rich measures, wraps, justifies and renders every cell through its general machinery,
    which for a table of thousands of rows costs more than the report's query. A table here is
    simpler (one line a row, no wrapping, fixed padding), so only its column widths need Rich:
    they come from Rich itself, laying out a table of the few rows that hold each column's
    widest cell (a column's width depends on nothing else), together with the header and the
    rule under it. Those rows are also laid out here, by the very code that lays out the whole
    table, and compared with Rich's lines: any difference, and the whole table is Rich's. Each
    column (an Arrow string array) is padded, coloured and joined into lines by array
    operations; a cell other than ASCII is fitted once per distinct text.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    from rich.cells import cell_len, set_cell_size
    from rich.color import ColorSystem
    from rich.style import Style

    from hhparse.reports.arrowtext import joined

    n = len(cells[0]) if cells else 0
    wholes = [joined(col) for col in cells]  # each column's text, decoded once
    if not n or any(_IRREGULAR.search(whole) for whole in wholes):
        return None
    # the rows holding each column's widest cell (Rich's measure: the longest text, the longest word)
    sample = {0}
    for col, whole in zip(cells, wholes, strict=True):
        longest, words = _measures(col, whole)
        sample.add(int(np.argmax(longest)))
        sample.add(int(np.argmax(words)))
    for st in styles:
        if st is not None:
            sample.update(int(i) for i in np.unique(st, return_index=True)[1])
    picked = sorted(sample)
    rows = pa.array(picked, pa.int64())
    table = _rich_table(
        specs,
        [col.take(rows).to_pylist() for col in cells],
        [None if st is None else [int(st[i]) for i in picked] for st in styles],
    )
    console = _console(width, color)
    dividers = len(specs) - 1  # one cell between two columns, no edge (Rich's extra width)
    try:  # Rich's own measure, private: a Rich without it lays the whole table out itself
        widths = table._calculate_column_widths(console, console.options.update_width(width - dividers))
    except AttributeError:
        return None
    console.print(table)
    reference = str(console.file.getvalue())
    if sum(widths) + dividers > width or min(widths) < 1:
        return None
    last = len(specs) - 1  # each column padded by one space on its right, but the last
    ons, offs = ["", "", ""], ["", "", ""]
    if color:
        for code, name in enumerate(_STYLE_NAMES):
            if name:
                on, off = Style.parse(name).render("\x00", color_system=ColorSystem.STANDARD).split("\x00")
                ons[code], offs[code] = on, off
    on_codes, off_codes = pa.array(ons, pa.string()), pa.array(offs, pa.string())

    fitted: dict[int, tuple[Any, list[tuple[str, str]]]] = {}  # a column other than ASCII, fitted

    def column(k: int, rows: Any) -> Any:
        """Column ``k``'s cells of ``rows`` (an Arrow array of row numbers, or a block of rows
        ``(start, stop)``) as they print, without the one space of padding on their right
        (written with the columns' separator); the last column's end its line. A block's
        column is laid out as every row's (its text other than ASCII fitted once for all rows,
        by :func:`fit_all` before the first block)."""
        spec, st = specs[k], styles[k]
        block = isinstance(rows, tuple)
        if block:
            texts = cells[k].slice(rows[0], rows[1] - rows[0])
            marks = None if st is None or not color else pa.array(st[rows[0] : rows[1]])
        else:
            texts = cells[k].take(rows)
            marks = None if st is None or not color else pa.array(st[picked])
        room = widths[k]  # no left pad; the right pad (1 but on the last column) outside
        if k < last:
            room -= 1
        whole = wholes[k] if block else joined(texts)
        end = "\n" if k == last else ""
        tail: Any
        if whole.isascii() and room >= 1:  # _fit's layout, a column at a time: one cell a character
            if spec.justify == "right":
                texts = pc.utf8_rtrim(texts, " ")
            cut = pc.greater(pc.utf8_length(texts), room)
            if pc.any(cut).as_py():
                short = pc.binary_join_element_wise(pc.utf8_slice_codeunits(texts, 0, room - 1), "…", "")
                texts = pc.if_else(cut, short, texts)
            pad = pc.utf8_lpad if spec.justify == "right" else pc.utf8_rpad
            body, tail = pad(texts, room), end
        else:
            if block:
                indices, done = fitted[k]
                indices = indices.slice(rows[0], rows[1] - rows[0])
            else:
                indices, done = fit(texts, room, spec.justify)
            if marks is None:
                return pa.array([t + p + end for t, p in done], pa.string()).take(indices)
            body = pa.array([t for t, _ in done], pa.string()).take(indices)
            tail = pa.array([p + end for _, p in done], pa.string()).take(indices)
        if marks is not None:
            return pc.binary_join_element_wise(on_codes.take(marks), body, off_codes.take(marks), tail, "")
        return body if isinstance(tail, str) and not tail else pc.binary_join_element_wise(body, tail, "")

    def fit(texts: Any, room: int, justify: str) -> tuple[Any, list[tuple[str, str]]]:
        """Each distinct text laid out by :func:`_fit` (which may raise :class:`_Unlike`),
        and each cell's index into them."""
        encoded: Any = pc.dictionary_encode(texts)
        done = [_fit(t, room, justify, cell_len, set_cell_size) for t in encoded.dictionary.to_pylist()]
        return encoded.indices, done

    def fit_all() -> None:
        """Every column other than ASCII fitted for all rows, before the first line is given."""
        for k in range(len(specs)):
            room = widths[k] - (1 if k < last else 0)
            if not (wholes[k].isascii() and room >= 1):
                fitted[k] = fit(cells[k], room, specs[k].justify)

    def blocks() -> Iterator[str]:
        yield head[0] + "\n" + head[1] + "\n"
        for start in range(0, n, _CHUNK_ROWS):
            yield joined(lines((start, min(start + _CHUNK_ROWS, n))))

    def lines(rows: Any) -> Any:
        """The rows' lines, each with its newline: a cell's right pad and the space between
        two columns written together."""
        return pc.binary_join_element_wise(*(column(k, rows) for k in range(len(specs))), "  ")

    try:
        head = reference.split("\n")
        if (
            len(head) != len(picked) + 3
            or head[-1]
            or [h + "\n" for h in head[2:-1]] != lines(rows).to_pylist()
        ):
            return None
        if len(picked) == n:
            return [reference]
        fit_all()
    except _Unlike:
        return None
    return blocks()


_CHUNK_ROWS = 1 << 16
"""Rows laid out at a time by :func:`_fast_layout` (a few MB of text): a long table's lines
are made as they are written, never all at once."""


def _fit(text: str, room: int, justify: str, cell_len: Any, set_cell_size: Any) -> tuple[str, str]:
    """One cell's text in ``room`` cells as Rich's ``Text.wrap`` (no wrapping) lays it out:
    right-justified text loses its trailing spaces, text too long is cut with an ellipsis; and
    the spaces Rich's line padding adds when a cut wide character leaves a cell short (unstyled)."""
    if justify == "right":
        text = text.rstrip()
        if cell_len(text) > room:
            text = set_cell_size(text, room - 1) + "…"
        text = " " * max(room - cell_len(text), 0) + text
    else:
        size = cell_len(text)
        if size > room:
            text = set_cell_size(text, room - 1) + "…"
        elif size < room:
            text += " " * (room - size)
    size = cell_len(text)
    if size > room:
        raise _Unlike(text)
    return text, " " * (room - size)
