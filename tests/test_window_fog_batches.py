"""Several computer turns read at once (Enter): the team's sight before them holds only until something
may have narrowed it, its sight after them only once nothing may widen it. Counting a square seen
before the turns as seen for all of them named an enemy the team never saw, which walked into a
darkness cast over squares the team had seen, and drew the light it cast there on its square."""

from __future__ import annotations

from typing import Any

import numpy as np
import pygame
import pytest

from components.events import (
    AreaCreated,
    ConditionGained,
    ConditionLost,
    Died,
    Downed,
    EffectEnded,
    Fell,
    MapChanged,
    Moved,
    TurnStarted,
)
from game.ai.tactical_turn import Decision
from game.battle.facade import Battle
from game.play.app import App
from game.render.feed import EventFeed, out_of_sight
from game.render.inputs import Key
from game.render.sight import changes, sure_sight, veils_of

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _lurker(monkeypatch: pytest.MonkeyPatch, light: bool) -> tuple[Battle, App, int]:
    """The hero sees (5, 2) and (5, 3); a lurker behind a wall at (6, 3) does not show. In one Enter the
    mage casts darkness at (5, 3), then the lurker walks into it at (5, 2) (and casts a light there)."""
    b = Battle(seed=3, width=12, height=7)
    b.spawn("Hero", 0, 3, team="blue", powers=["strike"], initiative_bonus=-200)
    mage = b.spawn("Mage", 3, 6, team="red", powers=["darkness"], initiative_bonus=200)
    lurker = b.spawn("Lurker", 7, 3, team="red", powers=["strike", "sanctuary-light"], initiative_bonus=100)
    b.add_wall(6, 3)
    creep: tuple[Any, ...] = (("move", (lurker, 5, 2), {}),)
    if light:
        creep += (("resolve_orders", (), {}), ("use_power", (lurker, "sanctuary-light"), {}))
    plans = {mage: Decision((("use_power", (mage, "darkness"), {"point": (5, 3)}),), "dark"),
             lurker: Decision(creep, "creep")}
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, actor, *a, **k: plans[actor])
    app = App(b, {"blue"}, computer_delay=0.0)
    app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert lurker in app.ui.hidden and app.ui.team_visible[5, 2] and app.ui.team_visible[5, 3]
    app.handle(Key("return"))  # the mage's turn and the lurker's, read together
    for _ in range(20):
        app.tick_clock(0.5)
        app.draw()
    assert b.square_of(lurker) == (5, 2) and lurker in app.ui.hidden and not app.ui.team_visible[5, 2]
    return b, app, lurker


def _told(app: App) -> list[str]:
    assert app.window is not None
    return [line for line in app.window.renderer.feed.seen_lines if line.startswith("Round 1")]


def test_an_enemy_never_seen_that_walks_into_a_darkness_over_squares_seen_before_is_not_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The log said 'Lurker comes into sight at (5, 2)': the square was seen before the mage's darkness,
    not when the lurker stepped onto it. The darkness, whose centre the team saw made, is still told."""
    _, app, _ = _lurker(monkeypatch, light=False)
    told = _told(app)
    assert told == ["Round 1: Mage uses Darkness at (5, 3)", "Round 1: Area fills 10 ft around (5, 3)"], told
    assert ("area", 1, 5, 3) in app.fog.witnessed


def test_a_light_an_enemy_never_seen_casts_in_a_darkness_over_squares_seen_before_is_not_placed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The lurker's light around itself counted as made in the team's sight (its sight before the mage's
    darkness): it was drawn whole, and the log said 'Light fills 15 ft around (5, 2)', the lurker's
    square, and named the lurker casting it."""
    b, app, _ = _lurker(monkeypatch, light=True)
    (light_id,) = b.terrain.lights
    assert ("light", light_id) in app.ui.unseen_sources
    assert not any(kind == "light" for kind, *_ in app.fog.witnessed), app.fog.witnessed
    told = _told(app)
    assert "Round 1: Light fills 15 ft somewhere out of sight" in told, told
    assert not any("Lurker" in line or "(5, 2)" in line for line in told), told


