"""What to simulate: the settings of one ``python -m game simulate`` run, mirrored by its flags."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from game.ai import DEFAULT_POLICY
from game.sim.context import Overrides
from game.sim.runner import battle_seed

ENGINES = ("pool", "dask")


class BattleSeeds(Sequence[tuple[int, int]]):
    """``(battle index, seed)`` of each of ``battles`` battles of a master seed, each worked out when it
    is asked for: the whole list of a ``--battles 100000000`` run (numpy's SeedSequence for each, and
    a tuple apiece) was made before the first battle, the main process growing by some 10 MiB a second
    (836 MiB after 75 s) toward 10 GiB; now the memory a run holds grows with the battles played."""

    __slots__ = ("battles", "master")

    def __init__(self, master: int, battles: int) -> None:
        self.master = master
        self.battles = battles

    def __len__(self) -> int:
        return self.battles

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.battles))]
        i = index + self.battles if index < 0 else index
        if not 0 <= i < self.battles:
            raise IndexError(f"battle {index} of {self.battles}")
        return i, battle_seed(self.master, i)


@dataclass
class SimConfig:
    """What to simulate. Mirrors the command line; see ``python -m game simulate --help``.

    Attributes:
        scenario: path of the scenario TOML file.
        battles: battles per variant.
        seed: the master seed every battle seed derives from.
        sets: swept keys and their values, ``[("powers.fireball.damage", ["4d6", "6d6"])]``; their
            product is the grid of variants.
        workers: worker processes (pool engine); None means every core.
        policy: the AI policy: one for every team, or per team (``keep=tactical,raiders=greedy``).
        max_rounds: rounds before a battle is called a draw.
        engine: "pool" or "dask".
        scheduler: a Dask scheduler address; None starts a local two-worker cluster.
        out_dir: where battles.csv, plots and failed battles' replays go; None writes nothing.
        chunk_size: battles per task; None picks one that keeps every worker busy and the bar moving.
        hook: optional ``module:function`` called with ``(battle, ids, seed)`` after each build.
        only_seeds: run exactly these seeds (replaying chosen battles) instead of derived ones; a
            replay file is written for each when out_dir is set.
        strict_scripts: count a battle in which a power's or reaction's script failed as failed.
        battle_seconds: a battle still running after this many seconds stops its pool worker and
            is reported as failed with its seed (scripts run in-process there; see game.sim.worker); on
            Dask, whose battles run in threads, it fails after the first round that ends past it.
        recycle: replace the pool's workers after about this many battles each (0: never), which
            bounds the native memory the rules leak (see :class:`game.sim.engines.PoolEngine`).
    """

    scenario: str
    battles: int = 1000
    seed: int = 0
    sets: list[tuple[str, list[Any]]] = field(default_factory=list)
    workers: int | None = None
    policy: str = DEFAULT_POLICY
    max_rounds: int = 50
    engine: str = "pool"
    scheduler: str | None = None
    out_dir: str | None = "out"
    chunk_size: int | None = None
    hook: str | None = None
    only_seeds: list[int] | None = None
    strict_scripts: bool = False
    battle_seconds: float = 60.0
    recycle: int = 500

    def variants(self) -> list[Overrides]:
        """Every combination of swept values, first key varying slowest (the table's order)."""
        if not self.sets:
            return [()]
        keys = [k for k, _ in self.sets]
        return [tuple(zip(keys, combo)) for combo in itertools.product(*(v for _, v in self.sets))]

    def seeds(self) -> Sequence[tuple[int, int]]:
        """``(battle index, seed)`` for every battle of one variant: the same for every variant (worked
        out a chunk at a time: :class:`BattleSeeds`)."""
        if self.only_seeds is not None:
            return list(enumerate(self.only_seeds))
        return BattleSeeds(self.seed, self.battles)
