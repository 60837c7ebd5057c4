"""The built wheel ships the grammar and parses a hand when installed non-editable elsewhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import sys, hhparse.parsing as p
from hhparse.model import Hand
assert "site-packages" in p.__file__, p.__file__
(h,) = p.parse_text(sys.stdin.read())
assert isinstance(h, Hand), h
# the HTML pages' templates, scripts and queries ship in the wheel
from hhparse.reports import html
from hhparse.resources import read_text
for name in ("base.css", "replay.css", "replay.js", "table.js", "graph.js"):
    assert html.static(name)
for name in ("hands", "players", "actions", "pots", "awards", "showdowns"):
    assert "SELECT" in read_text("analytics", "replay", name + ".sql")
for name in ("graph_lines", "player_hours"):
    assert "SELECT" in read_text("analytics", "pages", name + ".sql")
page = html.replay_page([], title="t")
assert page.startswith("<!DOCTYPE html>") and "hhparse.Replayer" not in page and "function Replayer" in page
# issue 16: the public API keeps its signatures and documentation in the compiled build
import contextlib, inspect, io, pydoc
import hhparse
import hhparse.engine, hhparse.parsing
compiled = [m.__name__ for m in (hhparse.parsing, hhparse.engine) if not m.__file__.endswith(".py")]
print("compiled:", compiled, file=sys.stderr)
if compiled:  # the C kernel is built and shipped beside the mypyc modules (hatch_build.EXTENSIONS)
    import hhparse.rules._equity_kernel
    assert not hhparse.rules._equity_kernel.__file__.endswith(".py")
for name in ("parse_file", "parse_path", "parse_text", "referee", "render", "warehouse", "report"):
    f = getattr(hhparse, name)
    sig = inspect.signature(f)
    assert sig.parameters and all(p.annotation is not inspect.Parameter.empty for p in sig.parameters.values()), (name, sig)
    assert f.__doc__ and len(f.__doc__) > 80, name
    text = " ".join(pydoc.render_doc(f, renderer=pydoc.plaintext).split())
    assert " ".join(f.__doc__.split(".")[0].split()) in text, (name, text)
assert "path: 'str | os.PathLike[str]'" in str(inspect.signature(hhparse.parse_file)) or "path: str" in str(inspect.signature(hhparse.parse_file))
assert set(dir(hhparse)) >= {"parse_file", "referee", "report", "warehouse", "Hand", "REPORTS"}
repr(h); import hhparse.render
assert inspect.isfunction(hhparse.render), hhparse.render  # never the submodule
print(h.hand_id)
"""


@pytest.mark.slow
def test_wheel_install_and_parse(tmp_path: Path) -> None:
    from test_bad_input import GOOD

    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(REPO),
        ],
        check=True,
        timeout=600,
    )
    (wheel,) = dist.glob("hhparse-*.whl")
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=60
    )
    py = venv / "bin" / "python"
    # reuse the test environment's dependencies (lark, ...) without its editable hhparse:
    # a .pth line appends our site-packages after the new venv's own, so the wheel wins
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    (Path(site) / "zz_test_deps.pth").write_text("\n".join(ours) + "\n")
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
        check=True,
        timeout=300,
    )
    out = subprocess.run(
        [str(py), "-c", SCRIPT],
        input=GOOD,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"
