"""Issue #13, finding 10: importing a file the client is still writing.

The client appends each hand when it ends, so an import may catch a file cut anywhere: inside a
line, between two summary seat lines, in the first bytes of the next header. Whatever the cut,
once the file is complete and imported again the warehouse must equal a clean import of it, and
no reject of the half-written hand may remain in ``rejects``. Checked on a real multi-hand file
(read in place) cut at a dense sample of byte offsets (every offset with
``HHPARSE_EVERY_CUT=1``; ``bench/fuzz.py --cuts`` runs that too), both while the file is still
changing and after it has stopped.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import hhparse.import_worker as import_worker
from hhparse.failures import UsageError
from hhparse.importer import import_paths
from hhparse.tables.schema import TABLES, superseded_rejects
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, read_views, write_hands

REAL = "omaha/stars-cash-pl-eur-0.01-0.02-2022-03-orion.txt"  # 3 hands: BOM, cp1252 €, LF
REAL_CRLF = "omaha-hilo/stars-tour-nl-stt-ko-2011-73hands.txt"  # 73 hands: BOM, CRLF


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of tiny imports: skip what only matters for big ones (durability, the full GC)."""
    monkeypatch.setattr(import_worker, "quiet_gc", lambda: (700, 10, 10))
    monkeypatch.setattr(import_worker, "restore_gc", lambda previous: None)
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def _settle(path: Path) -> None:
    old = time.time() - 3600
    os.utime(path, (old, old))


def _content(wh: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table but ``imports`` as sorted rows, ``rejects`` without its superseded rows (what
    the ``rejects`` view shows): what a warehouse holds, whatever its batches."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with Warehouse(wh) as w:
        stale = set(superseded_rejects(w.manifest.to_json()))
        for name in TABLES:
            if name == "imports":
                continue
            rows = w.read_table(name).to_pylist()
            if name == "rejects":
                rows = [r for r in rows if (r["source"], r["line"], r["content_hash"]) not in stale]
            out[name] = sorted(tuple(repr(v) for v in r.values()) for r in rows)
    return out


def _cuts(data: bytes, every: int) -> list[int]:
    """Every offset with HHPARSE_EVERY_CUT=1; else every offset where the cases differ in the
    last hand (its header, the line ends of its summary, its very end) and a stride elsewhere."""
    size = len(data)
    if os.environ.get("HHPARSE_EVERY_CUT"):
        return list(range(size + 1))
    cuts = set(range(0, size + 1, every))
    last = _starts(data)[-1]
    cuts.update(range(last - 2, last + 22))
    summary = data.find(b"*** SUMMARY", last)
    for i in range(summary, size):
        if data[i : i + 1] == b"\n":
            cuts.update((i, i + 1, i + 2))
    cuts.update(range(size - 8, size + 1))
    return sorted(c for c in cuts if 0 <= c <= size)


def _starts(data: bytes) -> list[int]:
    """Where each hand header starts."""
    return [m.start() for m in re.finditer(rb"PokerStars (?:Hand|Game) #", data)]


def _check_cuts(tmp_path: Path, data: bytes, cuts: list[int], settle: float | None) -> int:
    """Cut the file at each offset, import, complete it, import again: the warehouse must equal
    a clean import. ``settle=0``: the cut file had stopped changing (a crash); then one case is
    allowed to differ, and only as a reported conflict: a hand cut inside its last line that
    still reads as a whole, valid hand was taken as it stood (see docs/input.md)."""
    f = tmp_path / "live.txt"
    f.write_bytes(data)
    _settle(f)
    clean = tmp_path / "clean"
    import_paths([f], clean, jobs=1)
    expected = _content(clean)
    assert expected["hands"] and not expected["rejects"]
    checked = 0
    for cut in cuts:
        wh = tmp_path / f"wh{settle}-{cut}"
        f.write_bytes(data[:cut])
        first = import_paths([f], wh, jobs=1, settle_seconds=settle)
        f.write_bytes(data)  # the client writes the rest
        second = import_paths([f], wh, jobs=1, settle_seconds=settle)
        assert second.stats.pending == 0, cut
        got = _content(wh)
        where = f"cut at byte {cut}: ...{data[max(0, cut - 40) : cut]!r}"
        if got != expected and settle == 0 and second.stats.conflicting == 1:
            assert data[cut - 1 : cut] not in (b"\n", b"\r") and first.stats.new >= 1, where
            assert got["rejects"] == expected["rejects"], where  # no stale reject, at least
            continue
        assert got == expected, where
        checked += 1
    return checked


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("settle", [None, 0.0], ids=["still-changing", "stopped-changing"])
def test_file_cut_at_any_byte_then_completed_equals_a_clean_import(
    tmp_path: Path, corpus_dir: Path, quick: None, settle: float | None
) -> None:
    data = (corpus_dir / REAL).read_bytes()
    assert _check_cuts(tmp_path, data, _cuts(data, 157), settle) > 40


@pytest.mark.corpus
@pytest.mark.parametrize("settle", [None, 0.0], ids=["still-changing", "stopped-changing"])
def test_crlf_file_cut_near_its_end(
    tmp_path: Path, corpus_dir: Path, quick: None, settle: float | None
) -> None:
    data = (corpus_dir / REAL_CRLF).read_bytes()
    data = data[_starts(data)[-3] :]  # its last three hands
    cuts = [c for c in _cuts(data, 10**9) if c > len(data) - 1500][::2]
    assert _check_cuts(tmp_path, data, cuts, settle) > 20


def test_file_cut_between_summary_seat_lines_is_never_a_valid_hand(tmp_path: Path) -> None:
    # Regression: a file cut between the summary seat lines of its last hand was stored as a
    # valid, truncated hand, and the rest of the hand was never read.
    full = make_hand("2")
    cut = full.index("Seat 5: Player2 (small blind)")
    f = write_hands(tmp_path / "live.txt", ["1"])
    with open(f, "a") as fh:
        fh.write(full[:cut])  # ends with a line end: every line whole, the last seats missing
    live = import_paths([f], tmp_path / "wh", jobs=1)
    assert (live.stats.new, live.stats.rejected, live.stats.pending) == (1, 0, 1)
    _settle(f)  # the client died there: the hand is rejected, not stored
    stopped = import_paths([f], tmp_path / "wh", jobs=1)
    assert (stopped.stats.new, stopped.stats.rejected, stopped.stats.pending) == (0, 1, 0)
    (row,) = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert (row["code"], row["hand_id"]) == ("truncated-hand", "2")
    with open(f, "a") as fh:
        fh.write(full[cut:] + "\n\n\n")
    done = import_paths([f], tmp_path / "wh", jobs=1)
    assert (done.stats.new, done.stats.rejected, done.stats.superseded) == (1, 0, 1)
    views = read_views(tmp_path / "wh")
    assert views["rejects"].num_rows == 0
    from hhparse.tables.build import content_hash

    stored = {r["hand_id"]: r["content_hash"] for r in views["hands"].to_pylist()}
    assert stored == {"1": content_hash(make_hand("1")), "2": content_hash(full)}


def test_first_bytes_of_the_next_header_leave_the_hand_before_valid(tmp_path: Path) -> None:
    # Regression: a file ending in "PokerStars Hand #1213" made the complete hand before it a reject.
    f = write_hands(tmp_path / "live.txt", ["1"])
    with open(f, "a") as fh:
        fh.write("PokerStars Hand #1213")
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.rejected, r.stats.pending) == (1, 0, 1)
    with open(f, "a") as fh:
        fh.write(make_hand("1213")[len("PokerStars Hand #1213") :] + "\n\n\n")
    again = import_paths([f], tmp_path / "wh", jobs=1)
    assert (again.stats.new, again.stats.rejected, again.stats.pending) == (1, 0, 0)
    assert sorted(read_views(tmp_path / "wh")["hands"].column("hand_id").to_pylist()) == ["1", "1213"]


