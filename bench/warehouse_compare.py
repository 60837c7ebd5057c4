"""Two warehouses' tables compared row for row and in order: an import before and after a change.

Why: a speed change of anything between the parse and the Parquet files (the referee, the table
builder, the importer's workers, ``--jobs``) must store exactly what was stored before. Import the
same inputs into two warehouses (two builds, or ``--jobs 1`` and ``--jobs 2``), then compare: each
table's files are read in name order (the batches in the order they were published), and the
schemas and every row must be equal. The ``imports`` table (the run's own times and counts) is
left out.

Usage: python bench/warehouse_compare.py WAREHOUSE_A WAREHOUSE_B
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SKIP = ("imports",)


def _table(root: Path, name: str) -> pa.Table | None:
    files = sorted((root / name).glob("*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files]) if files else None


def compare(a: Path, b: Path) -> int:
    names = sorted(
        {p.name for root in (a, b) for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")}
    )
    bad = 0
    for name in names:
        if name in SKIP:
            continue
        x, y = _table(a, name), _table(b, name)
        if x is None or y is None:
            print(f"{name:<22} only in {'B' if x is None else 'A'}")
            bad += 1
            continue
        same = x.schema.equals(y.schema) and x.to_pylist() == y.to_pylist()
        print(f"{name:<22} {x.num_rows:>9} / {y.num_rows:>9} rows  {'identical' if same else 'DIFFERENT'}")
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(compare(Path(sys.argv[1]), Path(sys.argv[2])))
