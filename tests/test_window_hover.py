"""When the map moves under a still pointer (the arrows, the wheel, the map centred on the creature
whose turn came, a load), the square now under the pointer is hovered: the preview shows the square a
click would go to, not the one the pointer was over before the map moved."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render import Window
from game.render.inputs import Hover, Key

pytestmark = pytest.mark.usefixtures("pygame_display")


def _settle() -> None:
    """Let SDL take in the pointer's position and drop what it queued."""
    pygame.event.get()


def test_the_square_under_a_still_pointer_is_hovered_again_when_the_map_moves() -> None:
    with Battle(width=64, height=64) as b:
        window = Window(b, size=(1000, 640))
        pygame.mouse.set_pos((300, 300))
        _settle()
        window.inputs()
        before = window.renderer.square_at((300, 300))
        window.pan(3, 2)  # the arrows or the wheel
        after = window.renderer.square_at((300, 300))
        assert after is not None and before is not None and after == (before[0] + 3, before[1] + 2)
        assert window.inputs() == [Hover(after)]
        assert window.inputs() == []  # once: the pointer has not moved since
        window.centre_on((40, 40))  # a turn of the person's came: the map centres on its creature
        assert window.inputs() == [Hover(window.renderer.square_at((300, 300)))]


def test_a_hover_that_follows_the_map_moves_the_preview_where_the_click_goes() -> None:
    with Battle(width=64, height=64) as b:
        hero = b.spawn("Hero", 5, 5, team="blue")
        b.spawn("Orc", 60, 60, team="red")
        app = App(b, human_teams={"blue"})
        window = app.open_window(size=(1000, 640))
        app.handle_inputs()
        pygame.mouse.set_pos(window.renderer.square_centre(6, 5))
        _settle()
        app.handle(Hover((6, 5)))  # what the pointer's motion sent
        app.handle(Key("right"))  # the map scrolls; the pointer stays
        app.handle_inputs()
        under = window.renderer.square_at(pygame.mouse.get_pos())
        assert under is not None and under != (6, 5) and app.ui.hover == under
        assert b.is_alive(hero)


def test_an_off_screen_window_sends_no_hover_of_its_own() -> None:
    with Battle(width=64, height=64) as b:
        window = Window(b, screen=pygame.Surface((1000, 640)))
        window.pan(3, 2)
        assert window.inputs() == []
