"""Renderer and window tests under SDL's dummy driver, reading pixels back from an off-screen surface.

They pin what a player relies on seeing: walls look like walls, darkness is darker, a token sits on
its creature's square, a click moves the selected creature, and cover shows when hovering an enemy.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from components import Position
from game.battle.facade import Battle
from game.battle.log import format_log
from game.render import (
    App,
    Renderer,
    UiState,
    theme,
)

SIZE = (1000, 640)
RED = (200, 30, 30)
BLUE = (30, 60, 200)


@pytest.fixture(autouse=True)
def _pygame():
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


def _frame(renderer: Renderer, ui: UiState | None = None) -> pygame.Surface:
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, ui, now=1e9)
    return surface


def _brightness(colour: pygame.Color) -> int:
    return colour.r + colour.g + colour.b


def test_wall_square_has_wall_colour() -> None:
    b = Battle(width=10, height=8)
    b.add_wall(5, 3)
    r = Renderer(b, SIZE)
    surface = _frame(r)
    assert tuple(surface.get_at(r.square_rect(5, 3).center))[:3] == theme.WALL
    assert tuple(surface.get_at(r.square_rect(6, 3).center))[:3] != theme.WALL


def test_dark_square_is_darker_than_lit_square() -> None:
    b = Battle(width=12, height=8)
    b.set_ambient("terrible")
    b.add_light(2, 2, 10, "normal")
    assert b.visibility_at(3, 3) > b.visibility_at(10, 6)
    r = Renderer(b, SIZE)
    surface = _frame(r)
    lit, dark = r.square_rect(3, 3), r.square_rect(10, 6)
    # same checker parity, a point away from the centre (height labels and tokens sit elsewhere)
    lit_px = surface.get_at((lit.x + lit.w // 3, lit.y + lit.h // 3))
    dark_px = surface.get_at((dark.x + dark.w // 3, dark.y + dark.h // 3))
    assert _brightness(lit_px) > _brightness(dark_px) + 60


def test_pitch_black_is_darker_than_terrible() -> None:
    b = Battle(width=12, height=8)
    b.set_ambient("terrible")
    b.add_area(9, 4, 5, "no vision")
    r = Renderer(b, SIZE)
    surface = _frame(r)
    black, night = r.square_rect(9, 4), r.square_rect(3, 4)
    assert _brightness(surface.get_at(black.topleft)) < _brightness(surface.get_at(night.topleft))


def test_token_is_drawn_where_its_creature_stands() -> None:
    b = Battle(width=10, height=8)
    hero = b.spawn("Hero", 3, 4, team="red")
    r = Renderer(b, SIZE, team_colours={"red": RED})
    surface = _frame(r)
    rect = r.square_rect(3, 4)
    probe = (rect.centerx - rect.w // 4, rect.centery + rect.h // 8)  # inside the disc, beside the initials
    assert tuple(surface.get_at(probe))[:3] == RED
    empty = r.square_rect(6, 4)
    assert tuple(surface.get_at((empty.centerx - empty.w // 4, empty.centery + empty.h // 8)))[:3] != RED
    # the token follows the creature
    b.move(hero, 6, 4)
    b.tick()
    surface = _frame(r)
    assert tuple(surface.get_at((empty.centerx - empty.w // 4, empty.centery + empty.h // 8)))[:3] == RED


def test_clicking_a_square_moves_the_selected_creature() -> None:
    b = Battle(width=10, height=8)
    hero = b.spawn("Hero", 2, 2, team="blue")
    b.spawn("Orc", 8, 6, team="red")
    screen = pygame.Surface(SIZE)
    app = App(b, {"blue"}, screen=screen)
    app.draw()
    for square in ((2, 2), (4, 3)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.renderer.square_centre(*square),
                                             button=1))
    app.handle_events()
    assert app.ui.selected == hero
    assert b.command_log[-1] == ("move", (hero, 4, 3), {})
    app.draw()  # the planned move is drawn without error
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    app.handle_events()
    assert b.get(hero, Position).square == (4, 3)


def test_computer_creatures_do_not_take_orders() -> None:
    b = Battle(width=10, height=8)
    b.spawn("Hero", 2, 2, team="blue")
    orc = b.spawn("Orc", 8, 6, team="red")
    app = App(b, {"blue"}, screen=pygame.Surface(SIZE))
    app.click((8, 6))
    app.click((7, 6))
    assert app.ui.selected == orc
    assert all(name != "move" for name, _, _ in b.command_log)


def test_hovering_an_enemy_behind_a_wall_shows_cover() -> None:
    b = Battle(width=10, height=8)
    b.add_wall(3, 3)
    archer = b.spawn("Archer", 1, 3, team="blue")
    orc = b.spawn("Orc", 4, 3, team="red")
    assert b.has_cover(orc, archer)
    r = Renderer(b, SIZE)
    surface = _frame(r, UiState(selected=archer, hover=(4, 3)))
    rect = r.square_rect(4, 3)
    shield = (rect.right - r.tile // 5, rect.top + r.tile // 5)
    assert tuple(surface.get_at(shield))[:3] == theme.COVER
    # without the wall: no shield
    b.remove_wall(3, 3)
    assert not b.has_cover(orc, archer)
    surface = _frame(r, UiState(selected=archer, hover=(4, 3)))
    assert tuple(surface.get_at(shield))[:3] != theme.COVER


def test_a_fall_is_marked_and_logged() -> None:
    b = Battle(width=10, height=8)
    for y in range(8):
        b.set_ground(0, y, 30)
    bram = b.spawn("Bram", 0, 3, team="blue")
    b.set_ground(1, 3, 0, soft=True)
    b.move(bram, 1, 3)
    b.tick()
    r = Renderer(b, SIZE)
    surface = _frame(r)
    rect = r.square_rect(1, 3)
    assert tuple(surface.get_at((rect.x + 1, rect.centery)))[:3] == theme.FALL
    assert any("Round 1: Bram falls 30 ft and lands on soft ground (1 die)" in line for line in format_log(b))


def test_scrolling_moves_the_view_on_a_big_map() -> None:
    b = Battle(width=64, height=64)
    app = App(b, screen=pygame.Surface(SIZE))
    before = list(app.renderer.camera)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False))
    app.handle_events()
    assert app.renderer.camera[1] > before[1]
    assert app.renderer.square_at(app.renderer.square_centre(10, 20)) == (10, 20)


def test_power_keys_choose_a_power_and_show_its_area() -> None:
    b = Battle(width=16, height=10)
    if not hasattr(b, "use_power"):
        pytest.skip("the powers API is not in game/battle.py yet")
    mage = b.spawn("Mage", 2, 2, team="blue", powers=["fireball", "shoot"])
    orc = b.spawn("Orc", 9, 5, team="red")
    app = App(b, {"blue"}, screen=pygame.Surface(SIZE))
    app.click((2, 2))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="1"))
    app.handle_events()
    assert app.ui.power == "fireball"
    app.ui.hover = (9, 5)
    app.draw()
    rect = app.renderer.square_rect(9, 6)
    assert tuple(app.screen.get_at((rect.x, rect.centery)))[:3] == theme.AREA
    app.click((9, 5))
    assert b.command_log[-1] == ("use_power", (mage, "fireball"), {"point": (9, 5)})
    app.end_turn()
    assert any(type(e).__name__ == "PowerUsed" for e in b.events)
    assert orc in b.creatures()


def test_help_and_save_without_a_scenario_do_not_crash() -> None:
    b = Battle(width=8, height=8)
    app = App(b, screen=pygame.Surface(SIZE))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=pygame.KMOD_SHIFT, unicode="?"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode=""))
    app.handle_events()
    assert app.ui.show_help
    app.draw()
    assert app.ui.message
