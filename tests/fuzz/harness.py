"""The fuzz of the input path: splitter → parser → referee → table builder (→ import).

One *case* is a small file: a valid hand A, a damaged hand M, a valid hand B (or A then M, M
last: a file cut or damaged at its end). M is a real hand (the corpus, read in place, and the
product's own sample histories) or a crafted one, damaged by a few :data:`OPS`: truncation at any
byte, byte flips, inserted NUL / CR / LF / BOM / odd Unicode / bytes no encoding reads, huge or odd
numbers, duplicated, dropped or swapped lines, a long line, a re-encoding as cp1252.

What must hold for every case (:func:`check_batch`, :func:`check_import`):

* no exception escapes, and none is swallowed as a bug: no ``internal-error`` reject (the parser
  or the referee raised) and no ``unstorable-hand`` (a value got past every check);
* every block is a hand stored or a reject, exactly once;
* A and B, the valid hands around M, are stored, with their own text;
* blocks stay bounded (:data:`hhparse.splitter.MAX_HAND` and the excerpt of a longer one), and
  no case takes long (the caller's deadline: hypothesis's, or ``bench/fuzz.py``'s alarm).

Cases are built from a seed and a list of operations, so that hypothesis can draw (and shrink)
them and ``bench/fuzz.py`` can draw hundreds of thousands from :mod:`random` alike.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hhparse import splitter
from hhparse.errors import ParseError
from hhparse.import_worker import process_blocks
from hhparse.importer import import_paths
from hhparse.model import Hand
from hhparse.parsing import parse_block
from hhparse.splitter import Block, split_stream
from hhparse.tables.build import HAND_IDX, content_hash

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from _warehouse_helpers import HAND_TEXT  # noqa: E402  (the crafted hand of the warehouse tests)

SEPS = (b"\n\n\n", b"\r\n\r\n\r\n", b"\n\n", b"\r\n\r\n")

#: Bytes inserted by the ``insert`` operation.
PAYLOADS: tuple[bytes, ...] = (
    b"\x00",
    b"\x00" * 40,
    b"\x00" * 700,
    b"\r",
    b"\r\n",
    b"\n",
    b"\n\n",
    b"\n\n\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xfe\xff",
    b"\xff",
    b"\x80",
    b"\x81\x8d\x8f\x90\x9d",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    "\u2028".encode(),
    "\u2029".encode(),
    "\u202e".encode(),
    "\ufeff".encode(),
    "\u0301".encode(),
    "\U0001f0a1".encode(),
    "\u00a0".encode(),
    "é".encode(),
    "€".encode("cp1252"),
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\x1c",
    b"\x85",
    b" ",
    b"#",
    b"$",
    b",",
    b".",
    b":",
    b"(",
    b")",
    b"[",
    b"]",
    b"PokerStars Hand #1: ",
    b"PokerStars Hand #",
    b"\n*** SUMMARY ***\n",
    b"\nSeat 1: ",
    b" and is all-in",
    b"\n*** FLOP *** [2s 3h 4h]\n",
    b"99999999999999999999",
)
#: What the ``number`` operation puts in place of a number of the hand.
NUMBERS: tuple[bytes, ...] = (
    b"99999999999999999999999",
    b"10000000000000.00",
    b"9999999999999.99",
    b"1000000000000000",
    b"999999999999999",
    b"9223372036854775808",
    b"4294967296",
    b"65536",
    b"32768",
    b"256",
    b"128",
    b"0",
    b"00",
    b"0.00",
    b"-1",
    b"1e9",
    b"1,000,000,000,000,000",
    b"1.234",
    b".5",
    "٣".encode(),
    "１".encode(),
    b"9" * 5000,
)
OPS = (
    "truncate",
    "flip",
    "insert",
    "delete",
    "dup_line",
    "drop_line",
    "swap_lines",
    "number",
    "crlf",
    "cp1252",
    "long_line",
)
Op = tuple[str, float, int]  # (operation, where in the hand (0..1), an argument)


def corpus_root() -> Path | None:
    """``.../corpus/pokerstars`` (``$HHPARSE_CORPUS`` or ``../shared/corpus``), if present."""
    env = os.environ.get("HHPARSE_CORPUS")
    root = (Path(env) if env else REPO.parent / "shared" / "corpus") / "pokerstars"
    return root if root.is_dir() else None


_HEADER_BYTES = re.compile(
    rb"(?m)^(?:\xef\xbb\xbf)*[A-Za-z][\w']*(?: [A-Za-z][A-Za-z' ]*?)? (?:Hand|Game) #\d+: "
)
_HAND_NO = re.compile(rb"((?:Hand|Game) #)\d+:")


def _hands_of(data: bytes) -> list[bytes]:
    starts = [m.start() for m in _HEADER_BYTES.finditer(data)]
    if not starts:  # a tournament summary, a README: seeds for the damaged hand too
        return [data[:20_000]]
    ends = [*starts[1:], len(data)]
    return [
        data[a:b].removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n") + b"\n"
        for a, b in zip(starts, ends, strict=True)
    ]


@cache
def seeds() -> tuple[bytes, ...]:
    """Every hand of the corpus (read in place) and of ``sample_histories/``, plus crafted ones."""
    files = sorted((REPO / "sample_histories").glob("*.txt"))
    root = corpus_root()
    if root is not None:
        files += sorted(root.rglob("*.txt"))
    out: list[bytes] = []
    for f in files:
        out.extend(_hands_of(f.read_bytes()))
    out.append(HAND_TEXT.encode())
    out.append(HAND_TEXT.replace("\n", "\r\n").encode())
    return tuple(out)


@cache
def valid_seeds() -> tuple[bytes, ...]:
    """The seeds the referee accepts (the neighbours A and B are drawn from these)."""
    from hhparse.engine import referee  # type: ignore[attr-defined]

    out = []
    for hand in seeds():
        parsed = parse_block(Block("seed", 1, hand.decode("utf-8", "replace").replace("\r", "")))
        if isinstance(parsed, Hand) and referee(parsed).valid:
            out.append(hand)
    return tuple(out)


def renumber(hand: bytes, number: int) -> bytes:
    """``hand`` with hand id ``number`` (the first ``Hand #..:`` / ``Game #..:`` of its header)."""
    return _HAND_NO.sub(lambda m: m[1] + str(number).encode() + b":", hand, count=1)


def mutate(hand: bytes, ops: Sequence[Op]) -> bytes:
    """``hand`` damaged by ``ops`` in order."""
    for name, where, arg in ops:
        hand = _apply(hand, name, where, arg)
    return hand


def _apply(hand: bytes, name: str, where: float, arg: int) -> bytes:
    at = min(int(where * (len(hand) + 1)), len(hand))
    lines = hand.split(b"\n")
    li = min(int(where * len(lines)), len(lines) - 1)
    if name == "truncate":
        return hand[:at]
    if name == "flip" and hand:
        i = min(at, len(hand) - 1)
        return hand[:i] + bytes([arg & 0xFF]) + hand[i + 1 :]
    if name == "insert":
        return hand[:at] + PAYLOADS[arg % len(PAYLOADS)] + hand[at:]
    if name == "delete":
        return hand[:at] + hand[at + 1 + arg % 60 :]
    if name == "dup_line":
        return b"\n".join([*lines[: li + 1], lines[li], *lines[li + 1 :]])
    if name == "drop_line":
        return b"\n".join(lines[:li] + lines[li + 1 :])
    if name == "swap_lines" and li + 1 < len(lines):
        lines[li], lines[li + 1] = lines[li + 1], lines[li]
        return b"\n".join(lines)
    if name == "number":
        numbers = list(re.finditer(rb"\d[\d,]*(?:\.\d+)?", hand))
        if numbers:
            m = numbers[min(int(where * len(numbers)), len(numbers) - 1)]
            return hand[: m.start()] + NUMBERS[arg % len(NUMBERS)] + hand[m.end() :]
        return hand
    if name == "crlf":
        return (
            hand.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") if arg % 2 else hand.replace(b"\r\n", b"\n")
        )
    if name == "cp1252":
        try:
            return hand.decode("utf-8").encode("cp1252", "replace")
        except UnicodeDecodeError:
            return hand
    if name == "long_line":
        size = (arg % 7) * 1500 + 1  # up to 9001: below and above MAX_LINE
        return hand[:at] + b"x" * size + hand[at:]
    return hand


@dataclass(frozen=True)
class Case:
    """One fuzz input: the file's bytes and what it was built from."""

    data: bytes
    a: bytes  # the valid hand before the damaged one (as written, renumbered)
    b: bytes | None  # the valid hand after it, or None when the damaged hand ends the file
    ops: tuple[Op, ...]


def build_case(seed: int, ops: Sequence[Op], layout: int) -> Case:
    """A case from indices: ``seed`` picks M (and A, B), ``layout`` the separators and the end."""
    pool, good = seeds(), valid_seeds()
    rng = random.Random(seed)
    m = mutate(pool[seed % len(pool)], ops)
    a = renumber(good[rng.randrange(len(good))], 8_000_000_000_001 + seed % 1000)
    b = renumber(good[rng.randrange(len(good))], 9_000_000_000_001 + seed % 1000)
    sep = SEPS[layout % len(SEPS)]
    bom = b"\xef\xbb\xbf" if layout & 4 else b""
    if layout & 8:  # the damaged hand ends the file (cut, or damaged at its end)
        return Case(bom + a + sep + m, a, None, tuple(ops))
    return Case(bom + a + sep + m + sep + b + (b"\n" if layout & 16 else b""), a, b, tuple(ops))


def random_case(rng: random.Random) -> Case:
    """A case drawn from ``rng`` (``bench/fuzz.py``)."""
    ops = [
        (rng.choice(OPS), rng.random(), rng.randrange(1 << 16))
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 5)))
    ]
    return build_case(rng.randrange(1 << 30), ops, rng.randrange(32))


