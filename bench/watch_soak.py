"""Soak test of ``hhparse import --watch`` (issue #19): a multi-table player for half an hour.

A simulated PokerStars client plays ``--tables`` tables at once: each table appends a hand to its
own file every ``--every`` seconds (drawn uniformly: a 6-max table deals 60-100 hands an hour),
the way the client does (the whole hand, then blank lines; CRLF and a BOM as the client's files
have them); a fraction of the hands is written in two halves a moment apart (a slow disk, a
client caught mid-write), and tables close and new ones open (a new file appears). The hands are
``hhparse synth``'s (rule-valid, a seed per table: fresh hand ids). Before the clock starts, the
folder already holds ``--history`` hands of earlier sessions, which the watch imports first.

A reader in this process polls the warehouse the way a user's DuckDB would
(:func:`hhparse.tables.schema.create_views` on a fresh connection, then a query) every
``--poll`` seconds and notes when each written hand becomes queryable. Measured:

* **latency**: last line of a hand written (and closed) → the hand queryable (p50, p90, p99, max);
* **RSS** of the watch process: after its first import, then every minute, at the end (and the
  slope over the second half: flat memory means ≈ 0 MB/h);
* the reader's own query time at the start and the end, and each table's file count at the
  end (small batches are merged as they pile up: reads must not slow down);
* every written hand stored exactly once, no reject.

Usage: python bench/watch_soak.py [--minutes 35] [--tables 8] [--every 30 70] [--json out.json]
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

from hhparse.synth import SynthConfig, generate, write
from hhparse.synth.output import hand_text, style_for
from hhparse.tables.schema import create_views

REPO = Path(__file__).resolve().parent.parent


def rss_kb(pid: int) -> int:
    """Resident set size of ``pid`` in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


class Table:
    """One table of the simulated client: its hands, in order, and the file it appends to."""

    def __init__(self, folder: Path, seed: int) -> None:
        self.folder = folder
        self.hands: Iterator[Any] = iter(generate(SynthConfig(hands=10**6, seed=seed, players=(4, 6))))
        self.name: str | None = None
        self.files = 0

    def next_hand(self) -> tuple[Path, str, str]:
        """(file, text, hand id) of the next hand; a new session of the generator is a new table
        (a new file, as when the player closes a table and opens another)."""
        info, result = next(self.hands)
        if info.file_name != self.name:
            self.name = info.file_name
            self.files += 1
        style = style_for(info.file_name)
        path = self.folder / info.file_name
        text = hand_text(result.hand, style.newline)
        if style.bom and not path.exists():
            text = "\ufeff" + text
        return path, text, str(result.hand.header.hand_id)


