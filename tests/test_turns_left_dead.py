"""``turns_left`` names only the creatures the round will still give a turn: not the dead, whom it skips.

It listed every creature after the current one in the round's order, the dead included, so the
window's turn strip marked a dead creature (struck through) as the one up next.
"""

from __future__ import annotations

from components.events import TurnStarted
from game import Battle


def test_the_dead_are_not_up_next() -> None:
    b = Battle(seed=1, width=8, height=3)
    first = b.spawn("A", 0, 0, team="x", initiative_bonus=100)
    dead = b.spawn("Dead", 2, 0, team="y", initiative_bonus=50, fatigue=4, health=5)
    out = b.spawn("Out cold", 4, 0, team="y", initiative_bonus=0, fatigue=5)
    last = b.spawn("C", 6, 0, team="y", initiative_bonus=-100)
    b.start_combat()
    b.damage(dead, 5)  # 0 Health at fatigue 4: a fifth point, and dead
    b.tick()
    assert "dead" in b.conditions(dead) and b.turn_order() == [first, dead, out, last]
    assert b.begin_round() == first
    assert b.turns_left() == [out, last]  # the unconscious still take their (empty) turn
    acted = [first]
    while (actor := b.end_turn()) is not None:
        assert b.turns_left() == [e for e in (out, last) if e not in (*acted, actor)]
        acted.append(actor)
    assert acted == [e.entity for e in b.events if isinstance(e, TurnStarted) and e.round == 2] == [first, out, last]
