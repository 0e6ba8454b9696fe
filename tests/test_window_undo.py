"""Undo: the current creature's orders are taken back (``snapshot``/``restore``) before its turn ends,
as long as no dice were rolled; the battle is then exactly as the turn began, and its command log
still replays to the same events."""

from __future__ import annotations

import pygame
import pytest

from components import Movement, Position
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Button, Click, Hover, Key

SIZE = (1100, 700)


pytestmark = pytest.mark.usefixtures("pygame_display")


def _duel() -> tuple[Battle, App, int, int]:
    b = Battle(seed=7, width=12, height=6)
    for y in range(6):
        b.set_ground(0, y, 20)
    hero = b.spawn("Hero", 0, 2, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 6, 2, team="red", powers=["strike"], prepared=False)
    app = App(b, {"blue"})
    app.handle(Key("return"))
    assert b.current_actor == hero
    return b, app, hero, orc


def _same_when_replayed(b: Battle) -> None:
    again = Battle.replay(b.seed, b.width, b.height, b.rules, b.command_log)
    assert [e.as_dict() for e in again.events] == [e.as_dict() for e in b.events]
    again.close()


def test_a_move_without_dice_is_undone_and_the_creature_may_move_again() -> None:
    b, app, hero, _ = _duel()
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    before = (len(b.command_log), len(b.events), b.get(hero, Position).square)
    app.handle(Click((0, 4)))  # along the ledge: no fall, no dice
    assert b.get(hero, Position).square == (0, 4) and len(b.command_log) > before[0]
    app.draw()
    app.handle(Key("u"))
    assert app.ui.message.startswith("Undone")
    assert (len(b.command_log), len(b.events), b.get(hero, Position).square) == before
    assert b.current_actor == hero and app.ui.selected == hero
    assert b.get(hero, Movement).used_ft == 0  # its movement is its own again
    app.draw()  # the view redraws from the battle, not from its caches of the undone move
    app.handle(Click((0, 5)))
    assert b.get(hero, Position).square == (0, 5)  # the whole move is there again
    app.handle(Hover((0, 4)))
    assert app.ui.move_preview == b.forecast_move(hero, (0, 4))
    _same_when_replayed(b)
    window.close()


def test_no_undo_once_dice_were_rolled_or_before_any_order() -> None:
    b, app, hero, orc = _duel()
    app.handle(Button("undo"))
    assert app.ui.message == "nothing to undo: no orders given this turn"
    app.handle(Click((5, 2)))  # off the ledge: the fall is rolled
    assert any(e.kind == "landed" for e in b.events)
    log, square = len(b.command_log), b.get(hero, Position).square
    app.handle(Button("undo"))
    assert app.ui.message == "cannot undo: dice were rolled"
    assert len(b.command_log) == log and b.get(hero, Position).square == square


def test_no_undo_after_an_attack_and_none_on_the_computers_turn() -> None:
    b = Battle(seed=2, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 2, 1, team="red", powers=["strike"], health=50, prepared=False)
    app = App(b, {"blue"})
    app.handle(Key("return"))
    assert b.current_actor == hero
    app.handle(Key("1"))
    app.handle(Click((2, 1)))
    assert any(e.kind == "attack_rolled" for e in b.events)
    app.handle(Key("u"))
    assert app.ui.message == "cannot undo: dice were rolled"
    app.handle(Key("space"))
    assert b.current_actor == orc
    app.handle(Key("u"))
    assert app.ui.message.startswith("nothing to undo")
    _same_when_replayed(b)


def test_no_undo_once_the_move_showed_an_enemy_the_turn_began_without() -> None:
    b = Battle(seed=5, width=12, height=6)
    for y in range(0, 5):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 0, team="blue", powers=["shoot"], speed=40)
    orc = b.spawn("Orc", 9, 3, team="red", powers=["strike"], prepared=False)
    app = App(b, {"blue"})
    app.handle(Key("return"))
    assert b.current_actor == hero and orc in app.ui.hidden
    app.handle(Click((5, 5)))  # round the end of the wall: the orc comes into sight
    assert b.get(hero, Position).square == (5, 5) and orc not in app.ui.hidden
    app.handle(Key("u"))
    assert app.ui.message == "cannot undo: your creatures saw something new this turn"
    assert b.get(hero, Position).square == (5, 5)


def test_a_refused_undo_drops_the_chosen_power_and_its_odds_under_the_mouse() -> None:
    """U with a power chosen and nothing to undo drops the power (a click no longer uses it), but its
    odds went on showing in the box under the mouse, as if a click would shoot. They go with it."""
    b = Battle(seed=7, width=12, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"], initiative_bonus=50)
    orc = b.spawn("Orc", 6, 2, team="red", powers=["strike"])
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    assert b.current_actor == hero
    app.handle(Key("1"))
    app.handle(Hover(b.get(orc, Position).square))
    assert app.ui.power == "shoot" and app.ui.forecast is not None
    app.handle(Key("u"))
    assert app.ui.message.startswith("nothing to undo")
    assert app.ui.power is None and app.ui.forecast is None
