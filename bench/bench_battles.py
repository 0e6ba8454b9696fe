"""Battles per second of the simulation runner: full rules, powers, scripts and AI, 4 against 4 on 16x16.

Printed in one run, side by side:

* battles/s on 1 worker and on 2 workers (warm spawn pools, the real ``game.sim.simulate.simulate`` path), and
  the speed-up as a ratio;
* where one battle's time goes: set-up (building the scenario), AI (planning), rules (``tick``),
  and scripts (the Starlark hook, inside ``tick``), measured with perf_counter, and cProfile's
  own time grouped by module (game/ai.py, systems/, game/hook.py + game/scripting, set-up, ...);
* the plain-Python floor (``bench.floor``: the same 4v4 with attacks and damage only) in
  battles/s, and the first mover's win rate of these mirror-image battles under both;
* memory: RSS after a warm-up and after a long in-process run (flat means esper worlds are freed),
  and peak RSS (resource.getrusage) of this process and of the largest worker.

Run: ``python -m bench.bench_battles [--battles N] [--memory-battles M]`` (``make bench`` runs all).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench import floor
from game.sim.config import SimConfig
from game.sim.context import WorkerContext
from game.sim.engines import pool_executor
from game.sim.runner import battle_seed, run_battle
from game.sim.simulate import simulate

#: Mirror-image sides (red on the west, blue on the east) so the first-mover figure is fair.
SCENARIO = """
name = "Bench: 4 against 4"
description = "Two mirrored parties of fighter, archer, mage (fireball, chain lightning: a script) and priest."
seed = 1

[map]
rows = [
  "................",
  "................",
  "......#..#......",
  "...#........#...",
  "................",
  ".......##.......",
  "..#..........#..",
  "................",
  "................",
  "..#..........#..",
  ".......##.......",
  "................",
  "...#........#...",
  "......#..#......",
  "................",
  "................",
]
[map.legend]
"." = { ground = 0 }
"#" = { wall = true }

[teams.red]
[teams.blue]
"""

CREATURES = (  # key, health, defense, attack bonus, initiative bonus, powers, y
    ("fighter", 16, 15, 5, 0, ["strike"], 6),
    ("archer", 10, 12, 4, 2, ["shoot"], 8),
    ("mage", 9, 11, 3, 1, ["fireball", "chain-lightning"], 9),
    ("priest", 12, 13, 3, 0, ["strike", "dazzle"], 7),
)


def scenario_text() -> str:
    """The bench scenario as TOML (workers load scenarios by path, so it is written to a file)."""
    parts = [SCENARIO]
    for team, x in (("red", 1), ("blue", 14)):
        for key, health, defense, attack, initiative, powers, y in CREATURES:
            parts.append(f"""
