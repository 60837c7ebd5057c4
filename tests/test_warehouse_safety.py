"""Issue #13, warehouse side: a user's files are never touched (findings 1, 2), outside Parquet
readers see each row once (finding 14), warehouses of an older hhparse are adopted, and a
damaged warehouse is one sentence with exit code 3 (finding 7)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.dataset as ds
import pytest
from typer.testing import CliRunner

from hhparse.cli import app
from hhparse.importer import import_paths
from hhparse.tables.store import MARKER_NAME, RETIRED_GRACE_SECONDS, Warehouse

sys.path.insert(0, str(Path(__file__).parent))
import legacy_store_v1
from _warehouse_helpers import install_referee, make_hand, read_views, write_hands

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


# -- findings 1 and 2: the user's files -------------------------------------------------------


def test_import_into_the_folder_holding_the_histories_deletes_nothing(tmp_path: Path) -> None:
    """Finding 1: `hhparse import poker/hands -w poker` emptied poker/hands/."""
    hands = tmp_path / "poker" / "hands"
    hands.mkdir(parents=True)
    for f in sorted(SAMPLES.glob("*.txt"))[:2]:
        (hands / f.name).write_bytes(f.read_bytes())
    before = _tree(tmp_path / "poker")
    code, out = _cli("import", str(hands), "-w", str(tmp_path / "poker"), "-j", "1")
    assert code == 2, out
    assert "not an hhparse warehouse and not empty" in out and "choose a new or empty folder" in out
    assert _tree(tmp_path / "poker") == before
    assert sorted(os.listdir(tmp_path / "poker")) == ["hands"]  # not even a lock file


def test_warehouse_on_an_existing_folder_deletes_nothing(tmp_path: Path) -> None:
    """Finding 2: `-w mydocs` deleted mydocs/imports/tax-2024.pdf (a folder named like a table)."""
    docs = tmp_path / "mydocs"
    (docs / "imports").mkdir(parents=True)
    (docs / "imports" / "tax-2024.pdf").write_bytes(b"%PDF-1.4 taxes")
    (docs / ".tmp-notes").write_text("mine")
    before = _tree(docs)
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    for command in (["import", str(tmp_path / "in")], ["compact"]):
        code, out = _cli(*command, "-w", str(docs))
        assert code == 2, out
        assert str(docs) in out
    assert _tree(docs) == before


def test_histories_inside_a_warehouse_are_read_and_never_touched(tmp_path: Path) -> None:
    """A real warehouse whose folders also hold the user's files (histories copied into its
    table folder, notes beside them): import, compact and the expiry of retired files leave them."""
    wh = tmp_path / "poker"
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 9)])
    import_paths([tmp_path / "in"], wh, jobs=1, batch_hands=2, task_hands=2)
    write_hands(wh / "hands" / "more.txt", ["100", "101"])
    (wh / "hands" / "b00000099-deadbeef.parquet.bak").write_bytes(b"user's backup")
    (wh / "imports" / "tax-2024.pdf").write_bytes(b"%PDF")
    mine = {k: v for k, v in _tree(wh).items() if k.endswith((".txt", ".bak", ".pdf"))}
    code, out = _cli("import", str(wh / "hands"), "-w", str(wh), "-j", "1")
    assert code == 0, out
    assert read_views(wh)["hands"].num_rows == 10  # the histories inside were read
    assert _cli("compact", "-w", str(wh))[0] == 0
    with Warehouse(wh) as w:
        w.clean_orphans(now=time.time() + RETIRED_GRACE_SECONDS + 1)
    assert {k: v for k, v in _tree(wh).items() if k in mine} == mine


def test_warehouse_path_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "wh.txt"
    target.write_text("not a folder")
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    for command in (
        ["import", str(tmp_path / "in")],
        ["compact"],
        ["sql", "SELECT 1"],
        ["report", "summary"],
    ):
        code, out = _cli(*command, "-w", str(target))
        assert code == 2, (command, out)
        assert "Traceback" not in out and str(target) in out
    assert target.read_text() == "not a folder"


def test_new_warehouse_is_marked_and_an_empty_folder_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    for wh in (tmp_path / "new", tmp_path / "empty"):
        assert _cli("import", str(tmp_path / "in"), "-w", str(wh), "-j", "1")[0] == 0
        marker = json.loads((wh / MARKER_NAME).read_text())
        assert marker["hhparse_warehouse"] >= 2


# -- adopting a warehouse written by an older hhparse ----------------------------------------


def _legacy_warehouse(tmp_path: Path) -> Path:
    """A warehouse as the hhparse before the marker left it: data files in the table folders, a
    compaction's retired files beside the live ones, and an interrupted batch's orphan."""
    from hhparse.tables.schema import TABLES

    new = tmp_path / "new"
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 9)])
    import_paths([tmp_path / "in"], new, jobs=1)
    with Warehouse(new) as w:
        tables = {name: w.read_table(name) for name in TABLES}
        files = w.manifest.files
    wh = tmp_path / "old"
    with legacy_store_v1.Warehouse(wh) as old:
        for part in range(4):  # four batches, as an import with a small batch size would
            sliced = {}
            for name, t in tables.items():
                size = -(-t.num_rows // 4)
                sliced[name] = t.slice(part * size, size)
            old.publish(sliced, files if part == 3 else {})
        old.compact()
    (wh / "hands" / "b00000042-0badf00d.parquet").write_bytes(
        (wh / "hands")
        .joinpath(json.loads((wh / "manifest.json").read_text())["tables"]["hands"][0].split("/")[1])
        .read_bytes()
    )
    (wh / f".tmp-{'a' * 32}-manifest.json").write_text("{}")
    (wh / "hands" / "notes.txt").write_text("the user's own notes")
    assert not (wh / MARKER_NAME).exists()
    return wh


def test_warehouse_of_an_older_hhparse_is_adopted(tmp_path: Path) -> None:
    wh = _legacy_warehouse(tmp_path)
    expected = read_views(wh)
    assert _glob_count(wh) != 8
    code, out = _cli("import", str(tmp_path / "in"), "-w", str(wh), "-j", "1")
    assert code == 0, out
    assert "quarantine" in out  # said what it moved, and where
    assert (wh / MARKER_NAME).exists()
    assert read_views(wh) == expected
    assert (wh / "hands" / "notes.txt").read_text() == "the user's own notes"
    assert (wh / ".hhparse" / "quarantine" / "hands" / "b00000042-0badf00d.parquet").exists()
    assert (wh / ".hhparse" / "quarantine" / f".tmp-{'a' * 32}-manifest.json").exists()
    # the retired files left the table folder: a glob reads each hand once
    assert _glob_count(wh) == 8


def test_readers_of_an_older_warehouse_need_no_writer(tmp_path: Path) -> None:
    wh = _legacy_warehouse(tmp_path)
    code, out = _cli("sql", "SELECT count(*) AS n FROM hands", "-w", str(wh), "-f", "csv")
    assert code == 0 and out.splitlines() == ["n", "8"], out
    assert not (wh / MARKER_NAME).exists()  # reading changes nothing


# -- finding 14: outside readers --------------------------------------------------------------


def _glob_count(wh: Path, table: str = "hands") -> int:
    row = duckdb.connect().execute(f"SELECT count(*) FROM read_parquet('{wh}/{table}/*.parquet')").fetchone()
    assert row is not None
    return int(row[0])


def _glob_counts(wh: Path) -> dict[str, int]:
    counts = {
        "duckdb": _glob_count(wh),
        "pandas": len(pd.read_parquet(wh / "hands")),
        "pyarrow.dataset": ds.dataset(wh / "hands", format="parquet").count_rows(),
    }
    try:
        import polars as pl
    except ImportError:
        pass
    else:
        counts["polars"] = pl.scan_parquet(f"{wh}/hands/*.parquet").select(pl.len()).collect().item()
    return counts


def test_outside_readers_see_each_row_once_after_compact(tmp_path: Path) -> None:
    """Finding 14: after compact, a glob over a table folder read every hand twice."""
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 21)])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1, batch_hands=5, task_hands=5)
    assert set(_glob_counts(wh).values()) == {20}
    con = duckdb.connect()  # a connection opened before the compaction
    import hhparse

    con = hhparse.warehouse(wh)
    assert _cli("compact", "-w", str(wh))[0] == 0
    assert set(_glob_counts(wh).values()) == {20}
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (20,)  # still readable
    with Warehouse(wh) as w:
        w.clean_orphans(now=time.time() + RETIRED_GRACE_SECONDS + 1)
    assert set(_glob_counts(wh).values()) == {20}
    assert [p.name for p in (wh / "hands").iterdir() if p.suffix == ".parquet"] == [
        Path(rel).name for rel in json.loads((wh / "manifest.json").read_text())["tables"]["hands"]
    ]


def test_a_crash_before_the_commit_leaves_nothing_in_the_table_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 14: a crashed writer's files stayed in the table folders, read by every glob."""
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 11)])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    write_hands(tmp_path / "in" / "b.txt", [str(i) for i in range(11, 21)])
    calls = {"n": 0}
    real = Warehouse._write_manifest

    def crash_at_commit(self: Warehouse) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the first write announces the batch, the second commits it
            raise KeyboardInterrupt  # as abrupt as it gets without killing pytest
        real(self)

    monkeypatch.setattr(Warehouse, "_write_manifest", crash_at_commit)
    with pytest.raises(KeyboardInterrupt):
        import_paths([tmp_path / "in"], wh, jobs=1)
    monkeypatch.undo()
    assert set(_glob_counts(wh).values()) == {10}
    manifest = json.loads((wh / "manifest.json").read_text())
    assert manifest["pending"]  # the announced batch, for the next writer to clean
    assert import_paths([tmp_path / "in"], wh, jobs=1).exit_code == 0
    assert set(_glob_counts(wh).values()) == {20}
    listed = {
        rel for rels in json.loads((wh / "manifest.json").read_text())["tables"].values() for rel in rels
    }
    stored = {
        p.relative_to(wh / ".hhparse" / "files").as_posix()
        for p in (wh / ".hhparse" / "files").rglob("*.parquet")
    }
    assert stored == listed and not list((wh / ".hhparse" / "staging").iterdir())


