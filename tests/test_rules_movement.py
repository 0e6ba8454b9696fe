"""Movement: 5 ft squares, diagonal one square (or alternating 5-10-5), paths around walls within speed."""

from __future__ import annotations

import pytest

from components import Conditions, Movement, Position
from game import Battle
from game.battle.errors import IllegalCommand
from systems.actions import movement_left
from tests.event_steps import kinds


def cost_of(b: Battle, e: int, x: int, y: int) -> int:
    b.move(e, x, y)
    b.tick()
    [moved] = kinds(b, "moved", e)[-1:]
    assert moved.to_square == (x, y)
    return moved.cost_ft


def test_a_move_resolves_at_the_next_tick(battle):
    e = battle.spawn("a", 0, 0)
    battle.move(e, 2, 0)
    assert battle.get(e, Position).square == (0, 0)
    battle.tick()
    assert battle.get(e, Position).square == (2, 0)


def test_a_square_is_5ft(battle):
    e = battle.spawn("a", 0, 0)
    assert cost_of(battle, e, 3, 0) == 15


@pytest.mark.parametrize(("goal", "feet"), [((1, 1), 5), ((2, 2), 10), ((3, 3), 15), ((3, 1), 15), ((6, 6), 30)])
def test_a_diagonal_is_one_square(battle, goal, feet):
    e = battle.spawn("a", 0, 0)
    assert cost_of(battle, e, *goal) == feet


@pytest.mark.parametrize(("goal", "feet"), [((1, 1), 5), ((2, 2), 15), ((3, 3), 20), ((4, 4), 30), ((3, 1), 15),
                                            ((4, 2), 25), ((2, 0), 10)])
def test_alternating_diagonals_cost_5_10_5(goal, feet):
    b = Battle(seed=1, width=16, height=16, rules={"diagonal": "alternating"})
    e = b.spawn("a", 0, 0)
    assert cost_of(b, e, *goal) == feet
    b.close()


def test_alternating_diagonals_change_what_is_in_reach(battle):
    e = battle.spawn("a", 0, 0)
    battle.move(e, 5, 5)  # 25 ft with one-square diagonals
    b = Battle(seed=1, width=16, height=16, rules={"diagonal": "alternating"})
    f = b.spawn("a", 0, 0)
    with pytest.raises(ValueError, match="ft"):
        b.move(f, 5, 5)  # 5 + 10 + 5 + 10 + 5 = 35 ft
    b.close()


def test_default_speed_is_30ft(battle):
    e = battle.spawn("a", 0, 0)
    with pytest.raises(ValueError, match="35 ft"):
        battle.move(e, 7, 0)
    battle.move(e, 6, 0)
    battle.tick()
    assert battle.get(e, Position).square == (6, 0)


def test_speed_can_be_set_per_creature(battle):
    fast = battle.spawn("fast", 0, 0, speed=40)
    battle.move(fast, 8, 0)  # 40 ft
    slow = battle.spawn("slow", 0, 2, speed=10)
    with pytest.raises(ValueError, match="15 ft"):
        battle.move(slow, 3, 2)
    battle.move(slow, 2, 2)
    battle.tick()
    assert battle.get(fast, Position).square == (8, 0)
    assert battle.get(slow, Position).square == (2, 2)


def test_the_path_goes_around_walls(battle):
    for y in range(0, 5):
        battle.add_wall(3, y)
    e = battle.spawn("a", 2, 2)
    assert cost_of(battle, e, 4, 2) == 30  # (2,3) (2,4) (3,5) (4,4) (4,3) (4,2): not the 10 ft straight line


def test_out_of_reach_around_walls_is_refused(battle):
    for y in range(0, 6):
        battle.add_wall(3, y)
    e = battle.spawn("a", 2, 2)
    n = len(battle.events)
    with pytest.raises(ValueError, match="40 ft"):
        battle.move(e, 4, 2)  # 10 ft as the crow flies, 40 ft around the wall
    battle.tick()
    assert battle.get(e, Position).square == (2, 2)
    assert not kinds(battle, "moved")
    assert battle.events[n:] == [ev for ev in battle.events[n:] if ev.kind in ("round_started", "round_ended")]


def test_a_walled_in_square_is_unreachable(battle):
    for x, y in [(4, 4), (5, 4), (6, 4), (4, 5), (6, 5), (4, 6), (5, 6), (6, 6)]:
        battle.add_wall(x, y)
    e = battle.spawn("a", 2, 5)
    with pytest.raises(ValueError, match="no path"):
        battle.move(e, 5, 5)


