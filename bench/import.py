"""End-to-end import throughput, scaling and peak memory on a realistic mix (issues #5 and #14).

Why a mix: hands the project generated itself flatter the import (few players, short names, the
same lines again and again for the parser's memos). By default the input is therefore half
**real corpus hands** (every valid hand of ``../shared/corpus/pokerstars``, damaged, converted,
hand-written and duplicated copies left out) repeated with fresh hand ids and **fresh player names**
(each repetition renames every player, so no line repeats from one copy to the next), and half
**synthetic hands at 2–9 seats** (the generator's limit: 9 Courchevel hands use 50 cards) of every
game, structure and kind, with the generator's varied names. ``--input synth`` or ``--input corpus``
measures one half alone; several values run each (``--input mix synth`` reports both).

Targets (issue #14, on the mix): >= 5,000 hands/s per core end to end, >= 1.8x with ``--jobs 2``
on 20,000 hands (start-up included), peak RSS < 1 GB (``--hands 1000000`` for that one). Each
``--jobs`` value runs in its own subprocess (fresh warehouse); ``--repeat`` runs are interleaved in
rounds and their median reported. Memory is sampled from ``/proc`` every 50 ms over that
subprocess and all its descendants (the pool's workers are children of the forkserver, so
``RUSAGE_CHILDREN`` never sees them): the peak of the summed RSS (what the machine must hold at
once), plus each process's own high-water mark (``VmHWM``) for the main process and the largest
worker.

With ``--ev both`` every round imports the input with the all-in EV stage and without it
(``import_paths(ev=False)``), and the median speeds and their ratio are printed (issue #15: with
EV at >= 80 % of the speed without).

With ``--executor cluster`` (or ``both``) each ``--jobs N`` also runs as ``--cluster local:N``: a
Dask ``LocalCluster`` of N single-threaded worker processes (issue #18, target >= 1.7x from 1 to 2
workers). The cluster is started before the clock starts (its start-up is printed apart, and a
second speed-up counts it and the shut-down too: the user waits for them); the
client's CPU time (merging, writing Parquet, and the LocalCluster's scheduler, which runs in the
client process) and the workers' CPU time are measured separately, so the per-hand costs of each
side can be projected to a larger cluster.

Usage: python bench/import.py [--hands 20000] [--jobs 1 2] [--repeat 3] [--input mix synth]
       [--keep DIR] [--ev on|off|both] [--executor pool|cluster|both]
       [--cluster-reads workers client auto] [--cluster-at local tcp]

``--cluster-reads`` (issue #18): the cluster's workers read the input files themselves
(``workers``), or the client cuts them and ships the text (``client``); several values run each
in every round.

``--cluster-at tcp`` (issue #18's second case): instead of a ``LocalCluster``, a ``dask scheduler``
and N ``dask worker --nthreads 1`` processes on loopback, started before the clock as a real
cluster is before an import; the client connects to it (``--cluster tcp://...``). Its scheduler
is a process of its own: its CPU is printed apart, not in the client's. ``--cluster-at local
tcp`` runs both in every round.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "pokerstars"
_ID = re.compile(r"^(\S.*? (?:Hand|Game) #)\d+:", re.M)

CHILD = """
import json, resource, sys, time
import hhparse.lazy as lazy
# the process set up as the hhparse program's local import sets up its own (CHILD's docstring)
getattr(lazy, "one_blas_thread", lambda: None)()
lazy.refuse_pandas()
from hhparse.importer import import_paths
t = time.perf_counter()
c = time.process_time()
r = import_paths([sys.argv[1]], sys.argv[2], jobs=int(sys.argv[3]), ev=sys.argv[4] == "on")
dt = time.perf_counter() - t
print(json.dumps({
    "seconds": dt, "cpu_seconds": time.process_time() - c, "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected,
    "batches": r.stats.batches, "trace": r.stats.trace.summary(),
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""
"""One import through :func:`hhparse.importer.import_paths`, timed from the call to its return.
The process is set up first as the ``hhparse`` program sets up its own for a local import
(:func:`hhparse.cli.main`, the import command): OpenBLAS starts no threads
(:func:`hhparse.lazy.one_blas_thread`, in a build that has it) and pandas stays out
(:func:`hhparse.lazy.refuse_pandas`), so the figures are the user's command's, not those of a
caller's own program that has pandas loaded or pays its import (``--cli`` runs the program
itself, start-up and exit included)."""

CHILD_CLI = """
import json, os, resource, sys, time
t0, c0 = time.monotonic(), time.process_time()
import hhparse.cli as cli
marks = {"t0": t0, "cpu_t0": c0, "cli_imported": time.monotonic(), "cpu_cli_imported": time.process_time()}
ev = sys.argv[4] == "on"  # (read now: the command's own argv replaces it below)
marks["batch_derived"] = marks["cpu_batch_derived"] = 0.0
def timed_import(import_paths):
    def timed(*args, **kwargs):
        marks["import"], marks["cpu_import"] = time.monotonic(), time.process_time()
        kwargs["ev"] = ev  # (the command always takes the EV: the bench can turn it off)
        r = import_paths(*args, **kwargs)
        marks["imported"], marks["cpu_imported"] = time.monotonic(), time.process_time()
        marks["result"] = r
        return r
    return timed
def timed_refresh(refresh):
    def timed(*args, **kwargs):
        marks["buckets"], marks["cpu_buckets"] = time.monotonic(), time.process_time()
        try:
            return refresh(*args, **kwargs)
        finally:
            marks["bucketed"], marks["cpu_bucketed"] = time.monotonic(), time.process_time()
    return timed
def timed_batch(batch_build):  # (the derived files of the batches this process writes, --jobs 1)
    def timed(*args, **kwargs):
        t, c = time.monotonic(), time.process_time()
        try:
            return batch_build(*args, **kwargs)
        finally:
            marks["batch_derived"] += time.monotonic() - t
            marks["cpu_batch_derived"] += time.process_time() - c
    return timed
# The hooks go in as the command imports their modules, not before: the program imports the
# importer (pyarrow, numpy) only once it has set its process up (no OpenBLAS threads, no pandas),
# and the derived tables' module only after the import (a child that imported them first timed
# their import as start-up, with OpenBLAS's threads spinning). The derived tables refreshed after
# the commit: import_cmd._build_derived, or in an older build derived.refresh / buckets.refresh.
HOOKS = {
    "hhparse.importer": [("import_paths", timed_import), ("_derive", timed_batch)],
    "hhparse.cli.import_cmd": [("_build_derived", timed_refresh)],
}
def hook(module):
    for attr, wrap in HOOKS.get(module.__name__, ()):
        if hasattr(module, attr):
            setattr(module, attr, wrap(getattr(module, attr)))
class Hook:
    def find_spec(self, name, path=None, target=None):
        if name not in HOOKS:
            return None
        sys.meta_path.remove(self)
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        load = spec.loader.exec_module
        def exec_module(module):
            load(module)
            hook(module)
        spec.loader.exec_module = exec_module
        return spec
if not hasattr(sys.modules.get("hhparse.cli.import_cmd"), "_build_derived"):  # (an older build)
    HOOKS["hhparse.reports.derived"] = HOOKS["hhparse.reports.buckets"] = [("refresh", timed_refresh)]
for loaded in [m for m in list(sys.modules) if m in HOOKS]:  # (imported with hhparse.cli already)
    hook(sys.modules[loaded])
sys.meta_path.insert(0, Hook())
sys.argv = ["hhparse", "import", sys.argv[1], "--warehouse", sys.argv[2], "--jobs", sys.argv[3]]
code = 0
def figures():
    marks["end"], marks["cpu_end"] = time.monotonic(), time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    marks["cpu_children_end"] = kids.ru_utime + kids.ru_stime
    r = marks.pop("result", None)
    out = {k: v for k, v in marks.items()}
    if r is not None:
        out |= {"read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected, "batches": r.stats.batches,
                "trace": r.stats.trace.summary(), "trace_started": r.stats.trace.started}
    out["main_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["ev"] = ev
    with open(os.environ["HHPARSE_BENCH_OUT"], "w") as fh:
        json.dump(out, fh)
# (a program that ends its process at once, os._exit, writes the figures first; else after main)
_exit, main_pid = os._exit, os.getpid()
def exit_at_once(status):
    if os.getpid() == main_pid:  # (a forked worker ends through os._exit too)
        figures()
    _exit(status)
os._exit = exit_at_once
try:
    cli.main()
except SystemExit as exc:
    code = exc.code
finally:
    figures()
sys.exit(code)
"""
"""The ``hhparse import`` program as a user runs it (``--cli``): the interpreter's and the
command's start-up, the import, the derived tables built in this process (``derived``: with its
batches or after its commit; a pool's worker's builds are the workers' CPU), and the exit, each
timed (wall from the ``CLOCK_MONOTONIC`` clock the parent shares, CPU of the process). Its stdout
is the command's, so the figures go to the file ``$HHPARSE_BENCH_OUT`` names."""


CHILD_CLUSTER = """
import json, resource, sys, time
import psutil
from hhparse.importer import import_paths
from hhparse.cluster import connect
t0 = t = time.perf_counter()
with connect("local:" + sys.argv[3], inputs=sys.argv[5]) as ex:
    startup = time.perf_counter() - t
    workers = psutil.Process().children(recursive=True)
    def workers_cpu():
        return sum(sum(p.cpu_times()[:2]) for p in workers)
    w = workers_cpu()
    t = time.perf_counter()
    c = time.process_time()
    r = import_paths([sys.argv[1]], sys.argv[2], executor=ex, ev=sys.argv[4] == "on")
    dt = time.perf_counter() - t
    cpu = time.process_time() - c
    wcpu = workers_cpu() - w
total = time.perf_counter() - t0
print(json.dumps({
    "seconds": dt, "cpu_seconds": cpu, "worker_cpu_seconds": wcpu, "startup_seconds": startup,
    "total_seconds": total,
    "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected, "batches": r.stats.batches,
    "trace": r.stats.trace.summary(),
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


CHILD_TCP = """
import json, os, resource, signal, subprocess, sys, tempfile, time
from pathlib import Path
import psutil
from hhparse.importer import import_paths
from hhparse.cluster import connect
dask = str(Path(sys.executable).parent / "dask")
n = int(sys.argv[3])
folder = Path(tempfile.mkdtemp(prefix="hhparse-bench-dask-"))
procs = []
def start(*args):
    procs.append(subprocess.Popen([dask, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  stdin=subprocess.DEVNULL, start_new_session=True))
    return procs[-1]
def cpu(p):
    try:
        return sum(sum(q.cpu_times()[:2]) for q in [p, *p.children(recursive=True)])
    except psutil.NoSuchProcess:
        return 0.0
try:
    info = folder / "scheduler.json"
    sched = psutil.Process(start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                 "--scheduler-file", str(info)).pid)
    deadline = time.monotonic() + 120
    while not info.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    address = json.loads(info.read_text())["address"]
    workers = [psutil.Process(start("worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                    "--name", f"w{i}", "--local-directory", str(folder / f"w{i}")).pid)
               for i in range(n)]
    import distributed
    with distributed.Client(address, timeout=120) as c:
        c.wait_for_workers(n, timeout=120)
    t0 = t = time.perf_counter()
    with connect(address, inputs=sys.argv[5]) as ex:
        startup = time.perf_counter() - t
        w, s = sum(cpu(p) for p in workers), cpu(sched)
        t = time.perf_counter()
        c = time.process_time()
        r = import_paths([sys.argv[1]], sys.argv[2], executor=ex, ev=sys.argv[4] == "on")
        dt = time.perf_counter() - t
        cpu_s = time.process_time() - c
        wcpu, scpu = sum(cpu(p) for p in workers) - w, cpu(sched) - s
    total = time.perf_counter() - t0
finally:
    for p in reversed(procs):
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    import shutil
    shutil.rmtree(folder, ignore_errors=True)
print(json.dumps({
    "seconds": dt, "cpu_seconds": cpu_s, "worker_cpu_seconds": wcpu, "scheduler_cpu_seconds": scpu,
    "startup_seconds": startup, "total_seconds": total,
    "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected, "batches": r.stats.batches,
    "trace": r.stats.trace.summary(),
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def calibration_seconds() -> float:
    """Seconds a fixed pure-Python loop takes now: how fast this machine is at the moment."""
    t = time.perf_counter()
    sum(i * i for i in range(10**7))
    return time.perf_counter() - t


def synth_input(hands: int, out: Path, seed: int = 0) -> None:
    """``hands`` synthetic hands at 2-9 seats, every game, structure and kind (the generator)."""
    subprocess.run(
        [
            str(Path(sys.executable).parent / "hhparse"),
            "synth",
            "--hands",
            str(hands),
            "--out",
            str(out),
            "--seed",
            str(seed),
            "--players",
            "2-9",
            "--game",
            "mixed",
            "--structure",
            "mixed",
            "--kind",
            "mixed",
        ],
        check=True,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )


#: Corpus folders that are not PokerStars' own undamaged output, or repeat other folders' hands.
_NOT_REAL = ("_fpdb3-head", "converted", "synthetic", "summaries")
_SLOT = re.compile(r"\x00(\d+)\x00")


def _names_in(hand: Any) -> list[str]:
    """Every player a hand names: its seats and whoever its events name (joins, chat)."""
    names = {s.player for s in hand.seats}
    for e in hand.events:
        name = getattr(e, "player", None)
        if isinstance(name, str) and name:
            names.add(name)
    return sorted(names, key=len, reverse=True)


def _fresh_names(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct names shaped like real ones: 3-20 characters, spaces, digits, non-ASCII."""
    from hhparse.synth.names import player_pool

    out = []
    for name in player_pool(rng, n, "\x00"):
        shape = rng.random()
        if shape < 0.25:
            name = f"{name}_{rng.randint(10, 99999)}"
        elif shape < 0.35:
            name = f"{name} {rng.choice(('PL', 'BR', 'Ñu', 'DE', 'fish'))}"
        out.append(name[:20])
    return out if len(set(out)) == n else _fresh_names(rng, n)


def _fill(template: str, names: list[str], hand_no: int) -> str:
    text = _SLOT.sub(lambda m: names[int(m.group(1))], template)
    return _ID.sub(lambda m: f"{m.group(1)}{900_000_000_000 + hand_no}:", text, count=1)


def corpus_templates() -> list[tuple[str, int]]:
    """The valid real hands as templates whose player names are numbered slots (``\\x00k\\x00``)
    with their player count. A hand whose renaming (checked with two fresh name sets) would not
    referee valid again keeps its own names (slot count 0)."""
    from hhparse.engine import referee
    from hhparse.parsing import parse_block, parse_text
    from hhparse.splitter import split_path

    rng = random.Random(14)
    out: list[tuple[str, int]] = []
    kept = 0
    for block in split_path(CORPUS):
        if any(f"/{d}/" in block.source for d in _NOT_REAL):
            continue
        parsed = parse_block(block)
        if isinstance(parsed, Exception) or not hasattr(parsed, "header") or not referee(parsed).valid:
            continue
        text = block.text.rstrip("\n")
        names = _names_in(parsed)
        if names:
            index = {name: i for i, name in enumerate(names)}
            pattern = re.compile("|".join(re.escape(name) for name in names))
            template = pattern.sub(lambda m, index=index: f"\x00{index[m.group(0)]}\x00", text)
            ok = True
            for _ in range(2):
                hands = list(parse_text(_fill(template, _fresh_names(rng, len(names)), 0)))
                ok = (
                    ok and len(hands) == 1 and not isinstance(hands[0], Exception) and referee(hands[0]).valid
                )
                ok = ok and len(hands[0].events) == len(parsed.events)  # type: ignore[union-attr]
            if ok:
                out.append((template, len(names)))
                continue
            kept += 1
        out.append((text.replace("\x00", ""), 0))
    print(f"corpus: {len(out)} valid real hands ({kept} keep their own names: renaming broke them)")
    return out


def corpus_input(hands: int, out: Path, per_file: int = 5000, seed: int = 0) -> None:
    """Repeat the valid real hands with fresh hand ids and fresh player names."""
    templates = corpus_templates()
    rng = random.Random(seed)
    out.mkdir(parents=True)
    n = 0
    f = 0
    while n < hands:
        chunk = []
        for _ in range(min(per_file, hands - n)):
            template, players = templates[n % len(templates)]
            chunk.append(_fill(template, _fresh_names(rng, players), n))
            n += 1
        (out / f"real-{f:05d}.txt").write_text("\n\n\n".join(chunk) + "\n\n\n", encoding="utf-8")
        f += 1


def mix_input(hands: int, out: Path) -> None:
    """Half real hands renamed (:func:`corpus_input`), half synthetic (:func:`synth_input`)."""
    real = hands // 2
    corpus_input(real, out / "real")
    synth_input(hands - real, out / "synth")


INPUTS = {"mix": mix_input, "synth": synth_input, "corpus": corpus_input}


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from ``/proc/<pid>/task/*/children``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo.extend(int(c) for c in task.read_text().split())
    return out


def _status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _cpu_ticks(pid: int) -> int:
    """User + system CPU of ``pid`` so far, in clock ticks (``/proc/<pid>/stat``), 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, ValueError, IndexError):
        return 0


def run_sampled(
    cmd: list[str], cwd: Path = REPO, env: dict[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    """Run ``cmd``; return its stdout, the memory peaks (MB) of it and its descendants, and the
    CPU seconds each descendant had used when last seen (a pool's workers are not children the
    kernel's ``RUSAGE_CHILDREN`` sees; a process's last ≤ 50 ms before it exits are missed).
    Also the process's whole life: ``process_seconds`` from its spawn to its exit (wall), and
    ``tree_cpu_seconds``, the CPU of it and of every descendant it waited for (its start-up and
    exit included: what the user's machine spends on the command)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    spawned = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    total_peak = 0
    hwm: dict[int, int] = {}
    ticks: dict[int, int] = {}
    while proc.poll() is None:
        pids = _descendants(proc.pid)
        total_peak = max(total_peak, sum(_status_kb(p, "VmRSS:") for p in pids))
        for p in pids:
            hwm[p] = max(hwm.get(p, 0), _status_kb(p, "VmHWM:"))
            if p != proc.pid:
                ticks[p] = max(ticks.get(p, 0), _cpu_ticks(p))
        with contextlib.suppress(subprocess.TimeoutExpired):  # (not a sleep: the exit is seen at once)
            proc.wait(timeout=0.05)
    out, err = proc.communicate()
    exited = time.monotonic()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd, out, err)
    workers = [v for p, v in hwm.items() if p != proc.pid]
    tick = os.sysconf("SC_CLK_TCK")
    return out, {
        "spawned": spawned,
        "exited": exited,
        "process_seconds": exited - spawned,
        "tree_cpu_seconds": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "total_rss_mb": total_peak / 1024,
        "worker_rss_mb": max(workers, default=0) / 1024,
        "processes": len(hwm),
        "descendants_cpu_seconds": sum(ticks.values()) / tick,
        "busiest_descendant_cpu_seconds": max(ticks.values(), default=0) / tick,
        "descendant_cpu_seconds": {str(p): v / tick for p, v in ticks.items()},
    }


def _du(path: Path) -> int:
    """Bytes on disk under ``path``, each file once (a warehouse's live files have two names)."""
    seen: dict[tuple[int, int], int] = {}
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            seen[(st.st_dev, st.st_ino)] = st.st_size
    return sum(seen.values())


def main() -> None:
    """Build each input once, then import it once per (``--input``, executor, ``--jobs``, EV) per
    round; print the medians."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument(
        "--input",
        nargs="+",
        choices=sorted(INPUTS),
        default=["mix"],
        help="mix (default): real hands renamed + synthetic; synth or corpus alone",
    )
    ap.add_argument("--corpus-input", action="store_true", help="same as --input corpus (older spelling)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per --jobs value (median reported)")
    ap.add_argument("--keep", type=Path, help="build/keep the inputs under here (reused if present)")
    ap.add_argument(
        "--ev",
        choices=("on", "off", "both"),
        default="on",
        help="all-in EV stage on, off, or both in every round (and their speed ratio)",
    )
    ap.add_argument(
        "--executor",
        choices=("pool", "cluster", "both"),
        default="pool",
        help="local process pool (--jobs N), Dask LocalCluster (--cluster local:N), or both",
    )
    ap.add_argument(
        "--cluster-reads",
        nargs="+",
        choices=("workers", "client", "auto"),
        default=["workers"],
        help="with the cluster: who reads the inputs (issue #18); several values: each in every round",
    )
    ap.add_argument(
        "--cluster-at",
        nargs="+",
        choices=("local", "tcp"),
        default=["local"],
        help="with the cluster: a LocalCluster (--cluster local:N), or a `dask scheduler` and N `dask "
        "worker` processes on loopback (tcp, started before the clock); several values: each in every round",
    )
    ap.add_argument(
        "--cli",
        action="store_true",
        help="run the hhparse import program as a user does (its start-up, the derived tables it "
        "builds, its exit), and print where its time goes; --executor pool only",
    )
    ap.add_argument(
        "--build",
        nargs="+",
        type=Path,
        default=[REPO],
        metavar="DIR",
        help="checkouts whose .venv runs the imports (default: this one), interleaved in every round: "
        "A/B of two builds on the same inputs (each run imports the hhparse of its DIR)",
    )
    ap.add_argument(
        "--phases",
        action="store_true",
        help="print each run's phase breakdown (start-up, waits, merging, publishing, the tail)",
    )
    args = ap.parse_args()
    evs = ("off", "on") if args.ev == "both" else (args.ev,)
    chosen = ("pool", "cluster") if args.executor == "both" else (args.executor,)
    executors = [
        x
        for c in chosen
        for x in (
            [f"{_CLUSTER_AT[at]}-{m}" for at in args.cluster_at for m in args.cluster_reads]
            if c == "cluster"
            else [c]
        )
    ]
    inputs = ["corpus"] if args.corpus_input else list(dict.fromkeys(args.input))

    work = Path(tempfile.mkdtemp(prefix="hhparse-bench-"))
    base = args.keep or work
    try:
        srcs: dict[str, Path] = {}
        for name in inputs:
            src = srcs[name] = base / f"input-{name}-{args.hands}"
            if not src.exists():
                t = time.perf_counter()
                INPUTS[name](args.hands, src)
                print(
                    f"input {name}: {args.hands:,} hands, {_du(src) / 1e6:.1f} MB in {time.perf_counter() - t:.1f} s"
                )
        # Rounds: every case once per round, so that a drift of the machine's speed (seen here:
        # 20-40 % within the hour) hits all of them alike; a fixed CPU loop timed before each run
        # shows that drift.
        builds = [b.resolve() for b in args.build]
        if args.cli and executors != ["pool"]:
            ap.error("--cli runs the local pool only (--executor pool)")
        every: dict[tuple[Path, str, str, int, str], list[dict[str, Any]]] = {
            (b, n, x, j, e): []
            for b in builds
            for n in inputs
            for x in executors
            for j in args.jobs
            for e in evs
        }
        for i in range(args.repeat):
            # (builds alternate in going first, round after round)
            order = builds if i % 2 == 0 else builds[::-1]
            for key in sorted(every, key=lambda k: order.index(k[0])):
                build, name, executor, jobs, ev = key
                wh = work / f"wh-{len(builds) > 1 and builds.index(build)}-{name}-{executor}-{jobs}-{ev}-{i}"
                loop = calibration_seconds()
                child = CHILD_TCP if executor.startswith("tcp-") else CHILD
                child = CHILD_CLUSTER if executor.startswith("cluster-") else child
                child = CHILD_CLI if args.cli else child
                python = sys.executable if build == REPO else str(build / ".venv" / "bin" / "python")
                argv = [python, "-c", child, str(srcs[name]), str(wh), str(jobs), ev]
                figures = work / "cli.json"
                env = dict(os.environ, HHPARSE_BENCH_OUT=str(figures), HHPARSE_NO_PROGRESS="1")
                # (cwd: the build's checkout, whose hhparse ``python -c`` imports first)
                out, mem = run_sampled([*argv, executor.split("-", 1)[-1]], cwd=build, env=env)
                if args.cli:
                    r = _cli_figures(json.loads(figures.read_text()), mem)
                else:
                    r = json.loads(out.strip().splitlines()[-1]) | mem
                r["hands_per_s"] = r["read"] / r["seconds"]
                r["hands_per_cpu_s"] = r["read"] / r["cpu_seconds"]
                r["all_cpu_seconds"] = r["cpu_seconds"] + r["descendants_cpu_seconds"]
                r["hands_per_all_cpu_s"] = r["read"] / r["all_cpu_seconds"]
                r["warehouse_mb"] = _du(wh) / 1e6
                r["loop_s"] = loop
                r["process_hands_per_s"] = r["read"] / r["process_seconds"]
                every[key].append(r)
                shutil.rmtree(wh, ignore_errors=True)
                extra = ""
                if _is_cluster(executor):
                    extra = (
                        f", client CPU {1e6 * r['cpu_seconds'] / r['read']:.1f} µs/hand, workers' CPU "
                        f"{1e6 * r['worker_cpu_seconds'] / r['read']:.1f} µs/hand, "
                        + (
                            f"scheduler CPU {1e6 * r['scheduler_cpu_seconds'] / r['read']:.1f} µs/hand, "
                            if "scheduler_cpu_seconds" in r
                            else ""
                        )
                        + f"cluster start {r['startup_seconds']:.2f} s, start to close {r['total_seconds']:.2f} s"
                    )
                else:
                    extra = (
                        f", {r['hands_per_cpu_s']:,.0f} per CPU second of the main process, "
                        f"{r['hands_per_all_cpu_s']:,.0f} per CPU second of all processes"
                    )
                who = f"{build.name}, " if len(builds) > 1 else ""
                print(
                    f"  round {i + 1}, {who}{name}, {_label(executor, jobs)}, EV {ev}: {r['hands_per_s']:,.0f} hands/s, "
                    f"{r['seconds']:.1f} s{extra}; process start to exit {r['process_seconds']:.2f} s "
                    f"({r['process_hands_per_s']:,.0f} hands/s), CPU of all its processes "
                    f"{r['tree_cpu_seconds']:.2f} s (CPU loop {loop:.2f} s)",
                    flush=True,
                )
                if args.cli:
                    print(budget(r), flush=True)
                if args.phases and r["trace"]["workers"]:
                    print(phases(r, jobs), flush=True)
        for build in builds:
            if len(builds) > 1:
                print(f"== {build}")
            runs_of = {key[1:]: runs for key, runs in every.items() if key[0] == build}
            summarise(runs_of, args, inputs, executors, evs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summarise(
    runs_of: dict[tuple[str, str, int, str], list[dict[str, Any]]],
    args: argparse.Namespace,
    inputs: list[str],
    executors: list[str],
    evs: tuple[str, ...],
) -> None:
    """Print the medians of one build's runs, the speed-ups and the EV ratios."""
    results: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    for key, runs in runs_of.items():
        name, executor, jobs, ev = key
        label = f"{name}, {_label(executor, jobs)}"
        ordered = sorted(runs, key=lambda x: x["hands_per_s"])
        r = dict(ordered[len(ordered) // 2])  # the median run (all its figures)
        r["median_hands_per_s"] = statistics.median(x["hands_per_s"] for x in runs)
        if args.repeat > 1:
            print(
                f"{label}, EV {ev}: hands/s of the {args.repeat} runs: {[round(x['hands_per_s']) for x in runs]} "
                f"(spread {100 * (ordered[-1]['hands_per_s'] / ordered[0]['hands_per_s'] - 1):.0f} %)"
            )
        results[key] = r
        line = (
            f"{label}, EV {ev}: {r['read']:,} hands, median {r['median_hands_per_s']:,.0f} hands/s "
            f"({r['median_hands_per_s'] / jobs:,.0f}/worker); new {r['new']:,}, rejected {r['rejected']:,}; "
            f"peak RSS main {r['main_rss_mb']:.0f} MB, largest worker {r['worker_rss_mb']:.0f} MB, "
            f"all {r['processes']} processes together {r['total_rss_mb']:.0f} MB; "
            f"warehouse {r['warehouse_mb']:.1f} MB in {r['batches']} batches"
        )
        if _is_cluster(executor):
            client = statistics.median(1e6 * x["cpu_seconds"] / x["read"] for x in runs)
            workers = statistics.median(1e6 * x["worker_cpu_seconds"] / x["read"] for x in runs)
            line += (
                f"; CPU per hand (medians): client {client:.1f} µs, workers {workers:.1f} µs"
                + (
                    f", scheduler {statistics.median(1e6 * x['scheduler_cpu_seconds'] / x['read'] for x in runs):.1f} µs"
                    if executor.startswith("tcp-")
                    else ""
                )
                + "; "
                f"cluster start {statistics.median(x['startup_seconds'] for x in runs):.1f} s"
            )
        if executor == "pool":
            main_cpu = statistics.median(x["hands_per_cpu_s"] for x in runs)
            all_cpu = statistics.median(x["hands_per_all_cpu_s"] for x in runs)
            line += (
                f"; per CPU second (medians): main process {main_cpu:,.0f} hands, "
                f"all processes {all_cpu:,.0f} hands"
            )
        print(line)
    for name in inputs:
        for executor in executors:
            for ev in evs:
                k1, k2 = (name, executor, 1, ev), (name, executor, 2, ev)
                if k1 in results and k2 in results:
                    one, two = results[k1]["median_hands_per_s"], results[k2]["median_hands_per_s"]
                    pairs = list(zip(runs_of[k1], runs_of[k2], strict=True))  # (--jobs 1, --jobs 2) a round
                    paired = [b["hands_per_s"] / a["hands_per_s"] for a, b in pairs]
                    print(
                        f"{name}: speed-up {_label(executor, 2)} / {_label(executor, 1)}, EV {ev}: "
                        f"{two / one:.2f}x (medians); per round {', '.join(f'{x:.2f}' for x in paired)}"
                    )
                    if _is_cluster(executor):
                        # What the user waits for: the cluster's start-up and shut-down too.
                        whole = [a["total_seconds"] / b["total_seconds"] for a, b in pairs]
                        print(
                            f"{name}: speed-up {_label(executor, 2)} / {_label(executor, 1)}, EV {ev}, the "
                            f"cluster's start-up and shut-down included: {statistics.median(whole):.2f}x "
                            f"(median); per round {', '.join(f'{x:.2f}' for x in whole)}"
                        )
                    if executor == "pool":
                        # On a machine with two idle cores the run takes at least as long as
                        # its busiest process's CPU time: what the speed-up would be if only
                        # CPU bounded it (waits and hand-offs not counted).
                        bound = statistics.median(
                            a["cpu_seconds"] / max(b["cpu_seconds"], b["busiest_descendant_cpu_seconds"])
                            for a, b in zip(runs_of[k1], runs_of[k2], strict=True)
                        )
                        print(
                            f"{name}: {_label(executor, 2)} / {_label(executor, 1)}, EV {ev}, bounded by CPU "
                            f"alone (CPU of --jobs 1 / busiest process of --jobs 2): {bound:.2f}x (median)"
                        )
                        # The main process and the workers share the two cores: the run takes
                        # at least half the CPU of all its processes.
                        shared = statistics.median(
                            a["all_cpu_seconds"] / (b["all_cpu_seconds"] / 2)
                            for a, b in zip(runs_of[k1], runs_of[k2], strict=True)
                        )
                        print(
                            f"{name}: {_label(executor, 2)} / {_label(executor, 1)}, EV {ev}, bounded by the CPU "
                            f"of all processes on 2 cores (CPU of --jobs 1 / half the CPU of --jobs 2): "
                            f"{shared:.2f}x (median)"
                        )
            if args.ev == "both":
                for jobs in args.jobs:
                    with_ev = results[(name, executor, jobs, "on")]["median_hands_per_s"]
                    without = results[(name, executor, jobs, "off")]["median_hands_per_s"]
                    print(
                        f"{name}, {_label(executor, jobs)}: with EV {with_ev:,.0f} / without {without:,.0f} "
                        f"hands/s = {100 * with_ev / without:.1f} % (medians)"
                    )
                    if jobs == 1 and executor == "pool":  # in-process: the main process's CPU is all the work
                        cpu = {
                            e: statistics.median(x["hands_per_cpu_s"] for x in runs_of[(name, "pool", 1, e)])
                            for e in evs
                        }
                        print(
                            f"{name}, --jobs 1, per CPU second: with EV {cpu['on']:,.0f} / without "
                            f"{cpu['off']:,.0f} = {100 * cpu['on'] / cpu['off']:.1f} % (medians; less "
                            "sensitive to a busy machine)"
                        )


def _cli_figures(m: dict[str, Any], mem: dict[str, Any]) -> dict[str, Any]:
    """One ``--cli`` run's figures (:data:`CHILD_CLI`), named as :data:`CHILD`'s are: its
    ``seconds`` and ``cpu_seconds`` are the whole process's (spawn to exit, start-up, derived tables and
    exit included), the import's own as ``import_seconds``, and the budget's parts."""
    tree = mem["tree_cpu_seconds"]
    workers = m["cpu_children_end"]  # (the pool's workers, reaped when the import ended)
    main_cpu = tree - workers
    r = dict(m) | mem
    r["seconds"] = mem["process_seconds"]
    r["import_seconds"] = m["imported"] - m["import"]
    r["cpu_seconds"] = main_cpu
    r["descendants_cpu_seconds"] = workers
    refreshed = (
        (m["bucketed"] - m["buckets"], m["cpu_bucketed"] - m["cpu_buckets"])
        if "bucketed" in m
        else (0.0, 0.0)
    )
    # (the refresh runs inside the import, with its writer, or after it, as a build before that
    # did; the batches' own builds run inside it, in this process with --jobs 1)
    inside = "bucketed" in m and m["buckets"] < m["imported"]
    batches = (m.get("batch_derived", 0.0), m.get("cpu_batch_derived", 0.0))
    built = (refreshed[0] + batches[0], refreshed[1] + batches[1])
    r["budget"] = {
        # part: (wall s, CPU s of the main process)
        "start-up": (m["import"] - mem["spawned"], m["cpu_import"]),
        "import": (
            m["imported"] - m["import"] - (refreshed[0] if inside else 0.0) - batches[0],
            m["cpu_imported"] - m["cpu_import"] - (refreshed[1] if inside else 0.0) - batches[1],
        ),
        "derived": built,
        "rest": (
            m["end"] - (m["imported"] if inside else m.get("bucketed", m["imported"])),
            m["cpu_end"] - (m["cpu_imported"] if inside else m.get("cpu_bucketed", m["cpu_imported"])),
        ),
        "exit": (mem["exited"] - m["end"], main_cpu - m["cpu_end"]),
    }
    return r


def budget(r: dict[str, Any]) -> str:
    """Where a ``--cli`` run's time went, from the process's spawn to its exit: wall seconds and
    the main process's CPU seconds of each part, the workers' CPU, and when the import's first
    task started and last result came (wall from the spawn)."""
    b = r["budget"]
    parts = ", ".join(f"{k} {w:.2f} / {c:.2f}" for k, (w, c) in b.items())
    t = r.get("trace") or {}
    at = r.get("trace_started", r["spawned"]) - r["spawned"]
    marks = t.get("marks", {})
    ticks = " ".join(
        f"{k} {at + marks[k]:.2f}"
        for k in ("first_task", "first_result", "last_result", "done")
        if k in marks
    )
    return (
        f"    budget (wall s / CPU s of the main process): {parts}; workers' CPU "
        f"{r['descendants_cpu_seconds']:.2f} s; all processes {r['tree_cpu_seconds']:.2f} s CPU; "
        f"import phases from the spawn (wall s): {ticks}"
    )


def phases(r: dict[str, Any], jobs: int) -> str:
    """The phase breakdown of one run (``ImportTrace.summary``), each figure named wall or CPU."""
    t = r["trace"]
    m = t["marks"]
    end = t["end"]
    ws = sorted(t["workers"].values(), key=lambda w: w["first_start"])

    def each(key: str, fmt: str = "{:.2f}") -> str:
        return "/".join(fmt.format(w[key]) if w[key] is not None else "-" for w in ws)

    busy = sum(w["busy"] for w in ws)
    idle = jobs * end - busy
    before = sum(w["first_start"] for w in ws) + max(0, jobs - len(ws)) * end
    after = sum(end - w["last_end"] for w in ws)
    gaps = idle - before - after
    ticks = " ".join(
        f"{k} {m[k]:.2f}"
        for k in ("planned", "executor", "first_task", "first_result", "indexed", "last_result", "done")
        if k in m
    )
    # CPU by process: the workers' own beyond their tasks is their start-up, the batches' Parquet
    # files they write and the pool's messages; the helpers are a forkserver and its tracker.
    cpu = r.get("descendant_cpu_seconds", {})
    wpids = {str(pid) for pid in t["workers"]}  # (keys of JSON: strings)
    workers_cpu = sum(v for pid, v in cpu.items() if pid in wpids)
    helpers_cpu = sum(v for pid, v in cpu.items() if pid not in wpids)
    task_cpu = sum(w["task_cpu"] for w in ws)
    per_hand = 1e6 / max(1, r["read"])
    by_process = (
        f"    CPU a hand (µs): main process {per_hand * r['cpu_seconds']:.1f}, helpers (forkserver, tracker) "
        f"{per_hand * helpers_cpu:.1f}, workers' tasks {per_hand * task_cpu:.1f}, workers beyond their "
        f"tasks (start-up, batch writes, messages) {per_hand * (workers_cpu - task_cpu):.1f}\n"
        if cpu
        else f"    CPU a hand (µs): the process {per_hand * r['cpu_seconds']:.1f}, of which its tasks "
        f"{per_hand * task_cpu:.1f}\n"
    )
    # The batches the workers write (ImportTrace.writes): their share of the idle time.
    between = sum(w.get("writing_between", 0.0) for w in ws)
    written_after = sum(w.get("writing_after", 0.0) for w in ws)
    writing_between = f" (writing batches {between:.2f}, the rest waiting)" if "writes" in t else ""
    writing_after = f" (writing batches {written_after:.2f})" if "writes" in t else ""
    writes = ""
    if t.get("writes"):
        writes = (
            f"\n    batch writes: {len(t['writes'])} ({each('writes', '{}')} a worker), wall "
            + ", ".join(f"{w[2] - w[1]:.3f}" for w in t["writes"])
            + " s, CPU "
            + ", ".join(f"{w[3]:.3f}" for w in t["writes"])
            + " s, at "
            + ", ".join(f"{w[1]:.2f}" for w in t["writes"])
        )
    threads = ""
    if t.get("process_cpu") is not None:
        threads = (
            f" (in the trace: {t['process_cpu']:.2f}, its main thread {t['main_thread_cpu']:.2f}, "
            f"other threads {t['process_cpu'] - t['main_thread_cpu']:.2f})"
        )
    return by_process + (
        f"    phases (wall s from the start): {ticks}; workers start {each('ready_start')}, ready "
        f"{each('ready')}, first task {each('first_start')}, last task ends {each('last_end')} "
        f"(tail {t['tail']:.2f})\n"
        f"    main process (wall s / its thread's CPU s): {main_parts(t)}; waiting for results "
        f"{t['waited']:.2f}; main CPU {r['cpu_seconds']:.2f} s{threads}\n"
        f"    workers: tasks {each('tasks', '{}')}, busy (wall) {each('busy')} s, task CPU "
        f"{each('task_cpu')} s; idle worker-seconds (wall) {idle:.2f} of {jobs * end:.2f}: before the "
        f"first task {before:.2f}, between tasks {gaps:.2f}{writing_between}, after the last "
        f"{after:.2f}{writing_after}{writes}"
    )


def main_parts(t: dict[str, Any]) -> str:
    """The main process's parts, wall and (a trace that has it) CPU of the thread doing them."""

    def part(name: str) -> str:
        wall = t.get(name)
        if wall is None:
            return ""
        cpu = t.get(f"{name}_cpu")
        return f"{name} {wall:.2f}" + (f" / {cpu:.2f}" if cpu is not None else "")

    return ", ".join(p for p in map(part, ("cutting", "submitting", "merging", "publishing")) if p)


_CLUSTER_AT = {"local": "cluster", "tcp": "tcp"}
"""``--cluster-at`` → the prefix of the executor's key (``cluster-workers``, ``tcp-client``...)."""


def _is_cluster(executor: str) -> bool:
    return executor.startswith(("cluster-", "tcp-"))


def _label(executor: str, jobs: int) -> str:
    if executor.startswith("cluster-"):
        return f"--cluster local:{jobs} --cluster-reads {executor.removeprefix('cluster-')}"
    if executor.startswith("tcp-"):
        return f"--cluster tcp:// ({jobs} dask worker) --cluster-reads {executor.removeprefix('tcp-')}"
    return f"--jobs {jobs}"


if __name__ == "__main__":
    main()
