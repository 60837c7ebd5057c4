"""End-to-end import throughput, scaling and peak memory (issue #5 targets).

Why: the warehouse must absorb a million hands at >= 3,500 hands/s per core end to end, scale
>= 1.7x with ``--jobs 2``, and stay under 1 GB RSS whatever the input size. Each ``--jobs`` value
runs in its own subprocess (fresh warehouse). Memory is sampled from ``/proc`` every 50 ms over that
subprocess and all its descendants (the pool's workers are children of the forkserver, so
``RUSAGE_CHILDREN`` never sees them): the peak of the summed RSS (what the machine must hold at
once), plus each process's own high-water mark (``VmHWM``) for the main process and the largest
worker.

Input: ``hhparse synth --hands N --out DIR`` (the synthetic generator); with ``--corpus-input``
the valid corpus hands repeated with fresh hand ids instead.

With ``--ev both`` every round imports the input with the all-in EV stage and without it
(``import_paths(ev=False)``), and the median speeds and their ratio are printed (issue #15: with
EV at >= 80 % of the speed without).

With ``--executor cluster`` (or ``both``) each ``--jobs N`` also runs as ``--cluster local:N``: a
Dask ``LocalCluster`` of N single-threaded worker processes (issue #18, target >= 1.7x from 1 to 2
workers). The cluster is started before the clock starts (its start-up is printed apart); the
client's CPU time (merging, writing Parquet, and the LocalCluster's scheduler, which runs in the
client process) and the workers' CPU time are measured separately, so the per-hand costs of each
side can be projected to a larger cluster.

Usage: python bench/import.py [--hands 1000000] [--jobs 1 2] [--keep DIR] [--ev on|off|both]
       [--executor pool|cluster|both] [--repeat N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
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
from hhparse.importer import import_paths
t = time.perf_counter()
c = time.process_time()
r = import_paths([sys.argv[1]], sys.argv[2], jobs=int(sys.argv[3]), ev=sys.argv[4] == "on")
dt = time.perf_counter() - t
print(json.dumps({
    "seconds": dt, "cpu_seconds": time.process_time() - c, "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected,
    "batches": r.stats.batches,
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""

CHILD_CLUSTER = """
import json, resource, sys, time
import psutil
from hhparse.importer import import_paths
from hhparse.cluster import connect
t = time.perf_counter()
with connect("local:" + sys.argv[3]) as ex:
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
print(json.dumps({
    "seconds": dt, "cpu_seconds": cpu, "worker_cpu_seconds": wcpu, "startup_seconds": startup,
    "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected, "batches": r.stats.batches,
    "main_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def calibration_seconds() -> float:
    """Seconds a fixed pure-Python loop takes now: how fast this machine is at the moment."""
    t = time.perf_counter()
    sum(i * i for i in range(10**7))
    return time.perf_counter() - t


def synth_input(hands: int, out: Path) -> None:
    """Generate ``hands`` synthetic hands with the project's generator."""
    subprocess.run(
        [str(Path(sys.executable).parent / "hhparse"), "synth", "--hands", str(hands), "--out", str(out)],
        check=True,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )


def corpus_input(hands: int, out: Path, per_file: int = 5000) -> None:
    """Repeat the valid corpus hands with fresh ids (fallback when the generator is unavailable)."""
    from hhparse.engine import referee
    from hhparse.parsing import parse_block
    from hhparse.splitter import split_path

    texts = []
    for block in split_path(CORPUS):
        if "_fpdb3-head" in block.source:
            continue
        parsed = parse_block(block)
        if not isinstance(parsed, Exception) and hasattr(parsed, "header") and referee(parsed).valid:
            texts.append(block.text.rstrip("\n"))
    out.mkdir(parents=True)
    n = 0
    f = 0
    while n < hands:
        chunk = []
        for _ in range(min(per_file, hands - n)):
            text = texts[n % len(texts)]
            chunk.append(_ID.sub(lambda m, i=n: f"{m.group(1)}{900_000_000_000 + i}:", text, count=1))
            n += 1
        (out / f"bench-{f:05d}.txt").write_text("\n\n\n".join(chunk) + "\n\n\n")
        f += 1


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


def run_sampled(cmd: list[str]) -> tuple[str, dict[str, float]]:
    """Run ``cmd``; return its stdout and the memory peaks (MB) of it and its descendants."""
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    total_peak = 0
    hwm: dict[int, int] = {}
    while proc.poll() is None:
        pids = _descendants(proc.pid)
        total_peak = max(total_peak, sum(_status_kb(p, "VmRSS:") for p in pids))
        for p in pids:
            hwm[p] = max(hwm.get(p, 0), _status_kb(p, "VmHWM:"))
        time.sleep(0.05)
    out, err = proc.communicate()
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd, out, err)
    workers = [v for p, v in hwm.items() if p != proc.pid]
    return out, {
        "total_rss_mb": total_peak / 1024,
        "worker_rss_mb": max(workers, default=0) / 1024,
        "processes": len(hwm),
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
    """Build the input once, then import it once per ``--jobs`` value (and executor) per round and
    print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--corpus-input", action="store_true", help="repeat corpus hands instead of synth")
    ap.add_argument("--repeat", type=int, default=1, help="runs per --jobs value (median reported)")
    ap.add_argument("--keep", type=Path, help="build/keep the input here (reused if present)")
    ap.add_argument("--ev", choices=("on", "off", "both"), default="on",
                    help="all-in EV stage on, off, or both in every round (and their speed ratio)")
    ap.add_argument("--executor", choices=("pool", "cluster", "both"), default="pool",
                    help="local process pool (--jobs N), Dask LocalCluster (--cluster local:N), or both")
    args = ap.parse_args()
    evs = ("off", "on") if args.ev == "both" else (args.ev,)
    executors = ("pool", "cluster") if args.executor == "both" else (args.executor,)

    work = Path(tempfile.mkdtemp(prefix="hhparse-bench-"))
    src = args.keep or work / "input"
    try:
        if not src.exists():
            t = time.perf_counter()
            (corpus_input if args.corpus_input else synth_input)(args.hands, src)
            print(f"input: {args.hands:,} hands, {_du(src) / 1e6:.1f} MB in {time.perf_counter() - t:.1f} s")
        # Rounds: every --jobs value once per round, so that a drift of the machine's speed (seen
        # here: 20-40 % within the hour) hits all of them alike; a fixed CPU loop timed before
        # each run shows that drift.
        runs_of: dict[tuple[str, int, str], list[dict[str, Any]]] = {
            (x, j, e): [] for x in executors for j in args.jobs for e in evs
        }
        for i in range(args.repeat):
            for key in runs_of:
                executor, jobs, ev = key
                wh = work / f"wh-{executor}-{jobs}-{ev}-{i}"
                loop = calibration_seconds()
                child = CHILD_CLUSTER if executor == "cluster" else CHILD
                out, mem = run_sampled([sys.executable, "-c", child, str(src), str(wh), str(jobs), ev])
                r = json.loads(out.strip().splitlines()[-1]) | mem
                r["hands_per_s"] = r["read"] / r["seconds"]
                r["hands_per_cpu_s"] = r["read"] / r["cpu_seconds"]
                r["warehouse_mb"] = _du(wh) / 1e6
                r["loop_s"] = loop
                runs_of[key].append(r)
                shutil.rmtree(wh, ignore_errors=True)
                extra = ""
                if executor == "cluster":
                    extra = (f", client CPU {1e6 * r['cpu_seconds'] / r['read']:.1f} µs/hand, workers' CPU "
                             f"{1e6 * r['worker_cpu_seconds'] / r['read']:.1f} µs/hand, cluster start "
                             f"{r['startup_seconds']:.1f} s")
                print(f"  round {i + 1}, {_label(executor, jobs)}, EV {ev}: {r['hands_per_s']:,.0f} hands/s, "
                      f"{r['seconds']:.1f} s{extra} (CPU loop {loop:.2f} s)", flush=True)
        results = {}
        for key, runs in runs_of.items():
            executor, jobs, ev = key
            label = _label(executor, jobs)
            ordered = sorted(runs, key=lambda x: x["hands_per_s"])
            r = dict(ordered[len(ordered) // 2])  # the median run (all its figures)
            if args.repeat > 1:
                print(f"{label}, EV {ev}: hands/s of the {args.repeat} runs: {[round(x['hands_per_s']) for x in runs]} "
                      f"(spread {100 * (ordered[-1]['hands_per_s'] / ordered[0]['hands_per_s'] - 1):.0f} %)")
            results[key] = r
            line = (
                f"{label}, EV {ev}: {r['read']:,} hands in {r['seconds']:.1f} s = {r['hands_per_s']:,.0f} hands/s "
                f"({r['hands_per_s'] / jobs:,.0f}/worker); new {r['new']:,}, rejected {r['rejected']:,}; "
                f"peak RSS main {r['main_rss_mb']:.0f} MB, largest worker {r['worker_rss_mb']:.0f} MB, "
                f"all {r['processes']} processes together {r['total_rss_mb']:.0f} MB; "
                f"warehouse {r['warehouse_mb']:.1f} MB in {r['batches']} batches"
            )
            if executor == "cluster":
                client = statistics.median(1e6 * x["cpu_seconds"] / x["read"] for x in runs)
                workers = statistics.median(1e6 * x["worker_cpu_seconds"] / x["read"] for x in runs)
                line += (f"; CPU per hand (medians): client {client:.1f} µs, workers {workers:.1f} µs; "
                         f"cluster start {statistics.median(x['startup_seconds'] for x in runs):.1f} s")
            print(line)
        for executor in executors:
            for ev in evs:
                if (executor, 1, ev) in results and (executor, 2, ev) in results:
                    one, two = results[(executor, 1, ev)]["hands_per_s"], results[(executor, 2, ev)]["hands_per_s"]
                    paired = [b["hands_per_s"] / a["hands_per_s"]
                              for a, b in zip(runs_of[(executor, 1, ev)], runs_of[(executor, 2, ev)], strict=True)]
                    print(f"speed-up {_label(executor, 2)} / {_label(executor, 1)}, EV {ev}: {two / one:.2f}x "
                          f"(medians); per round {', '.join(f'{x:.2f}' for x in paired)}")
        if args.ev == "both":
            for executor in executors:
                for jobs in args.jobs:
                    with_ev = results[(executor, jobs, "on")]["hands_per_s"]
                    without = results[(executor, jobs, "off")]["hands_per_s"]
                    print(f"{_label(executor, jobs)}: with EV {with_ev:,.0f} / without {without:,.0f} hands/s = "
                          f"{100 * with_ev / without:.1f} % (medians)")
                    if jobs == 1 and executor == "pool":  # in-process: the main process's CPU is all the work
                        cpu = {e: statistics.median(x["hands_per_cpu_s"] for x in runs_of[("pool", 1, e)]) for e in evs}
                        print(f"--jobs 1, per CPU second: with EV {cpu['on']:,.0f} / without {cpu['off']:,.0f} "
                              f"= {100 * cpu['on'] / cpu['off']:.1f} % (medians; less sensitive to a busy machine)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _label(executor: str, jobs: int) -> str:
    return f"--cluster local:{jobs}" if executor == "cluster" else f"--jobs {jobs}"

if __name__ == "__main__":
    main()
