"""Bad input raises ValueError (LookupError for an unknown entity) naming what was wrong, and changes
nothing: not the state, not the events, not the command log, and not what the next tick does.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import esper
import pytest

from components import Conditions, Fatigue, Health, Movement, Position, Vision
from game import Battle


def setup() -> tuple[Battle, dict[str, int]]:
    b = Battle(seed=3, width=16, height=16)
    b.add_wall(5, 5)
    b.set_ground(9, 9, 20)
    ids = {
        "hero": b.spawn("hero", 2, 2, health=10),
        "foe": b.spawn("foe", 8, 2, team="foes"),
        "downed": b.spawn("downed", 2, 8, health=4),
    }
    b.damage(ids["downed"], 4)
    b.tick()
    assert "downed" in b.conditions(ids["downed"])
    return b, ids


def fingerprint(b: Battle) -> tuple:
    parts = []
    for e in b.creatures():
        parts.append(tuple(copy.deepcopy(b.get(e, c)) for c in (Health, Fatigue, Position, Movement, Vision)))
        parts.append(frozenset(b.conditions(e)))
        parts.append(repr(b.get(e, Conditions).granted))
    t = b.terrain
    parts.append((t.walls.tobytes(), t.ground.tobytes(), t.soft.tobytes(), t.ambient, dict(t.lights),
                  dict(t.areas)))
    return tuple(parts), tuple(b.events), tuple(b.command_log)


def assert_refused(call: Callable[[Battle, dict[str, int]], object], error: type[Exception], *words: str) -> str:
    """``call`` raises ``error`` mentioning every word, and afterwards the battle is exactly as before."""
    b, ids = setup()
    control, _ = setup()
    before = fingerprint(b)
    with pytest.raises(error) as info:
        call(b, ids)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert fingerprint(b) == before
    b.tick()
    control.tick()
    assert b.events == control.events
    assert fingerprint(b)[0] == fingerprint(control)[0]
    b.close()
    control.close()
    return message


# ---------------------------------------------------------------- squares


@pytest.mark.parametrize(("call", "words"), [
    (lambda b, i: b.spawn("x", 16, 0), ["(16, 0)", "off", "16x16"]),
    (lambda b, i: b.spawn("x", -1, 3), ["(-1, 3)", "off"]),
    (lambda b, i: b.move(i["hero"], 2, 16), ["(2, 16)", "off"]),
    (lambda b, i: b.add_wall(20, 20), ["(20, 20)", "off"]),
    (lambda b, i: b.set_ground(0, -1, 10), ["(0, -1)", "off"]),
    (lambda b, i: b.add_light(99, 0, 10, "normal"), ["(99, 0)", "off"]),
    (lambda b, i: b.add_area(0, 99, 10, "poor"), ["(0, 99)", "off"]),
    (lambda b, i: b.roll_mode(i["hero"], "attack", target=(40, 0)), ["(40, 0)", "off"]),
    (lambda b, i: b.spawn("x", 1.5, 2), ["whole"]),
])
def test_off_grid_squares_are_refused(call, words):
    assert_refused(call, ValueError, *words)


def test_spawning_into_a_wall_is_refused():
    assert_refused(lambda b, i: b.spawn("x", 5, 5), ValueError, "wall", "(5, 5)")


def test_a_wall_on_a_creature_is_refused():
    assert_refused(lambda b, i: b.add_wall(2, 2), ValueError, "hero")


# ---------------------------------------------------------------- amounts


@pytest.mark.parametrize(("method", "word"), [("damage", "damage"), ("heal", "heal"), ("add_fatigue", "fatigue"),
                                              ("recover_fatigue", "fatigue")])
def test_negative_amounts_are_refused(method, word):
    assert_refused(lambda b, i: getattr(b, method)(i["hero"], -3), ValueError, "0..1000000", "got -3", word)


@pytest.mark.parametrize("amount", [2.5, "3", None, True, math.nan])
def test_non_integer_amounts_are_refused(amount):
    assert_refused(lambda b, i: b.damage(i["hero"], amount), ValueError, "damage")


@pytest.mark.parametrize(("kwargs", "word"), [({"health": 0}, "health"), ({"health": -5}, "health"),
                                              ({"speed": -10}, "speed"), ({"defense": "high"}, "defense"),
                                              ({"initiative_bonus": 1.5}, "initiative")])
def test_bad_creature_stats_are_refused(kwargs, word):
    assert_refused(lambda b, i: b.spawn("x", 0, 0, **kwargs), ValueError, word)


def test_an_empty_name_is_refused():
    assert_refused(lambda b, i: b.spawn("  ", 0, 0), ValueError, "name")


@pytest.mark.parametrize("height", [math.nan, math.inf, "high"])
def test_bad_ground_heights_are_refused(height):
    assert_refused(lambda b, i: b.set_ground(1, 1, height), ValueError, "ground")


@pytest.mark.parametrize("z", [math.nan, math.inf])
def test_non_finite_spawn_height_is_refused(z):
    assert_refused(lambda b, i: b.spawn("x", 0, 0, z=z), ValueError, "z")


def test_a_negative_light_radius_is_refused():
    assert_refused(lambda b, i: b.add_light(1, 1, -5, "normal"), ValueError, "radius")


@pytest.mark.parametrize("level", ["dim", 7, -1, None])
def test_unknown_visibility_levels_are_refused(level):
    assert_refused(lambda b, i: b.set_ambient(level), ValueError, "level")
    assert_refused(lambda b, i: b.add_area(1, 1, 5, level), ValueError, "level")


# ---------------------------------------------------------------- conditions and rolls


@pytest.mark.parametrize("condition", ["sleepy", "", "Dazzled!"])
def test_unknown_conditions_are_refused(condition):
    assert_refused(lambda b, i: b.add_condition(i["hero"], condition), ValueError, "unknown condition")
    assert_refused(lambda b, i: b.remove_condition(i["hero"], condition), ValueError, "unknown condition")


@pytest.mark.parametrize("condition", ["dead", "downed", "unconscious"])
def test_derived_conditions_cannot_be_granted_or_removed(condition):
    assert_refused(lambda b, i: b.add_condition(i["hero"], condition), ValueError, condition)
    assert_refused(lambda b, i: b.remove_condition(i["downed"], condition), ValueError, condition)


def test_unknown_roll_kinds_are_refused():
    assert_refused(lambda b, i: b.roll_mode(i["hero"], "dance"), ValueError, "dance")


# ---------------------------------------------------------------- entities


@pytest.mark.parametrize("entity", [999, 0, -1, "hero", None, 2.0])
@pytest.mark.parametrize("method", ["damage", "heal", "add_fatigue", "move", "add_condition", "conditions", "get",
                                    "roll_mode", "defense_against"])
def test_unknown_entities_are_lookup_errors(entity, method):
    args = {"damage": (1,), "heal": (1,), "add_fatigue": (1,), "move": (1, 1), "add_condition": ("prone",),
            "conditions": (), "get": (Health,), "roll_mode": ("attack",), "defense_against": (1,)}[method]
    message = assert_refused(lambda b, i: getattr(b, method)(entity, *args), LookupError)
    assert repr(entity) in message


def test_a_non_creature_entity_is_unknown():
    """An esper entity in the battle's world that is not a creature (a helper entity) is not a creature id."""
    def call(b, i):
        b.turn_order()  # enter the battle's world
        other = esper.create_entity(Health(1, 1))
        try:
            b.damage(other, 1)
        finally:
            esper.delete_entity(other, immediate=True)
    b, ids = setup()
    with pytest.raises(LookupError, match=r"no creature with id \d+ in this battle"):
        call(b, ids)
    b.close()


