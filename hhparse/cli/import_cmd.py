"""``hhparse import PATH... [--warehouse DIR] [--jobs N]``: bulk import into the Parquet warehouse.

A thin adapter: it parses options, calls :func:`hhparse.importer.import_paths` and maps the
outcome to an exit code (:class:`hhparse.failures.ExitCode`) — 0 every hand accepted, 1 some hands
rejected or conflicting (they are in ``rejects``), 2 usage or environment error (missing or
unreadable input, not a warehouse, locked...), 3 warehouse damaged. Progress is a ``rich`` bar on a
terminal and plain log lines otherwise (CI logs, pipes). Paths and names are printed as text,
never as markup, with control characters made visible.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from hhparse.cli.common import add_command
from hhparse.failures import UsageError
from hhparse.importer import FileRun, ImportResult, ImportStats, import_paths
from hhparse.safetext import visible
from hhparse.tables.store import default_warehouse

_LOG_EVERY_S = 5.0


class RichReporter:
    """A live progress bar (files, bytes → ETA, hands, hands/s, rejects) on a terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("[bold]importing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("files"),
            TextColumn("{task.fields[hands]:>9,} hands {task.fields[rate]:>7,.0f}/s"),
            TextColumn("[red]{task.fields[rejects]:,} rejects"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self.task: TaskID | None = None
        self.total_bytes = 1

    def start(self, files: int, total_bytes: int) -> None:
        """Show the bar once the number of files to read is known."""
        self.total_bytes = max(total_bytes, 1)
        self.progress.start()
        self.task = self.progress.add_task("import", total=files, hands=0, rate=0.0, rejects=0)

    def advance(self, stats: ImportStats) -> None:
        """Update counters (the ETA follows the files-done count)."""
        if self.task is not None:
            self.progress.update(
                self.task,
                completed=stats.files_done,
                hands=stats.read,
                rate=stats.hands_per_second,
                rejects=stats.rejected,
            )

    def file_done(self, run: FileRun) -> None:
        """Print files that could not be read above the bar."""
        if run.error:
            self.progress.console.print(Text(visible(f"{run.path}: {run.status}: {run.error}"), style="red"))

    def stop(self) -> None:
        """Remove the live display."""
        self.progress.stop()


class LogReporter:
    """Plain lines on stderr every few seconds: for pipes and CI logs, where a bar is noise."""

    def __init__(self) -> None:
        self.last = 0.0
        self.files = 0

    def start(self, files: int, total_bytes: int) -> None:
        """Log the plan."""
        self.files = files
        print(f"hhparse import: {files} files to read ({total_bytes:,} bytes)", file=sys.stderr, flush=True)

    def advance(self, stats: ImportStats) -> None:
        """Log a progress line at most every few seconds."""
        now = time.monotonic()
        if now - self.last >= _LOG_EVERY_S:
            self.last = now
            print(
                f"hhparse import: {stats.files_done}/{self.files} files, {stats.read:,} hands "
                f"({stats.hands_per_second:,.0f}/s), {stats.rejected:,} rejects",
                file=sys.stderr,
                flush=True,
            )

    def file_done(self, run: FileRun) -> None:
        """Log files that could not be read."""
        if run.error:
            print(visible(f"hhparse import: {run.path}: {run.status}: {run.error}"), file=sys.stderr, flush=True)

    def stop(self) -> None:
        """Nothing to tear down."""


def summary_table(result: ImportResult) -> Table:
    """The final summary: one row per file read in this run plus a total row."""
    s = result.stats
    table = Table(title=Text(visible(f"import {result.import_id} → {result.warehouse}")))
    for col in ("file", "status", "read", "new", "duplicate", "conflicting", "rejected"):
        if col in ("file", "status"):
            table.add_column(col, overflow="fold")
        else:
            table.add_column(col, justify="right", no_wrap=True)
    for f in result.files:
        table.add_row(
            Text(visible(f.path)),
            Text(visible(f.status if not f.error else f"{f.status}: {f.error}")),
            f"{f.read:,}",
            f"{f.new:,}",
            f"{f.duplicate:,}",
            f"{f.conflicting:,}",
            f"{f.rejected:,}",
        )
    table.add_row(
        f"total ({len(result.files)} read, {s.files_skipped} unchanged)",
        "",
        f"{s.read:,}",
        f"{s.new:,}",
        f"{s.duplicate:,}",
        f"{s.conflicting:,}",
        f"{s.rejected:,}",
        end_section=True,
    )
    table.caption = f"{s.elapsed:.1f} s, {s.hands_per_second:,.0f} hands/s, {s.batches} batches published"
    if s.reopened:
        table.caption += (
            f"; {s.reopened:,} rejected last hand(s) with no blank line after (half written?) "
            "will be read again if their file grows"
        )
    if s.pending:
        table.caption += (
            f"; {s.pending:,} last hand(s) pending: their file is still being written, "
            "the next import reads them"
        )
    return table


def import_command(
    paths: Annotated[list[Path], typer.Argument(help="Hand-history files or folders (recursive).")],
    warehouse: Annotated[
        Path | None,
        typer.Option(
            "--warehouse",
            "-w",
            help="Warehouse folder (default: $HHPARSE_WAREHOUSE or ./hhparse-warehouse).",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores; 1 = in-process)."),
    ] = None,
    batch_hands: Annotated[
        int,
        typer.Option(
            "--batch-hands", min=1, help="Hands per published batch (memory and crash granularity)."
        ),
    ] = 50_000,
    task_hands: Annotated[
        int,
        typer.Option("--task-hands", min=1, help="Hands per worker task."),
    ] = 500,
    # -- issue #19: live files and --watch (hhparse/watch.py, hhparse/cli/watch_view.py) --------
    settle_seconds: Annotated[
        float | None,
        typer.Option(
            "--settle-seconds",
            min=0,
            help="A file left unchanged this long is no longer being written: its last hand is final "
            "even with nothing after it. Until then such a hand is pending and read by the next import "
            "(default: $HHPARSE_SETTLE_SECONDS, else 10).",
        ),
    ] = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Keep running: import what is there, then each hand as the poker client writes it "
            "(files created, appended, replaced or renamed under PATH), until Ctrl-C or SIGTERM (exit 0).",
        ),
    ] = False,
    poll: Annotated[
        bool | None,
        typer.Option(
            "--poll/--no-poll",
            help="With --watch: look at the files every few hundred ms instead of waiting for file events "
            "(default: poll on network and shared file systems, or as $WATCHFILES_FORCE_POLLING says).",
        ),
    ] = None,
) -> None:
    """Import hand histories into the Parquet warehouse; unchanged files are skipped.

    The warehouse folder is created if missing; an existing folder must be an hhparse warehouse
    (or empty). Rejected and conflicting hands are kept in the rejects table. A file's last hand
    that is still being written is pending: listed, not stored, read by the next import; it does
    not change the exit code.
    """
    target = warehouse if warehouse is not None else default_warehouse()
    if watch:
        from hhparse.cli.watch_view import run_watch

        raise typer.Exit(
            run_watch(
                paths,
                target,
                jobs=jobs,
                settle_seconds=settle_seconds,
                poll=poll,
                task_hands=task_hands,
                batch_hands=batch_hands,
            )
        )
    if poll is not None:
        raise UsageError("--poll and --no-poll go with --watch")
    # ----------------------------------------------------------------------------------------
    console = Console(stderr=True)
    tty = console.is_terminal and not os.environ.get("HHPARSE_NO_PROGRESS")
    reporter: RichReporter | LogReporter = RichReporter(console) if tty else LogReporter()
    try:
        result = import_paths(
            paths,
            target,
            jobs=jobs,
            task_hands=task_hands,
            batch_hands=batch_hands,
            reporter=reporter,
            settle_seconds=settle_seconds,
        )
    finally:
        reporter.stop()
    for note in result.notes:
        typer.echo(visible(f"hhparse import: {note}"), err=True)
    Console(width=max(console.width, 160)).print(summary_table(result))
    for path, hand_id in result.conflicts[:50]:
        typer.echo(
            visible(
                f"conflict: hand #{hand_id} in {path} differs from the stored hand (the stored one is "
                "kept; this text is in rejects, code conflict)"
            )
        )
    if len(result.conflicts) > 50:
        typer.echo(f"... and {len(result.conflicts) - 50} more conflicts (see `hhparse report rejects`)")
    pending_lines(result)
    if result.failed_files:
        typer.echo(
            f"hhparse import: {len(result.failed_files)} input file(s) or folder(s) could not be read "
            "(listed above); everything else was imported",
            err=True,
        )
    raise typer.Exit(int(result.exit_code))


def pending_lines(result: ImportResult, limit: int = 50) -> None:
    """Issue #19: name each file whose last hand is pending (still being written), on stderr.
    Not an error: the next import reads it, and the exit code does not change."""
    pending = [f for f in result.files if f.pending]
    now = time.time()
    for f in pending[:limit]:
        quiet = max(0.0, now - f.mtime_ns / 1e9)
        typer.echo(
            visible(
                f"hhparse import: pending: {f.path}: its last hand is still being written (the file "
                f"changed {quiet:.0f} s ago); it is read by the next import, and taken as it stands "
                f"once the file has not changed for {result.settle_seconds:g} s"
            ),
            err=True,
        )
    if len(pending) > limit:
        typer.echo(f"hhparse import: ... and {len(pending) - limit} more files with a pending last hand", err=True)


def register(app: typer.Typer) -> None:
    """Add ``import`` to the root app."""
    add_command(app, "import", import_command)
