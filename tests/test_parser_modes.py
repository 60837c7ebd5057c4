"""Every parser back end must read every file identically.

The back ends share one grammar and one builder but not one loop: pure lark (with the lean line
lexer of ``hhparse.larkglue``), lark-cython, and the default compiled driver over lark's own
tables (``hhparse.lalr``), which hands whatever it rejects back to lark. Any divergence — a hand,
an event, an error message or its location — fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from hhparse import parsing
from hhparse.errors import ParseError
from hhparse.model import Hand
from hhparse.splitter import Block, split_path

pytest.importorskip("lark_cython")


@pytest.fixture()
def restore_default_parser() -> Iterator[None]:
    yield
    parsing.use_backend("driver")


def _read_all(root: Path) -> list[Hand | ParseError]:
    out: list[Hand | ParseError] = []
    for path in sorted(root.rglob("*.txt")):
        out.extend(parsing.parse_file(path))
    return out


def _each_backend(read: Iterator[Block] | list[Block]) -> dict[str, list[Hand | ParseError]]:
    blocks = list(read)
    out: dict[str, list[Hand | ParseError]] = {}
    for backend in parsing.BACKENDS:
        parsing.use_backend(backend)
        out[backend] = [parsing.parse_block(b) for b in blocks]
    return out


def test_the_driver_is_built_by_default(restore_default_parser: None) -> None:
    parsing.use_backend("driver")
    parsing._parser()
    assert parsing._DRIVER is not None


def test_back_ends_agree_on_the_whole_corpus(corpus_dir: Path, restore_default_parser: None) -> None:
    read = {}
    for backend in parsing.BACKENDS:
        parsing.use_backend(backend)
        read[backend] = _read_all(corpus_dir)
    assert len(read["lark"]) > 500
    for backend in ("lark-cython", "driver"):
        assert len(read[backend]) == len(read["lark"])
        for a, b in zip(read["lark"], read[backend], strict=True):
            assert a == b


def test_back_ends_agree_on_damaged_input(
    tmp_path: Path, corpus_dir: Path, restore_default_parser: None
) -> None:
    text = (corpus_dir / "courchevel-hilo" / "stars-cash-pl-1-2-2013-run-it-twice.txt").read_bytes().decode()
    damaged = [
        text.replace("Hero: bets $71.50", "Hero: bets $71.50 ???"),
        text.replace("*** SUMMARY ***", "*** SUMMRY ***"),
        text[: len(text) // 2],
        text.replace("Seat 4: Hero ($353.48 in chips)", "Seat 4: Hero ($353.48 in chps)"),
    ]
    path = tmp_path / "damaged.txt"
    path.write_text("\n\n\n".join(damaged), encoding="utf-8")
    read = _each_backend(split_path(path))
    assert read["lark"] == read["lark-cython"] == read["driver"]
    assert all(isinstance(x, ParseError) for x in read["driver"])


def test_back_ends_agree_on_randomly_damaged_corpus_hands(
    corpus_dir: Path, restore_default_parser: None
) -> None:
    """Lines dropped, swapped, repeated or cut anywhere in real hands: same hand or same error."""
    rnd = random.Random(20261129)
    blocks: list[Block] = []
    for block in split_path(corpus_dir):
        lines = block.text.split("\n")
        for _ in range(2):
            cut = list(lines)
            i, j = rnd.randrange(len(cut)), rnd.randrange(len(cut))
            match rnd.randrange(4):
                case 0:
                    del cut[i]
                case 1:
                    cut[i], cut[j] = cut[j], cut[i]
                case 2:
                    cut.insert(i, cut[j])
                case _:
                    cut[i] = cut[i][: rnd.randrange(len(cut[i]) + 1)]
            blocks.append(Block(block.source, block.line, "\n".join(cut), block.kind))
    read = _each_backend(blocks)
    errors = sum(isinstance(x, ParseError) for x in read["lark"])
    assert 100 < errors < len(blocks)  # both outcomes are exercised
    assert read["lark"] == read["lark-cython"]
    assert read["lark"] == read["driver"]
