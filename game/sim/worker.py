"""Worker tasks of ``python -m game simulate``: chunks of battles, the pool worker's sandbox, its watchdog.

A pool worker is a spawned process that :func:`worker_init` turns into the scripts' sandbox (an
address-space limit on the whole process), and it keeps one :class:`~game.sim.context.WorkerContext`
for its life: the initializer makes it, every :func:`pool_task` of that process uses it. Dask
workers keep theirs in their plugin instead (:mod:`game.sim.dask_worker`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import time
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from game.ai import DEFAULT_POLICY
from game.sim.context import Overrides, ScenarioSource, WorkerContext
from game.sim.runner import OVER_TIME, blank_row, run_battle

#: Address space a pool worker may use; a battle needs about 200 MiB, a runaway script far more.
WORKER_MEMORY_BYTES = 2 * 2**30

#: The context of this pool worker process: the one per-process value the pool needs, because a
#: ``concurrent.futures`` initializer can hand its tasks nothing but process state. Set once by
#: :func:`worker_init` in each worker, read by :func:`pool_task`; the parent never sets it.
_POOL_CONTEXT: ContextVar[WorkerContext] = ContextVar("gridbattle_pool_worker_context")


@dataclasses.dataclass(frozen=True, slots=True)
class Chunk:
    """A worker task: some battles of one variant. Small and picklable on purpose.

    Attributes:
        variant: index of the variant in the sweep.
        path: the scenario file (its folder finds nothing: the texts come in ``source``; a world is
            dearer to ship than the texts, which the worker parses once).
        overrides: the variant's ``(key, value)`` overrides, scenario and power keys together.
        battles: ``(battle index, seed)`` pairs.
        policy: the AI policy: one for every team, or per team (as ``SimConfig.policy``).
        max_rounds: the round limit (a draw when reached).
        hook: optional ``module:function`` called after each build.
        replay_dir: where failed battles' replays go (None: nowhere).
        always_replay: write a replay for every battle (``--only-seed``), not only failed ones.
        strict_scripts: a battle in which a script failed is a failed battle.
        battle_seconds: in a sandboxed pool worker, a battle that takes longer stops the worker, so
            the pool reports it as failed with its seed (a hostile script can spin inside one
            builtin call where no step budget sees it); elsewhere (Dask) it fails after the first
            round that ends past it.
        source: the scenario as the parent read it (its text, power files and scripts): the worker builds
            from it, not from ``path`` on the disk, which may have been edited since (None: the disk).
        started_file: a file (made by the scheduler for a battle run alone after a worker died) in
            which the worker writes when the battle started and whether its watchdog was armed, so
            that a death can be told as the watchdog's or as a crash (see :func:`death_reason`).
    """

    variant: int
    path: str
    overrides: Overrides
    battles: tuple[tuple[int, int], ...]
    policy: str = DEFAULT_POLICY
    max_rounds: int = 50
    hook: str | None = None
    replay_dir: str | None = None
    always_replay: bool = False
    strict_scripts: bool = False
    battle_seconds: float = 60.0
    started_file: str | None = None
    source: ScenarioSource | None = None

    def split(self) -> list[Chunk]:
        """One chunk per battle: to find which battle killed a worker."""
        return [dataclasses.replace(self, battles=(b,)) for b in self.battles]


def run_chunk(chunk: Chunk, context: WorkerContext | None = None) -> list[dict[str, Any]]:
    """Play every battle of a chunk with this worker's context; rows carry their variant and battle index.

    In a sandboxed context each battle has a watchdog (``chunk.battle_seconds``); elsewhere (a Dask worker,
    whose tasks run in threads, where no alarm can be armed) the battle is stopped after the first round
    that ends past it, so the flag bounds every engine's battles.
    """
    context = context or WorkerContext()
    context.pin(chunk.source)
    rows = []
    for index, seed in chunk.battles:
        if chunk.started_file is not None:
            _mark_start(chunk.started_file, context.sandboxed)
        watchdog = _Watchdog(chunk.battle_seconds) if context.sandboxed else None
        try:
            row = run_battle(chunk.path, chunk.overrides, seed, chunk.policy, chunk.max_rounds, chunk.hook,
                             chunk.replay_dir, chunk.always_replay, chunk.strict_scripts, context=context,
                             seconds=None if context.sandboxed else chunk.battle_seconds)
        finally:
            if watchdog is not None:
                watchdog.cancel()
        row["variant"] = chunk.variant
        row["battle"] = index
        rows.append(row)
    return rows


def pool_task(chunk: Chunk) -> list[dict[str, Any]]:
    """What a pool worker runs: the chunk, with the context its initializer made.

    Raises:
        LookupError: the pool was made without :func:`worker_init` (a battle must not run
            unsandboxed by accident).
    """
    return run_chunk(chunk, _POOL_CONTEXT.get())


class _Watchdog:
    """Stop this worker if a battle is not over in ``seconds``.

    In a sandboxed pool worker scripts run in-process, where nothing else bounds the time one
    builtin call may take, and such a call holds the GIL, so no Python timer could run. The kernel's
    real-time alarm needs no Python at all: SIGALRM, with no handler installed, ends the process.
    The pool then plays the chunk's battles one by one and reports this one as failed, with its seed.
    """

    def __init__(self, seconds: float) -> None:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def cancel(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)


def worker_init() -> None:
    """Pool worker start-up: ignore Ctrl+C (the parent decides what stops), make the worker itself
    the sandbox, and give it its context.

    With an address-space limit on the worker, a script that exhausts memory aborts this worker
    only; the pool reports the battle with its seed and carries on. So scripts of any scenario run
    in-process here (``trusted=True``), without a script-host worker per battle worker: this is the
    "whole battle in a sandboxed worker" arrangement, and it is about ten times faster per call.
    """
    import resource

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = WORKER_MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(WORKER_MEMORY_BYTES, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _POOL_CONTEXT.set(WorkerContext(sandboxed=True))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def failed_rows(chunk: Chunk, error: str) -> list[dict[str, Any]]:
    """Rows for battles that produced nothing (their worker died): counted, with seed and reason."""
    return [{**blank_row(seed, error), "variant": chunk.variant, "battle": index} for index, seed in chunk.battles]


def _mark_start(path: str, watched: bool) -> None:
    """Write when this battle starts (the monotonic clock is one for every process of the machine)."""
    with contextlib.suppress(OSError):
        Path(path).write_text(f"{time.monotonic()!r} {int(watched)}", encoding="ascii")


def death_reason(chunk: Chunk, err: BaseException) -> str:
    """Why a battle run alone (a suspect) left no row: its worker was ended by the watchdog after
    ``--battle-seconds``, or died before that (memory past the worker's limit aborts it, as a crash
    does); told apart by the start the worker wrote in ``chunk.started_file``. Unknown when nothing
    was written (the worker died before the battle began, or runs on another machine)."""
    detail = f"{type(err).__name__}: {err}".strip()
    try:
        started, watched = Path(chunk.started_file or "").read_text(encoding="ascii").split()
        ran = time.monotonic() - float(started)
    except (OSError, ValueError):
        return f"worker died (out of memory, over --battle-seconds, a crash, or killed from outside): {detail}"
    seconds = f"--battle-seconds {chunk.battle_seconds:g}"
    if watched == "1" and ran >= chunk.battle_seconds:
        return f"{OVER_TIME} {chunk.battle_seconds:g}: the battle was still running, so its worker was ended"
    return (f"worker died {ran:.1f} s into the battle, before {seconds} (out of memory, a crash, or killed from "
            f"outside): {detail}")
