"""Where a ``--cluster local:N`` import spends its CPU and its wall time, process by process and
thread by thread (issue #18: ``local:2`` >= 1.7x ``local:1``), A/B against other builds.

Why: the speed-up of a ``LocalCluster`` is bounded by everything that is not the workers' tasks:
the client's main thread (planning, merging, committing), its event-loop thread (the scheduler
and the nannies run there, in the client process), each worker's own Dask threads (event loop,
heartbeats, comms), the cluster's start-up and shut-down (the user waits for them), and the
workers' idle gaps (too few tasks in flight at the start, the last task's tail). On a machine
shared with other work only CPU time is comparable, so every build runs every case once per
round, interleaved, and medians are reported.

Usage: python bench/cluster_cpu.py --input DIR [--jobs 1 2] [--rounds 5] [--ev on|off]
       [--build NAME=REPO ...] [--json FILE]

``--build before=/work/bencha`` runs that clone's ``.venv/bin/python`` in that clone (the
default: this repository only). For each run it prints the wall time from the start of
``connect`` to the cluster closed, split into start-up, import and shut-down, and the CPU
seconds of: the client's main thread, its other threads (by name), and each worker process's
task thread and other threads, during the import; the workers' CPU at start-up; the first task's
start and the last task's end after the import started, and the workers' idle time between
tasks (Dask's task stream).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, os, sys, threading, time
from pathlib import Path
T0 = time.monotonic()
import psutil
from hhparse.importer import import_paths
from hhparse.cluster import connect

TICK = os.sysconf("SC_CLK_TCK")
COMM = {}

def threads_cpu(pid):
    out = {}
    for t in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (t / "stat").read_text()
        except OSError:
            continue
        f = stat.rsplit(")", 1)[1].split()
        COMM[int(t.name)] = stat.split("(", 1)[1].rsplit(")", 1)[0]
        out[int(t.name)] = (int(f[11]) + int(f[12])) / TICK
    return out

def names():
    return os.getpid(), {t.native_id: t.name for t in threading.enumerate()}

def grouped(pid, before, after, named):
    out = {}
    for tid, cpu in after.items():
        name = named.get(tid)
        if name is None:
            name = "native " + COMM.get(tid, "?")
        elif "Dask-Default-Threads" in name:
            name = "tasks"
        elif "Dask-Offload" in name:
            name = "offload"
        elif name.startswith("ThreadPoolExecutor"):
            name = "ThreadPoolExecutor"
        out[name] = out.get(name, 0.0) + cpu - before.get(tid, 0.0)
    return out

src, wh, n, ev, inputs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "on", sys.argv[5]
t_start = time.monotonic()
cpu_start = time.process_time()
with connect(f"local:{n}", inputs=inputs) as ex:
    t_conn = time.monotonic()
    cpu_conn = time.process_time()
    import distributed  # (after connect: it imports Dask itself, as the import command does)
    client = ex.client
    workers = {pid: tids for pid, tids in client.run(names).values()}
    helpers = [p.pid for p in psutil.Process().children(recursive=True) if p.pid not in workers]
    w0 = {pid: threads_cpu(pid) for pid in workers}
    h0 = {pid: sum(threads_cpu(pid).values()) for pid in helpers}
    me0 = threads_cpu(os.getpid())
    mine = {t.native_id: t.name for t in threading.enumerate()}
    main0 = time.thread_time()
    with distributed.get_task_stream(client=client) as ts:
        wall0 = time.time()
        t_imp = time.monotonic()
        r = import_paths([src], wh, executor=ex, ev=ev)
        t_done = time.monotonic()
        wall1 = time.time()
    main1 = time.thread_time()
    me1 = threads_cpu(os.getpid())
    mine.update({t.native_id: t.name for t in threading.enumerate()})
    w1 = {pid: threads_cpu(pid) for pid in workers}
    for pid, tids in client.run(names).values():
        workers[pid] = workers.get(pid, {}) | tids
    h1 = {pid: sum(threads_cpu(pid).values()) for pid in helpers}
    stream = ts.data
cpu_end = time.process_time()
t_closed = time.monotonic()
client_threads = grouped(os.getpid(), me0, me1, mine)
client_threads.pop("MainThread", None)
per_worker = []
for pid in workers:
    g = grouped(pid, w0[pid], w1[pid], workers[pid])
    per_worker.append({"start_cpu": sum(w0[pid].values()), "tasks_cpu": g.pop("tasks", 0.0), "other": g})
spans = {}
for t in stream:
    for ss in t.get("startstops", ()):
        if ss.get("action") == "compute":
            spans.setdefault(t["worker"], []).append((ss["start"] - wall0, ss["stop"] - wall0))
idle = []
for w, s in spans.items():
    s.sort()
    idle.append(sum(max(0.0, b[0] - a[1]) for a, b in zip(s, s[1:])))
print(json.dumps({
    "hands": r.stats.read, "import_s": t_done - t_imp, "startup_s": t_conn - t_start,
    "shutdown_s": t_closed - t_done, "total_s": t_closed - t_start, "modules_s": t_start - T0,
    "client_startup_cpu": cpu_conn - cpu_start, "client_main_cpu": main1 - main0,
    "client_threads": client_threads, "client_shutdown_cpu": cpu_end - cpu_start - (cpu_conn - cpu_start) - sum(me1.values()) + sum(me0.values()),
    "workers": per_worker, "helpers_cpu": sum(h1.values()) - sum(h0.values()), "helpers_start_cpu": sum(h0.values()),
    "first_task": min((s[0][0] for s in spans.values()), default=None),
    "last_end": max((s[-1][1] for s in spans.values()), default=None),
    "last_ends": sorted(s[-1][1] for s in spans.values()),
    "idle_between": idle, "tasks": sum(len(s) for s in spans.values()),
    "trace": r.stats.trace.summary()["marks"],
}))
"""


