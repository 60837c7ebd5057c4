"""Issue #13, CLI side: every expected failure is one sentence with a documented exit code, never a
traceback (finding 7); FIFOs are skipped, never waited for (finding 8); an unreadable folder is
reported and counted (finding 9); `report hand` with an unknown id says so (finding 15)."""

from __future__ import annotations

import builtins
import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhparse.cli import app
from hhparse.importer import import_paths
from hhparse.tables import store

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, read_views, stray_files, write_hands

runner = CliRunner()
COMMANDS = ("check", "import", "compact", "sql", "report", "synth")


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def _one_sentence(out: str, *words: str) -> None:
    assert "Traceback" not in out, out
    for w in words:
        assert w in out, (w, out)


def _bad_hand(hand_id: str) -> str:
    # Blank lines after it, as in an exported file: a file's open last hand is only *pending* while
    # the file may still be being written (docs/input.md), and these tests want it rejected.
    return make_hand(hand_id).replace("*** SUMMARY ***", "*** SUMMRY ***") + "\n\n\n"


# -- exit codes are documented in every command's --help -----------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_lists_the_exit_codes(command: str) -> None:
    code, out = _cli(command, "--help")
    assert code == 0
    flat = " ".join(out.split())
    for text in (
        "Exit codes:",
        "0 all accepted",
        "1 hands rejected",
        "2 usage or environment error",
        "3 warehouse damaged",
        "4 internal error",
    ):
        assert text in flat, (command, text)


def test_readme_documents_the_same_exit_codes() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    from hhparse.failures import ExitCode

    for code in ExitCode:
        assert f"| `{int(code)}` |" in readme, code


# -- finding 7 ------------------------------------------------------------------------------


def test_rich_markup_in_a_path_is_printed_as_text(tmp_path: Path) -> None:
    """Finding 7: `in/a[/b]c.txt` crashed the summary table (rich MarkupError) after publishing."""
    odd = tmp_path / "in" / "a[" / "b]c.txt"
    write_hands(odd, ["1"])
    code, out = _cli("import", tmp_path / "in", "-w", tmp_path / "wh", "-j", "1", "--verbose")
    assert code == 0, out
    assert "a[/b]c.txt" in out.replace("\n", "").replace(" ", "") or "b]c.txt" in out


def test_symlink_loop_is_reported_and_the_rest_goes_on(tmp_path: Path) -> None:
    """Finding 7: a symbolic link loop was a traceback (import) or 'no such file' (check)."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.txt").symlink_to(tmp_path / "in" / "y.txt")
    (tmp_path / "in" / "y.txt").symlink_to(tmp_path / "in" / "x.txt")
    good = write_hands(tmp_path / "good.txt", ["1"])
    code, out = _cli("check", tmp_path / "in" / "x.txt", good)
    assert code == 2, out
    _one_sentence(out, "symbolic link loop", "x.txt", "1 hands (1 valid)")
    code, out = _cli("check", tmp_path / "in", good)
    assert code == 2 and "symbolic link loop" in out, out
    code, out = _cli("import", tmp_path / "in", good, "-w", tmp_path / "wh", "-j", "1")
    assert code == 2, out
    _one_sentence(out, "symbolic link loop")
    assert read_views(tmp_path / "wh")["hands"].num_rows == 1


def _deny_open(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    """Tests run as root (chmod 000 denies nothing): the denial is simulated at open()."""
    real_open = builtins.open

    def fake_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | Path) and Path(file).absolute() == denied.absolute():
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)


def _deny_scandir(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    real = os.scandir

    def fake_scandir(path: Any = ".") -> Any:
        if Path(path).absolute() == denied.absolute():
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", fake_scandir)


def test_check_on_an_unreadable_file_reports_it_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 7: `check` on an unreadable file stopped the whole check with a traceback."""
    locked = write_hands(tmp_path / "in" / "a.txt", ["1"])
    write_hands(tmp_path / "in" / "b.txt", ["2", "3"])
    _deny_open(monkeypatch, locked)
    code, out = _cli("check", tmp_path / "in")
    assert code == 2, out
    _one_sentence(out, "a.txt: could not be read: permission denied", "b.txt: 2 hands (2 valid)")
    code, out = _cli("check", "--format", "jsonl", tmp_path / "in")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["errors"][0]["code"] for r in rows if r["errors"]] == ["unreadable-file"]


