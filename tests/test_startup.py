"""Issue 16: ``hhparse --help`` and ``hhparse check`` of one file start fast: the CLI imports
pandas, pyarrow, duckdb, matplotlib and jinja2 only in the commands that use them, and ``import
hhparse`` imports neither the grammar nor the referee. (The time itself is measured by
``bench/startup.py``, never by a unit test.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("pandas", "pyarrow", "duckdb", "matplotlib", "jinja2")
REPO = Path(__file__).resolve().parent.parent


def _loaded(code: str) -> list[str]:
    probe = (
        code
        + f"\nimport sys, json\nprint(json.dumps([m for m in {(*HEAVY, 'lark', 'hhparse.engine')!r} if m in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_loads_nothing_heavy() -> None:
    assert _loaded("import hhparse.cli") == []


def test_importing_hhparse_loads_neither_grammar_nor_referee() -> None:
    assert _loaded("import hhparse; hhparse.__version__; dir(hhparse)") == []


def test_help_and_check_load_no_data_libraries() -> None:
    sample = next((REPO / "sample_histories").glob("HH2009*.txt"))
    run = (
        "import sys\nfrom hhparse.cli import app\n"
        f"for args in (['--help'], ['check', '--help'], ['report', '--help'], ['check', {str(sample)!r}]):\n"
        "    try:\n        app(args, prog_name='hhparse')\n    except SystemExit:\n        pass\n"
    )
    loaded = _loaded(run)
    assert not set(loaded) & set(HEAVY), loaded
