"""Forecasts: what a use or a move would do, from the rules' own functions, checked against real play.

The property tests play the same use many times from one snapshot, each time with a fresh seed, and
check that the observed hit rate and mean damage fall within statistical bounds of the forecast.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import Fatigue, Health, Position
from components.events import AttackRolled, Damaged, Landed, Moved, Pushed, SaveRolled
from game import Battle, IllegalCommand
from systems.odds import face_chances

TRIALS = 300


def duel(attack_bonus: int = 2, defense: int = 12, cover: bool = False, ambient: str = "normal",
         fatigue: int = 0, distance: int = 1, powers: tuple[str, ...] = ("strike", "shoot")) -> tuple[Battle, int, int]:
    """A hero and a foe ``distance`` squares apart; with ``cover``, a wall hides 3 of the foe's 4 corners."""
    b = Battle(seed=3, width=12, height=8)
    if cover:
        b.add_wall(3, 5)  # from (2, 2), three corner lines to (4, 6) cross it, and the foe is in sight
    b.set_ambient(ambient)
    hero = b.spawn("Hero", 2, 2, team="blue", attack_bonus=attack_bonus, powers=list(powers), fatigue=fatigue,
                   health=40)
    foe_square = (4, 6) if cover else (2 + distance, 2)
    foe = b.spawn("Foe", *foe_square, team="red", defense=defense, health=60)
    b.start_combat()
    return b, hero, foe


def observe(b: Battle, user: int, power: str, **aim: object) -> tuple[list[bool], list[int]]:
    """Play the use TRIALS times from the same moment, each with its own seed."""
    start = b.snapshot()
    hits, dealt = [], []
    for trial in range(TRIALS):
        b.restore(start)
        b.state.rng.seed(trial)
        seen = len(b.events)
        b.use_power(user, power, **aim)
        b.tick()
        new = b.events[seen:]
        rolls = [e for e in new if isinstance(e, (AttackRolled, SaveRolled))]
        hits.append(any(getattr(e, "hit", False) or (isinstance(e, SaveRolled) and not e.success) for e in rolls))
        dealt.append(sum(e.amount for e in new if isinstance(e, Damaged) and e.source.startswith("power:")))
    b.restore(start)
    return hits, dealt


def within(observed: float, expected: float, sd: float, n: int) -> bool:
    return abs(observed - expected) <= 4.5 * sd / math.sqrt(n) + 1e-9


def test_hit_chance_is_the_enumerated_d20() -> None:
    b, hero, foe = duel(attack_bonus=2, defense=15)
    f = b.forecast(hero, "strike", target=foe)
    t = f.targets[0]
    assert t.attack is not None and t.attack.bonus == 4 and t.attack.defense.value == 15
    assert t.affected == pytest.approx(10 / 20)  # 11..20 hit
    assert face_chances(20, "advantage").sum() == pytest.approx(1.0)
    assert face_chances(20, "advantage")[-1] == pytest.approx(39 / 400)
    assert face_chances(20, "disadvantage")[0] == pytest.approx(39 / 400)


def test_cover_and_flat_footed_are_named_with_their_reasons() -> None:
    b, hero, foe = duel(cover=True, distance=6)
    t = b.forecast(hero, "shoot", target=foe).targets[0]
    assert t.attack is not None and t.attack.defense.cover
    assert [m.name for m in t.attack.defense.modifiers] == ["cover"]
    assert t.attack.defense.value == 12 + 5
    dark, hero2, foe2 = duel(ambient="terrible", distance=1)
    mode = dark.forecast(hero2, "strike", target=foe2).targets[0].attack.mode  # type: ignore[union-attr]
    assert mode.mode == "disadvantage" and any("terrible" in r for r in mode.reasons)


def test_an_illegal_use_says_why_and_reaches_nobody() -> None:
    b, hero, foe = duel(distance=6)
    f = b.forecast(hero, "strike", target=foe)
    assert not f.legal and "reaches 5 ft" in (f.problem or "") and f.targets == ()
    with pytest.raises(IllegalCommand, match="unknown power"):
        b.forecast(hero, "teleport-everything", target=foe)


