"""The built parser is kept in hhparse's cache folder and loaded by the next process (issue 16,
start-up): a loaded parser reads every file exactly like one built from the grammar, damaged
input included; a damaged cache file is rebuilt; a folder that cannot be written means no cache,
never an error; an empty ``HHPARSE_CACHE_DIR`` turns the cache off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark.lark
import lark.load_grammar
import pytest

from hhparse import larkglue, parsing
from hhparse.errors import ParseError
from hhparse.model import Hand

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture()
def restore_default_parser() -> Iterator[None]:
    yield
    parsing.use_backend("driver")


def _no_grammar_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the grammar was loaded: the cached parser was not used")

    monkeypatch.setattr(lark.lark, "load_grammar", refuse)
    monkeypatch.setattr(lark.load_grammar, "load_grammar", refuse)
    monkeypatch.setattr(larkglue, "load_grammar", refuse)


def _read() -> list[Hand | ParseError]:
    out: list[Hand | ParseError] = []
    for path in sorted((REPO / "sample_histories").glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig")
        out.extend(parsing.parse_file(path))
        # damaged copies: errors come from lark's own parser, loaded like the driver's tables
        out.extend(parsing.parse_text(text.replace("*** SUMMARY ***", "*** SUMMRY ***", 1)))
        out.extend(parsing.parse_text(text.replace(" in chips)", " in chps)", 1)))
    return out


def test_a_loaded_parser_reads_like_a_built_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    monkeypatch.setenv(larkglue.CACHE_ENV, "")
    parsing.use_backend("driver")
    built = _read()
    assert any(isinstance(x, ParseError) for x in built) and any(isinstance(x, Hand) for x in built)

    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path / "cache"))
    parsing.use_backend("driver")  # builds and writes the file
    files = list((tmp_path / "cache").iterdir())
    assert [f.name[:7] for f in files] == ["parser-"], files
    assert _read() == built

    with monkeypatch.context() as m:
        _no_grammar_loading(m)
        parsing.use_backend("driver")  # loads the file
        assert parsing._DRIVER is not None
        assert _read() == built
    assert list((tmp_path / "cache").iterdir()) == files


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_a_damaged_cache_file_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None, damage: bytes | None
) -> None:
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected = _read()
    (cache,) = tmp_path.iterdir()
    whole = cache.read_bytes()
    damaged = whole[: len(whole) // 2] if damage is None else damage
    cache.write_bytes(damaged)
    parsing.use_backend("driver")
    assert _read() == expected
    assert cache.read_bytes() != damaged
    with monkeypatch.context() as m:  # replaced by a good one
        _no_grammar_loading(m)
        parsing.use_backend("driver")
        assert _read() == expected


def test_a_folder_that_cannot_be_written_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(larkglue.CACHE_ENV, str(blocker / "cache"))
    parsing.use_backend("driver")
    assert parsing._DRIVER is not None
    assert [x for x in _read() if isinstance(x, Hand)]
    assert blocker.read_text() == "not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_where_the_cache_folder_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(larkglue.CACHE_ENV, "")
    assert larkglue.cache_dir() is None
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    assert larkglue.cache_dir() == tmp_path
    monkeypatch.delenv(larkglue.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("sys.platform", "linux")
    assert larkglue.cache_dir() == tmp_path / "xdg" / "hhparse"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert larkglue.cache_dir() == tmp_path / "home" / ".cache" / "hhparse"
