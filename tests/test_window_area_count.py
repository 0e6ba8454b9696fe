"""The hover box counts the squares the window draws red for an area: the battle's ``area_reached``,
heights counted. It gave the area's flat count ("area of 25 squares") over the 22 red squares of a
burst aimed beside a pit, whose floor 20 ft down the burst does not reach."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Hover, Key
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")


def test_the_area_count_is_the_red_squares_heights_counted() -> None:
    b = Battle(seed=4, width=16, height=12)
    for x in (9, 10, 11):
        b.set_ground(x, 4, -20)  # a pit's row beside the burst's centre
    wizard = b.spawn("Wizard", 2, 6, team="blue", initiative_bonus=100, powers=["fireball"])
    b.spawn("Orc", 10, 6, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface((1280, 800)))
    assert b.current_actor == wizard
    app.handle(Key("1"))
    app.handle(Hover((10, 6)))
    reached = b.area_reached("fireball", wizard, (10, 6))
    flat = b.squares_in_area("fireball", wizard, (10, 6))
    assert len(reached) == 22 and len(flat) == 25
    drawn = drawn_texts(app)
    said = [s for s in drawn if s.startswith("area of ")]
    assert said == ["area of 22 squares catches: Orc"], said
