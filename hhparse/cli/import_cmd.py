"""``hhparse import PATH... [--warehouse DIR] [--jobs N | --cluster ADDRESS]``: bulk import into the
Parquet warehouse, on local worker processes or a Dask cluster (:mod:`hhparse.cluster`).

A thin adapter: it parses options, calls :func:`hhparse.importer.import_paths` and maps the
outcome to an exit code (:class:`hhparse.failures.ExitCode`) — 0 every hand accepted, 1 some hands
rejected or conflicting (they are in ``rejects``), 2 usage or environment error (missing or
unreadable input, not a warehouse, locked...), 3 warehouse damaged. Progress is a ``rich`` bar on a
terminal and plain log lines otherwise (CI logs, pipes). The run ends with its totals and the
files that need a look — rejects, conflicts, read errors — one line each, in the terminal's width
(``--verbose`` lists every file): an import of years of history reads thousands of files, and a
list of every one of them hides the few that matter. Paths and names are printed as text, never
as markup, with control characters made visible.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hhparse.cli import common
from hhparse.cli.common import WarehouseOption, add_command, warehouse_dir
from hhparse.safetext import visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from hhparse.importer import Executor, FileRun, ImportResult, ImportStats
    from hhparse.tables.store import Warehouse

_LOG_EVERY_S = 5.0


class RichReporter:
    """A live progress bar (files, bytes → ETA, hands, hands/s, rejects) on a terminal."""

    def __init__(self, console: Console) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

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
        self.task: Any = None
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
            from rich.text import Text

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
            print(
                visible(f"hhparse import: {run.path}: {run.status}: {run.error}"), file=sys.stderr, flush=True
            )

    def stop(self) -> None:
        """Nothing to tear down."""


def _needs_a_look(f: FileRun) -> bool:
    """A file the summary lists without --verbose: rejects, conflicts, or not read (wholly or in
    part), or not hand histories at all."""
    return bool(f.rejected or f.conflicting or f.error or f.status not in ("ok",))


def _note(f: FileRun) -> str:
    if f.error:
        return f"{f.status}: {f.error}"
    notes = []
    if f.status != "ok":
        notes.append(f.status)
    if f.summaries:
        notes.append(f"{f.summaries} tournament summar{'y' if f.summaries == 1 else 'ies'}")
    if f.reopened:
        notes.append("last hand half written?")
    if f.pending:
        notes.append("last hand pending")
    return ", ".join(notes)


def _shorten(path: str, width: int) -> str:
    """``path`` in at most ``width`` characters, keeping its end (the file name): ``…/dir/file.txt``."""
    if len(path) <= width or width < 2:
        return path
    return "…" + path[len(path) - width + 1 :]


def _common_folder(paths: list[str]) -> str:
    """The longest folder every path is under ("" when none or only the root)."""
    if not paths:
        return ""
    try:
        common = os.path.commonpath([os.path.dirname(p) for p in paths])
    except ValueError:
        return ""
    return "" if common in ("", os.sep) else common


def summary_lines(result: ImportResult, *, verbose: bool = False) -> tuple[list[str], list[FileRun]]:
    """The summary's text lines (totals, timing) and the files to list."""
    s = result.stats
    read = len(result.files)
    lines = [
        f"import {result.import_id} → {result.warehouse}",
        f"{s.files_total:,} files: {read:,} read, {s.files_skipped:,} unchanged"
        + (f", {len(result.failed_files):,} not read" if result.failed_files else "")
        + (
            f"; {s.summaries:,} tournament summar{'y' if s.summaries == 1 else 'ies'} stored"
            if s.summaries
            else ""
        ),
        f"{s.read - s.summaries:,} hands read: {s.new:,} new, {s.duplicate:,} already stored, "
        f"{s.conflicting:,} conflicting, {s.rejected:,} rejected",
        f"{s.elapsed:.1f} s, {s.hands_per_second:,.0f} hands/s, {s.batches} batch(es) published",
    ]
    if s.reopened:
        lines.append(
            f"{s.reopened:,} rejected last hand(s) with no blank line after (half written?) will be read "
            "again if their file grows"
        )
    if s.pending:
        lines.append(
            f"{s.pending:,} last hand(s) pending: their file is still being written, the next import reads them"
        )
    listed = result.files if verbose else [f for f in result.files if _needs_a_look(f)]
    return lines, listed


