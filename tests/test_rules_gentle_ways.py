"""Of the equally cheap ways to a square, a walk takes one that steps off no ledge that would hurt.

A walker steps off the first drop on its way that hurts and falls there (``systems.actions.walk``),
so a move whose way runs over a pit's edge, where a way as short goes round it, threw the walker in
by accident: a person clicking a square beyond the pit, or a computer player, saw a fall it never
chose. The way is still one of the cheapest (the move's cost is unchanged); only the choice
between equals changed, and a jump stays a jump when no way as short goes round.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.events import Fell, Moved
from game import Battle
from systems.drops import fall_dice
from systems.paths import edge_weights, hurtful_steps


def plateau(pit: tuple[int, int], **rules: object) -> tuple[Battle, int]:
    """A 5x4 plateau 20 ft high with a pit (ground 0) at ``pit``; a walker at (0, 0) on its turn."""
    b = Battle(seed=2, width=5, height=4, rules=rules or None)
    for x in range(5):
        for y in range(4):
            b.set_ground(x, y, 20)
    b.set_ground(*pit, 0)
    me = b.spawn("Walker", 0, 0, team="blue", initiative_bonus=50)
    b.spawn("Foe", 4, 3, team="red")
    b.start_combat()
    b.begin_round()
    assert b.current_actor == me
    return b, me


def test_a_walk_goes_round_a_pit_when_a_way_as_short_does() -> None:
    """(0, 0) to (2, 1) is a diagonal and a straight step either way round: through (1, 1), the
    pit, or (1, 0). The search's first choice was the pit."""
    b, me = plateau((1, 1))
    forecast = b.forecast_move(me, (2, 1))
    assert forecast.path == ((0, 0), (1, 0), (2, 1))
    assert forecast.stops_at == (2, 1) and forecast.fall is None and forecast.cost_ft == 10
    b.move(me, 2, 1)
    seen = len(b.events)
    b.end_turn()
    after = b.events[seen:]
    [moved] = [e for e in after if isinstance(e, Moved) and e.entity == me]
    assert (moved.to_square, moved.cost_ft, moved.z) == ((2, 1), 10, 20.0)
    assert not [e for e in after if isinstance(e, Fell)]


def test_a_jump_into_the_pit_is_still_a_jump() -> None:
    """The pit itself as the goal: every way ends in the drop."""
    b, me = plateau((1, 1))
    forecast = b.forecast_move(me, (1, 1))
    assert forecast.fall is not None and forecast.fall.dice == 2
    b.move(me, 1, 1)
    seen = len(b.events)
    b.end_turn()
    assert [e for e in b.events[seen:] if isinstance(e, Fell) and e.entity == me]


def test_a_walk_still_steps_off_when_only_a_longer_way_goes_round() -> None:
    """With 5-10-5 diagonals, (0, 1) to (2, 1) straight through the pit costs 10 ft; round it, 15 ft:
    the walk is the rules' cheapest way, so it steps off into the pit (the forecast says so)."""
    b = Battle(seed=2, width=5, height=4, rules={"diagonal": "alternating"})
    for x in range(5):
        for y in range(4):
            b.set_ground(x, y, 0 if (x, y) == (1, 1) else 20)
    me = b.spawn("Walker", 0, 1, team="blue", initiative_bonus=50)
    b.spawn("Foe", 4, 3, team="red")
    b.start_combat()
    b.begin_round()
    forecast = b.forecast_move(me, (2, 1))
    assert forecast.path == ((0, 1), (1, 1)) and forecast.stops_at == (1, 1) and forecast.fall is not None


def test_the_way_follows_the_ground_when_it_changes() -> None:
    """Ways are kept by the map's heights too: a pit dug after a way was asked moves the way."""
    b, me = plateau((1, 1))
    assert b.forecast_move(me, (2, 1)).path == ((0, 0), (1, 0), (2, 1))
    b.set_ground(1, 1, 20)
    b.set_ground(1, 0, 0)
    assert b.forecast_move(me, (2, 1)).path == ((0, 0), (1, 1), (2, 1))


def test_with_5_10_5_diagonals_a_way_as_cheap_in_feet_goes_round() -> None:
    """Diagonal, diagonal (5 + 10 ft) through the pit at (1, 1), or a diagonal between two straight
    steps round it (5 + 5 + 5 ft): the same 15 ft, though the search counts the second a unit more."""
    b, me = plateau((1, 1), diagonal="alternating")
    forecast = b.forecast_move(me, (2, 2))
    assert forecast.stops_at == (2, 2) and forecast.fall is None and forecast.cost_ft == 15
    assert (1, 1) not in forecast.path


