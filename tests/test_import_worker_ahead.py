"""A task parses a few dozen blocks ahead of the referee (``hhparse.import_worker.PARSE_AHEAD``):
what it returns must be what parsing and refereeing each block in turn gives, block for block,
and a bug in either stage must still cost only its own block (an ``internal-error`` reject)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from _warehouse_helpers import same_task_result

from hhparse import import_worker
from hhparse.import_worker import process_blocks
from hhparse.splitter import Block, split_path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"


def _blocks() -> list[Block]:
    """The sample histories' hands with damaged ones among them: a hand cut in its middle, a
    block of garbage, a hand cut among its summary's seat lines as its file's open tail."""
    blocks = list(split_path(SAMPLES))[:150]
    cut = dataclasses.replace(blocks[10], text=blocks[10].text[: len(blocks[10].text) // 2])
    garbage = dataclasses.replace(blocks[20], text="Hello, world\n")
    tail = blocks[30]
    summary_at = tail.text.index("*** SUMMARY ***")
    truncated = dataclasses.replace(tail, text=tail.text[: tail.text.index("\n", summary_at + 60) + 1])
    return [*blocks[:49], cut, *blocks[49:99], garbage, truncated, *blocks[99:]]


@pytest.mark.parametrize("ahead", [2, 7, 50, 1000])
def test_parsing_ahead_gives_what_one_block_at_a_time_gives(
    monkeypatch: pytest.MonkeyPatch, ahead: int
) -> None:
    blocks = _blocks()
    tails = frozenset({100, 101})
    monkeypatch.setattr(import_worker, "PARSE_AHEAD", 1)
    want = process_blocks(blocks, tails, ev=True)
    codes = set(want.tables["rejects"].column("code").to_pylist())
    assert {"truncated-hand"} <= codes and len(codes) >= 2  # (the damaged blocks are rejects)
    monkeypatch.setattr(import_worker, "PARSE_AHEAD", ahead)
    same_task_result(process_blocks(blocks, tails, ev=True), want)


def test_a_bug_in_the_parser_referee_or_ev_costs_only_its_own_block(monkeypatch: pytest.MonkeyPatch) -> None:
    import hhparse.engine
    import hhparse.parsing

    blocks = _blocks()
    clean = process_blocks(blocks, ev=True)
    parse, referee = hhparse.parsing.parse_block, hhparse.engine.referee  # type: ignore[attr-defined,unused-ignore]
    hashable = hhparse.parsing.parse_block_hashable
    broken_parse = {blocks[3].text, blocks[import_worker.PARSE_AHEAD].text}
    broken_referee = {blocks[4].text, blocks[import_worker.PARSE_AHEAD + 1].text}
    broken_ev = {blocks[5].text, blocks[import_worker.PARSE_AHEAD + 2].text}
    hand_ev = import_worker.ev_stage()

    def bad_parse(block: Block) -> Any:  # (the worker's parse: the hand and its hashable text)
        if block.text in broken_parse:
            raise RuntimeError("parser bug")
        return hashable(block)

    def bad_referee(hand: Any) -> Any:
        if hand.header.hand_id in hand_ids:
            raise KeyError("referee bug")
        return referee(hand)

    def bad_ev(result: Any) -> Any:
        if result.hand.header.hand_id in ev_ids:
            raise ValueError("ev bug")
        return hand_ev(result)

    hand_ids = {parse(b).header.hand_id for b in blocks if b.text in broken_referee}  # type: ignore[union-attr]
    ev_ids = {parse(b).header.hand_id for b in blocks if b.text in broken_ev}  # type: ignore[union-attr]
    monkeypatch.setattr(import_worker, "ev_stage", lambda: bad_ev)
    monkeypatch.setattr(hhparse.parsing, "parse_block_hashable", bad_parse)
    monkeypatch.setattr(hhparse.engine, "referee", bad_referee)
    got = process_blocks(blocks, ev=True)

    rejects = got.tables["rejects"].to_pylist()
    bugs = {r["_hand_idx"]: r["message"] for r in rejects if r["code"] == "internal-error"}
    n = import_worker.PARSE_AHEAD
    assert bugs == {
        3: "RuntimeError: parser bug",
        n: "RuntimeError: parser bug",
        4: "KeyError: 'referee bug'",
        n + 1: "KeyError: 'referee bug'",
        5: "ValueError: ev bug",
        n + 2: "ValueError: ev bug",
    }
    assert [r["raw_text"] for r in rejects if r["code"] == "internal-error"] == [
        blocks[i].text for i in sorted(bugs)
    ]
    same = [i for i in range(len(blocks)) if i not in bugs]
    assert [got.hashes[i] for i in same] == [clean.hashes[i] for i in same]
    assert [got.accepted[i] for i in same] == [clean.accepted[i] for i in same]
    assert not any(got.accepted[i] for i in bugs)
