"""Splitter throughput: files → hand blocks, the first stage of every import.

Why: splitting runs in the import's main process, ahead of the workers, so its cost per hand
bounds the whole import however many cores parse. The chunked fast path exists for this; any
change to how files are decoded or cut must keep it fast. Reports the median of ``--runs`` passes
over the input (each pass reads every file with :func:`hhparse.splitter.split_file`), in CPU
seconds of this process (on a shared machine, wall time mostly measures the neighbours), and the
fastest pass.

Input: ``--input DIR`` (e.g. the folder ``bench/import.py --keep DIR`` left), else ``hhparse
synth --hands N`` into a temporary folder.

Usage: python bench/split.py [--input DIR | --hands 100000] [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def one_pass(files: list[Path]) -> tuple[float, int, int]:
    """Seconds to split every file, blocks produced, bytes read."""
    from hhparse.splitter import split_file

    blocks = 0
    nbytes = 0
    t = time.process_time()
    for f in files:
        for _ in split_file(f):
            blocks += 1
        nbytes += f.stat().st_size
    return time.process_time() - t, blocks, nbytes


def main() -> None:
    """Split the input ``--runs`` times and print the median."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", type=Path, help="folder of hand histories (default: synthesise)")
    ap.add_argument("--hands", type=int, default=100_000, help="hands to synthesise without --input")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    work: Path | None = None
    src = args.input
    if src is None:
        work = Path(tempfile.mkdtemp(prefix="hhparse-split-"))
        src = work / "input"
        hhparse = Path(sys.executable).parent / "hhparse"
        cmd = [str(hhparse), "synth", "--hands", str(args.hands), "--out", str(src)]
        subprocess.run(cmd, check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    try:
        files = sorted(p for p in src.rglob("*.txt") if p.is_file())
        one_pass(files)  # warm the page cache
        runs = [one_pass(files) for _ in range(args.runs)]
        seconds = statistics.median(r[0] for r in runs)
        blocks, nbytes = runs[0][1], runs[0][2]
        print(
            f"{blocks:,} blocks, {nbytes / 1e6:.1f} MB in {len(files)} files: median {seconds:.3f} s "
            f"of {args.runs} = {blocks / seconds:,.0f} blocks/s, {seconds / blocks * 1e6:.2f} µs a block, "
            f"{nbytes / seconds / 1e6:.0f} MB/s; fastest {min(r[0] for r in runs) / blocks * 1e6:.2f} µs a "
            f"block (all: {', '.join(f'{r[0]:.3f}' for r in runs)} CPU s)"
        )
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
