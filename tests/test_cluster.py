"""Import on a Dask cluster (issue #18): the same warehouse as a local import, and the same
guarantees when a worker or the client dies.

Every scenario is compared with a local in-process import (``--jobs 1``) of a copy of the same
input: synthetic hands (all-in EV included) plus crafted files holding a reject, a duplicate, a
conflict and a live file whose last hand is still being written (pending), imported in two steps
(the second grows a file, completes the live one and adds another). The clusters are a
``LocalCluster`` of 2 worker processes started by ``--cluster local:2``, and a real
``dask scheduler`` with 2 ``dask worker`` processes on loopback. After each test no process it
started is left.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

if os.environ.get("CI"):  # CI installs the test extra, which brings Dask: never skip there
    import distributed
else:
    distributed = pytest.importorskip("distributed")

from hhparse.cluster import ClusterError, connect, parse_address
from hhparse.import_worker import TaskResult
from hhparse.importer import ImportResult, import_paths

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import make_hand, read_views, stray_files, table_folder_extras

REPO = Path(__file__).resolve().parent.parent
DASK = str(Path(sys.executable).parent / "dask")
CLI = "from hhparse.cli import main; main()"
SETTLE = 3600.0  # the live file stays "being written" for the whole test
SYNTH_HANDS = 800
STATS = ("read", "new", "duplicate", "conflicting", "rejected", "pending", "reopened", "superseded")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


# --------------------------------------------------------------------------------------------
# Input, reference and comparison
# --------------------------------------------------------------------------------------------


def _crafted(ids: range) -> str:
    return "".join(make_hand(str(i)) + "\n\n\n" for i in ids)


def _cut_hand(hand_id: str) -> str:
    """A hand cut after its first summary seat line, as the client leaves it mid-write: the file
    ends with a line end, so the hand is read, and the workers' verdict (a summary shorter than
    the seat lines) makes it pending."""
    text = make_hand(hand_id)
    return text[: text.index("Seat 4: Player1 (button)")]


def make_input(root: Path) -> Path:
    """Step one of the input (see the module docstring)."""
    from hhparse.synth import SynthConfig, write

    write(SynthConfig(hands=SYNTH_HANDS, seed=18), directory=root / "synth")
    crafted = root / "crafted"
    crafted.mkdir()
    bad = make_hand("70000999").replace("*** SUMMARY ***", "*** SUMMRY ***")
    (crafted / "a.txt").write_text(
        _crafted(range(70000001, 70000031)) + bad + "\n\n\n" + _crafted(range(70000031, 70000061))
    )
    conflict = make_hand("70000006", variant="x")
    (crafted / "b.txt").write_text(
        _crafted(range(70000005, 70000006)) + conflict + "\n\n\n" + _crafted(range(70000100, 70000121))
    )
    (crafted / "live.txt").write_text(_crafted(range(70000200, 70000211)) + _cut_hand("70000211"))
    return root


def grow_input(root: Path) -> None:
    """Step two: a grown file, the live file completed, a new file."""
    crafted = root / "crafted"
    with open(crafted / "a.txt", "a") as fh:
        fh.write(_crafted(range(70000300, 70000340)))
    (crafted / "live.txt").write_text(
        _crafted(range(70000200, 70000212)) + _crafted(range(70000212, 70000220))
    )
    (crafted / "c.txt").write_text(_crafted(range(70000400, 70000450)))


def views(wh: Path, root: Path) -> dict[str, pa.Table]:
    """The warehouse's tables with input paths made relative to ``root`` (each scenario imports
    its own copy of the input)."""
    prefix = str(root.resolve()) + "/"
    out = {}
    for name, table in read_views(wh).items():
        if "source" in table.column_names:
            i = table.column_names.index("source")
            fixed = pa.array(
                [s.removeprefix(prefix) if s else s for s in table["source"].to_pylist()], pa.string()
            )
            table = table.set_column(i, table.schema.field(i), fixed)
        out[name] = table
    return out


def progress(wh: Path, root: Path) -> dict[str, Any]:
    """The manifest's per-file records, less what differs between runs (ids and times)."""
    files = json.loads((wh / "manifest.json").read_text())["files"]
    prefix = str(root.resolve()) + "/"
    drop = {"import_id", "started_at", "mtime_ns"}
    return {
        k.removeprefix(prefix): {f: v for f, v in rec.items() if f not in drop} for k, rec in files.items()
    }


