"""Report columns as text a whole column at a time (pyarrow compute and numpy), for the outputs
of tables of hundreds of thousands of rows (issue #18: ``summary --by month`` has 479,091).

Why: formatting each value in Python (a :class:`~decimal.Decimal` per amount, an f-string per
percentage) costs more than the report's query at that size. Here a column of numbers is written
from its integer digits by array operations, and a text column is handled once per distinct
value (a player's name repeats on each of their months). Every function gives exactly the text
its per-value reference gives (:func:`hhparse.reports.terminal.cell_text`, ``str``, ``repr``),
or ``None`` when it cannot promise that for some value of the column (a float that is not a
whole number of cents, a decimal too large for 64 bits); the caller then formats that column
value by value. Tests compare both on drawn columns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "Numbers",
    "decimal_digits",
    "decimal_numbers",
    "decimal_text",
    "float_cents",
    "float_numbers",
    "float_text",
    "int_numbers",
    "int_text",
    "joined",
    "number_text",
    "per_distinct",
    "plain_strings",
]

_INT64_MIN = np.iinfo(np.int64).min
_CENTS_LIMIT = 1e13  # below it a double's gap is far under half a cent: a whole cent prints as itself


def joined(texts: pa.Array[Any]) -> str:
    """Every text of a string array (no nulls), concatenated: its data buffer, decoded once."""
    if len(texts) == 0:
        return ""
    offsets = texts.buffers()[1]
    data = texts.buffers()[2]
    if offsets is None or data is None:
        return ""
    kind = np.int64 if pa.types.is_large_string(texts.type) else np.int32
    bounds: Any = np.frombuffer(offsets, dtype=kind, count=texts.offset + len(texts) + 1)  # type: ignore[call-overload]
    start, end = int(bounds[texts.offset]), int(bounds[texts.offset + len(texts)])
    return data.to_pybytes()[start:end].decode("utf-8")


def plain_strings(array: Any) -> pa.Array[Any]:
    """A string array (``string``; nulls kept) from any string-like array."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    if not pa.types.is_string(array.type):
        array = array.cast(pa.string())
    found: pa.Array[Any] = array
    return found


def per_distinct(texts: pa.Array[Any], fn: Callable[[str], str]) -> pa.Array[Any]:
    """``fn`` of every text of a string array (no nulls), called once per distinct text."""
    encoded: Any = pc.dictionary_encode(texts)
    done = pa.array([fn(t) for t in encoded.dictionary.to_pylist()], pa.string())
    return done.take(encoded.indices)


def int_numbers(array: pa.Array[Any], *, grouped: bool) -> Numbers | None:
    """An integer array as :class:`Numbers` (``str(v)``, or ``f"{v:,}"`` when ``grouped``;
    nulls as empty text)."""
    values = array.cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
    if (values == _INT64_MIN).any():
        return None
    valid = array.is_valid().to_numpy(zero_copy_only=False)
    group = np.full(len(values), grouped, dtype=bool)
    return Numbers(np.abs(values), values < 0, 0, grouped=group, present=valid)


def int_text(array: pa.Array[Any], *, grouped: bool) -> pa.Array[Any] | None:
    """``str(v)``, or ``f"{v:,}"`` when ``grouped``, of an integer array; nulls as empty text."""
    found = int_numbers(array, grouped=grouped)
    return None if found is None else found.text()


def decimal_digits(array: pa.Array[Any]) -> tuple[np.ndarray[Any, Any], int] | None:
    """A decimal array's unscaled values as 64-bit integers (nulls as 0) and its scale; None when
    a value needs more than 64 bits or the scale is negative."""
    kind = array.type
    if not isinstance(kind, pa.Decimal128Type) or kind.scale < 0:
        return None
    n = len(array)
    buf = array.buffers()[1]
    if buf is None or n == 0:
        return np.zeros(n, dtype=np.int64), kind.scale
    words: Any = np.frombuffer(buf, dtype="<i8", count=2 * (array.offset + n))[2 * array.offset :]  # type: ignore[call-overload]
    low, high = words[0::2], words[1::2]
    valid = array.is_valid().to_numpy(zero_copy_only=False)
    if ((high != (low >> 63)) & valid).any():
        return None
    return np.where(valid, low, 0), kind.scale


