"""``python -m hhparse``: the same as the ``hhparse`` command."""

from hhparse.cli import main

main()