def test_check_on_an_unreadable_folder_reports_it_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_hands(tmp_path / "in" / "sub" / "a.txt", ["1"])
    write_hands(tmp_path / "in" / "b.txt", ["2"])
    _deny_scandir(monkeypatch, tmp_path / "in" / "sub")
    code, out = _cli("check", tmp_path / "in")
    assert code == 2, out
    _one_sentence(out, f"{tmp_path / 'in' / 'sub'}: could not be read: permission denied", "b.txt: 1 hands")


def test_unreadable_subfolder_is_reported_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 9: an unreadable subfolder was skipped silently and the import exited 0."""
    write_hands(tmp_path / "in" / "sub" / "a.txt", ["1"])
    write_hands(tmp_path / "in" / "b.txt", ["2"])
    _deny_scandir(monkeypatch, tmp_path / "in" / "sub")
    code, out = _cli("import", tmp_path / "in", "-w", tmp_path / "wh", "-j", "1")
    assert code == 2, out
    _one_sentence(out, "sub: unreadable: permission denied", "could not be read")
    monkeypatch.undo()
    install_referee()
    views = read_views(tmp_path / "wh")
    assert views["hands"].num_rows == 1
    imports = {Path(r["path"]).name: r["status"] for r in _imports(tmp_path / "wh")}
    assert imports == {"sub": "unreadable", "b.txt": "ok"}
    # readable again: the next run reads it (it was never recorded as done)
    assert _cli("import", tmp_path / "in", "-w", tmp_path / "wh", "-j", "1")[0] == 0
    assert read_views(tmp_path / "wh")["hands"].num_rows == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads mode-000 folders")
def test_chmod_000_subfolder_is_reported(tmp_path: Path) -> None:
    sub = tmp_path / "in" / "sub"
    write_hands(sub / "a.txt", ["1"])
    write_hands(tmp_path / "in" / "b.txt", ["2"])
    sub.chmod(0)
    try:
        code, out = _cli("import", tmp_path / "in", "-w", tmp_path / "wh", "-j", "1")
        code2, out2 = _cli("check", tmp_path / "in")
    finally:
        sub.chmod(0o755)
    assert code == 2 and "permission denied" in out
    assert code2 == 2 and "permission denied" in out2


def _imports(wh: Path) -> list[dict[str, Any]]:
    import duckdb

    from hhparse.tables.schema import create_views

    con = duckdb.connect()
    create_views(con, wh)
    cur = con.execute("SELECT path, status FROM imports")
    return [{"path": p, "status": s} for p, s in cur.fetchall()]


def _run(*args: object, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from hhparse.cli import main; main()", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_skipped_not_waited_for(tmp_path: Path) -> None:
    """Finding 8: a FIFO given as a path hung `check` and `import` forever."""
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    (tmp_path / "in").mkdir()
    os.mkfifo(tmp_path / "in" / "inner.txt")
    good = write_hands(tmp_path / "in" / "good.txt", ["1"])
    r = _run("check", fifo, tmp_path / "in", timeout=60)
    assert r.returncode == 2, r.stderr + r.stdout
    assert (
        "pipe.txt: skipped, never opened: not a regular file (a FIFO)" in r.stdout and "inner.txt" in r.stdout
    )
    assert f"{good}: 1 hands (1 valid)" in r.stdout
    r = _run("import", fifo, tmp_path / "in", "-w", tmp_path / "wh", "-j", "1", timeout=60)
    assert r.returncode == 2, r.stderr + r.stdout
    assert "FIFO" in r.stderr + r.stdout and "Traceback" not in r.stderr
    assert read_views(tmp_path / "wh")["hands"].num_rows == 1


def _fail_write(monkeypatch: pytest.MonkeyPatch, err: int, after: int = 0) -> None:
    """Make the warehouse's Parquet writer fail with ``err`` (after ``after`` good files), having
    written part of the file first, as a disk that fills up does."""
    real = store.pq.write_table
    count = {"n": 0}

    def failing(table: Any, where: Any, **kwargs: Any) -> None:
        count["n"] += 1
        if count["n"] > after:
            where.write(b"PAR1 partial")
            raise OSError(err, os.strerror(err))
        real(table, where, **kwargs)

    monkeypatch.setattr(store.pq, "write_table", failing)


def test_disk_full_is_a_sentence_and_a_rerun_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 7: a full disk (ENOSPC) was a traceback; nothing half-written may remain."""
    write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 21)])
    clean = tmp_path / "clean"
    import_paths([tmp_path / "in"], clean, jobs=1, batch_hands=5, task_hands=5)
    wh = tmp_path / "wh"
    _fail_write(monkeypatch, errno.ENOSPC, after=9)
    code, out = _cli(
        "import", tmp_path / "in", "-w", wh, "-j", "1", "--batch-hands", "5", "--task-hands", "5"
    )
    assert code == 2, out
    _one_sentence(out, "the disk is full", "free some space")
    monkeypatch.undo()
    install_referee()
    assert not list((wh / ".hhparse" / "staging").iterdir())
    code, out = _cli(
        "import", tmp_path / "in", "-w", wh, "-j", "1", "--batch-hands", "5", "--task-hands", "5"
    )
    assert code == 0, out
    assert read_views(wh) == read_views(clean)
    assert stray_files(wh) == set()
    # compaction on a full disk: the same sentence, and the warehouse unchanged
    _fail_write(monkeypatch, errno.ENOSPC, after=1)
    code, out = _cli("compact", "-w", wh)
    assert code == 2 and "the disk is full" in out, out
    monkeypatch.undo()
    assert read_views(wh) == read_views(clean)
    assert _cli("compact", "-w", wh)[0] == 0
    assert read_views(wh) == read_views(clean) and stray_files(wh) == set()


