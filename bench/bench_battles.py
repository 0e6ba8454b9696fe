"""Battles per second of the simulation runner: full rules, powers, scripts and AI, 4 against 4 on 16x16.

Printed in one run, first side by side, then absolute:

* the full rules in this process (``game.sim.runner.run_battle``, scripts in-process as in a pool
  worker) beside two floors measured in the same run: ``bench.floor`` (plain Python, attacks and
  damage only) and ``bench.floor_esper`` (the same, as esper processors), as ratios, then each in
  battles per CPU second; and where one battle's time goes (set-up, AI, rules) with cProfile's own
  time by module group and its top 15 functions;
* ``simulate`` of ``assets/scenarios/keep.toml`` on a warm pool of one worker (1,000 battles by
  default, start-up excluded): what users run, measured as they run it;
* the 2-worker speed-up: the same battles on a warm process pool of 2 against a pool of 1 (wall
  clock: the machine's load average is printed beside it, since other work on the cores skews it),
  beside what the machine's two cores give at that moment: two pools of one worker run at once, on
  seeds of their own, against one alone (the pool's ceiling: no scheduling, no shared chunks);
* memory: RSS through a long in-process run and the peak (``resource.getrusage`` maxrss) of this
  process and of the largest worker. The long run is 2,000 battles by default; ``--long`` makes it
  the 100,000 of the issue (about ten minutes of CPU).

Run: ``python -m bench.bench_battles [--battles N] [--long]`` (``make bench`` runs every benchmark).
"""

from __future__ import annotations

import concurrent.futures as cf
import cProfile
import io
import os
import pstats
import resource
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench import floor, floor_esper
from bench.args import command_line
from bench.roster import CREATURES
from game.ai import POLICIES
from game.content.powers import ASSETS
from game.sim.config import SimConfig
from game.sim.context import WorkerContext
from game.sim.engines import pool_executor
from game.sim.flags import whole
from game.sim.runner import battle_seed, run_battle
from game.sim.simulate import simulate

#: The shipped scenario of the issue's second target (what ``simulate`` users run).
KEEP = str(ASSETS / "scenarios" / "keep.toml")

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


def pool_rate(path: str, battles: int, workers: int, seed: int = 0) -> tuple[float, float, dict]:
    """Battles/s of ``simulate`` on a warm pool of ``workers`` processes (start-up excluded)."""
    executor = pool_executor(workers)
    try:
        warm = SimConfig(path, battles=workers * 4, seed=99, workers=workers, out_dir=None, chunk_size=2)
        simulate(warm, progress=False, executor=executor)
        config = SimConfig(path, battles=battles, seed=seed, workers=workers, out_dir=None)  # chunks as users get them
        result = simulate(config, progress=False, executor=executor)
    finally:
        executor.shutdown(wait=True)
    assert result.failed == 0, [f.error for f in result.failures[:3]]
    return result.rate, result.elapsed, result.summaries()[0]


def side_by_side(path: str, battles: int) -> tuple[float, float]:
    """Two pools of one worker at once, on seeds of their own: each one's battles/s. Their sum over one
    alone is what the machine's cores give right now, the ceiling of the 2-worker speed-up."""
    with cf.ThreadPoolExecutor(2) as both:  # the threads only wait: the battles run in the workers
        first, second = both.map(lambda seed: pool_rate(path, battles, 1, seed)[0], (0, 1))
    return first, second


GROUPS = (
    ("AI (game/ai/)", ("game/ai/",)),
    ("rules systems (systems/)", ("systems/",)),
    ("scripts (game/scripting/, starlark)", ("game/scripting/", "starlark", "FrozenModule", "{built-in method eval}",
                                             "{parse}")),
    ("battle facade (game/battle/)", ("game/battle/",)),
    ("set-up and content (game/content/)", ("game/content/",)),
    ("components/", ("components/",)),
    ("esper", ("esper/",)),
    ("numpy / tcod", ("numpy/", "tcod/", "{method 'reduce' of 'numpy", "{built-in method numpy",
                      "{built-in method tcod")),
    ("simulation runner (game/sim/)", ("game/sim/",)),
)


def _group(filename: str) -> str:
    for name, needles in GROUPS:
        if any(n in filename for n in needles):
            return name
    return "other (builtins, stdlib)"


