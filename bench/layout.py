"""The reports' cost on one warehouse written in several Parquet layouts (issue #18).

Why: every report reads the player-hand rows; how the files are written (compression, row-group
size, the order of the rows in a file) is the one cost all of them share. This script rewrites a
copy of a warehouse in each layout asked for (the same rows and schema; only the writer's options
and, with ``sort``, the order of the rows within each file change), then runs each report case
(``bench/reports.py``'s) as the ``hhparse report`` command on every copy in turn, alternating
who goes first, and prints the medians of CPU and wall seconds per case and layout, the copies'
sizes on disk, and whether every case's output is byte-identical to the first layout's.

A layout is ``NAME`` or ``NAME:key=value,key=value``; keys: ``compression`` (none, snappy, lz4,
zstd, gzip), ``level`` (the codec's), ``row_group`` (rows), ``sort`` (``player``: each
``hand_players`` file ordered by player and ``start_utc``, the columns the reports filter on),
``dictionary`` (on/off), ``page_index`` (on: the column and offset indexes that let a reader
skip pages within a row group). ``asis`` is the source warehouse itself, unrewritten::

    .venv/bin/python bench/layout.py --source /work/agg18bench/wh10m --scratch /tmp/layouts \\
        --layout asis zstd1:compression=zstd,level=1 lz4:compression=lz4 \\
        --tables hands hand_players --repeat 5 --outputs table80 \\
        --hhparse /work/benchb/.venv/bin/hhparse

``--tables`` rewrites only those tables (the others are symbolic links to the source's files:
enough for timing, and quicker to build); ``--keep`` leaves the copies for another run (they
are reused when their ``layout.json`` matches). ``--settings`` times the report SQL in one
process with DuckDB session settings set first (``preserve_insertion_order=false``, ...)
instead of the command. The source is only ever read.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from reports import OUTPUTS, _cli_args, _label, _timed, bench_cases  # noqa: E402

from hhparse.reports import warehouse  # noqa: E402

SORT_KEYS: dict[str, dict[str, list[tuple[str, Literal["ascending", "descending"]]]]] = {
    "player": {"hand_players": [("player", "ascending"), ("start_utc", "ascending")]},
    "player_rg": {"hand_players": [("player", "ascending"), ("start_utc", "ascending")]},
}
"""What ``sort=`` orders each file of a table by (a stable sort: ties keep their order); ``player``
sorts the whole file, ``player_rg`` each row group's rows only (the row groups keep the same
rows, so their ``start_utc`` ranges, which ``--since`` prunes by, stay as they were)."""


def sorted_rows(data: pa.Table, sort: str, table: str, row_group: int) -> pa.Table:
    keys = SORT_KEYS.get(sort, {}).get(table)
    if keys is None:
        return data
    if sort == "player":
        return data.take(pc.sort_indices(data, sort_keys=keys))
    parts = []
    for start in range(0, data.num_rows, row_group):
        chunk = data.slice(start, row_group)
        parts.append(chunk.take(pc.sort_indices(chunk, sort_keys=keys)))
    return pa.concat_tables(parts)


def parse_layout(spec: str) -> tuple[str, dict[str, Any]]:
    name, _, rest = spec.partition(":")
    opts: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key not in ("compression", "level", "row_group", "sort", "dictionary", "page_index"):
            raise SystemExit(f"unknown layout key {key!r} in {spec!r}")
        opts[key] = value
    return name, opts


def write_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``pq.write_table`` options of a layout (the product's own where it says nothing)."""
    from hhparse.tables import store

    comp = opts.get("compression", store.COMPRESSION)
    out: dict[str, Any] = {
        "compression": None if comp == "none" else comp,
        "row_group_size": int(opts.get("row_group", 256 * 1024)),
        "use_dictionary": opts.get("dictionary", "on") == "on",
    }
    if opts.get("page_index") == "on":
        out["write_page_index"] = True
    if "level" in opts:
        out["compression_level"] = int(opts["level"])
    return out


