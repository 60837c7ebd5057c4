"""A task's CPU a hand, stage by stage, of two (or more) builds, interleaved, on the import's mix.

Why: ``bench/import.py`` times the whole import (start-up, the main process's merging and
writing included) and ``bench/parse_ab.py`` / ``bench/referee_ab.py`` / ``bench/ev_golden.py
time`` each time one stage over a whole input at once; what issue #14 asks of the code inside a
task is the CPU of :func:`hhparse.import_worker.process_blocks` as the import runs it: tasks of
``--task`` blocks, each taken ``PARSE_AHEAD`` blocks at a time through the parse, the referee,
the EV stage and the rows, then the task's tables (``finish``). This runs that same loop with a
CPU clock read between the stages, every result freed inside the timing, the collector set as
the import's workers set it, and prints µs of CPU a hand per stage: each build in a fresh
process per round, builds interleaved so that a loaded machine's drift hits them alike, medians.

Only what both builds have is called (``parse_block_hashable``, the referee, ``safe_hand_ev``,
``BatchBuilder``), so a build before a change of :func:`process_blocks` runs the same loop.

Usage: python bench/task_ab.py DIR --build before=/x/.venv/bin/python --build after=.venv/bin/python
       [--rounds 5] [--task 500] [--ev on|off|both] [--part mix|real|synth]
(``DIR``: ``bench/import.py --keep DIR``'s ``input-mix-N`` folder, with ``real/`` and ``synth/``.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import gc, json, sys, time
from pathlib import Path
from hhparse.engine import referee
from hhparse.errors import ParseError
from hhparse.facts import RefereeResult
from hhparse.import_worker import PARSE_AHEAD, quiet_gc
from hhparse.model import Hand
from hhparse.parsing import parse_block_hashable, _parser
from hhparse.splitter import split_path
from hhparse.tables.build import BatchBuilder, normalised_hash
folder, task, ev, part = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "on", sys.argv[4]
import hhparse.engine.replay as replay
parts = ("real", "synth") if part == "mix" else (part,)
files = sorted(f for p in parts for f in (folder / p).glob("*.txt"))
blocks = [b for f in files for b in split_path(f)]
hand_ev = None
if ev:
    from hhparse.ev import safe_hand_ev as hand_ev
_parser()
b = BatchBuilder(); b.finish()
quiet_gc()
clock = time.process_time
t = {"parse": 0.0, "referee": 0.0, "ev": 0.0, "rows": 0.0, "finish": 0.0}
start = clock()
for i in range(0, len(blocks), task):
    tb = blocks[i : i + task]
    builder = BatchBuilder()
    for j in range(0, len(tb), PARSE_AHEAD):
        chunk = tb[j : j + PARSE_AHEAD]
        c0 = clock()
        parsed = [parse_block_hashable(x) for x in chunk]
        c1 = clock()
        outs = [referee(h) if isinstance(h, Hand) else h for h, _ in parsed]
        c2 = clock()
        evs = [hand_ev(o) if hand_ev is not None and isinstance(o, RefereeResult) else None for o in outs]
        c3 = clock()
        for x, (h, norm), o, e in zip(chunk, parsed, outs, evs):
            if isinstance(o, ParseError):
                builder.add_parse_error(o, x.source, x.line, x.text)
            else:
                builder.add_result(o, x.text, normalised_hash(norm) if norm else None, ev=e)
        del parsed, outs, evs
        c4 = clock()
        t["parse"] += c1 - c0; t["referee"] += c2 - c1; t["ev"] += c3 - c2; t["rows"] += c4 - c3
    c5 = clock()
    tables = builder.finish()
    del tables, builder
    t["finish"] += clock() - c5
total = clock() - start
out = {k: v / len(blocks) * 1e6 for k, v in t.items()}
out["total"] = total / len(blocks) * 1e6
out["compiled"] = not replay.__file__.endswith(".py")
out["hands"] = len(blocks)
print(json.dumps(out))
"""

STAGES = ("parse", "referee", "ev", "rows", "finish", "total")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", type=Path, help="bench/import.py --keep DIR's input-mix-N (real/, synth/)")
    ap.add_argument("--build", action="append", default=[], help="NAME=PYTHON of that build's env")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--task", type=int, default=500, help="blocks a task (the import's --task-hands)")
    ap.add_argument("--ev", choices=("on", "off", "both"), default="both")
    ap.add_argument("--part", choices=("mix", "real", "synth"), default="mix")
    args = ap.parse_args()
    builds = dict(b.split("=", 1) for b in args.build) or {"this": sys.executable}
    evs = ("off", "on") if args.ev == "both" else (args.ev,)
    runs: dict[tuple[str, str], list[dict[str, float]]] = {(n, e): [] for n in builds for e in evs}
    for r in range(args.rounds):
        for (name, ev), got in runs.items():
            # -P: the child imports its own environment's hhparse, never one in the current
            # directory (``python -c`` would put the cwd first: from a checkout, every build
            # would run that checkout's code)
            cmd = [builds[name], "-P", "-c", CHILD, str(args.input.resolve()), str(args.task), ev, args.part]
            out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            got.append(out)
            line = ", ".join(f"{s} {out[s]:.1f}" for s in STAGES)
            print(f"round {r + 1}, {name}, EV {ev}: {line} µs/hand (compiled {out['compiled']})", flush=True)
    print(f"medians of {args.rounds} rounds, µs of CPU a hand ({args.part}, tasks of {args.task}):")
    for (name, ev), got in runs.items():
        print(
            f"  {name:>8}, EV {ev:>3}: "
            + ", ".join(f"{s} {statistics.median(g[s] for g in got):6.1f}" for s in STAGES)
        )
    names = list(builds)
    if len(names) == 2:
        a, b = names
        for ev in evs:
            paired = [y["total"] / x["total"] for x, y in zip(runs[(a, ev)], runs[(b, ev)], strict=True)]
            print(
                f"  {b} / {a}, EV {ev}, total per round: {', '.join(f'{p:.3f}' for p in paired)} "
                f"(median {statistics.median(paired):.3f})"
            )


if __name__ == "__main__":
    main()
