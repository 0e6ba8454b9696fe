"""The scheduling loop hands finished chunks over in the order they were sent.

Several chunks may finish between two waits (a loaded machine, a pool of two); the loop handed them
over in the order of a ``set`` of futures, so a run stopped early by its row callback counted whichever
came first by hash: a 3-variant sweep stopped after 3 rows once saw variant 0 twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from game.sim.engines import Engine
from game.sim.schedule import schedule
from game.sim.worker import Chunk


class _Done:
    """A future that finished at once with the rows named by its chunk's seeds."""

    def __init__(self, chunk: Chunk) -> None:
        self.rows = [{"seed": seed} for _, seed in chunk.battles]

    def result(self) -> list[dict[str, Any]]:
        return self.rows


class _AllAtOnce(Engine):
    """An engine whose chunks all finish before the loop first waits, told back as one set."""

    window = 64

    def submit(self, chunk: Chunk) -> Any:
        return _Done(chunk)

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        return set(futures), set()

    def close(self, cancel: bool) -> None:
        pass


def _chunks(count: int) -> Iterator[Chunk]:
    for index in range(count):
        yield Chunk(0, "yard.toml", (), ((index, index),), max_rounds=3)


def test_chunks_that_finish_together_are_handed_over_in_the_order_they_were_sent() -> None:
    delivered: list[int] = []
    schedule(_AllAtOnce(), _chunks(40), lambda rows: delivered.extend(row["seed"] for row in rows))
    assert delivered == list(range(40))
