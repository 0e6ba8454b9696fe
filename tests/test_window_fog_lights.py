"""Fog of war and the lights and areas powers make: a light an enemy out of sight makes around itself
must not show where it stands. The squares the team does not see are drawn without the lights and
areas it did not see made (``ui.unseen_sources``), and its log says that a light was made somewhere
out of sight, not around which square; what the team made, or saw made, is drawn and told whole."""

from __future__ import annotations

import pygame
import pytest

from components import Visibility
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Key

pytestmark = pytest.mark.usefixtures("pygame_display")

SIZE = (1100, 700)


def _walled(priest_powers: list[str]) -> tuple[Battle, int, int]:
    """At night, a hero west of a wall from edge to edge, a priest east of it: neither sees the other."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(6):
        b.add_wall(5, y)
    b.set_ambient(Visibility.TERRIBLE)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["strike"], initiative_bonus=50)
    priest = b.spawn("Priest", 9, 3, team="red", powers=priest_powers)
    return b, hero, priest


def _pixel(app: App, square: tuple[int, int]) -> tuple[int, ...]:
    app.draw()
    assert app.window is not None
    return tuple(app.window.screen.get_at(app.window.renderer.square_rect(*square).center))[:3]


def _team_log(app: App) -> list[str]:
    assert app.window is not None
    return [line for line in app.window.renderer.feed.seen_lines if line.startswith("Round")]


def test_a_light_an_unseen_enemy_makes_around_itself_does_not_show_where_it_stands() -> None:
    b, hero, priest = _walled(["sanctuary-light"])
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    before = _pixel(app, (9, 3))
    app.handle(Key("space"))  # the hero's turn ends: the priest's (played here by hand)
    assert b.current_actor == priest and priest in app.ui.hidden
    b.use_power(priest, "sanctuary-light")
    b.resolve_orders()
    app.refresh()
    assert priest in app.ui.hidden
    assert _pixel(app, (9, 3)) == before  # no torch, no glow on its square (they were drawn under the fog)
    assert _team_log(app) == ["Round 1: Light fills 15 ft somewhere out of sight"]  # was "around (9, 3)"
    assert [kind for kind, _ in app.ui.unseen_sources] == ["light"]
    app.handle(Key("g"))  # the GM view shows the battle as it is, and the GM's log says where
    assert _pixel(app, (9, 3)) != before
    assert "Round 1: Light fills 15 ft around (9, 3)" in app.window.renderer.feed.lines  # type: ignore[union-attr]


def test_darkness_the_team_made_is_drawn_and_told_where_though_nobody_sees_into_it() -> None:
    b = Battle(seed=3, width=12, height=6)
    mage = b.spawn("Mage", 1, 2, team="blue", powers=["darkness"], initiative_bonus=50)
    b.spawn("Orc", 9, 2, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    lit = _pixel(app, (8, 2))
    app.handle(Key("1"))
    app.click((8, 2))
    assert b.visibility_at(8, 2) == Visibility.NO_VISION and not app.ui.visible[8, 2]
    assert b.current_actor == mage
    assert _pixel(app, (8, 2)) != lit  # the darkness it made is on the map
    assert "Round 1: Area fills 10 ft around (8, 2)" in _team_log(app)


def test_darkness_an_enemy_casts_onto_the_team_in_its_sight_is_drawn_and_told_where() -> None:
    """The mage the hero sees casts darkness onto the hero: the team watched it made, but its centre is
    out of the team's sight once it is made (nobody sees into darkness), so it counted as made out of
    sight: drawn nowhere, the hero flat-footed in plain-looking ground, and "Mage uses Darkness at
    (2, 2)" followed by "Area fills 10 ft somewhere out of sight". It is drawn and told where."""
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["strike"], initiative_bonus=-50)
    mage = b.spawn("Mage", 8, 2, team="red", powers=["darkness"], initiative_bonus=50)
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    plain = _pixel(app, (1, 2))
    assert b.current_actor == mage and mage not in app.ui.hidden
    b.use_power(mage, "darkness", point=(2, 2))  # the computer's turn, played here by hand
    b.resolve_orders()
    b.end_turn()
    app.refresh()
    assert b.current_actor == hero and not app.ui.visible[2, 2]
    assert app.ui.unseen_sources == frozenset()
    assert _pixel(app, (1, 2)) != plain  # the darkness is on the map around the hero
    assert "Round 1: Area fills 10 ft around (2, 2)" in _team_log(app)
    assert not any("somewhere out of sight" in line for line in _team_log(app))