def run(
    python: Path, repo: Path, src: str, wh: Path, jobs: int, ev: str, inputs: str, env: dict[str, str]
) -> dict[str, Any]:
    out = subprocess.run(
        [str(python), "-c", CHILD, src, str(wh), str(jobs), ev, inputs],
        cwd=repo,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def line(r: dict[str, Any]) -> str:
    us = 1e6 / r["hands"]
    workers = r["workers"]
    tasks = sum(w["tasks_cpu"] for w in workers)
    wother = sum(sum(w["other"].values()) for w in workers)
    loop = sum(r["client_threads"].values())
    return (
        f"wall {r['total_s']:.2f} s (start {r['startup_s']:.2f}, import {r['import_s']:.2f}, close "
        f"{r['shutdown_s']:.2f}); µs/hand: client main {r['client_main_cpu'] * us:.1f}, client threads "
        f"{loop * us:.1f} { ({k: round(v * us, 1) for k, v in r['client_threads'].items() if v}) }, "
        f"worker tasks {tasks * us:.1f}, worker other {wother * us:.1f} {_other(workers, us)}, helpers {r['helpers_cpu'] * us:.1f}; "
        f"start CPU client {r['client_startup_cpu']:.2f} s, workers {sum(w['start_cpu'] for w in workers):.2f} s, "
        f"helpers {r['helpers_start_cpu']:.2f} s; "
        f"first task {r['first_task']:.2f} s, last ends {[round(x, 2) for x in r['last_ends']]}, idle between "
        f"{[round(x, 2) for x in r['idle_between']]} s, {r['tasks']} tasks"
    )


def _other(workers: list[dict[str, Any]], us: float) -> dict[str, float]:
    out: dict[str, float] = {}
    for w in workers:
        for k, v in w["other"].items():
            out[k] = out.get(k, 0.0) + v
    return {k: round(v * us, 1) for k, v in out.items() if v}


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    def med(f: Any) -> float:
        return float(statistics.median(f(r) for r in runs))

    return {
        "import_s": med(lambda r: r["import_s"]),
        "total_s": med(lambda r: r["total_s"]),
        "startup_s": med(lambda r: r["startup_s"]),
        "shutdown_s": med(lambda r: r["shutdown_s"]),
        "client_main_us": med(lambda r: 1e6 * r["client_main_cpu"] / r["hands"]),
        "client_threads_us": med(lambda r: 1e6 * sum(r["client_threads"].values()) / r["hands"]),
        "worker_tasks_us": med(lambda r: 1e6 * sum(w["tasks_cpu"] for w in r["workers"]) / r["hands"]),
        "worker_other_us": med(
            lambda r: 1e6 * sum(sum(w["other"].values()) for w in r["workers"]) / r["hands"]
        ),
        "helpers_us": med(lambda r: 1e6 * r["helpers_cpu"] / r["hands"]),
        "startup_cpu_s": med(
            lambda r: (
                r["client_startup_cpu"] + sum(w["start_cpu"] for w in r["workers"]) + r["helpers_start_cpu"]
            )
        ),
        "first_task_s": med(lambda r: r["first_task"]),
        "tail_s": med(lambda r: r["import_s"] - r["last_end"]),
        "idle_between_s": med(lambda r: sum(r["idle_between"])),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", required=True)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ev", choices=("on", "off"), default="on")
    ap.add_argument("--reads", choices=("workers", "client", "auto"), default="workers")
    ap.add_argument("--build", action="append", default=[], help="NAME=REPO (its .venv/bin/python)")
    ap.add_argument("--work", default="/tmp", help="where the warehouses are made (and deleted)")
    ap.add_argument("--json", help="write every run's figures here")
    args = ap.parse_args()
    # NAME=REPO[,VAR=VALUE...]: environment variables for that build's runs (Dask config, e.g.
    # DASK_DISTRIBUTED__SCHEDULER__WORK_STEALING=False, to try a setting without a build of it)
    builds = [b.split("=", 1) for b in args.build] or [["this", str(REPO)]]
    envs = {name: dict(v.split("=", 1) for v in repo.split(",")[1:]) for name, repo in builds}
    builds = [[name, repo.split(",")[0]] for name, repo in builds]
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {(b, j): [] for b, _ in builds for j in args.jobs}
    import shutil
    import tempfile

    work = Path(tempfile.mkdtemp(prefix="hhparse-cluster-cpu-", dir=args.work))
    try:
        for i in range(args.rounds):
            for name, repo in builds:
                for jobs in args.jobs:
                    wh = work / f"wh-{name}-{jobs}-{i}"
                    t = time.perf_counter()
                    r = run(
                        Path(repo) / ".venv/bin/python",
                        Path(repo),
                        args.input,
                        wh,
                        jobs,
                        args.ev,
                        args.reads,
                        envs[name],
                    )
                    shutil.rmtree(wh, ignore_errors=True)
                    runs[(name, jobs)].append(r)
                    print(
                        f"round {i + 1} {name} local:{jobs} ({time.perf_counter() - t:.0f} s): {line(r)}",
                        flush=True,
                    )
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if args.json:
            Path(args.json).write_text(json.dumps({f"{b} {j}": v for (b, j), v in runs.items()}))
    for (name, jobs), rs in runs.items():
        if rs:
            s = summary(rs)
            print(
                f"{name} local:{jobs} medians of {len(rs)}: "
                + ", ".join(f"{k} {v:.2f}" for k, v in s.items())
            )
    for name, _ in builds:
        one, two = runs.get((name, 1)), runs.get((name, 2))
        if one and two:
            ratios = [a["import_s"] / b["import_s"] for a, b in zip(one, two, strict=False)]
            totals = [a["total_s"] / b["total_s"] for a, b in zip(one, two, strict=False)]
            print(
                f"{name}: local:1 / local:2 import wall per round {[round(x, 2) for x in ratios]}, "
                f"with start-up and shut-down {[round(x, 2) for x in totals]}"
            )


if __name__ == "__main__":
    sys.exit(main())