def test_disk_full_at_the_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    wh = tmp_path / "wh"
    real = store._write_json_atomic
    calls = {"n": 0}

    def failing(data: Any, tmp: Path, dest: Path, replaced: Any = None) -> None:
        if dest.name == "manifest.json":
            calls["n"] += 1
            if calls["n"] == 2:  # announcing the batch succeeds, committing it does not
                tmp.write_text("{partial")
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp))
        real(data, tmp, dest, replaced)

    monkeypatch.setattr(store, "_write_json_atomic", failing)
    code, out = _cli("import", tmp_path / "in", "-w", wh, "-j", "1")
    assert code == 2 and "the disk is full" in out, out
    monkeypatch.undo()
    install_referee()
    assert _cli("import", tmp_path / "in", "-w", wh, "-j", "1")[0] == 0
    assert read_views(wh)["hands"].num_rows == 2 and stray_files(wh) == set()


def test_read_only_warehouse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 7: a read-only warehouse was a PermissionError traceback. Writers say so in a
    sentence; readers (sql, report) need no write at all."""
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    real_open, real_os_open = builtins.open, os.open

    def ro_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if (
            isinstance(file, str | Path)
            and str(Path(file).absolute()).startswith(str(wh))
            and set(mode) & set("wax+")
        ):
            raise OSError(errno.EROFS, "Read-only file system", str(file))
        return real_open(file, mode, *args, **kwargs)

    def ro_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(Path(path).absolute()).startswith(str(wh)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", ro_open)
    monkeypatch.setattr(os, "open", ro_os_open)
    write_hands(tmp_path / "in" / "b.txt", ["2"])
    for command in (["import", tmp_path / "in", "-j", "1"], ["compact"]):
        code, out = _cli(*command, "-w", wh)
        assert code == 2, out
        _one_sentence(out, "read-only", str(wh))
    code, out = _cli("sql", "SELECT count(*) AS n FROM hands", "-w", wh, "-f", "csv")
    assert code == 0 and out.splitlines() == ["n", "1"], out
    assert _cli("report", "summary", "-w", wh)[0] == 0


def test_sql_error_is_one_sentence(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    import_paths([tmp_path / "in"], tmp_path / "wh", jobs=1)
    code, out = _cli("sql", "SELEC nonsense", "-w", tmp_path / "wh")
    assert code == 2 and out.startswith("hhparse sql: the query failed: ") and len(out.splitlines()) == 1, out


def test_unexpected_exception_writes_a_log_and_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug is not a usage error: the traceback goes to a log file and the sentence says where."""

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("hhparse.importer.import_paths", boom)
    monkeypatch.setenv("HHPARSE_LOG_DIR", str(tmp_path / "logs"))
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    code, out = _cli("import", tmp_path / "in", "-w", tmp_path / "wh")
    assert code == 4, out
    _one_sentence(
        out, "internal error (RuntimeError: boom)", "this is a bug in hhparse", str(tmp_path / "logs")
    )
    (log,) = (tmp_path / "logs").iterdir()
    text = log.read_text()
    assert "Traceback" in text and "RuntimeError: boom" in text and "import" in text