[[creatures]]
key = "{team}_{key}"
team = "{team}"
x = {x}
y = {y}
health = {health}
defense = {defense}
attack_bonus = {attack}
initiative_bonus = {initiative}
powers = {powers!r}
""".replace("'", '"'))
    return "".join(parts)


def rss_mib() -> float:
    """Current resident set size of this process, MiB (from /proc: getrusage only gives the peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pool_rate(path: str, battles: int, workers: int) -> tuple[float, float, dict]:
    """Battles/s of ``simulate`` on a warm pool of ``workers`` processes (start-up excluded)."""
    executor = pool_executor(workers)
    try:
        warm = SimConfig(path, battles=workers * 4, seed=99, workers=workers, out_dir=None, chunk_size=2)
        simulate(warm, progress=False, executor=executor)
        config = SimConfig(path, battles=battles, seed=0, workers=workers, out_dir=None, chunk_size=10)
        result = simulate(config, progress=False, executor=executor)
    finally:
        executor.shutdown(wait=True)
    assert result.failed == 0, [f.error for f in result.failures[:3]]
    return result.rate, result.elapsed, result.summaries()[0]


GROUPS = (
    ("AI (game/ai.py)", ("game/ai.py",)),
    ("rules systems (systems/)", ("systems/",)),
    ("scripts (game/hook.py, game/scripting/, starlark)", ("game/hook.py", "game/scripting/", "starlark")),
    ("powers (game/abilities.py, game/powers.py, game/dice.py)", ("game/abilities.py", "game/powers.py",
                                                                   "game/dice.py")),
    ("facade (game/battle.py)", ("game/battle.py",)),
    ("set-up (game/scenario.py)", ("game/scenario.py",)),
    ("components/", ("components/",)),
    ("esper", ("esper/",)),
    ("numpy / tcod", ("numpy/", "tcod/", "{method '", "{built-in method numpy", "{built-in method tcod")),
    ("simulation runner (game/sim_*.py)", ("game/sim_",)),
)


def _group(filename: str) -> str:
    for name, needles in GROUPS:
        if any(n in filename for n in needles):
            return name
    return "other (builtins, stdlib)"


def profile_split(path: str, battles: int
                  ) -> tuple[dict[str, float], dict[str, float], float, list[tuple[float, str]]]:
    """Per-battle seconds by phase (perf_counter), cProfile own-time by module group, and the
    project functions with the most cumulative time (where an optimisation would pay)."""
    # This process stands in for one pool worker, which is the scripts' sandbox there (see worker_init).
    context = WorkerContext(sandboxed=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    for i in range(battles):
        row = run_battle(path, (), battle_seed(1, i), timings=timings, context=context)
        assert not row["error"], row["error"]
    wall = time.perf_counter() - started
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(battles):
        run_battle(path, (), battle_seed(2, i), context=context)
    profiler.disable()
    stats = pstats.Stats(profiler)
    groups: dict[str, float] = defaultdict(float)
    script_cum = 0.0
    hot: list[tuple[float, str]] = []
    root = str(Path(__file__).resolve().parent.parent) + "/"
    for (filename, line, function), (_, _, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        groups[_group(f"{filename} {function}" if filename == "~" else filename)] += own
        if filename.startswith(root) and "/sim_" not in filename and function not in ("wrapper", "<genexpr>"):
            hot.append((cumulative / battles, f"{filename[len(root):]}:{line}({function})"))
        if filename.endswith("game/hook.py") and function == "run":
            script_cum += cumulative
    timings = {k: v / battles for k, v in timings.items()}
    timings["scripts (ScriptHook.run, inside rules; cProfile)"] = script_cum / battles
    total = sum(groups.values())
    shares = {k: v / total for k, v in sorted(groups.items(), key=lambda kv: -kv[1])}
    return timings, shares, wall / battles, sorted(hot, reverse=True)[:10]


def memory_run(path: str, battles: int) -> tuple[float, float]:
    """RSS after 10 % of a long in-process run and at its end: flat when every battle is freed."""
    mark = max(1, battles // 10)
    early = 0.0
    for i in range(battles):
        run_battle(path, (), battle_seed(3, i))
        if i + 1 == mark:
            early = rss_mib()
    return early, rss_mib()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_battles", description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=400, help="battles per pool measurement (default 400)")
    parser.add_argument("--profile-battles", type=int, default=60, help="battles for the cost split (default 60)")
    parser.add_argument("--memory-battles", type=int, default=1000, help="battles of the memory run (default 1000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench_4v4.toml")
        Path(path).write_text(scenario_text(), encoding="utf-8")

        print(f"4 against 4 on 16x16, powers strike/shoot/fireball/chain-lightning (Starlark)/dazzle, tactical AI; "
              f"{args.battles} battles per measurement", flush=True)
        one, one_s, summary = pool_rate(path, args.battles, 1)
        print(f"  1 worker : {one:7.1f} battles/s ({args.battles} in {one_s:.2f} s)", flush=True)
        two, two_s, _ = pool_rate(path, args.battles, 2)
        print(f"  2 workers: {two:7.1f} battles/s ({args.battles} in {two_s:.2f} s)", flush=True)
        print(f"  speed-up 2 workers / 1 worker: {two / one:.2f}x", flush=True)
        fm = summary["first_mover"]
        print(f"  full rules: first mover wins {100 * fm['rate']:.1f}% [{100 * fm['low']:.1f}-{100 * fm['high']:.1f}] "
              f"of {summary['finished']} mirror battles (draws {100 * summary['draw_rate']:.1f}%, "
              f"mean {summary['mean_rounds']:.1f} rounds)", flush=True)

        phases, groups, per_battle, hot = profile_split(path, args.profile_battles)
        print(f"\nper-battle cost, in process ({args.profile_battles} battles, {1000 * per_battle:.1f} ms each, "
              f"{1 / per_battle:.0f} battles/s on one core):")
        for name in ("setup", "ai", "rules"):
            seconds = phases.get(name, 0.0)
            print(f"  {name:<6}: {1000 * seconds:7.2f} ms  ({100 * seconds / per_battle:4.1f}%)")
        scripts = phases["scripts (ScriptHook.run, inside rules; cProfile)"]
        print(f"  of which scripts (ScriptHook.run, part of rules; measured under cProfile): {1000 * scripts:.2f} ms")
        print("  cProfile own time by module:")
        for name, share in groups.items():
            print(f"    {100 * share:5.1f}%  {name}")
        print("  (the AI's wall time includes the facade, systems and tcod calls it makes: cumulative, per battle)")
        for seconds, where in hot:
            print(f"    {1000 * seconds:7.2f} ms  {where}")

        result = floor.run(20000)
        print(f"\nfloor (bench/floor.py, plain Python, attacks and damage only): {result['rate']:.0f} battles/s "
              f"on 1 core; first mover wins {100 * result['first_mover']:.1f}% "
              f"[{100 * result['low']:.1f}-{100 * result['high']:.1f}]")
        print(f"  full rules per core / floor: 1/{result['rate'] / one:.0f}")

        before = rss_mib()
        early, late = memory_run(path, args.memory_battles)
        grown = late - early
        per = 1024 * grown / max(1, args.memory_battles - args.memory_battles // 10)
        print(f"\nmemory: RSS {before:.0f} MiB before, {early:.0f} MiB after {args.memory_battles // 10} battles, "
              f"{late:.0f} MiB after {args.memory_battles} battles in one process ({grown:+.1f} MiB, "
              f"{per:.0f} KiB/battle)")
        print("  (esper worlds are freed; what grows are the bounded caches of paths, cover and sight per map,\n"
              "   which fill in the first battles; game.sim.simulate also recycles pool workers every --recycle\n"
              "   battles, default 500)")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS (getrusage): this process {own:.0f} MiB, largest worker {workers:.0f} MiB")
    print(f"targets: >= 300 battles/s per core (measured {one:.0f}); "
          f"2-worker speed-up >= 1.8 (measured {two / one:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