class Failure(AssertionError):
    """An invariant the fuzz found broken (with the case, to reproduce it)."""


def split_case(case: Case, source: str) -> list[Block]:
    blocks = list(split_stream(io.BytesIO(case.data), source))
    line = 0
    for b in blocks:
        if not b.text.endswith("\n") or b.line < max(line, 1):
            raise Failure(f"bad block {b!r}")
        if len(b.text) > splitter.MAX_HAND + splitter.EXCERPT + 200:
            raise Failure(f"unbounded block of {len(b.text)} characters")
        line = b.line
    return blocks


def _text(hand: bytes) -> str:
    """``hand`` decoded as the splitter decodes it."""
    return splitter._strip_crs(splitter._decode(hand.rstrip(b"\r\n") + b"\n"))


def _same_hand(block: Block, hand: bytes) -> bool:
    return content_hash(block.text) == content_hash(_text(hand))


def check_batch(cases: Sequence[Case]) -> dict[str, int]:
    """Split every case, process all their blocks as one worker task, check the invariants;
    returns counts of what happened (blocks, stored, rejects per code)."""
    blocks: list[Block] = []
    spans = []
    tails: set[int] = set()
    for i, case in enumerate(cases):
        got = split_case(case, f"case{i}.txt")
        spans.append((len(blocks), len(blocks) + len(got)))
        blocks.extend(got)
        if got and not got[-1].text.endswith("\n\n"):
            tails.add(len(blocks) - 1)
    result = process_blocks(blocks, frozenset(tails))
    hands = set(result.tables["hands"].column(HAND_IDX).to_pylist())
    rejects = result.tables["rejects"].to_pylist()
    rejected = [r[HAND_IDX] for r in rejects]
    if (
        len(rejected) != len(set(rejected))
        or hands & set(rejected)
        or hands | set(rejected) != set(range(len(blocks)))
    ):
        raise Failure("a block is neither stored nor rejected, or both")
    if [k in hands for k in range(len(blocks))] != result.accepted:
        raise Failure("stored hands and accepted flags disagree")
    counts: dict[str, int] = {"blocks": len(blocks), "stored": len(hands)}
    for r in rejects:
        counts[r["code"]] = counts.get(r["code"], 0) + 1
        if r["code"] in ("internal-error", "unstorable-hand"):
            case = cases[next(i for i, (s, e) in enumerate(spans) if s <= r[HAND_IDX] < e)]
            raise Failure(f"{r['code']}: {r['message']} (ops {case.ops!r}, data {case.data[:300]!r}...)")
    for case, (s, e) in zip(cases, spans, strict=True):
        if e == s or not _same_hand(blocks[s], case.a) or s not in hands:
            raise Failure(
                f"the valid hand before the damaged one was lost (ops {case.ops!r}): {case.data[:2000]!r}"
            )
        if case.b is not None and not (_same_hand(blocks[e - 1], case.b) and e - 1 in hands):
            raise Failure(
                f"the valid hand after the damaged one was lost (ops {case.ops!r}): {case.data[-3000:]!r}"
            )
    return counts


