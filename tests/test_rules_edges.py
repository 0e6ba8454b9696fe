"""Edge cases a review found: each one a rule that used to bend somewhere."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from components import Position, Visibility
from components.events import RoundEnded
from game import Battle, IllegalCommand
from game.content.powers import default_powers, parse_power
from game.content.scenario import load_scenario_text
from game.content.scenario_model import ScenarioError
from systems.visibility import sees
from tests.event_steps import kinds


def test_walking_across_a_pit_steps_off_at_its_edge_and_falls() -> None:
    b = Battle(seed=1)
    for x in range(0, 16):
        b.set_ground(x, 2, 30)
    for x in (3, 4, 5):
        b.set_ground(x, 2, 0)          # a 15 ft wide, 30 ft deep pit across the path
    walker = b.spawn("walker", 1, 2, health=40)
    b.move(walker, 6, 2)               # 25 ft: legal, but the way crosses the pit
    b.tick()
    [moved] = kinds(b, "moved")
    assert moved.to_square == (3, 2)   # the first square with nothing under it
    assert b.get(walker, Position).z == 0 and kinds(b, "landed")[0].distance_ft == 30


def test_a_second_queued_move_goes_on_from_where_the_first_lands() -> None:
    """Given after a move off a ledge, it starts from where that move lands; given along a ridge that
    then gives way, the turn checks it again from where the creature landed."""
    b = Battle(seed=1)
    b.set_ground(1, 1, 20)
    e = b.spawn("e", 1, 1)
    b.move(e, 2, 1)
    b.move(e, 3, 1)  # from (2, 1), on the ground
    b.tick()
    assert [m.to_square for m in kinds(b, "moved")] == [(2, 1), (3, 1)]
    b = Battle(seed=1, rules={"fall_ft_per_round": 10})
    b.set_ground(1, 1, 20)
    b.set_ground(2, 1, 20)
    e = b.spawn("e", 1, 1)
    b.move(e, 2, 1)
    b.move(e, 3, 1)  # along the ridge, then off its end: legal
    b.set_ground(2, 1, 0)  # the ridge gives way: a 20 ft fall, 10 ft a round
    b.tick()
    assert [m.to_square for m in kinds(b, "moved")] == [(2, 1)]
    assert [(r.command, r.reason) for r in kinds(b, "command_refused")] == [("move to (3, 1)", "it is falling")]


def test_a_flight_ending_in_the_air_drops_the_creature_in_the_same_round() -> None:
    b = Battle(seed=2)
    for x in range(0, 16):
        b.set_ground(x, 3, 30)
    b.set_ground(5, 3, 0)
    flyer = b.spawn("flyer", 4, 3, health=40)
    b.use_power(flyer, "fly")
    b.tick()
    b.move(flyer, 5, 3)                # over the pit, flying: no fall yet
    b.tick()                           # fly (1 round) ends at the end of this round
    assert b.get(flyer, Position).z == 0
    [landed] = kinds(b, "landed")
    assert landed.round == b.round


def _scripted(tmp_path: Path, name: str, source: str, **table: object) -> Battle:
    (tmp_path / f"{name}.star").write_text(source)
    power = parse_power(name, {"name": name, "description": "test", "range_ft": 30, "script": f"{name}.star",
                               **table}, "test")
    return Battle(seed=3, powers={**default_powers(), name: power}, script_dir=tmp_path)


def test_what_a_power_s_script_grants_ends_with_the_power(tmp_path: Path) -> None:
    b = _scripted(tmp_path, "bind", 'def on_hit(ctx, target):\n    ctx.add_condition(target, "restrained")\n',
                  conditions=["dazzled"], duration=1)
    u, t = b.spawn("u", 1, 1, team="a"), b.spawn("t", 3, 1, team="b")
    b.use_power(u, "bind", target=t)
    b.tick()
    assert {"dazzled", "restrained"} <= b.conditions(t)
    b.tick()
    assert not ({"dazzled", "restrained"} & b.conditions(t))


def test_a_script_cannot_cut_short_another_power_s_condition_nor_touch_the_dead(tmp_path: Path) -> None:
    b = _scripted(tmp_path, "cure", 'def on_hit(ctx, target):\n    ctx.remove_condition(target, "dazzled")\n'
                  '    ctx.remove_condition(target, "prone")\n')
    u, t = b.spawn("u", 1, 1, team="a"), b.spawn("t", 3, 1, team="b")
    b.add_condition(t, "prone")
    b.use_power(u, "dazzle", target=t)  # may be saved against: retry until it lands
    for _ in range(20):
        b.tick()
        if "dazzled" in b.conditions(t):
            break
        b.use_power(u, "dazzle", target=t)
    assert "dazzled" in b.conditions(t)
    b.use_power(u, "cure", target=t)
    b.tick()
    assert "prone" not in b.conditions(t)       # the GM's grant is cured
    assert "dazzled" in b.conditions(t)         # the live dazzle's grant stays until it ends


def test_nothing_pushes_the_dead(tmp_path: Path) -> None:
    b = _scripted(tmp_path, "heave", "def on_hit(ctx, target):\n    ctx.push(target, ctx.user, 15)\n")
    u, corpse = b.spawn("u", 1, 1, team="a"), b.spawn("c", 2, 1, team="b", health=1)
    for _ in range(6):
        b.damage(corpse, 1)
    b.tick()
    assert "dead" in b.conditions(corpse)
    b.use_power(u, "heave", target=u)  # aimed at itself; the script pushes the corpse instead
    b.tick()
    assert b.get(corpse, Position).square == (2, 1)


def test_a_creature_s_own_round_end_reaction_runs(tmp_path: Path) -> None:
    (tmp_path / "tick.star").write_text("def on_round_end(ctx, event):\n    ctx.heal(ctx.me, 1)\n")
    b = Battle(seed=1, script_dir=tmp_path)
    e = b.spawn("e", 1, 1, health=10)
    b.attach_reaction("tick.star", e)
    b.damage(e, 5)
    for _ in range(3):
        b.tick()  # each round's end asks for a heal, which resolves as the next round starts
    assert [h.health for h in kinds(b, "healed")] == [6, 7]


def test_darkness_between_two_lit_squares_blocks_sight() -> None:
    b = Battle(seed=1)
    archer, target = b.spawn("archer", 1, 5, team="a"), b.spawn("target", 9, 5, team="b")
    assert b.can_see(archer, target)
    b.add_area(5, 5, 5, Visibility.NO_VISION)       # a cloud of smoke in between
    assert not b.can_see(archer, target)
    with pytest.raises(ValueError, match="cannot see"):
        b.use_power(archer, "shoot", target=target)


def test_sight_answers_follow_each_grid_as_darkness_and_lights_come_and_go() -> None:
    """Grids with no square at no vision share their sight answers (the walls alone decide them):
    a light lit or put out must not hide darkness that blocks a line, nor keep blocking a line
    once the darkness is gone."""
    b = Battle(seed=1)
    archer, target = b.spawn("archer", 1, 5, team="a"), b.spawn("target", 9, 5, team="b")
    behind_wall = b.spawn("hidden", 1, 9, team="b")
    b.add_wall(1, 7)
    assert b.can_see(archer, target) and not b.can_see(archer, behind_wall)
    light = b.add_light(1, 1, 10, Visibility.NORMAL)  # a new grid, still no darkness anywhere
    assert b.can_see(archer, target) and not b.can_see(archer, behind_wall)
    smoke = b.add_area(5, 5, 5, Visibility.NO_VISION)
    assert not b.can_see(archer, target)
    b.remove_area(smoke)
    b.remove_light(light)
    assert b.can_see(archer, target) and not b.can_see(archer, behind_wall)
    b.add_area(5, 5, 5, Visibility.NO_VISION)  # the same dark grid again: its own answers, not the light's
    assert not b.can_see(archer, target)


def test_sight_is_the_same_both_ways_and_for_every_viewer_with_some_vision() -> None:
    """Why one kept answer serves a pair of squares whoever looks: ``sees`` reads the viewer's
    level only for "no vision", and a line is clear both ways or neither (walls and darkness)."""
    rng = random.Random(5)
    for _ in range(20):
        walls = np.zeros((12, 12), dtype=bool)
        levels = np.full((12, 12), int(Visibility.NORMAL), dtype=np.int8)
        for _ in range(15):
            walls[rng.randrange(12), rng.randrange(12)] = True
            levels[rng.randrange(12), rng.randrange(12)] = int(Visibility.NO_VISION)
        for _ in range(60):
            a, b = (rng.randrange(12), rng.randrange(12)), (rng.randrange(12), rng.randrange(12))
            seen = {sees(walls, levels, int(level), here, there) for level in Visibility
                    if level != Visibility.NO_VISION for here, there in ((a, b), (b, a))}
            assert len(seen) == 1, (a, b)
            assert not sees(walls, levels, int(Visibility.NO_VISION), a, b)


def test_no_surprise_rounds_means_nobody_is_surprised() -> None:
    b = Battle(seed=1, rules={"surprise_rounds": 0})
    sleeper = b.spawn("sleeper", 1, 1, prepared=False)
    b.start_combat()
    assert "surprised" not in b.conditions(sleeper)
    with pytest.raises(ValueError, match="surprise_rounds"):
        Battle(rules={"surprise_rounds": -1})


def test_a_python_handler_that_reads_another_battle_does_not_break_the_tick() -> None:
    other = Battle(seed=9)
    stranger = other.spawn("stranger", 1, 1)
    b = Battle(seed=1)
    b.spawn("e", 1, 1)
    seen: list[set[str]] = []
    b.on(RoundEnded, lambda battle, event: seen.append(other.conditions(stranger)))
    b.tick()
    b.tick()
    assert len(seen) == 2 and b.round == 2


def test_reaction_scripts_are_plain_names_in_the_script_folder() -> None:
    b = Battle(seed=1)
    with pytest.raises(ValueError, match=r"\.star"):
        b.attach_reaction("../../../../etc/hostname")


def test_two_living_creatures_never_share_a_square_however_they_are_spawned() -> None:
    """spawn refuses a square a living creature stands on, naming it, as the scenario loader does;
    the refusal changes nothing. The dead stand in nobody's way (a move may end on them too)."""
    b = Battle(seed=1, width=8, height=8)
    orc = b.spawn("Orc", 3, 4, team="red", health=4)
    before = (list(b.events), list(b.command_log), b.creatures())
    with pytest.raises(IllegalCommand, match=rf"\(3, 4\).*Orc \(#{orc}\) stands there"):
        b.spawn("Elf", 3, 4, team="blue")
    assert (list(b.events), list(b.command_log), b.creatures()) == before
    with pytest.raises(ScenarioError, match=r"\(1, 0\) is already taken by 'orc'"):
        load_scenario_text(_TWO_ON_ONE.replace('x = 5', 'x = 1'))
    b.damage(orc, 4)
    b.add_fatigue(orc, 5)
    b.tick()
    assert "dead" in b.conditions(orc)
    assert b.get(b.spawn("Elf", 3, 4, team="blue"), Position).square == (3, 4)


