"""Steps the window tests share: play on through the app's own inputs until a creature's turn."""

from __future__ import annotations

from game.play.app import App
from game.render.inputs import Key


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
