"""A hot seat's next team reads the turns since the other team's reading: the creatures the other team
did not see are not hidden from this one. Its own creatures, which the other team could not see, were
counted as out of sight: red's log left out what happened to its own orc. Each team reads its own log:
one log shared by the seats showed the next team what the other had seen."""

from __future__ import annotations

import pygame
import pytest

from game.ai.tactical_turn import Decision
from game.battle.facade import Battle
from game.play.app import App
from game.render.feed import EventFeed
from game.render.inputs import Key
from game.render.window import Window
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")


def _wall(b: Battle, x: int) -> None:
    """A wall down the whole of column ``x`` (the fields here are 7 rows): neither side sees past it."""
    for y in range(7):
        b.add_wall(x, y)


def _seats(b: Battle) -> tuple[App, Window]:
    """Blue and red people at one window (hot seat), on a test surface."""
    app = App(b, {"blue", "red"}, computer_delay=0.0)
    return app, app.open_window(screen=pygame.Surface((1100, 700)))


def test_a_hot_seats_next_team_reads_what_its_own_creature_did_out_of_the_other_teams_sight() -> None:
    """Blue's reading hides red's orc behind a wall; red's reading, next, is of its own orc healing itself."""
    b = Battle(seed=3, width=12, height=7)
    b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=-100, health=60)
    orc = b.spawn("Orc", 8, 3, team="red", powers=["strike", "heal"], initiative_bonus=100, health=20)
    for y in range(1, 7):
        b.add_wall(5, y)
    b.start_combat()
    b.begin_round()
    assert b.current_actor == orc
    feed = EventFeed()
    blue = b.visible_squares("blue")
    assert not blue[8, 3]
    feed.update(b, frozenset({orc}), seen=blue, team="blue")
    feed.update(b, frozenset({orc}), seen=blue, team="blue")
    read = len(feed.seen_lines)
    b.use_power(orc, "heal", target=orc)
    b.resolve_orders()
    feed.update(b, frozenset(), seen=b.visible_squares("red"), team="red")
    assert feed.seen_lines[read:] == ["Round 1: Orc uses Heal on Orc"], feed.seen_lines[read:]


def test_a_hot_seats_next_team_reads_a_computer_turn_against_its_own_creature(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blue and red people, a green computer goblin: the goblin strikes red's orc, which blue could not
    see, and red's log, read first in red's seat, said nothing of it."""
    b = Battle(seed=5, width=12, height=7)
    b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=300, health=60)
    gob = b.spawn("Goblin", 9, 3, team="green", powers=["strike"], initiative_bonus=200, health=30)
    orc = b.spawn("Orc", 8, 3, team="red", powers=["strike"], initiative_bonus=100, health=30)
    _wall(b, 5)
    plans = {gob: Decision((("use_power", (gob, "strike"), {"target": orc}),), "hit the orc")}
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, actor, *a, **k: plans[actor])
    app, window = _seats(b)
    app.refresh()
    app.draw()
    assert app.ui.sight_team == "blue" and orc in app.ui.hidden
    read = len(window.renderer.feed.seen_lines)
    app.handle(Key("space"))  # blue ends its turn
    app.refresh()
    app.draw()
    if b.current_actor == gob:
        app.handle(Key("return"))
    for _ in range(10):
        app.tick_clock(0.5)
        app.draw()
    assert app.ui.sight_team == "red" and b.current_actor == orc
    told = [line for line in window.renderer.feed.seen_lines[read:] if line.startswith("Round 1")]
    assert told == ["Round 1: Goblin uses Strike on Orc",
                    "Round 1: Goblin attacks Orc with Strike: 15 + 2 = 17 vs Defense 10: HIT",
                    "Round 1: Orc takes 6 damage from Strike (health 24)"], told


def test_a_hot_seats_next_team_does_not_read_the_other_teams_log() -> None:
    """Blue's hero walks behind a wall red cannot see past: red's seat showed the one log, "Hero (blue)
    enters at (1, 3)" and "Hero moves from (1, 3) to (2, 3)" among it, under a "?" in its turn strip."""
    from game.render.inputs import Click
    from tests.window_steps import drawn_texts

    b = Battle(seed=3, width=12, height=7)
    hero = b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=100, health=60)
    orc = b.spawn("Orc", 8, 3, team="red", powers=["strike"], initiative_bonus=-100, health=30)
    _wall(b, 5)
    app, window = _seats(b)
    app.draw()
    assert b.current_actor == hero and app.ui.sight_team == "blue"
    app.handle(Click((2, 3)))
    app.draw()
    blue_log = list(window.renderer.feed.seen_lines)
    assert "Round 1: Hero moves from (1, 3) to (2, 3) (5 ft)" in blue_log, blue_log
    app.handle(Key("space"))
    assert b.current_actor == orc and app.ui.sight_team == "red" and hero in app.ui.hidden
    drawn = drawn_texts(app)
    red_log = window.renderer.feed.seen_lines
    assert red_log and not any("Hero" in line or "(1, 3)" in line or "(2, 3)" in line for line in red_log), red_log
    assert not any("Hero" in text for text in drawn), [text for text in drawn if "Hero" in text]
    app.handle(Key("space"))  # blue's seat again, next round: its own log, as it read it
    for _ in range(5):
        if b.current_actor == hero:
            break
        app.tick_clock(1.0)
    app.draw()
    assert app.ui.sight_team == "blue" and window.renderer.feed.seen_lines[:len(blue_log)] == blue_log


