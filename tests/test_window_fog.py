"""Fog of war: the person's team sees only what its creatures see (``battle.visible_squares``);
enemies out of sight are not drawn (a dim mark where they were last seen), cannot be hovered or
clicked, and the log and the turn strip do not name them; G toggles a GM view showing everything."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from window_steps import play_to_turn

from components import Position
from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import Click, Hover, Key

SIZE = (1100, 700)
RED = (200, 30, 30)


pytestmark = pytest.mark.usefixtures("pygame_display")


def _walled() -> tuple[Battle, int, int]:
    """A hero west of a wall from edge to edge, an orc east of it: neither sees the other."""
    b = Battle(seed=3, width=12, height=6)
    for y in range(6):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 9, 2, team="red", powers=["strike"])
    return b, hero, orc


def _disc(window, square: tuple[int, int]) -> tuple[int, int]:
    """A point on a token's disc beside its label."""
    rect = window.renderer.square_rect(*square)
    return (rect.centerx - rect.w // 4, rect.centery + rect.h // 8)


def test_an_enemy_out_of_sight_is_not_drawn_until_the_gm_view() -> None:
    b, hero, orc = _walled()
    app = App(b, {"blue"}, team_colours={"blue": (30, 60, 200), "red": RED})
    window = app.open_window(screen=pygame.Surface(SIZE))
    np.testing.assert_array_equal(app.ui.visible, b.visible_squares("blue"))
    assert orc in app.ui.hidden and hero not in app.ui.hidden
    app.draw()
    assert tuple(window.screen.get_at(_disc(window, b.get(orc, Position).square)))[:3] != RED
    assert tuple(window.screen.get_at(_disc(window, b.get(hero, Position).square)))[:3] == (30, 60, 200)
    app.handle(Key("g"))
    assert app.ui.gm_view and app.ui.visible is None and not app.ui.hidden
    app.draw()
    assert tuple(window.screen.get_at(_disc(window, b.get(orc, Position).square)))[:3] == RED
    app.handle(Key("g"))
    assert orc in app.ui.hidden


def test_a_hidden_enemy_cannot_be_hovered_clicked_or_read_about() -> None:
    b, hero, orc = _walled()
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, hero)
    square = b.get(orc, Position).square
    app.handle(Key("1"))
    app.handle(Hover(square))
    assert app.ui.forecast is None  # no target there as far as the person knows
    app.handle(Key("escape"))
    app.handle(Click(square))
    assert app.ui.selected != orc
    app.handle(Key("space"))  # the orc's turn: it moves about behind the wall, shown one turn per delay
    app.flow.delay = 0.0
    app.tick_clock(0.0)
    assert "Orc" not in app.ui.message
    app.handle(Key("return"))
    app.draw()
    feed = window.renderer.feed
    assert any("Orc" in line for line in feed.lines)  # the GM's log names it ...
    assert not any("Orc" in line for line in feed.seen_lines)  # ... the person's does not
    chip = window.renderer.side.chips[orc]
    dot = (window.renderer.map_rect.right + chip.x + 9, chip.y + 9)
    assert tuple(window.screen.get_at(dot))[:3] == (80, 80, 80)  # the strip shows an unseen creature


