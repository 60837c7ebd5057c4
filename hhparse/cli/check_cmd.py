"""``hhparse check PATH...``: parse and referee hands, report every problem with file and line."""

from __future__ import annotations

import sys
from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hhparse.cli.common import add_command, fail
from hhparse.errors import Status
from hhparse.failures import os_reason
from hhparse.safetext import json_line, visible

if TYPE_CHECKING:
    from hhparse.checking import Verdict


class OutputFormat(StrEnum):
    text = "text"
    jsonl = "jsonl"


UNREADABLE = "unreadable-file"
NOT_A_FILE = "not-a-file"
USAGE_CODES = frozenset({UNREADABLE, NOT_A_FILE, "missing-path"})
"""Inputs that could not be read at all: listed apart from hands, exit code 2 (the codes of
:mod:`hhparse.checking`, repeated so that ``--help`` does not load the parser and the referee)."""


def _problems(v: Verdict, show_warnings: bool) -> list[str]:
    """Compiler-style lines: ``path:line:col: hand #id: message`` plus the line and a caret."""
    if v.parse_error is not None:
        return [v.parse_error.format()]
    out = []
    hand_id = v.hand_id or "?"
    from hhparse.checking import source_line

    for err in v.errors:
        msg = err.message
        detail = [f"{k} {v}" for k, v in (("expected", err.expected), ("found", err.found)) if v]
        if detail:
            msg += f" ({', '.join(detail)})"
        text = source_line(v.source, err.line)
        block = f"{v.source}:{err.line}:1: hand #{hand_id}: error: {msg} [{err.code}]"
        if text:
            block += f"\n    {text}\n    ^"
        out.append(block)
    for w in v.warnings if show_warnings else ():
        out.append(f"{v.source}:{w.line}:1: hand #{hand_id}: warning: {w.message} [{w.code}]")
    return out


def check(
    paths: Annotated[
        list[str], typer.Argument(metavar="PATH", help="Files, folders (recursive) or - for stdin.")
    ],
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--format", help="text: counts and problems; jsonl: one object per hand (or summary file)."
        ),
    ] = OutputFormat.text,
    no_referee: Annotated[
        bool, typer.Option("--parse-only", help="Only parse; do not replay the hands through the referee.")
    ] = False,
    show_warnings: Annotated[
        bool, typer.Option("--warnings", help="Also list warnings (text format; JSONL always has them).")
    ] = False,
    allow_unsupported: Annotated[
        bool,
        typer.Option(
            "--allow-unsupported",
            help="Do not fail on hands of other games (Hold'em, Stud, ... in mixed files).",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="List each hand of another game on a line of its own (default: a count per game).",
        ),
    ] = False,
) -> None:
    """Parse and referee hand histories; exit 0 if every hand is valid, 1 if any is not, 2 on
    usage errors.

    Each problem is printed like a compiler error (file:line, the hand number, the line and a caret),
    then one line per file with its counts. Hands of other games (Hold'em, Stud, ...) are not valid
    Courchevel hands: each file says how many of each game it holds (--verbose lists them one per
    line), and they make the exit code 1 unless --allow-unsupported. A tournament summary file is
    read as ``hhparse import`` stores it (its tournament, entrants and your place); a line in it that
    cannot be read is an error. A file or folder that cannot be read (or a FIFO or device, never
    opened) is reported, the rest is checked, and the exit code is 2.
    """
    from hhparse.checking import check_paths

    for p in paths:
        if p != "-" and not Path(p).exists() and not Path(p).is_symlink():
            try:
                Path(p).stat()
                reason = "no such file or folder"
            except OSError as exc:
                reason = os_reason(exc)
            fail("check", f"{p}: {reason}")
    per_file: dict[str, Counter[str]] = {}
    other_games: dict[str, Counter[str]] = {}
    summaries: list[Verdict] = []
    unread: list[Verdict] = []
    failed = False
    out = sys.stdout
    text = output_format is OutputFormat.text
    for verdict in check_paths(paths, referee_hands=not no_referee):
        if verdict.parse_error is not None and verdict.parse_error.code in USAGE_CODES:
            unread.append(verdict)
            if text:
                sys.stderr.write(visible(f"hhparse check: {_unread(verdict)}") + "\n")
        elif verdict.summaries:
            summaries.append(verdict)
        else:
            counts = per_file.setdefault(verdict.source, Counter())
            counts[verdict.status.value] += 1
            counts["warnings"] += len(verdict.warnings)
        if _fails(verdict, allow_unsupported):
            failed = True
        if not text:
            out.write(json_line(verdict.to_json()) + "\n")
            continue
        if verdict in unread or verdict.summaries:
            continue
        if verdict.status is Status.UNSUPPORTED and verdict.parse_error is not None:
            game = verdict.game or "unknown game"
            other_games.setdefault(verdict.source, Counter())[game] += 1
            if verbose:
                pe = verdict.parse_error
                hand = f" hand #{pe.hand_id}:" if pe.hand_id else ""
                out.write(
                    visible(f"{pe.source}:{pe.line}:{hand} {game}: not a game hhparse reads [{pe.code}]")
                    + "\n"
                )
            continue
        for problem in _problems(verdict, show_warnings):
            out.write(visible(problem, keep_newlines=True) + "\n")
    if text:
        totals: Counter[str] = Counter()
        for source, counts in per_file.items():
            totals.update(counts)
            line = f"{source}: {_counts(counts)}"
            games = other_games.get(source)
            if games:
                line += "; other games: " + ", ".join(f"{n} {g}" for g, n in games.most_common())
            out.write(visible(line) + "\n")
        for verdict in summaries:
            for t in verdict.summaries:
                out.write(visible(f"{verdict.source}: {t.describe()}") + "\n")
        for verdict in unread:
            out.write(visible(_unread(verdict)) + "\n")
        if len(per_file) > 1:
            out.write(f"total: {_counts(totals)} in {len(per_file)} files\n")
        if unread:
            out.write(f"{len(unread)} input(s) not read (listed above); everything else was checked\n")
        if not per_file and not summaries and not unread:
            out.write("no hands found\n")
    out.flush()
    if unread:
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)


def _unread(v: Verdict) -> str:
    assert v.parse_error is not None
    what = "skipped, never opened" if v.parse_error.code == NOT_A_FILE else "could not be read"
    return f"{v.source}: {what}: {v.parse_error.message} [{v.parse_error.code}]"


def _fails(v: Verdict, allow_unsupported: bool) -> bool:
    """Invalid and unparsed hands (and unreadable summary lines) fail the run; unsupported games
    too unless allowed."""
    if v.status in (Status.INVALID, Status.UNPARSED):
        return True
    return v.status is Status.UNSUPPORTED and not allow_unsupported


def _counts(counts: Counter[str]) -> str:
    n = sum(counts[s.value] for s in Status)
    parts = [f"{counts[s.value]} {s.value}" for s in Status if counts[s.value]]
    if counts["warnings"]:
        parts.append(f"{counts['warnings']} warning{'' if counts['warnings'] == 1 else 's'}")
    return f"{n} hands ({', '.join(parts)})" if parts else f"{n} hands"


def register(app: typer.Typer) -> None:
    add_command(
        app,
        "check",
        check,
        examples=(
            "hhparse check sample_histories/",
            "hhparse check --warnings hands.txt",
            "hhparse check --format jsonl hands.txt > verdicts.jsonl",
            "cat hands.txt | hhparse check -",
            "hhparse check --allow-unsupported 8-game.txt  # other games: counted",
        ),
    )
