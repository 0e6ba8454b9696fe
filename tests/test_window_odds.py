"""Odds before you commit: with a power chosen, hovering a target or a point shows the battle's own
forecast (hit chance, expected damage and its range, who an area catches with allies marked, cover
and roll mode with their reasons); with none, hovering a square shows the real path from the core,
its cost and a fall warning. Driven under SDL's dummy driver through the app's inputs."""

from __future__ import annotations

import pygame
import pytest
from window_steps import play_to_turn

from components import Position
from game.battle.facade import Battle
from game.play.app import App
from game.render import odds, theme
from game.render.inputs import Hover, Key

SIZE = (1100, 700)


pytestmark = pytest.mark.usefixtures("pygame_display")


def _text(lines: list[tuple[str, str]]) -> str:
    return "\n".join(line for line, _ in lines)


def test_hovering_a_target_shows_the_battles_odds_with_cover_and_their_reasons() -> None:
    b = Battle(seed=1, width=10, height=8)
    b.add_wall(1, 3)  # three of the four corner lines from (0, 0) to (2, 4) pass through it: cover
    archer = b.spawn("Archer", 0, 0, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 2, 4, team="red", defense=10)
    b.add_condition(orc, "flat-footed")
    b.add_condition(archer, "dazzled")
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, archer)
    app.handle(Key("1"))
    app.handle(Hover((2, 4)))
    forecast = app.ui.forecast
    assert forecast == b.forecast(archer, "shoot", target=orc)  # the battle's answer, not the window's
    attack = forecast.targets[0].attack
    assert attack.defense.cover
    text = _text(odds.forecast_lines(forecast, "Shoot", b.name))
    assert f"hit {attack.chance:.0%}: d20 +{attack.bonus} vs Defense {attack.defense.value}" in text
    damage = forecast.targets[0].damage
    assert f"damage avg {damage.mean:.1f} ({damage.low}-{damage.high})" in text
    assert "in cover from you" in text and "cover hides 3 of 4 corner lines" in text and "flat-footed" in text
    assert f"roll: {attack.mode.mode}" in text and all(reason in text for reason in attack.mode.reasons)
    app.draw()
    rect = window.renderer.square_rect(2, 4)
    assert tuple(window.screen.get_at((rect.x + 1, rect.y + 1)))[:3] == theme.LOS_CLEAR  # the aimed square


def test_an_area_names_who_it_would_catch_and_marks_allies() -> None:
    b = Battle(seed=2, width=14, height=8)
    mage = b.spawn("Mage", 1, 1, team="blue", powers=["fireball"])
    pal = b.spawn("Pal", 8, 4, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 9, 4, team="red", powers=["strike"], prepared=False)
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, mage)
    app.handle(Key("1"))
    app.handle(Hover((8, 5)))
    forecast = app.ui.forecast
    assert forecast == b.forecast(mage, "fireball", point=(8, 5))
    caught = {t.target: t.ally for t in forecast.targets}
    assert caught == {pal: True, orc: False}
    text = _text(odds.forecast_lines(forecast, "Fireball", b.name))
    assert "catches: Pal (ally), Orc" in text or "catches: Orc, Pal (ally)" in text
    assert "Pal (ALLY)" in text and f"saves {forecast.targets[0].save.chance:.0%} vs DC 13" in text
    app.draw()
    app.handle(Hover(None))
    assert app.ui.forecast is None


def test_a_heal_of_several_friends_says_no_expected_damage_and_a_fireball_does() -> None:
    b = Battle(seed=2, width=14, height=8)
    priest = b.spawn("Priest", 2, 2, team="blue", powers=["sanctuary-light", "fireball"])
    b.spawn("Pal", 3, 2, team="blue", powers=["strike"])
    b.spawn("Orc", 12, 7, team="red", powers=["strike"])
    b.start_combat()
    heal = b.forecast(priest, "sanctuary-light")
    assert len(heal.targets) == 2 and all(t.healing is not None for t in heal.targets)
    assert "expected damage" not in _text(odds.forecast_lines(heal, "Sanctuary light", b.name))  # it said 0.0
    burn = b.forecast(priest, "fireball", point=(3, 3))
    assert "expected damage (enemies - allies): -" in _text(odds.forecast_lines(burn, "Fireball", b.name))


