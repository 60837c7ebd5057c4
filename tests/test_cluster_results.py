"""What a cluster's worker sends back, and when the client publishes (issue #18), without Dask.

A worker's result travels as one blob of compressed Arrow IPC streams
(:func:`hhparse.cluster.pack_result`): the client must get back exactly what the worker built.
And an import whose workers read the files themselves publishes the hands merged before the
tail while the workers run it (:meth:`hhparse.importer._Importer.file_tasks`), which changes the
batches but never the tables.
"""

from __future__ import annotations

import json
import pickle
import shutil
import sys
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from hhparse import importer
from hhparse.cluster import (
    ClusterError,
    DaskExecutor,
    can_stage,
    fingerprint,
    pack_result,
    run_file_task,
    unpack_result,
    write_batch_task,
)
from hhparse.import_worker import FilesResult, TaskResult, process_blocks, process_files
from hhparse.importer import Staging, Task, _parallel, import_paths, local_executor
from hhparse.splitter import split_file
from hhparse.staging import StagedResult, batch_part, ipc_stream, pack_streams, unpack_streams
from hhparse.tables.build import records_from_pylist
from hhparse.tables.store import Warehouse, staged_name, write_batch_file

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import make_hand, read_views, same_task_result, stray_files, table_folder_extras


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hhparse.synth import SynthConfig, write

    one = tmp_path_factory.mktemp("synth-one")
    write(SynthConfig(hands=240, seed=5), directory=one)
    blocks = [b for p in sorted(one.rglob("*.txt")) for b in split_file(p)]
    root = tmp_path_factory.mktemp("synth")
    for n in range(0, len(blocks), 12):  # twenty files of twelve hands
        text = "".join(b.text.rstrip("\n") + "\n\n\n" for b in blocks[n : n + 12])
        (root / f"s{n:04d}.txt").write_text(text)
    return root


def test_a_files_result_comes_back_as_the_worker_built_it_and_smaller(synth_dir: Path) -> None:
    files = sorted(synth_dir.rglob("*.txt"))[:3]
    want = process_files([(str(p), p.stat().st_size, 0, True, "") for p in files], True)
    assert want.result.hashes  # (hands were read)
    blob = pack_result(want)
    got = unpack_result(blob)
    assert isinstance(got, FilesResult)
    same_task_result(got.result, want.result)
    for field in ("segments", "lines", "open_tails", "live", "outcomes", "nbytes"):
        assert getattr(got, field) == getattr(want, field), field
    assert len(blob) < len(pickle.dumps(want, protocol=pickle.HIGHEST_PROTOCOL)) / 2


def test_a_task_result_of_shipped_blocks_comes_back_as_the_worker_built_it(synth_dir: Path) -> None:
    path = sorted(synth_dir.rglob("*.txt"))[0]
    blocks = list(split_file(path))
    want = process_blocks(blocks, frozenset(), True)
    got = unpack_result(pack_result(want))
    assert isinstance(got, TaskResult) and not isinstance(got, FilesResult)
    same_task_result(got, want)


def test_an_empty_result_travels_too() -> None:
    got = unpack_result(pack_result(process_blocks([], frozenset(), True)))
    assert isinstance(got, TaskResult) and got.hashes == []


@pytest.mark.parametrize("compression", [None, "zstd", "lz4"])
def test_a_tasks_tables_are_compressed_together_and_come_back_as_built(
    synth_dir: Path, compression: Any
) -> None:
    """Regression (branch dask18): Arrow's IPC compression compressed each buffer of each column
    apart, a new zstd context each time, which cost a cluster's worker more CPU than writing the
    Parquet files; a task's streams are now compressed in one go
    (:func:`hhparse.staging.pack_streams`), smaller than buffer by buffer, and read back intact."""
    files = sorted(synth_dir.rglob("*.txt"))[:3]
    want = process_files([(str(p), p.stat().st_size, 0, True, "") for p in files], True).result
    blob = pack_streams(want.tables, compression)
    got = {name: pa.ipc.open_stream(data).read_all() for name, data in unpack_streams(blob).items()}
    assert got.keys() == want.tables.keys() and len(got) > 3
    for name, table in want.tables.items():
        assert got[name].equals(table), name
    apart = len(pickle.dumps({n: ipc_stream(t, compression) for n, t in want.tables.items()}))
    if compression is not None:
        assert len(blob) < apart
        assert len(blob) < len(pack_streams(want.tables, None)) / 3


