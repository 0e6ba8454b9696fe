"""Ticks per second of the rules core on a big map, beside a naive per-creature baseline.

The map: 64x64 squares, 1,000 creatures in two teams, scattered walls, 20 lights and 10 fog areas
at night. Three figures, measured side by side in one run:

* ``full``: every tick recomputes everything from scratch (the level grid, every creature's
  Vision, every nearest enemy and every cover) - the worst case;
* ``busy``: 50 creatures really move each tick (commands through the facade), and the systems
  recompute only what moved - the normal case;
* ``naive``: the same recomputation as ``full`` written as plain per-creature Python loops over
  squares (a hand-written line walk for light, a loop over every creature for the nearest enemy,
  a loop over squares for cover), which is what the numpy/tcod systems replace.

Run: ``python -m bench.bench_core`` (``make bench`` runs every benchmark).
"""

from __future__ import annotations

import random
import sys
import time

import esper

from bench.args import command_line
from components import Position, Visibility
from game import Battle
from systems.state import Phase

SIZE, CREATURES, LIGHTS, AREAS = 64, 1000, 20, 10


def build(seed: int = 7, health: int = 10) -> tuple[Battle, list[int]]:
    """The benchmark battle: walls, lights and fog at night, two teams spread over the map."""
    rng = random.Random(seed)
    b = Battle(seed=seed, width=SIZE, height=SIZE)
    walls = set()
    while len(walls) < SIZE * SIZE // 10:
        walls.add((rng.randrange(SIZE), rng.randrange(SIZE)))
    for x, y in sorted(walls):
        b.add_wall(x, y)
    b.set_ambient(Visibility.TERRIBLE)
    for _ in range(LIGHTS):
        b.add_light(rng.randrange(SIZE), rng.randrange(SIZE), rng.choice([15, 20, 30]), Visibility.NORMAL)
    for _ in range(AREAS):
        b.add_area(rng.randrange(SIZE), rng.randrange(SIZE), rng.choice([10, 15]), Visibility.POOR)
    free = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in walls]
    rng.shuffle(free)
    ids = [b.spawn(f"c{i}", *free[i], team="red" if i % 2 else "blue", health=health) for i in range(CREATURES)]
    return b, ids


def invalidate_everything(b: Battle) -> None:
    """Make the next tick recompute every derived value, as if everything had changed."""
    b.make_current()
    b.state.terrain.touch()
    b.state.positions_version += 1
    b.state.cover_keys.clear()
    b.state.caches.clear()  # forget every answer kept per layout of walls: cover lines really recomputed
    b.state.dirty.update(b.creatures())


def ticks_per_second(b: Battle, ticks: int, before_tick=None) -> float:
    start = time.perf_counter()
    for _ in range(ticks):
        if before_tick:
            before_tick()
        b.tick()
        esper.process(Phase.REFRESH)  # cover is lazy between ticks; count it in every tick
    return ticks / (time.perf_counter() - start)


def naive_tick(b: Battle) -> list[tuple[int, int, bool]]:
    """Per-creature Python loops over squares: vision, nearest enemy and cover of every creature."""
    terrain, rules = b.state.terrain, b.state.rules
    walls = terrain.walls.tolist()
    creatures = [(e, b.get(e, Position).square, b.team(e)) for e in b.creatures()]

    def clear(a: tuple[int, int], c: tuple[int, int]) -> bool:
        (x0, y0), (x1, y1) = a, c
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        while (x0, y0) != (x1, y1):
            if (x0, y0) != a and walls[x0][y0]:
                return False
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy
        return True

    def dist(a: tuple[int, int], c: tuple[int, int]) -> int:
        return max(abs(a[0] - c[0]), abs(a[1] - c[1])) * rules.square_ft

    results: list[tuple[int, int, bool]] = []
    for entity, square, team in creatures:
        level = int(terrain.ambient)
        for light in terrain.lights.values():
            if dist(square, (light.x, light.y)) <= light.radius_ft and clear((light.x, light.y), square):
                level = max(level, int(light.level))
        for area in terrain.areas.values():
            if dist(square, (area.x, area.y)) <= area.radius_ft:
                level = min(level, int(area.level))
        best, best_d = None, 10**9
        for _other, other_square, other_team in creatures:
            if other_team != team:
                d = dist(square, other_square)
                if d < best_d:
                    best, best_d = other_square, d
        if best is None:
            continue
        px, py = best[0] + 0.5, best[1] + 0.5
        blocked = 0
        for cx, cy in ((square[0], square[1]), (square[0] + 1, square[1]), (square[0], square[1] + 1),
                       (square[0] + 1, square[1] + 1)):
            hit = False
            for sx in range(min(best[0], square[0]), max(best[0], square[0]) + 1):
                for sy in range(min(best[1], square[1]), max(best[1], square[1]) + 1):
                    if not walls[sx][sy] or (sx, sy) in (best, square):
                        continue
                    lo, hi = 0.0, 1.0
                    for p, q, d in ((px, sx, cx - px), (py, sy, cy - py)):
                        t1, t2 = (q - p) / d, (q + 1 - p) / d
                        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
                    if hi - lo > 1e-9:
                        hit = True
            blocked += hit
        results.append((entity, level, blocked >= 3))
    return results


def main(argv: list[str]) -> None:
    args = command_line("bench_core", __doc__)
    args.add_argument("--quick", action="store_true", help="5 ticks a measure instead of 30 (a smoke run)")
    quick = args.parse_args(argv).quick
    ticks = 5 if quick else 30
    b, ids = build()
    b.tick()
    esper.process(Phase.REFRESH)
    full = ticks_per_second(b, ticks, lambda: invalidate_everything(b))

    rng = random.Random(1)

    def some_moves() -> None:
        moved = 0
        for entity in rng.sample(ids, 200):
            x, y = b.get(entity, Position).square
            try:
                nx = min(SIZE - 1, max(0, x + rng.choice((-1, 1))))
                ny = min(SIZE - 1, max(0, y + rng.choice((-1, 1))))
                b.move(entity, nx, ny)
                moved += 1
            except ValueError:
                pass
            if moved == 50:
                break

    busy = ticks_per_second(b, ticks, some_moves)
    naive_ticks = 1 if quick else 3
    start = time.perf_counter()
    for _ in range(naive_ticks):
        naive_tick(b)
    naive = naive_ticks / (time.perf_counter() - start)
    print(f"rules core, {SIZE}x{SIZE} map, {CREATURES} creatures, {LIGHTS} lights, {AREAS} fog areas, one core")
    print(f"  full recompute every tick : {full:8.1f} ticks/s  ({1000 / full:6.2f} ms/tick)")
    print(f"  50 real moves per tick    : {busy:8.1f} ticks/s  ({1000 / busy:6.2f} ms/tick)")
    print(f"  naive per-creature loops  : {naive:8.2f} ticks/s  ({1000 / naive:6.1f} ms/tick)")
    print(f"  ratio full / naive        : {full / naive:8.1f}x   (target 10x or better)")
    print(f"  target 50 ticks/s (aim 100): full {'met' if full >= 50 else 'NOT met'}, "
          f"busy {'met' if busy >= 50 else 'NOT met'}")
    b.close()


if __name__ == "__main__":
    main(sys.argv[1:])
