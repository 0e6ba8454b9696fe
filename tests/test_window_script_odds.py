"""What a power's script would add, in the hover box: one line a creature."""

from __future__ import annotations

from game.battle.facade import Battle
from game.render import odds


def test_a_scripts_outcomes_for_one_creature_are_one_line() -> None:
    """The battle gives a script's numbers for a creature and then one outcome for each condition it
    grants; the hover box says them on one line, not "no change" and then "dazzled" for the same
    creature (a vampiric touch by a knight at full health, whose heal gives nothing back)."""
    b = Battle(seed=4, width=8, height=8)
    knight = b.spawn("Knight", 2, 2, team="blue", health=20, powers=["vampiric-touch"])
    orc = b.spawn("Orc", 3, 2, team="red", health=12)
    b.damage(orc, 2)
    b.tick()
    b.begin_round()
    while b.current_actor != knight:
        b.end_turn()
    foresight = (b.foresee_script(knight, "vampiric-touch", orc, None, hit=orc),)
    assert [o.target for o in foresight[0].outcomes].count(knight) == 2  # its numbers, then the dazzle
    lines = [line for line, _ in odds.script_lines(foresight, b.display_name, user=knight)]
    assert [line for line in lines if "Knight" in line] == ["  Knight (self): dazzled 20%"]
    assert "  Orc: damage avg 7.0; drops it 20%" in lines