_TWO_ON_ONE = """
[map]
rows = ["..~..."]
legend = { "." = { ground = 0 }, "~" = { ground = -3, soft = true } }
[teams.a]
[teams.b]
[[creatures]]
key = "orc"
team = "a"
x = 1
y = 0
[[creatures]]
key = "wader"
team = "b"
x = 2
y = 0
[[creatures]]
key = "elf"
team = "b"
x = 5
y = 0
"""


def test_a_creature_spawned_without_a_height_stands_on_the_ground_of_its_square() -> None:
    """In a stream 3 ft below the bank, spawned by the API or by a scenario, a creature stands on the
    stream's bed: nothing falls at the first tick. A height below the ground is raised to it."""
    b = Battle(seed=1, width=8, height=8)
    b.set_ground(2, 2, -3)
    wader = b.spawn("Wader", 2, 2, team="a")
    low = b.spawn("Low", 3, 3, z=-50, team="b")
    assert b.get(wader, Position).z == -3 and b.get(low, Position).z == 0
    battle, ids = load_scenario_text(_TWO_ON_ONE).build_with_ids()
    assert battle.get(ids["wader"], Position).z == -3
    for each in (b, battle):
        each.tick()
        assert not kinds(each, "fell") and not kinds(each, "landed")
    assert b.get(wader, Position).z == -3 and battle.get(ids["wader"], Position).z == -3
    battle.close()


