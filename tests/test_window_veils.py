"""A power that makes a light, darkness or fog shows, before it is used, where it would fall: the
squares it would cover drawn red under the mouse (``battle.made_squares``, the squares the use then
darkens or lights) and a line in the hover box saying what it makes and around which square. Its box
used to say only the power's name, and nothing showed where a Darkness would fall."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from components import Visibility
from game.battle.facade import Battle
from game.play.app import App
from game.render import odds
from game.render.inputs import Hover, Key
from game.render.overlays import covered_squares

pytestmark = pytest.mark.usefixtures("pygame_display")


def _field(powers: list[str]) -> tuple[Battle, int]:
    """At night, a mage with a wall beside where it aims (a light stops at walls), an orc far off."""
    b = Battle(seed=2, width=14, height=8)
    b.set_ambient(Visibility.TERRIBLE)
    for y in range(2, 6):
        b.add_wall(8, y)
    mage = b.spawn("Mage", 1, 4, team="blue", powers=powers, initiative_bonus=50)
    b.spawn("Orc", 12, 7, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    return b, mage


@pytest.mark.parametrize(("power", "level"), [("darkness", Visibility.NO_VISION), ("light", Visibility.NORMAL)])
def test_the_squares_shown_before_the_use_are_the_squares_it_then_darkens_or_lights(
        power: str, level: Visibility) -> None:
    b, mage = _field([power])
    shown = b.made_squares(power, mage, (6, 4))
    before = np.array([[int(b.visibility_at(x, y)) for y in range(b.height)] for x in range(b.width)])
    b.use_power(mage, power, point=(6, 4))
    b.resolve_orders()
    after = np.array([[int(b.visibility_at(x, y)) for y in range(b.height)] for x in range(b.width)])
    changed = (after != before) & (after == int(level))
    assert changed.any()
    np.testing.assert_array_equal(shown & ~b.terrain.walls, changed & ~b.terrain.walls)


def test_hovering_a_darkness_draws_where_it_would_fall_and_says_so() -> None:
    b, mage = _field(["darkness"])
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface((1100, 700)))
    app.handle(Key("1"))
    app.handle(Hover((6, 4)))
    forecast = app.ui.forecast
    assert forecast is not None and forecast.legal
    power = b.power("darkness")
    lines = [text for text, _ in odds.forecast_lines(forecast, power.name, b.display_name, power=power)]
    assert lines == ["Darkness", "  makes an area of no vision within 10 ft of (6, 4)"]  # it said "Darkness" alone
    covered = covered_squares(b, power, mage, (6, 4))
    assert len(covered) == 25 and (6, 4) in covered and (4, 2) in covered and (3, 4) not in covered
    app.draw()
