"""``hhparse import`` and ``hhparse compact`` through typer's CliRunner: output and exit codes."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import hhparse
from hhparse.cli import compact_cmd, import_cmd
from hhparse.importer import import_paths
from hhparse.tables.store import RETIRED_GRACE_SECONDS, Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import install_referee, make_hand, read_views, write_hands


@pytest.fixture(autouse=True)
def _referee() -> None:
    install_referee()


def _app() -> typer.Typer:
    """A local root app: the real one imports every command module, some owned by others."""
    app = typer.Typer()
    import_cmd.register(app)
    compact_cmd.register(app)
    return app


runner = CliRunner()


def test_import_all_accepted_exits_0_then_noop(tmp_path: Path) -> None:
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    wh = tmp_path / "wh"
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "--warehouse", str(wh), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    # a clean file is not listed (issue 16: thousands of files hid the few with rejects)
    assert (
        "a.txt" not in r.output
        and "2 hands read: 2 new" in r.output
        and "every file read cleanly" in r.output
    )
    assert read_views(wh)["hands"].num_rows == 2
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1"])
    assert r.exit_code == 0 and "1 unchanged" in r.output


def test_import_with_rejects_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HHPARSE_SETTLE_SECONDS", "0")  # the file just written has stopped changing
    (tmp_path / "bad.txt").write_text(make_hand("5").replace("*** SUMMARY ***", "*** SUMMRY ***"))
    r = runner.invoke(_app(), ["import", str(tmp_path / "bad.txt"), "-w", str(tmp_path / "wh"), "-j", "1"])
    assert r.exit_code == 1, r.output
    assert read_views(tmp_path / "wh")["rejects"].num_rows == 1


def test_conflicting_hand_exits_1_and_keeps_its_text(tmp_path: Path) -> None:
    """Finding 15: a conflicting hand exited 0 and its text was kept nowhere."""
    write_hands(tmp_path / "a.txt", ["1"])
    (tmp_path / "b.txt").write_text(make_hand("1", variant="zz"))
    wh = tmp_path / "wh"
    r = runner.invoke(
        _app(), ["import", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "-w", str(wh), "-j", "1"]
    )
    assert r.exit_code == 1, r.output
    assert "conflict: hand #1" in r.output and "rejects" in r.output
    views = read_views(wh)
    assert views["hands"].num_rows == 1
    (reject,) = views["rejects"].to_pylist()
    assert (reject["code"], reject["hand_id"], reject["raw_text"]) == (
        "conflict",
        "1",
        make_hand("1", variant="zz"),
    )
    assert Path(reject["source"]).name == "b.txt"
    # the same conflicting text at another place (a copy of the file) is kept there too: exit 1
    (tmp_path / "c.txt").write_text(make_hand("1", variant="zz"))
    both = [str(tmp_path / "b.txt"), str(tmp_path / "c.txt")]
    r = runner.invoke(_app(), ["import", *both, "-w", str(wh), "-j", "1"])
    assert r.exit_code == 1, r.output
    views = read_views(wh)
    assert views["hands"].num_rows == 1
    assert sorted(Path(x["source"]).name for x in views["rejects"].to_pylist()) == ["b.txt", "c.txt"]
    # the stored hand is unchanged, and the same conflicts read again are duplicates: exit 0
    for f in both:
        Path(f).touch()  # a new mtime makes the import read them again
    r = runner.invoke(_app(), ["import", *both, "-w", str(wh), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert read_views(wh) == views


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    r = runner.invoke(_app(), ["import", str(tmp_path / "missing"), "-w", str(tmp_path / "wh")])
    assert r.exit_code == 2 and "no such file" in r.output
    r = runner.invoke(_app(), ["import", str(tmp_path), "--jobs", "0"])
    assert r.exit_code == 2
    r = runner.invoke(_app(), ["compact", "-w", str(tmp_path / "not-a-warehouse")])
    assert r.exit_code == 2


def test_locked_warehouse_exits_2(tmp_path: Path) -> None:
    write_hands(tmp_path / "a.txt", ["1"])
    with Warehouse(tmp_path / "wh"):
        r = runner.invoke(_app(), ["import", str(tmp_path / "a.txt"), "-w", str(tmp_path / "wh"), "-j", "1"])
    assert r.exit_code == 2 and "another process" in r.output


def test_warehouse_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_hands(tmp_path / "a.txt", ["1"])
    monkeypatch.setenv("HHPARSE_WAREHOUSE", str(tmp_path / "envwh"))
    r = runner.invoke(_app(), ["import", str(tmp_path / "a.txt"), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "envwh" / "manifest.json").exists()


def test_compact_merges_files_without_changing_rows(tmp_path: Path) -> None:
    write_hands(tmp_path / "a.txt", [str(i) for i in range(1, 41)])
    wh = tmp_path / "wh"
    r = runner.invoke(
        _app(),
        [
            "import",
            str(tmp_path / "a.txt"),
            "-w",
            str(wh),
            "-j",
            "1",
            "--batch-hands",
            "5",
            "--task-hands",
            "5",
        ],
    )
    assert r.exit_code == 0, r.output
    before = read_views(wh)
    with Warehouse(wh) as w:
        assert len(w.files_of("hands")) >= 8
        hands_before = w.read_table("hands")
    r = runner.invoke(_app(), ["compact", "-w", str(wh)])
    assert r.exit_code == 0, r.output
    assert "hands:" in r.output
    with Warehouse(wh) as w:
        assert len(w.files_of("hands")) == 1
        assert w.read_table("hands").equals(hands_before)  # same rows, same order
        exposed = {
            p.relative_to(wh).as_posix() for name in ("hands", "actions") for p in (wh / name).iterdir()
        }
        listed = set(w.manifest.tables["hands"]) | set(w.manifest.tables["actions"])
        retired = {rel for rel in w.manifest.retired if rel.split("/")[0] in ("hands", "actions")}
        assert len(retired) >= 16 and not retired & listed
        assert exposed == listed  # the table folders show the live files only
        assert all(w.stored(rel).exists() for rel in retired)  # kept for open connections
    assert read_views(wh) == before
    with Warehouse(wh) as w:  # the first write after the grace period deletes them
        removed = w.clean_orphans(now=time.time() + RETIRED_GRACE_SECONDS + 1)
        assert {w.stored(rel) for rel in retired} <= set(removed) and not w.manifest.retired
        assert not any(w.stored(rel).exists() for rel in retired)
    with Warehouse(wh) as w:
        assert not w.manifest.retired
    assert read_views(wh) == before


def test_compact_does_not_break_an_open_connection(tmp_path: Path) -> None:
    """Regression: compact deleted the files a connection opened before it was reading."""
    write_hands(tmp_path / "a.txt", [str(i) for i in range(1, 21)])
    wh = tmp_path / "wh"
    import_paths([tmp_path / "a.txt"], wh, jobs=1, batch_hands=5, task_hands=5)
    with hhparse.warehouse(wh) as con:
        count = "SELECT count(*) FROM hands"
        assert con.execute(count).fetchall() == [(20,)]
        r = runner.invoke(_app(), ["compact", "-w", str(wh)])
        assert r.exit_code == 0, r.output
        assert con.execute(count).fetchall() == [(20,)]
        assert len(hhparse.report("summary", con)) > 0


def test_the_import_command_keeps_pandas_out_of_its_own_process(tmp_path: Path) -> None:
    """``hhparse import`` in a process of its own never imports pandas (pyarrow would, on the
    first list it converts, only to ask whether it is a pandas object), and imports alike."""
    import subprocess

    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    probe = (
        "import sys\n"
        "from hhparse.cli import main\n"
        "sys.argv = ['hhparse', 'import', sys.argv[1], '--warehouse', sys.argv[2], '--jobs', '1']\n"
        "import os\n"
        "def seen(code):\n"
        "    print('exit', code, 'pandas' in sys.modules)\n"
        "_exit = os._exit\n"
        "os._exit = lambda code: (seen(code), sys.stdout.flush(), _exit(code))\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    seen(exc.code)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "in"), str(tmp_path / "wh")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split()[-3:] == ["exit", "0", "False"], out.stdout + out.stderr
    assert read_views(tmp_path / "wh")["hands"].num_rows == 2


def test_the_import_command_called_from_other_code_leaves_pandas_to_it(tmp_path: Path) -> None:
    """The Typer app called from a caller's own program (here, the test's) keeps nothing out:
    the caller may go on to use pandas (:data:`hhparse.cli.common.OWN_PROCESS`)."""
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(tmp_path / "wh"), "-j", "1"])
    assert r.exit_code == 0, r.output
    from hhparse.lazy import refuses_pandas

    assert not refuses_pandas()
    import pandas  # noqa: F401  (still importable here)


def test_the_import_command_leaves_its_heap_to_the_os_in_its_own_process(tmp_path: Path) -> None:
    """``hhparse import`` in a process of its own ends with every object frozen out of the
    collector's sight, so that the interpreter's finalization does not walk them all before the
    process exits (:func:`hhparse.cli.common.leave_heap_to_the_os`); its output and its
    warehouse are whole."""
    import subprocess

    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    probe = (
        "import gc, sys\n"
        "from hhparse.cli import main\n"
        "sys.argv = ['hhparse', 'import', sys.argv[1], '--warehouse', sys.argv[2], '--jobs', '1']\n"
        "import os\n"
        "def seen(code):\n"
        "    print('exit', code, gc.get_freeze_count() > 0)\n"
        "_exit = os._exit\n"
        "os._exit = lambda code: (seen(code), sys.stdout.flush(), _exit(code))\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    seen(exc.code)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "in"), str(tmp_path / "wh")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "2 hands read: 2 new" in out.stdout, out.stdout + out.stderr
    assert out.stdout.split()[-3:] == ["exit", "0", "True"], out.stdout + out.stderr
    assert read_views(tmp_path / "wh")["hands"].num_rows == 2


_EXIT_PROBE = """
import atexit, sys
from hhparse.cli import main
atexit.register(lambda: print("finalized", flush=True))
sys.argv = ["hhparse", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("rejected", [False, True])
def test_the_import_command_ends_its_own_process_at_once(tmp_path: Path, rejected: bool) -> None:
    """``hhparse import`` in a process of its own ends it as soon as the command is done
    (:func:`hhparse.cli.common.end_at_once`, ``os._exit``): no ``atexit`` handler runs, no module
    is torn down; its output is whole (flushed first), its exit code the command's (1 with a
    rejected hand), its warehouse committed."""
    import subprocess

    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    if rejected:
        (tmp_path / "in" / "b.txt").write_text("PokerStars Hand #9: garbage\n\n\n")
    args = ["import", str(tmp_path / "in"), "-w", str(tmp_path / "wh"), "-j", "1"]
    out = subprocess.run(
        [sys.executable, "-c", _EXIT_PROBE, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == (1 if rejected else 0), out.stdout + out.stderr
    assert "2 new" in out.stdout, out.stdout + out.stderr
    assert ("see why hands were rejected" in out.stdout) is rejected
    assert "finalized" not in out.stdout  # (the old program's exit ran the handler)
    assert read_views(tmp_path / "wh")["hands"].num_rows == 2


def test_other_commands_and_a_failed_import_end_as_python_does(tmp_path: Path) -> None:
    """Only an import that ran to its end asks for the quick exit: a usage error (exit 2) and
    another command (``check``) end through Python's own exit, ``atexit`` handlers and all."""
    import subprocess

    write_hands(tmp_path / "in" / "a.txt", ["1"])
    for args, code in (
        (["import", str(tmp_path / "missing"), "-w", str(tmp_path / "wh")], 2),
        (["check", str(tmp_path / "in")], 0),
    ):
        out = subprocess.run(
            [sys.executable, "-c", _EXIT_PROBE, *args], capture_output=True, text=True, timeout=120
        )
        assert out.returncode == code, out.stdout + out.stderr
        assert "finalized" in out.stdout, args


def test_the_import_command_called_from_other_code_leaves_the_collector_alone(tmp_path: Path) -> None:
    """Called from a caller's own program, the command freezes nothing: the caller's objects
    stay collectable (:data:`hhparse.cli.common.OWN_PROCESS`)."""
    import gc

    gc.unfreeze()
    write_hands(tmp_path / "in" / "a.txt", ["1"])
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(tmp_path / "wh"), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert gc.get_freeze_count() == 0


def test_the_import_command_builds_the_buckets_with_its_own_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hhparse import`` builds the player buckets of what it added through the warehouse it
    holds, once its batches are committed (``after_commit``), not by opening it again after
    letting it go: while they are built no other writer can take the warehouse."""
    from hhparse.failures import WarehouseLockedError
    from hhparse.reports import buckets, derived

    seen: list[tuple[bool, int, bool]] = []
    real = derived.refresh

    def spy(root: Path | str, wh: Warehouse | None = None) -> dict[str, derived.Refresh]:
        try:
            Warehouse(root, holder="test").close()
            locked = False
        except WarehouseLockedError:
            locked = True
        listed = len(wh.manifest.tables.get("hand_players", [])) if wh is not None else -1
        seen.append((wh is not None, listed, locked))
        return real(root, wh)

    monkeypatch.setattr(derived, "refresh", spy)
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    wh = tmp_path / "wh"
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert seen == [(True, 1, True)]
    p = buckets.plan(wh)
    assert p.covered and not p.uncovered and not p.stale


def test_a_failed_bucket_build_is_a_note_and_the_import_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The buckets are derived rows: a failure to build them is one line, the import committed
    and its exit code its own; the reports read the raw rows."""
    from hhparse.reports import buckets, derived

    def broken(root: Path | str, wh: Warehouse | None = None) -> None:
        raise RuntimeError("no buckets today")

    monkeypatch.setattr(derived, "refresh", broken)
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    wh = tmp_path / "wh"
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "derived tables not built (no buckets today)" in r.output
    assert read_views(wh)["hands"].num_rows == 2
    assert not buckets.plan(wh).covered


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(28, "No space left on device"), True),
        (OSError(122, "Disk quota exceeded"), True),
        (OSError(5, "Input/output error reading a source file"), False),
    ],
)
def test_a_full_disk_while_building_the_derived_tables_is_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: OSError, said: bool
) -> None:
    """Regression: an OSError of the derived build was silent, a full disk included (the reports
    then read raw rows with no word why). A full disk or a quota is a note; any other OSError is a
    damaged source file, which the report that reads it names. The import stands either way."""
    from hhparse.reports import derived

    def full(con: Any, d: derived.Derived, path: Path | str, source: str) -> Any:
        raise error

    monkeypatch.setattr(derived, "_build_in", full)
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    wh = tmp_path / "wh"
    r = runner.invoke(_app(), ["import", str(tmp_path / "in"), "-w", str(wh), "-j", "1"])
    assert r.exit_code == 0, r.output
    assert ("derived tables not built" in r.output) == said, r.output
    assert read_views(wh)["hands"].num_rows == 2
    assert not [
        p for p in (wh / ".hhparse" / "files").rglob("*.parquet") if p.parent.name in derived.REGISTRY
    ]


def test_import_of_less_than_a_task_runs_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``hhparse import --jobs 2`` of less text than one task (the session a player just
    played) runs in its own process: one task gains nothing from a pool, which would add its
    start, pipes and staging files (stop 37). A task's worth of text or more gets the pool."""
    from hhparse import importer

    seen: list[tuple[bool, int]] = []

    def executor(self: importer.ImportSession, large: bool) -> importer.Executor:
        seen.append((large, self.jobs))
        return importer.InProcessExecutor()

    monkeypatch.setattr(importer.ImportSession, "_executor", executor)
    write_hands(tmp_path / "in" / "a.txt", ["1", "2"])
    args = ["import", str(tmp_path / "in"), "-j", "2"]
    assert runner.invoke(_app(), [*args, "-w", str(tmp_path / "w1")]).exit_code == 0
    assert runner.invoke(_app(), [*args, "-w", str(tmp_path / "w2"), "--task-hands", "1"]).exit_code == 0
    assert seen == [(False, 2), (True, 2)]
