"""What a scenario at each documented limit costs: seconds to build it and to play one round.

Every case is a scenario written as TOML and loaded through the one loader (``load_scenario_text``,
so the limits it checks are the ones a designer meets), built with ``Scenario.build``, and played
for one round with the computer player on every side (``game.sim.runner.play``, as a simulation
does: combat starts, then one ``tick`` in which each creature plans its own turn). The cases are
each documented maximum alone (the map's size, lights and areas of the largest radius, creatures)
and together, read from the limits themselves, so the table follows when a limit changes.

Each case runs in its own process with a wall-clock timeout, so one that does not finish is
reported as such and the probe itself always ends. The target is at most 5 s to build and 5 s for
the round on the 2-core machine this was built on; ``docs/limits.md`` holds the figures.

Run: ``python -m bench.bench_limits [--timeout S] [--only NAME ...] [--issue]``
(``--issue``: the sizes the issue reported, beyond today's limits, to show what they cost).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from dataclasses import asdict, dataclass

from bench.args import command_line
from components.terrain import MAX_AREAS, MAX_LIGHTS, MAX_LIT_SQUARES, MAX_RADIUS_FT, reach_squares
from game.content.scenario import load_scenario_text
from game.content.scenario_parse import MAX_CREATURES, MAX_MAP_SIDE, max_creatures
from game.sim.flags import seconds
from game.sim.runner import ai_rng, play

TARGET_S = 5.0


@dataclass(frozen=True)
class Case:
    """One scenario's size: the map, its lights and areas (count and radius), and creatures."""

    name: str
    width: int = 32
    height: int = 32
    lights: int = 0
    light_ft: float = 20.0
    areas: int = 0
    area_ft: float = 10.0
    creatures: int = 8


def largest_side(sources: int) -> int:
    """The side of the largest square map on which ``sources`` lights of the largest radius fit the budget."""
    side = MAX_MAP_SIDE
    while side > 1 and sources * reach_squares(side, side, MAX_RADIUS_FT, 5) > MAX_LIT_SQUARES:
        side -= 1
    return side


def crowd_side(creatures: int) -> int:
    """The side of a square map that holds ``creatures`` on even squares either side of the middle."""
    return min(MAX_MAP_SIDE, 2 * math.ceil(math.sqrt(creatures)) + 8)


