"""The tactical computer player and falls that may down it: it orders nothing after a walk whose
fall may leave it downed, since the fall settles before its next order and the turn refuses a
downed creature's orders. A fixed board and seed, no timing.
"""

from __future__ import annotations

import pytest

from components.events import CommandRefused
from game import ai
from game.battle.facade import Battle
from tests.ai_steps import moves_and_uses


@pytest.mark.parametrize("health", [5, 6])
def test_it_orders_nothing_after_a_jump_whose_fall_may_down_it(health: int):
    """A fall that downs it settles before its next order, and the turn refuses whatever a downed
    creature was told to do next: the gauntlet's witch jumped off a cliff with 5 Health (2d6), and
    its move on from the landing was refused. With 5 or 6 Health the hay's 1d6 may down the knight:
    it plans no walk on and no blow after that jump (the old player planned both, a refused order a
    time in three or six), and what it plans resolves with nothing refused."""
    b = Battle(seed=12, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0, soft=x == 6)
    me = b.spawn("knight", 5, 4, team="hill", powers=["strike"], health=health, defense=15)
    b.spawn("goblin", 10, 4, team="vale", powers=["shoot"], health=8)
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    for at, (name, args, _) in enumerate(decision.commands):
        if name == "move":
            fall = b.forecast_move(me, (args[1], args[2])).fall
            if fall is not None and fall.damage.at_least(health) > 0:
                assert at == len(decision.commands) - 1, decision.why
    assert not (moves and uses and decision.commands[0][0] == "move"), decision.why
    ai.issue(b, decision.commands)
    seen = len(b.events)
    b.tick()
    assert not [e for e in b.events[seen:] if isinstance(e, CommandRefused)]
