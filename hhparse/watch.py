"""``hhparse import PATH... --watch``: import hands as the poker client writes them (issue #19).

A thin layer over the incremental import, and why it is shaped so:

* **One session, warm.** An :class:`~hhparse.importer.ImportSession` holds the warehouse (its
  writer lock, so a second writer is refused with a sentence naming this process), the index of
  stored hands and the parser and referee, already built, for the whole run: a change costs what
  it reads, in this process. Only an import with megabytes of new text (the first one, a folder
  copied in) starts the worker pool, which ends with that import.
* **Events, then a short debounce.** ``watchfiles`` (the Rust ``notify`` crate: inotify,
  FSEvents, ReadDirectoryChangesW) reports files created, appended, replaced or renamed under
  each PATH, recursively; a burst is imported once it has been quiet for :data:`STEP_MS` (at
  most :data:`DEBOUNCE_MS` after it began). Where native events do not exist or do not see
  other machines' writes (NFS, SMB, VM shared folders, WSL's Windows drives) it polls
  (:func:`choose_polling`). A PATH that is a file is watched through its folder, so that a
  rename over it (a sync tool, an editor saving) is seen like an append. A file that changed is
  also ``stat``-ed at every tick for :data:`HOT_SECONDS` (a PATH that is a file, always; a file
  written that recently when it is read, too: polling sees only whole seconds), and a
  full rescan every :data:`RESCAN_SECONDS` costs a ``stat`` a file: a change whose event was
  lost is seen within a tick if the file is live, at the rescan otherwise.
* **The importer decides when a hand is final**, as for any import (``docs/input.md``): a hand
  followed by anything, or that reads whole, is stored at once; a last hand that does not is
  *pending*, and the watch comes back to its file when the file has been unchanged for
  ``settle_seconds`` (a timer: no event will come), when the importer takes it as it stands.
* **Readers are never blocked.** Readers take no lock: each reads the manifest's snapshot. Each
  import publishes one small batch; :meth:`~hhparse.tables.store.Warehouse.compact_tail` merges
  the small files at the end of each table as they pile up, so queries stay fast with no
  ``hhparse compact``.
* **Memory stays flat** (:mod:`hhparse.native_memory`): Arrow allocates through malloc, whose
  arenas are capped and whose free pages are given back after each import.
* **Stopping** (:func:`stop_on_signals`): Ctrl-C or SIGTERM ends the watch between imports,
  having published every batch whole; during a large import (with a pool) the import is
  abandoned at once, its uncommitted batch discarded, as an interrupted ``hhparse import`` is.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc

from hhparse.failures import HhparseError, UsageError, describe_os_error
from hhparse.importer import (
    DEFAULT_BATCH_HANDS,
    DEFAULT_TASK_HANDS,
    POOL_MIN_BYTES,
    ImportResult,
    ImportSession,
    Reporter,
    expand_paths,
)
from hhparse.native_memory import give_back, limit_arenas
from hhparse.splitter import HISTORY_SUFFIXES

#: A burst of changes is imported at most this long after its first event...
DEBOUNCE_MS = 400
#: ... or as soon as no new file has changed for this long.
STEP_MS = 60
#: The longest the loop sleeps with nothing happening (timers of pending hands, the status line).
TICK_MS = 250
#: Polling: how often every watched file is looked at.
POLL_DELAY_MS = 400
#: A full rescan of every PATH (a ``stat`` a file): anything an event queue dropped is found.
RESCAN_SECONDS = 120.0
#: A file that changed is also looked at (a ``stat``) at every tick for this long after: a
#: change whose event was lost (``watchfiles``' polling drops one that lands while the previous
#: batch is handed over; an event queue overflows) is seen within a tick, not at the rescan.
#: A PATH that is a file is looked at so for the whole watch.
HOT_SECONDS = 900.0
#: Expired files that compaction replaced are deleted this often.
CLEAN_SECONDS = 600.0
#: After an import failed for the system's sake (a full disk, a lost share), wait this long.
RETRY_SECONDS = 10.0
#: A pending last hand is read again this long after its file's settle time has passed.
SETTLE_MARGIN = 0.05
#: File systems where a change made by another machine (or by the host of a virtual machine)
#: raises no local event: their files are polled.
NETWORK_FILE_SYSTEMS = frozenset(
    {
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "v9fs", "drvfs", "virtiofs", "vboxsf",
        "vmhgfs", "fuse.vmhgfs-fuse", "prl_fs", "afs", "ceph", "glusterfs", "fuse.glusterfs",
        "lustre", "gpfs", "fuse.sshfs", "sshfs", "davfs", "fuse.davfs2", "fuse.rclone", "fuse.s3fs",
    }
)  # fmt: skip
ENV_FORCE_POLLING = "WATCHFILES_FORCE_POLLING"
"""``watchfiles``' own switch, honoured: set (and not ``false``/``disable``/``disabled``) it
polls, set to one of those it never does."""
MAX_LOGGED_REJECTS = 20


# --------------------------------------------------------------------------------------------
# What the watch reports
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSeen:
    """A hand just stored: what the status line shows of it."""

    hand_id: str
    table: str
    start_utc: datetime | None
    source: str


@dataclass(frozen=True, slots=True)
class RejectSeen:
    """A reject just stored: where, and why."""

    source: str
    line: int
    hand_id: str | None
    code: str
    message: str


@dataclass
class Cycle:
    """One import of the files that changed."""

    result: ImportResult
    seconds: float
    reason: str  # "start", "change", "settle", "rescan"
    new: list[HandSeen] = field(default_factory=list)  # the last few hands stored (in order)
    rejects: list[RejectSeen] = field(default_factory=list)


@dataclass
class WatchState:
    """Running totals, for the status line."""

    roots: list[Path]
    warehouse: Path
    polling: bool
    polling_reason: str
    files: int = 0  # history files under the PATHs
    hands_today: int = 0  # stored hands played today (local date)
    today: date = field(default_factory=date.today)
    imported: int = 0  # new hands stored by this watch
    rejected: int = 0  # rejects (and conflicts) stored by this watch
    pending: dict[str, float] = field(default_factory=dict)  # file -> when it is read again
    last: HandSeen | None = None
    last_at: float | None = None  # time.time() when ``last`` was stored
    cycles: int = 0
    started: float = field(default_factory=time.time)


class WatchListener(Protocol):
    """What the watch tells its front end (the CLI: a status line, or log lines)."""

    def started(self, state: WatchState) -> None:
        """Watching begins (the first import is done)."""

    def imported(self, state: WatchState, cycle: Cycle) -> None:
        """An import finished."""

    def tick(self, state: WatchState) -> None:
        """Nothing happened for a moment (refresh a clock)."""

    def problem(self, state: WatchState, message: str) -> None:
        """An import failed for the system's sake; the watch retries."""


