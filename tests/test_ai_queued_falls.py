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


def test_greedy_keeps_its_choice_and_leaves_out_the_blow_the_fall_would_refuse():
    b, me, _ = trench()
    chosen = PLANNERS["greedy"](View(b, me, None), ai.turn_rng(0, 1, me), set())
    assert [name for name, _, _ in chosen] == ["move", "use_power"]  # its choice: close in and strike
    plan = ai.plan_turn(b, me, "greedy")
    assert plan == chosen[:1]  # the same move, and nothing after the fall it ends in
    ai.issue(b, plan)  # raises nothing


def test_the_tactical_player_acts_only_before_a_move_that_ends_in_a_fall():
    """Beside a brute on a 10 ft ledge: it strikes, then gets away off the edge (a 1d6 fall), and
    queues nothing after the move that ends in the fall."""
    b = Battle(seed=1, width=10, height=6)
    for x in range(3):
        for y in range(6):
            b.set_ground(x, y, 10)
    me = b.spawn("Tactician", 2, 2, team="blue", powers=["strike"], initiative_bonus=50, health=8)
    b.spawn("Brute", 1, 2, team="red", powers=["strike"], health=30, attack_bonus=8)
    b.start_combat()
    b.begin_round()
    plan = ai.plan_turn(b, me, "tactical")
    moves = [at for at, (name, _, _) in enumerate(plan) if name == "move"]
    assert moves, plan
    falls = [at for at in moves if b.forecast_moves_to(me, [plan[at][1][1:]], cover=False)[0].fall is not None]
    assert falls == [len(plan) - 1] and len(plan) > 1, plan  # acts first, then the move that falls
    ai.issue(b, plan)
