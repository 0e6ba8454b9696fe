"""Fog of war in the team's log: an enemy the team watches aim a use at a square out of its sight is
told using it "somewhere out of sight" (its log line named the square: "Mage uses Blink at (7, 5)"
then "Mage goes out of sight" told where it went), and an order of an enemy the rules refused is told
without the battle's reason, which may name a square or a creature out of sight. The GM's log keeps
every word."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ai.tactical_turn import Decision
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Key

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _behind_a_wall(monkeypatch: pytest.MonkeyPatch, power: str, *commands: tuple[Any, ...], played: bool = True,
                   start: tuple[int, int] = (3, 1)) -> tuple[Battle, App, int]:
    """The hero at (1, 5) sees the mage at (3, 1) but not (7, 5) nor (8, 5), behind a wall down column 4
    from row 4; the mage has ``power`` and, on its turn (Enter), gives ``commands`` (``mage`` stands for
    its id); ``played``: the window's clock then runs on until its animations are over; ``start``: where
    the mage stands (out of sight at (7, 5))."""
    b = Battle(seed=3, width=14, height=7)
    b.spawn("Hero", 1, 5, team="blue", powers=["strike"], initiative_bonus=-200)
    mage = b.spawn("Mage", *start, team="red", powers=[power], initiative_bonus=200)
    for y in range(4, 7):
        b.add_wall(4, y)
    plan = tuple((name, tuple(mage if a == "mage" else a for a in args), kwargs) for name, args, kwargs in commands)
    monkeypatch.setattr("game.ai.policy.decide",
                        lambda battle, actor, *a, **k: Decision(plan if actor == mage else (), "aim"))
    app = App(b, {"blue"}, computer_delay=0.0)
    app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    seen = app.ui.team_visible
    assert (mage in app.ui.hidden) == (start == (7, 5)) and not seen[7, 5] and not seen[8, 5] and seen[2, 3]
    app.handle(Key("return"))  # the mage's turn
    if played:
        for _ in range(6):
            app.tick_clock(0.5)
            app.draw()
    return b, app, mage


def _told(app: App) -> tuple[list[str], list[str]]:
    """The team's log and the GM's, from round 1 on."""
    assert app.window is not None
    feed = app.window.renderer.feed
    return ([line for line in feed.seen_lines if line.startswith("Round 1")],
            [line for line in feed.lines if line.startswith("Round 1")])


def test_a_blink_to_a_square_out_of_sight_does_not_say_where_the_enemy_went(monkeypatch: pytest.MonkeyPatch) -> None:
    b, app, mage = _behind_a_wall(monkeypatch, "blink", ("use_power", ("mage", "blink"), {"point": (7, 5)}))
    assert b.square_of(mage) == (7, 5) and mage in app.ui.hidden
    told, gm = _told(app)
    assert told == ["Round 1: Mage uses Blink somewhere out of sight", "Round 1: Mage goes out of sight"], told
    assert "Round 1: Mage uses Blink at (7, 5)" in gm, gm


def test_a_blink_out_of_sight_is_not_drawn_gliding_toward_where_it_went(monkeypatch: pytest.MonkeyPatch) -> None:
    """The token glided from (3, 1) a third of the way to (7, 5), over squares the team sees, before it
    went out of sight: which way it went was there to read."""
    _, app, mage = _behind_a_wall(monkeypatch, "blink", ("use_power", ("mage", "blink"), {"point": (7, 5)}),
                                  played=False)
    drawn = []
    for _ in range(40):
        app.animate()
        drawn.append(app.ui.motion.positions.get(mage))
        app.motion.advance(0.01)
    assert all(at is None or at == (3.0, 1.0) for at in drawn), drawn


def test_a_blink_from_out_of_sight_is_not_drawn_gliding_in_from_where_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mirror case: hidden at (7, 5), the mage blinks to (3, 1), in sight. Its token was drawn at
    (5.0, 3.0), (4.33, 2.33), (3.67, 1.67): it slid in from the direction of the square where it had
    been out of sight. It is drawn at (3, 1) alone, and the team's log names no square it left."""
    b, app, mage = _behind_a_wall(monkeypatch, "blink", ("use_power", ("mage", "blink"), {"point": (3, 1)}),
                                  played=False, start=(7, 5))
    drawn = []
    for _ in range(40):
        app.animate()
        drawn.append(app.ui.motion.positions.get(mage))
        app.motion.advance(0.01)
    assert b.square_of(mage) == (3, 1) and mage not in app.ui.hidden
    assert all(at is None or at == (3.0, 1.0) for at in drawn), drawn
    for _ in range(6):
        app.tick_clock(0.5)
        app.draw()
    told, _ = _told(app)
    assert told == ["Round 1: Mage comes into sight at (3, 1)"], told


def test_a_darkness_aimed_out_of_sight_is_not_placed_by_the_line_of_its_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Mage uses Darkness at (8, 5)" came just before "Area fills 10 ft somewhere out of sight"."""
    _, app, _ = _behind_a_wall(monkeypatch, "darkness", ("use_power", ("mage", "darkness"), {"point": (8, 5)}))
    told, gm = _told(app)
    assert told == ["Round 1: Mage uses Darkness somewhere out of sight",
                    "Round 1: Area fills 10 ft somewhere out of sight"], told
    assert "Round 1: Mage uses Darkness at (8, 5)" in gm, gm


def test_a_use_aimed_at_a_square_in_sight_still_says_where(monkeypatch: pytest.MonkeyPatch) -> None:
    _, app, _ = _behind_a_wall(monkeypatch, "blink", ("use_power", ("mage", "blink"), {"point": (2, 3)}))
    told, _ = _told(app)
    assert told[0] == "Round 1: Mage uses Blink at (2, 3)", told


def test_an_enemys_refused_order_is_told_without_the_battles_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mage's move to (8, 5) is checked when given; a spy the GM puts there before it resolves has it
    refused. The reason, "square (8, 5) is taken by another creature", told the team where it could not
    see and that someone stood there."""
    b, app, _ = _behind_a_wall(monkeypatch, "blink", ("move", ("mage", 8, 5), {}),
                               ("spawn", ("Spy", 8, 5), {"team": "red"}))
    told, gm = _told(app)
    assert told == ["Round 1: Mage cannot move: the rules refused its order"], told
    assert "Round 1: Mage cannot move to (8, 5): square (8, 5) is taken by another creature" in gm, gm
