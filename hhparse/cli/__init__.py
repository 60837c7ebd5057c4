"""The ``hhparse`` command line: one small module per command, registered here.

Exit codes are the same for every command (:class:`hhparse.failures.ExitCode`, the README, the end
of each command's ``--help``): 0 all accepted, 1 hands rejected / invalid / conflicting, 2 usage
or environment error, 3 warehouse damaged, 4 internal error (traceback in a log file), 130
interrupted. Each command is registered through :func:`hhparse.cli.common.add_command`, which puts
it inside the one error boundary and gives its ``--help`` examples and the exit codes.

Importing this package is cheap on purpose (``hhparse --help`` and shell completion run it on
every key press): no command module imports pandas, pyarrow, duckdb, matplotlib or jinja2 before
the command runs (``tests/test_startup.py``; ``bench/startup.py`` measures it).
"""

from __future__ import annotations

from importlib import import_module
from typing import Annotated

import typer

from hhparse import __version__
from hhparse.cli import common
from hhparse.cli.common import Group, epilog, help_text

app = typer.Typer(
    name="hhparse",
    cls=Group,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    epilog=epilog(
        (
            "hhparse check sample_histories/",
            "hhparse import sample_histories/ --warehouse ~/hh-warehouse",
            "hhparse report summary -w ~/hh-warehouse --player Hero --by stakes",
            "hhparse report --list       # every report, every column defined",
        )
    ),
)

# Each module defines `register(app: typer.Typer) -> None`.
_COMMAND_MODULES = (
    "check_cmd",
    "import_cmd",
    "compact_cmd",
    "ev_cmd",
    "sql_cmd",
    "report_cmd",
    "replay_cmd",
    "synth_cmd",
)

for _name in _COMMAND_MODULES:
    import_module(f"hhparse.cli.{_name}").register(app)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"hhparse {__version__}")
        raise typer.Exit()


@app.callback(
    help=help_text(
        """Parse, referee and analyse PokerStars Courchevel Hi/Lo hand histories (and Courchevel,
        5 Card Omaha Hi/Lo, 5 Card Omaha, Omaha Hi/Lo, Omaha).

        Check files as they are, import them into a Parquet warehouse, then read reports (PokerTracker's
        stats, hi/lo splits, the door card, tournaments) or ask any SQL. Every command has examples in
        its --help."""
    )
)
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_show_version, help="Print the version and exit."),
    ] = False,
) -> None:
    """The root options (only ``--version``): each command does the work."""


def main() -> None:
    """Console-script entry point: the process is the command's own (:data:`common.OWN_PROCESS`),
    numpy's BLAS starts no threads in it (:func:`hhparse.lazy.one_blas_thread`: before any
    command imports numpy), and a command that asked for it ends the process as soon as it
    returns (:func:`hhparse.cli.common.end_at_once`)."""
    from hhparse.lazy import one_blas_thread

    common.OWN_PROCESS = True
    one_blas_thread()
    try:
        app()
    except SystemExit as exc:
        common.exit_if_asked(exc)
        raise
