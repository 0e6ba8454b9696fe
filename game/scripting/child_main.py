"""``python -m game.scripting.child_main FD``: a script-host worker started as a plain subprocess.

A daemonic process (a Dask worker, a pool worker) may not start multiprocessing children, so there
the parent starts the worker with :mod:`subprocess` instead and hands it one end of a socket pair
as file descriptor ``FD``. The first message on it is JSON ``[methods, commands, limits]``; from
then on the worker is exactly :func:`game.scripting.child.worker_main` (same limits, same protocol).
Its own module, imported by nothing, so that ``-m`` runs it without re-importing a loaded module.
"""

from __future__ import annotations

import json
import sys
from multiprocessing.connection import Connection

from game.scripting.child import SLACK, worker_main
from game.scripting.errors import Limits

#: The set-up message is small: method names and a handful of numbers.
SETUP_BYTES = (1 << 20) + SLACK


def main(argv: list[str]) -> int:
    """Serve the parent on the inherited descriptor; exit status 2 when started wrongly."""
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m game.scripting.child_main FD (started by the script host, not by hand)",
              file=sys.stderr)
        return 2
    conn = Connection(int(argv[0]))
    try:
        methods, commands, limits = json.loads(conn.recv_bytes(SETUP_BYTES))
    except (EOFError, OSError, ValueError, TypeError):
        return 3
    worker_main(conn, {str(k): v for k, v in methods.items()}, [str(c) for c in commands], Limits(**limits))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