class _InProcessReader:
    """A cluster executor in miniature: its "workers" read the files (``reads_inputs``), it runs
    ``threads`` at once, and its results travel as a Dask worker's do."""

    def __init__(self, threads: int) -> None:
        self._threads = threads
        self.sizes: list[int] = []

    def reads_inputs(self, sample: Sequence[tuple[str, int]]) -> bool:
        return True

    def threads(self) -> int:
        return self._threads

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult | FilesResult]]:
        for task in tasks:
            assert task.segment_files
            self.sizes.append(task.nbytes)
            got = unpack_result(pack_result(process_files(task.segments, ev)))
            assert isinstance(got, FilesResult)
            yield task, got


@pytest.mark.parametrize("threads", [1, 2])
def test_files_read_by_workers_publish_before_the_tail_and_store_the_same_tables(
    synth_dir: Path, tmp_path: Path, threads: int
) -> None:
    """Regression: a cluster counted as one worker published every hand after the last result,
    with the workers idle; now the hands before the tail go while the workers run it."""
    want = import_paths([synth_dir], tmp_path / "local", jobs=1)
    executor = _InProcessReader(threads)
    got = import_paths([synth_dir], tmp_path / "cluster", executor=executor, task_hands=20)
    assert got.stats.read == want.stats.read > 0
    assert (got.stats.new, got.stats.rejected) == (want.stats.new, want.stats.rejected)
    assert want.stats.batches == 1 and got.stats.batches == 2
    ours, theirs = read_views(tmp_path / "cluster"), read_views(tmp_path / "local")
    assert ours.keys() == theirs.keys()
    for name, table in theirs.items():
        assert ours[name].equals(table), name
    if threads > 1:  # the tail's tasks group a quarter of the bytes
        assert max(executor.sizes[-2:]) < max(executor.sizes[:-4])


def test_an_executor_counts_its_worker_threads() -> None:
    assert _parallel(local_executor(1)) == 1
    assert _parallel(local_executor(3)) == 3
    assert _parallel(_InProcessReader(4)) == 4


class _Flaky:
    """A Dask future whose wait fails as ``distributed.utils.sync`` does under load."""

    def __init__(self, blob: bytes, fails: int, status: str = "finished") -> None:
        self.blob, self.fails, self.status, self.released = blob, fails, status, False

    def result(self, timeout: float | None = None) -> bytes:
        if self.fails:
            self.fails -= 1
            raise UnboundLocalError("cannot access local variable 'result'")
        return self.blob

    def release(self) -> None:
        self.released = True


class _NoDask:
    class TimeoutError(Exception):
        pass

    class KilledWorker(Exception):
        pass

    class CancelledError(Exception):
        pass


def test_dasks_unbound_result_race_is_waited_out_and_a_tasks_own_error_is_not() -> None:
    """Regression (dask/distributed#8514): ``future.result(timeout=...)`` raised
    UnboundLocalError under load, and the import stopped."""
    from hhparse.cluster import DaskExecutor

    executor = DaskExecutor(object(), inputs="workers")
    want = process_blocks([], frozenset(), True)
    flaky = _Flaky(pack_result(want), fails=2)
    got = executor._wait(flaky, _NoDask)
    assert isinstance(got, TaskResult) and got.hashes == [] and flaky.released
    with pytest.raises(UnboundLocalError):
        executor._wait(_Flaky(b"", fails=1, status="error"), _NoDask)


# --------------------------------------------------------------------------------------------
# Tables written by the workers into the warehouse (issue #18)
# --------------------------------------------------------------------------------------------


class _InProcessStager(_InProcessReader):
    """A cluster whose workers write their tasks' tables into the warehouse's staging area and a
    batch's Parquet files (:class:`hhparse.importer.StagingExecutor`), run in this process with
    the workers' own functions."""

    def __init__(self, threads: int) -> None:
        super().__init__(threads)
        self.staging: Staging | None = None
        self.batches: list[dict[str, int]] = []

    def stages(self, staging: Staging) -> bool:
        return True

    def results(self, tasks: Iterator[Task], ev: bool) -> Generator[tuple[Task, TaskResult | FilesResult]]:
        for task in tasks:
            assert self.staging is not None and task.segment_files
            got = unpack_result(run_file_task(fingerprint(), task.segments, ev, self.staging.next()))
            assert isinstance(got, FilesResult) and isinstance(got.result, StagedResult)
            assert not got.result.tables and Path(got.result.fragment).exists()
            yield task, got

    def write_batch(self, tag: str, parts: dict[str, list[Any]]) -> dict[str, int]:
        assert self.staging is not None
        spec = {name: [batch_part(p) for p in table_parts] for name, table_parts in parts.items()}
        spec = pickle.loads(pickle.dumps(spec))
        rows = write_batch_task(fingerprint(), self.staging.root, self.staging.folder, tag, spec)
        self.batches.append(rows)
        return rows