def test_a_forecast_changes_nothing() -> None:
    b, hero, foe = duel()
    before = (list(b.events), b.state.rng.getstate(), b.get(foe, Health).current, list(b.command_log))
    b.forecast(hero, "strike", target=foe)
    b.forecast_move(hero, (4, 4))
    b.forecast_uses(hero)
    b.forecast_moves(hero)
    assert before == (list(b.events), b.state.rng.getstate(), b.get(foe, Health).current, list(b.command_log))


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@pytest.mark.slow
@given(attack_bonus=st.integers(-3, 8), defense=st.integers(8, 20), cover=st.booleans(),
       ambient=st.sampled_from(["normal", "terrible"]), fatigue=st.sampled_from([0, 4]),
       power=st.sampled_from(["strike", "shoot"]))
def test_observed_hits_and_damage_match_the_forecast(attack_bonus: int, defense: int, cover: bool, ambient: str,
                                                     fatigue: int, power: str) -> None:
    distance = 1 if power == "strike" else 6
    b, hero, foe = duel(attack_bonus, defense, cover and power == "shoot", ambient, fatigue, distance)
    try:
        f = b.forecast(hero, power, target=foe)
        assert f.legal, f.problem
        t = f.targets[0]
        assert t.damage is not None
        hits, dealt = observe(b, hero, power, target=foe)
        p = t.affected
        assert within(sum(hits) / TRIALS, p, math.sqrt(p * (1 - p)), TRIALS), (sum(hits) / TRIALS, p)
        mean = t.damage.mean
        sd = math.sqrt(sum((v - mean) ** 2 * q for v, q in t.damage.outcomes))
        assert within(sum(dealt) / TRIALS, mean, sd, TRIALS), (sum(dealt) / TRIALS, mean)
    finally:
        b.close()


def test_a_save_for_half_damage_is_forecast_with_its_halving() -> None:
    b = Battle(seed=2, width=16, height=16)
    mage = b.spawn("Mage", 1, 1, team="blue", powers=["fireball"])
    b.spawn("Foe", 8, 8, team="red", health=80)
    b.start_combat()
    f = b.forecast(mage, "fireball", point=(8, 8))
    t = f.targets[0]
    assert t.save is not None and t.save.half_on_success and (8, 8) in f.squares
    # 3d6: a failed save takes it all, a made one half of it, rounded down
    assert t.damage is not None and t.damage.high == 18 and t.damage.low == 1
    _, dealt = observe(b, mage, "fireball", point=(8, 8))
    mean = t.damage.mean
    sd = math.sqrt(sum((v - mean) ** 2 * q for v, q in t.damage.outcomes))
    assert within(sum(dealt) / TRIALS, mean, sd, TRIALS)


def test_a_push_forecasts_its_landing_and_the_fall_off_the_ledge() -> None:
    b = Battle(seed=4, width=10, height=5)
    for x in range(0, 5):
        b.set_ground(x, 2, 30)
    brute = b.spawn("Brute", 2, 2, team="blue", powers=["shove"], attack_bonus=20)
    victim = b.spawn("Victim", 3, 2, team="red", health=200)
    b.start_combat()
    t = b.forecast(brute, "shove", target=victim).targets[0]
    assert t.pushed_to == (5, 2) and t.fall is not None
    assert t.fall.distance_ft == 30 and t.fall.dice == 3 and t.fall.damage.mean == pytest.approx(10.5)
    seen = len(b.events)
    b.use_power(brute, "shove", target=victim)
    b.tick()
    pushed = [e for e in b.events[seen:] if isinstance(e, Pushed)]
    landed = [e for e in b.events[seen:] if isinstance(e, Landed)]
    assert pushed and pushed[0].to_square == t.pushed_to
    assert landed and landed[0].distance_ft == 30 and landed[0].dice == 3


