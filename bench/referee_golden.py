"""The referee's and the table builder's whole output, written down, to prove a speed change
changes none of it.

Why: a speed change of the referee (``hhparse/engine/``, ``hhparse/rules/``, ``hhparse/facts.py``)
or of the table builder (``hhparse/tables/build.py``) must leave every verdict, every fact record
and every table row exactly as it was. The suite checks a sample; this writes down, for a wide
input, everything they say, so that a build before and a build after can be compared line by line:

* the inputs of ``bench/parse_golden.py`` (the corpus with its damaged files, the sample
  histories, ``tests/data``, the histories written into the tests, ``--fuzz`` damaged files) and
  optionally a benchmark input folder (``--mix DIR``, e.g. ``bench/import.py --keep DIR``);
* for every parsed hand: its errors, its warnings and every field of its facts (each record's
  ``repr`` prints every field; the ``Hand`` itself is the parser's and left out);
* for every input, cut in tasks of ``--task`` blocks as the import cuts them: every table
  :meth:`~hhparse.tables.build.BatchBuilder.finish` builds (``_hand_idx`` included), row by row
  in order (the mix's tables as a digest per task and table, the rest in full).

The all-in EV stage is left out (``bench/ev.py`` proves its own values).

Usage: python bench/referee_golden.py dump OUT.gz [--fuzz 1000] [--mix DIR] [--task 500]
       python bench/referee_golden.py compare A.gz B.gz
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _parse_golden():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("parse_golden", HERE / "parse_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _facts_repr(facts: object) -> str:
    if facts is None:
        return "None"
    names = [n for n in facts.__match_args__ if n != "hand"]  # type: ignore[attr-defined]
    return ", ".join(f"{n}={getattr(facts, n)!r}" for n in names)


def dump(out: Path, fuzz: int, mix: Path | None, task: int) -> None:
    import hhparse.engine.replay as replay
    from hhparse import parsing
    from hhparse.engine import referee
    from hhparse.errors import ParseError
    from hhparse.splitter import split_path, split_stream
    from hhparse.tables.build import BatchBuilder

    pg = _parse_golden()
    inputs = list(pg._inputs(fuzz, mix))
    compiled = not str(replay.__file__).endswith(".py")
    print(f"{len(inputs)} inputs, referee compiled: {compiled}")
    lines: list[str] = []
    n_hands = 0
    for name, what in inputs:
        lines.append(f"## {name}")
        if isinstance(what, Path):
            blocks = list(split_path(what))
        elif isinstance(what, str):
            import io

            blocks = list(split_stream(io.BytesIO(what.encode("utf-8")), name))
        else:
            blocks = list(what)  # type: ignore[call-overload]
        digest_tables = mix is not None and isinstance(what, Path) and what.is_relative_to(mix)
        for start in range(0, len(blocks), task):
            builder = BatchBuilder()
            for block in blocks[start : start + task]:
                parsed = parsing.parse_block(block)
                if isinstance(parsed, ParseError):
                    builder.add_parse_error(parsed, block.source, block.line, block.text)
                    continue
                result = referee(parsed)
                n_hands += 1
                lines.append(f"E {result.errors!r}")
                lines.append(f"W {result.warnings!r}")
                lines.append(f"F {_facts_repr(result.facts)}")
                builder.add_result(result, block.text)
            lines.append(f"R {[tuple(r._values()) for r in builder.refs]!r}")  # type: ignore[attr-defined]
            for table_name, table in sorted(builder.finish().items()):
                rows = repr(table.to_pylist())
                if digest_tables:
                    rows = hashlib.sha256(rows.encode("utf-8", "surrogatepass")).hexdigest()
                lines.append(f"T {table_name} {table.num_rows} {table.schema!r}".replace("\n", " | "))
                lines.append(f"T {rows}")
    text = "\n".join(lines)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    print(f"{n_hands} hands refereed, {len(lines)} lines, sha256 {digest}")
    with gzip.open(out, "wt", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text + "\n")


def _lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8", errors="surrogatepass") as f:
        return [line.rstrip("\n") for line in f]


def compare(a: Path, b: Path) -> int:
    x, y = _lines(a), _lines(b)
    if x == y:
        hands = sum(1 for line in x if line.startswith("F "))
        tables = sum(1 for line in x if line.startswith("T ")) // 2
        print(f"identical: {len(x)} lines, {hands} hands' verdicts and facts, {tables} tables")
        return 0
    diffs = [i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q]
    print(f"DIFFERENT: {len(x)} vs {len(y)} lines, {len(diffs)} differ")
    for i in diffs[:5]:
        print(f"  A: {x[i][:300]}\n  B: {y[i][:300]}")
    return 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--fuzz", type=int, default=1000, help="damaged fuzz files (fixed seed)")
    d.add_argument("--mix", type=Path, help="a benchmark input folder (bench/import.py --keep)")
    d.add_argument("--task", type=int, default=500, help="blocks a task (one finish each)")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.fuzz, args.mix, args.task)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
