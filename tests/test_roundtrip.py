"""parse(render(hand)) == hand for every corpus hand, line numbers included."""

from __future__ import annotations

from pathlib import Path

from conftest import corpus_hand_files

from hhparse.model import Hand
from hhparse.parsing import parse_file, parse_text
from hhparse.render import render


def test_roundtrip_corpus(corpus_dir: Path) -> None:
    n = 0
    for path in corpus_hand_files(corpus_dir):
        for h in parse_file(path):
            if not isinstance(h, Hand):
                continue
            back = list(parse_text(render(h), source=h.source, first_line=h.line))
            assert back == [h], f"{path}:{h.line}"
            n += 1
    assert n >= 250
