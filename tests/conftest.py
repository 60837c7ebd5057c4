"""Shared fixtures. The real corpus is read in place from ``../shared/corpus`` (or HHPARSE_CORPUS).

Without the corpus, corpus tests skip — unless HHPARSE_REQUIRE_CORPUS=1 (CI), when they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


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