# -- finding 7: a damaged warehouse is exit 3 in every command --------------------------------


def _damage_manifest(text: str) -> object:
    def damage(wh: Path) -> None:
        (wh / "manifest.json").write_text(text)

    return damage


def _truncate_a_file(wh: Path) -> None:
    rel = json.loads((wh / "manifest.json").read_text())["tables"]["hands"][0]
    path = wh / ".hhparse" / "files" / rel
    data = path.read_bytes()
    os.unlink(wh / rel)  # both names of the file
    path.write_bytes(data[: len(data) // 2])


def _remove_a_file(wh: Path) -> None:
    rel = json.loads((wh / "manifest.json").read_text())["tables"]["actions"][0]
    (wh / ".hhparse" / "files" / rel).unlink()
    (wh / rel).unlink()


@pytest.mark.parametrize(
    "damage",
    [
        _damage_manifest("[]"),
        _damage_manifest("{not json"),
        _damage_manifest('{"tables": {"hands": ["../../etc/passwd"]}}'),
        _truncate_a_file,
        _remove_a_file,
    ],
    ids=[
        "manifest-is-a-list",
        "manifest-not-json",
        "manifest-lists-outside",
        "truncated-parquet",
        "missing-parquet",
    ],
)
def test_damaged_warehouse_exits_3_with_a_sentence(tmp_path: Path, damage: object) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    (tmp_path / "in" / "b.txt").write_text(make_hand("3"))
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in" / "a.txt"], wh, jobs=1)
    damage(wh)  # type: ignore[operator]
    for command in (
        ["import", str(tmp_path / "in" / "b.txt"), "-j", "1"],
        ["compact"],
        ["sql", "SELECT count(*) FROM hands"],
        ["report", "summary"],
    ):
        code, out = _cli(*command, "-w", str(wh))
        assert code == 3, (command, out)
        assert "damaged" in out and str(wh) in out and "Traceback" not in out, out
        assert len(out.strip().splitlines()) == 1, out


def test_damaged_marker_exits_3(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    (wh / MARKER_NAME).write_text("\x00\x00")
    code, out = _cli("sql", "SELECT 1", "-w", str(wh))
    assert code == 3 and "damaged" in out, out


def test_corrupt_parquet_page_in_report_is_damage_not_a_traceback(tmp_path: Path) -> None:
    """A file whose footer is intact but whose data is not: DuckDB fails at query time."""
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 30)])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    rel = json.loads((wh / "manifest.json").read_text())["tables"]["hand_players"][0]
    path = wh / ".hhparse" / "files" / rel
    data = bytearray(path.read_bytes())
    data[4 : len(data) // 2] = b"\xff" * (len(data) // 2 - 4)
    path.write_bytes(bytes(data))
    code, out = _cli("report", "summary", "-w", str(wh))
    assert code == 3, out
    assert "damaged" in out and "Traceback" not in out


def test_a_table_folder_that_cannot_be_updated_is_a_note_not_a_failure(tmp_path: Path) -> None:
    """The commit is what counts: if a table folder cannot show the new files (here a file sits
    where the folder should be), the import still succeeds, says so, and a later writer repairs it."""
    wh = tmp_path / "wh"
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    import_paths([tmp_path / "in"], wh, jobs=1)
    for f in (wh / "hands").iterdir():
        f.unlink()
    (wh / "hands").rmdir()
    (wh / "hands").write_text("in the way")
    write_hands(tmp_path / "in" / "b.txt", ["2"])
    code, out = _cli("import", str(tmp_path / "in"), "-w", str(wh), "-j", "1")
    assert code == 0, out
    said = " ".join(out.split())  # (wrapped to the terminal: a long temporary path moves the breaks)
    assert "could not update the table folder" in said and "the warehouse itself is fine" in said
    assert read_views(wh)["hands"].num_rows == 2
    (wh / "hands").unlink()
    assert _cli("compact", "-w", str(wh))[0] == 0
    assert _glob_count(wh) == 2


@pytest.mark.parametrize("fallback", ["symlink", "copy"])
def test_file_systems_without_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fallback: str
) -> None:
    """exFAT, some network shares: no hard links (symbolic links instead), or neither (copies).
    Outside readers still see each row once, before and after compact and the expiry."""

    def no_link(*args: object, **kwargs: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_link)
    if fallback == "copy":
        monkeypatch.setattr(os, "symlink", no_link)
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 13)])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1, batch_hands=3, task_hands=3)
    kinds = {p.is_symlink() for p in (wh / "hands").iterdir()}
    assert kinds == {fallback == "symlink"}
    assert set(_glob_counts(wh).values()) == {12}
    assert _cli("compact", "-w", str(wh))[0] == 0
    assert set(_glob_counts(wh).values()) == {12}
    with Warehouse(wh) as w:
        w.clean_orphans(now=time.time() + RETIRED_GRACE_SECONDS + 1)
    assert set(_glob_counts(wh).values()) == {12} and len(list((wh / "hands").iterdir())) == 1


