"""The built parser is kept in hhparse's cache folder and loaded by the next process (issue 16,
start-up): a loaded parser reads every file exactly like one built from the grammar, damaged
input included; a damaged cache file is rebuilt; a folder that cannot be written means no cache,
never an error; an empty ``HHPARSE_CACHE_DIR`` turns the cache off."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark.lark
import lark.load_grammar
import pytest

from hhparse import larkglue, parsing
from hhparse.errors import ParseError
from hhparse.model import Hand

sys.path.insert(0, str(Path(__file__).parent))
from _cache_helpers import damaged_copy, resigned

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
    files = sorted((tmp_path / "cache").iterdir())
    assert [f.name[:7] for f in files] == ["driver-", "parser-"], files
    assert _read() == built

    with monkeypatch.context() as m:
        _no_grammar_loading(m)
        parsing.use_backend("driver")  # loads the file
        assert parsing._DRIVER is not None
        assert _read() == built
    assert sorted((tmp_path / "cache").iterdir()) == files


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_a_damaged_cache_file_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None, damage: bytes | None
) -> None:
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected = _read()
    (cache,) = tmp_path.glob("parser-*")
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


# The driver's tables (``driver-*.pickle``, beside the saved parser): read off lark's tables once,
# loaded by the next process instead of read again (lark's lexer regexes compiled, every terminal's
# regex parsed and compiled, the covers of its needles chosen).


def _driver_tables(driver: Any) -> Any:
    """Everything the driver runs on, comparable: its tables, its terminals (regexes compared by
    their compiled code), its rules' callbacks (by name), its lexers' covers."""

    def term(t: Any) -> Any:
        name, match, prefix, needles, fast, guard_prefix, guard_needles = t
        fast_re = fast.__self__ if fast is not None else None
        return (
            name,
            match.__self__,
            match.__self__.groupindex,
            prefix,
            needles,
            fast_re,
            guard_prefix,
            guard_needles,
        )

    def entries(group: Any) -> Any:
        return [(e.name, e.id, e.cover, e.guard_cover, e.needle) for e in group]

    lexers = [
        None if lx is None else (sorted((c, entries(g)) for c, g in lx.by_first.items()), entries(lx.other))
        for lx in driver._lexers
    ]
    return (
        driver.actions,
        [(n, origin, callback.__name__) for n, origin, callback in driver.rules],
        [None if f is None else f.__name__ for f in driver.lines],
        [None if row is None else [term(t) for t in row] for row in driver.lexers],
        driver.ignore,
        driver.start,
        driver.end,
        lexers,
    )


def _no_table_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("lark's tables were read: the driver's file was not used")

    monkeypatch.setattr(larkglue, "_line_term", refuse)


def test_a_loaded_driver_is_the_driver_read_off_lark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    from hhparse import lalr

    monkeypatch.setenv(larkglue.CACHE_ENV, "")
    parsing.use_backend("driver")
    built = _read()

    # (lark may number the states of two builds apart: compared within one saved parser)
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")  # the parser built from the grammar, the driver's file written
    expected = _driver_tables(parsing._DRIVER)
    assert _read() == built
    (kept,) = tmp_path.glob("driver-*.pickle")
    written = kept.read_bytes()
    with monkeypatch.context() as m:  # the parser loaded, the driver's tables read off it
        m.setattr(larkglue, "_driver_file", lambda *args: None)
        parsing.use_backend("driver")
        assert _driver_tables(parsing._DRIVER) == expected
    with monkeypatch.context() as m:  # both loaded (the covers too: none chosen in this process)
        _no_grammar_loading(m)
        _no_table_reading(m)
        lalr._COVERS.clear()
        parsing.use_backend("driver")
        assert _driver_tables(parsing._DRIVER) == expected
        assert _read() == built
    assert kept.read_bytes() == written  # a file once written never changes


def _by_last(driver: Any, lasts: str) -> Any:
    """Every lexer group's entries for a line ending with each of ``lasts``, comparable."""
    out = []
    for lexer in driver._lexers:
        if lexer is None:
            continue
        for group in [*lexer.groups.values(), lexer.rest]:
            for last in ["", *lasts]:
                out.append(
                    [
                        (e.name, e.id, e.needles, e.cover, e.guard_needles, e.guard_cover, e.unguarded)
                        for e in group.for_last(last)
                    ]
                )
    return out


def test_a_loaded_driver_chooses_no_cover_on_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    """The driver's file keeps the cover of every list of entries a line ending with a printable
    ASCII character (and a few others) asks for (:meth:`~hhparse.lalr.LineParser.choose_covers`):
    a process that loads it chooses none on its first hands, and builds the same lists."""
    from hhparse import lalr

    # (lark may number the states of two builds apart: compared within one saved parser)
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")  # the parser built from the grammar, the driver's file written
    with monkeypatch.context() as m:  # the driver read off lark, no file: lists built as lines ask
        m.setattr(larkglue, "_driver_file", lambda *args: None)
        lalr._COVERS.clear()
        parsing.use_backend("driver")
        lazily = _by_last(parsing._DRIVER, lalr.CHOSEN_LASTS)
        chosen = dict(lalr._COVERS)
    with monkeypatch.context() as m:
        _no_table_reading(m)
        lalr._COVERS.clear()
        parsing.use_backend("driver")  # loaded: every cover with it
        loaded = dict(lalr._COVERS)
        assert set(chosen) <= set(loaded)
        assert all(loaded[key] == cover for key, cover in chosen.items())
        assert _by_last(parsing._DRIVER, lalr.CHOSEN_LASTS) == lazily
        assert loaded == lalr._COVERS  # none chosen in this process
        # and what the file keeps is what choosing them gives
        for (needles, others), cover in loaded.items():
            assert lalr._cover_of(needles, "\0".join(sorted(others))) == cover
    assert (
        parsing._DRIVER.choose_covers("é")
        == sum(
            len(lx.groups) + 1
            for lx in {id(lx): lx for lx in parsing._DRIVER._lexers if lx is not None}.values()
        )
        * 2
    )


