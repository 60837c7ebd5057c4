"""Issue 16: ``hhparse --help``, ``--version`` and ``hhparse check`` of one small file start fast,
so what they import is pinned here, each command in a fresh interpreter: no data library (pandas,
pyarrow, duckdb, numpy, matplotlib, jinja2) and no pydantic (typer 0.29 imports it to check every
option: ``pyproject.toml`` keeps typer below that); ``--help`` and ``--version`` import neither the
grammar (lark) nor the referee; ``import hhparse`` imports neither. (The time itself is measured
by ``bench/startup.py``, figures in ``docs/performance.md``, never by a unit test.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Never imported by --help, --version or check of a small file.
HEAVY = ("pandas", "pyarrow", "duckdb", "numpy", "matplotlib", "jinja2", "pydantic", "pydantic_core")
#: The grammar and the referee: check needs them, --help and --version do not.
PARSER_AND_REFEREE = (
    "lark",
    "hhparse.parsing",
    "hhparse.splitter",
    "hhparse.engine",
    "hhparse.rules.evaluate",
)
#: Imported only when a file needs it: check of hand histories reads no tournament summary.
ON_DEMAND = ("hhparse.summaries",)
REPO = Path(__file__).resolve().parent.parent


def _loaded(code: str) -> set[str]:
    """The modules of HEAVY, PARSER_AND_REFEREE and ON_DEMAND that ``code`` imported, in a fresh
    Python."""
    watched = (*HEAVY, *PARSER_AND_REFEREE, *ON_DEMAND)
    probe = f"{code}\nimport sys, json\nprint(json.dumps([m for m in {watched!r} if m in sys.modules]))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _command(*args: str) -> set[str]:
    """What the command line ``hhparse ARGS`` imported (run as the console script runs it)."""
    run = (
        f"import sys\nsys.argv = ['hhparse', *{args!r}]\nfrom hhparse.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )
    return _loaded(run)


def _one_hand(tmp_path: Path) -> Path:
    """The first hand of a Courchevel sample, as bench/startup.py times it."""
    sample = sorted((REPO / "sample_histories").glob("HH2013081*.txt"))[0]
    path = tmp_path / "one-hand.txt"
    path.write_text(sample.read_text(encoding="utf-8-sig").split("\n\n\n")[0] + "\n\n\n", encoding="utf-8")
    return path


def test_importing_the_cli_loads_nothing_heavy() -> None:
    assert _loaded("import hhparse.cli") == set()


def test_importing_hhparse_loads_neither_grammar_nor_referee() -> None:
    assert _loaded("import hhparse; hhparse.__version__; dir(hhparse)") == set()


@pytest.mark.parametrize(
    "args", [("--help",), ("--version",), ("check", "--help"), ("report", "--help"), ("import", "--help")]
)
def test_help_and_version_load_no_data_library_no_grammar_no_referee(args: tuple[str, ...]) -> None:
    assert _command(*args) == set()


def test_check_of_a_small_file_loads_no_data_library(tmp_path: Path) -> None:
    one = _one_hand(tmp_path)
    loaded = _command("check", str(one))
    assert not loaded & {*HEAVY, *ON_DEMAND}, loaded
    assert {"lark", "hhparse.parsing", "hhparse.engine"} <= loaded  # it did read and referee the hand
    sample = next((REPO / "sample_histories").glob("HH2009*.txt"))
    assert not _command("check", str(sample)) & set(HEAVY)
