"""A shove's fall is told as a move's is: its dice, and the soft ground that halves them. The hover
said "then falls 30 ft: avg 5.2 (1-12)" for a shove off a 30 ft ledge onto hay, beside a walk's
"FALLS 30 ft onto soft ground: 1d6, ...": a smaller number with no reason given."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render import odds
from game.render.inputs import Hover, Key

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.mark.parametrize(("soft", "said"), [(True, "then falls 30 ft onto soft ground: 1d6, avg 3.5 (1-6)"),
                                            (False, "then falls 30 ft: 3d6, avg 10.5 (3-18)")])
def test_a_shoves_fall_names_its_dice_and_soft_ground(soft: bool, said: str) -> None:
    b = Battle(seed=4, width=10, height=5)
    for y in range(5):
        for x in range(4):
            b.set_ground(x, y, 30)
    b.set_ground(4, 2, 0, soft=soft)  # where the shove drops it: hay, or hard ground
    knight = b.spawn("Knight", 2, 2, team="blue", initiative_bonus=100, powers=["shove"])
    b.spawn("Orc", 3, 2, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface((1280, 800)))
    assert b.current_actor == knight
    app.handle(Key("1"))
    app.handle(Hover((3, 2)))
    lines = [text.strip() for text, _ in odds.forecast_lines(app.ui.forecast, "Shove", b.display_name)]
    assert said in lines, lines
