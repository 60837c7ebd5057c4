"""The parts of ``hhparse import --watch`` (issue #19) that need no running watch: merging the
small files a watch publishes, naming the writer that holds a warehouse, the status line in 80
columns, when to poll, and pending hands in a plain import."""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from hhparse.cli import app
from hhparse.cli.watch_view import status_text
from hhparse.failures import WarehouseLockedError
from hhparse.importer import ImportSession, import_paths
from hhparse.tables.schema import TABLES
from hhparse.tables.store import RETIRED_GRACE_SECONDS, TAIL_RETIRED_GRACE_SECONDS, Warehouse
from hhparse.watch import HandSeen, WatchState, choose_polling, mount_type

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, table_folder_extras, write_hands


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _grow(folder: Path, wh: Path, batches: int, start: int = 1) -> ImportSession:
    """``batches`` imports of one new hand each, in one session kept warm (as a watch publishes:
    ``hhparse.watch`` keeps its session warm, so the collector is quietened once for the session,
    not by a full collection of the whole test process before each import)."""
    f = write_hands(folder / "t.txt", [str(start)])
    session = ImportSession(wh, jobs=1, keep_warm=True)
    session.import_files([f])
    for n in range(start + 1, start + batches):
        with open(f, "a", encoding="utf-8") as fh:
            fh.write(make_hand(str(n)) + "\n\n\n")
        session.import_files([f])
    return session


@pytest.mark.slow
def test_tail_compaction_keeps_few_files_and_every_row_in_order(tmp_path: Path) -> None:
    session = _grow(tmp_path / "in", tmp_path / "wh", 40)
    wh = session.wh
    before = {name: wh.read_table(name) for name in TABLES}
    assert len(wh.manifest.tables["hands"]) == 40
    merged = wh.compact_tail(base_rows=4, fanout=4, max_rows=64)
    assert merged and all(after < n for n, after in merged.values())
    for name in TABLES:
        assert wh.read_table(name).equals(before[name]), name  # rows and order unchanged
        # per tier at most fanout - 1 files are left behind, and the large ones
        assert len(wh.manifest.tables[name]) <= 12, (name, wh.manifest.tables[name])
    assert table_folder_extras(wh.root) == set()
    session.close()


@pytest.mark.slow
def test_tail_compaction_never_rewrites_large_files(tmp_path: Path) -> None:
    wh_dir = tmp_path / "wh"
    import_paths([write_hands(tmp_path / "big" / "a.txt", [str(i) for i in range(1, 65)])], wh_dir, jobs=1)
    with Warehouse(wh_dir) as wh:
        big = wh.manifest.tables["hands"][0]
    session = _grow(tmp_path / "in", wh_dir, 20, start=1000)
    merged = session.wh.compact_tail(base_rows=4, fanout=4, max_rows=64)
    assert "hands" in merged
    assert session.wh.manifest.tables["hands"][0] == big  # 64 rows: at the size left alone
    session.close()


@pytest.mark.slow
def test_files_merged_by_the_tail_expire_after_their_own_grace(tmp_path: Path) -> None:
    session = _grow(tmp_path / "in", tmp_path / "wh", 20)
    wh = session.wh
    wh.compact_tail(base_rows=1000, fanout=4)
    retired = dict(wh.manifest.retired)
    assert retired
    now = time.time()
    assert all(
        at <= now - (RETIRED_GRACE_SECONDS - TAIL_RETIRED_GRACE_SECONDS) + 5 for at in retired.values()
    )
    assert wh.clean_orphans(now=now + TAIL_RETIRED_GRACE_SECONDS - 60) == []  # still within it
    removed = wh.clean_orphans(now=now + TAIL_RETIRED_GRACE_SECONDS + 60)
    assert len(removed) == len(retired) and not wh.manifest.retired
    session.close()


def test_a_locked_warehouse_names_the_watch_that_holds_it(tmp_path: Path) -> None:
    with Warehouse(tmp_path / "wh", holder="hhparse import --watch"):
        with pytest.raises(WarehouseLockedError) as err:
            Warehouse(tmp_path / "wh")
        message = str(err.value)
        assert "hhparse import --watch" in message and f"pid {os.getpid()}" in message
        assert "Ctrl-C" in message and f"kill {os.getpid()}" in message
    with Warehouse(tmp_path / "wh", holder="hhparse import"):
        with pytest.raises(WarehouseLockedError) as err:
            Warehouse(tmp_path / "wh")
        assert "hhparse import, pid" in str(err.value) and "wait for it to finish" in str(err.value)
    with Warehouse(tmp_path / "wh"):  # released: free again, and no stale holder is named
        pass
    assert (tmp_path / "wh" / ".lock").read_bytes() == b""


def _state(**kw: object) -> WatchState:
    state = WatchState(roots=[Path("/h")], warehouse=Path("/w"), polling=False, polling_reason="")
    for k, v in kw.items():
        setattr(state, k, v)
    return state


@pytest.mark.parametrize("width", [80, 60, 40, 24])
def test_the_status_line_fits_the_terminal(width: int) -> None:
    now = time.time()
    last = HandSeen(
        "251234567890", "Pollux IV, a very long table name \x1b[31m indeed " * 3, datetime.now(UTC), "f"
    )
    state = _state(
        files=12_345, hands_today=1_234, rejected=17, pending={"a": 1.0}, last=last, last_at=now - 75
    )
    line = status_text(state, width, now).plain
    assert len(line) <= width
    assert "\x1b" not in line
    if width == 80:  # what goes first: the age and pending; the table name takes what is left
        assert line.startswith("watching 12,345 files · 1,234 today · last #251234567890 Pollux IV")
        assert line.endswith("… · 17 rejects")
        state.files, state.hands_today, state.pending, state.rejected = 14, 87, {}, 0
        line = status_text(state, width, now).plain
        assert line.startswith("watching 14 files · 87 today · last #251234567890 Pollux IV")
        assert line.endswith("… 1m ago · 0 rejects") and len(line) == 80