def build(source: Path, targets: list[tuple[Path, dict[str, Any]]], tables: list[str] | None) -> float:
    """Rewrite ``source`` into each ``(dest, opts)`` of ``targets`` (a copy in the layout
    ``opts``), reading each source file once for all of them; seconds taken. A copy whose
    ``layout.json`` says it is already this layout is kept."""
    todo = []
    for dest, opts in targets:
        stamp = {"source": str(source), "opts": opts, "tables": tables}
        if (dest / "layout.json").exists() and json.loads((dest / "layout.json").read_text()) == stamp:
            continue
        if dest.exists():
            shutil.rmtree(dest)
        todo.append((dest, opts, stamp))
    if not todo:
        return 0.0
    t = time.perf_counter()
    manifest = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
    for dest, _, _ in todo:
        dest.mkdir(parents=True)
        for name in ("hhparse-warehouse.json", "manifest.json"):
            shutil.copy2(source / name, dest / name)
        (dest / ".lock").touch()
        (dest / ".hhparse" / "staging").mkdir(parents=True)
    for table, rels in manifest["tables"].items():
        for dest, _, _ in todo:
            (dest / table).mkdir()
            (dest / ".hhparse" / "files" / table).mkdir(parents=True)
        for rel in rels:
            src = source / ".hhparse" / "files" / rel
            if tables is not None and table not in tables:
                for dest, _, _ in todo:
                    os.symlink(src, dest / ".hhparse" / "files" / rel)
                    os.symlink(src, dest / rel)
                continue
            data = pq.read_table(src)
            for dest, opts, _ in todo:
                out = dest / ".hhparse" / "files" / rel
                kw = write_options(opts)
                rows = sorted_rows(data, opts.get("sort", ""), table, kw["row_group_size"])
                pq.write_table(rows, out, **kw)
                if not data.schema.equals(pq.read_schema(out), check_metadata=True):
                    raise SystemExit(f"{out}: schema changed")
                os.link(out, dest / rel)
    for dest, _, stamp in todo:
        (dest / "layout.json").write_text(json.dumps(stamp))
    return time.perf_counter() - t


def disk_bytes(root: Path) -> dict[str, int]:
    """Bytes of each table's files the manifest lists (a symbolic link counts its target)."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    return {
        table: sum((root / ".hhparse" / "files" / rel).stat().st_size for rel in rels)
        for table, rels in manifest["tables"].items()
    }


SETTINGS_RUNNER = """
import json, sys, time
sys.path.insert(0, {bench!r}); sys.path.insert(0, {root!r})
from reports import _run
from hhparse.reports import warehouse
con = warehouse({wh!r})
for s in {settings!r}:
    con.execute("SET " + s)
