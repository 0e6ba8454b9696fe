"""The Dask side of ``--engine dask``: a worker plugin that owns the worker's context, and the task.

Imported only when the Dask engine starts (it needs ``distributed``). Every Dask worker, those the
nanny restarts after a battle killed one included, gets its own copy of the plugin, whose
:meth:`~SimWorkerPlugin.setup` makes that worker's :class:`~game.sim.context.WorkerContext`.
A Dask worker is not sandboxed (tasks run in threads, where no watchdog signal can be armed), so
untrusted scripts run in their own script-host process there, as anywhere else.
"""

from __future__ import annotations

import os
from typing import Any

from distributed import WorkerPlugin, get_worker

from game.sim.context import WorkerContext
from game.sim.worker import Chunk, run_chunk

PLUGIN_NAME = "gridbattle-sim"


class SimWorkerPlugin(WorkerPlugin):
    """Runs on every worker: makes the worker's context."""

    name = PLUGIN_NAME

    def __init__(self) -> None:
        self.context: WorkerContext | None = None

    def setup(self, worker: Any) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no window in a worker
        self.context = WorkerContext()

    def teardown(self, worker: Any) -> None:
        """Stops the script-host processes the worker's battles shared."""
        if self.context is not None:
            self.context.close()


def dask_task(chunk: Chunk) -> list[dict[str, Any]]:
    """What a Dask worker runs: the chunk, with the context its plugin holds."""
    plugin = get_worker().plugins.get(PLUGIN_NAME)
    context = getattr(plugin, "context", None)
    return run_chunk(chunk, context if isinstance(context, WorkerContext) else None)
