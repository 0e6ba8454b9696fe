"""Falling: 500 ft a round, 1d6 per full 10 ft of the whole fall (max 50d6), soft halves, prone if hurt."""

from __future__ import annotations

import pytest

from components import Fatigue, Health, Position
from game import Battle
from game.content.powers import default_powers, parse_power
from tests.event_steps import kinds


def drop(b: Battle, height: float, soft: bool = False, health: int = 1000, ticks: int = 1) -> int:
    """A creature spawned ``height`` ft above ground 0 at (2, 2), then ``ticks`` rounds played."""
    if soft:
        b.set_ground(2, 2, 0, soft=True)
    e = b.spawn("faller", 2, 2, z=height, health=health)
    b.run(ticks)
    return e


def test_19ft_fall_is_1d6_and_prone(battle):
    e = drop(battle, 19)
    [landed] = kinds(battle, "landed", e)
    assert landed.distance_ft == 19
    assert landed.dice == 1
    assert 1 <= landed.damage <= 6
    [hit] = kinds(battle, "damaged", e)
    assert (hit.amount, hit.source) == (landed.damage, "fall")
    assert battle.get(e, Health).current == 1000 - landed.damage
    assert "prone" in battle.conditions(e)
    assert battle.get(e, Position).z == 0


def test_exactly_10ft_is_1d6(battle):
    e = drop(battle, 10)
    assert kinds(battle, "landed", e)[0].dice == 1


@pytest.mark.parametrize("height", [1, 5, 9, 9.99])
def test_under_10ft_does_nothing_and_is_not_prone(battle, height):
    e = drop(battle, height)
    assert battle.get(e, Position).z == 0  # it did come down
    landed = kinds(battle, "landed", e)
    assert all(ev.dice == 0 and ev.damage == 0 for ev in landed)
    assert not kinds(battle, "damaged", e)
    assert battle.get(e, Health).current == 1000
    assert "prone" not in battle.conditions(e)


@pytest.mark.parametrize(("height", "dice"), [(20, 2), (29, 2), (30, 3), (499, 49), (500, 50), (510, 50),
                                              (1200, 50)])
def test_one_die_per_full_10ft_at_most_50(battle, height, dice):
    e = drop(battle, height, ticks=3)
    [landed] = kinds(battle, "landed", e)
    assert landed.dice == dice
    assert dice <= landed.damage <= 6 * dice


def test_1200ft_into_water_is_25_dice(battle):
    e = drop(battle, 1200, soft=True, ticks=3)
    [landed] = kinds(battle, "landed", e)
    assert (landed.distance_ft, landed.dice, landed.soft) == (1200, 25, True)
    assert 25 <= landed.damage <= 150
    assert "prone" in battle.conditions(e)


@pytest.mark.parametrize(("height", "dice"), [(30, 1), (40, 2), (19, 0)])
def test_soft_landing_halves_dice_rounding_down(battle, height, dice):
    e = drop(battle, height, soft=True)
    [landed] = kinds(battle, "landed", e)
    assert landed.dice == dice
    assert ("prone" in battle.conditions(e)) is (dice > 0)  # 19 ft into water: no damage, not prone


def test_a_1200ft_fall_takes_3_ticks_at_500ft_a_round(battle):
    e = drop(battle, 1200, ticks=0)
    battle.tick()
    assert battle.get(e, Position).z == 700
    assert not kinds(battle, "landed", e)
    battle.tick()
    assert battle.get(e, Position).z == 200
    assert not kinds(battle, "landed", e)
    battle.tick()
    assert battle.get(e, Position).z == 0
    assert [(f.from_z, f.to_z) for f in kinds(battle, "fell", e)] == [(1200, 700), (700, 200), (200, 0)]
    [landed] = kinds(battle, "landed", e)
    assert landed.round == 3 and landed.distance_ft == 1200  # the whole fall counts, not the last stretch


def test_a_500ft_fall_lands_in_one_tick(battle):
    e = drop(battle, 500)
    assert kinds(battle, "landed", e)[0].dice == 50


