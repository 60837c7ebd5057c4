"""The ``hhparse`` command line: one small module per command, registered here.

Exit codes are the same for every command (:class:`hhparse.failures.ExitCode`, the README, the end
of each command's ``--help``): 0 all accepted, 1 hands rejected / invalid / conflicting, 2 usage
or environment error, 3 warehouse damaged, 4 internal error (traceback in a log file), 130
interrupted. Each command is registered through :func:`hhparse.cli.common.add_command`, which puts
it inside the one error boundary.
"""

from __future__ import annotations

from importlib import import_module

import typer

from hhparse.cli.common import EXIT_CODES_HELP

app = typer.Typer(
    name="hhparse",
    help="Parse, referee and analyse PokerStars Courchevel Hi/Lo hand histories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    epilog=EXIT_CODES_HELP,
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


def main() -> None:
    """Console-script entry point."""
    app()