def in_process(path: str, battles: int, context: WorkerContext, policy: str = "tactical"
               ) -> tuple[float, dict[str, float]]:
    """Battles per CPU second in this process, and the per-battle wall seconds of set-up, AI and rules
    (and the turns planned a battle)."""
    timings: dict[str, float] = {}
    for i in range(5):  # warm: the scenario, its caches and its script host
        run_battle(path, (), battle_seed(9, i), policy=policy, context=context)
    started = time.process_time()
    for i in range(battles):
        row = run_battle(path, (), battle_seed(1, i), policy=policy, timings=timings, context=context)
        assert not row["error"], row["error"]
    rate = battles / (time.process_time() - started)
    return rate, {k: v / battles for k, v in timings.items()}


def profile_split(path: str, battles: int, context: WorkerContext) -> tuple[dict[str, float], str]:
    """cProfile's own time by module group (shares), and its top 15 functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(battles):
        run_battle(path, (), battle_seed(2, i), context=context)
    profiler.disable()
    stats = pstats.Stats(profiler)
    groups: dict[str, float] = defaultdict(float)
    for (filename, _, function), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        groups[_group(f"{filename} {function}" if filename == "~" else filename)] += own
    total = sum(groups.values())
    shares = {k: v / total for k, v in sorted(groups.items(), key=lambda kv: -kv[1])}
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    root = str(Path(__file__).resolve().parent.parent) + "/"
    top = out.getvalue().replace(root, "").replace(sys.prefix + "/", "")
    return shares, top[top.index("   ncalls"):].rstrip() if "   ncalls" in top else top


def memory_run(path: str, battles: int, context: WorkerContext, policy: str = "tactical",
               progress: bool = False) -> tuple[float, float]:
    """RSS after 10 % of a long in-process run and at its end: flat when every battle is freed
    (with ``progress``, RSS at every tenth, for a run long enough to watch)."""
    mark = max(1, battles // 10)
    early = 0.0
    for i in range(battles):
        run_battle(path, (), battle_seed(3, i), policy=policy, context=context)
        if i + 1 == mark:
            early = rss_mib()
        if progress and (i + 1) % mark == 0:
            print(f"  {i + 1:>9,} battles: RSS {rss_mib():.1f} MiB", flush=True)
    return early, rss_mib()


def sandboxed_like_a_worker() -> WorkerContext:
    """Run scripts in-process, as a pool worker does (it is the sandbox), keeping Ctrl+C working."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return WorkerContext(sandboxed=True)


