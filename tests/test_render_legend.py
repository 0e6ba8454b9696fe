"""The map legend: every visibility level under the rules' names, shaded as the map shades it."""

from __future__ import annotations

import pygame
import pytest

from game.render import theme
from game.render.legend import SWATCH, draw_legend, entries

pytestmark = pytest.mark.usefixtures("pygame_display")


def _texts(label: str, font: str = "small", colour: theme.Colour = theme.TEXT) -> pygame.Surface:
    return pygame.Surface((8 * len(label), 12))


def test_the_legend_names_each_visibility_level_and_soft_ground() -> None:
    labels = [label for label, _, _ in entries()]
    for word in ("Normal light", "Poor light", "Terrible light", "No vision (dark)", "Soft ground (hay, water)"):
        assert word in labels


def test_each_darker_level_is_drawn_darker_than_the_one_before() -> None:
    side = pygame.Surface((200, 400))
    side.fill((0, 0, 0))
    bottom = draw_legend(side, 0, 0, 10, _texts)       # narrow: one column, one row per entry
    rows = entries()
    assert bottom >= len(rows) * 17
    brightness = []
    for index in range(4):   # Normal, Poor, Terrible, No vision (dark)
        colour = side.get_at((SWATCH // 2, index * 17 + 2 + SWATCH // 2))
        brightness.append(colour.r + colour.g + colour.b)
    assert brightness == sorted(brightness, reverse=True) and len(set(brightness)) == 4, brightness
