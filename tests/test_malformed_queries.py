"""Malformed squares, lists and values given to the queries and commands: each is refused with
IllegalCommand naming the argument and what was expected, never a TypeError, AttributeError or a
numpy error from deep inside, and a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from game import Battle, IllegalCommand

Call = Callable[[Battle, int, int], Any]


def skirmish() -> tuple[Battle, int, int]:
    b = Battle(seed=1, width=8, height=8)
    hero = b.spawn("H", 1, 1, team="a", powers=["shoot", "fireball", "burning-hands"])
    orc = b.spawn("O", 4, 1, team="b")
    b.start_combat()
    return b, hero, orc


CASES: list[tuple[str, Call, str]] = [
    ("forecast from_square=3", lambda b, h, o: b.forecast(h, "shoot", target=o, from_square=3),
     r"from_square must be a square \(x, y\), not 3"),
    ("forecast from_square=(1,)", lambda b, h, o: b.forecast(h, "shoot", target=o, from_square=(1,)),
     r"from_square must be a square \(x, y\), not \(1,\)"),
    ("forecast_move None", lambda b, h, o: b.forecast_move(h, None), r"square must be a square \(x, y\), not None"),
    ("forecast_moves_to [5]", lambda b, h, o: b.forecast_moves_to(h, [5]), r"each of squares must be a square"),
    ("forecast_moves_to 5", lambda b, h, o: b.forecast_moves_to(h, 5), r"squares must be a list of squares"),
    ("forecast_moves_to after", lambda b, h, o: b.forecast_moves_to(h, [(2, 2)], after=7),
     r"after must be a square \(x, y\), not 7"),
    ("forecast_moves_to way", lambda b, h, o: b.forecast_moves_to(h, [(2, 2)], way=1),
     r"way must be True or False, not 1"),
    ("forecast_uses", lambda b, h, o: b.forecast_uses(h, "a"), r"from_square must be a square"),
    ("threat True", lambda b, h, o: b.threat(h, True), r"each of squares must be a square \(x, y\), not True"),
    ("threats among=True", lambda b, h, o: b.threats(h, [(2, 2)], among=True),
     r"among must be a list of creature ids, not True"),
    ("threats [None]", lambda b, h, o: b.threats(h, [None]), r"each of squares must be a square"),
    ("queued_stop [None]", lambda b, h, o: b.queued_stop(h, [None]), r"each of moves must be a square"),
    ("queued_fall 3", lambda b, h, o: b.queued_fall(h, 3), r"moves must be a list of squares"),
    ("can_see (1,)", lambda b, h, o: b.can_see(h, (1,)), r"target square must be a square \(x, y\), not \(1,\)"),
    ("forecast_many (shoot, None)", lambda b, h, o: b.forecast_many(h, (1, 1), [("shoot", None)]),
     r"forecast_many: each use must be a pair \(power_id, aim\)"),
    ("forecast_many None", lambda b, h, o: b.forecast_many(h, (1, 1), None),
     r"forecast_many: uses must be a list of \(power_id, aim\) pairs"),
    ("forecast_many from", lambda b, h, o: b.forecast_many(h, None, []), r"from_square must be a square"),
    ("outcomes_many ['x']", lambda b, h, o: b.outcomes_many(h, (1, 1), ["x"]),
     r"outcomes_many: each use must be a pair \(power_id, aim\)"),
    ("outcomes_many from", lambda b, h, o: b.outcomes_many(h, (1,), []), r"from_square must be a square"),
    ("outcomes_each 3", lambda b, h, o: b.outcomes_each(h, 3), r"outcomes_each: asks must be a list of"),
    ("outcomes_each [None]", lambda b, h, o: b.outcomes_each(h, [None]), r"outcomes_each: each ask must be a pair"),
    ("outcomes_each from", lambda b, h, o: b.outcomes_each(h, [((1,), [])]), r"from_square must be a square"),
    ("approach_map nan", lambda b, h, o: b.approach_map(h, limit_ft=float("nan")), r"limit_ft must be a finite number"),
    ("approach_map -5", lambda b, h, o: b.approach_map(h, limit_ft=-5), r"limit_ft must not be negative"),
    ("approach_map among", lambda b, h, o: b.approach_map(h, among=3), r"among must be a list of creature ids"),
    ("cover_map squares", lambda b, h, o: b.cover_map([o], [3]), r"each of squares must be a square"),
    ("cover_map attackers", lambda b, h, o: b.cover_map(o, [(2, 2)]), r"attackers must be a list of creature ids"),
    ("open_shots", lambda b, h, o: b.open_shots(h, [(1, 2, 3)]), r"each of squares must be a square"),
    ("threats_where_they_stand", lambda b, h, o: b.threats_where_they_stand(h),
     r"entities must be a list of creature ids"),
    ("squares_in_area", lambda b, h, o: b.squares_in_area("fireball", h, point=(1,)),
     r"target square must be a square"),
    ("get None", lambda b, h, o: b.get(h, None), r"get: the component must be a component class such as Health"),
    ("roll_mode ['attack']", lambda b, h, o: b.roll_mode(h, ["attack"]),
     r"the kind of roll must be a name such as 'attack'"),
    ("roll_mode sight", lambda b, h, o: b.roll_mode(h, "attack", sight="no"), r"sight must be True or False"),
    ("forecast_reactions moved", lambda b, h, o: b.forecast_reactions(h, moved=[(1, 1)]),
     r"moved must be a mapping of creature ids to squares"),
    ("spawn z=10**30", lambda b, h, o: b.spawn("Z", 5, 5, z=10**30),
     r"z of 'Z': expected a number in -10000..10000 ft"),
    ("spawn powers=None", lambda b, h, o: b.spawn("Z", 5, 5, powers=None), r"powers of 'Z' must be a list of names"),
    ("spawn powers='shoot'", lambda b, h, o: b.spawn("Z", 5, 5, powers="shoot"), r"powers of 'Z' must be a list"),
    ("set_ground 10**30", lambda b, h, o: b.set_ground(5, 5, 10**30),
     r"ground height at \(5, 5\): expected a number in -10000..10000 ft"),
    ("set_ground nan", lambda b, h, o: b.set_ground(5, 5, float("nan")),
     r"ground height at \(5, 5\): expected a number in -10000..10000 ft, got nan"),
    ("set_terrain blocks=None", lambda b, h, o: b.set_terrain(5, 5, blocks=None),
     r"what the terrain at \(5, 5\) blocks must be a list of names, not None"),
    ("add_light radius", lambda b, h, o: b.add_light(5, 5, "far"), r"light radius must be a number of feet"),
    ("remove_light [1]", lambda b, h, o: b.remove_light([1]), r"a light id \(what add_light returned\) must be"),
    ("remove_area {}", lambda b, h, o: b.remove_area({}), r"an area id \(what add_area returned\) must be a whole"),
    ("end_power [1]", lambda b, h, o: b.end_power(h, [1]), r"an effect id .* must be a whole number, not \[1\]"),
    ("run None", lambda b, h, o: b.run(None), r"rounds must be a whole number, not None"),
    ("run -1", lambda b, h, o: b.run(-1), r"rounds: expected a whole number in 0\.\.100000 rounds, got -1"),
    ("run 10**30", lambda b, h, o: b.run(10**30), r"rounds: expected .*, got a whole number of about 31 digits"),
    # numbers of the right kind but out of the range a scenario file allows (a save keeps up to 1e9)
    ("damage 10**12", lambda b, h, o: b.damage(o, 10**12), r"damage: expected a whole number in 0\.\.1000000"),
    ("heal -1", lambda b, h, o: b.heal(o, -1), r"healing: expected a whole number in 0\.\.1000000, got -1"),
    ("spawn health", lambda b, h, o: b.spawn("Z", 5, 5, health=10**6), r"health of 'Z': expected .* at most 100000"),
    ("spawn defense", lambda b, h, o: b.spawn("Z", 5, 5, defense=-5000), r"defense of 'Z': expected .* -1000\.\.1000"),
    ("spawn speed 3", lambda b, h, o: b.spawn("Z", 5, 5, speed=3), r"speed of 'Z': expected 0 .* or at least 5 ft"),
    ("spawn z 20000", lambda b, h, o: b.spawn("Z", 5, 5, z=20000), r"z of 'Z': expected a number in -10000\.\.10000"),
    ("set_ground 5e8", lambda b, h, o: b.set_ground(5, 5, 5e8), r"ground height at \(5, 5\): expected .*10000 ft"),
    ("restore None", lambda b, h, o: b.restore(None), r"restore takes what this battle's snapshot\(\) returned"),
    ("tick orders='x'", lambda b, h, o: b.tick(orders="x"), r"tick: orders must be a list of"),
]


@pytest.mark.parametrize(("call", "words"), [(c, w) for _, c, w in CASES], ids=[n for n, _, _ in CASES])
def test_malformed_arguments_are_refused_by_name(call: Call, words: str) -> None:
    b, hero, orc = skirmish()
    before = (list(b.events), list(b.command_log), repr(b.roster()), b.terrain.version)
    with pytest.raises(IllegalCommand, match=words):
        call(b, hero, orc)
    assert (list(b.events), list(b.command_log), repr(b.roster()), b.terrain.version) == before


@pytest.mark.parametrize(("log", "words"), [
    ([5], r"the log's entry 0 must be \(name, args, kwargs\), not 5"),
    ([("spawn", ("A", 1, 1), {}), ("tick",)], r"the log's entry 1 must be \(name, args, kwargs\)"),
    ([("tick", 5, {})], r"the log's entry 0 must be \(name, args, kwargs\): a command's name, a list"),
    (None, r"the log must be a list of \(name, args, kwargs\), not None"),
])
def test_replay_refuses_a_malformed_log(log: object, words: str) -> None:
    with pytest.raises(IllegalCommand, match=words):
        Battle.replay(1, 5, 5, None, log)  # type: ignore[arg-type]


def test_well_formed_squares_of_other_kinds_are_taken() -> None:
    """A list or a numpy pair is a square too, and numpy integers are whole numbers."""
    import numpy as np

    b, hero, orc = skirmish()
    assert b.threat(hero, [2, 2]).square == (2, 2)
    assert b.threat(hero, np.array([2, 2])).square == (2, 2)
    assert b.threats(hero, iter([(2, 2), (3, 3)]))[1].square == (3, 3)
    assert b.forecast_move(hero, (np.int64(2), 1)).square == (2, 1)
    assert b.forecast(hero, "shoot", target=orc, from_square=[1, 1]).legal


@pytest.mark.parametrize("name", [1, None, ("move",), b"move", 2.5])
def test_is_command_answers_no_for_a_name_that_is_not_text(name: object) -> None:
    # a tool checking a log read from a file used to get getattr's TypeError for a number or None
    assert Battle.is_command(name) is False  # type: ignore[arg-type]
    assert Battle.is_command("move") and not Battle.is_command("events")


@pytest.mark.parametrize("height", [2e9, float("inf"), float("-inf"), float("nan"), 10001, -10000.5])
def test_a_height_out_of_range_is_refused_with_the_range_a_height_has(height: float) -> None:
    """A height past the map's bound names that bound (-10000..10000 ft), however far past it is:
    an infinite or billion-foot height once named a save's bound of a billion feet instead."""
    b = Battle(seed=1, width=4, height=4)
    with pytest.raises(IllegalCommand, match=r"ground height at \(1, 1\): expected a number in -10000\.\.10000 ft"):
        b.set_ground(1, 1, height)
    with pytest.raises(IllegalCommand, match=r"z of 'a': expected a number in -10000\.\.10000 ft"):
        b.spawn("a", 1, 1, z=height)
