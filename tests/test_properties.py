"""Properties over random command sequences: the invariants of Health, Fatigue and dying hold after
every command and tick, the dead never change, and the same seed and commands give the same events.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from components import Fatigue, Health, Position, Rules, Vision
from components.forecasts import DefenseBreakdown, RollMode
from game import Battle
from game.battle.errors import IllegalCommand
from systems.geometry import distance_3d_ft, distances_3d_ft, distances_3d_ft_to
from systems.odds import chance, chance_at_least
from systems.power_checks import AttackTerms

SIZE = 8
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

squares = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
who = st.integers(0, 5)  # index into the creatures, taken modulo their number

commands = st.one_of(
    st.tuples(st.just("damage"), who, st.integers(0, 14)),
    st.tuples(st.just("damage"), who, st.integers(0, 3)),
    st.tuples(st.just("barrage"), who, st.integers(2, 8)),  # several hits at once, so that some die
    st.tuples(st.just("heal"), who, st.integers(0, 12)),
    st.tuples(st.just("add_fatigue"), who, st.integers(0, 3)),
    st.tuples(st.just("recover_fatigue"), who, st.integers(0, 2)),
    st.tuples(st.just("move"), who, squares),
    st.tuples(st.just("set_ground"), squares, st.sampled_from([0, 5, 9, 10, 19, 30, 600]), st.booleans()),
    st.tuples(st.just("condition"), who, st.sampled_from(["dazzled", "blinded", "prone"]), st.booleans()),
    st.tuples(st.just("start_combat"),),
    st.tuples(st.just("tick"),),
    st.tuples(st.just("tick"),),
)

creature = st.fixed_dictionaries({
    "health": st.integers(1, 12),
    "z": st.sampled_from([0, 0, 0, 15, 700]),
    "flying": st.booleans(),
    "prepared": st.booleans(),
})
setups = st.tuples(st.lists(creature, min_size=1, max_size=4), st.lists(squares, min_size=4, max_size=4, unique=True))


def apply(b: Battle, ids: list[int], command: tuple) -> None:
    """Issue one command; a refusal (IllegalCommand: a move out of reach, a second start_combat) is fine
    and changes nothing. A tick is never excused: whatever it raises is a bug and fails the test."""
    op, *args = command
    if op == "tick":
        b.tick()
        return
    try:
        if op == "barrage":
            for _ in range(args[1]):
                b.damage(ids[args[0] % len(ids)], 7)
        elif op in ("damage", "heal", "add_fatigue", "recover_fatigue"):
            getattr(b, op)(ids[args[0] % len(ids)], args[1])
        elif op == "move":
            b.move(ids[args[0] % len(ids)], *args[1])
        elif op == "set_ground":
            (x, y), height, soft = args
            b.set_ground(x, y, height, soft=soft)
        elif op == "condition":
            entity, name, add = ids[args[0] % len(ids)], args[1], args[2]
            (b.add_condition if add else b.remove_condition)(entity, name)
        elif op == "start_combat":
            b.start_combat()
        else:
            raise AssertionError(f"no such command in this test: {op!r}")
    except IllegalCommand:
        pass


def build(seed: int, setup) -> tuple[Battle, list[int]]:
    specs, places = setup
    b = Battle(seed=seed, width=SIZE, height=SIZE)
    ids = [b.spawn(f"c{i}", *places[i], team=f"t{i % 2}", **spec) for i, spec in enumerate(specs)]
    return b, ids


def snapshot(b: Battle, e: int) -> tuple:
    return tuple(copy.deepcopy(b.get(e, c)) for c in (Health, Fatigue, Position, Vision)) + (b.conditions(e),)


def check_invariants(b: Battle, ids: list[int], dead: dict[int, tuple]) -> None:
    rules = b.rules  # the thresholds of the rules table, not their default numbers
    for e in ids:
        health, fatigue = b.get(e, Health), b.get(e, Fatigue)
        conds = b.conditions(e)
        assert 0 <= health.current <= health.maximum
        assert fatigue.maximum == rules.max_fatigue
        assert 0 <= fatigue.level <= rules.max_fatigue
        is_dead = health.current == 0 and fatigue.level == rules.max_fatigue
        assert ("dead" in conds) is is_dead, (health, fatigue, conds)
        assert b.is_alive(e) is not is_dead
        if e in dead:
            assert snapshot(b, e) == dead[e], "a dead creature changed"
            continue
        if is_dead:
            dead[e] = snapshot(b, e)
        assert ("downed" in conds) is (health.current == 0)
        assert ("unconscious" in conds) is (fatigue.level >= rules.unconscious_at_fatigue)
        assert ("slowed" in conds) is (fatigue.level >= rules.slowed_at_fatigue)


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**16), setup=setups, program=st.lists(commands, min_size=3, max_size=40))
def test_invariants_hold_after_every_command(seed, setup, program):
    b, ids = build(seed, setup)
    dead: dict[int, tuple] = {}
    check_invariants(b, ids, dead)
    for command in program:
        apply(b, ids, command)
        check_invariants(b, ids, dead)
    b.tick()
    check_invariants(b, ids, dead)
    event(f"dead creatures: {len(dead)}")
    event(f"falls that hurt: {min(2, sum(1 for ev in b.events if ev.kind == 'landed' and ev.dice))}")
    # after a tick, nobody alive stands below the ground of its square
    for e in ids:
        if e not in dead:
            p = b.get(e, Position)
            assert p.z >= b.terrain.ground[p.x, p.y]
    b.close()


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**16), setup=setups, program=st.lists(commands, max_size=25))
def test_same_seed_and_commands_give_the_same_events(seed, setup, program):
    first, ids1 = build(seed, setup)
    second, ids2 = build(seed, setup)
    assert ids1 == ids2
    for command in program:
        apply(first, ids1, command)
        apply(second, ids2, command)
    first.run(2)
    second.run(2)
    assert first.events == second.events
    again = Battle.replay(seed, SIZE, SIZE, None, first.command_log)
    assert again.events == first.events
    for b in (first, second, again):
        b.close()


@pytest.mark.slow
@SETTINGS
@given(amounts=st.lists(st.tuples(st.booleans(), st.integers(0, 15)), max_size=20), health=st.integers(1, 12))
def test_health_follows_the_pool_arithmetic(amounts, health):
    """Model: clamp to 0..max, the rules' fatigue for each hit that lands at or drops to 0, until dead."""
    b = Battle(seed=0, width=4, height=4)
    e = b.spawn("a", 0, 0, health=health)
    most, per_hit = b.rules.max_fatigue, b.rules.fatigue_per_hit_at_zero
    model_h, model_f = health, 0
    for is_hit, amount in amounts:
        (b.damage if is_hit else b.heal)(e, amount)
        if model_h == 0 and model_f == most or amount == 0:
            continue
        if is_hit:
            model_h = max(0, model_h - amount)
            if model_h == 0:
                model_f = min(most, model_f + per_hit)
        else:
            model_h = min(health, model_h + amount)
    b.tick()
    assert (b.get(e, Health).current, b.get(e, Fatigue).level) == (model_h, model_f)
    b.close()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(points=st.lists(st.tuples(st.integers(0, 600), st.integers(0, 600),
                                 st.one_of(st.sampled_from([0.0, 5.0, 10.0, -20.0]), st.floats(-500, 500))),
                       min_size=1, max_size=20),
       b=st.tuples(st.integers(0, 600), st.integers(0, 600)), b_z=st.floats(-500, 500),
       diagonal=st.sampled_from(["one", "alternating"]), height=st.sampled_from(["straight", "larger"]))