def cases() -> list[Case]:
    """Each documented maximum alone, then together, from the limits as the loader checks them."""
    side = MAX_MAP_SIDE
    both = MAX_LIGHTS + MAX_AREAS
    lit, crowd = largest_side(MAX_LIGHTS), crowd_side(MAX_CREATURES)
    most = MAX_LIT_SQUARES // reach_squares(side, side, MAX_RADIUS_FT, 5)
    return [
        Case("map at its largest", side, side),
        Case("lights: most, largest radius", lit, lit, lights=MAX_LIGHTS, light_ft=MAX_RADIUS_FT),
        Case("areas: most, largest radius", lit, lit, areas=MAX_AREAS, area_ft=MAX_RADIUS_FT),
        Case("lights: most, torches on the largest map", side, side, lights=MAX_LIGHTS, light_ft=30.0,
             areas=MAX_AREAS, area_ft=30.0),
        Case("creatures: most", crowd, crowd, creatures=MAX_CREATURES),
        Case("all: largest map, most lights it takes, most creatures", side, side, lights=most - most // 2,
             light_ft=MAX_RADIUS_FT, areas=most // 2, area_ft=MAX_RADIUS_FT, creatures=max_creatures(side, side)),
        Case("all: most lights and areas, most creatures", largest_side(both), largest_side(both),
             lights=MAX_LIGHTS, light_ft=MAX_RADIUS_FT, areas=MAX_AREAS, area_ft=MAX_RADIUS_FT,
             creatures=max_creatures(largest_side(both), largest_side(both))),
    ]


def issue_cases() -> list[Case]:
    """The sizes the issue reported (some beyond today's limits), to show what they would cost."""
    return [
        Case("issue: 512x512, 512 lights of 10,000 ft", 512, 512, lights=512, light_ft=10_000.0),
        Case("issue: 1024x1024, 128 lights", 1024, 1024, lights=128, light_ft=10_000.0),
        Case("issue: 1,000 creatures", 128, 128, creatures=1000),
        Case("issue: 400 creatures", 96, 96, creatures=400),
        Case("issue: 5,000 creatures", 256, 256, creatures=5000),
    ]


# ------------------------------------------------------------------------------------ the scenario


def _wall(x: int, y: int) -> bool:
    """Pillars every 8 squares (odd coordinates only, so creatures on even squares never meet one)."""
    return x % 8 == 3 and y % 8 == 3


def _spread(count: int, width: int, height: int) -> list[tuple[int, int]]:
    """``count`` squares spread evenly over the map, in a fixed order."""
    if count <= 0:
        return []
    across = max(1, math.ceil(math.sqrt(count * width / height)))
    down = math.ceil(count / across)
    return [(min(width - 1, (i % across) * width // across + width // (2 * across)),
             min(height - 1, (i // across) * height // down + height // (2 * down))) for i in range(count)]


def _crowd(count: int, width: int, height: int) -> list[tuple[int, int, str]]:
    """Two teams face to face across the middle of the map, packed on even squares, west and east."""
    per_column = max(1, (height + 1) // 2)
    out: list[tuple[int, int, str]] = []
    for i in range(count):
        team, rank = ("red", i // 2) if i % 2 == 0 else ("blue", i // 2)
        column, row = divmod(rank, per_column)
        x = width // 2 - 2 - 2 * column if team == "red" else width // 2 + 2 + 2 * column
        x -= x % 2
        out.append((x, 2 * row, team))
    return out


def scenario_text(case: Case) -> str:
    """The TOML of a case: pillars, lights and areas spread over the map at night, two teams."""
    rows = ["".join("#" if _wall(x, y) else "." for x in range(case.width)) for y in range(case.height)]
    out = [f'name = "{case.name}"', "seed = 1", 'ambient = "terrible"', "[map]", "rows = ["]
    out += [f'  "{row}",' for row in rows]
    out += ["]", "[map.legend]", '"." = { ground = 0 }', '"#" = { wall = true }', "[teams.red]", "[teams.blue]"]
    for x, y in _spread(case.lights, case.width, case.height):
        out += ["[[lights]]", f"x = {x}", f"y = {y}", f"radius_ft = {case.light_ft}", 'level = "normal"']
    for x, y in _spread(case.areas, case.width, case.height):
        out += ["[[areas]]", f"x = {x}", f"y = {y}", f"radius_ft = {case.area_ft}", 'level = "poor"']
    for i, (x, y, team) in enumerate(_crowd(case.creatures, case.width, case.height)):
        out += ["[[creatures]]", f'key = "c{i}"', f'team = "{team}"', f"x = {x}", f"y = {y}", "health = 30"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------ one case


def measure(case: Case) -> dict[str, float]:
    """Seconds to load, build, and play one round with the computer player on every side.

    Past the creature limit (the issue's sizes) the loader refuses the file, so the creatures are
    spawned through the Python API after the build instead, counted in the build.
    """
    spawned = case.creatures > max_creatures(case.width, case.height)
    text = scenario_text(Case(**dict(asdict(case), creatures=0)) if spawned else case)
    started = time.perf_counter()
    scenario = load_scenario_text(text, case.name, trusted=True)
    loaded = time.perf_counter()
    battle = scenario.build()
    for i, (x, y, team) in enumerate(_crowd(case.creatures, case.width, case.height) if spawned else ()):
        battle.spawn(f"c{i}", x, y, team=team, health=30)
    built = time.perf_counter()
    try:
        play(battle, "tactical", ai_rng(1), 1)
        played = time.perf_counter()
    finally:
        battle.close()
    return {"load": loaded - started, "build": built - loaded, "round": played - built}


def run_case(case: Case, timeout: float) -> dict[str, float] | str:
    """``measure`` in a child process: its figures, or why there are none (a timeout, an error)."""
    try:
        done = subprocess.run([sys.executable, "-m", "bench.bench_limits", "--child", json.dumps(asdict(case))],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"not done in {timeout:g} s"
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return f"failed: {lines[-1] if lines else done.returncode}"
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _row(case: Case, result: dict[str, float] | str) -> str:
    size = f"{case.width}x{case.height}"
    sources = f"{case.lights} x {case.light_ft:g} ft / {case.areas} x {case.area_ft:g} ft"
    head = f"| {case.name} | {size} | {sources} | {case.creatures} |"
    if isinstance(result, str):
        return f"{head} {result} | | |"
    build = result["load"] + result["build"]
    verdict = "ok" if build <= TARGET_S and result["round"] <= TARGET_S else "OVER"
    return f"{head} {result['load']:.2f} + {result['build']:.2f} = {build:.2f} | {result['round']:.2f} | {verdict} |"


def main(argv: list[str] | None = None) -> int:
    parser = command_line("bench_limits", __doc__)
    parser.add_argument("--timeout", type=seconds(1, 3600), default=60.0,
                        help="seconds each case may take (default 60)")
    parser.add_argument("--only", nargs="*", default=None, help="cases whose name contains any of these words")
    parser.add_argument("--issue", action="store_true", help="also the sizes the issue reported")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(Case(**json.loads(args.child)))))
        return 0
    chosen = cases() + (issue_cases() if args.issue else [])
    if args.only:
        chosen = [c for c in chosen if any(word in c.name for word in args.only)]
    print(f"target: build (load + build) <= {TARGET_S:g} s and one round with the computer player <= {TARGET_S:g} s")
    print("| case | map | lights / areas | creatures | build s (load + build) | round s | |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    over = 0
    for case in chosen:
        result = run_case(case, args.timeout)
        over += isinstance(result, str) or result["load"] + result["build"] > TARGET_S or result["round"] > TARGET_S
        print(_row(case, result), flush=True)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

