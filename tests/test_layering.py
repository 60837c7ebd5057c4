"""One direction of flow: text → grammar → events → referee → facts → Parquet → SQL.

The parser never judges legality, the referee never reads text, and the table builder never
re-derives poker logic. These tests read each module's imports (statically, with ``ast``) so a
violation fails CI instead of creeping in.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "hhparse"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules(*subpaths: str) -> list[Path]:
    out: list[Path] = []
    for sub in subpaths:
        p = PKG / sub
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p] if p.exists() else [])
    return out


TEXT_SIDE = (
    "lark",
    "lark_cython",
    "hhparse.parsing",
    "hhparse.larkglue",
    "hhparse.lalr", "hhparse.splitter",
    "hhparse.render",
    "hhparse.summaries",
    "hhparse.transform",
)


def _forbidden(imports: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {i for i in imports if any(i == p or i.startswith(p + ".") for p in prefixes)}


@pytest.mark.parametrize("path", _modules("engine", "rules"), ids=lambda p: p.name)
def test_referee_never_reads_text(path: Path) -> None:
    assert not _forbidden(_imports(path), TEXT_SIDE), f"{path} imports the text side"


@pytest.mark.parametrize(
    "path",
    _modules("parsing.py", "larkglue.py", "lalr.py", "splitter.py", "render.py", "transform.py", "summaries.py"),
    ids=lambda p: p.name,
)
def test_parser_never_judges_legality(path: Path) -> None:
    assert not _forbidden(_imports(path), ("hhparse.engine", "hhparse.rules.pots")), path


@pytest.mark.parametrize("path", _modules("tables"), ids=lambda p: p.name)
def test_tables_only_reshape_facts(path: Path) -> None:
    assert not _forbidden(_imports(path), ("hhparse.engine", "hhparse.rules", "hhparse.ev", *TEXT_SIDE)), path


def test_ev_stage_runs_after_the_referee_on_facts() -> None:
    """The all-in EV stage reads the referee's facts and the parsed hand, and calls the rules: it
    never reads text, never runs the referee again and knows nothing of the warehouse."""
    imports = _imports(PKG / "ev.py")
    assert not _forbidden(imports, (*TEXT_SIDE, "hhparse.engine", "hhparse.tables", "hhparse.importer")), imports
    assert _forbidden(imports, ("hhparse.rules.equity",)) and _forbidden(imports, ("hhparse.facts",))


def test_equity_engine_is_pure() -> None:
    """``rules/equity.py`` is arithmetic on cards and amounts: numpy, nothing of hhparse."""
    imports = _imports(PKG / "rules" / "equity.py")
    assert not _forbidden(imports, ("hhparse", "lark", "pyarrow", "duckdb", "pandas")), imports


def test_only_the_import_layer_recomputes() -> None:
    """``hhparse ev --recompute`` re-reads histories: it is part of the import layer, and the
    stages below it never import it."""
    for path in _modules("engine", "rules", "tables", "ev.py", "facts.py", "model.py", "parsing.py"):
        assert not _forbidden(_imports(path), ("hhparse.recompute", "hhparse.importer")), path


def test_engine_import_does_not_load_lark() -> None:
    import subprocess
    import sys

    code = "import sys, hhparse.engine; assert 'lark' not in sys.modules, 'lark loaded'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_lalr_driver_knows_neither_lark_nor_the_model() -> None:
    """The compiled driver runs tables it is given: lark's internals stay in ``larkglue``."""
    imports = _imports(PKG / "lalr.py")
    assert not _forbidden(imports, ("lark", "lark_cython", "hhparse")), imports


@pytest.mark.parametrize("path", _modules("reports"), ids=lambda p: p.name)
def test_reports_read_facts_not_the_referee(path: Path) -> None:
    """Pages and reports read the warehouse; of the rules only the pot split and the game specs
    (the replay's pots between streets and its hole-card count), never the engine or the text side."""
    imports = _imports(path)
    assert not _forbidden(imports, ("hhparse.engine", "hhparse.tables.build", *TEXT_SIDE)), path
    rules = _forbidden(imports, ("hhparse.rules",))
    assert rules <= {"hhparse.rules.pots", "hhparse.rules.spec"}, path


def test_dask_stays_an_optional_extra() -> None:
    """Only ``hhparse/cluster.py`` imports Dask (``pip install 'hhparse[cluster]'``), and only
    inside functions: ``import hhparse.cluster`` and every other module work without it."""
    for path in _modules(""):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        dask = {n for n in _imports(path) if n.split(".")[0] in ("dask", "distributed")}
        if path.name == "cluster.py" and path.parent == PKG:
            top: set[str] = set()
            for node in tree.body:  # module level only
                if isinstance(node, ast.Import):
                    top.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module:
                    top.add(node.module)
            assert not {n for n in top if n.split(".")[0] in ("dask", "distributed")}, top
        else:
            assert not dask, f"{path} imports {dask}"


def test_cli_and_api_do_logic_of_their_own_nowhere() -> None:
    """The public wrappers (``hhparse/api.py``) and the CLI's shared module import no stage at
    module level: each imports its implementation when called (start-up, issue 16)."""
    for path in (PKG / "api.py", PKG / "__init__.py", PKG / "cli" / "common.py", PKG / "cli" / "__init__.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
        assert not _forbidden(top, ("hhparse.parsing", "hhparse.engine", "hhparse.reports.query", "hhparse.tables",
                                    "pandas", "pyarrow", "duckdb")), path