class _Quiet:
    def started(self, state: WatchState) -> None:
        pass

    def imported(self, state: WatchState, cycle: Cycle) -> None:
        pass

    def tick(self, state: WatchState) -> None:
        pass

    def problem(self, state: WatchState, message: str) -> None:
        pass


# --------------------------------------------------------------------------------------------
# Which files, and how to watch them
# --------------------------------------------------------------------------------------------


def mount_type(path: Path, mountinfo: str | None = None) -> str | None:
    """The file system type of the mount holding ``path`` (from Linux's ``/proc/self/mountinfo``,
    or the text ``mountinfo``; ``None`` elsewhere or when unknown)."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
    lines = mountinfo.splitlines()
    target = str(path.resolve())
    best, best_len = None, -1
    for line in lines:
        left, sep, right = line.partition(" - ")
        fields = left.split()
        if not sep or len(fields) < 5 or not right.split():
            continue
        point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) > best_len:
            best, best_len = right.split()[0], len(point)
    return best


def choose_polling(roots: Sequence[Path], requested: bool | None = None) -> tuple[bool, str]:
    """Whether to poll rather than wait for native events, and why (shown to the user).

    ``--poll``/``--no-poll`` decide; else ``$WATCHFILES_FORCE_POLLING``; else polling where a
    PATH is on a network or shared file system (:data:`NETWORK_FILE_SYSTEMS`), whose changes
    made elsewhere raise no local event — a Windows drive seen from WSL included."""
    if requested is not None:
        return requested, "--poll" if requested else "--no-poll"
    env = os.environ.get(ENV_FORCE_POLLING)
    if env:
        on = env.lower() not in {"false", "disable", "disabled"}
        return on, f"${ENV_FORCE_POLLING}={env}"
    for root in roots:
        kind = mount_type(root)
        if kind is not None and kind in NETWORK_FILE_SYSTEMS:
            return True, f"{root} is on a {kind} file system"
    return False, "native events"


def _hidden_below(path: Path, root: Path) -> bool:
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return True
    return any(p.startswith(".") for p in parts)


class _Roots:
    """The PATHs: which changed path is a history file of theirs (the rules of
    :func:`hhparse.splitter.iter_files`: a PATH that is a file, whatever its name; under a
    folder, ``*.txt`` not hidden), and which is a folder to scan."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = list(roots)
        self.files = {str(r) for r in roots if not r.is_dir()}
        self.folders = [r for r in roots if r.is_dir()]
        # where a PATH leads through symbolic links (macOS reports /private/tmp for /tmp): an
        # event under it is given back under the PATH as named, the name the import keys it by
        self.aliases = [(r.resolve(), r) for r in roots if r.resolve() != r]

    def named(self, raw: str) -> str:
        """An event's path, under its PATH as the user named it."""
        if self.aliases:
            p = Path(raw)
            for real, root in self.aliases:
                if p == real or p.is_relative_to(real):
                    return str(root / p.relative_to(real))
        return raw

    def wanted(self, path: str) -> bool:
        """For the watcher's filter: a history file, or a folder that may hold some."""
        path = self.named(path)
        if path in self.files:
            return True
        p = Path(path)
        under = [r for r in self.folders if not _hidden_below(p, r)]
        if not under:
            return False
        return p.suffix.lower() in HISTORY_SUFFIXES or p.is_dir()

    def watch_groups(self) -> list[tuple[list[str], bool]]:
        """What to give the file watcher: (paths, recursively?) — the folders recursively, and
        for a PATH that is a file, the folder holding it, not recursively (:meth:`wanted` keeps
        that file's events only). A watch on the file itself follows its inode, which a rename
        over it ends (``os.replace``: a sync tool, an editor saving, a client rewriting its
        file): every later change would wait for the next full rescan."""
        groups: list[tuple[list[str], bool]] = []
        if self.folders:
            groups.append(([str(r) for r in self.folders], True))
        parents = {
            str(Path(f).parent)
            for f in self.files
            if not any(Path(f).is_relative_to(d) for d in self.folders)
        }
        if parents:
            groups.append((sorted(parents), False))
        return groups

    def is_history(self, path: Path) -> bool:
        return str(path) in self.files or (
            path.suffix.lower() in HISTORY_SUFFIXES and any(not _hidden_below(path, r) for r in self.folders)
        )