t = time.process_time(); w = time.perf_counter()
df = _run(con, {name!r}, json.loads({kw!r}))
print(json.dumps({{"cpu_s": time.process_time() - t, "wall_s": time.perf_counter() - w}}))
df.to_csv({out!r}, index=False)
"""


def _settings_run(
    python: str, root: Path, settings: list[str], name: str, kw: dict[str, Any], out: Path
) -> dict[str, float]:
    code = SETTINGS_RUNNER.format(
        bench=str(ROOT / "bench"),
        root=str(ROOT),
        wh=str(root),
        settings=settings,
        name=name,
        kw=json.dumps(kw),
        out=str(out),
    )
    res = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)
    timing: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    return timing


_NUMBER = re.compile(rb"-?[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")


def float_ties_only(a: bytes, b: bytes) -> bool:
    """Whether two outputs differ only in numbers, each by one unit of its last printed decimal
    at most: a float sum's rounding tie (DuckDB adds floats in the order its threads meet the
    rows, so two runs of the same SQL on the same files may differ so; docs/performance.md)."""
    if _NUMBER.sub(b"#", a) != _NUMBER.sub(b"#", b):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True):
        if x != y:
            places = max(len(n.split(b".")[1]) if b"." in n else 0 for n in (x, y))
            if (
                not places
                or abs(float(x.replace(b",", b"")) - float(y.replace(b",", b""))) > 1.01 * 10.0**-places
            ):
                return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, help="the warehouse to copy (only read)")
    ap.add_argument("--scratch", type=Path, required=True, help="where the copies are written")
    ap.add_argument("--layout", nargs="+", default=["asis"], help="NAME[:key=value,...] (see above)")
    ap.add_argument("--tables", nargs="+", help="rewrite only these tables (default: all)")
    ap.add_argument("--hhparse", type=Path, default=Path(sys.executable).with_name("hhparse"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--outputs", nargs="+", choices=OUTPUTS, default=["table80"])
    ap.add_argument("--case", nargs="+", metavar="LABEL", help="only these cases (bench/reports.py labels)")
    ap.add_argument("--only", nargs="+", metavar="REPORT", help="only these reports")
    ap.add_argument(
        "--settings",
        nargs="+",
        metavar="NAME=VALUE",
        help="time the report SQL in one process per run, on the first layout, without and with "
        "these DuckDB settings (instead of layouts against each other)",
    )
    ap.add_argument("--build-only", action="store_true", help="build the copies (and --keep them), no timing")
    ap.add_argument("--keep", action="store_true", help="leave the copies in --scratch")
    ap.add_argument("--json", type=Path, help="write the medians here")
    args = ap.parse_args()

    layouts = [parse_layout(s) for s in args.layout]
    roots = [args.source if name == "asis" else args.scratch / name for name, _ in layouts]
    targets = [(root, opts) for (name, opts), root in zip(layouts, roots, strict=True) if name != "asis"]
    took = build(args.source, targets, args.tables)
    print(f"built {len(targets)} copies in {took:.0f} s", file=sys.stderr)
    if args.build_only:
        return
    for (name, _), root in zip(layouts, roots, strict=True):
        sizes = disk_bytes(root)
        shown = {t: b for t, b in sizes.items() if args.tables is None or t in args.tables}
        print(
            f"size {name:12s} {sum(shown.values()) / 1e9:6.3f} GB  "
            + "  ".join(f"{t} {b / 1e6:.0f} MB" for t, b in shown.items() if b),
            flush=True,
        )

    con = warehouse(roots[0])
    hands = int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    cases = bench_cases(con, hands)
    con.close()
    if args.only:
        cases = [(n, kw) for n, kw in cases if n in args.only]
    if args.case:
        cases = [(n, kw) for n, kw in cases if _label(n, kw) in args.case]

    scratch = args.scratch / "outputs"
    scratch.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, dict[str, float]]] = {}
    differ = ties = 0
    sides = (
        [(name, root, []) for (name, _), root in zip(layouts, roots, strict=True)]
        if not args.settings
        else [(layouts[0][0], roots[0], []), (f"{layouts[0][0]}+settings", roots[0], args.settings)]
    )
    python = str(args.hhparse.with_name("python"))
    for case_name, kw in cases:
        variants = [("html", True)] if kw.get("html") else [(o, False) for o in args.outputs]
        if args.settings:
            variants = [("csv", False)]
        for output, page in variants:
            runs: dict[int, list[dict[str, float]]] = {k: [] for k in range(len(sides))}
            for r in range(args.repeat):
                order = list(range(len(sides))) if r % 2 == 0 else list(range(len(sides)))[::-1]
                for k in order:
                    _, root, settings = sides[k]
                    out = scratch / f"out{k}"
                    if args.settings:
                        runs[k].append(_settings_run(python, root, settings, case_name, kw, out))
                        continue
                    env = dict(os.environ)
                    env.pop("NO_COLOR", None)
                    cmd = [str(args.hhparse), "report", *_cli_args(case_name, kw), "--warehouse", str(root)]
                    if output.startswith("table"):
                        env["COLUMNS"] = output.removeprefix("table")
                    elif output in ("csv", "json"):
                        cmd += ["--format", output]
                    if page:
                        cmd += ["--format", "html", "--out", str(scratch / f"page{k}.html")]
                        runs[k].append(_timed(cmd, env, scratch / f"stdout{k}"))
                        shutil.copy(scratch / f"page{k}.html", out)
                    else:
                        runs[k].append(_timed(cmd, env, out))
                base = (scratch / "out0").read_bytes()
                for k in range(1, len(sides)):
                    if (scratch / f"out{k}").read_bytes() != base:
                        differ += 1
                        print(
                            f"  OUTPUT DIFFERS: {_label(case_name, kw)} [{output}] {sides[k][0]}", flush=True
                        )
            label = f"{_label(case_name, kw)} [{output}]"
            results[label] = {}
            line = []
            for k, (name, _, _) in enumerate(sides):
                med = {key: statistics.median(run[key] for run in runs[k]) for key in ("cpu_s", "wall_s")}
                results[label][name] = med
                line.append(f"{name} {med['cpu_s']:5.2f}/{med['wall_s']:5.2f}")
            print(f"{label:58s} CPU/wall s  " + "  ".join(line), flush=True)
    print(
        f"outputs differing from {sides[0][0]}'s: {differ}; differing at float-sum rounding ties only: {ties}",
        flush=True,
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if not args.keep:
        for root in roots:
            if root != args.source:
                shutil.rmtree(root)
        shutil.rmtree(scratch)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
