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
from game.render import theme
from game.render.inputs import Hover, Key

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


def _cliff() -> tuple[Battle, int, int, int]:
    """A mage on the field, an orc at the foot of a 20 ft cliff, another on its top beside it."""
    b = Battle(seed=1, width=16, height=10)
    for x in range(8, 16):
        for y in range(10):
            b.set_ground(x, y, 20)
    mage = b.spawn("Mage", 1, 4, team="blue", powers=["fireball"])
    below = b.spawn("Orc", 7, 4, team="red")
    above = b.spawn("Ogre", 8, 4, team="red")
    return b, mage, below, above


def test_the_area_drawn_is_where_a_creature_standing_there_is_caught() -> None:
    b, mage, below, above = _cliff()
    covered = set(b.squares_in_area("fireball", mage, (7, 4)))
    drawn = set(b.area_reached("fireball", mage, (7, 4)))
    assert (8, 4) in covered and (8, 4) not in drawn  # on the cliff's top, 20 ft above the burst's centre
    assert drawn == {s for s in covered if b.terrain.ground_at(s) == 0}
    caught = {t.target for t in b.forecast(mage, "fireball", point=(7, 4)).targets}
    assert caught == {below}  # the rules' own answer: the ogre on the top is out of the burst
    assert b.area_reached("fireball", mage, (12, 4)) == b.squares_in_area("fireball", mage, (12, 4))  # all on top


def test_the_window_does_not_paint_the_area_where_nobody_standing_would_be_caught() -> None:
    b, mage, below, above = _cliff()
    app = App(b, {"blue"})
    screen = pygame.Surface(SIZE)
    window = app.open_window(screen=screen)
    play_to_turn(app, mage)
    app.handle(Key("1"))
    app.handle(Hover((7, 4)))
    app.draw()
    painted = {s: tuple(screen.get_at(window.renderer.square_rect(*s).topleft))[:3] for s in ((6, 2), (9, 2), (13, 2))}
    assert painted[(6, 2)] == theme.AREA  # the area's outline on a square of the field it reaches
    assert painted[(9, 2)] != theme.AREA  # on the cliff's top: covered on the map, nobody there is caught


def test_a_power_on_the_user_reaches_its_own_square_only() -> None:
    b, priest = _hill()
    flier = b.spawn("Flier", 4, 4, team="blue", powers=["fly"])
    reach = b.reach_squares("fly", flier)
    assert reach[4, 4] and int(reach.sum()) == 1  # not the squares round it, as for a blow