def test_pending_hand_of_an_unchanged_file_is_read_once_the_file_settles(tmp_path: Path) -> None:
    f = write_hands(tmp_path / "live.txt", ["1"])
    with open(f, "a") as fh:
        fh.write(make_hand("2")[:300])
    first = import_paths([f], tmp_path / "wh", jobs=1)
    assert (first.stats.new, first.stats.pending) == (1, 1)
    assert import_paths([f], tmp_path / "wh", jobs=1).stats.pending == 1  # still changing: waits
    _settle(f)
    settled = import_paths([f], tmp_path / "wh", jobs=1)
    assert (settled.stats.read, settled.stats.rejected, settled.stats.pending) == (1, 1, 0)
    assert import_paths([f], tmp_path / "wh", jobs=1).stats.files_skipped == 1


def test_whole_last_hand_of_a_live_file_is_imported_at_once(tmp_path: Path) -> None:
    """A last hand with no blank line after it, but whole (valid, every seat in its summary, its
    last line ended), is final even while the file changes: no waiting for a copied file."""
    f = tmp_path / "copy.txt"
    f.write_text(make_hand("1") + "\n\n\n" + make_hand("2"))
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.pending) == (2, 0)


def test_settle_seconds_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = write_hands(tmp_path / "a.txt", ["1"])
    with open(f, "a") as fh:
        fh.write(make_hand("2")[:300])
    monkeypatch.setenv("HHPARSE_SETTLE_SECONDS", "0")
    assert import_paths([f], tmp_path / "wh", jobs=1).stats.rejected == 1
    monkeypatch.setenv("HHPARSE_SETTLE_SECONDS", "soon")
    with pytest.raises(UsageError):
        import_paths([f], tmp_path / "wh2", jobs=1)
