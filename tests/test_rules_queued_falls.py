"""A queued move that leaves a walker with nothing under it: the orders checked after it see what the turn does.

The walk (``systems.actions.walk``) stops a walker at the first square with nothing under its height,
short of its goal or on it; the turn then refuses everything queued after that move ("it is falling")
and the fall comes after. So the projection of its queued orders leaves it there, at that height;
a move, a stand or a use queued after it is refused at once with the reason, and every forecast
asked after it says it is not legal. A flier, and a walk that reaches its goal on the ground, are
as they were.
"""

from __future__ import annotations

import numpy as np
import pytest

from components import Movement, Position
from components.commands import Move
from components.events import CommandRefused, Moved
from game import Battle, IllegalCommand
from game.battle import orders
from game.battle.script_bridge import ScriptBridge

STEPS_OFF = r"it will be falling after its move to \(5, 1\) \(it steps off at \(3, 1\)\)"


def ledge(**walker: object) -> tuple[Battle, int, int]:
    """Ground 20 ft high in columns 0-2, 0 ft from column 3 on; a walker on the ledge at (1, 1), its
    turn under way, and a foe on the low ground at (6, 1), a step beyond the goal (5, 1)."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 20)
    me = b.spawn("Walker", 1, 1, team="blue", powers=["strike"], initiative_bonus=50, health=100, **walker)
    foe = b.spawn("Foe", 6, 1, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    assert b.current_actor == me
    return b, me, foe


def resolved_move(b: Battle, entity: int) -> Moved:
    """Resolve the turn's orders; the one move they made (where the walk left it, before any fall)."""
    seen = len(b.events)
    b.resolve_orders()
    [moved] = [e for e in b.events[seen:] if isinstance(e, Moved) and e.entity == entity]
    return moved


@pytest.mark.parametrize(("goal", "how"), [((5, 1), "it steps off at (3, 1)"),
                                           ((3, 1), "it is 20 ft above the ground there")])
def test_the_projection_after_a_queued_ledge_walk_is_where_the_walk_leaves_it(goal, how):
    b, me, _ = ledge()
    b.move(me, *goal)
    position, movement = orders.projection(b.state, me)
    assert (position, movement.used_ft) == (Position(3, 1, 20), 10)  # not the goal's ground
    assert b.queued_fall(me) == f"it will be falling after its move to {goal} ({how})"
    moved = resolved_move(b, me)
    assert (moved.to_square, moved.z, moved.cost_ft) == (position.square, position.z, movement.used_ft)
    assert b.get(me, Movement).used_ft == movement.used_ft
    assert b.get(me, Position) == Position(3, 1, 0)  # then it fell


def test_a_move_after_it_is_refused_with_the_reason_as_the_turn_would_refuse_it():
    b, me, _ = ledge()
    b.move(me, 5, 1)
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot move to \(5, 2\): " + STEPS_OFF):
        b.move(me, 5, 2)
    orders.queue(b.state, me, Move(me, 3, 2))  # past the check: the turn refuses it
    seen = len(b.events)
    b.resolve_orders()
    assert [(e.command, e.reason) for e in b.events[seen:] if isinstance(e, CommandRefused)] == [
        ("move to (3, 2)", "it is falling")]


def test_a_use_or_a_stand_after_it_is_refused_with_the_reason():
    b, me, foe = ledge()
    b.move(me, 5, 1)
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot use Strike: " + STEPS_OFF):
        b.use_power(me, "strike", target=foe)  # from the goal, the foe would be a step away
    b.add_condition(me, "prone")
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot stand: " + STEPS_OFF):
        b.stand(me)
    assert [type(c).__name__ for c in b.state.actions[me]] == ["Move"]


def test_a_script_cannot_queue_a_move_after_it():
    b, me, _ = ledge()
    b.move(me, 5, 1)
    bridge = ScriptBridge(b.state, set(b.creatures()))
    with pytest.raises(ValueError, match=r"cannot move to \(5, 2\): " + STEPS_OFF):
        bridge.command("move", (me, 5, 2), 0)


def test_every_forecast_after_it_says_not_legal_and_why():
    b, me, foe = ledge()
    reason = "it will be falling after its move to (5, 1) (it steps off at (3, 1))"
    what_if = b.forecast_moves_to(me, [(5, 2)], after=(5, 1))[0]  # a way in two legs, nothing queued
    assert (what_if.legal, what_if.problem) == (False, reason)
    assert (b.queued_fall(me, [(2, 1)]), b.queued_fall(me, [(5, 1)])) == (None, reason)  # what-ifs too
    b.move(me, 5, 1)
    move = b.forecast_move(me, (5, 2))
    assert (move.legal, move.problem) == (False, reason)
    use = b.forecast(me, "strike", target=foe)
    assert (use.legal, use.problem, use.targets) == (False, reason, ())
    [named] = b.forecast_many(me, (5, 1), [("strike", {"target": foe})])
    assert (named.legal, named.problem) == (False, reason)
    assert b.forecast_uses(me) == []
    assert not np.any(b.reachable(me))
    assert [(square, f.legal) for square, f in b.forecast_moves(me).items()] == [((3, 1), False)]


def test_a_flier_is_unaffected():
    """The same moves: the walker is refused the second, the flier keeps its height and makes both."""
    walking, walker, _ = ledge()
    walking.move(walker, 5, 1)
    with pytest.raises(IllegalCommand, match=STEPS_OFF):
        walking.move(walker, 5, 2)
    b, me, foe = ledge(flying=True)
    b.move(me, 5, 1)
    position, movement = orders.projection(b.state, me)
    assert (position, movement.used_ft) == (Position(5, 1, 20), 20)
    assert b.forecast_move(me, (5, 2)).legal
    assert "falling" not in (b.forecast(me, "strike", target=foe).problem or "")  # (20 ft up: out of reach)
    b.move(me, 5, 2)
    seen = len(b.events)
    b.resolve_orders()
    assert not [e for e in b.events[seen:] if isinstance(e, CommandRefused)]
    assert b.get(me, Position) == Position(5, 2, 20)


def test_a_queued_walk_that_reaches_its_goal_on_the_ground_is_as_it_was():
    """Along the ledge, and a climb onto it: the projection is the goal's ground, and more may be queued."""
    b, me, _ = ledge()
    b.move(me, 2, 4)
    position, movement = orders.projection(b.state, me)
    assert (position, movement.used_ft) == (Position(2, 4, 20), 15)
    assert b.forecast_move(me, (2, 5)).legal
    moved = resolved_move(b, me)
    assert (moved.to_square, moved.z, moved.cost_ft) == ((2, 4), 20, 15)
    low, climber, _ = ledge()
    low.set_ground(1, 1, 0)
    low.move(climber, 2, 1)
    assert orders.projection(low.state, climber) == (Position(2, 1, 20), Movement(30, 5))
    low.move(climber, 2, 2)  # from the top