def test_an_enemy_seen_before_a_darkness_fell_over_it_is_unseen_from_then_on() -> None:
    """An orc the team saw before the turns read together stays named only while its square is surely
    in sight: once a darkness falls over it, what it does there (a heal on itself) is not the team's to read."""
    b = Battle(seed=3, width=12, height=6)
    b.spawn("Hero", 2, 2, team="blue", powers=["strike"], health=30, initiative_bonus=-50)
    orc = b.spawn("Orc", 5, 2, team="red", powers=["heal"], initiative_bonus=40)
    shaman = b.spawn("Shaman", 9, 4, team="red", powers=["darkness"], initiative_bonus=80)
    app = App(b, {"blue"}, computer_delay=0)
    assert app.window is None
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert b.current_actor == shaman and orc not in app.ui.hidden
    b.use_power(shaman, "darkness", point=(6, 2))  # two computer turns, given by hand and read together
    b.end_turn()
    b.use_power(orc, "heal", target=orc)
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc in app.ui.hidden
    told = [line for line in window.renderer.feed.seen_lines if line.startswith("Round 1")]
    assert "Round 1: Shaman uses Darkness at (6, 2)" in told, told
    assert not any("Orc" in line or "Heal" in line for line in told), told


def test_each_moment_gets_the_sight_before_until_it_may_narrow_and_the_sight_after_once_it_cannot_widen() -> None:
    """The masks sure_sight gives, and what out_of_sight makes of them for a creature stepping in."""
    ours = {1}.__contains__
    before = np.zeros((4, 1), dtype=bool)
    after = np.zeros((4, 1), dtype=bool)
    before[0, 0] = before[1, 0] = True
    after[1, 0] = after[2, 0] = True
    dark = AreaCreated(1, 1, "area", 0, 0, 5.0, "darkness")
    light = AreaCreated(1, 2, "light", 2, 0, 5.0, "bright")
    assert changes(dark, ours) == (True, False) and changes(light, ours) == (False, True)
    assert changes(Moved(1, 2, (0, 0), (1, 0), 5, 0.0), ours) == (False, False)  # another team's walk
    assert changes(Moved(1, 1, (0, 0), (1, 0), 5, 0.0), ours) == (True, True)  # the team's own
    assert changes(TurnStarted(1, 1), ours) == (False, False)
    sights = sure_sight([dark, light], ours, before, after)
    assert sights is not None
    assert [list(s[:, 0]) for s in sights] == [
        [True, True, False, False],  # before the darkness: the sight before (a light is still to come)
        [False, False, False, False],  # between: neither holds for sure
        [False, True, True, False],  # after the light: the sight now
    ]
    walk = [dark, Moved(1, 2, (3, 0), (0, 0), 5, 0.0), light]
    out = out_of_sight(walk, frozenset({2}), sure_sight(walk, ours, before, after), {2: (3, 0)})
    assert out == [frozenset({2})] * 4  # onto a square seen only before the darkness: never in sight


