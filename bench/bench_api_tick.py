"""Ticks per second of a big battle driven through the public API only.

The map: 64x64 squares, 1,000 creatures in two teams, walls on a tenth of the squares, 20 lights
and 10 fog areas at night (``bench.bench_core.build``). Every tick a caller issues 20 hits
(``Battle.damage``) and 50 one-square moves (``Battle.move``, refusals skipped and not counted),
then calls ``Battle.tick()``: each creature's turn settles before the next one's, as in play.
Rates are per CPU second of this process (``time.process_time``), so a busy machine does not skew them.

Printed in one run, side by side: the busy tick (hits and moves), an idle tick (no command: what
the turn loop itself costs) and their ratio; then the absolute figures against the target
(>= 100 ticks/s), and cProfile's top 15 functions of the busy tick by own time.

Run: ``python -m bench.bench_api_tick [--ticks N] [--no-profile]`` (``make bench`` runs every benchmark).
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.args import command_line
from bench.bench_core import SIZE, build
from game import Battle, IllegalCommand
from game.sim.flags import whole

HITS, MOVES, TARGET = 20, 50, 100.0
STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def commands(b: Battle, ids: list[int], rng: random.Random) -> Callable[[], None]:
    """What a caller issues before each tick: 20 hits of 1 and 50 one-square moves that succeed."""

    def issue() -> None:
        for entity in rng.sample(ids, HITS):
            b.damage(entity, 1)
        moved = 0
        for entity in rng.sample(ids, 4 * MOVES):
            x, y = b.square_of(entity)
            dx, dy = rng.choice(STEPS)
            nx, ny = x + dx, y + dy
            if not (0 <= nx < SIZE and 0 <= ny < SIZE):
                continue
            try:
                b.move(entity, nx, ny)
            except IllegalCommand:
                continue
            moved += 1
            if moved == MOVES:
                break

    return issue


def rate(b: Battle, ticks: int, before: Callable[[], None] | None) -> float:
    """Ticks per CPU second of this process, the caller's commands included (CPU time, not the wall
    clock, so that other work on a shared machine does not count against the battle)."""
    started = time.process_time()
    for _ in range(ticks):
        if before is not None:
            before()
        b.tick()
    return ticks / (time.process_time() - started)


def profile(b: Battle, ticks: int, before: Callable[[], None], top: int = 15) -> str:
    """cProfile's top functions of the busy tick, by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    rate(b, ticks, before)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    text = out.getvalue().replace(str(Path(__file__).resolve().parent.parent) + "/", "").replace(sys.prefix + "/", "")
    return text[text.index("   ncalls"):].rstrip() if "   ncalls" in text else text


def main(argv: list[str] | None = None) -> int:
    parser = command_line("bench_api_tick", __doc__)
    parser.add_argument("--ticks", type=whole(1, 100_000), default=60, help="ticks per measurement (default 60)")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile top 15")
    args = parser.parse_args(argv)
    b, ids = build(health=10_000)  # hits of 1 for the whole run must kill nobody
    rng = random.Random(1)
    issue = commands(b, ids, rng)
    b.tick()
    rate(b, 3, issue)  # warm the caches of paths and cover
    idle = rate(b, args.ticks, None)
    busy = rate(b, args.ticks, issue)
    print(f"public API, {SIZE}x{SIZE} map, 1000 creatures, 20 lights, 10 fog areas; per tick {HITS} hits and "
          f"{MOVES} one-square moves, then tick(); {args.ticks} ticks per figure, one core")
    print(f"  busy / idle tick cost: {idle / busy:.2f}x")
    print(f"  busy tick: {busy:8.1f} ticks/s ({1000 / busy:6.2f} ms/tick)   target >= {TARGET:.0f}: "
          f"{'met' if busy >= TARGET else 'NOT met'}")
    print(f"  idle tick: {idle:8.1f} ticks/s ({1000 / idle:6.2f} ms/tick)")
    if not args.no_profile:
        print("\ncProfile, busy tick, top 15 by own time:")
        print(profile(b, max(5, args.ticks // 3), issue))
    b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
