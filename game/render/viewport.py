"""Which pixels of the map viewport show which squares: the tile size and the scrolling camera.

Every layer draws through one :class:`Viewport`, so a square is at the same place in the terrain,
the overlays and the tokens, and ``square_at`` is the exact inverse the window uses for clicks.
"""

from __future__ import annotations

import pygame

MIN_TILE, MAX_TILE = 12, 56


class Viewport:
    """The map's view onto the world surface: ``map_rect`` on screen, ``camera`` the world pixel at
    its top-left (negative when a map smaller than the viewport is centred).

    Args:
        map_rect: where the map is drawn on the surface.
        grid: the map's width and height in squares.
        tile: pixels per square; None picks the largest that fits (within 12..56), and a bigger
            map scrolls.
    """

    def __init__(self, map_rect: pygame.Rect, grid: tuple[int, int], tile: int | None = None) -> None:
        self.map_rect = map_rect
        self.grid = grid
        fit = min(map_rect.w // grid[0], map_rect.h // grid[1])
        self.tile = int(tile or max(MIN_TILE, min(MAX_TILE, fit)))
        self.world_size = (grid[0] * self.tile, grid[1] * self.tile)
        self.camera = [0, 0]
        self.clamp()

    def clamp(self) -> None:
        """Keep the view on the map; a map smaller than the viewport is centred."""
        for axis, (world, view) in enumerate(zip(self.world_size, self.map_rect.size)):
            if world <= view:
                self.camera[axis] = -(view - world) // 2
            else:
                self.camera[axis] = max(0, min(self.camera[axis], world - view))

    def pan(self, dx: int, dy: int) -> None:
        """Scroll by pixels (clamped to the map)."""
        self.camera[0] += dx
        self.camera[1] += dy
        self.clamp()

    def centre_on(self, x: int, y: int) -> None:
        self.camera = [x * self.tile + self.tile // 2 - self.map_rect.w // 2,
                       y * self.tile + self.tile // 2 - self.map_rect.h // 2]
        self.clamp()

    def square_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The square under a screen position, or None outside the map."""
        if not self.map_rect.collidepoint(pos):
            return None
        wx, wy = pos[0] - self.map_rect.x + self.camera[0], pos[1] - self.map_rect.y + self.camera[1]
        x, y = wx // self.tile, wy // self.tile
        if 0 <= wx and 0 <= wy and x < self.grid[0] and y < self.grid[1]:
            return int(x), int(y)
        return None

    def square_rect(self, x: int, y: int) -> pygame.Rect:
        """Screen rectangle of a square (it may lie outside the viewport)."""
        return pygame.Rect(self.map_rect.x + x * self.tile - self.camera[0],
                           self.map_rect.y + y * self.tile - self.camera[1], self.tile, self.tile)

    def square_centre(self, x: int, y: int) -> tuple[int, int]:
        return self.square_rect(x, y).center

    def blit_world(self, target: pygame.Surface, layer: pygame.Surface, part: pygame.Rect | None = None) -> None:
        """Blit the visible part of a world-sized layer into the map viewport (only its ``part``, a
        rectangle in world pixels, when given: a translucent overlay costs what it covers)."""
        area = pygame.Rect(max(self.camera[0], 0), max(self.camera[1], 0), self.map_rect.w, self.map_rect.h)
        dest = (self.map_rect.x + max(-self.camera[0], 0), self.map_rect.y + max(-self.camera[1], 0))
        if part is not None:
            clipped = area.clip(part)
            if not clipped.w or not clipped.h:
                return
            dest, area = (dest[0] + clipped.x - area.x, dest[1] + clipped.y - area.y), clipped
        target.blit(layer, dest, area)
