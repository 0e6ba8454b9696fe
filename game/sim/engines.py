"""Where chunks of battles run: a local process pool (spawn context) or a Dask cluster.

Both engines take small picklable :class:`~game.sim.worker.Chunk` tasks and give back lists of row
dicts; :mod:`game.sim.schedule` keeps a few in flight on either. ``generation`` counts the times an
engine replaced its workers, so the scheduler can tell a failure of the old workers from one of the
new.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

from game.sim.flags import CONNECT_SECONDS, one_line
from game.sim.worker import Chunk, pool_task, worker_init


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Spawning:
    """The spawn context, remembering the processes it starts: a pool's own workers, which
    :meth:`PoolEngine.close` can stop at once (``ProcessPoolExecutor`` has no public way to)."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.started: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.context, name)

    def Process(self, *args: Any, **kwargs: Any) -> Any:  # the context's own name for it
        process = self.context.Process(*args, **kwargs)
        self.started.append(process)
        return process


def pool_executor(workers: int, spawning: Spawning | None = None) -> cf.ProcessPoolExecutor:
    """A process pool with the spawn context: workers import the game fresh (no forked esper state,
    no inherited threads of a Dask client or tqdm), ignore Ctrl+C, and warm the power table.

    No ``max_tasks_per_child``: on CPython 3.11 a pool that replaces a worker that way can deadlock
    (gh-115634; ``simulate --workers 1 --battles 1050`` hung). :class:`PoolEngine` recycles whole
    pools between chunks instead. ``spawning``: the context that starts its workers (and remembers them).
    """
    return cf.ProcessPoolExecutor(max_workers=workers, mp_context=spawning or Spawning(),  # type: ignore[call-overload]
                                  initializer=worker_init)


def stop_workers(executor: cf.ProcessPoolExecutor, context: Spawning) -> None:
    """Shut *executor* down now: its queued chunks cancelled and its workers, which ignore Ctrl+C,
    ended mid-chunk. Waiting for them (up to a chunk of 50 battles of up to ``--battle-seconds``
    each) kept Ctrl+C from stopping a run for seconds or minutes, for rows the run then threw away."""
    executor.shutdown(wait=False, cancel_futures=True)
    for process in context.started:
        if process.is_alive():
            process.terminate()
    for process in context.started:
        if process.pid is not None:  # (one whose start failed has none: joining it would hide why it failed)
            process.join(timeout=5)


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ctrl+C ignored while the block starts processes, which keep ignoring it.

    A terminal's Ctrl+C reaches every process of its group: a local Dask cluster's worker processes
    each printed a KeyboardInterrupt traceback, and its nannies their CancelledErrors, about a
    hundred lines from inside ``distributed`` over the table of an interrupted run. A process
    started with SIGINT ignored keeps ignoring it (Python installs its handler only where the
    signal is at its default), so the parent alone stops the run and closes the cluster. Outside
    the main thread, where no handler can be set, the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class Engine:
    """Submit chunks, get rows back; the pool and Dask engines share the scheduling loop.

    Attributes:
        window: chunks to keep in flight.
        generation: how many times the workers were replaced (a restart after a death, a recycle).
    """

    window: int = 1
    generation: int = 0

    def submit(self, chunk: Chunk) -> Any:
        raise NotImplementedError

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        raise NotImplementedError

    def result(self, future: Any) -> list[dict[str, Any]]:
        return future.result()

    def restart(self) -> None:
        """After a worker died: a usable engine again."""
        self.generation += 1

    def close(self, cancel: bool) -> None:
        raise NotImplementedError


