"""Queries about a team: a name no creature of the battle is on is refused, naming the teams there
are, instead of being read as a team that sees nothing (a misspelt ``"bleu"`` answered an empty mask)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from game import Battle, IllegalCommand
from game.play.app import App


def _two_sides() -> tuple[Battle, int, int]:
    b = Battle(seed=1, width=8, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue")
    orc = b.spawn("Orc", 5, 5, team="red")
    return b, hero, orc


@pytest.mark.parametrize("team", ["bleu", "", None, 3, "Blue"])
def test_visible_squares_of_a_team_nobody_is_on_is_refused(team):
    b, _, _ = _two_sides()
    events, log = len(b.events), len(b.command_log)
    with pytest.raises(IllegalCommand, match=r"visible_squares: no creature of this battle is on team .*; "
                                             r"its teams: blue, red"):
        b.visible_squares(team)
    assert len(b.events) == events and len(b.command_log) == log


def test_a_team_whose_creatures_are_all_dead_sees_nothing():
    b, hero, _ = _two_sides()
    assert b.visible_squares("blue").any()
    b.damage(hero, 10)
    for _ in range(5):
        b.damage(hero, 1)
    b.tick()
    assert "dead" in b.conditions(hero)
    assert not b.visible_squares("blue").any()


def test_a_battle_without_creatures_says_so():
    with pytest.raises(IllegalCommand, match="its teams: none yet"):
        Battle(seed=1, width=4, height=4).visible_squares("blue")


@pytest.mark.usefixtures("pygame_display")
def test_a_window_whose_human_team_has_no_creature_shows_nothing():
    """A scenario may name a human team and give it no creature: the window's fog asks for a team the
    battle does not know, and shows no square rather than failing."""
    b, _, _ = _two_sides()
    app = App(b, {"ghosts"})
    app.open_window(screen=pygame.Surface((1100, 700)))
    assert app.ui.visible is not None and not np.any(app.ui.visible)