def test_a_walk_the_team_watched_begin_is_not_drawn_over_squares_a_later_light_showed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A dark map: the hero's torch shows the orc at (3, 3); in one Enter the orc walks off east through
    the dark to hide behind a wall, then the mage lights the squares it crossed. The animation laid out
    the walk (the team saw it begin) and drew the token over every square in sight now, giving away
    its way through squares that were dark when it crossed them."""
    b = Battle(seed=3, width=16, height=7)
    b.set_ambient("no vision")
    b.add_light(1, 3, 10)  # the hero's torch
    b.add_light(8, 6, 5)  # the mage's, beyond the dark
    for y in range(3):
        b.add_wall(9, y)
    b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=-200)
    orc = b.spawn("Orc", 3, 3, team="red", powers=["strike"], initiative_bonus=200, speed=60)
    mage = b.spawn("Mage", 8, 5, team="red", powers=["light"], initiative_bonus=100)
    plans = {orc: Decision((("move", (orc, 10, 1), {}),), "sneak"),
             mage: Decision((("use_power", (mage, "light"), {"point": (8, 5)}),), "lit")}
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, actor, *a, **k: plans[actor])
    app = App(b, {"blue"}, computer_delay=0.0)
    app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert orc not in app.ui.hidden and not app.ui.team_visible[5, 3]
    app.handle(Key("return"))
    drawn = []
    for _ in range(40):
        app.draw()
        at = app.ui.motion.positions.get(orc)
        if at is not None:
            drawn.append(at)
        app.tick_clock(0.05)
    assert orc in app.ui.hidden and all(app.ui.team_visible[x, 3] for x in range(4, 9))
    assert drawn and all(x < 3.5 for x, _ in drawn), drawn  # only while in the torch's light
    told = _told(app)
    assert "Round 1: Orc goes out of sight" in told and not any("(10, 1)" in line for line in told), told


def test_a_hot_seats_next_team_reads_nothing_by_the_sight_the_other_team_had() -> None:
    """Two people at one window: what the blue team saw at the last reading is not the red team's. A
    hero red never saw, acting where blue saw it, was named in the log as red read it."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(6):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["heal"], initiative_bonus=80)
    b.spawn("Orc", 8, 2, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    feed = EventFeed()
    blue, red = b.visible_squares("blue"), b.visible_squares("red")
    assert blue[2, 2] and not red[2, 2]
    orc = next(e for e in b.creatures() if e != hero)
    feed.update(b, frozenset({orc}), seen=blue, team="blue")
    feed.update(b, frozenset({orc}), seen=blue, team="blue")  # (watching: the next reading is of this record)
    read = len(feed.seen_lines)
    b.use_power(hero, "heal", target=hero)
    b.resolve_orders()
    feed.update(b, frozenset({hero}), seen=red, team="red")
    assert len(b.events) > 0 and not any("Hero" in line for line in feed.seen_lines[read:]), feed.seen_lines[read:]


def test_what_an_enemy_did_out_of_sight_before_it_walked_into_sight_is_not_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A lurker behind a wall casts a light around itself there, then walks round the wall into the
    hero's sight: the log named it casting the light, which the team did not see, before it came into
    sight."""
    b = Battle(seed=3, width=12, height=7)
    b.spawn("Hero", 0, 3, team="blue", powers=["strike"], initiative_bonus=-200)
    lurker = b.spawn("Lurker", 8, 3, team="red", powers=["strike", "sanctuary-light"], initiative_bonus=100)
    for y in range(6):
        b.add_wall(7, y)
    plan = Decision((("use_power", (lurker, "sanctuary-light"), {}), ("resolve_orders", (), {}),
                     ("move", (lurker, 7, 6), {})), "lit, then round the wall")
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, actor, *a, **k: plan)
    app = App(b, {"blue"}, computer_delay=0.0)
    app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert lurker in app.ui.hidden
    app.handle(Key("return"))
    app.draw()
    assert lurker not in app.ui.hidden
    assert _told(app) == ["Round 1: Light fills 15 ft somewhere out of sight",
                          "Round 1: Lurker comes into sight at (7, 6)"], _told(app)


def test_only_what_the_rules_read_of_sight_changes_a_teams_sight() -> None:
    """``changes`` against ``systems.visibility`` and ``Battle.visible_squares``: a team's sight reads
    the map's lights, areas and walls, and its living creatures' squares and their blinded or dazzled."""
    ours = {1}.__contains__
    assert changes(ConditionGained(1, 1, "prone", "fall"), ours) == (False, False)
    assert changes(ConditionGained(1, 1, "blinded", "blind"), ours) == (True, False)
    assert changes(ConditionLost(1, 1, "dazzled", "dazzle"), ours) == (False, True)
    assert changes(ConditionGained(1, 2, "blinded", "blind"), ours) == (False, False)  # another team's
    assert changes(Downed(1, 1), ours) == (False, False) and changes(Died(1, 1), ours) == (True, False)
    assert changes(Fell(1, 1, 10.0, 0.0), ours) == (False, False)  # (a fall changes only the height)
    assert changes(Moved(1, 1, (0, 0), (1, 0), 5, 0.0), ours) == (True, True)
    assert changes(MapChanged(1, "wall", 0, 0), ours) == (True, True)
    ended = EffectEnded(1, 7, "darkness", 2, "duration over")
    assert changes(ended, ours) == (True, True)  # (not told what it made: it may have made anything)
    assert changes(ended, ours, {}) == (False, False)
    assert changes(ended, ours, {7: frozenset({"area"})}) == (False, True)
    assert changes(ended, ours, {7: frozenset({"light"})}) == (True, False)
    assert changes(object(), ours) == (True, True)  # an event the window does not know may do anything
    b = Battle(seed=3, width=8, height=5)
    b.spawn("Hero", 1, 2, team="blue", powers=["strike"], initiative_bonus=-200)
    mage = b.spawn("Mage", 5, 2, team="red", powers=["darkness", "light", "dazzle"], initiative_bonus=200)
    b.start_combat()
    b.begin_round()
    b.use_power(mage, "darkness", point=(5, 2))
    b.resolve_orders()
    made = veils_of(b.events)
    assert list(made.values()) == [frozenset({"area"})], made  # (a darkness: its end may only widen)
