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
    "hhparse.lalr",
    "hhparse.splitter",
    "hhparse.blocks",
    "hhparse.render",
    "hhparse.summaries",
)


def _forbidden(imports: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {i for i in imports if any(i == p or i.startswith(p + ".") for p in prefixes)}


@pytest.mark.parametrize("path", _modules("engine", "rules"), ids=lambda p: p.name)
def test_referee_never_reads_text(path: Path) -> None:
    assert not _forbidden(_imports(path), TEXT_SIDE), f"{path} imports the text side"


@pytest.mark.parametrize(
    "path",
    _modules("parsing.py", "larkglue.py", "lalr.py", "splitter.py", "blocks.py", "render.py", "summaries.py"),
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
    assert not _forbidden(imports, (*TEXT_SIDE, "hhparse.engine", "hhparse.tables", "hhparse.importer")), (
        imports
    )
    assert _forbidden(imports, ("hhparse.rules.equity",)) and _forbidden(imports, ("hhparse.facts",))


def test_equity_engine_is_pure() -> None:
    """``rules/equity.py`` is arithmetic on cards and amounts: numpy and its own compiled kernel
    (``rules/_equity_kernel.c``, Python's C API only), nothing else of hhparse."""
    imports = _imports(PKG / "rules" / "equity.py")
    assert "hhparse.rules._equity_kernel" in imports
    imports.discard("hhparse.rules._equity_kernel")
    assert not _forbidden(imports, ("hhparse", "lark", "pyarrow", "duckdb", "pandas")), imports
    kernel = (PKG / "rules" / "_equity_kernel.c").read_text(encoding="utf-8")
    includes = {line.split()[1] for line in kernel.splitlines() if line.startswith("#include")}
    assert includes == {"<Python.h>", "<stdint.h>", "<stdlib.h>", "<string.h>"}, includes


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


#: Every module of the package, by the stage of the table in ``docs/architecture.md`` it belongs
#: to (a module path, or a folder for all of its modules). ``watch.py`` (issue #19, on its branch)
#: is listed ahead so that it lands in a stage.
LAYERS: dict[str, tuple[str, ...]] = {
    "package": ("__init__.py", "api.py"),  # the public API: wrappers, imported on first call
    "base": (
        "model.py",
        "errors.py",
        "facts.py",
        "money.py",
        "memo.py",
        "failures.py",
        "safetext.py",
        "resources.py",
        "known.py",
        "workers.py",
        "native_memory.py",
        "lazy.py",
        "cachefiles.py",
    ),
    "split": ("splitter.py", "blocks.py"),
    "parse": ("parsing.py", "larkglue.py", "lalr.py", "render.py", "summaries.py"),
    "rules": ("rules",),
    "referee": ("engine",),
    "ev": ("ev.py",),
    "tables": ("tables",),
    "import": (
        "importer.py",
        "import_plan.py",
        "import_worker.py",
        "pool_preload.py",
        "pool_threads.py",
        "staging.py",
        "inputs.py",
        "recompute.py",
        "checking.py",
        "watch.py",
    ),
    "cluster": ("cluster.py",),
    "reports": ("reports",),
    "synth": ("synth",),
    "cli": ("cli", "__main__.py"),
}


def _layer_of(path: Path) -> list[str]:
    rel = path.relative_to(PKG).as_posix()
    return [name for name, subs in LAYERS.items() if any(rel == s or rel.startswith(s + "/") for s in subs)]


def test_import_worker_knows_nothing_of_the_warehouse_or_the_run() -> None:
    """A task's work (parse, referee, EV, tables) runs in a worker process, a Dask worker or in
    process: it never opens the warehouse, and knows neither the plan nor the run that merges."""
    imports = _imports(PKG / "import_worker.py")
    assert not _forbidden(
        imports, ("hhparse.tables.store", "hhparse.importer", "hhparse.import_plan", "hhparse.known")
    ), imports
    # what it reads itself (a cluster worker reading its inputs) it opens as the plan does
    assert not _forbidden(
        _imports(PKG / "inputs.py"),
        ("hhparse.tables", "hhparse.importer", "hhparse.import_plan", "hhparse.parsing"),
    )


def test_what_a_worker_stages_and_writes_knows_nothing_of_the_run() -> None:
    """:mod:`hhparse.staging` runs in the workers (a fragment, a batch's files): it never imports
    the run that merges and commits, nor its plan or index."""
    imports = _imports(PKG / "staging.py")
    assert not _forbidden(imports, ("hhparse.importer", "hhparse.import_plan", "hhparse.known")), imports


def test_import_plan_reads_bytes_and_never_parses() -> None:
    """The plan decides which bytes to read from sizes, mtimes, hashes and the manifest's records:
    it cuts blocks (the splitter) but never parses, referees, builds tables or writes."""
    imports = _imports(PKG / "import_plan.py")
    assert not _forbidden(
        imports,
        (
            "hhparse.parsing",
            "hhparse.engine",
            "hhparse.ev",
            "hhparse.tables",
            "hhparse.importer",
            "hhparse.import_worker",
        ),
    ), imports


def test_every_module_is_in_one_layer() -> None:
    """The rules above cover every module: a new module must be given its stage here."""
    unplaced = {
        p.relative_to(PKG).as_posix(): _layer_of(p) for p in PKG.rglob("*.py") if len(_layer_of(p)) != 1
    }
    assert unplaced == {}, unplaced


@pytest.mark.parametrize("path", _modules(*LAYERS["base"]), ids=lambda p: p.name)
def test_base_modules_import_only_base_modules(path: Path) -> None:
    """Records, errors, amounts, memos and process plumbing are below every stage."""
    base = {f"hhparse.{s.removesuffix('.py')}" for s in LAYERS["base"]}
    assert {i for i in _forbidden(_imports(path), ("hhparse",)) if i != "hhparse"} <= base, path


@pytest.mark.parametrize("name", ["settle.py", "facts_builder.py"])
def test_settlement_and_facts_read_the_view_not_the_replay(name: str) -> None:
    """Settlement and facts read :mod:`hhparse.engine.view` (read-only), never the referee."""
    assert not _forbidden(_imports(PKG / "engine" / name), ("hhparse.engine.replay",))


@pytest.mark.parametrize("path", _modules("synth"), ids=lambda p: p.name)
def test_generator_shares_the_betting_engine_not_the_referee(path: Path) -> None:
    """The generator bets through :mod:`hhparse.engine.table` (the referee's betting engine) and
    writes text through the renderer; it never runs the referee or reads text."""
    engine = _forbidden(_imports(path), ("hhparse.engine",))
    assert engine <= {"hhparse.engine.table"}, path
    assert not _forbidden(_imports(path), ("hhparse.parsing", "hhparse.larkglue", "hhparse.lalr", "lark")), (
        path
    )


#: Private attributes read across an object boundary on purpose: lark's internals (one module,
#: by design), a record comparing itself with another of its class, ``os._exit`` (the way to
#: end a worker process without running the parent's clean-up, and the ``hhparse`` program once
#: its import is committed, without tearing its modules down), Rich's column widths of a
#: table (the terminal's row-by-row layout, checked against Rich's own lines on every table),
#: and Dask's flag that it chose its forkserver's preloads (``local:N`` chose them: Dask's
#: choice imports pandas in the client; guarded by ``hasattr``, so a Dask without it only costs
#: that import).
_PRIVATE_OK: dict[str, set[str] | None] = {
    "larkglue.py": None,
    "model.py": {"other._values"},
    "workers.py": {"os._exit"},
    "common.py": {"os._exit"},
    "terminal.py": {"table._calculate_column_widths"},
    "cluster.py": {"distributed.utils._forkserver_preload_set"},
}


#: A named tuple's public methods, underscored only so as not to clash with its fields.
_NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.py")), ids=lambda p: p.relative_to(PKG).as_posix())
def test_no_module_reads_another_objects_private_attributes(path: Path) -> None:
    """``x._name`` only on ``self``/``cls`` or a class of the same module: the settlement reads the
    replay's view, not the referee's state, and so on everywhere (issue #14)."""
    allowed = _PRIVATE_OK.get(path.name, set())
    if allowed is None:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    found = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")):
            continue
        if isinstance(n.value, ast.Name) and n.value.id in {"self", "cls", *own}:
            continue
        if n.attr in _NAMEDTUPLE_API:
            continue
        if ast.unparse(n) not in allowed:
            found.append(f"{n.lineno}: {ast.unparse(n)}")
    assert found == [], found


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
        assert not _forbidden(
            top,
            (
                "hhparse.parsing",
                "hhparse.engine",
                "hhparse.reports.query",
                "hhparse.tables",
                "pandas",
                "pyarrow",
                "duckdb",
            ),
        ), path
