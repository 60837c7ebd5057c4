"""Options, output helpers, help text and the CLI's one error boundary, declared once so they
never drift.

The boundary (:func:`guarded`, applied to every command by :func:`add_command`): an expected
failure — an :class:`~hhparse.failures.HhparseError` (usage, not a warehouse, locked, damaged) or
an :class:`OSError` (permissions, full disk, read-only, a symbolic link loop) — is one sentence on
stderr naming the path and what to do, with the exit code of :class:`~hhparse.failures.ExitCode`.
Anything else is a bug: the traceback goes to a log file, the sentence says where, exit code 4.

Help text (:func:`help_text`): a command's docstring is written for readers of the code (wrapped
at the line length, ``double backquotes``); its ``--help`` is the same text with paragraphs
unwrapped (the terminal wraps them at its own width), code in single quotes and Rich markup
escaped, followed by the command's examples and the exit codes. Boolean flags show no value
placeholder (:class:`Command`).

Start-up: this module and every ``*_cmd`` module import only typer and light modules of hhparse
at import time; pandas, pyarrow, duckdb, matplotlib and jinja2 are imported inside the command
that needs them (``tests/test_startup.py``), so ``hhparse --help`` and ``hhparse check`` start fast.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import platform
import re
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from hhparse.failures import ExitCode, HhparseError, UsageError, describe_os_error
from hhparse.safetext import visible

OWN_PROCESS = False
"""Whether this process runs nothing but the command: set by :func:`hhparse.cli.main` (the
``hhparse`` program, ``python -m hhparse``), never when the Typer app is called from other code
(tests, a caller's own program), which may go on to use what the command keeps out of it
(:func:`keep_pandas_out`)."""


def keep_pandas_out() -> None:
    """Keep pandas out of the rest of this process, for a command that never hands a table to
    pandas, in a process of its own (:data:`OWN_PROCESS`): :func:`hhparse.lazy.refuse_pandas`."""
    from hhparse.lazy import refuse_pandas

    refuse_pandas()


def leave_heap_to_the_os() -> None:
    """At the end of a command in a process of its own (:data:`OWN_PROCESS`), move every object
    out of the collector's sight (``gc.freeze``), so that Python's finalization skips its last
    full collection: it walks everything still alive — the parser's and referee's tables, the
    index of stored hands, pyarrow's and DuckDB's modules — only to free what the system frees
    anyway when the process ends, and that walk was a measurable part of a short import's exit
    (``docs/performance.md``). Objects in reference cycles are then not finalized: only for a
    command whose files are all closed and committed by then (``import``: each batch is
    committed with its ``fsync``s, the writer lock released); stdout and stderr are flushed at
    exit whatever the collector does. A no-op when the app is called from other code."""
    if OWN_PROCESS:
        import gc

        gc.freeze()


_END_AT_ONCE = False


def end_at_once() -> None:
    """Have the program end the process as soon as the command returns (:func:`exit_if_asked`):
    for a command in a process of its own (:data:`OWN_PROCESS`) whose files are all committed and
    closed by then (``import``). Python's own exit would still tear down every module (pyarrow's,
    numpy's, DuckDB's; each object freed one by one, Arrow's and DuckDB's pools and threads
    stopped) to give back memory the system takes back anyway: time the user waits for after
    the summary is printed (``docs/performance.md``). A no-op when the app is called from other
    code."""
    global _END_AT_ONCE
    if OWN_PROCESS:
        _END_AT_ONCE = True


def exit_if_asked(exc: SystemExit) -> None:
    """End the process now, with ``exc``'s exit code, if the command asked for it
    (:func:`end_at_once`): stdout and stderr are flushed first, then ``os._exit``; no ``atexit``
    handler runs (hhparse registers none; the pool, its threads and the warehouse are closed by
    then). Returns (and the interpreter exits as usual) when the command did not ask, when the
    code is not a number (Python prints it), or when a stream cannot be flushed (a closed pipe:
    Python reports it as it always has)."""
    code = 0 if exc.code is None else exc.code
    if not _END_AT_ONCE or not isinstance(code, int):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        return
    os._exit(code)


WarehouseOption = Annotated[
    Path | None,
    typer.Option(
        "--warehouse",
        "-w",
        metavar="DIR",
        help="Warehouse folder (default: $HHPARSE_WAREHOUSE or ./hhparse-warehouse).",
    ),
]

OutOption = Annotated[
    Path | None, typer.Option("--out", "-o", metavar="FILE", help="Write to this file instead of stdout.")
]

CsvRawOption = Annotated[
    bool,
    typer.Option(
        "--csv-raw",
        help="CSV: write text cells exactly as stored. By default a cell starting with = + - @, tab "
        "or CR gets a leading ' so a spreadsheet shows it as text instead of running it as a formula.",
    ),
]

EXIT_CODES_HELP = (
    "Exit codes: 0 all accepted; 1 hands rejected, invalid or conflicting; 2 usage or "
    "environment error (bad option, missing or unreadable input, not a warehouse, locked, "
    "permission denied, disk full); 3 warehouse damaged; 4 internal error (traceback in the "
    "log file named); 130 interrupted. A last hand still being written (pending: read by the next "
    "import) changes none; `import --watch` stopped by Ctrl-C or SIGTERM ends with 0."
)
"""The epilog of every command's ``--help`` (the README has the same table)."""

