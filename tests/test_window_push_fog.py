"""A shove's odds must not give away a hidden enemy: the window's forecast counts the creatures the
person's team cannot see as absent (``battle.forecast(..., unseen=...)``, as ``forecast_move`` does),
so a push that one of them would stop short reads as if its square were free; the shove itself, when
used, still stops against it."""

from __future__ import annotations

import pygame
import pytest
from window_steps import play_to_turn

from components import Position
from game.battle.errors import UnknownEntity
from game.battle.facade import Battle
from game.play.app import App
from game.render import odds
from game.render.inputs import Hover, Key

pytestmark = pytest.mark.usefixtures("pygame_display")


def _shove_at_a_hidden_one(hidden_behind: bool) -> tuple[Battle, int, int, int | None]:
    """A mage beside a guard; behind the guard, where the shove would push it, a lurker in a square
    of no vision (radius 0), or nobody."""
    b = Battle(seed=1, width=10, height=5)
    mage = b.spawn("Mage", 2, 2, team="blue", powers=["shove"], initiative_bonus=50)
    guard = b.spawn("Guard", 3, 2, team="red", health=40)
    lurker = None
    if hidden_behind:
        lurker = b.spawn("Lurker", 4, 2, team="red", health=40)
        b.add_area(4, 2, 0, "no vision")
    return b, mage, guard, lurker


def test_the_battle_forecasts_a_push_as_a_player_who_cannot_see_the_blocker_is_told_it() -> None:
    b, mage, guard, lurker = _shove_at_a_hidden_one(True)
    b.start_combat()
    assert lurker is not None and not b.visible_squares("blue")[4, 2]
    assert b.forecast(mage, "shove", target=guard).targets[0].pushed_to == (3, 2)  # the battle as it is
    told = b.forecast(mage, "shove", target=guard, unseen=[lurker]).targets[0].pushed_to
    clear, cmage, cguard, _ = _shove_at_a_hidden_one(False)
    clear.start_combat()
    assert told == clear.forecast(cmage, "shove", target=cguard).targets[0].pushed_to == (5, 2)
    assert b.get(lurker, Position).square == (4, 2)  # nothing moved, and the square index is back
    assert b.forecast(mage, "shove", target=guard).targets[0].pushed_to == (3, 2)
    with pytest.raises(UnknownEntity, match="no creature with id 'lurker'"):
        b.forecast(mage, "shove", target=guard, unseen=["lurker"])


def test_the_windows_shove_odds_do_not_show_where_a_hidden_enemy_stands() -> None:
    b, mage, guard, lurker = _shove_at_a_hidden_one(True)
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface((1100, 700)))
    play_to_turn(app, mage)
    assert lurker in app.ui.hidden
    app.handle(Key("1", text="1"))
    app.handle(Hover((3, 2)))
    forecast = app.ui.forecast
    assert forecast is not None and forecast.targets[0].pushed_to == (5, 2)
    lines = odds.forecast_lines(forecast, "Shove", b.name, lambda e: e not in app.ui.hidden)
    text = " ".join(line for line, _ in lines)
    assert "pushed to (5, 2)" in text and "Lurker" not in text
