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


def test_a_process_ends_after_stopping_a_pool_whose_worker_was_writing_a_result(tmp_path: Path) -> None:
    script = tmp_path / "stop_mid_result.py"
    script.write_text(SCRIPT)
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