def test_the_array_distance_a_planner_ranks_by_equals_the_rules_distance_exactly(
        points: list[tuple[int, int, float]], b: tuple[int, int], b_z: float, diagonal: str, height: str) -> None:
    rules = Rules.from_mapping({"diagonal": diagonal, "height_distance": height})
    xs, ys, zs = (np.array(axis) for axis in zip(*points))
    found = distances_3d_ft(xs, ys, zs.astype(np.float64), b, b_z, rules).tolist()
    assert found == [distance_3d_ft((x, y), z, b, b_z, rules) for x, y, z in points]
    # and from every point to several targets at once (the shortlist's one pass): row by row the same
    targets = [(b, b_z), ((b[1], b[0]), 0.0), ((b[0] // 2, b[1]), b_z / 3)]
    rows = distances_3d_ft_to(xs, ys, zs.astype(np.float64), targets, rules).tolist()
    assert rows == [distances_3d_ft(xs, ys, zs.astype(np.float64), t, t_z, rules).tolist() for t, t_z in targets]


@settings(max_examples=300, deadline=None)
@given(mode=st.sampled_from(["normal", "advantage", "disadvantage", "critical failure"]),
       bonus=st.integers(-30, 30), defense=st.integers(-10, 50))
def test_the_hit_chance_table_equals_summing_the_faces_the_attack_roll_accepts(mode: str, bonus: int,
                                                                                defense: int) -> None:
    terms = AttackTerms(RollMode(mode), bonus, DefenseBreakdown(defense, defense))
    assert terms.hit_chance() == chance(20, mode, terms.hits)
    assert chance_at_least(mode, defense) == chance(20, mode, lambda roll: roll >= defense)
