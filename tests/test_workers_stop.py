"""``hhparse.workers.stop_pool``: a process must be able to end after stopping its pool at any moment.

Regression (found by the crash-safety matrix, ``sigint-2``, about one run in twenty): a worker
terminated while it was writing its result left half a message in the result pipe, the pool's
manager thread waited forever for the rest, and interpreter exit (which joins that thread) hung:
`hhparse import --jobs 2` interrupted by Ctrl-C never ended.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent(
    """
    import multiprocessing, time
    from concurrent.futures import ProcessPoolExecutor
    from hhparse.workers import start_helpers, stop_pool

    def big(n):
        return b"x" * n  # far more than a pipe holds: the worker is still writing it when stopped

    if __name__ == "__main__":
        ctx = multiprocessing.get_context("forkserver")
        start_helpers(ctx)
        pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
        pool.submit(big, 1).result()  # the worker is up
        pool.submit(big, 400_000_000)
        time.sleep(1.5)  # the manager thread is now reading the half-written result
        stop_pool(pool)
        print("stopped", flush=True)
    """
)


def run_script(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    """Run ``text`` as a script of its own (a fresh interpreter: its exit is what is tested);
    it must print "stopped" and exit 0."""
    script = tmp_path / name
    script.write_text(text)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "stopped"
    return proc


def test_a_process_ends_after_stopping_a_pool_whose_worker_was_writing_a_result(tmp_path: Path) -> None:
    run_script(tmp_path, "stop_mid_result.py", SCRIPT)


# Regression: a Traceback printed after "interrupted" by `hhparse import --jobs 2` on a loaded
# machine (``OSError: [Errno 9] Bad file descriptor`` from ``threading._shutdown``). At interpreter
# exit, concurrent.futures' exit hook wakes each pool's manager thread (``_ThreadWakeup.wakeup``: a
# check that the pipe is open, then a write) without the lock under which that thread closes the
# pipe; stop_pool returned while the manager thread was still ending the pool, and its close could
# fall between the hook's check and its write. The script holds both threads at those points (the
# manager thread late to close, as on a busy machine; the hook preempted between check and write),
# so before the fix the hook's write always met a closed pipe ("handle is closed" here).
RACE_SCRIPT = textwrap.dedent(
    """
    import multiprocessing, time
    import concurrent.futures.process as cfp
    from concurrent.futures import ProcessPoolExecutor
    from hhparse.workers import start_helpers, stop_pool

    close, wakeup = cfp._ThreadWakeup.close, cfp._ThreadWakeup.wakeup

    def late_close(self):
        time.sleep(0.3)
        close(self)

    def preempted_wakeup(self):
        if not self._closed:
            time.sleep(0.8)
            self._writer.send_bytes(b"")

    cfp._ThreadWakeup.close = late_close
    cfp._ThreadWakeup.wakeup = preempted_wakeup

    if __name__ == "__main__":
        ctx = multiprocessing.get_context("forkserver")
        start_helpers(ctx)
        pool = ProcessPoolExecutor(max_workers=2, mp_context=ctx)
        pool.submit(time.sleep, 0).result()  # the workers are up
        for _ in range(4):
            pool.submit(time.sleep, 30)
        stop_pool(pool)
        print("stopped", flush=True)
    """
)


def test_interpreter_exit_after_stopping_a_pool_prints_no_traceback(tmp_path: Path) -> None:
    assert run_script(tmp_path, "stop_then_exit.py", RACE_SCRIPT).stderr == ""
