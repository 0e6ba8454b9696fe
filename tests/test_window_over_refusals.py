"""Once the battle is decided, a key that would give an order says so. The turn left standing when
the last enemy fell is a dead creature's, and the window said "Not Hero's turn: Orc acts now" of an
orc lying dead under the banner; a downed or dead creature's turn, passing on the computer's next
step, was said to "act now" as well."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Click, Key

pytestmark = pytest.mark.usefixtures("pygame_display")


def _won() -> tuple[App, int, int]:
    """A hero whose one blow kills the only orc (the hero's turn under way still)."""
    b = Battle(seed=4, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="blue", initiative_bonus=100, powers=["strike"], attack_bonus=50)
    orc = b.spawn("Orc", 2, 1, team="red", powers=["strike"], health=1)
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface((1280, 800)))
    app.handle(Key("1"))
    app.handle(Click((2, 1)))
    assert app.ui.banner.startswith("Blue won") and "downed" in b.conditions(orc)
    return app, hero, orc


def test_a_power_key_after_the_end_says_the_battle_is_over() -> None:
    app, hero, orc = _won()
    app.handle(Key("space"))  # nothing to pass once the battle is decided: the banner's words again
    assert app.ui.message == app.ui.banner
    app.handle(Key("1"))
    assert app.ui.message == "The battle is over (blue won): no more orders"
    assert "acts now" not in app.ui.message
    app.handle(Key("u"))
    assert app.ui.message == "nothing to undo: the battle is over"


def test_the_turn_of_a_creature_that_cannot_act_is_not_said_to_act() -> None:
    b = Battle(seed=4, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 5, 1, team="red", initiative_bonus=100, powers=["strike"])
    b.spawn("Orc chief", 6, 2, team="red", powers=["strike"])
    b.start_combat()
    b.damage(orc, 100)  # the GM drops the orc, whose turn comes first
    b.begin_round()
    app = App(b, {"blue"}, computer_delay=60)
    app.open_window(screen=pygame.Surface((1280, 800)))
    assert b.current_actor == orc and not b.can_act(orc)
    app.ui.selected = hero
    app.handle(Key("1"))
    assert app.ui.message == "Not Hero's turn: it is Orc's turn, which passes (it cannot act)"