def test_the_status_line_when_nothing_is_imported_yet() -> None:
    assert status_text(_state(files=1, polling=True), 80).plain == "polling 1 file · 0 today · 0 rejects"


MOUNTINFO = """\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
40 22 0:35 / /mnt/c rw,noatime - 9p drvfs rw,aname=drvfs
41 22 0:36 / /home/me/nas rw - nfs4 nas:/poker rw
42 41 0:37 / /home/me/nas/local\\040disk rw - ext4 /dev/sdb1 rw
"""


def test_mount_types_from_mountinfo() -> None:
    assert mount_type(Path("/home/me/hh"), MOUNTINFO) == "ext4"
    assert mount_type(Path("/mnt/c/Users/me/AppData/Local/PokerStars/HandHistory/Hero"), MOUNTINFO) == "9p"
    assert mount_type(Path("/home/me/nas/hh"), MOUNTINFO) == "nfs4"
    assert mount_type(Path("/home/me/nas/local disk/hh"), MOUNTINFO) == "ext4"  # the deepest mount wins


def test_polling_is_chosen_for_network_and_shared_file_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    import hhparse.watch as watch

    monkeypatch.delenv("WATCHFILES_FORCE_POLLING", raising=False)
    monkeypatch.setattr(
        watch, "mount_type", lambda path, mountinfo=None: "9p" if "/mnt/c" in str(path) else "ext4"
    )
    assert choose_polling([Path("/home/me/hh")]) == (False, "native events")
    poll, why = choose_polling([Path("/home/me/hh"), Path("/mnt/c/hh")])
    assert poll and "9p" in why
    assert choose_polling([Path("/mnt/c/hh")], requested=False) == (False, "--no-poll")
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "1")
    assert choose_polling([Path("/home/me/hh")])[0]
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "disabled")
    assert not choose_polling([Path("/mnt/c/hh")])[0]


def test_a_plain_import_names_pending_hands_and_exits_0(tmp_path: Path) -> None:
    """A last hand still being written is not an error: it is named on stderr, the exit code
    is 0, and the next import reads it (or, once the file has stopped changing for
    ``--settle-seconds``, takes it as it stands)."""
    f = write_hands(tmp_path / "in" / "t.txt", ["1"])
    text = make_hand("2")
    with open(f, "a", encoding="utf-8") as fh:
        fh.write(text[: text.index("*** SUMMARY ***")])
    runner = CliRunner(env={"COLUMNS": "400"})  # (lines are wrapped, a long path cut, to the terminal)
    wh = tmp_path / "wh"
    res = runner.invoke(app, ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1"])
    assert res.exit_code == 0, res.output
    assert f"pending: {f}: its last hand is still being written" in res.stderr
    assert "once the file has not changed for 10 s" in res.stderr
    res = runner.invoke(
        app, ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1", "--settle-seconds", "0"]
    )
    assert res.exit_code == 1, res.output  # settled: the half hand is taken as it stands, a reject
    assert "pending" not in res.stderr
    res = runner.invoke(app, ["import", str(tmp_path / "in"), "-w", str(wh), "--poll"])
    assert res.exit_code == 2 and "--watch" in res.stderr


def test_settle_seconds_must_be_a_number_of_seconds(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        app, ["import", str(tmp_path), "-w", str(tmp_path / "wh"), "--settle-seconds", "-1"]
    )
    assert res.exit_code == 2
    assert not (tmp_path / "wh").exists()


def test_a_failed_import_in_a_session_resumes_from_what_is_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk in the middle of one import of a watch: the next import starts from the
    warehouse's last commit (manifest and index read again), nothing lost or doubled."""
    f = write_hands(tmp_path / "in" / "t.txt", ["1", "2"])
    session = ImportSession(tmp_path / "wh", jobs=1)
    session.import_files([f])
    with open(f, "a", encoding="utf-8") as fh:
        fh.write(make_hand("3") + "\n\n\n")
    real = Warehouse._write_file

    def full(self: Warehouse, name: str, rel: str, table: pa.Table) -> None:
        raise OSError(28, "No space left on device", str(self.root / rel))

    monkeypatch.setattr(Warehouse, "_write_file", full)
    with pytest.raises(OSError):
        session.import_files([f])
    monkeypatch.setattr(Warehouse, "_write_file", real)
    result = session.import_files([f])
    assert (result.stats.new, result.stats.duplicate) == (1, 0)
    assert sorted(session.wh.read_table("hands", ["hand_id"])["hand_id"].to_pylist()) == ["1", "2", "3"]
    session.close()


def test_watch_expands_a_tilde_in_its_paths_like_a_plain_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path given as ``~/…`` (quoted, or from a service file) is the home folder's, as for
    ``import`` without ``--watch``."""
    import hhparse.cli.watch_view as watch_view

    seen: list[list[Path]] = []

    def fake_run_watch(paths: list[Path], warehouse: Path, **_: object) -> int:
        seen.append(list(paths))
        return 0

    monkeypatch.setattr(watch_view, "run_watch", fake_run_watch)
    monkeypatch.setenv("HOME", str(tmp_path))
    res = CliRunner().invoke(app, ["import", "~/hh", "-w", str(tmp_path / "wh"), "--watch"])
    assert res.exit_code == 0, res.output
    assert seen == [[tmp_path / "hh"]]