def test_an_enemy_out_of_sight_is_remembered_dimmed_where_it_was_last_seen() -> None:
    b = Battle(seed=5, width=12, height=6)
    for y in range(1, 6):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 0, team="blue", powers=["shoot"], speed=40)
    orc = b.spawn("Orc", 8, 0, team="red", powers=["strike"], prepared=False)
    app = App(b, {"blue"})
    assert orc not in app.ui.hidden and app.ui.seen_at[orc] == (8, 0)
    play_to_turn(app, hero)
    app.handle(Click((1, 4)))  # the hero steps behind the wall: (8, 0) goes out of its sight
    assert b.get(hero, Position).square == (1, 4) and not app.ui.visible[8, 0]
    assert orc in app.ui.hidden and app.ui.seen_at[orc] == (8, 0)
    app.handle(Key("space"))
    play_to_turn(app, orc)
    b.move(orc, 9, 5)  # the computer's turn, given by hand: it moves on, unseen
    b.end_turn()
    app.refresh()
    assert orc in app.ui.hidden and app.ui.seen_at[orc] == (8, 0)  # still remembered where it was seen
    window = app.open_window(screen=pygame.Surface(SIZE))
    window.draw(app.ui)
    centre = window.renderer.square_centre(8, 0)
    edge = (centre[0] - max(4, int(window.renderer.tile * 0.34)), centre[1])
    assert tuple(window.screen.get_at(edge))[:3] == tuple(c // 2 for c in window.renderer.colour_of("red"))


def test_where_a_hidden_enemy_stands_is_reachable_as_far_as_the_window_tells() -> None:
    """A smoke cloud hides an orc two squares away: the blue reach shows no hole on its square, and
    hovering there previews the walk as to any free square (a hole, or "taken by another creature",
    would draw it). The battle's own answer still keeps the square (a move there is refused)."""
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 3, 2, team="red", powers=["strike"])
    b.add_area(3, 2, 5, "no vision")  # thick smoke on the orc's square
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, hero)
    assert orc in app.ui.hidden
    assert not b.reachable(hero)[3, 2] and b.reachable(hero, unseen=[orc])[3, 2]
    assert window.renderer.overlays.reach_mask(b, hero, app.ui.hidden)[3, 2]
    app.handle(Hover((3, 2)))
    preview = app.ui.move_preview
    assert preview is not None and preview.legal and preview.cost_ft == 10, preview
    assert not b.forecast_move(hero, (3, 2)).legal  # what the battle itself knows
    app.handle(Click((3, 2)))
    assert b.get(hero, Position).square == (1, 2) and "taken" in app.ui.message


def test_a_click_out_of_reach_on_a_hidden_enemys_square_is_refused_for_the_distance() -> None:
    """The orc in the smoke is out of the hero's reach: the preview says so, and the click was refused
    for the creature standing there ("square (8, 2) is taken by another creature"), telling the team
    where an enemy it does not see stood."""
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"], speed=20)
    orc = b.spawn("Orc", 8, 2, team="red", powers=["strike"])
    b.add_area(8, 2, 5, "no vision")
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, hero)
    assert orc in app.ui.hidden
    app.handle(Hover((8, 2)))
    assert app.ui.move_preview is not None and not app.ui.move_preview.legal
    app.handle(Click((8, 2)))
    assert b.get(hero, Position).square == (1, 2)
    assert app.ui.message == f"Hero cannot move to (8, 2): {app.ui.move_preview.problem}", app.ui.message
    assert "taken" not in app.ui.message and "away" in app.ui.message


def test_the_teams_log_keeps_what_it_saw_then_through_an_undo_and_a_load() -> None:
    """The log is told as the team saw each event when it happened: an undo (the battle restored)
    or a load (the same battle rebuilt) tells again only what comes after, so a shot at an orc who
    has since left the team's sight stays named, not rewritten as someone unseen."""
    from game.render.feed import UNSEEN, EventFeed

    b = Battle(seed=5, width=12, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 6, 2, team="red", powers=["strike"])
    b.start_combat()
    feed = EventFeed()
    b.damage(orc, 2, source="Shoot")
    b.tick()
    feed.update(b)  # the team sees the orc: it is named
    told = list(feed.seen_lines)
    assert any("Orc" in line for line in told)
    before = b.snapshot()
    b.damage(hero, 1)
    b.tick()
    feed.update(b, hidden=frozenset({orc}))  # now it is out of sight
    assert feed.seen_lines[:len(told)] == told and len(feed.seen_lines) > len(told)
    b.restore(before)  # an undo
    feed.update(b, hidden=frozenset({orc}))
    assert feed.seen_lines == told and not any(UNSEEN in line for line in feed.seen_lines)
    again = Battle.replay(b.seed, b.width, b.height, b.rules, b.command_log)  # a load of the same battle
    feed.update(again, hidden=frozenset({orc}))
    feed.update(again, hidden=frozenset({orc}))  # the next frame, nothing new
    assert feed.seen_lines == told
    loaded = again.snapshot()
    again.damage(hero, 1)
    again.tick()
    feed.update(again, hidden=frozenset({orc}))
    again.restore(loaded)  # an undo after the load
    feed.update(again, hidden=frozenset({orc}))
    assert feed.seen_lines == told
    other = Battle(seed=6, width=12, height=6)  # another battle altogether: told afresh
    other.spawn("Elf", 2, 2, team="green")
    feed.update(other)
    assert not any("Orc" in line for line in feed.seen_lines) and any("Elf" in line for line in feed.seen_lines)
