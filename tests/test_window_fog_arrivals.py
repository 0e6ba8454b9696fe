"""An enemy that walks out of the fog into the team's sight: the team's log says where it came into
sight, not the square it set off from (nor the feet it walked there), which the team did not see."""

from __future__ import annotations

import pygame
import pytest
from window_steps import play_to_turn, strike_and_walk_off

from components.events import Moved
from game.battle.facade import Battle
from game.play.app import App
from game.render.feed import EventFeed, told_as_seen
from game.render.inputs import Key

SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _behind_a_wall() -> tuple[Battle, int, int]:
    """A hero west of a wall with a gap at its south end, an orc east of it: unseen."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(5):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 8, 1, team="red", powers=["strike"], speed=40)
    return b, hero, orc


def test_a_move_out_of_the_fog_is_told_from_where_it_came_into_sight() -> None:
    b, hero, orc = _behind_a_wall()
    app = App(b, {"blue"})
    feed = EventFeed()
    feed.update(b, app.ui.hidden)
    assert orc in app.ui.hidden
    play_to_turn(app, hero)
    app.handle(Key("space"))
    play_to_turn(app, orc)
    b.move(orc, 5, 5)  # the computer's turn, given by hand: round the wall's end, into the hero's sight
    b.end_turn()
    app.refresh()
    assert orc not in app.ui.hidden
    feed.update(b, app.ui.hidden)
    told = "\n".join(feed.seen_lines)
    assert "Orc comes into sight at (5, 5)" in told
    assert "(8, 1)" not in told and "moves from" not in told
    assert any("Orc moves from (8, 1) to (5, 5)" in line for line in feed.lines)  # the GM's log has it all


def test_a_move_the_team_saw_start_is_told_whole() -> None:
    b, hero, orc = _behind_a_wall()
    b.remove_wall(5, 1)  # the hero sees the orc from the start
    app = App(b, {"blue"})
    feed = EventFeed()
    feed.update(b, app.ui.hidden)
    assert orc not in app.ui.hidden
    play_to_turn(app, hero)
    app.handle(Key("space"))
    play_to_turn(app, orc)
    b.move(orc, 6, 1)
    b.end_turn()
    app.refresh()
    feed.update(b, app.ui.hidden)
    assert any("Orc moves from (8, 1) to (6, 1) (10 ft)" in line for line in feed.seen_lines)


def test_what_the_gm_view_showed_stays_out_of_the_teams_log() -> None:
    """The GM view (G) shows everything and the GM's log; back in the team's view, the team's log
    has nothing about the enemies it did not see while the GM looked."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(6):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 9, 2, team="red", powers=["strike"])
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    play_to_turn(app, hero)
    app.handle(Key("g"))
    assert app.ui.gm_view and not app.ui.hidden
    app.draw()
    app.handle(Key("space"))
    play_to_turn(app, orc)
    b.move(orc, 9, 4)  # behind the wall, where the hero cannot see it
    b.end_turn()
    app.refresh()
    app.draw()  # a frame of the GM view: the GM's log tells the move
    app.handle(Key("g"))
    app.draw()
    assert orc in app.ui.hidden
    feed = window.renderer.feed
    assert any("Orc moves" in line for line in feed.lines)
    assert not any("Orc" in line for line in feed.seen_lines), feed.seen_lines


