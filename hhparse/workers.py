"""Worker processes that never outlive the import that started them.

Why: an import with ``--jobs N`` runs a forkserver, N workers (children of the forkserver) and
multiprocessing's resource tracker. When the main process is killed (``kill -9``, the OOM killer,
a closed terminal), none of them is told: workers blocked on their task queue lived on for
minutes, each holding its memory and the parent's stdout, so ``hhparse import ... | tee log``
never ended. Three defences, each cheap:

* **Helpers hold no terminal or pipe.** The forkserver and the resource tracker are started with
  stdout and stderr on ``/dev/null`` (:func:`start_helpers`); workers are forked from the
  forkserver and inherit that, or, forked from the main process itself, point theirs at
  ``/dev/null`` first thing (:func:`release_std_streams`). A reader of our output sees
  end-of-file as soon as the main process is gone, whatever the helpers do.
* **Death follows the parent.** The forkserver exits when the main process's end of its pipe
  closes (multiprocessing does that itself). Each worker asks Linux to SIGKILL it when its parent
  dies (``prctl(PR_SET_PDEATHSIG)``, :func:`die_with_parent`), and everywhere a watchdog thread
  checks every :data:`WATCH_SECONDS` that its parent and the main process are still there.
  The resource tracker exits once every process holding its pipe is gone.
* **Ctrl-C is the main process's.** Workers ignore SIGINT; the main process waits for results in
  short steps so the interrupt reaches it at once (:func:`wait_result`), stops the workers itself
  (:func:`stop_pool`) and publishes nothing half done.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Final, TypeVar

T = TypeVar("T")

WATCH_SECONDS: Final = 0.5
MANAGER_JOIN_SECONDS: Final = 10.0
_PR_SET_PDEATHSIG: Final = 1


def _set_pdeathsig(sig: int) -> bool:
    """Linux: have the kernel send ``sig`` to this process when its parent thread exits."""
    if not sys.platform.startswith("linux"):
        return False
    # The process's own symbols first (every CPython process on Linux has the C library loaded):
    # ``find_library`` runs ``ldconfig -p`` in a child process, a fork of this one, per worker.
    for name in (None, "c"):
        try:
            libc = ctypes.CDLL(name and ctypes.util.find_library(name), use_errno=True)
            return int(libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)) == 0
        except (OSError, AttributeError):
            continue
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def die_with_parent(main_pid: int) -> None:
    """Called first in each worker: end this process as soon as its parent (the forkserver) or
    the main process ``main_pid`` is gone, and leave SIGINT to the main process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    _set_pdeathsig(signal.SIGKILL)
    if os.getppid() != parent or not _alive(main_pid):  # died before the request took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent or not _alive(main_pid):
                os._exit(1)

    threading.Thread(target=watch, name="hhparse-parent-watch", daemon=True).start()


def release_std_streams() -> None:
    """Point this process's file descriptors 1 and 2 at ``/dev/null`` for good (a worker forked
    from the main process inherits its stdout and stderr). Python's buffers are not flushed
    first: what they hold is the main process's own unwritten output, written there already or
    still to be; from now on it goes nowhere."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            with contextlib.suppress(OSError):  # (not open: nothing to release)
                os.dup2(devnull, fd)
    finally:
        os.close(devnull)


@contextlib.contextmanager
def _std_streams_to_devnull() -> Iterator[None]:
    """File descriptors 1 and 2 point at ``/dev/null`` inside the block (restored after)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved: list[tuple[int, int]] = []
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            try:
                saved.append((fd, os.dup(fd)))
            except OSError:  # not open: nothing to hide
                continue
            os.dup2(devnull, fd)
        yield
    finally:
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)
        os.close(devnull)


def start_helpers(ctx: multiprocessing.context.BaseContext) -> None:
    """Start the forkserver and the resource tracker (if not yet running) with stdout and stderr
    on ``/dev/null``, so that neither they nor the workers forked later hold ours."""
    from multiprocessing import forkserver, resource_tracker

    with _std_streams_to_devnull():
        resource_tracker.ensure_running()
        if ctx.get_start_method() == "forkserver":
            forkserver.ensure_running()


def wait_result(future: Future[T]) -> T:
    """``future.result()``, in short waits: Ctrl-C reaches the main thread at once. (A signal the
    kernel hands to one of the pool's threads does not wake a main thread blocked in an untimed
    wait: the KeyboardInterrupt would only come with the next result.)"""
    while True:
        try:
            return future.result(timeout=WATCH_SECONDS)
        except TimeoutError:
            continue


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once (an error or Ctrl-C in the main process): queued tasks are cancelled
    and running workers terminated, instead of waiting for every submitted task to finish. It
    returns once the pool's manager thread has ended: nothing of the pool runs at interpreter exit."""
    procs = dict(getattr(pool, "_processes", None) or {})
    manager = getattr(pool, "_executor_manager_thread", None)
    call_queue = getattr(pool, "_call_queue", None)
    result_queue = getattr(pool, "_result_queue", None)  # (shutdown forgets both queues)
    if call_queue is not None:
        # Its feeder thread may be blocked writing tasks no worker will read: never wait for it
        # (at exit, or in the pool's own clean-up), or the process could not end.
        with contextlib.suppress(Exception):
            call_queue.cancel_join_thread()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs.values():
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs.values():
        with contextlib.suppress(Exception):
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)
    # A worker terminated while writing its result leaves half a message in the result pipe, and
    # the pool's manager thread then waits forever for the rest; interpreter exit joins that
    # thread, so the process would never end. With every worker gone, closing this process's own
    # writing end makes the read end at once (EOF): the manager thread sees a broken pool and ends.
    writer = getattr(result_queue, "_writer", None)
    if writer is not None and not any(_is_alive(p) for p in procs.values()):
        with contextlib.suppress(Exception):
            writer.close()
    # Return only once the manager thread has ended the pool (it sees the workers gone and closes
    # its wake-up pipe). Left running, it raced interpreter exit: concurrent.futures' exit hook
    # writes to that pipe without the lock the thread closes it under, and a close between the
    # hook's check and its write printed a traceback (EBADF) after "interrupted". Once the thread
    # has ended, the hook sees the pipe closed and writes nothing.
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.join(timeout=MANAGER_JOIN_SECONDS)


def _is_alive(proc: Any) -> bool:
    try:
        return bool(proc.is_alive())
    except Exception:
        return False