def check_splitter_paths(case: Case) -> None:
    """The chunked path and the line-based path cut the case alike."""
    fast = list(split_stream(io.BytesIO(case.data), "s"))
    head = case.data[: splitter._CHUNK]
    if b"\x00" in head and splitter._HEADER_BYTES_RE.search(head) is None:
        return
    lines = splitter._decoded_lines(splitter._buffered(head, io.BytesIO(case.data[len(head) :])))
    if list(splitter.split_lines(lines, "s")) != fast:
        raise Failure(f"the two splitter paths disagree on {case.data!r}")


def check_import(case: Case, work: Path) -> dict[str, Any]:
    """Import the case as a file (a file that has stopped changing) into a fresh warehouse:
    nothing raised, every block counted once, A and B stored."""
    f = work / "case.txt"
    f.write_bytes(case.data)
    wh = Path(tempfile.mkdtemp(dir=work))
    r = import_paths([f], wh, jobs=1, settle_seconds=0)
    s = r.stats
    blocks = split_case(case, str(f))
    if s.read != len(blocks) or s.new + s.duplicate + s.conflicting + s.rejected != s.read or s.pending:
        raise Failure(f"counts do not add up: {s} for {len(blocks)} blocks")
    from hhparse.tables.store import Warehouse

    with Warehouse(wh) as w:
        stored = w.read_table("hands", columns=["content_hash"]).column("content_hash").to_pylist()
        codes = w.read_table("rejects", columns=["code"]).column("code").to_pylist()
    want = [case.a] + ([case.b] if case.b is not None else [])
    for hand in want:
        if content_hash(_text(hand)) not in stored:
            raise Failure(f"a valid neighbour was not stored by the import (ops {case.ops!r})")
    if {"internal-error", "unstorable-hand"} & set(codes):
        raise Failure(f"import: {codes}")
    return {"read": s.read, "new": s.new, "rejected": s.rejected}


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Failure` if the block runs longer than ``seconds`` (a hang): SIGALRM in the
    main thread; elsewhere (no signals) the caller's own deadline has to do."""
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def hung(signum: int, frame: object) -> None:
        raise Failure(f"no result after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def describe(exc: BaseException, case: Case) -> str:
    return f"{type(exc).__name__}: {exc}\nops={case.ops!r}\ndata={case.data!r}"


__all__ = [
    "OPS",
    "Case",
    "Failure",
    "ParseError",
    "build_case",
    "check_batch",
    "check_import",
    "check_splitter_paths",
    "random_case",
    "time_limit",
]
