"""Battles built from one loaded scenario share its caches (paths, cover lines, sight, the script
host): what one battle worked out must never change what the next one does.

The golden test loads its scenario afresh for every battle; here each scenario is loaded once and
its first seeds are played one after another on the same caches, in two orders, and every event
log must hash to the pinned golden value.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from test_golden import GAUNTLET, GOLDEN, SHIPPED, api_driver, normalised

from game.content.scenario import load_scenario
from game.sim.runner import ai_rng, battle_seed, play

SEEDS = 4


def _hash(scenario, seed: int, driver: str) -> str:  # type: ignore[no-untyped-def]
    battle, _ = scenario.build_with_ids(seed, trusted=True)
    try:
        if driver == "api":
            battle.start_combat()
            for _ in range(30):
                if len(battle.standing_teams()) <= 1:
                    break
                battle.tick(controller=api_driver(seed))
        else:
            play(battle, driver, ai_rng(seed), max_rounds=50)
        lines = [json.dumps(normalised(event.as_dict()), sort_keys=True) for event in battle.events]
    finally:
        battle.close()
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@pytest.mark.parametrize("driver", ["tactical", "api"])
@pytest.mark.parametrize("path", [*SHIPPED, GAUNTLET], ids=lambda p: p.stem)
def test_battles_on_shared_caches_match_the_golden_hashes(path, driver: str) -> None:  # type: ignore[no-untyped-def]
    pinned = json.loads(GOLDEN.read_text())[driver][path.stem][:SEEDS]
    scenario = load_scenario(path)
    for order in (range(SEEDS), reversed(range(SEEDS))):
        found = {i: _hash(scenario, battle_seed(2024, i), driver) for i in order}
        assert [found[i] for i in range(SEEDS)] == pinned, f"{path.stem} ({driver}) on shared caches"
    assert scenario.caches.distances, "the battles shared no answers: the test tests nothing"
