"""``hhparse import PATH --watch`` (issue #19), run as the user runs it: a subprocess.

A simulated poker client appends hands to two table files at once — one hand in two halves a
moment apart, a second table's file appearing mid-way — while a reader queries the warehouse
through DuckDB the whole time. Every hand must be stored exactly once, queryable within
:data:`LATENCY_TARGET` seconds of its last line, with no reject left for a completed hand; a
second writer is refused with a sentence naming the watch; SIGINT and SIGTERM end it with exit
0, every batch whole, and no process left behind. The long version (half an hour, eight
tables, memory and latency percentiles) is ``bench/watch_soak.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from hhparse.tables.schema import create_views

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import child_pids, make_hand, stray_files, table_folder_extras, write_hands
from test_import_crash import alive, descendants

REPO = Path(__file__).resolve().parent.parent
CLI = "from hhparse.cli import main; main()"
LATENCY_TARGET = 2.0  # seconds: last line written -> the hand queryable (the target)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


class Watch:
    """``hhparse import SRC --watch`` in a subprocess, its stderr collected line by line."""

    def __init__(self, src: Path, wh: Path, *extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "HHPARSE_NO_PROGRESS": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CLI, "import", str(src), "-w", str(wh), "--watch", *extra],
            env=env,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, needle: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            assert self.proc.poll() is None, f"the watch ended ({self.proc.returncode}):\n{self.text}"
            assert time.monotonic() < deadline, f"no {needle!r} in:\n{self.text}"
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGINT, timeout: float = 20) -> int:
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def watches() -> Iterator[list[Watch]]:
    """Every watch a test starts is killed at the end, whatever happened."""
    started: list[Watch] = []
    yield started
    for w in started:
        w.kill()


def hand_ids(wh: Path) -> list[str]:
    """What a reader sees now (a fresh DuckDB connection over the manifest's snapshot)."""
    con = duckdb.connect()
    try:
        create_views(con, wh)
        return [r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()]
    finally:
        con.close()


class Reader(threading.Thread):
    """Queries the warehouse every few milliseconds while the watch writes it; any error is a
    failure (a reader must never see a half-published batch or a missing file)."""

    def __init__(self, wh: Path) -> None:
        super().__init__(daemon=True)
        self.wh = wh
        self.seen: dict[str, float] = {}
        self.errors: list[str] = []
        self.queries = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            try:
                ids = hand_ids(self.wh)
                self.queries += 1
            except Exception as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
                ids = []
            now = time.monotonic()
            for hid in ids:
                self.seen.setdefault(hid, now)
            self.halt.wait(0.05)


def append(path: Path, text: str) -> float:
    """Append as the client does (one write, flushed, closed); when the last byte was written."""
    with open(path, "a", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return time.monotonic()


@pytest.mark.serial
def test_simulated_client_two_tables(tmp_path: Path, watches: list[Watch]) -> None:
    src, wh = tmp_path / "HandHistory", tmp_path / "wh"
    a, b = src / "table-a.txt", src / "table-b.txt"
    write_hands(a, ["1001", "1002", "1003"])
    watch = Watch(src, wh)
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    assert sorted(hand_ids(wh)) == ["1001", "1002", "1003"]
    reader = Reader(wh)
    reader.start()
    written: dict[str, float] = {}

    def table_a() -> None:
        for n in range(2001, 2007):
            written[str(n)] = append(a, make_hand(str(n)) + "\n\n\n")
            time.sleep(0.6)

    def table_b() -> None:
        time.sleep(0.9)  # a second table opens: its file appears while table A plays on
        written["3001"] = append(b, "\ufeff" + make_hand("3001") + "\n\n\n")
        for n in range(3002, 3006):
            time.sleep(0.6)
            text = make_hand(str(n)) + "\n\n\n"
            if n == 3003:  # written in two halves, the watch looking in between
                cut = text.index("*** SUMMARY ***")
                append(b, text[:cut])
                time.sleep(1.5)
                text = text[cut:]
            written[str(n)] = append(b, text)

    writers = [threading.Thread(target=table_a), threading.Thread(target=table_b)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    deadline = time.monotonic() + 15
    while not set(written) <= set(reader.seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    # `hhparse sql` while the watch holds the warehouse: readers take no lock
    sql = subprocess.run(
        [sys.executable, "-c", CLI, "sql", "SELECT count(*) AS n FROM hands", "-w", str(wh), "-f", "csv"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # `hhparse report` too (its SQL over the same snapshot)
    report = subprocess.run(
        [sys.executable, "-c", CLI, "report", "summary", "-w", str(wh), "-f", "csv"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    reader.halt.set()
    reader.join()
    assert sql.returncode == 0 and sql.stdout.split() == ["n", str(3 + len(written))], sql.stderr
    assert report.returncode == 0 and report.stdout.strip(), report.stderr
    assert "Traceback" not in report.stderr
    assert not reader.errors, reader.errors[:3]
    assert reader.queries > 20
    late = {hid: round(reader.seen[hid] - at, 2) for hid, at in written.items() if hid in reader.seen}
    assert set(late) == set(written), f"never queryable: {set(written) - set(late)}\n{watch.text}"
    assert max(late.values()) <= LATENCY_TARGET, late
    helpers = descendants(watch.proc.pid)
    assert watch.stop(signal.SIGINT) == 0, watch.text
    assert "stopped after" in watch.text and "Traceback" not in watch.text
    # not a terminal: plain, timestamped log lines (one per import that stored something)
    stored = [x for x in watch.lines if re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+\d+ hands? \(last #", x)]
    assert len(stored) >= 3, watch.text
    assert not any("\x1b[" in x or "\r" in x for x in watch.lines), watch.text  # no cursor moves, no colour
    deadline = time.monotonic() + 10
    while alive(helpers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(helpers), f"left behind: {alive(helpers)}"
    ids = hand_ids(wh)
    assert len(ids) == len(set(ids)) == 3 + len(written)  # every hand once
    con = duckdb.connect()
    create_views(con, wh)
    assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,)  # the half hand left none
    assert table_folder_extras(wh) == set() and stray_files(wh) == set()
    assert "pending" not in json.loads((wh / "manifest.json").read_text())["files"][str(b)]


@pytest.mark.serial
def test_a_half_written_hand_settles_then_is_completed(tmp_path: Path, watches: list[Watch]) -> None:
    """The client stalls in the middle of a hand: once the file has been quiet for the settle
    time the watch takes the hand as it stands (a reject, located); when the rest comes, the
    hand is stored and its reject is gone from ``rejects``."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    f = write_hands(src / "t.txt", ["1"])
    watch = Watch(src, wh, "--settle-seconds", "1")
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    text = make_hand("2") + "\n\n\n"
    cut = text.index("*** SUMMARY ***")
    line = f.read_text().count("\n") + 1
    append(f, text[:cut])
    watch.wait_for("rejected: ", timeout=15)  # settled: taken as it stands
    con = duckdb.connect()
    create_views(con, wh)
    assert con.execute("SELECT hand_id, line FROM rejects").fetchall() == [("2", line)]
    at = append(f, text[cut:])
    deadline = time.monotonic() + 15
    while "2" not in hand_ids(wh) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert time.monotonic() - at <= LATENCY_TARGET, watch.text
    assert watch.stop(signal.SIGTERM) == 0, watch.text
    con = duckdb.connect()
    create_views(con, wh)
    assert sorted(hand_ids(wh)) == ["1", "2"]
    assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,)  # superseded


def test_a_second_writer_is_refused_while_watching(tmp_path: Path, watches: list[Watch]) -> None:
    src, wh = tmp_path / "in", tmp_path / "wh"
    write_hands(src / "t.txt", ["1"])
    watch = Watch(src, wh)
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HHPARSE_NO_PROGRESS": "1"}
    for args in (
        ["import", str(src), "-w", str(wh)],
        ["import", str(src), "-w", str(wh), "--watch"],
        ["compact", "-w", str(wh)],
    ):
        other = subprocess.run(
            [sys.executable, "-c", CLI, *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert other.returncode == 2, (args, other.stderr)
        assert "hhparse import --watch" in other.stderr and f"pid {watch.proc.pid}" in other.stderr, (
            other.stderr
        )
        assert "Traceback" not in other.stderr
    assert watch.stop(signal.SIGINT) == 0
    # once it is stopped, the warehouse is free
    again = subprocess.run(
        [sys.executable, "-c", CLI, "compact", "-w", str(wh)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["sigint", "sigterm", "sighup-terminal-closed"]
)
def test_a_stop_during_a_large_first_import_leaves_no_process(
    tmp_path: Path, watches: list[Watch], sig: signal.Signals
) -> None:
    """The first import of a large folder runs the worker pool: Ctrl-C (or SIGTERM, as systemd
    and launchd stop it, or SIGHUP, its terminal closed) abandons it at once, exit 0, the workers (and a forkserver and
    resource tracker, when the pool has them) end with it, and what was published is whole (a later import completes it)."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    per_file = 1600
    for f in range(5):  # ≈ 10 MB: more than POOL_MIN_BYTES
        write_hands(src / f"t{f}.txt", [str(100_000 + f * per_file + i) for i in range(per_file)])
    watch = Watch(src, wh, "--jobs", "2")
    watches.append(watch)
    deadline = time.monotonic() + 60
    helpers: set[int] = set()

    def workers() -> set[int]:
        """The pool's 2 workers: forked from the watch (its own command line) when it forked
        them, else from a forkserver (with a resource tracker beside it): its grandchildren."""
        own = Path(f"/proc/{watch.proc.pid}/cmdline").read_bytes()
        out = set()
        for pid in helpers:
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/cmdline").read_bytes() == own or pid not in child_pids(watch.proc.pid):
                    out.add(pid)
        return out

    while len(workers()) < 2 and time.monotonic() < deadline:
        assert watch.proc.poll() is None, watch.text
        helpers |= descendants(watch.proc.pid)
        time.sleep(0.05)
    assert len(workers()) >= 2, helpers
    assert watch.stop(sig, timeout=30) == 0, watch.text
    assert "Traceback" not in watch.text
    deadline = time.monotonic() + 15
    while alive(helpers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(helpers), f"left behind: {alive(helpers)}"
    assert table_folder_extras(wh) == set()
    ids = hand_ids(wh)
    assert len(ids) == len(set(ids))


class PtyWatch:
    """``hhparse import SRC --watch`` on a pseudo-terminal of 80 columns, as a player runs it."""

    def __init__(self, src: Path, wh: Path) -> None:
        import fcntl
        import pty
        import struct
        import termios

        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("HHPARSE_NO_PROGRESS", "COLUMNS", "NO_COLOR")}
        env.update(PYTHONPATH=str(REPO), TERM="xterm-256color")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CLI, "import", str(src), "-w", str(wh), "--watch"],
            env=env,
            cwd=REPO,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.chunks: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:  # the other end is closed
                return
            if not data:
                return
            self.chunks.append(data)

    @property
    def text(self) -> str:
        return b"".join(self.chunks).decode(errors="replace")

    def wait_for(self, needle: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            assert self.proc.poll() is None, f"the watch ended ({self.proc.returncode}):\n{self.text}"
            assert time.monotonic() < deadline, f"no {needle!r} in:\n{self.text!r}"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        with contextlib.suppress(OSError):
            os.close(self.master)


def test_on_a_terminal_a_status_line_instead_of_log_lines(tmp_path: Path, watches: list[Any]) -> None:
    """On a terminal: one status line, redrawn in place (files watched, hands today, the last
    hand and how long ago, rejects), no timestamped log line per import; Ctrl-C ends it with
    exit 0 and the line gives way to the last words."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    f = write_hands(src / "t.txt", ["1"])
    watch = PtyWatch(src, wh)
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    append(f, make_hand("2") + "\n\n\n")
    watch.wait_for("last #2")
    watch.wait_for("0 rejects")
    status = [x for x in re.split(r"[\r\n]", watch.text) if "last #2" in x]
    assert any("watching 1 file · 0 today · last #2 " in x for x in status), status
    assert all(len(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", x)) <= 80 for x in status), status
    assert not re.search(r"\d\d:\d\d:\d\d \+1 hand", watch.text)  # no log lines on a terminal
    watch.proc.send_signal(signal.SIGINT)
    assert watch.proc.wait(timeout=20) == 0, watch.text
    deadline = time.monotonic() + 5
    while "stopped after" not in watch.text and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "stopped after" in watch.text and "Traceback" not in watch.text, watch.text
    assert sorted(hand_ids(wh)) == ["1", "2"]


def test_files_renamed_and_replaced_are_read_once(tmp_path: Path, watches: list[Watch]) -> None:
    """What clients and players do besides appending: a file written under a hidden name and
    renamed into place, a file moved into a subfolder (an archive), a file replaced by a longer
    copy (``os.replace``, as editors and sync tools save). Each new hand is stored once, nothing
    is rejected or counted as a conflict."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    t = write_hands(src / "t.txt", ["1", "2"])
    watch = Watch(src, wh)
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")

    def until(ids: set[str]) -> list[str]:
        deadline = time.monotonic() + 10
        while not ids <= set(seen := hand_ids(wh)) and time.monotonic() < deadline:
            time.sleep(0.05)
        return seen

    write_hands(src / ".new.txt.part", ["3", "4"])
    os.rename(src / ".new.txt.part", src / "new.txt")
    assert sorted(until({"3", "4"})) == ["1", "2", "3", "4"], watch.text
    (src / "archive").mkdir()
    os.rename(t, src / "archive" / "t.txt")
    write_hands(src / ".tmp", ["3", "4", "5"])
    os.replace(src / ".tmp", src / "new.txt")
    seen = until({"5"})
    time.sleep(1.0)  # and nothing more comes of the moved file
    assert watch.stop(signal.SIGINT) == 0, watch.text
    ids = hand_ids(wh)
    assert sorted(ids) == ["1", "2", "3", "4", "5"], (seen, watch.text)
    con = duckdb.connect()
    create_views(con, wh)
    assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,), watch.text
    assert "rejected" not in watch.text.split("stopped after")[0].replace("0 rejected", ""), watch.text


@pytest.mark.serial
def test_polling_meets_the_latency_target_too(tmp_path: Path, watches: list[Watch]) -> None:
    """``--poll``, what a network share or a Windows drive seen from WSL gets: an appended hand
    and a new file are queryable within the target all the same."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    f = write_hands(src / "t.txt", ["1"])
    watch = Watch(src, wh, "--poll")
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    assert "with polling (--poll)" in watch.text, watch.text
    for hid, target in (("2", f), ("3", src / "sub" / "new.txt")):
        target.parent.mkdir(exist_ok=True)
        at = append(target, make_hand(hid) + "\n\n\n")
        while hid not in hand_ids(wh):
            assert time.monotonic() - at <= LATENCY_TARGET, watch.text
            time.sleep(0.05)
    assert watch.stop(signal.SIGTERM) == 0, watch.text
    ids = hand_ids(wh)
    assert sorted(ids) == ["1", "2", "3"]


def test_polling_sees_a_write_in_the_second_it_last_looked(tmp_path: Path, watches: list[Watch]) -> None:
    """Regression (a CI failure): polling compares modification times in whole seconds, so a
    hand appended in the second the file was last written before the watch started was never
    reported, and waited for the rescan minutes later. The same second is made certain here by
    putting the file's time back after the append."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    f = write_hands(src / "t.txt", ["1"])
    second = int(time.time()) - 3
    os.utime(f, ns=(second * 10**9, second * 10**9))
    watch = Watch(src, wh, "--poll")
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    append(f, make_hand("2") + "\n\n\n")
    os.utime(f, ns=(second * 10**9, second * 10**9 + 500_000_000))
    deadline = time.monotonic() + 10  # (the rescan, what the old code waited for, is minutes away)
    while "2" not in hand_ids(wh):
        assert time.monotonic() < deadline, watch.text
        time.sleep(0.05)
    assert watch.stop(signal.SIGTERM) == 0, watch.text
    assert sorted(hand_ids(wh)) == ["1", "2"]


def replace_with(path: Path, text: str) -> float:
    """Rewrite ``path`` as a sync tool or an editor saves it: a new file under another name,
    renamed over the old one (a new inode); when the rename was done."""
    tmp = path.with_name(f".{path.name}.sync")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.replace(tmp, path)
    return time.monotonic()


@pytest.mark.serial
@pytest.mark.parametrize("poll", [False, True], ids=["events", "polling"])
def test_a_watched_file_replaced_by_a_rename_is_seen_at_once(
    tmp_path: Path, watches: list[Watch], poll: bool
) -> None:
    """A PATH that is a single file, rewritten again and again by ``os.replace`` (the file the
    client or a sync tool rewrites whole): a watch on the file itself loses it at the first
    rename (its inode is gone). Every hand each rewrite adds is queryable within the target, not
    at the next full rescan; a file beside it is not imported."""
    src, wh = tmp_path / "in", tmp_path / "wh"
    f = write_hands(src / "t.txt", ["1"])
    write_hands(src / "other.txt", ["90"])
    watch = Watch(f, wh, "--poll" if poll else "--no-poll")
    watches.append(watch)
    watch.wait_for("Ctrl-C to stop")
    text = f.read_text(encoding="utf-8")
    for hid in ("2", "3", "4"):
        text += make_hand(hid) + "\n\n\n"
        at = replace_with(f, text)
        while hid not in hand_ids(wh):
            assert time.monotonic() - at <= LATENCY_TARGET, (hid, watch.text)
            time.sleep(0.05)
    write_hands(src / "other.txt", ["90", "91"])
    time.sleep(1.0)
    assert watch.stop(signal.SIGTERM) == 0, watch.text
    assert sorted(hand_ids(wh)) == ["1", "2", "3", "4"], watch.text
    con = duckdb.connect()
    create_views(con, wh)
    assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,), watch.text
