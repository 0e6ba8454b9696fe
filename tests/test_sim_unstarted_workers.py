"""A pool whose worker failed to start is shut down without hiding why it failed.

Calling ``simulate`` from a script without ``if __name__ == "__main__":`` makes each spawned worker
run the script again, and multiprocessing refuses to start a process from there with a RuntimeError
that says what to do. The pool's shutdown then joined the process that never started, and
multiprocessing's own "AssertionError: can only join a started process" was what the user read.
"""

from __future__ import annotations

import concurrent.futures as cf

from game.sim.engines import Spawning, stop_workers


def test_a_worker_that_never_started_is_not_joined() -> None:
    spawning = Spawning()
    never = spawning.Process(target=print)  # made, as the pool makes its workers, but never started
    executor = cf.ProcessPoolExecutor(max_workers=1, mp_context=spawning)  # type: ignore[call-overload]
    stop_workers(executor, spawning)
    assert never.pid is None and not never.is_alive()