def test_a_hot_seats_next_team_is_not_shown_a_light_only_the_other_team_saw_made() -> None:
    """Blue's mage lights a square behind a wall at night: red's seat drew the light's glow and torch
    there and its log said "Light fills 20 ft around (2, 3)", since what blue saw made was the fog's
    one list for every seat."""
    from components import Visibility
    from game.render.inputs import Click

    b = Battle(seed=3, width=12, height=7)
    b.set_ambient(Visibility.TERRIBLE)
    mage = b.spawn("Mage", 1, 3, team="blue", powers=["light"], initiative_bonus=100, health=60)
    b.spawn("Orc", 8, 3, team="red", powers=["strike"], initiative_bonus=-100, health=30)
    _wall(b, 5)
    app, window = _seats(b)
    app.draw()
    assert b.current_actor == mage
    app.handle(Key("1"))
    app.handle(Click((2, 3)))
    app.draw()
    assert app.ui.sight_team == "blue" and not app.ui.unseen_sources  # blue saw it made: drawn, and told where
    assert "Round 1: Light fills 20 ft around (2, 3)" in window.renderer.feed.seen_lines
    app.handle(Key("space"))
    app.draw()
    assert app.ui.sight_team == "red"
    assert app.ui.unseen_sources == frozenset({("light", 1)})  # drawn without it where red does not see
    red_log = window.renderer.feed.seen_lines
    assert "Round 1: Light fills 20 ft somewhere out of sight" in red_log
    assert not any("(2, 3)" in line for line in red_log), red_log


def _three_teams() -> tuple[App, int, int, int]:
    """A hot seat of blue and red with a computer wolf (team beasts) between them in the turn order:
    blue sees the wolf, red (behind a wall) never does."""
    b = Battle(seed=3, width=14, height=7)
    hero = b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=100, health=60)
    orc = b.spawn("Orc", 12, 3, team="red", powers=["strike"], initiative_bonus=-100, health=30)
    wolf = b.spawn("Wolf", 3, 3, team="beasts", powers=["strike"], initiative_bonus=50, health=30, speed=0)
    _wall(b, 7)
    app, _window = _seats(b)
    app.draw()
    assert b.current_actor == hero and app.ui.sight_team == "blue" and app.ui.seen_at.get(wolf) == (3, 3)
    app.handle(Key("space"))
    for _ in range(10):
        if b.current_actor == orc:
            break
        app.tick_clock(1.0)
    app.draw()
    assert b.current_actor == orc and app.ui.sight_team == "red" and wolf in app.ui.hidden
    return app, hero, orc, wolf


