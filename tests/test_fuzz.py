"""The fuzz of the input path as a standing test (issue #13): a short run here, the long one in
``bench/fuzz.py`` (``python bench/fuzz.py --cases 100000``). See ``tests/fuzz/harness.py`` for
the cases (real and crafted hands, damaged) and the invariants: no exception escapes or is
swallowed as a bug, every block is stored or rejected once, the valid hands around the damaged
one are stored, nothing hangs."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hhparse.import_worker as import_worker

sys.path.insert(0, str(Path(__file__).parent / "fuzz"))
sys.path.insert(0, str(Path(__file__).parent))
import harness
from _warehouse_helpers import install_referee

ops = st.lists(
    st.tuples(st.sampled_from(harness.OPS), st.floats(0, 1, allow_nan=False), st.integers(0, 1 << 16)),
    min_size=1,
    max_size=4,
)
cases = st.builds(harness.build_case, st.integers(0, 1 << 30), ops, st.integers(0, 31))
FUZZ = settings(
    deadline=None,  # a hang is caught by harness.time_limit (a wall-clock deadline is flaky here)
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(autouse=True, scope="module")
def _referee() -> None:
    install_referee()


@given(cases)
@settings(FUZZ, max_examples=300)
def test_fuzz_the_input_path(case: harness.Case) -> None:
    with harness.time_limit(20):
        harness.check_batch([case])


#: Cases the fuzz found (seed, operations, layout), each a bug fixed: run every time.
FOUND = [
    # a hand without its header after an empty line and a line holding a space was glued to the
    # complete hand before it (the splitter's "after an empty line" ended at the blank line)
    (835, (("drop_line", 0.0, 0), ("delete", 0.0, 1677)), 0),
]


@pytest.mark.parametrize(("seed", "ops", "layout"), FOUND)
def test_fuzz_found_cases(seed: int, ops: tuple[harness.Op, ...], layout: int) -> None:
    case = harness.build_case(seed, list(ops), layout)
    with harness.time_limit(20):
        harness.check_batch([case])
        harness.check_splitter_paths(case)


@given(cases)
@settings(FUZZ, max_examples=150)
def test_fuzz_both_splitter_paths_agree(case: harness.Case) -> None:
    with harness.time_limit(20):
        harness.check_splitter_paths(case)


def test_fuzz_random_batches() -> None:
    """Many cases a second, batched as the importer batches hands: the bulk of the short run."""
    rng = random.Random(int(os.environ.get("HHPARSE_FUZZ_SEED", "13")))
    total = 0
    for _ in range(40):
        with harness.time_limit(60):
            total += harness.check_batch([harness.random_case(rng) for _ in range(16)])["blocks"]
    assert total > 40 * 16 * 2


@given(cases)
@settings(FUZZ, max_examples=25)
def test_fuzz_the_import(tmp_path_factory: pytest.TempPathFactory, case: harness.Case) -> None:
    saved = import_worker.quiet_gc, import_worker.restore_gc
    import_worker.quiet_gc, import_worker.restore_gc = (lambda: (700, 10, 10)), (lambda previous: None)
    try:
        with harness.time_limit(60):
            harness.check_import(case, tmp_path_factory.mktemp("fuzz"))
    finally:
        import_worker.quiet_gc, import_worker.restore_gc = saved