# --------------------------------------------------------------------------------------------
# The watcher
# --------------------------------------------------------------------------------------------


class Watcher:
    """Import ``paths`` into ``warehouse``, then every change to them, until :meth:`stop`.

    Raises, before watching: :class:`UsageError` for a missing PATH or a bad option, and what
    opening the warehouse raises (locked by another writer, not a warehouse, damaged). While
    watching, a failure of the system (a full disk, a lost network share) is reported to the
    listener and retried; a damaged warehouse or a bug ends the watch with its exception.
    """

    def __init__(
        self,
        paths: Sequence[Path | str],
        warehouse: Path | str,
        *,
        jobs: int | None = None,
        task_hands: int = DEFAULT_TASK_HANDS,
        batch_hands: int = DEFAULT_BATCH_HANDS,
        settle_seconds: float | None = None,
        polling: bool | None = None,
        listener: WatchListener | None = None,
        first_reporter: Reporter | None = None,
        ev: bool = True,
    ) -> None:
        if not paths:
            raise UsageError("give at least one file or folder to watch")
        roots: list[Path] = []
        for p in paths:
            path = Path(p)
            if not path.exists():
                raise UsageError(f"no such file or folder: {p}")
            roots.append(path.absolute())
        self.roots = _Roots(roots)
        self.warehouse = Path(warehouse)
        self.jobs = jobs
        self.task_hands = task_hands
        self.batch_hands = batch_hands
        self.settle_seconds = settle_seconds
        self.ev = ev
        self.listener: WatchListener = listener or _Quiet()
        self.first_reporter = first_reporter
        poll, why = choose_polling(roots, polling)
        self.state = WatchState(
            roots=roots, warehouse=self.warehouse.absolute(), polling=poll, polling_reason=why
        )
        self._stop = threading.Event()
        self._signals = 0
        self.busy_large = False  # a large import is running: a stop abandons it
        self.session: ImportSession  # while running
        self.settle = 0.0
        self._files: set[str] = set()  # history files under the PATHs
        self.compactions: list[dict[str, tuple[int, int]]] = []  # the last few merges (tests, bench)

    # -- stopping ----------------------------------------------------------------------------

    def stop(self) -> None:
        """End the watch after the current import (thread-safe; from a signal handler too)."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stop.is_set()

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        """Signal handler: stop after the current (small) import; abandon a large one, and any
        import at the second signal, by raising :class:`KeyboardInterrupt` here."""
        self._signals += 1
        self.stop()
        if self.busy_large or self._signals > 1:
            raise KeyboardInterrupt

    # -- running -----------------------------------------------------------------------------

    def run(self) -> WatchState:
        """Watch until stopped; returns the final totals.

        Memory stays flat over hours (``hhparse/native_memory.py``, ``bench/watch_probe.py``):
        Arrow allocates through the C library's allocator while watching (its C++ default too
        when the CLI chose it before pyarrow was loaded: ``prefer_system_pool``), glibc's arenas
        are capped, and what each import freed is given back to the system after it."""
        limit_arenas()
        previous_pool = pa.default_memory_pool()
        pa.set_memory_pool(pa.system_memory_pool())
        try:
            return self._run()
        finally:
            pa.set_memory_pool(previous_pool)

    def _run(self) -> WatchState:
        with ImportSession(
            self.warehouse,
            jobs=self.jobs,
            task_hands=self.task_hands,
            batch_hands=self.batch_hands,
            ev=self.ev,
            settle_seconds=self.settle_seconds,
            holder="hhparse import --watch",
            keep_warm=True,
        ) as session:
            self.session = session
            self.settle = session.settle_seconds
            self.state.warehouse = session.wh.root
            self.state.hands_today = self._count_today()
            try:
                self._loop()
            except KeyboardInterrupt:
                self._stop.set()
        return self.state

    def _watch_iter(self) -> Iterator[set[tuple[Any, str]]]:
        """File events (:meth:`_Roots.watch_groups`): one watcher, or two taken in turn (folders
        recursively, single files' folders not), each waiting at most half a tick."""
        groups = self.roots.watch_groups()
        timeout = TICK_MS // len(groups)
        watches = [self._watch_group(paths, recursive, timeout) for paths, recursive in groups]
        return watches[0] if len(watches) == 1 else _merged(watches)

    def _watch_group(self, paths: list[str], recursive: bool, timeout: int) -> Iterator[set[tuple[Any, str]]]:
        import watchfiles

        roots = self.roots

        def wanted(change: Any, path: str) -> bool:
            return roots.wanted(path)

        return watchfiles.watch(
            *paths,
            watch_filter=wanted,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=self._stop,
            rust_timeout=timeout,
            yield_on_timeout=True,
            raise_interrupt=True,
            force_polling=self.state.polling,
            poll_delay_ms=POLL_DELAY_MS,
            recursive=recursive,
            ignore_permission_denied=True,
        )

    def _loop(self) -> None:
        import watchfiles

        events = self._watch_iter()
        hot = _Hot(self.roots.files)
        dirty: set[Path] = set()
        scan_all = True  # the first import: everything under the PATHs
        reasons: set[str] = {"start"}
        next_rescan = time.monotonic() + RESCAN_SECONDS
        next_clean = time.monotonic() + CLEAN_SECONDS
        retry_at = 0.0
        announced = False
        compact_due = False
        try:
            for changes in events:  # the watcher is running from the first iteration on
                if self._stop.is_set():
                    break
                for change, event_path in changes:
                    raw = self.roots.named(event_path)
                    path = Path(raw)
                    if change == watchfiles.Change.deleted:
                        self._files.discard(raw)
                        self.state.pending.pop(raw, None)
                    elif change == watchfiles.Change.added and path.is_dir():
                        dirty.update(self._expand([path]))  # a new folder: what it already holds
                        reasons.add("change")
                    elif self.roots.is_history(path) and path.is_file():
                        dirty.add(path)
                        hot.touch(raw)
                        reasons.add("change")
                for raw in hot.changed():  # changes no event told of
                    dirty.add(Path(raw))
                    reasons.add("change")
                now = time.time()
                for p in [p for p, at in self.state.pending.items() if at <= now]:
                    del self.state.pending[p]
                    dirty.add(Path(p))
                    reasons.add("settle")
                if time.monotonic() >= next_rescan:
                    scan_all, next_rescan = True, time.monotonic() + RESCAN_SECONDS
                    reasons.add("rescan")
                if not (scan_all or dirty) or time.monotonic() < retry_at:
                    if compact_due and not changes:  # a quiet moment: merge small files now
                        compact_due = False
                        self._compact()
                    self.listener.tick(self.state)
                    continue
                if scan_all:
                    files = self._expand(self.roots.roots)
                    self._files = {str(f) for f in files}
                else:
                    files = sorted(f for f in dirty if f.is_file())  # (gone since its event: nothing to read)
                    self._files.update(str(f) for f in files)
                self.state.files = len(self._files)
                hot.touch_recent(files)
                reason = next(r for r in ("start", "change", "settle", "rescan") if r in reasons)
                cycle = self._import(files, reason)
                if cycle is not None:
                    dirty.clear()
                    scan_all = False
                    reasons.clear()
                    compact_due = True
                else:
                    retry_at = time.monotonic() + RETRY_SECONDS
                if not announced:
                    announced = True
                    self.listener.started(self.state)
                if cycle is not None:
                    self.listener.imported(self.state, cycle)
                # The session keeps the collector's thresholds high (a worker's settings, made for
                # a run that ends): the cycles an import leaves (json's encoder, pyarrow's
                # wrappers...) would reach the oldest generation and stay there for hours, so
                # memory would grow with every hand. Collected here, between imports, they are
                # cheap: the parser, referee and index are frozen out of the collector's sight.
                gc.collect()
                give_back()
                if self._stop.is_set():
                    break
                if time.monotonic() >= next_clean:
                    next_clean = time.monotonic() + CLEAN_SECONDS
                    self._clean()
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()

    def _expand(self, paths: Sequence[Path]) -> list[Path]:
        """History files under ``paths`` (unreadable ones are found again by the import's own
        planning when they matter: a file that cannot be read is reported there)."""
        problems: list[tuple[Path, OSError]] = []
        existing = [p for p in paths if p.exists()]
        try:
            return [f for f in expand_paths(existing, problems=problems) if self.roots.is_history(f)]
        except UsageError:  # vanished between the check and the walk
            return []

    def _import(self, files: list[Path], reason: str) -> Cycle | None:
        """One import; ``None`` when it failed for the system's sake (retried later)."""
        wh = self.session.wh
        before = {name: set(wh.manifest.tables.get(name, [])) for name in ("hands", "rejects")}
        started = time.monotonic()
        self.busy_large = sum(_size(f) for f in files) >= POOL_MIN_BYTES
        try:
            result = self.session.import_files(
                files,
                reporter=self.first_reporter if reason == "start" else None,
                pool_min_bytes=POOL_MIN_BYTES,
            )
        except HhparseError:
            raise
        except OSError as exc:
            self.listener.problem(self.state, describe_os_error(exc, "importing"))
            return None
        finally:
            self.busy_large = False
        cycle = Cycle(result, time.monotonic() - started, reason)
        self._after(cycle, before)
        return cycle

    def _compact(self) -> None:
        """Merge the small files at the end of each table (:meth:`Warehouse.compact_tail`)."""
        try:
            self.compactions.append(self.session.wh.compact_tail())
        except OSError as exc:  # every batch is committed: merging can wait for the next quiet moment
            self.listener.problem(self.state, describe_os_error(exc, "merging small files"))
        del self.compactions[:-10]

    def _after(self, cycle: Cycle, before: dict[str, set[str]]) -> None:
        """Totals, pending timers, and what was stored (read back from the new batch files)."""
        s = self.state
        r = cycle.result
        s.cycles += 1
        s.imported += r.stats.new
        s.rejected += r.stats.rejected + r.stats.conflicting
        for run in r.files:
            if run.pending:
                at = run.mtime_ns / 1e9 + self.settle + SETTLE_MARGIN
                s.pending[run.path] = max(at, time.time() + 1.0)  # (an mtime ahead of our clock)
            else:
                s.pending.pop(run.path, None)
        wh = self.session.wh
        if date.today() != s.today:
            s.today = date.today()
            s.hands_today = self._count_today()
        else:
            midnight = _local_midnight_utc()
            for rel in wh.manifest.tables.get("hands", []):
                if rel in before["hands"]:
                    continue
                table = wh.read_file(wh.stored(rel), ["hand_id", "table_name", "start_utc", "source"])
                today = pc.greater_equal(
                    table["start_utc"], pa.scalar(midnight, table.schema.field("start_utc").type)
                )
                s.hands_today += table.filter(today).num_rows
                tail = table.slice(max(0, table.num_rows - 5)).to_pylist()
                cycle.new.extend(
                    HandSeen(str(x["hand_id"]), str(x["table_name"]), x["start_utc"], str(x["source"]))
                    for x in tail
                )
        if cycle.new:
            s.last, s.last_at = cycle.new[-1], time.time()
            del cycle.new[:-5]
        for rel in wh.manifest.tables.get("rejects", []):
            if rel in before["rejects"] or len(cycle.rejects) >= MAX_LOGGED_REJECTS:
                continue
            rows = wh.read_file(wh.stored(rel), ["source", "line", "hand_id", "code", "message"]).to_pylist()
            for x in rows[: MAX_LOGGED_REJECTS - len(cycle.rejects)]:
                cycle.rejects.append(
                    RejectSeen(
                        str(x["source"]), int(x["line"]), x["hand_id"], str(x["code"]), str(x["message"])
                    )
                )

    def _count_today(self) -> int:
        """Stored hands played since local midnight (row-group statistics skip most of a big
        warehouse)."""
        import pyarrow.dataset as ds

        wh = self.session.wh
        paths = [str(p) for p in wh.files_of("hands")]
        if not paths:
            return 0
        dataset = ds.dataset(paths, format="parquet")
        field_type = dataset.schema.field("start_utc").type
        midnight = pa.scalar(_local_midnight_utc(), field_type)
        return int(dataset.count_rows(filter=ds.field("start_utc") >= midnight))

    def _clean(self) -> None:
        with contextlib.suppress(OSError):
            self.session.wh.clean_orphans()


class _Hot:
    """Files looked at every tick (:data:`HOT_SECONDS`): each with what ``stat`` said of it last
    (inode, size, modification time), so that a change is noticed whether or not an event
    came."""

    def __init__(self, always: set[str]) -> None:
        self.always = frozenset(always)
        self.until: dict[str, float] = {}
        self.seen: dict[str, tuple[int, int, int] | None] = {p: _signature(p) for p in self.always}

    def touch(self, path: str) -> None:
        """``path`` changed (an event said so, and it is being imported): look at it from now on."""
        self.until[path] = time.monotonic() + HOT_SECONDS
        self.seen[path] = _signature(path)

    def touch_recent(self, files: Sequence[Path]) -> None:
        """Before ``files`` are read: those written within :data:`HOT_SECONDS` are looked at from
        now on. Polling (``notify``'s) compares modification times in whole seconds, so a write
        landing in the second of its last look is never reported: the file that was written just
        before the watch started, or came in a new folder, would wait for the rescan."""
        horizon = time.time() - HOT_SECONDS
        for f in files:
            raw = str(f)
            sig = _signature(raw)
            if sig is not None and sig[2] >= horizon * 1e9:
                self.until[raw] = time.monotonic() + HOT_SECONDS
                self.seen[raw] = sig

    def changed(self) -> list[str]:
        """The files whose ``stat`` changed since they were last looked at (and still exist)."""
        now = time.monotonic()
        for p in [p for p, at in self.until.items() if at < now]:
            del self.until[p]
            if p not in self.always:
                self.seen.pop(p, None)
        out = []
        for p in self.always | self.until.keys():
            sig = _signature(p)
            if sig != self.seen.get(p):
                self.seen[p] = sig
                if sig is not None:
                    out.append(p)
        return out


def _signature(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _merged(watches: list[Iterator[set[tuple[Any, str]]]]) -> Iterator[set[tuple[Any, str]]]:
    """Several watchers' changes as one stream: each is asked in turn (each returns by its own
    timeout; changes arriving meanwhile wait in its queue). Ends when any of them ends (stopped)."""
    try:
        while True:
            changes: set[tuple[Any, str]] = set()
            for w in watches:
                got = next(w, None)
                if got is None:
                    return
                changes |= got
            yield changes
    finally:
        for w in watches:
            close = getattr(w, "close", None)
            if close is not None:
                close()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _local_midnight_utc() -> datetime:
    local = datetime.now().astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0).astimezone(UTC)


@contextlib.contextmanager
def stop_on_signals(watcher: Watcher) -> Iterator[None]:
    """SIGINT (Ctrl-C), SIGTERM (``kill``, systemd, launchd) and SIGHUP (its terminal closed)
    stop ``watcher`` cleanly (:meth:`Watcher.on_signal`); the previous handlers come back
    afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[signal.Signals, Any] = {}
    handler: Callable[[int, FrameType | None], None] = watcher.on_signal
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


__all__ = [
    "DEBOUNCE_MS",
    "Cycle",
    "HandSeen",
    "RejectSeen",
    "WatchListener",
    "WatchState",
    "Watcher",
    "choose_polling",
    "mount_type",
    "stop_on_signals",
]
