"""The computer players queue nothing after a move that ends in a fall: the turn would refuse it.

A walker that steps off a ledge on its way (or onto its goal from above) falls after its move, and
the turn refuses everything queued after that move ("it is falling"). The tactical player weighs
acting only before such a move; greedy (the fixed yardstick) keeps its choice, and only the order
that could never resolve is left out of its plan.
"""

from __future__ import annotations

from game import Battle, ai
from game.ai.baseline import PLANNERS
from game.ai.board import View


def trench() -> tuple[Battle, int, int]:
    """Ground 5 ft high but for a trench down column 3; a walker at (1, 2), its turn under way, and a
    foe across the trench at (5, 2): any way to it steps down into the trench (a harmless 5 ft)."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(10):
        for y in range(6):
            b.set_ground(x, y, 0 if x == 3 else 5)
    me = b.spawn("Walker", 1, 2, team="blue", powers=["strike"], initiative_bonus=50)
    foe = b.spawn("Foe", 5, 2, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    return b, me, foe


def test_greedy_keeps_its_choice_and_leaves_out_the_blow_the_fall_would_refuse():
    b, me, _ = trench()
    chosen = PLANNERS["greedy"](View(b, me, None), ai.turn_rng(0, 1, me), set())
    assert [name for name, _, _ in chosen] == ["move", "use_power"]  # its choice: close in and strike
    plan = ai.plan_turn(b, me, "greedy")
    assert plan == chosen[:1]  # the same move, and nothing after the fall it ends in
    ai.issue(b, plan)  # raises nothing


def test_the_tactical_player_acts_only_before_a_move_that_ends_in_a_fall():
    """Off a 5 ft step onto the square beside the foe: it would stand there 5 ft up, and fall."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 5)
    me = b.spawn("Tactician", 1, 2, team="blue", powers=["strike"], initiative_bonus=50)
    b.spawn("Foe", 4, 2, team="red", powers=["strike"], health=5)
    b.start_combat()
    b.begin_round()
    plan = ai.plan_turn(b, me, "tactical")
    moves = [at for at, (name, _, _) in enumerate(plan) if name == "move"]
    assert moves, plan
    for at in moves:
        goal = plan[at][1][1:]
        if b.forecast_moves_to(me, [goal], cover=False)[0].fall is not None:
            assert at == len(plan) - 1, plan
    ai.issue(b, plan)
