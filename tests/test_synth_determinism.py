"""Same seed, same bytes; different seed, different hands; files named and encoded like the client's."""

from __future__ import annotations

import io
from pathlib import Path

from hhparse.synth import GAMES, SynthConfig, write


def _run(seed: int) -> str:
    buf = io.StringIO()
    write(
        SynthConfig(hands=400, seed=seed, games=tuple(GAMES), kinds=("cash", "tournament"), players=(2, 9)),
        stream=buf,
    )
    return buf.getvalue()


def test_same_seed_same_bytes() -> None:
    assert _run(7) == _run(7)


def test_other_seed_other_hands() -> None:
    assert _run(7) != _run(8)


def test_directory_output_is_byte_identical_and_client_shaped(tmp_path: Path) -> None:
    config = SynthConfig(hands=600, seed=3, games=("courchevel-hilo",), kinds=("cash", "tournament"))
    write(config, directory=tmp_path / "a")
    write(config, directory=tmp_path / "b")
    files_a = sorted(p.name for p in (tmp_path / "a").iterdir())
    files_b = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert files_a == files_b and files_a
    for name in files_a:
        data = (tmp_path / "a" / name).read_bytes()
        assert data == (tmp_path / "b" / name).read_bytes()
        assert name.startswith("HH") and name.endswith(".txt")
        assert " Courchevel Hi-Lo " in name
        year = int(name[2:6])
        assert data.startswith(b"\xef\xbb\xbf") == (year >= 2017)
        assert data.count(b"\xef\xbb\xbf") <= 1  # only at file start
        text = data.decode("utf-8-sig")
        assert text.replace("\r\n", "\n").endswith("\n\n\n\n")  # three blank lines after every hand
        assert ("\r\n" in text) == (text.count("\r\n") == text.count("\n"))  # one line-end style per file
    assert any(
        " T" in n and " + " in n for n in files_a
    )  # a tournament file: HHdate Tid game $a + $b(+ $c).txt
    assert any(" - USD " in n for n in files_a)  # a cash file: HHdate Table - $sb-$bb - USD game.txt
