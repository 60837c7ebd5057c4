"""The local pool's start-up, tail and trace (issue #14: ``--jobs 2`` at least 1.8x ``--jobs 1``).

The pool starts while the importer reads its index (its forkserver loads what the workers need
once), its workers keep pandas out, the last tasks are cut smaller so the workers finish
together, and the import's trace says where the time went; none of it may change a row.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import hhparse.importer as importer
from hhparse.import_plan import plan_file
from hhparse.importer import ImportStats, InProcessExecutor, PoolExecutor, import_paths
from hhparse.staging import BatchPart
from hhparse.tables.schema import TABLES
from hhparse.tables.store import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import (
    install_referee,
    make_hand,
    read_views,
    stray_files,
    table_folder_extras,
    write_hands,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _input(root: Path, files: int = 4, per_file: int = 25) -> Path:
    for n in range(files):
        write_hands(root / f"{n}.txt", [str(n * 100 + i) for i in range(per_file)])
    return root


def _real_referee() -> None:
    if not install_referee():
        pytest.skip("workers need the real referee (hhparse.engine.referee)")


def _probe(tmp_path: Path, source: str, *args: str, cwd: Path | None = None) -> Any:
    """Run ``source`` as a script of its own (a fresh process: forks, the collector and module
    state as a program has them) with ``args``; what its last line of stdout says, as JSON."""
    script = tmp_path / "probe.py"
    script.write_text(source, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_last_tasks_are_cut_smaller_and_cover_every_block_once(tmp_path: Path) -> None:
    """With two workers the last two tasks' worth of text per worker goes in quarter tasks; every
    block is in exactly one task, in file order; one worker (in process) never splits."""
    src = _input(tmp_path / "in")
    runs = [run for f in sorted(src.iterdir()) if (run := plan_file(f, {})) is not None]

    def cut(parallel: int) -> list[list[tuple[str, int]]]:
        with Warehouse(tmp_path / f"wh{parallel}", holder="test") as wh:
            stats = ImportStats(bytes_total=sum(r.size for r in runs))
            imp = importer._Importer(
                wh,
                [plan_file(r.path, {}) or r for r in runs],
                executor=InProcessExecutor(),
                task_hands=8,
                batch_hands=1000,
                reporter=importer._NullReporter(),
                import_id="test",
                stats=stats,
                parallel=parallel,
            )
            return [[(b.source, b.line) for b in task.blocks] for task in imp.tasks()]

    one, two = cut(1), cut(2)
    assert [len(t) for t in one] == [8] * 12 + [4]
    assert [b for t in two for b in t] == [b for t in one for b in t]  # same blocks, same order
    sizes = [len(t) for t in two if t]  # (the last task may hold only the files it completes)
    assert sizes[0] == 8 and set(sizes[-4:]) == {2}  # 2 x 2 workers x 8 hands, in quarters
    assert sizes.index(2) >= len(sizes) - 16


def test_parallel_import_with_a_split_tail_equals_in_process_import(tmp_path: Path) -> None:
    _real_referee()
    src = _input(tmp_path / "in")
    r1 = import_paths([src], tmp_path / "w1", jobs=1, task_hands=8)
    r2 = import_paths([src], tmp_path / "w2", jobs=2, task_hands=8, batch_hands=30)
    assert read_views(tmp_path / "w1") == read_views(tmp_path / "w2")
    assert (r1.stats.new, r2.stats.new) == (100, 100)


def test_what_comes_before_the_tail_is_published_while_the_workers_run_it(tmp_path: Path) -> None:
    """The hands merged before the tail's first task are written while the workers still run
    the tail (one batch more, rows and order unchanged), not after it with the workers idle."""
    _real_referee()
    src = _input(tmp_path / "in")
    r1 = import_paths([src], tmp_path / "w1", jobs=1, task_hands=8, batch_hands=1000)
    r2 = import_paths([src], tmp_path / "w2", jobs=2, task_hands=8, batch_hands=1000)
    assert (r1.stats.batches, r2.stats.batches) == (1, 2)
    assert read_views(tmp_path / "w1") == read_views(tmp_path / "w2")


def test_the_trace_accounts_for_every_task_and_worker(tmp_path: Path) -> None:
    """``ImportStats.trace`` (what ``bench/import.py --phases`` prints): each task once, each
    worker's start-up, and the phases in the order they happen."""
    _real_referee()
    src = _input(tmp_path / "in")
    r = import_paths([src], tmp_path / "wh", jobs=2, task_hands=8)
    s = r.stats.trace.summary()
    workers = s["workers"]
    assert 1 <= len(workers) <= 2
    assert sum(w["tasks"] for w in workers.values()) == len(r.stats.trace.tasks) >= 13
    for w in workers.values():
        assert w["ready_start"] is not None and w["ready_start"] <= w["ready"] <= w["first_start"]
        assert 0 < w["busy"] <= w["last_end"] - w["first_start"] + 1e-6
    m = s["marks"]
    order = ["planned", "executor", "first_task", "first_result", "indexed", "last_result", "done"]
    assert [m[k] for k in order] == sorted(m[k] for k in order)
    assert s["waited"] > 0 and s["publishing"] > 0


