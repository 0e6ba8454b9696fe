"""The hover box beside a square: right of it, left of it at the map's right edge, and under (or
over) it when it is too wide for either side; never on the square it speaks of (a long line such as
"cannot move there: square (53, 31) is 235 ft away ..." slid over the hovered square)."""

from __future__ import annotations

import pygame
import pytest

from game.render import tooltip
from game.render.viewport import Viewport

pytestmark = pytest.mark.usefixtures("pygame_display")
MAP = pygame.Rect(0, 0, 920, 774)
BACK = (1, 2, 3)


def _drawn(square: pygame.Rect, width: int) -> pygame.Surface:
    surface = pygame.Surface(MAP.size)
    surface.fill(BACK)
    line = pygame.Surface((width, 14))
    line.fill((200, 200, 200))
    tooltip.box_beside(surface, Viewport(MAP, (76, 64), 12), square, [line])
    return surface


def test_a_narrow_box_goes_right_of_the_square_then_left_of_it_at_the_edge() -> None:
    surface = _drawn(pygame.Rect(100, 100, 56, 56), 200)
    assert tuple(surface.get_at((156 + 6 + 100, 110)))[:3] != BACK and tuple(surface.get_at((90, 110)))[:3] == BACK
    surface = _drawn(pygame.Rect(860, 100, 56, 56), 200)
    assert tuple(surface.get_at((860 - 6 - 100, 110)))[:3] != BACK


def test_a_box_too_wide_for_either_side_never_covers_its_square() -> None:
    for x in range(0, 920 - 12, 48):
        for y in (0, 300, 762):
            square = pygame.Rect(x, y, 12, 12)
            surface = _drawn(square, 640)
            covered = [(px, py) for px in range(square.left, square.right) for py in range(square.top, square.bottom)
                       if tuple(surface.get_at((px, py)))[:3] != BACK]
            assert not covered, (square, covered[:3])
