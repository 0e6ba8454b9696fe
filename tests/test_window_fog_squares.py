"""In the turns read together, a creature not on the team is named exactly while its square is surely in
the team's sight (``game.render.sight``), whether or not it moved and whether or not the team sees it
now. Only those it did not see now, or one that moved into its sight, were judged: one over which a
darkness ended stayed someone unseen for what it did in plain sight, and one the team saw before and
after the turns was named and placed where it went out of sight between them."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _end(b: Battle) -> None:
    """A turn given by hand, the next round begun at the end of one."""
    b.end_turn()
    if b.current_actor is None:
        b.begin_round()


def _told(app: App, start: int = 0) -> list[str]:
    assert app.window is not None
    return app.window.renderer.feed.seen_lines[start:]


def test_an_enemy_a_darkness_over_it_ended_for_is_named_for_what_it_does_in_plain_sight() -> None:
    """A darkness over the lurker ends as round 3 ends; in round 4, read together with it, the lurker
    shoots the hero from where it stood all along, a square the team sees now: the log said someone
    unseen shot, and left out the darkness's end, though the team saw the mage make it."""
    b = Battle(seed=3, width=14, height=7)
    hero = b.spawn("Hero", 1, 3, team="blue", powers=["strike"], initiative_bonus=-200, health=60)
    mage = b.spawn("Mage", 12, 6, team="red", powers=["darkness"], initiative_bonus=200)
    lurker = b.spawn("Lurker", 8, 3, team="red", powers=["shoot"], initiative_bonus=100)
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    b.use_power(mage, "darkness", point=(8, 3))
    _end(b)
    _end(b)
    for _ in range(2):
        assert b.current_actor == hero
        _end(b)
        _end(b)
        _end(b)
    assert b.current_actor == hero and b.round == 3
    app.refresh()
    app.draw()
    assert lurker in app.ui.hidden
    read = len(_told(app))
    _end(b)  # round 3 ends, the darkness with it
    _end(b)
    b.use_power(lurker, "shoot", target=hero)
    _end(b)
    assert b.current_actor == hero
    app.refresh()
    app.draw()
    assert lurker not in app.ui.hidden
    told = _told(app, read)
    assert "Round 3: Mage's Darkness ends (duration over)" in told, told
    assert "Round 4: Lurker uses Shoot on Hero" in told and not any("unseen" in line for line in told), told


def test_an_enemy_seen_before_and_after_is_not_placed_where_it_went_out_of_sight_between() -> None:
    """The orc, in sight, walks behind a wall and back into sight in one turn: the log said both moves,
    with the square behind the wall the team never saw."""
    b = Battle(seed=3, width=14, height=9)
    b.spawn("Hero", 1, 4, team="blue", powers=["strike"], initiative_bonus=-200, health=60)
    orc = b.spawn("Orc", 8, 4, team="red", powers=["strike"], speed=60, initiative_bonus=100)
    for y in range(4):
        b.add_wall(9, y)
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    app.refresh()
    app.draw()
    assert orc not in app.ui.hidden and not app.ui.team_visible[11, 1]
    read = len(_told(app))
    b.move(orc, 11, 1)
    b.resolve_orders()
    assert not b.visible_squares("blue")[11, 1]
    b.move(orc, 8, 5)
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc not in app.ui.hidden
    told = [line for line in _told(app, read) if line.startswith("Round 1")]
    assert told == ["Round 1: Orc goes out of sight", "Round 1: Orc comes into sight at (8, 5)"], told


def test_what_enemies_in_plain_sight_throughout_do_between_two_effects_ending_is_named() -> None:
    """Every creature not on the team is judged by its square, so a moment neither sight covers hides
    whoever stands in it: two flights ending were counted as maybe darkening and brightening the
    team's sight (an effect's end takes its lights and areas, and these made none), and the first
    flier's end, between them, went untold though both fliers stood in plain sight."""
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["strike"], initiative_bonus=-200, health=60)
    kite = b.spawn("Kite", 5, 2, team="red", powers=["fly"], initiative_bonus=200)
    hawk = b.spawn("Hawk", 6, 3, team="red", powers=["fly"], initiative_bonus=100)
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(SIZE))
    b.use_power(kite, "fly")
    _end(b)
    b.use_power(hawk, "fly")
    _end(b)
    assert b.current_actor == hero
    app.refresh()
    app.draw()
    read = len(_told(app))
    for _ in range(6):  # the flights end with round 2
        _end(b)
    app.refresh()
    app.draw()
    told = _told(app, read)
    assert told == ["Round 2: Kite's Fly ends (duration over)", "Round 2: Hawk's Fly ends (duration over)",
                    "Round 2: Kite is no longer flying", "Round 2: Hawk is no longer flying"], told