class Reader(threading.Thread):
    """Polls the warehouse like an outside DuckDB user; records when each hand appears."""

    def __init__(self, warehouse: Path, every: float) -> None:
        super().__init__(daemon=True)
        self.warehouse = warehouse
        self.every = every
        self.waiting: dict[str, float] = {}  # hand id -> written at
        self.latency: dict[str, float] = {}
        self.query_ms: list[tuple[float, float]] = []  # (time, ms)
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def expect(self, hand_id: str, written: float) -> None:
        with self.lock:
            self.waiting[hand_id] = written

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                ids = list(self.waiting)
            if ids:
                started = time.monotonic()
                try:
                    con = duckdb.connect()
                    create_views(con, self.warehouse)
                    placeholders = ",".join("?" * len(ids))
                    found = [
                        r[0]
                        for r in con.execute(
                            f"SELECT hand_id FROM hands WHERE hand_id IN ({placeholders})", ids
                        ).fetchall()
                    ]
                    con.close()
                except Exception as exc:  # a reader must never fail: that is a finding
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                    found = []
                now = time.monotonic()
                self.query_ms.append((time.time(), (now - started) * 1000))
                with self.lock:
                    for hid in found:
                        written = self.waiting.pop(hid, None)
                        if written is not None:
                            self.latency[hid] = now - written
            self.stop.wait(self.every)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=35.0)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument(
        "--every",
        type=float,
        nargs=2,
        default=(30.0, 70.0),
        metavar=("MIN", "MAX"),
        help="seconds between two hands of one table (uniform)",
    )
    ap.add_argument("--halves", type=float, default=0.1, help="fraction of hands written in two halves")
    ap.add_argument("--history", type=int, default=20_000, help="hands already in the folder at the start")
    ap.add_argument("--poll", type=float, default=0.1, help="reader poll interval, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--rss-every", type=float, default=60.0, help="seconds between two RSS samples")
    ap.add_argument(
        "--probe",
        type=Path,
        help="run the watch under bench/watch_probe.py, its samples (malloc, Arrow, objects) here",
    )
    ap.add_argument("--probe-every", type=float, default=30.0, help="seconds between two probe samples")
    ap.add_argument("--tracemalloc", action="store_true", help="with --probe: tracemalloc snapshots too")
    args = ap.parse_args()
    # stopped early (Ctrl-C, even when started in the background, or SIGTERM): the watch is
    # stopped too, never left running
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="hhparse-soak-"))
    folder, wh = root / "HandHistory" / "Hero", root / "wh"
    folder.mkdir(parents=True)
    if args.history:
        write(
            SynthConfig(hands=args.history, seed=args.seed + 500, players=(2, 6)), directory=folder / "2023"
        )
    tables = [Table(folder, args.seed * 100 + k) for k in range(args.tables)]
    initial = 3 * args.tables
    for t in tables:  # each open table already has a few hands
        for _ in range(3):
            path, text, _hid = t.next_hand()
            with open(path, "a", encoding="utf-8", newline="") as fh:
                fh.write(text)
    env = {**os.environ, "HHPARSE_NO_PROGRESS": "1"}
    if args.probe:
        probe = [str(REPO / "bench" / "watch_probe.py"), str(args.probe), str(args.probe_every)]
        launcher = [*probe, *(["--tracemalloc"] if args.tracemalloc else []), "--"]
    else:
        launcher = ["-c", "from hhparse.cli import main; main()"]
    cmd = [
        sys.executable,
        *launcher,
        "import",
        str(folder.parent),
        "--warehouse",
        str(wh),
        "--watch",
        "--jobs",
        str(args.jobs),
    ]
    log = open(root / "watch.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
    t0 = time.monotonic()
    while "Ctrl-C to stop" not in (root / "watch.log").read_text() and proc.poll() is None:
        time.sleep(0.2)
    first_import_s = time.monotonic() - t0
    rss: list[tuple[float, int]] = [(0.0, rss_kb(proc.pid))]
    print(
        f"first import {first_import_s:.1f} s, RSS {rss[0][1] / 1024:.0f} MB; soaking {args.minutes} min "
        f"with {args.tables} tables",
        flush=True,
    )
    reader = Reader(wh, args.poll)
    reader.start()
    start = time.monotonic()
    end = start + args.minutes * 60
    schedule = [(start + rng.uniform(0, args.every[1]), k) for k in range(args.tables)]
    heapq.heapify(schedule)
    written = halves = 0
    sampling = threading.Event()

    def sample_rss() -> None:  # on a clock of its own: the writer may run late at high rates
        while not sampling.wait(args.rss_every):
            rss.append((time.monotonic() - start, rss_kb(proc.pid)))

    sampler = threading.Thread(target=sample_rss, daemon=True)
    sampler.start()
    try:
        while True:
            at, k = heapq.heappop(schedule)
            now = time.monotonic()
            if at >= end:
                break
            while now < at:
                time.sleep(min(at - now, 1.0))
                now = time.monotonic()
            assert proc.poll() is None, (root / "watch.log").read_text()[-2000:]
            path, text, hid = tables[k].next_hand()
            if rng.random() < args.halves:
                lines = text.splitlines(keepends=True)
                cut = rng.randint(1, max(1, len(lines) - 4))
                with open(path, "a", encoding="utf-8", newline="") as fh:
                    fh.write("".join(lines[:cut]))
                time.sleep(rng.uniform(0.3, 1.5))
                text = "".join(lines[cut:])
                halves += 1
            with open(path, "a", encoding="utf-8", newline="") as fh:
                fh.write(text)
            reader.expect(hid, time.monotonic())
            written += 1
            heapq.heappush(schedule, (at + rng.uniform(*args.every), k))
        deadline = time.monotonic() + 30
        while reader.waiting and time.monotonic() < deadline:
            time.sleep(0.2)
        sampling.set()
        sampler.join()
        rss.append((time.monotonic() - start, rss_kb(proc.pid)))
    finally:
        sampling.set()
        reader.stop.set()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
        log.close()
    lat = list(reader.latency.values())
    half = [kb for t, kb in rss if t >= (rss[-1][0] / 2)]
    times = [t for t, _ in rss if t >= (rss[-1][0] / 2)]
    slope = statistics.linear_regression(times, half).slope * 3600 / 1024 if len(half) > 2 else float("nan")
    con = duckdb.connect()
    create_views(con, wh)
    stored = con.execute("SELECT count(*), count(DISTINCT hand_id) FROM hands").fetchone()
    rejects = con.execute("SELECT count(*) FROM rejects").fetchone()
    manifest = json.loads((wh / "manifest.json").read_text())
    files = {name: len(rels) for name, rels in manifest["tables"].items()}
    q = reader.query_ms
    first_q = [ms for _, ms in q[: max(1, len(q) // 10)]]
    last_q = [ms for _, ms in q[-max(1, len(q) // 10) :]]
    figures = {
        "minutes": round((rss[-1][0]) / 60, 1),
        "tables": args.tables,
        "table_files_opened": sum(t.files for t in tables),
        "hands_written": written,
        "hands_per_hour": round(written / (rss[-1][0] / 3600)),
        "written_in_two_halves": halves,
        "history_hands": args.history,
        "first_import_s": round(first_import_s, 1),
        "latency_s": {
            "n": len(lat),
            "p50": round(percentile(lat, 50), 3),
            "p90": round(percentile(lat, 90), 3),
            "p99": round(percentile(lat, 99), 3),
            "max": round(max(lat), 3) if lat else None,
        },
        "not_seen": len(reader.waiting),
        "rss_mb": {
            "start": round(rss[0][1] / 1024, 1),
            "end": round(rss[-1][1] / 1024, 1),
            "min": round(min(kb for _, kb in rss) / 1024, 1),
            "max": round(max(kb for _, kb in rss) / 1024, 1),
            "slope_second_half_mb_per_hour": round(slope, 2),
            # growth a hand (the known-hands index grows with every hand stored, by design)
            "slope_kb_per_hand": round(slope * 1024 / (written / (rss[-1][0] / 3600)), 2)
            if written
            else None,
        },
        "reader_query_ms": {
            "first_tenth_p50": round(statistics.median(first_q), 1) if first_q else None,
            "last_tenth_p50": round(statistics.median(last_q), 1) if last_q else None,
            "errors": reader.errors[:5],
        },
        "stored": {
            "expected": args.history + initial + written,
            "hands": stored[0] if stored else None,
            "distinct": stored[1] if stored else None,
            "rejects": rejects[0] if rejects else None,
        },
        "table_files_at_end": files,
        "manifest_kb": round((wh / "manifest.json").stat().st_size / 1024, 1),
        "exit_code": code,
        "rss_samples": [(round(t, 1), kb) for t, kb in rss],
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print("watch log (last lines):\n" + "\n".join((root / "watch.log").read_text().splitlines()[-5:]))
    if args.keep:
        print(f"kept {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
