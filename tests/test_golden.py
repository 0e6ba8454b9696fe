"""The golden event logs: the shipped scenarios, 12 to 30 seeds each, and a gauntlet of every power.

Each battle's events are turned into plain values, every path on this machine replaced by a
placeholder, and hashed; the hashes are pinned in ``tests/golden/event_hashes.json``. Each
scenario is loaded once per driver and its seeds played in order, the first on fresh caches and
the next on what the earlier battles worked out, as ``simulate`` plays them; the last is played on
the scenario loaded afresh, as a save's load plays it. A move of
code must leave every hash as it was. A change of a rule or of the computer player re-baselines
them in a commit of its own that says which rule changed and why:

    GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_golden.py

Three drivers play: the tactical computer player, the greedy one (the fixed baseline), and "api",
a seeded driver that throws random moves and power uses at the public commands (refusals
included), so every power, area, push, teleport and script is covered whatever the AI prefers.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game import IllegalCommand
from game.content.scenario import load_scenario
from game.sim.runner import ai_rng, battle_seed, play

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
GOLDEN = GOLDEN_DIR / "event_hashes.json"
SHIPPED = sorted((ROOT / "assets" / "scenarios").glob("*.toml"))
GAUNTLET = GOLDEN_DIR / "gauntlet.toml"
#: (driver, scenario files, seeds)
PLAN: tuple[tuple[str, tuple[Path, ...], int], ...] = (
    ("tactical", (*SHIPPED, GAUNTLET), 12),  # the tactical player weighs forecasts: slower per battle
    ("greedy", (*SHIPPED, GAUNTLET), 30),
    ("random", (GAUNTLET,), 30),
    ("api", (*SHIPPED, GAUNTLET), 30),
)


def normalised(value: object) -> object:
    """Plain JSON-able values with no trace of where the checkout lives."""
    if isinstance(value, str):
        return value.replace(str(ROOT), "<root>")
    if isinstance(value, (list, tuple)):
        return [normalised(v) for v in value]
    if isinstance(value, dict):
        return {k: normalised(v) for k, v in value.items()}
    if isinstance(value, float):
        return repr(value)
    return value


def api_driver(seed: int) -> Callable[[Any, int], None]:
    """A turn controller that tries random public commands, drawing from (seed, round, actor) alone."""

    def take_turn(battle: Any, actor: int) -> None:
        rng = random.Random(f"{seed}:{battle.round}:{actor}")
        if not battle.can_act(actor):
            return
        if rng.random() < 0.6:
            xs, ys = np.nonzero(battle.reachable(actor))
            if len(xs):
                k = rng.randrange(len(xs))
                try:
                    battle.move(actor, int(xs[k]), int(ys[k]))
                except IllegalCommand:
                    pass
        powers, creatures = battle.powers_of(actor), battle.creatures()
        for _ in range(16):
            power = rng.choice(powers)
            if rng.random() < 0.5:
                aim: dict[str, Any] = {"target": rng.choice(creatures)}
            else:
                aim = {"point": (rng.randrange(battle.width), rng.randrange(battle.height))}
            try:
                battle.use_power(actor, power, **aim)
                break
            except IllegalCommand:
                pass

    return take_turn


def event_log_hash(path: Path, seed: int, driver: str) -> str:
    """Play one battle of a freshly loaded scenario and hash its whole event log."""
    return scenario_log_hash(load_scenario(path), seed, driver)


def scenario_log_hash(scenario: Any, seed: int, driver: str) -> str:
    """Play one battle of a loaded scenario (its caches shared with its other battles) and hash its log."""
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


def _hash_group(group: tuple[Path, str, int]) -> list[str]:
    """One scenario's battles under one driver: loaded once, its first battle on fresh caches and the
    next on what the earlier ones worked out (as ``simulate`` plays them; test_shared_caches plays them
    in the other order too); the last on a scenario loaded afresh, as a save's load or a replay plays
    it, so a re-baseline never pins only what warm caches give."""
    path, driver, seeds = group
    scenario = load_scenario(path)
    warm = [scenario_log_hash(scenario, battle_seed(2024, i), driver) for i in range(seeds - 1)]
    return [*warm, event_log_hash(path, battle_seed(2024, seeds - 1), driver)]


def current_hashes(driver: str) -> dict[str, list[str]]:
    """Every battle of one driver's plan, over two forked processes (the machine has two cores).

    One driver a test, not the whole plan in one module fixture: pytest-xdist may hand the drivers'
    tests to both of its workers, and each worker then played every golden battle (27 s of CPU)."""
    groups = [(path, name, seeds) for name, paths, seeds in PLAN if name == driver for path in paths]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        found = pool.map(_hash_group, groups, chunksize=1)
    return {path.stem: seeds for (path, _, _), seeds in zip(groups, found)}


def _rewrite_pinned(driver: str, found: dict[str, list[str]]) -> None:
    """``GOLDEN_UPDATE``: this driver's hashes into the pinned file, the other drivers' kept (run it
    in one process, as the docstring's command does: two at once could each keep the other's old)."""
    pinned = json.loads(GOLDEN.read_text())
    pinned[driver] = found
    temporary = GOLDEN.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
    temporary.replace(GOLDEN)


@pytest.mark.slow
@pytest.mark.parametrize("driver", [driver for driver, _, _ in PLAN])
def test_event_logs_match_the_golden_hashes(driver: str) -> None:
    found = current_hashes(driver)
    if os.environ.get("GOLDEN_UPDATE"):
        _rewrite_pinned(driver, found)
    pinned = json.loads(GOLDEN.read_text())[driver]
    assert sorted(pinned) == sorted(found), "the scenarios changed: re-baseline"
    for scenario, seeds in found.items():
        differ = [i for i, (a, b) in enumerate(zip(seeds, pinned[scenario])) if a != b]
        assert not differ, f"{scenario} ({driver}): {len(differ)} of {len(seeds)} seeds differ, first index {differ[0]}"


@pytest.mark.slow
def test_the_hash_sees_a_changed_event() -> None:
    """The golden check can fail: one seed played twice agrees, another seed does not."""
    first = event_log_hash(GAUNTLET, battle_seed(2024, 0), "api")
    assert first == event_log_hash(GAUNTLET, battle_seed(2024, 0), "api")
    assert first != event_log_hash(GAUNTLET, battle_seed(2024, 1), "api")