def test_ground_raised_under_a_placed_creature_lifts_it_at_once() -> None:
    """Drawn under a creature while the battle is set up, a ledge holds it up before the first tick:
    its forecast steps off a 30 ft drop, and the fall it then takes is the one forecast."""
    b = Battle(seed=1)
    hero = b.spawn("hero", 2, 2, health=30)
    b.set_ground(2, 2, 30)
    assert b.get(hero, Position).z == 30
    b.start_combat()
    forecast = b.forecast_move(hero, (3, 2))
    assert forecast.fall is not None and forecast.fall.distance_ft == 30
    b.move(hero, 3, 2)
    b.tick()
    [landed] = kinds(b, "landed")
    assert landed.distance_ft == 30 and landed.dice == forecast.fall.dice


def test_ground_lowered_mid_battle_drops_the_creature_before_its_next_order() -> None:
    """A floor giving way in a round drops whoever stands on it in the same call, so the order
    given next is checked from where it landed and is not refused at resolution."""
    b = Battle(seed=1)
    b.set_ground(2, 2, 20)
    hero = b.spawn("hero", 2, 2, health=30)
    b.start_combat()
    b.tick()
    b.set_ground(2, 2, 0)
    assert b.get(hero, Position).z == 0
    [landed] = kinds(b, "landed")
    assert landed.distance_ft == 20
    b.move(hero, 3, 2)
    b.tick()
    assert not kinds(b, "command_refused")
    assert b.get(hero, Position).square == (3, 2)


def test_drawing_the_ground_at_set_up_carries_a_standing_creature_both_ways() -> None:
    """Raised, then lowered again before the battle: the creature stands where the ground ends, and
    nobody falls at the first round for a height the map only passed through while being drawn."""
    b = Battle(seed=1)
    hero = b.spawn("hero", 2, 2, health=30)
    b.set_ground(2, 2, 30)
    b.set_ground(2, 2, 10)
    assert b.get(hero, Position).z == 10
    high = b.spawn("perched", 5, 5, z=20, flying=False, health=30)
    b.set_ground(5, 5, 10)  # under the perch: it still hangs there, and falls when the round starts
    assert b.get(high, Position).z == 20
    b.start_combat()
    b.tick()
    assert [(e.entity, e.distance_ft) for e in kinds(b, "landed")] == [(high, 10)]
    assert b.get(hero, Position).z == 10