def test_tables_the_workers_write_are_the_local_imports_duplicates_conflicts_and_rejects_included(
    synth_dir: Path, tmp_path: Path
) -> None:
    """The workers write each task's tables before the client knows which of its hands are
    duplicates (a second copy of every file), conflicts (a stored hand id, another text) or
    rejects: the batches a worker writes hold exactly the rows of a local import, in order, and
    nothing is left in the staging area."""
    src = tmp_path / "in"
    shutil.copytree(synth_dir, src / "a")
    shutil.copytree(synth_dir, src / "b")  # every hand again: duplicates
    bad = make_hand("70000999").replace("*** SUMMARY ***", "*** SUMMRY ***")
    (src / "c.txt").write_text(
        make_hand("70000001") + "\n\n\n" + bad + "\n\n\n" + make_hand("70000001", variant="x") + "\n\n\n"
    )
    want = import_paths([src], tmp_path / "local", jobs=1, batch_hands=150)
    executor = _InProcessStager(2)
    got = import_paths([src], tmp_path / "staged", executor=executor, task_hands=20, batch_hands=150)
    assert want.stats.duplicate > 200 and want.stats.conflicting == 1 and want.stats.rejected == 1
    for field in ("read", "new", "duplicate", "conflicting", "rejected"):
        assert getattr(got.stats, field) == getattr(want.stats, field), field
    assert len(executor.batches) == got.stats.batches > 1
    ours, theirs = read_views(tmp_path / "staged"), read_views(tmp_path / "local")
    assert ours.keys() == theirs.keys()
    for name, table in theirs.items():
        assert ours[name].equals(table), name
    with Warehouse(tmp_path / "staged") as wh, Warehouse(tmp_path / "local") as local:
        assert wh.read_table("imports").num_rows == local.read_table("imports").num_rows > 0
    assert not stray_files(tmp_path / "staged") and not table_folder_extras(tmp_path / "staged")
    manifest = json.loads((tmp_path / "staged" / "manifest.json").read_text())
    assert manifest["pending"] == []


def test_what_a_killed_import_staged_is_deleted_by_the_next_writer(tmp_path: Path) -> None:
    """A fragment staged under an announced tag, and a batch a worker wrote but the client never
    committed, are gone once the warehouse is opened again; nothing else is touched."""
    root = tmp_path / "wh"
    with Warehouse(root) as wh:
        staging = Staging(wh)
        folder, tag, part = staging.next()
        fragment = staged_name(Path(folder), "frag", part)
        fragment.write_bytes(b"half a fragment")

        def dies(batch: str) -> dict[str, int]:
            write_batch_file(root, "hands", batch, records_from_pylist("hands", []), folder)
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            wh.publish_written({}, dies)
        assert not (root / ".hhparse" / "files" / "hands").exists() or not any(
            (root / ".hhparse" / "files" / "hands").iterdir()
        )
        # the client killed here: its staging tag is still announced
    assert fragment.exists()
    with Warehouse(root) as wh:
        assert not fragment.exists() and not Path(folder).exists()
        assert wh.manifest.pending == []
        # a worker still running a task of the dead client cannot write there any more
        with pytest.raises(FileNotFoundError):
            staged_name(Path(folder), "frag", part + 1).write_bytes(b"late")
        with pytest.raises(FileNotFoundError):
            write_batch_file(root, "hands", tag, records_from_pylist("hands", []), folder)
    assert not stray_files(root)


def test_the_staged_write_is_chosen_by_the_executor_and_said_no_to_by_writes_client() -> None:
    """``writes="client"`` never stages, ``"workers"`` always; a bad value is a usage error."""
    with pytest.raises(ClusterError):
        DaskExecutor(object(), writes="nowhere")
    assert DaskExecutor(object(), writes="client").stages(None) is False  # type: ignore[arg-type]
    assert DaskExecutor(object(), writes="workers").stages(None) is True  # type: ignore[arg-type]


