"""Two warehouses' tables compared row for row and in order: an import before and after a change.

Why: a speed change of anything between the parse and the Parquet files (the referee, the table
builder, the importer's workers, ``--jobs``) must store exactly what was stored before. Import the
same inputs into two warehouses (two builds, or ``--jobs 1`` and ``--jobs 2``), then compare: each
table's files are read in name order (the batches in the order they were published), and the
schemas and every row must be equal. The ``imports`` table (the run's own times and counts) is
left out. The derived tables ``hhparse import`` builds after its commit (player buckets and the
like: :data:`DERIVED`) name their batch file in ``source_file``, a tag drawn at random, and come in
the order of those names: they are compared with ``source_file`` left out, as multisets of rows
(two imports by the same build differ otherwise). Their rows are per batch: compare two imports
that published the same batches (the same ``--jobs``).

Usage: python bench/warehouse_compare.py WAREHOUSE_A WAREHOUSE_B
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SKIP = ("imports",)
DERIVED = ("door_buckets", "hero_slots", "player_buckets", "shown_lows")


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
        if name in DERIVED and "source_file" in x.column_names and "source_file" in y.column_names:
            x, y = x.drop_columns(["source_file"]), y.drop_columns(["source_file"])
            same = x.schema.equals(y.schema) and sorted(map(repr, x.to_pylist())) == sorted(
                map(repr, y.to_pylist())
            )
            how = "identical (source_file aside, in any order)" if same else "DIFFERENT"
        else:
            same = x.schema.equals(y.schema) and x.to_pylist() == y.to_pylist()
            how = "identical" if same else "DIFFERENT"
        print(f"{name:<22} {x.num_rows:>9} / {y.num_rows:>9} rows  {how}")
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(compare(Path(sys.argv[1]), Path(sys.argv[2])))
