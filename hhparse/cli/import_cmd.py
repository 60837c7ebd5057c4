"""``hhparse import PATH... [--warehouse DIR] [--jobs N | --cluster ADDRESS]``: bulk import into the
Parquet warehouse, on local worker processes or a Dask cluster (:mod:`hhparse.cluster`).

A thin adapter: it parses options, calls :func:`hhparse.importer.import_paths` and maps the
outcome to an exit code (:class:`hhparse.failures.ExitCode`) — 0 every hand accepted, 1 some hands
rejected or conflicting (they are in ``rejects``), 2 usage or environment error (missing or
unreadable input, not a warehouse, locked...), 3 warehouse damaged. Progress is a ``rich`` bar on a
terminal and plain log lines otherwise (CI logs, pipes). Paths and names are printed as text,
never as markup, with control characters made visible.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
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
from hhparse.cluster import ENV_SCHEDULER, connect, dashboard_link
from hhparse.failures import UsageError
from hhparse.importer import Executor, FileRun, ImportResult, ImportStats, import_paths
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
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Run the work on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`) or "
            "local:N (N local worker processes). Default: $HHPARSE_DASK_SCHEDULER unless --jobs is "
            "given. Needs pip install 'hhparse[cluster]'.",
        ),
    ] = None,
) -> None:
    """Import hand histories into the Parquet warehouse; unchanged files are skipped.

    The warehouse folder is created if missing; an existing folder must be an hhparse warehouse
    (or empty). Rejected and conflicting hands are kept in the rejects table.
    """
    target = warehouse if warehouse is not None else default_warehouse()
    console = Console(stderr=True)
    tty = console.is_terminal and not os.environ.get("HHPARSE_NO_PROGRESS")
    reporter: RichReporter | LogReporter = RichReporter(console) if tty else LogReporter()
    if cluster is not None and jobs is not None:
        raise UsageError("--jobs sets local worker processes and --cluster a Dask cluster's: give one of them")
    if cluster is None and jobs is None:
        cluster = os.environ.get(ENV_SCHEDULER) or None
    with contextlib.ExitStack() as stack:
        executor = stack.enter_context(_cluster(cluster, console)) if cluster is not None else None
        try:
            result = import_paths(
                paths,
                target,
                jobs=jobs,
                task_hands=task_hands,
                batch_hands=batch_hands,
                reporter=reporter,
                executor=executor,
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
    if result.failed_files:
        typer.echo(
            f"hhparse import: {len(result.failed_files)} input file(s) or folder(s) could not be read "
            "(listed above); everything else was imported",
            err=True,
        )
    raise typer.Exit(int(result.exit_code))


@contextlib.contextmanager
def _cluster(spec: str, console: Console) -> Iterator[Executor]:
    """The Dask executor of ``--cluster`` (:mod:`hhparse.cluster`; Dask itself is imported only
    then: it is an optional extra), announced on stderr."""
    with connect(spec) as executor:
        line = f"hhparse import: Dask cluster {executor.address}, {executor.threads()} worker thread(s)"
        link = dashboard_link(executor)
        console.print(Text(visible(line + (f", dashboard {link}" if link else ""))))
        yield executor


def register(app: typer.Typer) -> None:
    """Add ``import`` to the root app."""
    add_command(app, "import", import_command)