def stats(result: ImportResult) -> dict[str, int]:
    return {k: getattr(result.stats, k) for k in STATS}


@dataclass
class Outcome:
    """What a scenario leaves after each step."""

    views: list[dict[str, pa.Table]]
    progress: list[dict[str, Any]]
    stats: list[dict[str, int]]


def scenario(template: Path, work: Path, run: Callable[[Path, Path], dict[str, int] | None]) -> Outcome:
    """Both steps of the input, imported by ``run(input, warehouse)`` into one warehouse."""
    src, wh = work / "in", work / "wh"
    shutil.copytree(template, src)
    out = Outcome([], [], [])
    for step in (1, 2):
        if step == 2:
            grow_input(src)
        out.stats.append(run(src, wh) or {})
        out.views.append(views(wh, src))
        out.progress.append(progress(wh, src))
        assert not stray_files(wh) and not table_folder_extras(wh)
    return out


def assert_same(got: Outcome, want: Outcome) -> None:
    for step in range(2):
        for name, table in want.views[step].items():
            assert got.views[step][name].equals(table), f"step {step + 1}: table {name} differs"
        assert got.progress[step] == want.progress[step], f"step {step + 1}: file records differ"
        if got.stats[step]:
            assert got.stats[step] == want.stats[step], f"step {step + 1}: counts differ"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_input(tmp_path_factory.mktemp("input"))


