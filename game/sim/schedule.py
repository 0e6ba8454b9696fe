"""The scheduling loop shared by both engines: a few chunks in flight, worker deaths isolated.

A chunk whose future fails (its worker died: a battle's own exceptions are rows, never failed
futures) is split into single battles, and those "suspects" run one at a time, alone: the battle
that kills its worker again is then known exactly and recorded as failed with its seed, while its
innocent neighbours are played normally. The loop ends when every battle has a row.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from game.sim.engines import Engine
from game.sim.worker import Chunk, death_reason, failed_rows

Deliver = Callable[[list[dict[str, Any]]], None]


class _Schedule:
    """One run of the loop: what is in flight, what is suspected, whether the chunks ran out."""

    def __init__(self, engine: Engine, chunks: Iterator[Chunk], deliver: Deliver) -> None:
        self.engine = engine
        self.chunks = chunks
        self.deliver = deliver
        self.inflight: dict[Any, tuple[Chunk, bool, int]] = {}  # future -> (chunk, suspect, engine generation)
        self.suspects: collections.deque[Chunk] = collections.deque()
        self.exhausted = False

    def _send(self, chunk: Chunk, suspect: bool) -> None:
        if suspect:  # the worker writes when the battle starts: a death is then told as timed out or a crash
            handle, started = tempfile.mkstemp(prefix="gridbattle-battle-", suffix=".started")
            os.close(handle)
            chunk = dataclasses.replace(chunk, started_file=started)
        self.inflight[self.engine.submit(chunk)] = (chunk, suspect, self.engine.generation)

    def forget(self, chunk: Chunk) -> None:
        """Remove a suspect's start file."""
        if chunk.started_file is not None:
            with contextlib.suppress(OSError):
                os.unlink(chunk.started_file)

    def fill(self) -> None:
        """Suspects one at a time and alone; otherwise fresh chunks up to the engine's window."""
        if self.suspects:
            if not self.inflight:
                self._send(self.suspects.popleft(), True)
            return
        while not self.exhausted and len(self.inflight) < self.engine.window:
            fresh = next(self.chunks, None)
            if fresh is None:
                self.exhausted = True
                return
            self._send(fresh, False)

    def collect(self) -> None:
        """Hand over the rows of finished chunks; a dead worker's chunk becomes suspects (or failed rows)."""
        done, _ = self.engine.wait(set(self.inflight))
        restart = False
        # in the order they were sent (``inflight`` keeps it), not the set's: rows reach ``deliver`` in one
        # order whatever finished together, so what a run stopped early had counted does not hang on hashes
        for future in [future for future in self.inflight if future in done]:
            chunk, suspect, born = self.inflight.pop(future)
            try:
                rows = self.engine.result(future)
            except Exception as err:  # a dead worker: retry apart, then report
                restart = restart or born == self.engine.generation
                if suspect:
                    self.deliver(failed_rows(chunk, death_reason(chunk, err)))
                else:
                    self.suspects.extend(chunk.split())
                self.forget(chunk)
                continue
            self.forget(chunk)
            self.deliver(rows)
        if restart:
            # Other chunks of the broken workers fail on their own and become suspects; restart once.
            self.engine.restart()

    @property
    def finished(self) -> bool:
        return not self.inflight and self.exhausted and not self.suspects


def schedule(engine: Engine, chunks: Iterator[Chunk], deliver: Deliver) -> None:
    """Run every chunk on the engine, handing each finished chunk's rows to ``deliver``."""
    run = _Schedule(engine, chunks, deliver)
    try:
        while True:
            run.fill()
            if run.finished:
                return
            if run.inflight:
                run.collect()
    finally:  # Ctrl+C: no start file left behind
        for chunk, _, _ in run.inflight.values():
            run.forget(chunk)
