"""Shared fixtures. The real corpus is read in place from ``../shared/corpus`` (or HHPARSE_CORPUS).

Without the corpus, corpus tests skip — unless HHPARSE_REQUIRE_CORPUS=1 (CI), when they fail.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _native_modules() -> tuple[list[str], list[str]]:
    """(compiled modules in use, those older than their source) — see ``hatch_build.py``."""
    import importlib

    sys.path.insert(0, str(REPO))
    try:
        from hatch_build import COMPILED, EXTENSIONS
    finally:
        sys.path.remove(str(REPO))
    native, stale = [], []
    for rel in COMPILED:
        name = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        module = importlib.import_module(name)
        path = Path(module.__file__ or "")
        if path.suffix != ".py":
            native.append(name)
            if (REPO / rel).exists() and (REPO / rel).stat().st_mtime > path.stat().st_mtime:
                stale.append(name)
    for name, rel in EXTENSIONS:  # C modules: absent from a pure-Python install
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        native.append(name)
        path = Path(module.__file__ or "")
        if (REPO / rel).exists() and (REPO / rel).stat().st_mtime > path.stat().st_mtime:
            stale.append(name)
    return native, stale


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test old compiled code instead of the source being tested."""
    _, stale = _native_modules()
    if stale:
        pytest.exit(
            f"compiled modules older than their source: {', '.join(stale)}; reinstall "
            "(make test, or pip install -e .), or reinstall with HHPARSE_COMPILE=0 for pure Python",
            returncode=4,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` first (stable order otherwise): under pytest-xdist (``make test``) a
    long test started last would leave the other cores idle while it finishes."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_report_header(config: pytest.Config) -> str:
    native, _ = _native_modules()
    return f"hhparse referee: {f'compiled ({len(native)} modules)' if native else 'pure Python'}"


def _corpus_root() -> Path:
    env = os.environ.get("HHPARSE_CORPUS")
    return Path(env) if env else REPO.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """``.../corpus/pokerstars`` — the real PokerStars files."""
    root = _corpus_root() / "pokerstars"
    if not root.is_dir():
        if os.environ.get("HHPARSE_REQUIRE_CORPUS") == "1":
            pytest.fail(f"corpus required (HHPARSE_REQUIRE_CORPUS=1) but missing at {root}")
        pytest.skip(f"corpus not found at {root}")
    return root


def corpus_hand_files(root: Path) -> list[Path]:
    """Every real hand-history file (not summaries, not the FPDB companions, not INDEX files)."""
    out = []
    for p in sorted(root.rglob("*.txt")):
        rel = p.relative_to(root).as_posix()
        if "/summaries/" in f"/{rel}" or rel.startswith("summaries/"):
            continue
        out.append(p)
    return out


@pytest.fixture(autouse=True)
def _crash_logs_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Internal-error logs of CLI tests go to a temporary folder, never the user's state folder;
    so does the parser cache (one folder for the session: built once, loaded by every process)."""
    monkeypatch.setenv("HHPARSE_LOG_DIR", str(tmp_path_factory.mktemp("crash-logs")))
    monkeypatch.setenv("HHPARSE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "hhparse-cache"))
