"""How a run's battles are cut into tasks: the size of each chunk, and the chunks in order.

Moved out of :mod:`game.sim.simulate` (which re-exports them) to keep that module under 400 lines.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from game.sim.config import SimConfig
from game.sim.context import Overrides, ScenarioSource
from game.sim.worker import Chunk

__all__ = ["chunk_size", "chunk_sizes", "chunks_of"]


def chunk_size(config: SimConfig, total: int, workers: int) -> int:
    """Battles per task: big enough to hide the task overhead, small enough that every worker stays
    busy to the end, the bar moves and Ctrl+C loses little."""
    return config.chunk_size or max(1, min(50, total // (workers * 8) or 1))


def chunk_sizes(config: SimConfig, total: int, workers: int) -> Iterator[int]:
    """The size of each next chunk, endlessly: ``--chunk`` when given; else :func:`chunk_size` at
    first, and with more than one worker shrinking near the end to an eighth of each worker's share
    of what is left (at least a quarter of the first), so the workers finish together: one big last
    chunk would keep a single worker busy while the others wait (5% of a 1,000-battle run on two
    workers at 50 a chunk). One worker has nobody to wait for: its chunks keep their size."""
    size = chunk_size(config, total, workers)
    fixed = bool(config.chunk_size) or workers == 1
    left = total
    while True:
        step = size if fixed else max(size // 4, 1, min(size, -(-left // (workers * 8))))
        left = max(left - step, 0)
        yield step


def chunks_of(config: SimConfig, seeds: Sequence[tuple[int, int]], variants: Sequence[Overrides],
              replay_dir: str | None, sizes: Iterator[int], source: ScenarioSource | None = None) -> Iterator[Chunk]:
    """The run's tasks: the seeds in order, cut into blocks of the ``sizes`` in turn, and each block
    played by every variant before the next block, each chunk with the ``source`` its worker builds
    from (None: the file on disk).

    Block by block, not variant by variant: the paired differences compare the variants on the seeds
    both finished, and a sweep stopped early (Ctrl+C) played every variant on the first seeds. Variant
    by variant, a 3-variant sweep stopped at 200 of 3,000 battles had played only the first variant:
    its table had no paired difference at all and every other variant's row was ``-``."""
    start = 0
    while start < len(seeds):
        step = next(sizes)
        for _ in variants[1:]:  # each variant's chunk is one of the run's: the sizes shrink by all of them
            next(sizes)
        block = tuple(seeds[start:start + step])
        for index, overrides in enumerate(variants):
            yield Chunk(index, str(config.scenario), overrides, block, config.policy,
                        config.max_rounds, config.hook, replay_dir and f"{replay_dir}/variant-{index}",
                        config.only_seeds is not None,
                        config.strict_scripts, config.battle_seconds, source=source)
        start += step