def test_a_worker_that_does_not_see_the_warehouse_says_why(tmp_path: Path) -> None:
    """:func:`hhparse.cluster.can_stage`: a worker on another machine does not see the client's
    probe file (then the client writes the Parquet files itself)."""
    assert can_stage(str(tmp_path), str(tmp_path / "probe")) is not None
    (tmp_path / "probe").write_bytes(b"")
    assert can_stage(str(tmp_path), str(tmp_path / "probe")) is None


def test_staging_moves_to_a_new_tag_after_its_parts_and_forgets_every_tag_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fragments are numbered in four digits under a tag: past :data:`STAGED_PARTS` the next go
    under a new tag, announced first; closing deletes every tag's folder and forgets them."""
    monkeypatch.setattr(importer, "STAGED_PARTS", 2)
    with Warehouse(tmp_path / "wh") as wh:
        staging = Staging(wh)
        got = [staging.next() for _ in range(5)]
        assert [part for _, _, part in got] == [0, 1, 0, 1, 0]
        tags = [tag for _, tag, _ in got]
        assert tags[0] == tags[1] != tags[2] == tags[3] != tags[4]
        assert set(tags) <= set(wh.manifest.pending)
        for folder, _, part in got:
            staged_name(Path(folder), "frag", part).write_bytes(b"x")
        staging.close()
        assert wh.manifest.pending == [] and staging.tags == []
        assert not any(Path(folder).exists() for folder, _, _ in got)
    assert not stray_files(tmp_path / "wh")


class _Done:
    """A Dask future whose task has run (:class:`_InProcessClient`)."""

    status = "finished"

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self, timeout: float | None = None) -> Any:
        return self.value

    def release(self) -> None:
        pass


class _InProcessClient:
    """What :class:`hhparse.cluster.DaskExecutor` asks of a ``distributed.Client``, its tasks run
    here as they are submitted, each submission recorded (key, priority, arguments)."""

    def __init__(self, threads: int) -> None:
        self._threads = threads
        self.submitted: list[tuple[str, int, tuple[Any, ...]]] = []

    def nthreads(self) -> dict[str, int]:
        return {f"tcp://127.0.0.1:{9000 + i}": 1 for i in range(self._threads)}

    def submit(self, fn: Any, *args: Any, key: str, pure: bool, priority: int = 0) -> _Done:
        self.submitted.append((key, priority, args))
        return _Done(fn(*pickle.loads(pickle.dumps(args))))

    def cancel(self, futures: Any, force: bool = False) -> None:
        pass


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_batch_is_written_by_as_many_workers_as_the_cluster_has_threads(
    synth_dir: Path, tmp_path: Path, threads: int
) -> None:
    """Regression (branch dask18): one worker wrote every table of a batch, the last one after
    the last result with every other worker idle. Now each batch's tables are shared out
    between the cluster's threads (:func:`hhparse.importer.write_groups`), each group a task
    ahead of the queued ones, every table in exactly one; the warehouse is the local import's."""
    want = import_paths([synth_dir], tmp_path / "local", jobs=1, batch_hands=100)
    client = _InProcessClient(threads)
    executor = DaskExecutor(client, inputs="workers", writes="workers")
    got = import_paths([synth_dir], tmp_path / "cluster", executor=executor, task_hands=20, batch_hands=100)
    assert (got.stats.read, got.stats.new) == (want.stats.read, want.stats.new) and got.stats.batches > 1
    writes = [
        (key, priority, args) for key, priority, args in client.submitted if key.startswith("hhparse-write-")
    ]
    by_batch: dict[str, list[dict[str, Any]]] = {}
    for key, priority, (_, _, _, tag, group) in writes:
        assert priority > 0 and key.startswith(f"hhparse-write-{tag}")
        by_batch.setdefault(tag, []).append(group)
    assert len(by_batch) == got.stats.batches
    for groups in by_batch.values():
        assert len(groups) == min(threads, sum(len(g) for g in groups))
        names = [name for g in groups for name in g]
        assert len(names) == len(set(names)) and {"hands", "hand_players", "actions"} <= set(names)
    ours, theirs = read_views(tmp_path / "cluster"), read_views(tmp_path / "local")
    assert ours.keys() == theirs.keys()
    for name, table in theirs.items():
        assert ours[name].equals(table), name
    assert not stray_files(tmp_path / "cluster") and not table_folder_extras(tmp_path / "cluster")
