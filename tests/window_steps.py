"""Steps the window tests share: play on through the app's own inputs until a creature's turn, and
read what the next frame draws."""

from __future__ import annotations

import pygame
import pytest

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