def test_the_trace_records_each_batch_write_and_the_main_process_cpu_by_part(tmp_path: Path) -> None:
    """The workers' batch writes are in the trace (which worker, when, how long, CPU): the time a
    worker spends between two tasks is a batch's write or waiting for work, told apart
    (``bench/import.py --phases``); and the main process's CPU is split by part and by thread."""
    _real_referee()
    src = _input(tmp_path / "in")
    r = import_paths([src], tmp_path / "wh", jobs=2, task_hands=8, batch_hands=40)
    trace = r.stats.trace
    s = trace.summary()
    tasks_by = {pid for pid, *_ in trace.tasks}
    assert r.stats.batches >= 2
    assert r.stats.batches <= len(trace.writes) <= 2 * r.stats.batches  # (one or two writes a batch)
    assert {pid for pid, *_ in trace.writes} <= tasks_by
    for _pid, start, end, cpu in trace.writes:
        assert 0 < start <= end <= s["end"] and cpu >= 0
    workers = s["workers"].values()
    assert sum(w["writes"] for w in workers) == len(trace.writes)
    walls = sum(end - start for _, start, end, _ in trace.writes)
    assert abs(sum(w["writing_between"] + w["writing_after"] for w in workers) - walls) < 1e-9
    assert 0 < s["main_thread_cpu"] <= s["process_cpu"] + 1e-3
    parts = s["cutting_cpu"] + s["submitting_cpu"] + s["merging_cpu"] + s["publishing_cpu"]
    assert 0 < parts <= s["main_thread_cpu"] + 1e-3
    assert s["cutting_cpu"] > 0 and s["submitting"] > 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_the_pipe_that_carries_the_tasks_holds_a_whole_task() -> None:
    """The workers' tasks go through a pipe that holds a task's text (``importer.widen_task_pipe``):
    at Linux's default 64 KiB a worker read each task in steps, each waiting for the main
    process's feeder thread to write the next, idle between two tasks."""
    import fcntl

    pool = PoolExecutor(2, ev=False)
    pool.start()
    try:
        assert pool._pool is not None
        writer = pool._pool._call_queue._writer  # type: ignore[attr-defined]
        most = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        assert fcntl.fcntl(writer.fileno(), fcntl.F_GETPIPE_SZ) >= min(1 << 20, most)
        assert pool._pool.submit(int, "7").result(timeout=120) == 7
    finally:
        pool.close()


def test_pool_workers_keep_pandas_out() -> None:
    """pyarrow imports pandas (when installed) the first time it converts a Python list; a pool
    worker never needs it (``hhparse.import_worker.without_pandas``). From a forkserver: a worker
    forked from a process that has pandas loaded has it for nothing."""
    _real_referee()
    pool = PoolExecutor(1, method="forkserver")
    pool.start()
    try:
        assert pool._pool is not None
        probe = "(__import__('hhparse.lazy').lazy.refuses_pandas(), 'pandas' in __import__('sys').modules)"
        assert pool._pool.submit(eval, probe).result(timeout=120) == (True, False)
    finally:
        pool.close()


