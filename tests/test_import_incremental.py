"""Incremental import: unchanged files skipped, grown files resumed, duplicates and conflicts."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import hhparse.import_plan as import_plan
from hhparse.importer import import_paths
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, read_views, write_hands


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _manifest(wh: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((wh / "manifest.json").read_text())
    return data


def test_reimport_is_a_noop(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1", "2", "3"])
    write_hands(tmp_path / "in" / "sub" / "b.txt", ["4"], crlf=True)
    first = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (first.stats.read, first.stats.new, first.exit_code) == (4, 4, 0)
    before = read_views(tmp_path / "wh")
    manifest = _manifest(tmp_path / "wh")
    again = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (again.stats.files_skipped, again.stats.read, again.stats.batches) == (2, 0, 0)
    assert _manifest(tmp_path / "wh") == manifest
    assert read_views(tmp_path / "wh") == before


def test_touched_but_unchanged_file_is_not_reread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = write_hands(tmp_path / "a.txt", ["1", "2"])
    import_paths([f], tmp_path / "wh", jobs=1)
    os.utime(f, (1_000_000_000, 1_000_000_000))
    again = import_paths([f], tmp_path / "wh", jobs=1)
    assert (again.stats.files_skipped, again.stats.read) == (1, 0)
    # Regression: the manifest kept the old mtime, so every later run hashed the file again.
    record = _manifest(tmp_path / "wh")["files"][str(f)]  # type: ignore[index]
    assert record["mtime_ns"] == f.stat().st_mtime_ns

    def no_read(path: Path, sizes: object) -> list[str]:
        raise AssertionError(f"{path} was hashed again")

    monkeypatch.setattr(import_plan, "hash_prefix", no_read)
    third = import_paths([f], tmp_path / "wh", jobs=1)
    assert (third.stats.files_skipped, third.stats.read, third.stats.batches) == (1, 0, 0)


def test_grown_file_imports_only_the_new_hands(tmp_path: Path) -> None:
    f = write_hands(tmp_path / "a.txt", ["1", "2", "3"])
    import_paths([f], tmp_path / "wh", jobs=1)
    old_size = f.stat().st_size
    with open(f, "a", encoding="utf-8") as fh:
        fh.write(make_hand("4") + "\n\n\n" + make_hand("5") + "\n\n\n")
    grown = import_paths([f], tmp_path / "wh", jobs=1)
    assert (grown.stats.read, grown.stats.new, grown.stats.duplicate) == (2, 2, 0)
    assert grown.files[0].resumed_from == old_size
    views = read_views(tmp_path / "wh")
    assert views["hands"]["hand_id"].to_pylist() == ["1", "2", "3", "4", "5"]
    lines = dict(zip(views["hands"]["hand_id"].to_pylist(), views["hands"]["line"].to_pylist(), strict=True))
    assert lines["4"] == 1 + 3 * (HAND_LINES + 3)  # file line numbers continue across the append
    with Warehouse(tmp_path / "wh") as wh:
        imports = wh.read_table("imports").to_pylist()
    assert [(r["hands_read"], r["resumed_from"]) for r in imports] == [(3, 0), (2, old_size)]


HAND_LINES = make_hand("1").rstrip("\n").count("\n") + 1


def test_changed_prefix_is_reread_and_reports_conflicts(tmp_path: Path) -> None:
    f = write_hands(tmp_path / "a.txt", ["1", "2", "3"])
    import_paths([f], tmp_path / "wh", jobs=1)
    text = f.read_text().replace("christos805", "christos999", 1) + make_hand("4") + "\n"
    f.write_text(text)
    again = import_paths([f], tmp_path / "wh", jobs=1)
    s = again.stats
    assert (s.read, s.new, s.duplicate, s.conflicting) == (4, 1, 2, 1)
    assert again.conflicts == [(str(f.absolute()), "1")]
    hands = read_views(tmp_path / "wh")["hands"]
    assert hands.num_rows == 4
    # the original text of hand 1 is kept, not the conflicting one
    from hhparse.tables.build import content_hash

    row = next(r for r in hands.to_pylist() if r["hand_id"] == "1")
    assert row["content_hash"] == content_hash(make_hand("1"))


def test_duplicates_and_conflicts_across_files(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    b = tmp_path / "in" / "b.txt"
    b.write_text("\n\n\n".join([make_hand("2"), make_hand("3"), make_hand("1", variant="x")]) + "\n")
    r = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    per_file = {Path(f.path).name: (f.read, f.new, f.duplicate, f.conflicting) for f in r.files}
    assert per_file == {"a.txt": (2, 2, 0, 0), "b.txt": (3, 1, 1, 1)}
    assert [h for _, h in r.conflicts] == ["1"]
    assert read_views(tmp_path / "wh")["hands"].num_rows == 3
    with Warehouse(tmp_path / "wh") as wh:
        imports = {Path(x["path"]).name: x for x in wh.read_table("imports").to_pylist()}
    assert imports["b.txt"]["conflicts"] == ["1"] and imports["b.txt"]["hands_conflicting"] == 1


def test_crlf_copy_with_trailing_spaces_is_a_duplicate_not_a_conflict(tmp_path: Path) -> None:
    write_hands(tmp_path / "a.txt", ["1"])
    (tmp_path / "b.txt").write_bytes(("\ufeff" + make_hand("1").replace("\n", " \r\n")).encode())
    r = import_paths([tmp_path / "a.txt", tmp_path / "b.txt"], tmp_path / "wh", jobs=1)
    assert (r.stats.new, r.stats.duplicate, r.stats.conflicting) == (1, 1, 0)


def test_identical_reject_texts_keep_every_location(tmp_path: Path) -> None:
    # Regression (issue #13, finding 15): rejects were deduplicated on their text alone, so the
    # same bad text at a second place (another line, another file) was not stored: that place
    # was lost. A reject is a duplicate only at the same place of the same file.
    bad = make_hand("9").replace("*** SUMMARY ***", "*** SUMMRY ***") + "\n\n\n"
    (tmp_path / "a.txt").write_text(bad)
    (tmp_path / "b.txt").write_text(bad + make_hand("8") + "\n\n\n" + bad)
    r = import_paths([tmp_path], tmp_path / "wh", jobs=1)
    assert (r.stats.rejected, r.stats.duplicate, r.stats.new, r.exit_code) == (3, 0, 1, 1)
    rejects = read_views(tmp_path / "wh")["rejects"].to_pylist()
    second = 1 + 2 * (HAND_LINES + 3)
    assert sorted((Path(x["source"]).name, x["line"]) for x in rejects) == [
        ("a.txt", 1),
        ("b.txt", 1),
        ("b.txt", second),
    ]
    assert all(x["raw_text"].startswith("PokerStars Hand #9:") for x in rejects)
    (tmp_path / "b.txt").write_text(bad + make_hand("8") + "\n\n\n" + bad + make_hand("7") + "\n\n\n")
    grown = import_paths([tmp_path], tmp_path / "wh", jobs=1)  # the same rejects, same places
    assert (grown.stats.new, grown.stats.rejected) == (1, 0)
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 3
    changed = tmp_path / "b.txt"  # read again from the start: the same rejects at the same places
    changed.write_text(changed.read_text().replace("#8:", "#6:"))
    again = import_paths([changed], tmp_path / "wh", jobs=1)
    assert (again.stats.rejected, again.stats.duplicate, again.stats.new) == (0, 3, 1)
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 3


def test_batches_are_published_as_the_import_goes(tmp_path: Path) -> None:
    write_hands(tmp_path / "a.txt", [str(i) for i in range(1, 31)])
    r = import_paths([tmp_path / "a.txt"], tmp_path / "wh", jobs=1, task_hands=4, batch_hands=10)
    assert r.stats.batches >= 3
    assert read_views(tmp_path / "wh")["hands"].num_rows == 30


def test_parallel_import_equals_in_process_import(tmp_path: Path) -> None:
    for n in range(4):
        write_hands(tmp_path / "in" / f"{n}.txt", [str(n * 100 + i) for i in range(25)])
    if not install_referee():
        pytest.skip("workers need the real referee (hhparse.engine.referee)")
    import_paths([tmp_path / "in"], tmp_path / "w1", jobs=1, task_hands=7)
    import_paths([tmp_path / "in"], tmp_path / "w2", jobs=2, task_hands=7, batch_hands=20)
    assert read_views(tmp_path / "w1") == read_views(tmp_path / "w2")