def summary_table(
    result: ImportResult, width: int, *, verbose: bool = False
) -> tuple[list[str], Table | None]:
    """The final summary: totals, then a table of the files that need a look (all with
    ``verbose``), its file column cut to fit ``width``."""
    from rich.table import Table
    from rich.text import Text

    lines, listed = summary_lines(result, verbose=verbose)
    if not listed:
        if not verbose and result.files:
            lines.append("every file read cleanly (--verbose lists them)")
        return lines, None
    folder = _common_folder([f.path for f in listed])
    shown = [os.path.relpath(f.path, folder) if folder else f.path for f in listed]
    notes = [visible(_note(f)) for f in listed]
    numbers = [(f.read, f.new, f.rejected, f.conflicting) for f in listed]
    widths = [
        max(len(h), *(len(f"{n[i]:,}") for n in numbers))
        for i, h in enumerate(("read", "new", "rej", "conf"))
    ]
    note_width = min(max((len(n) for n in notes), default=0), 24)
    columns = 5 + (1 if note_width else 0)
    # no box, no edge padding: one space each side of a column, two between columns
    file_width = max(12, width - sum(widths) - note_width - 2 * (columns - 1))
    title = (
        f"{len(listed):,} of {len(result.files):,} files read"
        if verbose
        else f"Files with rejects, conflicts or errors: {len(listed):,} of {len(result.files):,} (--verbose for all)"
    )
    if folder:
        lines.append(visible(f"(paths under {folder}{os.sep})"))
    table = Table(title=Text(title), title_justify="left", box=None, pad_edge=False, expand=False)
    table.add_column("file", no_wrap=True, overflow="ellipsis", max_width=file_width)
    for col in ("read", "new", "rej", "conf"):
        table.add_column(col, justify="right", no_wrap=True)
    if note_width:
        table.add_column("note", no_wrap=True, overflow="ellipsis", max_width=note_width)
    for path, note, (rd, new, rej, conf) in zip(shown, notes, numbers, strict=True):
        cells: list[Any] = [
            Text(_shorten(visible(path), file_width)),
            f"{rd:,}",
            f"{new:,}",
            Text(f"{rej:,}", style="red" if rej else ""),
            Text(f"{conf:,}", style="yellow" if conf else ""),
        ]
        if note_width:
            cells.append(Text(note))
        table.add_row(*cells)
    return lines, table