def test_a_worker_without_pandas_converts_its_first_list() -> None:
    """Regression: ``sys.modules["pandas"] = None`` made pyarrow's first conversion of a Python
    list raise ``AttributeError`` (only the warm-up's empty batch, which swallows errors, hid it:
    a real first conversion would have turned a good hand into a reject)."""
    probe = (
        "from hhparse.import_worker import without_pandas; without_pandas(); "
        "import sys, pyarrow as pa; print(pa.array([1, 2]).to_pylist(), 'pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["[1,", "2]", "False"], out.stdout + out.stderr


def test_the_forkserver_builds_what_every_worker_needs_once() -> None:
    """The pool's forkserver imports :mod:`hhparse.pool_preload` last: the workers forked from it
    start with ``pyarrow.compute`` imported, the parser built and all of it frozen out of the
    collector's sight, instead of each worker paying for them at its start-up."""
    assert importer.PRELOAD[-1] == "hhparse.pool_preload"
    probe = (
        "import gc, sys; import hhparse.pool_preload, hhparse.parsing as p; "
        "print(p._PARSER is not None, 'pyarrow.compute' in sys.modules, gc.get_freeze_count() > 0)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"]


_EV_PROBE = """
import sys
from hhparse.import_worker import TaskResult, process_timed
from hhparse.importer import PoolExecutor

if __name__ == "__main__":
    pool = PoolExecutor(1, ev=sys.argv[1] == "on")
    pool.start()
    try:
        def ask(code):
            return pool._pool.submit(eval, code).result(timeout=120)

        print(ask("'hhparse.ev' in __import__('sys').modules"))
        result, _ = pool._pool.submit(process_timed, [], frozenset(), True).result(timeout=120)
        print(isinstance(result, TaskResult), ask("'hhparse.ev' in __import__('sys').modules"))
    finally:
        pool.close()
"""


@pytest.mark.parametrize("ev", ["on", "off"])
def test_a_pool_without_the_ev_stage_builds_no_ev_tables(tmp_path: Path, ev: str) -> None:
    """An import without the EV stage (``import_paths(ev=False)``) does not build the EV tables
    (built as :mod:`hhparse.ev` is imported) in the pool's forkserver nor in its workers, as the
    in-process import does not; a task that takes the EV all the same still gets it. In a process
    of its own: a forkserver already running keeps what it loaded."""
    script = tmp_path / "probe.py"
    script.write_text(_EV_PROBE, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(script), ev], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True" if ev == "on" else "False", "True", "True"], out.stdout + out.stderr


def test_workers_started_for_an_import_that_fails_before_running_are_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool starts while the index of stored hands is read, and runs the first tasks
    meanwhile: if reading it fails, the first merge (which waits for it) raises, the workers are
    stopped at once, and the error is the caller's."""
    _real_referee()
    src = _input(tmp_path / "in")

    def broken(wh: Warehouse) -> None:
        time.sleep(0.2)
        raise OSError("the index cannot be read")

    monkeypatch.setattr(importer, "_load_known", broken)
    workers: set[int] = set()
    start = PoolExecutor.start

    def started(self: PoolExecutor) -> None:
        start(self)  # (called again by the executor's run: the pool started first is kept)
        assert self._pool is not None
        workers.update(self._pool._processes)  # type: ignore[attr-defined]

    monkeypatch.setattr(PoolExecutor, "start", started)
    with pytest.raises(OSError, match="the index cannot be read"):
        import_paths([src], tmp_path / "wh", jobs=2)
    assert len(workers) == 2
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_the_workers_run_the_first_tasks_while_the_index_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only merging needs the index of stored hands: the workers stage their first tasks while it
    is read (long, in a warehouse of millions of hands, the workers idle), and the import is the
    same. The index here is read only once a worker has staged a task; waited for before the
    first task, it never is (the wait times out)."""
    _real_referee()
    src = _input(tmp_path / "in")
    wh_root = tmp_path / "wh"
    import_paths([_input(tmp_path / "first", files=1)], wh_root, jobs=1)  # hands stored: an index
    load = importer._load_known
    seen: list[bool] = []

    def slow(wh: Warehouse) -> object:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
            (wh_root / ".hhparse" / "staging").glob("*/frag-*.tmp")
        ):
            time.sleep(0.01)
        seen.append(any((wh_root / ".hhparse" / "staging").glob("*/frag-*.tmp")))
        return load(wh)

    monkeypatch.setattr(importer, "_load_known", slow)
    r = import_paths([src], wh_root, jobs=2, task_hands=8)
    assert seen == [True]
    assert r.stats.trace.marks["first_task"] < r.stats.trace.marks["indexed"]
    assert (r.stats.new, r.stats.duplicate) == (75, 25)  # the first file's hands were stored: duplicates
    monkeypatch.setattr(importer, "_load_known", load)
    want = tmp_path / "want"
    import_paths([_input(tmp_path / "first", files=1)], want, jobs=1)
    import_paths([src], want, jobs=1, task_hands=8)
    assert _tables_in_order(wh_root) == _tables_in_order(want)


def test_while_the_index_is_read_the_workers_run_up_to_a_batchs_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the index is read the workers run more tasks than the usual window (4 a worker, and
    one more cut before a result is waited for): up to a batch's worth (``batch_hands``), so that
    a large warehouse's index does not stop them once the window is full. The index is read here
    only once 14 tasks are staged: with the usual window, never (the wait times out)."""
    _real_referee()
    src = _input(tmp_path / "in")
    wh_root = tmp_path / "wh"
    load = importer._load_known
    seen: list[int] = []

    def staged() -> int:
        return len(list((wh_root / ".hhparse" / "staging").glob("*/frag-*.tmp")))

    def slow(wh: Warehouse) -> object:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and staged() < 14:
            time.sleep(0.01)
        seen.append(staged())
        return load(wh)

    with monkeypatch.context() as m:  # (not the reference's: it stages nothing, so it would wait 20 s)
        m.setattr(importer, "_load_known", slow)
        r = import_paths([src], wh_root, jobs=2, task_hands=4, batch_hands=60)
    assert seen == [seen[0]] and seen[0] >= 14
    assert r.stats.new == 100
    assert _tables_in_order(wh_root) == _tables_in_order(_in_process(src, tmp_path / "want", 4, 60))


def _in_process(src: Path, wh: Path, task_hands: int, batch_hands: int) -> Path:
    import_paths([src], wh, jobs=1, task_hands=task_hands, batch_hands=batch_hands)
    return wh


# --------------------------------------------------------------------------------------------
# The workers write the tables, the main process commits (issue #14: hhparse.staging)
# --------------------------------------------------------------------------------------------


def _tables_in_order(wh: Path) -> dict[str, pa.Table]:
    """Every table's published rows in publication order (the order is what is compared)."""
    with Warehouse(wh) as w:
        return {name: w.read_table(name) for name in TABLES if name != "imports"}


def _troubled_input(root: Path) -> Path:
    """Hands with a copy of each (duplicates found after a worker staged them), a reject and a
    conflict (a stored hand id, another text)."""
    _input(root / "a", files=3, per_file=20)
    _input(root / "b", files=3, per_file=20)  # the same hands again: duplicates
    bad = make_hand("70000999").replace("*** SUMMARY ***", "*** SUMMRY ***")
    (root / "c.txt").write_text(
        make_hand("70000001") + "\n\n\n" + bad + "\n\n\n" + make_hand("70000001", variant="x") + "\n\n\n"
    )
    return root


def test_the_pools_workers_write_the_tables_of_an_in_process_import_row_for_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's workers stage each task's tables and write each batch's Parquet files; the main
    process only merges the per-hand columns and commits (it tabulates no rows: ``_buffer`` is
    never reached). The tables are the in-process import's, in the same order, duplicates,
    rejects and the conflict's reject included; nothing is left in the staging area."""
    _real_referee()
    src = _troubled_input(tmp_path / "in")
    want = import_paths([src], tmp_path / "w1", jobs=1, task_hands=7, batch_hands=20)

    def not_here(*args: object) -> None:
        raise AssertionError("the main process buffered a task's tables")

    monkeypatch.setattr(importer._Importer, "_buffer", not_here)
    executor = PoolExecutor(2, ev=True)
    got = import_paths([src], tmp_path / "w2", executor=executor, task_hands=7, batch_hands=20)
    assert (want.stats.duplicate, want.stats.conflicting, want.stats.rejected) == (60, 1, 1)
    for name in ("read", "new", "duplicate", "conflicting", "rejected"):
        assert getattr(got.stats, name) == getattr(want.stats, name), name
    assert got.stats.batches > 2
    assert _tables_in_order(tmp_path / "w2") == _tables_in_order(tmp_path / "w1")
    assert not stray_files(tmp_path / "w2") and not table_folder_extras(tmp_path / "w2")
    assert not any((tmp_path / "w2" / ".hhparse" / "staging").iterdir())
    assert json.loads((tmp_path / "w2" / "manifest.json").read_text())["pending"] == []


def test_a_worker_killed_mid_import_stops_it_and_the_rerun_stores_the_clean_imports_tables(
    tmp_path: Path,
) -> None:
    """kill -9 of a pool worker after the first batch is published: the import stops with an
    error, keeps what it committed, leaves nothing staged; running it again (the pool not
    staging) gives exactly the tables of an import never interrupted."""
    _real_referee()
    src = _troubled_input(tmp_path / "in")
    import_paths([src], tmp_path / "clean", jobs=1, task_hands=7, batch_hands=20)
    executor = PoolExecutor(2)

    class Killer(importer._NullReporter):
        def advance(self, stats: ImportStats) -> None:
            pool = executor._pool
            if stats.batches >= 1 and pool is not None and pool._processes:  # type: ignore[attr-defined]
                for pid in list(pool._processes):  # type: ignore[attr-defined]
                    os.kill(pid, signal.SIGKILL)
                    break

    with pytest.raises(BrokenProcessPool):
        import_paths(
            [src], tmp_path / "wh", executor=executor, task_hands=7, batch_hands=20, reporter=Killer()
        )
    with Warehouse(tmp_path / "wh") as wh:
        assert wh.read_table("hands").num_rows > 0  # the first batch stays
    assert not stray_files(tmp_path / "wh") and not table_folder_extras(tmp_path / "wh")
    assert not any((tmp_path / "wh" / ".hhparse" / "staging").iterdir())
    rerun = PoolExecutor(2, stage=False)  # (the results then carry their tables, as before staging)
    again = import_paths([src], tmp_path / "wh", executor=rerun, task_hands=7, batch_hands=20)
    assert again.stats.new > 0
    assert _tables_in_order(tmp_path / "wh") == _tables_in_order(tmp_path / "clean")


def test_a_batchs_tables_are_shared_out_between_the_workers_each_once_and_in_order() -> None:
    """The last batch is written by both workers at once: every table goes to exactly one write,
    with its parts in their order, and the costliest (``actions``) is not with the next two."""
    spec: dict[str, list[BatchPart]] = {
        name: [("fragment", f"{name}-{i}", None) for i in range(3)] for name in TABLES if name != "imports"
    }
    spec["imports"] = [("rows", [{"path": "x"}], None)]
    for n in (1, 2, 3):
        groups = importer.write_groups(spec, n)
        assert len(groups) == min(n, len(spec))
        merged = [name for group in groups for name in group]
        assert sorted(merged) == sorted(spec)  # each table in exactly one group
        assert all(group[name] == spec[name] for group in groups for name in group)
    with_actions = next(g for g in importer.write_groups(spec, 2) if "actions" in g)
    assert "hands" not in with_actions and "hand_players" not in with_actions


def test_a_batchs_write_reads_only_its_tables_streams_from_each_fragment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's tables are shared out between the workers' writes: each write reads from a
    fragment the streams of its own tables only (it read every fragment whole, twice the bytes
    for two workers, all held until the batch was written), and writes the rows it would have."""
    from hhparse import staging
    from hhparse.import_worker import process_blocks
    from hhparse.splitter import split_text

    _real_referee()
    text = "\n\n\n".join(make_hand(str(i)) for i in range(30)) + "\n\n\n"
    result = process_blocks(list(split_text(text, "x.txt")), ev=False)
    with Warehouse(tmp_path / "wh", holder="test") as wh:
        tag, folder = wh.stage()
        path, rows, *_ = staging.stage_result(result, (str(folder), tag, 0), None)
        streams = staging.read_streams(path)
        assert set(streams) == {name for name, n in rows.items() if n}
        assert staging.load_fragment(path).keys() == streams.keys()
        for name, table in staging.load_fragment(path).items():
            assert table.equals(result.tables[name])
        read: list[int] = []
        pread = staging._pread

        def counted(fd: int, n: int, offset: int) -> bytes:
            read.append(n)
            return pread(fd, n, offset)

        monkeypatch.setattr(staging, "_pread", counted)
        written = staging.write_batch(
            str(wh.root), str(folder), tag, {"hands": [("fragment", path, [0, 2, 4])]}
        )
        assert written == {"hands": 3}
        others = sum(len(data) for name, data in streams.items() if name != "hands")
        assert sum(read) < os.path.getsize(path) - others + 1
        assert sum(read) >= len(streams["hands"])
        wh.unstage(tag)


def test_waiting_for_a_batchs_writes_does_not_spin_once_one_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the workers write a batch the main process waits on the writes not done yet: with one
    write done and the other still running, waiting on both returned at once, and the loop spun
    on a core the workers need until the second was done."""
    import threading
    from concurrent.futures import Future

    calls = []
    real_wait = importer.wait_futures

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real_wait(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "wait_futures", counted)
    done: Future[dict[str, int]] = Future()
    done.set_result({"hands": 1})
    late: Future[dict[str, int]] = Future()
    threading.Timer(0.3, late.set_result, args=({"actions": 2},)).start()
    pool = PoolExecutor(2)
    pool._feed = (lambda: False, importer.deque(), 8)
    pool._feed_while([done, late])
    assert late.done()
    assert len(calls) <= 3, f"{len(calls)} waits for one write"


_START_PROBE = """
import json, os, sys, threading
from hhparse.importer import PoolExecutor

if __name__ == "__main__":
    if sys.argv[1] == "thread":
        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()
    pool = PoolExecutor(2, ev=False)
    method = pool.start_method()
    pool.start()
    try:
        got = [pool._pool.submit(os.getppid).result(timeout=120) for _ in range(4)]
        fds = pool._pool.submit(os.readlink, "/proc/self/fd/1").result(timeout=120)
        print(json.dumps({"method": method, "started": pool.started, "parent_is_main": all(p == os.getpid() for p in got), "stdout": fds, "parser_here": getattr(sys.modules.get("hhparse.parsing"), "_PARSER", None) is not None}))
    finally:
        pool.close()
        if sys.argv[1] == "thread":
            stop.set()
"""


@pytest.mark.parametrize("threads", ["one", "thread"])
def test_the_pool_forks_its_workers_from_a_process_that_runs_no_other_thread(
    tmp_path: Path, threads: str
) -> None:
    """The workers are forked from the importing process itself when it runs nothing but its
    main thread (they start with pyarrow and numpy loaded, and warm up side by side); with another
    thread running, a fork could copy a lock that thread held, so they come from a forkserver.
    Either way they hold neither the main process's stdout nor its stderr. Forked, they inherit
    the parser this process built for them, once (a forkserver builds it otherwise)."""
    got = _probe(tmp_path, _START_PROBE, threads, cwd=tmp_path)
    method = "fork" if threads == "one" else "forkserver"
    forked = threads == "one"
    assert got == {
        "method": method,
        "started": method,
        "parent_is_main": forked,
        "stdout": "/dev/null",
        "parser_here": forked,  # built once before the fork, not by each worker
    }


def test_a_worker_asks_for_its_death_signal_without_running_ldconfig(monkeypatch: pytest.MonkeyPatch) -> None:
    """``prctl`` is found among the process's own symbols: ``ctypes.util.find_library`` runs
    ``ldconfig -p`` in a child process, a fork of the worker, at every worker's start."""
    import ctypes.util

    from hhparse import workers

    def no(name: str) -> str | None:
        raise AssertionError(f"find_library({name!r}) was called")

    monkeypatch.setattr(ctypes.util, "find_library", no)
    assert workers._set_pdeathsig(0)  # (0: no signal, what this test process had)


def test_a_fragment_holds_each_tables_ipc_stream_byte_for_byte(tmp_path: Path) -> None:
    """A task's fragment is written from Arrow's buffers as they are (``staging.ipc_buffer``, no
    copy into ``bytes`` first): its bytes are the index and each table's stream, as before."""
    from hhparse import staging
    from hhparse.import_worker import process_blocks
    from hhparse.splitter import split_text

    _real_referee()
    text = "\n\n\n".join(make_hand(str(i)) for i in range(12)) + "\n\n\n"
    result = process_blocks(list(split_text(text, "x.txt")), ev=False)
    path, *_ = staging.stage_result(result, (str(tmp_path), "t", 0), None)
    streams = {n: staging.ipc_stream(t, None) for n, t in result.tables.items() if t.num_rows}
    with open(path, "rb") as fh:
        assert fh.read() == b"".join(staging.fragment_parts(streams, None))
    assert staging.read_streams(path) == streams


@pytest.mark.parametrize("compression", [None, "zstd", "lz4"])
def test_a_compressed_fragments_tables_come_back_as_built_table_by_table(
    tmp_path: Path, compression: str | None
) -> None:
    """A cluster's fragment is indexed (a batch's write reads its own tables) and each stream is
    compressed in one call (not Arrow's buffer by buffer): both at once, read whole or a table
    alone, give back the tables the task built (the merge of branches main14 and dask18)."""
    from hhparse import staging
    from hhparse.import_worker import process_blocks
    from hhparse.splitter import split_text

    _real_referee()
    text = "\n\n\n".join(make_hand(str(i)) for i in range(30)) + "\n\n\n"
    result = process_blocks(list(split_text(text, "x.txt")), ev=False)
    with Warehouse(tmp_path / "wh", holder="test") as wh:
        tag, folder = wh.stage()
        path, rows, *_ = staging.stage_result(result, (str(folder), tag, 0), compression)  # type: ignore[arg-type]
        tables = staging.load_fragment(path)
        assert set(tables) == {name for name, n in rows.items() if n}
        for name, table in tables.items():
            assert table.equals(result.tables[name])
        alone = staging.read_streams(path, ("actions",))
        assert list(alone) == ["actions"]
        assert pa.ipc.open_stream(alone["actions"]).read_all().equals(result.tables["actions"])
        raw = sum(len(staging.ipc_stream(t, None)) for t in result.tables.values() if t.num_rows)
        size = os.path.getsize(path)
        assert (size < raw / 2) if compression else (size > raw)


def test_after_commit_runs_with_the_writer_once_the_workers_are_stopped(tmp_path: Path) -> None:
    """``after_commit`` (``hhparse import`` builds the player buckets there) gets the warehouse
    this import holds, with every batch committed, and runs once the pool's workers are gone."""
    import multiprocessing

    _real_referee()
    src = _input(tmp_path / "in", files=2)
    seen: list[tuple[int, int, int]] = []

    def after(wh: Warehouse) -> None:
        seen.append(
            (
                len(wh.manifest.tables.get("hands", [])),
                len(wh.manifest.pending),
                len(multiprocessing.active_children()),
            )
        )

    r = import_paths([src], tmp_path / "wh", jobs=2, task_hands=10, after_commit=after)
    assert r.stats.new == 50
    assert len(seen) == 1
    files, pending, children = seen[0]
    assert files == r.stats.batches and pending == 0 and children == 0


def test_the_collector_paused_comes_back_as_it_was() -> None:
    """:func:`~hhparse.import_worker.collector_paused`: no automatic collection inside, and the
    collector enabled again after only if it was before (an exception too)."""
    import gc

    from hhparse.import_worker import collector_paused

    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        assert not gc.isenabled()
        raise KeyError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


_BUILD_GC_PROBE = """
import gc, json, sys
import hhparse.importer as importer
from hhparse.parsing import _PARSER

collections = []
gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" else None)
if sys.argv[1] == "pool":
    pool = importer.PoolExecutor(1, ev=True)
    pool.start()  # forked: the parser, referee and EV tables built here first
    built = collections[:]
    pool.close()
else:
    # One empty task (with none, nothing is built at all: test_a_reimport_of_unchanged_files_builds_nothing),
    # pandas kept out as the program does (pyarrow's first conversion would import it, collecting).
    from hhparse.lazy import refuse_pandas

    refuse_pandas()
    results = importer.InProcessExecutor().results(iter([importer.Task([], [], [], 0)]), True)
    for _ in results:
        built = collections[:]  # (built, and the task run: the collector's defaults come back after)
import hhparse.parsing as p
print(json.dumps({"built_here": _PARSER is None and p._PARSER is not None, "collections": built,
                  "enabled": gc.isenabled()}))
"""


@pytest.mark.parametrize("where", ["pool", "in-process"])
def test_building_the_parser_and_tables_runs_no_collection(tmp_path: Path, where: str) -> None:
    """The importing process builds the parser, referee and EV tables (for its forked workers, or
    for itself with ``--jobs 1``) with the collector paused up to the freeze that follows: those
    objects live for the whole run, and collecting while building them (dozens of young
    collections and a full one over every module loaded, at the default thresholds) only delayed
    the workers' first task. The collector is enabled again after."""
    got = _probe(tmp_path, _BUILD_GC_PROBE, where.split("-")[0])
    # in-process: one young collection, quiet_gc's own, before the freeze (a full one walked
    # every module loaded for what the young one finds: test_quiet_gc_collects_young_only)
    assert got == {"built_here": True, "collections": [] if where == "pool" else [1], "enabled": True}


_QUIET_GC_PROBE = """
import gc, json, weakref
from hhparse.import_worker import collector_paused, quiet_gc, restore_gc


class Node:
    pass


generations = []
with collector_paused():  # (as the build before it runs)
    built = [Node() for _ in range(1000)]  # (kept: what the build holds for the run)
    node = Node()
    node.me = node  # (what the build left: a cycle only a collection frees)
    left = weakref.ref(node)
    del node
    gc.callbacks.append(lambda phase, info: generations.append(info["generation"]) if phase == "start" else None)
    previous = quiet_gc()
    gc.callbacks.clear()
frozen = gc.get_freeze_count()
restore_gc(previous)
print(json.dumps({"generations": generations, "left_freed": left() is None, "frozen": frozen >= 1000}))
"""


def test_quiet_gc_collects_young_only(tmp_path: Path) -> None:
    """:func:`~hhparse.import_worker.quiet_gc` collects the young generations before its freeze,
    not all three: what the paused build left is young, and is freed by it; a full collection
    walked every module loaded as well, for nothing more to free (stop 37)."""
    got = _probe(tmp_path, _QUIET_GC_PROBE)
    assert got == {"generations": [1], "left_freed": True, "frozen": True}


_CALLER_FREEZE_PROBE = """
import gc, json, sys
from hhparse.importer import import_paths
mine = [[i] for i in range(1000)]  # (containers the caller moved out of the collector's sight)
gc.freeze()
frozen = gc.get_freeze_count()
import_paths([sys.argv[1]], sys.argv[2], jobs=1, ev=False)
tracked = {id(o) for o in gc.get_objects()}  # (a frozen object is in no generation)
print(json.dumps({"frozen_before": frozen, "mine_thawed": sum(id(o) in tracked for o in mine),
                  "threshold": list(gc.get_threshold())}))
"""


def test_an_in_process_import_leaves_the_callers_frozen_objects_frozen(tmp_path: Path) -> None:
    """A program calling :func:`import_paths` (``--jobs 1``, in its own process) may have frozen
    its heap (``gc.freeze``) for its own reasons; the import must leave it so. It used to freeze
    everything and ``gc.unfreeze`` it all at the end, thawing the caller's objects with its own
    (regression, stop 36). The thresholds come back as they were."""
    hand = tmp_path / "h.txt"
    write_hands(hand, ["1", "2"])
    got = _probe(tmp_path, _CALLER_FREEZE_PROBE, str(hand), str(tmp_path / "wh"))
    assert got["frozen_before"] > 1000
    assert got["mine_thawed"] == 0
    assert got["threshold"] == [700, 10, 10]  # (the interpreter's defaults: the probe set none)


@pytest.mark.parametrize("user", [None, "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"])
def test_one_blas_thread_unless_the_user_said_how_many(user: str | None) -> None:
    """:func:`hhparse.lazy.one_blas_thread` asks OpenBLAS for one thread, and leaves a count the
    user set (under any of the names OpenBLAS reads) as it is."""
    from hhparse.lazy import one_blas_thread

    env = {"PATH": "/bin"} if user is None else {user: "3"}
    assert one_blas_thread(env) is (user is None)
    assert env == ({"PATH": "/bin", "OPENBLAS_NUM_THREADS": "1"} if user is None else {user: "3"})


_CLI_BLAS_PROBE = """
import os, sys
import hhparse.cli as cli
cli.app = lambda: None  # (the command itself is not what is asked)
cli.main()
import numpy  # noqa: F401
print(os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")))
"""


@pytest.mark.parametrize("user", [None, "2"])
def test_the_hhparse_program_starts_no_blas_threads(user: str | None) -> None:
    """The ``hhparse`` program (:func:`hhparse.cli.main`) asks numpy's OpenBLAS for one thread
    before any command imports numpy, so none spins beside the import; a count the user set wins."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
    }
    if user is not None:
        env["OMP_NUM_THREADS"] = user
    out = subprocess.run(
        [sys.executable, "-c", _CLI_BLAS_PROBE], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    value, threads = out.stdout.split()
    assert value == ("1" if user is None else "None")
    if user is None:
        assert threads == "1"  # (numpy loaded: no OpenBLAS thread beside the main one)


_FORKSERVER_BLAS_PROBE = """
import os, sys
from hhparse.importer import PoolExecutor

def ask():
    import numpy  # noqa: F401
    return os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")) - 1

if __name__ == "__main__":
    pool = PoolExecutor(1, ev=False, method="forkserver")
    pool.start()
    try:
        print(*pool._pool.submit(ask).result(timeout=120), os.environ.get("OPENBLAS_NUM_THREADS"))
    finally:
        pool.close()
"""


def test_the_pools_forkserver_starts_no_blas_threads(tmp_path: Path) -> None:
    """The forkserver imports :mod:`hhparse.pool_threads` before numpy: its workers start no
    OpenBLAS threads (one thread: the worker's watchdog besides its main one), and the importing
    process's own environment is left as it was."""
    assert importer.PRELOAD[0] == "hhparse.pool_threads"
    script = tmp_path / "probe.py"
    script.write_text(_FORKSERVER_BLAS_PROBE, encoding="utf-8")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
    }
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "1", "None"]


