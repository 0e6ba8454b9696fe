"""``--battle-seconds`` bounds a battle on every engine. A pool worker is the sandbox, and its alarm ends
a battle wherever it is; a Dask worker runs battles in threads, where no alarm can be armed, so there
the flag was silently ignored (a run printed "battles played with: --battle-seconds 0.05" and played
every battle to its end). There a battle is now stopped after the first round that ends past it, and
reported as the pool reports one. No timing is asserted: a bound of 0 seconds is past after any round."""

from __future__ import annotations

from game.sim.context import WorkerContext
from game.sim.runner import run_battle
from game.sim.worker import Chunk, run_chunk

KEEP = "assets/scenarios/keep.toml"


def test_an_unsandboxed_worker_stops_a_battle_past_its_seconds_between_rounds() -> None:
    context = WorkerContext()  # a Dask worker's: not the sandbox, no alarm
    assert not context.sandboxed
    try:
        [row] = run_chunk(Chunk(variant=0, path=KEEP, overrides=(), battles=((0, 11),), battle_seconds=0.0), context)
    finally:
        context.close()
    assert row["error"].startswith("stopped after --battle-seconds 0: the battle was still running after round ")
    assert row["winner"] == "" and row["seed"] == 11


def test_without_a_bound_the_battle_plays_to_its_end() -> None:
    context = WorkerContext()
    try:
        row = run_battle(KEEP, (), 11, max_rounds=3, context=context)
    finally:
        context.close()
    assert row["error"] == "" and row["rounds"] >= 1
