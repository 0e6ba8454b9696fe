"""The worst a round's scripts can cost under the default counted budgets.

A stranger's scenario attaches reaction scripts that each spin as long as their per-call budget
lets them, on every turn of every creature, and read the map as much as they may. Budgets are
counted (steps, with ctx calls weighted), so the battle stops them the same way on every machine;
this prints what that costs in time on this one: the slowest round, in-process and in the worker.

Run: ``python -m bench.bench_script_rounds [rounds]``
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.args import count
from components.events import ScriptFailed
from game import Battle

#: Past its per-call budget: a loop that only a counted budget stops.
SPINNER = """
def on_turn_start(ctx, event):
    total = 0
    for i in range(10000000):
        total += ctx.health(ctx.me) if i % 97 == 0 else 1
    return total
"""
#: Just under the per-call budget on every call, so only the round's and battle's budgets stop it.
CREEPER = """
def on_turn_start(ctx, event):
    total = 0
    for i in range(150000):
        total += 1
    return total
"""


def worst_round_ms(trusted: bool, rounds: int, folder: Path, script: str) -> tuple[float, float, int]:
    """(slowest round ms, mean round ms, ScriptFailed events) for 8 creatures each with ``script``."""
    with Battle(seed=1, width=16, height=16, trusted_scripts=trusted, script_dir=folder) as battle:
        ids = [battle.spawn(f"c{i}", i, i % 4, team="ab"[i % 2]) for i in range(8)]
        for entity in ids:
            battle.attach_reaction(script, entity)
        battle.start_combat()
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            battle.tick()
            times.append((time.perf_counter() - started) * 1000)
        failed = sum(isinstance(e, ScriptFailed) for e in battle.events)
    return max(times), sum(times) / len(times), failed


def main() -> None:
    rounds = count("bench_script_rounds", __doc__, "rounds", 6, "rounds played per case")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "spin.star").write_text(SPINNER)
        (folder / "creep.star").write_text(CREEPER)
        for script, what in (("spin.star", "past the call budget"), ("creep.star", "just under it")):
            for trusted in (True, False):
                worst, mean, failed = worst_round_ms(trusted, rounds, folder, script)
                where = "in-process" if trusted else "worker"
                print(f"{what:>20}, {where:>10}: slowest round {worst:7.1f} ms, mean {mean:7.1f} ms over "
                      f"{rounds} rounds, {failed} ScriptFailed")


if __name__ == "__main__":
    main()
