"""The power-properties and cover sentences of the combat rules, one test each, quoted.

Every test goes through the public API with fixed seeds: it builds a battle, uses the power (or asks
the forecast, which resolves with the same functions), and looks at what the events and the
components say.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from components import Health, Position
from components.events import AreaCreated, Healed, Moved, SaveRolled
from game import Battle, IllegalCommand, load_scenario
from game.content.powers import default_powers, parse_power
from game.content.saves import SaveError, load_game, save_game
from systems.geometry import distance_ft


def powers(**extra: dict[str, Any]) -> dict[str, Any]:
    table = dict(default_powers())
    for power_id, keys in extra.items():
        table[power_id] = parse_power(power_id, {"name": power_id, "description": "test", **keys}, "test")
    return table


def new(**extra: dict[str, Any]) -> Battle:
    return Battle(seed=9, width=20, height=20, powers=powers(**extra))


def reached(b: Battle, user: int, power: str, **aim: Any) -> set[int]:
    return {t.target for t in b.forecast(user, power, **aim).targets}


# ---------------------------------------------------------------------------------------------- ranged areas


def test_if_the_power_lists_a_range_the_area_is_centered_on_a_point_you_can_see_within_range() -> None:
    """"If the power lists a range, the area is centered on a point you can see within range" - every
    shape: a burst, a cone and a line start at the chosen point, and so do areas of light and dark."""
    b = new(spray={"range_ft": 60, "area": {"shape": "cone", "length_ft": 15}, "damage": "1d4"},
            ray={"range_ft": 60, "area": {"shape": "line", "length_ft": 20, "width_ft": 5}, "damage": "1d4"})
    mage = b.spawn("Mage", 2, 10, team="blue", powers=["fireball", "spray", "ray", "darkness", "light"])
    far = b.spawn("Far", 12, 10, team="red")
    beyond = b.spawn("Beyond", 14, 10, team="red")
    near = b.spawn("Near", 4, 10, team="red")
    assert reached(b, mage, "fireball", point=(12, 10)) == {far, beyond}
    # the cone and the line start at (11, 10) and face away from the mage, east
    assert reached(b, mage, "spray", point=(11, 10)) == {far, beyond}
    assert reached(b, mage, "ray", point=(11, 10)) == {far, beyond}
    assert near not in reached(b, mage, "spray", point=(11, 10))
    b.start_combat()
    b.use_power(mage, "darkness", point=(12, 12))
    b.tick()
    made = [e for e in b.events if isinstance(e, AreaCreated)][-1]
    assert (made.x, made.y) == (12, 12)


def test_a_cone_from_a_point_faces_where_the_command_says() -> None:
    b = new(spray={"range_ft": 60, "area": {"shape": "cone", "length_ft": 15}, "damage": "1d4"})
    mage = b.spawn("Mage", 2, 10, team="blue", powers=["spray"])
    north = b.spawn("North", 11, 7, team="red")
    east = b.spawn("East", 13, 10, team="red")
    assert reached(b, mage, "spray", point=(11, 10), direction="n") == {north}
    assert reached(b, mage, "spray", point=(11, 10), direction=(1, 0)) == {east}


@pytest.mark.parametrize("diagonal", ["one", "alternating"])
def test_a_line_is_as_long_by_the_rules_distance_whichever_way_it_faces(diagonal: str) -> None:
    """"Some powers have an area": a 30 ft line reaches 30 ft as every range and burst measures feet
    (the rules' diagonal rule), aimed along a row or a diagonal, and the forecast's squares are the
    squares the use resolves over."""
    b = Battle(seed=9, width=20, height=20, rules={"diagonal": diagonal})
    mage = b.spawn("Mage", 1, 1, team="blue", powers=["lightning"])
    for direction in ("e", "se", "s", (2, 1)):
        squares = b.squares_in_area("lightning", mage, direction=direction)
        farthest = max(distance_ft((1, 1), s, b.rules) for s in squares)
        assert farthest == 30, (direction, squares)
        assert sorted(b.forecast(mage, "lightning", direction=direction).squares) == sorted(squares)
    diagonal_squares = b.squares_in_area("lightning", mage, direction="se")
    assert len(diagonal_squares) == (6 if diagonal == "one" else 4)  # 4 diagonal steps are 5-10-5-10: 30 ft
    foe = b.spawn("Foe", 6, 6, team="red")  # five diagonal steps: 25 ft, or 35 ft under 5-10-5
    assert reached(b, mage, "lightning", direction="se") == ({foe} if diagonal == "one" else set())
    b.start_combat()
    b.use_power(mage, "lightning", direction="se")
    b.tick()
    rolled = {e.entity for e in b.events if isinstance(e, SaveRolled)}
    assert rolled == ({foe} if diagonal == "one" else set())


def test_a_cone_aimed_at_the_users_own_square_needs_a_direction() -> None:
    b = new(spray={"range_ft": 60, "area": {"shape": "cone", "length_ft": 15}, "damage": "1d4"})
    mage = b.spawn("Mage", 2, 10, team="blue", powers=["spray"])
    foe = b.spawn("Foe", 2, 12, team="red")
    with pytest.raises(IllegalCommand, match="give it a direction"):
        b.use_power(mage, "spray", point=(2, 10))
    assert reached(b, mage, "spray", point=(2, 10), direction="s") == {foe}


# ---------------------------------------------------------------------------------------------- areas on you


def test_otherwise_the_area_is_centered_on_you() -> None:
    """"otherwise the area is centered on you": an area with no range needs no target and no point."""
    b = new(gloom={"area_effect": {"radius_ft": 10, "level": "no vision"}, "duration": 2},
            ring={"area": {"shape": "burst", "radius_ft": 10}, "damage": "1d4"})
    witch = b.spawn("Witch", 8, 8, team="blue", powers=["gloom", "ring"])
    foe = b.spawn("Foe", 9, 9, team="red")
    b.spawn("Away", 15, 15, team="red")
    b.start_combat()
    b.use_power(witch, "gloom")  # no target, no point
    b.tick()
    made = [e for e in b.events if isinstance(e, AreaCreated)][-1]
    assert (made.x, made.y) == (8, 8)
    assert reached(b, witch, "ring") == {witch, foe}  # no target listed: everyone in it, the user too


# ---------------------------------------------------------------------------------------------- targets in areas


def test_if_the_power_doesnt_list_a_target_it_targets_all_creatures_in_the_area() -> None:
    """"If the power doesn't list a target, it targets all creatures in the area" - and one that lists
    its targets reaches only those inside it."""
    b = new(blast={"range_ft": 60, "area": {"shape": "burst", "radius_ft": 10}, "damage": "1d4"},
            smite={"range_ft": 60, "area": {"shape": "burst", "radius_ft": 10}, "targets": "enemies",
                   "damage": "1d4"},
            aura={"area": {"shape": "burst", "radius_ft": 10}, "targets": "self", "healing": "1d4"})
    priest = b.spawn("Priest", 5, 5, team="blue", powers=["blast", "smite", "aura", "sanctuary-light"])
    friend = b.spawn("Friend", 10, 10, team="blue")
    foe = b.spawn("Foe", 11, 10, team="red")
    assert reached(b, priest, "blast", point=(10, 10)) == {friend, foe}
    assert reached(b, priest, "smite", point=(10, 10)) == {foe}
    helper = b.spawn("Helper", 6, 5, team="blue")
    b.spawn("Enemy beside", 5, 6, team="red")
    assert reached(b, priest, "sanctuary-light") == {priest, helper}  # allies only
    assert reached(b, priest, "aura") == {priest}  # itself only, though others stand in it


# ---------------------------------------------------------------------------------------------- range in 3D


def test_some_powers_have_a_range_in_feet_and_height_counts() -> None:
    """"Some powers have a range in feet": a flier 60 ft up, one square over, is 60.2 ft away."""
    b = new()
    archer = b.spawn("Archer", 5, 5, team="blue", powers=["shoot", "dazzle", "strike"])
    flier = b.spawn("Flier", 5, 6, z=60, flying=True, team="red")
    with pytest.raises(IllegalCommand, match="60.21 ft away and Shoot reaches 60 ft"):
        b.use_power(archer, "shoot", target=flier)
    with pytest.raises(IllegalCommand, match="ft away and Dazzle reaches 30 ft"):
        b.use_power(archer, "dazzle", target=flier)
    lower = b.spawn("Lower", 6, 5, z=55, flying=True, team="red")
    b.use_power(archer, "shoot", target=lower)  # 55.2 ft: in reach
    with pytest.raises(IllegalCommand, match="Strike reaches 5 ft"):  # melee reach counts height too
        b.use_power(archer, "strike", target=flier)


def test_a_burst_catches_a_flier_only_within_its_radius_in_three_dimensions() -> None:
    b = new()
    mage = b.spawn("Mage", 2, 2, team="blue", powers=["fireball"])
    low = b.spawn("Low", 10, 11, team="red")
    high = b.spawn("High", 10, 9, z=30, flying=True, team="red")
    assert reached(b, mage, "fireball", point=(10, 10)) == {low}
    b.close()
    wide = Battle(seed=9, width=20, height=20, rules={"height_distance": "larger"})
    mage = wide.spawn("Mage", 2, 2, team="blue", powers=["fireball"])
    high = wide.spawn("High", 10, 9, z=10, flying=True, team="red")
    assert reached(wide, mage, "fireball", point=(10, 10)) == {high}  # the larger of 5 ft and 10 ft


def test_the_larger_of_the_two_distances_is_a_rules_key() -> None:
    b = Battle(seed=9, width=20, height=20, rules={"height_distance": "larger"})
    archer = b.spawn("Archer", 5, 5, team="blue", powers=["dazzle"])
    flier = b.spawn("Flier", 5, 6, z=30, flying=True, team="red")
    b.use_power(archer, "dazzle", target=flier)  # max(5, 30) = 30 ft: in reach
    with pytest.raises(ValueError, match="height_distance"):
        Battle(rules={"height_distance": "sideways"})


# ---------------------------------------------------------------------------------------------- cover


def keep_wall(b: Battle) -> None:
    """A wall along x = 5 with an arrow slit at (5, 5)."""
    for y in range(b.height):
        if y != 5:
            b.add_wall(5, y)
    b.set_terrain(5, 5, ["movement", "pushes", "fliers"])


def test_battlements_or_arrow_slits_give_cover_but_can_be_seen_through() -> None:
    """"Some environmental features, such as battlements or arrow slits, make it much harder for
    creatures to hit you with attacks": a slit blocks movement but not sight; it hides the archer
    behind it, while the archer leaning to it shoots out at exposed raiders."""
    b = new()
    keep_wall(b)
    archer = b.spawn("Archer", 4, 5, team="keep", powers=["shoot"])
    raider = b.spawn("Raider", 9, 5, team="raiders", powers=["shoot"])
    flanker = b.spawn("Flanker", 9, 7, team="raiders", powers=["shoot"])
    assert b.can_see(archer, raider) and b.can_see(raider, archer)
    assert not b.has_cover(raider, archer)  # the archer leans to the opening
    assert b.has_cover(archer, raider) and b.has_cover(archer, flanker)
    assert b.defense_against(archer, flanker) == 10 + 5
    assert not b.forecast_move(archer, (6, 5)).legal  # nobody walks through a slit
    with pytest.raises(IllegalCommand, match="blocks it"):
        b.spawn("Squeezed", 5, 5)


def test_a_battlement_stops_walkers_but_not_fliers_or_arrows() -> None:
    b = new()
    for y in range(b.height):
        b.set_terrain(5, y, ["movement", "pushes"])
    walker = b.spawn("Walker", 4, 5, team="a")
    bird = b.spawn("Bird", 4, 7, flying=True, team="a")
    assert not b.forecast_move(walker, (6, 5)).legal
    assert b.forecast_move(bird, (6, 7)).legal
    b.move(bird, 6, 7)
    b.tick()
    assert b.get(bird, Position).square == (6, 7) and any(isinstance(e, Moved) for e in b.events)


def test_at_the_gms_discretion_cover_can_be_switched_off() -> None:
    """"At the GM's discretion, these environmental features may give you cover from enemies.\""""
    b = Battle(seed=9, width=20, height=20, rules={"cover_enabled": False})
    keep_wall(b)
    archer = b.spawn("Archer", 4, 5, team="keep")
    flanker = b.spawn("Flanker", 9, 7, team="raiders")
    assert not b.has_cover(archer, flanker) and b.defense_against(archer, flanker) == 10


def test_the_keep_scenario_draws_its_slits_with_see_through_terrain() -> None:
    scenario = load_scenario("assets/scenarios/keep.toml")
    b, ids = scenario.build_with_ids()
    west, raider = ids["archer_west"], ids["raider_archer"]
    assert b.terrain.blockers.any()
    assert b.can_see(west, raider) and b.has_cover(west, raider) and not b.has_cover(raider, west)


# ---------------------------------------------------------------------------------------------- rules versions


def test_an_old_save_that_plays_differently_says_so_in_one_line(tmp_path: Path) -> None:
    scenario = load_scenario("assets/scenarios/ledge.toml")
    battle, _ = scenario.build_with_ids()
    battle.start_combat()
    battle.tick()
    path = tmp_path / "old.json"
    save_game(path, scenario, battle)
    document = json.loads(path.read_text())
    document["rules_version"] = 1
    document["events"][-1]["round"] = 99  # what older rules would have recorded
    path.write_text(json.dumps(document))
    with pytest.raises(SaveError) as caught:
        load_game(path)
    message = str(caught.value)
    assert "rules version 1" in message and "\n" not in message and "event #" not in message


def test_an_area_centred_on_you_heals_the_allies_in_it() -> None:
    b = new()
    priest = b.spawn("Priest", 5, 5, team="blue", powers=["sanctuary-light"], health=10)
    foe = b.spawn("Foe", 6, 6, team="red", health=10)
    b.damage(priest, 4)
    b.damage(foe, 4)
    b.start_combat()
    b.use_power(priest, "sanctuary-light")
    b.tick()
    healed = {e.entity for e in b.events if isinstance(e, Healed)}
    assert priest in healed and foe not in healed
    assert b.get(foe, Health).current == 6
