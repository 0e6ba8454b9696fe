"""Renderer and window tests under SDL's dummy driver, reading pixels back from an off-screen surface.

They pin what a player relies on seeing: walls look like walls, darkness is darker, a token sits on
its creature's square, a click moves the selected creature, and cover shows when hovering an enemy.
The application is driven with the plain inputs of ``game.render.inputs`` (what the window sends);
a few tests post real pygame events, to pin how the window translates them.
"""

from __future__ import annotations

import pygame
import pytest

from components import Position
from components.events import PowerUsed
from game.battle.facade import Battle
from game.battle.log import format_log
from game.play.app import App
from game.render import Renderer, UiState, Window, theme
from game.render.inputs import RIGHT, Click, Hover, Key, Wheel

SIZE = (1000, 640)
RED = (200, 30, 30)


pytestmark = pytest.mark.usefixtures("pygame_display")


def _frame(renderer: Renderer, ui: UiState | None = None) -> pygame.Surface:
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, ui)
    return surface


def _brightness(colour: pygame.Color) -> int:
    return colour.r + colour.g + colour.b


def _windowed(app: App) -> Window:
    """The app shown in an off-screen surface of SIZE."""
    return app.open_window(screen=pygame.Surface(SIZE))


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


def _to_my_turn(app: App) -> int:
    """Let the computer play up to the person's turn (Enter); returns whose turn it is."""
    app.handle(Key("return"))
    assert app.flow.human_turn()
    return app.flow.actor


def test_clicking_a_square_moves_the_selected_creature() -> None:
    """The whole path of a person's clicks: pygame events, the window's translation, the app."""
    b = Battle(width=10, height=8)
    hero = b.spawn("Hero", 2, 2, team="blue")
    b.spawn("Orc", 8, 6, team="red")
    app = App(b, {"blue"})
    window = _windowed(app)
    assert _to_my_turn(app) == hero and app.ui.selected == hero  # its turn came: it is selected
    app.draw()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=window.renderer.square_centre(4, 3), button=1))
    app.handle_inputs()
    assert ("move", (hero, 4, 3), {}) in b.command_log
    assert b.get(hero, Position).square == (4, 3)  # the move resolves at once, in its turn
    app.draw()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    app.handle_inputs()
    assert b.current_actor != hero and "Hero ends its turn" in app.ui.message


def test_plain_inputs_select_move_and_end_the_turn_without_a_window() -> None:
    b = Battle(width=10, height=8)
    hero = b.spawn("Hero", 2, 2, team="blue")
    b.spawn("Orc", 8, 6, team="red")
    app = App(b, {"blue"})
    _to_my_turn(app)
    app.handle(Hover((4, 3)))
    assert app.ui.move_preview == b.forecast_move(hero, (4, 3))
    app.handle(Click((4, 3)))
    assert app.ui.hover == (4, 3) and b.get(hero, Position).square == (4, 3)
    assert "(4, 3)" in app.ui.message and "ft)" in app.ui.message
    app.handle(Key("space"))
    assert b.current_actor != hero
    app.handle(Click(None, RIGHT))
    assert app.ui.selected is None


def test_the_window_translates_pygame_events_into_plain_inputs() -> None:
    b = Battle(width=10, height=8)
    window = Window(b, screen=pygame.Surface(SIZE))
    r = window.renderer
    centre = r.square_centre(3, 4)
    event = pygame.event.Event
    assert window.translate(event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1)) == Click((3, 4))
    assert window.translate(event(pygame.MOUSEBUTTONDOWN, pos=(SIZE[0] - 5, 5), button=1)) is None  # the panel
    assert window.translate(event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0))) == Hover((3, 4))
    assert window.translate(event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")) == Key("space", text=" ")
    assert window.translate(event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode="")) == \
        Key("s", ctrl=True)
    assert window.translate(event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="1")) == Key("1", text="1")
    # a right click that did not drag is a click (cancel); a right drag only scrolls the view
    assert window.translate(event(pygame.MOUSEBUTTONDOWN, pos=centre, button=3)) is None
    assert window.translate(event(pygame.MOUSEBUTTONUP, pos=centre, button=3)) == Click((3, 4), RIGHT)


def test_a_right_drag_scrolls_a_big_map_and_is_not_a_click() -> None:
    b = Battle(width=64, height=64)
    window = Window(b, screen=pygame.Surface(SIZE))
    before = list(window.renderer.camera)
    event = pygame.event.Event
    assert window.translate(event(pygame.MOUSEBUTTONDOWN, pos=(300, 300), button=3)) is None
    window.translate(event(pygame.MOUSEMOTION, pos=(200, 250), rel=(-100, -50), buttons=(0, 0, 1)))
    assert window.renderer.camera == [before[0] + 100, before[1] + 50]
    assert window.translate(event(pygame.MOUSEBUTTONUP, pos=(200, 250), button=3)) is None


def test_the_loop_autoplays_a_round_and_quits_when_the_window_closes() -> None:
    b = Battle(width=10, height=8)
    b.spawn("Hero", 2, 2, team="blue")
    b.spawn("Orc", 8, 6, team="red")
    app = App(b)
    _windowed(app)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(autoplay_seconds=0, max_rounds=5)
    assert not app.running and b.round == 1