def main(argv: list[str] | None = None) -> int:
    parser = command_line("bench_battles", __doc__)
    parser.add_argument("--battles", type=whole(1, 1_000_000), default=300,
                        help="battles per measurement (default 300)")
    parser.add_argument("--profile-battles", type=whole(1, 1_000_000), default=60,
                        help="battles under cProfile (default 60)")
    parser.add_argument("--keep-battles", type=whole(1, 1_000_000), default=1000,
                        help="battles of the keep.toml simulate run on one worker (default 1000, as the issue)")
    parser.add_argument("--memory-only", action="store_true", help="only the memory run (with --long: the issue's)")
    parser.add_argument("--memory-policy", default="tactical", choices=POLICIES,
                        help="the computer player of the memory run (default tactical)")
    parser.add_argument("--long", action="store_true",
                        help="make the memory run 100,000 battles (default 2,000; about ten minutes of CPU)")
    args = parser.parse_args(argv)
    memory_battles = 100_000 if args.long else 2_000
    context = sandboxed_like_a_worker()
    if args.memory_only:
        return memory_only(memory_battles, context, args.memory_policy)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench_4v4.toml")
        Path(path).write_text(scenario_text(), encoding="utf-8")
        print(f"4 against 4 on 16x16, powers strike/shoot/fireball/chain-lightning (Starlark)/dazzle, tactical AI; "
              f"{args.battles} battles per figure, rates per CPU second of one process", flush=True)
        full, phases = in_process(path, args.battles, context)
        plain = floor.run(20_000)
        ecs = floor_esper.run(5_000)
        print(f"  full rules / plain floor: 1/{plain['rate'] / full:.0f}    full rules / esper floor: "
              f"1/{ecs['rate'] / full:.0f}    esper floor / plain floor: 1/{plain['rate'] / ecs['rate']:.1f}")
        print(f"  full rules : {full:8.1f} battles/s   (target >= 500, aim 1,000)")
        print(f"  esper floor: {ecs['rate']:8.0f} battles/s   (bench/floor_esper.py; first mover wins "
              f"{100 * ecs['first_mover']:.1f}%)")
        print(f"  plain floor: {plain['rate']:8.0f} battles/s   (bench/floor.py; first mover wins "
              f"{100 * plain['first_mover']:.1f}%)")
        per_battle = sum(phases.get(k, 0.0) for k in ("setup", "ai", "rules"))
        print(f"\nper battle (wall, {1000 * per_battle:.1f} ms):", "   ".join(
            f"{name} {1000 * phases.get(name, 0.0):.2f} ms ({100 * phases.get(name, 0.0) / per_battle:.0f}%)"
            for name in ("setup", "ai", "rules")))
        _, greedy = in_process(path, args.battles, context, policy="greedy")
        per_turn = {name: 1e6 * split["ai"] / max(split.get("turns", 0.0), 1e-9)
                    for name, split in (("tactical", phases), ("greedy", greedy))}
        ratio = per_turn["tactical"] / per_turn["greedy"]
        print(f"planning one creature's turn: tactical {per_turn['tactical']:.0f} us, greedy "
              f"{per_turn['greedy']:.0f} us on the same seeds (tactical / greedy {ratio:.1f}x; the aim is 25 us; "
              f"{phases.get('turns', 0.0):.1f} turns a battle)")
        shares, top = profile_split(path, args.profile_battles, context)
        print(f"cProfile own time by module group ({args.profile_battles} battles):")
        for name, share in shares.items():
            print(f"  {100 * share:5.1f}%  {name}")
        print("cProfile top 15 by own time:")
        print(top, flush=True)

        one, one_s, summary = pool_rate(path, args.battles, 1)
        two, two_s, _ = pool_rate(path, args.battles, 2)
        apart = side_by_side(path, args.battles)
        load = os.getloadavg()[0]
        print(f"\nprocess pool (wall clock, warm workers; load average {load:.1f} on {os.cpu_count()} cores):")
        print(f"  speed-up 2 workers / 1 worker: {two / one:.2f}x   (target >= 1.8 on 2 idle cores); the "
              f"machine's ceiling now: {sum(apart) / one:.2f}x (two 1-worker runs at once / one alone)")
        print(f"  1 worker : {one:7.1f} battles/s ({args.battles} in {one_s:.2f} s)")
        print(f"  2 workers: {two:7.1f} battles/s ({args.battles} in {two_s:.2f} s)")
        print(f"  two 1-worker runs at once: {apart[0]:.1f} + {apart[1]:.1f} battles/s; the pool of 2 reaches "
              f"{100 * two / sum(apart):.0f}% of them")
        fm = summary["first_mover"]
        print(f"  first mover wins {100 * fm['rate']:.1f}% [{100 * fm['low']:.1f}-{100 * fm['high']:.1f}] "
              f"of {summary['finished']} mirror battles (draws {100 * summary['draw_rate']:.1f}%, "
              f"mean {summary['mean_rounds']:.1f} rounds)", flush=True)

        keep, keep_s, keep_summary = pool_rate(KEEP, args.keep_battles, 1)
        print(f"\nwhat users run: simulate assets/scenarios/keep.toml on 1 worker (warm, start-up excluded), "
              f"tactical AI:\n  {keep:7.1f} battles/s ({args.keep_battles} in {keep_s:.1f} s, mean "
              f"{keep_summary['mean_rounds']:.1f} rounds)   (target >= 500)", flush=True)

        print_memory(path, memory_battles, context, args.memory_policy)
    return 0


def memory_only(battles: int, context: WorkerContext, policy: str) -> int:
    """The memory run alone, with its progress (``--memory-only``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench_4v4.toml")
        Path(path).write_text(scenario_text(), encoding="utf-8")
        print_memory(path, battles, context, policy, progress=True)
    return 0


def print_memory(path: str, battles: int, context: WorkerContext, policy: str, progress: bool = False) -> None:
    """RSS before, after a tenth and at the end of a long in-process run, and the peaks."""
    print(f"\nmemory over a long run of {battles:,} battles in one process, {policy} AI"
          f"{'' if battles >= 100_000 else ' (shorter than the issue: --long runs 100,000)'}:", flush=True)
    before = rss_mib()
    started = time.process_time()
    early, late = memory_run(path, battles, context, policy, progress)
    grown = late - early
    per = 1024 * grown / max(1, battles - battles // 10)
    print(f"  RSS {before:.0f} MiB before, {early:.0f} MiB after {battles // 10:,} battles, {late:.0f} MiB "
          f"at the end ({grown:+.1f} MiB, {per:.2f} KiB/battle; {time.process_time() - started:.0f} s of CPU)")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  peak RSS (getrusage maxrss): this process {own:.0f} MiB, largest pool worker {workers:.0f} MiB")


if __name__ == "__main__":
    sys.exit(main())