@pytest.fixture(scope="module")
def reference(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The local import (in-process) of both steps."""

    def run(src: Path, wh: Path) -> dict[str, int]:
        return stats(import_paths([src], wh, jobs=1, task_hands=40, batch_hands=300, settle_seconds=SETTLE))

    out = scenario(template, tmp_path_factory.mktemp("reference"), run)
    # the input does what the module docstring says
    assert (
        out.stats[0]["rejected"] == 1 and out.stats[0]["conflicting"] == 1 and out.stats[0]["duplicate"] == 1
    )
    assert out.stats[0]["pending"] == 1 and out.stats[1]["pending"] == 0
    assert out.views[1]["ev_shares"].num_rows > 0
    return out


# --------------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------------


def children(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if stat.rsplit(")", 1)[1].split()[0] != "Z":
                    parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - out
        out |= frontier
    return out


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                out.add(pid)
    return out


def wait_gone(pids: set[int], timeout: float = 15.0) -> set[int]:
    deadline = time.monotonic() + timeout
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """End a process started in its own session, and everything in its group."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(wait)
            if not _group_alive(proc.pid):
                return
    # (a process killed while the machine is busy can take a moment to be gone)
    deadline = time.monotonic() + 10
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(proc.pid), f"process group {proc.pid} outlived SIGKILL"


def _group_alive(pgid: int) -> bool:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if fields[0] != "Z" and int(fields[3]) == pgid:
                    return True
    return False


@dataclass
class DaskCluster:
    address: str
    folder: Path
    procs: list[subprocess.Popen[bytes]]

    def add_worker(self, name: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - the process keeps it
        proc = subprocess.Popen(
            [
                DASK,
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--nworkers",
                "1",
                "--no-dashboard",
                "--name",
                name,
                "--local-directory",
                str(self.folder / name),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        self.procs.append(proc)
        return proc

    @contextlib.contextmanager
    def client(self) -> Iterator[Any]:
        c = distributed.Client(self.address, timeout=30)
        try:
            yield c
        finally:
            c.close()

    def workers(self) -> dict[str, str]:
        """Worker address → name."""
        with self.client() as c:
            return {addr: str(w["name"]) for addr, w in c.scheduler_info(n_workers=-1)["workers"].items()}


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskCluster]:
    """``dask scheduler`` and two ``dask worker`` processes on loopback, each in its own process
    group (ended whole at the end, nanny and worker)."""
    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    log = open(folder / "scheduler.log", "wb")  # noqa: SIM115
    sched = subprocess.Popen(
        [
            DASK,
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(info),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    cluster = DaskCluster("", folder, [sched])
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            assert sched.poll() is None, (folder / "scheduler.log").read_text()
            time.sleep(0.1)
        time.sleep(0.2)  # (written in one go, but let it be complete)
        cluster.address = json.loads(info.read_text())["address"]
        cluster.add_worker("w1")
        cluster.add_worker("w2")
        with cluster.client() as c:
            c.wait_for_workers(2, timeout=60)
        yield cluster
    finally:
        for proc in reversed(cluster.procs):
            _stop_group(proc)
        log.close()


@pytest.fixture(scope="module")
def tcp(dask_cluster: DaskCluster) -> Iterator[Any]:
    """An executor on the real cluster, for the re-runs (in this process: no CLI start-up)."""
    with connect(dask_cluster.address) as executor:
        yield executor


def rerun(src: Path, wh: Path, executor: Any) -> ImportResult:
    return import_paths([src], wh, task_hands=40, batch_hands=300, settle_seconds=SETTLE, executor=executor)


def start_cli(src: Path, wh: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            CLI,
            "import",
            str(src),
            "-w",
            str(wh),
            "--task-hands",
            "40",
            "--batch-hands",
            "300",
            *args,
        ],
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "HHPARSE_NO_PROGRESS": "1",
            "HHPARSE_SETTLE_SECONDS": str(SETTLE),
            **(env or {}),
        },
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )


def run_cli(
    src: Path, wh: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    proc = start_cli(src, wh, *args, env=env)
    out, err = proc.communicate(timeout=240)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def batches(wh: Path) -> int:
    try:
        return int(json.loads((wh / "manifest.json").read_text())["next_batch"])
    except (OSError, ValueError, KeyError):
        return 0


# --------------------------------------------------------------------------------------------
# Same warehouse
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("inputs", "writes"), [("workers", "auto"), ("client", "workers"), ("workers", "client")]
)
def test_local_cluster_of_two_processes_gives_the_local_import(
    inputs: str, writes: str, template: Path, reference: Outcome, tmp_path: Path
) -> None:
    """``connect("local:2")`` (a LocalCluster of 2 worker processes) as the import's executor,
    its workers reading the input files themselves (issue #18) or the client shipping their
    text, and the workers writing the tables into the warehouse or sending them to the client:
    every table, every file record and every count equal a local import's, in both steps (no
    staged file left); the worker processes end with the cluster."""
    with connect("local:2", inputs=inputs, writes=writes) as executor:
        assert executor.threads() == 2
        spawned = set(executor.client.run(os.getpid).values())
        # (forked by this process's forkserver, which lives as long as pytest, as the resource
        # tracker does)
        assert len(spawned) == 2 and spawned <= children(os.getpid())

        def run(src: Path, wh: Path) -> dict[str, int]:
            return stats(
                import_paths(
                    [src], wh, task_hands=40, batch_hands=300, settle_seconds=SETTLE, executor=executor
                )
            )

        outcome = scenario(template, tmp_path, run)
    assert not wait_gone(spawned), "LocalCluster workers outlived the cluster"
    assert_same(outcome, reference)


def test_dask_scheduler_and_workers_give_the_local_import(
    template: Path, reference: Outcome, dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    """``hhparse import --cluster tcp://...`` against a real scheduler and two workers (the second
    step through ``$HHPARSE_DASK_SCHEDULER``): the same warehouse as a local import, and the same
    exit codes (1: a reject and a conflict; then 0)."""

    def run(src: Path, wh: Path) -> None:
        first = not wh.exists()
        args = ["--cluster", dask_cluster.address] if first else []
        env = {} if first else {"HHPARSE_DASK_SCHEDULER": dask_cluster.address}
        done = run_cli(src, wh, *args, env=env)
        assert done.returncode == (1 if first else 0), done.stderr.decode()
        assert f"Dask cluster {dask_cluster.address}, 2 worker thread(s)" in done.stderr.decode()

    assert_same(scenario(template, tmp_path, run), reference)


# --------------------------------------------------------------------------------------------
# Same guarantees
# --------------------------------------------------------------------------------------------


def _one_step(reference: Outcome) -> Outcome:
    return Outcome(reference.views[:1], reference.progress[:1], reference.stats[:1])


def test_killing_a_worker_mid_import_ends_in_the_same_warehouse(
    template: Path, reference: Outcome, dask_cluster: DaskCluster, tcp: Any, tmp_path: Path
) -> None:
    """A third worker joins; it is frozen (SIGSTOP) while it holds a task of the import — so
    the import cannot finish without that task — then killed with its nanny (SIGKILL of its
    process group, as a machine that dies). The scheduler runs its tasks on the other workers:
    the import ends (run again if it reported the loss) with the same warehouse."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    shutil.copytree(template, src)
    victim = dask_cluster.add_worker("victim")
    with dask_cluster.client() as c:
        c.wait_for_workers(3, timeout=60)
        addr = next(a for a, n in dask_cluster.workers().items() if n == "victim")
        proc = start_cli(src, wh, "--cluster", dask_cluster.address, "--task-hands", "10")
        try:
            deadline = time.monotonic() + 120
            while True:  # freeze it while the scheduler says it holds a task of the import
                assert proc.poll() is None, "the import ended before the victim was frozen with a task"
                assert time.monotonic() < deadline
                if c.processing(workers=[addr]).get(addr):
                    os.killpg(victim.pid, signal.SIGSTOP)
                    time.sleep(0.2)
                    if c.processing(workers=[addr]).get(addr):  # (a frozen worker reports nothing)
                        break
                    os.killpg(victim.pid, signal.SIGCONT)
                time.sleep(0.01)
            time.sleep(1.0)
            assert proc.poll() is None, "the import finished without the frozen worker's task"
            os.killpg(victim.pid, signal.SIGKILL)
            _, err = proc.communicate(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
            _stop_group(victim)
    if proc.returncode == 2:  # the loss was reported: everything before is kept, run it again
        assert b"run the same command again" in err, err.decode()
        rerun(src, wh, tcp)
    else:
        assert proc.returncode == 1, err.decode()
    got = Outcome([views(wh, src)], [progress(wh, src)], [])
    assert_same_step_one(got, reference)
    assert not stray_files(wh) and not table_folder_extras(wh)


def assert_same_step_one(got: Outcome, reference: Outcome) -> None:
    want = _one_step(reference)
    for name, table in want.views[0].items():
        assert got.views[0][name].equals(table), f"table {name} differs"
    # what each file's record says is imported (its counters are those of the run that finished
    # it, as after an interrupted local import)
    where = ("size", "hash", "blocks", "complete", "pending", "open_tail", "superseded")
    for path, rec in want.progress[0].items():
        assert {k: got.progress[0][path].get(k) for k in where} == {k: rec.get(k) for k in where}, path
    assert got.progress[0].keys() == want.progress[0].keys()


@pytest.mark.parametrize("cluster", ["tcp", "local:2"])
def test_killing_the_client_mid_import_then_rerunning_gives_the_clean_result(
    cluster: str, template: Path, reference: Outcome, dask_cluster: DaskCluster, tcp: Any, tmp_path: Path
) -> None:
    """kill -9 of ``hhparse import --cluster`` once it has published a batch: the warehouse is
    readable at once with no file an outside reader could count, a local cluster's workers die
    with the client, and running the same command again ends in a clean import's warehouse."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    shutil.copytree(template, src)
    spec = dask_cluster.address if cluster == "tcp" else cluster
    proc = start_cli(src, wh, "--cluster", spec, "--batch-hands", "100")
    try:
        deadline = time.monotonic() + 120
        while batches(wh) < 2:
            assert proc.poll() is None, proc.communicate()[1].decode()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        below = children(proc.pid)
        proc.kill()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not wait_gone(below), "processes of the killed import outlived it"
    assert not table_folder_extras(wh)
    assert 0 < read_views(wh)["hands"].num_rows < reference.views[0]["hands"].num_rows
    rerun(src, wh, tcp)
    assert_same_step_one(Outcome([views(wh, src)], [progress(wh, src)], []), reference)
    assert not stray_files(wh) and not table_folder_extras(wh)


# --------------------------------------------------------------------------------------------
# Usage
# --------------------------------------------------------------------------------------------


def test_cluster_addresses() -> None:
    assert parse_address("tcp://10.0.0.5:8786") == ("tcp://10.0.0.5:8786", None)
    assert parse_address("scheduler.lan:8786") == ("scheduler.lan:8786", None)
    assert parse_address("local:3") == (None, 3)
    assert parse_address("local") == (None, os.cpu_count() or 1)
    for bad in ("local:0", "local:x", "tcp://a b", "http://x/y", ""):
        with pytest.raises(ClusterError):
            parse_address(bad)


def test_cluster_usage_errors_are_one_sentence(
    tmp_path: Path, template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--jobs with --cluster, an address nobody answers: exit 2, one sentence, nothing written."""
    import typer
    from typer.testing import CliRunner

    from hhparse.cli import import_cmd

    app = typer.Typer()
    import_cmd.register(app)
    app.command("x")(lambda: None)  # (a group: `import` stays a subcommand)
    src = str(template / "crafted")
    both = CliRunner().invoke(
        app, ["import", src, "-w", str(tmp_path / "wh1"), "--cluster", "local:2", "--jobs", "2"]
    )
    assert both.exit_code == 2 and "give one of them" in both.output and "Traceback" not in both.output
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "1s")
    import dask.config

    dask.config.refresh()
    try:
        nobody = CliRunner().invoke(
            app, ["import", src, "-w", str(tmp_path / "wh2"), "--cluster", "tcp://127.0.0.1:9"]
        )
    finally:
        monkeypatch.undo()
        dask.config.refresh()
    assert nobody.exit_code == 2, nobody.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in nobody.output
    assert not (tmp_path / "wh1").exists() and not (tmp_path / "wh2").exists()


def test_without_dask_the_cluster_option_says_how_to_install_it(tmp_path: Path) -> None:
    """Dask is an optional extra: without it ``--cluster`` is a usage error naming the extra,
    and a local import needs none of it."""
    hide = "import sys; sys.modules['distributed'] = None; " + CLI
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "two.txt").write_text(_crafted(range(70000001, 70000003)))
    base = [sys.executable, "-c", hide, "import", str(tmp_path / "in"), "-w"]
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HHPARSE_NO_PROGRESS": "1",
        "HHPARSE_SETTLE_SECONDS": str(SETTLE),
    }
    env.pop("HHPARSE_DASK_SCHEDULER", None)
    no = subprocess.run(
        [*base, str(tmp_path / "a"), "--cluster", "local:2"], env=env, capture_output=True, timeout=120
    )
    assert no.returncode == 2 and b"pip install 'hhparse[cluster]'" in no.stderr, no.stderr.decode()
    local = subprocess.run([*base, str(tmp_path / "b"), "-j", "1"], env=env, capture_output=True, timeout=120)
    assert local.returncode == 0, local.stderr.decode()


def test_a_worker_with_another_hhparse_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every task carries the client's fingerprint: a worker whose hhparse differs refuses it."""
    from hhparse import cluster

    with pytest.raises(cluster.WorkerMismatchError):
        cluster.run_task("0.0.0+other", cluster.ship_blocks([]), frozenset(), True)
    got = cluster.unpack_result(
        cluster.run_task(cluster.fingerprint(), cluster.ship_blocks([]), frozenset(), True)
    )
    assert isinstance(got, TaskResult) and got.hashes == []


# (a lambda: the workers cannot import this test module, Dask's cloudpickle ships it by value)
_malloc_state: Callable[[], tuple[str | None, list[bool]]] = lambda: (  # noqa: E731
    os.environ.get("MALLOC_TRIM_THRESHOLD_"),
    list(__import__("hhparse.cluster", fromlist=["UNTRIMMED"]).UNTRIMMED),
)


def test_local_cluster_workers_keep_glibcs_own_heap_thresholds(local2: Any) -> None:
    """Regression: Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which made
    the heap shrink and grow again all the time (a cluster worker spent twice the CPU a hand of
    a local pool's worker, a third of it in the kernel). ``local:N`` starts them without it, and
    does not leave it in the client's environment either (the nanny sets it there first)."""
    states = local2.client.run(_malloc_state)
    assert len(states) == 2
    assert all(env is None for env, _ in states.values()), states
    assert os.environ.get("MALLOC_TRIM_THRESHOLD_") is None


# (a lambda, as above: how a worker process was started)
_start_state: Callable[[], tuple[int, bool, bool, str | None]] = lambda: (  # noqa: E731
    os.getppid(),
    "pandas" in sys.modules,
    "hhparse.parsing" in sys.modules,
    os.environ.get("OMP_NUM_THREADS"),
)


def test_local_cluster_workers_are_forked_warm_without_pandas(local2: Any) -> None:
    """A ``local:N`` worker is forked from this process's forkserver (``LOCAL_PRELOAD``: a
    spawned worker imported Dask, pyarrow, the parser and the referee itself, each worker at
    once on the same cores), with the environment Dask gives a worker it spawns (one thread for
    BLAS and pyarrow), and keeps pandas out (it runs this import's tasks only)."""
    from hhparse.cluster import _spawn_environ

    states = local2.client.run(_start_state)
    assert len(states) == 2
    for parent, pandas, parser, threads in states.values():
        assert parent != os.getpid() and not pandas and parser and threads == "1", states
    env = _spawn_environ()  # (Dask imported in this process: its defaults and LOCAL_CONFIG)
    assert env.get("OMP_NUM_THREADS") == os.environ.get("OMP_NUM_THREADS", "1")
    assert "MALLOC_TRIM_THRESHOLD_" not in env or "MALLOC_TRIM_THRESHOLD_" in os.environ


def test_the_forkserver_gets_the_clients_path_not_the_current_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Regression: Python 3.11's forkserver ignores the path it is handed and puts the current
    folder first, so run from a folder holding another ``hhparse`` its ``local:N`` workers loaded
    that one (the nanny could not start them). It is started with this process's path instead,
    relative entries made absolute, and without the current folder."""
    from hhparse.cluster import _forkserver_path

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", "/opt/x", "rel", "/opt/x"])
    env = _forkserver_path()
    assert env["PYTHONSAFEPATH"] == "1"
    assert env["PYTHONPATH"].split(os.pathsep) == [str(tmp_path), "/opt/x", str(tmp_path / "rel")]


def test_workers_started_by_dask_worker_get_heap_thresholds_back(tcp: Any) -> None:
    """Regression (as above): a ``dask worker`` started by hand has the variable (glibc read it
    at start); the warm-up gives it thresholds fit for an import (``mallopt``)."""
    states = tcp.client.run(_malloc_state)
    assert states and all(env == "65536" and untrimmed == [True] for env, untrimmed in states.values()), (
        states
    )


# (a lambda, as above: what a worker process was configured with)
_poll_config: Callable[[], tuple[object, object, object]] = lambda: (  # noqa: E731
    __import__("dask").config.get("distributed.worker.profile.enabled"),
    __import__("dask").config.get("distributed.worker.memory.monitor-interval"),
    __import__("dask").config.get("distributed.admin.system-monitor.interval"),
)


def test_a_local_cluster_polls_less_and_a_real_scheduler_keeps_its_config(local2: Any, tcp: Any) -> None:
    """Regression: a ``LocalCluster``'s scheduler and nannies share the client's event loop, and
    their ``psutil`` polls and latency ticks cost it as much CPU as the import's messages (and
    the workers' profiler and polls cost them CPU a hand). ``local:N`` polls less
    (:data:`hhparse.cluster.LOCAL_CONFIG`), in this process and in the workers; a worker of a real
    scheduler, and this process's own config afterwards, keep Dask's settings."""
    from dask.utils import parse_timedelta

    from hhparse.cluster import LOCAL_CONFIG

    def ms(key: str) -> float:
        return 1000 * float(parse_timedelta(LOCAL_CONFIG[key]))

    cluster = local2.client.cluster
    monitor = ms("distributed.admin.system-monitor.interval")
    tick = ms("distributed.admin.tick.interval")
    memory = ms("distributed.worker.memory.monitor-interval")
    servers = [cluster.scheduler, *cluster.workers.values()]
    assert len(servers) == 3
    for server in servers:
        assert server.periodic_callbacks["monitor"].callback_time == monitor, server
        assert server.periodic_callbacks["tick"].callback_time == tick, server
    for nanny in cluster.workers.values():
        assert nanny.periodic_callbacks["memory_monitor"].callback_time == memory
    expected = (
        False,
        LOCAL_CONFIG["distributed.worker.memory.monitor-interval"],
        LOCAL_CONFIG["distributed.admin.system-monitor.interval"],
    )
    assert set(local2.client.run(_poll_config).values()) == {expected}
    mine = _poll_config()  # (Dask's defaults, unless this environment sets others)
    assert mine != expected
    assert set(tcp.client.run(_poll_config).values()) == {mine}


def test_a_local_clusters_tables_stay_uncompressed_and_a_real_ones_are_compressed(
    local2: Any, tcp: Any, tmp_path: Path
) -> None:
    """A ``local:N`` cluster's fragments and results never leave this machine: its workers
    compress nothing, as the local pool's (:data:`hhparse.cluster.LOCAL_COMPRESSION`); a real
    cluster's cross the network and are compressed (:data:`hhparse.cluster.RESULT_COMPRESSION`).
    Either way the import's fragments are gone at the end and its tables are a local import's."""
    from hhparse.cluster import LOCAL_COMPRESSION, RESULT_COMPRESSION

    assert (local2.compression, tcp.compression) == (LOCAL_COMPRESSION, RESULT_COMPRESSION)
    assert LOCAL_COMPRESSION is None and RESULT_COMPRESSION is not None
    from hhparse.synth import SynthConfig, write

    write(SynthConfig(hands=60, seed=11), directory=tmp_path / "in")
    want = import_paths([tmp_path / "in"], tmp_path / "local", jobs=1)
    for name, executor in (("l2", local2), ("tcp", tcp)):
        got = import_paths([tmp_path / "in"], tmp_path / name, executor=executor, task_hands=10)
        assert got.stats.new == want.stats.new > 0
        ours, theirs = read_views(tmp_path / name), read_views(tmp_path / "local")
        assert ours.keys() == theirs.keys()
        for table, rows in theirs.items():
            assert ours[table].equals(rows), (name, table)
        assert not stray_files(tmp_path / name)


# --------------------------------------------------------------------------------------------
# Who reads the inputs (issue #18)
# --------------------------------------------------------------------------------------------


def _hand_rows(wh: Path, prefix: str) -> list[tuple[Any, ...]]:
    hands = read_views(wh)["hands"]
    return sorted(
        (r["hand_id"], r["content_hash"], r["source"].removeprefix(prefix)) for r in hands.to_pylist()
    )


@pytest.fixture(scope="module")
def local2() -> Iterator[Any]:
    with connect("local:2", inputs="workers") as executor:
        yield executor


def test_workers_read_a_file_url_and_a_memory_url_reads_in_process(local2: Any, tmp_path: Path) -> None:
    """An fsspec ``file://`` URL imported through the cluster (its workers open it) and a
    ``memory://`` URL imported in process give the hands of a local import of the same text."""
    import fsspec

    src = tmp_path / "in"
    src.mkdir()
    text = _crafted(range(70000501, 70000541))
    (src / "u.txt").write_text(text)
    import_paths([src], tmp_path / "local", jobs=1, settle_seconds=SETTLE)
    local_prefix = str(src.resolve()) + "/"
    want = _hand_rows(tmp_path / "local", local_prefix)
    url = "file://" + str(src)
    probe = type(local2)(local2.client, inputs="auto")  # every worker opens it: they read the inputs
    assert probe.reads_inputs([(url + "/u.txt", len(text))]) and not probe.notes
    got = import_paths([url], tmp_path / "wh", task_hands=10, settle_seconds=SETTLE, executor=local2)
    assert (got.stats.new, got.exit_code, [f.path for f in got.files]) == (40, 0, [url + "/u.txt"])
    assert _hand_rows(tmp_path / "wh", "file://" + local_prefix) == want
    fsspec.filesystem("memory").pipe("/hh18/in/u.txt", text.encode())
    mem = import_paths(["memory://hh18/in"], tmp_path / "mem", jobs=1, settle_seconds=SETTLE)
    assert (mem.stats.new, mem.exit_code) == (40, 0)
    assert _hand_rows(tmp_path / "mem", "memory:///hh18/in/") == want
    again = import_paths(["memory://hh18/in"], tmp_path / "mem", jobs=1, settle_seconds=SETTLE)
    assert (again.stats.files_skipped, again.stats.read) == (1, 0)  # incremental: not read again


def test_an_input_the_workers_cannot_read_is_an_error_naming_it_and_nothing_else_is_lost(
    local2: Any, tmp_path: Path
) -> None:
    """A ``memory://`` file exists in the client's process only: a worker told to read it says
    which file it cannot read (exit 2, its record left incomplete), every other file is imported
    as a local import would, and the next import (here in process) imports the file. With
    ``inputs="auto"`` the cluster sees that its workers cannot read it and the client ships it."""
    import fsspec

    src = tmp_path / "in"
    src.mkdir()
    (src / "ok.txt").write_text(_crafted(range(70000601, 70000621)))
    fsspec.filesystem("memory").pipe("/hh18/only-here.txt", _crafted(range(70000701, 70000711)).encode())
    url = "memory:///hh18/only-here.txt"
    r = import_paths([src, url], tmp_path / "wh", task_hands=10, settle_seconds=SETTLE, executor=local2)
    (failed,) = r.failed_files
    assert (failed.path, failed.status, r.exit_code, r.stats.new) == (url, "error", 2, 20)
    assert failed.error is not None and f"cannot read {url}" in failed.error, failed.error
    assert len(read_views(tmp_path / "wh")["hands"]) == 20
    again = import_paths([src, url], tmp_path / "wh", jobs=1, settle_seconds=SETTLE)
    assert (again.stats.new, again.stats.files_skipped, again.exit_code) == (10, 1, 0)
    assert len(read_views(tmp_path / "wh")["hands"]) == 30

    auto = type(local2)(local2.client, inputs="auto")
    shipped = import_paths([src, url], tmp_path / "wh2", task_hands=10, settle_seconds=SETTLE, executor=auto)
    assert (shipped.stats.new, shipped.exit_code) == (30, 0)
    assert any("cannot read the inputs" in n and url in n for n in shipped.notes), shipped.notes