def test_an_illegal_use_says_why() -> None:
    b = Battle(seed=3, width=12, height=6)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    b.spawn("Orc", 8, 4, team="red")
    app = App(b, {"blue"})
    play_to_turn(app, hero)
    app.handle(Key("1"))
    app.handle(Hover((8, 4)))
    assert app.ui.forecast is not None and not app.ui.forecast.legal
    assert _text(odds.forecast_lines(app.ui.forecast, "Strike", b.name)).startswith("Strike\ncannot: ")


def test_a_move_preview_draws_the_cores_path_around_a_wall_with_its_cost() -> None:
    b = Battle(seed=1, width=12, height=8)
    for y in range(5):
        b.add_wall(3, y)
    hero = b.spawn("Hero", 1, 1, team="blue", speed=60)
    b.spawn("Orc", 10, 7, team="red")
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, hero)
    app.handle(Hover((5, 1)))
    preview = app.ui.move_preview
    assert preview == b.forecast_move(hero, (5, 1)) and preview.legal
    assert any(y >= 5 for _, y in preview.path)  # round the wall, not through it
    assert _text(odds.move_lines(preview)).startswith(f"move {preview.cost_ft} ft")
    app.draw()
    detour = next(square for square in preview.path if square[1] >= 5)
    assert tuple(window.screen.get_at(window.renderer.square_centre(*detour)))[:3] == theme.REACH


def test_a_move_off_a_ledge_warns_of_the_fall_before_it_is_made() -> None:
    b = Battle(seed=1, width=10, height=6)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 20)
    hero = b.spawn("Hero", 1, 1, team="blue")
    b.spawn("Orc", 9, 5, team="red")
    app = App(b, {"blue"})
    play_to_turn(app, hero)
    app.handle(Hover((4, 1)))
    preview = app.ui.move_preview
    assert preview.fall is not None and preview.fall.distance_ft == 20 and preview.stops_at == (3, 1)
    text = _text(odds.move_lines(preview))
    assert "stops at (3, 1)" in text and "FALLS 20 ft: 2d6" in text
    assert b.get(hero, Position).square == (1, 1)  # asking moved nothing



def test_a_falls_dice_are_the_rules_own() -> None:
    """A scenario's ``fall_die_sides`` is said in the move's hover box: 3d10 for a 30 ft drop, not a
    3d6 that could never roll the 30 its odds allow."""
    b = Battle(seed=1, width=8, height=4, rules={"fall_die_sides": 10})
    b.set_ground(1, 1, 30)
    hero = b.spawn("Hero", 1, 1, team="blue")
    preview = b.forecast_move(hero, (2, 1))
    assert preview.fall is not None and preview.fall.damage.high == 30
    assert "FALLS 30 ft: 3d10, " in _text(odds.move_lines(preview))

def test_hovering_a_downed_foe_one_hit_from_death_says_the_blow_kills_it() -> None:
    b = Battle(seed=1, width=10, height=8)
    knight = b.spawn("Knight", 2, 2, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 3, 2, team="red", health=10)
    b.add_fatigue(orc, 3)
    b.damage(orc, 10)  # down, and the fall to 0 costs its fourth fatigue point of five
    b.tick()
    t = b.forecast(knight, "strike", target=orc).targets[0]
    assert t.kills == pytest.approx(t.affected) and t.downs == 0
    assert f"kills it: {t.kills:.0%}" in _text(odds.target_lines(t, b.name))


def test_choosing_a_power_with_the_mouse_already_on_a_target_shows_its_odds_at_once() -> None:
    """The forecast comes with the key, not only once the mouse moves off the target and back; the
    move preview of the square under the mouse goes."""
    b = Battle(seed=1, width=10, height=8)
    archer = b.spawn("Archer", 0, 0, team="blue", powers=["shoot"])
    orc = b.spawn("Orc", 3, 3, team="red")
    app = App(b, {"blue"})
    play_to_turn(app, archer)
    app.handle(Hover((3, 3)))
    app.handle(Key("1"))
    assert app.ui.forecast == b.forecast(archer, "shoot", target=orc)
    app.handle(Key("escape"))
    app.handle(Hover((2, 2)))
    assert app.ui.move_preview is not None
    app.handle(Key("1"))
    assert app.ui.move_preview is None


