"""A simulation worker's caches belong to its context: two contexts (two runs, two tests) share nothing."""

from __future__ import annotations

from pathlib import Path

from game.sim.context import WorkerContext
from game.sim.runner import battle_seed, run_battle
from game.sim.worker import Chunk, run_chunk

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets/scenarios/keep.toml")


def test_two_contexts_share_no_scenario_power_or_trust_state() -> None:
    first, second = WorkerContext(sandboxed=True), WorkerContext()
    scenario = first.scenario_for(KEEP, ())
    first.powers_for((("powers.strike.damage", "2d6"),), scenario)
    assert len(first.scenarios) == 1 and len(first.powers) == 1
    assert second.scenarios == {} and second.powers == {}           # nothing leaked into the other
    assert first.trusted is True and second.trusted is None
    assert second.scenario_for(KEEP, ()) is not scenario             # each parses its own copy
    assert first.scenario_for(KEEP, ()) is scenario                  # and reuses it


def test_a_battle_fills_only_the_context_it_was_given() -> None:
    context, other = WorkerContext(), WorkerContext()
    row = run_battle(KEEP, (("creatures.archer_west.health", 11),), battle_seed(3, 0), max_rounds=3, context=context)
    assert row["error"] == ""
    assert len(context.scenarios) == 1 and other.scenarios == {}
    rows = run_chunk(Chunk(0, KEEP, (), ((0, battle_seed(3, 0)), (1, battle_seed(3, 1))), max_rounds=3), other)
    assert [r["battle"] for r in rows] == [0, 1] and len(other.scenarios) == 1
    assert len(context.scenarios) == 1