def test_ctrl_c_right_after_the_commit_never_deletes_the_committed_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (crash matrix, sigint-2): Ctrl-C landing just after the manifest was replaced
    was taken for a failed commit, and the roll-back deleted files the new manifest listed —
    a damaged warehouse. Once the replace has happened, the batch stands."""
    from hhparse.tables import store

    write_hands(tmp_path / "in" / "a.txt", ["1", "2", "3"])
    clean = tmp_path / "clean"
    import_paths([tmp_path / "in"], clean, jobs=1)
    wh = tmp_path / "wh"
    real = store._fsync_dir
    state = {"armed": False, "seen": 0}

    def interrupted(path: Path) -> None:
        # the directory fsync after the commit's replace of the manifest (the second manifest
        # write of a batch: the first announces it): Ctrl-C arrives right there
        if state["armed"] and path == wh.absolute():
            state["seen"] += 1
            if state["seen"] == 2:
                state["armed"] = False
                raise KeyboardInterrupt
        real(path)

    monkeypatch.setattr(store, "_fsync_dir", interrupted)
    real_write = store.Warehouse.publish

    def publish(self: Warehouse, tables: dict[str, object], files: dict[str, object]) -> None:
        state["armed"], state["seen"] = any(getattr(t, "num_rows", 0) for t in tables.values()), 0
        real_write(self, tables, files)  # type: ignore[arg-type]

    monkeypatch.setattr(store.Warehouse, "publish", publish)
    with pytest.raises(KeyboardInterrupt):
        import_paths([tmp_path / "in"], wh, jobs=1)
    monkeypatch.undo()
    assert read_views(wh)["hands"].num_rows == 3  # readable, nothing listed is missing
    import_paths([tmp_path / "in"], wh, jobs=1)
    assert read_views(wh) == read_views(clean)
