"""Numbers written a column at a time (:mod:`hhparse.reports.arrowtext`) are, value for value,
what Python writes: ``str`` and ``f"{v:,}"`` of integers and decimals, ``f"{v:.2f}"`` and
``repr`` of whole-cent floats; a float it cannot promise that for is refused."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse.reports import arrowtext

_INTS = st.integers(-(2**63) + 1, 2**63 - 1)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.one_of(st.none(), _INTS), max_size=40), grouped=st.booleans())
def test_int_text_is_str_or_grouped(values: list[int | None], grouped: bool) -> None:
    got = arrowtext.int_text(pa.array(values, pa.int64()), grouped=grouped)
    assert got is not None
    assert got.to_pylist() == ["" if v is None else f"{v:,}" if grouped else str(v) for v in values]


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(-(10**17), 10**17)), max_size=40),
    scale=st.sampled_from([0, 1, 2, 4, 6]),
    offset=st.integers(0, 3),
)
def test_decimal_text_is_str_of_each_decimal(values: list[int | None], scale: int, offset: int) -> None:
    array = pa.array(
        [None if v is None else Decimal(v).scaleb(-scale) for v in values], pa.decimal128(38, scale)
    )
    array = array.slice(min(offset, len(array)))
    py = array.to_pylist()
    assert arrowtext.decimal_text(array).to_pylist() == ["" if v is None else str(v) for v in py]  # type: ignore[union-attr]
    grouped = arrowtext.decimal_text(array, grouped_from=10_000)
    assert grouped is not None
    assert grouped.to_pylist() == ["" if v is None else f"{v:,}" if abs(v) >= 10_000 else str(v) for v in py]


def test_a_decimal_beyond_64_bits_is_refused() -> None:
    assert arrowtext.decimal_text(pa.array([Decimal(10**20)], pa.decimal128(38, 0))) is None


@settings(max_examples=200, deadline=None)
@given(
    cents=st.lists(
        st.one_of(
            st.integers(-(10**14) - 5, 10**14 + 5).map(lambda k: k / 100),
            st.sampled_from([float("nan"), -0.0, 0.0]),
        ),
        max_size=40,
    )
)
def test_float_text_of_whole_cents_is_two_decimals_and_repr(cents: list[float]) -> None:
    values = np.array(cents, dtype=np.float64)
    two, short = arrowtext.float_text(values), arrowtext.float_text(values, shortest=True)
    if any(abs(v) >= 1e13 for v in cents if v == v):
        assert two is None and short is None
        return
    assert two is not None and short is not None
    assert two.to_pylist() == ["" if v != v else f"{v:.2f}" for v in cents]
    assert short.to_pylist() == ["" if v != v else repr(v) for v in cents]


@given(value=st.floats(allow_nan=False))
def test_a_float_not_a_whole_cent_is_refused(value: float) -> None:
    exact = abs(value) < 1e13 and round(value * 100) / 100 == value
    assert (arrowtext.float_text(np.array([value])) is not None) == exact
