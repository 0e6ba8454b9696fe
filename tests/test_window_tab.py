"""Tab selects the next of the person's creatures in turn order; in a battle the computer plays alone
it says there is none, as the power keys do (it said nothing, and the line before stood as if it
were Tab's answer)."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Key

pytestmark = pytest.mark.usefixtures("pygame_display")


def _battle() -> tuple[Battle, int, int, int]:
    b = Battle(seed=2, width=10, height=6)
    guard = b.spawn("Guard", 1, 1, team="blue", powers=["shoot"], initiative_bonus=50)
    scout = b.spawn("Scout", 2, 4, team="blue", powers=["strike"], initiative_bonus=-50)
    bandit = b.spawn("Bandit", 8, 4, team="red", powers=["strike"])
    return b, guard, scout, bandit


def test_tab_in_a_battle_the_computer_plays_alone_says_there_is_no_creature_to_order() -> None:
    b, *_ = _battle()
    app = App(b, set())
    app.open_window(screen=pygame.Surface((1100, 700)))
    app.handle(Key("g"))  # a line of its own for Tab to replace
    assert app.ui.message == "GM view: everything shown"
    app.handle(Key("tab"))
    assert app.ui.selected is None
    assert app.ui.message == "The computer plays every side here: you have no creature to order"
    app.handle(Key("1"))
    assert app.ui.message == "The computer plays every side here: you have no creature to order"


def test_tab_selects_the_persons_creatures_in_turn_order_and_back_round() -> None:
    b, guard, scout, _ = _battle()
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface((1100, 700)))
    assert app.ui.selected == guard  # its turn: selected
    app.handle(Key("tab"))
    assert app.ui.selected == scout and app.ui.message == "Scout selected"
    app.handle(Key("tab"))
    assert app.ui.selected == guard and app.ui.message == "Guard selected"
