"""What a cluster's worker sends back, and when the client publishes (issue #18), without Dask.

A worker's result travels as one blob of compressed Arrow IPC streams
(:func:`hhparse.cluster.pack_result`): the client must get back exactly what the worker built.
And an import whose workers read the files themselves publishes the hands merged before the
tail while the workers run it (:meth:`hhparse.importer._Importer.file_tasks`), which changes the
batches but never the tables.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path

import pytest

from hhparse.cluster import pack_result, unpack_result
from hhparse.import_worker import FilesResult, TaskResult, process_blocks, process_files
from hhparse.importer import Task, _parallel, import_paths, local_executor
from hhparse.splitter import split_file

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import read_views


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


def _same_task_result(got: TaskResult, want: TaskResult) -> None:
    assert (got.sites, got.hand_ids, got.hashes, got.accepted) == (
        want.sites,
        want.hand_ids,
        want.hashes,
        want.accepted,
    )
    assert got.tables.keys() == want.tables.keys()
    for name, table in want.tables.items():
        assert got.tables[name].schema.equals(table.schema, check_metadata=True), name
        assert got.tables[name].equals(table), name


def test_a_files_result_comes_back_as_the_worker_built_it_and_smaller(synth_dir: Path) -> None:
    files = sorted(synth_dir.rglob("*.txt"))[:3]
    want = process_files([(str(p), p.stat().st_size, 0, True, "") for p in files], True)
    assert want.result.hashes  # (hands were read)
    blob = pack_result(want)
    got = unpack_result(blob)
    assert isinstance(got, FilesResult)
    _same_task_result(got.result, want.result)
    for field in ("segments", "lines", "open_tails", "live", "outcomes", "nbytes"):
        assert getattr(got, field) == getattr(want, field), field
    assert len(blob) < len(pickle.dumps(want, protocol=pickle.HIGHEST_PROTOCOL)) / 2


def test_a_task_result_of_shipped_blocks_comes_back_as_the_worker_built_it(synth_dir: Path) -> None:
    path = sorted(synth_dir.rglob("*.txt"))[0]
    blocks = list(split_file(path))
    want = process_blocks(blocks, frozenset(), True)
    got = unpack_result(pack_result(want))
    assert isinstance(got, TaskResult) and not isinstance(got, FilesResult)
    _same_task_result(got, want)


def test_an_empty_result_travels_too() -> None:
    got = unpack_result(pack_result(process_blocks([], frozenset(), True)))
    assert isinstance(got, TaskResult) and got.hashes == []


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
