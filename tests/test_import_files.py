"""Awkward inputs are reported, never fatal: unreadable, permission denied, empty, binary, many files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import hhparse
import hhparse.import_plan as import_plan
from hhparse.failures import UsageError
from hhparse.importer import compact, import_paths
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, read_views, write_hands


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _imports(wh: Path) -> dict[str, dict[str, object]]:
    with Warehouse(wh) as w:
        return {Path(str(r["path"])).name: r for r in w.read_table("imports").to_pylist()}


def test_empty_and_binary_files(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "blank.txt").write_bytes(b"\r\n\r\n")
    # A damaged history (binary garbage under a .txt name) is reported; other files in a folder
    # (READMEs, FPDB companions) are not hand histories and are not read at all.
    (tmp_path / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (tmp_path / "notes.md").write_text("# not a history\n")
    write_hands(tmp_path / "ok.txt", ["1"])
    r = import_paths([tmp_path], tmp_path / "wh", jobs=1)
    status = {Path(f.path).name: f.status for f in r.files}
    assert status == {"empty.txt": "empty", "blank.txt": "ok", "image.txt": "binary", "ok.txt": "ok"}
    assert (r.stats.new, r.stats.rejected, r.exit_code) == (1, 1, 1)
    rejects = read_views(tmp_path / "wh")["rejects"].to_pylist()
    assert [x["code"] for x in rejects] == ["binary-file"]
    imports = _imports(tmp_path / "wh")
    assert imports["empty.txt"]["hands_read"] == 0 and imports["image.txt"]["hands_rejected"] == 1
    # all of them are recorded: a rerun skips them
    assert import_paths([tmp_path], tmp_path / "wh", jobs=1).stats.files_skipped == 4


def test_permission_denied_is_reported_and_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run as root (chmod 000 denies nothing), so the denial is simulated at open()."""
    locked = write_hands(tmp_path / "in" / "locked.txt", ["1"])
    write_hands(tmp_path / "in" / "ok.txt", ["2"])
    real_open = open

    def fake_open(file: object, *args: object, **kwargs: object) -> object:
        if Path(str(file)) == locked.absolute():
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", fake_open)
    r = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    monkeypatch.undo()
    install_referee()
    bad = next(f for f in r.files if f.path.endswith("locked.txt"))
    assert bad.status == "unreadable" and "permission denied" in (bad.error or "")
    assert (r.stats.new, r.exit_code) == (1, 2)  # an unreadable input: exit 2
    assert _imports(tmp_path / "wh")["locked.txt"]["status"] == "unreadable"
    # once readable, the next run imports it (it was not recorded as done)
    again = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (again.stats.files_skipped, again.stats.new, again.exit_code) == (1, 1, 0)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads mode-000 files")
def test_chmod_000_file_is_unreadable(tmp_path: Path) -> None:
    f = write_hands(tmp_path / "a.txt", ["1"])
    f.chmod(0)
    try:
        r = import_paths([f], tmp_path / "wh", jobs=1)
    finally:
        f.chmod(0o644)
    assert r.files[0].status == "unreadable" and r.exit_code == 2


def test_broken_symlink_is_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")
    write_hands(tmp_path / "in" / "ok.txt", ["1"])
    r = import_paths([tmp_path / "in" / "dangling.txt", tmp_path / "in"], tmp_path / "wh", jobs=1)
    status = {Path(f.path).name: f.status for f in r.files}
    assert status == {"dangling.txt": "unreadable", "ok.txt": "ok"}
    assert r.stats.new == 1


def test_read_error_mid_file_is_resumed_next_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = write_hands(tmp_path / "a.txt", [str(i) for i in range(1, 11)])
    real = import_plan.iter_file_blocks

    def failing(run: import_plan.FileRun) -> object:
        for n, block in enumerate(real(run)):
            if n == 4:
                raise OSError(5, "Input/output error")
            yield block

    monkeypatch.setattr(import_plan, "iter_file_blocks", failing)
    r = import_paths([f], tmp_path / "wh", jobs=1)
    assert (r.files[0].status, r.stats.new, r.exit_code) == ("error", 4, 2)
    monkeypatch.undo()
    install_referee()
    again = import_paths([f], tmp_path / "wh", jobs=1)
    assert (again.stats.read, again.stats.new) == (6, 6)
    assert read_views(tmp_path / "wh")["hands"].num_rows == 10


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        import_paths([tmp_path / "nope"], tmp_path / "wh", jobs=1)
    assert not (tmp_path / "wh").exists()


