"""The ``hhparse`` command line: one small module per command, registered here.

Exit codes are the same for every command: 0 everything fine, 1 some hands rejected / invalid,
2 usage or configuration error (missing path, unreadable file, bad option).
"""

from __future__ import annotations

from importlib import import_module

import typer

app = typer.Typer(
    name="hhparse",
    help="Parse, referee and analyse PokerStars Courchevel Hi/Lo hand histories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module defines `register(app: typer.Typer) -> None`.
_COMMAND_MODULES = (
    "check_cmd",
    "import_cmd",
    "compact_cmd",
    "ev_cmd",
    "sql_cmd",
    "report_cmd",
    "synth_cmd",
)

for _name in _COMMAND_MODULES:
    import_module(f"hhparse.cli.{_name}").register(app)


def main() -> None:
    """Console-script entry point."""
    app()