def test_battles_sharing_a_maps_caches_under_other_falling_rules_get_their_own_ways() -> None:
    """A 5 ft dip hurts where a die is 5 ft of fall, not where it is 10: two battles on one map's
    caches (as a simulation's variants may be) each walk the way their own rules call dry."""
    from systems.caches import MapCaches

    caches = MapCaches()
    stops = []
    for per_die in (10, 5):
        b = Battle(seed=2, width=5, height=4, rules={"fall_ft_per_die": per_die}, caches=caches)
        for x in range(5):
            for y in range(4):
                b.set_ground(x, y, 5)
        b.set_ground(1, 1, 0)
        me = b.spawn("Walker", 0, 0, team="blue", initiative_bonus=50)
        b.spawn("Foe", 4, 3, team="red")
        b.start_combat()
        b.begin_round()
        forecast = b.forecast_move(me, (2, 1))
        stops.append((forecast.stops_at, forecast.fall is None))
    assert stops == [((2, 1), True), ((2, 1), True)]


def least_units(b: Battle, start: tuple[int, int], goal: tuple[int, int], dry: bool) -> float:
    """By brute force (Dijkstra over the open squares, in the search's edge-cost units): the least
    a way from ``start`` to ``goal`` costs, over every step or (``dry``) only over steps down no drop
    that would hurt."""
    import heapq

    state = b.state
    cardinal, diagonal, _ = edge_weights(state.rules)
    terrain = state.terrain
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        units, (x, y) = heapq.heappop(heap)
        if units > best[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                there = (x + dx, y + dy)
                if there == (x, y) or not terrain.inside(*there) or terrain.walls[there]:
                    continue
                if dry and fall_dice(float(terrain.ground[x, y] - terrain.ground[there]), bool(terrain.soft[there]),
                                     state.rules) > 0:
                    continue
                step = units + (diagonal if dx and dy else cardinal)
                if step < best.get(there, 1 << 30):
                    best[there] = step
                    heapq.heappush(heap, (step, there))
    return best.get(goal, float("inf"))


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heights=st.lists(st.sampled_from([0, 5, 10, 20]), min_size=36, max_size=36),
       soft=st.lists(st.booleans(), min_size=36, max_size=36),
       walls=st.lists(st.integers(0, 35), max_size=5),
       goal=st.tuples(st.integers(0, 5), st.integers(0, 5)),
       diagonal=st.sampled_from(["alternating", "one"]))
def test_the_way_is_a_cheapest_one_and_dry_when_a_dry_one_is_as_cheap(
        heights: list[int], soft: list[bool], walls: list[int], goal: tuple[int, int], diagonal: str) -> None:
    b = Battle(seed=1, width=6, height=6, rules={"diagonal": diagonal})
    for i, (height, is_soft) in enumerate(zip(heights, soft, strict=True)):
        b.set_ground(i % 6, i // 6, height, soft=is_soft)
    for i in walls:
        if (i % 6, i // 6) not in ((0, 0), goal):
            b.add_wall(i % 6, i // 6)
    paths = b.state.paths
    found = paths.find((0, 0), goal)
    cost = paths.cost((0, 0), goal)
    if cost is None:
        assert found is None
        return
    assert found is not None
    route, route_cost = found
    assert route_cost == cost and route[0] == (0, 0) and route[-1] == goal
    cardinal, diagonal_cost, divisor = edge_weights(b.state.rules)
    units = 0
    for (x0, y0), (x1, y1) in zip(route, route[1:]):
        assert max(abs(x1 - x0), abs(y1 - y0)) == 1 and not b.state.terrain.walls[x1, y1]
        units += diagonal_cost if x1 != x0 and y1 != y0 else cardinal
    assert units // divisor * b.state.rules.square_ft == cost  # a cheapest way, in feet
    dry = least_units(b, (0, 0), goal, dry=True)
    if dry < float("inf") and int(dry) // divisor == int(least_units(b, (0, 0), goal, dry=False)) // divisor:
        assert hurtful_steps(b.state.terrain, route, b.state.rules) == 0  # a dry way as cheap: this one is dry


def test_fall_dice_many_is_fall_dice_square_by_square_and_a_rise_rolls_none():
    """The whole-map dice are the one-drop dice on every square (capped, halved on soft ground), and a
    rise (a negative drop) rolls none: its floor division gave -1 die, which a planner adding the dice
    up ranked as nearer than level ground."""
    import numpy as np

    from components.rules import Rules
    from systems.drops import fall_dice_many

    rules = Rules()
    drops = np.array([-600.0, -25.0, -5.0, 0.0, 5.0, 10.0, 15.0, 19.0, 20.0, 499.0, 500.0, 1200.0])
    for soft in (False, True):
        many = fall_dice_many(drops, np.full(drops.shape, soft), rules)
        assert many.tolist() == [fall_dice(max(d, 0.0), soft, rules) for d in drops], soft