def test_fall_damage_is_a_hit(battle):
    """A downed creature that falls takes a hit at 0 Health: one more fatigue."""
    battle.set_ground(2, 2, 30)
    e = battle.spawn("a", 2, 2, health=5)
    battle.damage(e, 5)
    battle.tick()
    assert battle.get(e, Fatigue).level == 1
    battle.set_ground(2, 2, 0)
    battle.tick()
    assert kinds(battle, "landed", e)[0].dice == 3
    assert battle.get(e, Fatigue).level == 2


def test_move_off_a_ledge_falls_from_the_ledge_height(battle):
    battle.set_ground(5, 5, 20)
    e = battle.spawn("a", 5, 5, health=100)
    assert battle.get(e, Position).z == 20  # spawned on the ledge
    battle.move(e, 6, 5)
    battle.tick()
    [moved] = kinds(battle, "moved", e)
    assert moved.z == 20  # it keeps its height when it steps off ...
    [landed] = kinds(battle, "landed", e)
    assert (landed.distance_ft, landed.dice) == (20, 2)  # ... and falls from there
    assert battle.get(e, Position) == Position(6, 5, 0)
    assert "prone" in battle.conditions(e)


def test_moving_onto_higher_ground_raises_z_and_does_not_fall(battle):
    battle.set_ground(6, 5, 10)
    e = battle.spawn("a", 5, 5)
    battle.move(e, 6, 5)
    battle.tick()
    assert battle.get(e, Position).z == 10
    assert not kinds(battle, "fell", e)


def test_set_ground_mid_battle_drops_a_creature(battle):
    battle.set_ground(4, 4, 30)
    e = battle.spawn("a", 4, 4, health=100)
    battle.tick()
    assert not kinds(battle, "fell", e)
    battle.set_ground(4, 4, 0)
    battle.tick()
    [landed] = kinds(battle, "landed", e)
    assert (landed.distance_ft, landed.dice) == (30, 3)
    assert battle.get(e, Position).z == 0


def test_set_ground_raised_under_a_creature_lifts_it(battle):
    e = battle.spawn("a", 4, 4)
    battle.set_ground(4, 4, 15)
    battle.tick()
    assert battle.get(e, Position).z == 15
    assert not kinds(battle, "landed", e)


def test_damage_a_gm_names_fall_waits_for_the_next_tick_as_any_gm_damage(battle):
    """Only a fall's own landing resolves at once when the GM changes the map: a GM's hit is a hit."""
    e = battle.spawn("a", 4, 4, health=20)
    battle.damage(e, 3, source="fall")
    battle.spawn("b", 6, 6)  # a GM command: its phase lands whoever a change dropped
    assert battle.get(e, Health).current == 20
    battle.tick()
    assert battle.get(e, Health).current == 17
    [hit] = kinds(battle, "damaged", e)
    assert (hit.amount, hit.source) == (3, "fall")
    assert not kinds(battle, "landed", e)


def test_flying_creatures_do_not_fall(battle):
    e = battle.spawn("bird", 3, 3, z=100, flying=True)
    battle.run(2)
    assert battle.get(e, Position).z == 100
    assert not kinds(battle, "fell", e) and not kinds(battle, "landed", e)


def test_a_flying_creature_moving_off_a_ledge_keeps_its_height(battle):
    battle.set_ground(5, 5, 40)
    e = battle.spawn("bird", 5, 5, flying=True)
    battle.move(e, 7, 5)
    battle.tick()
    assert battle.get(e, Position) == Position(7, 5, 40)
    assert not kinds(battle, "fell", e)


def test_a_falling_creature_cannot_move(battle):
    e = battle.spawn("a", 2, 2, z=1200, health=1000)
    battle.tick()
    with pytest.raises(ValueError, match="falling"):
        battle.move(e, 3, 3)


def test_the_flying_condition_keeps_a_creature_up(battle):
    e = battle.spawn("a", 3, 3, z=50, health=100)
    battle.add_condition(e, "flying")
    battle.run(2)
    assert battle.get(e, Position).z == 50
    assert not kinds(battle, "fell", e)


