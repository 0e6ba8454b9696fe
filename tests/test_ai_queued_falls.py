"""The computer players and a move that ends in a fall: the fall settles before the next order.

A walker that steps off a ledge on its way (or onto its goal from above) falls where it steps off,
and lands before its next order resolves. The tactical player weighs acting from where it lands
(as likely as the fall leaves it standing); greedy (the fixed yardstick) keeps its choice, and
leaves out what it planned from a goal its walk does not reach.
"""

from __future__ import annotations

from game import Battle, ai
from game.ai.baseline import PLANNERS
from game.ai.board import View


def trench() -> tuple[Battle, int, int]:
    """Ground 10 ft high but for a trench down column 3; a walker at (1, 2), its turn under way, and a
    foe across the trench at (5, 2): any way to it steps down into the trench (a 1d6 fall)."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(10):
        for y in range(6):
            b.set_ground(x, y, 0 if x == 3 else 10)
    me = b.spawn("Walker", 1, 2, team="blue", powers=["strike"], initiative_bonus=50)
    foe = b.spawn("Foe", 5, 2, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    return b, me, foe


def test_greedy_keeps_its_choice_and_leaves_out_the_blow_planned_from_a_goal_it_does_not_reach():
    b, me, _ = trench()
    chosen = PLANNERS["greedy"](View(b, me, None), ai.turn_rng(0, 1, me), set())
    assert [name for name, _, _ in chosen] == ["move", "use_power"]  # its choice: close in and strike
    plan = ai.plan_turn(b, me, "greedy")
    assert plan == chosen[:1]  # the same move, and not the blow: it lands in the trench, short of its goal
    ai.issue(b, plan)  # raises nothing


def jump(health: int) -> tuple[Battle, int, int]:
    """A 10 ft ledge over columns 0-2; a walker on it at (1, 2), its turn under way, and a weak foe
    below at (4, 2): the way to it steps off at (3, 1) or (3, 2), a 1d6 fall, beside the foe."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 10)
    me = b.spawn("Tactician", 1, 2, team="blue", powers=["strike"], initiative_bonus=50, health=health)
    foe = b.spawn("Foe", 4, 2, team="red", powers=["strike"], health=3)
    b.start_combat()
    b.begin_round()
    return b, me, foe


def test_the_tactical_player_jumps_down_and_strikes_where_it_lands():
    """The fall settles before its blow: it lands prone beside the foe and strikes it, in one turn."""
    b, me, foe = jump(12)
    plan = ai.plan_turn(b, me, "tactical")
    # (the fall settles before the blow is given: ``ai.decisions`` looks again there)
    assert [name for name, _, _ in plan] == ["move", "resolve_orders", "use_power"], plan
    assert plan[2][2] == {"target": foe}
    assert b.forecast_moves_to(me, [plan[0][1][1:]], cover=False)[0].fall is not None  # a jump, not a walk
    seen = len(b.events)
    ai.issue(b, plan)
    b.resolve_orders()
    assert [type(e).__name__ for e in b.events[seen:] if type(e).__name__ in ("Landed", "AttackRolled")] == [
        "Landed", "AttackRolled"]


def test_the_tactical_player_does_not_jump_when_the_fall_would_likely_down_it():
    b, me, _ = jump(3)
    assert ai.plan_turn(b, me, "tactical") == []  # 1d6 downs it half the time: it stays on the ledge