def test_folder_with_thousands_of_small_files(tmp_path: Path) -> None:
    n = 2000
    hand = make_hand("1")
    for i in range(n):
        (tmp_path / "in" / f"d{i // 500}").mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / f"d{i // 500}" / f"{i:05d}.txt").write_text(hand.replace("#1:", f"#{i + 1}:"))
    r = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (r.stats.files_done, r.stats.new, r.stats.rejected) == (n, n, 0)
    assert r.stats.batches == 1  # batches follow hands, not files
    with Warehouse(tmp_path / "wh") as wh:
        assert wh.read_table("imports").num_rows == n
        assert len(wh.files_of("hands")) == 1
    again = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    assert (again.stats.files_skipped, again.stats.batches) == (n, 0)


@pytest.mark.parametrize("settle", [0.0, None])
def test_half_written_last_hand_is_read_again_when_the_file_grows(
    tmp_path: Path, settle: float | None
) -> None:
    # Regression: the client appends each hand as it ends; an import that caught the file mid-write
    # rejected the half hand and committed its block, so the completed hand was never imported.
    f = write_hands(tmp_path / "live.txt", ["1", "2"])
    third = make_hand("3")
    cut = third.index("*** SUMMARY ***") + 5
    with open(f, "a") as fh:
        fh.write(third[:cut])  # mid-line, no blank line after: the client is still writing
    r = import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=settle)
    if settle == 0:  # the file has stopped changing: the half hand is rejected, not committed
        assert (r.stats.new, r.stats.rejected, r.stats.reopened, r.stats.pending) == (2, 1, 1, 0)
    else:  # the file is still being written: the half hand waits, neither stored nor rejected
        assert (r.stats.new, r.stats.rejected, r.stats.reopened, r.stats.pending) == (2, 0, 0, 1)
    with open(f, "a") as fh:
        fh.write(third[cut:] + "\n\n\n" + make_hand("4") + "\n\n\n")
    again = import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=settle)
    assert (again.stats.read, again.stats.new, again.stats.rejected, again.stats.reopened) == (2, 2, 0, 0)
    assert again.stats.superseded == (1 if settle == 0 else 0)
    ids = sorted(read_views(tmp_path / "wh")["hands"].column("hand_id").to_pylist())
    assert ids == ["1", "2", "3", "4"]
    unchanged = import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=settle)
    assert (unchanged.stats.files_skipped, unchanged.stats.read) == (1, 0)
    # A superseded reject is gone from `rejects`, and
    # the rejects report lists nothing: the hand is in the warehouse whole.
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 0
    with hhparse.warehouse(tmp_path / "wh") as con:
        assert con.sql("SELECT hand_id, superseded FROM stg_rejects").fetchall() == []
        assert hhparse.report("rejects", con).empty
    # and from the files outside readers glob (regression: the row stayed there for good)
    for rejects in (tmp_path / "wh" / "rejects").glob("*.parquet"):
        assert pq.read_table(rejects).num_rows == 0, rejects


def test_rejects_of_other_files_are_not_superseded(tmp_path: Path) -> None:
    """A bad copy of a hand stays listed even when a good copy came from another file."""
    write_hands(tmp_path / "in" / "good.txt", ["7"])
    bad = make_hand("7").replace("*** SUMMARY ***", "*** SUMMARY ***\nnot a summary line")
    (tmp_path / "in" / "bad.txt").write_text(bad + "\n\n\n", encoding="utf-8")
    import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    with hhparse.warehouse(tmp_path / "wh") as con:
        assert con.sql("SELECT superseded FROM stg_rejects").fetchall() == [(False,)]
        assert len(hhparse.report("rejects", con)) == 1


def test_bad_unterminated_last_hand_is_not_rejected_twice(tmp_path: Path) -> None:
    f = write_hands(tmp_path / "a.txt", ["1"])
    with open(f, "a") as fh:
        fh.write(make_hand("2").replace("*** SUMMARY ***", "*** SUMMARY ***\nnot a summary line"))
    first = import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=0)
    assert (first.stats.new, first.stats.rejected, first.exit_code) == (1, 1, 1)
    with open(f, "a") as fh:
        fh.write("\n\n\n" + make_hand("3") + "\n\n\n")
    grown = import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=0)  # the bad hand again: same text
    assert (grown.stats.new, grown.stats.duplicate, grown.stats.rejected) == (1, 1, 0)
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 1


