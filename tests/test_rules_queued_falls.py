"""A queued move that steps off a ledge: its fall settles before the next order, as in the window.

The walk (``systems.actions.walk``) stops a walker at the first square with a drop under it that
hurts (short of its goal, or the goal itself), and it falls there. The turn lets that fall settle (it
lands, is hurt, falls prone, or goes down) before the next queued order resolves, each checked again
as the battle then is: the same as when a person resolves the orders one at a time. So the
projection of its queued orders lands it there, and what it queues next starts from the ground. Only
a fall longer than the round has left goes on into the next round: then everything after it is
refused at once with the reason, and every forecast asked after it says it is not legal.
"""

from __future__ import annotations

import numpy as np
import pytest

from components import Movement, Position
from components.commands import Move
from components.events import CommandRefused, Fell, Landed, Moved, PowerUsed, Pushed
from game import Battle, IllegalCommand
from game.battle import orders
from game.battle.script_bridge import ScriptBridge

STEPS_OFF = (r"it will be falling after its move to \(5, 1\) \(it steps off at \(3, 1\) and falls 20 ft, "
             r"more than the 10 ft a round has left\)")


def ledge(rules: dict[str, int] | None = None, **walker: object) -> tuple[Battle, int, int]:
    """Ground 20 ft high in columns 0-2, 0 ft from column 3 on; a walker on the ledge at (1, 1), its
    turn under way, and a foe on the low ground at (6, 1), a step beyond the goal (5, 1)."""
    b = Battle(seed=1, width=10, height=6, rules=rules)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 20)
    me = b.spawn("Walker", 1, 1, team="blue", powers=["strike"], initiative_bonus=50, **{"health": 100, **walker})
    foe = b.spawn("Foe", 6, 1, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    assert b.current_actor == me
    return b, me, foe


def long_fall() -> tuple[Battle, int, int]:
    """The ledge where a round's fall is 10 ft: the walker's 20 ft drop goes on into the next round."""
    return ledge({"fall_ft_per_round": 10})


def resolved_move(b: Battle, entity: int) -> Moved:
    """Resolve the turn's orders; the one move they made (where the walk left it, before any fall)."""
    [moved] = [e for e in resolved(b) if isinstance(e, Moved) and e.entity == entity]
    return moved


def resolved(b: Battle) -> list[object]:
    """Resolve the turn's orders; the events they made."""
    seen = len(b.events)
    b.resolve_orders()
    return b.events[seen:]


@pytest.mark.parametrize("goal", [(5, 1), (3, 1)])
def test_the_projection_after_a_queued_ledge_walk_lands_it_where_it_steps_off(goal):
    b, me, _ = ledge()
    b.move(me, *goal)
    position, movement = orders.projection(b.state, me)
    assert (position, movement.used_ft) == (Position(3, 1, 0), 10)  # landed where it stepped off
    assert b.queued_fall(me) is None and b.queued_stop(me) == ((3, 1), None)
    [moved] = [e for e in resolved(b) if isinstance(e, Moved)]
    assert (moved.to_square, moved.z, moved.cost_ft) == ((3, 1), 20, movement.used_ft)
    assert b.get(me, Movement).used_ft == movement.used_ft
    assert b.get(me, Position) == position


def test_a_move_after_it_goes_on_from_where_it_landed_once_the_fall_has_settled():
    b, me, _ = ledge()
    b.move(me, 5, 1)
    assert b.forecast_move(me, (5, 2)).cost_ft == 10  # from (3, 1), on the ground
    b.move(me, 5, 2)
    kinds = [(type(e).__name__, getattr(e, "to_square", None)) for e in resolved(b)
             if isinstance(e, (Moved, Fell, Landed, CommandRefused))]
    assert kinds == [("Moved", (3, 1)), ("Fell", None), ("Landed", None), ("Moved", (5, 2))]
    assert b.get(me, Position) == Position(5, 2, 0) and b.get(me, Movement).used_ft == 20


def test_a_blow_or_a_stand_after_it_resolves_from_the_ground():
    """Down onto (3, 1) beside a second foe: it lands prone (2d6), may stand, then strikes."""
    b, me, foe = ledge()
    near = b.spawn("Near", 4, 1, team="red", health=30)
    with pytest.raises(IllegalCommand, match="not prone"):
        b.stand(me)
    b.move(me, 3, 1)
    with pytest.raises(IllegalCommand, match="15 ft away"):
        b.use_power(me, "strike", target=foe)  # from where it lands, the far foe is out of reach
    b.stand(me)  # it will be prone after the fall
    with pytest.raises(IllegalCommand, match="not prone"):
        b.stand(me)  # once is enough
    b.use_power(me, "strike", target=near)
    events = resolved(b)
    order = [type(e).__name__ for e in events if isinstance(e, (Moved, Landed, PowerUsed, CommandRefused))]
    assert order == ["Moved", "Landed", "PowerUsed"]
    assert "prone" not in b.conditions(me)


def test_orders_after_a_fall_that_downs_it_are_refused_when_the_turn_resolves():
    b, me, _ = ledge(health=1)
    near = b.spawn("Near", 4, 1, team="red", health=30)
    b.move(me, 3, 1)
    b.use_power(me, "strike", target=near)  # legal as queued: the fall may leave it standing
    events = resolved(b)
    assert [e.damage > 0 for e in events if isinstance(e, Landed)] == [True]
    assert "downed" in b.conditions(me)
    refused = [e for e in events if isinstance(e, CommandRefused)]
    assert [r.command for r in refused] == ["use strike"] and not [e for e in events if isinstance(e, PowerUsed)]


def test_a_creature_pushed_off_a_ledge_lands_before_the_next_order():
    """Shoved off, then a move: the victim's fall is settled before the shover walks."""
    b = Battle(seed=4, width=10, height=5)
    for x in range(0, 5):
        b.set_ground(x, 2, 30)
    brute = b.spawn("Brute", 2, 2, team="blue", powers=["shove"], attack_bonus=20, initiative_bonus=50)
    victim = b.spawn("Victim", 3, 2, team="red", health=200)
    b.start_combat()
    b.begin_round()
    b.use_power(brute, "shove", target=victim)
    b.move(brute, 1, 2)  # back along the ledge
    events = resolved(b)
    kinds = [type(e).__name__ for e in events if isinstance(e, (Pushed, Landed, Moved, CommandRefused))]
    assert kinds == ["Pushed", "Landed", "Moved"]  # the victim lands before the brute walks
    assert b.get(victim, Position).z == 0 and b.get(brute, Position) == Position(1, 2, 30)


def test_a_fall_longer_than_the_round_has_left_refuses_everything_after_it():
    b, me, foe = long_fall()
    b.move(me, 5, 1)
    position, _ = orders.projection(b.state, me)
    assert position == Position(3, 1, 20)  # it steps off there; the fall goes on
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot move to \(5, 2\): " + STEPS_OFF):
        b.move(me, 5, 2)
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot use Strike: " + STEPS_OFF):
        b.use_power(me, "strike", target=foe)
    b.add_condition(me, "prone")
    with pytest.raises(IllegalCommand, match=r"Walker \(#1\) cannot stand: " + STEPS_OFF):
        b.stand(me)
    bridge = ScriptBridge(b.state, set(b.creatures()))
    with pytest.raises(ValueError, match=r"cannot move to \(5, 2\): " + STEPS_OFF):
        bridge.command("move", (me, 5, 2), 0)
    assert [type(c).__name__ for c in b.state.actions[me]] == ["Move"]
    orders.queue(b.state, me, Move(me, 3, 2))  # past the check: the turn refuses it
    events = resolved(b)
    assert [(e.command, e.reason) for e in events if isinstance(e, CommandRefused)] == [
        ("move to (3, 2)", "it is falling")]
    assert [e.to_z for e in events if isinstance(e, Fell)] == [10.0]  # 10 ft this round, 10 more next


def test_every_forecast_after_a_fall_into_the_next_round_says_not_legal_and_why():
    b, me, foe = long_fall()
    reason = ("it will be falling after its move to (5, 1) (it steps off at (3, 1) and falls 20 ft, "
              "more than the 10 ft a round has left)")
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
    """The same moves: the walker lands at (3, 1) and goes on from there; the flier keeps its height."""
    b, me, foe = ledge(flying=True)
    b.move(me, 5, 1)
    position, movement = orders.projection(b.state, me)
    assert (position, movement.used_ft) == (Position(5, 1, 20), 20)
    assert b.forecast_move(me, (5, 2)).legal
    assert "falling" not in (b.forecast(me, "strike", target=foe).problem or "")  # (20 ft up: out of reach)
    b.move(me, 5, 2)
    assert not [e for e in resolved(b) if isinstance(e, (CommandRefused, Fell))]
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


def test_a_move_forecast_after_a_queued_fall_has_only_the_rounds_fall_left():
    """A round's fall of 15 ft: the first move's 10 ft drop lands (5 ft left); the second move's 9 ft
    step down, harmless in itself, is more than that, so the walk steps off there and falls on into
    the next round. The forecast, the projection and the turn agree."""
    b = Battle(seed=1, width=8, height=3, rules={"fall_ft_per_round": 15})
    for x in range(8):
        for y in range(3):
            b.set_ground(x, y, 19 if x <= 1 else (9 if x == 2 else 0))
    me = b.spawn("Walker", 1, 1, team="blue", health=100, initiative_bonus=50, speed=60)
    b.spawn("Foe", 7, 2, team="red")
    b.start_combat()
    b.begin_round()
    [what_if] = b.forecast_moves_to(me, [(4, 1)], after=(2, 1))
    b.move(me, 2, 1)
    forecast = b.forecast_move(me, (4, 1))
    assert (forecast.stops_at, what_if.stops_at) == ((3, 1), (3, 1)) and forecast.fall is not None
    b.move(me, 4, 1)
    assert b.queued_stop(me)[0] == (3, 1) and "more than the 5 ft a round has left" in (b.queued_fall(me) or "")
    moved = [e.to_square for e in resolved(b) if isinstance(e, Moved)]
    assert moved == [(2, 1), (3, 1)] and b.get(me, Position).z == 4.0  # 5 ft of the 9 this round


def test_orders_a_reaction_queues_between_the_passes_resolve_in_the_same_turn():
    b = Battle(seed=1, width=10, height=8)
    for x in range(10):
        for y in range(8):
            b.set_ground(x, y, 20 if x <= 1 else (10 if x <= 3 else 0))
    me = b.spawn("Walker", 1, 1, team="blue", health=100, initiative_bonus=50, speed=60)
    b.spawn("Foe", 8, 6, team="red", health=100)

    def rolls_aside(battle: Battle, event: Landed) -> None:
        if event.entity == me and battle.get(me, Position).square == (2, 1):
            battle.move(me, 2, 2)

    b.on(Landed, rolls_aside)
    b.start_combat()
    b.begin_round()
    b.move(me, 2, 1)
    b.move(me, 4, 3)
    b.end_turn()
    assert [e.to_square for e in b.events if isinstance(e, Moved)] == [(2, 1), (4, 3), (2, 2)]
    assert not b.state.actions.get(me)


def test_a_creature_still_falling_can_use_no_power_and_its_forecast_says_so():
    b, me, foe = long_fall()
    b.move(me, 3, 1)
    b.end_turn()  # it steps off and falls 10 ft of the 20 this round
    assert b.get(me, Position).z == 10.0
    assert b.forecast(me, "strike", target=foe).problem == "it is falling"


def test_a_walk_never_steps_off_onto_another_creature():
    """Two never share a square: a way that would land the walker on a friend below the ledge is
    refused when given and forecast so; one given before the friend came is refused by the turn."""
    b, me, _ = ledge()
    friend = b.spawn("Friend", 3, 1, team="blue")
    reason = "its way steps off a ledge at (3, 1), where another creature stands"
    assert (b.forecast_move(me, (5, 1)).legal, b.forecast_move(me, (5, 1)).problem) == (False, reason)
    with pytest.raises(IllegalCommand, match=r"cannot move to \(5, 1\): its way steps off a ledge at \(3, 1\)"):
        b.move(me, 5, 1)
    b.move(me, 2, 1)  # along the top: its walk lands on no one
    assert b.queued_stop(me) == ((2, 1), None)
    late, walker, _ = ledge()
    late.move(walker, 5, 1)  # legal now
    late.spawn("Late", 3, 1, team="blue")
    assert [(e.command, e.reason) for e in resolved(late) if isinstance(e, CommandRefused)] == [
        ("move to (5, 1)", reason)]
    assert late.get(walker, Position) == Position(1, 1, 20) and friend
