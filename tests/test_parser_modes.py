"""Pure Lark (with our lean line lexer) and lark-cython must read every file identically.

The two back ends share one grammar but not one lexer: the pure one uses the line lexer in
``hhparse.parsing``. Any divergence — a hand, an event, an error message or its location — fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hhparse import parsing
from hhparse.errors import ParseError
from hhparse.model import Hand

pytest.importorskip("lark_cython")


@pytest.fixture()
def restore_default_parser() -> Iterator[None]:
    yield
    parsing._PARSER = None
    parsing._BUILDER = None


def _read_all(root: Path) -> list[Hand | ParseError]:
    out: list[Hand | ParseError] = []
    for path in sorted(root.rglob("*.txt")):
        out.extend(parsing.parse_file(path))
    return out


def test_pure_and_cython_back_ends_agree_on_the_whole_corpus(
    corpus_dir: Path, restore_default_parser: None
) -> None:
    parsing.use_cython(False)
    pure = _read_all(corpus_dir)
    parsing.use_cython(True)
    fast = _read_all(corpus_dir)
    assert len(pure) == len(fast) > 500
    for a, b in zip(pure, fast, strict=True):
        assert a == b


def test_back_ends_agree_on_damaged_input(tmp_path: Path, corpus_dir: Path, restore_default_parser: None) -> None:
    text = (corpus_dir / "courchevel-hilo" / "stars-cash-pl-1-2-2013-run-it-twice.txt").read_bytes().decode()
    damaged = [
        text.replace("Hero: bets $71.50", "Hero: bets $71.50 ???"),
        text.replace("*** SUMMARY ***", "*** SUMMRY ***"),
        text[: len(text) // 2],
        text.replace("Seat 4: Hero ($353.48 in chips)", "Seat 4: Hero ($353.48 in chps)"),
    ]
    path = tmp_path / "damaged.txt"
    path.write_text("\n\n\n".join(damaged), encoding="utf-8")
    parsing.use_cython(False)
    pure = list(parsing.parse_file(path))
    parsing.use_cython(True)
    fast = list(parsing.parse_file(path))
    assert pure == fast
    assert all(isinstance(x, ParseError) for x in pure)
