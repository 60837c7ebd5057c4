"""Report DataFrames → text, CSV, JSON, Parquet, PNG/SVG graphs and a standalone HTML page.

Kept apart from the SQL runner because formatting is the only part that changes with the
output a user asks for; the figures themselves always come from :func:`hhparse.reports.report`.
Money arrives as :class:`decimal.Decimal` (exact); text formats print the decimal, JSON prints
the shortest float text, which for cents and chips is the same number.

Names are text, never markup (:mod:`hhparse.safetext`): the table format shows control and bidi
characters as visible escapes, CSV neutralises cells a spreadsheet would run as formulas (unless
``raw``), JSON escapes U+2028/U+2029, HTML escapes everything, and the graph draws its title as
plain text (no matplotlib mathtext, so ``$...$`` in a name is just dollars).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypedDict, Unpack

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from hhparse.safetext import csv_cell, json_line

TEXT_FORMATS = ("table", "csv", "json", "html")
"""Formats every report and query can be written in (as text)."""

IMAGE_FORMATS = ("png", "svg")
"""Formats only the ``graph`` report can be written in (to a file)."""

GRAPH_SIZE = (1000, 500)
"""Pixel size of the PNG graph (10 x 5 inches at 100 dpi)."""

_LINES = (
    ("cum_net", "net won", "#2ca02c"),
    ("cum_showdown", "showdown", "#1f77b4"),
    ("cum_nonshowdown", "non-showdown", "#d62728"),
    ("cum_allin_ev", "all-in EV", "#ff7f0e"),
)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        # Shortest round-trip float text: exact for every amount below 2**53 minor units.
        return float(value)
    if isinstance(value, datetime | date | pd.Timestamp):
        return value.isoformat()
    if isinstance(value, float) and value != value:  # NaN
        return None
    if value is pd.NA or value is pd.NaT or value is None:
        return None
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    return value


def to_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as plain dicts of JSON-ready values (decimals stay exact, times as ISO text)."""
    names = [str(c) for c in df.columns]
    if not names or len(set(names)) < len(names):
        return [{str(k): _jsonable(v) for k, v in row.items()} for row in df.to_dict(orient="records")]
    # column by column: what df.to_dict(orient="records") then _jsonable give, value for value
    columns = [_json_column(_values(df.iloc[:, k])) for k in range(len(names))]
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def _json_column(values: list[Any]) -> list[Any]:
    """:func:`_jsonable` of every value of a column, a column of one common type in one pass."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    kinds.discard(type(pd.NA))
    if kinds <= {float}:
        return [None if v is None or v is pd.NA or v != v else v for v in values]
    if kinds <= {int} or kinds <= {str} or kinds <= {bool}:
        return [None if v is None or v is pd.NA else v for v in values]
    if kinds == {Decimal}:
        return [None if v is None or v is pd.NA else float(v) for v in values]
    return [_jsonable(v) for v in values]


def to_json(df: pd.DataFrame) -> str:
    """A JSON array of row objects (U+2028/U+2029 escaped, see :func:`hhparse.safetext.json_line`)."""
    fast = _columnar_json(df)
    if fast is not None:
        return fast
    records = to_records(df)
    if not records or not records[0] or not _flat(records):
        return json_line(records, indent=1, default=str) + "\n"
    # The text json.dumps(indent=1) writes, from the C encoder (an indented dump is written by the
    # pure-Python one, item by item). Rows of text, numbers and nulls only: no value holds a raw
    # newline (JSON escapes it), so the items' separator is the indentation, and '},\n  {' is
    # found only between two rows.
    text = json_line(records, separators=(",\n  ", ": "), default=str)
    return "[\n {\n  " + text[2:-2].replace("},\n  {", "\n },\n {\n  ") + "\n }\n]\n"


def _columnar_json(df: pd.DataFrame) -> str | None:
    """:func:`to_json`'s text written a column at a time (:mod:`hhparse.reports.arrowtext`):
    each column's values as JSON text by array operations, the rows joined by them; None when
    a column is of another type or holds a value it cannot promise the same text for (a float
    not a whole number of cents, an infinity), or the frame has no row or repeats a name."""
    import pyarrow.compute as pc

    from hhparse.reports import arrowtext

    names = [str(c) for c in df.columns]
    if not names or not len(df) or len(set(names)) < len(names):
        return None
    parts: list[Any] = []
    for k, name in enumerate(names):
        column = df.iloc[:, k]
        array = _arrow(column)
        if array is None:
            return None
        kind = array.type
        present = array.is_valid()
        if pa.types.is_floating(kind):
            values = array.cast(pa.float64()).to_numpy(zero_copy_only=False)
            text = arrowtext.float_text(values, shortest=True)
            present = pa.array(~np.isnan(values))
        elif pa.types.is_integer(kind):
            text = arrowtext.int_text(array, grouped=False)
        elif pa.types.is_decimal(kind):
            digits = arrowtext.decimal_digits(array)
            if digits is None or digits[1] != 2 or (np.abs(digits[0]) >= 10**15).any():
                return None  # float(v)'s shortest text is v's own digits below 15 of them
            unscaled = digits[0]
            valid = present.to_numpy(zero_copy_only=False)
            text = arrowtext.number_text(np.abs(unscaled), unscaled < 0, 2, shortest=True, present=valid)
        else:
            text = arrowtext.per_distinct(arrowtext.plain_strings(array).fill_null(""), json_line)
        if text is None:
            return None
        parts.append(f"  {json_line(name)}: ")
        parts.append(pc.if_else(present, text, "null"))
        parts.append(",\n" if k < len(names) - 1 else "\n },\n {\n")
    rows = arrowtext.joined(pc.binary_join_element_wise(*parts, ""))
    return "[\n {\n" + rows[: -len(",\n {\n")] + "\n]\n"


def _flat(records: list[dict[str, Any]]) -> bool:
    """Every value a JSON scalar (text, number, boolean, null): no nested indentation."""
    scalar = (str, int, float, type(None))
    return all(isinstance(v, scalar) for r in records for v in r.values())


class TableOptions(TypedDict, total=False):
    """:func:`table_parts`' keywords (its defaults), which :func:`to_table` passes on: the report's
    ``name``, at most ``width`` cells a line (default: the terminal's, ``$COLUMNS``), ``color``,
    ``single`` (one player: a card when the rows are few), ``notes`` under the table."""

    name: str
    width: int | None
    color: bool
    single: bool
    notes: Sequence[str]


def to_table(df: pd.DataFrame, **options: Unpack[TableOptions]) -> str:
    """The terminal table (:func:`hhparse.reports.terminal.render`): columns chosen by importance
    with a legend, or a card when ``single`` (one player) and few rows; the ``hand`` report as its
    replay lines (:class:`TableOptions`). Control and bidi characters in names are shown as
    escapes, never sent to the terminal."""
    return "".join(table_parts(df, **options))


def table_parts(
    df: pd.DataFrame,
    *,
    name: str = "",
    width: int | None = None,
    color: bool = False,
    single: bool = False,
    notes: Sequence[str] = (),
) -> Iterator[str]:
    """:func:`to_table`'s text in parts to write one after the other
    (:func:`hhparse.reports.terminal.render_parts`): a long table is never held whole."""
    import shutil

    from hhparse.reports.terminal import render_parts

    if width is None:
        width = shutil.get_terminal_size((80, 24)).columns
    from hhparse.reports.catalog import REPORTS

    names = [str(c) for c in df.columns]
    # each column's values as a row would hold them (a repeated name: its last column, as a dict)
    data = {n: _column(df.iloc[:, k]) for k, n in enumerate(names)}
    # a nullable integer column iterates as numpy scalars, never coloured (terminal._sign)
    masked = {n for k, n in enumerate(names) if _masked_int(df.iloc[:, k])}
    first = REPORTS[name].first if name in REPORTS else ()
    return render_parts(
        data,
        names,
        len(df),
        name=name,
        width=width,
        color=color,
        single=single,
        notes=notes,
        first=first,
        uncoloured=masked,
    )


def _masked_int(column: pd.Series) -> bool:
    dtype = column.dtype
    return (
        isinstance(dtype, pd.api.extensions.ExtensionDtype)
        and not isinstance(dtype, pd.ArrowDtype)
        and pd.api.types.is_integer_dtype(dtype)
    )


def _arrow(column: pd.Series) -> pa.Array[Any] | None:
    """The column as an Arrow array of numbers or text (NaN as null), when its dtype is one
    whose values iterating it gives are of that one type (floats, integers, decimals, text,
    with missing values); None for any other (booleans, times, objects)."""
    dtype = column.dtype
    if isinstance(dtype, pd.ArrowDtype):
        kind = dtype.pyarrow_dtype
        if not (
            pa.types.is_decimal(kind)
            or pa.types.is_integer(kind)
            or pa.types.is_floating(kind)
            or pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
        ):
            return None
        found = column.array.__arrow_array__()
    elif isinstance(dtype, pd.StringDtype):
        found = pa.array(column.array)  # its Arrow data (pyarrow storage) or its text
    elif isinstance(dtype, pd.api.extensions.ExtensionDtype):
        if not pd.api.types.is_integer_dtype(dtype):
            return None
        found = pa.array(column.array)
    elif dtype.kind in "iuf":
        found = pa.array(column.to_numpy(), from_pandas=True)
    else:
        return None
    return found.combine_chunks() if isinstance(found, pa.ChunkedArray) else found


def _column(column: pd.Series) -> pa.Array[Any] | list[Any]:
    """The column for the terminal table: an Arrow array (:func:`_arrow`; or of flags, times or
    lists of text, the hand list's) or its values."""
    found = _arrow(column)
    if found is None:
        found = _shown_arrow(column)
    return found if found is not None else _values(column)


def _shown_arrow(column: pd.Series) -> pa.Array[Any] | None:
    """The terminal's other Arrow columns: numpy booleans (flags), times (numpy ``datetime64``)
    and lists of text (cards: an object column of lists or arrays of text, missing values);
    None for any other."""
    dtype = column.dtype
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) and not isinstance(dtype, pd.DatetimeTZDtype):
        return None
    found: Any
    flags_or_times: pa.Array[Any]
    if dtype.kind == "b":
        flags_or_times = pa.array(column.to_numpy())
        return flags_or_times
    if dtype.kind == "M" or isinstance(dtype, pd.DatetimeTZDtype):
        flags_or_times = pa.array(column.array)
        return flags_or_times
    if dtype.kind == "O":
        try:
            found = pa.array(column.to_numpy(), from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):  # (an int past 64 bits)
            return None
        if isinstance(found, pa.ChunkedArray):
            found = found.combine_chunks()
        kind = found.type
        if (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and (
            pa.types.is_string(kind.value_type) or pa.types.is_large_string(kind.value_type)
        ):
            lists: pa.Array[Any] = found
            return lists
    return None


def _values(column: pd.Series) -> list[Any]:
    """The column's values as iterating it gives them (decimals as :class:`~decimal.Decimal`,
    missing as ``pd.NA``); a pyarrow decimal column converted by pyarrow in one call, not a
    value at a time."""
    dtype = column.dtype
    if isinstance(dtype, pd.ArrowDtype) and pa.types.is_decimal(dtype.pyarrow_dtype):
        na = dtype.na_value
        return [na if v is None else v for v in column.array.__arrow_array__().to_pylist()]
    return list(column)


def to_csv(df: pd.DataFrame, *, raw: bool = False, names: bool = False) -> str:
    """CSV with a header row that says what each column is (its label from
    :mod:`hhparse.reports.columns`: ``VPIP %``, ``Net won``; ``names`` keeps the column names,
    ``vpip``, ``net``). Text cells starting like a formula (``= + - @``, tab, CR) get a leading
    ``'`` (OWASP), unless ``raw``; numbers, decimals and dates are never changed."""
    if not names:
        from hhparse.reports.columns import COLUMNS

        df = df.copy()
        df.columns = [COLUMNS[str(c)].text if str(c) in COLUMNS else str(c) for c in df.columns]
    fast = _columnar_csv(df, raw=raw)
    if fast is not None:
        return fast
    if not raw:
        df = _map_text(df, csv_cell, csv_cell)
    return str(df.to_csv(index=False))


def _csv_field(text: str) -> str:
    """One field as pandas' CSV writer (Python's ``csv``, minimal quoting) writes it in a row of
    several fields."""
    import csv

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([text, ""])
    return buf.getvalue()[: -len(",\n")]


def _columnar_csv(df: pd.DataFrame, *, raw: bool) -> str | None:
    """:func:`to_csv`'s text (pandas' ``to_csv``) written a column at a time: numbers by array
    operations (:mod:`hhparse.reports.arrowtext`: floats as ``repr``, decimals as ``str``), each
    distinct text quoted (and made inert, unless ``raw``) once; None when a column is of
    another type or holds a value it cannot promise the same text for, or the frame has fewer
    than two columns (a row of one empty field is written ``""``) or no row."""
    import pyarrow.compute as pc

    from hhparse.reports import arrowtext

    if df.shape[1] < 2 or not len(df):
        return None
    fields: list[Any] = []
    for k in range(df.shape[1]):
        array = _arrow(df.iloc[:, k])
        if array is None:
            return None
        kind = array.type
        if pa.types.is_floating(kind):
            text = arrowtext.float_text(
                array.cast(pa.float64()).to_numpy(zero_copy_only=False), shortest=True
            )
        elif pa.types.is_integer(kind):
            text = arrowtext.int_text(array, grouped=False)
        elif pa.types.is_decimal(kind):
            text = arrowtext.decimal_text(array)
        else:
            cell = _csv_field if raw else (lambda t: _csv_field(csv_cell(t)))
            text = arrowtext.per_distinct(arrowtext.plain_strings(array).fill_null(""), cell)
        if text is None:
            return None
        fields.append(text)
    header = ",".join(_csv_field(str(c) if raw else csv_cell(str(c))) for c in df.columns) + "\n"
    lines = pc.binary_join_element_wise(pc.binary_join_element_wise(*fields, ","), "", "\n")
    return header + arrowtext.joined(lines)


def _map_text(df: pd.DataFrame, cell: Any, header: Any) -> pd.DataFrame:
    """A copy with ``cell`` applied to every value of the object (text) columns and ``header``
    to the column names; by position, so duplicate column names (``SELECT 1, 1``) are fine."""
    out = df.copy()
    out.columns = [header(str(c)) for c in df.columns]
    for i in range(out.shape[1]):
        dtype = out.dtypes.iloc[i]
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            out.isetitem(i, list(out.iloc[:, i].map(cell)))
    return out


def to_parquet(df: pd.DataFrame) -> bytes:
    """A Parquet file's bytes (decimals kept as decimal128)."""
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), buf)
    return buf.getvalue()


