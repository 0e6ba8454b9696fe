"""A step down that no fall could hurt is part of the walk: down a stair, into a stream, onto hay.

The rules make a creature with nothing under it fall, and a fall hurts from its first die's drop
(10 ft by default), halved on something soft. A walker that steps down less than that drops at
once, lands unhurt and walks on, and may still act on its turn; a drop that would hurt stops it
where it steps off, and it falls. The same walk (``systems.actions.walk``) answers the move's
forecast, so what the forecast says is what happens.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.events import CommandRefused, Fell, Landed, Moved, PowerUsed
from game import Battle


def stair(**rules: object) -> tuple[Battle, int, int]:
    """Ground 15, 10, 5 then 0 ft from west to east (columns 0-3, 4, 5, 6 on); a walker at the top
    (1, 2) whose turn is under way, and a foe below at (9, 2)."""
    b = Battle(seed=2, width=12, height=5, rules=rules or None)
    heights = {4: 10, 5: 5}
    for x in range(12):
        for y in range(5):
            b.set_ground(x, y, 15 if x <= 3 else heights.get(x, 0))
    me = b.spawn("Walker", 1, 2, team="blue", powers=["strike"], initiative_bonus=50, speed=60)
    foe = b.spawn("Foe", 9, 2, team="red", powers=["strike"], health=40)
    b.start_combat()
    b.begin_round()
    assert b.current_actor == me
    return b, me, foe


def test_a_walker_goes_down_a_stair_of_5_ft_steps_and_strikes_at_the_bottom() -> None:
    b, me, foe = stair()
    forecast = b.forecast_move(me, (8, 2))
    assert forecast.legal and forecast.stops_at == (8, 2) and forecast.fall is None
    b.move(me, 8, 2)
    b.use_power(me, "strike", target=foe)  # not refused: it is on the ground at the bottom
    seen = len(b.events)
    b.end_turn()
    after = b.events[seen:]
    [moved] = [e for e in after if isinstance(e, Moved)]
    assert (moved.to_square, moved.z) == ((8, 2), 0.0)
    assert not [e for e in after if isinstance(e, (Fell, Landed, CommandRefused))]
    assert [e for e in after if isinstance(e, PowerUsed) and e.entity == me]
    assert "prone" not in b.conditions(me)


def test_a_drop_that_would_hurt_still_stops_the_walker_where_it_steps_off() -> None:
    """The same stair with 10 ft steps: the first step down is a 1d6 fall."""
    b, me, _ = stair()
    for y in range(5):  # 15 -> 5: a 10 ft drop across the whole map, so no way goes round it
        b.set_ground(4, y, 5)
    forecast = b.forecast_move(me, (8, 2))
    assert forecast.stops_at == (4, 2) and forecast.fall is not None and forecast.fall.dice == 1
    b.move(me, 8, 2)
    seen = len(b.events)
    b.end_turn()
    [moved] = [e for e in b.events[seen:] if isinstance(e, Moved)]
    assert (moved.to_square, moved.z) == ((4, 2), 15.0)
    [landed] = [e for e in b.events[seen:] if isinstance(e, Landed)]
    assert (landed.distance_ft, landed.dice) == (10.0, 1) and "prone" in b.conditions(me)


def test_hay_under_a_10_ft_ledge_is_walked_into_and_bare_ground_is_fallen_onto() -> None:
    """10 ft onto something soft halves one die to none: no fall; onto bare ground, 1d6."""
    for soft, stops in ((True, (6, 2)), (False, (4, 2))):
        b = Battle(seed=2, width=10, height=5)
        for x in range(4):
            for y in range(5):
                b.set_ground(x, y, 10)
        b.set_ground(4, 2, 0, soft=soft)
        me = b.spawn("Walker", 2, 2, team="blue")
        b.spawn("Foe", 9, 4, team="red")
        assert b.forecast_move(me, (6, 2)).stops_at == stops
        b.move(me, 6, 2)
        seen = len(b.events)
        b.tick()
        [moved] = [e for e in b.events[seen:] if isinstance(e, Moved)]
        assert moved.to_square == stops
        assert bool([e for e in b.events[seen:] if isinstance(e, Fell)]) != soft


@pytest.mark.parametrize("rules, harmless", [({}, False), ({"fall_ft_per_die": 30}, True),
                                             ({"soft_landing_divisor": 1}, False)])
def test_what_hurts_is_the_scenarios_fall_rules(rules: dict[str, int], harmless: bool) -> None:
    """A 20 ft step onto hay: 2 dice halved to 1 by default; with a die per 30 ft it has none; with
    soft ground halving nothing (divisor 1) it is 2 dice."""
    b = Battle(seed=2, width=10, height=5, rules=rules or None)
    for y in range(5):
        b.set_ground(0, y, 20)
        b.set_ground(1, y, 20)
    b.set_ground(2, 2, 0, soft=True)
    me = b.spawn("Walker", 1, 2, team="blue")
    b.spawn("Foe", 9, 4, team="red")
    forecast = b.forecast_move(me, (4, 2))
    assert (forecast.stops_at == (4, 2)) == harmless and (forecast.fall is None) == harmless


def test_a_step_down_longer_than_the_rounds_fall_is_a_fall_that_goes_on_next_round() -> None:
    """With falls of 3 ft a round, a 5 ft step cannot be taken in one go: it steps off and falls."""
    b, me, _ = stair(fall_ft_per_round=3)
    forecast = b.forecast_move(me, (8, 2))
    assert forecast.stops_at == (4, 2)
    b.move(me, 8, 2)
    seen = len(b.events)
    b.end_turn()
    fell = [e for e in b.events[seen:] if isinstance(e, Fell) and e.entity == me]
    assert fell and fell[0].from_z - fell[0].to_z == 3.0


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heights=st.lists(st.sampled_from([0, 5, 10, 15, 20]), min_size=8, max_size=8),
       soft=st.lists(st.booleans(), min_size=8, max_size=8), goal_x=st.integers(0, 7))
def test_a_move_over_random_steps_ends_where_its_forecast_says(heights: list[int], soft: list[bool],
                                                               goal_x: int) -> None:
    """Forecast = observed: where the walk stops, at what height, and whether a fall follows."""
    b = Battle(seed=4, width=8, height=3)
    for x in range(8):
        for y in range(3):
            b.set_ground(x, y, heights[x], soft=soft[x])
    me = b.spawn("Walker", 0, 1, team="blue", speed=40)
    b.spawn("Foe", 7, 0, team="red")
    forecast = b.forecast_move(me, (goal_x, 1))
    if not forecast.legal:
        return
    b.move(me, goal_x, 1)
    seen = len(b.events)
    b.tick()
    [moved] = [e for e in b.events[seen:] if isinstance(e, Moved) and e.entity == me]
    assert moved.to_square == forecast.stops_at
    landed = [e for e in b.events[seen:] if isinstance(e, Landed) and e.entity == me]
    assert bool(landed) == (forecast.fall is not None)
    if forecast.fall is not None:
        assert landed[0].distance_ft == forecast.fall.distance_ft


@pytest.mark.parametrize("step_ft, rules, threatened", [(5, {}, True), (10, {}, True),
                                                        (10, {"fall_ft_per_round": 10}, False)])
def test_an_enemy_at_the_top_of_a_stair_threatens_the_bottom_if_it_can_get_down_and_strike(
        step_ft: int, rules: dict[str, int], threatened: bool) -> None:
    """The threat forecast (what the computer player fears) brings the enemy down the stair: it walks
    down 5 ft steps, jumps down 10 ft ones (each fall settles, then it goes on), but not 20 ft in all
    where a round's fall is 10 ft."""
    b = Battle(seed=2, width=12, height=5, rules=rules or None)
    for x in range(12):
        for y in range(5):
            b.set_ground(x, y, max(0, 3 - x) * step_ft)  # 15, 10, 5, 0 (30, 20, 10, 0) ft from x = 0
    brute = b.spawn("Brute", 1, 2, team="red", powers=["strike"], speed=30)
    me = b.spawn("Me", 5, 2, team="blue")
    [threat] = b.threats(me, [(5, 2)])
    assert bool([s for s in threat.sources if s.enemy == brute]) == threatened