def test_a_move_forecast_is_the_move_that_happens() -> None:
    b = Battle(seed=5, width=10, height=6)
    for y in range(6):
        for x in range(0, 3):
            b.set_ground(x, y, 20)
    b.set_ground(4, 2, 0, soft=True)
    walker = b.spawn("Walker", 1, 2, team="blue", health=60)
    b.spawn("Watcher", 8, 2, team="red")
    b.add_wall(6, 2)
    f = b.forecast_move(walker, (5, 2))
    assert f.legal and f.stops_at == (3, 2) and f.fall is not None
    assert f.fall.distance_ft == 20 and f.fall.dice == 2 and not f.fall.soft
    assert dict(f.cover)  # one entry per enemy
    seen = len(b.events)
    b.move(walker, 5, 2)
    b.tick()
    moved = [e for e in b.events[seen:] if isinstance(e, Moved)][0]
    assert moved.to_square == f.stops_at and moved.cost_ft == f.cost_ft
    landed = [e for e in b.events[seen:] if isinstance(e, Landed)][0]
    assert landed.dice == f.fall.dice and landed.distance_ft == f.fall.distance_ft
    assert b.get(walker, Position).square == (3, 2)


@pytest.mark.parametrize("flying", [False, True])
def test_a_move_forecast_says_the_height_the_move_leaves_the_creature_at(flying: bool) -> None:
    """A walker off a 20 ft ledge is left on the ground below once its fall settles; a flier keeps its
    height, raised by the ledge it crosses. The planner reads this height for its next turn's reach."""
    b = Battle(seed=5, width=10, height=6)
    for x in range(0, 3):
        b.set_ground(x, 2, 20)
    mover = b.spawn("Mover", 0, 2, team="blue", health=60, z=20 if flying else None, flying=flying)
    b.spawn("Watcher", 8, 5, team="red")
    f = b.forecast_move(mover, (4, 2))
    assert f.legal and f.z == (20.0 if flying else 0.0)
    assert b.forecast_move(mover, (9, 5)).z is None  # out of its reach: no height to be left at
    b.move(mover, 4, 2)
    b.tick()
    assert b.get(mover, Position).z == f.z


def test_a_move_forecast_after_a_queued_climb_starts_from_the_top() -> None:
    """A walker keeps the height a climb gives it: after a move up onto the wall top is queued, a
    move down off the far side falls the wall's height (from where it stands now it would not)."""
    b = Battle(seed=5, width=10, height=6)
    b.set_ground(2, 2, 20)
    walker = b.spawn("Walker", 1, 2, team="blue", health=60)
    b.spawn("Watcher", 8, 5, team="red")
    what_if = b.forecast_moves_to(walker, [(3, 2)], after=(2, 2))[0]  # nothing queued
    assert b.forecast_move(walker, (2, 2)).cost_ft == 5  # the what-if queued nothing: still a step away
    b.move(walker, 2, 2)
    f = b.forecast_move(walker, (3, 2))
    assert f.legal and f.fall is not None and f.fall.distance_ft == 20
    assert what_if == f
    seen = len(b.events)
    b.move(walker, 3, 2)
    b.tick()
    landed = [e for e in b.events[seen:] if isinstance(e, Landed)]
    assert len(landed) == 1 and landed[0].distance_ft == f.fall.distance_ft


def test_a_move_forecast_after_a_queued_walk_over_a_ridge_down_onto_its_goal_starts_where_it_lands() -> None:
    """A walker that crosses a 10 ft ridge and steps down onto its goal (a drop that hurts) falls there;
    the fall settles before its next move, so that move's forecast starts on the ground (it once
    forecast a dry step on from the ridge's height)."""
    b = Battle(seed=5, width=10, height=6)
    for y in range(6):
        b.set_ground(2, y, 10)
    walker = b.spawn("Walker", 1, 2, team="blue", health=60)
    b.spawn("Watcher", 8, 5, team="red")
    b.move(walker, 3, 2)
    f = b.forecast_move(walker, (4, 2))
    assert f.legal and f.fall is None and f.path == ((3, 2), (4, 2))
    b.move(walker, 4, 2)
    seen = len(b.events)
    b.tick()
    moves = [(e.to_square, e.z) for e in b.events[seen:] if isinstance(e, Moved)]
    assert moves == [((3, 2), 10.0), ((4, 2), 0.0)]  # on its goal 10 ft up, it lands, then walks on
    assert [e.distance_ft for e in b.events[seen:] if isinstance(e, Landed)] == [10.0]


