"""A token's drop onto its square after a fall is on the animation timeline, after the shove or walk
that led to it, at the speed setting, and Backspace ends it. It ran on the wall clock from the frame
that first saw the landing: a shoved orc dropped onto the ledge it still stood on (its shove was
laid out to play later), the drop took no notice of [ and ], and Backspace did not end it."""

from __future__ import annotations

import pygame
import pytest

from components.events import Landed, Pushed
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Click, Key

pytestmark = pytest.mark.usefixtures("pygame_display")


def _shoved(speed_keys: tuple[str, ...] = ()) -> tuple[App, int]:
    """A knight on a 30 ft ledge shoves an orc off it; the window has seen the turn, no time passed."""
    b = Battle(seed=4, width=10, height=5)
    for y in range(5):
        for x in range(4):
            b.set_ground(x, y, 30)
    b.spawn("Knight", 2, 2, team="blue", initiative_bonus=100, powers=["strike", "shove"], attack_bonus=60)
    orc = b.spawn("Orc", 3, 2, team="red", powers=["strike"], health=40)
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface((1280, 800)))
    for key in speed_keys:
        app.handle(Key(key))
    app.handle(Key("2"))
    app.handle(Click((3, 2)))
    assert any(isinstance(e, Pushed) for e in b.events), app.ui.message
    assert [e.distance_ft for e in b.events if isinstance(e, Landed) and e.entity == orc] == [30]
    app.animate()
    return app, orc


def _track_end(app: App, orc: int) -> float:
    (push,) = [t for t in app.motion.tracks if t.entity == orc]
    return push.end


def test_the_drop_follows_the_shove_on_the_animation_clock() -> None:
    app, orc = _shoved()
    assert app.ui.motion is not None and orc not in app.ui.motion.drops  # the shove plays first
    pushed_at = _track_end(app, orc)
    app.tick_clock(pushed_at + 0.01)
    assert app.ui.motion.drops[orc] > 0  # now it drops, onto the square it was shoved to
    assert app.ui.motion.positions.get(orc) is None or app.ui.motion.positions[orc] == (4.0, 2.0)
    app.tick_clock(5.0)
    assert orc not in app.ui.motion.drops


def test_backspace_ends_the_drop_and_slow_speed_draws_it_out() -> None:
    app, orc = _shoved()
    app.tick_clock(_track_end(app, orc) + 0.01)
    assert app.ui.motion.drops[orc] > 0
    app.handle(Key("backspace"))
    assert app.ui.motion.drops == {}
    normal = [d.duration for d in _shoved()[0].motion.drops]
    slow = [d.duration for d in _shoved(("[",))[0].motion.drops]
    assert len(normal) == len(slow) == 1 and slow[0] == pytest.approx(2 * normal[0])