def test_ctrl_c_exits_130_with_a_sentence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("hhparse.importer.import_paths", interrupted)
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    code, out = _cli("import", tmp_path / "in", "-w", tmp_path / "wh")
    assert code == 130 and "interrupted" in out and "run the same command again" in out, out


def test_import_exit_codes(tmp_path: Path) -> None:
    """0 all accepted; 1 a hand rejected; 2 an input unreadable (beside rejected hands)."""
    write_hands(tmp_path / "ok" / "a.txt", ["1"])
    assert _cli("import", tmp_path / "ok", "-w", tmp_path / "w1", "-j", "1")[0] == 0
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "b.txt").write_text(_bad_hand("2"))
    assert _cli("import", tmp_path / "bad", "-w", tmp_path / "w2", "-j", "1")[0] == 1
    (tmp_path / "bad" / "loop.txt").symlink_to(tmp_path / "bad" / "loop.txt")
    (tmp_path / "bad" / "c.txt").write_text(_bad_hand("3"))
    assert _cli("import", tmp_path / "bad", "-w", tmp_path / "w3", "-j", "1")[0] == 2


# -- finding 15: `report hand` with an unknown id -------------------------------------------


def test_report_hand_with_an_unknown_id_exits_2(tmp_path: Path) -> None:
    """Finding 15: `report hand` with an unknown id printed a blank line and exited 0."""
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    (tmp_path / "in" / "b.txt").write_text(_bad_hand("77"))
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    code, out = _cli("report", "hand", "999", "-w", wh)
    assert code == 2, out
    _one_sentence(out, "no hand #999 in the warehouse", "2 hands stored")
    assert "import" not in out  # nothing silly: the warehouse exists and has hands
    code, out = _cli("report", "hand", "77", "-w", wh)
    assert code == 2, out
    _one_sentence(out, "hand #77", "was rejected", "b.txt", "hhparse report rejects")
    assert _cli("report", "hand", "1", "-w", wh)[0] == 0


def test_warehouse_of_another_schema_version_exits_2(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "in"], wh, jobs=1)
    manifest = json.loads((wh / "manifest.json").read_text())
    (wh / "manifest.json").write_text(json.dumps(manifest | {"schema_version": "0"}))
    for command in (
        ["import", tmp_path / "in", "-j", "1"],
        ["compact"],
        ["sql", "SELECT 1"],
        ["report", "summary"],
    ):
        code, out = _cli(*command, "-w", wh)
        assert code == 2, (command, out)
        _one_sentence(out, "schema version 0", "import the hand histories again into a new warehouse")


def _mount_tmpfs(path: Path, size: str) -> bool:
    """A tiny real file system, where this process may mount one (root with CAP_SYS_ADMIN)."""
    if os.geteuid() != 0 or not shutil.which("mount") or not sys.platform.startswith("linux"):
        return False
    path.mkdir()
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    return r.returncode == 0


def test_disk_full_on_a_real_full_file_system(tmp_path: Path) -> None:
    """ENOSPC from a real file system (a 512 KiB tmpfs), not a simulation: one sentence, nothing
    half-written left, and once there is room the same command completes the import."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "512k"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        write_hands(tmp_path / "in" / "a.txt", [str(i) for i in range(1, 3001)])
        clean = tmp_path / "clean"
        import_paths([tmp_path / "in"], clean, jobs=1, batch_hands=500)
        wh = disk / "wh"
        code, out = _cli("import", tmp_path / "in", "-w", wh, "-j", "1", "--batch-hands", "500")
        assert code == 2, out
        _one_sentence(out, "the disk is full", "free some space")
        assert json.loads((wh / "manifest.json").read_text())["tables"]  # still a valid manifest
        assert not list((wh / ".hhparse" / "staging").iterdir())
        subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        code, out = _cli("import", tmp_path / "in", "-w", wh, "-j", "1", "--batch-hands", "500")
        assert code == 0, out
        assert read_views(wh) == read_views(clean) and stray_files(wh) == set()
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)
