"""What the log says of a downed creature healed above 0 Health (``Revived``): it said "is back on their
feet" of a knight a fall had downed, who lay there prone after the heal; it is no longer downed, no more."""

from __future__ import annotations

from game import Battle
from game.battle.log import format_log


def test_a_creature_downed_by_a_fall_and_healed_is_no_longer_downed_not_on_its_feet() -> None:
    b = Battle(seed=3, width=8, height=4)
    for y in range(4):
        b.set_ground(0, y, 60)
        b.set_ground(1, y, 60)
    knight = b.spawn("Knight", 1, 1, team="hill", health=5)
    b.spawn("Goblin", 7, 3, team="vale", health=8)
    b.start_combat()
    b.move(knight, 2, 1)  # off the 60 ft ledge: 6 dice on 5 Health
    b.tick()
    assert b.conditions(knight) >= {"downed", "prone"}
    b.heal(knight, 3)
    b.tick()
    assert "prone" in b.conditions(knight) and "downed" not in b.conditions(knight)
    lines = format_log(b)
    assert "Round 2: Knight is no longer downed" in lines
    assert not any("on their feet" in line for line in lines)