def decimal_numbers(array: pa.Array[Any], *, grouped_from: int | None = None) -> Numbers | None:
    """A decimal array as :class:`Numbers` (see :func:`decimal_text`)."""
    digits = decimal_digits(array)
    if digits is None:
        return None
    unscaled, scale = digits
    if scale > 6 or (unscaled == _INT64_MIN).any():
        return None
    size = np.abs(unscaled)
    wide = None if grouped_from is None else size >= grouped_from * 10**scale
    valid = array.is_valid().to_numpy(zero_copy_only=False)
    return Numbers(size, unscaled < 0, scale, grouped=wide, present=valid)


def decimal_text(array: pa.Array[Any], *, grouped_from: int | None = None) -> pa.Array[Any] | None:
    """``str(v)`` of every :class:`~decimal.Decimal` of a decimal array (as pyarrow makes them:
    the array's scale as exponent), and ``f"{v:,}"`` for ``abs(v) >= grouped_from`` when given;
    nulls as empty text. None: a value too large for 64 bits, or a scale that ``str`` would
    print in exponent notation for some value."""
    found = decimal_numbers(array, grouped_from=grouped_from)
    return None if found is None else found.text()


def float_cents(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any] | None:
    """Each float as a whole number of cents (NaN as 0), when every finite float is the double
    nearest to a whole number of cents (as SQL's ``round(x, 2)`` gives); None otherwise (an
    infinity included)."""
    missing = np.isnan(values)
    present = np.where(missing, 0.0, values)
    if not (np.abs(present) < _CENTS_LIMIT).all():
        return None
    cents = np.rint(present * 100)
    if not (cents / 100 == present).all():
        return None
    found: np.ndarray[Any, Any] = cents.astype(np.int64)
    return found


def float_numbers(values: np.ndarray[Any, Any], *, shortest: bool = False) -> Numbers | None:
    """Float64 values that are all whole cents as :class:`Numbers` (see :func:`float_text`)."""
    cents = float_cents(values)
    if cents is None:
        return None
    missing = np.isnan(values)
    return Numbers(np.abs(cents), np.signbit(values) & ~missing, 2, shortest=shortest, present=~missing)


def float_text(values: np.ndarray[Any, Any], *, shortest: bool = False) -> pa.Array[Any] | None:
    """``f"{v:.2f}"`` (or, ``shortest``, ``repr(v)``) of float64 values that are all whole
    cents; NaN as empty text. None when some value is not (see :func:`float_cents`).

    Why exact: a double nearest to ``k/100`` (``|k/100| < 10**13``) lies within half a cent of
    it, so its two-decimal rounding is ``k/100``; and ``k/100`` has at most 15 significant
    digits, which any double nearest to it round-trips, so its shortest text (``repr``) is
    ``k/100`` too, trailing zeros dropped but one."""
    found = float_numbers(values, shortest=shortest)
    return None if found is None else found.text()


_POWERS = np.array([10**k for k in range(19)], dtype=np.int64)


