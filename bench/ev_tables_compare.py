"""Two warehouses' tables compared as sets of rows: the EV stage's before/after proof on disk.

Why: ``bench/warehouse_compare.py`` compares tables row for row in file order, every column
included; two imports of the same inputs by the same build already differ there in the derived
tables (``door_buckets``, ``hero_slots``, ``player_buckets``, ``shown_lows``): their
``source_file`` names a batch file whose name changes from import to import, and some come out
in another row order. What a change of the EV stage must keep is every row: each table is read
whole, ``source_file`` left out, sorted by every column, and compared (schemas too). The
``imports`` table (the run's own times and counts) is left out.

Usage: python bench/ev_tables_compare.py WAREHOUSE_A WAREHOUSE_B
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SKIP = ("imports",)
UNSTABLE = ("source_file",)


def _table(root: Path, name: str) -> tuple[pa.Schema, list[str]] | None:
    """The table's schema (``source_file`` left out) and its rows, each as its ``repr``, sorted
    (list columns cannot be sorted by Arrow: the rows are compared as Python values)."""
    files = sorted((root / name).glob("*.parquet"))
    if not files:
        return None
    table = pa.concat_tables([pq.read_table(f) for f in files])
    table = table.drop_columns([c for c in UNSTABLE if c in table.column_names])
    return table.schema, sorted(repr(row) for row in table.to_pylist())


def compare(a: Path, b: Path) -> int:
    names = sorted(
        {p.name for root in (a, b) for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")}
    )
    bad = 0
    for name in names:
        if name in SKIP:
            continue
        ta, tb = _table(a, name), _table(b, name)
        if ta is None or tb is None:
            same = ta is None and tb is None
            rows = "missing"
        else:
            same = ta[0].equals(tb[0]) and ta[1] == tb[1]
            rows = f"{len(ta[1]):>9} / {len(tb[1]):>9} rows"
        bad += not same
        print(f"{name:<24} {rows}  {'identical' if same else 'DIFFERENT'}")
    print("every table identical (as sets of rows)" if not bad else f"{bad} table(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(compare(Path(sys.argv[1]), Path(sys.argv[2])))
