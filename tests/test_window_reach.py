"""The chosen power's reach on the map (the yellow overlay) is the battle's: heights count in it as
they count when the power is used, so a square shown in reach is one a use is not refused for being
too far, and one shown out of reach is one it is."""

from __future__ import annotations

import pygame
import pytest
from window_steps import play_to_turn

from game.battle.errors import IllegalCommand
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Key

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _hill() -> tuple[Battle, int]:
    """A priest on a 20 ft hill: the rules' distance to a point below counts the 20 ft."""
    b = Battle(seed=1, width=16, height=10)
    for x in range(3):
        for y in range(3):
            b.set_ground(x, y, 20)
    priest = b.spawn("Priest", 1, 1, team="blue", powers=["light", "strike", "darkness"])
    b.spawn("Orc", 15, 9, team="red")
    return b, priest


def test_reach_squares_is_what_a_use_accepts_from_a_height() -> None:
    b, priest = _hill()
    reach = b.reach_squares("light", priest)
    for x in range(b.width):
        for y in range(b.height):
            problem = b.forecast(priest, "light", point=(x, y)).problem or ""
            too_far = "ft away" in problem
            assert bool(reach[x, y]) is not too_far, (x, y)
    assert not reach[7, 1]  # 30 ft across the grid, 36 ft with the hill: out of a 30 ft range
    assert reach[5, 1] and reach[1, 1]  # 20 ft across, 28.3 ft with the hill


def test_a_blow_reaches_no_square_below_a_tall_ledge() -> None:
    b, priest = _hill()
    reach = b.reach_squares("strike", priest)
    assert reach[2, 2] and not reach[3, 1]  # the next square down the 20 ft hill is 20.6 ft away


def test_reach_squares_refuses_an_unknown_power() -> None:
    b, priest = _hill()
    with pytest.raises(IllegalCommand, match="unknown power 'lamp'"):
        b.reach_squares("lamp", priest)


def test_the_range_overlay_leaves_out_a_square_out_of_reach_from_a_height() -> None:
    b, priest = _hill()
    app = App(b, {"blue"})
    screen = pygame.Surface(SIZE)
    window = app.open_window(screen=screen)
    play_to_turn(app, priest)
    app.handle(Key("1"))  # Light: 30 ft, from 20 ft up
    app.draw()
    seen = {x: tuple(screen.get_at(window.renderer.square_rect(x, 1).center))[:3] for x in (5, 7, 13)}
    assert seen[5] != seen[13]  # tinted: (5, 1) is 28.3 ft away, in reach
    assert seen[7] == seen[13]  # (7, 1) is 30 ft away across the grid but 36 ft with the hill: refused