def graph_image(points: pd.DataFrame, fmt: str, *, title: str = "") -> bytes:
    """The cumulative net-won graph as PNG or SVG bytes: one panel per unit, four lines each (net,
    showdown, non-showdown, all-in EV; a line whose column the points lack is left out).

    ``points`` is the ``graph`` report. Uses matplotlib's object API (no pyplot global state, no
    display needed), so it is safe in worker threads and servers.
    """
    from matplotlib.figure import Figure

    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"graph format must be png or svg, not {fmt!r}")
    units = list(dict.fromkeys(points["unit"])) if not points.empty else []
    width, height = GRAPH_SIZE
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    axes = fig.subplots(max(len(units), 1), 1, squeeze=False)[:, 0]
    if not units:
        axes[0].text(0.5, 0.5, "no hands", ha="center", va="center", parse_math=False)
    for ax, unit in zip(axes, units, strict=False):
        part = points[points["unit"] == unit]
        for column, label, color in _LINES:
            if column not in part:
                continue
            ax.plot(
                part["hand_no"], [float(v) for v in part[column]], label=label, color=color, linewidth=1.2
            )
        ax.axhline(0, color="#888888", linewidth=0.6)
        ax.set_ylabel(f"won ({unit})", parse_math=False)
        ax.legend(loc="upper left", fontsize="small")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("hands")
    if title:
        fig.suptitle(title, parse_math=False)  # a name like `$\foo$` is text, not mathtext
    buf = io.BytesIO()
    if fmt == "png":
        fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    else:
        import matplotlib

        with matplotlib.rc_context({"svg.hashsalt": "hhparse", "svg.fonttype": "none"}):
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def to_html(
    df: pd.DataFrame,
    *,
    name: str,
    title: str,
    filters: Sequence[tuple[str, object]] = (),
    graph: pd.DataFrame | None = None,
) -> str:
    """A standalone HTML page: the report's sortable table and, when given, the net-won graph.

    ``graph`` is :func:`hhparse.reports.html.graph_lines` (one line per unit and tournament) or
    the ``graph`` report's points. The page is built by :mod:`hhparse.reports.html` (Jinja2
    templates, autoescaped): one file a user can mail or open offline.
    """
    from hhparse.reports.html import report_page

    return report_page(df, name=name, title=title, filters=filters, lines=graph)