_PLAN_ORDER_PROBE = """
import json, os, sys
from pathlib import Path
import hhparse.importer as importer

events = []
start, plan_file = importer.PoolExecutor.start, importer.plan_file

def started(self):
    if self._pool is None:  # (a pool started already is kept: called again, it does nothing)
        events.append("start")
    start(self)

def planned(*args, **kwargs):
    if not events or events[-1] != "plan":
        events.append("plan")
    return plan_file(*args, **kwargs)

if __name__ == "__main__":
    importer.PoolExecutor.start, importer.plan_file = started, planned
    src, wh = Path(sys.argv[1]), sys.argv[2]
    out = {}
    for case in ("new", "unchanged", "touched"):
        if case == "touched":
            for f in src.iterdir():
                os.utime(f, ns=(f.stat().st_atime_ns, f.stat().st_mtime_ns + 10**9))
        events.clear()
        r = importer.import_paths([src], wh, jobs=2, ev=False)
        out[case] = {"events": events[:], "new": r.stats.new, "skipped": r.stats.files_skipped}
    print(json.dumps(out))
"""


def test_an_import_with_nothing_to_read_starts_no_worker(tmp_path: Path) -> None:
    """The pool starts once the plan has found text to read; an import with nothing to read —
    every file unchanged, or only touched (a new mtime, the same bytes) — starts no worker
    (:meth:`PoolExecutor.results` looks for a first task first: it forked two workers, and built
    the parser, referee and EV tables for them, then stopped them)."""
    _real_referee()
    src = _input(tmp_path / "in", files=2, per_file=5)
    got = _probe(tmp_path, _PLAN_ORDER_PROBE, str(src), str(tmp_path / "wh"), cwd=tmp_path)
    assert got["new"] == {"events": ["plan", "start"], "new": 10, "skipped": 0}
    assert got["unchanged"] == {"events": ["plan"], "new": 0, "skipped": 2}
    assert got["touched"] == {"events": ["plan"], "new": 0, "skipped": 2}