def test_hovering_a_scripted_power_shows_what_its_script_would_add() -> None:
    """A vampiric touch's data says nothing of its damage: the hover box shows what its script would
    do (the battle's foresight of it), the drain on the target and the heal for its user."""
    b = Battle(seed=1, width=10, height=8)
    knight = b.spawn("Knight", 2, 2, team="blue", powers=["vampiric-touch"], health=20)
    orc = b.spawn("Orc", 3, 2, team="red", health=30)
    b.damage(knight, 10)
    b.tick()
    app = App(b, {"blue"})
    play_to_turn(app, knight)
    app.handle(Key("1"))
    app.handle(Hover((3, 2)))
    assert app.ui.foresight == (b.foresee_script(knight, "vampiric-touch", orc),
                                b.foresee_script(knight, "vampiric-touch", orc, hit=orc))
    text = _text(odds.forecast_lines(app.ui.forecast, "Vampiric touch", b.name, foresight=app.ui.foresight))
    assert "Orc" in text and "damage avg 7.0" in text and "Knight" in text and "healing avg 7.0" in text
    assert "not counted above" not in text
    app.draw()


def test_a_one_square_move_says_one_square() -> None:
    b = Battle(seed=1, width=10, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue")
    b.spawn("Orc", 9, 7, team="red")
    app = App(b, {"blue"})
    play_to_turn(app, hero)
    app.handle(Hover((2, 1)))
    text = _text(odds.move_lines(app.ui.move_preview))
    assert "(1 square)" in text and "of 1 enemy in sight" in text, text


def test_a_power_centred_on_its_user_shows_whom_it_catches_before_a_second_press_uses_it() -> None:
    """A burst around the user (and a power on the user) is chosen by its key like any other: the
    forecast says whom it catches, and only the same key again (or a click) uses it."""
    b = Battle(seed=4, width=12, height=8)
    priest = b.spawn("Priest", 2, 2, team="blue", powers=["sanctuary-light", "fly"])
    pal = b.spawn("Pal", 3, 2, team="blue", health=10)
    b.spawn("Orc", 9, 6, team="red")
    app = App(b, {"blue"})
    app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, priest)
    orders = len(b.command_log)
    app.handle(Key("1"))
    app.handle(Hover((7, 7)))  # anywhere: the mouse does not aim it
    assert app.ui.power == "sanctuary-light" and len(b.command_log) == orders  # chosen, not used
    assert app.ui.forecast == b.forecast(priest, "sanctuary-light")
    assert {t.target for t in app.ui.forecast.targets} == {priest, pal}
    app.handle(Key("1"))
    assert [name for name, _, _ in b.command_log[orders:]][:1] == ["use_power"] and app.ui.power is None
    app.handle(Key("2"))
    app.handle(Hover((3, 3)))
    assert app.ui.power == "fly" and app.ui.forecast == b.forecast(priest, "fly")
    text = _text(odds.forecast_lines(app.ui.forecast, "Fly", b.name))
    assert "Priest (self)\n  100%: flying" in text, text  # not "Priest (ALLY)"


def test_a_power_on_its_user_is_shown_at_the_user_not_aimed_at_the_mouse() -> None:
    """Fly and a burst around the user do not go where the mouse is: the forecast's box and frame are
    by the user, with no aim drawn to the hovered square (it read as "flies there")."""
    b = Battle(seed=4, width=12, height=8)
    priest = b.spawn("Priest", 2, 2, team="blue", powers=["fly", "shoot"])
    orc = b.spawn("Orc", 6, 2, team="red")
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    play_to_turn(app, priest)
    app.handle(Key("1"))
    app.handle(Hover((8, 6)))
    app.draw()
    rect = window.renderer.square_rect(8, 6)
    frame = theme.LOS_CLEAR if app.ui.forecast.legal else theme.LOS_BLOCKED
    user = window.renderer.square_rect(2, 2)
    assert tuple(window.screen.get_at((rect.x, rect.bottom - 1)))[:3] != frame   # the mouse's square: no frame
    assert tuple(window.screen.get_at((user.x, user.bottom - 1)))[:3] == frame   # the user's: framed
    from game.render.hints import aimed_at

    assert aimed_at(app.ui.forecast, (8, 6)) == (2, 2)
    app.handle(Key("escape"))
    app.handle(Key("2"))
    app.handle(Hover((6, 2)))
    assert app.ui.forecast.target == orc and aimed_at(app.ui.forecast, (6, 2)) == (6, 2)  # an aimed use: the target
