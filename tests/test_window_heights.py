"""A square's height label is drawn inside its square: in a small window (20-pixel squares) a pit's
"-120" began left of its square, so on the map's first column its minus sign was cut off (a pit read
as a 120 ft rise), and a "-1000" ran into the square beside it."""

from __future__ import annotations

import pygame
import pytest

from game import Battle
from game.render.draw import Texts
from game.render.terrain import build_terrain, height_label

pytestmark = pytest.mark.usefixtures("pygame_display")


def _bright(world: pygame.Surface, square: int, tile: int) -> int:
    """Pixels of the height label's near-white in one square of the top row (the ground here is darker)."""
    return sum(1 for x in range(square * tile, (square + 1) * tile) for y in range(tile)
               if min(world.get_at((x, y))[:3]) >= 150)


@pytest.mark.parametrize("tile", [20, 22, 24, 28])
def test_a_wide_height_stays_in_its_square(tile: int) -> None:
    battle = Battle(seed=1, width=3, height=1)
    battle.set_ground(1, 0, -1000)
    world = build_terrain(battle, tile, Texts())
    assert _bright(world, 1, tile) > 0, "the height is drawn"
    assert _bright(world, 0, tile) == 0, "the height of square 1 runs into square 0"


@pytest.mark.parametrize("tile", [20, 22, 24, 30, 40, 56])
@pytest.mark.parametrize("written", ["-5", "30", "-120", "-1000", "10000", "-10000", "2.5"])
def test_every_height_label_fits_its_square(tile: int, written: str) -> None:
    """A label that fits is the font's own; a wider one is shrunk to the square, never cut."""
    texts = Texts()
    white = (250, 250, 240)
    label = height_label(written, tile, white, texts)
    assert label.get_width() <= tile - 2
    if texts(written, "tiny", white).get_width() <= tile - 3:
        assert label is texts(written, "tiny", white)