class PoolEngine(Engine):
    """A local spawn process pool (its own, or a warm one handed over, which it never shuts down).

    Recycling: native memory that no Python code can free (a library's leak, a script host's
    growth) would pile up in a worker that lives for a whole sweep, so after ``recycle_battles``
    battles an own pool is replaced by a fresh one. Battles are counted, not chunks: chunks shrink
    towards a run's end, and counting them would recycle a pool for its last few battles. It happens
    between chunks, never mid-flight: the next submit first lets every chunk of the old pool finish
    (their futures keep their rows), then shuts it down and starts the new one.

    Args:
        workers: worker processes.
        executor: a warm pool to use instead of an own one (never recycled nor shut down).
        recycle_battles: battles per pool (all its workers together) before it is replaced; None
            never replaces it.
    """

    def __init__(self, workers: int, executor: cf.ProcessPoolExecutor | None = None,
                 recycle_battles: int | None = None) -> None:
        self.workers = workers
        self.recycle_battles = recycle_battles
        self.own = executor is None
        self.spawning = Spawning()
        self.executor = executor or pool_executor(workers, self.spawning)
        self.window = workers * 3
        self.submitted = 0  # battles given to this pool

    def submit(self, chunk: Chunk) -> cf.Future[list[dict[str, Any]]]:
        if self.own and self.recycle_battles and self.submitted >= self.recycle_battles:
            self.recycle()
        self.submitted += len(chunk.battles)
        return self.executor.submit(pool_task, chunk)

    def recycle(self) -> None:
        """Replace the pool with a fresh one once every chunk it was given has finished."""
        self.executor.shutdown(wait=True)
        self.spawning = Spawning()
        self.executor = pool_executor(self.workers, self.spawning)
        self.submitted = 0
        self.generation += 1  # a failure of the old pool must not restart the new one

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        done, pending = cf.wait(futures, timeout=0.5, return_when=cf.FIRST_COMPLETED)
        return set(done), set(pending)

    def restart(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.spawning = Spawning()
        self.executor = pool_executor(self.workers, self.spawning)
        self.own = True
        self.submitted = 0
        super().restart()

    def close(self, cancel: bool) -> None:
        """Shut an own pool; with ``cancel``, at once, its workers stopped (``simulate`` always asks so:
        by then every chunk is in, or the run was cut short), else after the chunks still queued."""
        if not self.own:
            return
        if cancel:
            stop_workers(self.executor, self.spawning)
        else:
            self.executor.shutdown(wait=True, cancel_futures=cancel)


class DaskEngine(Engine):
    """Dask distributed: a scheduler at an address, or a local cluster of ``workers`` (default 2).

    Raises:
        ValueError: (from ``__init__``, before any battle) dask[distributed] is not installed, the
            scheduler cannot be used, or the local cluster does not start; ``simulate`` says it in one line.
    """

    def __init__(self, scheduler: str | None, workers: int | None) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster

            from game.sim.dask_worker import SimWorkerPlugin
        except ImportError as err:  # a loud, actionable failure: never a silent fallback to the pool
            raise ValueError(f"--engine dask needs dask[distributed] (pip install 'dask[distributed]'): "
                             f"{one_line(err)}") from None

        # A task whose worker dies fails at once (KilledWorker) rather than being retried on other
        # workers, so a battle that kills its worker takes down one worker, is isolated by the
        # scheduler like on the pool, and is reported with its seed.
        dask.config.set({"distributed.scheduler.allowed-failures": 0})
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
            except Exception as err:  # unreachable, refused, not a scheduler: one line, before any battle
                raise ValueError(f"--scheduler {scheduler!r}: cannot use it as a Dask scheduler "
                                 f"({type(err).__name__}: {one_line(err)})") from None
        else:
            # no dashboard; the scheduler's small HTTP server (health checks) on a free port of this
            # machine only, so that two runs at once do not fight over port 8787 (and warn about it)
            # Ctrl+C is the parent's to handle (its processes inherit SIGINT ignored); and only errors of
            # distributed's own are printed: its warnings as a run stops (a task cancelled, a worker
            # killed) said in its words what the table then says of the battles.
            try:
                with sigint_ignored():
                    self.cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                                dashboard_address=None, silence_logs=logging.ERROR,
                                                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            except Exception as err:  # no free port, no processes: one line, before any battle, as above
                raise ValueError(f"--engine dask: cannot start a local Dask cluster ({type(err).__name__}: "
                                 f"{one_line(err)})") from None
            self.client = Client(self.cluster)
        self.client.register_plugin(SimWorkerPlugin())
        n = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.window = n * 3

    def submit(self, chunk: Chunk) -> Any:
        from game.sim.dask_worker import dask_task

        return self.client.submit(dask_task, chunk, pure=False, retries=0)

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        from distributed import wait

        try:
            done, pending = wait(list(futures), timeout=0.5, return_when="FIRST_COMPLETED")
        except (TimeoutError, cf.TimeoutError):
            return set(), set(futures)
        return set(done), set(pending)

    def close(self, cancel: bool) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