def test_computer_creatures_do_not_take_orders() -> None:
    b = Battle(width=10, height=8)
    b.spawn("Hero", 2, 2, team="blue")
    orc = b.spawn("Orc", 8, 6, team="red")
    app = App(b, {"blue"})
    app.handle(Click((8, 6)))
    app.handle(Click((7, 6)))
    assert app.ui.selected == orc
    assert all(name != "move" for name, _, _ in b.command_log)
    assert "computer-controlled" in app.ui.message


def test_the_fall_warning_is_the_battles_answer_and_knows_innate_flight() -> None:
    b = Battle(width=10, height=8)
    for x in range(3):
        for y in range(8):
            b.set_ground(x, y, 20)
    b.set_ground(3, 1, 0, soft=True)
    walker = b.spawn("Walker", 1, 1, team="blue")
    bird = b.spawn("Bird", 1, 5, team="blue", flying=True)
    app = App(b, {"blue"})
    goals = {walker: (5, 1), bird: (5, 5)}
    for _ in range(2):
        actor = app.flow.actor
        assert actor in goals and app.ui.selected == actor
        app.handle(Hover(goals[actor]))
        preview = app.ui.move_preview
        assert preview == b.forecast_move(actor, goals[actor])
        app.handle(Click(goals[actor]))
        if actor == walker:
            assert preview.fall is not None and preview.stops_at == (3, 1)
            # where it stepped off is where it stands, said once: "moved to (3, 1) ... FELL 20 ft at (3, 1)"
            assert app.ui.message == "Walker moved to (3, 1) (10 ft, short of (5, 1)) - and FELL 20 ft onto soft ground"
            assert app.ui.message.count("(3, 1)") == 1
        else:
            assert preview.fall is None and "FELL" not in app.ui.message
        app.handle(Key("space"))
    assert b.get(walker, Position).square == (3, 1) and b.get(bird, Position).square == (5, 5)


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
    app = App(b)
    window = _windowed(app)
    before = list(window.renderer.camera)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False))
    app.handle_inputs()
    assert window.renderer.camera[1] > before[1]
    assert window.renderer.square_at(window.renderer.square_centre(10, 20)) == (10, 20)
    app.handle(Key("up"))  # the wheel's two notches scrolled four squares; an arrow scrolls two
    app.handle(Key("up"))
    assert window.renderer.camera[1] == before[1]


def test_the_wheel_over_the_log_scrolls_the_log_not_the_map() -> None:
    b = Battle(width=64, height=64)
    for i in range(40):
        b.spawn(f"Unit {i}", i, 0, team="blue" if i % 2 else "red")
    b.start_combat()
    app = App(b)
    window = _windowed(app)
    app.draw()
    before = list(window.renderer.camera)
    app.handle(Wheel(2, over_log=True))
    assert app.ui.log_scroll == 6 and window.renderer.camera == before
    app.handle(Wheel(-5, over_log=True))
    assert app.ui.log_scroll == 0


def test_power_keys_choose_a_power_and_show_its_area() -> None:
    b = Battle(width=16, height=10)
    mage = b.spawn("Mage", 2, 2, team="blue", powers=["fireball", "shoot"])
    orc = b.spawn("Orc", 9, 5, team="red")
    app = App(b, {"blue"})
    window = _windowed(app)
    assert _to_my_turn(app) == mage
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="1"))
    app.handle_inputs()
    assert app.ui.power == "fireball"
    app.handle(Hover((9, 5)))
    app.draw()
    rect = window.renderer.square_rect(9, 6)
    assert tuple(window.screen.get_at((rect.x, rect.centery)))[:3] == theme.AREA
    assert app.ui.forecast == b.forecast(mage, "fireball", point=(9, 5))
    app.handle(Click((9, 5)))
    assert ("use_power", (mage, "fireball"), {"target": None, "point": (9, 5)}) in b.command_log
    assert any(isinstance(e, PowerUsed) for e in b.events)  # used at once, in its turn
    assert orc in b.creatures()


def test_help_and_save_without_a_scenario_do_not_crash() -> None:
    b = Battle(width=8, height=8)
    app = App(b)
    _windowed(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=pygame.KMOD_SHIFT, unicode="?"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode=""))
    app.handle_inputs()
    assert app.ui.show_help
    app.draw()
    assert app.ui.message


def test_the_help_keeps_plain_keys_from_acting_behind_it() -> None:
    b = Battle(width=8, height=8)
    b.spawn("Hero", 2, 2, team="blue")
    b.spawn("Orc", 6, 6, team="red")
    app = App(b, {"blue"})
    app.handle(Key("f1"))
    assert app.ui.show_help
    before = len(b.command_log)
    app.handle(Key("space"))
    assert len(b.command_log) == before  # Space did not play a turn unseen
    app.handle(Key("escape"))
    assert not app.ui.show_help
    app.handle(Key("space"))
    assert len(b.command_log) > before