@pytest.mark.parametrize("damage", ["empty", "half", "a byte", "another layout", "not ours"])
def test_a_damaged_driver_file_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None, damage: str
) -> None:
    import pickle

    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected, tables = _read(), _driver_tables(parsing._DRIVER)
    (kept,) = tmp_path.glob("driver-*.pickle")
    whole = kept.read_bytes()
    damaged = damaged_copy(whole, damage)
    if damage == "another layout":  # checksum right, contents not
        damaged = resigned(larkglue._DRIVER_MAGIC, pickle.dumps((1, [2], 3)))
    elif damaged is None:
        damaged = b"not a driver's file at all"
    kept.write_bytes(damaged)
    parsing.use_backend("driver")  # read off lark again, the file replaced
    assert _driver_tables(parsing._DRIVER) == tables
    assert _read() == expected
    assert kept.read_bytes() != damaged
    with monkeypatch.context() as m:  # and the file is a good one again
        _no_table_reading(m)
        parsing.use_backend("driver")
        assert _driver_tables(parsing._DRIVER) == tables


@pytest.mark.parametrize("wrong", ["another parser's states", "invalid regex code"])
def test_a_driver_file_that_does_not_fit_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None, wrong: str
) -> None:
    """A file with a good checksum that does not fit the parser beside it (another start
    state), or whose regex code is wrong (``_sre`` checks every code it is given), is refused
    and replaced, not run."""
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected, tables = _read(), _driver_tables(parsing._DRIVER)
    (kept,) = tmp_path.glob("driver-*.pickle")
    kept.unlink()
    with monkeypatch.context() as m:  # written wrong
        if wrong == "invalid regex code":
            parts = larkglue._parts

            def bad_parts(*args: Any) -> Any:
                got = parts(*args)
                return got and (got[0], got[1], [c + 1000 for c in got[2]], *got[3:])

            m.setattr(larkglue, "_parts", bad_parts)
            with pytest.raises(RuntimeError):
                larkglue._regex(bad_parts(r"a(?P<x>b)\n", 0, re.compile(r"a(?P<x>b)\n")))
        else:
            save = larkglue._save_driver

            def wrong_start(path: Path, fits: Any, *rest: Any) -> None:
                save(path, (fits[0], fits[1] + 1, *fits[2:]), *rest)

            m.setattr(larkglue, "_save_driver", wrong_start)
        parsing.use_backend("driver")
        assert _driver_tables(parsing._DRIVER) == tables
    written = kept.read_bytes()
    parsing.use_backend("driver")  # refused, read off lark again, the file replaced
    assert _driver_tables(parsing._DRIVER) == tables
    assert _read() == expected
    assert kept.read_bytes() != written
    with monkeypatch.context() as m:
        _no_table_reading(m)
        parsing.use_backend("driver")
        assert _driver_tables(parsing._DRIVER) == tables


def test_another_grammar_or_driver_gets_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected = _read()
    first = sorted(p.name for p in tmp_path.iterdir())
    source = larkglue.grammar_source
    with monkeypatch.context() as m:  # the grammar changed (a comment is enough)
        m.setattr(parsing, "grammar_source", lambda text, *a: source(text + "\n// another grammar\n", *a))
        parsing.use_backend("driver")
        assert _read() == expected
    second = sorted(p.name for p in tmp_path.iterdir())
    assert len(second) == 4 and set(first) < set(second)
    with monkeypatch.context() as m:  # the driver's code changed: its tables are read again
        m.setattr(larkglue, "_SOURCE", b"another driver")
        parsing.use_backend("driver")
        assert _read() == expected
    third = sorted(p.name for p in tmp_path.iterdir())
    assert (
        len(third) == 5
        and set(second) < set(third)
        and next(n for n in third if n not in second)[:7] == "driver-"
    )


def test_what_stands_where_the_driver_file_goes_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_default_parser: None
) -> None:
    """A folder (not hhparse's) where the driver's file would go: read off lark each time,
    nothing of it touched, no error."""
    monkeypatch.setenv(larkglue.CACHE_ENV, str(tmp_path))
    parsing.use_backend("driver")
    expected = _read()
    (kept,) = tmp_path.glob("driver-*.pickle")
    kept.unlink()
    kept.mkdir()
    (kept / "someone's").write_text("theirs")
    parsing.use_backend("driver")
    assert parsing._DRIVER is not None and _read() == expected
    assert [p.name for p in kept.iterdir()] == ["someone's"] and (kept / "someone's").read_text() == "theirs"
    assert sorted(p.name[:7] for p in tmp_path.iterdir()) == ["driver-", "parser-"]
