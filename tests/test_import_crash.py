"""kill -9 at any moment leaves a readable warehouse; rerunning ends exactly like a clean import."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from hhparse.tables.schema import create_views

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import make_hand, read_views

REPO = Path(__file__).resolve().parent.parent

DRIVER = """
import sys
from hhparse.importer import import_paths
r = import_paths([sys.argv[1]], sys.argv[2], jobs=int(sys.argv[3]), task_hands=50, batch_hands=300)
sys.exit(r.exit_code)
"""


def _input(folder: Path, files: int, per_file: int) -> Path:
    """Corpus-like input: one real hand repeated with fresh ids, plus a bad hand per file."""
    folder.mkdir(parents=True)
    for f in range(files):
        hands = [make_hand(str(10_000_000 + f * per_file + i)) for i in range(per_file)]
        hands.insert(per_file // 2, make_hand(str(90_000_000 + f)).replace("*** SUMMARY ***", "*** SUMMRY ***"))
        (folder / f"table-{f:02d}.txt").write_text("\n\n\n".join(hands) + "\n\n\n")
    return folder


def _run(args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-c", DRIVER, *args], env=env, cwd=REPO)


def _batches(wh: Path) -> int:
    try:
        return int(json.loads((wh / "manifest.json").read_text())["next_batch"])
    except (OSError, ValueError, KeyError):
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_kill_9_then_rerun_equals_clean_import(tmp_path: Path, jobs: int) -> None:
    src = _input(tmp_path / "in", files=6, per_file=700)
    clean = tmp_path / "clean"
    assert _run([str(src), str(clean), "1"]).wait(timeout=600) == 1
    expected = read_views(clean)
    assert expected["hands"].num_rows == 6 * 700 and expected["rejects"].num_rows == 6

    crashed = tmp_path / "crashed"
    for stop_after in (2, 6):  # kill twice, at different points
        proc = _run([str(src), str(crashed), str(jobs)])
        deadline = time.monotonic() + 300
        while _batches(crashed) < stop_after and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        # readable at once, by readers that know nothing of the interrupted writer
        con = duckdb.connect()
        create_views(con, crashed)
        row = con.execute("SELECT count(*), count(DISTINCT hand_id) FROM hands").fetchone()
        assert row is not None and row[0] == row[1] and row[0] < 6 * 700
    assert _run([str(src), str(crashed), str(jobs)]).wait(timeout=600) == 1
    assert read_views(crashed) == expected
    # no orphan batch files are left behind once a writer has run
    listed = json.loads((crashed / "manifest.json").read_text())["tables"]
    on_disk = {f"{p.parent.name}/{p.name}" for p in crashed.glob("*/*.parquet")}
    assert on_disk == {rel for rels in listed.values() for rel in rels}
    imports = read_imports(crashed)
    assert sum(r["hands_new"] for r in imports) == 6 * 700
    assert sorted(Path(r["path"]).name for r in imports) == [f"table-{f:02d}.txt" for f in range(6)]


def read_imports(wh: Path) -> list[dict[str, object]]:
    con = duckdb.connect()
    create_views(con, wh)
    cur = con.execute("SELECT * FROM imports")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
