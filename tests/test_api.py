"""Issue 16: the Python API — paths with ``~``, ``dir(hhparse)``, names that keep their meaning,
numeric DataFrames that name their unit, documented signatures (the compiled build is checked by
tests/test_wheel.py)."""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import hhparse
from hhparse.importer import import_paths

REPO = Path(__file__).resolve().parent.parent
SAMPLE = next((REPO / "sample_histories").glob("HH2013081*.txt"))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    shutil.copy(SAMPLE, home / "hands.txt")
    import_paths([home / "hands.txt"], home / "hh", jobs=1)
    return home


def test_paths_are_expanded(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(home))
    assert sum(1 for _ in hhparse.parse_file("~/hands.txt")) == 259
    assert sum(1 for _ in hhparse.parse_path("~/hands.txt")) == 259
    con = hhparse.warehouse("~/hh")
    assert con.sql("SELECT count(*) FROM hands").fetchall() == [(259,)]
    assert len(hhparse.report("summary", warehouse="~/hh", player="Hero")) == 1
    assert len(hhparse.report("summary", "~/hh")) > 1


def test_dir_lists_the_exports() -> None:
    names = dir(hhparse)
    assert names == sorted(hhparse.__all__)
    for name in (
        "parse_file",
        "parse_text",
        "parse_path",
        "referee",
        "render",
        "report",
        "warehouse",
        "Hand",
        "ParseError",
        "Violation",
        "RefereeResult",
        "REPORTS",
        "__version__",
    ):
        assert name in names and getattr(hhparse, name) is not None


def test_no_attribute_changes_meaning() -> None:
    """``hhparse.render`` became the submodule after the first ``repr(hand)`` (in a fresh process,
    where nothing imported ``hhparse.render`` before)."""
    code = f"""
import importlib, inspect, sys, types
import hhparse
(hand,) = list(hhparse.parse_text(open({str(SAMPLE)!r}, encoding="utf-8-sig").read().split("\\n\\n\\n")[0]))
before = hhparse.render
assert "hhparse.render" not in sys.modules
repr(hand)
importlib.import_module("hhparse.render")
assert isinstance(sys.modules["hhparse.render"], types.ModuleType)
assert hhparse.render is before and inspect.isfunction(hhparse.render), hhparse.render
from hhparse.render import render
assert hhparse.render(hand) == render(hand)
print("ok")
"""
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_public_functions_are_documented_with_signatures() -> None:
    for name in ("parse_file", "parse_path", "parse_text", "referee", "render", "warehouse", "report"):
        f = getattr(hhparse, name)
        assert inspect.isfunction(f) and f.__module__ == "hhparse.api", name
        assert f.__doc__ and len(f.__doc__) > 60, name
        params = inspect.signature(f).parameters.values()
        assert all(p.annotation is not inspect.Parameter.empty for p in params), name


def test_dataframes_are_numeric_and_name_their_unit(home: Path) -> None:
    df = hhparse.report("summary", home / "hh", by="stakes")
    assert isinstance(df["net"].dtype, pd.ArrowDtype) and "decimal128" in str(df["net"].dtype)
    assert pd.api.types.is_numeric_dtype(df["net"]) and pd.api.types.is_integer_dtype(df["hands"])
    assert df["vpip"].dtype == "float64"
    assert df["net"].sum() == sum(df["net"])  # exact decimal arithmetic
    assert df.attrs["unit_column"] == "unit" and "net" in df.attrs["money_columns"]
    objects = [c for c in df.columns if df[c].dtype == object]
    assert objects == [], objects
    hands = hhparse.report("hands", home / "hh")
    assert isinstance(hands["total_pot"].dtype, pd.ArrowDtype) and "total_pot" in hands.attrs["money_columns"]


def test_referee_net_is_in_minor_units() -> None:
    (hand,) = [h for h in hhparse.parse_text(SAMPLE.read_text(encoding="utf-8-sig").split("\n\n\n")[0])]
    verdict = hhparse.referee(hand)
    assert verdict.valid and hand.header.unit == "USD"
    assert sum(p.net for p in verdict.facts.players) == -verdict.facts.rake  # cents: integers
    assert "smallest unit" in (hhparse.referee.__doc__ or "")
