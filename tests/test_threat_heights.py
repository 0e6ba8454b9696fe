"""``threat`` counts a melee blow only where the striker could stand within its reach, heights counted.

The walk to beside the square was all it asked: a walker's 5 ft strike was counted at a flier 30 ft
up (every use of it refused: "the target is 30.41 ft away and Strike reaches 5 ft"), and a flier 30 ft
up, which keeps its height as it flies, was counted striking a walker on the ground.
"""

from __future__ import annotations

from game import Battle


def _sources(b: Battle, entity: int, square: tuple[int, int]) -> set[tuple[int, str]]:
    return {(s.enemy, s.power) for s in b.threat(entity, square).sources}


def test_a_walkers_strike_does_not_threaten_a_flier_high_above() -> None:
    b = Battle(seed=2, width=8, height=8)
    flier = b.spawn("Flier", 4, 3, z=30, team="a", flying=True, powers=["strike"])
    walker = b.spawn("Walker", 5, 3, team="b", powers=["strike"])
    archer = b.spawn("Archer", 2, 6, team="b", powers=["shoot"])
    b.start_combat()
    assert b.forecast(walker, "strike", target=flier).problem == "the target is 30.41 ft away and Strike reaches 5 ft"
    assert _sources(b, flier, (4, 3)) == {(archer, "shoot")}
    assert _sources(b, flier, (3, 3)) == {(archer, "shoot")}  # (flying there, it keeps its 30 ft)


def test_a_flier_high_above_does_not_threaten_a_walker_and_one_low_does() -> None:
    b = Battle(seed=2, width=8, height=8)
    walker = b.spawn("Walker", 4, 3, team="a", powers=["strike"])
    high = b.spawn("High", 6, 3, z=30, team="b", flying=True, powers=["strike"])
    low = b.spawn("Low", 6, 5, team="b", flying=True, powers=["strike"])
    b.start_combat()
    assert b.forecast_move(high, (5, 3)).z == 30.0
    assert "30.41 ft away" in str(b.forecast(high, "strike", target=walker, from_square=(5, 3)).problem)
    assert _sources(b, walker, (4, 3)) == {(low, "strike")}


def test_a_walker_still_threatens_a_creature_on_a_ledge_it_can_climb_beside() -> None:
    b = Battle(seed=2, width=8, height=8)
    for y in range(8):
        b.set_ground(5, y, 5)
        b.set_ground(6, y, 5)
    knight = b.spawn("Knight", 6, 3, team="a", powers=["strike"])
    walker = b.spawn("Walker", 3, 3, team="b", powers=["strike"])
    b.start_combat()
    assert _sources(b, knight, (6, 3)) == {(walker, "strike")}


def test_a_flier_further_above_than_its_range_does_not_threaten_with_it() -> None:
    """Its straight distance within speed and range was all a ranged blow asked: 70 ft up with a 60 ft
    Shoot, 20 ft away on the grid, it was counted though no square it flies to brings it within 60."""
    b = Battle(seed=2, width=8, height=8)
    walker = b.spawn("Walker", 4, 0, team="a", powers=["strike"])
    flier = b.spawn("Flier", 0, 0, z=70, team="b", flying=True, powers=["shoot"])
    b.start_combat()
    assert "60 ft" in str(b.forecast(flier, "shoot", target=walker, from_square=(4, 1)).problem)
    assert _sources(b, walker, (4, 0)) == set()


def test_a_walker_threatens_a_flier_only_from_a_square_it_can_get_to_this_round() -> None:
    """A pillar 10 ft high beside a flier 10 ft up: a walker could strike it from the pillar's top, but
    the pillar is farther than its speed (the forecast refuses the move), and from every square it can
    get to the flier is out of reach: it was counted, since any square round the flier was asked."""
    b = Battle(seed=1, width=12, height=3)
    walker = b.spawn("W", 0, 1, team="a", powers=["strike"])
    flier = b.spawn("F", 11, 0, z=10, flying=True, team="b", powers=["strike"])
    b.set_ground(8, 1, 10)
    assert not b.forecast_move(walker, (8, 1)).legal
    assert walker not in {enemy for enemy, _ in _sources(b, flier, (7, 1))}
    b.set_ground(3, 1, 10)  # a pillar it can climb to this round, beside (4, 1)
    assert b.forecast_move(walker, (3, 1)).legal
    assert walker in {enemy for enemy, _ in _sources(b, flier, (4, 1))}


def test_a_shot_the_rules_allow_to_within_a_float_error_is_a_threat_as_it_is_a_legal_use() -> None:
    """A bow whose range (a decimal a power may have) falls short of the distance with height by less
    than a square root's float error reaches the target by the rules (``SLACK_FT``), so the use is
    legal: the threat counts it too (it compared without the slack and forecast no blow there)."""
    import math
    from dataclasses import replace

    b = Battle(seed=1, width=12, height=3)
    b.powers = {**b.powers, "bow": replace(b.power("shoot"), id="bow", range_ft=math.hypot(30, 20) - 5e-10)}
    b.set_ground(7, 1, 20)
    archer = b.spawn("Archer", 1, 1, team="a", powers=["bow"], health=12, speed=0)
    knight = b.spawn("Knight", 7, 1, team="b", powers=["strike"], health=12, speed=0)
    b.start_combat()
    assert b.forecast(archer, "bow", target=knight).legal
    assert _sources(b, knight, (7, 1)) == {(archer, "bow")}
