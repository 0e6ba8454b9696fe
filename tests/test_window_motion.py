"""Motion and numbers in the window: a move walks its path square by square as the clock is stepped,
a hit floats a number that expires, Backspace ends the animation at once, and the speed setting
changes how long things take. Driven through the app's inputs under SDL's dummy driver; the clock
is the app's (``tick_clock``), never the wall's."""

from __future__ import annotations

import pytest

from components import Position
from game.battle.facade import Battle
from game.play.app import App
from game.play.motion import FLOAT_S, STEP_S, Motion
from game.render.inputs import Click, Hover, Key
from tests.window_steps import play_to_turn, strike_and_walk_off

pytestmark = pytest.mark.usefixtures("pygame_display")


def _walker(walls: bool = True) -> tuple[App, int]:
    """A hero whose way to (5, 1) bends around a wall (so the path is not a straight line)."""
    b = Battle(seed=1, width=12, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    b.spawn("Foe", 10, 6, team="red", powers=["strike"], prepared=False, health=40)
    for y in (0, 1, 2) if walls else ():
        b.add_wall(3, y)
    app = App(b, {"blue"})
    app.open_window((1000, 640), offscreen=True)
    play_to_turn(app, hero)
    return app, hero


def _striker(seed: int = 2) -> tuple[App, int, int]:
    b = Battle(seed=seed, width=12, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"], attack_bonus=30)
    foe = b.spawn("Foe", 2, 2, team="red", powers=["strike"], prepared=False, health=40)
    app = App(b, {"blue"})
    app.open_window((1000, 640), offscreen=True)
    play_to_turn(app, hero)
    return app, hero, foe


def _walk(app: App, square: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Hover (the preview's path), click, and the path the core forecast."""
    app.handle(Hover(square))
    path = tuple(app.ui.move_preview.path)
    app.handle(Click(square))
    app.tick_clock(0.0)
    return path


def test_a_move_walks_through_its_paths_squares_in_order() -> None:
    app, hero = _walker()
    path = _walk(app, (5, 1))
    assert len(path) >= 4 and app.battle.get(hero, Position).square == (5, 1)  # the state is final
    seen: list[tuple[int, int]] = []
    for _ in range(200):
        at = app.ui.motion.positions.get(hero)
        if at is None:
            break
        square = (round(at[0]), round(at[1]))
        if not seen or seen[-1] != square:
            seen.append(square)
        # between two squares of the path, never off it
        assert any(abs(at[0] - x) + abs(at[1] - y) < 2.01 for x, y in path)
        app.tick_clock(STEP_S / 4)
    assert seen == list(path[:len(seen)]) and len(seen) >= len(path) - 1
    assert hero not in app.ui.motion.positions  # done: drawn on its square
    app.draw()  # and a frame draws


def test_a_hit_floats_a_number_that_rises_and_expires() -> None:
    app, _, foe = _striker()
    app.handle(Key("1"))
    app.handle(Hover((2, 2)))
    app.handle(Click((2, 2)))
    app.tick_clock(0.0)
    damage = next(e for e in reversed(app.battle.events) if type(e).__name__ == "Damaged")
    marks = app.ui.motion.marks
    assert [m.text for m in marks] == [f"-{damage.amount}"] and marks[0].kind == "hit"
    assert marks[0].at == (2.0, 2.0)
    app.tick_clock(FLOAT_S / 2)
    assert 0.4 < app.ui.motion.marks[0].progress < 0.6
    app.draw()
    app.tick_clock(FLOAT_S / 2 + 0.01)
    assert app.ui.motion.marks == () and not app.motion.busy


def test_a_miss_and_a_heal_show_as_words_and_numbers() -> None:
    b = Battle(seed=3, width=8, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"], attack_bonus=-40)
    foe = b.spawn("Foe", 2, 2, team="red", health=20)
    motion = Motion()
    motion.reset(b)
    b.start_combat()
    b.use_power(hero, "strike", target=foe)
    b.tick()
    b.heal(hero, 2)  # unhurt: heals nothing, so it shows nothing
    b.damage(hero, 5)
    b.heal(hero, 3)
    b.tick()
    motion.take(b)
    texts = [f.text for f in motion.floaters]
    assert "miss" in texts and "-5" in texts and "+3" in texts and "+2" not in texts and "+0" not in texts
    assert texts.index("miss") < texts.index("-5") < texts.index("+3")
    assert {f.kind for f in motion.floaters} >= {"miss", "hit", "heal"}


def test_a_fall_shows_its_damage_as_a_fall_after_the_walk() -> None:
    from components.events import Damaged

    b = Battle(seed=4, width=8, height=4)
    for x in range(3):
        b.set_ground(x, 1, 30)
    jumper = b.spawn("Jumper", 1, 1, team="blue", health=40)
    b.spawn("Foe", 7, 3, team="red")
    motion = Motion()
    motion.reset(b)
    b.start_combat()
    b.move(jumper, 4, 1)
    b.tick()
    motion.take(b)
    hurt = sum(e.amount for e in b.events if isinstance(e, Damaged) and e.source == "fall")
    (walk,) = [t for t in motion.tracks if t.entity == jumper]
    (fall,) = [f for f in motion.floaters if f.kind == "fall"]
    assert fall.text == f"fall -{hurt}" and hurt > 0
    assert fall.square == walk.squares[-1] and fall.start >= walk.end  # where and after it stepped off


def test_backspace_ends_the_animation_at_once() -> None:
    app, hero = _walker()
    _walk(app, (5, 1))
    app.tick_clock(STEP_S)
    assert app.ui.motion.positions.get(hero) is not None
    app.handle(Key("backspace"))
    assert app.ui.motion.positions == {} and app.ui.motion.marks == () and not app.motion.busy


def test_the_speed_setting_changes_how_long_a_move_and_a_mark_take() -> None:
    lengths = {}
    for key, speed in (("[", "slow"), (None, "normal"), ("]", "fast")):
        app, hero = _walker()
        if key is not None:
            app.handle(Key(key))
            assert app.ui.message == f"Animation speed: {speed}" and app.ui.motion.speed == speed
        _walk(app, (5, 1))
        (track,) = app.motion.tracks
        lengths[speed] = track.end - track.start
        app.motion.add_floater(hero, (5, 1), "-1", "hit", app.motion.clock)
        assert app.motion.floaters[-1].duration == pytest.approx(FLOAT_S * app.motion.factor)
    assert lengths["slow"] > lengths["normal"] > lengths["fast"] > 0
    assert lengths["slow"] == pytest.approx(2 * lengths["normal"])


def test_undo_drops_the_animation_of_what_it_took_back() -> None:
    app, hero = _walker(walls=False)
    _walk(app, (5, 1))
    assert app.motion.busy
    app.handle(Key("u"))
    assert app.ui.message.startswith("Undone"), app.ui.message
    app.tick_clock(0.0)
    assert app.battle.get(hero, Position).square == (1, 1) and not app.motion.busy


def test_an_enemy_moving_out_of_sight_is_not_drawn_there_and_its_marks_stay_hidden() -> None:
    b = Battle(seed=1, width=12, height=8)
    b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    foe = b.spawn("Foe", 5, 6, team="red", powers=["strike"])
    for x in range(7, 12):
        b.add_wall(x, 5)
    app = App(b, {"blue"})
    app.motion.add_track(foe, ((5, 6), (6, 6), (7, 6), (8, 6)), app.motion.clock, STEP_S)
    app.motion.add_floater(foe, (8, 6), "-3", "hit", app.motion.clock)
    hidden = frozenset({foe})
    frame = app.motion.frame(lambda e: e not in hidden)
    assert foe not in frame.positions and frame.marks == ()
    mask = b.visible_squares("blue")
    frame = app.motion.frame(visible=mask)
    assert (frame.positions[foe] is None) == (not mask[5, 6])


def test_a_computers_move_animates_along_adjacent_squares_from_its_start_to_its_end() -> None:
    from components.events import Moved
    from game.play.motion import path_of

    for seed in range(1, 6):
        b = Battle(seed=seed, width=12, height=8)
        b.spawn("Blue", 1, 4, team="blue", powers=["strike"])
        b.spawn("Red", 10, 3, team="red", powers=["strike"])
        for y in (3, 4):
            b.add_wall(5, y)
        app = App(b, frozenset(), policy="greedy", computer_delay=0.0)
        for _ in range(6):
            app.tick_clock(0.0)
        moves = [e for e in b.events if isinstance(e, Moved)]
        assert moves
        for moved in moves:
            path = path_of(b, moved)
            assert path[0] == moved.from_square and path[-1] == moved.to_square
            assert all(max(abs(x1 - x0), abs(y1 - y0)) == 1 for (x0, y0), (x1, y1) in zip(path, path[1:]))
            assert not any(b.terrain.walls[square] for square in path)


def test_the_renderer_draws_a_moving_token_where_the_frame_puts_it_and_its_mark_above() -> None:
    import pygame

    from game.render.frames import Mark, MotionFrame
    from game.render.ui import UiState
    from game.render.view import Renderer

    b = Battle(seed=1, width=10, height=6)
    hero = b.spawn("Hero", 1, 1, team="blue")
    r = Renderer(b, (900, 500), tile=40, team_colours={"blue": (40, 90, 250)})
    surface = pygame.Surface(r.size)
    ui = UiState()

    def blue_at(square: tuple[int, int]) -> bool:
        colour = surface.get_at(r.square_centre(*square))
        return colour.b > 150 and colour.r < 120

    r.draw(surface, ui)
    assert blue_at((1, 1)) and not blue_at((4, 1))
    ui.motion = MotionFrame({hero: (4.0, 1.0)}, (Mark((6.0, 3.0), "-7", "hit", 0.0),))
    before = surface.copy()
    r.draw(surface, ui)
    assert blue_at((4, 1)) and not blue_at((1, 1))
    above = r.square_rect(6, 3).move(0, -r.tile // 2)
    assert any(surface.get_at(p) != before.get_at(p) for p in
               ((x, y) for x in range(above.left, above.right) for y in range(above.top, above.bottom)))
    ui.motion = MotionFrame({hero: None})
    r.draw(surface, ui)
    assert not blue_at((1, 1)) and not blue_at((4, 1))  # in the fog on its way: not drawn at all


def test_the_next_computer_creature_waits_until_the_last_ones_walk_is_over() -> None:
    from components.events import Moved

    b = Battle(seed=3, width=14, height=6)
    b.spawn("Blue", 1, 2, team="blue", powers=["strike"])
    b.spawn("Red", 12, 2, team="red", powers=["strike"])
    app = App(b, frozenset(), policy="greedy", computer_delay=0.2)

    def commands() -> int:
        return len(b.command_log)

    for _ in range(50):  # until a computer creature has walked
        app.tick_clock(0.25)
        if any(isinstance(e, Moved) for e in b.events):
            break
    assert app.motion.walking
    walk_ends = max(t.end for t in app.motion.tracks)
    issued = commands()
    while app.motion.clock + 0.05 < walk_ends:  # the walk plays: nobody else acts meanwhile
        app.tick_clock(0.05)
        assert commands() == issued
    for _ in range(20):  # then the delay, and the next creature's turn
        app.tick_clock(0.05)
    assert commands() > issued


def test_an_unseen_creatures_walk_holds_nothing_up() -> None:
    """Never drawn, a walk the person's team does not see held the next computer turn and the next
    blow seen for as long as it walked: the window went still, as long as the unseen walk was."""
    b = Battle(seed=3, width=12, height=8)
    for y in range(8):
        b.add_wall(5, y)
    hero = b.spawn("Hero", 1, 2, team="blue", health=30)
    sneak = b.spawn("Sneak", 9, 0, team="red")
    b.spawn("Archer", 2, 6, team="red", powers=["strike"])
    motion = Motion()
    motion.reset(b)
    b.start_combat()
    b.move(sneak, 9, 6)  # six squares behind the wall
    b.tick()
    b.damage(hero, 4)  # then a hit the person sees
    b.tick()
    motion.take(b, shows=lambda e: e != sneak)
    assert not motion.walking and not any(t.entity == sneak for t in motion.tracks)
    (hit,) = [f for f in motion.floaters if f.entity == hero]
    assert hit.start == motion.clock  # at once, not after the unseen walk


def test_an_enemy_that_strikes_and_walks_out_of_sight_is_seen_going() -> None:
    """An orc the team sees strikes the hero and walks behind a wall: it vanished as its turn was
    played, before its blow was shown (the walk of a creature out of sight after the turn was never
    laid out). It is drawn striking and walking while it is on squares in sight, and not after; its
    square out of sight is not hoverable meanwhile."""
    import pygame

    from tests.window_steps import drawn_texts

    b, hero, orc = strike_and_walk_off(hero_initiative=-200)
    b.spawn("Wolf", 10, 5, team="red", powers=["strike"], initiative_bonus=-80)  # its turn waits on the walk
    red = (200, 30, 30)
    app = App(b, {"blue"}, team_colours={"blue": (30, 60, 200), "red": red}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((1100, 700)))
    app.draw()
    rect = window.renderer.square_rect(4, 2)
    disc = (rect.centerx - rect.w // 4, rect.centery + rect.h // 8)
    assert tuple(window.screen.get_at(disc))[:3] == red
    b.use_power(orc, "strike", target=hero)  # the computer's turn, given by hand
    b.move(orc, 6, 0)
    b.end_turn()
    app.refresh()
    app.draw()
    assert orc in app.ui.hidden and app.motion.walking and app.flow.computer_turn()
    assert tuple(window.screen.get_at(disc))[:3] == red  # still where it struck, its blow being shown
    app.handle(Click((3, 2)))  # the person looks: the hero selected, the mouse on the orc's square
    app.handle(Hover((6, 0)))
    assert app.ui.selected == hero
    assert not any(text.startswith("Defense") for text in drawn_texts(app))
    for _ in range(30):
        app.tick_clock(0.1)
    assert app.ui.motion.positions.get(orc) is None
    app.draw()
    assert tuple(window.screen.get_at(disc))[:3] != red
