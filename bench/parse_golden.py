"""The parser's whole output, written down, to prove a change of the parser changes none of it.

Why: a speed change of the parser (``hhparse/parsing.py``, ``hhparse/lalr.py``, the grammar, the
splitter) must leave every :class:`~hhparse.model.Hand` and every
:class:`~hhparse.errors.ParseError` exactly as it was, for every back end, pure and compiled.
The suite checks a sample; this writes down everything the parser says about a wide input, so
that a build before and a build after can be compared line by line:

* every file of the corpus (``../shared/corpus``, summaries and damaged files included), of
  ``sample_histories/`` and of ``tests/data``;
* every hand history written into the tests (string literals of ``tests/*.py`` that hold a
  ``Hand #``/``Game #`` header), as they are and with CRLF ends;
* damaged files of the input fuzz (``tests/fuzz/harness.py``: corpus and crafted hands cut,
  flipped, re-encoded, with lines dropped, duplicated or swapped), drawn from fixed seeds;
* optionally a benchmark input folder (``--mix DIR``: ``bench/import.py --keep DIR``).

Each result is written as its ``repr`` (records print every field), under the back end that read
it: ``driver`` (the default), ``lark`` and ``lark-cython`` when installed. The back ends must
also agree with each other (checked here too).

Usage: python bench/parse_golden.py dump OUT.gz [--fuzz 4000] [--mix DIR]
       python bench/parse_golden.py compare A.gz B.gz
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"


def _test_histories() -> list[tuple[str, str]]:
    """Every string literal of the tests that holds a hand header."""
    out: list[tuple[str, str]] = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if ("Hand #" in text or "Game #" in text) and "\n" in text:
                    out.append((f"{path.name}:{node.lineno}", text))
    return out


def _inputs(fuzz: int, mix: Path | None) -> Iterator[tuple[str, object]]:
    """(name, what to parse): a path, a text, or a list of blocks."""
    from hhparse.splitter import split_stream

    for root in (CORPUS, REPO / "sample_histories", REPO / "tests" / "data"):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".py"):
            yield str(path.relative_to(root.parent)), path
    for name, text in _test_histories():
        yield name, text
        yield name + " (CRLF)", text.replace("\n", "\r\n")
    if fuzz:
        sys.path.insert(0, str(REPO / "tests" / "fuzz"))
        sys.path.insert(0, str(REPO / "tests"))
        import io

        import harness  # type: ignore[import-not-found]

        rng = random.Random(14)
        for i in range(fuzz):
            case = harness.random_case(rng)
            yield f"fuzz {i}", list(split_stream(io.BytesIO(case.data), f"fuzz-{i}"))
    if mix is not None:
        for path in sorted(mix.rglob("*.txt")):
            yield str(path.relative_to(mix)), path


def dump(out: Path, fuzz: int, mix: Path | None) -> None:
    from hhparse import parsing

    inputs = list(_inputs(fuzz, mix))
    backends = [b for b in parsing.BACKENDS if b != "lark-cython" or importlib.util.find_spec("lark_cython")]
    compiled = parsing.__file__ is not None and not parsing.__file__.endswith(".py")
    print(f"{len(inputs)} inputs, back ends {', '.join(backends)}, parsing compiled: {compiled}")
    per_backend: dict[str, list[str]] = {}
    for backend in backends:
        parsing.use_backend(backend)
        lines: list[str] = []
        for name, what in inputs:
            lines.append(f"## {name}")
            if isinstance(what, Path):
                results = parsing.parse_path(what)
            elif isinstance(what, str):
                results = parsing.parse_text(what, name)
            else:
                results = (parsing.parse_block(b) for b in what)  # type: ignore[attr-defined]
            lines.extend(repr(r) for r in results)
        per_backend[backend] = lines
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
        print(f"{backend:<12} {len(lines) - len(inputs):>7} results  sha256 {digest}")
    parsing.use_backend("driver")
    first = backends[0]
    for backend in backends[1:]:
        if per_backend[backend] != per_backend[first]:
            print(f"BACK ENDS DISAGREE: {first} and {backend}")
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for backend in backends:
            f.write(f"#### {backend}\n")
            f.writelines(line + "\n" for line in per_backend[backend])


def _sections(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#### "):
                current = out.setdefault(line[5:].strip(), [])
            else:
                current.append(line.rstrip("\n"))
    return out


def compare(a: Path, b: Path) -> int:
    left, right = _sections(a), _sections(b)
    bad = 0
    for backend in sorted(set(left) | set(right)):
        x, y = left.get(backend), right.get(backend)
        if x is None or y is None:
            print(f"{backend}: only in {'B' if x is None else 'A'}")
            bad += 1
            continue
        results = sum(1 for line in x if not line.startswith("## "))
        if x == y:
            print(f"{backend:<12} identical: {len(x)} lines, {results} results")
            continue
        bad += 1
        diffs = [i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q]
        print(f"{backend:<12} DIFFERENT: {len(x)} vs {len(y)} lines, {len(diffs)} differ")
        for i in diffs[:5]:
            print(f"  A: {x[i][:300]}\n  B: {y[i][:300]}")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--fuzz", type=int, default=4000, help="damaged fuzz files (fixed seed)")
    d.add_argument("--mix", type=Path, help="a benchmark input folder (bench/import.py --keep)")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.fuzz, args.mix)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