def test_an_illegal_move_forecast_says_why() -> None:
    b, hero, foe = duel()
    f = b.forecast_move(hero, (11, 7))
    assert not f.legal and "movement left" in (f.problem or "")


def test_batch_forms_cover_every_reachable_square_and_every_legal_use() -> None:
    b, hero, foe = duel(distance=1)
    moves = b.forecast_moves(hero)
    assert set(moves) >= {tuple(map(int, sq)) for sq in zip(*b.reachable(hero).nonzero())}
    assert all(m.legal for m in moves.values())
    uses = b.forecast_uses(hero)
    assert {(u.power, u.target) for u in uses} == {("strike", foe), ("shoot", foe)}


def test_a_scripted_power_is_marked_and_estimated_from_trials_on_a_copy() -> None:
    b = Battle(seed=6, width=10, height=10)
    witch = b.spawn("Witch", 2, 2, team="blue", powers=["vampiric-touch"], attack_bonus=30)
    foe = b.spawn("Foe", 3, 2, team="red", health=50)
    b.start_combat()
    before = (list(b.events), b.state.rng.getstate())
    f = b.forecast(witch, "vampiric-touch", target=foe, trials=40)
    assert f.scripted and f.estimate is not None and f.estimate.trials == 40
    damage = dict(f.estimate.damage)
    assert 2 <= damage[foe] <= 12  # 2d6 drained, averaged over the trials
    assert before == (list(b.events), b.state.rng.getstate())


@pytest.mark.parametrize(("health", "fatigue"), [(0, 4), (3, 4), (0, 3), (3, 3)])
def test_the_chance_to_kill_is_the_chance_the_blow_fills_the_fatigue_track(health: int, fatigue: int) -> None:
    """Each hit at 0 Health costs a fatigue point and 5 points at 0 Health is death: a downed foe at 4
    dies to any hit, a standing one at 4 to a blow that downs it, one at 3 to nothing a blow does."""
    b, hero, foe = duel(attack_bonus=2, defense=12)
    b.add_fatigue(foe, fatigue - (health == 0))  # dropping to 0 costs one more
    b.damage(foe, 60 - health)
    b.tick()
    assert b.get(foe, Health).current == health and b.get(foe, Fatigue).level == fatigue
    t = b.forecast(hero, "strike", target=foe).targets[0]
    if fatigue == 3:
        assert t.kills == 0.0
    else:
        assert t.kills == pytest.approx(t.affected if health == 0 else t.downs) and t.kills > 0
    start = b.snapshot()
    deaths = 0
    for trial in range(TRIALS):
        b.restore(start)
        b.state.rng.seed(trial)
        b.use_power(hero, "strike", target=foe)
        b.tick()
        deaths += "dead" in b.conditions(foe)
    b.restore(start)
    assert within(deaths / TRIALS, t.kills, math.sqrt(max(t.kills * (1 - t.kills), 1e-9)), TRIALS)