def test_a_hot_seats_next_team_is_not_told_the_turn_of_a_creature_only_the_other_team_saw() -> None:
    """The wolf's turn and red's seat came in one tick of the clock: the line was judged by blue's
    sight (blue saw the wolf take its turn), and red's status bar read "Wolf waits. Orc's turn: ..."."""
    app, *_ = _three_teams()
    assert "Wolf" not in app.ui.message and "Someone unseen took a turn" in app.ui.message, app.ui.message


def test_a_hot_seats_next_team_draws_no_mark_where_only_the_other_team_saw_a_creature() -> None:
    """Blue saw the wolf at (3, 3); red never did: red's seat drew the wolf's dim "?" ring there, the
    last-seen squares being one list for every seat. Blue's seat keeps its own mark of it."""
    app, hero, orc, wolf = _three_teams()
    assert wolf not in app.ui.seen_at and hero not in app.ui.seen_at, app.ui.seen_at
    drawn = drawn_texts(app)
    assert "?" not in drawn, drawn
    b = app.battle
    app.handle(Key("space"))  # blue's seat again, next round
    for _ in range(10):
        if b.current_actor == hero:
            break
        app.tick_clock(1.0)
    app.draw()
    assert app.ui.sight_team == "blue" and app.ui.seen_at.get(wolf) == (3, 3)


def test_reading_the_whole_log_leaves_the_seated_teams_log_as_its_sight_reads_it() -> None:
    """``Renderer.log_lines`` (the whole log) read through the seated team's log with no sight: red's
    seat then read "Hero is slowed" of blue's hero behind the wall."""
    b = Battle(seed=3, width=12, height=7)
    hero = b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=100, health=60)
    b.spawn("Orc", 8, 3, team="red", powers=["strike"], initiative_bonus=-100, health=30)
    _wall(b, 5)
    app, window = _seats(b)
    app.draw()
    app.handle(Key("space"))
    app.draw()
    assert app.ui.sight_team == "red" and hero in app.ui.hidden
    b.add_condition(hero, "slowed")
    assert "Round 1: Hero is slowed" in window.renderer.log_lines  # the whole log tells it
    app.draw()
    assert not any("Hero" in line for line in window.renderer.feed.seen_lines), window.renderer.feed.seen_lines


def test_a_hot_seats_next_team_is_told_where_a_darkness_fell_on_squares_it_saw_at_its_last_look() -> None:
    """Red's orc looks, blue's mage casts darkness onto the square beside it, red's seat comes again:
    red saw that square at its last look, and nothing before the darkness narrowed its sight, so it saw
    the darkness made. The fog read red's sight before only when the last reading had been red's own
    (it was blue's, the seat between): the darkness was drawn nowhere in red's seat, the orc flat-footed
    in plain-looking ground, and red's log said "Mage uses Darkness at (8, 2)" and then "Area fills
    10 ft somewhere out of sight"."""
    from game.render.inputs import Click

    b = Battle(seed=3, width=12, height=7)
    mage = b.spawn("Mage", 1, 2, team="blue", powers=["darkness"], initiative_bonus=-100, health=60)
    orc = b.spawn("Orc", 9, 2, team="red", powers=["strike"], initiative_bonus=100, health=30)
    app, window = _seats(b)
    app.draw()
    assert b.current_actor == orc and app.ui.sight_team == "red" and app.ui.team_visible[8, 2]
    app.handle(Key("space"))
    app.draw()
    assert b.current_actor == mage and app.ui.sight_team == "blue"
    app.handle(Key("1"))
    app.handle(Click((8, 2)))
    app.handle(Key("space"))
    for _ in range(5):  # round 2 begins on the window's clock: the orc's turn, red's seat
        if b.current_actor == orc:
            break
        app.tick_clock(1.0)
    app.draw()
    assert b.current_actor == orc and app.ui.sight_team == "red" and not app.ui.team_visible[8, 2]
    assert app.ui.unseen_sources == frozenset()  # drawn in red's seat, where red saw it fall
    red_log = window.renderer.feed.seen_lines
    assert "Round 1: Area fills 10 ft around (8, 2)" in red_log, red_log
    assert not any("somewhere out of sight" in line for line in red_log), red_log
