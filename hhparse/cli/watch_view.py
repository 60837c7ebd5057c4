"""What ``hhparse import --watch`` shows: one status line on a terminal, plain log lines
otherwise (a pipe, a log file, systemd's journal, launchd's log).

The status line fits the terminal's width (80 columns and less): files watched, hands played
today, the last hand stored and how long ago, pending hands, rejects. Rejects and problems are
printed above it as they happen, so they stay in the scroll-back. Names and paths are text,
never markup, with control characters made visible (:func:`hhparse.safetext.visible`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.text import Text

from hhparse.failures import ExitCode
from hhparse.importer import DEFAULT_BATCH_HANDS, DEFAULT_TASK_HANDS, Reporter
from hhparse.safetext import visible
from hhparse.watch import Cycle, RejectSeen, Watcher, WatchState, stop_on_signals

PREFIX = "hhparse import --watch"


def ago(seconds: float) -> str:
    """``4s``, ``12m``, ``3h``, ``2d``: how long ago, in one short word."""
    s = max(0, int(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m"
    if s < 86400:
        return f"{s // 3600}h"
    return f"{s // 86400}d"


def status_text(state: WatchState, width: int, now: float | None = None) -> Text:
    """The status line, at most ``width`` cells: the last hand's table name gets the room that
    is left (shortened with an ellipsis); when even the rest is too long, the least useful
    fields go first."""
    now = time.time() if now is None else now
    verb = "polling" if state.polling else "watching"
    head = f"{verb} {state.files:,} file{'s' if state.files != 1 else ''}"
    today = f"{state.hands_today:,} today"
    pending = f"{len(state.pending)} pending" if state.pending else ""
    rejects = f"{state.rejected:,} reject{'s' if state.rejected != 1 else ''}"
    last = state.last
    age = f"{ago(now - state.last_at)} ago" if last is not None and state.last_at is not None else ""

    def compose(name: str, age_: bool, pending_: bool, last_: bool, today_: bool) -> str:
        shown = ""
        if last is not None and last_:
            shown = " ".join(x for x in (f"last #{visible(last.hand_id)}", name, age if age_ else "") if x)
        fields = (head, today if today_ else "", shown, pending if pending_ else "", rejects)
        return " · ".join(x for x in fields if x)

    # what goes first when the line is too long: the age, pending, the last hand, today
    variants = [
        (True, True, True, True),
        (False, True, True, True),
        (False, False, True, True),
        (False, False, False, True),
        (False, False, False, False),
    ]
    chosen = variants[-1]
    for v in variants:
        if len(compose("", *v)) <= width:
            chosen = v
            break
    line = compose("", *chosen)
    room = width - len(line) - 1
    name = visible(last.table) if last is not None and chosen[2] else ""
    if name and room >= 4:
        line = compose(name if len(name) <= room else name[: room - 1] + "…", *chosen)
    text = Text(line if len(line) <= width else line[: width - 1] + "…", no_wrap=True)
    if state.rejected:
        text.highlight_words([rejects], style="red")
    return text


def _stamp() -> str:
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def started_line(state: WatchState) -> str:
    """What the watch says when it starts."""
    roots = ", ".join(str(r) for r in state.roots)
    how = "polling" if state.polling else "native file events"
    reason = f" ({state.polling_reason})" if state.polling and state.polling_reason else ""
    return visible(
        f"{PREFIX}: watching {roots} ({state.files:,} files) with {how}{reason}; warehouse "
        f"{state.warehouse}; {state.hands_today:,} hands today; Ctrl-C to stop"
    )


def reject_line(r: RejectSeen) -> str:
    """One reject, located."""
    hand = f" hand #{r.hand_id}" if r.hand_id else ""
    return visible(f"rejected: {r.source}:{r.line}{hand}: {r.code}: {r.message}")


def cycle_line(state: WatchState, cycle: Cycle) -> str | None:
    """What one import did, when it did something worth a line."""
    s = cycle.result.stats
    if not (s.new or s.rejected or s.conflicting or s.superseded):
        return None
    parts = [f"+{s.new:,} hand{'s' if s.new != 1 else ''}"]
    if cycle.new:
        last = cycle.new[-1]
        parts[0] += f" (last #{last.hand_id} {last.table})"
    if s.rejected or s.conflicting:
        parts.append(f"{s.rejected + s.conflicting:,} rejected")
    if s.superseded:
        parts.append(f"{s.superseded:,} earlier reject(s) of half-written hands superseded")
    parts.append(f"{state.hands_today:,} today")
    if state.pending:
        parts.append(f"{len(state.pending)} pending")
    parts.append(f"{cycle.seconds * 1000:.0f} ms")
    return visible(", ".join(parts))


def stopped_line(state: WatchState) -> str:
    """The last words."""
    took = ago(time.time() - state.started)
    return (
        f"{PREFIX}: stopped after {took}; {state.imported:,} new hand(s) imported, {state.rejected:,} "
        f"rejected; everything imported is published"
    )


class LogView:
    """Plain, timestamped lines on stderr: for pipes, log files and service managers."""

    def __init__(self, first: Reporter | None = None) -> None:
        self.first = first

    def _say(self, text: str) -> None:
        print(f"{_stamp()} {text}", file=sys.stderr, flush=True)

    def started(self, state: WatchState) -> None:
        """Say what is watched."""
        stop = getattr(self.first, "stop", None)
        if stop is not None:
            stop()
        self._say(started_line(state))

    def imported(self, state: WatchState, cycle: Cycle) -> None:
        """A line when hands were stored or rejected, and one per reject."""
        line = cycle_line(state, cycle)
        if line is not None:
            self._say(line)
        for r in cycle.rejects:
            self._say(reject_line(r))
        for note in cycle.result.notes:
            self._say(visible(note))
        for run in cycle.result.failed_files:
            self._say(visible(f"{run.path}: {run.status}: {run.error}"))

    def tick(self, state: WatchState) -> None:
        """Nothing to say."""

    def problem(self, state: WatchState, message: str) -> None:
        """A failure the watch retries."""
        self._say(visible(f"problem: {message}; trying again in a few seconds"))

    def close(self) -> None:
        """Nothing to tear down."""

    def stop(self, state: WatchState) -> None:
        """The last words."""
        self._say(stopped_line(state))


class StatusView:
    """A one-line live status on the terminal; rejects and problems scroll above it."""

    def __init__(self, console: Console, first: Reporter | None = None) -> None:
        self.console = console
        self.first = first
        self.live: Live | None = None
        self.state: WatchState | None = None

    def _render(self) -> Text:
        if self.state is None:
            return Text("")
        return status_text(self.state, max(20, self.console.width - 1))

    def started(self, state: WatchState) -> None:
        """Replace the first import's progress bar by the status line."""
        stop = getattr(self.first, "stop", None)
        if stop is not None:
            stop()
        self.state = state
        self.console.print(Text(started_line(state)))
        self.live = Live(
            get_renderable=self._render, console=self.console, refresh_per_second=2, transient=True
        )
        self.live.start()

    def imported(self, state: WatchState, cycle: Cycle) -> None:
        """Print rejects above the line; the line itself refreshes on its own."""
        self.state = state
        for r in cycle.rejects:
            self.console.print(Text(f"{_stamp()} {reject_line(r)}", style="red"))
        for note in cycle.result.notes:
            self.console.print(Text(visible(note)))
        for run in cycle.result.failed_files:
            self.console.print(Text(visible(f"{run.path}: {run.status}: {run.error}"), style="red"))

    def tick(self, state: WatchState) -> None:
        """(the line refreshes on its own)"""
        self.state = state

    def problem(self, state: WatchState, message: str) -> None:
        """A failure the watch retries."""
        self.console.print(
            Text(visible(f"{_stamp()} problem: {message}; trying again in a few seconds"), style="red")
        )

    def close(self) -> None:
        """Remove the line (and a progress bar still showing)."""
        if self.live is not None:
            self.live.stop()
            self.live = None
        stop = getattr(self.first, "stop", None)
        if stop is not None:
            stop()

    def stop(self, state: WatchState) -> None:
        """The last words."""
        self.console.print(Text(stopped_line(state)))