_REIMPORT_PROBE = """
import json, sys
from hhparse.cli import import_cmd
from hhparse.importer import import_paths

r = import_paths(
    [sys.argv[1]], sys.argv[2], jobs=int(sys.argv[3]), after_commit=lambda wh: import_cmd._build_derived(wh, 80)
)
loaded = [m for m in ("hhparse.parsing", "hhparse.ev", "duckdb") if m in sys.modules]
print(json.dumps({"new": r.stats.new, "skipped": r.stats.files_skipped, "loaded": loaded}))
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reimport_of_unchanged_files_builds_nothing(tmp_path: Path, jobs: str) -> None:
    """An import with nothing to read builds neither the parser, the referee nor the EV tables,
    in-process too (:meth:`InProcessExecutor.results` looks for a first task first, as the
    pool's does), and ``hhparse import``'s derived step imports DuckDB only when there is
    something to build (stop 37: a re-import of unchanged files paid ≈ 0.1 s of CPU for them)."""
    _real_referee()
    src = _input(tmp_path / "in", files=2, per_file=5)
    args = (str(src), str(tmp_path / "wh"), jobs)
    first = _probe(tmp_path, _REIMPORT_PROBE, *args, cwd=tmp_path)
    assert first["new"] == 10 and "duckdb" in first["loaded"] and "hhparse.parsing" in first["loaded"]
    assert _probe(tmp_path, _REIMPORT_PROBE, *args, cwd=tmp_path) == {"new": 0, "skipped": 2, "loaded": []}
