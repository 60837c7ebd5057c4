"""The splitter's whole output, written down, to prove a change of the splitter changes none of it.

Why: the splitter cuts every byte an import reads, and both of its paths (the chunked one and the
line-based one) are tuned for speed; a change of either, or compiling it (``hatch_build.py``),
must leave every :class:`~hhparse.splitter.Block` exactly as it was. This writes one line per
input: its name, how many blocks, and a SHA-256 of every block's ``repr`` (source, line, text,
kind, fault), so that a build before and a build after can be compared line by line. The inputs:

* every file of the corpus (``../shared/corpus``, summaries and damaged files included), of
  ``sample_histories/`` and of ``tests/data``, through :func:`~hhparse.splitter.split_file`;
* every hand history written into the tests and the benches (string literals of ``tests/**.py``
  and ``bench/*.py`` that hold a ``Hand #``/``Game #`` header), as they are and with CRLF ends,
  through :func:`~hhparse.splitter.split_stream` (UTF-8 and UTF-16) and
  :func:`~hhparse.splitter.split_text`;
* damaged files of the input fuzz (``tests/fuzz/harness.py``), drawn from a fixed seed;
* optionally benchmark input folders (``--mix DIR``: ``bench/import.py --keep DIR``).

Run it with each build's Python (the script imports whichever ``hhparse`` that Python has).

Usage: python bench/split_golden.py dump OUT [--fuzz 4000] [--mix DIR ...]
       python bench/split_golden.py compare A B
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import random
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"


def _literal_histories() -> list[tuple[str, str]]:
    """Every string literal of the tests and benches that holds a hand header."""
    out: list[tuple[str, str]] = []
    paths = [*sorted((REPO / "tests").rglob("*.py")), *sorted((REPO / "bench").glob("*.py"))]
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if ("Hand #" in text or "Game #" in text) and "\n" in text:
                    out.append((f"{path.relative_to(REPO)}:{node.lineno}", text))
    return out


def _cases(fuzz: int, mixes: list[Path]) -> Iterator[tuple[str, Iterable[object]]]:
    from hhparse.splitter import split_file, split_stream, split_text

    for root in (CORPUS, REPO / "sample_histories", REPO / "tests" / "data"):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".py"):
            yield str(path.relative_to(root.parent)), split_file(path)
    for name, text in _literal_histories():
        for label, variant in (("", text), (" (CRLF)", text.replace("\n", "\r\n"))):
            yield name + label, split_stream(io.BytesIO(variant.encode("utf-8")), name)
            yield name + label + " (UTF-16)", split_stream(io.BytesIO(variant.encode("utf-16")), name)
            yield name + label + " (text)", split_text(variant, name)
    if fuzz:
        sys.path.insert(0, str(REPO / "tests" / "fuzz"))
        sys.path.insert(0, str(REPO / "tests"))
        import harness  # type: ignore[import-not-found]

        rng = random.Random(14)
        for i in range(fuzz):
            case = harness.random_case(rng)
            yield f"fuzz {i}", split_stream(io.BytesIO(case.data), f"fuzz-{i}")
    for mix in mixes:
        for path in sorted(mix.rglob("*.txt")):
            yield f"{mix.name}/{path.relative_to(mix)}", split_file(path)


def dump(out: Path, fuzz: int, mixes: list[Path]) -> None:
    from hhparse import splitter

    lines: list[str] = []
    total = 0
    for name, blocks in _cases(fuzz, mixes):
        digest = hashlib.sha256()
        n = 0
        for block in blocks:
            digest.update(repr(block).encode("utf-8", "surrogatepass") + b"\n")
            n += 1
        total += n
        lines.append(f"{name}\t{n}\t{digest.hexdigest()}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    print(f"{len(lines)} inputs, {total} blocks, splitter {splitter.__file__}, sha256 {whole}")


def compare(a: Path, b: Path) -> int:
    x = a.read_text(encoding="utf-8").splitlines()
    y = b.read_text(encoding="utf-8").splitlines()
    if x == y:
        print(f"identical: {len(x)} inputs, {sum(int(line.split(chr(9))[1]) for line in x)} blocks")
        return 0
    diffs = [(p, q) for p, q in zip(x, y, strict=False) if p != q]
    print(f"DIFFERENT: {len(x)} vs {len(y)} inputs, {len(diffs)} differ")
    for p, q in diffs[:10]:
        print(f"  A: {p}\n  B: {q}")
    return 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--fuzz", type=int, default=4000, help="damaged fuzz files (fixed seed)")
    d.add_argument("--mix", type=Path, nargs="*", default=[], help="benchmark input folders")
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
