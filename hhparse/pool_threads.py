"""What the import pool's forkserver does first, before it imports numpy (:data:`hhparse.importer.PRELOAD`).

A forkserver is a fresh interpreter: as it imports what the workers need (pyarrow, and numpy with
it), OpenBLAS would start a thread per core that spins a while, on a core the workers need
(``docs/performance.md``). Nothing a worker runs calls a threaded BLAS routine, so the forkserver, and every
worker forked from it, asks for none (:func:`hhparse.lazy.one_blas_thread`; a count the user set
is kept). A pool forked from the importing process inherits its numpy as it is: the ``hhparse``
program asked for one thread before numpy was loaded (:func:`hhparse.cli.main`), and a caller's
own program keeps what it chose.
"""

from __future__ import annotations

from hhparse.lazy import one_blas_thread

one_blas_thread()
