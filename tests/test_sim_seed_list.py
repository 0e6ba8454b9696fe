"""A run's battle seeds are worked out a chunk at a time, never all before the first battle."""

from __future__ import annotations

import pytest

from game.sim import config as config_module
from game.sim.config import SimConfig
from game.sim.runner import battle_seed


def test_the_seeds_are_worked_out_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--battles 100000000`` made every seed (and a tuple for each) before its first battle: the main
    process grew toward 10 GiB for many minutes, with nothing played."""
    asked: list[int] = []

    def counted(master: int, index: int) -> int:
        asked.append(index)
        return battle_seed(master, index)

    monkeypatch.setattr(config_module, "battle_seed", counted)
    seeds = SimConfig(scenario="x.toml", battles=1000, seed=7).seeds()
    assert asked == [] and len(seeds) == 1000
    assert seeds[10:13] == [(i, battle_seed(7, i)) for i in range(10, 13)] and asked == [10, 11, 12]
    assert seeds[-1] == (999, battle_seed(7, 999)) and seeds[0] == (0, battle_seed(7, 0))
    with pytest.raises(IndexError, match="battle 1000 of 1000"):
        seeds[1000]


def test_they_are_the_seeds_the_run_always_had() -> None:
    config = SimConfig(scenario="x.toml", battles=40, seed=3)
    assert list(config.seeds()) == [(i, battle_seed(3, i)) for i in range(40)]
    assert SimConfig(scenario="x.toml", battles=5, only_seeds=[9, 4]).seeds() == [(0, 9), (1, 4)]
