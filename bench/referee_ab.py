"""Referee and table-building CPU per hand of two (or more) builds, interleaved, on the import's inputs.

Why: ``bench/referee.py`` times the referee on corpus hands repeated as they are; issue #14's
targets are stated on the import's realistic mix (``bench/import.py --keep DIR``: ``DIR/real`` the
corpus hands renamed, ``DIR/synth`` synthetic hands), and a worker's time after the parse is not
only the referee: the rows of every table (:meth:`BatchBuilder.add_result`, the content hash
included) and the Arrow tables of each task (:meth:`BatchBuilder.finish`) count too. This parses
the blocks once (untimed), then times, with the collector set as the import's workers set it,
three stages apart: ``referee`` (replay, settlement, facts), ``rows`` (``add_result``) and
``finish`` (one ``finish`` per task of ``--task`` hands, as the import's tasks). µs of CPU a hand,
medians over the rounds, each build in a fresh process per round, builds interleaved so that a
loaded machine's drift hits them alike. EV is left out (its own stage, ``bench/ev.py``).

A build is the Python of an environment that has that build installed (``NAME=/path/to/python``),
e.g. a venv of the main branch compiled beside this worktree's.

Usage: python bench/referee_ab.py DIR --build before=/x/.venv/bin/python --build after=.venv/bin/python
       [--hands 8000] [--rounds 5] [--task 500]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from parse_ab import print_medians  # (bench/ is the script's folder: first on sys.path)

CHILD = """
import gc, json, sys, time
from pathlib import Path
from hhparse import parsing
from hhparse.engine import referee
from hhparse.model import Hand
from hhparse.splitter import split_path
from hhparse.tables.build import BatchBuilder
folder, hands, task = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
import hhparse.engine.replay as replay
out = {"compiled": not replay.__file__.endswith(".py")}
for part in ("real", "synth"):
    files = sorted((folder / part).glob("*.txt"))
    blocks = [b for f in files for b in split_path(f)][:hands]
    parsed = [(parsing.parse_block(b), b.text) for b in blocks]
    parsed = [(h, t) for h, t in parsed if isinstance(h, Hand)]
    if not parsed:
        continue
    b = BatchBuilder(); b.add_result(referee(parsed[0][0]), parsed[0][1]); b.finish()
    gc.collect(); gc.freeze(); gc.set_threshold(50_000, 50, 100)
    c = time.process_time()
    results = [referee(h) for h, _ in parsed]
    out[part + " referee"] = (time.process_time() - c) / len(parsed) * 1e6
    rows = fin = 0.0
    for i in range(0, len(parsed), task):
        b = BatchBuilder()
        c = time.process_time()
        for r, (_, t) in zip(results[i : i + task], parsed[i : i + task]):
            b.add_result(r, t)
        c2 = time.process_time()
        b.finish()
        c3 = time.process_time()
        rows += c2 - c
        fin += c3 - c2
    out[part + " rows"] = rows / len(parsed) * 1e6
    out[part + " finish"] = fin / len(parsed) * 1e6
    out[part + " total"] = out[part + " referee"] + out[part + " rows"] + out[part + " finish"]
    del results
    gc.unfreeze()
print(json.dumps(out))
"""

STAGES = [f"{p} {s}" for p in ("real", "synth") for s in ("referee", "rows", "finish", "total")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", type=Path, help="bench/import.py --keep DIR (with real/ and synth/)")
    ap.add_argument("--build", action="append", default=[], help="NAME=PYTHON of that build's env")
    ap.add_argument("--hands", type=int, default=8000, help="hands of each part (real, synth)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--task", type=int, default=500, help="hands a task (one finish each)")
    args = ap.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build] or [("installed", sys.executable)]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in builds}
    for _ in range(args.rounds):
        for name, python in builds:
            done = subprocess.run(
                [python, "-c", CHILD, str(args.input), str(args.hands), str(args.task)],
                check=True,
                capture_output=True,
                text=True,
            )
            runs[name].append(json.loads(done.stdout))
    print_medians(runs, [name for name, _ in builds], tuple(STAGES), width=14, digits=1)


if __name__ == "__main__":
    main()
