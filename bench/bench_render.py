"""Frame time of the renderer: a 64x64 map, 200 creatures, every overlay on, against a naive frame.

The naive frame draws what the cached renderer draws, but the way a first version would: every
square filled and darkened one by one, every token and text rendered from scratch each frame. The
ratio is what the caching (terrain layer per map version, token and text caches) buys.

Then the same map with animation: about 20 tokens walking 6-square paths and about 30 floating
numbers shown at every instant (``game.play.motion`` builds each frame's positions and marks from
its timeline, and that is timed with the drawing), the hover moving and the power chosen and dropped
on alternate frames as above (so the side panel is redrawn every frame); targets: median at most 4
ms, worst at most 16 ms.

Run: ``python -m bench.bench_render`` (headless: SDL's dummy driver).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from bench.args import command_line
from components import Fatigue, Health, Position
from game.battle.facade import Battle
from game.play.motion import FLOAT_S, STEP_S, Motion
from game.render import Renderer, UiState, theme

FRAMES = 300
SIZE = (1280, 800)


def build(seed: int = 1) -> Battle:
    """A 64x64 night map with walls, ledges, hay, four torches, fog, and 200 creatures in 4 teams."""
    rng = random.Random(seed)
    b = Battle(seed=seed, width=64, height=64)
    for _ in range(300):
        b.add_wall(rng.randrange(64), rng.randrange(64))
    for _ in range(400):
        x, y = rng.randrange(64), rng.randrange(64)
        if not b.terrain.walls[x, y]:
            b.set_ground(x, y, rng.choice([10, 20, 30]), soft=rng.random() < 0.2)
    b.set_ambient("terrible")
    for _ in range(4):
        b.add_light(rng.randrange(64), rng.randrange(64), 30)
    b.add_area(20, 40, 15, "no vision")
    b.add_area(45, 15, 20, "poor")
    free = [(x, y) for x in range(64) for y in range(64) if not b.terrain.walls[x, y]]
    rng.shuffle(free)
    for i in range(200):
        x, y = free.pop()
        e = b.spawn(f"Unit {i}", x, y, team=f"team{i % 4}", health=12)
        if i % 7 == 0:
            b.damage(e, rng.randint(1, 11))
        if i % 11 == 0:
            b.add_condition(e, "prone")
    b.start_combat()
    b.tick()
    return b


def naive_frame(surface: pygame.Surface, r: Renderer, ui: UiState, fonts: dict[str, pygame.font.Font]) -> None:
    """The same picture with no caches: squares, darkness, tokens and text drawn one by one."""
    b = r.battle
    tile = r.tile
    terrain, levels = b.terrain, b.state.levels
    surface.fill(theme.BACKGROUND)
    dark = pygame.Surface((tile, tile), pygame.SRCALPHA)
    for x in range(b.width):
        for y in range(b.height):
            rect = r.square_rect(x, y)
            if terrain.walls[x, y]:
                colour = theme.WALL
            elif terrain.soft[x, y]:
                colour = theme.SOFT
            else:
                colour = theme.GROUND_HIGH if terrain.ground[x, y] > 0 else theme.GROUND_LOW
            pygame.draw.rect(surface, colour, rect)
            pygame.draw.rect(surface, theme.GRID_LINE, rect, 1)
            if terrain.ground[x, y]:
                surface.blit(fonts["tiny"].render(f"{terrain.ground[x, y]:g}", True, theme.TEXT), rect.topleft)
            colour, alpha = theme.DARKNESS[int(levels[x, y])]
            dark.fill((*colour, alpha))
            surface.blit(dark, rect)
    reach = b.reachable(ui.selected) if ui.selected is not None else None
    if reach is not None:
        cell = pygame.Surface((tile, tile), pygame.SRCALPHA)
        cell.fill((*theme.REACH, theme.REACH_ALPHA))
        for x in range(b.width):
            for y in range(b.height):
                if reach[x, y]:
                    surface.blit(cell, r.square_rect(x, y))
    for e in b.creatures():
        pos, health, fatigue = b.get(e, Position), b.get(e, Health), b.get(e, Fatigue)
        conditions = b.conditions(e)
        rect = r.square_rect(pos.x, pos.y)
        pygame.draw.circle(surface, r.colour_of(b.team(e)), rect.center, tile * 0.36)
        surface.blit(fonts["small"].render(b.name(e)[-2:], True, theme.TEXT), rect.topleft)
        pygame.draw.rect(surface, theme.HEALTH_GOOD, (rect.x, rect.y, rect.w * health.current // health.maximum, 3))
        for i in range(fatigue.maximum):
            pygame.draw.circle(surface, theme.FATIGUE_ON if i < fatigue.level else theme.FATIGUE_OFF,
                               (rect.x + 3 + i * 4, rect.bottom - 3), 1)
        for i, c in enumerate(sorted(conditions)):
            surface.blit(fonts["tiny"].render(theme.badge(c)[0], True, theme.TEXT), (rect.right - 8, rect.y + i * 8))
    y = 10
    for line in r.log_lines[-30:]:
        surface.blit(fonts["small"].render(line, True, theme.TEXT), (r.map_rect.right + 10, y))
        y += 17


MOVING, FLOATING = 20, 30


def animated(b: Battle, ui: UiState, draw: Callable[[int], None], frames: int = FRAMES) -> list[float]:
    """Frame times of ``draw`` (the cached frame: hover and overlays as before) with ~``MOVING``
    tokens walking and ~``FLOATING`` marks floating at every instant (a finished walk or mark is
    replaced by a new one, as a long computer turn would)."""
    rng = random.Random(2)
    motion = Motion()
    movers = b.creatures()[:MOVING]
    texts = ["-7", "miss", "+4", "fall -3", "-12", "down"]

    def walk(e: int) -> None:
        x, y = b.get(e, Position).square
        dx, dy = rng.choice([(1, 0), (0, 1), (1, 1), (-1, 0)])
        squares = tuple((min(max(x + dx * i, 0), 63), min(max(y + dy * i, 0), 63)) for i in range(6, -1, -1))
        motion.add_track(e, squares, motion.clock, STEP_S)

    def mark() -> None:
        e = rng.choice(b.creatures())
        motion.add_floater(e, b.get(e, Position).square, rng.choice(texts), rng.choice(["hit", "miss", "heal"]),
                           motion.clock)

    for e in movers:
        walk(e)
    for _ in range(FLOATING):  # staggered, so they are at every point of their lives
        mark()
        motion.advance(FLOAT_S / FLOATING)
    shown: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    for i in range(frames):
        walking = {t.entity for t in motion.tracks}  # the timeline topped up (not part of a frame)
        for e in movers:
            if e not in walking:
                walk(e)
        for _ in range(FLOATING - len(motion.floaters)):
            mark()
        t0, c0 = time.perf_counter(), time.process_time()
        motion.advance(1 / 60)  # a frame: the clock, the instant's positions and marks, the drawing
        ui.motion = motion.frame()
        draw(i)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        shown.append(len(ui.motion.positions) + 1000 * len(ui.motion.marks))
    ui.motion = None
    moving = statistics.median(s % 1000 for s in shown)
    floating = statistics.median(s // 1000 for s in shown)
    print(f"animated frames: {moving:g} tokens moving, {floating:g} numbers floating (medians over the frames); "
          f"CPU time a frame (what other work on the machine does not stretch): median "
          f"{statistics.median(cpu):.2f} ms, worst {max(cpu):.2f} ms")
    return times


def measure(draw, frames: int = FRAMES) -> list[float]:
    times = []
    for i in range(frames):
        t0 = time.perf_counter()
        draw(i)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    command_line("bench_render", __doc__).parse_args()  # no options: --help says what it measures
    pygame.display.init()
    pygame.font.init()
    b = build()
    # tile 12: the whole 64x64 map is on screen, so all 200 tokens are drawn every frame (the worst case)
    r = Renderer(b, SIZE, tile=12)
    surface = pygame.Surface(SIZE)
    selected = b.creatures()[0]
    pos = b.get(selected, Position)
    hovers = [b.get(e, Position).square for e in b.creatures()[1:40]]
    ui = UiState(selected=selected, hover=hovers[0], title="bench")
    power = "fireball"  # a shipped power: its range and burst are the overlays drawn every other frame

    def cached(i: int) -> None:
        ui.hover = hovers[i % len(hovers)]
        ui.power = power if i % 2 else None  # alternate: reach overlay / power range + area
        r.draw(surface, ui)

    r.draw(surface, ui)  # first frame builds the caches; counted apart
    t0 = time.perf_counter()
    r2 = Renderer(b, SIZE, tile=12)
    r2.draw(surface, ui)
    first = (time.perf_counter() - t0) * 1000
    fast = measure(cached)
    fonts = {"tiny": pygame.font.Font(None, 14), "small": pygame.font.Font(None, 17)}
    slow = measure(lambda i: naive_frame(surface, r, ui, fonts))
    print(f"map 64x64, {len(b.creatures())} creatures, tile {r.tile}px, window {SIZE[0]}x{SIZE[1]}, "
          f"overlays: darkness, lights, fog, reach/power range+area, hover LOS/cover; selected at {pos.square}")
    print(f"first frame (builds caches): {first:.1f} ms; load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores (other work on the machine stretches every figure)")
    print(f"cached renderer: median {statistics.median(fast):.2f} ms, worst {max(fast):.2f} ms over {FRAMES} frames")
    print(f"naive per-square: median {statistics.median(slow):.2f} ms, worst {max(slow):.2f} ms over {FRAMES} frames")
    print(f"ratio (naive / cached, median): {statistics.median(slow) / statistics.median(fast):.1f}x")
    ok = statistics.median(fast) < 8 and max(fast) < 16
    print("target (median < 8 ms, no frame over 16 ms):", "MET" if ok else "NOT MET")
    moving = animated(b, ui, cached)
    ok = statistics.median(moving) <= 4 and max(moving) <= 16
    print(f"animated renderer: median {statistics.median(moving):.2f} ms (target <= 4), "
          f"worst {max(moving):.2f} ms (target <= 16) over {FRAMES} frames:", "MET" if ok else "NOT MET")
    pygame.quit()


if __name__ == "__main__":
    main()