def import_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            help="Hand-history files or folders (recursive), or fsspec URLs (file://, s3://...: "
            "any the installed fsspec drivers open).",
        ),
    ],
    warehouse: WarehouseOption = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Worker processes (default: all cores; 1 = in-process, as is an import of less "
            "than a task's text).",
        ),
    ] = None,
    batch_hands: Annotated[
        int,
        typer.Option(
            "--batch-hands",
            min=1,
            metavar="N",
            help="Hands per published batch (memory and crash granularity).",
        ),
    ] = 50_000,
    task_hands: Annotated[
        int,
        typer.Option("--task-hands", min=1, metavar="N", help="Hands per worker task."),
    ] = 500,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Run the work on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`) or "
            "local:N (N local worker processes). Default: $HHPARSE_DASK_SCHEDULER unless --jobs is "
            "given. Needs pip install 'hhparse[cluster]'.",
        ),
    ] = None,
    cluster_reads: Annotated[
        str,
        typer.Option(
            "--cluster-reads",
            metavar="WHO",
            help="With --cluster, who reads the input files: workers (a shared file system or URLs "
            "every worker opens), client (it ships their text), auto (workers if they can open the "
            "first inputs, else client).",
        ),
    ] = "auto",
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="List every file read in the summary, not only those with problems."
        ),
    ] = False,
    # -- issue #19: live files and --watch (hhparse/watch.py, hhparse/cli/watch_view.py) --------
    settle_seconds: Annotated[
        float | None,
        typer.Option(
            "--settle-seconds",
            min=0,
            metavar="SECONDS",
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
    """Import hand histories (and tournament summary files) into the Parquet warehouse; unchanged
    files are skipped.

    The warehouse folder is created if missing; an existing folder must be an hhparse warehouse
    (or empty). Rejected and conflicting hands are kept in the rejects table (``hhparse report
    rejects``). The run ends with its totals and the files that had rejects, conflicts or errors.
    A file's last hand that is still being written is pending: listed, not stored, read by the
    next import; it does not change the exit code.
    """
    if watch:  # before pyarrow is loaded: the watch's Arrow allocates through malloc
        from hhparse.native_memory import prefer_system_pool

        prefer_system_pool()
    from rich.console import Console

    from hhparse import importer
    from hhparse.failures import UsageError
    from hhparse.inputs import is_url

    target = warehouse_dir(warehouse)
    if watch:
        if cluster is not None:
            raise UsageError("--watch imports on this machine: --cluster does not go with it")
        from hhparse.cli.watch_view import run_watch

        raise typer.Exit(
            run_watch(
                [Path(os.path.expanduser(p)) for p in paths],
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
    console = Console(stderr=True)
    tty = console.is_terminal and not os.environ.get("HHPARSE_NO_PROGRESS")
    reporter: RichReporter | LogReporter = RichReporter(console) if tty else LogReporter()
    if cluster is not None and jobs is not None:
        raise UsageError(
            "--jobs sets local worker processes and --cluster a Dask cluster's: give one of them"
        )
    if cluster is None and jobs is None:
        from hhparse.cluster import ENV_SCHEDULER

        cluster = os.environ.get(ENV_SCHEDULER) or None
    if cluster_reads not in ("auto", "workers", "client"):
        raise UsageError(f"--cluster-reads {cluster_reads}: give auto, workers or client")
    if cluster is None and cluster_reads != "auto":
        raise UsageError(
            "--cluster-reads says who reads the inputs of a --cluster import: give --cluster too"
        )
    if cluster is None and common.OWN_PROCESS:
        common.keep_pandas_out()  # (a Dask client may need pandas: only for local imports)
    with contextlib.ExitStack() as stack:
        executor = (
            stack.enter_context(_cluster(cluster, console, cluster_reads)) if cluster is not None else None
        )
        try:
            result = importer.import_paths(
                [p if is_url(p) else Path(os.path.expanduser(p)) for p in paths],
                target,
                jobs=jobs,
                task_hands=task_hands,
                batch_hands=batch_hands,
                reporter=reporter,
                executor=executor,
                settle_seconds=settle_seconds,
                after_commit=lambda wh: _build_derived(wh, console.width),
                pool_min_bytes=importer.one_task_bytes(task_hands),  # (one task: no pool for it)
            )
        finally:
            reporter.stop()
    for note in result.notes:
        _say(visible(f"hhparse import: {note}"), console.width, err=True)
    out = Console(highlight=False)
    lines, table = summary_table(result, out.width, verbose=verbose)
    for line in lines:
        _say(line, out.width)
    if table is not None:
        out.print(table)
    for path, hand_id in result.conflicts[:50]:
        _say(
            visible(
                f"conflict: hand #{hand_id} in {path} differs from the stored hand (the stored one is "
                "kept; this text is in rejects, code conflict)"
            ),
            out.width,
        )
    if len(result.conflicts) > 50:
        _say(f"... and {len(result.conflicts) - 50} more conflicts (see `hhparse report rejects`)", out.width)
    if result.stats.rejected:
        _say("see why hands were rejected: hhparse report rejects", out.width)
    pending_lines(result, out.width)
    if result.failed_files:
        _say(
            f"hhparse import: {len(result.failed_files)} input file(s) or folder(s) could not be read "
            "(listed above); everything else was imported",
            out.width,
            err=True,
        )
    common.leave_heap_to_the_os()  # (its files committed and closed: nothing left to finalize)
    common.end_at_once()  # (the same: the program need not tear its modules down)
    raise typer.Exit(int(result.exit_code))


def _build_derived(wh: Warehouse, width: int) -> None:
    """Build the derived tables (:mod:`hhparse.reports.derived`: the player buckets...) of the
    files this import added (one pass over their rows each), so that the first report after a
    large import reads them rather than every new row. The import is committed by now and these are
    only derived rows: a failure here is a note, and the reports read the raw rows of what is not
    covered. Run by the import with its own writer (``after_commit``): opening the warehouse again
    and planning them twice cost a step for every file a large warehouse lists. DuckDB is not
    imported here: the refresh imports it when it has something to build (a re-import of
    unchanged files has nothing, and paid for importing it), and only then can it raise one of
    its errors."""
    import pyarrow as pa

    from hhparse.reports import derived

    note = "hhparse import: derived tables not built ({}); reports read the raw rows"
    try:
        derived.refresh(wh.root, wh)
    except OSError as exc:
        if exc.errno in _DISK_FULL:  # the disk, not a source file: the user must hear of it
            _say(visible(note.format(exc)), width, err=True)
        # else a damaged source file: the report that reads it names it (as refresh does alone)
    except pa.ArrowException:
        pass  # a damaged source file, as above
    except Exception as exc:  # any failure of a derived cache must not fail the committed import
        duckdb = sys.modules.get("duckdb")
        if duckdb is not None and isinstance(exc, duckdb.Error):
            return  # a damaged source file, as above
        _say(visible(note.format(exc)), width, err=True)


_DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})
"""The errors of a write that no report would name later: a full disk, a quota, a read-only one."""


@contextlib.contextmanager
def _cluster(spec: str, console: Console, reads: str = "auto") -> Iterator[Executor]:
    """The Dask executor of ``--cluster`` (:mod:`hhparse.cluster`; Dask itself is imported only
    then: it is an optional extra), announced on stderr."""
    from rich.text import Text

    from hhparse.cluster import connect, dashboard_link

    with connect(spec, inputs=reads) as executor:
        line = f"hhparse import: Dask cluster {executor.address}, {executor.threads()} worker thread(s)"
        link = dashboard_link(executor)
        console.print(Text(visible(line + (f", dashboard {link}" if link else ""))))
        yield executor


def _say(text: str, width: int, *, err: bool = False) -> None:
    """Print ``text`` wrapped to the terminal's ``width`` (a long path is cut too), continuation
    lines indented: the import's closing lines fit an 80-column terminal like its table."""
    parts = textwrap.wrap(text, width=max(width, 40), subsequent_indent="  ", break_on_hyphens=False)
    typer.echo("\n".join(parts or [""]), err=err)


def pending_lines(result: ImportResult, width: int, limit: int = 50) -> None:
    """Issue #19: name each file whose last hand is pending (still being written), on stderr.
    Not an error: the next import reads it, and the exit code does not change."""
    pending = [f for f in result.files if f.pending]
    now = time.time()
    for f in pending[:limit]:
        quiet = max(0.0, now - f.mtime_ns / 1e9)
        _say(
            visible(
                f"hhparse import: pending: {f.path}: its last hand is still being written (the file "
                f"changed {quiet:.0f} s ago); it is read by the next import, and taken as it stands "
                f"once the file has not changed for {result.settle_seconds:g} s"
            ),
            width,
            err=True,
        )
    if len(pending) > limit:
        _say(
            f"hhparse import: ... and {len(pending) - limit} more files with a pending last hand",
            width,
            err=True,
        )


def register(app: typer.Typer) -> None:
    """Add ``import`` to the root app."""
    add_command(
        app,
        "import",
        import_command,
        examples=(
            "hhparse import sample_histories/ --warehouse ~/hh-warehouse",
            "hhparse import HandHistory/Hero/ TournSummary/Hero/ --jobs 4",
            "hhparse import new-session.txt --verbose    # list every file read",
        ),
    )
