"""Light and darkness on the terrain layer: night, fog and smoke, and the glow of lights.

The squares' visibility levels come from the battle (``battle.state.levels``); this module only
paints them, so what looks dark is exactly what the rules call dark.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pygame

from components import Rules, Terrain
from game.render import theme
from systems.geometry import within_radius
from systems.visibility import level_grid, lit_mask

#: A light or an area on the map, as ``("light" | "area", its map id)``.
Source = tuple[str, int]


def without(terrain: Terrain, unseen: frozenset[Source]) -> Terrain:
    """The map as a team that did not see the ``unseen`` lights and areas made knows it: the same
    ground, walls and blockers (shared, and never written here), without those. What the window
    paints on the squares the team does not see: a light an enemy out of sight made around itself
    drew its torch and glow on that enemy's square."""
    known = Terrain(terrain.width, terrain.height, ambient=terrain.ambient,
                    lights={i: light for i, light in terrain.lights.items() if ("light", i) not in unseen},
                    areas={i: area for i, area in terrain.areas.items() if ("area", i) not in unseen})
    known.ground, known.walls = terrain.ground, terrain.walls
    known.blockers, known.soft = terrain.blockers, terrain.soft
    return known


def levels_of(battle: Any, terrain: Terrain) -> Any:
    """The level grid of ``terrain``: the battle's own when it is the battle's map, else worked out by
    the rules' function (``systems.visibility.level_grid``) for the map as a team knows it."""
    return battle.state.levels if terrain is battle.terrain else level_grid(terrain, battle.rules)


def darken(world: pygame.Surface, terrain: Terrain, levels: Any, rules: Rules, tile: int) -> None:
    """Darken each square by its visibility level (fog and smoke grey, night blue-black), then let
    lights glow warm where they reach, walls casting their shadows."""
    if levels is None:
        return
    w, h = terrain.width, terrain.height
    fogged = np.zeros((w, h), dtype=bool)
    for area in terrain.areas.values():
        mask = within_radius((w, h), (area.x, area.y), area.radius_ft, rules)
        fogged |= mask & (levels <= int(area.level))
    rgba = np.zeros((w, h, 4), dtype=np.uint8)
    for level in range(4):
        for table, where in ((theme.DARKNESS, (levels == level) & ~fogged), (theme.FOG, (levels == level) & fogged)):
            colour, alpha = table[level]
            rgba[where, :3] = colour
            rgba[where, 3] = alpha
    small = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.surfarray.pixels3d(small)[:] = rgba[..., :3]
    pygame.surfarray.pixels_alpha(small)[:] = rgba[..., 3]
    del rgba
    big = pygame.transform.scale(small, world.get_size())
    world.blit(big, (0, 0))
    glow_lights(world, terrain, rules, tile)


def glow_lights(world: pygame.Surface, terrain: Terrain, rules: Rules, tile: int) -> None:
    """Additive warm glow around each light, only on squares it actually lights, and a torch icon."""
    for light in terrain.lights.values():
        mask = lit_mask(terrain, light.x, light.y, light.radius_ft, rules)
        radius_px = (light.radius_ft / rules.square_ft + 0.5) * tile
        cx, cy = (light.x + 0.5) * tile, (light.y + 0.5) * tile
        xs = (np.arange(terrain.width * tile) + 0.5 - cx)[:, None]
        ys = (np.arange(terrain.height * tile) + 0.5 - cy)[None, :]
        x0, x1 = max(0, int(cx - radius_px)), min(terrain.width * tile, int(cx + radius_px) + 1)
        y0, y1 = max(0, int(cy - radius_px)), min(terrain.height * tile, int(cy + radius_px) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        dist = np.hypot(xs[x0:x1], ys[:, y0:y1])
        strength = np.clip(1 - dist / max(radius_px, 1), 0, 1) ** 1.4 * (0.55 if int(light.level) >= 3 else 0.3)
        lit = np.repeat(np.repeat(mask, tile, axis=0), tile, axis=1)[x0:x1, y0:y1] & \
            ~np.repeat(np.repeat(terrain.walls, tile, axis=0), tile, axis=1)[x0:x1, y0:y1]
        strength = strength * lit
        glow = np.zeros((x1 - x0, y1 - y0, 3), dtype=np.uint8)
        for channel, value in enumerate(theme.LIGHT_GLOW):
            glow[..., channel] = (strength * value).astype(np.uint8)
        world.blit(pygame.surfarray.make_surface(glow), (x0, y0), special_flags=pygame.BLEND_ADD)
        torch(world, (cx, cy), tile)


def torch(world: pygame.Surface, centre: tuple[float, float], tile: int) -> None:
    """A torch icon: a stick and a two-tone flame."""
    cx, cy = int(centre[0]), int(centre[1])
    s = max(3, tile // 6)
    pygame.draw.line(world, (110, 70, 30), (cx, cy + s), (cx, cy + 3 * s), max(2, s // 2))
    pygame.draw.polygon(world, (255, 140, 30), [(cx - s, cy + s), (cx + s, cy + s), (cx, cy - 2 * s)])
    pygame.draw.polygon(world, (255, 230, 120), [(cx - s // 2, cy + s), (cx + s // 2, cy + s), (cx, cy - s // 2)])
