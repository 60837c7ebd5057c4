"""What the import pool's forkserver builds once for all its workers (:data:`hhparse.importer.PRELOAD`).

Imported by that forkserver only, after the modules the workers need. Why here and not in each
worker (:func:`~hhparse.import_worker.worker_init`): every worker is forked from the forkserver,
so what the forkserver has built, each worker starts with. Importing ``pyarrow.compute`` (the
table builder reaches it on its first batch) and building the parser's tables cost each worker
more CPU than anything else in its start-up; done here they cost it once per import instead of
once per worker. Then everything loaded is moved out of the collector's sight (``gc.freeze``, as
Python's documentation advises before forking): a worker's own collections never scan — and so
never copy, page by page — what it inherited.
"""

from __future__ import annotations

import contextlib
import gc

from hhparse.import_worker import collector_paused

with collector_paused():  # (what is built here lives as long as the forkserver: nothing to collect)
    import pyarrow.compute  # noqa: F401  (imported for the workers; see the module's docstring)

    from hhparse.parsing import _parser

    # The forkserver dies of anything but an ImportError raised by a preloaded module: a parser
    # that fails to build is then built (and its error met, and reported) by each worker instead.
    with contextlib.suppress(Exception):
        _parser()
    gc.collect()
    gc.freeze()