def run_watch(
    paths: list[Path],
    warehouse: Path,
    *,
    jobs: int | None,
    settle_seconds: float | None,
    poll: bool | None,
    task_hands: int = DEFAULT_TASK_HANDS,
    batch_hands: int = DEFAULT_BATCH_HANDS,
) -> int:
    """``hhparse import PATH... --watch``: watch until Ctrl-C or SIGTERM, then exit 0."""
    from hhparse.cli.import_cmd import LogReporter, RichReporter

    console = Console(stderr=True)
    tty = console.is_terminal and not os.environ.get("HHPARSE_NO_PROGRESS")
    first: RichReporter | LogReporter = RichReporter(console) if tty else LogReporter()
    view: StatusView | LogView = StatusView(console, first) if tty else LogView(first)
    watcher = Watcher(
        paths,
        warehouse,
        jobs=jobs,
        task_hands=task_hands,
        batch_hands=batch_hands,
        settle_seconds=settle_seconds,
        polling=poll,
        listener=view,
        first_reporter=first,
    )
    try:
        with stop_on_signals(watcher):
            state = watcher.run()
    finally:
        with contextlib.suppress(OSError):  # (a terminal that was closed)
            view.close()
    with contextlib.suppress(OSError):
        view.stop(state)
    return int(ExitCode.OK)