# ---------------------------------------------------------------- moves


def test_moving_into_a_wall_is_refused():
    assert_refused(lambda b, i: b.move(i["hero"], 5, 5), ValueError, "wall", "(5, 5)")


def test_moving_out_of_reach_is_refused():
    assert_refused(lambda b, i: b.move(i["hero"], 2, 12), ValueError, "50 ft", "30 ft")


def test_moving_while_downed_is_refused():
    assert_refused(lambda b, i: b.move(i["downed"], 3, 8), ValueError, "downed")


def test_moving_onto_another_creature_is_refused():
    assert_refused(lambda b, i: b.move(i["hero"], 2, 8), ValueError, "(2, 8)")


def test_a_bad_rules_table_is_refused():
    with pytest.raises(ValueError, match="unknown rule 'cover'"):
        Battle(rules={"cover": False})
    with pytest.raises(ValueError, match="diagonal"):
        Battle(rules={"diagonal": "sometimes"})
    with pytest.raises(ValueError, match="cover_bonus"):
        Battle(rules={"cover_bonus": "five"})
    with pytest.raises(ValueError, match="width"):
        Battle(width=0)
    with pytest.raises(ValueError, match="seed"):
        Battle(seed="one")


def test_a_refused_battle_leaves_no_world_behind():
    before = set(esper.list_worlds())
    with pytest.raises(ValueError, match=r"rules\.square_ft: expected a whole number in 1\.\.100 ft, got 0"):
        Battle(rules={"square_ft": 0})
    with pytest.raises(ValueError, match=r"grid height must be a whole number of squares in 1\.\.1024, not 5000"):
        Battle(height=5000)
    assert set(esper.list_worlds()) == before