@pytest.mark.parametrize(("health", "fatigue"), [(0, 3), (0, 4), (2, 3)])
def test_a_damaging_shove_off_a_ledge_forecasts_downs_and_kills_that_happen(health: int, fatigue: int) -> None:
    """The fall comes only with a hit, whose damage is the dice in full: the two are not independent."""
    import dataclasses

    from components.dice import Dice

    b = Battle(seed=4, width=10, height=5)
    for x in range(0, 5):
        b.set_ground(x, 2, 30)
    b.powers = {**b.powers, "shove": dataclasses.replace(b.power("shove"), damage=Dice.parse("1d4"))}
    brute = b.spawn("Brute", 2, 2, team="blue", powers=["shove"], attack_bonus=1)
    victim = b.spawn("Victim", 3, 2, team="red", health=10, defense=12)
    b.start_combat()
    b.add_fatigue(victim, fatigue - (health == 0))
    b.damage(victim, 10 - health)
    b.tick()
    t = b.forecast(brute, "shove", target=victim).targets[0]
    assert t.fall is not None and 0 < t.affected < 1
    start = b.snapshot()
    downed = killed = 0
    for trial in range(TRIALS):
        b.restore(start)
        b.state.rng.seed(trial)
        b.use_power(brute, "shove", target=victim)
        b.tick()
        downed += b.get(victim, Health).current == 0
        killed += "dead" in b.conditions(victim)
    b.restore(start)
    for seen, p in ((killed, t.kills), *(((downed, t.downs),) if health else ())):
        assert within(seen / TRIALS, p, math.sqrt(max(p * (1 - p), 1e-9)), TRIALS), (seen, p)


def test_forecast_many_is_each_forecast_from_one_square_and_refuses_what_forecast_would() -> None:
    b, hero, foe = duel(distance=3, powers=("strike", "shoot", "fireball"))
    uses = [("strike", {"target": foe}), ("shoot", {"target": foe}), ("fireball", {"point": b.square_of(foe)}),
            ("shoot", {"target": hero})]
    square = (3, 3)
    assert b.forecast_many(hero, square, uses) == [b.forecast(hero, p, from_square=square, **aim) for p, aim in uses]
    with pytest.raises(IllegalCommand, match="target, point and direction"):
        b.forecast_many(hero, square, [("shoot", {"trials": 5})])
    with pytest.raises(IllegalCommand, match="from_square"):
        b.forecast_many(hero, (99, 0), uses)
    with pytest.raises(IllegalCommand, match="psychic"):
        b.forecast_many(hero, square, [("psychic", {})])


def test_a_burst_around_the_user_forecast_from_another_square_reaches_it_there() -> None:
    """From the square asked about, the user stands in its own burst, and a friend beside its old
    square (now out of reach) does not: the user is counted where it would stand."""
    b = Battle(seed=3, width=12, height=6)
    priest = b.spawn("Priest", 1, 2, team="blue", powers=["sanctuary-light"], health=20)
    friend = b.spawn("Friend", 1, 3, team="blue", health=20)
    b.spawn("Foe", 11, 5, team="red")
    b.start_combat()
    here = {t.target for t in b.forecast(priest, "sanctuary-light").targets}
    there = {t.target for t in b.forecast(priest, "sanctuary-light", from_square=(8, 2)).targets}
    assert here == {priest, friend}
    assert there == {priest}


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(attack_bonus=st.integers(-40, 40), defense=st.integers(1, 40), cover=st.booleans(),
       ambient=st.sampled_from(["normal", "terrible"]), fatigue=st.sampled_from([0, 4]))
def test_every_chance_is_a_probability(attack_bonus: int, defense: int, cover: bool, ambient: str,
                                       fatigue: int) -> None:
    """Sure hits and sure misses included: a chance is never above 1 (twenty 0.05s added up to
    1.0000000000000002) nor below 0, and a damage distribution's chances add up to 1."""
    b, hero, foe = duel(attack_bonus, defense, cover, ambient, fatigue, distance=6)
    try:
        t = b.forecast(hero, "shoot", target=foe).targets[0]
        assert t.attack is not None and 0.0 <= t.attack.chance <= 1.0 and 0.0 <= t.affected <= 1.0, t
        assert t.damage is not None and all(0.0 <= q <= 1.0 for _, q in t.damage.outcomes)
        assert math.isclose(sum(q for _, q in t.damage.outcomes), 1.0)
    finally:
        b.close()