def test_moving_into_a_wall_is_refused(battle):
    battle.add_wall(1, 0)
    e = battle.spawn("a", 0, 0)
    with pytest.raises(ValueError, match="wall"):
        battle.move(e, 1, 0)


def test_moving_into_another_creature_is_refused(battle):
    e = battle.spawn("a", 0, 0)
    battle.spawn("b", 1, 0)
    with pytest.raises(ValueError, match="taken"):
        battle.move(e, 1, 0)


def test_moves_in_one_round_share_the_speed(battle):
    e = battle.spawn("a", 0, 0)
    battle.move(e, 4, 0)  # 20 ft
    with pytest.raises(ValueError, match="10 ft of movement left"):
        battle.move(e, 7, 0)  # 15 ft more
    battle.move(e, 6, 0)  # 10 ft more
    battle.tick()
    assert battle.get(e, Position).square == (6, 0)
    assert [m.cost_ft for m in kinds(battle, "moved", e)] == [20, 10]


def test_the_movement_budget_resets_every_round(battle):
    e = battle.spawn("a", 0, 0)
    battle.move(e, 6, 0)
    battle.tick()
    battle.move(e, 12, 0)
    battle.tick()
    assert battle.get(e, Position).square == (12, 0)


@pytest.mark.parametrize(("fatigue", "condition"), [(0, "downed"), (5, "unconscious")])
def test_a_downed_or_unconscious_creature_cannot_move(battle, fatigue, condition):
    e = battle.spawn("a", 0, 0, health=10)
    if fatigue:
        battle.add_fatigue(e, fatigue)
    else:
        battle.damage(e, 10)
    battle.tick()
    assert condition in battle.conditions(e)
    with pytest.raises(ValueError, match=condition):
        battle.move(e, 1, 0)


def test_a_move_issued_before_the_mover_is_downed_is_refused_on_its_turn(battle):
    e = battle.spawn("a", 0, 0, health=10)
    battle.move(e, 3, 0)
    battle.damage(e, 10)  # GM damage resolves at the start of the tick, before the creature's turn
    battle.tick()
    assert battle.get(e, Position).square == (0, 0)
    [refused] = kinds(battle, "command_refused", e)
    assert "downed" in refused.reason


def test_moving_to_its_own_square_costs_nothing(battle):
    e = battle.spawn("a", 4, 4)
    assert cost_of(battle, e, 4, 4) == 0


def test_reachable_matches_move(battle):
    battle.add_wall(2, 1)
    e = battle.spawn("a", 0, 0)
    mask = battle.reachable(e)
    b = None  # a fresh battle for each move that goes through; a refused one changes nothing, so the
    # next square is tried on the same battle (256 battles made cost seconds; about 40 now)
    for x in range(16):
        for y in range(16):
            if b is None:
                b = Battle(seed=1)
                b.add_wall(2, 1)
                f = b.spawn("a", 0, 0)
            try:
                b.move(f, x, y)
                ok = True
            except ValueError:
                ok = False
            if ok:
                b.close()
                b = None
            assert bool(mask[x, y]) is ok, (x, y)
    if b is not None:
        b.close()


def test_slowed_after_moving_leaves_no_movement_and_its_own_square(battle):
    """Slowed after it walked 25 ft, a creature has used more than its 15 ft: it has 0 ft left (never
    a negative number), and the check, the forecast, the reachable squares and the move agree."""
    e = battle.spawn("a", 0, 0)
    battle.begin_round()
    assert battle.current_actor == e
    battle.move(e, 5, 0)
    battle.resolve_orders()
    battle.add_condition(e, "slowed")
    assert movement_left(battle.get(e, Movement), battle.get(e, Conditions), battle.rules) == 0
    assert "it has 0 ft of movement left" in (battle.forecast_move(e, (6, 0)).problem or "")
    with pytest.raises(IllegalCommand, match="it has 0 ft of movement left"):
        battle.move(e, 6, 0)
    assert battle.forecast_move(e, (5, 0)).legal
    assert [tuple(int(v) for v in s) for s in zip(*battle.reachable(e).nonzero())] == [(5, 0)]
    battle.move(e, 5, 0)
    battle.resolve_orders()
    assert kinds(battle, "moved", e)[-1].cost_ft == 0
    assert battle.get(e, Position).square == (5, 0)