ENV_LOG_DIR = "HHPARSE_LOG_DIR"

F = TypeVar("F", bound=Callable[..., Any])


def emit(text: str, out: Path | None) -> None:
    """Write a rendered result to ``out`` (UTF-8) or to stdout."""
    if out is not None:
        out.write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)


def fail(command: str, message: str, code: int = ExitCode.USAGE) -> NoReturn:
    """Print ``hhparse COMMAND: message`` (control characters made visible) and exit ``code``."""
    typer.echo(f"hhparse {command}: {visible(message)}", err=True)
    raise typer.Exit(int(code))


def log_dir() -> Path:
    """Where tracebacks of internal errors go: ``$HHPARSE_LOG_DIR``, else the XDG state folder
    (``~/.local/state/hhparse``), else the system's temporary folder."""
    env = os.environ.get(ENV_LOG_DIR)
    if env:
        return Path(env)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "hhparse"


def write_crash_log(command: str, exc: BaseException) -> Path | None:
    """Write the traceback of ``exc`` (with the command line and versions) to a new log file;
    its path, or ``None`` if no folder was writable."""
    from hhparse import __version__

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    text = "".join(
        [
            f"hhparse {__version__} {command}: internal error at {stamp}\n",
            f"command line: {sys.argv!r}\n",
            f"python {platform.python_version()} on {platform.platform()}\n\n",
            *traceback.format_exception(exc),
        ]
    )
    for folder in (log_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"hhparse-crash-{stamp}-{os.getpid()}.log"
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None


def guarded(command: str, func: F) -> F:
    """``func`` inside the CLI's error boundary (see the module docstring)."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            fail(
                command,
                "interrupted; everything published before is kept: run the same command again to go on",
                ExitCode.INTERRUPTED,
            )
        except HhparseError as exc:
            fail(command, str(exc), exc.exit_code)
        except BrokenPipeError:
            # the reader of our output went away (`| head`): stop quietly, like a C tool would
            with contextlib.suppress(OSError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(128 + 13) from None
        except OSError as exc:
            fail(command, describe_os_error(exc), ExitCode.USAGE)
        except Exception as exc:
            if _is_click_exception(exc):
                raise
            log = write_crash_log(command, exc)
            where = f"the details are in {log}" if log else "no log folder was writable"
            fail(
                command,
                f"internal error ({type(exc).__name__}: {str(exc)[:200]}); this is a bug in hhparse — "
                f"{where}; please report it with that file",
                ExitCode.INTERNAL,
            )

    return run  # type: ignore[return-value]


def _is_click_exception(exc: BaseException) -> bool:
    """Typer's own usage errors (bad option values raised from inside a command)."""
    return type(exc).__module__.startswith(("typer", "click"))


def query_failure(exc: Exception, warehouse: Path, what: str) -> HhparseError:
    """A DuckDB error as a sentence: one that names a file of the warehouse means a damaged
    warehouse (exit 3: a listed file vanished or is corrupt since it was checked); any other is
    a problem with what was asked (exit 2: an SQL error, a value DuckDB refused)."""
    from hhparse.tables.store import damage_in  # pyarrow: not for commands that never need it

    damage = damage_in(exc, warehouse)
    if damage is not None:
        return damage
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return UsageError(f"{what} failed: {message}")


def warehouse_dir(option: Path | None) -> Path:
    """The warehouse a command works on: ``--warehouse``, else ``$HHPARSE_WAREHOUSE``, else
    ``./hhparse-warehouse``; ``~`` expanded (``--warehouse=~/hh`` reaches us unexpanded)."""
    from hhparse.tables.store import default_warehouse  # pyarrow: only for commands that need it

    return Path(os.path.expanduser(option)) if option is not None else default_warehouse()


def _shown_params(params: list[Any]) -> list[Any]:
    """Parameters as ``--help`` shows them: a boolean flag without a value placeholder (typer
    writes ``--parse-only <bool>``, which reads as if the flag took a value: ``--parse-only true
    x.txt`` then fails with "no such file: true"), and its help with Rich markup escaped (Rich took
    ``'hhparse[cluster]'`` for a tag and showed ``'hhparse'``)."""
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
        if isinstance(getattr(param, "help", None), str):
            param.help = _markup_escape(param.help)
    return params


class Command(TyperCommand):
    """A command whose parameters show as :func:`_shown_params` says."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _shown_params(super().get_params(ctx))


class Group(TyperGroup):
    """The root ``hhparse`` group, its parameters shown as :class:`Command`'s."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _shown_params(super().get_params(ctx))


_CODE = re.compile(r"``([^`]+)``")
_ROLE = re.compile(r":(?:func|class|mod|data|meth|attr):`~?(?:[\w.]+\.)?([\w]+)`")


def _markup_escape(text: str) -> str:
    """Rich markup escaped: a ``[`` that could open a tag is written ``\\[``."""
    return re.sub(r"(?<!\\)\[(?=[a-zA-Z/#@])", r"\\[", text)


def help_text(doc: str | None) -> str:
    """A docstring as ``--help`` shows it: paragraphs unwrapped (the terminal wraps them), code
    quoted once instead of twice, Sphinx roles reduced to their name, Rich markup escaped. A
    paragraph whose lines start with two spaces (a list, commands) keeps its lines."""
    paragraphs = []
    for para in inspect.cleandoc(doc or "").split("\n\n"):
        lines = [ln for ln in para.split("\n") if ln.strip()]
        if not lines:
            continue
        if (
            all(ln.startswith("  ") for ln in lines[1:])
            and len(lines) > 1
            and lines[0].rstrip().endswith(":")
        ):
            text = "\n".join(ln.rstrip() for ln in lines)
        else:
            text = " ".join(ln.strip() for ln in lines)
        text = _ROLE.sub(r"\1", _CODE.sub(r"'\1'", text))
        paragraphs.append(_markup_escape(text))
    return "\n\n".join(paragraphs)


def epilog(examples: Sequence[str]) -> str:
    """The end of a command's ``--help``: its examples (one per line, comments after ``#``),
    then the exit codes."""
    if not examples:
        return EXIT_CODES_HELP
    lines = "\n".join(f"  {_markup_escape(e)}" for e in examples)
    return f"Examples:\n{lines}\n\n{EXIT_CODES_HELP}"


def add_command(
    app: typer.Typer, name: str, func: Callable[..., Any], *, examples: Sequence[str] = ()
) -> None:
    """Register ``func`` as ``hhparse NAME`` inside the error boundary; its ``--help`` is the
    docstring (:func:`help_text`), the ``examples`` and the exit codes."""
    app.command(name, cls=Command, help=help_text(func.__doc__), epilog=epilog(examples))(guarded(name, func))
