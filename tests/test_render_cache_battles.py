"""The window's cached layers know which battle they were drawn for, by its world name, not by
``id()`` and version numbers a later battle can share. Defence in depth: the app gives a replacing
battle (F5, a load, a rewind) new layers (``Renderer.forget``), so the case is made by hand here; a
layer kept across battles would otherwise draw the gone battle's map."""

from __future__ import annotations

import pygame
import pytest

from game import Battle
from game.render.terrain import TerrainLayer

pytestmark = pytest.mark.usefixtures("pygame_display")


def _text(text: str, font: str, colour: tuple[int, int, int]) -> pygame.Surface:
    return pygame.Surface((1, 1))


def _battle(wall_at: int) -> Battle:
    b = Battle(seed=1, width=6, height=4)
    b.set_terrain(wall_at, 1, blocks=["movement", "sight"])
    b.spawn("Scout", 0, 0, team="a")
    b.visible_squares("a")  # (the level grid worked out once)
    return b


def test_a_battle_that_looks_like_a_gone_one_to_id_gets_its_own_map() -> None:
    gone, new = _battle(1), _battle(4)
    assert (gone.terrain.version, gone.state.levels_version) == (new.terrain.version, new.state.levels_version)
    layer = TerrainLayer()
    first = pygame.image.tobytes(layer.surface(gone, 8, _text), "RGB")
    new.state.levels = gone.state.levels  # what a gone battle's reused address looks like to id()
    second = pygame.image.tobytes(layer.surface(new, 8, _text), "RGB")
    assert first != second  # the wall is drawn where the new battle has it
