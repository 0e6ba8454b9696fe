"""What is laid over the map for the player: where the selected creature can go, the chosen power's
reach and area, and where creatures landed. (Each order is resolved as it is given: nothing is
queued to be drawn.)

Every answer comes from the battle (``reachable``, ``squares_in_area``); world-sized masks are
cached by :class:`Overlays` under a key that changes when the battle does, so a frame blits them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pygame

from game.render import theme
from game.render.feed import Fall
from game.render.viewport import Viewport

TextFn = Callable[[str, str, theme.Colour], pygame.Surface]


class Overlays:
    """A renderer's overlay masks and its cached reach of the selected creature."""

    def __init__(self) -> None:
        self._masks: dict[str, tuple[Any, pygame.Surface]] = {}
        #: each mask layer's part that is not transparent (what a frame needs to blit of it)
        self.bounds: dict[str, pygame.Rect] = {}
        self._reach_key: tuple[Any, ...] | None = None
        self._reach: np.ndarray | None = None
        self._range_key: tuple[Any, ...] | None = None
        self._range: np.ndarray | None = None

    def reach_mask(self, battle: Any, entity: int, hidden: frozenset[int] = frozenset()) -> np.ndarray:
        """Where the creature can move (the battle's ``reachable``), as its player may know it: the
        squares of ``hidden`` creatures count as free (a hole there would draw them). Cached until
        anything changes."""
        state = battle.state
        key = (entity, state.positions_version, battle.terrain.version, len(state.events), len(battle.command_log),
               hidden)
        if key != self._reach_key or self._reach is None:
            self._reach_key = key
            try:
                self._reach = battle.reachable(entity, unseen=hidden)
            except (KeyError, ValueError):
                self._reach = np.zeros((battle.width, battle.height), dtype=bool)
        return self._reach

    def mask_surface(self, name: str, mask: np.ndarray, colour: theme.Colour, alpha: int, key: Any,
                     view: Viewport) -> pygame.Surface:
        """A boolean ``[x, y]`` mask as a translucent world-sized layer, cached under ``key``."""
        cached = self._masks.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        self.bounds.pop(name, None)
        small = pygame.Surface(mask.shape, pygame.SRCALPHA)
        small.fill((*colour, 0))
        pygame.surfarray.pixels_alpha(small)[:] = np.where(mask, alpha, 0).astype(np.uint8)
        big = pygame.transform.scale(small, view.world_size)
        edge = mask_edges(mask, view.tile, colour)
        if edge is not None:
            big.blit(edge, (0, 0))
        self._masks[name] = (key, big)
        self.bounds[name] = big.get_bounding_rect()
        return big

    def cutout_surface(self, name: str, world: pygame.Surface, mask: np.ndarray, key: Any, view: Viewport
                       ) -> pygame.Surface:
        """A world-sized ``world`` showing only on the squares of a boolean ``[x, y]`` mask (transparent
        elsewhere), cached under ``key``: the squares' pixels are cut out by scaling the mask, as
        :meth:`mask_surface` does, not square by square."""
        cached = self._masks.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        self.bounds.pop(name, None)
        small = pygame.Surface(mask.shape, pygame.SRCALPHA)
        small.fill((255, 255, 255, 0))
        pygame.surfarray.pixels_alpha(small)[:] = np.where(mask, 255, 0).astype(np.uint8)
        layer = pygame.Surface(view.world_size, pygame.SRCALPHA)
        layer.blit(world, (0, 0))
        layer.blit(pygame.transform.scale(small, view.world_size), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        self._masks[name] = (key, layer)
        self.bounds[name] = layer.get_bounding_rect()
        return layer

    def draw_reach(self, surface: pygame.Surface, view: Viewport, battle: Any, entity: int,
                   hidden: frozenset[int] = frozenset()) -> None:
        """Blue: the squares the selected creature can move to (``hidden``: see :meth:`reach_mask`)."""
        mask = self.reach_mask(battle, entity, hidden)
        layer = self.mask_surface("reach", mask, theme.REACH, theme.REACH_ALPHA, self._reach_key, view)
        view.blit_world(surface, layer, self.bounds.get("reach"))

    def draw_power(self, surface: pygame.Surface, view: Viewport, battle: Any, user: int, power_id: str,
                   hover: tuple[int, int] | None) -> int | None:
        """The chosen power's reach around the user and its area under the mouse (or the squares the
        light, darkness or fog it makes would cover: ``made_squares``). The reach is the battle's
        (``reach_squares``: from where the user's queued orders leave it, heights counted), so a
        square drawn in reach is one a use there is not refused for being too far. Returns how many
        squares it drew red (None: none drawn), the number the hover box gives the area: it said
        "area of 25 squares" over the 22 a burst at a pit's edge reached, heights counted."""
        try:
            power = battle.power(power_id)
        except (KeyError, ValueError):
            return None
        key = (battle.world_name, user, power_id, battle.terrain.version, battle.state.positions_version,
               battle.state.powers_version, len(battle.command_log))  # (id() of a gone battle is reused)
        if key != self._range_key or self._range is None:
            try:
                self._range = battle.reach_squares(power_id, user) & ~battle.terrain.walls
            except (KeyError, ValueError):
                return None
            self._range_key = key
        layer = self.mask_surface("range", self._range, theme.RANGE, theme.RANGE_ALPHA, key, view)
        view.blit_world(surface, layer, self.bounds.get("range"))
        covered = covered_squares(battle, power, user, hover)
        if covered:
            overlay = pygame.Surface((view.tile, view.tile), pygame.SRCALPHA)
            overlay.fill((*theme.AREA, theme.AREA_ALPHA))
            surface.fblits([(overlay, view.square_rect(x, y)) for x, y in covered])
            for x, y in covered:
                pygame.draw.rect(surface, theme.AREA, view.square_rect(x, y), 1)
        return len(covered) if power.area is not None and (hover is not None or power.range_ft is None) else None


def covered_squares(battle: Any, power: Any, user: int, hover: tuple[int, int] | None) -> list[tuple[int, int]]:
    """The squares drawn red for a power aimed at ``hover``: its area's (``area_reached``), or for a
    power that makes a light, darkness or fog and has no area, the squares that would cover
    (``made_squares``: the box of a Darkness only named it, and nothing showed where it would fall).
    None for a power with a range and nothing hovered, or one that covers no squares."""
    if hover is None and power.range_ft is not None:
        return []
    try:
        if power.area is not None:
            return list(battle.area_reached(power.id, user, hover))
        if power.creates_area is not None or power.creates_light is not None:
            return [(int(x), int(y)) for x, y in np.argwhere(battle.made_squares(power.id, user, hover))]
    except (KeyError, ValueError):
        pass
    return []


def draw_fall_marks(surface: pygame.Surface, view: Viewport, falls: dict[int, Fall], round_: int,
                    text: TextFn) -> None:
    """A "fell N ft" marker on each square where a creature landed this round."""
    tile = view.tile
    for fall in falls.values():
        if fall.round < round_:
            continue
        rect = view.square_rect(*fall.square)
        pygame.draw.rect(surface, theme.FALL, rect, 2, border_radius=3)
        label = text(f"fell {fall.feet:g} ft", "tiny", theme.FALL)
        back = pygame.Rect(0, 0, label.get_width() + 6, label.get_height() + 2)
        back.midbottom = (rect.centerx, rect.top - 1)
        pygame.draw.rect(surface, (10, 20, 30), back, border_radius=3)
        surface.blit(label, (back.x + 3, back.y + 1))
        tip = (rect.right - 5, rect.top + 4)
        pygame.draw.line(surface, theme.FALL, tip, (tip[0], tip[1] + tile // 3), 2)
        pygame.draw.polygon(surface, theme.FALL, [(tip[0] - 4, tip[1] + tile // 3 - 4),
                                                   (tip[0] + 4, tip[1] + tile // 3 - 4),
                                                   (tip[0], tip[1] + tile // 3 + 2)])


def mask_edges(mask: np.ndarray, tile: int, colour: theme.Colour) -> pygame.Surface | None:
    """Outline of a mask's region (lines where a square in it meets one outside), for crisp overlays."""
    w, h = mask.shape
    if not mask.any():
        return None
    surface = pygame.Surface((w * tile, h * tile), pygame.SRCALPHA)
    edge = (*colour, 200)
    right = mask[:-1, :] != mask[1:, :]
    down = mask[:, :-1] != mask[:, 1:]
    for x, y in zip(*np.nonzero(right)):
        px = (x + 1) * tile
        pygame.draw.line(surface, edge, (px, y * tile), (px, (y + 1) * tile), 2)
    for x, y in zip(*np.nonzero(down)):
        py = (y + 1) * tile
        pygame.draw.line(surface, edge, (x * tile, py), ((x + 1) * tile, py), 2)
    return surface
