"""The built wheel ships the grammar and parses a hand when installed non-editable elsewhere."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
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


def _unoptimised_cc(folder: Path) -> dict[str, str]:
    """The environment of a wheel build whose C compiler is Python's own (``sysconfig``'s ``CC``)
    with ``-O0`` last on every command line, so that it wins over mypyc's ``-O3``.

    Why: optimising the compiled modules' C (one file of several MB) was most of this test's CPU,
    and nothing here depends on it: the wheel is still built by the same hook (``hatch_build.py``,
    ``HHPARSE_COMPILE`` as CI sets it), mypyc still generates and compiles every module of
    ``COMPILED`` and the C kernel, and the script below still requires them compiled, shipped and
    imported from the installed wheel. The optimised build (``-O3``, ``-Werror``) is the editable
    install every other test runs on, which ``make test`` builds before pytest."""
    cc = shlex.split(str(sysconfig.get_config_var("CC") or "cc"))
    wrapper = folder / "cc-O0"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.join(cc)} "$@" -O0\n')
    wrapper.chmod(0o755)
    return dict(os.environ, CC=str(wrapper))


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
        env=_unoptimised_cc(tmp_path),
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
    import hhparse.parsing

    # compiled here, and the wheel was to be compiled too: it is (its unoptimised CC worked)
    pure = os.environ.get("HHPARSE_COMPILE", "auto").strip().lower() in ("0", "no", "false", "off")
    if not pure and not (hhparse.parsing.__file__ or "").endswith(".py"):
        assert "compiled: ['hhparse.parsing', 'hhparse.engine']" in out.stderr, out.stderr
