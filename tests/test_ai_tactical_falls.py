"""The tactical computer player and falls that may down it: it still orders its blow after a walk
whose fall may down it, worth the chance that it stands. The fall settles before its next order is
given (``ai.decisions``), and a downed creature gives none, which costs nothing it could have done;
giving the blow up for any chance at all (a stop-52 change) lost iron 15 of 100 gauntlet battles
against greedy. A fixed board and seed, no timing.
"""

from __future__ import annotations

import pytest

from components.events import AttackRolled, CommandRefused
from game import ai
from game.battle.facade import Battle
from tests.ai_steps import moves_and_uses


def _cliff(health: int, seed: int = 12) -> tuple[Battle, int]:
    """A knight on a 30 ft cliff over hay (1d6 when it jumps: a fall of 3d6 halved), a goblin below."""
    b = Battle(seed=seed, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0, soft=x == 6)
    me = b.spawn("knight", 5, 4, team="hill", powers=["strike"], health=health, defense=15)
    b.spawn("goblin", 10, 4, team="vale", powers=["shoot"], health=8)
    b.start_combat()
    return b, me


@pytest.mark.parametrize("health", [5, 6])
def test_it_strikes_after_a_jump_whose_fall_may_down_it(health: int) -> None:
    """With 5 or 6 Health the hay's 1d6 downs the knight a time in three or six: it jumps, walks on
    and strikes all the same (the strike weighted by the chance it stands), where the timid player
    only walked."""
    b, me = _cliff(health)
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    falls = [b.forecast_move(me, square).fall for square in moves]
    assert any(fall is not None and 0 < fall.damage.at_least(health) < 1 for fall in falls), decision.why
    assert [name for name, _ in uses] == ["strike"] and decision.commands[-1][0] == "use_power", decision.why


@pytest.mark.parametrize("seed", range(6))
def test_a_downed_jumper_gives_no_order_and_a_standing_one_strikes(seed: int) -> None:
    """What the order costs when the dice go against it: nothing. Its turn settles the fall before
    its walk on and blow (``ai.decisions``): downed by the fall, it gives neither (none is refused)
    and attacks no one; standing, it attacks."""
    b, me = _cliff(5, seed)
    seen = len(b.events)
    b.tick(controller=ai.controller("tactical", controls=lambda e: e == me))
    after = b.events[seen:]
    attacked = [e for e in after if isinstance(e, AttackRolled) and e.entity == me]
    assert not [e for e in after if isinstance(e, CommandRefused)]
    if "downed" in b.conditions(me):
        assert not attacked
    else:
        assert attacked