def test_half_written_utf16_file_is_imported_not_fatal(tmp_path: Path) -> None:
    # Regression: an odd number of bytes in a UTF-16 file (the client mid-write) raised
    # UnicodeDecodeError out of import_paths, losing the whole run.
    body = "\n\n\n".join(make_hand(i) for i in ("1", "2")) + "\n\n\n" + make_hand("3")[:200]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "u16.txt").write_bytes(body.replace("\n", "\r\n").encode("utf-16") + b"\x00")
    write_hands(tmp_path / "in" / "other.txt", ["4"])
    r = import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1, settle_seconds=0)
    assert (r.stats.new, r.stats.rejected, r.exit_code) == (3, 1, 1)
    assert sorted(read_views(tmp_path / "wh")["hands"].column("hand_id").to_pylist()) == ["1", "2", "4"]


def test_compact_drops_superseded_rejects_an_import_left_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import stopped between its commit and the rewrite of ``rejects`` leaves the superseded
    row in the files; ``compact`` takes it out (the view hides it meanwhile)."""
    f = write_hands(tmp_path / "live.txt", ["1"])
    second = make_hand("2")
    cut = second.index("*** SUMMARY ***") + 5
    with open(f, "a") as fh:
        fh.write(second[:cut])
    import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=0)
    with open(f, "a") as fh:
        fh.write(second[cut:] + "\n\n\n")
    with monkeypatch.context() as m:
        m.setattr(Warehouse, "drop_superseded_rejects", lambda self: 0)
        assert import_paths([f], tmp_path / "wh", jobs=1, settle_seconds=0).stats.superseded == 1
    folder = tmp_path / "wh" / "rejects"
    assert sum(pq.read_table(p).num_rows for p in folder.glob("*.parquet")) == 1
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 0
    compact(tmp_path / "wh")
    assert sum(pq.read_table(p).num_rows for p in folder.glob("*.parquet")) == 0
    assert sorted(read_views(tmp_path / "wh")["hands"].column("hand_id").to_pylist()) == ["1", "2"]


def test_a_worker_reading_other_bytes_than_planned_imports_none_of_them(tmp_path: Path) -> None:
    """Issue #18: a worker reads a file itself and hashes what it reads; a file that changed
    after planning (or another file under the same name where the worker runs) is an error for
    that file, none of its hands is used, and the next file of the task is read as planned."""
    from hhparse.import_plan import hash_prefix
    from hhparse.import_worker import SAME_BYTES_ERROR, process_files

    a = write_hands(tmp_path / "a.txt", ["1", "2"])
    b = write_hands(tmp_path / "b.txt", ["3", "4", "5"])
    size_a, size_b = a.stat().st_size, b.stat().st_size
    planned = [
        (str(a), size_a, 0, True, hash_prefix(a, [size_a])[0]),
        (str(b), size_b, 0, True, hash_prefix(b, [size_b])[0]),
    ]
    a.write_bytes(a.read_bytes().replace(b"Player1", b"Player9"))  # same size, other bytes
    got = process_files(planned, ev=False)
    assert got.outcomes[0] == ("error", SAME_BYTES_ERROR, 0, False)
    assert got.outcomes[1][0] == "ok" and got.segments == [1, 1, 1]
    assert got.result.hand_ids == ["3", "4", "5"]


def test_an_import_without_the_ev_stage_does_not_load_it(tmp_path: Path) -> None:
    """``ev=False`` (the benchmarks' import without EV) never imports :mod:`hhparse.ev`, whose
    module builds its tables as it is imported; with EV the stage is loaded and used."""
    import subprocess

    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    probe = (
        "import sys\n"
        "from hhparse.importer import import_paths\n"
        "r = import_paths([sys.argv[1]], sys.argv[2], jobs=1, ev=sys.argv[3] == 'on')\n"
        "print(r.stats.new, 'hhparse.ev' in sys.modules)\n"
    )
    for ev, loaded in (("off", "False"), ("on", "True")):
        out = subprocess.run(
            [sys.executable, "-c", probe, str(tmp_path / "in"), str(tmp_path / f"wh-{ev}"), ev],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.split() == ["2", loaded], out.stderr