def _moved_to(goal: tuple[int, int]) -> tuple[Battle, int, int]:
    """The hero's first move, to ``goal``: from (1, 1) it sees the orc over the wall's end, from
    (1, 4) not. Either battle has the same number of events, moves and commands."""
    b = Battle(seed=5, width=12, height=6)
    for y in range(2, 6):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"], speed=40)
    orc = b.spawn("Orc", 8, 1, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    b.move(hero, *goal)
    b.resolve_orders()
    return b, hero, orc


def test_a_loaded_battle_is_shown_with_its_own_fog() -> None:
    """A save of one choice loaded over another made as far into the battle (Ctrl+L after F5 and a
    different move): the fog is the loaded battle's, not the one it replaced."""
    seeing, _, orc = _moved_to((1, 1))
    blind, _, _ = _moved_to((1, 4))
    assert len(seeing.events) == len(blind.events) and len(seeing.command_log) == len(blind.command_log)
    app = App(seeing, {"blue"})
    assert orc not in app.ui.hidden
    app.replace_battle(blind)
    assert (app.ui.visible == blind.visible_squares("blue")).all()
    assert orc in app.ui.hidden


def test_a_way_round_in_two_legs_comes_into_sight_where_its_last_leg_ends() -> None:
    """The computer walks a way round in two moves; the team's log said it came into sight at the
    first leg's end, in the fog, then told the second leg from there: now one line, at the end."""
    b = Battle(seed=1, width=12, height=3)
    b.spawn("Hero", 0, 1, team="a")
    orc = b.spawn("Orc", 11, 1, team="b")
    b.start_combat()
    b.move(orc, 9, 1)
    b.move(orc, 7, 1)
    b.tick()
    lines = [line for line in told_as_seen(b, b.events, {}, frozenset({orc})) if line.startswith("Round 1: Orc")]
    assert lines == ["Round 1: Orc comes into sight at (7, 1)"]


def test_a_hit_and_run_out_of_darkness_names_the_striker_the_team_watched() -> None:
    """An orc in a square of darkness steps out beside the knight, strikes and steps back in: out of
    sight before and after its turn, it was logged as someone unseen who struck, though the team
    watched it step out and strike. Now it comes into sight where it stepped, and goes out of sight."""
    b = Battle(seed=3, width=10, height=5)
    knight = b.spawn("Knight", 3, 2, team="blue", powers=["strike"], health=30, initiative_bonus=50)
    orc = b.spawn("Orc", 5, 2, team="red", powers=["strike"])
    b.add_area(5, 2, 0, "no vision")
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert orc in app.ui.hidden and app.ui.visible[4, 2]
    app.handle(Key("space"))
    assert b.current_actor == orc
    b.move(orc, 4, 2)  # the computer's turn, given by hand
    b.use_power(orc, "strike", target=knight)
    b.move(orc, 5, 2)
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc in app.ui.hidden
    told = [line for line in window.renderer.feed.seen_lines if line.startswith("Round 1")]
    assert told[0] == "Round 1: Orc comes into sight at (4, 2)"
    assert "Round 1: Orc attacks Knight with Strike" in "\n".join(told)
    assert told[-1] == "Round 1: Orc goes out of sight"
    assert not any("unseen" in line or "(5, 2)" in line for line in told), told


def test_coming_into_sight_before_the_first_round_says_setup_as_every_log_line_does() -> None:
    """The fog's own lines spelt the round prefix again, without the setup's: "Round 0: Orc comes into
    sight" where the log says "Setup: "."""
    b = Battle(seed=1, width=12, height=3)
    orc = b.spawn("Orc", 7, 1, team="b")
    moved = Moved(0, orc, (11, 1), (7, 1), 20, 0.0)
    assert told_as_seen(b, [moved], {}, frozenset({orc})) == ["Setup: Orc comes into sight at (7, 1)"]
    seen = told_as_seen(b, [moved, moved], {}, frozenset(), out=[frozenset({orc}), frozenset(), frozenset({orc})])
    assert seen == ["Setup: Orc comes into sight at (7, 1)", "Setup: Orc goes out of sight"]


def test_an_enemy_that_strikes_in_sight_and_walks_into_the_fog_is_named_for_the_blow() -> None:
    """An orc the team sees strikes the hero and walks behind a wall in the same turn: the team
    watched the blow, but the log read the turn once the orc was out of sight and said someone
    unseen struck, and nothing of its walk away. Now it is named, and it goes out of sight."""
    b, hero, orc = strike_and_walk_off()
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert b.current_actor == orc and orc not in app.ui.hidden
    b.use_power(orc, "strike", target=hero)  # the computer's turn, given by hand
    b.move(orc, 6, 0)
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc in app.ui.hidden
    told = [line for line in window.renderer.feed.seen_lines if line.startswith("Round 1")]
    assert told[0] == "Round 1: Orc uses Strike on Hero"
    assert told[-1] == "Round 1: Orc goes out of sight"
    assert not any("unseen" in line or "(6, 0)" in line for line in told), told


def test_the_first_reading_of_the_log_names_no_creature_out_of_sight() -> None:
    """The first frame reads the whole record (spawns, initiative): a creature out of sight then was
    never seen, so it is not named, though no earlier reading said it was out of sight."""
    b, _, orc = _behind_a_wall()
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert orc in app.ui.hidden
    assert not any("Orc" in line for line in window.renderer.feed.seen_lines), window.renderer.feed.seen_lines


def test_a_blow_the_team_watched_before_a_later_turn_darkened_the_square_is_named() -> None:
    """Enter plays the computer's turns at once and the log reads them together, with the team's
    sight after them: an orc walked up to the hero and struck in plain sight, then the shaman's
    darkness fell over both, and the log said someone unseen struck. A square the team saw before
    these turns or after them counts as seen."""
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["strike"], health=30, initiative_bonus=-50)
    orc = b.spawn("Orc", 8, 2, team="red", powers=["strike"], initiative_bonus=80)
    shaman = b.spawn("Shaman", 9, 4, team="red", powers=["darkness"], initiative_bonus=40)
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.draw()
    assert b.current_actor == orc and orc not in app.ui.hidden
    b.move(orc, 3, 2)  # two computer turns, given by hand and read together
    b.use_power(orc, "strike", target=hero)
    b.end_turn()
    b.use_power(shaman, "darkness", point=(3, 2))
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc in app.ui.hidden
    told = [line for line in window.renderer.feed.seen_lines if line.startswith("Round 1")]
    assert "Round 1: Orc uses Strike on Hero" in told
    assert not any("unseen" in line for line in told), told
