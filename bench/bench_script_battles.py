"""Whole battles whose powers are scripts against the same battles with the powers as data.

The 4-against-4 of :mod:`bench.bench_battles`, but the scenario is a stranger's folder (its own
``power_files`` and ``scripts/``) in two variants that differ in one thing: in the *data* variant
Blade, Bow and Bolt deal their damage from the power's table (``damage = "1d8+2"``); in the
*scripted* variant the table has no damage and an ``on_hit`` script does
``ctx.damage(target, ctx.roll("1d8+2"))``. A script's ``ctx.roll`` draws from the battle's
generator just as the data roll does, so both variants play the same battles roll for roll: the
ratio is the scripts' cost, nothing else.

The computer player is ``random`` on purpose: a forecast does not run a script (it would need
trials), so a player that weighs forecasts would see the scripted powers as harmless and play
another battle; ``random`` plays both variants alike, and being cheap it leaves the rules the
largest part of a battle, which is the hardest case for the ratio.

Two engines, one per way a stranger's script can run:

* **in-process**: a simulation pool worker, which is itself the scripts' sandbox (address-space
  limit, watchdog), runs them in its own interpreter (``WorkerContext(sandboxed=True)``);
* **script worker**: anywhere else (the Python API, the window, a Dask worker, whose threads
  cannot arm a watchdog) a stranger's scripts run in a separate script-host process, one pipe
  round trip per call (``WorkerContext(sandboxed=False)``). A Dask worker starts that host as
  ``python -m game.scripting.child_main`` over a socket pair: the same protocol and cost per call.

The issue's target: the scripted variant runs at least half as fast as the data one on every
engine. Printed first as ratios (same run, interleaved), then battles per second.

Run: ``python -m bench.bench_script_battles [--battles N]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from bench.args import command_line
from bench.bench_battles import SCENARIO
from game.sim.context import WorkerContext
from game.sim.flags import whole
from game.sim.runner import battle_seed, run_battle

#: (id, range in ft, attack bonus, damage): what each damaging power does, in data or by script.
DAMAGING = (("blade", 5, 2, "1d8+2"), ("bow", 60, 1, "1d6+1"), ("bolt", 60, 2, "2d6"))

GLARE = """
[glare]
name = "Glare"
description = "Dazzled for 2 rounds unless it saves."
action = "action"
range_ft = 30
save = { dc = 13 }
conditions = ["dazzled"]
duration = 2
"""

CREATURES = (  # key, health, defense, attack bonus, initiative bonus, powers, y
    ("fighter", 16, 15, 3, 0, ["blade"], 6),
    ("archer", 10, 12, 3, 2, ["bow"], 8),
    ("mage", 9, 11, 2, 1, ["bolt", "glare"], 9),
    ("priest", 12, 13, 2, 0, ["blade", "glare"], 7),
)


def powers_toml(scripted: bool) -> str:
    """The folder's power file: damage in the table, or left to a script of the same name."""
    parts = [GLARE]
    for key, range_ft, bonus, dice in DAMAGING:
        effect = f'script = "{key}.star"' if scripted else f'damage = "{dice}"'
        parts.append(f'\n[{key}]\nname = "{key.title()}"\ndescription = "Deals {dice}."\naction = "action"\n'
                     f'range_ft = {range_ft}\ntargets = "enemy"\nattack = {{ bonus = {bonus} }}\n{effect}\n')
    return "".join(parts)


def write_folder(root: Path, scripted: bool) -> str:
    """A self-contained scenario folder (scenario, powers, scripts); returns the scenario's path."""
    folder = root / ("scripted" if scripted else "data")
    (folder / "scripts").mkdir(parents=True)
    (folder / "powers.toml").write_text(powers_toml(scripted), encoding="utf-8")
    for key, _, _, dice in DAMAGING:
        (folder / "scripts" / f"{key}.star").write_text(
            f'def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll("{dice}"))\n', encoding="utf-8")
    parts = [SCENARIO.replace('seed = 1', 'seed = 1\npower_files = ["powers.toml"]')]
    for team, x in (("red", 1), ("blue", 14)):
        for key, health, defense, attack, initiative, powers, y in CREATURES:
            listed = ", ".join(f'"{p}"' for p in powers)
            parts.append(f'\n[[creatures]]\nkey = "{team}_{key}"\nteam = "{team}"\nx = {x}\ny = {y}\n'
                         f'health = {health}\ndefense = {defense}\nattack_bonus = {attack}\n'
                         f'initiative_bonus = {initiative}\npowers = [{listed}]\n')
    path = folder / "battle.toml"
    path.write_text("".join(parts), encoding="utf-8")
    return str(path)


def rate(path: str, battles: int, context: WorkerContext, seed: int) -> tuple[float, list[tuple[str, int]]]:
    """Battles per second (wall: a script worker's time is another process's CPU) and each battle's result."""
    results = []
    started = time.perf_counter()
    for i in range(battles):
        row = run_battle(path, (), battle_seed(seed, i), policy="random", context=context)
        assert not row["error"], row["error"]
        results.append((row["winner"], row["rounds"]))
    return battles / (time.perf_counter() - started), results


def main(argv: list[str] | None = None) -> int:
    parser = command_line("bench_script_battles", __doc__)
    parser.add_argument("--battles", type=whole(1, 100_000), default=200, help="battles per measurement (default 200)")
    parser.add_argument("--repeats", type=whole(1, 20), default=3, help="interleaved repeats, best kept (default 3)")
    args = parser.parse_args(argv)
    engines = (("in-process (pool worker)", True), ("script worker (API, window, Dask)", False))
    best: dict[tuple[str, bool], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {scripted: write_folder(Path(tmp), scripted) for scripted in (False, True)}
        for name, sandboxed in engines:
            context = WorkerContext(sandboxed=sandboxed)
            for scripted in (False, True):  # warm: parse, script host start, caches
                rate(paths[scripted], 3, context, seed=9)
            for _ in range(args.repeats):  # interleaved, so a burst of load hits both variants
                outcomes = {}
                for scripted in (False, True):
                    value, outcomes[scripted] = rate(paths[scripted], args.battles, context, seed=1)
                    best[name, scripted] = max(best.get((name, scripted), 0.0), value)
                same = sum(a == b for a, b in zip(outcomes[False], outcomes[True], strict=True))
            print(f"{name}: scripted / data = {best[name, True] / best[name, False]:.2f}   (target >= 0.5); "
                  f"same winner and rounds in {same} of {args.battles} battles", flush=True)
    print(f"\nbattles per second (wall, best of {args.repeats}, {args.battles} battles, random AI):")
    for name, _ in engines:
        print(f"  {name:34s} data {best[name, False]:7.1f}   scripted {best[name, True]:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