def test_losing_the_flying_condition_drops_the_creature(battle):
    e = battle.spawn("a", 3, 3, z=50, health=100)
    battle.add_condition(e, "flying")
    battle.tick()
    battle.remove_condition(e, "flying")
    battle.tick()
    [landed] = kinds(battle, "landed", e)
    assert (landed.distance_ft, landed.dice) == (50, 5)
    assert battle.get(e, Position).z == 0


def _ledge(b: Battle) -> None:
    """Ground 20 ft high in columns 0-2, 0 ft from column 3 on."""
    for x in range(3):
        for y in range(b.height):
            b.set_ground(x, y, 20)


def fall_if_moved(battle, entity, x, y):
    """The square a move would stop at and the drop there, from the move forecast; None: no fall."""
    forecast = battle.forecast_move(entity, (x, y))
    if not forecast.legal:
        raise ValueError(forecast.problem)
    return None if forecast.fall is None else (forecast.stops_at, forecast.fall.distance_ft)


def test_the_move_forecast_says_where_the_walker_steps_off_and_the_move_agrees(battle):
    _ledge(battle)
    e = battle.spawn("walker", 1, 1)
    assert fall_if_moved(battle, e, 2, 1) is None  # still on the ledge
    assert fall_if_moved(battle, e, 5, 1) == ((3, 1), 20.0)  # it steps off at the first low square
    battle.move(e, 5, 1)
    battle.tick()
    [landed] = kinds(battle, "landed", e)
    assert landed.distance_ft == 20 and battle.get(e, Position).square == (3, 1)


def test_the_move_forecast_knows_innate_and_granted_flight(battle):
    _ledge(battle)
    bird = battle.spawn("bird", 1, 1, flying=True)
    assert "flying" not in battle.conditions(bird)  # innate flight is not a condition
    assert fall_if_moved(battle, bird, 5, 1) is None
    bat = battle.spawn("bat", 1, 3)
    battle.add_condition(bat, "flying")
    assert fall_if_moved(battle, bat, 5, 3) is None


def test_the_move_forecast_refuses_what_move_refuses(battle):
    battle.add_wall(4, 4)
    e = battle.spawn("walker", 3, 4)
    with pytest.raises(ValueError, match="wall"):
        fall_if_moved(battle, e, 4, 4)


def _glider_over_a_pit() -> tuple[Battle, int, int]:
    """A glider (a flight it may end early) over a 40 ft pit in its turn, its orders resolved."""
    table = dict(default_powers())
    table["glide"] = parse_power("glide", {"name": "Glide", "description": "test", "action": "bonus",
                                           "targets": "self", "flight": True, "duration": 3, "end_early": True},
                                 "test")
    b = Battle(seed=3, width=12, height=5, powers=table)
    for y in range(5):
        for x in range(3, 7):
            b.set_ground(x, y, -40)
    glider = b.spawn("Glider", 1, 2, team="a", powers=["glide", "strike"], initiative_bonus=50, health=40)
    b.spawn("Foe", 10, 2, team="b", initiative_bonus=-50)
    b.start_combat()
    assert b.begin_round() == glider
    b.use_power(glider, "glide")
    b.move(glider, 4, 2)
    b.resolve_orders()
    assert b.get(glider, Position).z == 0 and "flying" in b.conditions(glider)
    return b, glider, next(e["id"] for e in b.effects() if e["power"] == "glide")


