"""Peak memory of importing a file with one huge line (issue #13, finding 13).

Why: a 100 MB line used to cost 0.9-1.3 GB of memory, was printed whole as the "offending line"
and stored whole in ``rejects``. The splitter now reads such a line through, keeping its first
MiB and its length, and the hand becomes a ``line-too-long`` reject holding an excerpt. This
script imports the same hands twice, in a fresh subprocess each (``--jobs 1``), once as they are
and once with a line of ``--mb`` megabytes (no line end inside) in one hand's chat, and prints
each run's peak RSS (``VmHWM``), time and what was stored.

Usage: python bench/long_line.py [--mb 100] [--hands 2000]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from _warehouse_helpers import install_referee
install_referee()
from hhparse.importer import import_paths
from hhparse.tables.store import Warehouse
t = time.perf_counter()
r = import_paths([sys.argv[1]], sys.argv[2], jobs=1)
seconds = time.perf_counter() - t
with Warehouse(sys.argv[2]) as wh:
    rejects = wh.read_table("rejects").to_pylist()
print(json.dumps({
    "seconds": seconds, "read": r.stats.read, "new": r.stats.new, "rejected": r.stats.rejected,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "reject_codes": [x["code"] for x in rejects],
    "reject_text_chars": max((len(x["raw_text"]) for x in rejects), default=0),
    "reject_message": rejects[0]["message"] if rejects else "",
}))
"""


def write_input(path: Path, hands: int, line_mb: float) -> None:
    """``hands`` crafted hands; with ``line_mb``, the middle one has a chat line that long."""
    sys.path.insert(0, str(REPO / "tests"))
    from _warehouse_helpers import make_hand

    with open(path, "wb") as fh:
        for n in range(1, hands + 1):
            text = make_hand(str(n)).encode()
            if line_mb and n == hands // 2:
                head, _, tail = text.partition(b"christos805 joins")
                fh.write(head + b'christos805 said, "')
                chunk = b"x" * (1 << 20)
                left = int(line_mb * 1e6)
                while left > 0:
                    fh.write(chunk[: min(left, len(chunk))])
                    left -= len(chunk)
                fh.write(b'"\nchristos805 joins' + tail)
            else:
                fh.write(text)
            fh.write(b"\n\n\n")


def run(path: Path, wh: Path) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(wh), str(REPO / "tests")],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    """Import without and with the long line; print both."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=100.0, help="length of the long line, in MB")
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hhparse-longline-"))
    try:
        for label, mb in (("plain", 0.0), (f"{args.mb:g} MB line", args.mb)):
            path = work / f"{label.replace(' ', '-')}.txt"
            t = time.perf_counter()
            write_input(path, args.hands, mb)
            made = time.perf_counter() - t
            r = run(path, work / f"wh-{label.replace(' ', '-')}")
            print(
                f"{label}: {path.stat().st_size / 1e6:,.1f} MB file (written in {made:.1f} s), "
                f"{r['read']:,} hands read, {r['new']:,} new, {r['rejected']:,} rejected "
                f"{r['reject_codes']}, in {r['seconds']:.1f} s; peak RSS {r['peak_rss_mb']:,.0f} MB; "
                f"largest reject text {r['reject_text_chars']:,} characters"
                + (f"; message: {r['reject_message']}" if r["reject_message"] else "")
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
