"""The computer player's reasons (``--explain``) are put into words only when read, as of the plan.

A plan weighs a few dozen options and explains one, so its reason is made when first read: it must
still say what the board was when the plan was made, and need nothing of the battle by then.
"""

from __future__ import annotations

from game import Battle
from game.ai import tactical


def test_a_reason_read_later_names_creatures_as_they_were_named_at_the_plan() -> None:
    b = Battle(seed=6, width=10, height=6)
    archer = b.spawn("Archer", 1, 2, team="a", powers=["shoot"])
    b.spawn("Orc", 6, 2, team="b", powers=["strike"])
    b.start_combat()
    decision = tactical.plan(b, archer)
    b.spawn("Orc", 8, 4, team="b", powers=["strike"])  # now there are two: the first is "Orc 1"
    b.close()  # and the battle is gone: the reason needs nothing of it
    assert "Shoot: Orc " in decision.why and "Orc 1" not in decision.why, decision.why