def test_a_flight_ended_early_over_a_pit_drops_the_creature_at_once():
    """"If there is nothing supporting your character, you fall": ending its own flight leaves the
    glider with nothing under it, so it falls and lands (hurt, prone) then and there, and its next
    order is checked, forecast and resolved from the bottom of the pit."""
    b, glider, effect = _glider_over_a_pit()
    b.end_power(glider, effect)
    [landed] = kinds(b, "landed", glider)
    assert (landed.distance_ft, landed.dice) == (40, 4)
    [hit] = kinds(b, "damaged", glider)
    assert (hit.amount, hit.source) == (landed.damage, "fall")
    assert b.get(glider, Position).z == -40 and b.get(glider, Health).current == 40 - landed.damage
    assert "prone" in b.conditions(glider) and "flying" not in b.conditions(glider)
    b.move(glider, 5, 2)  # along the pit's floor: it walks from where it landed
    assert b.forecast_move(glider, (5, 2)).legal
    b.end_turn()
    assert not kinds(b, "command_refused", glider)
    assert b.get(glider, Position).square == (5, 2) and len(kinds(b, "landed", glider)) == 1


def test_a_gm_damage_waits_for_the_next_tick_when_a_flight_ends_early():
    """The landing settles at once; the GM's own damage, queued before, still resolves with the orders."""
    b, glider, effect = _glider_over_a_pit()
    b.damage(glider, 1)
    b.end_power(glider, effect)
    assert [e.source for e in kinds(b, "damaged", glider)] == ["fall"]
    b.end_turn()
    assert [e.source for e in kinds(b, "damaged", glider)] == ["fall", "gm"]


def test_an_unconscious_natural_flier_falls_a_downed_one_keeps_flying():
    """A creature that flies by nature must be conscious to stay up: downed it still flies, knocked
    unconscious it falls (hurt, as any fall); a flight a power (or the GM) grants holds it up still."""
    b = Battle(seed=1, width=10, height=6)
    downed = b.spawn("Downed", 3, 3, z=40, flying=True, team="b", health=5)
    sleepy = b.spawn("Sleepy", 4, 3, z=40, flying=True, team="b", health=50)
    held = b.spawn("Held", 5, 3, z=30, team="b", health=5)
    b.add_condition(held, "flying")
    b.spawn("Foe", 8, 5, team="a")
    b.start_combat()
    b.damage(downed, 5)
    b.add_fatigue(sleepy, 5)
    b.add_fatigue(held, 5)
    b.tick()
    assert "downed" in b.conditions(downed) and b.get(downed, Position).z == 40
    assert "unconscious" in b.conditions(sleepy) and b.get(sleepy, Position).z == 0
    [landed] = kinds(b, "landed", sleepy)
    assert (landed.distance_ft, landed.dice) == (40, 4) and "prone" in b.conditions(sleepy)
    assert "unconscious" in b.conditions(held) and b.get(held, Position).z == 30  # its granted flight holds it


@pytest.mark.parametrize(("raised_to", "dice"), [(500, 50), (600, 40), (995, 0)])
def test_ground_raised_to_meet_a_creature_mid_fall_lands_it_from_where_the_fall_began(battle, raised_to, dice):
    """A fall over several rounds ends where the ground is, even if the ground came up to meet it: the
    creature has still fallen from where it began, and lands hurt as far as it fell (onto the new
    ground, lifted onto it if the ground rose past it). A rise to within 10 ft of the start does not hurt."""
    e = drop(battle, 1000)
    assert battle.get(e, Position).z == 500 and not kinds(battle, "landed", e)  # a round's fall: still in the air
    battle.set_ground(2, 2, raised_to)
    [landed] = kinds(battle, "landed", e)
    assert (landed.distance_ft, landed.dice) == (1000 - raised_to, dice)
    assert battle.get(e, Position).z == raised_to
    assert ("prone" in battle.conditions(e)) == (dice > 0)
    battle.tick()
    assert len(kinds(battle, "landed", e)) == 1 and len(kinds(battle, "fell", e)) == 1  # it fell once, landed once


@pytest.mark.parametrize("z", [None, 10])
def test_ground_raised_under_a_flier_lifts_it_unhurt(battle, z):
    """A flier on the ground, or aloft below the new ground, stands on top of it: never inside it."""
    e = battle.spawn("bird", 2, 2, z=z, flying=True)
    battle.run(1)
    battle.set_ground(2, 2, 20)
    assert battle.get(e, Position).z == 20
    battle.tick()
    assert battle.get(e, Position).z == 20 and not kinds(battle, "landed", e)
