"""``hhparse check PATH...``: parse and referee hands, report every problem with file and line."""

from __future__ import annotations

import json
import sys
from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from hhparse.checking import Verdict, check_paths, source_line
from hhparse.errors import Status


class OutputFormat(StrEnum):
    text = "text"
    jsonl = "jsonl"


USAGE_CODES = frozenset({"unreadable-file", "missing-path"})


def _problems(v: Verdict) -> list[str]:
    """Compiler-style lines: ``path:line:col: hand #id: message`` plus the line and a caret."""
    if v.parse_error is not None:
        return [v.parse_error.format()]
    out = []
    hand_id = v.hand_id or "?"
    for err in v.errors:
        msg = err.message
        if err.expected is not None or err.found is not None:
            msg += f" (expected {err.expected}, found {err.found})"
        text = source_line(v.source, err.line)
        block = f"{v.source}:{err.line}:1: hand #{hand_id}: error: {msg} [{err.code}]"
        if text:
            block += f"\n    {text}\n    ^"
        out.append(block)
    for w in v.warnings:
        out.append(f"{v.source}:{w.line}:1: hand #{hand_id}: warning: {w.message} [{w.code}]")
    return out


def check(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (recursive) or - for stdin.")],
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text: counts and problems; jsonl: one object per hand.")
    ] = OutputFormat.text,
    no_referee: Annotated[
        bool, typer.Option("--parse-only", help="Only parse; do not replay the hands through the referee.")
    ] = False,
) -> None:
    """Parse and referee hand histories; exit 0 if every hand is valid, 1 if any is not, 2 on usage errors.

    Hands of other games (Hold'em, Stud, ...) are reported as unsupported and tournament summary
    files as skipped; neither makes the exit code 1.
    """
    for p in paths:
        if p != "-" and not Path(p).exists():
            typer.echo(f"hhparse check: no such file or folder: {p}", err=True)
            raise typer.Exit(2)
    per_file: dict[str, Counter[str]] = {}
    failed = False
    usage_error = False
    out = sys.stdout
    for verdict in check_paths(paths, referee_hands=not no_referee):
        per_file.setdefault(verdict.source, Counter())[verdict.status.value] += 1
        if verdict.status in (Status.INVALID, Status.UNPARSED):
            failed = True
        if verdict.parse_error is not None and verdict.parse_error.code in USAGE_CODES:
            usage_error = True
        if output_format is OutputFormat.jsonl:
            out.write(json.dumps(verdict.to_json(), ensure_ascii=False) + "\n")
            continue
        for problem in _problems(verdict):
            out.write(problem + "\n")
    if output_format is OutputFormat.text:
        totals: Counter[str] = Counter()
        for source, counts in per_file.items():
            totals.update(counts)
            out.write(f"{source}: {_counts(counts)}\n")
        if len(per_file) > 1:
            out.write(f"total: {_counts(totals)} in {len(per_file)} files\n")
        if not per_file:
            out.write("no hands found\n")
    out.flush()
    if usage_error:
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)


def _counts(counts: Counter[str]) -> str:
    n = sum(counts.values())
    parts = [f"{counts[s.value]} {s.value}" for s in Status if counts[s.value]]
    return f"{n} hands ({', '.join(parts)})" if parts else f"{n} hands"


def register(app: typer.Typer) -> None:
    app.command("check")(check)
