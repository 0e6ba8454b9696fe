"""The ground layer: the map drawn once per map version, with its light and darkness on top.

A 64x64 map is thousands of squares; drawing them every frame would cost the whole frame budget.
:class:`TerrainLayer` keeps one world-sized surface and rebuilds it only when the battle's terrain
version or its grid of visibility levels changes (or the tile size does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pygame

from components.terrain import Blocks
from game.render import theme
from game.render.lighting import Source, darken, levels_of, without

#: Renders a string: (text, font name, colour) -> surface (the renderer's text cache).
TextFn = Callable[[str, str, theme.Colour], pygame.Surface]
#: Neighbouring ground this many feet apart or more is a cliff.
CLIFF_FT = 10


class TerrainLayer:
    """Owns the cached terrain surfaces of one renderer: the map as it is, and as the person's team
    knows it (without the lights and areas it did not see made), each rebuilt when it changed."""

    def __init__(self) -> None:
        self._worlds: dict[bool, tuple[tuple[Any, ...], pygame.Surface]] = {}

    @staticmethod
    def key(battle: Any, tile: int, unseen: frozenset[Source] = frozenset()) -> tuple[Any, ...]:
        """What a terrain surface is drawn from: a surface of another key is out of date (a layer
        cut from it, such as the fog's map as the team knows it, keys on this too). The battle goes by
        its name: a gone one's ``id()`` is reused, and its versions start at 0."""
        return battle.world_name, battle.terrain.version, battle.state.levels_version, id(battle.state.levels), \
            tile, unseen

    def surface(self, battle: Any, tile: int, text: TextFn, unseen: frozenset[Source] = frozenset()
                ) -> pygame.Surface:
        """The map with walls, soft squares, heights, darkness, lights and fog, rebuilt when it changed;
        with ``unseen``, without those lights and areas (see :func:`game.render.lighting.without`)."""
        key = self.key(battle, tile, unseen)
        cached = self._worlds.get(bool(unseen))
        if cached is None or cached[0] != key:
            cached = self._worlds[bool(unseen)] = (key, build_terrain(battle, tile, text, unseen))
        return cached[1]


def build_terrain(battle: Any, tile: int, text: TextFn, unseen: frozenset[Source] = frozenset()) -> pygame.Surface:
    """The static map layer: elevation-shaded ground, cliffs, soft ground and pits, walls, heights, then
    darkness per visibility level, fog and smoke areas, and the warm glow of lights (``unseen``: the
    lights and areas left out, as a team that did not see them made knows the map).

    Terrain is drawn as what it is to the rules: the battle keeps whether a square is soft (a fall
    onto it rolls half the dice), not what a scenario's legend called it, so hay, water and mud look
    alike (guessing water from a height below 0 drew a scenario's water at ground 0 as hay)."""
    terrain = battle.terrain
    ground, walls, soft = terrain.ground, terrain.walls, terrain.soft
    world = pygame.Surface((terrain.width * tile, terrain.height * tile))
    _ground(world, ground, walls, soft)
    _grid(world, terrain.width, terrain.height, tile)
    _soft(world, soft & ~walls, tile)
    _pits(world, (ground < 0) & ~soft & ~walls, tile)
    _cliffs(world, ground, tile)
    _walls(world, walls, tile)
    _barriers(world, terrain, tile)
    if tile >= 20:
        _heights(world, ground, walls, tile, text)
    known = without(terrain, unseen) if unseen else terrain
    darken(world, known, levels_of(battle, known), battle.rules, tile)
    return world


def _ground(world: pygame.Surface, ground: np.ndarray, walls: np.ndarray, soft: np.ndarray) -> None:
    """Colour by height, between the lowest and highest ground of the map, in a slight checker (so
    squares read as squares even without grid lines); soft ground and walls in their own colours."""
    w, h = ground.shape
    lo, hi = float(ground.min()), float(ground.max())
    t = (ground - lo) / (hi - lo) if hi > lo else np.zeros_like(ground)
    low, high = np.array(theme.GROUND_LOW, float), np.array(theme.GROUND_HIGH, float)
    colours = (low[None, None, :] * (1 - t[..., None]) + high[None, None, :] * t[..., None])
    checker = ((np.add.outer(np.arange(w), np.arange(h)) % 2) * 6)[..., None]
    colours = np.clip(colours + checker, 0, 255).astype(np.uint8)
    colours[soft] = theme.SOFT
    colours[walls] = theme.WALL
    small = pygame.surfarray.make_surface(colours)
    pygame.transform.scale(small, world.get_size(), world)


def _grid(world: pygame.Surface, w: int, h: int, tile: int) -> None:
    grid = pygame.Surface(world.get_size(), pygame.SRCALPHA)
    for x in range(w + 1):
        pygame.draw.line(grid, (*theme.GRID_LINE, theme.GRID_ALPHA), (x * tile, 0), (x * tile, h * tile))
    for y in range(h + 1):
        pygame.draw.line(grid, (*theme.GRID_LINE, theme.GRID_ALPHA), (0, y * tile), (w * tile, y * tile))
    world.blit(grid, (0, 0))


def _soft(world: pygame.Surface, soft: np.ndarray, tile: int) -> None:
    """Rows of small dots on soft ground, every other row shifted: a cushion, neither straw nor waves
    (what it is called is the scenario's, not the battle's: see :func:`build_terrain`)."""
    radius = max(1, tile // 16)
    for x, y in zip(*np.nonzero(soft)):
        for row in (1, 2, 3):
            shift = tile // 8 if row == 2 else 0
            for column in (1, 2, 3):
                centre = (x * tile + column * tile // 4 + shift - tile // 16, y * tile + row * tile // 4)
                pygame.draw.circle(world, theme.SOFT_DOT, centre, radius)


def _pits(world: pygame.Surface, pits: np.ndarray, tile: int) -> None:
    """Dark diagonal hatching on hard ground below the zero level (a pit, a trench): a fall lands
    there at full dice, unlike soft ground, so it must not look like it or like plain ground."""
    for x, y in zip(*np.nonzero(pits)):
        r = pygame.Rect(x * tile, y * tile, tile, tile)
        for i in range(1, 4):
            off = i * tile // 4
            pygame.draw.line(world, theme.PIT_HATCH, (r.x + off, r.bottom - 2), (r.right - 2, r.y + off), 1)
            pygame.draw.line(world, theme.PIT_HATCH, (r.x + 2, r.y + off), (r.x + off, r.y + 2), 1)


def _cliffs(world: pygame.Surface, ground: np.ndarray, tile: int) -> None:
    """A dark edge where neighbouring ground differs by ``CLIFF_FT`` or more, shadow on the low side."""
    for axis in (0, 1):
        a = ground[:-1, :] if axis == 0 else ground[:, :-1]
        b = ground[1:, :] if axis == 0 else ground[:, 1:]
        for x, y in zip(*np.nonzero(np.abs(a - b) >= CLIFF_FT)):
            high_first = a[x, y] > b[x, y]
            if axis == 0:
                px = (x + 1) * tile
                pygame.draw.line(world, theme.CLIFF, (px, y * tile), (px, (y + 1) * tile), max(2, tile // 12))
                shade = pygame.Rect(px if high_first else px - tile // 4, y * tile, tile // 4, tile)
            else:
                py = (y + 1) * tile
                pygame.draw.line(world, theme.CLIFF, (x * tile, py), ((x + 1) * tile, py), max(2, tile // 12))
                shade = pygame.Rect(x * tile, py if high_first else py - tile // 4, tile, tile // 4)
            overlay = pygame.Surface(shade.size, pygame.SRCALPHA)
            overlay.fill((0, 0, 0, 60))
            world.blit(overlay, shade)


def _walls(world: pygame.Surface, walls: np.ndarray, tile: int) -> None:
    """Each wall a raised block, its centre left plain so it reads as the wall colour."""
    for x, y in zip(*np.nonzero(walls)):
        r = pygame.Rect(x * tile, y * tile, tile, tile)
        pygame.draw.line(world, theme.WALL_TOP, r.topleft, (r.right - 1, r.top), 2)
        pygame.draw.line(world, theme.WALL_TOP, r.topleft, (r.left, r.bottom - 1), 2)
        pygame.draw.line(world, theme.WALL_SHADOW, (r.left, r.bottom - 1), (r.right - 1, r.bottom - 1), 2)
        pygame.draw.line(world, theme.WALL_SHADOW, (r.right - 1, r.top), (r.right - 1, r.bottom - 1), 2)
        if tile >= 20:
            q = tile // 4
            pygame.draw.line(world, theme.WALL_SHADOW, (r.x + 3, r.y + q), (r.right - 4, r.y + q), 1)
            pygame.draw.line(world, theme.WALL_SHADOW, (r.x + 3, r.bottom - q), (r.right - 4, r.bottom - q), 1)


def _barriers(world: pygame.Surface, terrain: Any, tile: int) -> None:
    """Terrain that stops some things but not all, drawn as what it lets through: one that stops
    movement but not sight (an arrow slit) as wall with an open slot across the wall line; one that
    stops walkers only (a battlement) as a low crenellated wall; any other such square framed in the
    wall colour. Plain ground there read as open field, an opening in the wall."""
    walls, blockers = terrain.walls, terrain.blockers
    barriers = blockers != 0
    solid = walls | barriers  # (what a slit's wall line is made of: worked out once for every slit)
    for x, y in zip(*np.nonzero(barriers & ~walls)):
        flags, r = Blocks(int(blockers[x, y])), pygame.Rect(x * tile, y * tile, tile, tile)
        if flags & Blocks.MOVEMENT and not flags & Blocks.SIGHT:
            if flags & Blocks.FLIERS:
                _draw_slit(world, r, _wall_runs_across(solid, x, y))
            else:
                step = max(tile // 5, 2)
                for left in range(r.x, r.right, 2 * step):
                    world.fill(theme.WALL, (left, r.y + tile // 3, step, tile // 3))
                world.fill(theme.WALL_SHADOW, (r.x, r.y + 2 * tile // 3 - 1, tile, max(tile // 10, 1)))
        else:
            pygame.draw.rect(world, theme.WALL, r, max(tile // 8, 1))


def _wall_runs_across(solid: np.ndarray, x: int, y: int) -> bool:
    """Whether the wall a slit is cut in runs east-west (its neighbours left or right are solid)."""
    width = solid.shape[0]
    return bool((x > 0 and solid[x - 1, y]) or (x + 1 < width and solid[x + 1, y]))


def _draw_slit(world: pygame.Surface, r: pygame.Rect, across: bool) -> None:
    """Wall on both sides of a narrow slot that crosses the wall line."""
    side = max(r.w * 2 // 5, 2)
    if across:  # the wall runs east-west: the slot runs north-south
        world.fill(theme.WALL, (r.x, r.y, side, r.h))
        world.fill(theme.WALL, (r.right - side, r.y, side, r.h))
    else:
        world.fill(theme.WALL, (r.x, r.y, r.w, side))
        world.fill(theme.WALL, (r.x, r.bottom - side, r.w, side))


def _heights(world: pygame.Surface, ground: np.ndarray, walls: np.ndarray, tile: int, text: TextFn) -> None:
    """The ground height in feet in the corner of every square above or below 0, inside its square."""
    for x, y in zip(*np.nonzero((ground != 0) & ~walls)):
        written = f"{ground[x, y]:g}"
        label = height_label(written, tile, (250, 250, 240), text)
        shadow = height_label(written, tile, (0, 0, 0), text)
        pos = (x * tile + tile - label.get_width() - 2, y * tile + tile - label.get_height())
        world.blit(shadow, (pos[0] + 1, pos[1] + 1))
        world.blit(label, pos)


def height_label(written: str, tile: int, colour: theme.Colour, text: TextFn) -> pygame.Surface:
    """A square's height, shrunk to fit inside the square when the small font is wider than it: in a
    small window (20-pixel squares) a pit's "-120" began left of its square, so on the map's first
    column its minus sign was cut off and the pit read as a 120 ft hill, and elsewhere it ran into
    the neighbouring square's height ("-1000" of one square beside another's number)."""
    rendered = text(written, "tiny", colour)
    room = tile - 3
    if rendered.get_width() <= room:
        return rendered
    high = max(1, rendered.get_height() * room // rendered.get_width())
    return pygame.transform.smoothscale(rendered, (room, high))
