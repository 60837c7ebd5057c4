"""``hhparse synth``: write synthetic PokerStars hand histories (deterministic by seed).

Thin on purpose: options are parsed and validated here, everything else is
:func:`hhparse.synth.write`, so the tests and the CLI run the same code.
"""

from __future__ import annotations

import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hhparse.cli.common import add_command
from hhparse.rules.variants import VARIANTS  # the table of games: records only, light

if TYPE_CHECKING:
    GameChoice = str
else:  # the choices typer shows and checks: every game of the table, or "mixed"
    GameChoice = StrEnum("GameChoice", {slug: slug for slug in (*(v.slug for v in VARIANTS), "mixed")})


class StructureChoice(StrEnum):
    PL = "PL"
    NL = "NL"
    FL = "FL"
    mixed = "mixed"


class KindChoice(StrEnum):
    cash = "cash"
    tournament = "tournament"
    mixed = "mixed"


def _players(text: str) -> tuple[int, int]:
    """``"6"`` -> (6, 6); ``"2-9"`` -> (2, 9)."""
    lo, _, hi = text.partition("-")
    try:
        pair = (int(lo), int(hi or lo))
    except ValueError:
        raise typer.BadParameter(f"expected N or N-M, got {text!r}") from None
    if not 2 <= pair[0] <= pair[1] <= 9:
        raise typer.BadParameter(f"players must be within 2-9, got {text!r}")
    return pair


def synth(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands to generate.")] = 100,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives byte-identical output.")] = 0,
    game: Annotated[GameChoice, typer.Option(help="Game, or 'mixed' for all of them.")] = "courchevel-hilo",
    structure: Annotated[
        StructureChoice, typer.Option(help="Betting structure, or 'mixed'.")
    ] = StructureChoice.PL,
    kind: Annotated[KindChoice, typer.Option(help="Cash tables, tournaments, or 'mixed'.")] = KindChoice.cash,
    players: Annotated[str, typer.Option(help="Players per table: N or N-M, within 2-9.")] = "2-6",
    hero: Annotated[str, typer.Option(help="The screen name whose hole cards are dealt.")] = "Hero",
    out: Annotated[
        Path | None,
        typer.Option(
            help="A directory (one file per table and day, client names) or a .txt file; default stdout."
        ),
    ] = None,
    crlf: Annotated[bool, typer.Option(help="With a single --out FILE / stdout: CRLF line ends.")] = False,
    stats: Annotated[
        bool, typer.Option("--stats", help="Print coverage counts and speed to stderr.")
    ] = False,
) -> None:
    """Generate synthetic hand histories that parse and referee as valid."""
    from hhparse.synth import GAMES, SynthConfig, write  # the engine: not for --help
    from hhparse.synth.output import FileStyle

    try:
        config = SynthConfig(
            hands=hands,
            seed=seed,
            games=tuple(GAMES) if game == "mixed" else (str(game),),
            structures=("PL", "NL", "FL") if structure is StructureChoice.mixed else (structure.value,),
            kinds=("cash", "tournament") if kind is KindChoice.mixed else (kind.value,),
            players=_players(players),
            hero=hero,
        )
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    style = FileStyle("\r\n" if crlf else "\n", False)
    start = time.perf_counter()
    if out is None:
        coverage = write(config, stream=sys.stdout, style=style)
    elif out.suffix.lower() == ".txt":
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="") as fh:
            coverage = write(config, stream=fh, style=style)
    else:
        coverage = write(config, directory=out)
    elapsed = time.perf_counter() - start
    if stats:
        typer.echo(coverage.format(), err=True)
        typer.echo(f"speed: {coverage.hands / max(elapsed, 1e-9):,.0f} hands/s ({elapsed:.2f} s)", err=True)


def register(app: typer.Typer) -> None:
    """Add ``synth`` to the ``hhparse`` application."""
    add_command(
        app,
        "synth",
        synth,
        examples=(
            "hhparse synth --hands 10000 --seed 7 --game courchevel-hilo --out dir/",
            "hhparse synth --hands 50 --kind tournament --out one-file.txt",
        ),
    )
