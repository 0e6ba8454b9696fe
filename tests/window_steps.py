"""Steps the window tests share: play on through the app's own inputs until a creature's turn, and
read what the next frame draws."""

from __future__ import annotations

import pygame
import pytest

from game import Battle
from game.play.app import App
from game.render.draw import Texts
from game.render.inputs import Key


def drawn_texts(app: App) -> list[str]:
    """The strings the next frame draws, in order (the window's text cache emptied first, so that a
    string drawn before is asked for again)."""
    drawn: list[str] = []
    real = Texts.__call__

    def spy(self: Texts, string: str, *args: object, **kwargs: object) -> pygame.Surface:
        drawn.append(string)
        return real(self, string, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Texts, "__call__", spy)
        if app.window is not None:
            app.window.renderer.texts.clear()
        app.draw()
    return drawn


def play_to_turn(app: App, entity: int) -> None:
    """Play on (Enter for the computer, Space for the person's others) until ``entity``'s turn.

    Raises:
        AssertionError: its turn did not come within 20 steps.
    """
    for _ in range(20):
        if app.battle.current_actor == entity:
            return
        app.handle(Key("return" if not app.flow.human_turn() else "space"))
    raise AssertionError("its turn never came")


def strike_and_walk_off(hero_initiative: int = -50) -> tuple[Battle, int, int]:
    """The hit-and-run the fog tests play: a wall down column 5 with a gap at (5, 2), the blue hero at
    (3, 2) and the red orc beside it at (4, 2), acting first, free to strike and walk behind the wall.
    Returns the battle, the hero and the orc."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(6):
        if y != 2:
            b.add_wall(5, y)
    hero = b.spawn("Hero", 3, 2, team="blue", powers=["strike"], health=30, initiative_bonus=hero_initiative)
    orc = b.spawn("Orc", 4, 2, team="red", powers=["strike"], initiative_bonus=50)
    return b, hero, orc
