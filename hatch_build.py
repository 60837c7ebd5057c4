"""Hatch build hook: compile the referee and the parser's builder with mypyc at install.

Why: both are fully typed Python (``mypy --strict`` clean). Compiled by mypyc to C, the very same
source runs the referee about twice as fast and the parser somewhat faster (its time is mostly
regex matches and lark, which are C either way); that is what brings the end-to-end import to its
targets (figures: ``docs/performance.md``, from ``bench/``). The source stays the reference: the
compiled modules are built from it at install time and nothing generated is committed.

Beside them, :data:`EXTENSIONS` are small C extension modules, built by the same setuptools run:
code whose work is loops over integer tables that numpy can only do in hundreds of small calls a
spot, and mypyc only over Python lists of boxed integers (``hhparse/rules/_equity_kernel.c``: the
all-in EV stage's exact counting of the boards and its settlement, and Monte Carlo's hands valued
on their boards). Each has a Python reference that runs when it
is missing (a pure-Python install) and that the tests compare it with.

What is compiled is :data:`COMPILED`: the referee, the rules it calls, the grammar's builder
(``hhparse/parsing.py``), the LALR driver that runs lark's tables (``hhparse/lalr.py``) and the
model, whose records are native classes with read-only attributes (built in one C call and read
directly by the compiled referee; a *frozen dataclass* compiled by mypyc keeps its slow Python
``__init__``, which is why the model is not written as one), the referee's facts
(``hhparse/facts.py``, same records), amounts (``hhparse/money.py``), the memo rule
(``hhparse/memo.py``), the table builder (``hhparse/tables/build.py``: its per-hand rows read
those records natively) and the all-in EV stage's reading of the facts (``hhparse/ev.py``; the
equity engine it calls, ``hhparse/rules/equity.py``, is numpy and stays Python; its exact board counting has a C kernel, below). What reaches into lark's internals stays in ``hhparse/larkglue.py``,
which mypyc could not compile. The splitter (``hhparse/splitter.py``) runs in the import's main
process ahead of every worker; its blocks, and the classes mypyc cannot make native (an exception,
an ``io`` stream), stay plain Python in ``hhparse/blocks.py``.
``HHPARSE_COMPILE`` decides:

* unset or ``auto`` — compile; if that fails (no C compiler), warn and install pure Python;
* ``1`` — compile or fail the build (``make`` and CI use this, so a slow build cannot pass);
* ``0`` — pure Python, no compiler needed.

A wheel gets the extension modules next to the sources it ships. An editable install
(``pip install -e .``) builds them in place, beside their ``.py`` files, where Python's import
system prefers them: after editing a compiled module, reinstall (``make test`` does it) or the
old compiled code still runs. ``tests/conftest.py`` refuses to run on such stale modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Modules compiled by mypyc, as paths from the project root.
COMPILED = (
    "hhparse/lalr.py",
    "hhparse/model.py",
    "hhparse/facts.py",
    "hhparse/money.py",
    "hhparse/memo.py",
    "hhparse/splitter.py",
    "hhparse/tables/build.py",
    "hhparse/parsing.py",
    "hhparse/engine/__init__.py",
    "hhparse/engine/facts_builder.py",
    "hhparse/engine/replay.py",
    "hhparse/engine/settle.py",
    "hhparse/engine/table.py",
    "hhparse/engine/view.py",
    "hhparse/rules/cards.py",
    "hhparse/rules/evaluate.py",
    "hhparse/rules/pots.py",
    "hhparse/ev.py",
)
#: C extension modules: (module, source from the project root). Each module's Python caller
#: falls back to its numpy reference when the module is missing.
EXTENSIONS = (("hhparse.rules._equity_kernel", "hhparse/rules/_equity_kernel.c"),)
#: mypyc's shared runtime library for the group (a top-level module next to ``hhparse``).
GROUP = "hhparse_native"

_SETUP = """
import sys
from setuptools import Extension, setup
from mypyc.build import mypycify
target, paths = sys.argv[1], sys.argv[2:]
sys.argv = [sys.argv[0], "build_ext", *(%r)]
# The build environment has mypy but not the runtime dependencies (lark, pyarrow, pandas): only
# the compiled modules must type-check here (``mypy --strict hhparse`` checks the rest in CI).
options = ["--ignore-missing-imports", "--follow-imports=silent", "--no-warn-unused-ignores"]
modules = mypycify([*options, *paths], opt_level="3", group_name=%r, target_dir=target)
modules += [Extension(name, [source]) for name, source in %r]
setup(name="hhparse-native", packages=[], ext_modules=modules)
"""


def extension_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def built_in_place(root: Path) -> list[Path]:
    """Every extension module an editable install left beside the sources (including modules
    since dropped from :data:`COMPILED`, which would otherwise shadow their source for good)."""
    suffix = extension_suffix()
    return sorted([*(root / "hhparse").rglob(f"*{suffix}"), *root.glob(f"{GROUP}__mypyc*{suffix}")])


def compile_modules(root: Path, build_args: list[str]) -> None:
    """Run mypyc + the C compiler over :data:`COMPILED`, and the C compiler over
    :data:`EXTENSIONS` (in a child process, from ``root``)."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [*build_args, "--build-temp", str(Path(tmp) / "obj")]
        cmd = [
            sys.executable,
            "-c",
            _SETUP % (args, GROUP, list(EXTENSIONS)),
            str(Path(tmp) / "c"),
            *COMPILED,
        ]
        env = dict(os.environ, MYPY_CACHE_DIR=str(Path(tmp) / "mypy-cache"))
        done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
            raise RuntimeError(f"mypyc build failed:\n{tail}")


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles :data:`COMPILED` for ``wheel`` builds (standard and editable)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        mode = os.environ.get("HHPARSE_COMPILE", "auto").strip().lower()
        if version == "editable":  # never leave old compiled code shadowing the source
            for stale in built_in_place(root):
                stale.unlink()
        if mode in ("0", "no", "false", "off"):
            return
        try:
            if version == "editable":
                compile_modules(root, ["--inplace"])
                return
            out = Path(tempfile.mkdtemp(prefix="hhparse-mypyc-"))
            compile_modules(root, ["--build-lib", str(out)])
        except Exception as exc:
            if mode in ("1", "yes", "true", "on"):
                raise
            sys.stderr.write(f"hhparse: compiling with mypyc failed, installing pure Python\n{exc}\n")
            return
        suffix = extension_suffix()
        for lib in out.rglob(f"*{suffix}"):
            build_data["force_include"][str(lib)] = str(lib.relative_to(out))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self._out = out

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
