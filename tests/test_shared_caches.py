"""Battles built from one loaded scenario share its caches (paths, cover lines, sight, the script
host): what one battle worked out must never change what the next one does.

The golden test loads each scenario once and plays its seeds in order on the same caches; here
its first seeds are played the other way round (the last first, on fresh caches), and the first
again on the caches it warmed itself (as a rewind plays a round again); every event log must
still hash to the pinned golden value: what a battle finds does not depend on which battles came
before it.
"""

from __future__ import annotations

import json

import pytest
from test_golden import GAUNTLET, GOLDEN, SHIPPED, scenario_log_hash

from game.content.scenario import load_scenario
from game.sim.runner import battle_seed

SEEDS = 4


@pytest.mark.slow
@pytest.mark.parametrize("driver", ["tactical", "api"])
@pytest.mark.parametrize("path", [*SHIPPED, GAUNTLET], ids=lambda p: p.stem)
def test_battles_on_shared_caches_match_the_golden_hashes(path, driver: str) -> None:  # type: ignore[no-untyped-def]
    pinned = json.loads(GOLDEN.read_text())[driver][path.stem][:SEEDS]
    scenario = load_scenario(path)
    found = {i: scenario_log_hash(scenario, battle_seed(2024, i), driver) for i in reversed(range(SEEDS))}
    assert [found[i] for i in range(SEEDS)] == pinned, f"{path.stem} ({driver}) on shared caches, last seed first"
    # the last seed played again on caches it warmed itself, as a rewind plays a round again
    assert scenario_log_hash(scenario, battle_seed(2024, 0), driver) == pinned[0], f"{path.stem} ({driver}) again"
    assert scenario.caches.distances, "the battles shared no answers: the test tests nothing"
