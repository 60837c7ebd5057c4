"""Start-up time of the command line: what a user waits for before a command does anything.

Usage::

    .venv/bin/python bench/startup.py               # 20 runs of each, medians
    .venv/bin/python bench/startup.py --runs 50

Measures, each as a fresh process (what the shell starts), median and spread of ``--runs`` runs,
wall-clock time and the process's CPU time (user + sys: what a busy shared machine inflates
least):

* ``hhparse --help`` and ``hhparse --version``;
* ``hhparse check`` of one small file (one hand of the corpus, or of ``sample_histories/``): the
  imports of the parser and the referee, building the parser, one hand;
* ``python -c "import hhparse.cli"`` and ``python -c "pass"``: what the interpreter itself costs,
  to tell hhparse's share from Python's.

Target (issue 16): ``--help``, ``--version`` and ``check`` of one small file well under 0.3 s. The runs are
interleaved (help, check, import, python, help, ...) so a machine that drifts over the minute
slows every measurement alike; a CPU-loop timing is printed beside the results, as
``bench/import.py`` does, to tell a slow machine from slow code, and the load average before and
after. The parser of ``check`` is loaded from hhparse's cache folder (built by the warm-up run),
as every run after a user's first; ``--no-cache`` times building it from the grammar each time.
Bytecode is cached (``__pycache__``, written by the warm-up run) as after any ``pip install``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _one_hand_file(tmp: Path) -> Path:
    """A file with the first hand of the Courchevel sample (read in place otherwise)."""
    sample = sorted((ROOT / "sample_histories").glob("HH2013081*.txt"))[0]
    first = sample.read_text(encoding="utf-8-sig").split("\n\n\n")[0] + "\n\n\n"
    path = tmp / "one-hand.txt"
    path.write_text(first, encoding="utf-8")
    return path


def _time(cmd: list[str]) -> tuple[float, float]:
    """(wall-clock, user + sys CPU) seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


#: The runs' environment: bytecode written and read as after ``pip install`` (which compiles every
#: module). With ``PYTHONDONTWRITEBYTECODE`` set (some shells and CI set it), an editable install
#: would compile hhparse's sources at every start and the figures would measure that instead.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cpu_loop() -> float:
    start = time.perf_counter()
    n = 0
    for i in range(2_000_000):
        n += i
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--no-cache", action="store_true", help="build the parser from the grammar in every run"
    )
    args = parser.parse_args()
    import tempfile

    hhparse = str(Path(sys.executable).parent / "hhparse")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        one = _one_hand_file(Path(tmp))
        # a cache folder of its own: the first (warm-up) run builds the parser, the others load it
        _ENV["HHPARSE_CACHE_DIR"] = "" if args.no_cache else str(Path(tmp) / "cache")
        cases = {
            "hhparse --help": [hhparse, "--help"],
            "hhparse --version": [hhparse, "--version"],
            "hhparse check one-hand.txt": [hhparse, "check", str(one)],
            "python -c 'import hhparse.cli'": [sys.executable, "-c", "import hhparse.cli"],
            "python -c 'pass'": [sys.executable, "-c", "pass"],
        }
        for cmd in cases.values():  # warm the file cache and the bytecode
            _time(cmd)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, cmd in cases.items():
                times[name].append(_time(cmd))
    import hhparse.parsing as parsing

    compiled = not str(parsing.__file__).endswith(".py")
    print(
        f"start-up, {args.runs} runs each (median, min-max); parser {'compiled' if compiled else 'pure Python'}"
        f", {'no parser cache' if args.no_cache else 'parser loaded from the cache'}"
    )
    print(f"  {'':<32} {'wall':>7}                 {'user+sys':>8}")
    for name, ts in times.items():
        wall = [w for w, _ in ts]
        cpu = [c for _, c in ts]
        print(
            f"  {name:<32} {statistics.median(wall) * 1000:7.0f} ms ({min(wall) * 1000:4.0f}-{max(wall) * 1000:4.0f})"
            f"   {statistics.median(cpu) * 1000:5.0f} ms ({min(cpu) * 1000:.0f}-{max(cpu) * 1000:.0f})"
        )
    print(f"  cpu loop (2 M additions)          {_cpu_loop() * 1000:7.0f} ms   (machine speed reference)")
    print(f"  load average (1 min) before {load_before:.2f}, after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
