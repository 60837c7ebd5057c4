"""Every command of the README runs as written (issue 16: its example hand id was not in
sample_histories/, and the paths it showed exist on no system).

The README's ``sh`` blocks are run, in order and verbatim, as one bash script (``set -e``: the
first failing command fails the test and is named) in a copy of the repository's README and
``sample_histories/``, in an 80-column terminal, with ``HOME`` set to a fresh folder so that
``~/hh-warehouse`` is the test's own; then its ``python`` blocks, in the same folder. The install block (``sh install``:
``make``, ``pipx``, ``pip``) cannot run here (it creates virtual environments and compiles):
``make -n`` proves its targets exist and what they would run, and the package declares the
``hhparse`` command that ``pip``/``pipx`` install. The ``sh setup`` blocks (``import --watch``
on the client's folder, services started at login) run until stopped, on another system: each
``hhparse`` option they use is checked against the command's ``--help`` instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(kind: str) -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [body for info, body in _FENCE.findall(text) if info.strip() == kind]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HHPARSE_")}
    bin_dir = str(Path(sys.executable).parent)
    env.update(
        HOME=str(home),
        PATH=bin_dir + os.pathsep + env.get("PATH", ""),
        NO_COLOR="1",
        COLUMNS="80",
        HHPARSE_NO_PROGRESS="1",
        HHPARSE_LOG_DIR=str(home / "logs"),
    )
    return env


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("readme")
    shutil.copy(REPO / "README.md", root)
    shutil.copytree(REPO / "sample_histories", root / "sample_histories")
    (root / "home").mkdir()
    return root


@pytest.mark.slow
def test_every_shell_command_runs_as_written(copy: Path) -> None:
    blocks = _blocks("sh")
    assert len(blocks) >= 2
    script = "set -eo pipefail\ntrap 'echo \"README command failed: $BASH_COMMAND\" >&2' ERR\n" + "\n".join(
        blocks
    )
    run = subprocess.run(
        ["bash", "-c", script],
        cwd=copy,
        env=_env(copy / "home"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:] + run.stdout[-3000:]
    # what the commands say they write is there
    for made in (
        "hands.txt",
        "verdicts.jsonl",
        "graph.png",
        "hands.html",
        "pages/index.html",
        "summary.csv",
        "hand-121300022398.html",
        "hand.html",
        "synthetic",
    ):
        assert (copy / made).exists(), made
    assert (copy / "home" / "hh-warehouse" / "manifest.json").exists()
    assert "Hand #121300022398" in run.stdout  # the example hand is in sample_histories/


@pytest.mark.slow
def test_python_example_runs_as_written(copy: Path) -> None:
    if not (copy / "home" / "hh-warehouse").exists():
        test_every_shell_command_runs_as_written(copy)
    (block,) = _blocks("python")
    run = subprocess.run(
        [sys.executable, "-c", block],
        cwd=copy,
        env=_env(copy / "home"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "bb/100" in run.stdout or "Big blinds" in run.stdout


def test_install_commands_exist(tmp_path: Path) -> None:
    (block,) = _blocks("sh install")
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make demo", "make test", "pipx install .", "python3 -m pip install ."]
    for target in ("demo", "test"):  # a dry run (-n executes nothing), with a venv of its own to plan for
        dry = subprocess.run(
            ["make", "-n", "-C", str(REPO), f"VENV={tmp_path}/venv", f"WAREHOUSE={tmp_path}/wh", target],
            capture_output=True,
            text=True,
            check=False,
        )
        assert dry.returncode == 0 and "pip install" in dry.stdout, dry.stderr
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["hhparse"] == "hhparse.cli:main"


def test_hand_history_folders_are_named_for_both_systems() -> None:
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert r"%LOCALAPPDATA%\PokerStars\HandHistory\<screen name>" in text
    assert "~/Library/Application Support/PokerStars/HandHistory/<screen name>" in text
    assert "~/PokerStars/HandHistory" not in text  # no system writes there


def test_setup_commands_use_real_options() -> None:
    blocks = _blocks("sh setup")
    assert blocks, "the README shows how to watch the client's folder"
    helps = subprocess.run(
        [sys.executable, "-m", "hhparse", "import", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        check=True,
    ).stdout
    used = {
        opt
        for block in blocks
        for line in block.splitlines()
        if "hhparse import" in line
        for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line)
    }
    assert "--watch" in used
    for opt in used:
        assert opt in helps, f"the README uses {opt}, which `hhparse import --help` does not list"
