"""Terrain is drawn as what it is to the rules: the battle keeps whether a square is soft (a fall onto
it rolls half the dice), not what a scenario called it, so soft ground looks the same at any height
(the gauntlet's water at ground 0 was drawn as hay, and a soft square below 0 was guessed to be water)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from game.battle.facade import Battle
from game.render import theme
from game.render.legend import entries
from game.render.terrain import build_terrain

pytestmark = pytest.mark.usefixtures("pygame_display")
TILE = 40


def _text(label: str, font: str = "tiny", colour: theme.Colour = theme.TEXT) -> pygame.Surface:
    return pygame.Surface((6 * len(label), 8))


def _square(world: pygame.Surface, x: int, y: int) -> np.ndarray:
    """The top half of a square's pixels (the height label sits in its bottom-right corner)."""
    return pygame.surfarray.array3d(world)[x * TILE + 2:(x + 1) * TILE - 2, y * TILE + 2:y * TILE + TILE // 2]


def test_soft_ground_looks_the_same_whatever_its_height_and_unlike_plain_ground() -> None:
    with Battle(seed=1, width=6, height=3) as b:
        b.set_ground(1, 1, 0, soft=True)     # a scenario's "water" at ground 0, or its "hay"
        b.set_ground(3, 1, -3, soft=True)    # a stream bed below 0
        b.set_ground(5, 1, -3)               # a hard pit, for contrast
        world = build_terrain(b, TILE, _text)
        at_zero, below, plain = _square(world, 1, 1), _square(world, 3, 1), _square(world, 0, 1)
        assert np.array_equal(at_zero, below)
        assert not np.array_equal(at_zero, plain)
        assert tuple(world.get_at((1 * TILE + 3, 1 * TILE + 3)))[:3] == theme.SOFT
        assert not np.array_equal(_square(world, 5, 1), below)   # a pit is not soft ground


def test_the_legend_names_soft_ground_by_what_the_rules_know_of_it() -> None:
    labels = [label for label, _, _ in entries()]
    assert "Soft ground (hay, water)" in labels
    assert not any(label.startswith(("Hay", "Water")) for label in labels)
