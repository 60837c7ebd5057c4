"""Build a large warehouse from a smaller, really imported one: its Parquet rows replicated with
fresh hand ids (issue #18: the reports at 10 M hands, when importing 10 M hands would take hours
on the benchmark machine).

Copy ``k`` (``k = 0 .. copies - 1``) of every table row gets the hand id ``k`` written before the
original id (copy 0 keeps it; PokerStars ids are decimal, so ``7`` + ``2300012345`` is another
valid id), its tournament id likewise, and its times moved ``k`` spans later (the span being the
source's first-to-last hand time plus a day), so the copy reads as later play of the same
players: reports over dates, sessions and graphs see ``copies`` times the history, not the same
days stacked. Every other column is the imported one, so every report's work per hand is real.
Each copy is published as one batch through :class:`hhparse.tables.store.Warehouse` (the manifest
protocol), and ``--compact`` merges the files as ``hhparse compact`` would.

Usage: python bench/replicate.py SOURCE_WAREHOUSE TARGET_WAREHOUSE --copies 40 [--compact]
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hhparse.tables.schema import TABLES  # noqa: E402
from hhparse.tables.store import Warehouse  # noqa: E402

PREFIXED = ("hand_id", "tournament_id")
SHIFTED = ("start_utc", "local_time")


def _copy(table: pa.Table, k: int, shift: timedelta) -> pa.Table:
    if k == 0:
        return table
    for name in table.column_names:
        i = table.column_names.index(name)
        col = table[name]
        if name in PREFIXED:
            col = pc.binary_join_element_wise(pa.scalar(str(k)), col, "")
        elif name in SHIFTED:
            col = pc.add(col, pa.scalar(shift, pa.duration("us")))
        else:
            continue
        table = table.set_column(i, table.schema.field(i), col.cast(table.schema.field(i).type))
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("target", type=Path)
    ap.add_argument("--copies", type=int, required=True)
    ap.add_argument(
        "--compact", action="store_true", help="merge the batch files at the end (hhparse compact)"
    )
    args = ap.parse_args()
    t0 = time.perf_counter()
    with Warehouse(args.source) as src:
        tables = {name: src.read_table(name) for name in TABLES if name != "imports"}
    times = tables["hands"]["start_utc"]
    span = (pc.max(times).as_py() - pc.min(times).as_py()) + timedelta(days=1)
    hands = tables["hands"].num_rows
    with Warehouse(args.target) as wh:
        start = wh.read_table("hands", ["hand_id"]).num_rows // max(hands, 1)
        for k in range(start, args.copies):
            wh.publish({name: _copy(t, k, span * k) for name, t in tables.items()}, {})
            print(f"  copy {k + 1}/{args.copies}: {(k + 1) * hands:,} hands", file=sys.stderr, flush=True)
        if args.compact:
            t = time.perf_counter()
            wh.compact()
            print(f"  compacted in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print(f"{args.copies * hands:,} hands in {args.target} ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