class Numbers(NamedTuple):
    """A column of numbers to write (:func:`number_text`'s arguments): its widest text is
    known without writing it (a terminal table measures every column, and writes only those
    that fit)."""

    magnitude: np.ndarray[Any, Any]
    negative: np.ndarray[Any, Any]
    scale: int
    grouped: np.ndarray[Any, Any] | None = None
    shortest: bool = False
    present: np.ndarray[Any, Any] | None = None

    def widest(self) -> int:
        """The longest text's length (ASCII: its terminal cells)."""
        n = len(self.magnitude)
        if not n:
            return 0
        if not self.shortest:  # a text's length grows with its magnitude: the largest of each sign
            keep = np.ones(n, dtype=bool) if self.present is None else self.present
            picked = [
                int(np.argmax(np.where(side, self.magnitude, -1)))
                for side in (keep & self.negative, keep & ~self.negative)
                if side.any()
            ]
            if not picked:
                return 0
            at = np.array(picked)
            return Numbers(
                self.magnitude[at],
                self.negative[at],
                self.scale,
                None if self.grouped is None else self.grouped[at],
                False,
                None,
            ).longest_size()
        return self.longest_size()

    def longest_size(self) -> int:
        """The longest text of every row (without :meth:`widest`'s shortcut)."""
        whole = self.magnitude // _POWERS[self.scale]
        digits = np.maximum(np.searchsorted(_POWERS, whole, side="right").astype(np.int64), 1)
        commas = 0 if self.grouped is None else np.where(self.grouped, (digits - 1) // 3, 0)
        size = self.negative.astype(np.int64) + digits + commas + (self.scale + 1 if self.scale else 0)
        if self.shortest and self.scale:
            size = size - (self.magnitude % 10 == 0)
        if self.present is not None:
            size = np.where(self.present, size, 0)
        return int(size.max())

    def text(self) -> pa.Array[Any]:
        """The texts (:func:`number_text`)."""
        return number_text(*self)


def number_text(
    magnitude: np.ndarray[Any, Any],
    negative: np.ndarray[Any, Any],
    scale: int,
    grouped: np.ndarray[Any, Any] | None = None,
    shortest: bool = False,
    present: np.ndarray[Any, Any] | None = None,
) -> pa.Array[Any]:
    """The decimal text of ``magnitude / 10**scale`` (non-negative 64-bit integers), a ``-``
    before the ``negative`` ones, the whole part's digits in groups of three (``1,234``) where
    ``grouped``; ``shortest`` drops the last fraction digit where it is a 0 (``1.50`` ->
    ``1.5``); rows not ``present`` are empty. No null in the result.

    Built as bytes: each row's characters right-aligned in a matrix as wide as the longest text,
    digit by digit over the whole column, then the rows' characters taken out in order."""
    n = len(magnitude)
    whole = magnitude // _POWERS[scale]
    frac = magnitude % _POWERS[scale]
    digits = np.searchsorted(_POWERS, whole, side="right").astype(np.int64)
    digits = np.maximum(digits, 1)
    group = np.zeros(n, dtype=bool) if grouped is None else grouped
    commas = np.where(group, (digits - 1) // 3, 0)
    drop = (frac % 10 == 0) if shortest and scale else np.zeros(n, dtype=bool)
    size = negative.astype(np.int64) + digits + commas + (scale + 1 if scale else 0)
    keep = np.ones(n, dtype=bool) if present is None else present
    size = np.where(keep, size, 0)
    width = int(size.max()) if n else 0
    if width == 0:
        return pa.array([""] * n, pa.string())
    if n and int(whole.max()) < 2**32:  # 32-bit division: several times faster
        whole, frac = whole.astype(np.uint32), frac.astype(np.uint32)
    rows = np.arange(n)
    chars = np.empty((width, n), dtype=np.uint8)  # a row per character position: digit by digit
    right = width - 1
    base = scale + 1 if scale else 0
    rest = frac.copy()
    for t in range(scale):  # fraction digits, from the right, and the point
        chars[right - t] = 48 + rest % 10
        rest //= 10
    if scale:
        chars[right - scale] = ord(".")
    rest = whole.copy()
    for t in range(min(int(digits.max()), width - base)):  # whole digits, ungrouped
        chars[right - base - t] = 48 + rest % 10
        rest //= 10
    at = rows[group & (digits > 3) & keep]  # grouped rows with a comma: their digits moved
    sub = whole[at]
    for t in range(int(digits[at].max()) if len(at) else 0):
        shift = base + t + t // 3
        chars[right - shift, at] = 48 + sub % 10
        sub //= 10
        if t and t % 3 == 0:
            chars[right - shift + 1, at] = ord(",")
    signed = rows[negative & keep]
    chars[width - size[signed], signed] = ord("-")
    columns = np.arange(width)
    end = width - drop.astype(np.int64)
    mask = (columns[:, None] >= (width - size)[None, :]) & (columns[:, None] < end[None, :])
    lengths = np.where(keep, size - drop, 0)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    data = chars.T[mask.T]
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data.tobytes()))
