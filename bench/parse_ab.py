"""Parse CPU per hand of two (or more) builds of hhparse, interleaved, on the import's inputs.

Why: ``bench/parse.py`` times the parser on corpus hands repeated as they are, which flatters it
(the same players, the same lines again); the import's realistic mix (``bench/import.py --keep
DIR``: ``DIR/real`` the corpus hands renamed, ``DIR/synth`` synthetic hands at 2-10 seats) is what
issue #14's targets are stated on. This times ``parse_block`` alone over those blocks (cut by the
splitter beforehand, untimed), with the collector set as the import's workers set it
(``hhparse.import_worker.quiet_gc``), in a fresh process per build and round: µs of CPU a hand,
medians over the rounds, the builds interleaved so that a loaded machine's drift hits them alike.

A build is a folder put first on ``sys.path`` (a copy of ``hhparse/`` and ``grammars/`` with its
compiled modules, e.g. the main branch's) or ``-`` for the installed one.

Usage: python bench/parse_ab.py DIR [--build before=/tmp/main-copy --build after=-]
       [--hands 8000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import gc, json, sys, time
from pathlib import Path
from hhparse import parsing
from hhparse.splitter import split_path
folder, hands = Path(sys.argv[1]), int(sys.argv[2])
out = {"compiled": not parsing.__file__.endswith(".py")}
for part in ("real", "synth"):
    files = sorted((folder / part).glob("*.txt"))
    blocks = [b for f in files for b in split_path(f)][:hands]
    if not blocks:
        continue
    parsing.parse_block(blocks[0])
    gc.collect(); gc.freeze(); gc.set_threshold(50_000, 50, 100)
    c = time.process_time()
    for b in blocks:
        parsing.parse_block(b)
    out[part] = (time.process_time() - c) / len(blocks) * 1e6
    gc.unfreeze()
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", type=Path, help="bench/import.py --keep DIR (with real/ and synth/)")
    ap.add_argument("--build", action="append", default=[], help="NAME=FOLDER or NAME=- (installed)")
    ap.add_argument("--hands", type=int, default=8000, help="hands of each part (real, synth)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build] or [("installed", "-")]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in builds}
    for _ in range(args.rounds):
        for name, folder in builds:
            env_path = [] if folder == "-" else [folder]
            cmd = [sys.executable, "-c", f"import sys; sys.path[:0] = {env_path!r}\n" + CHILD]
            done = subprocess.run(
                [*cmd, str(args.input), str(args.hands)], check=True, capture_output=True, text=True
            )
            runs[name].append(json.loads(done.stdout))
    print_medians(runs, [name for name, _ in builds], ("real", "synth"), width=6, digits=0)


def print_medians(
    runs: dict[str, list[dict[str, float]]], names: list[str], parts: tuple[str, ...], width: int, digits: int
) -> None:
    """Each part's median µs of CPU a hand per build, its rounds, and its ratio to the first build
    (also used by ``bench/referee_ab.py``)."""
    first = names[0]
    for part in parts:
        base = statistics.median(r[part] for r in runs[first]) if part in runs[first][0] else None
        for name in names:
            if part not in runs[name][0]:
                continue
            values = [r[part] for r in runs[name]]
            med = statistics.median(values)
            ratio = f"  {med / base:.2f}x of {first}" if base and name != first else ""
            spread = ", ".join(f"{v:.{digits}f}" for v in values)
            compiled = "compiled" if runs[name][0]["compiled"] else "pure"
            print(
                f"{part:<{width}} {name:<10} ({compiled}) median {med:6.1f} µs CPU a hand  [{spread}]{ratio}"
            )


if __name__ == "__main__":
    main()
