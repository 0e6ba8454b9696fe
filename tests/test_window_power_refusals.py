"""Choosing a power the creature cannot use now, whatever it aims at (surprised, its action spent),
says why at once and leaves no power chosen: it used to be chosen, with "hover a target for the
odds", and every square the mouse then tried read "cannot"."""

from __future__ import annotations

import pygame
import pytest
from window_steps import play_to_turn

from components import Position
from game.battle.errors import IllegalCommand
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Click, Hover, Key

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def test_a_surprised_creature_is_told_so_when_it_chooses_a_power() -> None:
    b = Battle(seed=2, width=10, height=6)
    guard = b.spawn("Guard", 1, 1, team="blue", powers=["shoot"], prepared=False)
    b.spawn("Bandit", 8, 4, team="red", powers=["strike"])
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, guard)
    assert "surprised" in b.conditions(guard)
    app.handle(Key("1"))
    assert app.ui.power is None
    assert app.ui.message == "Guard cannot use Shoot: it is surprised and cannot use powers this round"


def test_a_spent_action_is_told_when_the_next_power_is_chosen() -> None:
    b = Battle(seed=2, width=10, height=6)
    mage = b.spawn("Mage", 1, 1, team="blue", powers=["shoot", "burning-hands", "fly"])
    orc = b.spawn("Orc", 5, 1, team="red", powers=["strike"])
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, mage)
    square = b.get(orc, Position).square  # (wherever its turn took it)
    app.handle(Key("1"))
    app.handle(Hover(square))
    app.handle(Click(square))  # the shot: its action
    assert app.ui.message.startswith("Mage used Shoot"), app.ui.message
    app.handle(Key("2"))
    assert app.ui.power is None
    assert app.ui.message == "Mage cannot use Burning hands: it has already used its action this round"
    app.handle(Key("3"))  # a bonus action is still there
    assert app.ui.power == "fly"
    assert b.power_problem(mage, "fly") is None and "action" in (b.power_problem(mage, "burning-hands") or "")
    with pytest.raises(IllegalCommand, match="unknown power 'lamp'"):
        b.power_problem(mage, "lamp")


def test_a_power_after_a_move_that_leaves_it_falling_is_refused_when_chosen() -> None:
    """``power_problem`` says what ``use_power`` would: after a queued move off a 900 ft ledge the
    creature is still falling when its next order resolves (it once said the power was usable, and
    every square then read "cannot")."""
    b = Battle(seed=1, width=8, height=4)
    b.set_ground(0, 0, 900)
    archer = b.spawn("A", 0, 0, team="x", powers=["shoot"])
    foe = b.spawn("E", 5, 0, team="y")
    b.start_combat()
    b.move(archer, 1, 0)
    problem = b.power_problem(archer, "shoot")
    assert problem is not None and problem.startswith("it will be falling after its move to (1, 0)")
    with pytest.raises(IllegalCommand, match=r"cannot use Shoot: it will be falling after its move to \(1, 0\)"):
        b.use_power(archer, "shoot", target=foe)


def test_a_surprised_creature_falling_after_its_move_hears_the_fall_first_as_use_power_says() -> None:
    """Two reasons at once: ``power_problem`` gives the one ``use_power`` and ``forecast`` give (the
    fall), so the window says one reason when the power is chosen and the same when it is used."""
    b = Battle(seed=1, width=8, height=4)
    b.set_ground(0, 0, 2000)
    archer = b.spawn("A", 0, 0, team="x", powers=["shoot"], prepared=False)
    foe = b.spawn("E", 5, 0, team="y")
    b.start_combat()
    assert "surprised" in b.conditions(archer)
    b.move(archer, 1, 0)
    problem = b.power_problem(archer, "shoot")
    assert problem is not None and problem.startswith("it will be falling after its move to (1, 0)")
    assert b.forecast(archer, "shoot", target=foe).problem == problem
    with pytest.raises(IllegalCommand, match=r"cannot use Shoot: it will be falling after its move to \(1, 0\)"):
        b.use_power(archer, "shoot", target=foe)


def test_a_power_key_in_a_battle_the_computer_plays_alone_says_there_is_nothing_to_order() -> None:
    """With the computer on every side (the demo), 1-9 said "Select one of your creatures first", and
    there was none to select."""
    b = Battle(seed=2, width=10, height=6)
    b.spawn("Guard", 1, 1, team="blue", powers=["shoot"])
    b.spawn("Bandit", 8, 4, team="red", powers=["strike"])
    app = App(b, set())
    app.open_window(screen=pygame.Surface(SIZE))
    app.handle(Key("1"))
    assert app.ui.power is None
    assert app.ui.message == "The computer plays every side here: you have no creature to order"
